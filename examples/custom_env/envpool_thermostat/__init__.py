"""The Thermostat env for envpool (a template of an env built with envpool's env SDK).

Importing this package registers ``Thermostat-v0`` with envpool; ``import envpool`` does it
too, through this package's ``envpool.envs`` entry point. Afterwards the id works like a
built-in one::

    import envpool, gymnasium
    env = envpool.make("Thermostat-v0", env_type="gymnasium", num_envs=8, seed=0)
    envs = gymnasium.make_vec("envpool/Thermostat-v0", num_envs=8)
"""

import envpool
from envpool_thermostat import _native

TASK_ID = "Thermostat-v0"

envpool.register(TASK_ID, "Thermostat", module=_native, max_episode_steps=200)

__all__ = ["TASK_ID"]
