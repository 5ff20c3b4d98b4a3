"""Reward curves: the same algorithm and seeds on the reference env stack and on envpool.

    from envpool.integrations.curves import compare_curves, sb3_trainer

    result = compare_curves(sb3_trainer("PPO", "CartPole-v1", 100_000), seeds=[0, 1, 2],
                            png="ppo_cartpole.png", csv="ppo_cartpole.csv")
    result.final_band("envpool"), result.final_band("reference")

A *trainer* is a function ``(stack, seed) -> Curve`` with ``stack`` one of
``"reference"`` (gymnasium envs in SB3's ``DummyVecEnv``) or ``"envpool"``
(``envpool.integrations.sb3.make_vec_env``). ``compare_curves`` runs it for every
stack and seed, writes one CSV row per finished episode
(``stack,seed,step,episode_return``) and one PNG with both stacks' smoothed
curves (mean over seeds, min-max shaded). ``final_band`` is the mean and
standard error of the returns of the last episodes of every seed.
"""

from __future__ import annotations

import csv as csv_module
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from envpool.integrations._reference_envs import reference_env_id

__all__ = ["STACKS", "CompareResult", "Curve", "compare_curves", "make_sb3_venv",
           "random_trainer", "sb3_trainer"]

STACKS = ("reference", "envpool")


@dataclass
class Curve:
    """Finished episodes of one run: the env step each ended at and its return."""

    stack: str
    seed: int
    steps: np.ndarray
    returns: np.ndarray


@dataclass
class CompareResult:
    """All curves of a comparison, by stack."""

    curves: dict[str, list[Curve]] = field(default_factory=dict)

    def final_band(self, stack: str, last: int = 20) -> tuple[float, float]:
        """Summarises the end of one stack's curves: mean and standard error.

        Args:
            stack: ``"reference"`` or ``"envpool"``.
            last: How many of the last finished episodes of each seed to take.

        Returns:
            The tuple ``(mean, sem)`` of the returns of the last ``last`` episodes of
            every seed together (``sem`` is 0.0 for a single episode).

        Raises:
            KeyError: ``stack`` was not run.
            ValueError: no episode finished in that stack's runs.

        Examples:
            >>> import numpy as np
            >>> from envpool.integrations.curves import CompareResult, Curve
            >>> curve = Curve("envpool", 0, np.array([10, 20, 30]), np.array([1.0, 2.0, 3.0]))
            >>> CompareResult({"envpool": [curve]}).final_band("envpool", last=2)
            (2.5, 0.5)
        """
        tail = np.concatenate([c.returns[-last:] for c in self.curves[stack]])
        if tail.size == 0:
            raise ValueError(f"no finished episode in the {stack} curves")
        sem = float(tail.std(ddof=1) / np.sqrt(tail.size)) if tail.size > 1 else 0.0
        return float(tail.mean()), sem


Trainer = Callable[[str, int], Curve]


def make_sb3_venv(stack: str, task_id: str, n_envs: int, seed: int,
                  envpool_kwargs: dict[str, Any] | None = None,
                  reference_wrapper: Callable[[Any], Any] | None = None,
                  normalize_obs: bool = False) -> Any:
    """An SB3 VecEnv (under ``VecMonitor``) of ``task_id`` on the given stack.

    ``envpool_kwargs`` go to envpool's ``make_vec_env`` and ``reference_wrapper`` wraps each
    reference env (SB3's ``wrapper_class``): the two ways the stacks give the same view of
    an env, e.g. ``img_obs=True`` and minigrid's ``ImgObsWrapper``. ``normalize_obs``: SB3's
    ``VecNormalize`` of the observations (not the rewards) over ``VecMonitor``, whose
    episode returns stay the env's own."""
    from stable_baselines3.common.vec_env import VecMonitor, VecNormalize

    if stack == "envpool":
        from envpool.integrations.sb3 import make_vec_env

        venv = make_vec_env(task_id, n_envs=n_envs, seed=seed, **(envpool_kwargs or {}))
    elif stack == "reference":
        from stable_baselines3.common.env_util import make_vec_env as sb3_make_vec_env

        venv = sb3_make_vec_env(reference_env_id(task_id, envpool_kwargs), n_envs=n_envs, seed=seed,
                                wrapper_class=reference_wrapper)
    else:
        raise ValueError(f"stack must be one of {STACKS}, got {stack!r}")
    venv = VecMonitor(venv)
    return VecNormalize(venv, norm_reward=False) if normalize_obs else venv


