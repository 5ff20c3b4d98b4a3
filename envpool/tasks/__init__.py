"""Task ids of the native envs, one module per family."""

from envpool.tasks import classic_control, mujoco, toy_text  # noqa: F401  (registers on import)
