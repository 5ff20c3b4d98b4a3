"""Alignment of the MiniGrid envs with the ``minigrid`` package (3.2.0), its own envs run in
the same test.

Ours draws every level from numpy's default_rng reproduced in C++ (Generator.integers,
uniform, shuffle and choice as the package calls them through self.np_random), seeded
with the env's seed, so nothing is copied between the two: env i of a pool made with seed s
and ``gymnasium.make(task_id)`` reset with seed s + i start in the same level. Under the
same actions every observation (the image, the direction, the mission) must be equal, every
reward equal to the package's rounded to float32 (the pool's reward dtype), and the episodes
end the same way at the same step. Later episodes continue the seeded generator on both
sides (our autoreset, the package's reset() without a seed).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import minigrid  # noqa: F401  (registers the package's ids)
import numpy as np
import pytest
from minigrid.wrappers import (
    FullyObsWrapper,
    ImgObsWrapper,
    RGBImgObsWrapper,
    RGBImgPartialObsWrapper,
)

import envpool
from envpool import _native
from envpool.tasks.minigrid import VOCABULARY, decode_mission, decode_tokens

# gymnasium's notices that MultiRoom-N4-S5-v0 and the ObstructedMaze v0 ids have a v1: both
# versions are here.
pytestmark = pytest.mark.filterwarnings("ignore:.*is out of date:DeprecationWarning")

EMPTY = ["MiniGrid-Empty-5x5-v0", "MiniGrid-Empty-Random-5x5-v0", "MiniGrid-Empty-6x6-v0",
         "MiniGrid-Empty-Random-6x6-v0", "MiniGrid-Empty-8x8-v0", "MiniGrid-Empty-16x16-v0"]
DOOR_KEY = [f"MiniGrid-DoorKey-{s}x{s}-v0" for s in (5, 6, 8, 16)]
CROSSING = [f"MiniGrid-{name}S{s}N{n}-v0" for name in ("LavaCrossing", "SimpleCrossing")
            for s, n in ((9, 1), (9, 2), (9, 3), (11, 5))]
DYNAMIC = ["MiniGrid-Dynamic-Obstacles-5x5-v0", "MiniGrid-Dynamic-Obstacles-Random-5x5-v0",
           "MiniGrid-Dynamic-Obstacles-6x6-v0", "MiniGrid-Dynamic-Obstacles-Random-6x6-v0",
           "MiniGrid-Dynamic-Obstacles-8x8-v0", "MiniGrid-Dynamic-Obstacles-16x16-v0"]
IDS = (EMPTY + DOOR_KEY + ["MiniGrid-FourRooms-v0"]
       + [f"MiniGrid-LavaGapS{s}-v0" for s in (5, 6, 7)] + CROSSING
       + ["MiniGrid-DistShift1-v0", "MiniGrid-DistShift2-v0",
          "MiniGrid-RedBlueDoors-6x6-v0", "MiniGrid-RedBlueDoors-8x8-v0"] + DYNAMIC
       + ["MiniGrid-Unlock-v0", "MiniGrid-UnlockPickup-v0", "MiniGrid-BlockedUnlockPickup-v0"]
       + [f"MiniGrid-KeyCorridorS{s}R{r}-v0"
          for s, r in ((3, 1), (3, 2), (3, 3), (4, 3), (5, 3), (6, 3))]
       + [f"MiniGrid-GoToDoor-{s}x{s}-v0" for s in (5, 6, 8)]
       + ["MiniGrid-GoToObject-6x6-N2-v0", "MiniGrid-GoToObject-8x8-N2-v0",
          "MiniGrid-Fetch-5x5-N2-v0", "MiniGrid-Fetch-6x6-N2-v0", "MiniGrid-Fetch-8x8-N3-v0",
          "MiniGrid-PutNear-6x6-N2-v0", "MiniGrid-PutNear-8x8-N3-v0",
          "MiniGrid-MultiRoom-N2-S4-v0", "MiniGrid-MultiRoom-N4-S5-v0",
          "MiniGrid-MultiRoom-N4-S5-v1", "MiniGrid-MultiRoom-N6-v0"]
       + [f"MiniGrid-MemoryS{s}-v0" for s in ("17Random", "13Random", "13", "11", "9", "7")]
       + ["MiniGrid-LockedRoom-v0", "MiniGrid-Playground-v0"]
       + [f"MiniGrid-ObstructedMaze-{n}-v0"
          for n in ("1Dl", "1Dlh", "1Dlhb", "2Dl", "2Dlh", "2Dlhb", "1Q", "2Q", "Full")]
       + [f"MiniGrid-ObstructedMaze-{n}-v1" for n in ("2Dlhb", "1Q", "2Q", "Full")])



def _check_obs(obs: dict[str, np.ndarray], i: int, ref_obs: dict[str, Any],
               where: Any) -> None:
    assert np.array_equal(obs["image"][i], ref_obs["image"]), where
    assert obs["direction"][i] == ref_obs["direction"], where
    assert decode_mission(obs["mission"][i]) == ref_obs["mission"], where
    assert decode_tokens(obs["mission_tokens"][i]) == ref_obs["mission"], where


# The wave-function-collapse ids: tests/test_align_wfc.py (their package resets are slow).
WFC_IDS = [f"MiniGrid-WFC-{p}-v0" for p in ("MazeSimple", "DungeonMazeScaled", "RoomsFabric",
                                            "ObstaclesBlackdots", "ObstaclesAngular",
                                            "ObstaclesHogs3")]


def test_registered_ids_are_the_packages() -> None:
    """Every id here is one of the package's, with its max_steps, and, as the package's,
    no other time limit: the env truncates itself."""
    ours = [i for i in envpool.list_all_envs() if i.startswith("MiniGrid-")]
    assert sorted(ours) == sorted(IDS + WFC_IDS)
    for task_id in IDS + WFC_IDS:
        ref = gymnasium.make(task_id)
        spec = envpool.make_spec(task_id)
        assert spec.config.max_steps == ref.unwrapped.max_steps, task_id
        assert spec.max_episode_steps is None and ref.spec.max_episode_steps is None


@pytest.mark.sweep
@pytest.mark.parametrize("task_id", IDS)
def test_reset_is_the_packages_for_the_same_seed(task_id: str) -> None:
    """Env i of a pool made with seed s is the package's env reset with seed s + i: the same
    level, seen the same (fewer seeds on the 16x16 grids, whose Python resets are slow)."""
    n = 8 if "16x16" in task_id else 20
    ours = envpool.make_gymnasium(task_id, num_envs=n, seed=100)
    obs, info = ours.reset()
    ref = gymnasium.make(task_id)
    for i in range(n):
        r_obs, _ = ref.reset(seed=100 + i)
        _check_obs(obs, i, r_obs, (task_id, i))
        assert tuple(info["agent_pos"][i]) == tuple(ref.unwrapped.agent_pos), (task_id, i)
    # reset(seed=...) reseeds both the same way.
    obs, _ = ours.reset(seed=5)
    _check_obs(obs, 1, ref.reset(seed=6)[0], (task_id, "reseed"))
    ours.close()


def _to_doors(env: Any, blue_first: bool) -> int:
    """RedBlueDoors' pilot: walk (in the empty room) to the red door, open it, then to the
    blue one (``blue_first``: straight to the blue one, a failure)."""
    door = env.red_door if not (env.red_door.is_open or blue_first) else env.blue_door
    dx = 1 if door is env.red_door else -1
    target = next((x + dx, y) for x in range(env.grid.width) for y in range(env.grid.height)
                  if env.grid.get(x, y) is door)
    ax, ay = (int(v) for v in env.agent_pos)
    if (ax, ay) != target:
        want = (0 if target[0] > ax else 2) if ax != target[0] else (1 if target[1] > ay else 3)
    else:
        want = 2 if dx == 1 else 0
        if env.agent_dir == want:
            return 5
    return 2 if env.agent_dir == want else 0


_DIRS = ((1, 0), (0, 1), (-1, 0), (0, -1))


def _to_objects(env: Any) -> int:
    """The pilot of the levels with keys and locked doors (DoorKey, Unlock, UnlockPickup,
    BlockedUnlockPickup, KeyCorridor, LockedRoom, ObstructedMaze) and of PutNear: by
    breadth-first search over the open squares, to the next thing to do: pick up the target
    (``env.obj``), else open a door it can open, else pick up a key or a ball (one that
    blocks a door), else open a box (a key in it); drop what it carries where that is in
    the way. PutNear: pick up the object to move, drop it next
    to the target."""
    grid, carrying = env.grid, env.carrying
    start = tuple(int(v) for v in env.agent_pos)
    cells = {(x, y): grid.get(x, y) for x in range(grid.width) for y in range(grid.height)}
    parent = {start: None}
    queue = [start]
    for pos in queue:
        for dx, dy in _DIRS:
            nxt = (pos[0] + dx, pos[1] + dy)
            c = cells.get(nxt, "out")
            if nxt not in parent and (c is None or (c != "out" and c.can_overlap()
                                                    and c.type != "lava")):
                parent[nxt] = pos
                queue.append(nxt)
    target = getattr(env, "obj", None)
    put_near = hasattr(env, "move_type")  # PutNear: the object to move, then near its target

    def wanted(c: Any) -> int | None:
        if put_near:
            if carrying is None:
                moved = c is not None and c != "out" and (c.type, c.color) == (
                    env.move_type, env.moveColor)
                return 3 if moved else None
            return None
        if c is None:
            return None
        if c is target or (c.type == "goal"):
            return 3 if c is target else 2
        if c.type == "door" and not c.is_open and (
                not c.is_locked or (carrying is not None and carrying.type == "key"
                                    and carrying.color == c.color)):
            return 5
        if carrying is None and c.type in ("key", "ball") and c is not target:
            return 3
        if carrying is None and c.type == "box" and c is not target:
            return 5  # ObstructedMaze's key in a box
        return None

    best = None
    if put_near and carrying is not None:  # a free square next to the target's
        tx, ty = env.target_pos
        for pos in queue:
            for d, (dx, dy) in enumerate(_DIRS):
                f = (pos[0] + dx, pos[1] + dy)
                if f in cells and cells[f] is None and abs(f[0] - tx) <= 1 and abs(f[1] - ty) <= 1:
                    best = best or (pos, d, 4, True)
    for pos in queue:
        for d, (dx, dy) in enumerate(_DIRS):
            c = cells.get((pos[0] + dx, pos[1] + dy))
            action = wanted(c) if c != "out" else None
            if action is not None and (best is None or (c is target) > best[3]):
                best = (pos, d, action, c is target)
        if best is not None and best[3]:
            break
    front = cells.get(tuple(int(v) for v in env.front_pos))
    if carrying is not None and carrying.type == "ball" and front is None and not put_near:
        return 4  # the ball that blocked a door
    if best is None:
        return 0
    pos, d, action, _ = best
    if carrying is not None and action == 3 and front is None:
        return 4  # drop what it carries before picking up
    if pos == start:
        return action if env.agent_dir == d else 0
    while parent[pos] != start:
        pos = parent[pos]
    step = (pos[0] - start[0], pos[1] - start[1])
    return 2 if _DIRS[env.agent_dir] == step else 0


def _check_frame(ours: Any, ref: Any, seen: dict[str, int], where: Any) -> None:
    """Our render() is the package's, bit for bit; ``seen`` counts what the frames showed:
    each object type in each state ("door 0": an open door, "door 2": a locked one) and
    what the agent carried ("carrying key")."""
    frame, r_frame = ours.render()[0], ref.render()
    assert frame.shape == r_frame.shape and frame.dtype == r_frame.dtype, where
    if not np.array_equal(frame, r_frame):
        bad = np.argwhere((frame != r_frame).any(axis=2))
        pytest.fail(f"{where}: {len(bad)} pixels differ, first (row, column) "
                    f"{tuple(bad[0])}: {frame[tuple(bad[0])]} != {r_frame[tuple(bad[0])]}")
    env = ref.unwrapped
    for c in env.grid.grid:
        if c is not None:
            key = f"{c.type} {c.encode()[2]}"
            seen[key] = seen.get(key, 0) + 1
    if env.carrying is not None:
        key = f"carrying {env.carrying.type}"
        seen[key] = seen.get(key, 0) + 1


def _lockstep(task_id: str, steps: int, seed: int, forward: float, pilot: float = 0.0,
              render: bool = False, **kwargs: Any) -> dict[str, int]:
    """``steps`` actions in lockstep with the package's env, through the episodes' ends and
    our autoresets: a pilot (RedBlueDoors', or the one of the levels with keys) with
    probability ``pilot``, forward with probability ``forward``, else uniform. ``render``:
    both made with render_mode="rgb_array", every frame compared (_check_frame)."""
    if render:
        kwargs = {**kwargs, "render_mode": "rgb_array"}
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=seed, **kwargs)
    ref = gymnasium.make(task_id, **kwargs)
    n_actions = ref.action_space.n
    obs, _ = ours.reset()
    r_obs, _ = ref.reset(seed=seed)
    _check_obs(obs, 0, r_obs, (task_id, "reset"))
    seen = {"success": 0, "failure": 0, "truncated": 0}
    if render:
        _check_frame(ours, ref, seen, (task_id, "reset"))
    rng = np.random.default_rng(seed)
    episodes = 0
    for t in range(steps):
        u = rng.random()
        if u < pilot:
            a = (_to_doors(ref.unwrapped, episodes % 3 == 2) if "RedBlue" in task_id
                 else _to_objects(ref.unwrapped))
        else:
            a = 2 if u < pilot + forward else int(rng.integers(0, n_actions))
        obs, rew, term, trunc, info = ours.step(np.array([a]))
        r_obs, r_rew, r_term, r_trunc, _ = ref.step(a)
        where = (task_id, kwargs, t)
        _check_obs(obs, 0, r_obs, where)
        assert rew[0] == np.float32(r_rew), (where, rew[0], r_rew)
        assert (term[0], trunc[0]) == (r_term, r_trunc), where
        assert tuple(info["agent_pos"][0]) == tuple(ref.unwrapped.agent_pos), where
        if render:
            _check_frame(ours, ref, seen, where)
        if r_term or r_trunc:
            seen["success" if r_rew > 0 else "truncated" if r_trunc else "failure"] += 1
            episodes += 1
            obs, *_ = ours.step(np.array([a]))  # our autoreset step
            r_obs, _ = ref.reset()
            _check_obs(obs, 0, r_obs, (where, "autoreset"))
            if render:
                _check_frame(ours, ref, seen, (where, "autoreset"))
    ours.close()
    return seen


@pytest.mark.sweep
@pytest.mark.parametrize("task_id", IDS)
def test_trajectories_match_the_package(task_id: str) -> None:
    """200 steps at the id's own max_steps, then 200 with max_steps=25 (the package's
    keyword: the truncation, and the reward's denominator)."""
    big = "16x16" in task_id or "S11" in task_id or "FourRooms" in task_id
    steps = 100 if big else 200
    _lockstep(task_id, steps, seed=3, forward=0.4)
    short = _lockstep(task_id, steps, seed=4, forward=0.4, max_steps=25)
    assert short["truncated"] or short["failure"], short


# (id, pilot, forward, max_steps, the ends each run must see): long runs on small grids.
END_CASES = [
    ("MiniGrid-Empty-5x5-v0", 0.0, 0.5, 60, ("success", "truncated")),
    ("MiniGrid-DoorKey-5x5-v0", 0.0, 0.5, 60, ("success", "truncated")),
    ("MiniGrid-LavaGapS5-v0", 0.0, 0.5, 60, ("success", "failure", "truncated")),
    ("MiniGrid-RedBlueDoors-6x6-v0", 0.5, 0.1, 60, ("success", "failure", "truncated")),
    ("MiniGrid-Dynamic-Obstacles-5x5-v0", 0.0, 0.5, 60, ("success", "failure")),
    ("MiniGrid-Unlock-v0", 0.6, 0.1, 80, ("success",)),
    ("MiniGrid-UnlockPickup-v0", 0.6, 0.1, 80, ("success", "truncated")),
    ("MiniGrid-BlockedUnlockPickup-v0", 0.6, 0.1, 80, ("success", "truncated")),
    ("MiniGrid-KeyCorridorS3R1-v0", 0.6, 0.1, 80, ("success", "truncated")),
    ("MiniGrid-GoToDoor-5x5-v0", 0.0, 0.3, 40, ("success", "failure")),
    ("MiniGrid-GoToObject-6x6-N2-v0", 0.0, 0.3, 40, ("success", "failure")),
    ("MiniGrid-Fetch-5x5-N2-v0", 0.0, 0.3, 40, ("success", "failure", "truncated")),
    ("MiniGrid-PutNear-6x6-N2-v0", 0.5, 0.1, 40, ("success", "failure", "truncated")),
    ("MiniGrid-MultiRoom-N2-S4-v0", 0.0, 0.3, 40, ("success", "truncated")),
    ("MiniGrid-MemoryS7-v0", 0.0, 0.5, 40, ("success", "failure", "truncated")),
    ("MiniGrid-LockedRoom-v0", 0.8, 0.1, 120, ("success", "truncated")),
    ("MiniGrid-ObstructedMaze-1Dlhb-v0", 0.6, 0.1, 120, ("success", "truncated")),
]


@pytest.mark.parametrize(("task_id", "pilot", "forward", "max_steps", "ends"), END_CASES)
def test_episodes_end_every_way(task_id: str, pilot: float, forward: float, max_steps: int,
                                ends: tuple[str, ...]) -> None:
    """Goals reached (positive rewards, which depend on the step count; doors unlocked,
    targets picked up, fetched, put near), failures (lava, obstacles, the blue door first,
    `done` or a pickup elsewhere) and truncations."""
    seen = _lockstep(task_id, 1000, seed=11, forward=forward, pilot=pilot,
                     max_steps=max_steps)
    assert all(seen[end] for end in ends), seen


# (id, pilot, forward, steps, max_steps, what the frames must show): render() against the
# package's, every frame (the agent in its four directions, the highlighted view).
RENDER_CASES = [
    ("MiniGrid-Empty-5x5-v0", 0.0, 0.5, 40, 20, ("goal 0", "wall 0")),
    ("MiniGrid-DoorKey-8x8-v0", 0.8, 0.1, 60, 640,
     ("door 2", "door 0", "carrying key", "key 0")),
    ("MiniGrid-FourRooms-v0", 0.0, 0.5, 15, 100, ("goal 0",)),
    ("MiniGrid-LavaGapS7-v0", 0.0, 0.5, 40, 20, ("lava 0", "goal 0")),
    ("MiniGrid-Dynamic-Obstacles-8x8-v0", 0.0, 0.5, 30, 256, ("ball 0",)),
    ("MiniGrid-KeyCorridorS3R3-v0", 0.7, 0.1, 60, 270,
     ("ball 0", "door 1", "door 2", "door 0", "carrying key")),
    ("MiniGrid-ObstructedMaze-1Dlh-v0", 0.9, 0.05, 60, 288,
     ("box 0", "key 0", "carrying key", "door 2", "door 0")),  # the key in the box
    ("MiniGrid-MultiRoom-N4-S5-v0", 0.0, 0.5, 10, 120, ("door 1",)),
    ("MiniGrid-MemoryS7-v0", 0.0, 0.5, 20, 245, ("key 0", "ball 0")),
    ("MiniGrid-PutNear-6x6-N2-v0", 0.6, 0.1, 80, 30, ("carrying key", "carrying ball",
                                                     "carrying box")),
]


@pytest.mark.parametrize(("task_id", "pilot", "forward", "steps", "max_steps", "shown"),
                         RENDER_CASES)
def test_render_is_the_packages(task_id: str, pilot: float, forward: float, steps: int,
                                max_steps: int, shown: tuple[str, ...]) -> None:
    """render_mode="rgb_array": each frame equal bit for bit to the package's
    ``render()`` (get_full_render(highlight=True, tile_size=32)), at the resets and after
    every step, with keys carried, doors unlocked and opened, boxes opened."""
    seen = _lockstep(task_id, steps, seed=7, forward=forward, pilot=pilot, render=True,
                     max_steps=max_steps)
    assert all(seen.get(what) for what in shown), seen


def test_render_env_ids() -> None:
    """render(env_ids=...): the frames of the envs named, in order; the size the grid's
    (32 pixels a square), 10 fps; a pool whose envs would draw frames of different sizes
    is refused (one without render_mode may mix them)."""
    pool = envpool.make_gymnasium("MiniGrid-DoorKey-6x6-v0", num_envs=3, seed=5,
                                  render_mode="rgb_array", env_kwargs=[{}, {"max_steps": 9}, {}])
    pool.reset()
    refs = [gymnasium.make("MiniGrid-DoorKey-6x6-v0", render_mode="rgb_array")
            for _ in range(3)]
    frames = [ref.reset(seed=5 + i) and ref.render() for i, ref in enumerate(refs)]
    assert pool.render().shape == (1, 192, 192, 3)
    assert np.array_equal(pool.render()[0], frames[0])
    assert np.array_equal(pool.render(env_ids=[2, 0]), np.stack([frames[2], frames[0]]))
    assert np.array_equal(pool.render(env_ids=1), frames[1][None])
    assert pool.metadata["render_fps"] == refs[0].metadata["render_fps"] == 10
    pool.close()
    assert envpool.make_spec("MiniGrid-DistShift1-v0",
                             render_mode="rgb_array").render_frame == (224, 288, 10.0)
    with pytest.raises(ValueError, match="frames are 160 x 160"):
        envpool.make_gymnasium("MiniGrid-Empty-5x5-v0", render_mode="rgb_array",
                               render_width=100)
    with pytest.raises(ValueError, match="frames of one size"):
        envpool.make_gymnasium("MiniGrid-Empty-5x5-v0", num_envs=2, render_mode="rgb_array",
                               env_kwargs=[{}, {"size": 6}])
    envpool.make_gymnasium("MiniGrid-Empty-5x5-v0", num_envs=2,
                           env_kwargs=[{}, {"size": 6}]).close()


# Issue 32: the package's render keywords and its observation wrappers as keywords.
WRAPPERS = {"partial": None, "full": FullyObsWrapper, "rgb_partial": RGBImgPartialObsWrapper,
            "rgb_full": RGBImgObsWrapper}


def _wrapped(task_id: str, obs_image: str, img_obs: bool, obs_tile_size: int,
             **kwargs: Any) -> gymnasium.Env:
    """The package's env under the wrapper each keyword names (the RGB wrappers at
    ``obs_tile_size``), then ImgObsWrapper with ``img_obs``."""
    env = gymnasium.make(task_id, **kwargs)
    if obs_image == "full":
        env = FullyObsWrapper(env)
    elif WRAPPERS[obs_image] is not None:
        env = WRAPPERS[obs_image](env, tile_size=obs_tile_size)
    return ImgObsWrapper(env) if img_obs else env


def _same_box(ours: gymnasium.spaces.Box, ref: gymnasium.spaces.Box, where: Any) -> None:
    assert isinstance(ours, gymnasium.spaces.Box), where
    assert (ours.shape, ours.dtype) == (ref.shape, ref.dtype), (where, ours, ref)
    assert np.array_equal(ours.low, ref.low) and np.array_equal(ours.high, ref.high), where


# (id, kwargs): a level with a key and a locked door (driven by the pilot to carry the key
# and open the door), one with lava, a BabyAI level whose reset moves an object to the
# agent's hands after making its observation, and a narrower view seeing through walls.
OBS_CASES = [("MiniGrid-DoorKey-6x6-v0", {}), ("MiniGrid-LavaGapS5-v0", {}),
             ("BabyAI-PutNextS5N2Carrying-v0", {}),
             ("MiniGrid-FourRooms-v0", {"agent_view_size": 5, "see_through_walls": True,
                                        "highlight": False})]


@pytest.mark.parametrize(("task_id", "kwargs"), OBS_CASES)
def test_observation_keywords_are_the_wrappers(task_id: str, kwargs: dict[str, Any]) -> None:
    """obs_image ("partial", "full", "rgb_partial", "rgb_full") and img_obs, each
    combination (the RGB ones at obs_tile_size 8, the wrappers' default, and 5): the spaces
    are the wrapped package env's, and every observation of two seeds' random trajectories
    (through the episodes' ends and autoresets) is the wrapped env's, bit for bit."""
    combos = [(mode, img, ts) for mode in WRAPPERS for img in (False, True)
              for ts in ((8, 5) if mode.startswith("rgb") else (8,))]
    carried = 0
    for seed in (3, 8):
        pools, refs = [], []
        for mode, img, ts in combos:
            pool = envpool.make_gymnasium(task_id, num_envs=1, seed=seed, obs_image=mode,
                                          img_obs=img, obs_tile_size=ts, **kwargs)
            ref = _wrapped(task_id, mode, img, ts, **kwargs)
            where = (task_id, mode, img, ts)
            if img:
                _same_box(pool.observation_space, ref.observation_space, where)
            else:
                _same_box(pool.observation_space["image"], ref.observation_space["image"],
                          where)
            pools.append(pool)
            refs.append(ref)
        obs = [p.reset()[0] for p in pools]
        r_obs = [r.reset(seed=seed)[0] for r in refs]
        rng = np.random.default_rng(seed)
        for t in range(31):
            for (mode, img, ts), o, r in zip(combos, obs, r_obs, strict=True):
                where = (task_id, seed, mode, img, ts, t)
                if img:
                    assert np.array_equal(o[0], r), where
                else:
                    _check_obs(o, 0, r, where)
            env = refs[0].unwrapped
            carried += env.carrying is not None
            a = (_to_objects(env) if "DoorKey" in task_id and rng.random() < 0.7
                 else int(rng.integers(0, refs[0].action_space.n)))
            steps = [p.step(np.array([a])) for p in pools]
            r_steps = [r.step(a) for r in refs]
            obs = [st[0] for st in steps]
            r_obs = [st[0] for st in r_steps]
            if r_steps[0][2] or r_steps[0][3]:
                obs = [p.step(np.array([a]))[0] for p in pools]  # our autoreset step
                r_obs = [r.reset()[0] for r in refs]
        for p in pools:
            p.close()
    if "DoorKey" in task_id or "Carrying" in task_id:
        assert carried, "the trajectories never carried anything"


@pytest.mark.parametrize(("task_id", "kwargs"), [
    ("MiniGrid-DoorKey-6x6-v0", {"tile_size": 8}),
    ("MiniGrid-DoorKey-6x6-v0", {"highlight": False, "tile_size": 12}),
    ("MiniGrid-LavaGapS5-v0", {"agent_pov": True, "tile_size": 10}),
    ("BabyAI-PutNextS5N2Carrying-v0", {"agent_pov": True, "tile_size": 7}),
    ("BabyAI-PutNextS5N2Carrying-v0", {"highlight": False, "tile_size": 5}),
])
def test_render_keywords_are_the_packages(task_id: str, kwargs: dict[str, Any]) -> None:
    """tile_size, highlight and agent_pov: every frame of a short trajectory equal to the
    package's ``render()`` of an env made with the same arguments, bit for bit."""
    pilot = 0.7 if "DoorKey" in task_id else 0.0
    _lockstep(task_id, 25, seed=7, forward=0.3, pilot=pilot, render=True, **kwargs)
    spec = envpool.make_spec(task_id, render_mode="rgb_array", **kwargs)
    ref = gymnasium.make(task_id, render_mode="rgb_array", **kwargs)
    ref.reset(seed=0)
    assert spec.render_frame[:2] == ref.render().shape[:2]


def test_keywords_match_the_package() -> None:
    """agent_view_size (the image's shape) and see_through_walls, against the package."""
    for task_id, kwargs in (("MiniGrid-DoorKey-8x8-v0", {"agent_view_size": 5}),
                            ("MiniGrid-FourRooms-v0", {"agent_view_size": 9}),
                            ("MiniGrid-DoorKey-6x6-v0", {"see_through_walls": True}),
                            ("MiniGrid-FourRooms-v0", {"see_through_walls": True})):
        _lockstep(task_id, 150, seed=5, forward=0.4, **kwargs)
    pool = envpool.make_gymnasium("MiniGrid-DoorKey-8x8-v0", agent_view_size=5)
    assert pool.observation_space["image"].shape == (5, 5, 3)


def test_per_env_keywords() -> None:
    """size and max_steps may differ between the envs of one pool."""
    kwargs = [{"size": 5, "max_steps": 30}, {"size": 7, "max_steps": 500}]
    pool = envpool.make_gymnasium("MiniGrid-DoorKey-6x6-v0", num_envs=2, seed=9,
                                  env_kwargs=kwargs)
    obs, _ = pool.reset()
    refs = [gymnasium.make("MiniGrid-DoorKey-6x6-v0", **kw) for kw in kwargs]
    for i, ref in enumerate(refs):
        _check_obs(obs, i, ref.reset(seed=9 + i)[0], i)
    for t in range(400):  # past the registered 360 steps: each env's own max_steps
        obs, rew, term, trunc, _ = pool.step(np.array([0, 1]))
        for i, ref in enumerate(refs):
            if t < 30 or i == 1:
                r_obs, _, r_term, r_trunc, _ = ref.step(i)
                _check_obs(obs, i, r_obs, (i, t))
                assert (term[i], trunc[i]) == (r_term, r_trunc), (i, t)
    pool.close()


def test_bad_keywords() -> None:
    with pytest.raises(ValueError, match="agent_view_size"):
        envpool.make_gymnasium("MiniGrid-Empty-8x8-v0", agent_view_size=4)
    with pytest.raises(ValueError, match="obstacle_type"):
        envpool.make_gymnasium("MiniGrid-LavaGapS5-v0", obstacle_type="water")
    with pytest.raises(ValueError, match="odd"):
        envpool.make_gymnasium("MiniGrid-LavaCrossingS9N1-v0", size=10)
    with pytest.raises(ValueError, match="odd"):
        envpool.make_gymnasium("MiniGrid-MemoryS7-v0", size=8)
    with pytest.raises(ValueError, match="num_quarters"):
        envpool.make_gymnasium("MiniGrid-ObstructedMaze-Full-v0", num_quarters=5)
    with pytest.raises(ValueError, match="num_objs"):
        envpool.make_gymnasium("MiniGrid-PutNear-6x6-N2-v0", num_objs=1)
    with pytest.raises(ValueError, match="env_name"):
        envpool.make_gymnasium("MiniGrid-Empty-8x8-v0", env_name="no_such_level")
    for bad in ({"tile_size": 0}, {"obs_tile_size": 0}, {"obs_image": "pixels"}):
        with pytest.raises(ValueError, match=next(iter(bad))):
            envpool.make_gymnasium("MiniGrid-Empty-8x8-v0", **bad)
    # The whole grid observed: its size is the image's shape, the same in every env.
    with pytest.raises(ValueError, match="size would change the spaces"):
        envpool.make_gymnasium("MiniGrid-Empty-5x5-v0", num_envs=2, obs_image="full",
                               env_kwargs=[{}, {"size": 6}])


def test_threads_do_not_matter() -> None:
    runs = []
    for threads in (1, 3):
        pool = envpool.make_gymnasium("MiniGrid-Dynamic-Obstacles-8x8-v0", num_envs=6,
                                      seed=2, num_threads=threads)
        images = [pool.reset()[0]["image"]]
        for a in np.random.default_rng(0).integers(0, 3, (100, 6)):
            images.append(pool.step(a)[0]["image"])
        pool.close()
        runs.append(np.stack(images))
    assert np.array_equal(runs[0], runs[1])


def test_mission_tokens() -> None:
    """The vocabulary is native/envs/minigrid/mission.h's; words outside it are <unk>."""
    assert len(VOCABULARY) == 59 and VOCABULARY[:3] == ("<pad>", "<unk>", ",")
    pool = envpool.make_gymnasium("MiniGrid-DoorKey-5x5-v0")
    obs, _ = pool.reset()
    tokens = obs["mission_tokens"][0]
    words = "use the key to open the door and then get to the goal".split()
    assert [VOCABULARY[t] for t in tokens[: len(words)]] == words
    assert not tokens[len(words):].any()
    assert pool.observation_space["mission_tokens"].high.max() == len(VOCABULARY) - 1


def test_numpy_generator_parity() -> None:
    """numpy_random.h against numpy's Generator, for the calls the levels make, mixed so
    that the 32-bit halves numpy keeps between calls matter: integers over ranges of one
    value (no draw), small ones, and up to 2^32; uniform; shuffle of lists (Fisher-Yates
    with masked draws); choice of a range (integers(0, len))."""
    for seed in range(40):
        plan = np.random.default_rng(1000 + seed)
        calls: list[tuple[str, float, float]] = []
        expected: list[float] = []
        ref = np.random.default_rng(seed)
        for _ in range(60):
            kind = int(plan.integers(0, 5))
            if kind == 0:
                low = int(plan.integers(-5, 20))
                high = low + int(plan.choice([1, 1, 2, 3, 4, 7, 19, 1000, 2**31 + 3, 2**32]))
                calls.append(("integers", low, high))
                expected.append(float(ref.integers(low, high)))
            elif kind == 1:
                calls.append(("uniform", -2.0, 3.5))
                expected.append(ref.uniform(-2.0, 3.5))
            elif kind == 2:
                n = int(plan.integers(0, 12))
                calls.append(("shuffle", n, 0))
                x = list(range(n))
                ref.shuffle(x)
                expected.extend(float(v) for v in x)
            elif kind == 3:
                low = int(plan.integers(0, 10))
                high = low + int(plan.integers(1, 9))
                calls.append(("integers", 0, high - low))  # choice(range(low, high))
                expected.append(float(ref.choice(range(low, high)) - low))
            else:
                calls.append(("integers", 0, 2))  # _rand_bool
                expected.append(float(ref.integers(0, 2)))
        assert _native._numpy_generator_draws(seed, calls) == expected, seed


# -- the direction's space and sail-sg EnvPool's debug hook _debug_states ------------------

DEBUG_IDS = ["MiniGrid-DoorKey-8x8-v0", "MiniGrid-KeyCorridorS3R3-v0",
             "MiniGrid-ObstructedMaze-2Dlhb-v1", "BabyAI-GoToObj-v0", "BabyAI-BossLevel-v0",
             "BabyAI-PutNextS5N2Carrying-v0"]


@pytest.mark.parametrize("task_id", ["MiniGrid-Empty-5x5-v0", "BabyAI-GoToObj-v0"])
def test_direction_space_is_the_packages(task_id: str) -> None:
    """obs["direction"]: the package's space, Discrete(4) of int64, over int32 arrays (sail-sg
    EnvPool's, which jax keeps without x64); the space holds every value."""
    ref_space = gymnasium.make(task_id).observation_space["direction"]
    env = envpool.make_gymnasium(task_id, num_envs=2, seed=0)
    space = env.single_observation_space["direction"]
    assert (space, space.dtype) == (ref_space, ref_space.dtype) == (
        gymnasium.spaces.Discrete(4), np.dtype(np.int64))
    assert env.spec.native_spec["obs"][0]["dtype"] == "int32"
    obs, _ = env.reset()
    assert obs["direction"].dtype == np.int32 and obs["direction"].shape == (2,)
    assert all(space.contains(d) for d in obs["direction"])
    assert env.single_observation_space.contains({k: v[0] for k, v in obs.items()})
    env.close()


def _rebuilt_package_env(task_id: str, state: Any) -> Any:
    """The package's env with its world replaced by a debug state's (as sail-sg EnvPool's
    tests do it): grid, box contents, agent, carried object, mission."""
    from minigrid.core.grid import Grid
    from minigrid.core.world_object import WorldObj

    ref = gymnasium.make(task_id, render_mode="rgb_array")
    ref.reset(seed=0)
    u = ref.unwrapped
    grid = Grid(state.width, state.height)
    cells = state.grid.reshape(state.width, state.height, 3)
    contains = state.grid_contains.reshape(state.width, state.height, 3)
    for x in range(state.width):
        for y in range(state.height):
            obj = WorldObj.decode(*(int(v) for v in cells[x, y]))
            if obj is not None:
                obj.contains = WorldObj.decode(*(int(v) for v in contains[x, y]))
                obj.cur_pos = (x, y)
            grid.set(x, y, obj)
    u.grid = grid
    u.agent_pos = tuple(int(v) for v in state.agent_pos)
    u.agent_dir = state.agent_dir
    u.mission = state.mission
    u.step_count = state.step_count
    u.carrying = None
    if state.has_carrying:
        u.carrying = WorldObj.decode(state.carrying_type, state.carrying_color,
                                     state.carrying_state)
        if state.carrying_has_contains:
            u.carrying.contains = WorldObj.decode(state.carrying_contains_type,
                                                  state.carrying_contains_color, 0)
    return ref


@pytest.mark.parametrize("task_id", DEBUG_IDS)
def test_debug_states_rebuild_the_packages_env(task_id: str) -> None:
    """``_debug_states(env_ids)`` (sail-sg EnvPool's debug hook of these pools) gives each
    env's world: the package's env given that world draws our frame and makes our
    observation, at the reset and after steps (pick-ups and carrying included), for envs
    in any order; the target is the level's named object, in the grid or carried."""
    env = envpool.make_gymnasium(task_id, num_envs=2, seed=3, render_mode="rgb_array")
    obs, info = env.reset()
    rng = np.random.default_rng(0)
    for _ in range(12):
        states = env._debug_states(np.array([1, 0], dtype=np.int32))
        assert [s.env_name for s in states] == [env.spec.env_config["env_name"]] * 2
        for row, state in zip((1, 0), states, strict=True):
            assert state.mission == decode_mission(obs["mission"][row])
            assert tuple(state.agent_pos) == tuple(info["agent_pos"][row])
            assert state.agent_dir == obs["direction"][row]
            assert state.step_count == info["elapsed_step"][row]
            assert state.max_steps >= 1
            ref = _rebuilt_package_env(task_id, state)
            frame = ref.unwrapped.get_frame(highlight=True, tile_size=32, agent_pov=False)
            np.testing.assert_array_equal(env.render(env_ids=[row])[0], frame)
            if state.step_count > 0:  # (PutNext*Carrying observes its reset before the pickup)
                np.testing.assert_array_equal(obs["image"][row],
                                              ref.unwrapped.gen_obs()["image"])
            if state.target_type >= 0 and state.target_pos[0] >= 0:
                target = ref.unwrapped.grid.get(*(int(v) for v in state.target_pos))
                assert target is not None and target.encode()[:2] == (
                    state.target_type, state.target_color)
            ref.close()
        obs, _, _, _, info = env.step(rng.integers(0, 6, size=2).astype(np.int32))
    env.close()


def test_debug_states_only_on_minigrid_pools() -> None:
    env = envpool.make_gymnasium("CartPole-v1", num_envs=1)
    assert not hasattr(env, "_debug_states")
    env.close()
