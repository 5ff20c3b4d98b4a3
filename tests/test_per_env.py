"""Different settings per env in one pool: ``make(..., env_kwargs=...)``.

* A heterogeneous Pendulum pool (a different ``g`` per env) against gymnasium's
  Pendulum with the same ``g``, env by env; a MuJoCo pool with per-env reward weights
  against gymnasium's, env by env, and per-env reset noise against gymnasium's initial
  state; an Atari pool with per-env sticky actions against uniform pools of each setting.
* Domain randomisation (``envpool.Uniform``): draws within the range, reported in
  ``info["env_kwargs"]``, the same for the same seeds whatever ``num_threads`` (sync
  and async), the dynamics those of gymnasium with the drawn value, and envs without a
  range untouched.
* Every bad input gets a clear error.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from test_align_classic_control import _check_step, _exact

import envpool
from envpool import _native

G = [9.81, 1.62, 10.0, 3.7]


def _pendulum_ref(g: float, state: list[float]) -> Any:
    ref = gymnasium.make("Pendulum-v1", g=g).unwrapped
    ref.reset(seed=0)
    ref.state = np.array(state)
    return ref


@pytest.mark.parametrize("form", ["list", "dict"])
def test_pendulum_per_env_g_matches_gymnasium(form: str) -> None:
    n = len(G)
    env_kwargs: Any = [{"g": g} for g in G] if form == "list" else {"g": G}
    env = envpool.make_gymnasium("Pendulum-v1", num_envs=n, seed=3, env_kwargs=env_kwargs,
                                 info_env_kwargs=True)
    assert env.spec.config.g == 10.0  # the base value stays
    assert [c["g"] for c in env.spec.env_configs] == G
    obs, info = env.reset()
    np.testing.assert_array_equal(info["env_kwargs"]["g"], G)
    refs = [_pendulum_ref(g, env.get_state(i)) for i, g in enumerate(G)]
    rng = np.random.default_rng(7)
    for _ in range(199):  # one episode (Pendulum-v1 truncates at 200)
        if not _exact("Pendulum-v1"):
            for i, ref in enumerate(refs):
                ref.state = np.array(env.get_state(i))
        action = rng.uniform(-2.5, 2.5, size=(n, 1)).astype(np.float32)
        obs, reward, _, _, info = env.step(action)
        for i, ref in enumerate(refs):
            ref_obs, ref_reward, _, _, _ = ref.step(action[i])
            _check_step("Pendulum-v1", obs[i], ref_obs, reward[i], ref_reward,
                        env.get_state(i), ref.state)
    # The envs did differ: the same actions from different g give different states.
    assert len({tuple(env.get_state(i)) for i in range(n)}) == n
    env.close()


def test_per_env_overrides_global_and_make_vec() -> None:
    spec = envpool.make_spec("Pendulum-v1", num_envs=3, g=5.0, env_kwargs=[{"g": 1}, {}, {}])
    assert [c["g"] for c in spec.env_configs] == [1.0, 5.0, 5.0]  # coerced like g=1
    assert spec.config.g == 5.0
    envs = gymnasium.make_vec("envpool/Pendulum-v1", num_envs=2, seed=0,
                              env_kwargs={"g": [1.0, 20.0]}, info_env_kwargs=True)
    _, info = envs.reset()
    np.testing.assert_array_equal(info["env_kwargs"]["g"], [1.0, 20.0])
    envs.close()


def test_async_info_rows_follow_env_id() -> None:
    env = envpool.make_gymnasium("Pendulum-v1", num_envs=4, batch_size=2, seed=0,
                                 env_kwargs={"g": G}, info_env_kwargs=True)
    env.async_reset()
    seen = set()
    for _ in range(20):
        info = env.recv()[-1]
        ids = info["env_id"]
        np.testing.assert_array_equal(info["env_kwargs"]["g"], np.asarray(G)[ids])
        seen.update(ids.tolist())
        env.send(np.zeros((2, 1), np.float32), ids)
    assert seen == {0, 1, 2, 3}
    env.close()


def test_no_env_kwargs_info_unless_asked() -> None:
    env = envpool.make_gymnasium("Pendulum-v1", num_envs=2, env_kwargs={"g": [1.0, 2.0]})
    assert "env_kwargs" not in env.reset()[1]
    env.close()


def _draws(num_threads: int, batch_size: int, seed: int = 11) -> dict[int, list[tuple]]:
    """Per env: (drawn g, first observation) of each episode over 30 steps of 5-step
    episodes, in sync or async mode."""
    ranges = [envpool.Uniform(8.0, 12.0), 9.0, envpool.Uniform(1.0, 2.0),
              envpool.Uniform(8.0, 12.0)]
    env = envpool.make_gymnasium(
        "Pendulum-v1", num_envs=4, batch_size=batch_size, num_threads=num_threads, seed=seed,
        max_episode_steps=5, info_env_kwargs=True, env_kwargs={"g": ranges})
    episodes: dict[int, list[tuple]] = {i: [] for i in range(4)}
    env.async_reset()
    for _ in range(30):
        obs, _, _, _, info = env.recv()
        for row, i in enumerate(info["env_id"].tolist()):
            if info["elapsed_step"][row] == 0:
                episodes[i].append((float(info["env_kwargs"]["g"][row]), obs[row].tolist()))
            else:  # within an episode the setting stays
                assert info["env_kwargs"]["g"][row] == episodes[i][-1][0]
        env.send(np.full((len(info["env_id"]), 1), 0.5, np.float32), info["env_id"])
    env.close()
    return episodes


def test_uniform_draws_are_reproducible_and_in_range() -> None:
    ref = _draws(num_threads=1, batch_size=4)
    for i in range(4):
        assert len(ref[i]) >= 4
    for num_threads, batch_size in ((3, 4), (2, 2), (1, 1)):
        other = _draws(num_threads, batch_size)
        for i in range(4):  # async runs see fewer episodes of some envs
            k = min(len(ref[i]), len(other[i]))
            assert k >= 2 and other[i][:k] == ref[i][:k], (num_threads, batch_size, i)
    g0 = [g for g, _ in ref[0]]
    assert all(8.0 <= g < 12.0 for g in g0 + [g for g, _ in ref[3]])
    assert all(1.0 <= g < 2.0 for g, _ in ref[2])
    assert all(g == 9.0 for g, _ in ref[1])
    assert len(set(g0)) == len(g0)  # a new draw at each reset
    assert [g for g, _ in ref[0]] != [g for g, _ in ref[3]]  # each env its own stream
    assert _draws(1, 4, seed=12)[0][0][0] not in g0


def test_uniform_leaves_other_envs_and_follows_gymnasium() -> None:
    """An env without a range keeps the uniform pool's trajectory bitwise; an env with
    one steps as gymnasium's Pendulum with the drawn g."""
    kwargs = {"num_envs": 2, "seed": 5, "max_episode_steps": 8}
    env = envpool.make_gymnasium("Pendulum-v1", info_env_kwargs=True,
                                 env_kwargs={"g": [10.0, envpool.Uniform(2.0, 4.0)]}, **kwargs)
    plain = envpool.make_gymnasium("Pendulum-v1", **kwargs)
    obs, info = env.reset()
    plain_obs, _ = plain.reset()
    np.testing.assert_array_equal(obs[0], plain_obs[0])
    rng = np.random.default_rng(1)
    for _ in range(20):
        if info["elapsed_step"][1] == 0:
            g = float(info["env_kwargs"]["g"][1])
            assert 2.0 <= g < 4.0
            ref = _pendulum_ref(g, env.get_state(1))
        action = rng.uniform(-2, 2, size=(2, 1)).astype(np.float32)
        state = env.get_state(1)
        obs, reward, _, truncated, info = env.step(action)
        plain_obs, plain_reward, *_ = plain.step(action)
        np.testing.assert_array_equal(obs[0], plain_obs[0])
        assert reward[0] == plain_reward[0]
        if info["elapsed_step"][1] > 0:
            ref.state = np.array(state)
            ref_obs, ref_reward, *_ = ref.step(action[1])
            _check_step("Pendulum-v1", obs[1], ref_obs, reward[1], ref_reward,
                        env.get_state(1), ref.state)
    env.close()
    plain.close()


