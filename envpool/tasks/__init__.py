"""Task ids of the native envs, one module per family."""

# Importing a module registers its ids.
from envpool.tasks import atari, classic_control, dm_control, mujoco, toy_text  # noqa: F401
