#!/usr/bin/env bash
# CleanRL's ppo_atari_envpool_xla_jax_scan.py, unchanged, on Pong-v5 on a GPU machine: the
# pool steps the envs on the CPU cores (one thread a core but one), the whole rollout and
# the PPO update run jitted on the GPU (jax's CUDA build; env.xla()'s calls copy each batch
# through the host). A fixed wall-clock budget, so that the recipe fits in about 8 minutes on
# a 16-core H200 machine with its packages installed: the run is stopped after
# $SECONDS_BUDGET seconds (300; XLA may take up to 30 s more to give way).
#
#   bash scripts/gpu_pong_xla.sh [RESULTS_DIR]
#
# Writes into RESULTS_DIR (default results/gpu_pong_xla/<time>): run.log (the script's
# output, each line stamped with the epoch seconds it was printed at), curve.csv (wall
# seconds since launch, env steps, average return of each env's last game, SPS:
# scripts/cleanrl_curve.py), summary.txt (steps/s, best and last return, the GPU and the
# cores) and the tensorboard events (runs/).
#
# What it needs, installed where it is missing: a Python with envpool-ng (this checkout, or
# $PYTHON's), jax with CUDA (pip's jax[cuda12]), flax, optax, tensorboard and torch (CleanRL
# imports torch's SummaryWriter; the CPU build does), plus gym 0.23.1 and tyro in a folder
# of their own ($GYM_LEGACY, as the tests use it). Set PYTHON to a ready interpreter to skip
# the installs (a machine without the registry needs that); a PYTHONPATH of the caller's is
# kept (scripts/gpu_xla_check.sh runs it so, from its bundle). CleanRL's scripts are looked for
# in $CLEANRL_DIR (default: the workspace's ../shared/peer/cleanrl, else shared/peer/cleanrl).
# NUM_ENVS (64) sets the pool's size; REQUIRE_GPU=0 lets the plumbing run on a CPU-only jax
# (a check of the recipe, not a measurement).
set -euo pipefail
cd "$(dirname "$0")/.."
results=${1:-results/gpu_pong_xla/$(date +%Y%m%d_%H%M%S)}
budget=${SECONDS_BUDGET:-300}
num_envs=${NUM_ENVS:-64}
source scripts/cleanrl_common.sh
find_cleanrl_script ppo_atari_envpool_xla_jax_scan.py
mkdir -p "$results"
results=$(cd "$results" && pwd)
t0=$SECONDS

if [ -z "${PYTHON:-}" ]; then
  python3 -m venv .venv-gpu
  PYTHON=$PWD/.venv-gpu/bin/python
  $PYTHON -m pip install --quiet --upgrade pip
  $PYTHON -m pip install --quiet --index-url https://download.pytorch.org/whl/cpu torch==2.13.0
  $PYTHON -m pip install --quiet "jax[cuda12]" flax optax tensorboard
  $PYTHON -m pip install --quiet .
fi
ensure_gym_legacy
echo "installs: $((SECONDS - t0)) s"
REQUIRE_GPU=${REQUIRE_GPU:-1} $PYTHON - <<'EOF' | tee "$results/summary.txt"
import os, jax, envpool
gpus = [d for d in jax.devices() if d.platform == "gpu"]
print(f"jax {jax.__version__} devices {jax.devices()}; envpool {envpool.__version__}; "
      f"{os.cpu_count()} cores")
if os.environ["REQUIRE_GPU"] != "0":
    assert gpus, "no GPU: jax's CUDA build (pip install 'jax[cuda12]') and a driver are needed"
EOF

# Pong-v5: 64 envs x 128 steps a rollout (8192 steps an update), the rest CleanRL's defaults.
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader \
  >>"$results/summary.txt" 2>/dev/null || true
cd "$results"
start=$EPOCHREALTIME
set +e
PYTHONPATH=$gym_legacy${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1 timeout --signal=INT --kill-after=30 "$budget" \
  "$PYTHON" -m envpool.integrations.cleanrl_run "$script" --env-id Pong-v5 --num-envs "$num_envs" \
  --num-steps 128 --total-timesteps 50000000 --seed 1 --no-track 2>&1 \
  | stamp >run.log
rc=${PIPESTATUS[0]}
set -e
cd - >/dev/null
echo "run: exit $rc (124, or 137 where it had to be killed: stopped at the ${budget} s budget)" \
  | tee -a "$results/summary.txt"
$PYTHON scripts/cleanrl_curve.py "$results/run.log" "$results/curve.csv" --start "$start" \
  | tee -a "$results/summary.txt"
grep -E "SPS|avg_episodic_return" "$results/run.log" | tail -4
echo "results in $results (total $((SECONDS - t0)) s)"
