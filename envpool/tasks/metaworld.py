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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

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

# The ten tasks of Meta-World's MT10 benchmark, in metaworld's MT10_V3 order (the one-hot
# index of make_mt_envs' env i is i).
MT10: tuple[str, ...] = (
    "reach-v3",
    "push-v3",
    "pick-place-v3",
    "door-open-v3",
    "drawer-open-v3",
    "drawer-close-v3",
    "button-press-topdown-v3",
    "peg-insert-side-v3",
    "window-open-v3",
    "window-close-v3",
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
        per_env_kwargs=("task_name", "partially_observable", "rand_vecs", "one_hot_index"),
        prepare=_prepare,
        assets_dir=ASSETS_DIR,
        task_name=_name,
    )


# -- The package's benchmarks (metaworld/__init__.py: MT1, MT10, MT25, MT50, ML1, ML10, ML25,
# ML45) ----------------------------------------------------------------------------------
# Their task sets, by split, in metaworld.env_dict's order (MT50 is ALL_V3_ENVIRONMENTS).
MT25: tuple[str, ...] = (
    *MT10,
    "coffee-pull-v3",
    "pick-out-of-hole-v3",
    "disassemble-v3",
    "pick-place-wall-v3",
    "basketball-v3",
    "stick-pull-v3",
    "button-press-wall-v3",
    "faucet-open-v3",
    "door-lock-v3",
    "lever-pull-v3",
    "sweep-into-v3",
    "faucet-close-v3",
    "coffee-button-v3",
    "button-press-topdown-wall-v3",
    "dial-turn-v3",
)
ML10_TRAIN: tuple[str, ...] = (
    "reach-v3",
    "push-v3",
    "pick-place-v3",
    "door-open-v3",
    "drawer-close-v3",
    "button-press-topdown-v3",
    "peg-insert-side-v3",
    "window-open-v3",
    "sweep-v3",
    "basketball-v3",
)
ML10_TEST: tuple[str, ...] = (
    "drawer-open-v3",
    "door-close-v3",
    "shelf-place-v3",
    "sweep-into-v3",
    "lever-pull-v3",
)
ML25_TEST: tuple[str, ...] = (
    "basketball-v3",
    "door-close-v3",
    "shelf-place-v3",
    "sweep-v3",
    "button-press-v3",
)
ML45_TEST: tuple[str, ...] = (
    "bin-picking-v3",
    "box-close-v3",
    "hand-insert-v3",
    "door-lock-v3",
    "door-unlock-v3",
)


def _ml45_train() -> tuple[str, ...]:
    """ML45's training tasks: the other 45, in TASKS' order but for the package's moves
    (push-back-v3 before pick-place-v3, push-wall-v3 before push-v3, reach-wall-v3 before
    reach-v3)."""
    names = [n for n in TASKS if n not in ML45_TEST and n != "push-back-v3"]
    names.insert(names.index("pick-place-v3"), "push-back-v3")
    for first, second in (("push-v3", "push-wall-v3"), ("reach-v3", "reach-wall-v3")):
        i, j = names.index(first), names.index(second)
        names[i], names[j] = second, first
    return tuple(names)


ML45_TRAIN: tuple[str, ...] = _ml45_train()

