"""envpool pools as Ray RLlib's env-runner vector envs (``envpool.integrations.rllib``).

Needs ``ray[rllib]`` (the ``rllib`` extra, its own venv in ``.ci/run``: RLlib 2.60 pins
gymnasium 1.2.2). The default tests are short: per-runner seeds through RLlib's own
``SingleAgentEnvRunner``, the Pong path with its channel-last connector, and PPO on a
local two-node cluster with an env runner killed mid-run. The learning comparison against
RLlib's default gymnasium vectorization is nightly.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

pytest.importorskip("ray.rllib")

import gymnasium  # noqa: E402
import ray  # noqa: E402
from ray.cluster_utils import Cluster  # noqa: E402
from ray.rllib.algorithms.ppo import PPOConfig  # noqa: E402
from ray.rllib.env.single_agent_env_runner import SingleAgentEnvRunner  # noqa: E402

from envpool.integrations.rllib import (  # noqa: E402
    ChannelsLast,
    EnvpoolCallback,
    channels_last_connector,
)

MB = 2**20
# Each node of the local cluster: one CPU (so two env runners of one CPU each land on
# different nodes), a small object store, no dashboard.
NODE = {"num_cpus": 1, "object_store_memory": 80 * MB}


def _config(task: str = "envpool/CartPole-v1", num_envs: int = 4,
            env_config: dict[str, Any] | None = None, seed: int | None = None,
            runners: int = 2) -> PPOConfig:
    """The user's config: the envpool/ id, the vector entry point, EnvpoolCallback."""
    config = (
        PPOConfig()
        .environment(task, env_config={"num_threads": 1, **(env_config or {})})
        .env_runners(num_env_runners=runners, num_envs_per_env_runner=num_envs,
                     gym_env_vectorize_mode="vector_entry_point")
        .callbacks(EnvpoolCallback)
    )
    if seed is not None:
        config = config.debugging(seed=seed)
    return config


def _first_obs(config: PPOConfig, worker_index: int) -> np.ndarray:
    """The reset observations of env runner ``worker_index`` (RLlib's own runner class,
    made in this process), one row per env."""
    runner = SingleAgentEnvRunner(config=config, worker_index=worker_index)
    try:
        episodes = runner.sample(num_timesteps=runner.num_envs, random_actions=True)
        return np.stack([e.get_observations(0) for e in episodes if e.t_started == 0])
    finally:
        runner.stop()


def _rows(obs: np.ndarray) -> set[bytes]:
    return {row.tobytes() for row in obs}


@pytest.mark.parametrize("seed", [None, 7])
def test_runners_get_disjoint_reproducible_seeds(seed: int | None) -> None:
    """Three runners (and an evaluation runner) start their 4 envs from 16 different
    CartPole states, and a runner rebuilt with the same index starts from the same ones,
    with RLlib's seed (``config.debugging(seed=7)``) and without it (the pool's seed)."""
    config = _config(seed=seed)
    starts = {w: _first_obs(config, w) for w in (1, 2, 3)}
    evaluation = config.copy(copy_frozen=False)
    evaluation.in_evaluation = True  # what RLlib sets on its evaluation runners' config
    starts["eval"] = _first_obs(evaluation, 1)
    seen: set[bytes] = set()
    for obs in starts.values():
        assert obs.shape == (4, 4)
        seen |= _rows(obs)
    assert len(seen) == 16
    np.testing.assert_array_equal(_first_obs(config, 2), starts[2])


def test_unseeded_pools_differ_per_runner() -> None:
    """``env_config={"seed": None}`` without an RLlib seed: each pool draws its own."""
    config = _config(env_config={"seed": None})
    assert not _rows(_first_obs(config, 1)) & _rows(_first_obs(config, 2))


def test_episodes_follow_the_pools_autoreset() -> None:
    """RLlib's episodes over a NEXT_STEP pool: every CartPole episode that RLlib closes
    starts from a reset state, ends past a termination bound or at the time limit, and has
    one reward per step; the ids are unique, and the env steps RLlib counts are the ones
    it asked for."""
    runner = SingleAgentEnvRunner(config=_config(env_config={"seed": 3}), worker_index=1)
    try:
        episodes = runner.sample(num_timesteps=1200, random_actions=True)
    finally:
        runner.stop()
    done = [e for e in episodes if e.is_done]
    assert len(done) > 20
    assert len({e.id_ for e in episodes}) == len(episodes)
    for e in done:
        obs = e.get_observations()
        assert len(obs) == len(e) + 1
        if e.t_started == 0:
            assert np.all(np.abs(obs[0]) <= 0.05)
        assert e.get_return() == len(e)
        last = obs[-1]
        if e.is_terminated:
            assert abs(last[0]) > 2.4 or abs(last[2]) > 12 * 2 * np.pi / 360
        for x in obs[:-1]:
            assert abs(x[0]) <= 2.4 and abs(x[2]) <= 12 * 2 * np.pi / 360
    # RLlib steps all 4 envs until 1200 env steps are in (a reset step does not count).
    assert 1200 <= sum(len(e) for e in episodes) < 1200 + 4


