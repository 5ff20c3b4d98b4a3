"""jumanji 1.1.2's SearchAndRescue-v0 against jumanji itself, side by side in the same test
(``jax.jit(env.reset)``, ``jax.jit(env.step)`` on the CPU), as tests/test_align_jumanji.py
does: env i of a pool seeded with s resets as jumanji's ``env.reset(use)`` with ``use, key
= split(key)`` from ``key = PRNGKey(s + i)``, once per episode; both take the same float32
actions across autoresets, and after every reset and step the whole state (jumanji's State
rebuilt from the pool's ``get_state`` by ``envpool.tasks.jumanji_frames.JumanjiFrames``,
leaf by leaf: key, step, the searchers' positions, headings and speeds, the targets'
positions, velocities and found flags, float32 bits), every observation field (bitwise,
same dtypes), jumanji's per-searcher rewards (info ``agent_rewards``), the pool's reward
(their float32 sum) and terminated / truncated must be equal.

Actions, one kind per episode in turn: each searcher steers to its nearest target not yet
found (read from jumanji's state), both steer to the same target (so that two searchers
find one together and split its reward), or random actions in [-1.5, 1.5] (out of range
ones are clipped), which last the 400 steps. Now and then a random action interrupts the
steering. The default suite runs one seed past one reset (about 7 CPU seconds, most of them
jax compiling SearchAndRescue's reset and step, once per module); the nightly tests run
whole episodes of each kind (every target found, the 400-step limit) with eight more seeds,
and the default test again with XLA and the pool held to AVX (no FMA).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from numerics import rerun_without_fma  # tests/numerics.py
from test_align_jumanji import (  # tests/test_align_jumanji.py
    RefEnv,
    _check_tree,
    _same,
    reference_ends,
)
from test_render_jumanji import assert_same_state  # tests/test_render_jumanji.py

import envpool
from envpool.tasks.jumanji_frames import JumanjiFrames

jax = pytest.importorskip("jax")
jumanji = pytest.importorskip("jumanji")

TASK = "SearchAndRescue-v0"
N = 2
KINDS = ("nearest", "shared", "random")


class SarRef(RefEnv):
    """jumanji's SearchAndRescue with float32 actions (RefEnv's are integers)."""

    def step(self, action: Any) -> Any:
        self.state, timestep = self._step(self.state, np.asarray(action, np.float32))
        return timestep


def _steer(ref: SarRef, shared: bool) -> np.ndarray:
    """Each searcher turns towards a target not found yet (its nearest one, or searcher 0's
    nearest for both) and speeds up when facing it."""
    s = ref.state
    pos, heading = np.asarray(s.searchers.pos), np.asarray(s.searchers.heading)
    targets, found = np.asarray(s.targets.pos), np.asarray(s.targets.found)
    action = np.zeros((2, 2), np.float32)
    chosen = -1
    for i in range(2):
        d = (targets - pos[i] + 0.5) % 1.0 - 0.5
        dist = np.hypot(d[:, 0], d[:, 1])
        dist[found] = np.inf
        j = chosen if shared and chosen >= 0 else int(np.argmin(dist))
        chosen = j
        turn = (np.arctan2(d[j, 1], d[j, 0]) - heading[i] + np.pi) % (2 * np.pi) - np.pi
        action[i] = [np.clip(turn / (0.25 * np.pi), -1, 1), 1.0 if abs(turn) < 0.6 else -1.0]
    return action


def run_lockstep(seed: int, steps: int) -> dict[str, int]:
    """Steps ours (N envs, seed `seed`) and N jumanji envs keyed from seed + i side by side;
    returns how many episodes ended each way, targets found and rewards split."""
    ours = envpool.make_gymnasium(TASK, num_envs=N, seed=seed)
    refs = [SarRef(TASK, seed + i) for i in range(N)]
    frames = JumanjiFrames(TASK, 64, 64)  # only its state(): jumanji's State from get_state
    obs, info = ours.reset()
    for i, ref in enumerate(refs):
        timestep = ref.reset()
        _check_tree(obs, i, timestep.observation, (seed, "reset", i))
        assert_same_state(frames.state(ours.get_state(i)), ref.state, (seed, "reset", i))
    rng = np.random.default_rng(seed)
    episode = [i for i in range(N)]  # each env starts with another kind of episode
    done = [False] * N
    counts = {"all_found": 0, "time_limit": 0, "found": 0, "split": 0, "resets": 0}
    for t in range(steps):
        actions = []
        for i, ref in enumerate(refs):
            kind = KINDS[episode[i] % len(KINDS)]
            if done[i] or kind == "random" or rng.random() < 0.05:
                actions.append(rng.uniform(-1.5, 1.5, (2, 2)).astype(np.float32))
            else:
                actions.append(_steer(ref, kind == "shared"))
        obs, rew, term, trunc, info = ours.step(np.stack(actions))
        for i, ref in enumerate(refs):
            where = (seed, t, i)
            if done[i]:  # next_step autoreset: this step reset env i
                timestep = ref.reset()
                _check_tree(obs, i, timestep.observation, where)
                assert rew[i] == 0 and not term[i] and not trunc[i], where
                episode[i] += 1
                counts["resets"] += 1
            else:
                found_before = int(np.sum(np.asarray(ref.state.targets.found)))
                timestep = ref.step(actions[i])
                _check_tree(obs, i, timestep.observation, where)
                agent_rewards = np.asarray(timestep.reward, np.float32)
                assert _same(info["agent_rewards"][i], agent_rewards), (where, info, agent_rewards)
                assert _same(rew[i], agent_rewards[0] + agent_rewards[1]), (where, rew[i])
                r_term, r_trunc = reference_ends(timestep, int(info["elapsed_step"][i]),
                                                 ours.spec.config.max_episode_steps)
                assert (bool(term[i]), bool(trunc[i])) == (r_term, r_trunc), where
                found = int(np.sum(np.asarray(ref.state.targets.found)))
                counts["found"] += found - found_before
                scale = np.float32(400 - int(ref.state.step) + 1) * np.float32(0.0025)
                halves = np.rint(agent_rewards / scale * 2).astype(int)  # found x 2 / finders
                counts["split"] += int(np.any(halves % 2 == 1))
                if r_term:
                    counts["all_found" if found == 40 else "time_limit"] += 1
            assert_same_state(frames.state(ours.get_state(i)), ref.state, where)
            done[i] = bool(term[i] or trunc[i])
    ours.close()
    return counts


@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize("task_id", [TASK])
def test_same_seed_same_episodes(task_id: str) -> None:
    """Two envs, 220 steps: a steered episode to its end (every target found) and the reset
    after it, a shared-target one, and random actions."""
    assert task_id == TASK
    counts = run_lockstep(7, 220)
    assert counts["all_found"] >= 1 and counts["resets"] >= 1, counts
    assert counts["split"] >= 1 and counts["found"] >= 40, counts


@pytest.mark.nightly
@pytest.mark.timeout(600)  # about 2 s a seed on the 2-core VM, after jax's compilation
@pytest.mark.parametrize("seed", range(8))
def test_whole_episodes_nightly(seed: int) -> None:
    """Whole episodes of every kind, 2000 steps: every target found, and the 400-step
    limit (jumanji's termination and the pool's truncation at once)."""
    counts = run_lockstep(seed, 2000)
    assert counts["all_found"] >= 5 and counts["time_limit"] >= 2, counts


@pytest.mark.nightly
@pytest.mark.timeout(600)
def test_without_fma_as_xla_without_fma_nightly() -> None:
    """Where XLA may not use FMA instructions (XLA_FLAGS' --xla_cpu_max_isa=AVX here) it
    rounds each product apart, and so does the env (the hidden keyword _xla_fma, decided when
    the pool is made): the default test again, in a process whose XLA and pool stop at AVX,
    and the two processes' first steps differ where this one uses FMA."""
    from envpool.tasks.classic_control import xla_uses_fma

    probe = ("import envpool, numpy as np; e = envpool.make_gymnasium('SearchAndRescue-v0', "
             "seed=3); e.reset(); a = np.full((1, 2, 2), 0.7, np.float32); "
             "print(b''.join(e.step(a)[0]['positions'].tobytes() for _ in range(30)).hex())")
    assert rerun_without_fma(__file__, "same_seed_same_episodes", probe) == xla_uses_fma()
