"""jumanji 1.1.2's BinPack against jumanji itself, side by side in the same test (jax on the
CPU, ``jumanji.make(id)`` with its default generator), as tests/test_align_jumanji.py does:
env i of a pool seeded with s resets as jumanji's ``env.reset(use)`` with ``use, key =
split(key)`` from ``key = PRNGKey(s + i)``, once per episode; both take the same actions
across autoresets, and every observation field (bitwise, same dtype), the reward (float32),
terminated / truncated and the info keys (jumanji's extras) must be equal.

Actions: a valid (EMS, item) pair drawn at random from the action mask, now and then any
pair (an invalid one ends the episode), so that episodes end both ways (no valid action
left, an invalid action) and at EnvPool's time limit. jax compiles BinPack's reset and step
once per module (``reference``), several seconds; the default suite runs the short case.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from test_align_jumanji import RefEnv, _check_tree, _pick, _same  # tests/test_align_jumanji.py

import envpool

jax = pytest.importorskip("jax")
jumanji = pytest.importorskip("jumanji")

SEED = 11
N = 2

# id -> (steps, chance of an arbitrary action, info key -> its source in jumanji)
CASES: dict[str, tuple[int, float, dict[str, str]]] = {
    "BinPack-v2": (120, 0.05, {"volume_utilization": "extras", "packed_items": "extras",
                               "ratio_packed_items": "extras", "active_ems": "extras",
                               "invalid_action": "extras"}),
}


def _check(task_id: str, obs: dict[str, Any], info: dict[str, np.ndarray], i: int,
           timestep: Any, where: Any) -> None:
    _check_tree(obs, i, timestep.observation, where)
    for name, source in CASES[task_id][2].items():
        assert source == "extras"
        value = timestep.extras[name]
        assert _same(info[name][i], value), (where, name, info[name][i], value)


def _policy(task_id: str, obs: dict[str, Any], i: int, rng: np.random.Generator,
            wild: float) -> np.ndarray:
    """BinPack: a (EMS, item) pair of the action mask, or any pair with chance `wild`."""
    del task_id
    mask = np.asarray(obs["action_mask"][i])
    return np.array(np.unravel_index(_pick(mask, rng, wild), mask.shape), dtype=np.int32)


def run_lockstep(task_id: str, steps: int | None = None) -> dict[str, int]:
    """Steps ours (N envs, seed SEED) and N jumanji envs keyed from SEED + i side by side;
    returns how many episodes ended by termination and by truncation."""
    default_steps, wild, _ = CASES[task_id]
    steps = default_steps if steps is None else steps
    ours = envpool.make_gymnasium(task_id, num_envs=N, seed=SEED)
    refs = [RefEnv(task_id, SEED + i) for i in range(N)]
    obs, info = ours.reset()
    for i, ref in enumerate(refs):
        _check(task_id, obs, info, i, ref.reset(), (task_id, "reset", i))
    rng = np.random.default_rng(SEED)
    done = [False] * N
    ends = {"terminated": 0, "truncated": 0}
    for t in range(steps):
        actions = [_policy(task_id, obs, i, rng, wild) for i in range(N)]
        obs, rew, term, trunc, info = ours.step(np.stack(actions))
        for i, ref in enumerate(refs):
            where = (task_id, t, i)
            if done[i]:  # next_step autoreset: this step reset env i
                _check(task_id, obs, info, i, ref.reset(), where)
                assert rew[i] == 0 and not term[i] and not trunc[i], where
            else:
                timestep = ref.step(actions[i])
                _check(task_id, obs, info, i, timestep, where)
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
    """Random (mostly valid) actions past several resets and both envs' seeds: the same
    instances, the same steps, the same ends as jumanji's."""
    ends = run_lockstep(task_id)
    assert ends["terminated"] >= 2, ends
