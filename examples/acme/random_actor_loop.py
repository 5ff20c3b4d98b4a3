"""Acme's EnvironmentLoop over an envpool env (a random actor), plus the batched view.

    python examples/acme/random_actor_loop.py --task CartPole-v1 --episodes 20
"""

from __future__ import annotations

import argparse

import acme
import dm_env
import numpy as np
from acme import core
from dm_env import specs

from envpool.integrations.acme import make_batched_dm_env, make_dm_env


class RandomActor(core.Actor):
    """Uniformly random actions from the action spec."""

    def __init__(self, spec: specs.Array, seed: int) -> None:
        self._spec = spec
        self._rng = np.random.default_rng(seed)

    def select_action(self, observation: np.ndarray) -> np.ndarray:
        if isinstance(self._spec, specs.DiscreteArray):
            return self._rng.integers(self._spec.num_values, dtype=self._spec.dtype)
        low, high = self._spec.minimum, self._spec.maximum
        return self._rng.uniform(low, high, self._spec.shape).astype(self._spec.dtype)

    def observe_first(self, timestep: dm_env.TimeStep) -> None:
        pass

    def observe(self, action: np.ndarray, next_timestep: dm_env.TimeStep) -> None:
        pass

    def update(self, wait: bool = False) -> None:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--task", default="CartPole-v1")
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    env = make_dm_env(args.task, seed=args.seed)
    loop = acme.EnvironmentLoop(env, RandomActor(env.action_spec(), args.seed))
    returns = [float(loop.run_episode()["episode_return"]) for _ in range(args.episodes)]
    print(f"{args.task}: {len(returns)} episodes, mean return {np.mean(returns):.1f}")

    # the batched view: one TimeStep of arrays for all envs
    batched = make_batched_dm_env(args.task, num_envs=8, seed=args.seed)
    ts = batched.reset()
    actor = RandomActor(batched.action_spec(), args.seed)
    finished = 0
    while finished < args.episodes:
        ts = batched.step(actor.select_action(ts.observation))
        finished += int(np.sum(ts.step_type == int(dm_env.StepType.LAST)))
    print(f"batched: {finished} episodes finished")


if __name__ == "__main__":
    main()
