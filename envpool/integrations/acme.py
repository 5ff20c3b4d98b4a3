"""dm_env / Acme: ``dm_env.Environment`` views of a pool.

    from envpool.integrations.acme import make_dm_env, make_batched_dm_env

    env = make_dm_env("CartPole-v1", seed=0)            # one env, for acme.EnvironmentLoop
    batched = make_batched_dm_env("CartPole-v1", num_envs=8, seed=0)

Both follow dm_env's episode contract: ``step_type`` FIRST after a reset (and
on the step after a LAST one: autoreset is next-step), LAST when the episode
ends, MID otherwise; ``discount`` is 0 on termination and 1 on truncation (so
value bootstrapping is right) and on every other step, but for an env's own discount
(Atari's ``zero_discount_on_life_loss``: 0 on a life loss too). Specs come from
``dm_env.specs``; observations are the env's observation (an array, or for the
DeepMind Control Suite tasks an ``OrderedDict`` of arrays as dm_control returns),
not envpool's ``State`` namedtuple (``envpool.make_dm`` gives that).

* :class:`DmEnv` is one env. FIRST steps carry ``reward=None`` and
  ``discount=None`` and ``step()`` on a fresh env resets it, exactly as
  ``dm_env.test_utils.EnvironmentTestMixin`` checks, so ``acme.EnvironmentLoop``
  runs it unchanged.
* :class:`BatchedDmEnv` is the whole pool in one environment: every field of
  the TimeStep has a leading ``num_envs`` dimension (the specs too) and
  ``step_type`` is an int32 array of per-env ``StepType`` values (the dm
  flavour's, ``envpool.make_dm``'s TimeSteps with the env's observation in place of
  ``State``); FIRST rows have reward 0 and discount 1. Each env's slice follows the
  contract above.

Both wrap a dm-flavour pool (``envpool.make_dm``) and use its API. Only ``dm_env`` is
imported here; ``acme`` itself is not needed.
"""

from __future__ import annotations

import collections
from typing import Any

import dm_env
import numpy as np
from dm_env import specs

from envpool.core import spaces as envpool_spaces
from envpool.core import tree
from envpool.flavours.dm_env import DmEnvPool
from envpool.integrations._pool import make_adapter_pool

__all__ = ["BatchedDmEnv", "DmEnv", "make_batched_dm_env", "make_dm_env"]


def _per_env_obs_spec(pool: DmEnvPool) -> Any:
    native = pool.spec.native_spec
    obs_specs = [envpool_spaces.dm_spec(o) for o in native["obs"]]
    if native["obs_layout"] == "array":
        return envpool_spaces.dm_spec(native["obs"][0], name="observation")
    if native["obs_layout"] == "tuple":
        return tuple(obs_specs)
    return collections.OrderedDict((s.name, s) for s in obs_specs)


def _batch_spec(spec: specs.Array, n: int) -> specs.Array:
    """``spec`` with a leading batch dimension of ``n``."""
    shape = (n, *spec.shape)
    if isinstance(spec, specs.BoundedArray):
        low = np.broadcast_to(spec.minimum, spec.shape)
        high = np.broadcast_to(spec.maximum, spec.shape)
        return specs.BoundedArray(shape, spec.dtype, np.broadcast_to(low, shape),
                                  np.broadcast_to(high, shape), name=spec.name)
    return specs.Array(shape, spec.dtype, name=spec.name)


def _observation_of(layout: str, fields: tuple[str, ...]) -> Any:
    """What takes the env's observation out of the dm flavour's ``State``: its one array,
    the tuple of its arrays, or the OrderedDict (dm_control's type) of its dict's keys."""
    if layout == "array":
        return lambda state: state[0]
    if layout == "tuple":
        return lambda state: tuple(state[:len(fields)])
    return lambda state: collections.OrderedDict(zip(fields, state, strict=False))


