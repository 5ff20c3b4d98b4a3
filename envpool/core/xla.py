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
orders them. The two handlers (envpool/core/xla_shim.cc) are compiled at the first
``xla()`` of a process against the installed jaxlib's FFI headers, with the compiler that
built envpool, and cached in ``~/.cache/envpool``; jax runs them on the CPU.

What ``recv`` returns is what the pool's own ``recv`` returns, as jax arrays: ``(obs,
reward, terminated, truncated, info)`` in the gym and gymnasium flavours, a ``TimeStep``
in the dm flavour. Every batch has ``batch_size`` rows. The arrays keep their dtypes, so an
env with float64 arrays (MuJoCo, the Control Suite) needs ``jax_enable_x64``.
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import os
import shutil
import subprocess
import sysconfig
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from collections.abc import Callable

    from envpool.core.pool import EnvPoolBase

_SHIM = Path(__file__).with_name("xla_shim.cc")
_RECV, _SEND = "envpool_xla_recv", "envpool_xla_send"
_FIRST, _MID, _LAST = 0, 1, 2  # dm_env.StepType


def _jax() -> Any:
    """jax, or an ImportError that says what to install."""
    try:
        import jax
        import jax.ffi
    except ImportError as e:
        raise ImportError("xla() needs jax: pip install 'envpool-ng[jax]' (jax 0.5 or newer)") from e
    if not all(hasattr(jax.ffi, n) for n in ("ffi_call", "register_ffi_target", "pycapsule",
                                              "include_dir")):
        raise ImportError(f"xla() needs jax 0.5 or newer (jax.ffi), found jax {jax.__version__}")
    return jax


def _compiler() -> str:
    """The C++ compiler: $CXX, else the one that built Python's extensions, else c++."""
    for candidate in (os.environ.get("CXX"), (sysconfig.get_config_var("CXX") or "").split()[:1],
                      "c++", "g++", "clang++"):
        name = candidate[0] if isinstance(candidate, list) and candidate else candidate
        if isinstance(name, str) and name and shutil.which(name):
            return name
    raise RuntimeError("xla() compiles its custom calls at first use and found no C++ compiler "
                       "(set CXX)")


@functools.cache
def _shim() -> ctypes.CDLL:
    """The compiled shim (built once per jaxlib version and shim source), its two handlers
    registered with XLA for the CPU."""
    jax = _jax()
    import jaxlib

    from envpool.core.sdk import get_include

    include = get_include()
    target_h = Path(include, "core", "xla_target.h")
    compiler = _compiler()
    flags = ["-std=c++17", "-O2", "-shared", "-fPIC"]
    key = b"\0".join([_SHIM.read_bytes(), target_h.read_bytes(), jaxlib.__version__.encode(),
                      compiler.encode(), *(f.encode() for f in flags)])
    digest = hashlib.sha256(key).hexdigest()[:16]
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "envpool"
    library = cache / f"xla-shim-jaxlib{jaxlib.__version__}-{digest}" / "envpool_xla_shim.so"
    if not library.is_file():
        library.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=library.parent) as tmp:
            built = Path(tmp, library.name)
            cmd = [compiler, *flags, "-isystem", jax.ffi.include_dir(), "-I", include,
                   str(_SHIM), "-o", str(built)]
            done = subprocess.run(cmd, capture_output=True, text=True)
            if done.returncode != 0:
                raise RuntimeError(f"xla(): compiling envpool's XLA custom calls failed:\n"
                                   f"{' '.join(cmd)}\n{done.stderr[-3000:]}")
            os.replace(built, library)  # atomic: another process may build it too
    lib = ctypes.CDLL(str(library))
    for name, symbol in ((_RECV, lib.EnvpoolXlaRecv), (_SEND, lib.EnvpoolXlaSend)):
        jax.ffi.register_ffi_target(name, jax.ffi.pycapsule(symbol), platform="cpu")
    return lib


def make_xla(pool: EnvPoolBase) -> tuple[np.ndarray, Callable, Callable, Callable]:
    """Builds the XLA functions of ``pool``: what ``pool.xla()`` returns.

    Args:
        pool: An open pool of any flavour.

    Returns:
        The tuple ``(handle, recv, send, step)``, described at ``EnvPoolBase.xla``.

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
    jax = _jax()
    import jax.numpy as jnp

    if pool.closed:
        raise RuntimeError("xla(): the pool is closed")
    if pool.spec.native_autoreset() == "same_step":
        raise ValueError("xla() returns no final observations: autoreset_mode='same_step' "
                         "is not available there (next_step and disabled are)")
    _shim()
    native = pool.spec.native_spec
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
    recv_call = jax.ffi.ffi_call(_RECV, (handle_type, *out_types), has_side_effect=True,
                                 input_output_aliases={0: 0})
    send_call = jax.ffi.ffi_call(_SEND, handle_type, has_side_effect=True,
                                 input_output_aliases={0: 0})
    handle = np.frombuffer(np.uint64(pool._pool.xla_target()).tobytes(), dtype=np.uint8).copy()
    states = _states_of(pool, len(native["obs"]), jnp)
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
        return handle, states(outs)

    def send(handle: Any, action: Any, env_id: Any = None) -> Any:
        """Queues one step of the envs ``env_id``, inside or outside ``jax.jit``.

        Args:
            handle: The handle the previous call returned.
            action: One action per env of ``env_id`` (or EnvPool's action dict, which
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
        if isinstance(action, dict):  # EnvPool's action dict
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
        return send_call(handle, action.astype(action_dtype), env_id.astype(jnp.int32))

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


def _states_of(pool: EnvPoolBase, n_obs: int, jnp: Any) -> Callable[[list[Any]], Any]:
    """What turns recv's arrays into what ``pool``'s flavour returns, with jax ops."""
    from envpool.core.dm_env import DmEnvPool, Players

    info_names = [i["name"] for i in pool.spec.native_spec["info"]]

    def split(outs: list[Any]) -> tuple[Any, ...]:
        obs, infos = outs[:n_obs], dict(zip(info_names, outs[n_obs:-5], strict=True))
        env_id, reward, terminated, truncated, elapsed = outs[-5:]
        return obs, infos, env_id, reward, terminated, truncated, elapsed

    if isinstance(pool, DmEnvPool):
        import dm_env

        def timestep(outs: list[Any]) -> Any:
            obs, infos, env_id, reward, terminated, truncated, elapsed = split(outs)
            discount = infos.pop("discount", None)  # the env's own (Atari's life loss)
            step_type = jnp.where(terminated | truncated, _LAST,
                                  jnp.where(elapsed == 0, _FIRST, _MID)).astype(jnp.int32)
            reward = jnp.where(step_type == _FIRST, jnp.zeros_like(reward), reward)
            discount = jnp.where(terminated, jnp.float32(0),
                                 jnp.float32(1) if discount is None else discount)
            state = pool.State(*obs, env_id, Players(env_id), elapsed, *infos.values())
            return dm_env.TimeStep(step_type, reward, discount.astype(jnp.float32), state)

        return timestep

    def transition(outs: list[Any]) -> Any:
        obs, infos, env_id, reward, terminated, truncated, elapsed = split(outs)
        infos.pop("discount", None)
        info = {"env_id": env_id, "players": {"env_id": env_id}, "elapsed_step": elapsed,
                **infos}
        return pool._layout(obs), reward, terminated, truncated, info

    return transition
