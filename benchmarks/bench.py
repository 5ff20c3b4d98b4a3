"""One benchmark over the env families: envpool against the usual ways to step many envs.

For each family (``--family classic toy_text atari mujoco dm_control dm_control_pixels
vizdoom box2d minigrid robotics metaworld myosuite gfootball procgen highway pgx jumanji
playground``, one or several), its task (``--task`` overrides the family's default) and each
``num_envs`` = n:

* ``envpool-sync``: ``envpool.make_gymnasium(task, num_envs=n)``, ``env.step(actions)``;
* ``envpool-async``: ``batch_size = n // 2``, ``async_reset()`` then ``recv()`` /
  ``send(actions, info["env_id"])``;
* ``gym-sync`` / ``gym-async``: gymnasium's ``SyncVectorEnv`` / ``AsyncVectorEnv`` of n
  reference envs (the family's own gymnasium env: ``gymnasium.make(task)``; for Atari ale-py's
  env with ``AtariPreprocessing`` + ``FrameStackObservation(4)``; for dm_control Shimmy's
  wrapper; for dm_control_pixels (``from_pixels=True``, 84x84 from camera 0, 3 frames
  stacked: the DrQ / CURL observation) dm_control's ``pixels.Wrapper`` through Shimmy with
  gymnasium's ``FrameStackObservation``; for ViZDoom vizdoom's own gymnasium env; for
  Procgen procgen 0.10.7's own gym env, ``ProcgenGym3Env(num=1, num_threads=0)`` through
  gym3's ``ToGymEnv``, under gymnasium's API; for highway highway-env's
  ``gymnasium.make(task)``);
* ``sb3-subproc``: Stable-Baselines3's ``SubprocVecEnv`` of n reference envs;
* ``ale-vector`` (Atari only): ale-py's ``AtariVectorEnv`` (its own C++ threads);
* ``procgen-vector`` (Procgen only): procgen's own vector env, ``ProcgenGym3Env(num=n)`` on
  its C++ threads (procgen's default 4; ``--num-threads`` sets both it and envpool's),
  stepped as gym3 steps it (``act``, then ``observe`` and the info arrays, copied); procgen
  installs on CPython 3.10 and below only, so its game library is driven through gym3's
  libenv C API from its wheel (``tests/procgen_oracle.py``);
* ``raw``: the single-thread rate of the bare work (one ``ale_py.ALEInterface``, one
  ``mujoco.mj_step`` loop, one dm_control physics, one vizdoom ``DoomGame``, one plain
  gymnasium env for classic and toy text, one procgen game); the limit of n envs is
  ``min(n, cores) x raw``;
* ``jax-step`` / ``jax-scan`` (the jax families pgx, jumanji and playground, in place of the
  gymnasium, SB3 and raw methods): the package's own env, vmapped over n envs with its own
  auto-reset and jitted with the action choice, one call per step or a ``lax.scan`` of
  several steps per call (``_jax_refs.py``). Their envpool rows take random legal actions
  by the same rule (the argmax of pre-sampled noise over each env's action mask).

Every measurement runs in a fresh subprocess, so its memory is its own: the peak PSS of the
subprocess and all its children (vector-env workers, ViZDoom engines) is sampled from
``/proc/<pid>/smaps_rollup`` every ``--pss-interval`` s. ``--reps`` rounds interleave every
measurement (the order rotates per round); a rate is the median over rounds and a ratio the
median of each round's own ratio. A method that cannot run (a package missing, n too small,
too many processes for the cores) prints ``n/a (reason)`` or ``skipped (reason)``.

``--policy``: each step's actions come from a small torch policy (an MLP, or a
Nature-CNN-like net for image observations) run on the batch of observations, one torch
thread; otherwise actions are sampled before timing and cycled through.

Run: ``python benchmarks/bench.py --family classic atari [--num-envs 8 16] [--seconds 2]
[--reps 3] [--policy] [--md out.md] [--json out.json] [--png out.png]``.
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import gymnasium
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _jax_refs as J  # noqa: E402
import _runners as R  # noqa: E402


# -- the families ------------------------------------------------------------
def _game(task: str) -> str:
    return task.split("-")[0]


@dataclass(frozen=True)
class Family:
    """How one family's methods are built."""

    default_task: str
    default_num_envs: tuple[int, ...]
    # task -> a picklable zero-argument maker of one reference gymnasium env
    reference: Callable[[str], Callable[[], gymnasium.Env]]
    reference_label: str
    raw: Callable[[str, int], R.Made]
    raw_label: str
    extra_methods: tuple[str, ...] = ()
    envpool_kwargs: dict[str, Any] = field(default_factory=dict)
    binary_actions: bool = False  # ViZDoom: 0/1 button vectors
    # AsyncVectorEnv's start method: "spawn" where the reference env made in the parent (for
    # its spaces) holds a GL context, which forked workers cannot use (they hang in EGL)
    vector_context: str | None = None
    startup_seconds: float = 90.0  # what a measurement may take besides its timed seconds
    versions: tuple[str, ...] = ()  # distributions named in the header
    # task, n -> one maker per env, where the envs of one measurement differ (Meta-World's MT
    # pools); then envpool's pool gets each env's task_name through env_kwargs
    references: Callable[[str, int], list[Callable[[], gymnasium.Env]]] | None = None
    per_env_tasks: Callable[[str, int], list[str]] | None = None
    # (method, column title): more "vs" columns, envpool's ratio to the family's own vector
    # env (Procgen's ProcgenGym3Env)
    extra_references: tuple[tuple[str, str], ...] = ()
    # the jax families (PGX, Jumanji, MuJoCo Playground): (task, n, seed, scan_steps) -> the
    # package's own jitted vmapped step (_jax_refs); their methods replace gymnasium's
    jax_reference: Callable[[str, int, int, int], R.Made] | None = None
    jax_label: str = ""  # the package and its auto-reset, in the rows' labels
    scan_steps: int = 64  # steps per jax-scan call
    # (obs, info) -> the batch's legal-action mask: envpool's actions are then random legal
    # ones (_jax_refs.LegalRandom), the same rule as the jax methods'
    legal_mask: Callable[[Any, Any], Any] | None = None


