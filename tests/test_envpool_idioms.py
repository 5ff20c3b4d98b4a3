"""sail-sg EnvPool's documented idioms, run unchanged against this package.

Each test is written the way EnvPool's documentation and the scripts that use it
write it (its "Python interface" page, CleanRL's ``*_envpool.py`` scripts): spaces are
read from the env, never hard-coded, so a mismatch in the space contract shows.
"""

from __future__ import annotations

import sys
from typing import Any

import dm_env
import gymnasium
import numpy as np
import pytest
import tree

import envpool
from envpool.flavours import gym_spaces

RNG = np.random.default_rng(0)


def test_first_lines_of_an_envpool_script() -> None:
    env = envpool.make_gymnasium("CartPole-v1", num_envs=4)
    assert env.action_space.n == 2  # one env's Discrete(2)
    assert env.observation_space.shape == (4,)
    pong = envpool.make("Pong-v5", env_type="gymnasium", num_envs=2)
    assert pong.observation_space.shape == (4, 84, 84)
    assert pong.action_space.n == 6
    obs, info = pong.reset()
    assert obs.shape == (2, *pong.observation_space.shape)
    assert {"env_id", "elapsed_step", "lives", "reward", "players"} <= set(info)
    for flavour in ("gym", "gymnasium"):
        e = envpool.make("CartPole-v1", env_type=flavour, num_envs=3)
        assert e.num_envs == 3 and e.is_vector_env
        assert e.single_action_space == e.action_space
        assert e.single_observation_space == e.observation_space


def test_spec_and_config() -> None:
    spec = envpool.make_spec("Pong-v5", num_envs=4, episodic_life=True)
    assert spec.config.num_envs == 4 and spec.config.episodic_life is True
    assert spec.config.stack_num == 4 and spec.config.img_height == 84
    assert spec.observation_space.shape == (4, 84, 84) and spec.action_space.n == 6
    env = envpool.make_gymnasium("Pong-v5", num_envs=4, episodic_life=True)
    assert env.spec.config == spec.config
    assert env.config["num_envs"] == 4 and env.config["batch_size"] == 4
    assert np.array_equal(env.all_env_ids, np.arange(4))


def test_sync_step_loop_with_random_actions() -> None:
    env = envpool.make("Pong-v5", env_type="gym", num_envs=3, seed=1)
    obs, info = env.reset()
    assert obs.shape == (3, 4, 84, 84) and obs.dtype == np.uint8
    for _ in range(5):
        action = RNG.integers(env.action_space.n, size=env.num_envs)
        obs, rew, term, trunc, info = env.step(action)
    assert rew.shape == term.shape == trunc.shape == (3,)
    assert np.array_equal(info["env_id"], np.arange(3))


def test_async_send_recv_loop() -> None:
    num_envs, batch_size = 8, 3
    env = envpool.make("CartPole-v1", env_type="gym", num_envs=num_envs, batch_size=batch_size)
    action_num = env.action_space.n
    env.async_reset()  # send the initial reset signal to all envs
    seen: set[int] = set()
    for _ in range(30):
        obs, rew, term, trunc, info = env.recv()
        env_id = info["env_id"]
        assert obs.shape == (batch_size, *env.observation_space.shape)
        seen.update(int(i) for i in env_id)
        action = RNG.integers(action_num, size=batch_size)
        env.send(action, env_id)
    assert seen == set(range(num_envs))


def test_recv_with_envpools_reset_flag() -> None:
    """EnvPool's ``recv(reset=False, return_info=True)``: ``recv(True)`` after
    ``async_reset`` returns what ``reset`` returns."""
    obs = envpool.make_gymnasium("CartPole-v1", num_envs=2, seed=3).reset()[0].copy()
    env = envpool.make_gymnasium("CartPole-v1", num_envs=2, seed=3)
    env.async_reset()
    obs2, info2 = env.recv(True)
    assert np.array_equal(obs, obs2) and np.array_equal(info2["env_id"], [0, 1])
    again = envpool.make_gymnasium("CartPole-v1", num_envs=2, seed=3)
    again.async_reset()
    alone = again.recv(True, False)
    assert isinstance(alone, np.ndarray) and np.array_equal(alone, obs)
    again.close()
    env.send(np.zeros(2, dtype=np.int64))
    assert len(env.recv(False, True)) == 5
    env.send(np.zeros(2, dtype=np.int64))
    with pytest.raises(TypeError, match="timeout"):  # a wait limit given positionally
        env.recv(5.0)
    assert len(env.recv(timeout=5.0)) == 5  # the refused call left the batch in flight
    env.close()
    legacy = envpool.make("CartPole-v1", env_type="gym", num_envs=2, seed=3)
    legacy.async_reset()
    assert np.array_equal(legacy.recv(True, False), obs)
    dm = envpool.make_dm("CartPole-v1", num_envs=2, seed=3)
    dm.async_reset()
    ts = dm.recv(True)  # a TimeStep either way, as EnvPool's dm flavour
    assert np.array_equal(ts.observation.obs, obs) and (ts.step_type == 0).all()
    with pytest.raises(TypeError):
        dm.recv("yes")
    dm.close()


