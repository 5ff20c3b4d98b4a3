#!/usr/bin/env python3
"""Obtain and build ViZDoom's C++ controller library, once, into a cache.

The ``vizdoom`` wheel ships the engine (its ``vizdoom`` executable, the WADs,
``vizdoom.pk3`` and the scenarios) but no C++ headers or linkable controller;
the vizdoom sdist holds the controller's sources (``src/lib``, ``include``).
This script fetches that sdist for a pinned version through pip, and Boost's
headers through pip as the ``boost_headers`` wheel (Boost.Interprocess, Asio,
Algorithm, Random and Chrono are used header-only), and builds ``libvizdoom.a``
with the shims in ``vizdoom_shim/`` standing in for the three compiled Boost
pieces the controller touches (Thread, Filesystem, and the bundled
Boost.Process 0.5, whose replacement also ties the engine process to its
launcher). No system package is needed. It installs the library and the public
headers into

    $ENVPOOL_CACHE_DIR or ~/.cache/envpool / vizdoom-<version>-<compiler hash>

and prints that prefix on its last line; a later call finds the prefix and
returns at once. On failure (no network, no pip) it exits non-zero and the
package is built without ViZDoom.

Usage: build_vizdoom.py --version 1.3.2 --cxx /usr/bin/c++
"""

from __future__ import annotations

import argparse
import fcntl
import glob
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

import pip_fetch  # native/third_party/pip_fetch.py

BOOST_HEADERS = "boost_headers==1.85.0.post1"
HERE = os.path.dirname(os.path.abspath(__file__))
SHIM = os.path.join(HERE, "vizdoom_shim")


def log(msg: str) -> None:
    print(f"[build_vizdoom] {msg}", file=sys.stderr, flush=True)


