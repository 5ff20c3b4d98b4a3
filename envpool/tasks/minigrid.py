"""MiniGrid task ids: the ``minigrid`` package's (3.2.0) ids, sail-sg EnvPool's names.

One native env, ``MiniGrid`` (native/envs/minigrid/), whose ``env_name`` keyword picks the
level. Each id fixes the package's constructor arguments as keywords (``size``,
``num_crossings``, ...) and its ``max_steps``. As in the package, the env truncates its
episodes itself at ``max_steps`` (the package's ids have no gymnasium TimeLimit), so the ids
set no ``max_episode_steps``: ``max_steps`` may differ per env, and a pool's
``max_episode_steps`` stays an extra limit. docs/minigrid.md lists the ids, the keywords and
the observations.
"""

from __future__ import annotations

import os
import types
from typing import Any

import numpy as np

from envpool import _native
from envpool.core.registry import register
from envpool.tasks._installed import package_path

# Keywords that change no space may differ between the envs of one pool (make's
# env_kwargs); agent_view_size (the image's shape) and env_name (the action space) may not.
_PER_ENV = ("size", "width", "height", "max_steps", "see_through_walls", "agent_start_pos",
            "agent_start_dir", "num_crossings", "obstacle_type", "strip2_row", "n_obstacles",
            "room_size", "num_rows", "obj_type", "num_objs", "min_num_rooms", "max_num_rooms",
            "max_room_size", "random_length", "key_in_box", "blocked", "agent_room",
            "num_quarters", "num_cols", "num_dists", "doors_open", "debug", "select_by",
            "first_color", "second_color", "num_doors", "objs_per_room", "start_carrying",
            "distractors", "ensure_connected")
_RANDOM_START = {"agent_start_pos": (-1, -1), "agent_start_dir": -1}


def debug_states(pool: Any, env_ids: Any) -> list[types.SimpleNamespace]:
    """The worlds of the envs ``env_ids`` (none in flight), read from the native env
    (``get_state``): sail-sg EnvPool's debug hook ``_debug_states`` of its MiniGrid and
    BabyAI pools, which its tests use to put the package's env in the same state. Each is a
    namespace of: ``env_name`` (the level), ``width``, ``height``, ``grid`` and
    ``grid_contains`` (uint8, width x height x 3 flattened with x first: each square's
    ``WorldObj.encode`` and its box's content, ``(1, 0, 0)`` for none), ``agent_pos``,
    ``agent_dir``, ``step_count``, ``max_steps``, ``mission``, the carried object
    (``has_carrying``, ``carrying_type`` / ``_color`` / ``_state``,
    ``carrying_has_contains``, ``carrying_contains_type`` / ``_color`` / ``_state``) and the
    level's target object, the one its mission names (``target_pos``, ``(-1, -1)`` when
    carried or absent; ``target_type``, ``target_color``, -1 when absent)."""
    env_name = str(pool.spec.env_config.get("env_name", ""))
    states = []
    for env_id in np.asarray(env_ids, dtype=np.int64).reshape(-1):
        s = np.asarray(pool.get_state(int(env_id)), dtype=np.float64).astype(np.int64)
        width, height = int(s[0]), int(s[1])
        cells = width * height * 3
        grid_at = 16  # 7 numbers of the agent, 5 of the carried object, 4 of the target
        mission_at = grid_at + 2 * cells
        mission_len = int(s[mission_at])
        mission = bytes(s[mission_at + 1:mission_at + 1 + mission_len].astype(np.uint8))
        carrying = [int(v) for v in s[7:12]]
        states.append(types.SimpleNamespace(
            env_name=env_name, width=width, height=height,
            agent_pos=s[2:4].astype(np.int32), agent_dir=int(s[4]), step_count=int(s[5]),
            max_steps=int(s[6]),
            has_carrying=carrying[0] != _EMPTY, carrying_type=carrying[0],
            carrying_color=carrying[1], carrying_state=carrying[2],
            carrying_has_contains=carrying[0] != _EMPTY and carrying[3] != _EMPTY,
            carrying_contains_type=carrying[3], carrying_contains_color=carrying[4],
            carrying_contains_state=0,
            target_pos=s[12:14].astype(np.int32), target_type=int(s[14]),
            target_color=int(s[15]),
            grid=s[grid_at:grid_at + cells].astype(np.uint8),
            grid_contains=s[grid_at + cells:mission_at].astype(np.uint8),
            mission=mission.decode("utf-8")))
    return states