def test_gym_flavour_spaces_without_gym(monkeypatch: pytest.MonkeyPatch) -> None:
    # Where gym cannot be imported too.
    monkeypatch.setitem(sys.modules, "gym", None)
    monkeypatch.setitem(sys.modules, "gym.spaces", None)
    # gym is looked for once per process (gym_spaces.installed_gym): this one has none
    gym_spaces.installed_gym.cache_clear()
    envs = envpool.make("Breakout-v5", env_type="gym", num_envs=2)
    gym_spaces.installed_gym.cache_clear()
    try:
        assert type(envs.action_space) is gymnasium.spaces.Discrete
        assert type(envs.observation_space) is gymnasium.spaces.Box
    finally:
        envs.close()


def test_cleanrl_gym_idiom() -> None:
    """CleanRL's ``ppo_atari_envpool.py``: attributes set on the pool, its own wrapper."""
    envs = envpool.make("Breakout-v5", env_type="gym", num_envs=4, episodic_life=True,
                        reward_clip=True, seed=1)
    envs.num_envs = 4
    envs.single_action_space = envs.action_space
    envs.single_observation_space = envs.observation_space
    # gymnasium's spaces, as EnvPool 1.2.5's gym pools have (its api_test checks it), that
    # are also the installed gym's (the suite's venv has gym 0.26.2: the gfootball reference),
    # as CleanRL asserts (tests/test_gym_legacy.py runs its script under gym 0.23.1).
    assert isinstance(envs.action_space, gymnasium.spaces.Discrete)
    gym = gym_spaces.installed_gym()
    assert gym is None or isinstance(envs.action_space, gym.spaces.Discrete)
    next_obs, _ = envs.reset()
    assert next_obs.shape == (envs.num_envs, *envs.single_observation_space.shape)
    action = np.array([envs.single_action_space.sample() for _ in range(envs.num_envs)])
    next_obs, reward, term, trunc, info = envs.step(action)
    assert set(np.unique(reward)) <= {-1.0, 0.0, 1.0}  # reward_clip
    assert "lives" in info and "reward" in info  # CleanRL's episode statistics read these


def test_dm_idiom() -> None:
    env = envpool.make("CartPole-v1", env_type="dm", num_envs=3)
    ts = env.reset()
    assert isinstance(ts, dm_env.TimeStep)
    assert (ts.step_type == dm_env.StepType.FIRST).all() and ts.step_type.dtype == np.int32
    assert ts.observation.obs.shape == (3, 4)
    assert np.array_equal(ts.observation.env_id, np.arange(3))
    action_spec = env.action_spec()
    ts = env.step(RNG.integers(action_spec.num_values, size=3))
    assert (ts.step_type == dm_env.StepType.MID).all() and (ts.discount == 1).all()


@pytest.mark.parametrize("flavour", ["gym", "dm", "gymnasium"])
def test_async_reset_with_seed_reseeds(flavour: str) -> None:
    """``reset(seed=s)`` in async mode reseeds every env (it used to drop the seed in the
    gym and dm flavours), so it matches a pool made with ``seed=s``."""

    def first_rows(env: Any, seed: int | None) -> dict[int, bytes]:
        out = env.reset(seed=seed) if seed is not None else env.reset()
        if flavour == "dm":
            obs, ids = out.observation.obs, out.observation.env_id
        else:
            obs, ids = out[0], out[1]["env_id"]
        rows = {int(i): obs[k].tobytes() for k, i in enumerate(ids)}
        while len(rows) < 6:  # collect every env's reset observation
            out = env.recv()
            if flavour == "dm":
                obs, ids = out.observation.obs, out.observation.env_id
            else:
                obs, ids = out[0], out[4]["env_id"]
            rows.update({int(i): obs[k].tobytes() for k, i in enumerate(ids)})
        return rows

    kw: dict[str, Any] = {"env_type": flavour, "num_envs": 6, "batch_size": 3}
    reseeded = envpool.make("CartPole-v1", seed=0, **kw)
    first_rows(reseeded, None)
    got = first_rows(reseeded, 123)
    want = first_rows(envpool.make("CartPole-v1", seed=123, **kw), None)
    assert got == want


