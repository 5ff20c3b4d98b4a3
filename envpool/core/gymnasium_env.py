"""The gymnasium flavour: a ``gymnasium.vector.VectorEnv`` over the pool.

Two classes, one behaviour:

* :class:`GymnasiumEnvPool` (``envpool.make_gymnasium``, ``envpool.make(...,
  env_type="gymnasium")``) keeps sail-sg EnvPool's space contract:
  ``observation_space`` / ``action_space`` describe ONE env, beside
  ``single_observation_space`` / ``single_action_space``, ``num_envs`` and
  ``is_vector_env``, so EnvPool scripts and the frameworks' EnvPool paths run
  unchanged.
* :class:`GymnasiumVectorEnv` (``gymnasium.make_vec("envpool/<id>")``) is the
  strict gymnasium form: batched ``observation_space`` / ``action_space`` with
  ``num_envs`` rows, exactly as gymnasium's own vector envs define them.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from envpool.core.pool import EnvPoolBase, obs_row
from envpool.core.spec import EnvSpec
from envpool.core.text_render import TEXT_FPS, renders_text


def render_metadata(spec: EnvSpec) -> dict[str, Any]:
    """gymnasium's ``render_modes`` / ``render_fps`` metadata of a pool of ``spec``: the
    modes the env can draw ("human" and "rgb_array" for the envs that draw frames, "ansi"
    for the toy-text grids, whatever ``render_mode`` the pool was made with, in gymnasium's
    order) and the fps of its videos."""
    frame = spec.native_spec.get("render")
    modes = ["rgb_array"] if frame is not None else []
    if renders_text(spec.task.native_module, spec.native_env):
        # (the toy-text grids: gymnasium's text and pictures both play at its 4 fps)
        return {"render_modes": ["human", "ansi", *modes] if modes else ["ansi"],
                "render_fps": TEXT_FPS}
    if frame is None:
        return {"render_modes": []}
    return {"render_modes": ["human", *modes], "render_fps": float(frame[2])}


class GymnasiumEnvPool(EnvPoolBase, gymnasium.vector.VectorEnv, gymnasium.Env):
    """A pool of ``num_envs`` native envs as a gymnasium vector env, with EnvPool's
    single-env ``observation_space`` / ``action_space``. As sail-sg EnvPool's pools, it
    is an instance of both ``gymnasium.vector.VectorEnv`` and ``gymnasium.Env`` (with
    ``len()``, which is how frameworks such as Tianshou tell it from one env).

    * ``reset(seed=..., options=...)`` and ``step(actions)`` follow gymnasium:
      ``reset(seed=s)`` reseeds env i with ``s + i`` (or ``s[i]`` for a list).
    * ``metadata["autoreset_mode"]`` says how done envs restart: NEXT_STEP
      (default, EnvPool's behaviour), SAME_STEP (the done step returns the
      reset observation, with ``info["final_obs"]`` and ``info["final_info"]``)
      or DISABLED (reset them with ``reset(options={"reset_mask": mask})``).
    * EnvPool's extras: ``send``/``recv``/``async_reset``, ``step(actions,
      env_id)`` and ``reset(env_id)`` on a subset, ``info["env_id"]``,
      ``info["elapsed_step"]``. In async mode (``batch_size < num_envs``) each
      call returns the first ``batch_size`` envs to finish.
    """

    def __init__(self, spec: EnvSpec) -> None:
        if spec.max_num_players:
            raise ValueError(f"{spec.id} is a multi-player env: a gymnasium vector env has one "
                             "row per env, its batches one per player. Use the dm flavour "
                             "(env_type='dm') or EnvPool's raw pool")
        EnvPoolBase.__init__(self, spec)
        self.observation_space = self.single_observation_space
        self.action_space = self.single_action_space
        self.autoreset_mode: AutoresetMode = spec.config.autoreset_mode
        self.metadata = {"autoreset_mode": self.autoreset_mode,
                         **render_metadata(spec)}
        # DISABLED mode: a partial reset returns every env's obs, so keep the last. (The
        # mode is the native pool's, fixed at construction; an enum comparison per recv
        # costs about 0.15 us, a tenth of the Python share of a small async round.)
        self._keeps_last = self.autoreset_mode == AutoresetMode.DISABLED
        self._last: tuple[Any, dict[str, Any]] | None = None
        #: ``reset(seed=s)`` (an int) seeds env i with ``s * seed_stride + i``: 1 by
        #: default (gymnasium's ``s + i``); a framework that hands consecutive ints to
        #: its workers' pools (RLlib's runners) sets it to ``num_envs`` so that the
        #: pools get disjoint seed blocks.
        self.seed_stride: int = 1

    def reset(
        self,
        env_id: Any = None,
        *,
        seed: int | list[int] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Any, dict[str, Any]]:
        """Resets every env (or ``env_id``, or ``options["reset_mask"]``); ``seed``
        reseeds them first (int: env i gets ``seed + i``)."""
        options = dict(options or {})
        mask = options.pop("reset_mask", None)
        if options:
            raise ValueError(f"unknown reset option(s) {', '.join(map(repr, options))}; "
                             "envpool takes reset_mask only (set keywords at make time)")
        if self.seed_stride != 1 and isinstance(seed, (int, np.integer)):
            seed = [int(seed) * self.seed_stride + int(i) for i in self._all_ids64]
            if env_id is not None:
                seed = [seed[int(i)] for i in np.asarray(env_id).reshape(-1)]
        if mask is not None:
            if env_id is not None:
                raise ValueError("pass either env_id or options['reset_mask'], not both")
            return self._reset_masked(np.asarray(mask), seed)
        raw = self.reset_raw(env_id, seed)
        return self._remember(raw.obs, self.info(raw), raw.env_id)

    def _reset_masked(self, mask: np.ndarray, seed: Any) -> tuple[Any, dict[str, Any]]:
        if mask.dtype != np.bool_ or mask.shape != (self.num_envs,):
            raise ValueError(f"reset_mask must be a bool array of shape ({self.num_envs},)")
        if self.is_async:
            raise ValueError("reset_mask needs sync mode (batch_size == num_envs)")
        if self._last is None and not mask.all():
            raise ValueError("the first reset must reset every env")
        if not mask.any():
            return _tree_copy(self._last[0]), _tree_copy(self._last[1])
        ids = self._all_ids64[mask]
        if seed is not None and not isinstance(seed, (int, np.integer)):
            seed = [s for s, m in zip(seed, mask, strict=True) if m]  # one seed per env
        raw = self.reset_raw(ids, seed)
        self._remember(raw.obs, self.info(raw), raw.env_id)
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
        raw = self.recv_raw(timeout)
        info = self.info(raw)
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

    # -- DISABLED mode bookkeeping -------------------------------------------
    def _remember(
        self, obs: Any, info: dict[str, Any], env_id: np.ndarray
    ) -> tuple[Any, dict[str, Any]]:
        """DISABLED mode: keeps every env's latest obs and info (rows by env id)."""
        if not self._keeps_last:
            return obs, info
        if len(env_id) == self.num_envs and (env_id == self.all_env_ids).all():
            self._last = (_tree_copy(obs), _tree_copy(info))
        else:
            self._last = (_tree_assign(self._last[0], env_id, obs),
                          _tree_assign(self._last[1], env_id, info))
        return obs, info


