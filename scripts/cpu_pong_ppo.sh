#!/usr/bin/env bash
# CleanRL's ppo_atari_envpool.py, unchanged, on Pong-v5 at CleanRL's defaults (8 envs, 128
# steps a rollout, 4 epochs of 4 minibatches, learning rate 2.5e-4 annealed over 10M steps,
# seed 1) on the CPU: a fixed wall-clock budget, the run stopped when it is spent.
#
#   bash scripts/cpu_pong_ppo.sh [RESULTS_DIR]
#
# Budget: SECONDS_BUDGET (5400 s). On a 2-core CPU the Nature CNN's updates dominate: the
# loop runs at about 190 env steps/s, so 90 minutes is about 1M env steps.
#
# Writes into RESULTS_DIR (default results/cpu_pong_ppo/<time>): run.log (the script's output,
# each line stamped with the epoch seconds it was printed at), curve.csv and curve.png (each
# game's return and the average of the last 20, against env steps and wall clock:
# scripts/cleanrl_curve.py), summary.txt (versions, cores, steps/s, last and best average)
# and the tensorboard events (runs/).
#
# With CLEANRL_REPO set to a checkout of CleanRL (github.com/vwxyzjn/cleanrl), it then runs
# CleanRL's ppo_atari.py, the same PPO on gymnasium's SyncVectorEnv of ale-py's
# PongNoFrameskip-v4 under CleanRL's Atari wrappers, for COMPARE_SECONDS (600 s), and
# writes its steps/s (compare.log, and summary.txt). ppo_atari.py is written for gymnasium
# 0.29; on gymnasium 1.x a sitecustomize in the results folder gives it the two wrappers
# 1.0 renamed (GrayScaleObservation, FrameStack) and registers ale-py's ids. Under 1.x's
# vector autoreset it logs no returns, only its SPS: the comparison is of speed.
#
# Needs: a Python with envpool-ng, torch (the CPU build), tensorboard; gym 0.23.1 and tyro
# in a folder of their own ($GYM_LEGACY, installed there when missing, as the tests use it).
# CleanRL's EnvPool scripts are looked for in $CLEANRL_DIR (default: the workspace's
# ../shared/peer/cleanrl, else shared/peer/cleanrl).
set -euo pipefail
cd "$(dirname "$0")/.."
results=${1:-results/cpu_pong_ppo/$(date +%Y%m%d_%H%M%S)}
budget=${SECONDS_BUDGET:-5400}
compare=${COMPARE_SECONDS:-600}
PYTHON=${PYTHON:-python}
source scripts/cleanrl_common.sh
find_cleanrl_script ppo_atari_envpool.py
mkdir -p "$results"
results=$(cd "$results" && pwd)
here=$PWD
ensure_gym_legacy
$PYTHON - <<'EOF' | tee "$results/summary.txt"
import os, platform, torch, envpool
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
            if l.lower().startswith("model name")), platform.processor())
print(f"envpool {envpool.__version__}; torch {torch.__version__} ({torch.get_num_threads()} "
      f"threads); Python {platform.python_version()}; {cpu}, {os.cpu_count()} cores; "
      f"load average before {os.getloadavg()}")
EOF

cd "$results"
start=$EPOCHREALTIME
set +e
PYTHONPATH=$gym_legacy PYTHONUNBUFFERED=1 timeout --signal=INT --kill-after=30 "$budget" \
  "$PYTHON" "$script" --env-id Pong-v5 --seed 1 --no-cuda --no-track 2>&1 | stamp >run.log
rc=${PIPESTATUS[0]}
set -e
cd "$here"
echo "ppo_atari_envpool.py: exit $rc (124, or 137 where it had to be killed: stopped at the" \
  "${budget} s budget)" | tee -a "$results/summary.txt"
$PYTHON scripts/cleanrl_curve.py "$results/run.log" "$results/curve.csv" --start "$start" \
  --plot "$results/curve.png" \
  --title "CleanRL ppo_atari_envpool.py, Pong-v5, seed 1, $(nproc) CPU cores" \
  | tee -a "$results/summary.txt"

if [ -n "${CLEANRL_REPO:-}" ]; then
  repo=$(cd "$CLEANRL_REPO" && pwd)
  shim=$results/gymnasium1_shim
  mkdir -p "$shim"
  cat >"$shim/sitecustomize.py" <<'EOF'
"""CleanRL's ppo_atari.py (written for gymnasium 0.29) on gymnasium 1.x: the two wrappers
1.0 renamed, and ale-py's ids registered."""
import ale_py
import gymnasium
from gymnasium import wrappers

gymnasium.register_envs(ale_py)
if not hasattr(wrappers, "GrayScaleObservation"):
    wrappers.GrayScaleObservation = wrappers.GrayscaleObservation
if not hasattr(wrappers, "FrameStack"):
    wrappers.FrameStack = wrappers.FrameStackObservation
EOF
  cd "$results"
  set +e
  PYTHONPATH=$shim:$repo:$gym_legacy PYTHONUNBUFFERED=1 \
    timeout --signal=INT --kill-after=30 "$compare" "$PYTHON" "$repo/cleanrl/ppo_atari.py" \
    --env-id PongNoFrameskip-v4 --seed 1 --no-cuda --no-track 2>&1 | stamp >compare.log
  rc=${PIPESTATUS[0]}
  set -e
  cd "$here"
  $PYTHON - "$results" "$rc" <<'EOF' | tee -a "$results/summary.txt"
import pathlib, sys
sys.path.insert(0, "scripts")
import cleanrl_curve as c
results, rc = pathlib.Path(sys.argv[1]), sys.argv[2]
ours = c.sps_lines((results / "run.log").read_text(errors="replace"))
ref = c.sps_lines((results / "compare.log").read_text(errors="replace"))
if not ref:
    print(f"ppo_atari.py: exit {rc}, no SPS printed (compare.log)")
else:
    steps = len(ref) * 1024
    at = ours[len(ref) - 1] if len(ours) >= len(ref) else float("nan")
    print(f"ppo_atari.py (gymnasium SyncVectorEnv): exit {rc}; {len(ref)} iterations "
          f"({steps} env steps), SPS {ref[-1]}; ppo_atari_envpool.py's SPS after as many "
          f"iterations: {at} ({at / ref[-1]:.2f}x)")
EOF
fi
echo "results in $results"