def _gym_make(task: str) -> Callable[[], gymnasium.Env]:
    return lambda: gymnasium.make(task)


def _plain_env_raw(task: str, seed: int) -> R.Made:
    return R.single_env_runner(gymnasium.make(task), seed)


def _minigrid_make(task: str, image_only: bool = False) -> gymnasium.Env:
    import minigrid  # noqa: F401  (registers the MiniGrid ids with gymnasium)
    from minigrid.wrappers import ImgObsWrapper

    env = gymnasium.make(task)
    return ImgObsWrapper(env) if image_only else env


def _minigrid_reference(task: str) -> Callable[[], gymnasium.Env]:
    # the image alone: the package's mission is a Text space, which AsyncVectorEnv's shared
    # memory and SB3 cannot hold; ImgObsWrapper is how SB3 and CleanRL users train on it
    return functools.partial(_minigrid_make, task, True)


def _robotics_make(task: str) -> gymnasium.Env:
    # gymnasium_robotics' env, made resettable on the mujoco this package runs on (its Fetch
    # envs' joint-type check: envpool.integrations._reference_envs.gymnasium_robotics_on_mujoco3)
    from envpool.integrations._reference_envs import gymnasium_robotics_on_mujoco3

    gymnasium_robotics_on_mujoco3()
    return gymnasium.make(task)


def _robotics_reference(task: str) -> Callable[[], gymnasium.Env]:
    return functools.partial(_robotics_make, task)


def _myosuite_make(task: str) -> gymnasium.Env:
    # the myosuite package's env, as its users make it (its registry: myosuite.utils.gym)
    from myosuite.utils import gym as myo_gym

    return myo_gym.make(task)


def _myosuite_reference(task: str) -> Callable[[], gymnasium.Env]:
    return functools.partial(_myosuite_make, task)


class GfootballEnv(gymnasium.Env):
    """The gfootball package's env for one scenario as its ``create_environment(env_name,
    representation="extracted", stacked=False)`` gives it (its FootballEnv and the Super Mini
    Map of generate_smm, one agent), under gymnasium's API for the vector envs (the package's
    own wrappers speak the old gym API)."""

    observation_space = gymnasium.spaces.Box(0, 255, (72, 96, 4), np.uint8)
    action_space = gymnasium.spaces.Discrete(19)

    def __init__(self, task: str) -> None:
        from gfootball.env import config, football_env, observation_preprocessing

        self._smm = observation_preprocessing.generate_smm
        self._env = football_env.FootballEnv(config.Config({"level": task[len("gfootball/"):-3]}))

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        return self._smm(self._env.reset())[0], {}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        obs, reward, done, _ = self._env.step([int(action)])
        truncated = bool(done and obs[0]["steps_left"] <= 0)
        return self._smm(obs)[0], float(reward[0]), bool(done) and not truncated, truncated, {}

    def close(self) -> None:
        self._env.close()


def _gfootball_reference(task: str) -> Callable[[], gymnasium.Env]:
    return functools.partial(GfootballEnv, task)


def _metaworld_tasks(task: str, n: int) -> list[str]:
    """The Meta-World task of each of ``n`` envs: ``MT50`` cycles over metaworld's 50 v3
    tasks (env i runs task i mod 50: n = 50 is one MT50 pool), ``MT10`` over MT10's ten;
    a ``MetaWorld/<Task>-v3`` id runs that task in every env."""
    from envpool.tasks.metaworld import MT10, TASKS, task_id

    cycle = {"MT50": list(TASKS), "MT10": list(MT10)}.get(task)
    if cycle is None:
        return [TASKS[[task_id(t) for t in TASKS].index(task)]] * n
    return [cycle[i % len(cycle)] for i in range(n)]


def _metaworld_make(name: str) -> gymnasium.Env:
    # the package's task class, a new random vector from its default_rng at each reset (its
    # seeded_rand_vec mode; a benchmark's fixed task vectors would not change the speed),
    # the goal observed as in the MT benchmarks, made resettable on mujoco 3.17
    from envpool.integrations._reference_envs import metaworld_reference_env

    return metaworld_reference_env(name, partially_observable=False)


def _metaworld_references(task: str, n: int) -> list[Callable[[], gymnasium.Env]]:
    return [functools.partial(_metaworld_make, name) for name in _metaworld_tasks(task, n)]


def _metaworld_raw(task: str, seed: int) -> R.Made:
    return R.single_env_runner(_metaworld_make(_metaworld_tasks(task, 1)[0]), seed)


def _atari_reference(task: str) -> Callable[[], gymnasium.Env]:
    game = _game(task)
    return lambda: R.preprocessed_ale_env(game)


def _dm_reference(task: str) -> Callable[[], gymnasium.Env]:
    gym_id = R.shimmy_env_id(task)
    return lambda: R.shimmy_env(gym_id)


def _dm_pixels_reference(task: str) -> Callable[[], gymnasium.Env]:
    return functools.partial(R.dm_pixels_env, task)


def _vizdoom_reference(task: str) -> Callable[[], gymnasium.Env]:
    gym_id = R.vizdoom_gym_id(task)
    return lambda: R.vizdoom_gym_env(gym_id)


# -- Procgen: procgen 0.10.7's game library, from its wheel (tests/procgen_oracle.py) --
# procgen's ProcgenGym3Env stepping threads by default (procgen/env.py's num_threads=4)
PROCGEN_THREADS = 4


def _procgen_oracle() -> Any:
    """tests/procgen_oracle.py: procgen's game library through gym3's libenv API (ctypes)."""
    tests = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests")
    if tests not in sys.path:
        sys.path.insert(0, tests)
    import procgen_oracle

    return procgen_oracle


def _procgen_wheel() -> str:
    """The folder of procgen 0.10.7's unpacked wheel (``python -m envpool
    --procgen-assets`` fills it; here, once, when it is not there)."""
    from envpool.tasks import procgen

    try:
        return procgen.download_wheel()
    except RuntimeError as exc:
        raise R.NotAvailable(f"procgen's wheel (python -m envpool --procgen-assets): "
                             f"{exc}") from None


