"""Acme cells: ``acme.EnvironmentLoop`` episodes with a uniformly random actor, on
dm_control's own env (``suite.load``, already a ``dm_env``) or on envpool's ``make_dm_env``.

Acme's agents do not run here: ``dm-acme`` 0.2.4 is the only release that resolves on
Python 3.11, and its agents need dm-launchpad / dm-reverb / an old JAX that do not install
(see ../shared/FACTS.md). The random actor still exercises the whole Acme path (specs,
``TimeStep``s, the loop's episode accounting) and gives two return distributions that must
agree, and the loop's speed on both stacks.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from matrix.common import Run, load_example

Trainer = Callable[[str, int, int], Run]


def random_loop_trainer(task_id: str) -> Trainer:
    """Whole episodes of ``EnvironmentLoop.run_episode`` until ``steps`` env steps."""

    def run(stack: str, seed: int, steps: int) -> Run:
        import acme

        from envpool.integrations.acme import make_dm_env
        from envpool.tasks.dm_control import TASKS

        if stack == "envpool":
            env = make_dm_env(task_id, seed=seed)
        else:
            from dm_control import suite

            domain, task_name = TASKS[task_id]
            env = suite.load(domain, task_name, task_kwargs={"random": seed})
        actor = load_example("acme/random_actor_loop.py").RandomActor(env.action_spec(), seed)
        loop = acme.EnvironmentLoop(env, actor)
        ends: list[int] = []
        returns: list[float] = []
        done = 0
        start = time.perf_counter()
        while done < steps:
            result = loop.run_episode()
            done += int(result["episode_length"])
            ends.append(done)
            returns.append(float(result["episode_return"]))
        seconds = time.perf_counter() - start
        return Run(stack, seed, np.asarray(ends), np.asarray(returns), done, seconds)

    return run