MUJOCO_WEIGHTS = {"forward_reward_weight": [1.0, 0.5, 2.0], "ctrl_cost_weight": [0.1, 0.3, 0.0]}


def test_mujoco_per_env_weights_match_gymnasium() -> None:
    n = 3
    env = envpool.make_gymnasium("HalfCheetah-v5", num_envs=n, seed=3, max_episode_steps=40,
                                 env_kwargs=MUJOCO_WEIGHTS, info_env_kwargs=True)
    refs = [gymnasium.make("HalfCheetah-v5", **{k: v[i] for k, v in MUJOCO_WEIGHTS.items()})
            .unwrapped for i in range(n)]
    low, high = refs[0].action_space.low, refs[0].action_space.high
    rng = np.random.default_rng(7)

    def sync(i: int) -> None:
        refs[i].reset(seed=0)
        state = np.array(env.get_state(i))
        refs[i].set_state(state[:refs[i].model.nq], state[refs[i].model.nq:])

    obs, info = env.reset()
    for k, v in MUJOCO_WEIGHTS.items():
        np.testing.assert_array_equal(info["env_kwargs"][k], v)
    for i in range(n):
        sync(i)
    rewards = np.zeros(n)
    for _ in range(60):
        action = rng.uniform(low, high, size=(n, len(low))).astype(np.float32)
        obs, reward, _, truncated, info = env.step(action)
        for i, ref in enumerate(refs):
            if info["elapsed_step"][i] == 0:  # next-step autoreset
                sync(i)
                continue
            ref_obs, ref_reward, _, _, ref_info = ref.step(action[i])
            np.testing.assert_array_equal(obs[i], ref_obs, strict=True)
            assert reward[i] == np.float32(ref_reward), (i, reward[i], ref_reward)
            for key in ("reward_forward", "reward_ctrl"):
                assert info[key][i] == ref_info[key], (i, key)
            rewards[i] += reward[i]
    assert len(set(rewards.tolist())) == n
    env.close()


