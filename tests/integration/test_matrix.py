"""The integration matrix (``python -m matrix``): the machinery in the default suite, every
cell at its matrix budget under ``-m nightly`` (the same cells as docs/matrix.md)."""

from __future__ import annotations

import json
import math
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # appended: the installed envpool stays the one imported

from matrix.cells import ABSENT, CELLS, FAMILIES, FRAMEWORKS, Cell  # noqa: E402
from matrix.judge import Band, judge  # noqa: E402
from matrix.run import run_cell  # noqa: E402


def _cell(**kw: object) -> Cell:
    base = dict(framework="f", family="x", task="T", algo="a", reference="r",
                train=lambda stack, seed, steps: None, steps=1, seeds=(0,), slack=10.0,
                learns_above=100.0)
    return Cell(**{**base, **kw})  # type: ignore[arg-type]


def test_judge_bands_and_learning() -> None:
    cell = _cell()
    # 4 * hypot(3, 4) + 10 = 30 allowed
    assert judge(cell, Band(400, 3, 20), Band(371, 4, 20))[0]
    passed, why = judge(cell, Band(400, 3, 20), Band(369, 4, 20))
    assert not passed and "bands apart" in why and "-31.0" in why
    passed, why = judge(cell, Band(90, 1, 20), Band(95, 1, 20))
    assert not passed and "reference did not learn" in why
    assert judge(_cell(learns_above=None), Band(90, 1, 20), Band(95, 1, 20))[0]
    assert not judge(cell, Band(math.nan, math.nan, 0), Band(400, 1, 20))[0]


def test_every_pair_is_a_cell_or_explained() -> None:
    names = [c.name for c in CELLS] + [a.name for a in ABSENT]
    assert len(names) == len(set(names))
    pairs = {c.pair for c in CELLS} | {a.name for a in ABSENT}
    assert len(pairs) == len({c.pair for c in CELLS}) + len(ABSENT)  # a pair is a cell or absent
    assert pairs == {f"{f}/{fam}" for f in FRAMEWORKS for fam in FAMILIES}
    assert all(c.name == c.pair or c.name.startswith(c.pair + "-") for c in CELLS)
    assert all(a.kind in ("cannot exist", "not built", "budget") and a.reason for a in ABSENT)


def test_smoke_run_writes_results_plots_and_the_report(tmp_path: pathlib.Path) -> None:
    """Two cheap cells end to end through the CLI: each trains on both stacks, and the
    report has their rows, both bands, speeds and plot links, and every absent cell."""
    out, md = tmp_path / "cells", tmp_path / "matrix.md"
    proc = subprocess.run([sys.executable, "-m", "matrix", "run", "--budget", "smoke", "--cells",
                           "cleanrl/classic", "acme/dm_control", "--out", str(out), "--md",
                           str(md)], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(
                              filter(None, [os.environ.get("PYTHONPATH"), str(ROOT)]))})
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    for stem in ("cleanrl_classic", "acme_dm_control"):
        result = json.loads((out / f"{stem}.json").read_text())
        assert result["budget"] == "smoke" and not result["passed"]
        assert {r["stack"] for r in result["runs"]} == {"reference", "envpool"}
        for stack in ("reference", "envpool"):
            assert result["bands"][stack]["episodes"] > 0
            assert result["steps_per_second"][stack] > 0
        assert result["environment"]["cores"] == os.cpu_count()
        assert (out / f"{stem}.png").stat().st_size > 5_000
    text = md.read_text()
    rows = {line.split(" | ")[0].lstrip("| "): line for line in text.splitlines()
            if line.startswith("| ") and "/" in line.split(" | ")[0]}
    assert "smoke run, not judged" in rows["cleanrl/classic"]
    assert "cells/cleanrl_classic.png" in rows["cleanrl/classic"]
    assert "not run in this report" in rows["sb3/classic"]
    assert all(a.name in rows for a in ABSENT)


def test_highway_cell_stacks_are_the_same_env_seed_for_seed() -> None:
    """sb3/highway's reference stack is highway-env's own ``HighwayEnvFast`` (registered by
    ``reference_env_id``), and with the same seed and the same random actions both stacks
    play the same episodes (what lets the nightly cell compare the learners seed for seed)."""
    from envpool.integrations.curves import make_sb3_venv, random_trainer

    venv = make_sb3_venv("reference", "highway-fast-v0", 1, 0)
    env = venv.venv.envs[0].unwrapped  # VecMonitor > DummyVecEnv > Monitor > the package's
    assert (type(env).__module__, type(env).__name__) == ("highway_env.envs.highway_env",
                                                          "HighwayEnvFast")
    venv.close()
    play = random_trainer("highway-fast-v0", 60, n_envs=1)
    ref, ours = play("reference", 0), play("envpool", 0)
    assert ref.returns.size >= 3  # random play crashes within ~11 steps
    np.testing.assert_array_equal(ours.steps, ref.steps)
    np.testing.assert_array_equal(ours.returns, ref.returns)


