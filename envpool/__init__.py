"""envpool: many reinforcement-learning environments stepped in parallel in C++.

    import envpool
    env = envpool.make_gymnasium("CartPole-v1", num_envs=8, seed=0)
    obs, info = env.reset()
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
"""

import importlib as _importlib


def _import_native() -> None:
    """Imports ``envpool._native`` after loading MuJoCo's library. The extension does not link
    ``libmujoco`` (so that the manylinux wheel names no library outside the policy): it takes
    the one of the installed ``mujoco`` package (``mujoco/libmujoco.so.<version>``), loaded here
    into the process's global scope, where its MuJoCo calls bind and where the ``mujoco``
    package finds it loaded too. The extension refuses a MuJoCo other than the one it was
    compiled against."""
    import ctypes
    import glob
    import importlib.util
    import os

    spec = importlib.util.find_spec("mujoco")
    folders = list(spec.submodule_search_locations or []) if spec else []
    libraries = sorted(p for f in folders for p in glob.glob(os.path.join(f, "libmujoco.so.*")))
    if not libraries:
        raise ImportError("envpool needs MuJoCo's library from the mujoco package, which is not "
                          "installed (or has no libmujoco.so.*): pip install envpool-ng "
                          "installs the mujoco it is built against")
    ctypes.CDLL(libraries[-1], mode=ctypes.RTLD_GLOBAL)
    _importlib.import_module("envpool._native")


_import_native()

from envpool import tasks as _tasks  # noqa: E402, F401  (registers the task ids)
from envpool.core.per_env import Uniform  # noqa: E402
from envpool.core.pool import EnvPoolBase as EnvPool  # noqa: E402
from envpool.core.registry import list_all_envs, register  # noqa: E402
from envpool.core.sdk import VERSION as __version__  # noqa: E402, F401
from envpool.core.sdk import get_cmake_dir, get_include, load_env_plugins  # noqa: E402
from envpool.core.spec import EnvSpec  # noqa: E402
from envpool.flavours import gymnasium_ids as _gymnasium_ids  # noqa: E402, F401  (envpool/<id>)
from envpool.flavours.dm_env import DmEnvPool as DMEnvPool  # noqa: E402
from envpool.flavours.gymnasium_env import GymnasiumEnvPool  # noqa: E402
from envpool.flavours.make import make, make_dm, make_gym, make_gymnasium, make_spec  # noqa: E402

__all__ = [
    # sail-sg EnvPool's public classes, in its order
    "EnvSpec",
    "EnvPool",
    "DMEnvPool",
    "GymnasiumEnvPool",
    "Uniform",
    "get_cmake_dir",
    "get_include",
    "list_all_envs",
    "make",
    "make_dm",
    "make_gym",
    "make_gymnasium",
    "make_spec",
    "register",
]

# sail-sg EnvPool's module paths (envpool.registration, envpool.atari.registration, ...)
from envpool.compat import paths as _compat_paths  # noqa: E402

_compat_paths.install()

# Env packages built with the SDK that register through the "envpool.envs" entry point
# group (after the names above exist: a plugin imports envpool and calls register).
load_env_plugins()
