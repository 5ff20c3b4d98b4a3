"""Alignment of Gymnasium-Robotics' Point Maze with gymnasium_robotics 1.4.2, step by step.

Our env (native/envs/robotics/point_maze.h) builds the package's model (point.xml with the
maze's box walls and target site, as ``Maze.make_maze`` writes it) and draws the goal cell,
its noise, the start cell and its noise from numpy's default_rng(seed) reproduced in C++, in
the package's order, so our env with seed s and ``gymnasium.make(task_id)`` reset with seed s
start in the same state, nothing copied between them. Both run the same MuJoCo library with
the same calls (the velocity clipped and ``set_state``'s ``mj_forward``, one ``mj_step``,
``mj_rnePostConstraint``), so under the same float32 actions (some outside [-1, 1], which
both clip) the observations stay bitwise equal, with the walls' contacts; so do the sparse
rewards, ``success``, the terminations (``continuing_task=False``), the goals drawn anew
(``reset_target=True``), the truncation at ``max_episode_steps`` and the next episodes
(our autoreset, the reference's ``reset()`` without a seed: one generator on each side).

One tolerance: the dense reward is ``np.exp(-d)``. Where numpy's own SIMD ``exp`` differs
from the C library's (AVX-512 CPUs; ``tests/numerics.py`` asks the running numpy), the
float64 rewards may differ in their last bit, so the pool's float32 rewards may differ by
one float32 ulp; elsewhere they are equal. The reward feeds nothing back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pytest
from numerics import ufunc_matches_libm  # tests/numerics.py

import envpool
from envpool.tasks import robotics_maze

gymnasium_robotics = pytest.importorskip("gymnasium_robotics")
gymnasium.register_envs(gymnasium_robotics)

IDS = robotics_maze.ids()
# np.exp(-d) equals the C library's exp on this machine's numpy (module docstring).
EXP_IS_LIBM = ufunc_matches_libm("exp", 1e-3, 30.0, signed=True)


def _reference(task_id: str, **kwargs: Any) -> gymnasium.Env:
    return gymnasium.make(task_id, **kwargs)


def _assert_obs(obs: dict[str, np.ndarray], i: int, ref: dict[str, np.ndarray], where: Any) -> None:
    assert list(obs) == sorted(ref), where
    for key in ref:
        assert np.array_equal(obs[key][i], ref[key]), (where, key, obs[key][i], ref[key])


def _assert_reward(ours: np.float32, theirs: float, where: Any) -> None:
    expected = np.float32(theirs)
    if EXP_IS_LIBM:
        assert ours == expected, (where, ours, theirs)
    else:  # one float32 ulp (module docstring)
        assert abs(ours - expected) <= np.spacing(expected), (where, ours, theirs)


def _random_action(rng: np.random.Generator, obs: dict[str, np.ndarray]) -> np.ndarray:
    """Uniform in [-1.3, 1.3] (beyond the box: both sides clip), 2 forces for the ball, 8
    torques for the ant (by the observation's size)."""
    size = 2 if obs.get("observation", np.zeros(4)).size == 4 else 8
    return rng.uniform(-1.3, 1.3, size).astype(np.float32)


def _to_goal(rng: np.random.Generator, obs: dict[str, np.ndarray]) -> np.ndarray:
    """A damped push toward the goal (in the open maze it reaches each goal), noisy."""
    pos, vel = obs["observation"][:2], obs["observation"][2:]
    a = 2.0 * (obs["desired_goal"] - pos) - 0.5 * vel + rng.uniform(-0.1, 0.1, 2)
    return a.astype(np.float32)


def _lockstep(task_id: str, steps: int, seed: int, num_envs: int = 1,
              policy: Callable[[np.random.Generator, dict[str, np.ndarray]], np.ndarray] =
              _random_action, reference: Callable[..., gymnasium.Env] = _reference,
              **kwargs: Any) -> dict[str, int]:
    """Runs our pool and one reference per env side by side for `steps` steps of the pool;
    returns how often each outcome was seen (success, terminated, truncated, a new goal)."""
    ours = envpool.make_gymnasium(task_id, num_envs=num_envs, seed=seed, **kwargs)
    refs = [reference(task_id, **kwargs) for _ in range(num_envs)]
    obs, info = ours.reset()
    r_obs = []
    for i, ref in enumerate(refs):
        o, r_info = ref.reset(seed=seed + i)
        r_obs.append(o)
        _assert_obs(obs, i, o, (task_id, i, "reset"))
        assert info["success"][i] == r_info.get("success", info["success"][i])
    starts = [dict(o) for o in r_obs]  # each episode's reset observation
    limit = envpool.make_spec(task_id).config.max_episode_steps
    rng = np.random.default_rng(seed)
    seen = {"success": 0, "terminated": 0, "truncated": 0, "new_goal": 0}
    done = [False] * num_envs
    elapsed = [0] * num_envs
    for t in range(steps):
        actions = np.stack([policy(rng, o) for o in r_obs])
        obs, rew, term, trunc, info = ours.step(actions)
        for i, ref in enumerate(refs):
            where = (task_id, i, t)
            if done[i]:  # our next-step autoreset; the reference resets unseeded
                r_obs[i], r_info = ref.reset()
                _assert_obs(obs, i, r_obs[i], (*where, "autoreset"))
                assert info["success"][i] == r_info.get("success", info["success"][i]), where
                assert info["elapsed_step"][i] == 0 and rew[i] == 0
                done[i], elapsed[i], starts[i] = False, 0, dict(r_obs[i])
                continue
            r_obs[i], r_rew, r_term, r_trunc, r_info = ref.step(actions[i])
            elapsed[i] += 1
            _assert_obs(obs, i, r_obs[i], where)
            _assert_reward(rew[i], r_rew, where)
            assert info["success"].dtype == np.bool_
            # (AntMaze v3's info has no success: ours is the goal reached, as the others')
            r_success = r_info.get("success", np.linalg.norm(
                r_obs[i]["achieved_goal"] - r_obs[i]["desired_goal"]) <= 0.45)
            assert info["success"][i] == r_success, where
            assert (term[i], trunc[i]) == (r_term, r_trunc), where
            assert trunc[i] == (elapsed[i] == limit and not r_term), where
            # The state after the reset, as sail-sg EnvPool's test reads it.
            assert np.array_equal(info["qpos0"][i][:2], starts[i]["achieved_goal"]), where
            assert np.array_equal(info["goal0"][i], starts[i]["desired_goal"]), where
            seen["success"] += int(r_success)
            seen["terminated"] += int(r_term)
            seen["truncated"] += int(r_trunc)
            base = ref.unwrapped
            seen["new_goal"] += int(not np.array_equal(base.goal, r_obs[i]["desired_goal"]))
            assert np.array_equal(ours.get_state(i)[-2:], base.goal), where
            done[i] = bool(term[i] or trunc[i])
    ours.close()
    return seen


@pytest.mark.sweep
@pytest.mark.parametrize("task_id", IDS)
def test_point_maze_matches_reference(task_id: str) -> None:
    """Every id (every map, sparse and dense): two envs, 40 steps of random pushes."""
    _lockstep(task_id, steps=40, seed=11, num_envs=2)


def _against_the_walls() -> Callable[[np.random.Generator, dict[str, np.ndarray]], np.ndarray]:
    """Full force along one diagonal for 30 steps, then the next diagonal: the ball runs into
    the walls and slides along them (its velocity clipped at 5 m/s)."""
    calls = [0]
    directions = np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]], np.float32)

    def policy(rng: np.random.Generator, obs: dict[str, np.ndarray]) -> np.ndarray:
        del rng, obs
        calls[0] += 1
        return directions[(calls[0] // 30) % 4]

    return policy


@pytest.mark.parametrize("task_id", ["PointMaze_UMaze-v3", "PointMaze_LargeDense-v3"])
def test_point_maze_walls_match_reference(task_id: str) -> None:
    """The walls where the package puts them (box geoms of the maze's cells, their size and
    height, contact flags): pushed into them for 150 steps, the ball's states stay bitwise
    equal; the reference's contacts with them are counted."""
    contacts = []

    def counting(tid: str, **kwargs: Any) -> gymnasium.Env:
        env = _reference(tid, **kwargs)
        base, step = env.unwrapped, env.step
        walls = range(1, base.model.ngeom - 1)  # the ground first, the ball last

        def step_and_count(action: np.ndarray) -> Any:
            out = step(action)
            c = base.data.contact
            contacts.append(any(g in walls for g in (*c.geom1, *c.geom2)))
            return out

        env.step = step_and_count  # type: ignore[method-assign]
        return env

    _lockstep(task_id, steps=150, seed=8, policy=_against_the_walls(), reference=counting)
    assert sum(contacts) > 30, sum(contacts)


def test_point_maze_truncates_and_starts_the_next_episode() -> None:
    """UMaze's 300-step limit (truncated, not terminated), then our autoreset against the
    reference's unseeded reset, and the second episode's first steps."""
    seen = _lockstep("PointMaze_UMazeDense-v3", steps=310, seed=4)
    assert seen["truncated"] == 1 and seen["terminated"] == 0


def test_point_maze_continuing_task_draws_new_goals() -> None:
    """``reset_target=True`` (continuing): each goal reached is drawn anew after the step (the
    step's observation still shows the reached one), in the package's order of draws."""
    seen = _lockstep("PointMaze_Open-v3", steps=300, seed=1, policy=_to_goal,
                     reset_target=True)
    assert seen["new_goal"] >= 2 and seen["success"] >= 2 and seen["terminated"] == 0


def test_point_maze_continuing_task_keeps_the_goal() -> None:
    """The default (continuing, ``reset_target=False``): the goal stays; sparse reward 1 and
    ``success`` while it is reached."""
    seen = _lockstep("PointMaze_Open-v3", steps=120, seed=2, policy=_to_goal)
    assert seen["success"] > 10 and seen["new_goal"] == 0


def test_point_maze_terminates_at_the_goal() -> None:
    """``continuing_task=False``: terminated when the goal is reached, then the next episode."""
    seen = _lockstep("PointMaze_Open_Diverse_GRDense-v3", steps=200, seed=3, num_envs=2,
                     policy=_to_goal, continuing_task=False)
    assert seen["terminated"] >= 4


def test_point_maze_custom_map() -> None:
    """A ``maze_map`` of the user's (the package's docstring's example, and one with 'g' and
    'r' cells), as the package takes it."""
    example = [[1, 1, 1, 1, 1], [1, "c", 0, "c", 1], [1, 1, 1, 1, 1]]
    _lockstep("PointMaze_UMaze-v3", steps=40, seed=5, maze_map=example)
    diverse = [[1, 1, 1, 1, 1, 1], [1, "r", 0, 0, "g", 1], [1, 0, 1, 1, "g", 1],
               [1, 1, 1, 1, 1, 1]]
    _lockstep("PointMaze_UMazeDense-v3", steps=40, seed=6, maze_map=diverse)


@pytest.mark.parametrize("maze_map,match", [
    ([[1, 1], [1, 2]], "0, 1, 'g', 'r' or 'c'"),
    ([[1, 1, 1], [1, 0]], "same length"),
    ([], "non-empty"),
    ([[1, 1, 1], [1, "c", 1], [1, 1, 1]], "no reset cell away"),
])
def test_point_maze_bad_map(maze_map: Any, match: str) -> None:
    """A map the package would refuse or loop forever on: a clear error."""
    with pytest.raises((ValueError, RuntimeError), match=match):
        env = envpool.make_gymnasium("PointMaze_UMaze-v3", num_envs=1, maze_map=maze_map)
        env.reset()


@pytest.mark.parametrize("ids,prefix,samples", [
    (IDS, "PointMaze_", ("PointMaze_UMaze-v3", "PointMaze_Large_Diverse_GRDense-v3")),
    (robotics_maze.ant_ids(), "AntMaze_", ("AntMaze_UMaze-v4", "AntMaze_Large_Diverse_GRDense-v5")),
])
def test_maze_ids_and_spaces_match_reference(ids: list[str], prefix: str,
                                             samples: tuple[str, ...]) -> None:
    """The ids are gymnasium_robotics' PointMaze ids (20) and AntMaze v3, v4, v5 ids (60), with
    their maps, reward types and time limits; the spaces equal the package's."""
    registered = sorted(k for k in gymnasium.registry if k.startswith(prefix))
    assert sorted(ids) == registered and len(ids) == {"PointMaze_": 20, "AntMaze_": 60}[prefix]
    for task_id in ids:
        spec = gymnasium.registry[task_id]
        ours = envpool.make_spec(task_id)
        assert ours.config.maze_map == spec.kwargs["maze_map"], task_id
        assert ours.config.reward_type == spec.kwargs["reward_type"], task_id
        assert ours.config.max_episode_steps == spec.max_episode_steps, task_id
    for task_id in samples:
        env = envpool.make_gymnasium(task_id, num_envs=1)
        ref = _reference(task_id)
        assert env.single_observation_space == ref.observation_space
        assert env.single_action_space == ref.action_space
        env.close()


@pytest.mark.parametrize("task_id", ["PointMaze_UMaze-v3", "PointMaze_Medium_Diverse_GDense-v3"])
def test_point_maze_goal_methods_match_reference(task_id: str) -> None:
    """The pool's compute_reward, compute_terminated and compute_truncated equal the
    package's (values and dtypes) on one pair of goals, and compute_reward on batches."""
    rng = np.random.default_rng(0)
    achieved = rng.uniform(-2, 2, (64, 2))
    desired = achieved + rng.uniform(-0.6, 0.6, (64, 2))
    for continuing in (True, False):
        pool = envpool.make_gymnasium(task_id, num_envs=1, continuing_task=continuing)
        ref = _reference(task_id, continuing_task=continuing).unwrapped
        assert np.array_equal(pool.compute_reward(achieved, desired, {}),
                              ref.compute_reward(achieved, desired, {}))
        for a, d in zip(achieved, desired, strict=True):
            ours, theirs = pool.compute_reward(a, d, {}), ref.compute_reward(a, d, {})
            assert type(ours) is type(theirs) and ours == theirs
            assert bool(pool.compute_terminated(a, d, {})) == ref.compute_terminated(a, d, {})
            assert bool(pool.compute_truncated(a, d, {})) == ref.compute_truncated(a, d, {})
        batch = pool.compute_terminated(achieved, desired, {})
        assert batch.shape == (64,) and batch.any() == (not continuing)
        pool.close()


def test_point_maze_needs_gymnasium_robotics() -> None:
    """Without the package's model, making an id says what to install."""
    with pytest.raises(ImportError, match="gymnasium-robotics"):
        envpool.make_gymnasium("PointMaze_UMaze-v3", assets_dir="/nonexistent/assets")


@pytest.mark.parametrize("task_id", ["AntMaze_UMaze-v5", "AntMaze_Medium_Diverse_GRDense-v5",
                                     "AntMaze_Large_Diverse_G-v4", "AntMaze_OpenDense-v4",
                                     "AntMaze_Medium_Diverse_GDense-v3"])
def test_ant_maze_matches_reference(task_id: str) -> None:
    """Ant Maze v3, v4 and v5 (gymnasium's Ant in the maze, scaled 4): 40 steps of random
    torques; the observations (the torso's x, y as achieved_goal, the rest of the Ant's
    observation, with v5's clipped contact forces), rewards, success and flags bitwise."""
    _lockstep(task_id, steps=40, seed=13)


@pytest.mark.nightly
@pytest.mark.timeout(600)
@pytest.mark.parametrize("task_id", robotics_maze.ant_ids())
def test_ant_maze_long_lockstep(task_id: str) -> None:
    """Every Ant Maze id, two envs, past the time limit into the next episode."""
    limit = envpool.make_spec(task_id).config.max_episode_steps
    _lockstep(task_id, steps=limit + 20, seed=22, num_envs=2)


@pytest.mark.nightly
@pytest.mark.timeout(600)
@pytest.mark.parametrize("task_id", IDS)
def test_point_maze_long_lockstep(task_id: str) -> None:
    """Every id, two envs, past the time limit into the next episode."""
    limit = envpool.make_spec(task_id).config.max_episode_steps
    _lockstep(task_id, steps=limit + 20, seed=21, num_envs=2)


@pytest.mark.parametrize("task_id", ["PointMaze_UMaze-v3", "PointMaze_Large_Diverse_GR-v3",
                                     "AntMaze_UMaze-v5", "AntMaze_Large_Diverse_GR-v3"])
def test_maze_frames_match_reference(task_id: str) -> None:
    """``render_mode="rgb_array"``: the reference's frames (480 x 480; Point Maze's camera
    distance by map size, the Ant's 4; the walls and the target), pixel for pixel (as
    tests/test_render_mujoco.py compares: the same libmujoco and GL driver on both sides),
    between lockstep steps."""
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=5, render_mode="rgb_array")
    ref = _reference(task_id, render_mode="rgb_array")
    ours.reset()
    r_obs, _ = ref.reset(seed=5)
    assert ours.render_fps == ref.metadata["render_fps"] == 50
    rng = np.random.default_rng(0)
    for t in range(3):
        frame, r_frame = ours.render()[0], ref.render()
        assert frame.shape == r_frame.shape == (480, 480, 3)
        assert np.array_equal(frame, r_frame), (task_id, t)
        action = _random_action(rng, r_obs)
        obs, *_ = ours.step(action[None])
        r_obs, *_ = ref.step(action)
        _assert_obs(obs, 0, r_obs, (task_id, t))
    ours.close()
    ref.close()


def test_point_maze_pixels_follow_the_goals() -> None:
    """``from_pixels=True, pixels_only=False``: the goal dict plus ``pixels`` (3, 84, 84), the
    reference's 84 x 84 frame after every reset and step, through goals drawn anew
    (``reset_target``): the frame after such a step shows the target where the reference's
    last ``mj_forward`` put it, the reached goal's place."""
    task_id = "PointMaze_Open-v3"
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=1, from_pixels=True,
                                  pixels_only=False, reset_target=True)
    ref = _reference(task_id, render_mode="rgb_array", width=84, height=84, reset_target=True)
    obs, _ = ours.reset()
    r_obs, _ = ref.reset(seed=1)
    rng = np.random.default_rng(1)
    new_goals = 0
    for t in range(70):
        assert obs["pixels"].shape == (1, 3, 84, 84)
        assert np.array_equal(obs["pixels"][0].transpose(1, 2, 0), ref.render()), t
        _assert_obs({k: v for k, v in obs.items() if k != "pixels"}, 0, r_obs, t)
        action = _to_goal(rng, r_obs)
        obs, *_ = ours.step(action[None])
        r_obs, *_ = ref.step(action)
        new_goals += int(not np.array_equal(ref.unwrapped.goal, r_obs["desired_goal"]))
    assert new_goals >= 1
    ours.close()
    ref.close()


