"""CleanRL-style single-file PPO on ViZDoom (Basic-v1 / DefendTheCenter-v1), on envpool or
on vizdoom's own gymnasium envs in gymnasium's AsyncVectorEnv, the same learner on both.

Both stacks see the same problem:

* the game's own reward (``use_game_reward=True`` here; EnvPool's shaped reward is
  envpool's default), scaled by ``--reward-scale`` for the learner, reported unscaled;
* frame skip 4, the 320x240 RGB screen resized per channel to 84x84 with INTER_AREA,
  channel-first, 4 frames stacked (12x84x84): envpool's defaults; on the vizdoom stack
  an observation wrapper does the same with OpenCV, then FrameStackObservation;
* one binary value per button (a Bernoulli per button; envpool's float vector, vizdoom's
  MultiBinary);
* the scenario's own timeout: vizdoom's envs end the episode there; envpool gets it as
  ``max_episode_steps`` (envpool, like EnvPool, does not apply the cfg's timeout).

    python examples/vizdoom/ppo_vizdoom.py --backend envpool --total-timesteps 100000
    python examples/vizdoom/ppo_vizdoom.py --backend vizdoom --total-timesteps 100000

The Nature CNN update dominates the time on a CPU (measured numbers in docs/vizdoom.md).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import multiprocessing.util
import os
import shutil
import tempfile
import time
from typing import Any

import gymnasium
import numpy as np
import torch
from torch import nn
from torch.distributions.bernoulli import Bernoulli

import envpool
from envpool.integrations.cleanrl import plot_episode_returns
from envpool.tasks import vizdoom as vizdoom_tasks

FRAME_SKIP = 4
STACK = 4
SIZE = 84
GYM_IDS = {"Basic-v1": "VizdoomBasic-MultiBinary-v1",
           "DefendTheCenter-v1": "VizdoomDefendCenter-MultiBinary-v1"}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--env-id", default="Basic-v1", choices=sorted(GYM_IDS))
    p.add_argument("--backend", default="envpool", choices=["envpool", "vizdoom"])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--total-timesteps", type=int, default=100_000)
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
    p.add_argument("--reward-scale", type=float, default=0.01)
    p.add_argument("--threads", type=int, default=0, help="torch CPU threads (0: default)")
    p.add_argument("--plot", default="", help="write the reward curve to this PNG")
    p.add_argument("--csv", default="", help="write each episode (env step, seconds, return)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p.parse_args(argv)


def scenario_timeout_steps(env_id: str) -> int:
    """The scenario cfg's episode timeout in agent steps of FRAME_SKIP tics."""
    import vizdoom as vzd

    game = vzd.DoomGame()
    game.load_config(os.path.join(vizdoom_tasks.SCENARIOS_DIR,
                                  f"{vizdoom_tasks.SCENARIOS[env_id]}.cfg"))
    return math.ceil(game.get_episode_timeout() / FRAME_SKIP)


class ScreenToStackedFrame(gymnasium.ObservationWrapper):
    """vizdoom's dict observation -> its screen resized per channel to 84x84 (INTER_AREA),
    channel-first, as envpool's observation before stacking."""

    def __init__(self, env: gymnasium.Env) -> None:
        super().__init__(env)
        self.observation_space = gymnasium.spaces.Box(0, 255, (3, SIZE, SIZE), np.uint8)

    def observation(self, observation: dict) -> np.ndarray:
        import cv2

        screen = observation["screen"]
        return np.stack([cv2.resize(np.ascontiguousarray(screen[..., c]), (SIZE, SIZE),
                                    interpolation=cv2.INTER_AREA) for c in range(3)])


def _own_folder() -> None:
    """Give this worker process its own working folder.

    Each vizdoom engine makes ``./_vizdoom/`` and rewrites ``./_vizdoom.ini`` in the working
    folder at start; engines starting together in one fresh folder race for both (one exits
    with "Failed to create ./_vizdoom/ directory: File exists", or the reset hangs).
    """
    folder = tempfile.mkdtemp(prefix="vizdoom_worker_")
    # multiprocessing children leave through os._exit, which skips atexit; its own
    # finalizers run.
    multiprocessing.util.Finalize(None, shutil.rmtree, (folder, True), exitpriority=0)
    os.chdir(folder)


def _vizdoom_env(env_id: str) -> gymnasium.Env:
    from vizdoom import gymnasium_wrapper  # noqa: F401  (registers the Vizdoom* ids)

    if multiprocessing.parent_process() is not None:  # an AsyncVectorEnv worker
        _own_folder()

    env = gymnasium.make(GYM_IDS[env_id], frame_skip=FRAME_SKIP)
    return gymnasium.wrappers.FrameStackObservation(ScreenToStackedFrame(env), STACK)