class BatchedDmEnv(dm_env.Environment):
    """A sync dm-flavour pool as one batched ``dm_env.Environment``.

    ``make_batched_dm_env`` makes the pool and this wrapper in one call. Every field of
    the TimeStep has a leading ``num_envs`` dimension (the specs too); ``step_type`` is
    an int32 array of per-env ``StepType`` values; FIRST rows have reward 0 and
    discount 1; ``discount`` is 0 on termination and 1 on truncation. Observations are
    the env's own (an array, or an ``OrderedDict`` of arrays), not ``envpool.make_dm``'s
    ``State``.

    Args:
        pool: A dm-flavour pool (``envpool.make_dm``) in sync mode.

    Raises:
        TypeError: the pool is not a dm-flavour pool.
        ValueError: the pool is async, or of a multi-player env.

    Examples:
        >>> import envpool
        >>> from envpool.integrations.acme import BatchedDmEnv
        >>> env = BatchedDmEnv(envpool.make_dm("CartPole-v1", num_envs=4, seed=0))
        >>> ts = env.reset()
        >>> ts.step_type.shape, ts.observation.shape
        ((4,), (4, 4))
        >>> env.close()
    """

    def __init__(self, pool: DmEnvPool) -> None:
        if not isinstance(pool, DmEnvPool):
            raise TypeError(f"BatchedDmEnv wraps a dm-flavour pool (envpool.make_dm), got "
                            f"{type(pool).__name__}")
        if pool.is_async or pool.max_num_players:
            raise ValueError("BatchedDmEnv needs a sync pool (batch_size == num_envs) of a "
                             "single-player env (a row per env)")
        self.pool = pool
        self.num_envs = pool.num_envs
        fields = pool.State._fields
        self._observation = _observation_of(pool.spec.native_spec["obs_layout"],
                                            fields[:fields.index("env_id")])
        self._single_obs_spec = _per_env_obs_spec(pool)
        self._single_action_spec = envpool_spaces.dm_spec(pool.spec.native_spec["action"],
                                                          name="action")

    # -- specs ------------------------------------------------------------------------
    def single_observation_spec(self) -> Any:
        """The observation spec of one env."""
        return self._single_obs_spec

    def single_action_spec(self) -> specs.Array:
        """The action spec of one env."""
        return self._single_action_spec

    def observation_spec(self) -> Any:
        """Per-env observation specs with a leading ``num_envs`` dimension."""
        return tree.map_leaves(lambda s: _batch_spec(s, self.num_envs), self._single_obs_spec)

    def action_spec(self) -> specs.Array:
        """The action spec with a leading ``num_envs`` dimension."""
        return _batch_spec(self._single_action_spec, self.num_envs)

    def reward_spec(self) -> specs.Array:
        """float32 rewards, one per env."""
        return specs.Array((self.num_envs,), np.float32, name="reward")

    def discount_spec(self) -> specs.BoundedArray:
        """float32 discounts in [0, 1], one per env."""
        return specs.BoundedArray((self.num_envs,), np.float32, 0.0, 1.0, name="discount")

    # -- reset / step ------------------------------------------------------------------
    def reset(self) -> dm_env.TimeStep:
        """Resets every env: all rows FIRST."""
        return self._unstate(self.pool.reset())

    def step(self, action: Any) -> dm_env.TimeStep:
        """Steps every env; an env whose last step was LAST, or that was never reset,
        restarts (a FIRST row, the action ignored), as dm_env specifies."""
        return self._unstate(self.pool.step(np.asarray(action)))

    def _unstate(self, ts: dm_env.TimeStep) -> dm_env.TimeStep:
        """The pool's TimeStep with the env's observation in place of ``State``."""
        return ts._replace(observation=self._observation(ts.observation))

    def close(self) -> None:
        """Stops the native pool."""
        self.pool.close()


