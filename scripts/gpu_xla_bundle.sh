#!/usr/bin/env bash
# Makes the bundle that scripts/gpu_xla_check.sh runs from on a GPU machine without network
# (env.xla()'s CUDA handlers; docs/xla.md): this checkout's envpool with its extension built
# here for the GPU machine's Python (Atari and the core families; no ViZDoom, no gfootball),
# the XLA tests, the scripts, the runtime files of envpool's dependencies that such a machine
# lacks (MuJoCo's library, the ALE's ROMs, dm_control's cheetah model, gymnasium, dm-env,
# dm-tree), gym 0.23.1 + tyro for CleanRL, and CleanRL's scan script, as one .tar.xz.
#
#   BUILD_PYTHON=/path/to/python3.12 bash scripts/gpu_xla_bundle.sh OUT.tar.xz [FALLBACK_SHIM]
#
# BUILD_PYTHON: an interpreter of the GPU machine's Python version (3.12 for the H200
# machines) with pybind11 and mujoco==3.17.0 installed (and ninja, used where it sits beside
# it). The build ($BUILD_DIR, default build/gpu-bundle-cpXY) is incremental. CLEANRL_DIR:
# CleanRL's scripts (default ../shared/peer/cleanrl). The machine this runs on must reach the
# package index (pip downloads the wheels). FALLBACK_SHIM: a shim source that
# gpu_xla_check.sh uses where the package's fails its smoke test.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=${1:?usage: gpu_xla_bundle.sh OUT.tar.xz [FALLBACK_SHIM]}
dest=$(cd "$(dirname "$dest")" && pwd)/$(basename "$dest")
fallback=${2:-}
PY=${BUILD_PYTHON:?set BUILD_PYTHON to a Python of the version the GPU machine has}
tag=$($PY -c 'import sys; print(f"cp{sys.version_info[0]}{sys.version_info[1]}")')
pyver=$($PY -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
cleanrl=${CLEANRL_DIR:-../shared/peer/cleanrl}

build=${BUILD_DIR:-build/gpu-bundle-$tag}
ninja=$(dirname "$PY")/ninja
gen=()
[ -x "$ninja" ] && gen=(-G Ninja -DCMAKE_MAKE_PROGRAM="$ninja")
cmake -S . -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DPython_EXECUTABLE="$PY" \
  -Dpybind11_DIR="$($PY -m pybind11 --cmakedir)" -DENVPOOL_WITH_VIZDOOM=OFF \
  -DENVPOOL_WITH_GFOOTBALL=OFF >/dev/null
cmake --build "$build" -j"${JOBS:-2}"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
git ls-files envpool native/core tests/conftest.py tests/test_xla.py tests/test_xla_gpu.py \
  tests/xla_trajectories.py \
  scripts/gpu_xla_check.sh scripts/gpu_pong_xla.sh scripts/cleanrl_common.sh \
  scripts/cleanrl_curve.py benchmarks/bench_xla.py benchmarks/_runners.py pyproject.toml \
  | tar cf - -T - | tar xf - -C "$stage"
cp "$build"/_native*.so "$build"/_atari*.so "$build"/_gfootball*.so "$stage/envpool/"
# The system libraries the extension links that a GPU machine's image may lack (FreeType,
# found at the build for CarRacing's text, and what it links): gpu_xla_check.sh puts lib/ on
# LD_LIBRARY_PATH.
mkdir -p "$stage/lib"
ldd "$build"/_native*.so | awk '/libfreetype|libpng16|libbrotli/ {print $3}' \
  | xargs -r cp -L -t "$stage/lib"
mkdir -p "$stage/cleanrl"
cp "$cleanrl/ppo_atari_envpool_xla_jax_scan.py" "$cleanrl/LICENSE" "$stage/cleanrl/"
if [ -n "$fallback" ]; then mkdir -p "$stage/fallback" && cp "$fallback" "$stage/fallback/xla_shim.cc"; fi

# The dependencies' files, for the GPU machine's Python (manylinux wheels), into site/.
wheels=$stage/wheels
plat=()
for p in manylinux_2_28_x86_64 manylinux_2_27_x86_64 manylinux_2_24_x86_64 \
  manylinux_2_17_x86_64 manylinux2014_x86_64 any; do plat+=(--platform "$p"); done
$PY -m pip download -q --no-deps --only-binary=:all: --python-version "$pyver" \
  --implementation cp "${plat[@]}" -d "$wheels" mujoco==3.17.0 ale-py==0.12.1 \
  gymnasium==1.4.0 farama-notifications==0.0.6 dm-env==1.6 dm-tree==0.1.10 dm-control==1.0.50
$PY -m pip install -q --no-deps --no-compile --target "$stage/site" \
  "$wheels"/{mujoco,ale_py,gymnasium,farama_notifications,dm_env,dm_tree}-*.whl
(
  cd "$stage/site"
  # envpool loads mujoco's library and reads the ROMs from ale_py without importing either
  rm -rf ale_py-*.dist-info mujoco-*.dist-info ale_py.libs
  find ale_py -mindepth 1 -maxdepth 1 ! -name roms -exec rm -rf {} +
  find mujoco -mindepth 1 -maxdepth 1 ! -name 'libmujoco.so.*' -exec rm -rf {} +
  # CheetahRun-v1 (tests/test_xla.py) reads dm_control's model files
  mkdir -p dm_control/suite
  unzip -q "$wheels"/dm_control-*.whl 'dm_control/suite/cheetah.xml' 'dm_control/suite/common/*' -d .
)
rm -rf "$wheels"
$PY -m pip install -q --no-deps --no-compile --target "$stage/gym_legacy" gym==0.23.1 \
  "cloudpickle>=1.2" "gym-notices>=0.0.4" tyro==1.0.17 docstring-parser==0.18.0 \
  typeguard==4.6.1
# The shims compiled here against BUILD_PYTHON's jaxlib (where it has jax: give it the GPU
# machine's version), for a machine without a C++ compiler: gpu_xla_check.sh then sets
# CXX=true, whose cache entries (xla_build.library_path("true")) these are.
if $PY -c "import jax.ffi" 2>/dev/null; then
  for src in "$stage/envpool/core/xla_shim.cc" ${fallback:+"$stage/fallback/xla_shim.cc"}; do
    lib=$(cd "$stage" && XDG_CACHE_HOME=$stage/prebuilt PYTHONPATH=$stage:$stage/site $PY -c "
import pathlib, sys
from envpool.core import xla_build
xla_build._SHIM = pathlib.Path(sys.argv[1])
print(xla_build.library_path('true'))" "$src")
    mkdir -p "$(dirname "$lib")"
    c++ "-std=c++17" -O2 -shared -fPIC -isystem "$($PY -c 'import jax.ffi; print(jax.ffi.include_dir())')" \
      -I "$stage/native" "$src" -o "$lib" -ldl
    echo "prebuilt: ${lib#"$stage"/}"
  done
fi
find "$stage" -name __pycache__ -prune -exec rm -rf {} +
tar cJf "$dest" -C "$stage" .
echo "bundle: $dest ($(du -h "$dest" | cut -f1))"