def procgen_game(task: str) -> tuple[str, dict[str, Any]]:
    """procgen's env name and ``ProcgenGym3Env`` options of an envpool Procgen id, from its
    registration (``CoinrunEasy-v0`` -> ``("coinrun", {"distribution_mode": "easy"})``;
    exploration: hard mode on one level)."""
    from envpool.core.registry import get_task
    from envpool.tasks.procgen import GAMES

    spec = get_task(task)
    prefix = spec.native_env.removeprefix("Procgen")
    game = next((g for g, (p, _) in GAMES.items() if p == prefix), None)
    if game is None:
        raise R.NotAvailable(f"{task} is not a Procgen id")
    return game, dict(spec.env_kwargs)


class ProcgenGymEnv(gymnasium.Env):
    """procgen's own gym env (``gym.make("procgen:procgen-<game>-v0")``: gym3's ``ToGymEnv``
    of ``ProcgenGym3Env(num=1, num_threads=0)``) under gymnasium's API. The game resets
    itself: ``terminated`` is gym3's ``first`` after the step, and ``reset`` after the first
    returns the frame the game shows (as ``ToGymEnv.reset`` does)."""

    observation_space = gymnasium.spaces.Box(0, 255, (64, 64, 3), np.uint8)
    action_space = gymnasium.spaces.Discrete(15)

    def __init__(self, task: str) -> None:
        self._task = task
        self._game: Any = None

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if self._game is None:
            name, kwargs = procgen_game(self._task)
            self._game = _procgen_oracle().ProcgenOracle(
                _procgen_wheel(), name, rand_seed=seed or 0, **kwargs)
        return self._game.obs, self._game.info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        game = self._game
        game.act(int(action))
        return game.obs, game.reward, game.first, False, game.info()

    def close(self) -> None:
        if self._game is not None:
            self._game.close()
            self._game = None


def _procgen_reference(task: str) -> Callable[[], gymnasium.Env]:
    return functools.partial(ProcgenGymEnv, task)


def _procgen_vector_runner(task: str, n: int, seed: int, make_actor: R.ActorFactory,
                           num_threads: int) -> R.Made:
    """procgen's own vector env, ``ProcgenGym3Env(num=n)`` on ``num_threads`` threads
    (procgen's default 4 when 0), stepped as gym3 steps it: ``act(actions)`` then
    ``observe()`` (copies of the reward, frames and ``first``) and the info arrays
    ``get_info`` reads, per step."""
    game, kwargs = procgen_game(task)
    env = _procgen_oracle().ProcgenGym3Vec(
        _procgen_wheel(), game, num=n, num_threads=num_threads or PROCGEN_THREADS,
        rand_seed=seed, **kwargs)
    _, obs, _, _ = env.observe()

    def step(actions: Any) -> tuple[Any, ...]:
        env.act(np.asarray(actions, np.int32))  # procgen's act: ac.astype(np.int32)
        rew, obs, first, info = env.observe()
        return obs, rew, first, info

    actor = make_actor(obs, ProcgenGymEnv.action_space, n)
    return R.batch_loop(step, obs, actor, n), env.close


# -- highway-env ---------------------------------------------------------------
def _highway_make(task: str) -> gymnasium.Env:
    # the highway-env package's env (it registers its ids with gymnasium on import)
    import highway_env

    gymnasium.register_envs(highway_env)
    return gymnasium.make(task)


def _highway_reference(task: str) -> Callable[[], gymnasium.Env]:
    return functools.partial(_highway_make, task)
def _no_reference(task: str) -> Callable[[], gymnasium.Env]:
    raise R.NotAvailable("the jax families have no gymnasium reference env")


def _no_raw(task: str, seed: int) -> R.Made:
    raise R.NotAvailable("the jax families have no raw rate")


def _jax_family(default_task: str, num_envs: tuple[int, ...],
                runner: Callable[[str, int, int, int], R.Made], label: str,
                versions: tuple[str, ...], **kwargs: Any) -> Family:
    return Family(default_task, num_envs, _no_reference, "none (the package's own jitted "
                  "vmapped step is the reference)", _no_raw, "none", jax_reference=runner,
                  jax_label=label, versions=("jax", "jaxlib", *versions), **kwargs)


