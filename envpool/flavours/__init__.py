"""The flavours: what a pool's calls return, in the API of gymnasium, gym or dm_env.

Who wraps what (each layer uses the API of the one below it, never a lower one):

* the core (envpool/core/) is one pool, :class:`~envpool.core.pool.EnvPoolBase`: it
  sends actions and receives a :class:`~envpool.core.batch.RawBatch` of numpy views,
  and imports no flavour;
* a flavour subclasses that pool and turns each RawBatch into its own values:
  :mod:`~envpool.flavours.gymnasium_env` (a ``gymnasium.vector.VectorEnv`` with
  single-env spaces), :mod:`~envpool.flavours.gym_env` (the same in the installed gym's API, with
  :mod:`~envpool.flavours.gym_spaces`' spaces, also the installed gym's),
  :mod:`~envpool.flavours.dm_env` (batched ``dm_env.TimeStep`` values: the dm
  rules live there) and :mod:`~envpool.flavours.vector_env` (``gymnasium.make_vec``'s
  strict vector env); :mod:`~envpool.flavours.single_env` wraps a core pool of one env
  as a plain ``gymnasium.Env``. ``make`` (:mod:`~envpool.flavours.make`) picks a flavour,
  and :mod:`~envpool.flavours.gymnasium_ids` registers every id with gymnasium;
* an adapter (envpool/integrations/) takes a pool of one flavour and uses only that
  flavour's API (its ``reset`` / ``step`` / ``recv`` / ``send`` and attributes): the
  gymnasium flavour for SB3, Tianshou, rl_games, CleanRL and RLlib, the dm flavour for
  dm_env / Acme;
* sail-sg EnvPool's names (envpool/compat/) sit on top and map onto all of these.

``xla()`` is the core's (:mod:`envpool.core.xla`): it reads the XLA call's arrays into a
RawBatch and asks the flavour for its values with ``_result(raw, xp)``, the same code that
makes ``recv``'s, with ``jax.numpy`` for ``xp``.
"""
