"""envpool: many reinforcement-learning environments stepped in parallel in C++.

    import envpool
    env = envpool.make_gymnasium("CartPole-v1", num_envs=8, seed=0)
    obs, info = env.reset()
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
"""

from envpool import tasks as _tasks  # noqa: F401  (registers the task ids)
from envpool.core.make import make, make_dm, make_gym, make_gymnasium, make_spec
from envpool.core.per_env import Uniform
from envpool.core.registry import list_all_envs, register
from envpool.core.sdk import get_cmake_dir, get_include, load_env_plugins

__version__ = "0.1.0"

__all__ = [
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

# Env packages built with the SDK that register through the "envpool.envs" entry point
# group (after the names above exist: a plugin imports envpool and calls register).
load_env_plugins()
