"""envpool.integrations.cleanrl_run: CleanRL's EnvPool-era JAX scripts, unchanged, on
today's jax and flax. ``jax.tree_map`` is given back where jax removed it (and left alone
where jax has it); flax's ``TrainState`` takes params that are a ``flax.struct.dataclass``
(the scripts' ``AgentParams``) as flax 0.7.4 did, and mappings as flax does; the command
runs a script as ``python SCRIPT ARGS`` would."""

from __future__ import annotations

import pathlib
import subprocess
import sys
import types

import numpy as np
import pytest

from envpool.integrations import cleanrl_run


def test_tree_map_is_given_back_only_where_missing() -> None:
    tree_util = types.SimpleNamespace(tree_map=lambda f, t: "tree_util's")
    jax = types.SimpleNamespace(tree_util=tree_util)
    assert cleanrl_run.restore_tree_map(jax) is True
    assert jax.tree_map is tree_util.tree_map
    own = types.SimpleNamespace(tree_util=tree_util, tree_map=lambda f, t: "own")
    assert cleanrl_run.restore_tree_map(own) is False
    assert own.tree_map(None, None) == "own"


def test_train_state_takes_dataclass_params_as_flax_0_7_4_did() -> None:
    jax = pytest.importorskip("jax")
    flax = pytest.importorskip("flax")
    optax = pytest.importorskip("optax")
    from flax.training import train_state

    class State(train_state.TrainState):  # patched here, flax's own TrainState is not
        pass

    @flax.struct.dataclass
    class Params:
        a: jax.Array
        b: jax.Array

    module = types.SimpleNamespace(TrainState=State, **{
        k: getattr(train_state, k) for k in ("OVERWRITE_WITH_GRADIENT",)
        if hasattr(train_state, k)})
    params = Params(np.ones(2, np.float32), np.zeros(3, np.float32))
    grads = Params(np.full(2, 0.5, np.float32), np.ones(3, np.float32))
    tx = optax.sgd(0.1)
    if not hasattr(train_state, "OVERWRITE_WITH_GRADIENT"):
        pytest.skip(f"flax {flax.__version__} takes any params (nothing to restore)")
    with pytest.raises(TypeError):  # what CleanRL's scripts hit on flax >= 0.7.5
        State.create(apply_fn=None, params=params, tx=tx)
    assert cleanrl_run.restore_train_state(module) is True
    assert cleanrl_run.restore_train_state(module) is False  # once
    state = State.create(apply_fn=None, params=params, tx=tx)
    assert isinstance(state, State) and state.step == 0
    state = state.apply_gradients(grads=grads)
    assert state.step == 1 and isinstance(state.params, Params)
    np.testing.assert_allclose(state.params.a, [0.95, 0.95])
    np.testing.assert_allclose(state.params.b, [-0.1, -0.1, -0.1])
    # a mapping still takes flax's own path, with its overwrite_with_gradient handling
    owg = train_state.OVERWRITE_WITH_GRADIENT
    tree = {"params": {"w": np.ones(2, np.float32)}, owg: {"s": np.zeros(1, np.float32)}}
    state = State.create(apply_fn=None, params=tree, tx=tx)
    grad = {"params": {"w": np.ones(2, np.float32)}, owg: {"s": np.full(1, 7, np.float32)}}
    state = state.apply_gradients(grads=grad)
    np.testing.assert_allclose(state.params[owg]["s"], [7])  # overwritten, not a step
    np.testing.assert_allclose(state.params["params"]["w"], [0.9, 0.9])
    assert train_state.TrainState.create.__func__ is not State.create.__func__


SCRIPT = """
import sys, jax, numpy as np, optax, flax
from flax.training.train_state import TrainState
print("name", __name__, "argv", sys.argv[1:], "path0", sys.path[0] == __file__.rsplit("/", 1)[0])
print("tree_map", jax.tree_map(lambda x: x + 1, [1, 2]))

@flax.struct.dataclass
class AgentParams:
    w: jax.Array

state = TrainState.create(apply_fn=None, params=AgentParams(np.ones(2, np.float32)),
                          tx=optax.sgd(1.0))
state = state.apply_gradients(grads=AgentParams(np.ones(2, np.float32)))
print("params", state.params.w.tolist(), "step", int(state.step))
"""


