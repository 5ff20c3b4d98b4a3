"""sail-sg EnvPool's module paths (envpool/compat/paths.py), imported as EnvPool's own
tests and scripts import them: each name is this package's object, each family list is
what this package registers, and a path EnvPool does not have here is an ImportError."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path
from typing import get_type_hints

import dm_env
import pytest

import envpool
from envpool.compat.names import family_of
from envpool.compat.paths import MODULES, family_classes
from envpool.core.pool import EnvPoolBase
from envpool.core.registry import get_task
from envpool.core.spec import EnvSpec
from envpool.flavours.dm_env import DmEnvPool
from envpool.flavours.gymnasium_env import GymnasiumEnvPool


def test_registration_names_are_envpools_own_functions() -> None:
    from envpool.registration import (
        list_all_envs,
        make,
        make_dm,
        make_gym,
        make_gymnasium,
        make_spec,
        registry,
    )

    assert (make, make_dm, make_gym, make_gymnasium, make_spec, list_all_envs) == (
        envpool.make, envpool.make_dm, envpool.make_gym, envpool.make_gymnasium,
        envpool.make_spec, envpool.list_all_envs)
    assert registry.list_all_envs() == envpool.list_all_envs()
    assert registry.make_dm is envpool.make_dm
    specs = registry.specs
    assert set(specs) == set(envpool.list_all_envs())
    assert specs["Pong-v5"] == ("envpool.atari", "AtariEnvSpec", {})
    assert specs["CartPole-v1"] == ("envpool.classic_control", "CartPoleEnvSpec", {})
    assert specs["FrozenLake-v1"] == ("envpool.toy_text", "FrozenLakeEnvSpec", {})
    assert specs["Ant-v5"] == ("envpool.mujoco.gym", "GymAntEnvSpec", {})
    assert specs["CheetahRun-v1"] == ("envpool.mujoco.dmc", "DmcCheetahEnvSpec", {})
    assert specs["Basic-v1"] == ("envpool.vizdoom", "VizdoomEnvSpec", {})
    # EnvPool's registry names a spec class in each family package: every one is there
    # (envpool/compat/spec_classes.py), and it makes specs of that family.
    for path, cls in sorted({(p, c) for p, c, _ in specs.values()}):
        spec_class = getattr(importlib.import_module(path), cls)
        assert issubclass(spec_class, EnvSpec) and spec_class.__name__ == cls
        assert cls.removesuffix("EnvSpec") + "GymnasiumEnvPool" in dir(
            importlib.import_module(path))
    assert {"AtariEnvSpec", "AtariDMEnvPool", "AtariGymEnvPool",
            "AtariGymnasiumEnvPool"} <= set(dir(importlib.import_module("envpool.atari")))


def test_protocol_classes_are_the_pools_classes() -> None:
    from envpool.python.protocol import DMEnvPool, EnvPool
    from envpool.python.protocol import EnvSpec as S
    from envpool.python.protocol import GymnasiumEnvPool as G

    assert (EnvPool, DMEnvPool, G, S) == (EnvPoolBase, DmEnvPool, GymnasiumEnvPool, EnvSpec)
    assert (envpool.EnvPool, envpool.DMEnvPool, envpool.GymnasiumEnvPool, envpool.EnvSpec) == (
        EnvPool, DMEnvPool, G, S)
    i = [envpool.__all__.index(n) for n in ("EnvSpec", "EnvPool", "DMEnvPool", "GymnasiumEnvPool")]
    assert i == sorted(i)  # EnvPool's order (its make_test checks it)
    assert get_type_hints(envpool.make_spec)["return"] is S
    assert get_type_hints(envpool.make_dm)["return"] is DMEnvPool
    assert get_type_hints(envpool.make_gymnasium)["return"] is G
    env = envpool.make_dm("CartPole-v1", num_envs=2)
    assert isinstance(env, DMEnvPool) and isinstance(env, EnvPool)
    assert isinstance(env, dm_env.Environment)
    env.close()
    assert Path(envpool.__file__).with_name("py.typed").is_file()


def test_family_lists_are_the_registered_ids() -> None:
    import envpool.atari.registration as atari
    import envpool.mujoco.dmc.registration as dmc
    import envpool.mujoco.gym.registration as gym_mujoco
    import envpool.vizdoom.registration as vizdoom

    def camel(name: str) -> str:
        return "".join(piece.capitalize() for piece in name.split("_"))

    ids = set(envpool.list_all_envs())
    # EnvPool's tests build the ids from these lists, as below.
    atari_ids = {f"{camel(game)}-v5" for game in atari.atari_game_list}
    assert len(atari_ids) == len(atari.atari_game_list) == 104
    assert "AirRaid-v5" in atari_ids
    assert {i for i in ids if i.endswith("-v5") and get_task(i).native_env
            == "Atari"} - atari_ids == {"TicTacToe3D-v5"}  # ale-py's spelling, beside EnvPool's
    assert "TicTacToe3d-v5" in atari_ids and atari_ids <= ids  # every one of them exists
    doom = {f"{camel(game)}-v1" for game in vizdoom._vizdoom_game_list()}
    assert doom <= ids and {"DefendTheCenter-v1", "D1Basic-v1"} <= doom
    mujoco = {f"{task}-{v}" for task, versions, _ in gym_mujoco.gym_mujoco_envs for v in versions}
    assert mujoco <= ids and {"Ant-v5", "Pusher-v5", "Reacher-v4"} <= mujoco
    steps = {task: limit for task, _, limit in gym_mujoco.gym_mujoco_envs}
    assert steps["Reacher"] == 50 and steps["Pusher"] == 100 and steps["Ant"] == 1000
    dmc_ids = {f"{camel(d)}{camel(t)}-v1".replace("Cmu", "CMU").replace("_", "")
               for d, t, _ in dmc.dmc_mujoco_envs}
    assert len(dmc.dmc_mujoco_envs) == 51 and {"CheetahRun-v1", "HumanoidCMUWalk-v1"} <= dmc_ids
    assert {limit for _, _, limit in dmc.dmc_mujoco_envs} == {1000}


# sail-sg EnvPool 1.2.5's ids that are not here yet: none (its phys2d/ and tabular/ ids,
# gymnasium's jax-based envs, are ported from gymnasium's own; docs/compatibility.md).
NOT_YET: set[str] = set()


def test_every_id_of_envpool_1_2_5_in_our_families_exists() -> None:
    """The ids EnvPool 1.2.5 registers for the families this package has (its registry,
    frozen as data) exist here, in the same family."""
    frozen = {}
    data = Path(__file__).parent / "data" / "envpool_1_2_5_ids.txt"
    for line in data.read_text().splitlines():
        if line and not line.startswith("#"):
            task_id, module = line.split()
            frozen[task_id] = module
    assert len(frozen) == 230
    ours = set(envpool.list_all_envs())
    assert sorted(set(frozen) - ours) == sorted(NOT_YET)
    for task_id, module in frozen.items():
        if task_id not in NOT_YET:
            assert family_of(get_task(task_id).native_env) == module, task_id


def test_every_path_imports_and_others_do_not() -> None:
    for path, table in MODULES.items():
        module = importlib.import_module(path)
        names = {**table, **family_classes(path)}
        assert sorted(names) == dir(module)
        for name in names:
            getattr(module, name)
        with pytest.raises(AttributeError, match="no attribute 'nothing'"):
            module.nothing  # noqa: B018
    import envpool.classic_control.registration  # noqa: F401
    from envpool.python import glfw_context

    # EnvPool's MuJoCo test helpers find the folder above the package this way
    root = os.path.dirname(os.path.dirname(os.path.dirname(glfw_context.__file__)))
    assert root == os.path.dirname(os.path.dirname(envpool.__file__))
    glfw_context.preload_windows_gl_dlls()
    playground = importlib.import_module("envpool.mujoco.playground.registration")
    # EnvPool's task names: each MuJoCo Playground id without "-v1"
    assert "Go1JoystickFlatTerrain" in playground.PLAYGROUND_ENVS
    assert {f"{name}-v1" for name in playground.PLAYGROUND_ENVS} <= set(envpool.list_all_envs())
    procgen = importlib.import_module("envpool.procgen.registration")
    # EnvPool's tables: a mode's number -> the ids' name of it; (game, timeout, modes)
    assert procgen.distribution == {0: "Easy", 1: "Hard", 2: "Extreme", 10: "Memory",
                                    20: "Exploration"}
    assert ("coinrun", 1000, [0, 1, 20]) in procgen.procgen_game_config
    assert ("bigfish", 6000, [0, 1]) in procgen.procgen_game_config
    for game, _, modes in procgen.procgen_game_config:
        for mode in modes:
            envpool.make_spec(f"{game.capitalize()}{procgen.distribution[mode]}-v0")
    with pytest.raises(ImportError):
        importlib.import_module("envpool.atari.nothing")


def test_a_script_that_imports_registration_first() -> None:
    # EnvPool scripts start with `import envpool.<family>.registration` (before any
    # `import envpool`): the finder must be in place by then.
    code = ("import envpool.mujoco.dmc.registration\n"
            "from envpool.registration import make_dm\n"
            "env = make_dm('CartpoleBalance-v1', num_envs=2)\n"
            "print(env.reset().observation.position.shape)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(envpool.__file__).parents[1])
    assert out.stdout.strip() == "(2, 3)"


def test_myosuite_tasks_are_the_registrations() -> None:
    """``envpool.mujoco.myosuite.tasks`` (EnvPool's generated MyoSuite metadata): one entry
    per registered MyoSuite id, in ``myosuite_task_ids``' order, with the spec's sizes and
    time limit; its alias ``MyoSuite/<id>`` has the same spaces."""
    import envpool.mujoco.myosuite.registration as registration
    from envpool.mujoco.myosuite.tasks import (
        MYOSUITE_ORACLE_NUMPY2_BROKEN_IDS,
        MYOSUITE_ORACLE_VERSION,
        MYOSUITE_TASKS,
        MyoSuiteTask,
    )

    assert MYOSUITE_ORACLE_VERSION == envpool.tasks.myosuite.MYOSUITE_VERSION == "2.12.2"
    assert MYOSUITE_ORACLE_NUMPY2_BROKEN_IDS == frozenset()
    assert set(get_type_hints(MyoSuiteTask)) == {"id", "obs_dim", "action_dim",
                                                 "max_episode_steps", "oracle_numpy2_broken"}
    ids = [task["id"] for task in MYOSUITE_TASKS]
    assert ids == list(registration.myosuite_task_ids) == list(envpool.tasks.myosuite.TASKS)
    assert len(ids) == 398 and "myoFingerReachFixed-v0" in ids
    by_id = {task["id"]: task for task in MYOSUITE_TASKS}
    for task_id in ("myoFingerReachFixed-v0", "myoHandPoseRandom-v0", "myoLegWalk-v0",
                    "motorFingerReachFixed-v0", ids[-1]):
        spec = envpool.make_spec(task_id)
        task = by_id[task_id]
        assert spec.observation_space.shape == (task["obs_dim"],)
        assert spec.action_space.shape == (task["action_dim"],)
        assert spec.config.max_episode_steps == task["max_episode_steps"]
        assert task["oracle_numpy2_broken"] is False
        alias = envpool.make_spec(f"MyoSuite/{task_id}")
        assert alias.observation_space.shape == spec.observation_space.shape
    assert by_id["myoFingerReachFixed-v0"] == {
        "id": "myoFingerReachFixed-v0", "obs_dim": 19, "action_dim": 5,
        "max_episode_steps": 100, "oracle_numpy2_broken": False}


def test_gfootball_paths() -> None:
    """EnvPool's gfootball paths: the family package, its registration and the engine
    oracle class of its raw binding; ``base_path`` is the package's folder."""
    import envpool.gfootball.registration  # noqa: F401
    from envpool.gfootball.gfootball_envpool import _GfootballOracleEngine
    from envpool.registration import base_path, registry

    assert _GfootballOracleEngine is envpool.tasks.gfootball.OracleEngine
    assert base_path == os.path.dirname(envpool.__file__)
    assert registry.specs["gfootball/academy_empty_goal-v1"] == (
        "envpool.gfootball", "GfootballEnvSpec", {})
    assert registry.specs["CarRacing-v3"] == ("envpool.box2d", "CarRacingEnvSpec", {})


# sail-sg EnvPool 1.2.5's jumanji ids (jumanji 1.1.1's), as its registry test lists them.
ENVPOOL_JUMANJI_IDS = (
    "BinPack-v2", "CVRP-v1", "Cleaner-v0", "Connector-v2", "FlatPack-v0", "Game2048-v1",
    "GraphColoring-v1", "JobShop-v0", "Knapsack-v1", "LevelBasedForaging-v0", "MMST-v0",
    "Maze-v0", "Minesweeper-v0", "MultiCVRP-v0", "PacMan-v1", "RobotWarehouse-v0",
    "RubiksCube-partly-scrambled-v0", "RubiksCube-v0", "SearchAndRescue-v0",
    "SlidingTilePuzzle-v0", "Snake-v1", "Sokoban-v0", "Sudoku-v0", "Sudoku-very-easy-v0",
    "TSP-v1", "Tetris-v0")


def test_jumanji_registration_lists_envpools_ids() -> None:
    """``envpool.jumanji.registration.jumanji_env_ids`` is EnvPool's list (sorted, jumanji
    1.1.1's ids) of the ids here: not jumanji 1.1.2's Connector-v3, which is here too."""
    import envpool.jumanji.registration as jumanji_registration

    ids = set(envpool.list_all_envs())
    here = tuple(i for i in ENVPOOL_JUMANJI_IDS if i in ids)
    assert tuple(jumanji_registration.jumanji_env_ids) == here
    assert set(ENVPOOL_JUMANJI_IDS) - set(here) <= {"SearchAndRescue-v0", "Sokoban-v0"}
    assert {"Connector-v3", "Jumanji/Connector-v3"} <= ids
    assert all(f"Jumanji/{i}" in ids for i in here)