def test_a_spec_gives_the_dm_pools_specs() -> None:
    # EnvPool scripts read the dm specs off make_spec(...) before making a pool
    spec = envpool.make_spec("D1Basic-v1", use_combined_action=True)
    action_spec = spec.action_spec()
    assert isinstance(action_spec, dm_env.specs.DiscreteArray) and action_spec.num_values == 6
    for task_id in ("Pong-v5", "CheetahRun-v1", "CartPole-v1"):
        spec = envpool.make_spec(task_id, num_envs=2)
        env = envpool.make_dm(task_id, num_envs=2)
        try:
            assert spec.action_spec() == env.action_spec()
            assert spec.observation_spec()._fields == env.observation_spec()._fields
            for a, b in zip(tree.flatten(spec.observation_spec()),
                            tree.flatten(env.observation_spec()), strict=True):
                assert (a.shape, a.dtype, a.name) == (b.shape, b.dtype, b.name)
        finally:
            env.close()


@pytest.mark.parametrize("flavour", ["gym", "gymnasium"])
def test_pools_are_gymnasium_envs_and_vector_envs(flavour: str) -> None:
    # as EnvPool's own tests check: isinstance(env, gymnasium.Env), gymnasium's vector
    # wrappers over the pool, len() telling frameworks it is many envs
    env = envpool.make("CartPole-v1", env_type=flavour, num_envs=4, seed=0)
    try:
        assert isinstance(env, gymnasium.Env) and isinstance(env, gymnasium.vector.VectorEnv)
        assert len(env) == 4 and env.single_observation_space is env.observation_space
        wrapped = gymnasium.wrappers.vector.NormalizeObservation(env)
        obs, _ = wrapped.reset(seed=1)
        assert obs.shape == (4, 4)
        obs, reward, *_ = wrapped.step(np.zeros(4, dtype=np.int64))
        assert obs.shape == (4, 4) and reward.shape == (4,)
    finally:
        env.close()


def test_atari_info_has_envpools_keys_and_the_ram() -> None:
    """EnvPool's Atari info: env_id, players, elapsed_step, lives, reward, terminated and
    the console's RAM (the RAM's values: test_align_atari, against ale-py's getRAM)."""
    env = envpool.make_gym("Breakout-v5", num_envs=2)
    _, info = env.reset()
    assert set(info) == {"env_id", "players", "elapsed_step", "lives", "reward", "terminated",
                         "ram"}
    assert info["ram"].shape == (2, 128) and info["ram"].dtype == np.uint8
    assert env.info_keys == ("lives", "reward", "terminated", "ram")


def test_zero_discount_on_life_loss_is_the_dm_discount() -> None:
    """EnvPool gives zero_discount_on_life_loss as the dm TimeStep's discount: 0 on the steps
    that lose a life (the episode goes on), 0 at the game's end, 1 on the other steps. Without
    the keyword only the game's end has discount 0."""
    for zero_on_loss in (True, False):
        with envpool.make_dm("Breakout-v5", num_envs=1, seed=0,
                             zero_discount_on_life_loss=zero_on_loss) as env:
            ts = env.reset()
            lives = int(ts.observation.lives[0])
            rows = []  # (life lost, discount, last)
            while not ts.last()[0]:
                ts = env.step(RNG.integers(4, size=1))
                lost = 0 < ts.observation.lives[0] < lives
                lives = int(ts.observation.lives[0])
                rows.append((bool(lost), float(ts.discount[0]), bool(ts.last()[0])))
        assert sum(lost for lost, _, _ in rows) == 4  # Breakout: 5 lives
        assert rows[-1][1:] == (0.0, True) and not any(last for _, _, last in rows[:-1])
        assert [d for lost, d, _ in rows if lost] == [0.0 if zero_on_loss else 1.0] * 4
        assert all(d == 1.0 for lost, d, last in rows if not lost and not last)
    assert "discount" not in env.observation_spec()._fields


