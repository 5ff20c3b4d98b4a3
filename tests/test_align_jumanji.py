"""jumanji 1.1.2's envs against jumanji itself, run side by side in the same test (jax
0.10.2 on the CPU, ``jumanji.make(id)`` with its default generator).

* Same seed, same episodes: env i of a pool seeded with s resets as jumanji's
  ``env.reset(use)`` with ``use, key = split(key)`` from ``key = PRNGKey(s + i)``, once
  per episode (native/envs/jumanji/jumanji_env.h), and its steps draw from the state's
  own key as jumanji's do. No state is copied: both are reset and stepped with the same
  actions, across autoresets (next_step: the reference is reset with the next key when
  ours is), and every observation field (bitwise, floats as raw bits, same dtype), the
  reward (float32), terminated / truncated (jumanji's TimeStep: LAST with discount 0 /
  1, and EnvPool's time limit) and the info keys must be equal.
* Actions: valid ones drawn at random from the action mask, and now and then any action
  (invalid ones end most of these episodes), so that episodes end every way.

Sizes keep the run short (jax's jit compiles each id's reset and step, 1 to 3 s): two
envs, a few hundred steps. The sweep is sampled (``sweep(by="none")``: one id and two
more a day in the default suite; ``ENVPOOL_SWEEP=all`` runs every id).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest

import envpool

jax = pytest.importorskip("jax")
jumanji = pytest.importorskip("jumanji")

SEED = 5
N = 2

# id -> (steps, chance of an arbitrary action, info key -> its source in jumanji)
CASES: dict[str, tuple[int, float, dict[str, str]]] = {
    "Game2048-v1": (300, 0.2, {"highest_tile": "extras"}),
    "SlidingTilePuzzle-v0": (510, 0.0, {"prop_correctly_placed": "extras"}),
    "Snake-v1": (300, 0.08, {}),
    "Minesweeper-v0": (200, 0.05, {}),
    "Knapsack-v1": (200, 0.05, {"remaining_budget": "state"}),
    "TSP-v1": (150, 0.03, {}),
    "Sudoku-v0": (150, 0.05, {}),
    "Sudoku-very-easy-v0": (150, 0.05, {}),
    "RubiksCube-v0": (210, 0.0, {}),
    "RubiksCube-partly-scrambled-v0": (100, 0.0, {}),
    "Maze-v0": (250, 0.1, {}),
    "Cleaner-v0": (250, 0.02, {"ratio_dirty_tiles": "extras", "num_dirty_tiles": "extras"}),
    "GraphColoring-v1": (150, 0.05, {}),
    "CVRP-v1": (200, 0.03, {}),
}


def _bits(x: Any) -> np.ndarray:
    a = np.asarray(x)
    return a.view(np.uint32) if a.dtype == np.float32 else a


def _same(ours: Any, ref: Any) -> bool:
    ours, ref = np.asarray(ours), np.asarray(ref)
    return ours.dtype == ref.dtype and ours.shape == ref.shape and np.array_equal(
        _bits(ours), _bits(ref))


@functools.cache
def reference(task_id: str) -> tuple[Any, Any, Any]:
    """jumanji.make(task_id) with its jitted reset and step, one per id for all tests."""
    env = jumanji.make(task_id)
    return env, jax.jit(env.reset), jax.jit(env.step)


class RefEnv:
    """One jumanji env with the key chain of native/envs/jumanji/jumanji_env.h."""

    def __init__(self, task_id: str, seed: int) -> None:
        self.env, self._reset, self._step = reference(task_id)
        self.key = jax.random.PRNGKey(seed)
        self.state: Any = None

    def reset(self) -> Any:
        use, self.key = jax.random.split(self.key)
        self.state, timestep = self._reset(use)
        return timestep

    def step(self, action: Any) -> Any:
        self.state, timestep = self._step(self.state, np.asarray(action, np.int32))
        return timestep


def _check_tree(ours: dict[str, Any], i: int, ref: Any, where: Any) -> None:
    """Every array of our (nested) observation dict, row i, against the reference's field
    of the same name (a nested dict against a namedtuple's fields)."""
    for name, value in ours.items():
        expected = getattr(ref, name)
        if isinstance(value, dict):
            _check_tree(value, i, expected, (where, name))
        else:
            assert _same(value[i], expected), (where, name, value[i], expected)


def _check(task_id: str, obs: dict[str, Any], info: dict[str, np.ndarray], i: int,
           ref: RefEnv, timestep: Any, where: Any) -> None:
    _check_tree(obs, i, timestep.observation, where)
    for name, source in CASES[task_id][2].items():
        value = timestep.extras[name] if source == "extras" else getattr(ref.state, name)
        assert _same(info[name][i], value), (where, name, info[name][i], value)


def reference_ends(timestep: Any, elapsed: int, limit: int) -> tuple[bool, bool]:
    """(terminated, truncated) of a jumanji TimeStep as the pool reports them: LAST with
    discount 0 / 1, and truncated too at EnvPool's time limit (`elapsed` >= `limit`)."""
    last = bool(timestep.last())
    discount = float(np.asarray(timestep.discount).reshape(-1)[0])
    return last and discount == 0.0, (last and discount != 0.0) or elapsed >= limit


def _pick(mask: np.ndarray, rng: np.random.Generator, wild: float) -> int:
    """A random index of `mask` (flattened) that is True, or any index with chance `wild`."""
    flat = mask.reshape(-1)
    valid = np.flatnonzero(flat)
    if valid.size and rng.random() >= wild:
        return int(rng.choice(valid))
    return int(rng.integers(flat.size))


def _policy(task_id: str, obs: dict[str, Any], i: int, rng: np.random.Generator,
            wild: float) -> np.ndarray:
    if task_id.startswith("RubiksCube"):
        return np.array([rng.integers(6), 0, rng.integers(3)], dtype=np.int32)
    mask = np.asarray(obs["action_mask"][i])
    if task_id == "Cleaner-v0":  # one move per agent
        return np.array([_pick(row, rng, wild) for row in mask], dtype=np.int32)
    flat = _pick(mask, rng, wild)
    if mask.ndim > 1:  # Minesweeper's (row, col), Sudoku's (row, col, digit)
        return np.array(np.unravel_index(flat, mask.shape), dtype=np.int32)
    return np.array(flat, dtype=np.int32)


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
        actions = [_policy(task_id, obs, i, rng, wild) for i in range(N)]
        obs, rew, term, trunc, info = ours.step(np.stack(actions))
        for i, ref in enumerate(refs):
            where = (task_id, t, i)
            if done[i]:  # next_step autoreset: this step reset env i
                _check(task_id, obs, info, i, ref, ref.reset(), where)
                assert rew[i] == 0 and not term[i] and not trunc[i], where
            else:
                timestep = ref.step(actions[i])
                _check(task_id, obs, info, i, ref, timestep, where)
                assert _same(rew[i], timestep.reward), (where, rew[i], timestep.reward)
                last = bool(timestep.last())
                discount = float(timestep.discount)
                r_term = last and discount == 0.0
                r_trunc = (last and discount != 0.0) or (
                    int(info["elapsed_step"][i]) >= ours.spec.config.max_episode_steps)
                assert (bool(term[i]), bool(trunc[i])) == (r_term, r_trunc), where
                ends["terminated"] += int(r_term)
                ends["truncated"] += int(r_trunc and not r_term)
            done[i] = bool(term[i] or trunc[i])
    ours.close()
    return ends


@pytest.mark.sweep(by="none")
@pytest.mark.parametrize("task_id", list(CASES))
def test_same_seed_same_episodes(task_id: str) -> None:
    """Random (mostly valid) actions past several resets: the same instances, the same
    steps, the same ends as jumanji's."""
    ends = run_lockstep(task_id)
    assert ends["terminated"] + ends["truncated"] >= 2, ends
