"""sail-sg EnvPool's per-family spec classes (``envpool.atari.AtariEnvSpec``, ...).

In EnvPool each family has a spec class made from a config namedtuple, and pool classes
that take such a spec::

    config = AtariEnvSpec.gen_config(task="pong", num_envs=4, batch_size=4)
    env = AtariGymEnvPool(AtariEnvSpec(config))

Here a family's spec class is a subclass of :class:`envpool.core.spec.EnvSpec` whose
``gen_config`` holds every keyword of its native env (EnvPool's names where they differ:
Atari's ``task`` is this package's ``game``), with the defaults of ``make_spec``; the
class finds the task id that the config names and resolves the config as ``make_spec``
would. The pool classes are this package's flavours (their constructors take a spec).
Classes are made on first use, by name (:mod:`envpool.compat.paths` lists them per family).

EnvPool's raw binding (``envpool.atari.atari_envpool``: ``_AtariEnvSpec``,
``_AtariEnvPool``), which its core tests and some scripts drive, is the same spec class
(with the raw names ``_config_keys``, ``_state_spec``, ...) and
:class:`~envpool.compat.raw_pool.RawEnvPool`, the one pool of ``envpool.core`` with
batches and actions as tuples of arrays::

    spec = _AtariEnvSpec(tuple(config.values()))   # values in _config_keys order
    env = _AtariEnvPool(spec)
    env._reset(np.arange(n, dtype=np.int32))
    state = dict(zip(env._state_keys, env._recv()))
    env._send((state["info:env_id"], state["info:players.env_id"], actions))
"""

from __future__ import annotations

import collections
import functools
from typing import Any

import numpy as np

from envpool.compat.names import native_tasks, spec_class_names
from envpool.core.array_spec import ArraySpec
from envpool.core.keywords import POOL_DEFAULTS
from envpool.core.registry import get_task, register
from envpool.core.spec import EnvSpec

# EnvPool's config names that differ from this package's keywords, per native env.
_ENVPOOL_NAMES: dict[str, dict[str, str]] = {"Atari": {"game": "task"}}


@functools.cache
def spec_class(name: str) -> type[EnvSpec]:
    """The spec class called ``name`` (``"AtariEnvSpec"``)."""
    natives = [n for n, c in spec_class_names().items() if c == name]
    if not natives:
        raise AttributeError(f"no EnvPool spec class {name!r} here")
    native_env = natives[0]
    # The native env's ids and their fixed keywords, read once (as the defaults are).
    tasks = {i: t for i, t in native_tasks().items() if t.native_env == native_env}
    env_kwargs = {i: t.env_kwargs for i, t in tasks.items()}
    task_ids = list(tasks)
    first = tasks[task_ids[0]]
    renames = _ENVPOOL_NAMES.get(native_env, {})
    ours = {**POOL_DEFAULTS,
            **{k: v for k, v in first.native_module.default_config(native_env).items()
               if k[:1] != "_"},
            **first.python_kwargs}
    defaults = {renames.get(k, k): v for k, v in ours.items()}
    config_type = collections.namedtuple("Config", list(defaults),  # type: ignore[misc]
                                         defaults=list(defaults.values()))
    back = {v: k for k, v in renames.items()}

    def __init__(self: EnvSpec, config: Any) -> None:  # noqa: N807
        values = (config._asdict() if hasattr(config, "_asdict")
                  else dict(zip(defaults, config, strict=True)))
        # (the raw binding's configs give strings as bytes: b"pong")
        values = {k: v.decode() if isinstance(v, bytes) else v for k, v in values.items()}
        unknown = sorted(set(values) - set(defaults))
        if unknown:
            raise TypeError(f"{name} got unknown config keys {', '.join(unknown)}")
        given = {back.get(k, k): v for k, v in values.items() if not _same(v, defaults[k])}
        resolved = {back.get(k, k): v for k, v in values.items()}

        def fits(task_id: str) -> bool:  # no keyword the config sets contradicts the task's
            return all(k not in given or _same(given[k], v)
                       for k, v in env_kwargs[task_id].items())

        def score(task_id: str) -> int:
            return sum(_same(resolved.get(k), v) for k, v in env_kwargs[task_id].items())

        fitting = [i for i in task_ids if fits(i)]
        if not fitting:
            named = {renames.get(k, k): given[k] for k in sorted(given)
                     if any(k in kwargs for kwargs in env_kwargs.values())}
            raise ValueError(f"{name}: no task id has {named} (the ids: "
                             f"{', '.join(task_ids[:8])}{', ...' if len(task_ids) > 8 else ''})")
        task_id = max(fitting, key=score)  # the first of the best (max keeps the first)
        EnvSpec.__init__(self, task_id, **given)

    return type(name, (_RawNames, EnvSpec), {
        "__init__": __init__,
        "__module__": __name__,
        "__doc__": f"sail-sg EnvPool's {name}: ``{name}(config)`` with a config from "
                   f"``{name}.gen_config(**keywords)``; an EnvSpec of the task the config "
                   "names.",
        "gen_config": config_type,
        "_config_keys": list(defaults),
        "_default_config_values": tuple(defaults.values()),
    })


