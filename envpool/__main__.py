"""``python -m envpool --cmake-dir | --include | --version``: where the env SDK is, for a
separate project's build (docs/custom_env.md). ``--procgen-assets``: downloads procgen
0.10.7's images once into the cache folder (docs/procgen.md) and prints where."""

from __future__ import annotations

import argparse

from envpool.core import sdk


def main(argv: list[str] | None = None) -> None:
    """Prints the SDK location that the options ask for, one per line."""
    parser = argparse.ArgumentParser(prog="python -m envpool", description=__doc__)
    parser.add_argument("--cmake-dir", action="store_true",
                        help="the folder of envpoolConfig.cmake (for -Denvpool_DIR)")
    parser.add_argument("--include", action="store_true", help="the SDK's include directory")
    parser.add_argument("--version", action="store_true", help="envpool's version")
    parser.add_argument("--procgen-assets", action="store_true",
                        help="download procgen 0.10.7's images (its wheel, with pip) into the "
                             "cache folder, once, and print the folder")
    args = parser.parse_args(argv)
    if not (args.cmake_dir or args.include or args.version or args.procgen_assets):
        parser.error("give --cmake-dir, --include, --version or --procgen-assets")
    if args.version:
        print(sdk.VERSION)
    if args.cmake_dir:
        print(sdk.get_cmake_dir())
    if args.include:
        print(sdk.get_include())
    if args.procgen_assets:
        from envpool.tasks import procgen

        print(procgen.download_wheel())


if __name__ == "__main__":
    main()
