"""The pools that the framework adapters wrap: each adapter takes a pool of one flavour
(the gymnasium flavour with the autoreset mode its framework's contract needs, or the dm
flavour) and uses that flavour's API; these make such pools and check them."""

from __future__ import annotations

from typing import Any

from envpool.core.keywords import parse_autoreset_mode
from envpool.flavours.make import make


def make_adapter_pool(adapter: str, task_id: str, num_envs: int, seed: Any,
                      autoreset_mode: str, *, flavour: str = "gymnasium",
                      **kwargs: Any) -> Any:
    """The sync pool that a framework adapter wraps: ``num_envs`` envs of ``task_id``, env
    i seeded ``seed + i``, of the ``flavour`` the adapter takes (``"gymnasium"`` with
    ``autoreset_mode``, or ``"dm"``, whose autoreset is next-step). The adapter sets the
    pool's shape itself, so ``kwargs`` (any other ``make`` keyword) must not name it."""
    fixed = sorted(set(kwargs) & {"num_envs", "batch_size", "autoreset_mode", "env_type"})
    if fixed:
        raise TypeError(f"{adapter} sets {', '.join(fixed)} itself ({num_envs} envs, sync, "
                        f"{autoreset_mode} autoreset)")
    if flavour == "gymnasium":
        kwargs["autoreset_mode"] = autoreset_mode
    return make(task_id, flavour, num_envs=num_envs, seed=seed, **kwargs)


def require_pool(adapter: str, pool: Any, autoreset_mode: str) -> None:
    """Checks that ``pool`` (a gymnasium-flavour pool) is the kind ``adapter`` wraps:
    sync, with ``autoreset_mode``."""
    if pool.is_async:
        raise ValueError(f"{adapter} needs a sync pool (batch_size == num_envs)")
    if pool.autoreset_mode != parse_autoreset_mode(autoreset_mode):
        raise ValueError(f"{adapter} needs a pool made with autoreset_mode={autoreset_mode!r}")
