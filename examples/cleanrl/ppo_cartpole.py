"""CleanRL-style single-file PPO (discrete actions) on an envpool pool.

Follows CleanRL's ``ppo.py`` with envpool doing the stepping: same-step
autoreset, so a truncated episode's value is bootstrapped from its final
observation (``info["final_obs"]``); episode statistics come from
``envpool.integrations.cleanrl.RecordEpisodeStatistics``. A progress bar shows
the running return; the reward curve is saved as a PNG at the end.

    python examples/cleanrl/ppo_cartpole.py --total-timesteps 100000 --plot ppo_cartpole.png
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import gymnasium
import numpy as np
import torch
from torch import nn
from torch.distributions.categorical import Categorical

import envpool
from envpool.integrations.cleanrl import RecordEpisodeStatistics, plot_episode_returns


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--env-id", default="CartPole-v1")
    p.add_argument("--backend", default="envpool", choices=["envpool", "gymnasium"],
                   help="envpool's pool, or gymnasium's SyncVectorEnv as CleanRL's ppo.py uses")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--total-timesteps", type=int, default=100_000)
    p.add_argument("--learning-rate", type=float, default=1e-3)
    p.add_argument("--num-envs", type=int, default=8)
    p.add_argument("--num-steps", type=int, default=64)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--num-minibatches", type=int, default=4)
    p.add_argument("--update-epochs", type=int, default=4)
    p.add_argument("--clip-coef", type=float, default=0.2)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    p.add_argument("--plot", default="", help="write the reward curve to this PNG")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p.parse_args(argv)


def layer_init(layer: nn.Linear, std: float = np.sqrt(2), bias: float = 0.0) -> nn.Linear:
    torch.nn.init.orthogonal_(layer.weight, std)
    torch.nn.init.constant_(layer.bias, bias)
    return layer


class Agent(nn.Module):
    def __init__(self, obs_dim: int, n_actions: int) -> None:
        super().__init__()
        self.critic = nn.Sequential(layer_init(nn.Linear(obs_dim, 64)), nn.Tanh(),
                                    layer_init(nn.Linear(64, 64)), nn.Tanh(),
                                    layer_init(nn.Linear(64, 1), std=1.0))
        self.actor = nn.Sequential(layer_init(nn.Linear(obs_dim, 64)), nn.Tanh(),
                                   layer_init(nn.Linear(64, 64)), nn.Tanh(),
                                   layer_init(nn.Linear(64, n_actions), std=0.01))

    def get_value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(x)

    def get_action_and_value(self, x: torch.Tensor, action: torch.Tensor | None = None) -> tuple:
        dist = Categorical(logits=self.actor(x))
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.critic(x)


def make_envs(args: argparse.Namespace) -> gymnasium.vector.VectorEnv:
    """Same-step autoreset envs with episode statistics: envpool's pool, or (``--backend
    gymnasium``) gymnasium's own SyncVectorEnv and RecordEpisodeStatistics, the reference."""
    if args.backend == "envpool":
        return RecordEpisodeStatistics(envpool.make_gymnasium(
            args.env_id, num_envs=args.num_envs, seed=args.seed, autoreset_mode="same_step"))
    return gymnasium.wrappers.vector.RecordEpisodeStatistics(gymnasium.make_vec(
        args.env_id, num_envs=args.num_envs, vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}))