_EMPTY = 1  # OBJECT_TO_IDX["empty"]: no object


def _register(task_id: str, max_steps: int, **kwargs: Any) -> None:
    register(task_id, "MiniGrid", max_steps=max_steps, per_env_kwargs=_PER_ENV,
             pool_methods={"_debug_states": debug_states},
             space_dtypes={"direction": "int64"}, **kwargs)


def decode_mission(mission: np.ndarray) -> Any:
    """The mission text of obs["mission"] (its zero-padded bytes): a str for one row, an
    object array of str for a batch (sail-sg EnvPool's ``envpool.minigrid.decode_mission``)."""
    arr = np.asarray(mission, dtype=np.uint8)
    if arr.ndim == 1:
        return arr.tobytes().rstrip(b"\0").decode("utf-8")
    return np.asarray([decode_mission(row) for row in arr], dtype=object)


# The words of obs["mission_tokens"], by token id: the native env's own vocabulary
# (native/envs/minigrid/mission.h's kVocabulary), as envpool._native exports it.
VOCABULARY: tuple[str, ...] = tuple(_native.minigrid_vocabulary)


def decode_tokens(tokens: np.ndarray) -> str:
    """The mission text of one row of obs["mission_tokens"]."""
    words = [VOCABULARY[int(t)] for t in np.asarray(tokens) if t != 0]
    return " ".join(words).replace(" ,", ",")


# The package's see_through_walls for the levels that fix it (the others: False).
_SEE = {"see_through_walls": True}

for _size in (5, 6, 8, 16):
    _register(f"MiniGrid-Empty-{_size}x{_size}-v0", 4 * _size**2, env_name="empty",
              size=_size, **_SEE)
for _size in (5, 6):
    _register(f"MiniGrid-Empty-Random-{_size}x{_size}-v0", 4 * _size**2, env_name="empty",
              size=_size, **_SEE, **_RANDOM_START)
for _size in (5, 6, 8, 16):
    _register(f"MiniGrid-DoorKey-{_size}x{_size}-v0", 10 * _size**2, env_name="doorkey",
              size=_size)
_register("MiniGrid-FourRooms-v0", 100, env_name="four_rooms", size=19)
for _size in (5, 6, 7):
    _register(f"MiniGrid-LavaGapS{_size}-v0", 4 * _size**2, env_name="lava_gap", size=_size,
              obstacle_type="lava")
for _name, _obstacle in (("LavaCrossing", "lava"), ("SimpleCrossing", "wall")):
    for _size, _n in ((9, 1), (9, 2), (9, 3), (11, 5)):
        _register(f"MiniGrid-{_name}S{_size}N{_n}-v0", 4 * _size**2, env_name="crossing",
                  size=_size, num_crossings=_n, obstacle_type=_obstacle)
for _task_id, _row in (("MiniGrid-DistShift1-v0", 2), ("MiniGrid-DistShift2-v0", 5)):
    _register(_task_id, 4 * 9 * 7, env_name="distshift", width=9, height=7, strip2_row=_row,
              **_SEE)
for _size in (6, 8):
    _register(f"MiniGrid-RedBlueDoors-{_size}x{_size}-v0", 20 * _size**2,
              env_name="red_blue_door", size=_size)
