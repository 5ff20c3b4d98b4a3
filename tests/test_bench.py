"""benchmarks/bench.py, the one benchmark entry point, run for real with tiny budgets.

Every method of a family must give a row with a positive rate or an explicit ``n/a`` /
``skipped``, a positive peak PSS where it ran, and the JSON, markdown and PNG must be written.
The PSS of a measurement covers its whole process tree (vector-env workers included).
"""

from __future__ import annotations

import dataclasses
import importlib.metadata
import importlib.util
import json
import os
import pathlib
import re
import subprocess
import sys
import time
from typing import Any

import numpy as np
import pytest

pytest.importorskip("psutil", reason="bench.py samples PSS with psutil (test extra)")
pytest.importorskip("matplotlib", reason="bench.py --png draws with matplotlib (test extra)")

ROOT = pathlib.Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks" / "bench.py"
sys.path.insert(0, str(ROOT / "benchmarks"))
import _jax_refs  # noqa: E402
import bench  # noqa: E402


def _run(*args: str, timeout: float = 150) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    return subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=ROOT)


def _table_rows(md: str, family: str) -> list[list[str]]:
    section = md.split(f"## {family}:", 1)[1].split("\n## ", 1)[0]
    return [[c.strip() for c in line.strip().strip("|").split("|")]
            for line in section.splitlines() if re.match(r"\|\s*\d", line)]


