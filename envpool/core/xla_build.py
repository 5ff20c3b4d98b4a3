"""The XLA custom calls of ``xla()``: envpool/core/xla_shim.cc, compiled at a process's first
``xla()`` against the installed jaxlib's FFI headers (with ``$CXX``, or the compiler Python
was built with), cached in ``~/.cache/envpool`` and registered with XLA for the CPU and for
CUDA (a jitted function placed on a GPU: the batch is copied through the host)."""

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
from typing import Any

_SHIM = Path(__file__).with_name("xla_shim.cc")
RECV, SEND = "envpool_xla_recv", "envpool_xla_send"


def jax_module() -> Any:
    """jax, or an ImportError that says what to install."""
    try:
        import jax
        import jax.ffi
    except ImportError as e:
        raise ImportError("xla() needs jax: pip install 'envpool-ng[jax]' "
                          "(jax 0.5 or newer)") from e
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


_FLAGS = ("-std=c++17", "-O2", "-shared", "-fPIC")


def library_path(compiler: str) -> Path:
    """Where the shim compiled by ``compiler`` for the installed jaxlib is cached: a folder
    of ``$XDG_CACHE_HOME/envpool`` (else ``~/.cache/envpool``) named by the jaxlib version
    and a hash of the shim's source, ``xla_target.h``, the compiler and its flags."""
    import jaxlib

    from envpool.core.sdk import get_include

    target_h = Path(get_include(), "core", "xla_target.h")
    key = b"\0".join([_SHIM.read_bytes(), target_h.read_bytes(), jaxlib.__version__.encode(),
                      compiler.encode(), *(f.encode() for f in _FLAGS)])
    digest = hashlib.sha256(key).hexdigest()[:16]
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "envpool"
    return cache / f"xla-shim-jaxlib{jaxlib.__version__}-{digest}" / "envpool_xla_shim.so"


@functools.cache
def shim() -> ctypes.CDLL:
    """The compiled shim (built once per jaxlib version and shim source), its handlers
    registered with XLA for the CPU and for CUDA."""
    jax = jax_module()
    from envpool.core.sdk import get_include

    include = get_include()
    compiler = _compiler()
    library = library_path(compiler)
    if not library.is_file():
        library.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=library.parent) as tmp:
            built = Path(tmp, library.name)
            cmd = [compiler, *_FLAGS, "-isystem", jax.ffi.include_dir(), "-I", include,
                   str(_SHIM), "-o", str(built), "-ldl"]
            done = subprocess.run(cmd, capture_output=True, text=True)
            if done.returncode != 0:
                raise RuntimeError(f"xla(): compiling envpool's XLA custom calls failed:\n"
                                   f"{' '.join(cmd)}\n{done.stderr[-3000:]}")
            os.replace(built, library)  # atomic: another process may build it too
    lib = ctypes.CDLL(str(library))
    for name, symbol in ((RECV, lib.EnvpoolXlaRecv), (SEND, lib.EnvpoolXlaSend)):
        jax.ffi.register_ffi_target(name, jax.ffi.pycapsule(symbol), platform="cpu")
    # for a jitted function placed on a GPU: copies through the host (XLA keeps them for the
    # CUDA backend, used where jax's CUDA plugin is installed)
    for name, symbol in ((RECV, lib.EnvpoolXlaRecvCuda), (SEND, lib.EnvpoolXlaSendCuda)):
        jax.ffi.register_ffi_target(name, jax.ffi.pycapsule(symbol), platform="CUDA")
    return lib