for _task_id, _size, _n, _random in (
        ("MiniGrid-Dynamic-Obstacles-5x5-v0", 5, 2, False),
        ("MiniGrid-Dynamic-Obstacles-Random-5x5-v0", 5, 2, True),
        ("MiniGrid-Dynamic-Obstacles-6x6-v0", 6, 3, False),
        ("MiniGrid-Dynamic-Obstacles-Random-6x6-v0", 6, 3, True),
        ("MiniGrid-Dynamic-Obstacles-8x8-v0", 8, 4, False),
        ("MiniGrid-Dynamic-Obstacles-16x16-v0", 16, 8, False)):
    _register(_task_id, 4 * _size**2, env_name="dynamic_obstacles", size=_size,
              n_obstacles=_n, **_SEE, **(_RANDOM_START if _random else {}))
for _task_id, _name, _max_steps in (
        ("MiniGrid-Unlock-v0", "unlock", 8 * 6**2),
        ("MiniGrid-UnlockPickup-v0", "unlock_pickup", 8 * 6**2),
        ("MiniGrid-BlockedUnlockPickup-v0", "blocked_unlock_pickup", 16 * 6**2)):
    _register(_task_id, _max_steps, env_name=_name)
for _room_size, _num_rows in ((3, 1), (3, 2), (3, 3), (4, 3), (5, 3), (6, 3)):
    _register(f"MiniGrid-KeyCorridorS{_room_size}R{_num_rows}-v0", 30 * _room_size**2,
              env_name="key_corridor", room_size=_room_size, num_rows=_num_rows,
              obj_type="ball")
for _size in (5, 6, 8):
    _register(f"MiniGrid-GoToDoor-{_size}x{_size}-v0", 4 * _size**2, env_name="goto_door",
              size=_size, **_SEE)
for _size, _n in ((6, 2), (8, 2)):
    _register(f"MiniGrid-GoToObject-{_size}x{_size}-N{_n}-v0", 5 * _size**2,
              env_name="goto_object", size=_size, num_objs=_n, **_SEE)
for _size, _n in ((5, 2), (6, 2), (8, 3)):
    _register(f"MiniGrid-Fetch-{_size}x{_size}-N{_n}-v0", 5 * _size**2, env_name="fetch",
              size=_size, num_objs=_n, **_SEE)
for _size, _n in ((6, 2), (8, 3)):
    _register(f"MiniGrid-PutNear-{_size}x{_size}-N{_n}-v0", 5 * _size, env_name="put_near",
              size=_size, num_objs=_n, **_SEE)
# MultiRoom-N4-S5-v0 has six rooms, as the package's (its v1 has four).
for _task_id, _min, _max, _size in (("MiniGrid-MultiRoom-N2-S4-v0", 2, 2, 4),
                                    ("MiniGrid-MultiRoom-N4-S5-v0", 6, 6, 5),
                                    ("MiniGrid-MultiRoom-N4-S5-v1", 4, 4, 5),
                                    ("MiniGrid-MultiRoom-N6-v0", 6, 6, 10)):
    _register(_task_id, _max * 20, env_name="multi_room", min_num_rooms=_min,
              max_num_rooms=_max, max_room_size=_size)
for _size, _random in ((17, True), (13, True), (13, False), (11, False), (9, False),
                       (7, False)):
    _register(f"MiniGrid-MemoryS{_size}{'Random' if _random else ''}-v0", 5 * _size**2,
              env_name="memory", size=_size, random_length=_random)