class GymnasiumVectorEnv(GymnasiumEnvPool):
    """The strict gymnasium vector env (``gymnasium.make_vec("envpool/<id>")``).

    The same pool and behaviour as :class:`GymnasiumEnvPool`, with gymnasium's space
    contract: ``observation_space`` / ``action_space`` are the single-env spaces
    batched over ``num_envs`` rows. Sync mode only: a gymnasium vector env steps
    every env on each call (for async batches use ``envpool.make``). Stepping an env
    before its first reset raises gymnasium's ``ResetNeeded``.
    """

    first_step_resets = False

    def __init__(self, spec: EnvSpec) -> None:
        if spec.config.batch_size != spec.config.num_envs:
            raise ValueError("a gymnasium vector env steps every env: batch_size must equal "
                             "num_envs (use envpool.make(...) for async batches)")
        super().__init__(spec)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    def render(self, env_ids: Any = None,  # type: ignore[override]
               camera_id: int | None = None) -> tuple[Any, ...]:
        """gymnasium's vector ``render()``: a tuple of one ``(H, W, 3)`` uint8 frame (or ansi
        text) per env
        (every env when ``env_ids`` is None, not EnvPool's ``render_env_id``), views of
        one batch drawn by the workers; see :meth:`EnvPoolBase.render`. With
        ``render_mode="human"``: env ``render_env_id``'s frame (or the one env of
        ``env_ids``) shown in a window, and None."""
        if self.render_mode == "human":
            return super().render(env_ids, camera_id)  # type: ignore[return-value]
        return tuple(super().render(self.all_env_ids if env_ids is None else env_ids,
                                    camera_id))

    def recv(
        self, timeout: float | None = None
    ) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """As :meth:`GymnasiumEnvPool.recv`, in the layout of gymnasium's own vector
        envs: float64 rewards (the pool's float32 rewards, widened), and in same-step
        mode ``final_obs`` / ``final_info`` present only on steps where an env
        finished, ``final_obs`` an object array (None for envs that did not), and
        ``final_info`` values zero for envs that did not finish."""
        obs, reward, terminated, truncated, info = super().recv(timeout)
        reward = reward.astype(np.float64)
        if "final_obs" in info:
            done = info["_final_obs"]
            if not done.any():
                for key in ("final_obs", "_final_obs", "final_info", "_final_info"):
                    del info[key]
            else:
                rows = np.full(self.num_envs, None, dtype=object)
                for i in np.flatnonzero(done):
                    rows[i] = obs_row(info["final_obs"], i)
                info["final_obs"] = rows
                info["final_info"] = {k: v if k.startswith("_") else _zero_unless(v, done)
                                      for k, v in info["final_info"].items()}
        return obs, reward, terminated, truncated, info


def _zero_unless(values: np.ndarray, rows: np.ndarray) -> np.ndarray:
    out = np.zeros_like(values)
    out[rows] = values[rows]
    return out


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

