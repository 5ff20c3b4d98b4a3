"""The MuJoCo Playground cell: brax's PPO, the trainer playground's own training script
(``learning/train_jax_ppo.py``) runs, with playground's tuned settings for the task
(``mujoco_playground.config.locomotion_params.brax_ppo_config``), on two stacks:

* ``reference``: playground 0.2.0's env on MJX (``impl="jax"``: the CPU), wrapped as its
  training script wraps it (``wrapper.wrap_for_brax_training``: vmap, the episode limit,
  the autoreset) with the wrapper's ``full_reset=True``: an env whose episode ended starts
  the next from ``env.reset`` of a new key, as the pool's envs do (the script's default
  resets to a cached first state, refreshed ``num_resets_per_eval`` times an eval epoch:
  other starts, and another curve); the Menagerie models this package's pools read;
* ``envpool``: this package's pool as a batched brax env
  (``envpool.integrations.brax.BraxPool``, ``wrap_env=False``: the pool cuts episodes at
  its ``max_episode_steps`` and resets each env to a new random start itself).

The config's settings are kept except those that size the run for an accelerator:
``num_envs`` (8192 there), ``batch_size`` and ``num_minibatches`` (the size of a gradient
step's batch), ``num_timesteps`` (the cell's budget) and ``num_evals``. What is judged:
at each of the ``num_evals`` points, the policy of that moment plays ``num_eval_envs``
episodes (brax's ``EvalWrapper`` over the stack's own env, stochastic actions as brax's
evaluator by default) and each episode's return is one point of the curve; the last
point's episodes are the final band.

brax 0.14.2's trainers call ``jax.device_put_replicated``, which jax 0.10 keeps
(``jax._src.api``) but no longer exports; the cell exports it again before training.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from matrix.common import Run

Trainer = Callable[[str, int, int], Run]


def _brax_on_this_jax() -> None:
    """Gives brax's trainers ``jax.device_put_replicated`` (module docstring)."""
    import jax
    import jax._src.api

    if "device_put_replicated" not in vars(jax):
        jax.device_put_replicated = jax._src.api.device_put_replicated  # type: ignore[attr-defined]


def _package_env(task_id: str) -> Any:
    """playground's env of ``task_id`` on MJX on the CPU, on the Menagerie the pools read."""
    from etils import epath
    from mujoco_playground import registry
    from mujoco_playground._src import mjx_env

    from envpool.tasks.playground import TASKS, resolve_dirs

    mjx_env.MENAGERIE_PATH = epath.Path(resolve_dirs(robot=TASKS[task_id][3])[1])
    return registry.load(task_id.rsplit("-v", 1)[0], config_overrides={"impl": "jax"})


def _evaluator(env: Any, make_policy: Callable[..., Any], num_envs: int,
               episode_length: int) -> Callable[[Any, Any], np.ndarray]:
    """A jitted function ``(params, key) -> returns``: the policy of ``params`` plays one
    episode in each of ``num_envs`` envs of ``env`` (a batched brax env) for at most
    ``episode_length`` steps; each episode's return."""
    import jax
    from brax.envs.wrappers.training import EvalWrapper
    from brax.training import acting

    eval_env = EvalWrapper(env)

    @jax.jit
    def run(params: Any, key: Any) -> Any:
        reset_key, unroll_key = jax.random.split(key)
        state = eval_env.reset(jax.random.split(reset_key, num_envs))
        state, _ = acting.generate_unroll(eval_env, state, make_policy(params), unroll_key,
                                          unroll_length=episode_length)
        return state.info["eval_metrics"].episode_metrics["reward"]

    return lambda params, key: np.asarray(run(params, key))


def ppo_trainer(task_id: str, num_envs: int, batch_size: int, num_minibatches: int,
                num_evals: int, num_eval_envs: int) -> Trainer:
    """brax's PPO with playground's settings for ``task_id`` (module docstring)."""

    def train(stack: str, seed: int, steps: int) -> Run:
        _brax_on_this_jax()
        import jax
        from brax.training.agents.ppo import networks as ppo_networks
        from brax.training.agents.ppo import train as ppo
        from mujoco_playground import wrapper
        from mujoco_playground.config import locomotion_params

        from envpool.integrations.brax import BraxPool
        from envpool.tasks.playground import TASKS

        name = task_id.rsplit("-v", 1)[0]
        config = locomotion_params.brax_ppo_config(name)
        episode_length = TASKS[task_id][2]
        kwargs = config.to_dict()
        network = kwargs.pop("network_factory")
        kwargs.update(num_timesteps=steps, num_envs=num_envs, batch_size=batch_size,
                      num_minibatches=num_minibatches, num_evals=num_evals,
                      episode_length=episode_length, run_evals=False, seed=seed)
        kwargs = {k: v for k, v in kwargs.items() if k in _PPO_KEYWORDS}
        factory = functools.partial(ppo_networks.make_ppo_networks, **network)
        if stack == "reference":
            env, eval_env = _package_env(task_id), _package_env(task_id)
            wrapped = wrapper.wrap_for_brax_training(eval_env, episode_length=episode_length)
            extra: dict[str, Any] = {"wrap_env_fn": functools.partial(
                wrapper.wrap_for_brax_training, full_reset=True)}
        else:
            env = BraxPool(task_id, num_envs=num_envs, seed=seed * 100_000)
            wrapped = BraxPool(task_id, num_envs=num_eval_envs, seed=seed * 100_000 + 50_000)
            extra = {"wrap_env": False}
        points: list[tuple[int, np.ndarray]] = []
        key = jax.random.PRNGKey(10_000 + seed)
        evaluators: dict[str, Any] = {}

        def on_params(step: int, make_policy: Any, params: Any) -> None:
            if "run" not in evaluators:
                evaluators["run"] = _evaluator(wrapped, make_policy, num_eval_envs,
                                               episode_length)
            returns = evaluators["run"](params, jax.random.fold_in(key, step))
            points.append((int(step), returns))

        start = time.perf_counter()
        ppo.train(env, network_factory=factory, policy_params_fn=on_params, **kwargs, **extra)
        seconds = time.perf_counter() - start
        for closable in (env, wrapped):
            if isinstance(closable, BraxPool):
                closable.close()
        steps_log = np.concatenate([np.full(r.size, s) for s, r in points])
        returns_log = np.concatenate([r for _, r in points]).astype(np.float64)
        # brax rounds the budget up to whole evaluation epochs (num_evals - 1 of them, each
        # num_resets_per_eval x the training steps): the last point is the steps trained
        return Run(stack, seed, steps_log, returns_log, points[-1][0], seconds)

    return train


# The keywords of brax's ppo.train that playground's config may hold.
_PPO_KEYWORDS = frozenset({
    "num_timesteps", "num_evals", "reward_scaling", "episode_length", "normalize_observations",
    "action_repeat", "unroll_length", "num_minibatches", "num_updates_per_batch",
    "discounting", "learning_rate", "entropy_cost", "num_envs", "batch_size", "max_grad_norm",
    "num_resets_per_eval", "clipping_epsilon", "run_evals", "seed"})