_register("MiniGrid-LockedRoom-v0", 10 * 19, env_name="locked_room", size=19)
_register("MiniGrid-Playground-v0", 100, env_name="playground")
# (id, level, key_in_box, blocked, agent_room, num_quarters, num_rooms_visited)
for _task_id, _name, _box, _blocked, _room, _quarters, _visited in (
        ("MiniGrid-ObstructedMaze-1Dl-v0", "obstructed_maze_1dlhb", False, False, (0, 0), 1, 2),
        ("MiniGrid-ObstructedMaze-1Dlh-v0", "obstructed_maze_1dlhb", True, False, (0, 0), 1, 2),
        ("MiniGrid-ObstructedMaze-1Dlhb-v0", "obstructed_maze_1dlhb", True, True, (0, 0), 1, 2),
        ("MiniGrid-ObstructedMaze-2Dl-v0", "obstructed_maze_full", False, False, (2, 1), 1, 4),
        ("MiniGrid-ObstructedMaze-2Dlh-v0", "obstructed_maze_full", True, False, (2, 1), 1, 4),
        ("MiniGrid-ObstructedMaze-2Dlhb-v0", "obstructed_maze_full", True, True, (2, 1), 1, 4),
        ("MiniGrid-ObstructedMaze-1Q-v0", "obstructed_maze_full", True, True, (1, 1), 1, 5),
        ("MiniGrid-ObstructedMaze-2Q-v0", "obstructed_maze_full", True, True, (2, 1), 2, 11),
        ("MiniGrid-ObstructedMaze-Full-v0", "obstructed_maze_full", True, True, (1, 1), 4, 25),
        ("MiniGrid-ObstructedMaze-2Dlhb-v1", "obstructed_maze_full_v1", True, True, (2, 1), 1,
         4),
        ("MiniGrid-ObstructedMaze-1Q-v1", "obstructed_maze_full_v1", True, True, (1, 1), 1, 5),
        ("MiniGrid-ObstructedMaze-2Q-v1", "obstructed_maze_full_v1", True, True, (2, 1), 2, 11),
        ("MiniGrid-ObstructedMaze-Full-v1", "obstructed_maze_full_v1", True, True, (1, 1), 4,
         25)):
    _register(_task_id, 4 * _visited * 6**2, env_name=_name, key_in_box=_box, blocked=_blocked,
              agent_room=_room, num_quarters=_quarters, num_rooms_visited=_visited)


# BabyAI (minigrid/envs/babyai/, the package's BabyAI-* ids): the levels of
# native/envs/minigrid/babyai_levels.h, env_name "babyai_<level>", the package classes'
# arguments as keywords. max_steps=0 is the package's None: the level's own default, or,
# where the class has none, num_navs_needed(instrs) * room_size^2 * num_rows * num_cols
# computed at each reset.
_BABYAI_DEFAULTS = {"room_size": 8, "num_rows": 3, "num_cols": 3, "num_dists": 18}


def _register_babyai(task_id: str, level: str, **kwargs: Any) -> None:
    _register(f"BabyAI-{task_id}", 0, env_name=f"babyai_{level}",
              **{**_BABYAI_DEFAULTS, **kwargs})


_register_babyai("GoToRedBallGrey-v0", "goto_red_ball_grey", num_dists=7)
_register_babyai("GoToRedBall-v0", "goto_red_ball", num_dists=7)
_register_babyai("GoToRedBallNoDists-v0", "goto_red_ball", num_dists=0)
_register_babyai("GoToObj-v0", "goto_obj")
_register_babyai("GoToObjS4-v0", "goto_obj", room_size=4)
_register_babyai("GoToObjS6-v1", "goto_obj", room_size=6)
_register_babyai("GoToLocal-v0", "goto_local", num_dists=8)
for _size, _n in ((5, 2), (6, 2), (6, 3), (6, 4), (7, 4), (7, 5), (8, 2), (8, 3), (8, 4),
                  (8, 5), (8, 6), (8, 7)):
    _register_babyai(f"GoToLocalS{_size}N{_n}-v0", "goto_local", room_size=_size, num_dists=_n)
_register_babyai("GoTo-v0", "goto")
_register_babyai("GoToOpen-v0", "goto", doors_open=True)
_register_babyai("GoToObjMaze-v0", "goto", num_dists=1)
_register_babyai("GoToObjMazeOpen-v0", "goto", num_dists=1, doors_open=True)
_register_babyai("GoToObjMazeS4R2-v0", "goto", num_dists=1, room_size=4, num_rows=2,
                 num_cols=2)
for _size in (4, 5, 6, 7):
    _register_babyai(f"GoToObjMazeS{_size}-v0", "goto", num_dists=1, room_size=_size)
_register_babyai("GoToImpUnlock-v0", "goto_imp_unlock")
_register_babyai("GoToSeq-v0", "goto_seq")
_register_babyai("GoToSeqS5R2-v0", "goto_seq", room_size=5, num_rows=2, num_cols=2,
                 num_dists=4)