# Each task's _random_reset_space (low, high): what its resets draw from.
RANDOM_RESET_SPACES: dict[str, tuple[tuple[float, ...], tuple[float, ...]]] = {
    "assembly-v3": ((0.0, 0.6, 0.02, -0.1, 0.75, 0.1), (0.0, 0.6, 0.02, 0.1, 0.85, 0.1)),
    "basketball-v3": ((-0.1, 0.6, 0.0299, -0.1, 0.85, 0.0),
                      (0.1, 0.7, 0.0301, 0.1, 0.9000001, 0.0)),
    "bin-picking-v3": ((-0.21, 0.65, 0.02, 0.1199, 0.699, -0.001),
                       (-0.03, 0.75, 0.02, 0.1201, 0.701, 0.001)),
    "box-close-v3": ((-0.05, 0.5, 0.02, -0.1, 0.7, 0.133), (0.05, 0.55, 0.02, 0.1, 0.8, 0.133)),
    "button-press-topdown-v3": ((-0.1, 0.8, 0.115), (0.1, 0.9, 0.115)),
    "button-press-topdown-wall-v3": ((-0.1, 0.8, 0.115), (0.1, 0.9, 0.115)),
    "button-press-v3": ((-0.1, 0.85, 0.115), (0.1, 0.9, 0.115)),
    "button-press-wall-v3": ((-0.05, 0.85, 0.1149), (0.05, 0.9, 0.1151)),
    "coffee-button-v3": ((-0.1, 0.8, -0.001), (0.1, 0.9, 0.001)),
    "coffee-pull-v3": ((-0.05, 0.7, -0.001, -0.1, 0.55, -0.001),
                       (0.05, 0.75, 0.001, 0.1, 0.65, 0.001)),
    "coffee-push-v3": ((-0.1, 0.55, -0.001, -0.05, 0.7, -0.001),
                       (0.1, 0.65, 0.001, 0.05, 0.75, 0.001)),
    "dial-turn-v3": ((-0.1, 0.7, 0.0), (0.1, 0.8, 0.0)),
    "disassemble-v3": ((0.0, 0.6, 0.025, -0.1, 0.6, 0.1699),
                       (0.1, 0.75, 0.02501, 0.1, 0.75, 0.1701)),
    "door-close-v3": ((0.0, 0.85, 0.15), (0.1, 0.95, 0.15)),
    "door-lock-v3": ((-0.1, 0.8, 0.15), (0.1, 0.85, 0.15)),
    "door-open-v3": ((0.0, 0.85, 0.15), (0.1, 0.95, 0.15)),
    "door-unlock-v3": ((-0.1, 0.8, 0.15), (0.1, 0.85, 0.15)),
    "hand-insert-v3": ((-0.1, 0.6, 0.05, -0.04, 0.8, -0.0201),
                       (0.1, 0.7, 0.05, 0.04, 0.88, -0.0199)),
    "drawer-close-v3": ((-0.1, 0.9, 0.0), (0.1, 0.9, 0.0)),
    "drawer-open-v3": ((-0.1, 0.9, 0.0), (0.1, 0.9, 0.0)),
    "faucet-open-v3": ((-0.05, 0.8, 0.0), (0.05, 0.85, 0.0)),
    "faucet-close-v3": ((-0.1, 0.8, 0.0), (0.1, 0.85, 0.0)),
    "hammer-v3": ((-0.1, 0.4, 0.0), (0.1, 0.5, 0.0)),
    "handle-press-side-v3": ((-0.35, 0.65, -0.001), (-0.25, 0.75, 0.001)),
    "handle-press-v3": ((-0.1, 0.8, -0.001), (0.1, 0.9, 0.001)),
    "handle-pull-side-v3": ((-0.35, 0.65, 0.0), (-0.25, 0.75, 0.0)),
    "handle-pull-v3": ((-0.1, 0.8, -0.001), (0.1, 0.9, 0.001)),
    "lever-pull-v3": ((-0.1, 0.7, 0.0), (0.1, 0.8, 0.0)),
    "pick-place-wall-v3": ((-0.05, 0.6, 0.015, -0.05, 0.85, 0.05),
                           (0.05, 0.65, 0.015, 0.05, 0.9, 0.3)),
    "pick-out-of-hole-v3": ((0.0, 0.75, 0.02, -0.1, 0.5, 0.15), (0.0, 0.75, 0.02, 0.1, 0.6, 0.3)),
    "pick-place-v3": ((-0.1, 0.6, 0.02, -0.1, 0.8, 0.05), (0.1, 0.7, 0.02, 0.1, 0.9, 0.3)),
    "plate-slide-v3": ((0.0, 0.6, 0.0, -0.1, 0.85, 0.0), (0.0, 0.6, 0.0, 0.1, 0.9, 0.0)),
    "plate-slide-side-v3": ((0.0, 0.6, 0.0, -0.3, 0.54, 0.0), (0.0, 0.6, 0.0, -0.25, 0.66, 0.0)),
    "plate-slide-back-v3": ((0.0, 0.85, 0.0, -0.1, 0.6, 0.015),
                            (0.0, 0.85, 0.0, 0.1, 0.6, 0.015)),
    "plate-slide-back-side-v3": ((-0.25, 0.6, 0.0, -0.05, 0.6, 0.015),
                                 (-0.25, 0.6, 0.0, 0.15, 0.6, 0.015)),
    "peg-insert-side-v3": ((0.0, 0.5, 0.02, -0.35, 0.4, -0.001),
                           (0.2, 0.7, 0.02, -0.25, 0.7, 0.001)),
    "peg-unplug-side-v3": ((-0.25, 0.6, -0.001), (-0.15, 0.8, 0.001)),
    "soccer-v3": ((-0.1, 0.6, 0.03, -0.1, 0.8, 0.0), (0.1, 0.7, 0.03, 0.1, 0.9, 0.0)),
    "stick-push-v3": ((-0.08, 0.58, 0.0, 0.399, 0.55, 0.1319),
                      (-0.03, 0.62, 0.001, 0.401, 0.6, 0.1321)),
    "stick-pull-v3": ((-0.1, 0.55, 0.0, 0.35, 0.45, 0.0199),
                      (0.0, 0.65, 0.001, 0.45, 0.55, 0.0201)),
    "push-v3": ((-0.1, 0.6, 0.02, -0.1, 0.8, 0.01), (0.1, 0.7, 0.02, 0.1, 0.9, 0.02)),
    "push-wall-v3": ((-0.05, 0.6, 0.015, -0.05, 0.85, 0.01), (0.05, 0.65, 0.015, 0.05, 0.9, 0.02)),
    "push-back-v3": ((-0.1, 0.8, 0.02, -0.1, 0.6, 0.0199), (0.1, 0.85, 0.02, 0.1, 0.7, 0.0201)),
    "reach-v3": ((-0.1, 0.6, 0.02, -0.1, 0.8, 0.05), (0.1, 0.7, 0.02, 0.1, 0.9, 0.3)),
    "reach-wall-v3": ((-0.05, 0.6, 0.015, -0.05, 0.85, 0.05), (0.05, 0.65, 0.015, 0.05, 0.9, 0.3)),
    "shelf-place-v3": ((-0.1, 0.5, 0.019, -0.1, 0.8, 0.299), (0.1, 0.6, 0.021, 0.1, 0.9, 0.301)),
    "sweep-into-v3": ((-0.1, 0.6, 0.02, -0.001, 0.8399, 0.0199),
                      (0.1, 0.7, 0.02, 0.001, 0.8401, 0.0201)),
    "sweep-v3": ((-0.1, 0.6, 0.02), (0.1, 0.7, 0.02)),
    "window-open-v3": ((-0.1, 0.7, 0.16), (0.1, 0.9, 0.16)),
    "window-close-v3": ((0.0, 0.75, 0.2), (0.0, 0.9, 0.2)),
}

