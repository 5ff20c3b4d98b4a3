"""What ``send`` does with actions: the env ids they go to, the action dict, the
actions of a multi-player env's players, and the native call.

A mixin of :class:`~envpool.core.pool.EnvPoolBase` (it uses the pool's native pool,
``_pool``, and its attributes); every flavour's ``send`` and ``step`` come through here.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from envpool.core.tree import flatten


class ActionDtypeError(TypeError, RuntimeError):
    """An action dict whose arrays are not of the spec's dtypes.

    A TypeError, and a RuntimeError as sail-sg EnvPool raises there."""


class PoolActions:
    """``send`` and its checks (a mixin of ``EnvPoolBase``)."""

    # (set by EnvPoolBase.__init__)
    _pool: Any
    _reset_needed: type[Exception]
    _text: Any
    _all_ids64: np.ndarray
    _last_env_id: np.ndarray | None
    _last_players_env_id: np.ndarray | None
    _action_keys: list[str]
    _action_dtype: np.dtype
    _discrete: bool
    _env_action: bool
    all_env_ids: np.ndarray
    is_async: bool
    max_num_players: int

    def _ids(self, env_id: Any) -> np.ndarray:
        if env_id is self._last_env_id and env_id is not None:
            return env_id  # the ids the last recv returned (async mode): checked already
        if env_id is None:
            if not self.is_async:
                return self._all_ids64
            if self._last_env_id is None:
                raise ValueError("in async mode, pass env_id (the ids recv() returned)")
            return self._last_env_id
        ids = np.asarray(env_id)
        if ids.ndim == 0:
            ids = ids.reshape(1)
        if ids.dtype.kind not in "iu":
            raise TypeError(f"env_id must be integers, got {ids.dtype}")
        return ids

    def send(self, action: Any, env_id: Any = None) -> None:
        """Queues one step of the envs ``env_id`` and returns without waiting for it.

        The worker threads step the envs while Python goes on; ``recv`` returns the
        results. The same in every flavour (gymnasium, gym, dm). ``step(actions,
        env_id)`` is ``send`` then ``recv``.

        Args:
            action: The actions, one row per env of ``env_id`` (integers for a discrete
                action space; floats are taken where every value is a whole number, as
                sail-sg EnvPool casts them); or the action dict ``{"env_id": ...,
                "players.env_id": ..., "action": ...}`` whose arrays have the dtypes of
                ``spec.action_array_spec`` (int32 ids). A multi-player env takes the
                dict of its action arrays.
            env_id: The ids of the envs to step (integers): by default every env in sync
                mode, and in async mode the envs that the last ``recv`` returned.

        Raises:
            ValueError: an action outside the action space or of the wrong shape, an env
                id out of range or already in flight, no ``env_id`` in async mode before
                the first ``recv``, or an action dict with other keys.
            TypeError: env ids that are not integers, discrete actions that are not
                whole numbers, or an action dict whose arrays have other dtypes.
            RuntimeError: the pool is closed.
            gymnasium.error.ResetNeeded: an env of a pool that does not reset on its
                first step (``gymnasium.make_vec``) is stepped before its first reset.

        Examples:
            >>> import envpool
            >>> import numpy as np
            >>> env = envpool.make("CartPole-v1", num_envs=4, batch_size=2, seed=0)
            >>> env.async_reset()
            >>> obs, reward, terminated, truncated, info = env.recv()
            >>> env.send(np.zeros(2, dtype=np.int64), info["env_id"])
            >>> obs, reward, terminated, truncated, info = env.recv()
            >>> obs.shape
            (2, 4)
            >>> env.close()
        """
        if self.max_num_players:
            own_ids = isinstance(action, dict) and "env_id" in action
            default = env_id is None and (own_ids or not self.is_async)
            self._send_players(self._from(action, None if default else self._ids(env_id)))
            return
        if isinstance(action, dict):
            action, env_id = self._action_dict(action, env_id)
        action, ids = np.asarray(action), self._ids(env_id)
        if self._discrete and action.dtype.kind == "f":
            if not (np.isfinite(action).all() and (np.trunc(action) == action).all()):
                raise TypeError(f"discrete actions must be integers, got {action.dtype} "
                                "values that are not all whole numbers")
            if action.size and np.abs(action).max() >= 2.0**62:  # (int64 holds them all)
                raise ValueError(f"discrete actions out of range: {action.tolist()}")
            action = action.astype(np.int64)
        try:
            self._pool.send(action, ids)
        except self._reset_needed as error:
            raise gymnasium.error.ResetNeeded(str(error)) from None
        if self._text is not None:
            self._text.sent(ids, action)

    def _from(self, action: Any, env_id: np.ndarray | None = None) -> list[np.ndarray]:
        """The action arrays to send: ``action`` (an array of the env's action, or a dict
        of action arrays, possibly nested: ``{"players": {"id": ...}}`` is
        ``"players.id"``) as the list of arrays of ``spec.action_array_spec``, in its order.
        ``env_id`` defaults to the dict's, else to every env. A multi-player action
        without ``players.env_id`` gets it: each env's own id where there is one player
        action per env; the last batch's ``players.env_id`` for those envs where the
        counts match; else an equal share of the player actions per env, in order;
        else a RuntimeError (pass ``players.env_id``)."""
        if isinstance(action, dict):
            flat = flatten(action)
        else:
            flat = {self._action_keys[2]: np.asarray(action)}
        if env_id is not None:
            flat["env_id"] = np.asarray(env_id).astype(np.int32)
        elif "env_id" not in flat:
            flat["env_id"] = self.all_env_ids
        if "players.env_id" not in flat:
            flat["players.env_id"] = self._infer_players_env_id(flat)
        missing = [k for k in self._action_keys if k not in flat]
        extra = sorted(set(flat) - set(self._action_keys))
        if missing or extra:
            raise ValueError(f"the action arrays are {self._action_keys} (spec.action_array_"
                             f"spec); missing {missing}, unknown {extra}")
        return [flat[k] for k in self._action_keys]

    def _infer_players_env_id(self, flat: dict[str, Any]) -> np.ndarray:
        env_id = np.asarray(flat["env_id"]).astype(np.int32).reshape(-1)
        if not self.max_num_players:
            return env_id
        counts = {np.shape(flat[k])[0] if np.ndim(flat[k]) else 1
                  for k in self._player_action_keys() if k in flat}
        if len(counts) > 1:
            raise RuntimeError("the player action arrays have different numbers of rows")
        count = counts.pop() if counts else env_id.shape[0]
        if count == env_id.shape[0]:
            return env_id
        cached = self._last_players_env_id
        if cached is not None:
            cached = np.asarray(cached, dtype=np.int32)
            guess = np.concatenate([cached[cached == e] for e in env_id.tolist()] or
                                   [np.empty(0, np.int32)])
            if guess.shape[0] == count and all((cached == e).any() for e in env_id.tolist()):
                return guess
        if env_id.shape[0] == 0 or count % env_id.shape[0]:
            raise RuntimeError("Cannot infer players.env_id for multiplayer action: "
                               f"{count} player actions for {env_id.shape[0]} envs; pass "
                               "a dict action with explicit players.env_id")
        share = count // env_id.shape[0]
        if share > self.max_num_players:
            raise RuntimeError("Cannot infer players.env_id for multiplayer action: "
                               f"{share} players per env, more than max_num_players "
                               f"({self.max_num_players}); pass players.env_id")
        return np.repeat(env_id, share).astype(np.int32)

    def _player_action_keys(self) -> list[str]:
        """The player action arrays' keys: after ``env_id``, ``players.env_id`` and the
        env's own action, where it has one."""
        return self._action_keys[3 if self._env_action else 2:]

    def _send_players(self, arrays: list[np.ndarray]) -> None:
        """Sends a multi-player env's action arrays (``_from``'s list)."""
        env_id, players_env_id, *rest = (np.asarray(a) for a in arrays)
        if env_id.dtype.kind not in "iu" or players_env_id.dtype.kind not in "iu":
            raise TypeError("env_id and players.env_id must be integers")
        ids = env_id.reshape(-1)
        if self._env_action:
            action, *players = rest
        else:  # the players act: the env's own action has no elements
            action, players = np.zeros((ids.shape[0], 0), dtype=np.int32), rest
        try:
            self._pool.send_players(action, ids, players_env_id.reshape(-1),
                                    [p.reshape(-1, *p.shape[1:]) for p in players])
        except self._reset_needed as error:
            raise gymnasium.error.ResetNeeded(str(error)) from None

    def _action_dict(self, action: dict[str, Any], env_id: Any) -> tuple[np.ndarray, Any]:
        """An action dict (``spec.action_array_spec``'s arrays): the actions and their env
        ids, checked."""
        keys = {"env_id", "players.env_id", "action"}
        if set(action) != keys:
            raise ValueError(f"an action dict has the keys {sorted(keys)} (EnvPool's "
                             f"action_array_spec), got {sorted(action)}")
        if env_id is not None:
            raise ValueError("an action dict carries its env_id: pass no env_id beside it")
        arrays = {k: np.asarray(v) for k, v in action.items()}
        want = {"env_id": np.dtype(np.int32), "players.env_id": np.dtype(np.int32),
                "action": self._action_dtype}
        wrong = [f"{k} is {arrays[k].dtype}, not {want[k]}" for k in sorted(keys)
                 if arrays[k].dtype != want[k]]
        if wrong:
            raise ActionDtypeError("the action dict's arrays must have the dtypes of "
                                   f"spec.action_array_spec: {'; '.join(wrong)}")
        if not np.array_equal(arrays["env_id"], arrays["players.env_id"]):
            raise ValueError("players.env_id must equal env_id (these envs have one player)")
        return arrays["action"], arrays["env_id"]
