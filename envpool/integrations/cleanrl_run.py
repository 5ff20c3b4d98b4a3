"""Runs one of CleanRL's EnvPool-era JAX scripts, unchanged, on today's jax and flax.

CleanRL's ``ppo_atari_envpool_xla_jax.py`` and ``ppo_atari_envpool_xla_jax_scan.py`` were
written for jax 0.4.8 and flax 0.6.8 (with EnvPool 0.6-0.8 and gym 0.23.1). envpool-ng's
``xla()`` needs jax 0.5 or newer (jax's FFI), where two things those scripts use changed:

* ``jax.tree_map`` (the scan script), removed in jax 0.6: :func:`restore_tree_map` puts
  it back as ``jax.tree_util.tree_map``, what it always was.
* flax's ``TrainState.create`` and ``apply_gradients`` look for an ``overwrite_with_gradient``
  key in the params and gradients since flax 0.7.5, which fails on params that are not a
  mapping (both scripts keep theirs in a ``flax.struct.dataclass``); flax 0.7.4, the last
  without that check, does not import on jax 0.5. :func:`restore_train_state` makes them do
  what flax 0.7.4 did for such params (mappings and arrays still take flax's own path).

Nothing is patched on importing this module; the command applies both, then runs the
script as ``python SCRIPT`` would (``__name__ == "__main__"``, ``sys.argv`` the script's)::

    python -m envpool.integrations.cleanrl_run ppo_atari_envpool_xla_jax_scan.py \\
        --total-timesteps 4096 --num-envs 8

The env side needs no help: with gym 0.23.1 installed, a gym pool's ``xla()`` steps return
EnvPool 0.6-0.8's ``(obs, reward, done, info)`` with ``info["TimeLimit.truncated"]``
(:class:`~envpool.flavours.gym_env.LegacyGymEnvPool`).
"""

from __future__ import annotations

import argparse
import collections.abc
import os
import runpy
import sys
from types import ModuleType
from typing import Any

#: Set on the functions this module installs, so that a second call changes nothing.
MARK = "_envpool_cleanrl_run"


def restore_tree_map(jax: ModuleType | None = None) -> bool:
    """Gives ``jax`` back its ``tree_map`` (``jax.tree_util.tree_map``) where it has none.

    Args:
        jax: The jax module; None imports it.

    Returns:
        True where ``jax.tree_map`` was added, False where jax had it already.

    Raises:
        ImportError: jax is not installed.
    """
    if jax is None:
        import jax
    if hasattr(jax, "tree_map"):
        return False
    tree_map = jax.tree_util.tree_map
    jax.tree_map = tree_map
    return True


def _plain(tree: Any, jax: ModuleType) -> bool:
    """True where flax's ``overwrite_with_gradient`` check cannot look into ``tree``."""
    return not isinstance(tree, (collections.abc.Mapping, jax.Array))


def restore_train_state(train_state: ModuleType | None = None) -> bool:
    """Makes flax's ``TrainState.create`` and ``apply_gradients`` take params (and
    gradients) that are not a mapping, as flax 0.7.4 and older did.

    Flax 0.7.5 and newer test ``"overwrite_with_gradient" in params`` first, a TypeError on a
    ``flax.struct.dataclass``. For such params the patched methods do what flax 0.7.4's
    did (``tx.init(params)``; ``tx.update`` then ``optax.apply_updates``); mappings and
    arrays go to flax's own methods unchanged.

    Args:
        train_state: The ``flax.training.train_state`` module; None imports it.

    Returns:
        True where the methods were patched, False where this flax has no such check
        (it takes any params) or they were patched already.

    Raises:
        ImportError: flax (or jax, or optax) is not installed.
    """
    if train_state is None:
        from flax.training import train_state
    import jax
    import optax

    cls = train_state.TrainState
    if not hasattr(train_state, "OVERWRITE_WITH_GRADIENT") or getattr(cls.create, MARK, False):
        return False
    flax_create = cls.create.__func__
    flax_apply_gradients = cls.apply_gradients

    def create(klass: type, *, apply_fn: Any, params: Any, tx: Any, **kwargs: Any) -> Any:
        """flax's ``TrainState.create``; for params that are not a mapping, flax 0.7.4's."""
        if not _plain(params, jax):
            return flax_create(klass, apply_fn=apply_fn, params=params, tx=tx, **kwargs)
        return klass(step=0, apply_fn=apply_fn, params=params, tx=tx,
                     opt_state=tx.init(params), **kwargs)

    def apply_gradients(self: Any, *, grads: Any, **kwargs: Any) -> Any:
        """flax's ``apply_gradients``; for gradients that are not a mapping, flax 0.7.4's."""
        if not _plain(grads, jax):
            return flax_apply_gradients(self, grads=grads, **kwargs)
        updates, opt_state = self.tx.update(grads, self.opt_state, self.params)
        return self.replace(step=self.step + 1, params=optax.apply_updates(self.params, updates),
                            opt_state=opt_state, **kwargs)

    setattr(create, MARK, True)
    setattr(apply_gradients, MARK, True)
    cls.create = classmethod(create)
    cls.apply_gradients = apply_gradients
    return True


def restore_apis() -> list[str]:
    """Applies :func:`restore_tree_map` and, where flax is installed,
    :func:`restore_train_state`.

    Returns:
        The names of what was restored (``"jax.tree_map"``, ``"TrainState"``).

    Raises:
        ImportError: jax is not installed.
    """
    done = ["jax.tree_map"] if restore_tree_map() else []
    try:
        patched = restore_train_state()
    except ImportError:  # no flax (or optax): a script that needs it fails on its import
        patched = False
    return done + (["TrainState"] if patched else [])


def run(script: str, args: list[str]) -> None:
    """Runs ``script`` as ``python script *args`` would, after :func:`restore_apis`.

    Args:
        script: The path of the script.
        args: Its command-line arguments.

    Raises:
        SystemExit: as the script raises it (``tyro`` on ``--help`` or a bad argument).
    """
    restore_apis()
    sys.argv = [script, *args]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))  # as python SCRIPT does
    runpy.run_path(script, run_name="__main__")


def main(argv: list[str] | None = None) -> None:
    """``python -m envpool.integrations.cleanrl_run SCRIPT [ARGS...]``."""
    parser = argparse.ArgumentParser(
        prog="python -m envpool.integrations.cleanrl_run",
        description="Runs a CleanRL EnvPool-era JAX script unchanged on today's jax and flax "
                    "(jax.tree_map, flax 0.7.4's TrainState for dataclass params).")
    parser.add_argument("script", help="the script, e.g. ppo_atari_envpool_xla_jax_scan.py")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="the script's own arguments")
    ns = parser.parse_args(argv)
    run(ns.script, ns.args)


if __name__ == "__main__":
    main()
