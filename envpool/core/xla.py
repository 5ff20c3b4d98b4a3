"""``pool.xla()``: sail-sg EnvPool's XLA interface, ``(handle, recv, send, step)``.

``recv`` and ``send`` are XLA custom calls (jax's FFI) into the pool's native recv and send,
so that a jitted function (a ``lax.scan`` of a whole rollout) steps the envs without
leaving XLA::

    handle, recv, send, step = env.xla()
    env.async_reset()
    handle, (obs, reward, terminated, truncated, info) = recv(handle)
    handle = send(handle, actions, info["env_id"])

The handle (8 bytes, uint8) holds the address of the pool's ``EnvpoolXlaTarget``
(native/core/xla_target.h); each call returns it, and threading it from one call to the next
orders them. The two handlers are built by :mod:`envpool.core.xla_build`.

What ``recv`` returns is what the pool's own ``recv`` returns, as jax arrays: the custom
call's flat arrays are read into a :class:`~envpool.core.batch.RawBatch` as ``recv_raw``
reads the native pool's, and the flavour turns it into its result with jax operations
(its ``_result(raw, xp)``, the same code as its ``recv``). Every batch has ``batch_size``
rows. The arrays keep their dtypes, so an env with float64 arrays (MuJoCo, the Control
Suite) needs ``jax_enable_x64``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from envpool.core.batch import RawBatch, layout_obs, split_info
from envpool.core.xla_build import RECV, SEND, jax_module, shim


class PoolXla:
    """``xla()`` (a mixin of ``EnvPoolBase``): a flavour gives its result of a batch with
    ``_result(raw, xp)``, ``xp`` numpy or ``jax.numpy``."""

    spec: Any

    def _result(self, raw: RawBatch, xp: Any = np) -> Any:
        """What this pool's ``recv`` returns for ``raw`` (a flavour's own; the bare pool
        returns the batch itself), built with the array module ``xp``."""
        return raw

    def xla(self) -> Any:
        """Gives the XLA interface: functions that step this pool inside ``jax.jit``.

        ``recv`` and ``send`` are jax custom calls into the pool's own recv and send,
        so a jitted function (a ``lax.scan`` of a whole rollout) steps the envs without
        leaving XLA. The handlers are compiled at a process's first ``xla()`` (with
        ``$CXX`` or the compiler Python was built with) and cached.

        Returns:
            The tuple ``(handle, recv, send, step)``. ``handle`` is an 8-byte uint8
            array to pass to each call and replace by the one it returns (that orders
            the calls). ``recv(handle)`` waits for the next batch and returns ``(handle,
            result)``, where ``result`` is what the flavour's ``recv`` returns, as jax
            arrays with ``batch_size`` rows: ``(obs, reward, terminated, truncated,
            info)`` in the gymnasium and gym flavours (``info`` holds ``env_id``,
            ``players``, ``elapsed_step`` and the env's info arrays; under a gym older
            than 0.26 the gym flavour's ``(obs, reward, done, info)`` with
            ``info["TimeLimit.truncated"]``), a ``dm_env.TimeStep`` in the dm flavour.
            ``send(handle, action, env_id=None)`` queues a step and returns the handle;
            ``step(handle, action, env_id=None)`` is ``recv(send(...))``.

        Raises:
            ImportError: jax 0.5 or newer is not installed.
            RuntimeError: the pool is closed, the env has players or container
                observations (their shapes change from batch to batch), or no C++
                compiler is found to build the handlers.
            ValueError: the pool was made with ``autoreset_mode="same_step"``.
            TypeError: the env has 64-bit arrays and ``jax_enable_x64`` is off.

        Examples:
            >>> import envpool
            >>> import numpy as np
            >>> env = envpool.make("CartPole-v1", num_envs=4, seed=0)
            >>> handle, recv, send, step = env.xla()
            >>> env.async_reset()
            >>> handle, (obs, reward, terminated, truncated, info) = recv(handle)
            >>> action = np.zeros(4, dtype=np.int32)
            >>> handle, (obs, reward, terminated, truncated, info) = step(handle, action)
            >>> obs.shape, reward.dtype
            ((4, 4), dtype('float32'))
            >>> env.close()
        """
        return make_xla(self)


def make_xla(pool: Any) -> tuple[np.ndarray, Callable, Callable, Callable]:
    """Builds the XLA functions of ``pool``: what ``pool.xla()`` returns.

    Args:
        pool: An open pool of any flavour.

    Returns:
        The tuple ``(handle, recv, send, step)``, described at ``PoolXla.xla``.

    Raises:
        ImportError: jax 0.5 or newer is not installed.
        RuntimeError: the pool is closed, the env has players or container
            observations, or the handlers cannot be compiled.
        ValueError: the pool was made with ``autoreset_mode="same_step"``.
        TypeError: the env has 64-bit arrays and ``jax_enable_x64`` is off.
    """
    native = pool.spec.native_spec
    if native.get("max_num_players") or any(a.get("container") for a in native["obs"]):
        raise RuntimeError("xla(): this env has players or container observations, whose "
                           "arrays change size from batch to batch; XLA needs fixed shapes")
    jax = jax_module()
    import jax.numpy as jnp

    if pool.closed:
        raise RuntimeError("xla(): the pool is closed")
    if pool.spec.native_autoreset() == "same_step":
        raise ValueError("xla() returns no final observations: autoreset_mode='same_step' "
                         "is not available there (next_step and disabled are)")
    shim()
    batch = int(pool.config["batch_size"])
    arrays = [*native["obs"], *native["info"]]
    out_types = [jax.ShapeDtypeStruct((batch, *a["shape"]), np.dtype(a["dtype"])) for a in arrays]
    out_types += [jax.ShapeDtypeStruct((batch,), np.dtype(t)) for t in
                  ("int32", "float32", "bool", "bool", "int32")]
    action = native["action"]
    action_dtype = np.dtype(action["dtype"])
    wide = sorted(({str(t.dtype) for t in out_types} | {str(action_dtype)})
                  & {"float64", "int64", "uint64"})
    if wide and not jax.config.jax_enable_x64:
        raise TypeError(f"xla(): this env has {', '.join(wide)} arrays, which jax keeps only "
                        "with jax.config.update('jax_enable_x64', True)")
    handle_type = jax.ShapeDtypeStruct((8,), np.uint8)
    recv_call = jax.ffi.ffi_call(RECV, (handle_type, *out_types), has_side_effect=True,
                                 input_output_aliases={0: 0})
    send_call = jax.ffi.ffi_call(SEND, handle_type, has_side_effect=True,
                                 input_output_aliases={0: 0})
    handle = np.frombuffer(np.uint64(pool._pool.xla_target()).tobytes(), dtype=np.uint8).copy()
    n_obs = len(native["obs"])
    layout, obs_names = native["obs_layout"], [o["name"] for o in native["obs"]]
    info_names = [i["name"] for i in native["info"]]

    def states(outs: list[Any]) -> Any:  # the flat arrays read as recv_raw reads them
        env_id, reward, terminated, truncated, elapsed = outs[-5:]
        info, discount = split_info(info_names, outs[n_obs:-5])
        raw = RawBatch(layout_obs(layout, obs_names, outs[:n_obs]), info, env_id, reward,
                       terminated, truncated, elapsed, None, None, discount)
        return pool._result(raw, jnp)

    all_ids = np.arange(pool.num_envs, dtype=np.int32)
    action_shape = tuple(action["shape"])
    discrete = action["n"] > 0

    def recv(handle: Any) -> tuple[Any, Any]:
        """Waits for the next batch, inside or outside ``jax.jit``.

        Args:
            handle: The handle the previous call returned.

        Returns:
            The tuple ``(handle, result)``: ``result`` is what the flavour's ``recv``
            returns, as jax arrays with ``batch_size`` rows (``(obs, reward,
            terminated, truncated, info)``, or a ``dm_env.TimeStep`` in the dm
            flavour).
        """
        handle, *outs = recv_call(handle)
        # XLA's GPU compiler (jaxlib 0.11.2) fuses a custom call whose results a dynamic
        # update slice writes (a scan's stacked outputs) into a "dynamic slice fusion" and
        # keeps the call itself too: recv ran twice per step on an H200 (64 envs) and the
        # second failed. The barrier keeps the call's results out of any fusion; it is an
        # identity (no copy) everywhere else.
        handle, *outs = jax.lax.optimization_barrier((handle, *outs))
        return handle, states(outs)

    def send(handle: Any, action: Any, env_id: Any = None) -> Any:
        """Queues one step of the envs ``env_id``, inside or outside ``jax.jit``.

        Args:
            handle: The handle the previous call returned.
            action: One action per env of ``env_id`` (or an action dict, which
                carries its ``env_id``).
            env_id: A 1-d integer array of env ids; None: every env (sync mode only).

        Returns:
            The handle, for the next call.

        Raises:
            TypeError: actions that are not numbers (integers for a discrete action
                space), or ``env_id`` that is not a 1-d integer array.
            ValueError: no ``env_id`` in async mode, or actions whose shape is not
                ``(len(env_id), *action_shape)``.
        """
        if isinstance(action, dict):  # an action dict (spec.action_array_spec)
            action, env_id = action["action"], action["env_id"]
        action = jnp.asarray(action)
        if discrete and not jnp.issubdtype(action.dtype, jnp.integer):
            raise TypeError(f"discrete actions must be integers, got {action.dtype}")
        if not (jnp.issubdtype(action.dtype, jnp.integer)
                or jnp.issubdtype(action.dtype, jnp.floating)):
            raise TypeError(f"actions must be numbers, got {action.dtype}")
        if env_id is None:
            if pool.is_async:
                raise ValueError("in async mode, pass env_id (the ids recv returned)")
            env_id = all_ids
        env_id = jnp.asarray(env_id)
        if not jnp.issubdtype(env_id.dtype, jnp.integer) or env_id.ndim != 1:
            raise TypeError(f"env_id must be a 1-d integer array, got {env_id.dtype} "
                            f"{env_id.shape}")
        want = (env_id.shape[0], *action_shape)
        if action.shape != want:
            raise ValueError(f"actions must have shape {want} (one row per env_id), got "
                             f"{action.shape}")
        # the barrier: as recv's (a dynamic slice of a scan's actions is fused into the call)
        action, env_id = jax.lax.optimization_barrier((action.astype(action_dtype),
                                                       env_id.astype(jnp.int32)))
        return send_call(handle, action, env_id)

    def step(handle: Any, action: Any, env_id: Any = None) -> tuple[Any, Any]:
        """Steps the envs: ``recv(send(handle, action, env_id))``.

        Args:
            handle: The handle the previous call returned.
            action: One action per env of ``env_id``.
            env_id: A 1-d integer array of env ids; None: every env (sync mode only).

        Returns:
            The tuple ``(handle, result)``, as ``recv`` returns it.
        """
        return recv(send(handle, action, env_id))

    return handle, recv, send, step
