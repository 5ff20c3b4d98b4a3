"""SAC (Stable-Baselines3) on the DeepMind Control Suite's CheetahRun: envpool against dm_control.

The same SAC, with the same hyper-parameters and seeds, on two stacks:

* ``envpool``: ``envpool.integrations.sb3.make_vec_env("CheetahRun-v1")``, our C++ env;
* ``reference``: dm_control's own ``cheetah``/``run`` through Shimmy's gymnasium wrapper
  (``gymnasium.make("dm_control/cheetah-run-v0")``) in SB3's ``DummyVecEnv``.

Both give a ``Dict`` of ``position`` / ``velocity``, so SAC uses ``MultiInputPolicy``
(it flattens and concatenates the keys). Episodes are 1000 steps, rewards in [0, 1] per
step. Writes a CSV of every finished episode and a PNG of both curves, and prints the
mean return of each stack's last episodes.

    python examples/dm_control/sac_cheetah_run.py                          # 30k steps, seeds 0 1
    python examples/dm_control/sac_cheetah_run.py --steps 100000 --seeds 0 1 2
"""

from __future__ import annotations

import argparse
import time

from envpool.integrations.curves import compare_curves, sb3_trainer


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--task", default="CheetahRun-v1", help="a Control Suite id")
    p.add_argument("--steps", type=int, default=30_000, help="env steps per run")
    p.add_argument("--seeds", type=int, nargs="+", default=[0, 1])
    p.add_argument("--last", type=int, default=5, help="episodes in the final band")
    p.add_argument("--out", default="sac_cheetah_run", help="output prefix (.png, .csv)")
    args = p.parse_args(argv)

    trainer = sb3_trainer("SAC", args.task, args.steps, n_envs=1, learning_starts=1000)
    start = time.perf_counter()
    result = compare_curves(trainer, seeds=args.seeds, png=f"{args.out}.png",
                            csv=f"{args.out}.csv", title=f"SAC {args.task}", window=3)
    for stack in ("reference", "envpool"):
        mean, sem = result.final_band(stack, last=args.last)
        print(f"{stack}: mean return of the last {args.last} episodes per seed: "
              f"{mean:.1f} +- {sem:.1f}")
    print(f"{len(args.seeds)} seeds x 2 stacks x {args.steps} steps in "
          f"{time.perf_counter() - start:.0f} s; {args.out}.png, {args.out}.csv")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
