"""The gym flavour's spaces and the installed gym: one place that reads both.

sail-sg EnvPool's gym pools had the spaces of the gym package installed beside it
(CleanRL's EnvPool scripts assert ``isinstance(envs.action_space, gym.spaces.Discrete)``
with ``import gym``), and EnvPool 1.2.5's have gymnasium's (its own tests check gymnasium's
classes on gym pools). The gym flavour's spaces are both: each is an instance of a class
that derives from gymnasium's space class (first: its behaviour is gymnasium's) and from
the installed gym's class of the same name. Without gym installed they are gymnasium's own.

gym is looked for once per process, when the first gym pool is made (``find_spec``, which
imports nothing; gym is imported only where it is installed), never per step. The classes
are this module's attributes (``envpool.flavours.gym_spaces.Discrete``, made at first use),
so that pickle finds them.
"""

from __future__ import annotations

import functools
import importlib.util
import re
from types import ModuleType
from typing import Any

from gymnasium import spaces

#: gym's first version with ``reset() -> (obs, info)`` and the 5-tuple ``step()``.
NEW_API = (0, 26)

_CLASSES: dict[str, type] = {}


@functools.cache
def installed_gym() -> ModuleType | None:
    """The installed gym package (imported), or None where gym is not installed (it is
    not imported then) or fails to import."""
    try:
        if importlib.util.find_spec("gym") is None:
            return None
        import gym
        import gym.spaces
    except Exception:  # noqa: BLE001 (a gym that does not import is no gym to follow)
        return None
    return gym


def gym_version() -> tuple[int, int] | None:
    """The installed gym's ``(major, minor)`` version, or None without gym."""
    gym = installed_gym()
    if gym is None:
        return None
    major, minor = (re.findall(r"\d+", gym.__version__) + ["0", "0"])[:2]
    return int(major), int(minor)


def legacy_gym() -> bool:
    """True where the installed gym is older than 0.26 (gym 0.23.1, CleanRL's): its API
    is ``reset() -> obs`` and ``step() -> (obs, reward, done, info)``."""
    version = gym_version()
    return version is not None and version < NEW_API


def space_class(cls: type) -> type:
    """The class of the gym flavour's spaces for gymnasium's space class ``cls``: one
    deriving from ``cls`` and from the installed gym's class of the same name, or ``cls``
    itself where gym is not installed or has no such class (gym 0.23.1 has no
    ``Sequence``)."""
    gym = installed_gym()
    name = cls.__name__
    gym_cls = getattr(gym.spaces, name, None) if gym is not None else None
    if getattr(spaces, name, None) is not cls or not isinstance(gym_cls, type):
        return cls
    if name not in _CLASSES:
        attrs = {"__module__": __name__, "__qualname__": name,
                 "__doc__": f"gymnasium's {name} that is also an instance of gym's {name} "
                            "(the gym flavour's spaces)."}
        try:
            _CLASSES[name] = type(name, (cls, gym_cls), attrs)
        except TypeError:  # no MRO (Dict: gym's and gymnasium's bases differ in order)
            if not hasattr(gym_cls, "register"):
                return cls
            # gym's class is an ABC (Dict, a Mapping): a virtual subclass of it
            _CLASSES[name] = type(name, (cls,), attrs)
            gym_cls.register(_CLASSES[name])
    return _CLASSES[name]


def gym_space(space: spaces.Space) -> spaces.Space:
    """``space`` (a gymnasium space, and the spaces inside a Dict, Tuple or Sequence) as
    an instance of :func:`space_class`: the same values, gymnasium's methods."""
    cls = space_class(type(space))
    if cls is type(space) and not isinstance(space, (spaces.Dict, spaces.Tuple,
                                                     spaces.Sequence)):
        return space
    new = cls.__new__(cls)
    new.__dict__.update(space.__dict__)
    if isinstance(space, spaces.Dict):
        new.spaces = {k: gym_space(v) for k, v in space.spaces.items()}
    elif isinstance(space, spaces.Tuple):
        new.spaces = tuple(gym_space(s) for s in space.spaces)
    elif isinstance(space, spaces.Sequence):
        new.feature_space = gym_space(space.feature_space)
    return new


def __getattr__(name: str) -> Any:
    """The space classes by name (``Discrete``, ``Box``, ...), made at first use: how
    pickle finds them."""
    cls = getattr(spaces, name, None)
    if isinstance(cls, type) and issubclass(cls, spaces.Space) and space_class(cls) is not cls:
        return space_class(cls)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
