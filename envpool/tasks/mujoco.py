"""MuJoCo task ids (gymnasium's ids, limits and thresholds), v4 and v5, and sail-sg EnvPool's
legacy ids (``Ant-v3``, ``Reacher-v2``, ...).

Each version is its own native env (``HalfCheetahV4``, ``HalfCheetahV5``, ...). The legacy
ids are gym's mujoco-py envs as EnvPool runs them: the v4 env without the
``mj_rnePostConstraint`` call that ends gymnasium's steps. mujoco-py on MuJoCo >= 2.0 never
made it, so the contact forces (``cfrc_ext``) in Ant-v3's, Humanoid-v3's and
HumanoidStandup-v2's observations stay zero, as gymnasium's Ant-v4 docs say; the dynamics
are the v4 ones.
The model XMLs are gymnasium's own: ``assets_dir`` defaults to the installed
gymnasium's ``envs/mujoco/assets`` folder (found without importing gymnasium's
MuJoCo envs), and ``xml_file`` (v5) is resolved against it as gymnasium does.
"""

from __future__ import annotations

from typing import Any

from envpool import _native
from envpool.core.registry import register
from envpool.tasks._installed import package_path
from envpool.tasks._numpy_blas import native_keywords

ASSETS_DIR = package_path("gymnasium", "envs", "mujoco", "assets")
# sail-sg EnvPool's own models (``xml_file="half_cheetah_envpool.xml"``, ...) come with the
# envpool-assets package; a name not in gymnasium's folder is looked up there.
ENVPOOL_ASSETS_DIR = package_path("envpool_assets", "mujoco", "assets_gym")

# (task, native name, max_episode_steps, reward_threshold), as gymnasium/envs/__init__.py.
_TASKS: list[tuple[str, str, int, float | None]] = [
    ("Ant", "Ant", 1000, 6000.0),
    ("HalfCheetah", "HalfCheetah", 1000, 4800.0),
    ("Hopper", "Hopper", 1000, 3800.0),
    ("Swimmer", "Swimmer", 1000, 360.0),
    ("Walker2d", "Walker2d", 1000, None),
    ("Humanoid", "Humanoid", 1000, None),
    ("HumanoidStandup", "HumanoidStandup", 1000, None),
    ("InvertedPendulum", "InvertedPendulum", 1000, 950.0),
    ("InvertedDoublePendulum", "InvertedDoublePendulum", 1000, 9100.0),
    ("Reacher", "Reacher", 50, -3.75),
]

# Keywords that cannot differ between the envs of a pool: the model (files, the body
# read), the time step, and what shapes the observation.
_SHARED = frozenset({"assets_dir", "xml_file", "frame_skip", "main_body", "from_pixels",
                     "pixels_only", "frame_stack"})


def per_env_kwargs(native_name: str) -> tuple[str, ...]:
    """The keywords of a MuJoCo env that may differ per env: reward and cost weights,
    reset noise, health limits, termination (all but the model, the time step and the
    observation's ``exclude_*`` / ``include_*`` switches)."""
    return tuple(k for k in _native.default_config(native_name) if k[:1] != "_"
                 and k not in _SHARED and not k.startswith(("exclude_", "include_")))


def _prepare(config: dict[str, Any]) -> dict[str, Any]:
    """The hidden keywords: the running numpy's order of ``x.dot(y)``, which gymnasium's
    ``np.linalg.norm`` infos and rewards follow (envpool/tasks/_numpy_blas.py), and the
    folder of EnvPool's models."""
    return {"_numpy_dot_fma": native_keywords()["_numpy_dot_fma"],
            "_extra_assets_dir": ENVPOOL_ASSETS_DIR or ""}


for _task, _native_name, _steps, _threshold in _TASKS:
    for _version in (4, 5):
        register(
            f"{_task}-v{_version}",
            f"{_native_name}V{_version}",
            max_episode_steps=_steps,
            reward_threshold=_threshold,
            per_env_kwargs=per_env_kwargs(f"{_native_name}V{_version}"),
            prepare=_prepare,
            assets_dir=ASSETS_DIR,
        )

# gymnasium refuses to make Pusher-v4 on mujoco >= 3
# (https://github.com/Farama-Foundation/Gymnasium/issues/950); sail-sg EnvPool keeps it, and so
# does this package: pusher_v4.py's arithmetic on MuJoCo 3 (native/envs/mujoco/pusher.h).
for _version in (4, 5):
    register(f"Pusher-v{_version}", f"PusherV{_version}", max_episode_steps=100,
             reward_threshold=0.0, per_env_kwargs=per_env_kwargs(f"PusherV{_version}"),
             prepare=_prepare, assets_dir=ASSETS_DIR)


def _prepare_legacy(config: dict[str, Any]) -> dict[str, Any]:
    """The hidden keywords of a legacy id: those of v4, and no ``mj_rnePostConstraint``."""
    return {**_prepare(config), "_post_constraint": False}


# sail-sg EnvPool's legacy ids: (id, the v4 env it runs, its default keywords there). gym's
# Ant-v3 always observed the contact forces (v4's use_contact_forces=True).
LEGACY: list[tuple[str, str, dict[str, Any]]] = [
    ("Ant-v3", "Ant", {"use_contact_forces": True}),
    ("HalfCheetah-v3", "HalfCheetah", {}),
    ("Hopper-v3", "Hopper", {}),
    ("Humanoid-v3", "Humanoid", {}),
    ("Swimmer-v3", "Swimmer", {}),
    ("Walker2d-v3", "Walker2d", {}),
    ("HumanoidStandup-v2", "HumanoidStandup", {}),
    ("InvertedDoublePendulum-v2", "InvertedDoublePendulum", {}),
    ("InvertedPendulum-v2", "InvertedPendulum", {}),
    ("Pusher-v2", "Pusher", {}),
    ("Reacher-v2", "Reacher", {}),
]
_LIMITS = {task: (steps, threshold) for task, _, steps, threshold in _TASKS}
_LIMITS["Pusher"] = (100, 0.0)
for _id, _task, _kwargs in LEGACY:
    register(_id, f"{_task}V4", max_episode_steps=_LIMITS[_task][0],
             reward_threshold=_LIMITS[_task][1], per_env_kwargs=per_env_kwargs(f"{_task}V4"),
             prepare=_prepare_legacy, assets_dir=ASSETS_DIR, **_kwargs)
