"""The gymnasium flavour: a true ``gymnasium.vector.VectorEnv``."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from envpool.core.pool import EnvPoolBase
from envpool.core.spec import EnvSpec


class GymnasiumEnvPool(EnvPoolBase, gymnasium.vector.VectorEnv):
    """A pool of ``num_envs`` native envs as a gymnasium vector env.

    * ``reset(seed=..., options=...)`` and ``step(actions)`` follow gymnasium:
      ``reset(seed=s)`` reseeds env i with ``s + i`` (or ``s[i]`` for a list).
    * ``metadata["autoreset_mode"]`` says how done envs restart: NEXT_STEP
      (default, EnvPool's behaviour), SAME_STEP (the done step returns the
      reset observation, with ``info["final_obs"]`` and ``info["final_info"]``)
      or DISABLED (reset them with ``reset(options={"reset_mask": mask})``).
    * EnvPool's extras: ``send``/``recv``/``async_reset``, ``step(actions,
      env_id)`` and ``reset(env_id=...)`` on a subset, ``info["env_id"]``,
      ``info["elapsed_step"]``. In async mode (``batch_size < num_envs``) each
      call returns the first ``batch_size`` envs to finish and the batched
      spaces have ``batch_size`` rows.
    """

    def __init__(self, spec: EnvSpec) -> None:
        EnvPoolBase.__init__(self, spec)
        self.num_envs = spec.config.batch_size
        self.single_observation_space = spec.observation_space
        self.single_action_space = spec.action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.autoreset_mode: AutoresetMode = spec.config.autoreset_mode
        self.metadata = {"autoreset_mode": self.autoreset_mode, "render_modes": []}
        self.render_mode = None
        # DISABLED mode: a partial reset returns every env's obs, so keep the last.
        self._last: tuple[Any, dict[str, Any]] | None = None

    def reset(
        self,
        *,
        seed: int | list[int] | None = None,
        options: dict[str, Any] | None = None,
        env_id: Any = None,
    ) -> tuple[Any, dict[str, Any]]:
        """Resets every env (or ``env_id``, or ``options["reset_mask"]``)."""
        mask = None if options is None else options.get("reset_mask")
        if mask is not None:
            return self._reset_masked(np.asarray(mask), seed)
        if self.is_async and env_id is None:
            if seed is not None:
                self._pool.send_reset(self._all_ids64, self._reset_seeds(seed, len(self)))
            else:
                self.async_reset()
            raw = self._recv_raw()
        else:
            raw = self._reset_raw(env_id, seed)
        return self._remember(raw.obs, self._info(raw), raw.env_id)

    def _reset_masked(self, mask: np.ndarray, seed: Any) -> tuple[Any, dict[str, Any]]:
        if mask.dtype != np.bool_ or mask.shape != (len(self),):
            raise ValueError(f"reset_mask must be a bool array of shape ({len(self)},)")
        if self.is_async:
            raise ValueError("reset_mask needs sync mode (batch_size == num_envs)")
        if self._last is None and not mask.all():
            raise ValueError("the first reset must reset every env")
        if not mask.any():
            return _tree_copy(self._last[0]), _tree_copy(self._last[1])
        ids = self._all_ids64[mask]
        if seed is not None:
            seed = self._reset_seeds(seed, len(self))
            seed = [seed[i] for i in ids]
        raw = self._reset_raw(ids, seed)
        self._remember(raw.obs, self._info(raw), raw.env_id)
        return _tree_copy(self._last[0]), _tree_copy(self._last[1])

    def step(
        self, actions: Any, env_id: Any = None
    ) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Steps the envs with ``actions``: (obs, reward, terminated, truncated, info)."""
        self.send(actions, env_id)
        return self.recv()

    def recv(
        self, timeout: float | None = None
    ) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """The next batch: (obs, reward, terminated, truncated, info).

        Raises TimeoutError after ``timeout`` seconds; Ctrl-C interrupts it.
        """
        raw = self._recv_raw(timeout)
        info = self._info(raw)
        if raw.final_obs is not None:
            done = raw.terminated | raw.truncated
            info["final_obs"] = raw.final_obs
            info["_final_obs"] = done
            final_info = dict(raw.final_info)
            final_info.update({"_" + k: done for k in list(final_info)})
            info["final_info"] = final_info
            info["_final_info"] = done
        self._remember(raw.obs, info, raw.env_id)
        return raw.obs, raw.reward, raw.terminated, raw.truncated, info

    def render(self) -> None:
        """These envs do not render."""
        return None

    # -- DISABLED mode bookkeeping -------------------------------------------
    def _remember(
        self, obs: Any, info: dict[str, Any], env_id: np.ndarray
    ) -> tuple[Any, dict[str, Any]]:
        """DISABLED mode: keeps every env's latest obs and info (rows by env id)."""
        if self.autoreset_mode != AutoresetMode.DISABLED:
            return obs, info
        if len(env_id) == len(self) and (env_id == self.all_env_ids).all():
            self._last = (_tree_copy(obs), _tree_copy(info))
        else:
            self._last = (_tree_assign(self._last[0], env_id, obs),
                          _tree_assign(self._last[1], env_id, info))
        return obs, info


def _tree_copy(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _tree_copy(v) for k, v in x.items()}
    if isinstance(x, tuple):
        return tuple(_tree_copy(v) for v in x)
    return np.array(x, copy=True)


def _tree_assign(dst: Any, rows: np.ndarray, src: Any) -> Any:
    """dst[rows] = src, through dicts and tuples (dst is modified)."""
    if isinstance(dst, dict):
        return {k: _tree_assign(v, rows, src[k]) for k, v in dst.items() if k in src}
    if isinstance(dst, tuple):
        return tuple(_tree_assign(d, rows, s) for d, s in zip(dst, src, strict=True))
    dst[rows] = src
    return dst

