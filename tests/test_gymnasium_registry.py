"""The strict gymnasium path (``envpool/<id>`` in gymnasium's registry) and gymnasium's
vector wrappers over EnvPool's flavour.

* every registered id works through ``gymnasium.make_vec`` and ``gymnasium.make``;
* ``gymnasium.make("envpool/<id>")`` passes gymnasium's ``check_env``;
* ``gymnasium.make_vec("envpool/CartPole-v1")`` runs side by side with gymnasium's own
  ``SyncVectorEnv`` in all three autoreset modes: from the same states (the reference
  envs' states are copied into the pool after each of their resets, since the two draw
  reset states from different generators) with the same actions, every returned array,
  dtype, info key and mask must be equal, bitwise (CartPole is aligned bitwise);
* gymnasium's vector wrappers work on ``envpool.make_gymnasium`` unchanged.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode

import envpool
from envpool.core.registry import get_task
from envpool.flavours.gymnasium_ids import has_gymnasium_id
from envpool.tasks import jumanji as jumanji_tasks
from envpool.tasks import minigrid as minigrid_tasks
from envpool.tasks import vizdoom as vizdoom_tasks
from envpool.tasks.myosuite import OBS_BEYOND_SPACE

# ViZDoom ids whose scenario files the user supplies (tests/test_align_vizdoom.py checks
# their error) are left out, and so are the ids gymnasium's registry does not hold
# (has_gymnasium_id: a namespace of their own, phys2d/...; multi-player envs, PGX).
IDS = [i for i in envpool.list_all_envs()
       if i not in vizdoom_tasks.NEEDS_USER_FILES | minigrid_tasks.NEEDS_USER_FILES
           | jumanji_tasks.NEEDS_USER_FILES
       and has_gymnasium_id(get_task(i))]
RNG = np.random.default_rng(0)
# The first id of each native env: the single-env path (gymnasium.make) depends on the native
# env's spaces, not on the id (the 104 Atari ids share one native env); every id goes
# through make_vec.
FIRST_OF_NATIVE = {get_task(i).native_env: i for i in reversed(IDS)}
SINGLE_IDS = set(FIRST_OF_NATIVE.values())
# MyoSuite's reorientation and MyoDM tracking ids declare the package's observation space,
# which their observations leave (envpool/tasks/myosuite.py): checked for shape and dtype only.
BEYOND_SPACE = OBS_BEYOND_SPACE


def _in_space(space: gymnasium.Space, obs: Any, task_id: str) -> bool:
    if task_id in BEYOND_SPACE:
        return obs.shape == space.shape and obs.dtype == space.dtype
    return space.contains(obs)


@pytest.mark.sweep(by="native")
@pytest.mark.parametrize("task_id", IDS)
def test_every_id_through_make_vec_and_make(task_id: str) -> None:
    venv = gymnasium.make_vec(f"envpool/{task_id}", num_envs=2, seed=0)
    assert venv.num_envs == 2
    obs, _ = venv.reset()
    assert _in_space(venv.observation_space, obs, task_id)
    obs, reward, term, trunc, _ = venv.step(venv.action_space.sample())
    assert _in_space(venv.observation_space, obs, task_id) and reward.shape == (2,)
    venv.close()
    if task_id not in SINGLE_IDS:
        return
    env = gymnasium.make(f"envpool/{task_id}")
    obs, _ = env.reset(seed=1)
    assert _in_space(env.observation_space, obs, task_id)
    obs, reward, term, trunc, info = env.step(env.action_space.sample())
    assert _in_space(env.observation_space, obs, task_id)
    assert isinstance(reward, float) and isinstance(term, bool) and isinstance(trunc, bool)
    env.close()


@pytest.mark.parametrize("task_id", ["CartPole-v1", "Pendulum-v1", "FrozenLake-v1",
                                     "Blackjack-v1", "HalfCheetah-v5", "Pong-v5"])
def test_single_env_passes_gymnasiums_env_checker(task_id: str) -> None:
    env = gymnasium.make(f"envpool/{task_id}")
    check_env(env.unwrapped, skip_render_check=True)
    a, _ = env.reset(seed=3)
    b, _ = env.reset(seed=3)
    assert np.array_equal(a, b)
    batch, _ = envpool.make_gymnasium(task_id, num_envs=1, seed=3).reset()
    row = tuple(v[0] for v in batch) if isinstance(batch, tuple) else batch[0]
    assert np.array_equal(row, a)  # gymnasium.make's env == envpool.make's env 0


def test_single_env_is_limited_and_not_autoreset() -> None:
    env = gymnasium.make("envpool/CartPole-v1", max_episode_steps=5)  # gymnasium's TimeLimit
    env.reset(seed=0)
    flags = [env.step(0)[2:4] for _ in range(5)]  # pushing left, the pole falls after ~8
    assert flags == [(False, False)] * 4 + [(False, True)]
    env = gymnasium.make("envpool/CartPole-v1")
    env.reset(seed=0)
    for _ in range(100):
        if env.step(0)[2]:
            break
    with pytest.raises(ValueError, match="reset"):  # no autoreset: gymnasium's contract
        env.step(0)
    env.reset()
    env.step(0)
    with pytest.raises(TypeError, match="num_envs"):
        gymnasium.make("envpool/CartPole-v1", num_envs=2)


def _rollout_side_by_side(mode: AutoresetMode, steps: int = 1000) -> int:
    n, limit = 4, 40
    ref = gymnasium.vector.SyncVectorEnv(
        [lambda: gymnasium.make("CartPole-v1", max_episode_steps=limit) for _ in range(n)],
        autoreset_mode=mode)
    ours = gymnasium.make_vec("envpool/CartPole-v1", num_envs=n, max_episode_steps=limit,
                              autoreset_mode=mode)
    assert ours.metadata["autoreset_mode"] is mode
    for key in ("observation_space", "action_space", "single_observation_space",
                "single_action_space"):
        assert getattr(ours, key) == getattr(ref, key), key

    def sync_states(rows: np.ndarray) -> None:
        for i in np.flatnonzero(rows):
            ours.unwrapped.set_state(int(i), ref.envs[i].unwrapped.state)

    r_obs, _ = ref.reset(seed=0)
    ours.reset(seed=0)
    sync_states(np.ones(n, bool))
    rng = np.random.default_rng(0)
    dones = 0
    fresh = np.zeros(n, bool)  # next-step mode: rows whose next step is a reset
    for _ in range(steps):
        action = rng.integers(0, 2, n)
        if mode == AutoresetMode.DISABLED and fresh.any():
            r_obs, r_info = ref.reset(options={"reset_mask": fresh})
            o_obs, o_info = ours.reset(options={"reset_mask": fresh})
            sync_states(fresh)
            fresh[:] = False
            continue
        r = ref.step(action)
        o = ours.step(action)
        r_obs, r_rew, r_term, r_trunc, r_info = r
        o_obs, o_rew, o_term, o_trunc, o_info = o
        for a, b in zip(o[1:4], r[1:4], strict=True):
            assert a.dtype == b.dtype and np.array_equal(a, b)
        restarted = fresh.copy() if mode == AutoresetMode.NEXT_STEP else np.zeros(n, bool)
        done = r_term | r_trunc
        # rows that restarted this step (next-step: the step after a done; same-step: the
        # done step itself) hold different reset states: compare the rest
        reset_now = restarted | (done if mode == AutoresetMode.SAME_STEP else False)
        np.testing.assert_array_equal(o_obs[~reset_now], r_obs[~reset_now])
        assert o_obs.dtype == r_obs.dtype and ours.observation_space.contains(o_obs)
        assert set(r_info) <= set(o_info)  # ours adds env_id, elapsed_step, players
        if mode == AutoresetMode.SAME_STEP:
            assert ("final_obs" in o_info) == ("final_obs" in r_info) == done.any()
            if done.any():
                assert o_info["final_obs"].dtype == object
                for i in range(n):
                    if done[i]:
                        np.testing.assert_array_equal(o_info["final_obs"][i],
                                                      r_info["final_obs"][i])
                    else:
                        assert o_info["final_obs"][i] is None is r_info["final_obs"][i]
                for key in ("_final_obs", "_final_info"):
                    assert np.array_equal(o_info[key], r_info[key])
                sync_states(done)
        elif mode == AutoresetMode.NEXT_STEP:
            sync_states(restarted)
            fresh = done
        else:
            fresh = done
        dones += int(done.sum())
    return dones


@pytest.mark.parametrize("mode", list(AutoresetMode))
def test_make_vec_matches_sync_vector_env(mode: AutoresetMode) -> None:
    # a 40-step limit and random actions: many terminations and truncations (measured:
    # 187, 196 and 156 ended episodes in next-step, same-step and disabled mode)
    assert _rollout_side_by_side(mode) >= 150


def _pool(task_id: str = "Pendulum-v1", **kw: Any) -> Any:
    return envpool.make_gymnasium(task_id, num_envs=3, seed=0, **kw)


def test_vector_wrappers_on_envpool_flavour() -> None:
    wrappers = gymnasium.wrappers.vector
    # ClipAction / RescaleAction: the pool sees the transformed action
    plain, clipped, rescaled = _pool(), wrappers.ClipAction(_pool()), wrappers.RescaleAction(
        _pool(), -1.0, 1.0)
    for env in (plain, clipped, rescaled):
        env.reset()
    want = plain.step(np.full((3, 1), 2.0, np.float32))[0]
    assert np.array_equal(clipped.step(np.full((3, 1), 7.0, np.float32))[0], want)
    assert np.allclose(rescaled.step(np.full((3, 1), 1.0, np.float32))[0], want)
    # TransformObservation / NormalizeObservation / FlattenObservation
    env = wrappers.TransformObservation(_pool(), lambda o: o * 2)
    obs, _ = env.reset()
    assert np.array_equal(obs, _pool().reset()[0] * 2)
    env = wrappers.NormalizeObservation(_pool("CartPole-v1"))
    env.reset()
    for _ in range(50):
        obs, *_ = env.step(np.zeros(3, np.int64))
    assert env.obs_rms.mean.shape == (4,) and env.obs_rms.count > 50
    assert np.abs(obs).max() < 10
    assert wrappers.FlattenObservation(_pool("CartPole-v1")).reset()[0].shape == (3, 4)
    # NormalizeReward / ClipReward
    env = wrappers.ClipReward(_pool(), -0.5, 0.0)
    env.reset()
    assert env.step(np.zeros((3, 1), np.float32))[1].min() >= -0.5
    env = wrappers.NormalizeReward(_pool())
    env.reset()
    rewards = [env.step(np.zeros((3, 1), np.float32))[1] for _ in range(20)]
    assert all(r.shape == (3,) and np.isfinite(r).all() for r in rewards)
    # DictInfoToList: one dict per env
    env = wrappers.DictInfoToList(_pool("CartPole-v1"))
    _, infos = env.reset()
    assert [i["env_id"] for i in infos] == [0, 1, 2]
    # RecordEpisodeStatistics: whole CartPole episodes of a random policy
    env = wrappers.RecordEpisodeStatistics(_pool("CartPole-v1"))
    env.reset()
    returns = []
    for _ in range(200):
        *_, info = env.step(RNG.integers(2, size=3))
        if "episode" in info:
            returns += list(info["episode"]["r"][info["_episode"]])
    assert len(returns) >= 3 and all(8 <= r <= 500 for r in returns)
