"""Stable-Baselines3: an envpool pool as a ``stable_baselines3`` ``VecEnv``.

    from stable_baselines3 import PPO
    from envpool.integrations.sb3 import make_vec_env

    venv = make_vec_env("CartPole-v1", n_envs=8, seed=0)
    PPO("MlpPolicy", venv).learn(50_000)

The pool runs with gymnasium's same-step autoreset, which is exactly SB3's
contract: the step that ends an episode returns the first observation of the
next one, with the last observation of the finished one in
``infos[i]["terminal_observation"]`` and ``infos[i]["TimeLimit.truncated"]``
set when the episode was cut by the time limit (and not terminated). No extra
reset round trip is made; the reset info of the envs that restarted is in
``reset_infos``. The result works under ``VecMonitor``, ``VecNormalize``,
``VecFrameStack`` and ``VecTransposeImage`` like SB3's own vector envs.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import (
    VecEnv,
    VecEnvIndices,
    VecEnvObs,
    VecEnvStepReturn,
)

from envpool.core import tree
from envpool.flavours.gymnasium_env import GymnasiumEnvPool
from envpool.integrations._pool import make_adapter_pool, require_pool

__all__ = ["EnvPoolVecEnv", "make_vec_env"]


class EnvPoolVecEnv(VecEnv):
    """A same-step-autoreset, sync-mode gymnasium pool as an SB3 ``VecEnv``.

    ``make_vec_env`` makes the pool and this wrapper in one call. The step that ends an
    episode returns the next episode's first observation, with the last one in
    ``infos[i]["terminal_observation"]`` and ``infos[i]["TimeLimit.truncated"]`` set
    on truncation, as SB3 expects. All envs live in one native pool, so
    ``get_attr``/``set_attr`` address the pool (a value is the same for every index,
    and ``set_attr`` must target every env); ``env_method`` calls a pool method once
    per index when its first parameter is ``env_id`` (``get_state``, ``set_state``),
    else once for the pool, returning the result for each index.

    Args:
        pool: A gymnasium-flavour pool made with ``autoreset_mode="same_step"`` in sync
            mode (``batch_size == num_envs``).

    Raises:
        ValueError: the pool is async or has another autoreset mode.

    Examples:
        >>> import envpool
        >>> from envpool.integrations.sb3 import EnvPoolVecEnv
        >>> pool = envpool.make_gymnasium("CartPole-v1", num_envs=4, seed=0,
        ...                               autoreset_mode="same_step")
        >>> venv = EnvPoolVecEnv(pool)
        >>> venv.reset().shape
        (4, 4)
        >>> venv.close()
    """

    def __init__(self, pool: GymnasiumEnvPool) -> None:
        require_pool("EnvPoolVecEnv", pool, "same_step")
        self.pool = pool
        self._keys = pool.info_keys
        super().__init__(pool.num_envs, pool.single_observation_space, pool.single_action_space)
        if pool.render_fps is not None:  # VecVideoRecorder's frame rate
            self.metadata["render_fps"] = pool.render_fps

    # -- the VecEnv API ---------------------------------------------------------
    def reset(self) -> VecEnvObs:
        """Resets every env, with the seeds given to ``seed()`` if any (used once)."""
        if any(self._options):
            raise ValueError("envpool envs take no reset options; set keywords at make time")
        seeds: list[int] | None = None
        if any(s is not None for s in self._seeds):
            rng = np.random.default_rng()
            seeds = [int(rng.integers(2**31)) if s is None else int(s) for s in self._seeds]
        obs, info = self.pool.reset(seed=seeds)
        self.reset_infos = self._split_info(info, range(self.num_envs))
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        """Hands the actions to the native pool; the envs step while Python goes on."""
        self.pool.send(actions)

    def step_wait(self) -> VecEnvStepReturn:
        """Waits for the step: (obs, rewards, dones, infos) in SB3's convention."""
        obs, reward, terminated, truncated, info = self.pool.recv()
        dones = terminated | truncated
        keys = self._keys
        time_limit = (truncated & ~terminated).tolist()
        if keys:
            cols = [(k, list(info[k])) for k in keys]
            infos = [
                {"TimeLimit.truncated": t, **{k: c[i] for k, c in cols}}
                for i, t in enumerate(time_limit)
            ]
        else:
            infos = [{"TimeLimit.truncated": t} for t in time_limit]
        done_ids = np.flatnonzero(dones)
        if done_ids.size:
            final_obs = info["final_obs"]
            final_info = info["final_info"]
            reset_infos = self._split_info(info, done_ids)
            for i, reset_info in zip(done_ids.tolist(), reset_infos, strict=True):
                infos[i]["terminal_observation"] = tree.row(final_obs, i)
                for k in keys:  # the step's own info, as a gymnasium env returns it
                    infos[i][k] = final_info[k][i]
                self.reset_infos[i] = reset_info
        return obs, reward, dones, infos

    def close(self) -> None:
        """Stops the native pool."""
        self.pool.close()

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """The pool's attribute ``attr_name``, once per selected index."""
        value = getattr(self.pool, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Sets an attribute of the pool; ``indices`` must select every env."""
        if sorted(self._get_indices(indices)) != list(range(self.num_envs)):
            raise ValueError(
                "the envs share one native pool: set_attr can only set an attribute of all of them"
            )
        setattr(self.pool, attr_name, value)

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        """Calls a pool method (per index when it takes ``env_id`` first)."""
        method = getattr(self.pool, method_name)
        ids = list(self._get_indices(indices))
        try:
            params = list(inspect.signature(method).parameters)
        except (TypeError, ValueError):
            params = []
        if params and params[0] == "env_id":
            return [method(i, *method_args, **method_kwargs) for i in ids]
        result = method(*method_args, **method_kwargs)
        return [result for _ in ids]

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        """Native envs carry no gymnasium wrappers: False for every index."""
        return [False for _ in self._get_indices(indices)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        """One frame per env when the pool renders ``rgb_array``, else Nones."""
        if self.render_mode != "rgb_array":
            warnings.warn(
                f"The render mode is {self.render_mode}, but get_images needs 'rgb_array'.",
                stacklevel=2,
            )
            return [None for _ in range(self.num_envs)]
        return list(self.pool.render(env_ids=self.pool.all_env_ids))

    # -- helpers -----------------------------------------------------------------
    def _split_info(self, info: dict[str, Any], ids: Any) -> list[dict[str, Any]]:
        """Per-env dicts of the env's info keys (reset infos)."""
        return [{k: info[k][i] for k in self._keys} for i in ids]


def make_vec_env(
    task_id: str, n_envs: int = 1, seed: int | None = None, **env_kwargs: Any
) -> EnvPoolVecEnv:
    """Makes an SB3 ``VecEnv`` of ``n_envs`` envs of ``task_id`` stepped by envpool.

    The drop-in for SB3's own ``make_vec_env``: the result works under ``VecMonitor``,
    ``VecNormalize``, ``VecFrameStack`` and ``VecTransposeImage``, and with SB3's
    algorithms.

    Args:
        task_id: A registered envpool task id.
        n_envs: The number of envs.
        seed: Env i gets the seed ``seed + i``; None draws one at random.
        **env_kwargs: ``envpool.make`` keywords (``num_threads``,
            ``max_episode_steps``, the env's own keywords). The pool is sync with
            same-step autoreset, so ``num_envs``, ``batch_size`` and
            ``autoreset_mode`` cannot be set.

    Returns:
        An ``EnvPoolVecEnv``: ``reset()`` returns the observations, ``step(actions)``
        returns ``(obs, rewards, dones, infos)`` in SB3's convention.

    Raises:
        TypeError: ``env_kwargs`` name a keyword the adapter sets, or one the task
            does not take.
        ValueError: ``task_id`` is not registered, or a keyword's value is out of range.

    Examples:
        >>> from stable_baselines3 import PPO
        >>> from envpool.integrations.sb3 import make_vec_env
        >>> venv = make_vec_env("CartPole-v1", n_envs=8, seed=0)
        >>> model = PPO("MlpPolicy", venv).learn(50_000)  # doctest: +SKIP
        >>> venv.close()
    """
    return EnvPoolVecEnv(make_adapter_pool("make_vec_env", task_id, n_envs, seed, "same_step",
                                           **env_kwargs))