def _episodes_callback() -> Any:
    from stable_baselines3.common.callbacks import BaseCallback

    class _Episodes(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.steps: list[int] = []
            self.returns: list[float] = []

        def _on_step(self) -> bool:
            for info in self.locals["infos"]:
                if "episode" in info:
                    self.steps.append(self.num_timesteps)
                    self.returns.append(float(info["episode"]["r"]))
            return True

    return _Episodes()


def sb3_trainer(algo: str, task_id: str, total_timesteps: int, n_envs: int = 8,
                torch_threads: int = 1, envpool_kwargs: dict[str, Any] | None = None,
                reference_wrapper: Callable[[Any], Any] | None = None,
                normalize_obs: bool = False, **algo_kwargs: Any) -> Trainer:
    """Makes a trainer that runs one of SB3's algorithms on either stack.

    The trainer trains ``algo`` with ``MlpPolicy`` (or ``MultiInputPolicy`` where
    observations are a ``Dict``, as the Control Suite's) on CPU, seeded with the run's
    seed, and records every finished episode.

    Args:
        algo: The name of an SB3 algorithm class: ``"PPO"``, ``"SAC"``, ...
        task_id: The task id (the same on both stacks).
        total_timesteps: Env steps per run.
        n_envs: Envs per vector env.
        torch_threads: ``torch.set_num_threads`` for the run.
        envpool_kwargs: ``make_vec_env`` keywords of the envpool stack.
        reference_wrapper: A wrapper of each reference env (SB3's ``wrapper_class``),
            so that both stacks give the same view of an env.
        normalize_obs: Normalise observations with SB3's ``VecNormalize`` (rewards
            are not).
        **algo_kwargs: Keywords of the algorithm (``n_steps``, ``batch_size``, ...).

    Returns:
        A trainer: a function ``(stack, seed) -> Curve`` for ``compare_curves``.

    Examples:
        >>> from envpool.integrations.curves import compare_curves, sb3_trainer
        >>> trainer = sb3_trainer("PPO", "CartPole-v1", 100_000, n_envs=8, n_steps=32)
        >>> result = compare_curves(trainer, seeds=[0, 1, 2])  # doctest: +SKIP
    """

    def train(stack: str, seed: int) -> Curve:
        import stable_baselines3
        import torch

        torch.set_num_threads(torch_threads)
        venv = make_sb3_venv(stack, task_id, n_envs, seed, envpool_kwargs, reference_wrapper,
                             normalize_obs)
        from gymnasium import spaces

        policy = ("MultiInputPolicy" if isinstance(venv.observation_space, spaces.Dict)
                  else "MlpPolicy")
        model = getattr(stable_baselines3, algo)(policy, venv, seed=seed, device="cpu",
                                                 **algo_kwargs)
        callback = _episodes_callback()
        model.learn(total_timesteps, callback=callback)
        venv.close()
        return Curve(stack, seed, np.asarray(callback.steps), np.asarray(callback.returns))

    return train


def random_trainer(task_id: str, total_timesteps: int, n_envs: int = 8) -> Trainer:
    """Makes a trainer that only acts at random, a cheap check of the two stacks.

    With random actions both stacks' returns must agree within noise.

    Args:
        task_id: The task id (the same on both stacks).
        total_timesteps: Env steps per run.
        n_envs: Envs per vector env.

    Returns:
        A trainer: a function ``(stack, seed) -> Curve`` for ``compare_curves``.

    Examples:
        >>> from envpool.integrations.curves import compare_curves, random_trainer
        >>> result = compare_curves(random_trainer("CartPole-v1", 2_000), seeds=[0, 1])
        >>> sorted(result.curves)
        ['envpool', 'reference']
    """

    def run(stack: str, seed: int) -> Curve:
        venv = make_sb3_venv(stack, task_id, n_envs, seed)
        venv.action_space.seed(seed)
        venv.reset()
        steps: list[int] = []
        returns: list[float] = []
        for t in range(total_timesteps // n_envs):
            actions = np.stack([venv.action_space.sample() for _ in range(n_envs)])
            _, _, dones, infos = venv.step(actions)
            for i in np.flatnonzero(dones):
                steps.append((t + 1) * n_envs)
                returns.append(float(infos[i]["episode"]["r"]))
        venv.close()
        return Curve(stack, seed, np.asarray(steps), np.asarray(returns))

    return run


def compare_curves(trainer: Trainer, seeds: Sequence[int], png: str | None = None,
                   csv: str | None = None, title: str = "", window: int = 20,
                   stacks: Sequence[str] = STACKS) -> CompareResult:
    """Runs ``trainer`` on every stack and seed, and writes the CSV and the PNG if asked.

    Args:
        trainer: A function ``(stack, seed) -> Curve``, such as ``sb3_trainer(...)`` or
            ``random_trainer(...)``.
        seeds: The seeds to run on every stack.
        png: Where to write a plot of both stacks' curves (running mean of ``window``
            episodes, mean over seeds, min-max range shaded); None: no plot.
        csv: Where to write one row per finished episode,
            ``stack,seed,step,episode_return``; None: no CSV.
        title: The plot's title.
        window: The number of episodes in the plot's running mean.
        stacks: The stacks to run: ``"reference"`` (gymnasium envs in SB3's
            ``DummyVecEnv``) and ``"envpool"`` (``envpool.integrations.sb3``).

    Returns:
        A ``CompareResult``: the curves by stack; ``final_band(stack)`` summarises the
        last episodes.

    Raises:
        ValueError: a stack other than ``"reference"`` and ``"envpool"`` (the trainers
            this module makes refuse it).

    Examples:
        >>> from envpool.integrations.curves import compare_curves, sb3_trainer
        >>> trainer = sb3_trainer("PPO", "CartPole-v1", 100_000, n_envs=8, n_steps=32)
        >>> result = compare_curves(trainer, seeds=[0, 1, 2], png="ppo_cartpole.png",
        ...                         csv="ppo_cartpole.csv")  # doctest: +SKIP
        >>> mean, sem = result.final_band("envpool")  # doctest: +SKIP
    """
    result = CompareResult({stack: [trainer(stack, int(s)) for s in seeds] for stack in stacks})
    if csv:
        with open(csv, "w", newline="") as f:
            writer = csv_module.writer(f)
            writer.writerow(["stack", "seed", "step", "episode_return"])
            for stack, curves in result.curves.items():
                for c in curves:
                    writer.writerows((stack, c.seed, int(s), float(r))
                                     for s, r in zip(c.steps, c.returns, strict=True))
    if png:
        plot_curves(result, png, title=title, window=window)
    return result


def plot_curves(result: CompareResult, png: str, title: str = "", window: int = 20) -> None:
    """Both stacks' curves on one plot: running mean of ``window`` episodes per seed,
    interpolated on a common step grid, mean over seeds with the min-max range shaded."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    last_step = max(int(c.steps[-1]) for cs in result.curves.values() for c in cs if c.steps.size)
    grid = np.linspace(0, last_step, 200)
    for stack, curves in result.curves.items():
        rows = []
        for c in curves:
            if c.returns.size == 0:
                continue
            k = min(window, c.returns.size)
            smooth = np.convolve(c.returns, np.ones(k) / k, mode="valid")
            rows.append(np.interp(grid, c.steps[k - 1:], smooth))
        if not rows:
            continue
        rows_arr = np.stack(rows)
        line = ax.plot(grid, rows_arr.mean(0), label=f"{stack} ({len(rows)} seeds)")[0]
        ax.fill_between(grid, rows_arr.min(0), rows_arr.max(0), alpha=0.2,
                        color=line.get_color())
    ax.set_xlabel("env steps")
    ax.set_ylabel(f"episode return (mean of {window})")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(png)
    plt.close(fig)