def test_the_command_runs_a_script_as_python_would(tmp_path: pathlib.Path) -> None:
    for package in ("jax", "flax", "optax"):
        pytest.importorskip(package)
    script = tmp_path / "scripts" / "legacy_jax_script.py"  # not the working directory
    script.parent.mkdir()
    script.write_text(SCRIPT)
    done = subprocess.run([sys.executable, "-m", "envpool.integrations.cleanrl_run",
                           str(script), "--total-timesteps", "8", "--no-track"],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "name __main__ argv ['--total-timesteps', '8', '--no-track'] path0 True"
    assert lines[1] == "tree_map [2, 3]"
    assert lines[2] == "params [0.0, 0.0] step 1"


def _curve_module() -> types.ModuleType:
    import importlib.util

    path = pathlib.Path(__file__).resolve().parents[1] / "scripts" / "cleanrl_curve.py"
    spec = importlib.util.spec_from_file_location("cleanrl_curve", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_gpu_recipe_curve_reads_the_stamped_output(tmp_path: pathlib.Path) -> None:
    """scripts/cleanrl_curve.py (scripts/gpu_pong_xla.sh's results): each iteration's
    stamped ``global_step=..., avg_episodic_return=...`` and ``SPS:`` lines, wall seconds
    from the launch; other lines (warnings, an iteration cut off by the budget) ignored."""
    curve = _curve_module()
    log = tmp_path / "run.log"
    log.write_text("100.5 UserWarning: something\n"
                   "130.5 global_step=8192, avg_episodic_return=-21.0\n"
                   "130.75 SPS: 300\n"
                   "160.5 global_step=16384, avg_episodic_return=-20.5\n"
                   "161.0 SPS: 400\n"
                   "190.0 global_step=24576, avg_episodic_return=-19.0\n")
    rows = curve.read_curve(log.read_text(), start=100.0)
    assert rows == [{"wall_s": 30.5, "step": 8192, "avg_episodic_return": -21.0, "sps": 300},
                    {"wall_s": 60.5, "step": 16384, "avg_episodic_return": -20.5, "sps": 400},
                    {"wall_s": 90.0, "step": 24576, "avg_episodic_return": -19.0}]
    assert curve.read_curve(log.read_text())[0]["wall_s"] == 30.0  # from the first line
    out = tmp_path / "curve.csv"
    curve.main([str(log), str(out), "--start", "100"])
    assert out.read_text().splitlines()[:2] == ["wall_s,step,avg_episodic_return,sps",
                                                "30.5,8192,-21.0,300"]
    assert "273 steps/s" in curve.summary(rows) and "best -19.00" in curve.summary(rows)


def test_curve_reads_the_torch_scripts_games(tmp_path: pathlib.Path) -> None:
    """scripts/cleanrl_curve.py on ``ppo_atari_envpool.py``'s output (scripts/cpu_pong_ppo.sh):
    one row per game with the average of the last 20 games, the last SPS printed before it,
    a plot; the SPS lines on their own for the speed comparison."""
    curve = _curve_module()
    games = [f"{100 + k}.0 global_step={1000 * (k + 1)}, episodic_return={-21.0 + k}"
             for k in range(22)]
    log = "\n".join(["99.0 start", "100.5 SPS: 180", *games[:2], "103.0 SPS: 190",
                     *games[2:]]) + "\n"
    rows = curve.read_curve(log, start=99.0)
    assert len(rows) == 22
    assert rows[0] == {"wall_s": 1.0, "step": 1000, "avg_episodic_return": -21.0,
                       "episodic_return": -21.0, "sps": 180}
    assert rows[1]["avg_episodic_return"] == -20.5 and rows[2]["sps"] == 190
    # the last 20 games of 22: returns -19 ... 0
    assert rows[-1]["avg_episodic_return"] == sum(range(-19, 1)) / 20
    assert curve.sps_lines(log) == [180, 190]
    run = tmp_path / "run.log"
    run.write_text(log)
    out, png = tmp_path / "curve.csv", tmp_path / "curve.png"
    curve.main([str(run), str(out), "--start", "99", "--plot", str(png)])
    assert out.read_text().splitlines()[:2] == [
        "wall_s,step,avg_episodic_return,sps,episodic_return", "1.0,1000,-21.0,180,-21.0"]
    assert png.stat().st_size > 1000