def make_envs(args: argparse.Namespace) -> gymnasium.vector.VectorEnv:
    if args.backend == "envpool":
        return envpool.make_gymnasium(
            args.env_id, num_envs=args.num_envs, seed=args.seed, frame_skip=FRAME_SKIP,
            stack_num=STACK, use_game_reward=True,
            max_episode_steps=scenario_timeout_steps(args.env_id))
    return gymnasium.vector.AsyncVectorEnv(
        [lambda: _vizdoom_env(args.env_id) for _ in range(args.num_envs)])


def layer_init(layer: nn.Module, std: float = np.sqrt(2), bias: float = 0.0) -> nn.Module:
    torch.nn.init.orthogonal_(layer.weight, std)
    torch.nn.init.constant_(layer.bias, bias)
    return layer


class Agent(nn.Module):
    """The Nature CNN torso, a Bernoulli per button and a critic; sized from the spaces."""

    def __init__(self, obs_shape: tuple[int, ...], n_buttons: int) -> None:
        super().__init__()
        channels = int(np.prod(obs_shape[:-2]))  # (stack, C, H, W) or (stack * C, H, W)
        self.network = nn.Sequential(
            layer_init(nn.Conv2d(channels, 32, 8, stride=4)), nn.ReLU(),
            layer_init(nn.Conv2d(32, 64, 4, stride=2)), nn.ReLU(),
            layer_init(nn.Conv2d(64, 64, 3, stride=1)), nn.ReLU(),
            nn.Flatten(),
            layer_init(nn.Linear(64 * 7 * 7, 512)), nn.ReLU(),
        )
        self.channels = channels
        self.actor = layer_init(nn.Linear(512, n_buttons), std=0.01)
        self.critic = layer_init(nn.Linear(512, 1), std=1)

    def _hidden(self, x: torch.Tensor) -> torch.Tensor:
        x = x.reshape(x.shape[0], self.channels, *x.shape[-2:])
        return self.network(x.float() / 255.0)

    def get_value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(self._hidden(x))

    def get_action_and_value(self, x: torch.Tensor, action: torch.Tensor | None = None) -> tuple:
        hidden = self._hidden(x)
        dist = Bernoulli(logits=self.actor(hidden))
        if action is None:
            action = dist.sample()
        return (action, dist.log_prob(action).sum(-1), dist.entropy().sum(-1),
                self.critic(hidden))


def train(args: argparse.Namespace) -> dict[str, Any]:
    """Runs PPO; returns the finished episodes' returns and the env steps they ended at."""
    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)
    if args.threads:
        torch.set_num_threads(args.threads)
    envs = make_envs(args)
    obs_shape = envs.single_observation_space.shape
    n_buttons = int(np.prod(envs.single_action_space.shape))
    agent = Agent(obs_shape, n_buttons)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    n, t_len = args.num_envs, args.num_steps
    batch_size = n * t_len
    minibatch_size = batch_size // args.num_minibatches
    num_iterations = args.total_timesteps // batch_size
    obs_buf = torch.zeros((t_len, n, *obs_shape), dtype=torch.uint8)
    actions = torch.zeros((t_len, n, n_buttons))
    logprobs, rewards, dones, values = (torch.zeros((t_len, n)) for _ in range(4))

    returns_log: list[float] = []
    steps_log: list[int] = []
    global_step = 0
    obs, _ = envs.reset(seed=args.seed)
    next_obs = torch.as_tensor(obs)
    next_done = torch.zeros(n)
    episode_return = np.zeros(n)
    action_dtype = envs.single_action_space.dtype
    csv_file = open(args.csv, "w", buffering=1) if args.csv else None
    if csv_file is not None:
        csv_file.write("env_step,seconds,return\n")
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
            obs, reward, terminated, truncated, _ = envs.step(
                action.numpy().astype(action_dtype))
            rewards[step] = torch.as_tensor(reward * args.reward_scale, dtype=torch.float32)
            next_obs = torch.as_tensor(obs)
            done = np.logical_or(terminated, truncated)
            next_done = torch.as_tensor(done, dtype=torch.float32)
            episode_return += reward
            for i in np.flatnonzero(done):
                returns_log.append(float(episode_return[i]))
                steps_log.append(global_step)
                if csv_file is not None:
                    csv_file.write(f"{global_step},{time.time() - start:.1f},"
                                   f"{episode_return[i]:g}\n")
                episode_return[i] = 0.0
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

        b_obs, b_logprobs = obs_buf.reshape(-1, *obs_shape), logprobs.reshape(-1)
        b_actions, b_adv = actions.reshape(-1, n_buttons), advantages.reshape(-1)
        b_returns = returns.reshape(-1)
        b_inds = np.arange(batch_size)
        for _ in range(args.update_epochs):
            rng.shuffle(b_inds)
            for s in range(0, batch_size, minibatch_size):
                mb = b_inds[s:s + minibatch_size]
                _, newlogprob, entropy, newvalue = agent.get_action_and_value(
                    b_obs[mb], b_actions[mb])
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
    if csv_file is not None:
        csv_file.close()
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
