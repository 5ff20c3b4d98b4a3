#!/usr/bin/env python3
"""Install the gfootball package (2.10.2), the reference of tests/test_align_gfootball.py,
into this interpreter without compiling its engine a second time.

``pip install gfootball==2.10.2`` builds the package's engine with its own CMake (about 4
minutes on 2 cores, and with CMake 4 only under ``CMAKE_POLICY_VERSION_MINIMUM=3.5``). envpool's
build has already compiled the same sources (native/third_party/build_gfootball.py keeps the
objects in its cache). This script makes the package's engine module from them instead:

* the objects of every engine source that envpool's build does not patch, as they are;
* the three files it patches (``base/log.cpp``, ``cmake/backtrace.cpp``, ``game_env.cpp``),
  compiled here from the sdist as the package has them, and the package's Boost.Python
  binding ``ai.cpp``, with the same flags;

linked into ``_gameplayfootball.so`` (kept beside the engine's objects for the next install
into a venv of the same Python), which the package's own ``setup.py`` installs in place
of building (its ``GFOOTBALL_USE_PREBUILT_SO=1`` path). Everything else is the package's sdist,
installed as pip installs it. The engine's arithmetic is the same either way (no
floating-point flags differ; the package's -O3 -g against -O2); the dev venv's pip-built
package and the nightly workflow's align the same way.

Needs Boost.Python for this interpreter's version (Debian: libboost-python-dev) besides the
engine's libraries.

Usage: python scripts/build_gfootball_reference.py   (the interpreter to install into)
"""

from __future__ import annotations

import glob
import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
THIRD_PARTY = os.path.join(os.path.dirname(HERE), "native", "third_party")
sys.path.insert(0, THIRD_PARTY)

import build_gfootball  # noqa: E402 (native/third_party/build_gfootball.py)
import pip_fetch  # noqa: E402

VERSION = "2.10.2"


def _make_module(cxx: str, sources: list[str], engine: str, objects: list[str],
                 flags: list[str], libs: list[str], module: str, tmp: str) -> None:
    """Compiles ``sources`` and links them with ``objects`` into the engine module."""
    py = f"{sys.version_info.major}{sys.version_info.minor}"
    objects = list(objects)
    for path in sources:
        obj = os.path.join(tmp, os.path.basename(path)[:-4] + ".o")
        print(f"[gfootball reference] compiling {os.path.relpath(path, engine)}", flush=True)
        subprocess.run([cxx, *build_gfootball.FLAGS, *flags, "-c", path, "-o", obj], check=True)
        objects.append(obj)
    link = subprocess.run([cxx, "-shared", "-o", module, *objects, *libs,
                           f"-lboost_python{py}"], capture_output=True, text=True)
    if link.returncode:
        raise SystemExit(
            f"linking the package's engine module failed; it needs Boost.Python for Python "
            f"{sys.version_info.major}.{sys.version_info.minor} (libboost_python{py}: "
            "Debian / Ubuntu's libboost-python-dev has it for the system's Python "
            f"only):\n{link.stderr[-2000:]}")


def main() -> None:
    cxx = os.environ.get("CXX", "c++")
    # The engine the installed envpool was built with (its objects are beside it), else a
    # build of it.
    prefix = subprocess.run(
        [sys.executable, "-c", "import envpool._gfootball as n; print(n.build_dir)"],
        capture_output=True, text=True).stdout.strip()
    if not prefix or not glob.glob(os.path.join(prefix, "obj", "*.o")):
        prefix = subprocess.run(
            [sys.executable, os.path.join(THIRD_PARTY, "build_gfootball.py"), "--version",
             VERSION, "--cxx", cxx], check=True, capture_output=True,
            text=True).stdout.strip().splitlines()[-1]
    print(f"[gfootball reference] the engine's objects: {prefix}", flush=True)
    cflags, libs = build_gfootball.system_flags()
    py = f"{sys.version_info.major}{sys.version_info.minor}"
    with tempfile.TemporaryDirectory(prefix="envpool-gfootball-ref-") as tmp:
        sdist = os.environ.get("ENVPOOL_GFOOTBALL_SDIST") or pip_fetch.download(
            ["--no-binary=gfootball", f"gfootball=={VERSION}"], tmp, f"gfootball-{VERSION}.tar.gz")
        pip_fetch.unpack(sdist, tmp)
        root = glob.glob(os.path.join(tmp, f"gfootball-{VERSION}"))[0]
        engine = os.path.join(root, build_gfootball.ENGINE)
        src = os.path.join(engine, "src")
        patched = sorted({rel for rel, _, _ in build_gfootball.PATCHES})
        skip = {build_gfootball.object_name(rel) for rel in patched}
        objects = [o for o in sorted(glob.glob(os.path.join(prefix, "obj", "*.o")))
                   if os.path.basename(o) not in skip]
        includes = [f"-I{src}", f"-I{os.path.join(src, 'cmake')}",
                    f"-I{sysconfig.get_paths()['include']}"]
        module = os.path.join(engine, "lib", "prebuilt_gameplayfootball.so")
        os.makedirs(os.path.dirname(module), exist_ok=True)
        # The module made once per engine build (the prefix: the version and the compiler),
        # this Python and these flags and libraries: kept beside the engine's objects.
        key = hashlib.sha256(repr((py, cxx, build_gfootball.FLAGS, cflags, includes[2:],
                                   libs)).encode()).hexdigest()[:12]
        cached = os.path.join(prefix, f"reference-{key}", "prebuilt_gameplayfootball.so")
        if os.path.exists(cached):
            print(f"[gfootball reference] the engine module made before: {cached}", flush=True)
            shutil.copyfile(cached, module)
        else:
            _make_module(cxx, [os.path.join(src, rel) for rel in patched]
                         + [os.path.join(engine, "ai.cpp")], engine, objects, cflags + includes,
                         libs, module, tmp)
            try:
                os.makedirs(os.path.dirname(cached), exist_ok=True)
                shutil.copyfile(module, cached + ".part")
                os.replace(cached + ".part", cached)
            except OSError as e:  # a prefix that is not writable: made again next time
                print(f"[gfootball reference] not kept ({e})", flush=True)
        env = dict(os.environ, GFOOTBALL_USE_PREBUILT_SO="1")
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                        "--no-build-isolation", root], check=True, env=env)
    subprocess.run([sys.executable, "-c", "import gfootball.env.football_env"], check=True)
    print("[gfootball reference] installed gfootball", VERSION, flush=True)


if __name__ == "__main__":
    main()
