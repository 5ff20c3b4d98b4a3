"""sail-sg EnvPool's raw binding of a family (``_AtariEnvPool(spec)``,
``envpool.dummy.dummy_envpool._DummyEnvPool``): :class:`RawEnvPool`."""

from __future__ import annotations

from typing import Any

import numpy as np

from envpool.core.batch import RawBatch
from envpool.core.pool import EnvPoolBase
from envpool.core.spec import EnvSpec
from envpool.core.tree import leaves
from envpool.flavours.dm_env import batched_timestep


class RawEnvPool(EnvPoolBase):
    """sail-sg EnvPool's raw binding of a family (``_AtariEnvPool(spec)``): this package's
    pool with EnvPool's private calls, whose batches are tuples of arrays in
    ``_state_keys`` order and whose actions are tuples in ``_action_keys`` order. The
    actions are checked as ``send`` checks them (EnvPool's raw send does not)."""

    def __init__(self, spec: EnvSpec) -> None:
        super().__init__(spec)
        self._spec = spec
        self._state_keys: list[str] = spec._state_keys  # type: ignore[attr-defined]
        self._action_keys: list[str] = spec._action_keys  # type: ignore[attr-defined]

    def _reset(self, env_ids: Any) -> None:
        """Queues a reset of ``env_ids``; ``_recv`` returns the results."""
        self.send_reset(np.asarray(env_ids))

    def _send(self, action: Any) -> None:
        """Queues a step: ``action`` holds the arrays of ``_action_keys``, in order."""
        if self.max_num_players:
            self._send_players(list(action))
            return
        arrays = dict(zip(self._action_keys, action, strict=True))
        env_id = np.asarray(arrays["env_id"])
        if not np.array_equal(env_id, np.asarray(arrays["players.env_id"])):
            raise ValueError("players.env_id must equal env_id (these envs have one player)")
        self.send(arrays["action"], env_id)

    def _recv(self) -> tuple[np.ndarray, ...]:
        """The next finished batch: the arrays of ``_state_keys``, in order."""
        return self._result(self.recv_raw())

    def _result(self, raw: RawBatch, xp: Any = np) -> tuple[Any, ...]:
        """A batch as the arrays of ``_state_keys`` (``_recv``'s, and ``_xla``'s recv's)."""
        step = batched_timestep(raw, None, xp)
        env_id = xp.asarray(raw.env_id, dtype=xp.int32)
        players = env_id if raw.players_env_id is None else raw.players_env_id
        obs_arrays = leaves(raw.obs)
        info = [raw.info[k[len("info:"):]] for k in self._state_keys[8 + len(obs_arrays):]]
        return (env_id, xp.asarray(players, dtype=xp.int32), raw.elapsed_step,
                raw.terminated | raw.truncated, step.reward, step.discount, step.step_type,
                raw.truncated, *obs_arrays, *info)

    def _xla(self) -> Any:
        """EnvPool's XLA functions: ``xla()``'s ``(handle, recv, send, step)``, whose
        ``recv`` gives the arrays of ``_state_keys``."""
        return self.xla()
