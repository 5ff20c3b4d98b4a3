#!/usr/bin/env bash
# Builds envpool._native in place (envpool/_native*.so) for development in a checkout or a git
# worktree, without installing the package: run it from any folder, then use the checkout with
# PYTHONPATH=<checkout> and an interpreter that has envpool's dependencies (and pybind11).
#
# Usage: PYTHON=/path/to/venv/bin/python scripts/dev_build.sh      (default PYTHON: python3)
# Env:   JOBS (default 2); extra CMake arguments go after the script's name.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="$(command -v "${PYTHON:-python3}")"
dir=build/dev
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DPython_EXECUTABLE="$PY" \
  -Dpybind11_DIR="$("$PY" -m pybind11 --cmakedir)" "$@" >/dev/null
cmake --build "$dir" -j"${JOBS:-2}"
cp "$dir"/_native*.so envpool/
echo "built $(ls envpool/_native*.so)"
