"""The dm flavour: batched ``dm_env.TimeStep``s, as sail-sg EnvPool's
``env_type="dm"``.

Each field of the TimeStep is an array over the batch. ``step_type`` is FIRST
after a reset, LAST when the episode ended, MID otherwise; ``discount`` is 0
on termination and 1 otherwise (truncation keeps 1, so value bootstrapping is
right), or the env's own where it has one (Atari's ``zero_discount_on_life_loss``:
0 on a life loss too). ``observation`` is a namedtuple ``State`` of the observation
arrays plus ``env_id``, ``players`` (``players.env_id``, as EnvPool's),
``elapsed_step`` and the env's info arrays. Autoreset is next-step: the step after a
LAST one returns a FIRST one.
"""

from __future__ import annotations

from typing import Any

import dm_env
import numpy as np

from envpool.core.batch import RawBatch
from envpool.core.pool import EnvPoolBase
from envpool.core.spaces import Players, dm_specs, players_class
from envpool.core.spec import EnvSpec

_FIRST, _MID, _LAST = (int(dm_env.StepType.FIRST), int(dm_env.StepType.MID),
                       int(dm_env.StepType.LAST))


def batched_timestep(raw: RawBatch, observation: Any, xp: Any = np) -> dm_env.TimeStep:
    """A batched ``dm_env.TimeStep`` of one pool batch: the dm flavour's rules, in one place.

    ``step_type`` (int32, as sail-sg EnvPool's) is FIRST on a reset row
    (``elapsed_step`` 0), LAST when the episode ended, MID otherwise; ``discount`` is 0
    on termination and 1 otherwise (truncation keeps 1, so value bootstrapping is
    right), or the env's own (``raw.discount``: Atari's ``zero_discount_on_life_loss``),
    still 0 on termination; FIRST rows carry reward 0. A multi-player env's reward and
    discount have one value per player (the batch's players one after the other).
    ``xp`` is the array module of ``raw``'s arrays: numpy (``recv``) or ``jax.numpy``
    (``xla()``).
    """
    step_type = xp.where(raw.terminated | raw.truncated, _LAST,
                         xp.where(raw.elapsed_step == 0, _FIRST, _MID)).astype(xp.int32)
    first = step_type == _FIRST
    discount = xp.where(raw.terminated, xp.float32(0), xp.float32(1) if raw.discount is None
                        else raw.discount).astype(xp.float32)
    if raw.num_players is not None:  # a multi-player env: reward and discount per player
        first = xp.repeat(first, raw.num_players)
        discount = xp.repeat(discount, raw.num_players)
    reward = raw.reward
    if xp is not np or first.any():  # (numpy: the batch's own rewards when no row is FIRST)
        reward = xp.where(first, 0, reward)
    return dm_env.TimeStep(step_type, reward, discount, observation)