def source_hash(cxx: str, version: str) -> str:
    try:
        out = subprocess.run([cxx, "--version"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        out = cxx
    shims = ""
    for path in sorted(glob.glob(os.path.join(SHIM, "**", "*.hpp"), recursive=True)):
        with open(path, "rb") as f:
            shims += hashlib.sha256(f.read()).hexdigest()
    compiler = os.path.realpath(shutil.which(cxx) or cxx)
    key = f"{version}\n{BOOST_HEADERS}\n{compiler}\n{out}\n{shims}\nv3"
    return hashlib.sha256(key.encode()).hexdigest()[:12]


# The Boost libraries (boost/<name>/) that the controller's sources include, directly or
# not (g++ -M on them, Boost 1.85: 1,341 of the wheel's 15,766 headers, all in these
# folders), besides Boost's top-level headers. Extracting these alone (4,300 files) takes a
# quarter of the time of all of Boost; if a compiler or Boost version reaches outside them,
# the build extracts the rest and compiles again.
BOOST_LIBRARIES = frozenset((
    "algorithm asio assert bind chrono concept config container core date_time detail "
    "exception function integer interprocess intrusive io iterator lexical_cast move mpl "
    "numeric predef preprocessor random range ratio smart_ptr system type_traits utility"
).split())


def extract_boost(wheel: str, dest: str, libraries: frozenset[str] | None) -> None:
    """Boost's headers from the boost_headers wheel into ``dest``/boost_headers/include: the
    top-level headers and the ``libraries`` folders (all of them when None)."""
    root = "boost_headers/include/"
    with zipfile.ZipFile(wheel) as z:
        names = []
        for name in z.namelist():
            if not name.startswith(root):
                continue
            parts = name[len(root):].split("/")
            if (libraries is None or len(parts) <= 2
                    or (parts[0] == "boost" and parts[1] in libraries)):
                names.append(name)
        z.extractall(dest, names)


def build(version: str, cxx: str, prefix: str) -> None:
    with tempfile.TemporaryDirectory(prefix="envpool-vizdoom-") as tmp:
        sdist = os.environ.get("ENVPOOL_VIZDOOM_SDIST") or pip_fetch.download(
            ["--no-binary=vizdoom", f"vizdoom=={version}"], tmp, f"vizdoom-{version}.tar.gz")
        log(f"extracting the controller sources from {sdist}")
        root = f"vizdoom-{version}/"
        # Not the bundled Boost.Process (src/lib/boost): the controller's
        # quoted #include "boost/process.hpp" must fall through to the shim.
        pip_fetch.unpack(sdist, tmp, lambda name: (
            name.startswith((root + "src/lib/", root + "include/"))
            and not name.startswith(root + "src/lib/boost/"))
            or name == root + "src/vizdoom/src/viz_doom_classes.h")
        src = os.path.join(tmp, root)
        boost_whl = os.environ.get("ENVPOOL_BOOST_HEADERS_WHEEL") or pip_fetch.download(
            [BOOST_HEADERS], tmp, "boost_headers-*.whl")
        log(f"extracting the Boost libraries the controller includes from {boost_whl}")
        extract_boost(boost_whl, tmp, BOOST_LIBRARIES)
        boost_inc = os.path.join(tmp, "boost_headers", "include")

        major, minor, patch = version.split(".")[:3]
        lib_src = os.path.join(src, "src", "lib")
        with open(os.path.join(lib_src, "ViZDoomVersion.h.in")) as f:
            text = f.read()
        text = text.replace("@ViZDoom_VERSION_ID@", f"{major}{minor}{patch}")
        text = text.replace("@ViZDoom_VERSION_STR@", version)
        with open(os.path.join(lib_src, "ViZDoomVersion.h"), "w") as f:
            f.write(text)

        # vizdoom's DoomController::close() reads the game state before checking it
        # exists; when the engine fails to start (before the shared memory is mapped)
        # that is a null dereference that kills the process. Check it first, so the
        # engine's error reaches the caller as an exception.
        controller = os.path.join(lib_src, "ViZDoomController.cpp")
        with open(controller) as f:
            text = f.read()
        unchecked = "if (this->gameState->DEMO_RECORDING){"
        if text.count(unchecked) != 1:
            raise SystemExit("ViZDoomController.cpp changed: revisit the close() fix")
        text = text.replace(unchecked,
                            "if (this->gameState && this->gameState->DEMO_RECORDING){")
        with open(controller, "w") as f:
            f.write(text)

        # The shims come first, so <boost/process.hpp>, <boost/thread.hpp> and
        # <boost/filesystem.hpp> resolve to them and not to the bundled or
        # Boost's own headers.
        flags = ["-std=c++17", "-O2", "-fPIC", "-w", "-DNDEBUG", "-DBOOST_CHRONO_HEADER_ONLY",
                 "-DBOOST_ALL_NO_LIB", f"-I{SHIM}", f"-I{lib_src}",
                 f"-I{os.path.join(src, 'include')}", "-isystem", boost_inc]
        # One compiler run over all the controller's sources (a unity file): each of them
        # parses much of Boost, so on 2 cores that is 23 s of CPU where one run per file
        # took 43 s (two at a time: 21 s of wall time, while the ALE builds beside it).
        sources = sorted(glob.glob(os.path.join(lib_src, "*.cpp")))
        unity = os.path.join(tmp, "vizdoom_controller.cpp")
        with open(unity, "w") as f:
            f.writelines(f'#include "{path}"\n' for path in sources)
        obj = os.path.join(tmp, "vizdoom_controller.o")
        log(f"compiling the {len(sources)} controller sources as one unit (about 25 s)")
        r = subprocess.run([cxx, *flags, "-c", unity, "-o", obj], capture_output=True, text=True)
        if r.returncode and "No such file or directory" in r.stderr:
            log("a Boost header outside BOOST_LIBRARIES is included: extracting all of Boost")
            extract_boost(boost_whl, tmp, None)
            r = subprocess.run([cxx, *flags, "-c", unity, "-o", obj], capture_output=True,
                               text=True)
        if r.returncode:
            raise SystemExit(f"compiling the controller failed:\n{r.stderr[-3000:]}")
        objs = [obj]

        staging = prefix + ".partial"
        shutil.rmtree(staging, ignore_errors=True)
        os.makedirs(os.path.join(staging, "lib"))
        ar = shutil.which("ar") or "ar"
        subprocess.run([ar, "rcs", os.path.join(staging, "lib", "libvizdoom.a"), *objs],
                       check=True)
        shutil.copytree(os.path.join(src, "include"), os.path.join(staging, "include"))
        if os.path.exists(prefix):
            shutil.rmtree(prefix)
        os.replace(staging, prefix)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--version", required=True)
    ap.add_argument("--cxx", default=os.environ.get("CXX", "c++"))
    ap.add_argument("--cache-dir", default=os.environ.get(
        "ENVPOOL_CACHE_DIR", os.path.join(os.path.expanduser("~"), ".cache", "envpool")))
    a = ap.parse_args()
    os.makedirs(a.cache_dir, exist_ok=True)
    prefix = os.path.join(a.cache_dir, f"vizdoom-{a.version}-{source_hash(a.cxx, a.version)}")
    lib = os.path.join(prefix, "lib", "libvizdoom.a")
    with open(os.path.join(a.cache_dir, f".vizdoom-{a.version}.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one builder at a time; others wait and reuse
        if not os.path.exists(lib):
            build(a.version, a.cxx, prefix)
        else:
            log(f"cached: {prefix}")
    print(prefix)


if __name__ == "__main__":
    main()