FAMILIES: dict[str, Family] = {
    "classic": Family("CartPole-v1", (8, 64), _gym_make, "gymnasium.make(task)",
                      _plain_env_raw, "one gymnasium.make(task) env, plain loop"),
    "toy_text": Family("FrozenLake-v1", (8, 64), _gym_make, "gymnasium.make(task)",
                       _plain_env_raw, "one gymnasium.make(task) env, plain loop"),
    "atari": Family("Pong-v5", (8, 16), _atari_reference,
                    "ale-py env + AtariPreprocessing + FrameStackObservation(4)",
                    lambda task, seed: R.ale_raw_runner(_game(task), grabs=True),
                    "one ale_py.ALEInterface: 4 act + 2 grayscale grabs per step",
                    extra_methods=("ale-vector",), versions=("ale-py",)),
    "mujoco": Family("Ant-v5", (8, 32), _gym_make, "gymnasium.make(task)",
                     lambda task, seed: R.raw_mujoco_runner(task),
                     "one mujoco.mj_step(nstep=frame_skip) loop", versions=("mujoco",)),
    "dm_control": Family("CheetahRun-v1", (8, 32), _dm_reference,
                         "Shimmy's dm_control gymnasium env",
                         lambda task, seed: R.raw_dm_control_runner(task),
                         "one dm_control physics: mj_step(nstep=n_sub_steps)",
                         versions=("dm-control", "shimmy", "mujoco")),
    "dm_control_pixels": Family("CheetahRun-v1", (8, 32), _dm_pixels_reference,
                                "dm_control + pixels.Wrapper (84x84, camera 0) through Shimmy, "
                                "channel-first, FrameStackObservation(3)",
                                lambda task, seed: R.raw_dm_pixels_runner(task),
                                "that reference env alone, plain loop (physics + one frame)",
                                envpool_kwargs={"from_pixels": True, **R.PIXELS},
                                vector_context="spawn", startup_seconds=600.0,
                                versions=("dm-control", "shimmy", "mujoco")),
    "vizdoom": Family("Basic-v1", (4, 8), _vizdoom_reference,
                      "vizdoom's own gymnasium env (320x240 RGB, no resize)",
                      lambda task, seed: R.raw_vizdoom_runner(task),
                      f"one vizdoom DoomGame: make_action(a, {R.VIZDOOM_FRAME_SKIP})",
                      envpool_kwargs={"frame_skip": R.VIZDOOM_FRAME_SKIP},
                      binary_actions=True, versions=("vizdoom",)),
    "box2d": Family("LunarLander-v3", (1, 8, 32), _gym_make, "gymnasium.make(task)",
                    _plain_env_raw, "one gymnasium.make(task) env, plain loop",
                    versions=("box2d",)),
    "minigrid": Family("MiniGrid-DoorKey-8x8-v0", (1, 8, 32), _minigrid_reference,
                       "the minigrid package's gymnasium.make(task) + ImgObsWrapper",
                       lambda task, seed: R.single_env_runner(_minigrid_make(task), seed),
                       "one minigrid env, plain loop", versions=("minigrid",)),
    "robotics": Family("FetchPush-v4", (1, 8, 32), _robotics_reference,
                       "gymnasium_robotics' gymnasium.make(task)",
                       lambda task, seed: R.single_env_runner(_robotics_make(task), seed),
                       "one gymnasium_robotics env, plain loop",
                       versions=("gymnasium-robotics", "mujoco")),
    "metaworld": Family("MT50", (1, 10, 50), lambda task: _metaworld_references(task, 1)[0],
                        "metaworld's task class (a new random vector at each reset, the goal "
                        "observed); MT50: env i runs task i mod 50 of the 50 v3 tasks",
                        _metaworld_raw, "one metaworld env (env 0's task), plain loop",
                        envpool_kwargs={"partially_observable": False},
                        references=_metaworld_references, per_env_tasks=_metaworld_tasks,
                        versions=("metaworld", "mujoco")),
    "myosuite": Family("myoHandPoseRandom-v0", (1, 8, 32), _myosuite_reference,
                       "myosuite's gym.make(task) (its registry)",
                       lambda task, seed: R.single_env_runner(_myosuite_make(task), seed),
                       "one myosuite env, plain loop", versions=("myosuite", "mujoco")),
    "gfootball": Family("gfootball/11_vs_11_stochastic-v1", (1, 8), _gfootball_reference,
                        "the gfootball package's FootballEnv + generate_smm (its "
                        "representation='extracted'), under gymnasium's API",
                        lambda task, seed: R.single_env_runner(GfootballEnv(task), seed),
                        "one gfootball env, plain loop", versions=("gfootball",)),
    "procgen": Family("CoinrunEasy-v0", (8, 64), _procgen_reference,
                      "procgen 0.10.7's own gym env (gym3's ToGymEnv of "
                      "ProcgenGym3Env(num=1, num_threads=0)) under gymnasium's API; its game "
                      "library and images from procgen's cp310 wheel",
                      lambda task, seed: R.single_env_runner(ProcgenGymEnv(task), seed),
                      "one procgen game, ProcgenGym3Env(num=1, num_threads=0), plain loop",
                      extra_methods=("procgen-vector",),
                      extra_references=(("procgen-vector", "vs procgen vector"),),
                      startup_seconds=180.0),
    "highway": Family("highway-fast-v0", (8, 32), _highway_reference,
                      "highway-env's gymnasium.make(task)",
                      lambda task, seed: R.single_env_runner(_highway_make(task), seed),
                      "one highway-env env, plain loop", versions=("highway-env",)),
    "pgx": _jax_family("Go9x9-v1", (1, 8, 64), J.pgx_runner,
                       "pgx jit(vmap(auto_reset(step, init)))", ("pgx",),
                       legal_mask=lambda obs, info: info["legal_action_mask"]),
    "jumanji": _jax_family("Game2048-v1", (1, 8, 64), J.jumanji_runner,
                           "jumanji jit(VmapWrapper(AutoResetWrapper))", ("jumanji",),
                           legal_mask=lambda obs, info: obs.get("action_mask")),
    # MJX compiles for minutes on a loaded CPU; 20 steps per scan: playground's brax PPO
    # unroll_length for the Go1
    "playground": _jax_family("Go1JoystickFlatTerrain-v1", (1, 32), J.playground_runner,
                              "playground MJX jit(wrap_for_brax_training)",
                              ("playground", "mujoco-mjx", "brax", "mujoco"),
                              scan_steps=20, startup_seconds=1200.0),
}

BASE_METHODS = ("envpool-sync", "envpool-async", "gym-sync", "gym-async", "sb3-subproc")
# sail-sg EnvPool (or any other envpool) in another interpreter: --peer-python
PEER_METHODS = ("peer-sync", "peer-async")
# the jax families' references: the package's jitted vmapped step, one call per step or a
# lax.scan of Family.scan_steps steps per call
JAX_METHODS = ("jax-step", "jax-scan")
ALL_METHODS = (*BASE_METHODS, *PEER_METHODS, "ale-vector", "procgen-vector", "raw",
               *JAX_METHODS)
LABELS = {
    "envpool-sync": "envpool sync",
    "envpool-async": "envpool async (batch n//2)",
    "peer-sync": "peer envpool sync",  # the peer's name and version replace "peer envpool"
    "peer-async": "peer envpool async (batch n//2)",
    "gym-sync": "gymnasium SyncVectorEnv",
    "gym-async": "gymnasium AsyncVectorEnv",
    "sb3-subproc": "SB3 SubprocVecEnv",
    "ale-vector": "ale-py AtariVectorEnv",
    "procgen-vector": "procgen ProcgenGym3Env(num=n)",  # + its threads (label())
    "raw": "limit: min(n, cores) x raw single-thread rate",
    "jax-step": "{jax}, one call per step",  # the family's jax_label replaces {jax}
    "jax-scan": "{jax}, lax.scan of {scan} steps per call",
}
PROCESS_PER_ENV = frozenset({"gym-async", "sb3-subproc"})
REFERENCES = (("gym-async", "vs gym Async"), ("sb3-subproc", "vs SB3 Subproc"),
              ("raw", "vs limit"))
