"""More jumanji 1.1.2 envs against jumanji itself, side by side in the same test (jax on
the CPU, ``jumanji.make(id)`` with its default generator): JobShop and the others of this
file's CASES.

The harness is tests/test_align_jumanji.py's: env i of a pool seeded with s resets as
jumanji's ``env.reset(use)`` with ``use, key = split(key)`` from ``key = PRNGKey(s + i)``,
once per episode, and steps draw from the state's own key as jumanji's do. Both are reset
and stepped with the same actions across autoresets, and every observation field
(bitwise, same dtype), the reward (float32), terminated / truncated (jumanji's TimeStep,
and EnvPool's time limit) and the info keys must be equal.

Actions: the envs here take one action per agent (machine, vehicle, ...): each agent's
is drawn from its row of the action mask, and now and then any action (which ends most
of these episodes), so that episodes end every way. The sweep is sampled
(``sweep(by="none", extra=0)``: one id a day in the default suite, as jax compiles each
id's reset and step for several seconds); ``ENVPOOL_SWEEP=all`` runs every id.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from test_align_jumanji import RefEnv, _check_tree, _pick, _same

import envpool

jax = pytest.importorskip("jax")
jumanji = pytest.importorskip("jumanji")

SEED = 5
N = 2

# id -> (steps, chance of an arbitrary action, info key -> its source in jumanji)
CASES: dict[str, tuple[int, float, dict[str, str]]] = {
    "JobShop-v0": (300, 0.01, {}),
    "MMST-v0": (200, 0.05, {"num_connections": "extras", "ratio_connections": "extras"}),
    "MultiCVRP-v0": (200, 0.02, {}),
    "LevelBasedForaging-v0": (300, 0.05, {"percent_eaten": "extras"}),
    "RobotWarehouse-v0": (500, 0.02, {}),
    "PacMan-v1": (400, 0.02, {}),
}


def _check(task_id: str, obs: dict[str, Any], info: dict[str, np.ndarray], i: int,
           ref: RefEnv, timestep: Any, where: Any) -> None:
    _check_tree(obs, i, timestep.observation, where)
    for name, source in CASES[task_id][2].items():
        value = timestep.extras[name] if source == "extras" else getattr(ref.state, name)
        assert _same(info[name][i], value), (where, name, info[name][i], value)


def _toward(here: tuple[int, int], there: tuple[int, int], moves: dict[int, tuple[int, int]],
            mask: np.ndarray, rng: np.random.Generator) -> int | None:
    """A random allowed move of `moves` (action -> (drow, dcol)) that brings `here` nearer
    `there` (Manhattan), or None."""
    now = abs(here[0] - there[0]) + abs(here[1] - there[1])
    better = [a for a, (dr, dc) in moves.items() if mask[a]
              and abs(here[0] + dr - there[0]) + abs(here[1] + dc - there[1]) < now]
    return int(rng.choice(better)) if better else None


def _bfs_first_move(grid: np.ndarray, start: tuple[int, int],
                    goals: set[tuple[int, int]]) -> int | None:
    """PacMan: the first action (0 row - 1, 1 col - 1, 2 row + 1, 3 col + 1, wrapping) of
    a shortest path over open cells from `start` (row, col) to one of `goals`."""
    rows, cols = grid.shape
    steps = ((-1, 0), (0, -1), (1, 0), (0, 1))
    first: dict[tuple[int, int], int] = {start: -1}
    queue = [start]
    for cell in queue:
        if cell in goals and cell != start:
            return first[cell]
        for a, (dr, dc) in enumerate(steps):
            nxt = ((cell[0] + dr) % rows, (cell[1] + dc) % cols)
            if grid[nxt] == 1 and nxt not in first:
                first[nxt] = a if cell == start else first[cell]
                queue.append(nxt)
    return None


def _warehouse(state: Any, rng: np.random.Generator) -> np.ndarray:
    """RobotWarehouse, scripted from jumanji's state: agent 0 walks (under shelves) to a
    requested shelf, loads it and carries it along shelf-free cells to a goal, turning
    toward each next cell of a shortest path; the other agents wait (no-op)."""
    grid = np.asarray(state.grid)
    xs, ys = np.asarray(state.agents.position.x), np.asarray(state.agents.position.y)
    here = (int(xs[0]), int(ys[0]))
    direction = int(np.asarray(state.agents.direction)[0])
    carrying = bool(np.asarray(state.agents.is_carrying)[0])
    others = {(int(x), int(y)) for x, y in zip(xs[1:], ys[1:], strict=True)}
    actions = np.zeros(len(xs), dtype=np.int32)
    if carrying:
        last_row, middle = grid.shape[1] - 1, grid.shape[2] // 2
        goals = {(last_row, middle - 1), (last_row, middle)}
        passable = grid[0] == 0
    else:
        shelf_x = np.asarray(state.shelves.position.x)
        shelf_y = np.asarray(state.shelves.position.y)
        goals = {(int(shelf_x[q]), int(shelf_y[q])) for q in np.asarray(state.request_queue)}
        if here in goals:
            actions[0] = 4
            return actions
        passable = np.ones(grid.shape[1:], dtype=bool)
    steps = ((-1, 0), (0, 1), (1, 0), (0, -1))  # up, right, down, left
    first: dict[tuple[int, int], int] = {here: -1}
    queue = [here]
    for cell in queue:
        if cell in goals and cell != here:
            turn = first[cell]
            actions[0] = 1 if turn == direction else (3 if turn == (direction + 1) % 4 else 2)
            return actions
        for d, (dx, dy) in enumerate(steps):
            nxt = (cell[0] + dx, cell[1] + dy)
            if (0 <= nxt[0] < grid.shape[1] and 0 <= nxt[1] < grid.shape[2] and passable[nxt]
                    and nxt not in others and nxt not in first):
                first[nxt] = d if cell == here else first[cell]
                queue.append(nxt)
    actions[0] = int(rng.integers(5))
    return actions


def _policy(task_id: str, obs: dict[str, Any], i: int, rng: np.random.Generator,
            wild: float, ref: RefEnv | None = None) -> np.ndarray:
    """One action per agent from its row of the action mask, with a scripted lean where a
    random policy never reaches an outcome: JobShop schedules a job where one fits, MMST's
    agents walk (breadth-first over the graph) to their nearest node not yet connected, MultiCVRP's
    env 1 mostly waits at the depot (past step 40: the worst-case reward), the foragers walk
    to the first food left and load there, PacMan walks to the power-ups, then to the ghosts
    while they are frightened, else to pellets; RobotWarehouse's env 0 delivers a requested
    shelf (_warehouse)."""
    mask = np.asarray(obs["action_mask"][i])
    if task_id == "RobotWarehouse-v0" and i == 0 and ref is not None and ref.state is not None:
        return _warehouse(ref.state, rng)
    if task_id == "PacMan-v1":
        if rng.random() < 0.85:
            grid = np.asarray(obs["grid"][i])
            player = (int(obs["player_locations"]["x"][i]), int(obs["player_locations"]["y"][i]))
            power = [(int(r), int(c)) for c, r in obs["power_up_locations"][i] if (c, r) != (0, 0)]
            ghosts = [(int(r), int(c)) for c, r in obs["ghost_locations"][i]]
            pellets = [(int(r), int(c)) for c, r in obs["pellet_locations"][i] if (c, r) != (0, 0)]
            goals = ghosts if obs["frightened_state_time"][i] > 0 else (power or pellets)
            move = _bfs_first_move(grid, player, set(goals))
            if move is not None and mask[move]:
                return np.array(move, dtype=np.int32)
        return np.array(_pick(mask, rng, wild), dtype=np.int32)
    if task_id == "JobShop-v0" and rng.random() >= wild:
        return np.array([int(rng.choice(np.flatnonzero(row[:-1]))) if row[:-1].any()
                         and rng.random() < 0.9 else _pick(row, rng, 0.0) for row in mask],
                        dtype=np.int32)
    if task_id == "MMST-v0" and rng.random() >= wild:
        adj = np.asarray(obs["adj_matrix"][i])
        types = np.asarray(obs["node_types"][i])
        actions = []
        for a, row in enumerate(mask):
            start = int(obs["positions"][i][a])
            goals = set(np.flatnonzero(types == 2 * a + 1).tolist())
            first: dict[int, int] = {start: -1}
            queue, move = [start], None
            for node in queue:
                if node in goals:
                    move = first[node]
                    break
                for nxt in np.flatnonzero(adj[node]).tolist():
                    if nxt not in first:
                        first[nxt] = nxt if node == start else first[node]
                        queue.append(nxt)
            ok = move is not None and move >= 0 and row[move]
            actions.append(move if ok else _pick(row, rng, wild))
        return np.array(actions, dtype=np.int32)
    if task_id == "MultiCVRP-v0" and i == 1:
        return np.array([0 if rng.random() < 0.8 else _pick(row, rng, wild) for row in mask],
                        dtype=np.int32)
    if task_id == "LevelBasedForaging-v0":
        view = np.asarray(obs["agents_view"][i])
        foods = [(int(view[0, 3 * k]), int(view[0, 3 * k + 1])) for k in range(2)
                 if view[0, 3 * k] >= 0]
        actions = []
        for a, row in enumerate(mask):
            here = (int(view[a, 6]), int(view[a, 7]))
            move = None
            if foods and rng.random() >= wild:
                target = foods[0]
                if abs(here[0] - target[0]) + abs(here[1] - target[1]) == 1 and row[5]:
                    move = 5
                else:
                    move = _toward(here, target, {1: (-1, 0), 2: (1, 0), 3: (0, -1), 4: (0, 1)},
                                   row, rng)
            actions.append(_pick(row, rng, wild) if move is None else move)
        return np.array(actions, dtype=np.int32)
    return np.array([_pick(row, rng, wild) for row in mask], dtype=np.int32)


def run_lockstep(task_id: str) -> dict[str, int]:
    """Steps ours (N envs, seed SEED) and N jumanji envs keyed from SEED + i side by side;
    returns how many episodes ended by termination and by truncation."""
    steps, wild, _ = CASES[task_id]
    ours = envpool.make_gymnasium(task_id, num_envs=N, seed=SEED)
    refs = [RefEnv(task_id, SEED + i) for i in range(N)]
    obs, info = ours.reset()
    for i, ref in enumerate(refs):
        _check(task_id, obs, info, i, ref, ref.reset(), (task_id, "reset", i))
    rng = np.random.default_rng(SEED)
    done = [False] * N
    ends = {"terminated": 0, "truncated": 0}
    for t in range(steps):
        actions = [_policy(task_id, obs, i, rng, wild, refs[i]) for i in range(N)]
        obs, rew, term, trunc, info = ours.step(np.stack(actions))
        for i, ref in enumerate(refs):
            where = (task_id, t, i)
            if done[i]:  # next_step autoreset: this step reset env i
                _check(task_id, obs, info, i, ref, ref.reset(), where)
                assert rew[i] == 0 and not term[i] and not trunc[i], where
            else:
                timestep = ref.step(actions[i])
                _check(task_id, obs, info, i, ref, timestep, where)
                # One reward per agent (LevelBasedForaging): the pool's is their float32 sum.
                reward = np.float32(np.sum(np.asarray(timestep.reward, np.float32)))
                assert _same(rew[i], reward), (where, rew[i], timestep.reward)
                last = bool(timestep.last())
                discount = float(np.asarray(timestep.discount).reshape(-1)[0])
                r_term = last and discount == 0.0
                r_trunc = (last and discount != 0.0) or (
                    int(info["elapsed_step"][i]) >= ours.spec.config.max_episode_steps)
                assert (bool(term[i]), bool(trunc[i])) == (r_term, r_trunc), where
                ends["terminated"] += int(r_term)
                ends["truncated"] += int(r_trunc and not r_term)
            done[i] = bool(term[i] or trunc[i])
    ours.close()
    return ends


@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize("task_id", list(CASES))
def test_same_seed_same_episodes(task_id: str) -> None:
    """Random (mostly valid) joint actions past several resets: the same instances, the
    same steps, the same ends as jumanji's."""
    ends = run_lockstep(task_id)
    assert ends["terminated"] + ends["truncated"] >= 2, ends


