"""Task ids of the native envs, one module per family."""

# Importing a module registers its ids.
from envpool.tasks import (  # noqa: F401
    atari,
    box2d,
    classic_control,
    dm_control,
    gfootball,
    highway,
    jumanji,
    metaworld,
    minigrid,
    mujoco,
    myosuite,
    pgx,
    playground,
    procgen,
    robotics,
    robotics_adroit,
    robotics_hand,
    robotics_kitchen,
    robotics_maze,
    toy_text,
    vizdoom,
)
