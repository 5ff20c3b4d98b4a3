"""The Procgen cell: PPO with the IMPALA CNN (the learner of CleanRL's ``ppo_procgen.py``,
written here) on this pool and on procgen 0.10.7's own game library.

Both stacks are a vector of ``num_envs`` games with procgen's gym conventions (gym3's
``ToBaselinesVecEnv``): ``reset() -> obs`` (n, 64, 64, 3) uint8, ``step(actions) -> (obs,
reward, done)``, where the step that ends an episode returns the new level's first frame
and ``done`` (a time limit is a ``done`` as any other end, as procgen's gym env reports it).

* ``reference``: procgen's own vector env, ``ProcgenGym3Env(num=n, rand_seed=seed)``
  (``tests/procgen_oracle.py``'s ``ProcgenGym3Vec``: the game library of procgen's wheel,
  which installs on CPython <= 3.10 only, driven through gym3's C API). Game ``i`` draws
  its level seeds from procgen's ``i``-th draw of a generator seeded with ``seed``.
  ``seeding="pool"`` makes ``n`` games of one instead, ``rand_seed=seed + i``: the seeds
  of this pool's envs, so that both stacks play the same levels.
* ``envpool``: ``envpool.make_gymnasium(task, num_envs=n, seed=seed, channel_first=False,
  autoreset_mode="same_step", ...)``: env ``i`` is procgen's ``ProcgenGym3Env(num=1,
  rand_seed=seed + i)``, the frame of an autoreset step the new level's first.

The learner is CleanRL's (its defaults: 5e-4 learning rate, gamma 0.999, GAE 0.95, 3 epochs
of 8 minibatches, clip 0.2 with the value loss clipped, entropy 0.01, rewards normalised by
a running deviation of the discounted return and clipped to [-10, 10]); the cell shortens
the rollout (``num_envs`` x ``num_steps``) so that a CPU budget holds enough updates.
"""

from __future__ import annotations

import importlib.util
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Protocol

import numpy as np

from matrix.common import ROOT, Run

Trainer = Callable[[str, int, int], Run]


class GameVec(Protocol):
    """A vector of procgen games, procgen's gym conventions (module docstring)."""

    def reset(self) -> np.ndarray: ...

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...

    def close(self) -> None: ...


def procgen_oracle() -> ModuleType:
    """``tests/procgen_oracle.py`` (the tests' folder is not a package)."""
    name = "matrix_procgen_oracle"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "tests" / "procgen_oracle.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def procgen_game(task: str) -> tuple[str, dict[str, Any]]:
    """procgen's env name and options of an envpool Procgen id (``StarpilotEasy-v0`` ->
    ``("starpilot", {"distribution_mode": "easy"})``), from its registration."""
    from envpool.core.registry import get_task
    from envpool.tasks.procgen import GAMES

    spec = get_task(task)
    prefix = spec.native_env.removeprefix("Procgen")
    game = next((g for g, (p, _) in GAMES.items() if p == prefix), None)
    if game is None:
        raise ValueError(f"{task} is not a Procgen id")
    return game, dict(spec.env_kwargs)


class OracleVec:
    """procgen's own games (``ProcgenGym3Vec``), stepped on the caller's thread
    (``num_threads=0``); see the module docstring for ``seeding``."""

    def __init__(self, task: str, num_envs: int, seed: int, seeding: str = "procgen",
                 **options: Any) -> None:
        if seeding not in ("procgen", "pool"):
            raise ValueError(f"seeding must be 'procgen' or 'pool', not {seeding!r}")
        oracle = procgen_oracle()
        from envpool.tasks import procgen as procgen_tasks

        wheel = procgen_tasks.download_wheel()
        game, kwargs = procgen_game(task)
        kwargs.update(options)
        if seeding == "procgen":
            self._vecs = [oracle.ProcgenGym3Vec(wheel, game, num=num_envs, num_threads=0,
                                                rand_seed=seed, **kwargs)]
        else:
            self._vecs = [oracle.ProcgenGym3Vec(wheel, game, num=1, num_threads=0,
                                                rand_seed=seed + i, **kwargs)
                          for i in range(num_envs)]
        self._sizes = np.cumsum([0] + [v._action.size for v in self._vecs])

    def reset(self) -> np.ndarray:
        """The first frames (gym3 observes the first level at construction)."""
        return np.concatenate([v.observe()[1] for v in self._vecs])

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        actions = np.asarray(actions, np.int32)
        for v, lo, hi in zip(self._vecs, self._sizes[:-1], self._sizes[1:], strict=True):
            v.act(actions[lo:hi])
        outs = [v.observe() for v in self._vecs]
        return (np.concatenate([o[1] for o in outs]), np.concatenate([o[0] for o in outs]),
                np.concatenate([o[2] for o in outs]))

    def close(self) -> None:
        for v in self._vecs:
            v.close()