_register_babyai("GoToRedBlueBall-v0", "goto_red_blue_ball", num_dists=7)
_register_babyai("GoToDoor-v0", "goto_door")
_register_babyai("GoToObjDoor-v0", "goto_obj_door")
_register_babyai("Open-v0", "open")
_register_babyai("OpenRedDoor-v0", "open_red_door")
_register_babyai("OpenDoor-v0", "open_door")
_register_babyai("OpenDoorDebug-v0", "open_door", debug=True)
_register_babyai("OpenDoorColor-v0", "open_door", select_by="color")
_register_babyai("OpenDoorLoc-v0", "open_door", select_by="loc")
_register_babyai("OpenTwoDoors-v0", "open_two_doors")
_register_babyai("OpenRedBlueDoors-v0", "open_two_doors", first_color="red",
                 second_color="blue")
_register_babyai("OpenRedBlueDoorsDebug-v0", "open_two_doors", first_color="red",
                 second_color="blue", debug=True)
for _n in (2, 4):
    _register_babyai(f"OpenDoorsOrderN{_n}-v0", "open_doors_order", num_doors=_n)
    _register_babyai(f"OpenDoorsOrderN{_n}Debug-v0", "open_doors_order", num_doors=_n,
                     debug=True)
_register_babyai("Pickup-v0", "pickup")
_register_babyai("UnblockPickup-v0", "unblock_pickup")
_register_babyai("PickupLoc-v0", "pickup_loc")
_register_babyai("PickupDist-v0", "pickup_dist")
_register_babyai("PickupDistDebug-v0", "pickup_dist", debug=True)
_register_babyai("PickupAbove-v0", "pickup_above")
_register_babyai("PutNextLocal-v0", "put_next_local", num_objs=8)
_register_babyai("PutNextLocalS5N3-v0", "put_next_local", room_size=5, num_objs=3)
_register_babyai("PutNextLocalS6N4-v0", "put_next_local", room_size=6, num_objs=4)
for _size, _n in ((4, 1), (5, 2), (5, 1), (6, 3), (7, 4)):
    _register_babyai(f"PutNextS{_size}N{_n}-v0", "put_next", room_size=_size, objs_per_room=_n)
for _size, _n in ((5, 2), (6, 3), (7, 4)):
    _register_babyai(f"PutNextS{_size}N{_n}Carrying-v0", "put_next", room_size=_size,
                     objs_per_room=_n, start_carrying=True)
_register_babyai("Unlock-v0", "unlock")
_register_babyai("UnlockLocal-v0", "unlock_local")
_register_babyai("UnlockLocalDist-v0", "unlock_local", distractors=True)
_register_babyai("KeyInBox-v0", "key_in_box")
_register_babyai("UnlockPickup-v0", "unlock_pickup")
_register_babyai("UnlockPickupDist-v0", "unlock_pickup", distractors=True)
_register_babyai("BlockedUnlockPickup-v0", "blocked_unlock_pickup")
_register_babyai("UnlockToUnlock-v0", "unlock_to_unlock")
_register_babyai("ActionObjDoor-v0", "action_obj_door")
for _size in (5, 6, 7):
    _register_babyai(f"FindObjS{_size}-v0", "find_obj", room_size=_size)
_register_babyai("KeyCorridor-v0", "key_corridor", room_size=6, obj_type="ball")
for _size, _rows in ((3, 1), (3, 2), (3, 3), (4, 3), (5, 3), (6, 3)):
    _register_babyai(f"KeyCorridorS{_size}R{_rows}-v0", "key_corridor", room_size=_size,
                     num_rows=_rows, obj_type="ball")
for _size in (8, 12, 16, 20):
    _register_babyai(f"OneRoomS{_size}-v0", "one_room", room_size=_size)
for _size, _n in ((5, 2), (8, 9)):
    _register_babyai(f"MoveTwoAcrossS{_size}N{_n}-v0", "move_two_across", room_size=_size,
                     objs_per_room=_n)