@pytest.mark.parametrize(("env_config", "message"), [
    ({"autoreset_mode": "same_step"}, "NEXT_STEP"),
    ({"seed": [1, 2, 3, 4]}, "int env_config"),
])
def test_pools_rllib_cannot_drive_are_refused(env_config: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SingleAgentEnvRunner(config=_config(env_config=env_config), worker_index=1)


# An env runner's process as Ray starts it: envpool not imported. The module-prefixed id
# makes gymnasium import envpool (which registers its ids) before it looks the id up.
_PREFIXED_ID_RUNNER = textwrap.dedent("""
    import sys
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.env.single_agent_env_runner import SingleAgentEnvRunner
    assert "envpool" not in sys.modules
    config = (PPOConfig().environment("envpool:envpool/CartPole-v1",
                                      env_config={"num_threads": 1, "seed": 3})
              .env_runners(num_envs_per_env_runner=4,
                           gym_env_vectorize_mode="vector_entry_point"))
    runner = SingleAgentEnvRunner(config=config, worker_index=1)
    episodes = runner.sample(num_timesteps=40, random_actions=True)
    env = runner.env
    while hasattr(env, "env"):  # RLlib's and gymnasium's vector wrappers
        env = env.env
    from envpool.core.pool import EnvPoolBase
    assert isinstance(env, EnvPoolBase), type(env)  # one native pool of the runner's envs
    assert env.num_envs == 4 and env.config["seed"] == 3
    assert sum(len(e) for e in episodes) >= 40
    runner.stop()
    print("ok")
""")


def test_module_prefixed_id_needs_no_callback() -> None:
    """``"envpool:envpool/CartPole-v1"`` works in a runner that never imported envpool
    (docs/rllib.md: the form without EnvpoolCallback, and what it leaves out)."""
    result = subprocess.run([sys.executable, "-c", _PREFIXED_ID_RUNNER], capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0 and result.stdout.strip().endswith("ok"), result.stderr[-3000:]


def test_channels_last_connector_space_and_values() -> None:
    pool = gymnasium.make_vec("envpool/Pong-v5", num_envs=1,
                              vectorization_mode="vector_entry_point")
    obs, _ = pool.reset(seed=3)
    assert pool.single_observation_space.shape == (4, 84, 84)
    assert obs[0].max() > 0
    for scale in (True, False):
        piece = ChannelsLast(input_observation_space=pool.single_observation_space,
                             input_action_space=pool.single_action_space, scale=scale)
        out = piece.preprocess(obs[0], None)
        assert piece.observation_space.shape == out.shape == (84, 84, 4)
        assert piece.observation_space.dtype == out.dtype
        assert out.flags.c_contiguous and piece.observation_space.contains(out)
        for c in range(4):
            expected = obs[0, c] / np.float32(255) if scale else obs[0, c]
            np.testing.assert_array_equal(out[:, :, c], expected)
    assert out.dtype == np.uint8 and piece.observation_space.high.max() == 255
    with pytest.raises(ValueError, match=r"\(C, H, W\) Box"):
        ChannelsLast(input_observation_space=gymnasium.spaces.Box(0, 1, (4,)),
                     input_action_space=pool.single_action_space)
    pool.close()


@pytest.fixture(scope="module")
def two_nodes() -> Iterator[Cluster]:
    """A local two-node Ray cluster (loopback), torn down even when a test fails."""
    cluster = Cluster(initialize_head=True,
                      head_node_args={**NODE, "include_dashboard": False})
    try:
        cluster.add_node(**NODE)
        ray.init(address=cluster.address, include_dashboard=False)
        yield cluster
    finally:
        ray.shutdown()
        cluster.shutdown()


def test_ppo_on_pong_through_the_channels_last_connector(two_nodes: Cluster) -> None:
    """A few PPO iterations on Pong-v5 with RLlib's default CNN encoder: the module sees
    (84, 84, 4) frames, the learner updates, env steps are counted."""
    config = (
        _config("envpool/Pong-v5", num_envs=2, runners=0)
        .env_runners(env_to_module_connector=channels_last_connector,
                     rollout_fragment_length=32)
        .training(train_batch_size_per_learner=64, minibatch_size=32, num_epochs=1)
    )
    algo = config.build_algo()
    try:
        module = algo.get_module()
        assert module.observation_space.shape == (84, 84, 4)
        before = {k: v.detach().clone() for k, v in module.state_dict().items()}
        for _ in range(2):
            result = algo.train()
        assert result["env_runners"]["num_env_steps_sampled_lifetime"] >= 128
        after = algo.get_module().state_dict()
        assert any(not np.array_equal(before[k].numpy(), after[k].detach().numpy())
                   for k in before)
    finally:
        algo.stop()


def _runner_facts(algo: Any) -> list[tuple[int, str, int, str]]:
    return sorted(algo.env_runner_group.foreach_env_runner(
        lambda r: (r.worker_index, ray.get_runtime_context().get_node_id(), os.getpid(),
                   type(r.env.unwrapped).__name__),
        local_env_runner=False))


def test_ppo_on_two_nodes_survives_a_killed_env_runner(two_nodes: Cluster) -> None:
    """PPO on CartPole-v1 with two envpool env runners on the two nodes; one runner's
    process is SIGKILLed, RLlib replaces it (same index, new process, an envpool pool
    again) and training goes on with both."""
    config = (
        _config(num_envs=4)
        .env_runners(rollout_fragment_length=64)
        .training(train_batch_size_per_learner=512, minibatch_size=128, num_epochs=2)
        .fault_tolerance(restart_failed_env_runners=True,
                         delay_between_env_runner_restarts_s=0.0)
    )
    algo = config.build_algo()
    try:
        facts = _runner_facts(algo)
        assert [f[0] for f in facts] == [1, 2]
        assert len({f[1] for f in facts}) == 2, "the two runners share a node"
        assert {f[3] for f in facts} == {"GymnasiumVectorEnv"}
        for _ in range(3):
            result = algo.train()
        steps = result["env_runners"]["num_env_steps_sampled_lifetime"]
        assert steps >= 3 * 512

        os.kill(facts[0][2], signal.SIGKILL)
        deadline = time.monotonic() + 120
        while True:
            result = algo.train()
            if algo.env_runner_group.num_healthy_remote_workers() == 2:
                new = _runner_facts(algo)
                if new[0][2] != facts[0][2]:
                    break
            assert time.monotonic() < deadline, "the killed env runner was not replaced"
        assert [f[0] for f in new] == [1, 2] and new[1][2] == facts[1][2]
        assert new[0][3] == "GymnasiumVectorEnv"
        later = steps
        for _ in range(2):
            result = algo.train()
            now = result["env_runners"]["num_env_steps_sampled_lifetime"]
            assert now > later
            later = now
        assert algo.env_runner_group.num_healthy_remote_workers() == 2
    finally:
        algo.stop()


def _final_return(config: PPOConfig, iterations: int) -> float:
    """The mean of the last five iterations' ``episode_return_mean`` (NaN in an iteration
    where no episode ended, once episodes last hundreds of steps: left out)."""
    algo = config.build_algo()
    try:
        returns = [algo.train()["env_runners"].get("episode_return_mean", np.nan)
                   for _ in range(iterations)]
        assert not np.isnan(returns[-5:]).all(), returns
        return float(np.nanmean(returns[-5:]))
    finally:
        algo.stop()


@pytest.mark.nightly
@pytest.mark.timeout(3600)
def test_learning_matches_rllib_default_vectorization(two_nodes: Cluster) -> None:
    """PPO on CartPole-v1, two runners on two nodes, 4 envs each, same config and
    budget (50 iterations of 1000 steps): envpool runners reach the return that RLlib's
    default (gymnasium SYNC vector env of CartPole-v1) reaches, over five seeds (the mean
    of each run's last five iterations)."""
    iterations = 50

    def common(config: PPOConfig, seed: int) -> PPOConfig:
        return (config.env_runners(num_env_runners=2, num_envs_per_env_runner=4,
                                   rollout_fragment_length=125)
                .training(train_batch_size_per_learner=1000, minibatch_size=250,
                          num_epochs=6, lr=3e-4, vf_loss_coeff=0.01)
                .debugging(seed=seed))

    ours, theirs = [], []
    for seed in range(int(os.environ.get("ENVPOOL_RLLIB_SEEDS", "5"))):  # more for a closer look
        ours.append(_final_return(common(_config(), seed), iterations))
        reference = PPOConfig().environment("CartPole-v1").env_runners(
            gym_env_vectorize_mode="sync")
        theirs.append(_final_return(common(reference, seed), iterations))
    print(f"\nCartPole-v1 PPO final returns: envpool {ours}, rllib sync {theirs}")
    assert min(theirs) > 100, theirs  # the budget is enough to learn
    assert np.mean(ours) >= 0.8 * np.mean(theirs), (ours, theirs)
