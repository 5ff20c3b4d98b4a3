#!/usr/bin/env python3
"""Obtain and build Box2D's C++ engine, once, into a cache.

gymnasium's Box2D envs run on pybox2d (the ``box2d`` package, 2.3.10), a SWIG wrapper
around Box2D 2.3's C++ sources with pybox2d's settings (``b2_maxPolygonVertices`` 16
instead of 8, for one). That wheel ships no headers or linkable library, and the
registry has no sdist of it; the sdist of the same lineage that holds the C++ sources
is ``box2d-py`` 2.3.8 (its ``Box2D/`` folder: Common, Collision, Dynamics). This script
fetches that sdist through pip, compiles those sources (not the SWIG wrapper) with the
package's flags into ``libbox2d.a`` (static, position independent) and installs it with
its headers into

    $ENVPOOL_CACHE_DIR or ~/.cache/envpool / box2d-<version>-<compiler hash>

and prints that prefix on its last line. A later call with the same version and compiler
finds the prefix and returns at once.

The C++ sources are those of pybox2d's 2.3.10 tag, file for file (checked against
pybox2d's repository; only its SWIG wrapper files differ). Two kinds of change to them
(PATCHES), neither touching the arithmetic:

* ``Common/b2Settings.h`` defines ``USE_EXCEPTIONS``, which makes ``b2Assert`` include
  ``Python.h`` and raise a Python error (the wrapper's way of reporting a bad shape). Here
  it is left undefined, so ``b2Assert`` is the standard ``assert``, compiled out under
  ``NDEBUG`` as in any release build.
* Box2D 2.3 has process-wide state that the pool's threads, each stepping its own worlds,
  would otherwise share without a lock: the GJK and time-of-impact statistics counters
  (written on every call, read by nobody here) become ``thread_local``, and the block
  allocator's size table and the contact type registers, each filled on first use behind a
  plain flag, are filled once behind a function-local static (C++11 guarantees its
  initialisation runs once, and that every thread sees it done).

The 45 source files compile as two unity units, one per core (each file alone parses the
same headers again): about 7 s of CPU instead of 21.

Usage: build_box2d.py --version 2.3.8 --cxx /usr/bin/c++
"""

from __future__ import annotations

import argparse
import concurrent.futures
import fcntl
import glob
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

import pip_fetch  # native/third_party/pip_fetch.py

# The project's arithmetic flags (CMakeLists.txt): no FMA contraction, -O2.
FLAGS = ["-std=c++17", "-O2", "-fPIC", "-ffp-contract=off", "-DNDEBUG", "-w"]
# (file, text, replacement): each text must occur exactly once in the pinned sdist.
PATCHES = [
    ("Common/b2Settings.h", "#define USE_EXCEPTIONS\n",
     "// envpool: USE_EXCEPTIONS left undefined (b2Assert is assert)\n"),
    ("Collision/b2Distance.cpp", "\nint32 b2_gjkCalls, b2_gjkIters, b2_gjkMaxIters;\n",
     "\nthread_local int32 b2_gjkCalls, b2_gjkIters, b2_gjkMaxIters;\n"),
    ("Collision/b2TimeOfImpact.cpp",
     "\nfloat32 b2_toiTime, b2_toiMaxTime;\nint32 b2_toiCalls, b2_toiIters, b2_toiMaxIters;\n"
     "int32 b2_toiRootIters, b2_toiMaxRootIters;\n",
     "\nthread_local float32 b2_toiTime, b2_toiMaxTime;\n"
     "thread_local int32 b2_toiCalls, b2_toiIters, b2_toiMaxIters;\n"
     "thread_local int32 b2_toiRootIters, b2_toiMaxRootIters;\n"),
    ("Common/b2BlockAllocator.cpp", "\tif (s_blockSizeLookupInitialized == false)\n\t{\n",
     "\tstatic const bool envpool_lookup_made = []() -> bool\n\t{\n"),
    ("Common/b2BlockAllocator.cpp", "\t\ts_blockSizeLookupInitialized = true;\n\t}\n}",
     "\t\ts_blockSizeLookupInitialized = true;\n\t\treturn true;\n\t}();\n"
     "\t(void)envpool_lookup_made;\n}"),
    ("Dynamics/Contacts/b2Contact.cpp",
     "\tif (s_initialized == false)\n\t{\n\t\tInitializeRegisters();\n"
     "\t\ts_initialized = true;\n\t}\n",
     "\tstatic const bool envpool_registers_made = []() -> bool\n\t{\n"
     "\t\tInitializeRegisters();\n\t\ts_initialized = true;\n\t\treturn true;\n\t}();\n"
     "\t(void)envpool_registers_made;\n"),
]
UNITS = 2