_register_babyai("Synth-v0", "synth")
_register_babyai("SynthS5R2-v0", "synth", room_size=5, num_rows=2)
_register_babyai("SynthLoc-v0", "synth_loc")
_register_babyai("SynthSeq-v0", "synth_seq")
_register_babyai("MiniBossLevel-v0", "mini_boss_level")
_register_babyai("BossLevel-v0", "boss_level")
_register_babyai("BossLevelNoUnlock-v0", "boss_level_no_unlock")


# The wave-function-collapse levels (minigrid/envs/wfc/): the package's six registered
# presets, by name: (template file, pattern_width, input_periodic = output_periodic).
WFC_PRESETS: dict[str, tuple[str, int, bool]] = {
    "MazeSimple": ("SimpleMaze.png", 2, False),
    "DungeonMazeScaled": ("ScaledMaze.png", 2, True),
    "RoomsFabric": ("Fabric.png", 3, False),
    "ObstaclesBlackdots": ("Blackdots.png", 2, False),
    "ObstaclesAngular": ("Angular.png", 3, True),
    "ObstaclesHogs3": ("Hogs.png", 3, True),
}
# The templates' folder in the installed package (minigrid/envs/wfc/config.py's PATTERN_PATH).
WFC_PATTERN_DIR = package_path("minigrid", "envs", "wfc", "patterns")


def _wfc_hash(a: np.ndarray, rank: int) -> np.ndarray:
    """The package's content hash of the sub-arrays below the first ``rank`` axes (its
    wfclogic/utilities.py hash_downto): the dot product, in wrapping int64, with int64
    weights drawn by RandomState(0). Patterns are numbered in the order of these hashes."""
    lead = a.shape[:rank]
    flat = a.reshape((int(np.prod(lead, dtype=np.int64)), -1))
    weights = np.random.RandomState(0).randint(1 - (1 << 63), 1 << 63, flat.shape[1],
                                               dtype=np.int64)
    return np.asarray(np.inner(flat, weights).reshape(lead), dtype=np.int64)


def wfc_pattern_set(image: np.ndarray, pattern_width: int, periodic: bool) -> list[float]:
    """The native keyword ``_wfc_patterns`` for a template (its RGB pixels): the patterns
    (every pattern_width-square window of the template, wrapped at its edges, in each of
    the 8 rotations and reflections), numbered by hash; each one's weight (the number of
    those 8 transforms it appears in), whether its corner square is a wall (red 0), and
    which patterns may lie next to it in each of the 4 directions (their overlaps agree).
    Layout: [N, periodic, weights, walls, adjacency[4][N][N]]."""
    k = pattern_width
    img = np.asarray(image)[:, :, :3]
    tiles = _wfc_hash(img.reshape(img.shape[0], img.shape[1], 1, 1, 3), 2)
    colour = {int(code): img[i, j] for (i, j), code in np.ndenumerate(tiles)}
    contents: dict[int, np.ndarray] = {}
    weight: dict[int, int] = {}
    grid = tiles
    transforms = (None, "flip", "rot", "flip", "rot", "flip", "rot", "flip")
    for op in transforms:
        if op == "flip":
            grid = np.fliplr(grid)
        elif op == "rot":
            grid = np.rot90(grid, axes=(1, 0))
        padded = np.pad(grid, ((0, k - 1), (0, k - 1)), mode="wrap")
        windows = np.lib.stride_tricks.sliding_window_view(padded, (k, k))
        codes = _wfc_hash(np.ascontiguousarray(windows), 2)
        seen, first = np.unique(codes, return_index=True)
        rows, cols = np.unravel_index(first, codes.shape)
        for code, r, c in zip(seen.tolist(), rows, cols, strict=True):
            contents[code] = np.array(windows[r, c])
            weight[code] = weight.get(code, 0) + 1
    order = sorted(contents)
    n = len(order)
    pats = np.stack([contents[c] for c in order])  # (N, k, k)
    walls = [float(colour[int(p[0, 0])][0] == 0) for p in pats]
    adjacency = np.zeros((4, n, n), dtype=bool)
    for d, (dx, dy) in enumerate(((0, -1), (1, 0), (0, 1), (-1, 0))):
        # p then q at offset (dx, dy): p[r, c] == q[r - dy, c - dx] where both exist.
        a = pats[:, max(0, dy):min(k, k + dy), max(0, dx):min(k, k + dx)]
        b = pats[:, max(0, -dy):min(k, k - dy), max(0, -dx):min(k, k - dx)]
        adjacency[d] = (a.reshape(n, 1, -1) == b.reshape(1, n, -1)).all(axis=2)
    return ([float(n), float(periodic)] + [float(weight[c]) for c in order] + walls
            + adjacency.astype(np.float64).ravel().tolist())


