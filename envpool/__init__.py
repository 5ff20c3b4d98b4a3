"""envpool: many reinforcement-learning environments stepped in parallel in C++.

    import envpool
    env = envpool.make_gymnasium("CartPole-v1", num_envs=8, seed=0)
    obs, info = env.reset()
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
"""

import importlib as _importlib


def _import_native() -> None:
    """Imports ``envpool._native``. The extension finds ``libmujoco.so.<version>`` through
    its RUNPATH: the ``mujoco`` package beside an installed envpool. Where it lies elsewhere
    (an extension copied into a source checkout), the ``mujoco`` package loads that library
    first, and the extension then finds it loaded."""
    try:
        _importlib.import_module("envpool._native")
    except ImportError as error:
        if "libmujoco" not in str(error):
            raise
        _importlib.import_module("mujoco")
        _importlib.import_module("envpool._native")


_import_native()

from envpool import tasks as _tasks  # noqa: E402, F401  (registers the task ids)
from envpool.core.dm_env import DmEnvPool as DMEnvPool  # noqa: E402
from envpool.core.gymnasium_env import GymnasiumEnvPool  # noqa: E402
from envpool.core.make import make, make_dm, make_gym, make_gymnasium, make_spec  # noqa: E402
from envpool.core.per_env import Uniform  # noqa: E402
from envpool.core.pool import EnvPoolBase as EnvPool  # noqa: E402
from envpool.core.registry import list_all_envs, register  # noqa: E402
from envpool.core.sdk import get_cmake_dir, get_include, load_env_plugins  # noqa: E402
from envpool.core.spec import EnvSpec  # noqa: E402

__version__ = "0.1.0"

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
from envpool import envpool_paths as _envpool_paths  # noqa: E402

_envpool_paths.install()

# Env packages built with the SDK that register through the "envpool.envs" entry point
# group (after the names above exist: a plugin imports envpool and calls register).
load_env_plugins()
