#!/usr/bin/env python3
"""Obtain and build the Arcade Learning Environment's C++ library, once, into a cache.

No wheel ships the ALE's headers or a linkable library, but the ale-py sdist holds
its full C++ source (``src/ale``). This script fetches that sdist for a pinned
version through pip, builds ``libale.a`` (static, position independent, no SDL,
no vector/OpenCV part; needs only zlib) and installs it with its headers into

    $ENVPOOL_CACHE_DIR or ~/.cache/envpool / ale-<version>-<compiler hash>

and prints that prefix on its last line. A later call with the same version and
compiler finds the prefix and returns at once, so the library is built once per
machine and reused across build trees, virtual environments and isolated builds.

Usage: build_ale.py --version 0.12.1 --cxx /usr/bin/c++ [--jobs N]
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

import pip_fetch  # native/third_party/pip_fetch.py


def log(msg: str) -> None:
    print(f"[build_ale] {msg}", file=sys.stderr, flush=True)


def compiler_hash(cxx: str, version: str) -> str:
    try:
        out = subprocess.run([cxx, "--version"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        out = cxx
    key = f"{version}\n{os.path.realpath(shutil.which(cxx) or cxx)}\n{out}\nv4"
    return hashlib.sha256(key.encode()).hexdigest()[:12]


UNITY = """
set_target_properties(ale PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 32)
get_target_property(_envpool_ale_sources ale SOURCES)
foreach(_src ${_envpool_ale_sources})
  if(_src MATCHES "emucore/(M6502|NullDev)")
    set_source_files_properties(${_src} TARGET_DIRECTORY ale PROPERTIES
                                SKIP_UNITY_BUILD_INCLUSION ON)
  endif()
endforeach()
"""


# ALE's phosphor blend (the colour averaging of two frames, which ale-py and this package
# leave off) fills its tables in its constructor, in every loadROM: 33 million palette
# lookups for the RGB -> NTSC map, 175 of the 190 ms that loadROM took (ale-py's own
# loadROM takes as long). Here the tables are filled on the blend's first use instead, so
# making an Atari env costs about 20 ms. The emulation is untouched: the tables are read
# only by PhosphorBlend::process, which runs only with color_averaging on.
PHOSPHOR_PATCH = [
    ("environment/phosphor_blend.hpp", "  uint8_t m_phosphor_blend_ratio;\n",
     "  uint8_t m_phosphor_blend_ratio;\n  bool m_tables_made = false;\n"),
    ("environment/phosphor_blend.cpp",
     "  m_phosphor_blend_ratio = 77;\n\n  makeAveragePalette();\n}",
     "  m_phosphor_blend_ratio = 77;\n}"),
    ("environment/phosphor_blend.cpp",
     "void PhosphorBlend::process(ALEScreen& screen) {\n",
     "void PhosphorBlend::process(ALEScreen& screen) {\n"
     "  if (!m_tables_made) {\n    makeAveragePalette();\n    m_tables_made = true;\n  }\n"),
]


def patch_phosphor_blend(ale_src: str) -> None:
    """Applies PHOSPHOR_PATCH; each piece must match the pinned sdist exactly once."""
    for rel, old, new in PHOSPHOR_PATCH:
        path = os.path.join(ale_src, rel)
        with open(path) as f:
            text = f.read()
        if text.count(old) != 1:
            raise RuntimeError(f"{path}: the phosphor-blend patch does not apply (the ALE "
                               "source differs from the pinned sdist's)")
        with open(path, "w") as f:
            f.write(text.replace(old, new))


def build(version: str, cxx: str, prefix: str, jobs: int) -> None:
    with tempfile.TemporaryDirectory(prefix="envpool-ale-") as tmp:
        sdist = os.environ.get("ENVPOOL_ALE_SDIST") or pip_fetch.download(
            ["--no-binary=ale-py", f"ale-py=={version}"], tmp, f"ale_py-{version}.tar.gz")
        log(f"extracting {sdist}")
        pip_fetch.unpack(sdist, tmp)
        src = os.path.join(tmp, f"ale_py-{version}")
        patch_phosphor_blend(os.path.join(src, "src", "ale"))
        # Build without interprocedural optimisation: LTO objects in libale.a would
        # make every link of the extension redo the ALE's code generation.
        cml = os.path.join(src, "src", "ale", "CMakeLists.txt")
        with open(cml) as f:
            text = f.read()
        text = text.replace("set(CMAKE_INTERPROCEDURAL_OPTIMIZATION TRUE)",
                            "set(CMAKE_INTERPROCEDURAL_OPTIMIZATION FALSE)")
        # The ALE's files compile in unity batches of 32 instead of one compiler run each
        # (most are small, and each parses the same headers): on 2 cores the build took
        # 81 s one file at a time, 36 s with the game files batched, 20 s (37 s of CPU
        # instead of 64) with the emulator's files batched too. Alone: the 6502 cores
        # (large, and the two variants include the same .ins file) and NullDev.cxx (its
        # header's include guard ends before its namespaces close, so it cannot be
        # included twice).
        text += UNITY
        with open(cml, "w") as f:
            f.write(text)
        bdir = os.path.join(tmp, "build")
        staging = prefix + ".partial"
        shutil.rmtree(staging, ignore_errors=True)
        env = dict(os.environ)
        for var in ("VCPKG_ROOT", "VCPKG_INSTALLATION_ROOT", "CMAKE_TOOLCHAIN_FILE"):
            env.pop(var, None)
        cmake = shutil.which("cmake") or "cmake"
        configure = [
            cmake, "-S", src, "-B", bdir,
            "-DCMAKE_BUILD_TYPE=Release",
            f"-DCMAKE_CXX_COMPILER={cxx}",
            f"-DCMAKE_INSTALL_PREFIX={staging}",
            "-DCMAKE_INSTALL_LIBDIR=lib",
            "-DCMAKE_POSITION_INDEPENDENT_CODE=ON",
            "-DBUILD_SHARED_LIBS=OFF",
            "-DBUILD_CPP_LIB=ON", "-DBUILD_PYTHON_LIB=OFF",
            "-DSDL_SUPPORT=OFF", "-DBUILD_VECTOR_LIB=OFF",
        ]
        log("configuring: " + " ".join(configure))
        subprocess.run(configure, check=True, env=env, stdout=sys.stderr)
        log(f"building libale.a with {jobs} jobs (about 20 s on 2 cores)")
        subprocess.run([cmake, "--build", bdir, "-j", str(jobs)], check=True, env=env,
                       stdout=sys.stderr)
        subprocess.run([cmake, "--install", bdir], check=True, env=env, stdout=sys.stderr)
        if os.path.exists(prefix):
            shutil.rmtree(prefix)
        os.replace(staging, prefix)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--version", required=True)
    ap.add_argument("--cxx", default=os.environ.get("CXX", "c++"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--cache-dir", default=os.environ.get(
        "ENVPOOL_CACHE_DIR", os.path.join(os.path.expanduser("~"), ".cache", "envpool")))
    a = ap.parse_args()
    os.makedirs(a.cache_dir, exist_ok=True)
    prefix = os.path.join(a.cache_dir, f"ale-{a.version}-{compiler_hash(a.cxx, a.version)}")
    lib = os.path.join(prefix, "lib", "libale.a")
    with open(os.path.join(a.cache_dir, f".ale-{a.version}.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one builder at a time; others wait and reuse
        if not os.path.exists(lib):
            build(a.version, a.cxx, prefix, a.jobs)
        else:
            log(f"cached: {prefix}")
    print(prefix)


if __name__ == "__main__":
    main()