@pytest.mark.nightly
@pytest.mark.timeout(14400)  # the longest cell (brax/playground): ~1.5 h alone on 2 cores
@pytest.mark.parametrize("cell", CELLS, ids=[c.name.replace("/", "-") for c in CELLS])
def test_cell(cell: Cell, tmp_path: pathlib.Path) -> None:
    """One matrix cell at its matrix budget; ``ENVPOOL_MATRIX_DIR`` keeps its JSON and PNG
    (the nightly workflow uploads them and renders docs/matrix.md with
    ``python -m matrix report``)."""
    from matrix.run import save

    result = run_cell(cell)
    save(result, pathlib.Path(os.environ.get("ENVPOOL_MATRIX_DIR", tmp_path)))
    assert result["passed"], result["why"]


def test_procgen_cell_stacks_are_the_same_games() -> None:
    """cleanrl/procgen's stacks: with the same seed and random actions, this pool and procgen's
    own game library (one game per env, ``rand_seed=seed + i``) give the same frames, rewards
    and episode ends under procgen's gym conventions (the step that ends an episode shows the
    new level's first frame); procgen's vector seeding (``ProcgenGym3Env(num=n,
    rand_seed=seed)``) shares env 0's levels only. The cell's learner, run for one short
    update on each stack, sees the same episodes."""
    from matrix import procgen

    procgen.procgen_oracle().wheel_dir_or_skip()
    kw = {"num_levels": 200, "start_level": 0}
    ours = procgen.make_games("envpool", "StarpilotEasy-v0", 4, 0, **kw)
    ref = procgen.make_games("reference", "StarpilotEasy-v0", 4, 0, "pool", **kw)
    vec = procgen.make_games("reference", "StarpilotEasy-v0", 4, 0, "procgen", **kw)
    first = ours.reset()
    np.testing.assert_array_equal(first, ref.reset())
    other = vec.reset()
    np.testing.assert_array_equal(other[0], first[0])
    assert (other[1:] != first[1:]).any()
    rng = np.random.default_rng(0)
    ends = 0
    for step in range(300):
        actions = rng.integers(15, size=4)
        got, want = ours.step(actions), ref.step(actions)
        for name, a, b in zip(("frames", "rewards", "ends"), got, want, strict=True):
            np.testing.assert_array_equal(a, b, err_msg=f"{name} at step {step}")
        ends += int(got[2].sum())
    assert ends >= 4  # random play ends a StarPilot episode in about 100 steps
    for g in (ours, ref, vec):
        g.close()
    cfg = procgen.PPOConfig(num_envs=4, num_steps=48, num_minibatches=2, update_epochs=1)
    train = procgen.ppo_trainer("StarpilotEasy-v0", cfg, seeding="pool", **kw)
    runs = [train(stack, 0, 192) for stack in ("envpool", "reference")]
    assert runs[0].returns.size >= 1 and runs[0].env_steps == 192
    np.testing.assert_array_equal(runs[0].steps, runs[1].steps)
    np.testing.assert_array_equal(runs[0].returns, runs[1].returns)


def test_procgen_cell_refuses_bad_settings() -> None:
    from matrix import procgen

    with pytest.raises(ValueError, match="unknown stack"):
        procgen.make_games("gym", "StarpilotEasy-v0", 2, 0)
    with pytest.raises(ValueError, match="seeding"):
        procgen.OracleVec("StarpilotEasy-v0", 2, 0, seeding="each")
    with pytest.raises(ValueError, match="not a Procgen id"):
        procgen.procgen_game("CartPole-v1")
    for bad in ({"num_envs": 0}, {"num_steps": -1}, {"threads": 1.5}, {"num_minibatches": 7},
                {"learning_rate": 0.0}, {"gamma": float("nan")}, {"ent_coef": float("inf")},
                {"gae_lambda": 1.5}, {"clip_coef": -0.1}):
        with pytest.raises(ValueError, match="PPOConfig"):
            procgen.PPOConfig(**bad)  # type: ignore[arg-type]