def train(args: argparse.Namespace) -> dict[str, Any]:
    """Runs PPO; returns the finished episodes' returns and the env steps they ended at."""
    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    envs = make_envs(args)
    obs_dim = int(np.prod(envs.single_observation_space.shape))
    agent = Agent(obs_dim, int(envs.single_action_space.n))
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    n, t_len = args.num_envs, args.num_steps
    batch_size = n * t_len
    minibatch_size = batch_size // args.num_minibatches
    num_iterations = args.total_timesteps // batch_size
    obs_buf = torch.zeros((t_len, n, obs_dim))
    actions = torch.zeros((t_len, n), dtype=torch.long)
    logprobs, rewards, dones, values = (torch.zeros((t_len, n)) for _ in range(4))

    returns_log: list[float] = []
    steps_log: list[int] = []
    global_step = 0
    obs, _ = envs.reset(seed=args.seed)
    next_obs = torch.as_tensor(obs, dtype=torch.float32)
    next_done = torch.zeros(n)
    progress = None
    if not args.no_progress:
        from tqdm import tqdm

        progress = tqdm(total=num_iterations * batch_size, unit="step")
    start = time.time()
    for iteration in range(1, num_iterations + 1):
        frac = 1.0 - (iteration - 1.0) / num_iterations
        optimizer.param_groups[0]["lr"] = frac * args.learning_rate
        for step in range(t_len):
            global_step += n
            obs_buf[step] = next_obs
            dones[step] = next_done
            with torch.no_grad():
                action, logprob, _, value = agent.get_action_and_value(next_obs)
            values[step] = value.flatten()
            actions[step], logprobs[step] = action, logprob
            obs, reward, terminated, truncated, info = envs.step(action.numpy().astype(np.int32))
            reward = torch.tensor(reward, dtype=torch.float32)  # a copy: added to below
            cut = truncated & ~terminated
            if cut.any():  # bootstrap a time-limited episode from its final observation
                # np.stack: gymnasium's vector envs give an object array (None where not final)
                final = torch.as_tensor(np.stack(info["final_obs"][cut]), dtype=torch.float32)
                with torch.no_grad():
                    reward[torch.as_tensor(cut)] += args.gamma * agent.get_value(final).flatten()
            rewards[step] = reward
            next_obs = torch.as_tensor(obs, dtype=torch.float32)
            next_done = torch.as_tensor(terminated | truncated, dtype=torch.float32)
            if "_episode" in info:
                for i in np.flatnonzero(info["_episode"]):
                    returns_log.append(float(info["episode"]["r"][i]))
                    steps_log.append(global_step)
        if progress is not None:
            progress.update(batch_size)
            if returns_log:
                progress.set_postfix(ret=f"{np.mean(returns_log[-20:]):.1f}")

        with torch.no_grad():  # GAE
            next_value = agent.get_value(next_obs).reshape(1, -1)
            advantages = torch.zeros_like(rewards)
            lastgaelam = torch.zeros(n)
            for t in reversed(range(t_len)):
                nextnonterminal = 1.0 - (next_done if t == t_len - 1 else dones[t + 1])
                nextvalues = next_value if t == t_len - 1 else values[t + 1]
                delta = rewards[t] + args.gamma * nextvalues * nextnonterminal - values[t]
                lastgaelam = delta + args.gamma * args.gae_lambda * nextnonterminal * lastgaelam
                advantages[t] = lastgaelam
            returns = advantages + values

        b_obs, b_logprobs = obs_buf.reshape(-1, obs_dim), logprobs.reshape(-1)
        b_actions, b_adv = actions.reshape(-1), advantages.reshape(-1)
        b_returns = returns.reshape(-1)
        b_inds = np.arange(batch_size)
        for _ in range(args.update_epochs):
            rng.shuffle(b_inds)
            for s in range(0, batch_size, minibatch_size):
                mb = b_inds[s:s + minibatch_size]
                _, newlogprob, entropy, newvalue = agent.get_action_and_value(b_obs[mb],
                                                                              b_actions[mb])
                ratio = (newlogprob - b_logprobs[mb]).exp()
                mb_adv = (b_adv[mb] - b_adv[mb].mean()) / (b_adv[mb].std() + 1e-8)
                pg_loss = torch.max(-mb_adv * ratio, -mb_adv * torch.clamp(
                    ratio, 1 - args.clip_coef, 1 + args.clip_coef)).mean()
                v_loss = 0.5 * ((newvalue.view(-1) - b_returns[mb]) ** 2).mean()
                loss = pg_loss - args.ent_coef * entropy.mean() + v_loss * args.vf_coef
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
    if progress is not None:
        progress.close()
    envs.close()
    result = {"returns": returns_log, "steps": steps_log, "seconds": time.time() - start}
    if args.plot:
        plot_episode_returns(steps_log, returns_log, args.plot,
                             f"PPO {args.env_id} ({args.backend})")
    return result


if __name__ == "__main__":
    cli_args = parse_args()
    out = train(cli_args)
    print(f"{len(out['returns'])} episodes in {out['seconds']:.0f} s; "
          f"mean of the last 20: {np.mean(out['returns'][-20:]):.1f}")