class _RawNames:
    """The raw binding's names of a spec class (``_state_keys``, ``_state_spec``, ...)."""

    config: Any
    state_array_spec: dict[str, ArraySpec]
    action_array_spec: dict[str, ArraySpec]

    @property
    def _config_values(self) -> tuple[Any, ...]:
        return tuple(self.config)

    @property
    def _state_keys(self) -> list[str]:
        return list(self.state_array_spec)

    @property
    def _state_spec(self) -> tuple[tuple[Any, ...], ...]:
        return _raw_specs(self.state_array_spec)

    @property
    def _action_keys(self) -> list[str]:
        return list(self.action_array_spec)

    @property
    def _action_spec(self) -> tuple[tuple[Any, ...], ...]:
        return _raw_specs(self.action_array_spec)


def _raw_specs(specs: dict[str, ArraySpec]) -> tuple[tuple[Any, ...], ...]:
    """EnvPool's raw spec tuples: ``(dtype, shape, (min, max), elementwise bounds,
    is_discrete)`` per array (bounds here are scalars: no elementwise ones). A container
    array's are its elements' dtype and ``(shape, shape of its values)``, as EnvPool's."""
    out = []
    for s in specs.values():
        if s.inner_shape is not None:
            dtype = np.asarray(s.minimum).dtype
            out.append((dtype, (list(s.shape), list(s.inner_shape)), (s.minimum, s.maximum),
                        ([], []), dtype.kind in "iub"))
        else:
            out.append((s.dtype, list(s.shape), (s.minimum, s.maximum), ([], []),
                        s.dtype.kind in "iub"))
    return tuple(out)


#: The task id of the core's multi-player test env (native ``_Dummy``), registered
#: unlisted on first use of :class:`DummyEnvSpec`.
DUMMY_TASK = "_Dummy"

# sail-sg EnvPool's common config (its env_spec.h) and the dummy env's keywords, with
# their defaults (``max_episode_steps`` 0: no time limit, EnvPool's INT_MAX).
_DUMMY_DEFAULTS: dict[str, Any] = {
    "num_envs": 1, "batch_size": 0, "num_threads": 0, "max_num_players": 1,
    "thread_affinity_offset": -1, "base_path": "envpool", "seed": 42, "env_seed": [],
    "gym_reset_return_info": True, "max_episode_steps": 0, "state_num": 10, "action_num": 6,
}


class DummyEnvSpec(_RawNames, EnvSpec):
    """sail-sg EnvPool's ``_DummyEnvSpec`` (``envpool.dummy.dummy_envpool``), the spec of
    the core's multi-player test env: ``DummyEnvSpec(config)`` with a config of EnvPool's
    common keys (``_config_keys``, values in that order, or ``gen_config(**keywords)``).
    ``env_seed`` (one seed per env) replaces ``seed + i``; ``base_path`` is accepted and
    unused (data come from installed packages here); ``gym_reset_return_info`` is the gym
    flavour's, which a multi-player env does not have."""

    gen_config = collections.namedtuple(  # type: ignore[misc]
        "Config", list(_DUMMY_DEFAULTS), defaults=list(_DUMMY_DEFAULTS.values()))
    _config_keys = list(_DUMMY_DEFAULTS)
    _default_config_values = tuple(_DUMMY_DEFAULTS.values())

    def __init__(self, config: Any) -> None:
        values = (config._asdict() if hasattr(config, "_asdict")
                  else dict(zip(_DUMMY_DEFAULTS, config, strict=True)))
        try:
            get_task(DUMMY_TASK)
        except ValueError:
            register(DUMMY_TASK, "_Dummy", listed=False)
        kwargs = {k: v for k, v in values.items()
                  if k not in ("base_path", "env_seed", "gym_reset_return_info")}
        if len(values["env_seed"]):
            kwargs["seed"] = [int(s) for s in values["env_seed"]]
        EnvSpec.__init__(self, DUMMY_TASK, **kwargs)


def _same(a: Any, b: Any) -> bool:
    """Equal values, arrays (per-env seeds, ...) compared as a whole."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return bool(np.array_equal(a, b))
    try:
        return bool(a == b)
    except ValueError:  # sequences of arrays
        return bool(np.array_equal(np.asarray(a, dtype=object), np.asarray(b, dtype=object)))


def __getattr__(name: str) -> Any:
    if name.endswith("EnvSpec"):
        return spec_class(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
