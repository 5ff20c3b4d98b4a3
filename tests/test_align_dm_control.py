"""Alignment of the DeepMind Control Suite envs with ``dm_control.suite.load``.

Lockstep (``test_lockstep``): after each of our resets, dm_control's env is reset too and its
full physics state is copied into ours: ``mj_getState(mjSTATE_INTEGRATION)`` (time, qpos,
qvel, act, warm start, ctrl, ...) plus the task's own random quantities that live outside
mjData (a target moved in the model, ...; ``task_state`` below, in the order of the C++
env's ``GetTaskState``). ``set_state`` then runs ``Physics.after_reset`` as dm_control's
reset does. Both take the same float64 random actions; both call the same MuJoCo library
in the same order, so every observation key must match bitwise (but for the few keys
``max_ulp`` names, each with its reason), rewards as float32 of
dm_control's float64 (our reward dtype), and step types and discounts exactly. Our pool
truncates at ``max_episode_steps``; dm_control's steps are counted here (its time limit is
1000 steps, discount 1 at the limit, as ours).
For the domains in ``NEAR_GOAL``, every second episode starts from dm_control's reset moved
near the goal (then ``Physics.after_reset``), since random actions from the task's own
initial states almost never earn a nonzero float32 reward there (sparse or steep rewards),
which would leave the reward's formula unchecked.

Initial states (``test_reset_distribution``): N of our resets (N envs, seeds 0..N-1, built
in pools of at most POOL_CHUNK envs) against N of dm_control's (its own RandomState),
every coordinate of the state (qpos, qvel and the task's numbers) compared with a
two-sample Kolmogorov-Smirnov test at a family-wise level ALPHA split over the
coordinates (Bonferroni); seeds are fixed, so the outcome is deterministic. For the
domains in ``MODEL_DRAWN_AT_LOAD`` (lqr: dm_control draws the joints' stiffness once per
env, when it builds the model), dm_control's N draws of those come from N loads with seeds
12345 + i (the model XML its loader writes for each), as each of our N envs draws its own
model parameters.

Tolerances (``max_ulp``): what dm_control computes with numpy can depend on the CPU. A few
keys go through numpy ufuncs (``UFUNC_KEYS``) that numpy computes with its own SIMD kernels
on some CPUs, not with the C library our C++ calls: the test asks the running numpy
(``numerics.ufunc_matches_libm``) and compares such a key bitwise where numpy's ufunc is the
C library's, else within the ulps listed (the largest difference seen over millions of
inputs). The keys and rewards made of short dot products (``BLAS_KEYS``) follow the running
numpy's OpenBLAS order in our envs too, and are compared bitwise wherever that order is one
of the two our envs know (every CPU numpy 2 runs on). Every other key is bitwise.

Unbounded actuators (action bounds +-mjMAXVAL: lqr's motors) take lockstep actions in
[-1, 1]: uniform over +-1e10 makes dm_control's physics diverge (PhysicsError).
dm_control's step limit is max_episode_steps (1000) except where ``STEP_LIMIT`` says
otherwise (lqr: none; ours keeps 1000).

Task numbers too many for one KS test each (Escape's 201 x 201 height field) are reduced
by ``TASK_STATE_SUMMARY`` to summary statistics before the initial-state test; the
lockstep test still copies them whole.

The ids come from envpool/tasks/dm_control.py: every registered DMC task is tested.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from numerics import ufunc_matches_libm  # tests/numerics.py
from stats import ks_2samp  # tests/stats.py

import envpool
from envpool.tasks._numpy_blas import OTHER, numpy_blas_orders
from envpool.tasks.dm_control import MAX_EPISODE_STEPS, TASKS

suite = pytest.importorskip("dm_control.suite", reason="dm-control is a test dependency")
mujoco = pytest.importorskip("mujoco")

STEPS = 300
EPISODE = 120  # our max_episode_steps in the lockstep test: 2 truncations within STEPS
N = 300
# QuadrupedEscape's reference reset takes 100 ms (dm_control's _find_non_contacting_height
# calls mj_forward about 80 times on the rough terrain's heightfield): 300 of them took 30 s,
# the longest test of the suite. With 150 samples a side the KS test below (at 1e-3 / 50
# coordinates) finds a shift of 0.8 standard deviations in a normal coordinate 92% of the
# time (simulated; 300 a side: 0.6 of one, 98%).
N_FOR = {"QuadrupedEscape-v1": 150}
ALPHA = 1e-3
IDS = sorted(TASKS)
# Envs per pool in test_reset_distribution: each env owns a model copy and an mjData (the
# dog's take about 55 MB per env, mostly its meshes' collision data), too much for N at once.
POOL_CHUNK = 25

# Per-domain numbers outside mjData, in the order of the C++ env's GetTaskState().
TASK_STATE: dict[str, Callable[[Any], list[float]]] = {}
# fish swim: the target (geom_pos['target']); upright moves nothing.
TASK_STATE["fish"] = lambda env: (
    env.physics.named.model.geom_pos["target"] if type(env.task).__name__ == "Swim" else [])
# swimmer: the target's x, y (the target light follows them).
TASK_STATE["swimmer"] = lambda env: env.physics.named.model.geom_pos["target"][:2]
# point_mass (hard): the tendons' joint coefficients, the random actuation directions.
TASK_STATE["point_mass"] = lambda env: env.physics.model.wrap_prm[:4]
# reacher: the target's (x, y), placed at random in the model.
TASK_STATE["reacher"] = lambda env: env.physics.named.model.geom_pos["target", :2]


def _acrobot_near_goal(physics: Any, rng: np.random.Generator) -> None:
    physics.named.data.qpos[["shoulder", "elbow"]] = rng.normal(0, .05, 2)  # tip at target


def _pendulum_near_goal(physics: Any, rng: np.random.Generator) -> None:
    physics.named.data.qpos["hinge"] = rng.normal(0, .05)  # upright


def _point_mass_near_goal(physics: Any, rng: np.random.Generator) -> None:
    physics.data.qpos[:] = rng.uniform(-.02, .02, 2)  # the target is at the origin


def _reacher_near_goal(physics: Any, rng: np.random.Generator) -> None:
    finger = physics.named.data.geom_xpos["finger", :2]
    physics.named.model.geom_pos["target", :2] = finger + rng.uniform(-.01, .01, 2)


def _ball_in_cup_near_goal(physics: Any, rng: np.random.Generator) -> None:
    physics.named.data.qpos["ball_x"] = rng.uniform(-.01, .01)  # in the cup
    physics.named.data.qpos["ball_z"] = .35 + rng.uniform(-.01, .01)


# domain -> function(dm_control physics, rng) that moves a fresh episode near the goal.
NEAR_GOAL: dict[str, Callable[[Any, np.random.Generator], None]] = {
    "acrobot": _acrobot_near_goal,
    "pendulum": _pendulum_near_goal,
    "point_mass": _point_mass_near_goal,
    "reacher": _reacher_near_goal,
    "ball_in_cup": _ball_in_cup_near_goal,
}
# finger (Turn): the target site's (x, z), placed in the model at each reset.
TASK_STATE["finger"] = lambda env: env.physics.named.model.site_pos["target", ["x", "z"]]
# stacker: the target's x and z (Stack.initialize_episode moves its body in the model).
TASK_STATE["stacker"] = lambda env: env.physics.named.model.body_pos["target", ["x", "z"]]
# lqr: each joint's stiffness, then each joint's damping (drawn when the model is built).
TASK_STATE["lqr"] = lambda env: [*env.physics.model.jnt_stiffness, *env.physics.model.dof_damping]

# domain -> dm_control's step limit where it is not MAX_EPISODE_STEPS: lqr's time limit is
# float('inf'); EnvPool keeps max_episode_steps 1000 for it.
STEP_LIMIT: dict[str, float] = {"lqr": float("inf")}

# Domains whose dm_control loader draws model parameters from the task's RandomState.
MODEL_DRAWN_AT_LOAD = {"lqr"}

# Observation keys that dm_control computes with a numpy ufunc, where our C++ calls the C
# library's function: (domain, key) -> (ufunc, the range of its arguments, the ulps allowed
# where the running numpy's ufunc is not the C library's). Where it is (numerics.
# ufunc_matches_libm), the key is compared bitwise.
# - hopper/finger/manipulator/stacker "touch": np.log1p(touch sensors). numpy 2.x on AVX-512
#   machines computes float64 log1p with its SIMD (SVML) kernel, which differs from libm's by
#   1 ulp for ~2% of arguments (3e6 random arguments in [1e-12, 1e4], 2.5M in [0, 1e5]: never
#   more than 1 ulp); the lockstep runs hit it within ~100 steps (StackerStack2's at step 48).
#   No contact (0) is exact in both. On AVX2 machines numpy's log1p is libm's.
# - quadruped "force_torque": np.arcsinh, SVML on AVX-512 (2 ulp at most over 3M random
#   inputs; 1 ulp on 15% of the numbers in the lockstep run); libm's on AVX2.
# - quadruped "rangefinder": np.tanh, numpy's own SIMD tanh on AVX2 and AVX-512 machines (3 ulp
#   at most over 3M random inputs; 2 ulp on 14% of the lockstep run's numbers).
# Reproducing numpy's SIMD kernels in C++ is out of scope.
UFUNC_KEYS: dict[tuple[str, str], tuple[str, float, float, int]] = {
    ("hopper", "touch"): ("log1p", 1e-12, 1e5, 1),
    ("finger", "touch"): ("log1p", 1e-12, 1e5, 1),
    ("manipulator", "touch"): ("log1p", 1e-12, 1e5, 1),
    ("stacker", "touch"): ("log1p", 1e-12, 1e5, 1),
    ("quadruped", "force_torque"): ("arcsinh", 1e-12, 1e4, 2),
    ("quadruped", "rangefinder"): ("tanh", 1e-6, 30.0, 3),
}

# Observation keys that dm_control computes with np.dot of short vectors (OpenBLAS):
# (domain, key) -> the BLAS operation. Our envs sum these in the order the running numpy's
# OpenBLAS does (envpool/tasks/_numpy_blas.py: plain or fused), so they are compared bitwise;
# where numpy follows neither order ("other"), within BLAS_OTHER_MAX_ULP. That happens only
# under a kernel forced by hand (OPENBLAS_CORETYPE=Prescott or Core2, whose ddot of 3 or more
# numbers sums in lanes): numpy 2 does not run on the CPUs that would pick those kernels (its
# baseline is SSE4.2). These keys go through gemv, gemm and ddots of 2 numbers, which those
# kernels sum in the plain order: the lockstep runs under them differ nowhere.
BLAS_KEYS: dict[tuple[str, str], str] = {
    ("dog", "torso_com_velocity"): "gemv",
    ("dog", "ball_state"): "gemv",
    ("dog", "target_position"): "gemv",
    ("finger", "dist_to_target"): "dot",
    ("fish", "target"): "gemv",
    ("humanoid", "extremities"): "gemv",
    ("humanoid_CMU", "extremities"): "gemv",
    ("quadruped", "origin"): "gemv",
    ("quadruped", "ball_state"): "gemm",
    ("quadruped", "target_position"): "gemv",
    ("swimmer", "to_target"): "gemv",
}
BLAS_OTHER_MAX_ULP = 4


def max_ulp(domain: str, key: str) -> int:
    """The ulps key may differ by on this machine (0: bitwise)."""
    if (domain, key) in UFUNC_KEYS:
        name, low, high, ulps = UFUNC_KEYS[domain, key]
        return 0 if ufunc_matches_libm(name, low, high, signed=name == "arcsinh") else ulps
    if (domain, key) in BLAS_KEYS:
        return BLAS_OTHER_MAX_ULP if numpy_blas_orders()[BLAS_KEYS[domain, key]] == OTHER else 0
    return 0


def assert_obs_equal(ours: np.ndarray, theirs: np.ndarray, ulps: int, err_msg: str) -> None:
    """Bitwise, or within ``ulps`` ulp (see max_ulp)."""
    if ulps == 0:
        np.testing.assert_array_equal(ours, theirs, err_msg=err_msg)
    else:
        assert np.shape(ours) == np.shape(theirs), err_msg
        try:
            np.testing.assert_array_max_ulp(ours, theirs, maxulp=ulps)
        except AssertionError as e:
            raise AssertionError(f"{err_msg}: {e}") from None


def _quadruped_state(env: Any) -> Any:
    """Escape: the height field Escape.initialize_episode draws into the model."""
    if not isinstance(env.task, suite.quadruped.Escape):
        return []
    model = env.physics.model
    start = model.hfield_adr[0]
    return model.hfield_data[start:start + model.hfield_nrow[0] * model.hfield_ncol[0]]


def _manipulator_state(env: Any) -> list[float]:
    """Bring: the target's (x, z, qw, qy) in the model, then the receptacle's when inserting."""
    task, model = env.task, env.physics.named.model
    bodies = [task._target] + ([task._receptacle] if task._insert else [])
    return [v for body in bodies
            for v in (*model.body_pos[body, ["x", "z"]], *model.body_quat[body, ["qw", "qy"]])]


TASK_STATE["quadruped"] = _quadruped_state
TASK_STATE["manipulator"] = _manipulator_state

# Per-domain reductions of the task numbers for test_reset_distribution.
TASK_STATE_SUMMARY: dict[str, Callable[[np.ndarray], list[float]]] = {}


def _terrain_summary(numbers: np.ndarray) -> list[float]:
    """Escape's height field: its mean, spread, maximum, quartiles and a few points (the
    center, on the bowl's rim, between the bump knots)."""
    if len(numbers) == 0:
        return []
    n = int(round(np.sqrt(len(numbers))))
    t = np.reshape(numbers, (n, n))
    return [t.mean(), t.std(), t.max(), *np.quantile(t, [.25, .5, .75]),
            t[n // 2, n // 2], t[n // 2, n // 4], t[n // 4, n // 2], t[n // 5, n // 3]]


TASK_STATE_SUMMARY["quadruped"] = _terrain_summary


def summarize(domain: str, numbers: Any) -> list[float]:
    fn = TASK_STATE_SUMMARY.get(domain)
    return list(numbers) if fn is None else fn(np.asarray(numbers, dtype=np.float64))




def task_state(domain: str, env: Any) -> list[float]:
    fn = TASK_STATE.get(domain)
    return [] if fn is None else [float(x) for x in fn(env)]


def physics_state(env: Any) -> np.ndarray:
    physics = env.physics
    sig = mujoco.mjtState.mjSTATE_INTEGRATION
    state = np.empty(mujoco.mj_stateSize(physics.model.ptr, sig))
    mujoco.mj_getState(physics.model.ptr, physics.data.ptr, state, sig)
    return state


class _NoRendering:
    """Stands in for a Physics' rendering contexts (``contexts.gl``, ``contexts.mujoco``).

    Quadruped's Escape.initialize_episode re-uploads its new height field to the GL context
    ``if physics.contexts:``, and reading that property creates the contexts, which needs an
    OpenGL backend. The upload only serves rendering, which these tests never do, so Escape's
    physics gets this stand-in: its reset then runs without OpenGL, its physics unchanged."""

    ptr = None

    @contextlib.contextmanager
    def make_current(self) -> Any:
        yield self

    def call(self, *args: Any, **kwargs: Any) -> None:
        pass

    def free(self) -> None:
        pass


def load(task_id: str, seed: int) -> Any:
    domain, task_name = TASKS[task_id]
    env = suite.load(domain, task_name, task_kwargs={"random": seed})
    if isinstance(env.task, suite.quadruped.Escape):
        env.physics._contexts = SimpleNamespace(gl=_NoRendering(), mujoco=_NoRendering())
    return env


@pytest.mark.sweep(by="native")
@pytest.mark.parametrize("task_id", IDS)
def test_settings_match_dm_control(task_id: str) -> None:
    """frame_skip is dm_control's n_sub_steps, max_episode_steps its step limit, and the
    specs are dm_control's (names, shapes, dtypes, action bounds)."""
    ref = load(task_id, 0)
    spec = envpool.make_spec(task_id)
    assert spec.config.frame_skip == ref._n_sub_steps
    domain, _ = TASKS[task_id]
    assert spec.config.max_episode_steps == MAX_EPISODE_STEPS
    assert ref._step_limit == STEP_LIMIT.get(domain, MAX_EPISODE_STEPS)
    env = envpool.make_dm(task_id, num_envs=1)
    ours, theirs = env.action_spec(), ref.action_spec()
    assert (ours.shape, ours.dtype) == (theirs.shape, theirs.dtype)
    np.testing.assert_array_equal(ours.minimum, theirs.minimum)
    np.testing.assert_array_equal(ours.maximum, theirs.maximum)
    obs_spec = env.observation_spec()
    ref_obs = ref.observation_spec()
    assert list(obs_spec._fields[:len(ref_obs)]) == list(ref_obs)
    for name, s in ref_obs.items():
        mine = getattr(obs_spec, name)
        assert (mine.shape, mine.dtype) == (s.shape, s.dtype), name
    env.close()


@pytest.mark.sweep(by="native")
@pytest.mark.parametrize("task_id", IDS)
def test_lockstep(task_id: str) -> None:
    domain, _ = TASKS[task_id]
    ref = load(task_id, 1)
    env = envpool.make_dm(task_id, num_envs=1, seed=3, max_episode_steps=EPISODE)
    spec = ref.action_spec()
    low = np.where(spec.minimum <= -mujoco.mjMAXVAL, -1.0, spec.minimum)  # see the docstring
    high = np.where(spec.maximum >= mujoco.mjMAXVAL, 1.0, spec.maximum)
    rng = np.random.default_rng(0)
    keys = list(ref.observation_spec())
    ts = env.reset()
    ref_count = 0
    lasts = 0
    for t in range(STEPS + 1):
        if ts.step_type[0] == 0:  # FIRST: put dm_control's fresh episode into ours
            ref.reset()
            if lasts % 2 == 1 and domain in NEAR_GOAL:
                NEAR_GOAL[domain](ref.physics, rng)
                ref.physics.after_reset()
            ref_count = 0
            env.set_state(0, [*physics_state(ref), *task_state(domain, ref)])
            np.testing.assert_array_equal(np.array(env.get_state(0))[:len(physics_state(ref))],
                                          physics_state(ref))
        if t == STEPS:
            break
        action = rng.uniform(low, high)
        ts = env.step(action[None], np.array([0]))
        ref_ts = ref.step(action)
        ref_count += 1
        where = f"{task_id} step {t} (episode step {ref_count})"
        for key in keys:
            assert_obs_equal(getattr(ts.observation, key)[0], ref_ts.observation[key],
                             max_ulp(domain, key), f"{where}: {key}")
        if numpy_blas_orders()["dot"] == OTHER:  # rewards of norms (see BLAS_KEYS): 1 ulp
            np.testing.assert_array_max_ulp(ts.reward[0], np.float32(ref_ts.reward), maxulp=1)
        else:
            assert ts.reward[0] == np.float32(ref_ts.reward), where
        ref_last = ref_ts.last() or ref_count == EPISODE
        assert bool(ts.step_type[0] == 2) == ref_last, where
        if ref_ts.last():
            assert ts.discount[0] == ref_ts.discount, where
        if ref_last:
            lasts += 1
            ts = env.step(np.zeros((1, *spec.shape)), np.array([0]))  # the autoreset step
            assert ts.step_type[0] == 0
    assert lasts >= 2
    env.close()


def _lqr_model_numbers(task_name: str, seed: int) -> list[float]:
    """The stiffness then damping of each joint that dm_control's lqr loader draws for an
    env loaded with ``seed`` (the model XML's attributes, which MuJoCo compiles as they are
    written): what ``TASK_STATE["lqr"]`` reads from the compiled model, without compiling."""
    from lxml import etree

    n_bodies, n_actuators = {"lqr_2_1": (2, 1), "lqr_6_2": (6, 2)}[task_name]
    xml, _ = suite.lqr.get_model_and_assets(n_bodies, n_actuators, np.random.RandomState(seed))
    joints = etree.fromstring(xml).find("worldbody").iter("joint")  # not the tendons' joints
    stiffness, damping = zip(*[(float(j.get("stiffness")), float(j.get("damping")))
                               for j in joints], strict=True)
    return [*stiffness, *damping]


def _ref_reset_states(task_id: str, n: int) -> np.ndarray:
    domain, task_name = TASKS[task_id]
    ref = load(task_id, 12345)
    rows = []
    for i in range(n):
        ref.reset()
        physics = ref.physics
        if domain in MODEL_DRAWN_AT_LOAD:
            # The joints' numbers of the env loaded with seed 12345 + i; the KS tests compare
            # each coordinate's distribution alone, so qpos and qvel can come from one env.
            numbers = _lqr_model_numbers(task_name, 12345 + i)
        else:
            numbers = task_state(domain, ref)
        rows.append([*physics.data.qpos, *physics.data.qvel, *summarize(domain, numbers)])
    return np.array(rows)


def _our_reset_states(task_id: str, n: int) -> np.ndarray:
    """Our envs with seeds 0 .. n - 1 (reset(seed=s) of a pool of POOL_CHUNK envs gives env i
    seed s + i, as a pool made with seed s: one pool, so one model compile)."""
    domain, _ = TASKS[task_id]
    ref = load(task_id, 0)
    nq, nv = ref.physics.model.nq, ref.physics.model.nv
    size = len(physics_state(ref))
    rows = []
    env = envpool.make_dm(task_id, num_envs=POOL_CHUNK, seed=0)
    for start in range(0, n, POOL_CHUNK):
        count = min(POOL_CHUNK, n - start)
        env.reset(np.arange(count), seed=start)
        for i in range(count):
            state = np.array(env.get_state(i))
            # mjSTATE_INTEGRATION starts with time, then qpos, qvel.
            rows.append([*state[1:1 + nq + nv], *summarize(domain, state[size:])])
    env.close()
    return np.array(rows)


@pytest.mark.sweep(by="none", extra=3)  # (each id checks hundreds of resets; all in the nightly)
@pytest.mark.parametrize("task_id", IDS)
def test_reset_distribution(task_id: str) -> None:
    n = N_FOR.get(task_id, N)
    ours = _our_reset_states(task_id, n)
    theirs = _ref_reset_states(task_id, n)
    assert ours.shape == theirs.shape
    level = ALPHA / ours.shape[1]
    for k in range(ours.shape[1]):
        d, p = ks_2samp(ours[:, k], theirs[:, k])
        assert p > level, f"{task_id}: state coordinate {k}: KS D={d:.3f}, p={p:.2e}"


@pytest.mark.parametrize("task_id", [i for i in IDS if TASKS[i][0] == "lqr"])
def test_lqr_terminates_at_the_origin(task_id: str) -> None:
    """LQRLevel.get_termination: a state norm below 1e-6 ends the episode with discount 0
    (random actions never get there in test_lockstep)."""
    ref = load(task_id, 1)
    ref.reset()
    with ref.physics.reset_context():
        ref.physics.data.qpos[:] = 1e-8
    env = envpool.make_dm(task_id, num_envs=1, seed=3)
    env.reset()
    env.set_state(0, [*physics_state(ref), *task_state("lqr", ref)])
    action = np.zeros(ref.action_spec().shape)
    ref_ts = ref.step(action)
    ts = env.step(action[None], np.array([0]))
    assert ref_ts.last() and ref_ts.discount == 0
    assert ts.step_type[0] == 2 and ts.discount[0] == 0
    np.testing.assert_array_equal(ts.observation.position[0], ref_ts.observation["position"])
    assert ts.reward[0] == np.float32(ref_ts.reward)
    env.close()


def test_frame_stack() -> None:
    """frame_stack=k: each key holds the last k observations, oldest first, the first one
    repeated after a reset; the newest frame is the frame_stack=1 observation."""
    task_id = IDS[0]
    one = envpool.make_dm(task_id, num_envs=2, seed=7)
    three = envpool.make_dm(task_id, num_envs=2, seed=7, frame_stack=3)
    history: list[Any] = [one.reset().observation]
    ts3 = three.reset()
    # (the info keys, qpos0 and qvel0 here, are not stacked)
    unstacked = {"env_id", "players", "elapsed_step",
                 *(i["name"] for i in envpool.make_spec(task_id).native_spec["info"])}
    for name in [n for n in history[0]._fields if n not in unstacked]:
        assert getattr(ts3.observation, name).shape[1] == 3
    rng = np.random.default_rng(1)
    spec = one.action_spec()
    for _ in range(5):
        stacked = ts3.observation
        for name in stacked._fields:
            if name in unstacked:
                continue
            frames = [getattr(h, name) for h in ([history[0]] * 2 + history)[-3:]]
            np.testing.assert_array_equal(getattr(stacked, name), np.stack(frames, axis=1))
        action = rng.uniform(spec.minimum, spec.maximum, (2, *spec.shape))
        history.append(one.step(action).observation)
        ts3 = three.step(action)


def test_missing_dm_control_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    from envpool.tasks import dm_control as tasks

    monkeypatch.setattr(tasks, "SUITE_DIR", "")
    with pytest.raises(ImportError, match="pip install 'dm-control"):
        envpool.make_dm(IDS[0])


def _place(domain: str, task: str, physics: Any, obs: Any) -> None:
    """dm_control's episode start rebuilt from our info as sail-sg EnvPool's align tests
    rebuild it: qpos0, qvel0, act0, and the task's own numbers (target, target0, wrap_prm,
    random_info, stiffness0, hfield0)."""
    named = physics.named
    physics.data.qpos[:] = obs.qpos0[0]
    physics.data.qvel[:] = obs.qvel0[0]
    if hasattr(obs, "act0"):
        physics.data.act[:] = obs.act0[0]
    if domain == "cheetah":  # qpos0 is from before the 200 settling steps
        for _ in range(200):
            physics.step()
        physics.data.time = 0
    elif domain == "reacher":
        named.model.geom_pos["target", ["x", "y"]] = obs.target[0]
    elif domain == "finger" and task.startswith("turn"):
        angle, radius = obs.target[0]
        hinge = named.data.xanchor["hinge", ["x", "z"]]
        named.model.site_pos["target", ["x", "z"]] = (hinge[0] + radius * np.sin(angle),
                                                      hinge[1] + radius * np.cos(angle))
    elif domain == "swimmer":
        named.model.geom_pos["target", ["x", "y"]] = obs.target0[0]
        named.model.light_pos["target_light", ["x", "y"]] = obs.target0[0]
    elif domain == "fish" and task == "swim":
        named.model.geom_pos["target"] = obs.target0[0]
    elif domain == "point_mass":
        physics.model.wrap_prm[:] = obs.wrap_prm[0]
    elif domain == "manipulator":
        tx, tz, angle = obs.random_info[0][:3]
        for body in ("target_ball", "cup") if task == "insert_ball" else ("target_ball",):
            named.model.body_pos[body, ["x", "z"]] = tx, tz
            named.model.body_quat[body, ["qw", "qy"]] = np.cos(angle / 2), np.sin(angle / 2)
    elif domain == "lqr":
        physics.model.jnt_stiffness[:] = obs.stiffness0[0]
    elif domain == "stacker":
        named.model.body_pos["target", ["x", "z"]] = obs.target0[0]
    elif domain == "quadruped" and task == "escape":
        start = physics.model.hfield_adr[0]
        hfield = obs.hfield0[0]
        physics.model.hfield_data[start : start + len(hfield)] = hfield


EPISODE_START = ["CartpoleSwingup-v1", "CheetahRun-v1", "ReacherHard-v1", "FingerTurnHard-v1",
                 "FingerSpin-v1", "SwimmerSwimmer6-v1", "FishSwim-v1", "PointMassHard-v1",
                 "ManipulatorBringBall-v1", "WalkerWalk-v1", "HumanoidStand-v1", "LqrLqr21-v1",
                 "StackerStack2-v1", "QuadrupedEscape-v1", "QuadrupedWalk-v1", "DogStand-v1"]


@pytest.mark.parametrize("task_id", EPISODE_START)
def test_episode_start_info_rebuilds_the_reference(task_id: str) -> None:
    """sail-sg EnvPool's info (its test build's, in the dm observation as there): qpos0,
    qvel0 and the task's own numbers rebuild dm_control's episode start: the state bitwise,
    the first observation as the lockstep compares it, over several resets."""
    domain, task = TASKS[task_id]
    env = envpool.make_dm(task_id, num_envs=1, seed=5)
    ref = load(task_id, 0)
    rng = np.random.default_rng(0)
    for _ in range(4):
        ts = env.reset()
        ref.reset()
        with ref.physics.reset_context():
            _place(domain, task, ref.physics, ts.observation)
        if hasattr(ts.observation, "qacc_warmstart0"):
            ref.physics.data.qacc_warmstart[:] = ts.observation.qacc_warmstart0[0]
        ours = np.array(env.get_state(0))
        model = ref.physics.model
        n = 1 + model.nq + 2 * model.nv + model.na  # time, qpos, qvel, act, qacc_warmstart
        np.testing.assert_array_equal(ours[:n], physics_state(ref)[:n], err_msg=task_id)
        want = ref.task.get_observation(ref.physics)
        for key, value in want.items():  # (bitwise but for the keys max_ulp names)
            assert_obs_equal(getattr(ts.observation, key)[0], value, max_ulp(domain, key),
                             f"{task_id}: {key}")
        # one step from there: what the state leaves out (LQR's stiffness0) moves it alike
        spec = ref.action_spec()
        action = rng.uniform(spec.minimum, spec.maximum, spec.shape)
        ts = env.step(action[None], np.array([0]))
        want = ref.step(action).observation
        for key, value in want.items():
            assert_obs_equal(getattr(ts.observation, key)[0], value, max_ulp(domain, key),
                             f"{task_id}, step 1: {key}")
        if hasattr(ts.observation, "qacc_warmstart0"):  # EnvPool's: the warm start now
            warmstart = np.array(env.get_state(0))[n - model.nv : n]
            np.testing.assert_array_equal(ts.observation.qacc_warmstart0[0], warmstart)
            assert np.any(warmstart != 0), task_id
    env.close()