_WFC_CACHE: dict[tuple[str, str], list[float]] = {}


def _wfc_prepare(config: dict[str, Any]) -> dict[str, Any]:
    """``_wfc_patterns`` from ``wfc_config`` (a preset's name) and ``pattern_dir`` (the
    templates' folder: by default the environment variable ENVPOOL_WFC_PATTERNS, else the
    installed package's), read with imageio as the package reads them. A folder named
    (keyword or variable) without the template is an error; none at all leaves the pattern
    set empty, so that specs can be made, and the envs refuse to start."""
    name = config["wfc_config"]
    if name not in WFC_PRESETS:
        raise ValueError(f"unknown wfc_config {name!r}; known: {', '.join(WFC_PRESETS)}")
    chosen = config.get("pattern_dir") or os.environ.get("ENVPOOL_WFC_PATTERNS") or ""
    folder = chosen or WFC_PATTERN_DIR
    file, width, periodic = WFC_PRESETS[name]
    if not chosen and not (folder and os.path.isfile(os.path.join(folder, file))):
        # No templates where the package should have them (its 3.2.0 wheel ships none): the
        # spec can still be made; the env refuses to start, saying what to do (wfc.h).
        return {"_wfc_patterns": []}
    key = (name, folder)
    if key not in _WFC_CACHE:
        try:
            import imageio.v2 as imageio
        except ImportError as err:
            raise ImportError("the MiniGrid WFC levels read their templates with imageio: "
                              "pip install 'minigrid[wfc]' (minigrid, imageio, networkx)") from err
        path = os.path.join(folder, file)
        if not folder or not os.path.isfile(path):
            raise FileNotFoundError(
                f"the MiniGrid WFC template {file} is not in {folder or 'minigrid'!r}: install "
                "the minigrid package (pip install 'minigrid[wfc]'); its 3.2.0 wheel and "
                "sdist ship no templates, so pass pattern_dir= (or set ENVPOOL_WFC_PATTERNS to) "
                "a folder holding them (the package repository's minigrid/envs/wfc/patterns)")
        _WFC_CACHE[key] = wfc_pattern_set(imageio.imread(path), width, periodic)
    return {"_wfc_patterns": _WFC_CACHE[key]}


def register_wfc(task_id: str, preset: str) -> None:
    """Registers a WFC id (WFCEnv(wfc_config=preset), size 25, max_steps 20 * size)."""
    _register(task_id, 20 * 25, env_name="wfc", size=25, wfc_config=preset,
              prepare=_wfc_prepare, python_kwargs={"pattern_dir": ""})


for _preset in WFC_PRESETS:
    register_wfc(f"MiniGrid-WFC-{_preset}-v0", _preset)


def _templates_found(preset: str) -> bool:
    file = WFC_PRESETS[preset][0]
    return any(folder and os.path.isfile(os.path.join(folder, file))
               for folder in (os.environ.get("ENVPOOL_WFC_PATTERNS", ""), WFC_PATTERN_DIR))


# The WFC ids whose template is found neither in ENVPOOL_WFC_PATTERNS nor in the installed
# package (minigrid 3.2.0 ships none): their envs refuse to start until the user supplies
# the templates (as vizdoom's NEEDS_USER_FILES); the sweeps over every id leave them out.
NEEDS_USER_FILES = {f"MiniGrid-WFC-{p}-v0" for p in WFC_PRESETS if not _templates_found(p)}