JAX_REFERENCES = (("jax-step", "vs jax step"), ("jax-scan", "vs jax scan"))
HEADER_DISTS = ("envpool", "gymnasium", "ale-py", "mujoco", "stable-baselines3", "torch",
                "numpy")


def family_references(family: str) -> tuple[tuple[str, str], ...]:
    """The ratio columns of ``family``'s table (besides the peer's)."""
    fam = FAMILIES[family]
    return JAX_REFERENCES if fam.jax_reference else (*REFERENCES, *fam.extra_references)


def family_methods(family: str, wanted: Sequence[str]) -> list[str]:
    """The methods of ``family`` among ``wanted``, in table order."""
    if FAMILIES[family].jax_reference:
        own: tuple[str, ...] = (*BASE_METHODS[:2], *PEER_METHODS, *JAX_METHODS)
    else:
        own = (*BASE_METHODS[:2], *PEER_METHODS, *BASE_METHODS[2:],
               *FAMILIES[family].extra_methods, "raw")
    return [m for m in own if m in wanted]


# -- one measurement, in the child process ------------------------------------
def build(spec: dict[str, Any]) -> R.Made:
    """The (run, close) of one measurement; NotAvailable where it cannot run here."""
    fam = FAMILIES[spec["family"]]
    task, n, seed, method = spec["task"], spec["n"], spec["seed"], spec["method"]
    if method == "raw":
        return fam.raw(task, seed)
    if method in JAX_METHODS:
        if fam.jax_reference is None:
            raise R.NotAvailable("not a jax family")
        if spec["policy"]:
            raise R.NotAvailable("--policy: no torch policy in the jitted loop")
        return fam.jax_reference(task, n, seed, fam.scan_steps if method == "jax-scan" else 0)
    actor_input = None
    if spec["policy"]:
        from _policy import policy_actor

        make_actor = policy_actor(seed)
    elif fam.legal_mask is not None:
        make_actor, actor_input = J.legal_actor(seed), fam.legal_mask
    else:
        make_actor = R.random_actor(seed, binary=fam.binary_actions)
    if method in ("envpool-sync", "envpool-async", *PEER_METHODS):
        # (a peer method is this code under --peer-python: its `import envpool` is the peer)
        batch = n if method in ("envpool-sync", "peer-sync") else n // 2
        if batch < 1:
            raise R.NotAvailable("needs num_envs >= 2")
        kwargs = dict(fam.envpool_kwargs)
        pool_task = task
        if fam.per_env_tasks is not None and "/" not in task:  # a task set (MT50)
            if method in PEER_METHODS:
                raise R.NotAvailable("one task per sail-sg EnvPool pool (--task "
                                     "MetaWorld/<Task>-v3 measures one)")
            from envpool.tasks.metaworld import task_id

            names = fam.per_env_tasks(task, n)
            pool_task = task_id(names[0])
            kwargs["env_kwargs"] = {"task_name": names}
        return R.envpool_runner(pool_task, n, batch, seed, make_actor, spec["num_threads"],
                                actor_input, **kwargs)
    if method == "ale-vector":
        return R.ale_vector_runner(_game(task), n, seed, make_actor)
    if method == "procgen-vector":
        return _procgen_vector_runner(task, n, seed, make_actor, spec["num_threads"])
    make_env = fam.references(task, n) if fam.references else fam.reference(task)
    if method == "sb3-subproc":
        return R.sb3_subproc_runner(make_env, n, seed, make_actor)
    return R.gym_vector_runner(make_env, n, seed, method == "gym-async", make_actor,
                               fam.vector_context)


def child_main(spec_json: str) -> int:
    """Measures one spec and prints one JSON line (the parent reads the last line)."""
    spec = json.loads(spec_json)
    try:
        run, close = build(spec)
    except R.NotAvailable as exc:
        print(json.dumps({"status": "n/a", "note": str(exc)}), flush=True)
        return 0
    try:
        steps, calls, seconds = R.measure(run, spec["seconds"], spec["warmup"], 0)
    finally:
        close()
    print(json.dumps({"status": "ok", "steps": steps, "calls": calls, "seconds": seconds}),
          flush=True)
    return 0


# -- the parent: subprocesses and their memory --------------------------------
def pss_bytes(pid: int) -> int:
    """The PSS of one process from /proc/<pid>/smaps_rollup (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return 0


def tree_pss(pid: int) -> int:
    """The summed PSS of process ``pid`` and all its descendants."""
    import psutil

    try:
        root = psutil.Process(pid)
        pids = [pid, *(c.pid for c in root.children(recursive=True))]
    except psutil.Error:
        return 0
    return sum(pss_bytes(p) for p in pids)


def kill_tree(pid: int) -> None:
    """Kills process ``pid`` and its descendants (a measurement that ran past its limit)."""
    import psutil

    try:
        root = psutil.Process(pid)
        procs = [*root.children(recursive=True), root]
    except psutil.Error:
        return
    for p in procs:
        try:
            p.kill()
        except psutil.Error:
            pass


def run_child(spec: dict[str, Any], interval: float, timeout: float) -> dict[str, Any]:
    """Runs one measurement in a fresh interpreter, sampling its tree's PSS meanwhile."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen([spec.get("python") or sys.executable,
                                 os.path.abspath(__file__), "--child",
                                 json.dumps(spec)], stdout=out, stderr=err, text=True,
                                env=peer_env() if spec.get("python") else None)
        peak = 0
        start = time.monotonic()
        timed_out = False
        while proc.poll() is None:
            peak = max(peak, tree_pss(proc.pid))
            if time.monotonic() - start > timeout:
                kill_tree(proc.pid)
                timed_out = True
                proc.wait()
                break
            time.sleep(interval)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    lines = [ln for ln in stdout.splitlines() if ln.startswith("{")]
    if timed_out:
        res: dict[str, Any] = {"status": "error", "note": f"ran past {timeout:.0f} s"}
    elif proc.returncode != 0 or not lines:
        tail = [ln for ln in stderr.strip().splitlines() if ln.strip()]
        res = {"status": "error",
               "note": (tail[-1] if tail else f"exit status {proc.returncode}")[:200]}
    else:
        res = json.loads(lines[-1])
    res["peak_pss"] = peak
    return res


