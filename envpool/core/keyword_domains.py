"""Keyword domains: the values each numeric keyword accepts, and the one check that applies
them before any env is made.

A native env declares the domain of each numeric keyword beside its default (C++:
``k.Add("frame_skip", 5, ...).AtLeast(1)``, ``c.Set("n", ...).AtLeast(1)``; core/config.h's
KeywordDomain); its module exports them with ``keyword_domains(name)``. By default an int
keyword fits in a C++ int and a number is finite and within float32's range (the pool's
outputs are float32); NaN is never accepted, inf only where the domain says so (the ends of
a (low, high) range). The pool's own keywords have theirs here (:data:`POOL_DOMAINS`), and a
task's Python keywords are checked by its prepare hook with :func:`check_value`. A value
outside its domain raises a ValueError that names the keyword, the value and the domain.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from envpool.core.per_env import Uniform, per_env_dicts

INT_MIN, INT_MAX = -(2**31), 2**31 - 1
FLOAT32_MAX = float(np.finfo(np.float32).max)


@dataclass(frozen=True)
class Domain:
    """The values of a numeric keyword: each number of it is in ``min .. max`` (``min_open``
    / ``max_open``: the bound itself excluded), finite unless ``allow_inf``, never NaN; a list
    whose values are ``ordered`` does not decrease (a (low, high) range)."""

    min: float = -math.inf
    max: float = math.inf
    min_open: bool = False
    max_open: bool = False
    allow_inf: bool = False
    ordered: bool = False

    def contains(self, x: float) -> bool:
        """Whether the number ``x`` is in the domain (a list's values: each of them)."""
        if math.isnan(x) or (math.isinf(x) and not self.allow_inf):
            return False
        above = x > self.min if self.min_open else x >= self.min
        below = x < self.max if self.max_open else x <= self.max
        return above and below

    def describe(self, is_int: bool, is_list: bool = False) -> str:
        """The domain in words: ``an int >= 1``, ``a finite number in [0, 1]``, ..."""
        low = self.min > (INT_MIN if is_int else -FLOAT32_MAX)
        high = self.max < (INT_MAX if is_int else FLOAT32_MAX)
        if low and high:
            bounds = (f"in {'(' if self.min_open else '['}{_num(self.min)}, {_num(self.max)}"
                      f"{')' if self.max_open else ']'}")
        elif low:
            bounds = f"{'>' if self.min_open else '>='} {_num(self.min)}"
        elif high:
            bounds = f"{'<' if self.max_open else '<='} {_num(self.max)}"
        else:
            bounds = ""
        if is_int:
            if not low and not high:
                return f"an int in [{INT_MIN}, {INT_MAX}] (a C++ int)"
            return f"an int {bounds}" + ("" if low and high else " (and a C++ int)")
        # (the default bounds of a number: float32's largest, the pool's outputs being float32)
        float32 = not self.allow_inf and (not low or not high)
        if float32:
            bounds = (f"{bounds} (and within float32's range)" if bounds
                      else "within float32's range")
        if not is_list:
            number = "a number (inf allowed, NaN not)" if self.allow_inf else "a finite number"
            return f"{number} {bounds}".strip()
        numbers = "numbers (inf allowed, NaN not)" if self.allow_inf else "finite numbers"
        if self.ordered:
            text = f"a (low, high) range of {numbers}, low <= high"
            if self.allow_inf:
                text += " (low < inf, high > -inf)"
        else:
            text = f"a list of {numbers}"
        return f"{text}, each {bounds}" if bounds else text


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() and abs(x) < 2**53 else repr(float(x))


# The default domain of a number (core/config.h): finite, within float32's range. Also that of
# a number the env keeps as a float32.
FLOAT32 = Domain(-FLOAT32_MAX, FLOAT32_MAX)

# The pool's own keywords (envpool/core/spec.py's POOL_DEFAULTS) that are numbers. Their
# relations (batch_size <= num_envs, render_env_id < num_envs, ...) are checked in spec.py.
# num_envs, num_threads: each env and each thread is real memory, a pool of 2**20 of either
# is a typo; render sizes: a frame of 16384 x 16384 RGB is 768 MiB.
POOL_DOMAINS: dict[str, Domain] = {
    "num_envs": Domain(1, 2**20),
    "batch_size": Domain(0, 2**20),  # 0: num_envs
    "num_threads": Domain(0, 2**16),  # 0: the pool's choice
    "max_episode_steps": Domain(0, INT_MAX),  # 0: no limit
    "thread_affinity_offset": Domain(-1, 2**16),  # -1: no pinning
    "max_num_players": Domain(1, 2**16),
    "render_env_id": Domain(0, INT_MAX),
    "render_width": Domain(0, 16384),  # 0: the env's own size
    "render_height": Domain(0, 16384),
    "render_camera_id": Domain(-1, INT_MAX),  # -1: the env's default view
}


@functools.cache
def _native_domains(module: ModuleType, native_env: str) -> dict[str, Domain]:
    exported = getattr(module, "keyword_domains", None)  # (a module built before domains)
    if exported is None:
        return {}
    return {k: Domain(**d) for k, d in exported(native_env).items()}


def native_domains(module: ModuleType, native_env: str) -> dict[str, Domain]:
    """The declared domain of each numeric keyword of ``native_env`` (those that users pass;
    hidden ``_`` keywords, which the tasks fill, are left out)."""
    return {k: d for k, d in _native_domains(module, native_env).items() if k[:1] != "_"}


def _numbers(value: Any) -> list[float] | None:
    """The numbers of a keyword's value (a number, or a list of numbers); None for another
    value (a bool, a string, ...), which the type checks deal with."""
    if isinstance(value, (bool, np.bool_)):
        return None
    if isinstance(value, (int, float, np.integer, np.floating)):
        return [float(value)] if not isinstance(value, (int, np.integer)) else [value]
    if isinstance(value, (list, tuple, np.ndarray)):
        flat = np.ravel(np.asarray(value, dtype=object)) if len(value) else []
        if all(isinstance(v, (int, float, np.integer, np.floating))
               and not isinstance(v, (bool, np.bool_)) for v in flat):
            return list(flat)
    return None


def check_value(where: str, name: str, value: Any, domain: Domain,
                is_int: bool | None = None) -> None:
    """Raises a ValueError naming ``name``, ``value`` and ``domain`` if a number of
    ``value`` is outside ``domain`` (``where``: the task id, which leads the message).
    ``is_int``: whether the keyword is an int (default: whether ``value`` is one)."""
    numbers = _numbers(value)
    if numbers is None:
        return
    is_list = isinstance(value, (list, tuple, np.ndarray))
    if is_int is None:
        is_int = not is_list and isinstance(value, (int, np.integer))
    floats = [float(v) for v in numbers]
    ok = all(domain.contains(x) and (not is_int or x.is_integer()) for x in floats)
    if ok and domain.ordered and is_list and floats:
        # a (low, high) range: low <= high, and only its outer ends may be infinite
        ok = (all(a <= b for a, b in zip(floats, floats[1:], strict=False))
              and floats[0] < math.inf and floats[-1] > -math.inf)
    if ok:
        return
    what = domain.describe(is_int, is_list)
    shown: Any = value
    if is_list:  # (a long list: its first numbers)
        shown = floats if len(floats) <= 8 else f"[{', '.join(map(repr, floats[:8]))}, ...]"
    raise ValueError(f"{where}: {name} must be {what}, got "
                     f"{shown if isinstance(shown, str) else repr(shown)}")


def check_keywords(where: str, values: Mapping[str, Any], domains: Mapping[str, Domain],
                   int_keys: frozenset[str] | set[str] = frozenset()) -> None:
    """Checks each of ``values`` that has a domain in ``domains`` with :func:`check_value`;
    a value drawn at each reset (``envpool.Uniform``) by both its ends. ``int_keys``: the
    keywords that are ints."""
    for name, value in values.items():
        domain = domains.get(name)
        if domain is None:
            continue
        is_int = name in int_keys
        for end in (value.low, value.high) if isinstance(value, Uniform) else (value,):
            check_value(where, name, end, domain, is_int)


def check_spec_keywords(task_id: str, task: Any, env_defaults: Mapping[str, Any],
                        env_config: Mapping[str, Any], kwargs: Mapping[str, Any],
                        env_kwargs: Any) -> None:
    """The check of a pool's keywords before its factory (and so any env) is made: the
    task's native keywords (``env_config``), the pool's own numeric keywords of ``kwargs``,
    and each env's ``env_kwargs`` (``envpool.Uniform`` ranges by both ends), each against its
    domain. Values of another type are left to the type checks that follow."""
    pool = {k: v for k, v in kwargs.items() if k in POOL_DOMAINS}
    for name, value in pool.items():
        if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
            check_value(task_id, name, value, POOL_DOMAINS[name], is_int=True)
    domains = native_domains(task.native_module, task.native_env)
    ints = {k for k, v in env_defaults.items()
            if isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))}
    check_keywords(task_id, env_config, domains, ints)
    if env_kwargs is None:
        return
    num_envs = pool.get("num_envs", 1)
    if not isinstance(num_envs, (int, np.integer)) or isinstance(num_envs, (bool, np.bool_)):
        return  # (spec.py's type check says so)
    for i, overrides in enumerate(per_env_dicts(env_kwargs, int(num_envs))):
        check_keywords(f"{task_id} (env_kwargs of env {i})", overrides, domains, ints)
