"""Tianshou DQN on CartPole-v1: this package's adapter against Tianshou's DummyVectorEnv, per seed.

The same algorithm, budget and seeds as the nightly test
``tests/integration/test_tianshou.py::test_dqn_cartpole_matches_dummy_vector_env`` (its
``_train_dqn``, ``_dummy`` and ``permutation_p`` are imported, not copied): 8 training and
4 test envs, 10 epochs of 5,000 steps, training stops once a test mean reaches 195. Prints
a table of the best and final test returns per seed and side, their means, and a two-sided
permutation test (100,000 random relabellings) of the difference of the mean best returns;
writes everything as JSON.

Run alone on the machine (torch on 2 cores suffers from any neighbour):
``python scripts/tianshou_dqn_seeds.py --seeds 0 1 2 3 4 5 6 7 8 9 --json out.json``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import pathlib
import time
from typing import Any

import numpy as np
import torch

from envpool.integrations.tianshou import make_tianshou_env

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _test_module() -> Any:
    path = ROOT / "tests" / "integration" / "test_tianshou.py"
    spec = importlib.util.spec_from_file_location("test_tianshou", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(tests: Any, seed: int, side: str, epochs: int) -> dict[str, Any]:
    torch.set_num_threads(1)
    if side == "envpool":
        train = make_tianshou_env("CartPole-v1", num_envs=8, seed=seed)
        test = make_tianshou_env("CartPole-v1", num_envs=4, seed=100 + seed)
    else:
        train, test = tests._dummy(8, seed), tests._dummy(4, seed)
    start = time.perf_counter()
    best, final = tests._train_dqn(train, test, seed, epochs)
    return {"seed": seed, "side": side, "best": best, "final": final,
            "seconds": time.perf_counter() - start}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seeds", type=int, nargs="+", default=list(range(10)))
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--json", type=pathlib.Path)
    args = p.parse_args()
    tests = _test_module()  # loaded once: the same code for every run
    rows = []
    for seed in args.seeds:
        for side in ("envpool", "dummy"):
            rows.append(run(tests, seed, side, args.epochs))
            r = rows[-1]
            print(f"seed {seed} {side:8s} best {r['best']:7.1f} final {r['final']:7.1f} "
                  f"({r['seconds']:.0f} s)", flush=True)
    summary: dict[str, Any] = {}
    for side in ("envpool", "dummy"):
        best = np.array([r["best"] for r in rows if r["side"] == side])
        final = np.array([r["final"] for r in rows if r["side"] == side])
        summary[side] = {"best_mean": best.mean(), "best_std": best.std(ddof=1),
                         "final_mean": final.mean(), "final_std": final.std(ddof=1),
                         "reached_195": int((best >= 195).sum())}
        print(f"{side}: best {best.mean():.1f} +- {best.std(ddof=1):.1f}, final "
              f"{final.mean():.1f} +- {final.std(ddof=1):.1f}, best >= 195 in "
              f"{(best >= 195).sum()}/{len(best)}")
    ours = np.array([r["best"] for r in rows if r["side"] == "envpool"])
    ref = np.array([r["best"] for r in rows if r["side"] == "dummy"])
    p_value = tests.permutation_p(ours, ref)
    summary["permutation_p_best_mean"] = p_value
    print(f"permutation test, difference of mean best returns, two-sided: p = {p_value:.3f}")
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "summary": summary}, indent=1,
                                        default=float))


if __name__ == "__main__":
    main()