# -- the run -----------------------------------------------------------------
@dataclass
class Row:
    """One row of a family's table: a method at one num_envs, over the rounds."""

    num_envs: int
    method: str
    label: str
    status: str = "ok"
    note: str = ""
    rates: list[float] = field(default_factory=list)
    peak_pss: list[int] = field(default_factory=list)
    steps_per_s: float | None = None
    peak_pss_mib: float | None = None
    ratios: dict[str, float | None] = field(default_factory=dict)


def skip_reason(method: str, n: int, full: bool) -> str | None:
    """Why ``method`` is not run at ``n`` envs on this machine (None: it is run)."""
    cores = os.cpu_count() or 1
    if method in PROCESS_PER_ENV and not full and n > max(16, 8 * cores):
        return f"{n} processes on {cores} cores; --full runs it"
    return None


def run_family(family: str, task: str, args: argparse.Namespace,
               log: Callable[[str], None]) -> dict[str, Any]:
    """Every method of ``family`` at every num_envs, ``args.reps`` interleaved rounds."""
    methods = family_methods(family, args.methods if args.peer_python else
                             [m for m in args.methods if m not in PEER_METHODS])
    num_envs = args.num_envs or list(FAMILIES[family].default_num_envs)
    cores = os.cpu_count() or 1
    rows = {(n, m): Row(n, m, label(m, args, family)) for n in num_envs for m in methods}
    raw: list[float] = []
    raw_pss: list[int] = []
    raw_status = ("ok", "")
    timeout = max(120.0, 4 * (args.seconds + args.warmup) + FAMILIES[family].startup_seconds)
    base = {"family": family, "task": task, "seed": args.seed, "seconds": args.seconds,
            "warmup": args.warmup, "policy": args.policy, "num_threads": args.num_threads}
    for rep in range(args.reps):
        todo: list[tuple[int, str]] = []
        if "raw" in methods:
            todo.append((1, "raw"))
        todo += [(n, m) for n in num_envs for m in methods if m != "raw"]
        shift = rep % len(todo) if todo else 0
        for n, m in todo[shift:] + todo[:shift]:
            if m != "raw" and rows[(n, m)].status != "ok":
                continue  # n/a or skipped in an earlier round
            reason = None if m == "raw" else skip_reason(m, n, args.full)
            if reason:
                rows[(n, m)].status, rows[(n, m)].note = "skipped", reason
                continue
            log(f"  round {rep + 1}/{args.reps}: {family} {task} {m}"
                + ("" if m == "raw" else f" n={n}") + " ...")
            python = args.peer_python if m in PEER_METHODS else None
            res = run_child({**base, "method": m, "n": n, "python": python},
                            args.pss_interval, timeout)
            if m == "raw":
                if res["status"] == "ok":
                    raw.append(res["steps"] / res["seconds"])
                    raw_pss.append(res["peak_pss"])
                else:
                    raw_status = (res["status"], res["note"])
                continue
            row = rows[(n, m)]
            if res["status"] == "ok":
                row.rates.append(res["steps"] / res["seconds"])
                row.peak_pss.append(res["peak_pss"])
            else:
                row.status, row.note = res["status"], res["note"]
                log(f"    {res['status']}: {res['note']}")
    out_rows: list[Row] = []
    fam = FAMILIES[family]
    for n in num_envs:
        mult = min(n, cores)
        if "raw" in methods:
            limit_row = rows[(n, "raw")]
            limit_row.label = f"limit: min(n, cores) = {mult} x raw"
            limit_row.rates = [r * mult for r in raw]
            limit_row.peak_pss = list(raw_pss)
            limit_row.status, limit_row.note = raw_status if not raw else ("ok", "")
        for m in methods:
            row = rows[(n, m)]
            if row.status == "ok" and len(row.rates) == args.reps:
                row.steps_per_s = statistics.median(row.rates)
                row.peak_pss_mib = max(row.peak_pss) / 2**20
            elif row.status == "ok":
                row.status, row.note = "error", "not every round measured"
        for m in methods:
            row = rows[(n, m)]
            # envpool against the peer in the same mode: envpool-sync / peer-sync, ...
            peer = {"envpool-sync": "peer-sync", "envpool-async": "peer-async"}.get(m, "")
            for ref, _ in (*family_references(family), ("peer", "")):
                other = rows.get((n, peer if ref == "peer" else ref))
                if row.steps_per_s is None or other is None or other.steps_per_s is None:
                    row.ratios[ref] = None
                else:
                    row.ratios[ref] = statistics.median(
                        a / b for a, b in zip(row.rates, other.rates, strict=True))
            out_rows.append(row)
    return {
        "family": family,
        "task": task,
        "reference": fam.reference_label,
        "raw_label": fam.raw_label,
        "raw_steps_per_s": statistics.median(raw) if raw else None,
        "raw_status": raw_status,
        "peer": args.peer_name,
        "extra_references": [list(ref) for ref in fam.extra_references
                             if ref[0] in methods],
        "num_envs": num_envs,
        "rows": [asdict(r) for r in out_rows],
    }


