"""Smoke tests of an installed envpool-ng wheel.

Run from a folder outside the checkout, in a venv where the wheel was installed without a
compiler (.ci/run, the release workflow's cibuildwheel test), so that ``import envpool`` is
the wheel's:

    cd "$(mktemp -d)" && python -m pytest -p no:cacheprovider -c /dev/null --rootdir . \\
        /path/to/checkout/packaging/smoke_test.py

Every family makes, resets, steps and (where it draws) renders one id; every id of
docs/envs.md is listed; the three flavours and the gymnasium ids work; the adapters import
(or name the framework they need); the env SDK's headers and CMake config are the wheel's,
and the custom-env template (examples/custom_env) builds against them and runs. A family
whose optional package is missing from the venv fails, naming it: the venv is meant to have
every extra (see the commands above and docs/install.md).
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest

import envpool

ROOT = Path(__file__).resolve().parents[1]

# family -> (id, draws a picture)
FAMILIES = {
    "classic control": ("CartPole-v1", True),
    "toy text": ("FrozenLake-v1", True),
    "MuJoCo": ("Ant-v5", True),
    "DeepMind Control": ("CheetahRun-v1", True),
    "Atari": ("Pong-v5", True),
    "ViZDoom": ("Basic-v1", True),
    "Box2D": ("CarRacing-v3", True),
    "MiniGrid": ("MiniGrid-DoorKey-8x8-v0", True),
    "BabyAI": ("BabyAI-GoToRedBall-v0", True),
    "Gymnasium-Robotics": ("FetchPush-v4", True),
    "Meta-World": ("MetaWorld/Reach-v3", True),
    "MyoSuite": ("myoElbowPose1D6MRandom-v0", True),
    "gfootball": ("gfootball/academy_empty_goal_close-v1", False),
    "jax phys2d": ("phys2d/CartPole-v1", False),
}


def test_envpool_is_the_installed_wheel() -> None:
    location = Path(envpool.__file__).resolve()
    # the venv's site-packages (the venv itself may lie inside the checkout), not the
    # checkout's envpool/
    assert location.parent != ROOT / "envpool", f"envpool is the checkout's: {location}"
    assert Path(sys.prefix).resolve() in location.parents, (location, sys.prefix)
    assert importlib.metadata.version("envpool-ng") == envpool.__version__
    for name in ("_native", "_atari", "_gfootball"):
        module = importlib.import_module(f"envpool.{name}")
        assert Path(module.__file__).resolve().parent == location.parent, module.__file__
        assert module.__envpool_version__ == envpool.__version__


def test_every_id_is_listed() -> None:
    page = (ROOT / "docs" / "envs.md").read_text()
    # each family's table: | id | native env | observation | ... (the first column an id)
    documented = {m.group(1) for m in re.finditer(r"^\| ([^ |`]+) \| [A-Z][A-Za-z0-9]* \|",
                                                  page, re.MULTILINE)}
    assert len(documented) > 1000, "docs/envs.md lists no ids"
    listed = set(envpool.list_all_envs())
    assert listed == documented, (sorted(documented - listed)[:10],
                                  sorted(listed - documented)[:10])


@pytest.mark.parametrize("family", FAMILIES)
def test_family_makes_resets_steps_and_renders(family: str) -> None:
    task_id, draws = FAMILIES[family]
    kwargs = {"render_mode": "rgb_array"} if draws else {}
    env = envpool.make_gymnasium(task_id, num_envs=2, seed=0, **kwargs)
    try:
        obs, info = env.reset()
        env.action_space.seed(0)
        for _ in range(5):
            actions = np.stack([env.action_space.sample() for _ in range(2)])
            obs, reward, terminated, truncated, info = env.step(actions)
        assert np.shape(reward) == (2,) and np.all(np.isfinite(reward)), reward
        if draws:
            frames = env.render()
            assert frames.dtype == np.uint8 and frames.ndim == 4 and frames.shape[-1] == 3
            assert frames.max() > frames.min(), "the frame is blank"
    finally:
        env.close()


def test_three_flavours_and_the_gymnasium_ids() -> None:
    dm = envpool.make_dm("CartPole-v1", num_envs=2)
    assert dm.reset().observation.obs.shape == (2, 4)
    gym_env = envpool.make_gym("CartPole-v1", num_envs=2)
    obs, _ = gym_env.reset()
    assert obs.shape == (2, 4)
    envs = gymnasium.make_vec("envpool/Pong-v5", num_envs=2, autoreset_mode="same_step")
    obs, _ = envs.reset(seed=0)
    envs.step(envs.action_space.sample())
    single = gymnasium.make("envpool/CartPole-v1")
    single.reset(seed=0)
    single.step(0)


# adapter module -> the framework it needs (None: only envpool's own dependencies)
ADAPTERS = {"acme": None, "cleanrl": None, "curves": None, "sb3": "stable_baselines3",
            "tianshou": "tianshou", "rl_games": "rl_games", "rllib": "ray"}


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_adapters_import(adapter: str) -> None:
    framework = ADAPTERS[adapter]
    if framework is None or importlib.util.find_spec(framework) is not None:
        importlib.import_module(f"envpool.integrations.{adapter}")
    else:  # the adapter is in the wheel; importing it without its framework names it
        with pytest.raises(ModuleNotFoundError, match=framework):
            importlib.import_module(f"envpool.integrations.{adapter}")


def test_sdk_is_the_wheels() -> None:
    package = Path(envpool.__file__).resolve().parent
    out = subprocess.run([sys.executable, "-m", "envpool", "--cmake-dir", "--include"],
                         capture_output=True, text=True, check=True).stdout.split()
    assert out == [str(package / "share" / "cmake" / "envpool"), str(package / "include")], out
    assert (Path(out[0]) / "envpoolConfig.cmake").is_file()
    assert (Path(out[1]) / "core" / "pool.cc").is_file()


@pytest.mark.timeout(900)
def test_custom_env_template_builds_against_the_wheel(tmp_path: Path) -> None:
    """examples/custom_env built against the installed wheel's SDK (a compiler, CMake,
    scikit-build-core and pybind11 in this venv), then its own tests."""
    template = tmp_path / "custom_env"
    shutil.copytree(ROOT / "examples" / "custom_env", template,
                    ignore=shutil.ignore_patterns("__pycache__", "build"))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"  # cmake, ninja
    build = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps", "-q",
         "--disable-pip-version-check", str(template)],
        env=env, capture_output=True, text=True, timeout=840)
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-5000:]
    try:
        run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                              "-c", os.devnull, "--rootdir", str(tmp_path),
                              str(template / "tests")],
                             env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert run.returncode == 0 and "7 passed" in run.stdout, run.stdout[-4000:] + run.stderr
    finally:
        subprocess.run([sys.executable, "-m", "pip", "uninstall", "-y", "-q",
                        "envpool-thermostat"], env=env, capture_output=True)
