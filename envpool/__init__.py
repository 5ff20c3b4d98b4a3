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

__version__ = "0.1.0"

__all__ = [
    "Uniform",
    "list_all_envs",
    "make",
    "make_dm",
    "make_gym",
    "make_gymnasium",
    "make_spec",
    "register",
]