@pytest.mark.parametrize("task_id,kwargs", [
    ("AntMaze_Open_Diverse_GR-v3", {}),
    ("AntMaze_Open_Diverse_GRDense-v3", {"continuing_task": False}),
    ("AntMaze_Open_Diverse_GRDense-v4", {"reset_target": True}),
    ("AntMaze_Open_Diverse_GR-v5", {"continuing_task": False}),
])
def test_ant_maze_goal_reached(task_id: str, kwargs: dict[str, Any]) -> None:
    """The goal put under the ant on both sides (our set_state, the reference's goal), then
    lockstep: reached at the first step. v3 (maze.py) draws a new goal once inside
    compute_terminated and rewards against it; v4 and v5 (maze_v4.py) draw anew after the
    reward with ``reset_target``, or terminate with ``continuing_task=False``."""
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=3, **kwargs)
    ref = _reference(task_id, **kwargs)
    ours.reset()
    r_obs, _ = ref.reset(seed=3)
    state = ours.get_state(0)
    goal = np.array(r_obs["achieved_goal"]) + 0.1
    ours.set_state(0, [*state[:-2], *goal])
    ref.unwrapped.goal = goal.copy()
    rng = np.random.default_rng(0)
    for t in range(3):
        action = 0.1 * rng.uniform(-1, 1, 8).astype(np.float32)
        obs, rew, term, trunc, info = ours.step(action[None])
        r_obs, r_rew, r_term, r_trunc, r_info = ref.step(action)
        _assert_obs(obs, 0, r_obs, (task_id, t))
        _assert_reward(rew[0], r_rew, (task_id, t))
        assert (term[0], trunc[0]) == (r_term, r_trunc), (task_id, t)
        assert np.array_equal(ours.get_state(0)[-2:], ref.unwrapped.goal), (task_id, t)
        if t == 0:
            assert info["success"][0]
            continuing = kwargs.get("continuing_task", True)
            assert r_term == (not continuing)
            moved = not np.array_equal(ref.unwrapped.goal, goal)
            assert moved == (continuing and (task_id.endswith("-v3") or "reset_target" in kwargs))
        if r_term:
            break
    ours.close()


@pytest.mark.parametrize("task_id", ["AntMaze_Open_Diverse_GR-v3", "AntMaze_Open_Diverse_GR-v4",
                                     "PointMaze_Open_Diverse_GR-v3"])
def test_maze_resets_match_reference(task_id: str) -> None:
    """60 seeded resets: the goal and the start of each equal the package's, with starts in
    the goal's cell where the package allows them (AntMaze v3's maze.py keeps a start 0.5
    away from the goal, unscaled; maze_v4.py 0.5 * maze_size_scaling)."""
    ours = envpool.make_gymnasium(task_id, num_envs=1)
    ref = _reference(task_id)
    for seed in range(60):
        obs, _ = ours.reset(seed=seed)
        r_obs, _ = ref.reset(seed=seed)
        _assert_obs(obs, 0, r_obs, (task_id, seed))
    ours.close()