@pytest.mark.timeout(180)
def test_every_method_of_two_families_has_a_rate_and_a_pss(tmp_path: pathlib.Path) -> None:
    out = {k: tmp_path / f"bench.{k}" for k in ("json", "md", "png")}
    families = ("classic", "mujoco")
    result = _run("--family", *families, "--num-envs", "2", "--seconds", "0.2", "--warmup",
                  "0.05", "--reps", "1", "--json", str(out["json"]), "--md", str(out["md"]),
                  "--png", str(out["png"]))
    assert result.returncode == 0, result.stderr[-3000:]
    md = out["md"].read_text()
    assert md == result.stdout
    assert out["png"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    payload = json.loads(out["json"].read_text())
    assert payload["machine"]["cpu_count"] == os.cpu_count()
    assert {"envpool", "gymnasium", "ale-py", "mujoco", "stable-baselines3", "torch",
            "numpy"} <= set(payload["machine"]["versions"])
    for fam, family in zip(payload["families"], families, strict=True):
        assert fam["family"] == family and fam["raw_steps_per_s"] > 0
        methods = bench.family_methods(family, [m for m in bench.ALL_METHODS
                                                if m not in bench.PEER_METHODS])
        assert [r["method"] for r in fam["rows"]] == methods
        rows = _table_rows(md, family)
        assert len(rows) == len(methods)
        for row, md_row in zip(fam["rows"], rows, strict=True):
            # n/a only where Stable-Baselines3 (the sb3 extra) is not installed
            if row["method"] == "sb3-subproc" and importlib.util.find_spec(
                    "stable_baselines3") is None:
                assert row["status"] == "n/a" and md_row[2].startswith("n/a ("), row
                continue
            assert row["status"] == "ok", row
            assert row["steps_per_s"] > 0 and row["peak_pss_mib"] > 0, row
            assert float(md_row[2].replace(",", "")) > 0, md_row
            assert float(md_row[-1].replace(",", "")) > 0, md_row
        limit = next(r for r in fam["rows"] if r["method"] == "raw")
        assert limit["steps_per_s"] == pytest.approx(2 * fam["raw_steps_per_s"]) or \
            os.cpu_count() == 1
        assert limit["ratios"]["raw"] == pytest.approx(1.0)
        for ref in ("gym-async", "sb3-subproc"):
            r = next(r for r in fam["rows"] if r["method"] == ref)
            if r["status"] == "ok":
                assert r["ratios"][ref] == pytest.approx(1.0)


@pytest.mark.timeout(60)
def test_a_method_that_cannot_run_says_so() -> None:
    result = _run("--family", "classic", "--num-envs", "1", "--methods", "envpool-async",
                  "gym-async", "--seconds", "0.1", "--warmup", "0", "--reps", "1")
    assert result.returncode == 0, result.stderr[-3000:]
    rows = {r[1]: r for r in _table_rows(result.stdout, "classic")}
    assert rows["envpool async (batch n//2)"][2] == "n/a (needs num_envs >= 2)"
    assert rows["envpool async (batch n//2)"][-1] == "-"
    assert float(rows["gymnasium AsyncVectorEnv"][2].replace(",", "")) > 0


@pytest.mark.timeout(90)
def test_a_peer_envpool_is_measured_under_its_own_interpreter(tmp_path: pathlib.Path) -> None:
    """--peer-python: the same runner under another interpreter (in use, sail-sg EnvPool's
    venv), its rows beside envpool's and envpool's ratio to it in the same mode. Here the
    peer is a launcher of this interpreter whose own PYTHONPATH names this checkout: the
    peer's processes get the environment without the caller's PYTHONPATH (which would put
    this checkout before the peer's own envpool), so the peer must bring its own."""
    peer = tmp_path / "peer-python"
    seen = tmp_path / "pythonpath-seen"  # the PYTHONPATH each peer process was given
    peer.write_text(f"#!/bin/sh\necho \"[$PYTHONPATH]\" >> {seen}\n"
                    f"PYTHONPATH={ROOT} exec {sys.executable} \"$@\"\n")
    peer.chmod(0o755)
    result = _run("--family", "classic", "--num-envs", "2", "--methods", "envpool-sync",
                  "peer-sync", "peer-async", "--seconds", "0.2", "--warmup", "0",
                  "--peer-python", str(peer))
    assert result.returncode == 0, result.stderr[-3000:]
    assert f"the same measurements under {peer} (its own `import envpool`: " \
        f"{ROOT / 'envpool'})" in result.stdout
    assert seen.read_text().split() == ["[]"] * 3  # its name, then two measurements
    header = next(ln for ln in result.stdout.splitlines() if ln.startswith("| num_envs"))
    assert header.split(" | ")[-2].startswith("vs envpool ")  # not sail-sg's, by its metadata
    rows = {r[1]: r for r in _table_rows(result.stdout, "classic")}
    name = f"envpool {importlib.metadata.version('envpool-ng')}"
    assert list(rows) == ["envpool sync", f"{name} sync", f"{name} async (batch n//2)"], rows
    sync, peer = rows["envpool sync"], rows[f"{name} sync"]
    rate, peer_rate = (float(r[2].replace(",", "")) for r in (sync, peer))
    assert rate > 0 and peer_rate > 0
    assert float(sync[-2].rstrip("x")) == pytest.approx(rate / peer_rate, rel=0.02)
    assert peer[-2] == "-"
    result = _run("--family", "classic", "--peer-python", "/nonexistent/python")
    assert result.returncode != 0 and "--peer-python" in result.stderr


def test_bad_arguments_are_refused() -> None:
    result = _run("--family", "classic", "--task", "NoSuchTask-v0", "--seconds", "0.1")
    assert result.returncode != 0 and "NoSuchTask-v0" in result.stderr
    result = _run("--family", "classic", "atari", "--task", "Pong-v5")
    assert result.returncode != 0 and "--task needs exactly one --family" in result.stderr


def test_tree_pss_counts_the_children() -> None:
    # a parent that starts a child holding ~80 MB of touched memory
    child = ("import numpy, time; a = numpy.ones(10_000_000); print('ready', flush=True); "
             "time.sleep(60)")
    parent = subprocess.Popen(
        [sys.executable, "-c", "import subprocess, sys; "
         f"subprocess.run([sys.executable, '-c', {child!r}])"],
        stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None and parent.stdout.readline().strip() == "ready"
        time.sleep(0.2)
        own = bench.pss_bytes(parent.pid)
        assert own > 0
        assert bench.tree_pss(parent.pid) - own > 70 * 2**20
    finally:
        bench.kill_tree(parent.pid)
        parent.wait(timeout=10)


@pytest.fixture(scope="module")
def procgen_wheel() -> str:
    """procgen 0.10.7's unpacked wheel (its game library: the procgen rows' reference)."""
    return bench._procgen_oracle().wheel_dir_or_skip()


def test_procgen_and_highway_references(procgen_wheel: str) -> None:
    """The procgen rows' reference is procgen's own ProcgenGym3Env(num=n) on its threads:
    its env 0 plays the levels of envpool's env 0 of the same seed (both procgen's first
    level seed of that rand_seed), frame for frame under the same actions, and its other
    envs step too. procgen's gym env (the gymnasium rows' reference) and highway-env's
    step in gymnasium's SyncVectorEnv."""
    import gymnasium
    import numpy as np

    import envpool

    game, kwargs = bench.procgen_game("CoinrunEasy-v0")
    assert (game, kwargs) == ("coinrun", {"distribution_mode": "easy"})
    assert bench.procgen_game("MazeExploration-v0")[1]["num_levels"] == 1
    vec = bench._procgen_oracle().ProcgenGym3Vec(procgen_wheel, game, num=3, num_threads=2,
                                                 rand_seed=7, **kwargs)
    ours = envpool.make_gymnasium("CoinrunEasy-v0", num_envs=1, seed=7, channel_first=False)
    obs, ours_info = ours.reset()
    _, frames, first, info = vec.observe()
    assert frames.shape == (3, 64, 64, 3) and first.all()  # gym3: first at a reset
    np.testing.assert_array_equal(frames[0], obs[0])
    assert info["level_seed"][0] == ours_info["level_seed"][0]
    start = frames.copy()
    rng = np.random.default_rng(0)
    for step in range(40):
        actions = rng.integers(15, size=3).astype(np.int32)
        vec.act(actions)
        _, frames, first, _ = vec.observe()
        obs = ours.step(actions[:1])[0]
        assert not first[0]
        np.testing.assert_array_equal(frames[0], obs[0], err_msg=f"step {step}")
    assert all((frames[i] != start[i]).any() for i in range(3))
    vec.close()
    ours.close()
    for make in (bench._procgen_reference("CoinrunEasy-v0"),
                 bench._highway_reference("highway-fast-v0")):
        env = gymnasium.vector.SyncVectorEnv([make, make])
        obs, _ = env.reset(seed=0)
        assert obs.shape[0] == 2
        for _ in range(3):
            obs, reward, *_ = env.step(env.action_space.sample())
        assert obs.shape[0] == 2 and reward.dtype == np.float64
        env.close()


@pytest.mark.timeout(150)
def test_procgen_and_highway_families_run(procgen_wheel: str) -> None:
    """--family procgen highway: envpool against procgen's own vector env (the column of
    envpool's ratio to it) and highway's envpool row (the references: the test above)."""
    result = _run("--family", "procgen", "highway", "--num-envs", "2", "--methods",
                  "envpool-sync", "procgen-vector", "--seconds", "0.1", "--warmup", "0")
    assert result.returncode == 0, result.stderr[-3000:]
    procgen = {r[1]: r for r in _table_rows(result.stdout, "procgen")}
    vector = "procgen ProcgenGym3Env(num=n), 4 threads"
    assert list(procgen) == ["envpool sync", vector]
    header = next(ln for ln in result.stdout.split("## procgen:")[1].splitlines()
                  if ln.startswith("| num_envs"))
    assert header.split(" | ")[-2] == "vs procgen vector"
    assert procgen[vector][-2] == "1.00x"
    rates = {k: float(r[2].replace(",", "")) for k, r in procgen.items()}
    assert float(procgen["envpool sync"][-2].rstrip("x")) == pytest.approx(
        rates["envpool sync"] / rates[vector], rel=0.02)
    highway = {r[1]: r for r in _table_rows(result.stdout, "highway")}
    assert list(highway) == ["envpool sync"]
    for row in (*procgen.values(), *highway.values()):
        assert float(row[2].replace(",", "")) > 0 and float(row[-1].replace(",", "")) > 0, row
# -- the jax families (pgx, jumanji, playground) ---------------------------------------
def _assert_legal(rule: Any, mask: np.ndarray, action: np.ndarray, task: str) -> None:
    """Each env's action is legal under its mask (one per agent, a joint index, a choice)."""
    for m, a in zip(mask, action, strict=True):
        if not m.any():  # an episode's last observation (BinPack: nothing fits), whose
            continue  # action the pool's next step ignores (it resets)
        if rule.per_agent:
            assert m[np.arange(len(a)), a].all(), (task, m, a)
        elif rule.vector:
            assert m[tuple(a)], (task, m, a)
        else:
            assert m[a], (task, m, a)


@pytest.mark.parametrize("task", ["Go9x9-v1", "RobotWarehouse-v0", "Minesweeper-v0",
                                  "BinPack-v2", "RubiksCube-v0"])
def test_envpool_rows_play_random_legal_actions(task: str) -> None:
    """The envpool rows of the jax families choose each action among the legal ones of the
    mask they are given (pgx: the info's legal_action_mask, one per env; jumanji: the
    observation's action_mask: per agent, a joint (row, col) or (ems, item), none at all),
    in sync and async mode, and every legal action of a small mask is drawn."""
    import envpool

    family = "pgx" if task == "Go9x9-v1" else "jumanji"
    legal_mask = bench.FAMILIES[family].legal_mask
    assert legal_mask is not None
    space = envpool.make_spec(task).action_space
    seen: list[tuple[Any, np.ndarray]] = []
    make = _jax_refs.legal_actor(0)

    def recording(mask: Any, sp: Any, batch: int) -> Any:
        actor = make(mask, sp, batch)

        def act(m: Any) -> Any:
            a = actor(m)
            seen.append((None if m is None else np.array(m), np.array(a)))
            return a
        return act

    for batch in (4, 2):
        run, close = bench.R.envpool_runner(task, 4, batch, 0, recording, 1, legal_mask)
        try:
            run(60)
        finally:
            close()
    assert len(seen) == 60 + 61  # sync: 60 steps; async: the first send and 60 more
    rule = _jax_refs.legal_random(space, None if seen[0][0] is None else seen[0][0].shape[1:])
    drawn: set[Any] = set()
    for mask, action in seen:
        assert action.dtype == space.dtype and space.contains(action[0]), (task, action)
        if mask is None:
            continue
        _assert_legal(rule, mask, action, task)
        drawn.update(tuple(np.atleast_1d(a)) for m, a in zip(mask, action, strict=True)
                     if m.any())
    if task == "RubiksCube-v0":  # no mask: every (face, depth, amount) of the grid
        drawn = {tuple(a) for _, action in seen for a in action}
        assert len(drawn) == 6 * 1 * 3
    elif task == "Go9x9-v1":
        assert len(drawn) > 60  # most of the 82 moves over 122 random draws


def test_legal_random_is_the_same_rule_in_jax() -> None:
    """jax's jitted step takes its actions with the same rule (and noise) as envpool's
    numpy actor: the same actions for the same masks."""
    jnp = pytest.importorskip("jax.numpy")
    rng = np.random.default_rng(1)
    cases = [(bench.gymnasium.spaces.Discrete(82), (82,)),
             (bench.gymnasium.spaces.Box(0, 4, (4,), np.int32), (4, 5)),
             (bench.gymnasium.spaces.Box(0, np.array([39, 19]), (2,), np.int32), (40, 20))]
    for space, grid in cases:
        rule = _jax_refs.legal_random(space, grid)
        noise = _jax_refs.noise_batches(rule, 16, 0)[0]
        mask = rng.random((16, *grid)) < 0.3
        mask.reshape(16, -1)[:, 0] = True  # at least one legal action (agent) per env
        if rule.per_agent:
            mask[..., 0] = True
        a_np = rule(np, mask, noise)
        jax_rule = dataclasses.replace(rule, dtype=np.int32)  # as the runners' (x64 off)
        a_jax = np.asarray(jax_rule(jnp, jnp.asarray(mask), jnp.asarray(noise)))
        np.testing.assert_array_equal(a_np, a_jax.astype(a_np.dtype))


def _check_jax_family(payload: dict[str, Any], md: str, family: str, methods: list[str]) -> None:
    """Every row ran (envpool async but at n = 1), with its rate, PSS and ratios."""
    fam = payload["families"][0]
    assert fam["family"] == family
    assert [r["method"] for r in fam["rows"] if r["num_envs"] == fam["num_envs"][0]] == methods
    header = next(ln for ln in md.splitlines() if ln.startswith("| num_envs"))
    assert "| vs jax step | vs jax scan |" in header
    for row in fam["rows"]:
        if row["method"] == "envpool-async" and row["num_envs"] == 1:
            assert row["status"] == "n/a", row
            continue
        assert row["status"] == "ok" and row["steps_per_s"] > 0 and row["peak_pss_mib"] > 0, row
        ref = next(r for r in fam["rows"]
                   if r["num_envs"] == row["num_envs"] and r["method"] == "jax-step")
        assert row["ratios"]["jax-step"] == pytest.approx(
            row["steps_per_s"] / ref["steps_per_s"], rel=1e-9)
    for dist in ("jax", "jaxlib", family):  # the distributions are named as the families
        assert payload["machine"]["versions"][dist], dist


@pytest.mark.timeout(150)
def test_a_jax_family_is_measured_against_its_package(tmp_path: pathlib.Path) -> None:
    """--family pgx: envpool's pool beside pgx's own jitted vmapped step (its smallest
    game, one round of 0.1 s), in the table with envpool's ratio to it."""
    out = tmp_path / "bench.json"
    result = _run("--family", "pgx", "--task", "TicTacToe-v1", "--num-envs", "2", "--methods",
                  "envpool-sync", "jax-step", "--seconds", "0.1", "--warmup", "0", "--json",
                  str(out), timeout=140)
    assert result.returncode == 0, result.stderr[-3000:]
    _check_jax_family(json.loads(out.read_text()), result.stdout, "pgx",
                      ["envpool-sync", "jax-step"])
    assert "| 2 | pgx jit(vmap(auto_reset(step, init))), one call per step |" in result.stdout


def _jax_rows_play_legal_actions(family: str, task: str) -> None:
    """The jax rows' jitted programs (step and scan) choose legal actions: each action and
    the mask it was chosen from come back to the host through jax.debug.callback."""
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    seen: list[tuple[np.ndarray, np.ndarray]] = []
    choose = _jax_refs.LegalRandom.__call__

    def recording(rule: Any, xp: Any, mask: Any, noise: Any) -> Any:
        action = choose(rule, xp, mask, noise)
        if xp is jnp:
            jax.debug.callback(lambda m, a: seen.append((np.asarray(m), np.asarray(a))),
                               mask, action)
        return action

    runner = bench.FAMILIES[family].jax_reference
    assert runner is not None
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_jax_refs.LegalRandom, "__call__", recording)
        for scan in (0, 4):
            run, close = runner(task, 3, 0, scan)
            run(20)
            close()
    assert len(seen) == (1 + 20) + (1 + 20) * 4
    import envpool

    rule = _jax_refs.legal_random(envpool.make_spec(task).action_space, seen[0][0].shape[1:])
    for mask, action in seen:
        _assert_legal(rule, mask, action, task)


@pytest.mark.nightly
@pytest.mark.timeout(3600)
@pytest.mark.parametrize("family, task", [
    ("pgx", "Go9x9-v1"), ("pgx", "Chess-v1"), ("jumanji", "Game2048-v1"),
    ("jumanji", "RobotWarehouse-v0"), ("jumanji", "BinPack-v2"),
    ("playground", "Go1JoystickFlatTerrain-v1")])
def test_jax_families_every_method_nightly(family: str, task: str,
                                           tmp_path: pathlib.Path) -> None:
    """Every method of the jax families (envpool sync and async, the package's jitted step
    and scan) at 1 and 2 envs, with the tasks the benchmark's results use; the jax rows'
    actions are legal ones."""
    if family != "playground":
        _jax_rows_play_legal_actions(family, task)
    out = tmp_path / "bench.json"
    result = _run("--family", family, "--task", task, "--num-envs", "1", "2", "--seconds",
                  "0.2", "--warmup", "0.05", "--json", str(out), timeout=3500)
    assert result.returncode == 0, result.stderr[-3000:]
    _check_jax_family(json.loads(out.read_text()), result.stdout, family,
                      ["envpool-sync", "envpool-async", "jax-step", "jax-scan"])
