"""Task ids: a registered id names a native env plus default keywords."""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from envpool import _native
from envpool.core.sdk import check_native_module, plugin_failures


@dataclass(frozen=True)
class TaskSpec:
    """What a task id stands for."""

    task_id: str
    native_env: str
    env_kwargs: dict[str, Any] = field(default_factory=dict)
    max_episode_steps: int | None = None
    reward_threshold: float | None = None
    # Fills the native env's hidden keywords (those starting with "_", such as a
    # generated model's XML) from the resolved keywords, when a pool is made.
    prepare: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    # Keywords the native env does not take as such (a dict of reward weights,
    # ...): their defaults, shown in spec.config; `prepare` reads and checks
    # them and turns them into hidden native keywords.
    python_kwargs: dict[str, Any] = field(default_factory=dict)
    # The env's step mostly waits on another process (a game engine): by default a
    # pool runs one thread per env, so that every engine can work at once.
    thread_per_env: bool = False
    # Keywords that may differ between the envs of one pool (make's env_kwargs):
    # those that change neither a space nor what the envs share.
    per_env_kwargs: frozenset[str] = frozenset()
    # Of those, the ones that can be drawn anew at each reset (envpool.Uniform).
    random_kwargs: frozenset[str] = frozenset()
    # The native module the env lives in: envpool._native, or a module built with the
    # env SDK (its Pool, spec and default_config make the task's pools).
    native_module: ModuleType = _native
    # Methods of the task's pools beyond the pool's own (a goal env's compute_reward):
    # name -> function(pool, *args, **kwargs), bound to each pool the task makes.
    pool_methods: dict[str, Callable[..., Any]] = field(default_factory=dict)
    # The dtype of the gymnasium space of some observation arrays, by name, where the
    # reference package's space says another dtype than the arrays' (MiniGrid's
    # "direction": the package's Discrete(4) is int64, the arrays int32 as sail-sg
    # EnvPool's, which jax keeps without x64).
    space_dtypes: dict[str, str] = field(default_factory=dict)
    # Frames drawn in Python from each env's get_state, where the reference package draws
    # them itself: (task_id, height, width) -> an object with draw(state, camera_id) ->
    # (height, width, 3) uint8 and close(); None: the worker threads draw.
    frames: Callable[[str, int, int], Any] | None = None


_TASKS: dict[str, TaskSpec] = {}
# Ids registered with listed=False (the core's test envs): made by id, never listed.
_UNLISTED: dict[str, TaskSpec] = {}
# Told of each listed id (subscribe): gymnasium's envpool/<id> ids, for one.
_LISTENERS: list[Callable[[TaskSpec], None]] = []


def subscribe(listener: Callable[[TaskSpec], None]) -> None:
    """Calls ``listener(task)`` for every listed id registered so far, in order, and then
    for each one as it is registered (``envpool.flavours.gymnasium_ids`` registers each id
    with gymnasium so)."""
    _LISTENERS.append(listener)
    for task in list(_TASKS.values()):
        listener(task)


