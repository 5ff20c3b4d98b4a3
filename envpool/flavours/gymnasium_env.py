"""The gymnasium flavour: a ``gymnasium.vector.VectorEnv`` over the pool.

Two classes, one behaviour:

* :class:`GymnasiumEnvPool` (``envpool.make_gymnasium``, ``envpool.make(...,
  env_type="gymnasium")``) keeps sail-sg EnvPool's space contract:
  ``observation_space`` / ``action_space`` describe ONE env, beside
  ``single_observation_space`` / ``single_action_space``, ``num_envs`` and
  ``is_vector_env``, so EnvPool scripts and the frameworks' EnvPool paths run
  unchanged.
* :class:`~envpool.flavours.vector_env.GymnasiumVectorEnv`
  (``gymnasium.make_vec("envpool/<id>")``) is the strict gymnasium form: batched
  ``observation_space`` / ``action_space`` with ``num_envs`` rows, exactly as
  gymnasium's own vector envs define them.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode

from envpool.core import tree
from envpool.core.batch import RawBatch
from envpool.core.per_env import EnvKwargsInfo
from envpool.core.pool import EnvPoolBase
from envpool.core.seeds import masked_seeds, stride_seed
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

    #: Whether multi-player envs are taken: EnvPool's pools return their batches with one
    #: row per player (observations, rewards, ``info["players"]``) and one per env (flags,
    #: the env's info), as sail-sg EnvPool's ``make_gymnasium`` does for its PGX games; the
    #: strict gymnasium vector env (one row per env everywhere) refuses them.
    takes_players = True

    def __init__(self, spec: EnvSpec) -> None:
        if spec.max_num_players and not self.takes_players:
            raise ValueError(f"{spec.id} is a multi-player env: a gymnasium vector env has one "
                             "row per env, its batches one per player. Use envpool.make_"
                             "gymnasium, the dm flavour (env_type='dm') or EnvPool's raw pool")
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
        # info["env_kwargs"] (opt-in): each env's value of every keyword that varies.
        self._env_kwargs: EnvKwargsInfo | None = None
        if spec.config.info_env_kwargs:
            self._env_kwargs = EnvKwargsInfo(spec.env_configs, spec.env_kwargs_keys,
                                             spec.native_ranges)

    def reset(
        self,
        env_id: Any = None,
        *,
        seed: int | list[int] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Any, dict[str, Any]]:
        """Resets every env (or some) and returns their first observations.

        The gymnasium flavour's ``reset`` (``make``, ``make_gymnasium`` and
        ``gymnasium.make_vec``); the gym flavour's returns ``obs`` alone when made with
        ``gym_reset_return_info=False``.

        Args:
            env_id: The ids of the envs to reset (EnvPool's subset reset); None: every
                env.
            seed: Reseeds the envs first: an int gives env i the seed ``seed + i`` (the
                same as ``make(seed=seed)``), a list one seed per env reset; None keeps
                each env's random generator going.
            options: ``{"reset_mask": mask}``, a bool array of ``num_envs`` values, resets
                the envs where it is True (gymnasium's way with
                ``autoreset_mode="disabled"``, sync mode) and returns every env's latest
                observation. No other option is taken.

        Returns:
            The tuple ``(obs, info)``. ``obs`` has one row per env reset: all of them in
            sync mode, the first ``batch_size`` to finish in async mode (the others
            stay in flight for ``recv``); an array, or a dict or tuple of arrays for
            envs with several observations. ``info`` is a dict of arrays with a row per
            env: ``env_id`` (int32), ``elapsed_step`` (int32, 0 after a reset),
            ``players`` (``{"env_id": ...}``) and the env's own info keys.

        Raises:
            ValueError: an unknown option, both ``env_id`` and ``reset_mask``, a
                ``reset_mask`` of the wrong shape or dtype (or in async mode, or partial
                on the first reset), an env in flight, or a list of seeds of the wrong
                length.
            TypeError: ``seed`` is not an int, a list of ints or None.
            RuntimeError: the pool is closed.

        Examples:
            >>> import envpool
            >>> env = envpool.make_gymnasium("CartPole-v1", num_envs=3, seed=0)
            >>> obs, info = env.reset(seed=1)
            >>> obs.shape, info["env_id"], info["elapsed_step"]
            ((3, 4), array([0, 1, 2], dtype=int32), array([0, 0, 0], dtype=int32))
            >>> obs, info = env.reset(env_id=[2])
            >>> obs.shape
            (1, 4)
            >>> env.close()
        """
        options = dict(options or {})
        mask = options.pop("reset_mask", None)
        if options:
            raise ValueError(f"unknown reset option(s) {', '.join(map(repr, options))}; "
                             "envpool takes reset_mask only (set keywords at make time)")
        seed = stride_seed(seed, self.seed_stride)
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
            return tree.copy(self._last[0]), tree.copy(self._last[1])
        raw = self.reset_raw(self._all_ids64[mask], masked_seeds(seed, mask))
        self._remember(raw.obs, self.info(raw), raw.env_id)
        return tree.copy(self._last[0]), tree.copy(self._last[1])

    def step(
        self, actions: Any, env_id: Any = None
    ) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Steps the envs with ``actions`` and waits for the results: ``send``, then ``recv``.

        The gymnasium and gym flavours' ``step``. With the default next-step autoreset
        an env that finished restarts on its next step: that step returns its reset
        observation (``elapsed_step`` 0, reward 0) and ignores its action.

        Args:
            actions: One action per env of ``env_id``: an array with one row per env
                (integers for a discrete action space).
            env_id: The ids of the envs to step: by default every env in sync mode, and
                in async mode the envs that the last ``recv`` returned.

        Returns:
            The tuple ``(obs, reward, terminated, truncated, info)`` with one row per
            env of the batch: ``obs`` (an array, or a dict or tuple of arrays),
            ``reward`` (float32), ``terminated`` and ``truncated`` (bool, ``truncated``
            at the time limit), and ``info``, a dict of arrays: ``env_id`` (int32, the
            env of each row), ``elapsed_step``, ``players`` and the env's own info keys;
            with ``autoreset_mode="same_step"`` also ``final_obs`` and ``final_info``
            (the last observation and info of the envs that finished, whose ``obs``
            row is already the next episode's) with their masks ``_final_obs`` and
            ``_final_info``. In async mode the batch is the first ``batch_size`` envs
            to finish.

        Raises:
            ValueError: an action outside the action space or of the wrong shape, or an
                env id out of range or in flight.
            TypeError: env ids that are not integers, or discrete actions that are not
                whole numbers.
            RuntimeError: the pool is closed, or an env failed while stepping.

        Examples:
            >>> import envpool
            >>> import numpy as np
            >>> env = envpool.make_gymnasium("CartPole-v1", num_envs=3, seed=0)
            >>> obs, info = env.reset()
            >>> obs, reward, terminated, truncated, info = env.step(np.array([1, 0, 1]))
            >>> reward, terminated
            (array([1., 1., 1.], dtype=float32), array([False, False, False]))
            >>> sorted(info)
            ['elapsed_step', 'env_id', 'players']
            >>> env.close()
        """
        self.send(actions, env_id)
        return self.recv()

    def recv(
        self, reset: bool = False, return_info: bool = True, *, timeout: float | None = None
    ) -> Any:
        """Waits for the next batch of results of ``send`` or ``async_reset``.

        The gymnasium and gym flavours' ``recv``. In sync mode the batch holds every
        env; in async mode (``batch_size < num_envs``) the first ``batch_size`` envs to
        finish, whose ids are ``info["env_id"]``. Ctrl-C interrupts the wait.

        Args:
            reset: sail-sg EnvPool's flag: True returns the batch as ``reset`` does,
                ``(obs, info)`` (after ``async_reset``, say).
            return_info: With ``reset``: False returns ``obs`` alone (EnvPool's).
            timeout: The most seconds to wait; None waits as long as it takes.

        Returns:
            The tuple ``(obs, reward, terminated, truncated, info)``, as ``step``
            returns it: one row per env of the batch, float32 rewards, bool flags and
            ``info`` with ``env_id``, ``elapsed_step``, ``players`` and the env's own
            info keys (and ``final_obs`` / ``final_info`` with same-step autoreset).
            The arrays are views of the pool's batch, valid as long as they are held.
            With ``reset``: ``(obs, info)``, or ``obs`` without ``return_info``.

        Raises:
            RuntimeError: nothing is in flight (sync mode), fewer than ``batch_size``
                envs are in flight (async mode), the pool is closed, or an env failed.
            TimeoutError: no batch was ready within ``timeout`` seconds.
            TypeError: ``reset`` or ``return_info`` is not a bool.

        Examples:
            >>> import envpool
            >>> env = envpool.make_gymnasium("CartPole-v1", num_envs=4, batch_size=2)
            >>> env.async_reset()
            >>> obs, reward, terminated, truncated, info = env.recv(timeout=10)
            >>> obs.shape, info["env_id"].shape
            ((2, 4), (2,))
            >>> env.close()
        """
        reset, return_info = self._recv_flags(reset, return_info)
        raw = self.recv_raw(timeout)
        info = self.info(raw)
        if raw.final_obs is not None:
            done = raw.terminated | raw.truncated
            info["final_obs"] = raw.final_obs
            info["_final_obs"] = done
            info["final_info"] = {**raw.final_info, **{"_" + k: done for k in raw.final_info}}
            info["_final_info"] = done
        self._remember(raw.obs, info, raw.env_id)
        if reset:
            return (raw.obs, info) if return_info else raw.obs
        return raw.obs, raw.reward, raw.terminated, raw.truncated, info

    # -- DISABLED mode bookkeeping -------------------------------------------
    def _remember(
        self, obs: Any, info: dict[str, Any], env_id: np.ndarray
    ) -> tuple[Any, dict[str, Any]]:
        """DISABLED mode: keeps every env's latest obs and info (rows by env id)."""
        if not self._keeps_last:
            return obs, info
        if len(env_id) == self.num_envs and (env_id == self.all_env_ids).all():
            self._last = (tree.copy(obs), tree.copy(info))
        else:
            self._last = (tree.assign(self._last[0], env_id, obs),
                          tree.assign(self._last[1], env_id, info))
        return obs, info

    # -- the flavour's values of a batch -------------------------------------------
    def info(self, raw: RawBatch, env_kwargs: bool = True) -> dict[str, Any]:
        """The info dict of a batch (sail-sg EnvPool's): ``env_id``, ``players``
        (``{"env_id": ...}``), ``elapsed_step``, the env's own info keys, and (unless
        ``env_kwargs`` is False) ``env_kwargs`` when the pool was made with
        ``info_env_kwargs=True``."""
        info: dict[str, Any] = {
            "env_id": raw.env_id,
            "players": {"env_id": raw.env_id if raw.players_env_id is None
                        else raw.players_env_id},
            "elapsed_step": raw.elapsed_step,
        }
        if raw.info:
            info.update(raw.info)
            if self.max_num_players:  # players.id, ...: info["players"]["id"], as EnvPool's
                for key in [k for k in raw.info if k.startswith("players.")]:
                    info["players"][key[8:]] = info.pop(key)
        if env_kwargs and self._env_kwargs is not None:
            info["env_kwargs"] = self._env_kwargs.rows(raw.env_id, self._pool.drawn)
        return info

    def _result(self, raw: RawBatch, xp: Any = np) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """``xla()``'s result of a batch: ``(obs, reward, terminated, truncated, info)``."""
        return raw.obs, raw.reward, raw.terminated, raw.truncated, self.info(raw, False)
