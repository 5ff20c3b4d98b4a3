"""What the benchmark scripts share: timing, the machine header, and one runner per method.

A *runner* is ``run(k) -> env_steps``: it steps its envs ``k`` times and says how many
env-steps that was. Every factory here returns ``(run, close)``; building the envs, starting
threads or processes and the first reset happen in the factory, so they are never timed.

Actions come from an *actor*, ``actor(obs) -> actions`` for one batch: :class:`RandomActor`
cycles through actions sampled before timing (it ignores ``obs``); ``bench.py --policy``
uses a small torch policy instead (``_policy.py``). A factory whose library is missing
raises :class:`NotAvailable` with the reason, which the tables print as ``n/a (reason)``.
"""

from __future__ import annotations

import itertools
import multiprocessing
import multiprocessing.util
import os
import platform
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector.utils import batch_space

import envpool

NUM_ACTION_BATCHES = 1024  # pre-sampled action batches, cycled through
CHUNK_SECONDS = 0.005  # how often (roughly) the clock is read while timing

# A runner steps its envs ``k`` times and returns how many env-steps that was.
Runner = Callable[[int], int]
Made = tuple[Runner, Callable[[], None]]
# actor(obs) -> the actions of one batch
Actor = Callable[[Any], Any]
# make_actor(example batch of observations, single action space, batch size) -> actor
ActorFactory = Callable[[Any, gymnasium.Space, int], Actor]
# actor_input(obs, info) -> what the actor is given (e.g. the batch's legal-action mask)
ActorInput = Callable[[Any, Any], Any]
# one maker for every env of a vector env, or one per env
EnvMakers = Callable[[], gymnasium.Env] | list[Callable[[], gymnasium.Env]]


class NotAvailable(RuntimeError):
    """A method that cannot run here (a package is missing, num_envs too small, ...)."""


