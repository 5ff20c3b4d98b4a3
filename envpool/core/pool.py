"""The one Python pool that every flavour and adapter shares.

Data path: ``send`` hands the actions to the native pool (one C++ call that
checks and queues them); worker threads step the envs and write the results
into a preallocated batch; ``recv`` wraps that batch's arrays in numpy
without copying. An array keeps its batch alive, so results stay valid as
long as they are held; the pool reuses a batch only once nothing holds it.

What lives here, once: the native pool, EnvPool's attributes (``spec``,
``config``, ``num_envs``, ``all_env_ids``, ``is_async``, the single-env
spaces), ``send`` / ``recv`` / ``async_reset``, resets with seeds (sync,
async, a subset of envs), and EnvPool's info dict. A flavour (gymnasium,
gym, dm) only converts a :class:`RawBatch` into its own return values.
"""

from __future__ import annotations

import types
import warnings
from typing import Any, NamedTuple

import gymnasium
import numpy as np

from envpool.core import spaces as envpool_spaces
from envpool.core.human_window import HumanWindow
from envpool.core.per_env import info_column
from envpool.core.spec import EnvSpec, expand_seeds
from envpool.core.text_render import TextRenderer


class ActionDtypeError(TypeError, RuntimeError):
    """An action dict (sail-sg EnvPool's form) whose arrays are not of the spec's dtypes.

    A TypeError, and a RuntimeError as EnvPool raises there."""


# A native info array of this name is the dm flavour's discount (sail-sg EnvPool's state
# "discount": the Atari envs' zero_discount_on_life_loss), not an info key.
DISCOUNT = "discount"


class RawBatch(NamedTuple):
    """One native batch, as numpy views."""

    obs: Any  # an array, a tuple of arrays or a dict of arrays (the obs layout)
    info: dict[str, np.ndarray]  # env-specific info arrays
    env_id: np.ndarray
    reward: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    elapsed_step: np.ndarray
    final_obs: Any  # same-step autoreset only, else None
    final_info: dict[str, np.ndarray] | None
    discount: np.ndarray | None = None  # the env's own discount (DISCOUNT), if it has one
    # Multi-player envs (spec.max_num_players > 0): the players of each row, and the env
    # of each player. Per-player arrays (observations, info keys, reward) then hold the
    # rows' players one after the other (sail-sg EnvPool's layout), not one row per env.
    num_players: np.ndarray | None = None
    players_env_id: np.ndarray | None = None