def test_dm_state_has_players_env_id_and_scalar_bounds() -> None:
    with envpool.make_dm("CartPole-v1", num_envs=3) as env:
        ts = env.reset()
        assert np.array_equal(ts.observation.players.env_id, np.arange(3))
        assert env.observation_spec().players.env_id.dtype == np.int32
    # EnvPool's State specs give a bound that is the same for every element as a scalar
    obs = envpool.make_spec("Pong-v5").observation_spec().obs
    assert obs.shape == (4, 84, 84) and obs.maximum.shape == () and obs.maximum == 255
    # but the action specs keep per-element bounds (agents sample from them)
    action = envpool.make_spec("CheetahRun-v1").action_spec()
    assert action.minimum.shape == action.shape == (6,)
    with pytest.raises(ValueError, match="next step"):
        envpool.DMEnvPool(envpool.make_spec("CartPole-v1", autoreset_mode="same_step"))


def test_action_dict_and_action_array_spec() -> None:
    """EnvPool's action dict: its arrays have the dtypes of spec.action_array_spec; another
    dtype is refused (a TypeError, and EnvPool's RuntimeError)."""
    env = envpool.make_gym("Pong-v5", num_envs=4, batch_size=2, seed=0)
    spec = env.spec.action_array_spec
    assert list(spec) == ["env_id", "players.env_id", "action"]
    assert spec["action"].dtype == np.int32 and spec["action"].maximum + 1 == 6
    assert spec["env_id"].maximum == 3
    env.async_reset()
    _, _, _, _, info = env.recv()
    ids = info["env_id"]
    good = {"env_id": ids, "players.env_id": ids, "action": np.ones(2, np.int32)}
    for key, bad in [("action", np.ones(2, np.int64)), ("env_id", ids.astype(np.int64))]:
        wrong = {**good, key: bad}
        if key == "env_id":
            wrong["players.env_id"] = bad
        with pytest.raises(RuntimeError, match="action_array_spec") as error:
            env.send(wrong)
        assert isinstance(error.value, TypeError)
    with pytest.raises(ValueError, match="players.env_id must equal env_id"):
        env.send({**good, "players.env_id": ids[::-1].copy()})
    with pytest.raises(ValueError, match="keys"):
        env.send({"action": np.ones(2, np.int32)})
    with pytest.raises(ValueError, match="carries its env_id"):
        env.send(good, ids)
    env.send(good)
    _, _, _, _, info = env.recv()
    assert set(info["env_id"].tolist()) <= set(range(4))
    env.close()
    # each row's action reaches the env its env_id names: the same as the array form
    dicts = envpool.make_gymnasium("CartPole-v1", num_envs=3, seed=5)
    arrays = envpool.make_gymnasium("CartPole-v1", num_envs=3, seed=5)
    dicts.reset()
    arrays.reset()
    order = np.array([2, 0, 1], np.int32)
    dicts.send({"env_id": order, "players.env_id": order,
                "action": np.array([1, 0, 1], np.int32)})
    arrays.send(np.array([1, 0, 1]), order)
    a, b = dicts.recv()[0], arrays.recv()[0]
    assert np.array_equal(a, b)
    dicts.close()
    arrays.close()
    box = envpool.make_spec("Ant-v5").action_array_spec["action"]
    assert box.dtype == np.float32 and box.shape == [-1, 8] and box.maximum == 1.0


def test_whole_float_actions_are_discrete_actions() -> None:
    env = envpool.make_gymnasium("CartPole-v1", num_envs=2, seed=3)
    twin = envpool.make_gymnasium("CartPole-v1", num_envs=2, seed=3)
    env.reset()
    twin.reset()
    for a in ([0.0, 1.0], [1.0, 1.0], [1.0, 0.0]):
        obs = env.step(np.array(a))[0]
        assert np.array_equal(obs, twin.step(np.array(a, np.int64))[0])
    for bad in ([0.5, 1.0], [np.nan, 0.0], [np.inf, 0.0]):
        with pytest.raises(TypeError, match="whole numbers"):
            env.step(np.array(bad))
    with pytest.raises(ValueError, match="out of range"):
        env.step(np.array([1e20, 0.0]))
    env.close()
    twin.close()