# -- environment / machine description ---------------------------------------
def cpu_model() -> str | None:
    """The CPU model name from /proc/cpuinfo, or None where it is not readable."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or None


def git_revision() -> str | None:
    """The checkout's short commit hash (+ "-dirty" with local changes), or None."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        out = subprocess.run(
            ["git", "describe", "--always", "--dirty"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def dist_version(dist: str) -> str | None:
    """The installed version of distribution ``dist``, or None where it is not installed."""
    try:
        return version(dist)
    except PackageNotFoundError:
        return None


def load_average() -> list[float] | None:
    """The 1/5/15-minute load average, rounded, or None where the OS has none."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def machine_info() -> dict[str, Any]:
    """Versions, core count, CPU model and load average."""
    return {
        "envpool": envpool.__version__,
        "git": git_revision(),
        "gymnasium": gymnasium.__version__,
        "numpy": np.__version__,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "cpu_model": cpu_model(),
        "loadavg_start": load_average(),
    }


# -- timing ------------------------------------------------------------------
def presample(space: gymnasium.Space, count: int, seed: int) -> list[Any]:
    """``count`` samples of ``space`` (batched or not), drawn before any timing."""
    space.seed(seed)
    return [space.sample() for _ in range(count)]


def measure(run: Runner, seconds: float, warmup: float, max_steps: int) -> tuple[int, int, float]:
    """Warms ``run`` up for ``warmup`` s, then times it for ``seconds`` s.

    Stops early once ``max_steps`` env-steps are done (0: no cap). The clock is
    read every ``chunk`` calls, ``chunk`` chosen from the warm-up rate so that
    reading it costs nothing measurable. Returns (env_steps, calls, seconds).
    """
    calls = 0
    t0 = time.perf_counter()
    while True:
        run(1)
        calls += 1
        elapsed = time.perf_counter() - t0
        if elapsed >= warmup:
            break
    chunk = max(1, int(calls / max(elapsed, 1e-9) * CHUNK_SECONDS))
    steps = calls = 0
    t0 = time.perf_counter()
    while True:
        steps += run(chunk)
        calls += chunk
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds or (max_steps and steps >= max_steps):
            return steps, calls, elapsed


def rate(made: Made, seconds: float, warmup: float) -> float:
    """Env-steps per second of one ``(run, close)`` over ``seconds`` after ``warmup``; closes it."""
    run, close = made
    try:
        steps, _, elapsed = measure(run, seconds, warmup, 0)
    finally:
        close()
    return steps / elapsed


# -- actors ------------------------------------------------------------------
class RandomActor:
    """Cycles through ``NUM_ACTION_BATCHES`` batches sampled before timing; ignores ``obs``."""

    def __init__(self, batches: list[Any]) -> None:
        self._batches: Iterator[Any] = itertools.cycle(batches)

    def __call__(self, obs: Any) -> Any:
        return next(self._batches)


def random_actor(seed: int, binary: bool = False) -> ActorFactory:
    """The factory of :class:`RandomActor` over the batched action space.

    ``binary``: 0/1 button vectors (each button pressed with probability 0.4, as ViZDoom
    agents press them) in the space's dtype, whatever the space's own sampler draws.
    """

    def make(obs: Any, space: gymnasium.Space, batch: int) -> Actor:
        if binary:
            rng = np.random.default_rng(seed)
            shape = (batch, *space.shape)
            return RandomActor([(rng.random(shape) < 0.4).astype(space.dtype)
                                for _ in range(NUM_ACTION_BATCHES)])
        return RandomActor(presample(batch_space(space, batch), NUM_ACTION_BATCHES, seed))

    return make


# -- vector methods ----------------------------------------------------------
def batch_loop(step: Callable[[Any], tuple], obs: Any, actor: Actor, n: int) -> Runner:
    """``obs = step(actor(obs))[0]`` ``k`` times, ``n`` env-steps each."""
    state = {"obs": obs}

    def run(k: int) -> int:
        o = state["obs"]
        for _ in range(k):
            o = step(actor(o))[0]
        state["obs"] = o
        return k * n

    return run


def info_batch_loop(step: Callable[[Any], tuple], first: Any, actor: Actor, n: int,
                    actor_input: ActorInput) -> Runner:
    """``x = actor_input(*step(actor(x))[::4])`` ``k`` times (the actor sees what
    ``actor_input`` takes from the observations and the info), ``n`` env-steps each."""
    state = {"x": first}

    def run(k: int) -> int:
        x = state["x"]
        for _ in range(k):
            out = step(actor(x))
            x = actor_input(out[0], out[4])
        state["x"] = x
        return k * n

    return run


def envpool_runner(task: str, n: int, batch: int, seed: int, make_actor: ActorFactory,
                   num_threads: int = 0, actor_input: ActorInput | None = None,
                   **kwargs: Any) -> Made:
    """An envpool pool of ``n`` envs: ``step`` when ``batch == n`` (sync), else
    ``async_reset()`` and a ``recv()`` / ``send(actions, info["env_id"])`` loop.
    ``actor_input(obs, info)``: what the actor is given instead of the observations."""
    if batch < 1 or batch > n:
        raise NotAvailable(f"batch {batch} of num_envs {n}")
    env = envpool.make_gymnasium(task, num_envs=n, batch_size=batch, num_threads=num_threads,
                                 seed=seed, **kwargs)
    if batch == n:
        obs, info = env.reset()
        if actor_input is not None:
            first = actor_input(obs, info)
            return info_batch_loop(env.step, first, make_actor(
                first, env.single_action_space, n), n, actor_input), env.close
        return batch_loop(env.step, obs, make_actor(obs, env.single_action_space, n), n), \
            env.close
    env.async_reset()
    send, recv = env.send, env.recv
    first = recv()
    x = first[0] if actor_input is None else actor_input(first[0], first[4])
    actor = make_actor(x, env.single_action_space, batch)
    send(actor(x), first[4]["env_id"])

    def run(k: int) -> int:
        steps = 0
        for _ in range(k):
            obs, _, _, _, info = recv()
            env_id = info["env_id"]
            send(actor(obs), env_id)
            steps += len(env_id)
        return steps

    def run_seeing(k: int) -> int:  # the actor is given actor_input(obs, info)
        steps = 0
        for _ in range(k):
            obs, _, _, _, info = recv()
            env_id = info["env_id"]
            send(actor(actor_input(obs, info)), env_id)
            steps += len(env_id)
        return steps

    return (run if actor_input is None else run_seeing), env.close


def _makers(make_env: EnvMakers, n: int) -> list[Callable[[], gymnasium.Env]]:
    return list(make_env) if isinstance(make_env, list) else [make_env] * n


def gym_vector_runner(make_env: EnvMakers, n: int, seed: int,
                      asynchronous: bool, make_actor: ActorFactory,
                      context: str | None = None) -> Made:
    """``step(actions)`` on a gymnasium Sync/AsyncVectorEnv of ``n`` ``make_env()`` envs (or
    of each maker of a list of ``n``); ``context``: AsyncVectorEnv's multiprocessing start
    method (None: the platform's)."""
    if asynchronous:
        env: gymnasium.vector.VectorEnv = gymnasium.vector.AsyncVectorEnv(
            _makers(make_env, n), context=context)
    else:
        env = gymnasium.vector.SyncVectorEnv(_makers(make_env, n))
    obs, _ = env.reset(seed=seed)
    return batch_loop(env.step, obs, make_actor(obs, env.single_action_space, n), n), env.close


def sb3_subproc_runner(make_env: EnvMakers, n: int, seed: int,
                       make_actor: ActorFactory) -> Made:
    """``step(actions)`` on Stable-Baselines3's SubprocVecEnv (one process per env; one maker
    for all, or a list of ``n``)."""
    try:
        from stable_baselines3.common.vec_env import SubprocVecEnv
    except ImportError as exc:
        raise NotAvailable(f"stable-baselines3 not installed ({exc})") from None
    env = SubprocVecEnv(_makers(make_env, n))
    env.seed(seed)
    obs = env.reset()
    return batch_loop(env.step, obs, make_actor(obs, env.action_space, n), n), env.close


def single_env_runner(env: gymnasium.Env, seed: int) -> Made:
    """``env.step(action)`` in a plain loop with pre-sampled actions, ``reset()`` when an
    episode ends (the reset is not counted as a step)."""
    env.reset(seed=seed)
    actions: Iterator[Any] = itertools.cycle(presample(env.action_space, NUM_ACTION_BATCHES, seed))
    step, reset = env.step, env.reset

    def run(k: int) -> int:
        for _ in range(k):
            _, _, terminated, truncated, _ = step(next(actions))
            if terminated or truncated:
                reset()
        return k

    return run, env.close


# -- Atari -------------------------------------------------------------------
def preprocessed_ale_env(game: str) -> gymnasium.Env:
    """ale-py's env with gymnasium's Atari preprocessing: the same output as envpool's
    ``<Game>-v5`` (frame skip 4 with max-pool, 84x84 grayscale, up to 30 no-ops, a stack of 4,
    sticky actions off)."""
    import ale_py
    from gymnasium.wrappers import AtariPreprocessing, FrameStackObservation

    gymnasium.register_envs(ale_py)
    env = gymnasium.make(f"ALE/{game}-v5", frameskip=1, repeat_action_probability=0.0)
    return FrameStackObservation(AtariPreprocessing(env, noop_max=30, frame_skip=4), 4)


def ale_raw_runner(game: str, grabs: bool = True) -> Made:
    """One ``ale_py.ALEInterface`` in a Python loop: 4 ``act`` calls per env step and,
    with ``grabs``, the grayscale screens of the last two frames (the least work the
    max-pool preprocessing needs). Python's share is negligible next to 4 frames."""
    import ale_py

    from envpool.tasks.atari import GAMES, rom_path

    ale = ale_py.ALEInterface()
    ale.setLoggerMode(ale_py.LoggerMode.Error)
    ale.setInt("random_seed", 0)
    ale.setFloat("repeat_action_probability", 0.0)
    ale.loadROM(rom_path(GAMES[game]))
    actions = ale.getMinimalActionSet()
    seq = [actions[i] for i in np.random.default_rng(0).integers(len(actions), size=4096)]
    bufs = [np.empty((210, 160), np.uint8), np.empty((210, 160), np.uint8)]
    act, grab, game_over, reset = ale.act, ale.getScreenGrayscale, ale.game_over, ale.reset_game
    state = {"i": 0}

    def run(k: int) -> int:
        i = state["i"]
        for _ in range(k):
            a = seq[i % len(seq)]
            i += 1
            act(a)
            act(a)
            act(a)
            if grabs:
                grab(bufs[1])
            act(a)
            if grabs:
                grab(bufs[0])
            if game_over():
                reset()
        state["i"] = i
        return k

    return run, lambda: None


def ale_vector_runner(game: str, n: int, seed: int, make_actor: ActorFactory) -> Made:
    """ale-py's ``AtariVectorEnv`` (its own C++ thread pool, sync, batch = n)."""
    from ale_py.vector_env import AtariVectorEnv

    from envpool.tasks.atari import GAMES

    env = AtariVectorEnv(GAMES[game], num_envs=n, reward_clipping=False)
    obs, _ = env.reset(seed=seed)
    return batch_loop(env.step, obs, make_actor(obs, env.single_action_space, n), n), env.close


# -- MuJoCo ------------------------------------------------------------------
def raw_mujoco_runner(task: str) -> Made:
    """One env's bare ``mj_step`` loop (``frame_skip`` substeps per env step, random
    controls set from Python per step, no observation or reward)."""
    env = gymnasium.make(task).unwrapped
    env.reset(seed=0)
    return mj_step_loop(env.model, env.data, env.frame_skip), env.close


def mj_step_loop(model: Any, data: Any, nstep: int, reset_every: int = 256) -> Runner:
    """A bare loop of ``mujoco.mj_step(model, data, nstep)`` per env step, random controls
    set from Python per step, and every ``reset_every`` steps (at most 256) the state the
    env's own reset left (kept sane over long runs; the model's ``qpos0`` can overlap
    bodies, whose contacts a step then pays for: Fetch's arm in its table)."""
    import mujoco

    ctrl = np.random.default_rng(0).uniform(-1, 1, size=(256, model.nu))
    start = mujoco.MjData(model)
    mujoco.mj_copyData(start, model, data)
    state = {"i": 0}

    def run(k: int) -> int:
        for _ in range(k):
            i = state["i"] = (state["i"] + 1) % 256
            data.ctrl[:] = ctrl[i]
            mujoco.mj_step(model, data, nstep=nstep)
            if i % reset_every == 0:
                mujoco.mj_copyData(data, model, start)
        return k

    return run


# -- DeepMind Control Suite --------------------------------------------------
def shimmy_env_id(task_id: str) -> str:
    """The gymnasium id Shimmy registers for an envpool dm_control id (``CheetahRun-v1`` ->
    ``dm_control/cheetah-run-v0``); NotAvailable without Shimmy."""
    try:
        import shimmy
    except ImportError as exc:
        raise NotAvailable(f"shimmy[dm-control] not installed ({exc})") from None
    from envpool.tasks.dm_control import TASKS

    gymnasium.register_envs(shimmy)
    domain, task_name = TASKS[task_id]
    return f"dm_control/{domain}-{task_name}-v0"


def shimmy_env(gym_id: str) -> gymnasium.Env:
    """Shimmy's gymnasium env ``gym_id``, registering Shimmy's ids first (a worker process
    started by spawn or forkserver has not imported Shimmy)."""
    import shimmy

    gymnasium.register_envs(shimmy)
    return gymnasium.make(gym_id)


def raw_dm_control_runner(task_id: str) -> Made:
    """One env's bare physics on one thread: pre-sampled random controls and
    ``mujoco.mj_step(nstep=n_sub_steps)`` on dm_control's compiled model (no observation, no
    reward), back to the episode's first state every 1000 steps (a reset would add the task's
    own initialisation, e.g. Cheetah's 200 settling steps)."""
    try:
        from dm_control import suite
    except ImportError as exc:
        raise NotAvailable(f"dm-control not installed ({exc})") from None
    import mujoco

    from envpool.tasks.dm_control import TASKS

    domain, task_name = TASKS[task_id]
    env = suite.load(domain, task_name, task_kwargs={"random": 0})
    env.reset()
    model, data = env.physics.model.ptr, env.physics.data.ptr
    sig = mujoco.mjtState.mjSTATE_INTEGRATION
    start_state = np.empty(mujoco.mj_stateSize(model, sig))
    mujoco.mj_getState(model, data, start_state, sig)
    spec = env.action_spec()
    controls = np.random.default_rng(0).uniform(spec.minimum, spec.maximum, (1000, *spec.shape))
    n_sub = env._n_sub_steps
    state = {"i": 0}

    def run(k: int) -> int:
        for _ in range(k):
            i = state["i"]
            if i == 0:
                mujoco.mj_setState(model, data, start_state, sig)
            data.ctrl[:] = controls[i]
            mujoco.mj_step(model, data, nstep=n_sub)
            state["i"] = (i + 1) % len(controls)
        return k

    return run, env.close


# -- dm_control from pixels (DrQ / CURL observations) ------------------------
# The pixel setting benchmarked: 84 x 84 frames, the last 3 stacked channel-first, camera 0
# (DrQ's view for every domain but quadruped).
PIXELS = {"render_width": 84, "render_height": 84, "render_camera_id": 0, "frame_stack": 3}


def dm_pixels_env(task_id: str) -> gymnasium.Env:
    """The usual pixel reference of a Control Suite task: ``dm_control.suite.load`` wrapped by
    dm_control's ``pixels.Wrapper(pixels_only=True)`` (``PIXELS``' size and camera), Shimmy's
    ``DmControlCompatibilityV0`` for gymnasium, the frame channel-first and gymnasium's
    ``FrameStackObservation`` (the reset frame repeated), reshaped to (3k, H, W): the
    observation envpool's ``from_pixels=True`` gives. dm_control draws with EGL unless
    ``MUJOCO_GL`` says otherwise (envpool's default; set before dm_control is imported)."""
    os.environ.setdefault("MUJOCO_GL", "egl")
    from dm_control import suite
    from dm_control.suite.wrappers import pixels
    from shimmy.dm_control_compatibility import DmControlCompatibilityV0

    from envpool.tasks.dm_control import TASKS

    domain, task_name = TASKS[task_id]
    h, w, k = PIXELS["render_height"], PIXELS["render_width"], PIXELS["frame_stack"]
    env = pixels.Wrapper(suite.load(domain, task_name), pixels_only=True, render_kwargs={
        "height": h, "width": w, "camera_id": PIXELS["render_camera_id"]})
    gym_env = DmControlCompatibilityV0(env)
    chw = gymnasium.spaces.Box(0, 255, (3, h, w), np.uint8)
    gym_env = gymnasium.wrappers.TransformObservation(
        gym_env, lambda obs: np.transpose(obs["pixels"], (2, 0, 1)), chw)
    gym_env = gymnasium.wrappers.FrameStackObservation(gym_env, k)
    stacked = gymnasium.spaces.Box(0, 255, (3 * k, h, w), np.uint8)
    return gymnasium.wrappers.TransformObservation(
        gym_env, lambda obs: obs.reshape(3 * k, h, w), stacked)


def raw_dm_pixels_runner(task_id: str) -> Made:
    """One pixel env (``dm_pixels_env``) stepped in a plain loop with pre-sampled actions,
    reset when an episode ends: the physics and one frame drawn per step, on one thread."""
    try:
        env = dm_pixels_env(task_id)
    except ImportError as exc:
        raise NotAvailable(f"dm-control / shimmy not installed ({exc})") from None
    return single_env_runner(env, 0)


# -- ViZDoom -----------------------------------------------------------------
VIZDOOM_FRAME_SKIP = 4
VIZDOOM_GYM_IDS = {
    "Basic-v1": "VizdoomBasic-MultiBinary-v1",
    "DefendTheCenter-v1": "VizdoomDefendCenter-MultiBinary-v1",
    "HealthGathering-v1": "VizdoomHealthGathering-MultiBinary-v1",
}


def vizdoom_gym_env(gym_id: str) -> gymnasium.Env:
    """One of vizdoom's own gymnasium envs at ``VIZDOOM_FRAME_SKIP``."""
    from vizdoom import gymnasium_wrapper  # noqa: F401  (registers the Vizdoom* ids)

    if multiprocessing.parent_process() is not None:
        # A worker process: engines that start together in one folder race for
        # ./_vizdoom/ and ./_vizdoom.ini (one exits, or the reset hangs); own folder each.
        folder = tempfile.mkdtemp(prefix="vizdoom_worker_")
        multiprocessing.util.Finalize(None, shutil.rmtree, (folder, True), exitpriority=0)
        os.chdir(folder)
    return gymnasium.make(gym_id, frame_skip=VIZDOOM_FRAME_SKIP)


def vizdoom_gym_id(task_id: str) -> str:
    """vizdoom's own gymnasium id for an envpool ViZDoom id; NotAvailable where there is none
    or vizdoom is not installed."""
    try:
        import vizdoom  # noqa: F401
    except ImportError as exc:
        raise NotAvailable(f"vizdoom not installed ({exc})") from None
    if task_id not in VIZDOOM_GYM_IDS:
        raise NotAvailable(f"no vizdoom gymnasium id for {task_id} "
                           f"(known: {', '.join(sorted(VIZDOOM_GYM_IDS))})")
    return VIZDOOM_GYM_IDS[task_id]


def raw_vizdoom_runner(task_id: str) -> Made:
    """One engine through vizdoom's ``DoomGame``: ``make_action(a, VIZDOOM_FRAME_SKIP)`` with
    pre-sampled button vectors and the screen read (``get_state().screen_buffer``: the
    least observation work), ``new_episode()`` when an episode ends."""
    try:
        import vizdoom as vzd
    except ImportError as exc:
        raise NotAvailable(f"vizdoom not installed ({exc})") from None
    from envpool.tasks import vizdoom as vizdoom_tasks

    scenario = vizdoom_tasks.SCENARIOS[task_id]
    g = vzd.DoomGame()
    g.load_config(os.path.join(vizdoom_tasks.SCENARIOS_DIR, f"{scenario}.cfg"))
    g.set_window_visible(False)
    g.set_seed(0)
    g.init()
    rng = np.random.default_rng(0)
    actions = (rng.random((1000, g.get_available_buttons_size())) < 0.4).astype(float).tolist()
    state = {"i": 0}

    def run(k: int) -> int:
        for _ in range(k):
            i = state["i"]
            g.make_action(actions[i], VIZDOOM_FRAME_SKIP)
            s = g.get_state()
            if s is not None:
                _ = s.screen_buffer
            if g.is_episode_finished():
                g.new_episode()
            state["i"] = (i + 1) % len(actions)
        return k

    return run, g.close