def _flatten(tree: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """A nested dict's leaves by their dotted paths (``{"players": {"id": x}}`` ->
    ``{"players.id": x}``), as EnvPool flattens action dicts."""
    out: dict[str, Any] = {}
    for key, value in tree.items():
        if isinstance(value, dict):
            out.update(_flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def obs_row(obs: Any, i: int) -> Any:
    """A copy of env row ``i`` of a batched observation (an array, a dict or a tuple)."""
    if isinstance(obs, dict):
        return {k: obs_row(v, i) for k, v in obs.items()}
    if isinstance(obs, tuple):
        return tuple(obs_row(v, i) for v in obs)
    return np.array(obs[i], copy=True)


class EnvPoolBase:
    """The native pool plus EnvPool's call surface (send/recv/async_reset/reset/step).

    Attributes follow sail-sg EnvPool: ``observation_space`` / ``action_space`` (set by
    the flavour) and ``single_observation_space`` / ``single_action_space`` describe
    ONE env; ``num_envs`` is the number of envs in the pool (also in async mode, where
    each batch has ``config["batch_size"]`` rows); ``is_vector_env`` is True.
    """

    is_vector_env = True
    #: A step of an env that was never reset: True resets it instead (its action ignored;
    #: the step returns the reset, as sail-sg EnvPool does), False raises gymnasium's
    #: ``ResetNeeded`` (the strict gymnasium envs). docs/api.md, "Stepping before reset".
    first_step_resets = True

    def __init__(self, spec: EnvSpec, first_step_resets: bool | None = None) -> None:
        self.spec = spec
        if first_step_resets is not None:
            self.first_step_resets = first_step_resets
        config = spec.config
        self._pool = spec.task.native_module.Pool(
            spec.native_env,
            spec.env_config,
            num_envs=config.num_envs,
            batch_size=config.batch_size,
            num_threads=config.num_threads,
            max_episode_steps=config.max_episode_steps,
            autoreset_mode=spec.native_autoreset(),
            seeds=spec.seeds,
            thread_affinity_offset=config.thread_affinity_offset,
            env_configs=spec.native_env_configs,
            ranges=spec.native_ranges,
            first_step_resets=self.first_step_resets,
            factory=spec.native_factory,
        )
        self._reset_needed: type[Exception] = spec.task.native_module.ResetNeeded
        self.config: dict[str, Any] = config._asdict()
        self.num_envs: int = config.num_envs
        self.single_observation_space = spec.observation_space
        self.single_action_space = spec.action_space
        self.all_env_ids = np.arange(config.num_envs, dtype=np.int32)
        #: "rgb_array" (the pool draws frames), "human" (and shows them in a window) or
        #: "ansi" (text) when made with it, else None.
        self.render_mode: str | None = config.render_mode
        self._window: HumanWindow | None = None
        if config.render_mode == "human":
            frame = spec.render_frame
            self._window = HumanWindow(spec.id, None if frame is None else frame[2])
        self._text: TextRenderer | None = None
        if config.render_mode == "ansi":
            self._text = TextRenderer(spec.native_env, config, config.num_envs)
        self.is_async = config.batch_size < config.num_envs
        self._all_ids64 = self.all_env_ids.astype(np.int64)
        self._last_env_id: np.ndarray | None = None
        native = spec.native_spec
        self._obs_layout = native["obs_layout"]
        self._obs_names = [o["name"] for o in native["obs"]]
        self._info_names = [i["name"] for i in native["info"]]
        # The env's own info keys: what an adapter passes on to a framework as the
        # env's info, as the reference env would report it (not elapsed_step nor
        # the pool's bookkeeping: env_id, players, final_obs, final_info).
        self.info_keys: tuple[str, ...] = tuple(n for n in self._info_names if n != DISCOUNT)
        #: Multi-player envs: the most players an env has (0: a single-player env).
        self.max_num_players: int = spec.max_num_players
        self._per_player = ([bool(a.get("per_player")) for a in native["obs"]],
                            [bool(a.get("per_player")) for a in native["info"]])
        self._action_keys = list(spec.action_array_spec)
        # the players.env_id of the last batch (_from infers a multi-player action's from it)
        self._last_players_env_id: np.ndarray | None = None
        action = native["action"]
        self._action_dtype = np.dtype(action["dtype"])
        self._discrete = action["n"] > 0
        self._seed_next_reset: Any = None  # seed(): the seed of the next reset of every env
        # info["env_kwargs"] (opt-in): each env's value of every keyword that varies,
        # indexed by env id; drawn values (envpool.Uniform) are read at each batch.
        self._env_kwargs_info: dict[str, np.ndarray] | None = None
        self._drawn: dict[int, list[str]] = {}
        # The task's own methods (a goal env's compute_reward), bound to this pool.
        for name, method in spec.task.pool_methods.items():
            setattr(self, name, types.MethodType(method, self))
        if config.info_env_kwargs:
            self._env_kwargs_info = {k: info_column([c[k] for c in spec.env_configs])
                                     for k in spec.env_kwargs_keys}
            self._drawn = {i: [r[0] for r in ranges]
                           for i, ranges in enumerate(spec.native_ranges) if ranges}

    # -- the native calls -------------------------------------------------
    def _ids(self, env_id: Any) -> np.ndarray:
        if env_id is self._last_env_id and env_id is not None:
            return env_id  # the ids the last recv returned (async mode): checked already
        if env_id is None:
            if not self.is_async:
                return self._all_ids64
            if self._last_env_id is None:
                raise ValueError("in async mode, pass env_id (the ids recv() returned)")
            return self._last_env_id
        ids = np.asarray(env_id)
        if ids.ndim == 0:
            ids = ids.reshape(1)
        if ids.dtype.kind not in "iu":
            raise TypeError(f"env_id must be integers, got {ids.dtype}")
        return ids

    def send(self, action: Any, env_id: Any = None) -> None:
        """Queues one step of the envs ``env_id`` and returns without waiting for it.

        The worker threads step the envs while Python goes on; ``recv`` returns the
        results. The same in every flavour (gymnasium, gym, dm). ``step(actions,
        env_id)`` is ``send`` then ``recv``.

        Args:
            action: The actions, one row per env of ``env_id`` (integers for a discrete
                action space; floats are taken where every value is a whole number, as
                EnvPool casts them); or sail-sg EnvPool's dict ``{"env_id": ...,
                "players.env_id": ..., "action": ...}`` whose arrays have the dtypes of
                ``spec.action_array_spec`` (int32 ids). A multi-player env takes
                EnvPool's dict of its action arrays.
            env_id: The ids of the envs to step (integers): by default every env in sync
                mode, and in async mode the envs that the last ``recv`` returned.

        Raises:
            ValueError: an action outside the action space or of the wrong shape, an env
                id out of range or already in flight, no ``env_id`` in async mode before
                the first ``recv``, or an action dict with other keys.
            TypeError: env ids that are not integers, discrete actions that are not
                whole numbers, or an action dict whose arrays have other dtypes.
            RuntimeError: the pool is closed.
            gymnasium.error.ResetNeeded: an env of a pool that does not reset on its
                first step (``gymnasium.make_vec``) is stepped before its first reset.

        Examples:
            >>> import envpool
            >>> import numpy as np
            >>> env = envpool.make("CartPole-v1", num_envs=4, batch_size=2, seed=0)
            >>> env.async_reset()
            >>> obs, reward, terminated, truncated, info = env.recv()
            >>> env.send(np.zeros(2, dtype=np.int64), info["env_id"])
            >>> obs, reward, terminated, truncated, info = env.recv()
            >>> obs.shape
            (2, 4)
            >>> env.close()
        """
        if self.max_num_players:
            own_ids = isinstance(action, dict) and "env_id" in action
            default = env_id is None and (own_ids or not self.is_async)
            self._send_players(self._from(action, None if default else self._ids(env_id)))
            return
        if isinstance(action, dict):
            action, env_id = self._action_dict(action, env_id)
        action, ids = np.asarray(action), self._ids(env_id)
        if self._discrete and action.dtype.kind == "f":
            if not (np.isfinite(action).all() and (np.trunc(action) == action).all()):
                raise TypeError(f"discrete actions must be integers, got {action.dtype} "
                                "values that are not all whole numbers")
            if action.size and np.abs(action).max() >= 2.0**62:  # (int64 holds them all)
                raise ValueError(f"discrete actions out of range: {action.tolist()}")
            action = action.astype(np.int64)
        try:
            self._pool.send(action, ids)
        except self._reset_needed as error:
            raise gymnasium.error.ResetNeeded(str(error)) from None
        if self._text is not None:
            self._text.sent(ids, action)

    def _from(self, action: Any, env_id: np.ndarray | None = None) -> list[np.ndarray]:
        """sail-sg EnvPool's ``_from``: ``action`` (an array of the env's action, or a dict
        of action arrays, possibly nested: ``{"players": {"id": ...}}`` is
        ``"players.id"``) as the list of arrays of ``spec.action_array_spec``, in its order.
        ``env_id`` defaults to the dict's, else to every env. A multi-player action
        without ``players.env_id`` gets it: each env's own id where there is one player
        action per env; the last batch's ``players.env_id`` for those envs where the
        counts match; else an equal share of the player actions per env, in order;
        else a RuntimeError (pass ``players.env_id``)."""
        if isinstance(action, dict):
            flat = _flatten(action)
        else:
            flat = {self._action_keys[2]: np.asarray(action)}
        if env_id is not None:
            flat["env_id"] = np.asarray(env_id).astype(np.int32)
        elif "env_id" not in flat:
            flat["env_id"] = self.all_env_ids
        if "players.env_id" not in flat:
            flat["players.env_id"] = self._infer_players_env_id(flat)
        missing = [k for k in self._action_keys if k not in flat]
        extra = sorted(set(flat) - set(self._action_keys))
        if missing or extra:
            raise ValueError(f"the action arrays are {self._action_keys} (spec.action_array_"
                             f"spec); missing {missing}, unknown {extra}")
        return [flat[k] for k in self._action_keys]

    def _infer_players_env_id(self, flat: dict[str, Any]) -> np.ndarray:
        env_id = np.asarray(flat["env_id"]).astype(np.int32).reshape(-1)
        if not self.max_num_players:
            return env_id
        counts = {np.shape(flat[k])[0] if np.ndim(flat[k]) else 1
                  for k in self._action_keys[3:] if k in flat}
        if len(counts) > 1:
            raise RuntimeError("the player action arrays have different numbers of rows")
        count = counts.pop() if counts else env_id.shape[0]
        if count == env_id.shape[0]:
            return env_id
        cached = self._last_players_env_id
        if cached is not None:
            cached = np.asarray(cached, dtype=np.int32)
            guess = np.concatenate([cached[cached == e] for e in env_id.tolist()] or
                                   [np.empty(0, np.int32)])
            if guess.shape[0] == count and all((cached == e).any() for e in env_id.tolist()):
                return guess
        if env_id.shape[0] == 0 or count % env_id.shape[0]:
            raise RuntimeError("Cannot infer players.env_id for multiplayer action: "
                               f"{count} player actions for {env_id.shape[0]} envs; pass "
                               "a dict action with explicit players.env_id")
        share = count // env_id.shape[0]
        if share > self.max_num_players:
            raise RuntimeError("Cannot infer players.env_id for multiplayer action: "
                               f"{share} players per env, more than max_num_players "
                               f"({self.max_num_players}); pass players.env_id")
        return np.repeat(env_id, share).astype(np.int32)

    def _send_players(self, arrays: list[np.ndarray]) -> None:
        """Sends a multi-player env's action arrays (``_from``'s list)."""
        env_id, players_env_id, action, *players = (np.asarray(a) for a in arrays)
        if env_id.dtype.kind not in "iu" or players_env_id.dtype.kind not in "iu":
            raise TypeError("env_id and players.env_id must be integers")
        ids = env_id.reshape(-1)
        try:
            self._pool.send_players(action, ids, players_env_id.reshape(-1),
                                    [p.reshape(-1, *p.shape[1:]) for p in players])
        except self._reset_needed as error:
            raise gymnasium.error.ResetNeeded(str(error)) from None

    def _action_dict(self, action: dict[str, Any], env_id: Any) -> tuple[np.ndarray, Any]:
        """sail-sg EnvPool's action dict: the actions and their env ids, checked."""
        keys = {"env_id", "players.env_id", "action"}
        if set(action) != keys:
            raise ValueError(f"an action dict has the keys {sorted(keys)} (EnvPool's "
                             f"action_array_spec), got {sorted(action)}")
        if env_id is not None:
            raise ValueError("an action dict carries its env_id: pass no env_id beside it")
        arrays = {k: np.asarray(v) for k, v in action.items()}
        want = {"env_id": np.dtype(np.int32), "players.env_id": np.dtype(np.int32),
                "action": self._action_dtype}
        wrong = [f"{k} is {arrays[k].dtype}, not {want[k]}" for k in sorted(keys)
                 if arrays[k].dtype != want[k]]
        if wrong:
            raise ActionDtypeError("the action dict's arrays must have the dtypes of "
                                   f"spec.action_array_spec: {'; '.join(wrong)}")
        if not np.array_equal(arrays["env_id"], arrays["players.env_id"]):
            raise ValueError("players.env_id must equal env_id (these envs have one player)")
        return arrays["action"], arrays["env_id"]

    def xla(self) -> Any:
        """Gives sail-sg EnvPool's XLA interface: functions that step this pool in ``jax.jit``.

        ``recv`` and ``send`` are jax custom calls into the pool's own recv and send,
        so a jitted function (a ``lax.scan`` of a whole rollout) steps the envs without
        leaving XLA. The handlers are compiled at a process's first ``xla()`` (with
        ``$CXX`` or the compiler Python was built with) and cached.

        Returns:
            The tuple ``(handle, recv, send, step)``. ``handle`` is an 8-byte uint8
            array to pass to each call and replace by the one it returns (that orders
            the calls). ``recv(handle)`` waits for the next batch and returns ``(handle,
            result)``, where ``result`` is what the flavour's ``recv`` returns, as jax
            arrays with ``batch_size`` rows: ``(obs, reward, terminated, truncated,
            info)`` in the gymnasium and gym flavours (``info`` holds ``env_id``,
            ``players``, ``elapsed_step`` and the env's info arrays), a
            ``dm_env.TimeStep`` in the dm flavour. ``send(handle, action, env_id=None)``
            queues a step and returns the handle; ``step(handle, action, env_id=None)``
            is ``recv(send(...))``.

        Raises:
            ImportError: jax 0.5 or newer is not installed.
            RuntimeError: the pool is closed, the env has players or container
                observations (their shapes change from batch to batch), or no C++
                compiler is found to build the handlers.
            ValueError: the pool was made with ``autoreset_mode="same_step"``.
            TypeError: the env has 64-bit arrays and ``jax_enable_x64`` is off.

        Examples:
            >>> import envpool
            >>> import numpy as np
            >>> env = envpool.make("CartPole-v1", num_envs=4, seed=0)
            >>> handle, recv, send, step = env.xla()
            >>> env.async_reset()
            >>> handle, (obs, reward, terminated, truncated, info) = recv(handle)
            >>> action = np.zeros(4, dtype=np.int32)
            >>> handle, (obs, reward, terminated, truncated, info) = step(handle, action)
            >>> obs.shape, reward.dtype
            ((4, 4), dtype('float32'))
            >>> env.close()
        """
        from envpool.core.xla import make_xla

        return make_xla(self)

    def seed(self, seed: Any = None) -> None:
        """Deprecated (sail-sg EnvPool warns too): pass ``seed`` to ``make`` or to
        ``reset``. Here ``seed`` (int or one per env) reseeds every env at the next reset
        that is given no seed of its own; ``None`` changes nothing."""
        warnings.warn("seed() is deprecated: pass seed= to make() or to reset(); the seed "
                      "given here applies at the next reset", UserWarning, stacklevel=2)
        if seed is not None:
            expand_seeds(seed, self._all_ids64)  # checks it now
            self._seed_next_reset = seed

    def recv_raw(self, timeout: float | None = None) -> RawBatch:
        """The next finished batch, as numpy views (``timeout`` in seconds; Ctrl-C
        interrupts the wait)."""
        (obs, info, env_id, reward, terminated, truncated, elapsed, final_obs, final_info,
         final_elapsed, num_players) = self._pool.recv(-1.0 if timeout is None
                                                       else float(timeout))
        if self.is_async:
            self._last_env_id = env_id
        if self._text is not None:
            self._text.reset(env_id[elapsed == 0])
        fobs = finfo = None
        if final_obs is not None:
            fobs = self._layout(final_obs)
            finfo = dict(zip(self._info_names, final_info, strict=True))
            finfo.pop(DISCOUNT, None)
            finfo["elapsed_step"] = final_elapsed
        players_env_id = None
        if num_players is not None:  # the written players of each row, one after the other
            mask = np.arange(self.max_num_players) < num_players[:, None]
            obs = [a[mask] if p else a for a, p in zip(obs, self._per_player[0], strict=True)]
            info = [a[mask] if p else a for a, p in zip(info, self._per_player[1], strict=True)]
            players_env_id = np.repeat(env_id, num_players)
            self._last_players_env_id = players_env_id
        infos = dict(zip(self._info_names, info, strict=True)) if info else {}
        discount = infos.pop(DISCOUNT, None)
        if num_players is not None:  # the players' own rewards, or the env's for each
            reward = infos.pop("reward") if "reward" in infos else np.repeat(reward, num_players)
        return RawBatch(obs[0] if self._obs_layout == "array" else self._layout(obs),
                        infos, env_id, reward, terminated, truncated, elapsed, fobs, finfo,
                        discount, num_players, players_env_id)

    def send_reset(self, env_id: Any = None, seed: Any = None) -> None:
        """Queues a reset of ``env_id`` (default: every env), reseeding them first when
        ``seed`` is given (see :func:`expand_seeds`); ``recv`` returns the results."""
        ids = self._all_ids64 if env_id is None else self._ids(env_id)
        if seed is None and env_id is None and self._seed_next_reset is not None:
            seed, self._seed_next_reset = self._seed_next_reset, None
        self._pool.send_reset(ids, None if seed is None else expand_seeds(seed, ids))

    def async_reset(self, seed: Any = None) -> None:
        """Queues a reset of every env and returns without waiting; ``recv`` returns them.

        sail-sg EnvPool's way to start a send/recv loop, in every flavour. In async mode
        (``batch_size < num_envs``) each ``recv`` returns the first ``batch_size`` envs
        to finish, and ``send`` takes the ids they came with.

        Args:
            seed: Reseeds the envs first: an int (env i gets ``seed + i``) or one int per
                env; None keeps each env's random generator going.

        Raises:
            ValueError: an env is still in flight, or a list of seeds of the wrong length.
            TypeError: ``seed`` is not an int, a list of ints or None.
            RuntimeError: the pool is closed.

        Examples:
            >>> import envpool
            >>> env = envpool.make("CartPole-v1", num_envs=4, batch_size=2, seed=0)
            >>> env.async_reset()
            >>> obs, reward, terminated, truncated, info = env.recv()
            >>> obs.shape, info["elapsed_step"]
            ((2, 4), array([0, 0], dtype=int32))
            >>> env.close()
        """
        self.send_reset(None, seed)

    def reset_raw(self, env_id: Any = None, seed: Any = None) -> RawBatch:
        """Resets ``env_id`` (default: every env) and returns the first batch of results:
        all of them in sync mode, the first ``batch_size`` envs to finish in async mode
        (the others stay in flight, as after ``async_reset``)."""
        self.send_reset(env_id, seed)
        return self.recv_raw()

    # -- rendering -----------------------------------------------------------
    def render(self, env_ids: Any = None,
               camera_id: int | None = None) -> np.ndarray | list[str] | None:
        """Draws the current frames of some envs (EnvPool's ``render``).

        The pool must be made with a ``render_mode``. The worker threads draw the
        frames; envs in flight (sent and not yet received) cannot be drawn. The same
        in the gymnasium, gym and dm flavours; ``gymnasium.make_vec`` pools return a
        tuple instead (``GymnasiumVectorEnv.render``).

        Args:
            env_ids: The envs to draw: an int or a sequence of ints. None draws env
                ``render_env_id`` (a make keyword, default 0) alone.
            camera_id: The camera of the envs that have several (MuJoCo); None is the
                make keyword ``render_camera_id`` (default -1, the env's own view).

        Returns:
            With ``render_mode="rgb_array"``, a ``(len(env_ids), H, W, 3)`` uint8 array
            of ``render_height`` x ``render_width`` frames (0: the env's own size): a
            view of the pool's frame buffer, valid as long as it is held. With
            ``render_mode="ansi"`` (toy-text grids), a list of gymnasium's text, one per
            env. With ``render_mode="human"``, None: one env's frame is shown in a
            window.

        Raises:
            RuntimeError: the pool was made without ``render_mode``, or is closed.
            ValueError: an env id out of range, listed twice or in flight, or more than
                one env with ``render_mode="human"``.
            TypeError: env ids or ``camera_id`` that are not integers.

        Examples:
            >>> import envpool
            >>> env = envpool.make("CartPole-v1", num_envs=2, render_mode="rgb_array")
            >>> _ = env.reset()
            >>> env.render().shape
            (1, 400, 600, 3)
            >>> env.render(env_ids=[0, 1]).dtype
            dtype('uint8')
            >>> env.close()
        """
        if self.render_mode is None:
            raise RuntimeError(f"{self.spec.id} was made without render_mode: pass "
                               "render_mode='rgb_array' to make() to render")
        if self._text is not None:
            return self.render_text(env_ids)
        if env_ids is None:
            ids = np.array([self.config["render_env_id"]], dtype=np.int64)
        else:
            ids = np.asarray(env_ids)
            if ids.ndim == 0:
                ids = ids.reshape(1)
            if ids.dtype.kind not in "iu":
                raise TypeError(f"env_ids must be integers, got {ids.dtype}")
        camera = self.config["render_camera_id"] if camera_id is None else camera_id
        if not isinstance(camera, (int, np.integer)) or isinstance(camera, (bool, np.bool_)):
            raise TypeError(f"camera_id must be an int, got {camera!r}")
        if self._window is not None and len(ids) != 1:
            raise ValueError(f"render_mode='human' shows one env: env_ids must name one, got "
                             f"{len(ids)}")
        try:
            frames = self._pool.render(ids, self.config["render_width"],
                                       self.config["render_height"], int(camera))
        except ValueError as error:
            raise ValueError(f"{self.spec.id}: {error}") from None
        if self._window is None:
            return frames
        self._show_human_frame(frames[0])
        return None

    def _show_human_frame(self, frame: np.ndarray) -> None:
        """Shows one ``(H, W, 3)`` frame in the pool's window (``render_mode="human"``;
        EnvPool's name for this hook, which its tests replace)."""
        assert self._window is not None
        self._window.show(frame)

    def render_text(self, env_ids: Any = None) -> list[str]:
        """``render_mode="ansi"``: gymnasium's ansi text of each env of ``env_ids`` (None:
        env ``render_env_id``), in the order given. Envs in flight cannot be drawn."""
        if self._text is None:
            raise RuntimeError(f"{self.spec.id} was not made with render_mode='ansi'")
        ids = [self.config["render_env_id"]] if env_ids is None else (
            np.asarray(env_ids).reshape(-1).tolist())
        if not all(isinstance(i, int) for i in ids):
            raise TypeError(f"env_ids must be integers, got {env_ids!r}")
        return [self._text.text(i, self._pool.get_state(i)) for i in ids]

    @property
    def render_fps(self) -> float | None:
        """Frames per second of a video of successive steps (None without render_mode)."""
        frame = self.spec.render_frame
        return None if frame is None else frame[2]

    # -- state access (for alignment with reference implementations) -----
    def get_state(self, env_id: int) -> list[float]:
        """The full internal state of one env that is not in flight."""
        return self._pool.get_state(int(env_id))

    def set_state(self, env_id: int, state: Any) -> None:
        """Sets the internal state of one env that is not in flight."""
        self._pool.set_state(int(env_id), [float(s) for s in state])

    # -- life cycle --------------------------------------------------------
    def close(self, **kwargs: Any) -> None:
        """Stops the worker threads and frees the envs (and closes the human window).

        The same in every flavour. Closing twice does nothing; any other call on a
        closed pool raises ``RuntimeError``. A pool is also a context manager that
        closes on exit.

        Args:
            **kwargs: Not used (gymnasium's ``VectorEnv.close`` takes keywords).

        Examples:
            >>> import envpool
            >>> env = envpool.make("CartPole-v1", num_envs=2)
            >>> env.close()
            >>> env.closed
            True
            >>> with envpool.make("CartPole-v1", num_envs=2) as env:
            ...     obs, info = env.reset()
        """
        if self._window is not None:
            self._window.close()
        self._pool.close()

    @property
    def closed(self) -> bool:  # noqa: D102
        return self._pool.closed

    @closed.setter
    def closed(self, value: bool) -> None:  # gymnasium's VectorEnv assigns it
        pass

    def __len__(self) -> int:
        return self.num_envs

    def __enter__(self) -> EnvPoolBase:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return (f"{type(self).__name__}({self.spec.id!r}, num_envs={self.num_envs}, "
                f"batch_size={self.config['batch_size']})")

    # -- helpers -------------------------------------------------------------
    def _layout(self, arrays: list[np.ndarray]) -> Any:
        if self._obs_layout == "array":
            return arrays[0]
        if self._obs_layout == "tuple":
            return tuple(arrays)
        return envpool_spaces.nest(self._obs_names, arrays)

    def info(self, raw: RawBatch) -> dict[str, Any]:
        """EnvPool's info dict of a batch: env_id, players.env_id, elapsed_step, env keys."""
        info: dict[str, Any] = {
            "env_id": raw.env_id,
            "players": {"env_id": raw.env_id if raw.players_env_id is None
                        else raw.players_env_id},
            "elapsed_step": raw.elapsed_step,
        }
        for key, value in raw.info.items():  # a multi-player env's "players.id", ...
            if key.startswith("players."):
                info["players"][key[len("players."):]] = value
            else:
                info[key] = value
        if self._env_kwargs_info is not None:
            info["env_kwargs"] = self._env_kwargs(raw.env_id)
        return info

    def _env_kwargs(self, env_id: np.ndarray) -> dict[str, np.ndarray]:
        assert self._env_kwargs_info is not None
        values = {k: v[env_id] for k, v in self._env_kwargs_info.items()}
        if self._drawn:
            for row, env in enumerate(env_id.tolist()):
                keys = self._drawn.get(env)
                if keys:
                    for key, value in zip(keys, self._pool.drawn(env), strict=True):
                        values[key][row] = value
        return values