# The tasks whose reset_model redraws its vector while two of its x-y positions are closer
# than a distance: the first (v[0:2]) and the second (v[3:5]) triple, or, for sweep-into-v3,
# the first and its fixed goal (0, 0.84).
_REDRAW_APART: dict[str, float] = {
    "assembly-v3": 0.1, "basketball-v3": 0.15, "box-close-v3": 0.25, "coffee-pull-v3": 0.15,
    "coffee-push-v3": 0.15, "disassemble-v3": 0.1, "hand-insert-v3": 0.15,
    "peg-insert-side-v3": 0.1, "pick-out-of-hole-v3": 0.15, "pick-place-v3": 0.15,
    "pick-place-wall-v3": 0.15, "push-v3": 0.15, "push-wall-v3": 0.15, "push-back-v3": 0.15,
    "reach-v3": 0.15, "reach-wall-v3": 0.15, "shelf-place-v3": 0.1, "soccer-v3": 0.15,
    "stick-push-v3": 0.1, "stick-pull-v3": 0.1, "sweep-into-v3": 0.15,
}
_SWEEP_INTO_GOAL_XY = np.array([0.0, 0.84])

# _N_GOALS: the vectors a benchmark draws per task.
N_GOALS = 50


@dataclass(frozen=True)
class Task:
    """One task of a benchmark, as the package's ``Task`` holds it pickled: the task's
    official name, its random vector (the object and goal positions every reset of an env
    with this task uses) and whether the goal is hidden (the ML benchmarks) or observed
    (the MT benchmarks)."""

    env_name: str
    rand_vec: tuple[float, ...]
    partially_observable: bool