class PoolVec:
    """This pool, same-step autoreset, frames as procgen's (64, 64, 3)."""

    def __init__(self, task: str, num_envs: int, seed: int, **options: Any) -> None:
        import envpool

        self._env = envpool.make_gymnasium(task, num_envs=num_envs, seed=seed,
                                           channel_first=False, autoreset_mode="same_step",
                                           **options)

    def reset(self) -> np.ndarray:
        return self._env.reset()[0]

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        obs, reward, terminated, truncated, _ = self._env.step(np.asarray(actions, np.int32))
        return obs, np.asarray(reward, np.float32), terminated | truncated

    def close(self) -> None:
        self._env.close()


def make_games(stack: str, task: str, num_envs: int, seed: int, seeding: str = "procgen",
               **options: Any) -> GameVec:
    """The ``stack``'s vector of games (``reference`` or ``envpool``)."""
    if stack == "envpool":
        return PoolVec(task, num_envs, seed, **options)
    if stack == "reference":
        return OracleVec(task, num_envs, seed, seeding, **options)
    raise ValueError(f"unknown stack {stack!r}")


@dataclass(frozen=True)
class PPOConfig:
    """CleanRL ``ppo_procgen.py``'s hyperparameters (its defaults, but the rollout size)."""

    num_envs: int = 64
    num_steps: int = 256
    learning_rate: float = 5e-4
    gamma: float = 0.999
    gae_lambda: float = 0.95
    num_minibatches: int = 8
    update_epochs: int = 3
    clip_coef: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    threads: int = 1  # torch CPU threads

    def __post_init__(self) -> None:
        for name in ("num_envs", "num_steps", "num_minibatches", "update_epochs", "threads"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"PPOConfig.{name} must be a positive int, not {value!r}")
        if (self.num_envs * self.num_steps) % self.num_minibatches:
            raise ValueError("PPOConfig: num_minibatches must divide num_envs * num_steps")
        for name in ("learning_rate", "gamma", "gae_lambda", "clip_coef", "ent_coef",
                     "vf_coef", "max_grad_norm"):
            value = getattr(self, name)
            if not np.isfinite(value) or value < 0 or (name == "learning_rate" and value == 0):
                raise ValueError(f"PPOConfig.{name} must be finite and >= 0 (learning_rate "
                                 f"> 0), not {value!r}")
        if self.gamma > 1 or self.gae_lambda > 1:
            raise ValueError("PPOConfig: gamma and gae_lambda must be at most 1")