def test_seed_warns_and_seeds_the_next_reset() -> None:
    env = envpool.make_gym("CartPole-v1", num_envs=2, seed=0)
    with pytest.warns(UserWarning, match="deprecated"):
        env.seed(7)
    obs, _ = env.reset()
    assert np.array_equal(obs, envpool.make_gym("CartPole-v1", num_envs=2, seed=7).reset()[0])
    again, _ = env.reset()  # once: the next reset goes on from the envs' own streams
    assert not np.array_equal(again, obs)
    with pytest.warns(UserWarning):
        env.seed()
    env.close()


def test_family_spec_class_from_a_config() -> None:
    """EnvPool's family spec classes: ``AtariEnvSpec(AtariEnvSpec.gen_config(...))``, with
    EnvPool's config names (Atari's ``task``), and its pool classes."""
    from envpool.atari import AtariEnvSpec, AtariGymnasiumEnvPool

    config = AtariEnvSpec.gen_config(task="breakout", num_envs=3, episodic_life=True)
    assert config.task == "breakout" and config.frame_skip == 4 and config.seed == 42
    spec = AtariEnvSpec(config)
    assert isinstance(spec, envpool.EnvSpec) and spec.id == "Breakout-v5"
    assert spec.config == envpool.make_spec("Breakout-v5", num_envs=3,
                                            episodic_life=True).config
    assert AtariEnvSpec(tuple(AtariEnvSpec.gen_config())).id == "Pong-v5"
    with AtariGymnasiumEnvPool(spec) as env:
        assert env.reset()[0].shape == (3, 4, 84, 84)
    with pytest.raises(ValueError, match="batch_size"):
        AtariEnvSpec(AtariEnvSpec.gen_config(num_envs=4, batch_size=5))
    with pytest.raises(ValueError, match="no task id has {'task': 'combat'}"):
        AtariEnvSpec(AtariEnvSpec.gen_config(task="combat"))  # (a ROM without an id)
    seeds = AtariEnvSpec(AtariEnvSpec.gen_config(num_envs=2, seed=np.array([3, 9])))
    assert seeds.seeds == [3, 9]
    from envpool.classic_control import CartPoleEnvSpec
    # the first registered id of the native env that no config value contradicts
    assert CartPoleEnvSpec(CartPoleEnvSpec.gen_config()).id == "CartPole-v0"
    spec = CartPoleEnvSpec(CartPoleEnvSpec.gen_config(max_episode_steps=500))
    assert spec.max_episode_steps == 500


def test_state_array_spec_names_what_a_step_returns() -> None:
    """EnvPool's spec.state_array_spec: one entry per array a step gives (obs, each info key,
    env_id, elapsed_step, reward, the ends), with the dtypes and per-env shapes the pool's
    arrays have; gymnasium_observation_space is the observation space."""
    env = envpool.make_gymnasium("Ant-v4", num_envs=2, seed=0, from_pixels=True,
                                 pixels_only=False, render_width=16, render_height=16)
    spec = env.spec
    assert spec.gymnasium_observation_space == spec.observation_space
    states = spec.state_array_spec
    obs, info = env.reset()
    obs, reward, terminated, truncated, info = env.step(np.zeros((2, 8), np.float32))
    assert isinstance(obs, dict)
    for name, array in obs.items():
        assert states[f"obs:{name}"].dtype == array.dtype
        assert states[f"obs:{name}"].shape == list(array.shape[1:])
    for key, array in info.items():
        if key == "players":  # EnvPool's {"env_id": ...}
            assert states["info:players.env_id"].dtype == array["env_id"].dtype
            continue
        name = key if key == "elapsed_step" else f"info:{key}"
        assert states[name].dtype == array.dtype, key
        assert states[name].shape == list(array.shape[1:]), key
    assert {"info:reward_contact", "info:qpos0", "info:qvel0"} <= set(states)
    assert states["done"].dtype == states["trunc"].dtype == terminated.dtype == np.bool_
    assert states["reward"].dtype == reward.dtype == np.float32
    env.close()
    # EnvPool's order: its eight common arrays, then the env's
    assert list(envpool.make_spec("CartPole-v1").state_array_spec) == [
        "info:env_id", "info:players.env_id", "elapsed_step", "done", "reward", "discount",
        "step_type", "trunc", "obs"]
    # and no entry names an array a step does not give (Pong: the native discount, which
    # the dm flavour's TimeStep carries, is no info key)
    for env in (envpool.make_gymnasium("Ant-v4", num_envs=1), envpool.make_gymnasium("Pong-v5")):
        _, info = env.reset()
        named = {k for k in env.spec.state_array_spec if k.startswith("info:")}
        assert named == {f"info:{k}" for k in info if k not in ("players", "elapsed_step")} | {
            "info:players.env_id"}, env.spec.id
        env.close()


