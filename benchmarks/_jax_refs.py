"""The jax packages' own vectorised envs as bench.py's references (``--family pgx jumanji
playground``), run the way their users run them, and the random legal actions of both sides.

*Random legal actions, one rule for everyone.* Each env's action is the argmax of uniform
noise in (0, 1] over the legal entries of its action mask (a uniform draw among the legal
actions): :class:`LegalRandom`. The noise is sampled before timing (``noise_batches``) and
cycled through, by envpool's actor in numpy and by the jax step inside its jitted function
(the same numbers, the same arithmetic), so both sides pay the same policy. Actions without a
mask (a continuous Box: MuJoCo Playground) are pre-sampled from the action space, the same
batches on both sides.

*The jax references* (``jax_runner``): the package's env vmapped over ``n`` envs with its own
auto-reset (pgx: ``pgx.experimental.auto_reset(env.step, env.init)``; jumanji:
``VmapWrapper(AutoResetWrapper(env))``; playground: ``wrap_for_brax_training``, the wrappers
its brax training uses), the action choice and the step in one ``jax.jit``:

* ``jax-step``: one call of the jitted function per step, from a Python loop;
* ``jax-scan``: one call runs ``lax.scan`` over ``scan_steps`` steps (the fused rollout of
  PureJaxRL-style training).

The compile and the first call happen when the runner is built (never timed); each
``run(k)`` ends with ``jax.block_until_ready`` on the carried state, so the clock is read
after the work is done. jax and the packages are imported only here, only by the jax
methods: envpool's rows (and the peer's interpreter) never import them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import _runners as R
import gymnasium
import numpy as np

#: the most bytes of pre-sampled noise one side keeps (Chess: 4,672 actions per env)
NOISE_BYTES = 32 * 2**20


@dataclass(frozen=True)
class LegalRandom:
    """A uniform draw among the legal actions: the argmax of noise over the legal entries.

    ``grid``: one env's mask shape; ``per_agent``: the mask is (agents, choices) and the
    action one choice per agent; otherwise the action is the mask's flat argmax, unravelled
    to one index per mask axis where the action is a vector (a joint choice: Minesweeper's
    (row, col), BinPack's (ems, item)). ``low`` is added (the action space's lower bound)."""

    grid: tuple[int, ...]
    per_agent: bool
    vector: bool
    low: Any
    dtype: Any

    def __call__(self, xp: Any, mask: Any, noise: Any) -> Any:
        """The actions of a batch: ``xp`` is numpy or jax.numpy; ``mask`` (batch, *grid)
        bool or None (every action legal); ``noise`` (batch, *grid) float32 in (0, 1]."""
        score = noise if mask is None else noise * mask
        if self.per_agent or not self.vector:
            action = xp.argmax(score, axis=-1)
        else:
            flat = xp.argmax(score.reshape(score.shape[0], -1), axis=-1)
            action = xp.stack(xp.unravel_index(flat, self.grid), axis=-1)
        return (action + self.low).astype(self.dtype)


def legal_random(space: gymnasium.Space, mask_shape: tuple[int, ...] | None) -> LegalRandom:
    """The rule for one env's action ``space`` and mask shape (None: no mask, every action
    of the space's integer grid legal)."""
    if isinstance(space, gymnasium.spaces.Discrete):
        grid = tuple(mask_shape) if mask_shape else (int(space.n),)
        return LegalRandom(grid, False, False, int(space.start), space.dtype)
    if (isinstance(space, gymnasium.spaces.Box) and len(space.shape) == 1
            and np.issubdtype(space.dtype, np.integer)):
        d = space.shape[0]
        if mask_shape is None:  # the whole grid, a joint uniform draw
            grid = tuple(int(h - lo + 1) for lo, h in zip(space.low, space.high, strict=True))
            return LegalRandom(grid, False, True, space.low.astype(np.int32), space.dtype)
        if len(mask_shape) == 2 and mask_shape[0] == d:  # one choice per agent
            return LegalRandom(tuple(mask_shape), True, True, 0, space.dtype)
        if len(mask_shape) == d:  # one joint choice, an index per mask axis
            return LegalRandom(tuple(mask_shape), False, True, 0, space.dtype)
    raise R.NotAvailable(f"no legal-action rule for {space} with a mask of {mask_shape}")


