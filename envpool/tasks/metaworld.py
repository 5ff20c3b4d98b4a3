"""Meta-World's Sawyer tasks (the ``metaworld`` package 3.1.1, v3 tasks): sail-sg EnvPool's
ids ``MetaWorld/<Task>-v3`` (``reach-v3`` is ``MetaWorld/Reach-v3``).

Every id runs the one native env ``MetaWorld`` with its ``task_name``; ``task_name`` may
differ per env (``env_kwargs={"task_name": [...]}``), so one pool runs several tasks, as
Meta-World's MT benchmarks do (with ``partially_observable=False``, their setting; the
package's own default is ``True``, the goal hidden). The info's ``task_id`` is the task's
index in ``metaworld.env_dict.ALL_V3_ENVIRONMENTS``.

The model XMLs are the installed metaworld package's own (``assets_dir`` defaults to its
``assets`` folder, found without importing it). metaworld 3.1.1 pins mujoco 3.3.0; install
it with ``pip install --no-deps metaworld==3.1.1`` next to this package's mujoco.
"""

from __future__ import annotations

from typing import Any

from envpool.core.registry import register
from envpool.tasks._installed import package_path
from envpool.tasks._numpy_blas import native_keywords

ASSETS_DIR = package_path("metaworld", "assets")

# Meta-World's 50 v3 tasks, by official name, in metaworld.env_dict.ALL_V3_ENVIRONMENTS'
# order (the info's task_id is the index); each passes its alignment test
# (tests/test_align_metaworld.py).
TASKS: tuple[str, ...] = (
    "assembly-v3",
    "basketball-v3",
    "bin-picking-v3",
    "box-close-v3",
    "button-press-topdown-v3",
    "button-press-topdown-wall-v3",
    "button-press-v3",
    "button-press-wall-v3",
    "coffee-button-v3",
    "coffee-pull-v3",
    "coffee-push-v3",
    "dial-turn-v3",
    "disassemble-v3",
    "door-close-v3",
    "door-lock-v3",
    "door-open-v3",
    "door-unlock-v3",
    "hand-insert-v3",
    "drawer-close-v3",
    "drawer-open-v3",
    "faucet-open-v3",
    "faucet-close-v3",
    "hammer-v3",
    "handle-press-side-v3",
    "handle-press-v3",
    "handle-pull-side-v3",
    "handle-pull-v3",
    "lever-pull-v3",
    "pick-place-wall-v3",
    "pick-out-of-hole-v3",
    "pick-place-v3",
    "plate-slide-v3",
    "plate-slide-side-v3",
    "plate-slide-back-v3",
    "plate-slide-back-side-v3",
    "peg-insert-side-v3",
    "peg-unplug-side-v3",
    "soccer-v3",
    "stick-push-v3",
    "stick-pull-v3",
    "push-v3",
    "push-wall-v3",
    "push-back-v3",
    "reach-v3",
    "reach-wall-v3",
    "shelf-place-v3",
    "sweep-into-v3",
    "sweep-v3",
    "window-open-v3",
    "window-close-v3",
)

# The ten tasks of Meta-World's MT10 benchmark (metaworld's MT10_V3).
MT10: tuple[str, ...] = (
    "reach-v3",
    "push-v3",
    "pick-place-v3",
    "door-open-v3",
    "drawer-open-v3",
    "drawer-close-v3",
    "button-press-topdown-v3",
    "window-open-v3",
    "window-close-v3",
    "peg-insert-side-v3",
)


def task_id(task_name: str) -> str:
    """``MetaWorld/<CamelCase>-v3`` of an official task name (``pick-place-v3`` is
    ``MetaWorld/PickPlace-v3``)."""
    name, version = task_name.rsplit("-", 1)
    return "MetaWorld/" + "".join(p[:1].upper() + p[1:] for p in name.split("-")) + f"-{version}"


def _prepare(config: dict[str, Any]) -> dict[str, Any]:
    """The running numpy's order of ``x.dot(y)``, which the rewards' ``np.linalg.norm``
    follow (envpool/tasks/_numpy_blas.py)."""
    return {"_numpy_dot_fma": native_keywords()["_numpy_dot_fma"]}


for _name in TASKS:
    register(
        task_id(_name),
        "MetaWorld",
        max_episode_steps=500,
        per_env_kwargs=("task_name", "partially_observable"),
        prepare=_prepare,
        assets_dir=ASSETS_DIR,
        task_name=_name,
    )
