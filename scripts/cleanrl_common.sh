# What scripts/cpu_pong_ppo.sh and scripts/gpu_pong_xla.sh share; sourced from the
# repository's root. A PYTHON given as a relative path is made absolute: the runs start
# in their results folder.
case ${PYTHON:-} in */*) PYTHON=$(cd "$(dirname "$PYTHON")" && pwd)/$(basename "$PYTHON") ;; esac

# The absolute path of CleanRL's script $1 in $CLEANRL_DIR (default: the workspace's
# ../shared/peer/cleanrl, else shared/peer/cleanrl), into `script`; exits 2 without it.
find_cleanrl_script() {
  local dir=${CLEANRL_DIR:-}
  if [ -z "$dir" ]; then
    for d in ../shared/peer/cleanrl shared/peer/cleanrl; do
      [ -f "$d/$1" ] && dir=$d && break
    done
  fi
  script=$dir/$1
  [ -f "$script" ] || { echo "no $script: set CLEANRL_DIR to CleanRL's scripts"; exit 2; }
  script=$(cd "$(dirname "$script")" && pwd)/$(basename "$script")
}

# gym 0.23.1 and tyro in a folder of their own (`gym_legacy`, default $GYM_LEGACY or
# ~/.cache/envpool/gym-0.23.1), installed there when missing, as the tests use it
# (tests/test_gym_legacy.py's LEGACY_PACKAGES).
gym_legacy=${GYM_LEGACY:-$HOME/.cache/envpool/gym-0.23.1}
ensure_gym_legacy() {
  if [ ! -f "$gym_legacy/gym/__init__.py" ]; then
    $PYTHON -m pip install --quiet --no-deps --upgrade --target "$gym_legacy" gym==0.23.1 \
      "cloudpickle>=1.2" "gym-notices>=0.0.4" tyro==1.0.17 docstring-parser==0.18.0 \
      typeguard==4.6.1
  fi
}

# Each line of standard input, stamped with the epoch seconds it was read at.
stamp() { while IFS= read -r line; do printf '%s %s\n' "$EPOCHREALTIME" "$line"; done; }
