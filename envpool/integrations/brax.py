"""A pool as a batched `brax <https://github.com/google/brax>`_ environment, so that brax's
trainers (``brax.training.agents.ppo.train``, which MuJoCo Playground's own training
scripts call) train on this package's CPU pool.

brax's trainers wrap a single-env ``brax.envs.Env`` (``wrap_for_brax_training``: vmap over
envs, an episode limit, an autoreset); a pool already steps a batch, cuts episodes at its
``max_episode_steps`` and resets envs itself, so :class:`BraxPool` is the batch after those
wrappers: pass it to the trainer with ``wrap_env=False``::

    from brax.training.agents.ppo import train as ppo
    from envpool.integrations.brax import BraxPool

    env = BraxPool("Go1JoystickFlatTerrain-v1", num_envs=256, seed=0)
    eval_env = BraxPool("Go1JoystickFlatTerrain-v1", num_envs=128, seed=1000)
    make_policy, params, metrics = ppo.train(env, num_timesteps=1_000_000, wrap_env=False,
                                             num_envs=256, eval_env=eval_env,
                                             num_eval_envs=128, episode_length=1000, ...)

``num_envs`` (and ``num_eval_envs``) given to the trainer must equal the pools'. The pool
steps in Python callbacks (``jax.experimental.io_callback``) from inside the trainer's jitted
rollout; the order of the calls is the order of the data flowing through them (each step
takes the state the one before it returned), so one pool serves one rollout at a time.

What the trainer reads, as ``wrap_for_brax_training`` gives it: ``obs`` (the pool's
observation: an array or a dict of arrays, float32), ``reward`` (float32), ``done`` (1.0 where
the step ended an episode: terminated or truncated by ``max_episode_steps``; the pool has
then already reset that env and ``obs`` is the next episode's first, as brax's autoreset
gives it), and ``info["truncation"]`` (1.0 where the end was the time limit only),
``info["steps"]`` (the episode's steps so far, counting the ending step),
``info["episode_done"]``, ``info["episode_metrics"]`` (the episode's return and length so
far). Observations keep the pool's values, cast to float32.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import envpool

__all__ = ["BraxPool"]


class BraxPool:
    """A pool of ``num_envs`` envs as one batched brax environment (module docstring).

    Args:
        task_id: The id (``"Go1JoystickFlatTerrain-v1"``).
        num_envs: How many envs (the trainer's ``num_envs`` or ``num_eval_envs``).
        seed: The pool's seed (env ``i`` is seeded ``seed + i``); the trainer's keys are
            not used.
        **kwargs: Further keywords of :func:`envpool.make_gymnasium` (``autoreset_mode``
            is the pool's ``"same_step"``, as brax resets).

    Raises:
        ModuleNotFoundError: brax (or jax) is not installed.
        ValueError: as :func:`envpool.make_gymnasium` (unknown id or keyword, a value out
            of its domain), or the id's actions are not a Box.

    Example:
        >>> env = BraxPool("Go1JoystickFlatTerrain-v1", num_envs=4, seed=0)
        >>> import jax
        >>> state = jax.jit(env.reset)(jax.random.split(jax.random.PRNGKey(0), 4))
        >>> state.obs["state"].shape
        (4, 48)
    """

    def __init__(self, task_id: str, num_envs: int, seed: int = 0, **kwargs: Any) -> None:
        try:
            import jax  # noqa: F401
            from brax.envs.base import State  # noqa: F401
        except ModuleNotFoundError as error:
            raise ModuleNotFoundError(
                "BraxPool needs brax and jax: pip install brax", name=error.name) from error
        if "autoreset_mode" in kwargs:
            raise ValueError("BraxPool: the pool resets as brax does (autoreset_mode "
                             "'same_step'); do not pass autoreset_mode")
        self._pool = envpool.make_gymnasium(task_id, num_envs=num_envs, seed=seed,
                                            autoreset_mode="same_step", **kwargs)
        space = self._pool.single_action_space
        if not hasattr(space, "low") or space.dtype.kind != "f":
            self._pool.close()
            raise ValueError(f"BraxPool: {task_id}'s actions are {space}, not a Box of floats")
        self.num_envs = num_envs
        self._action_shape = (num_envs, *space.shape)
        self._action_dtype = space.dtype
        obs_space = self._pool.single_observation_space
        self._obs_keys: tuple[str, ...] | None = (
            tuple(obs_space.spaces) if hasattr(obs_space, "spaces") else None)
        self._obs_shapes: Any = (
            {k: tuple(obs_space.spaces[k].shape) for k in self._obs_keys}
            if self._obs_keys is not None else tuple(obs_space.shape))
        self._steps = np.zeros(num_envs, dtype=np.float32)
        self._returns = np.zeros(num_envs, dtype=np.float32)
        self._closed = False

    # brax.envs.Env's properties the trainers read.
    @property
    def observation_size(self) -> Any:
        """One env's observation shape (a dict of shapes for a dict observation)."""
        if self._obs_keys is None:
            return self._obs_shapes[-1] if len(self._obs_shapes) == 1 else self._obs_shapes
        return dict(self._obs_shapes)

    @property
    def action_size(self) -> int:
        """One env's action size."""
        return int(np.prod(self._action_shape[1:]))

    @property
    def backend(self) -> str:
        """The simulator behind the env, in brax's sense."""
        return "envpool"

    @property
    def unwrapped(self) -> BraxPool:
        """The env itself (brax's wrappers' ``unwrapped``)."""
        return self

    # The host side: what the callbacks run.
    def _obs_arrays(self, obs: Any) -> tuple[np.ndarray, ...]:
        if self._obs_keys is None:
            return (np.asarray(obs, dtype=np.float32),)
        return tuple(np.asarray(obs[k], dtype=np.float32) for k in self._obs_keys)

    def _host_reset(self) -> tuple[np.ndarray, ...]:
        if self._closed:
            raise RuntimeError("BraxPool: the pool is closed")
        obs, _ = self._pool.reset()
        self._steps[:] = 0
        self._returns[:] = 0
        return self._obs_arrays(obs)

    def _host_step(self, action: np.ndarray) -> tuple[np.ndarray, ...]:
        if self._closed:
            raise RuntimeError("BraxPool: the pool is closed")
        act = np.asarray(action, dtype=self._action_dtype).reshape(self._action_shape)
        obs, reward, terminated, truncated, _ = self._pool.step(act)
        reward = np.asarray(reward, dtype=np.float32)
        done = np.logical_or(terminated, truncated)
        self._steps += 1
        self._returns += reward
        steps, returns = self._steps.copy(), self._returns.copy()
        self._steps[done] = 0
        self._returns[done] = 0
        return (*self._obs_arrays(obs), reward, done.astype(np.float32),
                np.logical_and(truncated, np.logical_not(terminated)).astype(np.float32),
                steps, returns)

    # The jax side.
    def _shapes(self) -> Any:
        import jax

        n = self.num_envs
        shapes = ([self._obs_shapes] if self._obs_keys is None
                  else [self._obs_shapes[k] for k in self._obs_keys])
        return [jax.ShapeDtypeStruct((n, *s), np.float32) for s in shapes]

    def _obs_tree(self, arrays: Any) -> Any:
        if self._obs_keys is None:
            return arrays[0]
        return dict(zip(self._obs_keys, arrays, strict=True))

    def _state(self, obs: Any, reward: Any, done: Any, truncation: Any, steps: Any,
               returns: Any) -> Any:
        from brax.envs.base import State

        metrics = {"episode_return": returns, "episode_length": steps}
        info = {"truncation": truncation, "steps": steps, "episode_done": done,
                "episode_metrics": {"sum_reward": returns, "length": steps}}
        return State(pipeline_state=None, obs=obs, reward=reward, done=done, metrics=metrics,
                     info=info)

    def reset(self, rng: Any) -> Any:
        """Resets every env of the pool (brax's ``Env.reset``).

        Args:
            rng: The trainer's keys, ``(num_envs, 2)``; the pool draws from its own seeds.

        Returns:
            The batch's ``brax.envs.State``.
        """
        import jax.numpy as jnp
        from jax.experimental import io_callback

        del rng
        obs = io_callback(self._host_reset, self._shapes(), ordered=False)
        zeros = jnp.zeros((self.num_envs,), jnp.float32)
        return self._state(self._obs_tree(obs), zeros, zeros, zeros, zeros, zeros)

    def step(self, state: Any, action: Any) -> Any:
        """Steps every env of the pool with ``action`` (brax's ``Env.step``).

        Args:
            state: The state the last ``reset`` or ``step`` returned.
            action: ``(num_envs, action_size)``.

        Returns:
            The batch's next ``brax.envs.State``.
        """
        import jax
        from jax.experimental import io_callback

        del state  # the pool holds the envs' states
        vec = jax.ShapeDtypeStruct((self.num_envs,), np.float32)
        out = io_callback(self._host_step, (*self._shapes(), vec, vec, vec, vec, vec),
                          action, ordered=False)
        k = len(out) - 5
        return self._state(self._obs_tree(out[:k]), *out[k:])

    def close(self) -> None:
        """Closes the pool; a later reset or step raises ``RuntimeError``."""
        if not self._closed:
            self._closed = True
            self._pool.close()