def log(msg: str) -> None:
    print(f"[build_box2d] {msg}", file=sys.stderr, flush=True)


def compiler_hash(cxx: str, version: str) -> str:
    try:
        out = subprocess.run([cxx, "--version"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        out = cxx
    compiler = os.path.realpath(shutil.which(cxx) or cxx)
    key = f"{version}\n{compiler}\n{out}\n{' '.join(FLAGS)}\n{PATCHES}\nv1"
    return hashlib.sha256(key.encode()).hexdigest()[:12]


def patch_sources(box2d_dir: str) -> None:
    """Applies PATCHES; each piece must match the pinned sdist exactly once."""
    for rel, old, new in PATCHES:
        path = os.path.join(box2d_dir, rel)
        with open(path) as f:
            text = f.read()
        if text.count(old) != 1:
            raise RuntimeError(f"{path}: a patch does not apply (the source differs from the "
                               "pinned sdist's)")
        with open(path, "w") as f:
            f.write(text.replace(old, new))


def build(version: str, cxx: str, prefix: str) -> None:
    with tempfile.TemporaryDirectory(prefix="envpool-box2d-") as tmp:
        sdist = os.environ.get("ENVPOOL_BOX2D_SDIST") or pip_fetch.download(
            ["--no-binary=box2d-py", f"box2d-py=={version}"], tmp, f"box2d*py-{version}.tar.gz")
        log(f"extracting {sdist}")
        pip_fetch.unpack(sdist, tmp, lambda name: "/Box2D/" in name)
        roots = glob.glob(os.path.join(tmp, "*", "Box2D", "Common", "b2Settings.h"))
        if len(roots) != 1:
            raise RuntimeError(f"{sdist}: no Box2D/Common/b2Settings.h")
        box2d_dir = os.path.dirname(os.path.dirname(roots[0]))
        src_root = os.path.dirname(box2d_dir)
        patch_sources(box2d_dir)
        sources = sorted(glob.glob(os.path.join(box2d_dir, "**", "*.cpp"), recursive=True))
        if not sources:
            raise RuntimeError(f"{sdist}: no Box2D sources")
        units = []
        for i in range(UNITS):
            unit = os.path.join(tmp, f"box2d_unit{i}.cpp")
            with open(unit, "w") as f:
                f.writelines(f'#include "{s}"\n' for s in sources[i::UNITS])
            units.append(unit)
        log(f"compiling {len(sources)} files as {UNITS} units")

        def compile_unit(unit: str) -> str:
            obj = unit[:-4] + ".o"
            subprocess.run([cxx, *FLAGS, f"-I{src_root}", "-c", unit, "-o", obj], check=True,
                           stdout=sys.stderr)
            return obj

        with concurrent.futures.ThreadPoolExecutor(UNITS) as pool:
            objects = list(pool.map(compile_unit, units))
        staging = prefix + ".partial"
        shutil.rmtree(staging, ignore_errors=True)
        os.makedirs(os.path.join(staging, "lib"))
        ar = shutil.which("ar") or "ar"
        subprocess.run([ar, "rcs", os.path.join(staging, "lib", "libbox2d.a"), *objects],
                       check=True, stdout=sys.stderr)
        for header in glob.glob(os.path.join(box2d_dir, "**", "*.h"), recursive=True):
            dest = os.path.join(staging, "include", os.path.relpath(header, src_root))
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copy2(header, dest)
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
    prefix = os.path.join(a.cache_dir, f"box2d-{a.version}-{compiler_hash(a.cxx, a.version)}")
    lib = os.path.join(prefix, "lib", "libbox2d.a")
    with open(os.path.join(a.cache_dir, f".box2d-{a.version}.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one builder at a time; others wait and reuse
        if not os.path.exists(lib):
            build(a.version, a.cxx, prefix)
        else:
            log(f"cached: {prefix}")
    print(prefix)


if __name__ == "__main__":
    main()
