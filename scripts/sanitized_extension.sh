#!/usr/bin/env bash
# Builds envpool's native modules (envpool._native, envpool._atari and
# envpool._gfootball) with AddressSanitizer and UndefinedBehaviorSanitizer
# (build/ext-sanitized, RelWithDebInfo) and lays out a copy of the envpool
# package with them in build/sanitized/envpool, for scripts/sanitize_sweep.py.
# The ALE, ViZDoom, Box2D and gfootball engine libraries (~/.cache/envpool) and
# MuJoCo are not instrumented; envpool's own code (the pool, every env, the
# bindings) is.
#
# Usage: PYTHON=/path/to/venv/bin/python scripts/sanitized_extension.sh
#        then run what it prints last (the sweep under the sanitizers).
# Env:   JOBS (default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
PY="$(command -v "${PYTHON:-python3}")"
dir=build/ext-sanitized
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DENVPOOL_SANITIZER=address,undefined \
  -DPython_EXECUTABLE="$PY" -Dpybind11_DIR="$("$PY" -m pybind11 --cmakedir)" >/dev/null
cmake --build "$dir" -j"${JOBS:-2}"
pkg=build/sanitized
rm -rf "$pkg"
mkdir -p "$pkg"
cp -r envpool "$pkg/"
rm -f "$pkg"/envpool/_native*.so "$pkg"/envpool/_atari*.so "$pkg"/envpool/_gfootball*.so
for module in _native _atari _gfootball; do
  # (_atari and _gfootball are absent from a build configured without them)
  if compgen -G "$dir/$module*.so" >/dev/null; then cp "$dir"/$module*.so "$pkg/envpool/"; fi
done
find "$pkg" -name __pycache__ -prune -exec rm -rf {} +
# libstdc++ is preloaded with ASan: Python is a C program, and without it ASan's
# interceptor of C++ exceptions finds no __cxa_throw to call and aborts at the first throw.
asan="$(${CXX:-c++} -print-file-name=libasan.so) $(${CXX:-c++} -print-file-name=libstdc++.so)"
echo "built $pkg/envpool with $(ls "$pkg"/envpool/*.so | tr '\n' ' ')"
echo "run: ENVPOOL_SWEEP_PACKAGE=$pkg LD_PRELOAD=\"$asan\"" \
  "ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:abort_on_error=1" \
  "UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 $PY scripts/sanitize_sweep.py"