@dataclass(frozen=True)
class Benchmark:
    """A Meta-World benchmark's task sets (the package's ``Benchmark``): the tasks of each
    split (``train_classes``, ``test_classes``) and their ``N_GOALS`` tasks each
    (``train_tasks``, ``test_tasks``, class by class)."""

    name: str
    seed: int | None
    train_classes: tuple[str, ...]
    test_classes: tuple[str, ...]
    train_tasks: tuple[Task, ...]
    test_tasks: tuple[Task, ...]

    def env_kwargs(self, split: str = "train") -> dict[str, list[Any]]:
        """Per-env keywords (``env_kwargs``) for a pool with one env per task class of the
        split, each holding that class's ``N_GOALS`` tasks and picking one at each reset,
        as ``metaworld.make_mt_envs`` builds MT10 and MT50 (``one_hot_index`` is the env's
        index, for ``use_one_hot=True, num_tasks=len(...)``)::

            bench = envpool.tasks.metaworld.benchmark("MT10", seed=1)
            envs = envpool.make_gymnasium("MetaWorld/Reach-v3", num_envs=10,
                                          use_one_hot=True, num_tasks=10,
                                          env_kwargs=bench.env_kwargs())
        """
        if split not in ("train", "test"):
            raise ValueError(f"split must be 'train' or 'test', got {split!r}")
        classes = self.train_classes if split == "train" else self.test_classes
        tasks = self.train_tasks if split == "train" else self.test_tasks
        if not tasks:
            raise ValueError(f"{self.name} has no {split} tasks")
        return env_kwargs([[t for t in tasks if t.env_name == name] for name in classes])

    def make_kwargs(self, split: str = "train", use_one_hot: bool = False) -> dict[str, Any]:
        """The keywords of ``envpool.make*`` for the pool of :meth:`env_kwargs` (one env per
        task class): ``num_envs``, the benchmark's ``partially_observable``, the one-hot
        (``use_one_hot``, ``num_tasks``: the number of classes, ``make_mt_envs``'
        default) and ``env_kwargs``::

            envs = envpool.make_gymnasium("MetaWorld/Reach-v3", seed=0,
                                          **benchmark("MT10", seed=1).make_kwargs(use_one_hot=True))
        """
        kwargs = self.env_kwargs(split)
        n = len(kwargs["task_name"])
        return {"num_envs": n, "partially_observable": self.name.startswith("ML"),
                "use_one_hot": use_one_hot, "num_tasks": n, "env_kwargs": kwargs}


def env_kwargs(tasks: Sequence[Task | Sequence[Task]]) -> dict[str, list[Any]]:
    """Per-env keywords (``env_kwargs``) for a pool with one env per entry of ``tasks``: a
    :class:`Task`, whose vector the env's every reset uses (the package's env after
    ``env.set_task(task)``), or a list of tasks of one class, one of which each reset picks
    with the env's generator (the package's ``RandomTaskSelectWrapper``, which
    ``make_mt_envs`` puts around each env). Env ``i``'s ``one_hot_index`` is ``i``."""
    out: dict[str, list[Any]] = {"task_name": [], "partially_observable": [], "rand_vecs": [],
                                 "one_hot_index": []}
    for i, entry in enumerate(tasks):
        group = [entry] if isinstance(entry, Task) else list(entry)
        if not group or len({(t.env_name, t.partially_observable) for t in group}) != 1:
            raise ValueError(f"tasks[{i}] must be a Task or a non-empty list of Tasks of one "
                             "task class and observability")
        out["task_name"].append(group[0].env_name)
        out["partially_observable"].append(group[0].partially_observable)
        out["rand_vecs"].append([x for t in group for x in t.rand_vec])
        out["one_hot_index"].append(i)
    return out


