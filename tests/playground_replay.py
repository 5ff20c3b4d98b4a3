"""The MuJoCo Playground alignment tests' replay: a pool's recorded run checked, env by env,
against the package's env code (an oracle with ``seed``, ``reset`` and ``step``), as the
pool's autoreset and time limit run it. Used by tests/test_align_playground*.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np


def record(env: Any, actions: np.ndarray, steps: int, reseed: int) -> list[tuple[Any, ...]]:
    """Runs a pool for ``replay``: its reset, then ``steps`` steps of ``actions[t]`` (one row per
    env), with a ``reset(seed=reseed)`` before the middle step; the records in that order:
    ``("reset", obs, info)``, ``("reseed", obs, info)`` and ``("step", obs, info, reward,
    terminated, truncated, action)``."""
    records: list[tuple[Any, ...]] = []
    obs, info = env.reset()
    records.append(("reset", obs, info))
    for t in range(steps):
        if t == steps // 2:
            obs, info = env.reset(seed=reseed)
            records.append(("reseed", obs, info))
        obs, reward, term, trunc, info = env.step(actions[t])
        records.append(("step", obs, info, reward, term, trunc, actions[t]))
    return records


def replay(records: list[tuple[Any, ...]], n: int, seed: int, reseed: int, max_steps: int,
           oracle: Any, task_id: str, check: Callable[..., None],
           check_step: Callable[..., None]) -> dict[str, int]:
    """Replays ``records`` (``("reset", obs, info)``, ``("reseed", obs, info)`` and
    ``("step", obs, info, reward, terminated, truncated, action)``, the pool's batches) on
    the oracle for each of the ``n`` envs (env ``i`` seeded ``seed + i``, then ``reseed + i``
    at the reseed): ``check(obs, info, i, oracle, where)`` after every record and
    ``check_step(reward, terminated, info, i, oracle, where)`` after every oracle step; on
    the step after an episode's end the pool resets the env (no oracle step, neither flag).
    Returns how many episodes each flag ended."""
    ends = {"terminated": 0, "truncated": 0}
    for i in range(n):
        oracle.seed(seed + i)
        oracle.reset()
        elapsed, done = 0, False
        for k, rec in enumerate(records):
            kind, obs, info = rec[0], rec[1], rec[2]
            where = f"{task_id} env {i} record {k} ({kind})"
            if kind == "reseed":
                oracle.seed(reseed + i)
                oracle.reset()
                elapsed, done = 0, False
            elif kind == "step":
                reward, term, trunc, action = rec[3], rec[4], rec[5], rec[6]
                if done:  # the pool resets the env at this step
                    oracle.reset()
                    elapsed, done = 0, False
                    check(obs, info, i, oracle, where)
                    assert not term[i] and not trunc[i], where
                    continue
                oracle.step(action[i])
                elapsed += 1
                check_step(reward, term, info, i, oracle, where)
                assert bool(trunc[i]) == (elapsed >= max_steps), where  # the pool's time limit
                done = bool(term[i] or trunc[i])
                if term[i]:
                    ends["terminated"] += 1
                elif trunc[i]:
                    ends["truncated"] += 1
            check(obs, info, i, oracle, where)
    return ends


def as_f32(x: Any) -> np.ndarray:
    """The pool's float64 arrays hold float32 values: check that, then give them as
    float32."""
    x = np.asarray(x)
    y = x.astype(np.float32)
    np.testing.assert_array_equal(y.astype(np.float64), x)
    return y


class KeyChainOracle:
    """An oracle's key chain (env ``i`` of a pool seeded ``s``: ``PRNGKey(s + i)``, each
    reset ``use, key = split(key)``, then ``env.reset(use)``) and its steps (the action
    rounded to float32), each call run inside ``_patched`` (the subclass's native physics)."""

    env: Any
    key: Any = None
    state: Any = None

    def _patched(self, fn: Any, *args: Any) -> Any:
        raise NotImplementedError

    def seed(self, seed: int) -> None:
        import jax

        self.key = jax.random.PRNGKey(seed)

    def reset(self) -> Any:
        import jax

        use, self.key = jax.random.split(self.key)
        self.state = self._patched(self.env.reset, use)
        return self.state

    def step(self, action: np.ndarray) -> Any:
        import jax.numpy as jnp

        self.state = self._patched(self.env.step, self.state,
                                   jnp.asarray(action.astype(np.float32)))
        return self.state
