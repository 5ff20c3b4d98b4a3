"""Tianshou 2.x: an envpool pool as a ``tianshou.env.BaseVectorEnv``.

    from tianshou.data import Collector
    from envpool.integrations.tianshou import make_tianshou_env

    train_envs = make_tianshou_env("CartPole-v1", num_envs=8, seed=0)
    collector = Collector(policy, train_envs, buffer)

Tianshou's ``Collector`` resets the envs that finished itself
(``reset(env_id=done_ids)``) and steps a subset of envs
(``step(action, id=ready_ids)``), so the pool runs with autoreset disabled:
no step is spent on an automatic reset. As with Tianshou's own vector envs,
``venv.action_space`` / ``observation_space`` / ``spec`` / ``metadata`` are
lists with one entry per env, ``reset`` returns ``(obs, infos)`` and ``step``
``(obs, rew, terminated, truncated, infos)`` where ``infos`` is an object array
of per-env dicts with ``env_id``.

For Tianshou's high-level API, :class:`EnvPoolAdapterFactory` is an
``EnvPoolFactory`` that makes these envs; Tianshou's own ``EnvPoolFactory``
(which calls ``envpool.make_gymnasium``) also works with this package.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from tianshou.env import BaseVectorEnv
from tianshou.highlevel.env import EnvMode, EnvPoolFactory

from envpool.flavours.gymnasium_env import GymnasiumEnvPool
from envpool.integrations._pool import make_adapter_pool, require_pool

__all__ = ["EnvPoolAdapterFactory", "TianshouVectorEnv", "make_tianshou_env"]


class TianshouVectorEnv(BaseVectorEnv):
    """A sync, autoreset-disabled gymnasium pool as a Tianshou vector env.

    ``make_tianshou_env`` makes the pool and this wrapper in one call. Tianshou's
    ``Collector`` resets the envs that finished itself and steps subsets of envs, so
    no step is spent on an automatic reset. As with Tianshou's own vector envs,
    ``reset`` returns ``(obs, infos)`` and ``step`` returns ``(obs, rew, terminated,
    truncated, infos)``, ``infos`` an object array of per-env dicts with ``env_id``.

    Args:
        pool: A gymnasium-flavour pool made with ``autoreset_mode="disabled"`` in sync
            mode (``batch_size == num_envs``).

    Raises:
        ValueError: the pool is async or has another autoreset mode.

    Examples:
        >>> import envpool
        >>> from envpool.integrations.tianshou import TianshouVectorEnv
        >>> pool = envpool.make_gymnasium("CartPole-v1", num_envs=4, seed=0,
        ...                               autoreset_mode="disabled")
        >>> venv = TianshouVectorEnv(pool)
        >>> obs, infos = venv.reset()
        >>> obs.shape, infos[0]["env_id"]
        ((4, 4), 0)
        >>> venv.close()
    """

    def __init__(self, pool: GymnasiumEnvPool) -> None:
        # BaseVectorEnv.__init__ builds one worker per env fn; the pool replaces them.
        require_pool("TianshouVectorEnv", pool, "disabled")
        self.pool = pool
        self.env_num = pool.num_envs
        self.wait_num = self.env_num
        self.timeout = None
        self.is_async = False
        self.waiting_conn: list[Any] = []
        self.waiting_id: list[int] = []
        self.ready_id = list(range(self.env_num))
        self.workers: list[Any] = []
        self.is_closed = False

    # -- attribute access (Tianshou routes action_space & co. here) --------------
    def get_env_attr(self, key: str, id: int | list[int] | np.ndarray | None = None) -> list[Any]:
        """The pool's ``key`` (its spaces are one env's), once per id."""
        self._assert_is_not_closed()
        value = getattr(self.pool, key)
        return [value for _ in self._wrap_id(id)]

    def set_env_attr(
        self, key: str, value: Any, id: int | list[int] | np.ndarray | None = None
    ) -> None:
        """Sets an attribute of the pool; ``id`` must select every env (one pool)."""
        self._assert_is_not_closed()
        if sorted(int(i) for i in self._wrap_id(id)) != list(range(self.env_num)):
            raise ValueError("the envs share one native pool: set every env's attribute at once")
        setattr(self.pool, key, value)

    # -- reset / step --------------------------------------------------------------
    def reset(
        self, env_id: int | list[int] | np.ndarray | None = None, **kwargs: Any
    ) -> tuple[np.ndarray, np.ndarray]:
        """Resets all envs or ``env_id``; ``seed=`` reseeds them (int: env i gets seed + i)."""
        self._assert_is_not_closed()
        seed = kwargs.pop("seed", None)
        if kwargs.pop("options", None):
            raise ValueError("envpool envs take no reset options; set keywords at make time")
        if kwargs:
            raise TypeError(f"unknown reset keyword(s): {', '.join(kwargs)}")
        ids = None if env_id is None else np.asarray(self._wrap_id(env_id), dtype=np.int64)
        obs, info = self.pool.reset(ids, seed=seed)
        return obs, self._infos(info)

    def step(
        self,
        action: np.ndarray | Any | None,
        id: int | list[int] | np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Steps all envs or ``id`` (results in the order of ``id``)."""
        self._assert_is_not_closed()
        if action is None:
            raise ValueError("action must be not-None for non-async")
        ids = None if id is None else np.asarray(self._wrap_id(id), dtype=np.int64)
        obs, rew, terminated, truncated, info = self.pool.step(np.asarray(action), ids)
        return obs, rew, terminated, truncated, self._infos(info)

    def _infos(self, info: dict[str, Any]) -> np.ndarray:
        """Per-env info dicts (``env_id``, ``elapsed_step``, the env's keys) as an object array."""
        cols = [(k, info[k].tolist()) for k in ("elapsed_step", *self.pool.info_keys)]
        env_ids = info["env_id"].tolist()
        out = np.empty(len(env_ids), dtype=object)
        for i, j in enumerate(env_ids):
            d = {k: c[i] for k, c in cols}
            d["env_id"] = j
            out[i] = d
        return out

    # -- the rest of BaseVectorEnv ---------------------------------------------------
    def seed(self, seed: int | list[int] | None = None) -> list[list[int] | None]:
        """Reseeds every env now (a reset, as Tianshou's workers do): env i gets seed + i."""
        self._assert_is_not_closed()
        if seed is None:
            seed = int(np.random.default_rng().integers(2**31))
        seeds = [seed + i for i in range(self.env_num)] if isinstance(seed, int) else list(seed)
        self.pool.reset(seed=seeds)
        return [[s] for s in seeds]

    def render(self, **kwargs: Any) -> list[Any]:
        """The pool's frames (one per env), or Nones when the envs do not render."""
        self._assert_is_not_closed()
        if self.pool.render_mode is None:
            return [None] * self.env_num
        return list(self.pool.render(env_ids=self.pool.all_env_ids))

    def close(self) -> None:
        """Stops the native pool; idempotent."""
        if not self.is_closed:
            self.pool.close()
        self.is_closed = True