def peer_env() -> dict[str, str]:
    """The environment of the peer's processes: this one without PYTHONPATH, which would
    put this checkout's envpool before the peer's own (bench.py finds its helper modules
    beside itself)."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def peer_version(python: str) -> tuple[str, str]:
    """``("sail-sg EnvPool 1.2.5", its folder)``: the envpool that ``python`` imports."""
    # sail-sg's distribution is `envpool`, this package's `envpool-ng` (one of them installed)
    code = ("import importlib.metadata as m, os, envpool\n"
            "try:\n    d = m.metadata('envpool')\n"
            "except m.PackageNotFoundError:\n    d = m.metadata('envpool-ng')\n"
            "print(d['Version'], 'sail-sg/envpool' in (d.get('Home-page') or ''), "
            "os.path.dirname(os.path.abspath(envpool.__spec__.origin or '')))")
    try:  # run in benchmarks/: `-c` puts the working folder first on sys.path, and the
        # repository root's envpool/ would shadow the peer's, as the measurements' children
        # (started by path) see benchmarks/ there
        out = subprocess.run([python, "-c", code], capture_output=True, text=True, check=False,
                             env=peer_env(), cwd=os.path.dirname(os.path.abspath(__file__)))
    except OSError as exc:
        raise SystemExit(f"bench.py: --peer-python {python}: {exc}") from None
    if out.returncode != 0:
        tail = (out.stderr.strip().splitlines() or ["no output"])[-1]
        raise SystemExit(f"bench.py: --peer-python {python} cannot import envpool: {tail}")
    version, sail, folder = out.stdout.split(maxsplit=2)
    return f"{'sail-sg EnvPool' if sail == 'True' else 'envpool'} {version}", folder.strip()


def label(method: str, args: argparse.Namespace, family: str = "") -> str:
    """A method's row label (a peer's names its envpool, a jax method its package)."""
    if method in PEER_METHODS:
        return LABELS[method].replace("peer envpool", args.peer_name)
    if method == "procgen-vector":
        return f"{LABELS[method]}, {args.num_threads or PROCGEN_THREADS} threads"
    if method in JAX_METHODS:
        fam = FAMILIES[family]
        return LABELS[method].format(jax=fam.jax_label, scan=fam.scan_steps)
    return LABELS[method]


# -- output ------------------------------------------------------------------
def header_lines(info: dict[str, Any], args: argparse.Namespace) -> list[str]:
    """Versions, machine, settings: the lines above the tables (and in the PNG)."""
    versions = ", ".join(f"{d} {info['versions'][d] or 'not installed'}"
                         for d in info["versions"])
    actions = ("a small torch policy's forward pass per step (1 thread)" if args.policy
               else "random, sampled before timing")
    return [
        f"- {versions}, python {info['python']} (checkout {info['git']})",
        f"- os.cpu_count(): {info['cpu_count']}; CPU: {info['cpu_model'] or 'unknown'}; "
        f"load average at start {info['loadavg_start']}, at end {info.get('loadavg_end')}",
        f"- {args.reps} interleaved round(s) of {args.seconds:g} s after {args.warmup:g} s "
        f"warm-up per measurement, each in a fresh subprocess; actions: {actions}; envpool "
        f"num_threads: {args.num_threads or 'the default'}",
        *([f"- {args.peer_name}: the same measurements under {args.peer_python} (its own "
           f"`import envpool`: {args.peer_folder}), interleaved with the others"]
          if args.peer_python else []),
    ]


def _fmt_ratio(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}x"


def family_table(fam: dict[str, Any]) -> str:
    """The markdown section of one family."""
    own = (JAX_REFERENCES if FAMILIES[fam["family"]].jax_reference else
           (*REFERENCES, *(tuple(ref) for ref in fam.get("extra_references", ()))))
    refs = [*own, *((("peer", f"vs {fam['peer']}"),) if fam.get("peer") else ())]
    raw = fam["raw_steps_per_s"]
    status, note = fam["raw_status"]
    raw_text = (f"{raw:,.0f} steps/s" if raw is not None
                else "not measured (--methods without raw)" if status == "ok"
                else f"{status} ({note})")
    family = FAMILIES[fam["family"]]
    about = ([f"- reference: the package's own step, {family.jax_label}, jitted with the "
              "action choice; compiled before timing, block_until_ready before each clock "
              "reading", "- actions: " + (
                  "random legal ones for every row: the argmax of pre-sampled uniform noise "
                  "over the legal entries of each env's action mask" if family.legal_mask
                  else "random, pre-sampled from the action space, the same batches for "
                  "every row")]
             if family.jax_reference else
             [f"- reference env: {fam['reference']}",
              f"- raw single-thread rate ({fam['raw_label']}): {raw_text}"])
    lines = [
        f"## {fam['family']}: {fam['task']}",
        "",
        *about,
        "",
        "| num_envs | method | steps/s | " + " | ".join(lbl for _, lbl in refs)
        + " | peak PSS (MiB) |",
        "|---:|---|---:|" + "---:|" * len(refs) + "---:|",
    ]
    for r in fam["rows"]:
        if r["steps_per_s"] is not None:
            sps = f"{r['steps_per_s']:,.0f}"
        else:
            sps = f"{r['status']} ({r['note']})" if r["note"] else r["status"]
        ratios = " | ".join(_fmt_ratio(r["ratios"].get(ref)) for ref, _ in refs)
        pss = "-" if r["peak_pss_mib"] is None else f"{r['peak_pss_mib']:,.0f}"
        lines.append(f"| {r['num_envs']} | {r['label']} | {sps} | {ratios} | {pss} |")
    return "\n".join(lines)


def markdown(info: dict[str, Any], args: argparse.Namespace,
             families: list[dict[str, Any]]) -> str:
    """The whole report: title, header lines, one section per family."""
    title = "# envpool benchmark" + (" (policy forward pass per step)" if args.policy else "")
    parts = [title, "", *header_lines(info, args), ""]
    for fam in families:
        parts += [family_table(fam), ""]
    parts.append("PSS: the peak over the measurement's subprocess and all its children, "
                 f"sampled every {args.pss_interval:g} s; the limit row's PSS is the raw "
                 "loop's.")
    return "\n".join(parts) + "\n"


def write_png(path: str, info: dict[str, Any], args: argparse.Namespace,
              families: list[dict[str, Any]]) -> None:
    """A bar chart of steps/s per method per num_envs, one panel per family (log scale)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(families), 1, figsize=(11, 4.2 * len(families) + 0.6),
                             squeeze=False)
    for ax, fam in zip(axes[:, 0], families, strict=True):
        methods = list(dict.fromkeys(r["method"] for r in fam["rows"]))
        ns = fam["num_envs"]
        width = 0.8 / max(1, len(methods))
        for i, m in enumerate(methods):
            xs, ys = [], []
            for j, n in enumerate(ns):
                r = next(r for r in fam["rows"] if r["num_envs"] == n and r["method"] == m)
                x = j + (i - (len(methods) - 1) / 2) * width
                if r["steps_per_s"] is not None:
                    xs.append(x)
                    ys.append(r["steps_per_s"])
                else:  # say why the bar is missing
                    ax.text(x, 0.02, r["status"], transform=ax.get_xaxis_transform(),
                            rotation=90, ha="center", va="bottom", fontsize=7)
            label = ("limit (min(n, cores) x raw)" if m == "raw" else
                     next(r["label"] for r in fam["rows"] if r["method"] == m))
            ax.bar(xs, ys, width, label=label, hatch="//" if m == "raw" else None,
                   fill=m != "raw")
        ax.set_xticks(range(len(ns)), [f"num_envs={n}" for n in ns])
        ax.set_yscale("log")
        ax.set_ylabel("env steps/s")
        ax.set_title(f"{fam['family']}: {fam['task']}")
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
        ax.grid(axis="y", alpha=0.3)
    fig.suptitle("envpool benchmark: " + ("a torch policy's forward pass per step"
                                          if args.policy else "random actions"), fontsize=10)
    caption = "\n".join(line.removeprefix("- ") for line in header_lines(info, args))
    fig.text(0.01, 0.005, caption, fontsize=7, va="bottom", wrap=True)
    fig.tight_layout(rect=(0, 0.6 / fig.get_figheight(), 1, 1 - 0.3 / fig.get_figheight()))
    fig.savefig(path, dpi=110)
    plt.close(fig)