def _agent(n_actions: int) -> Any:
    """The IMPALA CNN (channels 16, 32, 32; two residual blocks per stage; 256 hidden)
    with CleanRL's actor and critic heads (orthogonal, gains 0.01 and 1)."""
    import torch
    from torch import nn

    class Residual(nn.Module):
        def __init__(self, c: int) -> None:
            super().__init__()
            self.conv0 = nn.Conv2d(c, c, 3, padding=1)
            self.conv1 = nn.Conv2d(c, c, 3, padding=1)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return x + self.conv1(torch.relu(self.conv0(torch.relu(x))))

    def stage(c_in: int, c_out: int) -> nn.Module:
        return nn.Sequential(nn.Conv2d(c_in, c_out, 3, padding=1),
                             nn.MaxPool2d(3, stride=2, padding=1), Residual(c_out),
                             Residual(c_out))

    def head(layer: nn.Linear, std: float) -> nn.Linear:
        nn.init.orthogonal_(layer.weight, std)
        nn.init.zeros_(layer.bias)
        return layer

    class Agent(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.torso = nn.Sequential(stage(3, 16), stage(16, 32), stage(32, 32),
                                       nn.Flatten(), nn.ReLU(), nn.Linear(32 * 8 * 8, 256),
                                       nn.ReLU())
            self.actor = head(nn.Linear(256, n_actions), 0.01)
            self.critic = head(nn.Linear(256, 1), 1.0)

        def hidden(self, obs: torch.Tensor) -> torch.Tensor:
            return self.torso(obs.permute(0, 3, 1, 2).float() / 255.0)  # bhwc -> bchw

        def value(self, obs: torch.Tensor) -> torch.Tensor:
            return self.critic(self.hidden(obs)).flatten()

        def act(self, obs: torch.Tensor, action: torch.Tensor | None = None) -> tuple:
            h = self.hidden(obs)
            dist = torch.distributions.Categorical(logits=self.actor(h))
            if action is None:
                action = dist.sample()
            return action, dist.log_prob(action), dist.entropy(), self.critic(h).flatten()

    return Agent()


class RewardScale:
    """gym's ``NormalizeReward`` then CleanRL's clip: the reward divided by the running
    deviation of the discounted return (Welford merge of batch moments, count 1e-4 at
    the start), clipped to [-10, 10]; the return restarts at an episode's end."""

    def __init__(self, n: int, gamma: float) -> None:
        self.gamma, self.ret = gamma, np.zeros(n)
        self.mean, self.var, self.count = 0.0, 1.0, 1e-4

    def __call__(self, reward: np.ndarray, done: np.ndarray) -> np.ndarray:
        self.ret = self.ret * self.gamma + reward
        b_mean, b_var, b_n = float(self.ret.mean()), float(self.ret.var()), self.ret.size
        delta, total = b_mean - self.mean, self.count + b_n
        m2 = self.var * self.count + b_var * b_n + delta**2 * self.count * b_n / total
        self.mean, self.var, self.count = self.mean + delta * b_n / total, m2 / total, total
        self.ret[done] = 0.0
        return np.clip(reward / np.sqrt(self.var + 1e-8), -10.0, 10.0)


def train_ppo(games: GameVec, cfg: PPOConfig, seed: int, total_steps: int,
              log: Callable[[str], None] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """PPO on ``games`` for ``total_steps`` env steps (whole rollouts); the finished
    episodes' raw returns and the env step each ended at."""
    import torch
    from torch import nn

    torch.manual_seed(seed)
    torch.set_num_threads(cfg.threads)
    rng = np.random.default_rng(seed)
    n, t_len = cfg.num_envs, cfg.num_steps
    batch = n * t_len
    mb_size = batch // cfg.num_minibatches
    agent = _agent(15)
    opt = torch.optim.Adam(agent.parameters(), lr=cfg.learning_rate, eps=1e-5)
    obs_buf = torch.zeros((t_len, n, 64, 64, 3), dtype=torch.uint8)
    act_buf = torch.zeros((t_len, n), dtype=torch.long)
    logp_buf, rew_buf, done_buf, val_buf = (torch.zeros((t_len, n)) for _ in range(4))
    scale = RewardScale(n, cfg.gamma)
    ep_ret = np.zeros(n)
    returns: list[float] = []
    ends: list[int] = []
    step = 0
    next_obs = torch.from_numpy(games.reset())
    next_done = torch.zeros(n)
    for _ in range(max(1, total_steps // batch)):
        for t in range(t_len):
            step += n
            obs_buf[t], done_buf[t] = next_obs, next_done
            with torch.no_grad():
                action, logp, _, value = agent.act(next_obs)
            act_buf[t], logp_buf[t], val_buf[t] = action, logp, value
            obs, reward, done = games.step(action.numpy())
            ep_ret += reward
            for i in np.flatnonzero(done):
                returns.append(float(ep_ret[i]))
                ends.append(step)
            ep_ret[done] = 0.0
            rew_buf[t] = torch.from_numpy(scale(reward, done).astype(np.float32))
            next_obs = torch.from_numpy(obs)
            next_done = torch.from_numpy(done.astype(np.float32))
        with torch.no_grad():  # GAE
            next_value = agent.value(next_obs)
            adv = torch.zeros_like(rew_buf)
            last = torch.zeros(n)
            for t in reversed(range(t_len)):
                nonterminal = 1.0 - (next_done if t == t_len - 1 else done_buf[t + 1])
                nxt = next_value if t == t_len - 1 else val_buf[t + 1]
                delta = rew_buf[t] + cfg.gamma * nxt * nonterminal - val_buf[t]
                last = delta + cfg.gamma * cfg.gae_lambda * nonterminal * last
                adv[t] = last
            ret = adv + val_buf
        b_obs, b_act = obs_buf.reshape(batch, 64, 64, 3), act_buf.reshape(-1)
        b_logp, b_adv, b_ret, b_val = (x.reshape(-1) for x in (logp_buf, adv, ret, val_buf))
        idx = np.arange(batch)
        for _ in range(cfg.update_epochs):
            rng.shuffle(idx)
            for lo in range(0, batch, mb_size):
                mb = torch.from_numpy(idx[lo:lo + mb_size])
                _, logp, entropy, value = agent.act(b_obs[mb], b_act[mb])
                ratio = (logp - b_logp[mb]).exp()
                a = b_adv[mb]
                a = (a - a.mean()) / (a.std() + 1e-8)
                pg = torch.max(-a * ratio, -a * ratio.clamp(1 - cfg.clip_coef,
                                                              1 + cfg.clip_coef)).mean()
                clipped = b_val[mb] + (value - b_val[mb]).clamp(-cfg.clip_coef, cfg.clip_coef)
                v_loss = 0.5 * torch.max((value - b_ret[mb]) ** 2,
                                         (clipped - b_ret[mb]) ** 2).mean()
                loss = pg - cfg.ent_coef * entropy.mean() + cfg.vf_coef * v_loss
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), cfg.max_grad_norm)
                opt.step()
        if log is not None:
            tail = returns[-20:]
            log(f"    {step:,} steps: {len(returns)} episodes, last {len(tail)} mean "
                f"{np.mean(tail) if tail else float('nan'):.2f}")
    games.close()
    return np.asarray(ends), np.asarray(returns)


def ppo_trainer(task: str, cfg: PPOConfig, seeding: str = "procgen",
                log: Callable[[str], None] | None = None, **options: Any) -> Trainer:
    """A cell trainer: ``train_ppo`` on ``make_games(stack, task, ...)``."""

    def train(stack: str, seed: int, steps: int) -> Run:
        start = time.perf_counter()
        games = make_games(stack, task, cfg.num_envs, seed, seeding, **options)
        ends, rets = train_ppo(games, cfg, seed, steps, log)
        batch = cfg.num_envs * cfg.num_steps
        return Run(stack, seed, ends, rets, max(1, steps // batch) * batch,
                   time.perf_counter() - start)

    return train