def noise_batches(rule: LegalRandom, batch: int, seed: int) -> np.ndarray:
    """(K, batch, *grid) float32 in (0, 1], K = 1024 or fewer where that passes NOISE_BYTES."""
    size = batch * int(np.prod(rule.grid)) * 4
    count = int(max(8, min(R.NUM_ACTION_BATCHES, NOISE_BYTES // size)))
    rng = np.random.default_rng(seed)
    return (1.0 - rng.random((count, batch, *rule.grid), dtype=np.float32))


def legal_actor(seed: int) -> R.ActorFactory:
    """The actor factory of envpool's rows: ``actor(mask)`` (the runner's ``actor_input``
    gives the batch's mask) cycles through the noise batches."""

    def make(mask: Any, space: gymnasium.Space, batch: int) -> R.Actor:
        shape = None if mask is None else tuple(np.shape(mask)[1:])
        rule = legal_random(space, shape)
        noise = noise_batches(rule, batch, seed)
        state = {"i": 0}

        def actor(m: Any) -> Any:
            i = state["i"]
            state["i"] = (i + 1) % len(noise)
            return rule(np, m, noise[i])

        return actor

    return make


# -- the jax side --------------------------------------------------------------
Body = Callable[[Any, Any], Any]  # (carry, inputs) -> carry: one vmapped step


def jax_runner(carry: Any, body: Body, inputs: Any, n: int, scan_steps: int) -> R.Made:
    """Times ``body`` jitted: one step per call (``scan_steps`` 0) or a ``lax.scan`` of
    ``scan_steps`` steps per call. ``carry`` is (env state, step index, ...); ``inputs``
    (the noise or the actions, passed as an argument, not baked into the program). Compiles
    and runs the first call here, untimed."""
    import jax

    if scan_steps:
        def call(c: Any, x: Any) -> Any:
            return jax.lax.scan(lambda cc, _: (body(cc, x), None), c, None,
                                length=scan_steps)[0]
        per_call = scan_steps * n
    else:
        call = body
        per_call = n
    fn = jax.jit(call, donate_argnums=0)
    inputs = jax.device_put(inputs)
    state = {"c": jax.block_until_ready(fn(carry, inputs))}

    def run(k: int) -> int:
        c = state["c"]
        for _ in range(k):
            c = fn(c, inputs)
        state["c"] = jax.block_until_ready(c)
        return k * per_call

    return run, lambda: None


def _cycle(inputs: Any, i: Any) -> Any:
    import jax

    return jax.lax.dynamic_index_in_dim(inputs, i % inputs.shape[0], keepdims=False)


def pgx_runner(task: str, n: int, seed: int, scan_steps: int) -> R.Made:
    """pgx 2.6.0's game, ``jax.vmap(auto_reset(env.step, env.init))``, random legal actions."""
    try:
        import jax
        import jax.numpy as jnp
        import pgx
        from pgx.experimental import auto_reset
    except ImportError as exc:
        raise R.NotAvailable(f"pgx or jax not installed ({exc})") from None
    import envpool
    from envpool.tasks.pgx import GO_SIZES, PGX_GAMES, PGX_MORE_GAMES, pgx_name

    if task.startswith("ChineseGo") or task not in {**PGX_GAMES, **PGX_MORE_GAMES}:
        raise R.NotAvailable(f"pgx has no game of {task}")
    if task in GO_SIZES:  # pgx.make knows 9x9 and 19x19 only; EnvPool's komi
        from pgx.go import Go

        env = Go(size=GO_SIZES[task], komi=7.5)
    else:
        env = pgx.make(pgx_name(task))
    space = envpool.make_spec(task).action_space
    rule = dataclasses.replace(legal_random(space, (int(space.n),)), dtype=np.int32)  # x64 off
    step = jax.vmap(auto_reset(env.step, env.init))

    def body(carry: Any, noise: Any) -> Any:
        state, key, i = carry
        key, sub = jax.random.split(key)
        action = rule(jnp, state.legal_action_mask, _cycle(noise, i))
        return step(state, action, jax.random.split(sub, n)), key, i + 1

    key, sub = jax.random.split(jax.random.PRNGKey(seed))
    state = jax.jit(jax.vmap(env.init))(jax.random.split(sub, n))
    return jax_runner((state, key, jnp.int32(0)), body, noise_batches(rule, n, seed), n,
                      scan_steps)


def jumanji_runner(task: str, n: int, seed: int, scan_steps: int) -> R.Made:
    """jumanji 1.1.2's env, ``VmapWrapper(AutoResetWrapper(env))``, random legal actions."""
    try:
        import jax
        import jax.numpy as jnp
        import jumanji
        from jumanji.wrappers import AutoResetWrapper, VmapWrapper
    except ImportError as exc:
        raise R.NotAvailable(f"jumanji or jax not installed ({exc})") from None
    import envpool

    name = task.removeprefix("Jumanji/")
    if name not in jumanji.registered_environments():
        raise R.NotAvailable(f"jumanji has no {name}")
    env = VmapWrapper(AutoResetWrapper(jumanji.make(name)))
    spec = envpool.make_spec(task)
    obs_space = spec.observation_space
    mask_space = obs_space["action_mask"] if "action_mask" in obs_space.spaces else None
    rule = dataclasses.replace(legal_random(
        spec.action_space, None if mask_space is None else mask_space.shape), dtype=np.int32)

    def body(carry: Any, noise: Any) -> Any:
        state, timestep, i = carry
        mask = getattr(timestep.observation, "action_mask", None)
        state, timestep = env.step(state, rule(jnp, mask, _cycle(noise, i)))
        return state, timestep, i + 1

    keys = jax.random.split(jax.random.PRNGKey(seed), n)
    state, timestep = jax.jit(env.reset)(keys)
    return jax_runner((state, timestep, jnp.int32(0)), body, noise_batches(rule, n, seed), n,
                      scan_steps)


def playground_runner(task: str, n: int, seed: int, scan_steps: int) -> R.Made:
    """playground 0.2.0's env on MJX (``impl="jax"``: the CPU), ``wrap_for_brax_training``
    (vmap, its episode length, auto-reset to the cached first state: brax training's
    default), the actions pre-sampled from the action space (envpool's batches)."""
    try:
        import jax
        import jax.numpy as jnp
        from etils import epath
        from mujoco_playground import registry, wrapper
        from mujoco_playground._src import mjx_env
    except ImportError as exc:
        raise R.NotAvailable(f"playground or jax not installed ({exc})") from None
    import envpool
    from envpool.tasks.playground import TASKS, resolve_dirs

    name = task.removeprefix("MuJoCoPlayground/").rsplit("-v", 1)[0]
    if task not in TASKS or name not in registry.ALL_ENVS:
        raise R.NotAvailable(f"playground has no {name}")
    # the Menagerie this package's pools read (playground would fetch it from the network)
    mjx_env.MENAGERIE_PATH = epath.Path(resolve_dirs(robot=TASKS[task][3])[1])
    env = wrapper.wrap_for_brax_training(
        registry.load(name, config_overrides={"impl": "jax"}),
        episode_length=TASKS[task][2], action_repeat=1)
    space = envpool.make_spec(task).action_space
    actions = np.stack(R.presample(gymnasium.vector.utils.batch_space(space, n),
                                   R.NUM_ACTION_BATCHES, seed)).astype(np.float32)

    def body(carry: Any, acts: Any) -> Any:
        state, i = carry
        return env.step(state, _cycle(acts, i)), i + 1

    state = jax.jit(env.reset)(jax.random.split(jax.random.PRNGKey(seed), n))
    return jax_runner((state, jnp.int32(0)), body, actions, n, scan_steps)
