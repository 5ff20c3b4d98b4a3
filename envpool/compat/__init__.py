"""sail-sg EnvPool's names, fenced in one wing: nothing outside this folder names them.

EnvPool's scripts and tests import modules that are no files here
(``envpool.registration``, ``envpool.atari.registration``, ``envpool.python.protocol``,
...), build spec classes from config namedtuples (``AtariEnvSpec(config)``) and drive a
raw binding (``_AtariEnvPool``). The wing maps each onto this package's objects:

* :mod:`~envpool.compat.names`: the naming table (the family package of each native env,
  its spec class's name);
* :mod:`~envpool.compat.spec_classes`: the per-family spec classes (subclasses of
  :class:`envpool.core.spec.EnvSpec`) and the core's multi-player test env's spec;
* :mod:`~envpool.compat.raw_pool`: the raw binding's pool (a core pool with tuple
  batches and actions);
* :mod:`~envpool.compat.registration`: the values of EnvPool's registration modules;
* :mod:`~envpool.compat.paths`: the one table of EnvPool's module paths and the import
  finder that builds them (installed by ``import envpool``).

The wing imports the core, the flavours and the task tables; none of them imports it.
"""