def _draw(name: str, rs: np.random.RandomState) -> np.ndarray:
    """One reset_model's _get_state_rand_vec calls: np.random.uniform over the task's random
    reset space, again while the task rejects the vector."""
    low, high = (np.array(b) for b in RANDOM_RESET_SPACES[name])
    apart = _REDRAW_APART.get(name)
    while True:
        v = rs.uniform(low, high, size=low.size).astype(np.float64)
        if apart is None:
            return v
        other = _SWEEP_INTO_GOAL_XY if name == "sweep-into-v3" else v[3:5]
        if not np.linalg.norm(v[:2] - other) < apart:
            return v


def _make_tasks(classes: Sequence[str], partially_observable: bool,
                rs: np.random.RandomState) -> tuple[Task, ...]:
    """The package's _make_tasks: per task class, N_GOALS resets of a fresh env, each
    running reset_model twice (SawyerXYZEnv.reset's call, then gymnasium's), the second
    call's vector kept."""
    tasks = []
    for name in classes:
        vecs = []
        for _ in range(N_GOALS):
            _draw(name, rs)
            vecs.append(_draw(name, rs))
        if np.unique(np.array(vecs), axis=0).shape[0] != N_GOALS:
            raise RuntimeError(f"{name}: only drew {np.unique(np.array(vecs), axis=0).shape[0]} "
                               f"unique goals, not {N_GOALS}")
        tasks.extend(Task(name, tuple(float(x) for x in v), partially_observable) for v in vecs)
    return tuple(tasks)


BENCHMARKS: tuple[str, ...] = ("MT1", "MT10", "MT25", "MT50", "ML1", "ML10", "ML25", "ML45")


def benchmark(name: str, seed: int | None = None, env_name: str | None = None) -> Benchmark:
    """The task sets of the package's benchmark ``name`` (``"MT1"``, ``"MT10"``, ``"MT25"``,
    ``"MT50"``, ``"ML1"``, ``"ML10"``, ``"ML25"``, ``"ML45"``; MT1 and ML1 of one task,
    ``env_name``), drawn as ``metaworld.<name>(seed=seed)`` draws them: with the legacy
    ``np.random`` seeded with ``seed`` (numpy's ``RandomState(seed)`` here, the global one
    left alone), ``N_GOALS`` vectors per task class. The MT benchmarks observe the goal
    (``partially_observable=False``) and have no test tasks; the ML ones hide it, and draw
    their test tasks with the same seed (ML1: ``seed + 1``). ``seed=None`` draws from fresh
    entropy, as the package then continues the global generator."""
    single = name in ("MT1", "ML1")
    if name not in BENCHMARKS:
        raise ValueError(f"unknown Meta-World benchmark {name!r}; one of {', '.join(BENCHMARKS)}")
    if single != (env_name is not None):
        raise TypeError(f"{name} takes env_name (a task name)" if single
                        else f"{name} takes no env_name (only MT1 and ML1 do)")
    if env_name is not None and env_name not in TASKS:
        raise ValueError(f"{env_name} is not a V3 environment")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))):
        raise TypeError(f"seed must be an int or None, got {seed!r}")
    one = (env_name,) if env_name is not None else ()
    train, test = {
        "MT1": (one, one), "MT10": (MT10, ()), "MT25": (MT25, ()), "MT50": (TASKS, ()),
        "ML1": (one, one), "ML10": (ML10_TRAIN, ML10_TEST), "ML25": (MT25, ML25_TEST),
        "ML45": (ML45_TRAIN, ML45_TEST),
    }[name]
    hidden = name.startswith("ML")
    shared = np.random.RandomState(seed)  # seed None: fresh entropy, one stream for both
    train_tasks = _make_tasks(train, hidden, shared)
    test_tasks: tuple[Task, ...] = ()
    if hidden:  # MT1 lists its task as its test class, with no test tasks
        test_seed = seed + 1 if seed is not None and name == "ML1" else seed
        test_rs = shared if seed is None else np.random.RandomState(test_seed)
        test_tasks = _make_tasks(test, hidden, test_rs)
    return Benchmark(name, seed, tuple(train), tuple(test), train_tasks, test_tasks)
