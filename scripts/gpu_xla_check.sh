#!/usr/bin/env bash
# env.xla()'s CUDA handlers on a GPU machine, in one go: run from a bundle that
# scripts/gpu_xla_bundle.sh made (envpool with its built extension for the machine's Python,
# the tests, these scripts, the runtime files it lacks, gym 0.23.1 + tyro, CleanRL's scan
# script), on a machine with jax's CUDA build, flax, optax, tensorboard and torch installed and
# no network:
#
#   tar xJf gpu_xla_bundle.tar.xz -C /tmp/gx && bash /tmp/gx/scripts/gpu_xla_check.sh OUT_DIR
#
# Phases, each logged under OUT_DIR (at most 8 files, so that they all come back from a lent
# machine):
#   env.txt     the GPU, the driver, Python, jax and its devices, the C++ compiler
#   check.log   each phase's start, end and exit status, and the smoke test
#   pytest.log  tests/test_xla_gpu.py (jitted rollouts placed on the GPU against the CPU's, bit
#               for bit) and tests/test_xla.py (whose jitted functions land on the GPU, jax's
#               default device there), ENVPOOL_REQUIRE_GPU=1
#   red.log     the GPU tests against three deliberate breaks (the CUDA recv not copying the
#               observations to the GPU; the CUDA send stepping with zero actions; xla.py's
#               fusion barriers made identities): each must fail
#   bench.txt   benchmarks/bench_xla.py: the jitted scan on the GPU against the Python loop
#   pong/       scripts/gpu_pong_xla.sh (CleanRL's PPO, SECONDS_BUDGET, default 150 s here):
#               summary.txt, run.log, curve.csv
# If the smoke test fails and the bundle holds fallback/xla_shim.cc, that shim replaces the
# package's and the smoke test runs again (check.log says which one ran).
set -uo pipefail
out=${1:?usage: gpu_xla_check.sh OUT_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
PY=${PYTHON:-python3}
export PYTHONPATH=$root:$root/site${PYTHONPATH:+:$PYTHONPATH}
export LD_LIBRARY_PATH=$root/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}  # (gpu_xla_bundle.sh)
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1 MUJOCO_GL=egl
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/gx-cache}  # the compiled shims
log=$out/check.log
t0=$SECONDS
note() { echo "== +$((SECONDS - t0))s $*" | tee -a "$log"; }
cd "$root"

note "env"
{
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
  nproc --all; $PY --version; command -v c++ g++ || echo "no c++ on PATH"; c++ --version | head -1
  $PY - <<'EOF'
import jax, numpy, envpool
print("jax", jax.__version__, "devices", jax.devices(), "default backend", jax.default_backend())
print("numpy", numpy.__version__, "envpool", envpool.__version__, envpool.__file__)
for name in ("jaxlib", "flax", "optax", "torch", "tensorboard"):
    try:
        print(name, __import__(name).__version__)
    except Exception as e:  # noqa: BLE001
        print(name, "missing:", e)
EOF
} >"$out/env.txt" 2>&1
cat "$out/env.txt" >>"$log"

# The bundle's shims (compiled with it; CXX=true names their cache entries), where this
# machine has no C++ compiler or cannot compile the shim.
use_prebuilt() {
  export CXX=true
  mkdir -p "$XDG_CACHE_HOME" && cp -r "$root/prebuilt/envpool" "$XDG_CACHE_HOME/"
}
if [ -z "${CXX:-}" ] && ! command -v c++ g++ clang++ >/dev/null \
  && [ -d "$root/prebuilt/envpool" ]; then
  note "no C++ compiler: the bundle's shims"
  use_prebuilt
fi

smoke() {
  timeout 90 $PY - <<'EOF' 2>&1 | tee -a "$log"
import jax, jax.numpy as jnp, numpy as np, envpool
gpu, cpu = jax.devices("gpu")[0], jax.devices("cpu")[0]
outs = {}
for dev in (gpu, cpu):
    env = envpool.make_gym("CartPole-v1", num_envs=4, seed=3)
    handle, recv, send, step = env.xla()
    env.async_reset()
    handle, _ = recv(jax.device_put(handle, dev))
    roll = jax.jit(lambda h, a: jax.lax.scan(lambda h, x: step(h, x), h, a))
    handle, out = jax.block_until_ready(roll(handle, jax.device_put(jnp.ones((50, 4), jnp.int32), dev)))
    outs[dev.platform] = out
    print(dev, "obs on", out[0].devices(), "reward sum", float(out[1].sum()))
    env.close()
same = all(np.array_equal(a, b) for a, b in zip(jax.tree_util.tree_leaves(outs["gpu"]),
                                                jax.tree_util.tree_leaves(outs["cpu"])))
print("smoke: GPU equals CPU bit for bit:", same)
assert same and outs["gpu"][0].devices() == {gpu}
EOF
}