class DmEnv(dm_env.Environment):
    """One env (a pool of one) as a plain ``dm_env.Environment``, for Acme.

    ``make_dm_env`` makes the pool and this wrapper in one call. FIRST steps carry
    ``reward=None`` and ``discount=None`` and ``step()`` on a fresh env resets it, as
    ``dm_env`` specifies, so ``acme.EnvironmentLoop`` runs it unchanged.

    Args:
        pool: A dm-flavour pool (``envpool.make_dm``) of one env.

    Raises:
        TypeError: the pool is not a dm-flavour pool.
        ValueError: the pool has more than one env.

    Examples:
        >>> import envpool
        >>> from envpool.integrations.acme import DmEnv
        >>> env = DmEnv(envpool.make_dm("CartPole-v1", num_envs=1, seed=0))
        >>> env.reset().first()
        True
        >>> env.close()
    """

    def __init__(self, pool: DmEnvPool) -> None:
        if pool.num_envs != 1:
            raise ValueError(f"DmEnv is one env; got a pool of {pool.num_envs}")
        self._batched = BatchedDmEnv(pool)
        self.pool = pool

    def observation_spec(self) -> Any:
        """The env's observation spec."""
        return self._batched.single_observation_spec()

    def action_spec(self) -> specs.Array:
        """The env's action spec."""
        return self._batched.single_action_spec()

    def reward_spec(self) -> specs.Array:
        """A float32 scalar."""
        return specs.Array((), np.float32, name="reward")

    def discount_spec(self) -> specs.BoundedArray:
        """A float32 scalar in [0, 1]."""
        return specs.BoundedArray((), np.float32, 0.0, 1.0, name="discount")

    def reset(self) -> dm_env.TimeStep:
        """Starts a new episode: a FIRST step without reward or discount."""
        return self._unbatch(self._batched.reset())

    def step(self, action: Any) -> dm_env.TimeStep:
        """One step (on a fresh env, or after a LAST step: the FIRST of a new episode)."""
        batched_action = np.asarray(action)[None]
        return self._unbatch(self._batched.step(batched_action))

    def _unbatch(self, ts: dm_env.TimeStep) -> dm_env.TimeStep:
        step_type = dm_env.StepType(int(ts.step_type[0]))
        obs = tree.map_leaves(lambda v: v[0], ts.observation)
        if step_type is dm_env.StepType.FIRST:
            return dm_env.TimeStep(step_type, None, None, obs)
        return dm_env.TimeStep(step_type, ts.reward[0:1].reshape(()),
                               ts.discount[0:1].reshape(()), obs)

    def close(self) -> None:
        """Stops the native pool."""
        self.pool.close()


def make_batched_dm_env(task_id: str, num_envs: int = 1, seed: int | None = None,
                        **env_kwargs: Any) -> BatchedDmEnv:
    """Makes a ``BatchedDmEnv``: ``num_envs`` envs of ``task_id`` as one dm_env.

    Args:
        task_id: A registered envpool task id.
        num_envs: The number of envs.
        seed: Env i gets the seed ``seed + i``; None draws one at random.
        **env_kwargs: ``envpool.make`` keywords (``num_threads``, the env's own
            keywords). The pool is sync with next-step autoreset, so ``num_envs``,
            ``batch_size`` and ``autoreset_mode`` cannot be set.

    Returns:
        A ``BatchedDmEnv``: ``reset()`` and ``step(action)`` return a
        ``dm_env.TimeStep`` whose fields have a leading ``num_envs`` dimension.

    Raises:
        TypeError: ``env_kwargs`` name a keyword the adapter sets, or one the task
            does not take.
        ValueError: ``task_id`` is not registered, or a keyword's value is out of range.

    Examples:
        >>> import numpy as np
        >>> from envpool.integrations.acme import make_batched_dm_env
        >>> env = make_batched_dm_env("CartPole-v1", num_envs=8, seed=0)
        >>> _ = env.reset()
        >>> ts = env.step(np.zeros(8, dtype=np.int64))
        >>> ts.reward.shape, ts.discount.dtype
        ((8,), dtype('float32'))
        >>> env.close()
    """
    return BatchedDmEnv(make_adapter_pool("make_batched_dm_env", task_id, num_envs, seed,
                                          "next_step", flavour="dm", **env_kwargs))


def make_dm_env(task_id: str, seed: int | None = None, **env_kwargs: Any) -> DmEnv:
    """Makes a ``DmEnv``: one env of ``task_id`` as a plain ``dm_env.Environment``.

    Args:
        task_id: A registered envpool task id.
        seed: The env's seed; None draws one at random.
        **env_kwargs: ``envpool.make`` keywords (``max_episode_steps``, the env's own
            keywords); ``num_envs``, ``batch_size`` and ``autoreset_mode`` cannot be
            set.

    Returns:
        A ``DmEnv``: ``reset()`` and ``step(action)`` return unbatched
        ``dm_env.TimeStep`` values, FIRST ones with ``reward`` and ``discount`` None.

    Raises:
        TypeError: ``env_kwargs`` name a keyword the adapter sets, or one the task
            does not take.
        ValueError: ``task_id`` is not registered, or a keyword's value is out of range.

    Examples:
        >>> from envpool.integrations.acme import make_dm_env
        >>> env = make_dm_env("CartPole-v1", seed=0)
        >>> ts = env.reset()
        >>> ts = env.step(0)
        >>> ts.mid(), float(ts.reward)
        (True, 1.0)
        >>> env.close()
    """
    return DmEnv(make_adapter_pool("make_dm_env", task_id, 1, seed, "next_step", flavour="dm",
                                   **env_kwargs))