def test_job_shop_instance_keywords() -> None:
    """JobShop's instance keywords (sail-sg EnvPool's): every episode starts from the given
    operations; a job's machine is busy for its duration (jumanji's rules, by hand: job 0
    takes 2 steps on machine 0, job 1 three on machine 1), and a bad list is refused."""
    machines = np.full((20, 8), -1)
    durations = np.full((20, 8), -1)
    machines[0, 0], durations[0, 0] = 0, 2
    machines[1, 0], durations[1, 0] = 1, 3
    kwargs = {"job_shop_ops_machine_ids": ",".join(map(str, machines.ravel())),
              "job_shop_ops_durations": ",".join(map(str, durations.ravel()))}
    env = envpool.make_gymnasium("JobShop-v0", num_envs=1, seed=0, **kwargs)
    obs, _ = env.reset()
    assert np.array_equal(obs["ops_machine_ids"][0], machines)
    assert np.array_equal(obs["ops_mask"][0], machines != -1)
    assert obs["action_mask"][0, 0, 0] and obs["action_mask"][0, 1, 1]
    action = np.full((1, 10), 20, dtype=np.int32)
    action[0, :2] = [0, 1]
    obs, reward, term, _, _ = env.step(action)
    assert reward[0] == -1 and not term[0]
    assert list(obs["machines_job_ids"][0, :3]) == [0, 1, 20]
    assert list(obs["machines_remaining_times"][0, :2]) == [1, 2]
    rewards = []
    for _ in range(2):
        obs, reward, term, _, _ = env.step(np.full((1, 10), 20, dtype=np.int32))
        rewards.append(float(reward[0]))
    assert rewards == [-1.0, -1.0] and term[0]  # every operation done, every machine free
    env.close()
    with pytest.raises(ValueError, match="job_shop_ops_durations"):
        envpool.make_gymnasium("JobShop-v0", num_envs=1, job_shop_ops_durations="1,2")