note "smoke (the package's shim)"
ok=0
smoke && ok=1
if [ $ok = 0 ] && [ -z "${CXX:-}" ] && [ -d "$root/prebuilt/envpool" ] \
  && grep -q "compiling envpool's XLA custom calls failed" "$log"; then
  note "smoke: the shim did not compile here: the bundle's shims"
  use_prebuilt
  smoke && ok=1
fi
if [ $ok = 0 ] && [ -f "$root/fallback/xla_shim.cc" ]; then
  note "smoke failed: trying fallback/xla_shim.cc"
  cp "$root/fallback/xla_shim.cc" "$root/envpool/core/xla_shim.cc"
  smoke && ok=1
fi
note "smoke: $([ $ok = 1 ] && echo ok || echo FAILED) (shim: $(md5sum <"$root/envpool/core/xla_shim.cc" | cut -c1-8), CXX=${CXX:-})"

note "pytest"
ENVPOOL_REQUIRE_GPU=1 timeout 240 $PY -m pytest -p no:cacheprovider -q -rs --timeout 90 \
  --durations=12 tests/test_xla_gpu.py tests/test_xla.py -k "not Basic" >"$out/pytest.log" 2>&1
note "pytest: exit $? ($(tail -1 "$out/pytest.log"))"

note "red: the GPU tests against deliberate breaks (each must fail)"
: >"$out/red.log"
broken=/tmp/gx-broken
for name in recv_obs_not_copied send_zero_actions no_fusion_barrier; do
  rm -rf "$broken" && mkdir -p "$broken"
  cp -r "$root/envpool" "$root/native" "$root/tests" "$root/pyproject.toml" "$broken/"
  shim=$broken/envpool/core/xla_shim.cc
  test=tests/test_xla_gpu.py::test_gpu_scan_equals_cpu_scan
  case $name in
    recv_obs_not_copied)  # the first output (the observations) never reaches the GPU
      sed -i 's/if (hosts\[k\].empty()) continue;/if (hosts[k].empty() || k == 0) continue;/' "$shim" ;;
    send_zero_actions)  # the actions read back from the GPU are replaced by zeros
      sed -i 's/  const char\* error = call->target->send(/  host_actions.assign(host_actions.size(), 0);\n&/' "$shim" ;;
    no_fusion_barrier)  # xla.py's barriers made identities
      sed -i 's/jax\.lax\.optimization_barrier(/(lambda x: x)(/' "$broken/envpool/core/xla.py"
      test=tests/test_xla_gpu.py::test_gpu_scan_of_64_envs_steps_each_once ;;
  esac
  # from the copy's root, so that it is the envpool imported
  (cd "$broken" && PYTHONPATH=$broken:$root/site ENVPOOL_REQUIRE_GPU=1 timeout 90 $PY -m pytest \
    -p no:cacheprovider -q -x --timeout 80 "$test" >"$broken.log" 2>&1)
  rc=$?
  # red: a test failed on its comparison with the CPU's arrays, or on recv running twice
  if [ $rc = 1 ] && grep -qE "Mismatched elements|nothing in flight" "$broken.log"; then
    verdict="RED, as it must be"
  else verdict="NOT RED"; fi
  { echo "--- $name: pytest exit $rc: $verdict"
    diff -r "$root/envpool" "$broken/envpool" | grep -v "^Only in"
    grep -E "Mismatched elements|nothing in flight|^E  .*(ACTUAL|DESIRED)|^FAILED|passed|failed" "$broken.log" | head -8
  } >>"$out/red.log"
  note "red $name: pytest exit $rc: $verdict"
done
rm -rf "$broken" "$broken.log"

if grep -q "nothing in flight" "$out/pytest.log"; then
  export XLA_FLAGS="${XLA_FLAGS:-} --xla_gpu_enable_dynamic_slice_fusion=false"
  note "recv ran twice in the tests: bench and pong with XLA_FLAGS=$XLA_FLAGS"
fi

note "bench"
timeout 100 $PY benchmarks/bench_xla.py --num-envs 8 64 --seconds 2 >"$out/bench.txt" 2>&1
note "bench: exit $?"

note "pong (SECONDS_BUDGET ${SECONDS_BUDGET:=150})"
PYTHON=$PY CLEANRL_DIR=$root/cleanrl GYM_LEGACY=$root/gym_legacy SECONDS_BUDGET=$SECONDS_BUDGET \
  timeout $((SECONDS_BUDGET + 60)) bash scripts/gpu_pong_xla.sh "$out/pong" >>"$log" 2>&1
note "pong: exit $?"
rm -rf "$out/pong/runs"  # the tensorboard events: run.log has every line they hold
note "done"