def make_tianshou_env(task_id: str, num_envs: int = 1, seed: int | None = None,
                      **env_kwargs: Any) -> TianshouVectorEnv:
    """Makes a Tianshou vector env of ``num_envs`` envs of ``task_id`` stepped by envpool.

    The drop-in for Tianshou's ``DummyVectorEnv`` / ``SubprocVectorEnv``: its
    ``Collector``, trainers and high-level API accept it.

    Args:
        task_id: A registered envpool task id.
        num_envs: The number of envs.
        seed: Env i gets the seed ``seed + i``; None draws one at random.
        **env_kwargs: ``envpool.make`` keywords (``num_threads``, the env's own
            keywords). The pool is sync with autoreset disabled, so ``num_envs``,
            ``batch_size`` and ``autoreset_mode`` cannot be set.

    Returns:
        A ``TianshouVectorEnv`` (a ``tianshou.env.BaseVectorEnv``).

    Raises:
        TypeError: ``env_kwargs`` name a keyword the adapter sets, or one the task
            does not take.
        ValueError: ``task_id`` is not registered, or a keyword's value is out of range.

    Examples:
        >>> import numpy as np
        >>> from envpool.integrations.tianshou import make_tianshou_env
        >>> train_envs = make_tianshou_env("CartPole-v1", num_envs=8, seed=0)
        >>> obs, infos = train_envs.reset()
        >>> obs, rew, terminated, truncated, infos = train_envs.step(np.zeros(8, dtype=int))
        >>> len(train_envs), obs.shape
        (8, (8, 4))
        >>> train_envs.close()
    """
    return TianshouVectorEnv(make_adapter_pool("make_tianshou_env", task_id, num_envs, seed,
                                               "disabled", **env_kwargs))


class EnvPoolAdapterFactory(EnvPoolFactory):
    """Tianshou's high-level ``EnvPoolFactory`` that makes ``TianshouVectorEnv`` envs.

    Takes no arguments. Gymnasium ``make`` keywords given to Tianshou's env factory
    pass through to ``make_tianshou_env`` (``render_mode`` is dropped).

    Examples:
        >>> from tianshou.highlevel.env import EnvFactoryRegistered, VectorEnvType
        >>> from envpool.integrations.tianshou import EnvPoolAdapterFactory
        >>> env_factory = EnvFactoryRegistered(task="CartPole-v1",
        ...                                    venv_type=VectorEnvType.DUMMY,
        ...                                    envpool_factory=EnvPoolAdapterFactory())
    """

    def create_venv(  # noqa: D102
        self, task: str, num_envs: int, mode: EnvMode, seed: int, kwargs: dict
    ) -> BaseVectorEnv:
        """Makes the vector env Tianshou asks for (Tianshou calls this).

        Args:
            task: The task id.
            num_envs: The number of envs.
            mode: Tianshou's env mode (train, test or watch).
            seed: Env i gets the seed ``seed + i``.
            kwargs: Gymnasium ``make`` keywords, passed on as ``envpool.make`` keywords.

        Returns:
            A ``TianshouVectorEnv``.
        """
        return make_tianshou_env(self._transform_task(task), num_envs=num_envs, seed=seed,
                                 **self._transform_kwargs(kwargs, mode))