# -- command line --------------------------------------------------------------
def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--family", nargs="+", choices=list(FAMILIES), default=["classic"],
                   help="one or several families (default classic)")
    p.add_argument("--task", help="override the family's default task (one family only)")
    p.add_argument("--num-envs", type=int, nargs="+", metavar="N",
                   help="pool sizes (default: the family's, e.g. 8 64 for classic)")
    p.add_argument("--seconds", type=float, default=2.0, help="timed seconds per measurement")
    p.add_argument("--warmup", type=float, default=0.5, help="untimed warm-up seconds")
    p.add_argument("--reps", type=int, default=1, help="interleaved rounds (median taken)")
    p.add_argument("--methods", nargs="+", choices=ALL_METHODS, default=list(ALL_METHODS))
    p.add_argument("--policy", action="store_true",
                   help="actions from a small torch policy's forward pass per step")
    p.add_argument("--num-threads", type=int, default=0,
                   help="envpool worker threads (0: envpool's default)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--full", action="store_true",
                   help="also run one-process-per-env methods above max(16, 8 x cores) envs")
    p.add_argument("--pss-interval", type=float, default=0.05,
                   help="seconds between PSS samples (default 0.05)")
    p.add_argument("--peer-python", metavar="PYTHON",
                   help="also measure the envpool that PYTHON imports (a venv with sail-sg "
                        "EnvPool: pip install envpool==1.2.5 gymnasium psutil), same code")
    p.add_argument("--md", metavar="PATH", help="also write the markdown report to PATH")
    p.add_argument("--json", metavar="PATH", help="also write every number to PATH")
    p.add_argument("--png", metavar="PATH", help="also draw a bar chart to PATH")
    args = p.parse_args(argv)
    if args.policy and importlib.util.find_spec("torch") is None:
        p.error("--policy needs torch (the sb3 extra)")
    if args.task and len(args.family) != 1:
        p.error("--task needs exactly one --family")
    if args.num_envs and any(n < 1 for n in args.num_envs):
        p.error("--num-envs must be >= 1")
    if args.seconds <= 0 or args.warmup < 0 or args.reps < 1 or args.pss_interval <= 0:
        p.error("--seconds and --pss-interval must be > 0, --warmup >= 0, --reps >= 1")
    args.peer_name, args.peer_folder = (peer_version(args.peer_python) if args.peer_python
                                        else ("", ""))
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the benchmark and writes the report where asked."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--child"]:
        return child_main(argv[1])
    args = parse_args(argv)
    if args.task:  # fail fast on an id envpool lacks, before any subprocess
        import envpool

        if args.task not in envpool.list_all_envs():
            raise SystemExit(f"bench.py: --task {args.task!r} is not an envpool id")
    info = R.machine_info()
    dists = [*HEADER_DISTS]
    for f in args.family:
        dists += [d for d in FAMILIES[f].versions if d not in dists]
    info["versions"] = {d: R.dist_version(d) for d in dists}
    info["versions"]["envpool"] = info["envpool"]  # also when run from a checkout

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench-jax-cache-") as cache:
        # the jax methods' children share compiled programs (jax's persistent cache), so
        # that only a run's first round compiles (never timed either way)
        own_cache = "JAX_COMPILATION_CACHE_DIR" not in os.environ
        if own_cache:
            os.environ["JAX_COMPILATION_CACHE_DIR"] = cache
        try:
            families = [run_family(f, args.task or FAMILIES[f].default_task, args, log)
                        for f in args.family]
        finally:
            if own_cache:
                del os.environ["JAX_COMPILATION_CACHE_DIR"]
    info["loadavg_end"] = R.load_average()
    info["total_seconds"] = round(time.perf_counter() - t0, 1)
    report = markdown(info, args, families)
    print(report, end="")
    if args.md:
        with open(args.md, "w", encoding="utf-8") as f:
            f.write(report)
    if args.json:
        payload = {"machine": info, "settings": {k: v for k, v in vars(args).items()},
                   "families": families}
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(payload, f, indent=2)
            f.write("\n")
    if args.png:
        write_png(args.png, info, args, families)
    log(f"done in {info['total_seconds']} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
