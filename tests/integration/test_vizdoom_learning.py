"""PPO on ViZDoom Basic-v1 (examples/vizdoom/ppo_vizdoom.py): envpool against vizdoom's
own gymnasium envs in AsyncVectorEnv, same learner, same seeds, same budget.

The default suite runs the example on both stacks with a tiny budget; the nightly test
runs 2 seeds x 60k env steps per stack (about 40 min on 2 cores at ~100 env steps/s)
and compares the final returns. CSVs and a PNG of both curves go to the test's folder,
or to $ENVPOOL_CURVES_DIR when set (how docs/curves/ppo_vizdoom_basic.* were made).
"""

from __future__ import annotations

import os
import pathlib
import sys

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("cv2")

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples" / "vizdoom"
sys.path.insert(0, str(EXAMPLES))
import ppo_vizdoom  # noqa: E402


def _run(backend: str, seed: int, steps: int, out: pathlib.Path, *extra: str) -> dict:
    args = ppo_vizdoom.parse_args([
        "--backend", backend, "--seed", str(seed), "--total-timesteps", str(steps),
        "--no-progress", "--threads", "1", "--csv", str(out / f"ppo_vizdoom_{backend}_{seed}.csv"),
        *extra,
    ])
    return ppo_vizdoom.train(args)


def test_example_runs_on_envpool(tmp_path: pathlib.Path,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # A fresh folder, as in a fresh checkout: vizdoom's engines make ./_vizdoom/ there.
    # The example's vizdoom backend (gymnasium's AsyncVectorEnv of vizdoom's engines) runs
    # in the nightly's curve comparison below.
    monkeypatch.chdir(tmp_path)
    # one update of 4 envs x 128 steps; Basic's episodes end within 75 steps
    result = _run("envpool", 1, 512, tmp_path, "--num-envs", "4")
    assert len(result["returns"]) >= 4
    assert all(-500 <= r <= 100 for r in result["returns"]), result["returns"]
    lines = (tmp_path / "ppo_vizdoom_envpool_1.csv").read_text().splitlines()
    assert len(lines) == len(result["returns"]) + 1


def _plot(curves: dict[str, list[dict]], path: pathlib.Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for (backend, runs), color in zip(curves.items(), ("C0", "C1"), strict=True):
        for k, run in enumerate(runs):
            r = np.asarray(run["returns"])
            smooth = np.convolve(r, np.ones(50) / 50, mode="valid")
            ax.plot(run["steps"][49:], smooth, color=color, alpha=0.8,
                    label=f"{backend} (mean of 50 episodes)" if k == 0 else None)
    ax.set_xlabel("env steps")
    ax.set_ylabel("episode return (game reward)")
    ax.set_title("PPO ViZDoom Basic-v1: envpool vs vizdoom AsyncVectorEnv, seeds 1, 2")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


@pytest.mark.nightly
@pytest.mark.timeout(4800)  # 4 runs of 60k steps at ~100 steps/s: ~40 min on 2 cores
def test_ppo_basic_curve_matches_vizdoom(tmp_path: pathlib.Path) -> None:
    out = pathlib.Path(os.environ.get("ENVPOOL_CURVES_DIR", tmp_path))
    out.mkdir(parents=True, exist_ok=True)
    curves: dict[str, list[dict]] = {"vizdoom": [], "envpool": []}
    for seed in (1, 2):
        for backend in curves:
            curves[backend].append(_run(backend, seed, 60_000, out))
    _plot(curves, out / "ppo_vizdoom_basic.png")
    last = 100  # episodes at the end of each run
    first = {b: np.mean([np.mean(r["returns"][:last]) for r in runs])
             for b, runs in curves.items()}
    final = {b: np.mean([np.mean(r["returns"][-last:]) for r in runs])
             for b, runs in curves.items()}
    print(f"first {last} episodes: {first}; last {last}: {final}")
    # Basic's returns run from about -400 (no kill) to about +95 (a kill at once).
    assert final["vizdoom"] >= first["vizdoom"] + 100  # the reference learns
    assert final["envpool"] >= first["envpool"] + 100  # so does ours
    assert final["envpool"] >= final["vizdoom"] - 40  # and as far