class DmEnvPool(EnvPoolBase, dm_env.Environment):
    """A pool of native envs as a batched dm_env.Environment."""

    def __init__(self, spec: EnvSpec) -> None:
        if spec.config.info_env_kwargs:
            raise TypeError("info_env_kwargs is not available in the dm flavour (its State has "
                            "fixed fields); spec.env_configs lists each env's settings")
        if spec.native_autoreset() != "next_step":
            raise ValueError("the dm flavour autoresets on the next step (a LAST TimeStep, then "
                             f"a FIRST one): autoreset_mode={spec.native_autoreset()!r} is for "
                             "the gymnasium flavour")
        EnvPoolBase.__init__(self, spec)
        self.State, self._observation_spec, self._action_spec = dm_specs(spec.native_spec)
        self._players = players_class(spec.native_spec)

    def observation_spec(self) -> Any:
        """Per-env specs of the State fields."""
        return self._observation_spec

    def action_spec(self) -> Any:
        """Per-env spec of the action."""
        return self._action_spec

    def reward_spec(self) -> Any:
        return dm_env.specs.Array((), np.float32, name="reward")

    def discount_spec(self) -> Any:
        return dm_env.specs.BoundedArray((), np.float32, 0.0, 1.0, name="discount")

    def reset(self, env_id: Any = None, seed: Any = None) -> dm_env.TimeStep:
        """Resets every env (or some) and returns their FIRST TimeSteps.

        The dm flavour's ``reset`` (``make(..., env_type="dm")``, ``make_dm``).

        Args:
            env_id: The ids of the envs to reset; None: every env.
            seed: Reseeds the envs first: an int gives env i the seed ``seed + i``, a
                list one seed per env reset; None keeps each env's random generator
                going.

        Returns:
            A ``dm_env.TimeStep`` whose fields are arrays with one row per env reset
            (all of them in sync mode, the first ``batch_size`` to finish in async
            mode): ``step_type`` (int32, all ``StepType.FIRST``), ``reward`` (float32
            zeros), ``discount`` (float32 ones) and ``observation``, a ``State``
            namedtuple of the observation arrays, ``env_id``, ``players``,
            ``elapsed_step`` and the env's info arrays.

        Raises:
            ValueError: an env in flight, or a list of seeds of the wrong length.
            TypeError: ``seed`` is not an int, a list of ints or None.
            RuntimeError: the pool is closed.

        Examples:
            >>> import envpool
            >>> env = envpool.make_dm("CartPole-v1", num_envs=2, seed=0)
            >>> ts = env.reset()
            >>> ts.step_type
            array([0, 0], dtype=int32)
            >>> ts.reward, ts.discount
            (array([0., 0.], dtype=float32), array([1., 1.], dtype=float32))
            >>> ts.observation.obs.shape, ts.observation.env_id
            ((2, 4), array([0, 1], dtype=int32))
            >>> env.close()
        """
        return self._result(self.reset_raw(env_id, seed))

    def step(self, action: Any, env_id: Any = None) -> dm_env.TimeStep:
        """Steps the envs with ``action`` and waits for the results: ``send``, then ``recv``.

        The dm flavour's ``step``. Autoreset is next-step: an env whose last TimeStep
        was LAST restarts (a FIRST row, its action ignored).

        Args:
            action: One action per env of ``env_id``: an array with one row per env
                (integers for a discrete action space).
            env_id: The ids of the envs to step: by default every env in sync mode, and
                in async mode the envs that the last ``recv`` returned.

        Returns:
            A ``dm_env.TimeStep`` of arrays with one row per env of the batch:
            ``step_type`` (int32: FIRST after a reset, LAST when the episode ended,
            MID otherwise), ``reward`` (float32, 0 on FIRST rows), ``discount``
            (float32: 0 on termination, 1 otherwise, truncation included, or the env's
            own) and ``observation`` (a ``State`` namedtuple: the observation arrays,
            ``env_id``, ``players``, ``elapsed_step`` and the env's info arrays).

        Raises:
            ValueError: an action outside the action space or of the wrong shape, or an
                env id out of range or in flight.
            TypeError: env ids that are not integers, or discrete actions that are not
                whole numbers.
            RuntimeError: the pool is closed, or an env failed while stepping.

        Examples:
            >>> import envpool
            >>> import numpy as np
            >>> env = envpool.make_dm("CartPole-v1", num_envs=2, seed=0)
            >>> _ = env.reset()
            >>> ts = env.step(np.zeros(2, dtype=np.int64))
            >>> ts.step_type, ts.reward
            (array([1, 1], dtype=int32), array([1., 1.], dtype=float32))
            >>> env.close()
        """
        self.send(action, env_id)
        return self.recv()

    def recv(self, reset: bool = False, return_info: bool = True, *,
             timeout: float | None = None) -> dm_env.TimeStep:
        """Waits for the next batch of results of ``send`` or ``async_reset``.

        The dm flavour's ``recv``. In async mode (``batch_size < num_envs``) the batch
        is the first ``batch_size`` envs to finish, whose ids are
        ``observation.env_id``. Ctrl-C interrupts the wait.

        Args:
            reset: sail-sg EnvPool's flag, accepted for its signature: the dm
                flavour returns a ``TimeStep`` either way (its ``step_type`` tells a
                reset's rows), as EnvPool's does.
            return_info: Likewise accepted and without effect.
            timeout: The most seconds to wait; None waits as long as it takes.

        Returns:
            A ``dm_env.TimeStep`` of arrays with one row per env of the batch, as
            ``step`` returns it.

        Raises:
            RuntimeError: nothing is in flight (sync mode), fewer than ``batch_size``
                envs are in flight (async mode), the pool is closed, or an env failed.
            TimeoutError: no batch was ready within ``timeout`` seconds.
            TypeError: ``reset`` or ``return_info`` is not a bool.

        Examples:
            >>> import envpool
            >>> env = envpool.make_dm("CartPole-v1", num_envs=4, batch_size=2, seed=0)
            >>> env.async_reset()
            >>> ts = env.recv()
            >>> ts.step_type, ts.observation.env_id.shape
            (array([0, 0], dtype=int32), (2,))
            >>> env.close()
        """
        self._recv_flags(reset, return_info)
        return self._result(self.recv_raw(timeout))

    def _result(self, raw: RawBatch, xp: Any = np) -> dm_env.TimeStep:
        """The TimeStep of a batch (``recv``'s, and ``xla()``'s with ``xp`` jax.numpy)."""
        obs = [raw.obs] if self._obs_layout == "array" else list(
            raw.obs.values() if isinstance(raw.obs, dict) else raw.obs)
        if raw.players_env_id is None:
            return batched_timestep(raw, self.State(*obs, raw.env_id, Players(raw.env_id),
                                                    raw.elapsed_step, *raw.info.values()), xp)
        info = {k: v for k, v in raw.info.items() if not k.startswith("players.")}
        players = self._players(raw.players_env_id, *[v for k, v in raw.info.items()
                                                      if k.startswith("players.")])
        return batched_timestep(raw, self.State(*obs, raw.env_id, players, raw.elapsed_step,
                                                *info.values()), xp)