def test_raw_binding_steps_as_the_gym_pool() -> None:
    """EnvPool's raw binding (envpool.atari.atari_envpool, which its core tests drive): a
    spec from a config tuple in ``_config_keys`` order (strings as bytes), a pool whose
    ``_recv`` gives the arrays of ``_state_keys`` and whose ``_send`` takes those of
    ``_action_keys``: the numbers of make_gym's pool of the same config, over a truncation
    and the reset after it; bad actions raise as ``send``'s do; ``_xla`` says it is missing."""
    from envpool.atari.atari_envpool import _AtariEnvPool, _AtariEnvSpec

    conf = dict(zip(_AtariEnvSpec._config_keys, _AtariEnvSpec._default_config_values,
                    strict=True))
    conf.update(task=b"breakout", num_envs=3, batch_size=3, seed=5, max_episode_steps=12)
    spec = _AtariEnvSpec(tuple(conf.values()))
    assert spec.id == "Breakout-v5" and spec._config_values == tuple(spec.config)
    assert spec._state_keys[:8] == ["info:env_id", "info:players.env_id", "elapsed_step",
                                    "done", "reward", "discount", "step_type", "trunc"]
    assert spec._action_keys == ["env_id", "players.env_id", "action"]
    obs_spec = spec._state_spec[spec._state_keys.index("obs")]
    assert obs_spec[0] == np.uint8 and obs_spec[1] == [4, 84, 84]
    raw = _AtariEnvPool(spec)
    gym = envpool.make_gym("Breakout-v5", num_envs=3, seed=5, max_episode_steps=12)
    raw._reset(np.arange(3, dtype=np.int32))
    state = dict(zip(raw._state_keys, raw._recv(), strict=True))
    obs, info = gym.reset()
    np.testing.assert_array_equal(state["obs"], obs)
    np.testing.assert_array_equal(state["step_type"], [0, 0, 0])
    rng = np.random.default_rng(0)
    for t in range(16):
        actions = rng.integers(0, 4, 3)  # int64, as EnvPool's test sends them
        raw._send((state["info:env_id"], state["info:players.env_id"], actions))
        state = dict(zip(raw._state_keys, raw._recv(), strict=True))
        obs, reward, terminated, truncated, info = gym.step(actions)
        np.testing.assert_array_equal(state["obs"], obs)
        np.testing.assert_array_equal(state["reward"], reward)
        np.testing.assert_array_equal(state["done"], terminated | truncated)
        np.testing.assert_array_equal(state["trunc"], truncated)
        np.testing.assert_array_equal(state["elapsed_step"], info["elapsed_step"])
        np.testing.assert_array_equal(state["info:lives"], info["lives"])
        assert (state["step_type"] == 2).all() == (t == 11)  # LAST at the time limit
        assert (state["step_type"] == 0).all() == (t == 12)  # FIRST: the reset after it
        np.testing.assert_array_equal(state["discount"], 1)  # truncation keeps 1
    ids = state["info:env_id"]
    with pytest.raises(ValueError, match="out of range|invalid"):
        raw._send((ids, ids, np.array([9, 0, 0])))
    with pytest.raises(ValueError, match="players.env_id"):
        raw._send((ids, ids[::-1].copy(), np.zeros(3, np.int32)))
    raw._send((ids, ids, np.zeros(3, np.int32)))  # still usable
    assert len(raw._recv()) == len(raw._state_keys)
    assert len(raw._xla()) == 4  # (handle, recv, send, step): tests/test_xla.py
    raw.close()
    gym.close()
    # envpool.python.api.py_env: the spec class and the dm and gymnasium pools of a binding
    from envpool.python.api import py_env

    spec_class, dm_pool, gymnasium_pool = py_env(_AtariEnvSpec, _AtariEnvPool)
    pong = spec_class(spec_class.gen_config(task="pong", num_envs=2))
    assert dm_pool(pong).reset().observation.obs.shape == (2, 4, 84, 84)
    assert gymnasium_pool(pong).reset()[0].shape == (2, 4, 84, 84)
