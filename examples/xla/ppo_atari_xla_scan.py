"""CleanRL-style single-file PPO on Atari in JAX, whose rollouts run inside one jitted
``lax.scan`` through ``env.xla()`` (docs/xla.md), as CleanRL's
``ppo_atari_envpool_xla_jax_scan.py`` does.

EnvPool's Atari preprocessing (4x84x84 grayscale stacks, frame skip 4, no-op and fire
resets) with ``episodic_life=True`` and ``reward_clip=True`` for training, the Nature CNN
(flax), CleanRL's Atari hyperparameters (optax's Adam with a linear learning-rate decay and
gradient clipping). Autoreset is the pool's next-step one: the step after an episode's end
returns the reset observation with reward 0, a transition the rollout keeps (as CleanRL's
XLA scripts do). A game's score is its unclipped ``info["reward"]`` summed over every life,
until the real game over (``info["terminated"]``) or the time limit.

    python examples/xla/ppo_atari_xla_scan.py --env-id Breakout-v5 --total-timesteps 300000 \\
        --csv breakout.csv --plot breakout.png

Needs ``jax``, ``flax`` and ``optax`` (the test extra has them).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training.train_state import TrainState

import envpool
from envpool.integrations.cleanrl import plot_episode_returns


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--env-id", default="Breakout-v5")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--total-timesteps", type=int, default=10_000_000)
    p.add_argument("--learning-rate", type=float, default=2.5e-4)
    p.add_argument("--num-envs", type=int, default=8)
    p.add_argument("--num-steps", type=int, default=128)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--num-minibatches", type=int, default=4)
    p.add_argument("--update-epochs", type=int, default=4)
    p.add_argument("--clip-coef", type=float, default=0.1)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    p.add_argument("--plot", default="", help="write the reward curve to this PNG")
    p.add_argument("--csv", default="",
                   help="write each finished game (env step, seconds, return) to this CSV")
    return p.parse_args(argv)


class Network(nn.Module):
    """The Nature CNN torso with actor and critic heads (CleanRL's)."""

    n_actions: int

    @nn.compact
    def __call__(self, x: jax.Array) -> tuple[jax.Array, jax.Array]:
        init = nn.initializers.orthogonal
        x = jnp.transpose(x, (0, 2, 3, 1)).astype(jnp.float32) / 255.0
        for features, kernel, stride in ((32, 8, 4), (64, 4, 2), (64, 3, 1)):
            x = nn.relu(nn.Conv(features, (kernel, kernel), (stride, stride), padding="VALID",
                                kernel_init=init(np.sqrt(2)))(x))
        x = nn.relu(nn.Dense(512, kernel_init=init(np.sqrt(2)))(x.reshape((x.shape[0], -1))))
        logits = nn.Dense(self.n_actions, kernel_init=init(0.01))(x)
        value = nn.Dense(1, kernel_init=init(1.0))(x)[:, 0]
        return logits, value


def train(args: argparse.Namespace) -> dict[str, Any]:
    """Runs PPO; returns the finished games' scores and the env steps they ended at."""
    envs = envpool.make_gym(args.env_id, num_envs=args.num_envs, seed=args.seed,
                            episodic_life=True, reward_clip=True)
    handle, recv, _, step_env = envs.xla()
    n, t_len = args.num_envs, args.num_steps
    batch_size = n * t_len
    minibatch_size = batch_size // args.num_minibatches
    num_iterations = args.total_timesteps // batch_size
    network = Network(int(envs.single_action_space.n))
    key = jax.random.PRNGKey(args.seed)
    key, init_key = jax.random.split(key)
    envs.async_reset()
    handle, (next_obs, *_) = recv(handle)
    schedule = optax.linear_schedule(
        args.learning_rate, 0.0, num_iterations * args.update_epochs * args.num_minibatches)
    state = TrainState.create(
        apply_fn=network.apply, params=network.init(init_key, next_obs),
        tx=optax.chain(optax.clip_by_global_norm(args.max_grad_norm),
                       optax.adam(schedule, eps=1e-5)))

    def rollout_step(carry: tuple, _: Any) -> tuple[tuple, tuple]:
        params, handle, obs, done, game_return, key = carry
        key, sample_key = jax.random.split(key)
        logits, value = network.apply(params, obs)
        action = jax.random.categorical(sample_key, logits)
        logprob = jax.nn.log_softmax(logits)[jnp.arange(n), action]
        handle, (next_obs, reward, terminated, truncated, info) = step_env(handle, action)
        # a game: all its lives (episodic_life ends an episode at each), to the game over
        game_return = game_return + info["reward"]
        game_over = (terminated & info["terminated"]) | truncated
        record = (obs, action, logprob, value, reward, done, game_over, game_return)
        game_return = jnp.where(game_over, 0.0, game_return)
        carry = (params, handle, next_obs, terminated | truncated, game_return, key)
        return carry, record

    @jax.jit
    def rollout(carry: tuple) -> tuple[tuple, tuple]:
        return jax.lax.scan(rollout_step, carry, None, length=t_len)

    def loss_fn(params: Any, obs: jax.Array, action: jax.Array, old_logprob: jax.Array,
                advantage: jax.Array, target: jax.Array) -> jax.Array:
        logits, value = network.apply(params, obs)
        log_probs = jax.nn.log_softmax(logits)
        logprob = log_probs[jnp.arange(action.shape[0]), action]
        ratio = jnp.exp(logprob - old_logprob)
        advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
        pg_loss = jnp.maximum(-advantage * ratio, -advantage * jnp.clip(
            ratio, 1 - args.clip_coef, 1 + args.clip_coef)).mean()
        v_loss = 0.5 * ((value - target) ** 2).mean()
        entropy = -(jnp.exp(log_probs) * log_probs).sum(-1).mean()
        return pg_loss - args.ent_coef * entropy + v_loss * args.vf_coef

    @jax.jit
    def update(state: TrainState, records: tuple, next_obs: jax.Array, next_done: jax.Array,
               key: jax.Array) -> tuple[TrainState, jax.Array]:
        obs, action, logprob, value, reward, done = records[:6]
        _, next_value = network.apply(state.params, next_obs)

        def gae(carry: tuple, t: tuple) -> tuple[tuple, jax.Array]:
            last, next_value, next_nonterminal = carry
            reward_t, value_t, done_t = t
            delta = reward_t + args.gamma * next_value * next_nonterminal - value_t
            last = delta + args.gamma * args.gae_lambda * next_nonterminal * last
            return (last, value_t, 1.0 - done_t), last

        _, advantages = jax.lax.scan(
            gae, (jnp.zeros(n), next_value, 1.0 - next_done),
            (reward, value, done.astype(jnp.float32)), reverse=True)
        targets = advantages + value
        flat = jax.tree_util.tree_map(lambda x: x.reshape((batch_size, *x.shape[2:])),
                                      (obs, action, logprob, advantages, targets))
        grad_fn = jax.grad(loss_fn)
        # (Python loops, unrolled by jit: XLA's CPU backend runs the convolutions' gradients
        # much slower inside a lax.scan body; measured here)
        for _ in range(args.update_epochs):
            key, perm_key = jax.random.split(key)
            order = jax.random.permutation(perm_key, batch_size)
            for s in range(0, batch_size, minibatch_size):
                idx = order[s:s + minibatch_size]
                mb = jax.tree_util.tree_map(lambda x, idx=idx: x[idx], flat)
                state = state.apply_gradients(grads=grad_fn(state.params, *mb))
        return state, key

    returns_log: list[float] = []
    steps_log: list[int] = []
    csv_file = open(args.csv, "w", buffering=1) if args.csv else None  # noqa: SIM115
    if csv_file is not None:
        csv_file.write("env_step,seconds,return\n")
    carry = (state.params, handle, next_obs, jnp.zeros(n, bool), jnp.zeros(n, jnp.float32), key)
    start = time.time()
    for iteration in range(1, num_iterations + 1):
        carry = (state.params, *carry[1:])
        carry, records = rollout(carry)
        game_over, game_return = (np.asarray(x) for x in records[6:])
        for t, i in zip(*np.nonzero(game_over), strict=True):
            step = (iteration - 1) * batch_size + (int(t) + 1) * n
            returns_log.append(float(game_return[t, i]))
            steps_log.append(step)
            if csv_file is not None:
                csv_file.write(f"{step},{time.time() - start:.1f},{game_return[t, i]:g}\n")
        state, key = update(state, records, carry[2], carry[3], carry[5])
        carry = (*carry[:5], key)
    if csv_file is not None:
        csv_file.close()
    envs.close()
    if args.plot and returns_log:
        plot_episode_returns(steps_log, returns_log, args.plot,
                             title=f"PPO (JAX, xla scan) on {args.env_id}")
    return {"returns": returns_log, "steps": steps_log}


if __name__ == "__main__":
    train(parse_args())