def test_mujoco_per_env_reset_noise() -> None:
    """Env 0 without noise starts exactly at gymnasium's initial state; env 1's noise
    stays within its scale; env 2's larger scale spreads further."""
    scales = [0.0, 0.01, 0.3]
    env = envpool.make_gymnasium("Hopper-v5", num_envs=3, seed=0,
                                 env_kwargs={"reset_noise_scale": scales})
    ref = gymnasium.make("Hopper-v5").unwrapped
    init = np.concatenate([ref.init_qpos, ref.init_qvel])
    spread = np.zeros(3)
    for seed in range(5):
        env.reset(seed=seed)
        for i, scale in enumerate(scales):
            deviation = np.abs(np.array(env.get_state(i)) - init)
            assert deviation.max() <= scale, (i, deviation.max())
            spread[i] = max(spread[i], deviation.max())
    assert spread[0] == 0.0 and 0.0 < spread[1] < 0.01 and 0.05 < spread[2] <= 0.3
    env.close()


@pytest.mark.parametrize("batch_size", [2, 1])
def test_atari_per_env_matches_uniform_pools(batch_size: int) -> None:
    """Each env of a pool with per-env sticky actions and no-op starts steps exactly as a
    one-env pool made with that env's settings (and seed)."""
    per_env = {"repeat_action_probability": [0.0, 0.5], "noop_max": [0, 30]}
    env = envpool.make_gymnasium("Pong-v5", num_envs=2, batch_size=batch_size, seed=9,
                                 num_threads=1, env_kwargs=per_env)
    singles = [envpool.make_gymnasium("Pong-v5", num_envs=1, seed=9 + i,
                                      **{k: v[i] for k, v in per_env.items()})
               for i in range(2)]
    rng = np.random.default_rng(0)
    env.async_reset()
    last = [s.reset()[0][0] for s in singles]
    for _ in range(80):
        obs, _, _, _, info = env.recv()
        for row, i in enumerate(info["env_id"].tolist()):
            np.testing.assert_array_equal(obs[row], last[i])
        ids = info["env_id"]
        actions = rng.integers(0, 6, size=len(ids))
        env.send(actions, ids)
        for i, a in zip(ids.tolist(), actions.tolist(), strict=True):
            last[i] = singles[i].step(np.array([a]))[0][0]
    # Sticky actions did act: the two envs' frames differ.
    assert not np.array_equal(last[0], last[1])
    env.close()
    for s in singles:
        s.close()


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"env_kwargs": [{"g": 1.0}]}, ValueError, r"needs 2 dicts .*got 1"),
        ({"env_kwargs": {"g": [1.0, 2.0, 3.0]}}, ValueError, r"env_kwargs\['g'\] needs 2 values"),
        ({"env_kwargs": {"g": 1.0}}, TypeError, r"must be a sequence of 2 values"),
        ({"env_kwargs": [{"g": 1.0}, 3]}, TypeError, r"env_kwargs\[1\] must be a dict"),
        ({"env_kwargs": "g"}, TypeError, r"list of dicts"),
        ({"env_kwargs": [{"gravity": 1.0}, {}]}, TypeError, r"unknown keyword\(s\) gravity"),
        ({"env_kwargs": [{"_xml": "x"}, {}]}, TypeError, r"unknown keyword\(s\) _xml"),
        ({"env_kwargs": [{"seed": 1}, {"num_envs": 3}]}, TypeError,
         r"cannot hold num_envs, seed: they are keywords of the whole pool"),
        ({"env_kwargs": [{"g": "strong"}, {}]}, TypeError, r"keyword 'g' must be a number"),
        ({"env_kwargs": [{"g": envpool.Uniform(1, 2)}, {}], "info_env_kwargs": 1}, TypeError,
         r"info_env_kwargs must be a bool"),
    ],
)
def test_bad_env_kwargs(kwargs: dict[str, Any], error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        envpool.make_gymnasium("Pendulum-v1", num_envs=2, **kwargs)


@pytest.mark.parametrize(
    ("task_id", "env_kwargs", "error", "match"),
    [
        ("Pong-v5", {"img_height": [84, 64]}, ValueError,
         r"Pong-v5 cannot vary img_height per env "
         r".*can vary: difficulty, episodic_life, mode, noop_max"),
        ("Hopper-v5", {"exclude_current_positions_from_observation": [True, False],
                       "xml_file": ["hopper.xml"] * 2}, ValueError,
         r"cannot vary exclude_current_positions_from_observation, xml_file per env"),
        ("Hopper-v5", {"reset_noise_scale": [envpool.Uniform(0, 1), 0.1]}, ValueError,
         r"Hopper-v5 cannot draw reset_noise_scale at reset .*can: none"),
        ("Acrobot-v1", {"book_or_nips": ["book", "nips"]}, TypeError, r"unknown keyword"),
        ("FrozenLake-v1", {"map_name": ["4x4", "8x8"]}, ValueError, r"can vary: none"),
    ],
)
def test_refused_per_env_keywords(task_id: str, env_kwargs: Any, error: type,
                                  match: str) -> None:
    with pytest.raises(error, match=match):
        envpool.make_spec(task_id, num_envs=2, env_kwargs=env_kwargs)


def test_space_changing_keyword_is_refused_by_the_spec_check() -> None:
    """A keyword a task lists as varying per env but which changes a space is refused,
    naming it (Python), and the native pool refuses such envs too."""
    if "_PerEnvFrozenLake-v0" not in envpool.list_all_envs():
        envpool.register("_PerEnvFrozenLake-v0", "FrozenLake",
                         per_env_kwargs=("map_name", "is_slippery"))
    spec = envpool.make_spec("_PerEnvFrozenLake-v0", num_envs=2,
                             env_kwargs={"is_slippery": [True, False]})
    assert [c["is_slippery"] for c in spec.env_configs] == [True, False]
    with pytest.raises(ValueError, match=r"env_kwargs map_name would change the spaces of env 1"):
        envpool.make_spec("_PerEnvFrozenLake-v0", num_envs=2,
                          env_kwargs=[{"map_name": "4x4"}, {"map_name": "8x8"}])
    base = _native.default_config("FrozenLake")
    with pytest.raises(ValueError, match=r"env 1 has other spaces than env 0 \(obs"):
        _native.Pool("FrozenLake", base, num_envs=2,
                     env_configs=[base, {**base, "map_name": "8x8"}])
    with pytest.raises(ValueError, match=r"one entry per env"):
        _native.Pool("FrozenLake", base, num_envs=2, env_configs=[base])


def test_uniform_checks_its_bounds() -> None:
    with pytest.raises(ValueError, match=r"low <= high"):
        envpool.Uniform(2.0, 1.0)
    with pytest.raises(TypeError, match=r"finite number"):
        envpool.Uniform(0.0, float("inf"))
    with pytest.raises(TypeError, match=r"finite number"):
        envpool.Uniform("a", 1.0)  # type: ignore[arg-type]


def test_flavours_and_adapters_take_env_kwargs() -> None:
    """gym and dm flavours and an adapter pass env_kwargs on; the dm flavour refuses
    info_env_kwargs (its State has fixed fields) rather than dropping it."""
    gym_env = envpool.make_gym("Pendulum-v1", num_envs=2, env_kwargs={"g": [1.0, 2.0]},
                               info_env_kwargs=True)
    np.testing.assert_array_equal(gym_env.reset()[1]["env_kwargs"]["g"], [1.0, 2.0])
    gym_env.close()
    dm = envpool.make_dm("Pendulum-v1", num_envs=2, env_kwargs={"g": [1.0, 2.0]})
    assert [c["g"] for c in dm.spec.env_configs] == [1.0, 2.0]
    dm.close()
    with pytest.raises(TypeError, match=r"info_env_kwargs is not available in the dm flavour"):
        envpool.make_dm("Pendulum-v1", num_envs=2, info_env_kwargs=True)
    pytest.importorskip("stable_baselines3")
    from envpool.integrations.sb3 import make_vec_env

    venv = make_vec_env("Pendulum-v1", n_envs=2, seed=0, env_kwargs={"g": [1.0, 20.0]})
    assert [c["g"] for c in venv.pool.spec.env_configs] == [1.0, 20.0]
    venv.close()
    with pytest.raises(TypeError, match=r"a value for every env is a plain keyword \(g=\.\.\.\)"):
        make_vec_env("Pendulum-v1", n_envs=2, env_kwargs={"g": 9.0})


def _g_per_episode(autoreset_mode: str, reseed: int | None = None) -> list[float]:
    """Env 0's drawn g of each episode over 12 steps of 3-step episodes."""
    env = envpool.make_gymnasium("Pendulum-v1", num_envs=2, seed=4, max_episode_steps=3,
                                 autoreset_mode=autoreset_mode, info_env_kwargs=True,
                                 env_kwargs={"g": [envpool.Uniform(5.0, 15.0)] * 2})
    _, info = env.reset(seed=reseed)
    draws = [float(info["env_kwargs"]["g"][0])]
    for _ in range(12):
        _, _, terminated, truncated, info = env.step(np.zeros((2, 1), np.float32))
        g = float(info["env_kwargs"]["g"][0])
        if autoreset_mode == "same_step" and truncated[0]:
            draws.append(g)  # the done step already reset: the new episode's draw
        elif autoreset_mode == "next_step" and info["elapsed_step"][0] == 0:
            draws.append(g)
        else:
            assert g == draws[-1]
    env.close()
    return draws


def test_uniform_draws_at_every_reset_in_both_autoreset_modes() -> None:
    """Same-step and next-step autoreset draw the same values (each reset draws once, from
    the env's Rng); reset(seed=s) reseeds the draws too."""
    next_step = _g_per_episode("next_step")
    assert len(next_step) >= 4 and len(set(next_step)) == len(next_step)
    same_step = _g_per_episode("same_step")
    assert same_step[:len(next_step)] == next_step[:len(same_step)]
    assert len(same_step) >= 5
    assert _g_per_episode("next_step", reseed=4) == next_step  # make(seed=4): env 0 gets 4
    assert _g_per_episode("next_step", reseed=5)[0] != next_step[0]