def register(
    task_id: str,
    native_env: str,
    *,
    max_episode_steps: int | None = None,
    reward_threshold: float | None = None,
    prepare: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
    python_kwargs: dict[str, Any] | None = None,
    thread_per_env: bool = False,
    per_env_kwargs: tuple[str, ...] = (),
    random_kwargs: tuple[str, ...] = (),
    module: ModuleType | None = None,
    pool_methods: dict[str, Callable[..., Any]] | None = None,
    space_dtypes: dict[str, str] | None = None,
    frames: Callable[[str, int, int], Any] | None = None,
    listed: bool = True,
    **env_kwargs: Any,
) -> None:
    """Registers ``task_id`` as the native env ``native_env`` with default keywords.

    After this, ``envpool.make(task_id, ...)`` makes pools of it, and the id is also
    registered with gymnasium as ``envpool/<task_id>`` (for ``gymnasium.make`` and
    ``gymnasium.make_vec``).

    Args:
        task_id: The new id, such as ``"CartPole-Long-v1"``.
        native_env: The name of the native env in ``module`` (``"CartPole"``).
        max_episode_steps: The task's default time limit (None: none).
        reward_threshold: The return at which the task counts as solved, as
            gymnasium's ``EnvSpec.reward_threshold``.
        prepare: A function of the resolved keywords that returns the native env's
            hidden keywords (names starting with ``_``, which users cannot pass), called
            when a pool is made.
        python_kwargs: Keywords with their defaults that only ``prepare`` reads (values
            the native config cannot hold, such as dicts).
        thread_per_env: The env's step mostly waits on another process, so
            ``num_threads=0`` means one thread per env instead of one per core.
        per_env_kwargs: The keywords that may differ between the envs of one pool
            (``make(..., env_kwargs=...)``).
        random_kwargs: Those of ``per_env_kwargs`` that ``envpool.Uniform`` may draw
            at each reset.
        module: The native module that defines ``native_env``: a module built with
            envpool's env SDK (default ``envpool._native``).
        pool_methods: Methods added to the task's pools, by name: functions
            ``(pool, *args, **kwargs)``.
        space_dtypes: The dtype of the gymnasium space of observation arrays, by name,
            where it is to differ from the arrays' own (a reference package's space).
        frames: A maker of the task's frames drawn in Python from each env's
            ``get_state`` (the reference package's own drawing): called with the id, the
            frame's height and width when a pool is made with a ``render_mode``; the
            object it returns has ``draw(state, camera_id)`` (an ``(H, W, 3)`` uint8
            frame; ValueError for a camera the env lacks) and ``close()``. None: the
            native env draws its frames.
        listed: False registers an id that pools are made of but that neither
            ``list_all_envs()`` nor gymnasium lists.
        **env_kwargs: Defaults that override the native env's own (keywords it takes).

    Raises:
        ValueError: ``task_id`` is already registered, ``native_env`` is not in
            ``module``, ``python_kwargs`` without ``prepare`` (or naming native
            keywords), or ``per_env_kwargs`` / ``random_kwargs`` that are not keywords
            of the env.
        TypeError: an ``env_kwargs`` keyword the native env does not take, or a
            ``module`` that is no envpool env module.
        ImportError: ``module`` was built against another envpool version.

    Examples:
        >>> import envpool
        >>> envpool.register("CartPole-Long-v1", "CartPole", max_episode_steps=1000)
        >>> envpool.make_spec("CartPole-Long-v1").config.max_episode_steps
        1000
        >>> "CartPole-Long-v1" in envpool.list_all_envs()
        True
    """
    if task_id in _TASKS or task_id in _UNLISTED:
        raise ValueError(f"task id {task_id!r} is already registered")
    native = check_native_module(_native if module is None else module)
    if native_env not in native.env_names():
        raise ValueError(
            f"unknown native env {native_env!r} in {native.__name__}; known: "
            f"{', '.join(native.env_names())}"
        )
    defaults = native.default_config(native_env)
    unknown = sorted(set(env_kwargs) - set(defaults) | {k for k in env_kwargs if k[:1] == "_"})
    if unknown:
        raise TypeError(
            f"{native_env} has no keyword {', '.join(unknown)}; "
            f"valid: {', '.join(sorted(defaults))}"
        )
    clash = sorted(set(python_kwargs or {}) & set(defaults))
    if clash or (python_kwargs and prepare is None):
        raise ValueError(f"python_kwargs need a prepare hook and must not be native keywords "
                         f"({', '.join(clash)})")
    stray = sorted(set(per_env_kwargs) - set(defaults) - set(python_kwargs or {})
                   | set(random_kwargs) - set(per_env_kwargs))
    if stray:
        raise ValueError(f"per_env_kwargs must be keywords of {native_env} and random_kwargs "
                         f"some of them: {', '.join(stray)}")
    task = TaskSpec(task_id, native_env, dict(env_kwargs), max_episode_steps, reward_threshold,
                    prepare, dict(python_kwargs or {}), thread_per_env,
                    frozenset(per_env_kwargs), frozenset(random_kwargs), native,
                    dict(pool_methods or {}), dict(space_dtypes or {}), frames)
    if not listed:
        _UNLISTED[task_id] = task
        return
    _TASKS[task_id] = task
    for listener in _LISTENERS:
        listener(task)


def list_all_envs() -> list[str]:
    """Lists every registered task id, in the order they were registered.

    Returns:
        A new list of the ids (strings) that ``envpool.make`` takes; ids registered with
        ``listed=False`` are left out.

    Examples:
        >>> import envpool
        >>> ids = envpool.list_all_envs()
        >>> "CartPole-v1" in ids, "Pong-v5" in ids
        (True, True)
    """
    return list(_TASKS)


def all_tasks() -> dict[str, TaskSpec]:
    """Every registration, by task id (a copy)."""
    return dict(_TASKS)


def get_task(task_id: str) -> TaskSpec:
    """The registration of ``task_id``; a ValueError names close matches."""
    try:
        return _TASKS[task_id] if task_id in _TASKS else _UNLISTED[task_id]
    except KeyError:
        close = difflib.get_close_matches(task_id, _TASKS, n=5)
        hint = f" Did you mean {', '.join(close)}?" if close else ""
        failed = plugin_failures()
        plugins = (f" Env modules or plugins that failed to load: {'; '.join(failed)}"
                   if failed else "")
        raise ValueError(
            f"unknown task id {task_id!r}.{hint} envpool.list_all_envs() lists all "
            f"{len(_TASKS)} ids.{plugins}"
        ) from None
