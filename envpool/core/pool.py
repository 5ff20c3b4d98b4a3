"""The one Python pool that every flavour and adapter shares: :class:`EnvPoolBase`.

Data path: ``send`` hands the actions to the native pool (one C++ call that
checks and queues them); worker threads step the envs and write the results
into a preallocated batch; ``recv_raw`` wraps that batch's arrays in numpy
without copying (a :class:`~envpool.core.batch.RawBatch`). An array keeps its
batch alive, so results stay valid as long as they are held; the pool reuses a
batch only once nothing holds it. A flavour (envpool/flavours/) turns a RawBatch
into its own return values.

The pool is cut along its concerns: this module holds the native pool, the pool's
attributes, receiving, resets and seeds, state access and the life cycle;
:class:`~envpool.core.actions.PoolActions` is ``send`` (env ids, action dicts, the
players' actions), :class:`~envpool.core.render.PoolRendering` is ``render``, and
:class:`~envpool.core.xla.PoolXla` is ``xla``.
"""

from __future__ import annotations

import types
import warnings
from typing import Any

import numpy as np

from envpool.core.actions import PoolActions
from envpool.core.batch import RawBatch, layout_obs, split_info
from envpool.core.human_window import HumanWindow
from envpool.core.keywords import render_refusal
from envpool.core.render import PoolRendering
from envpool.core.seeds import expand_seeds
from envpool.core.spaces import env_action, info_arrays, players_act
from envpool.core.spec import EnvSpec
from envpool.core.stage_times import StageTimes, requested
from envpool.core.text_render import TextRenderer
from envpool.core.xla import PoolXla


class EnvPoolBase(PoolActions, PoolRendering, PoolXla):
    """The native pool plus its call surface (send/recv_raw/async_reset/render/xla/close).

    Attributes: ``observation_space`` / ``action_space`` (set by
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
        # The task's frames drawn in Python (TaskSpec.frames), made before the native pool
        # (a missing drawing package is refused before any worker starts).
        self._frames: Any = None
        if spec.task.frames is not None and spec.render_frame is not None:
            self._frames = spec.task.frames(spec.id, *spec.render_frame[:2])
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
            **({"stage_times": True} if requested() else {}),
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
        self._render_refusal: str | None = (
            str(render_refusal(spec.id, spec.task))
            if config.render_mode in ("rgb_array", "human") and spec.render_frame is None
            else None)
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
        self.info_keys: tuple[str, ...] = tuple(i["name"] for i in info_arrays(native))
        #: Multi-player envs: the most players an env has (0: a single-player env).
        self.max_num_players: int = spec.max_num_players
        self._per_player = ([bool(a.get("per_player")) for a in native["obs"]],
                            [bool(a.get("per_player")) for a in native["info"]])
        self._action_keys = list(spec.action_array_spec)
        # the players.env_id of the last batch (_from infers a multi-player action's from it)
        self._last_players_env_id: np.ndarray | None = None
        # whether the env has an action of its own (not where its players act: spaces.py)
        self._env_action = not players_act(native)
        action = env_action(native)
        self._action_dtype = np.dtype(action["dtype"])
        self._discrete = action["n"] > 0
        self._seed_next_reset: Any = None  # seed(): the seed of the next reset of every env
        # The task's own methods (a goal env's compute_reward), bound to this pool.
        for name, method in spec.task.pool_methods.items():
            setattr(self, name, types.MethodType(method, self))

    # -- receiving -------------------------------------------------------------
    @staticmethod
    def _recv_flags(reset: Any, return_info: Any) -> tuple[bool, bool]:
        """Checks sail-sg EnvPool's ``recv(reset, return_info)`` flags: both are bools.

        Raises:
            TypeError: a flag is not a bool (``recv(5.0)``: the wait limit is the
                keyword ``timeout``).
        """
        for name, flag in (("reset", reset), ("return_info", return_info)):
            if not isinstance(flag, (bool, np.bool_)):
                raise TypeError(
                    f"recv's {name} is a bool (sail-sg EnvPool's recv(reset=False, "
                    f"return_info=True)), got {flag!r}; the most seconds to wait is the "
                    "keyword: recv(timeout=...)")
        return bool(reset), bool(return_info)

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
            finfo = split_info(self._info_names, final_info)[0]
            finfo["elapsed_step"] = final_elapsed
        players_env_id = None
        if num_players is not None:  # the written players of each row, one after the other
            mask = np.arange(self.max_num_players) < num_players[:, None]
            obs = [a[mask] if p else a for a, p in zip(obs, self._per_player[0], strict=True)]
            info = [a[mask] if p else a for a, p in zip(info, self._per_player[1], strict=True)]
            players_env_id = np.repeat(env_id, num_players)
            self._last_players_env_id = players_env_id
        infos, discount = split_info(self._info_names, info)
        if num_players is not None:  # the players' own rewards, or the env's for each
            reward = infos.pop("reward") if "reward" in infos else np.repeat(reward, num_players)
        return RawBatch(obs[0] if self._obs_layout == "array" else self._layout(obs),
                        infos, env_id, reward, terminated, truncated, elapsed, fobs, finfo,
                        discount, num_players, players_env_id)

    def _layout(self, arrays: list[np.ndarray]) -> Any:
        """The observation arrays of a batch in the env's layout."""
        return layout_obs(self._obs_layout, self._obs_names, arrays)

    # -- resets and seeds --------------------------------------------------------
    def send_reset(self, env_id: Any = None, seed: Any = None) -> None:
        """Queues a reset of ``env_id`` (default: every env), reseeding them first when
        ``seed`` is given (see :func:`~envpool.core.seeds.expand_seeds`); ``recv`` returns
        the results."""
        ids = self._all_ids64 if env_id is None else self._ids(env_id)
        if seed is None and env_id is None and self._seed_next_reset is not None:
            seed, self._seed_next_reset = self._seed_next_reset, None
        self._pool.send_reset(ids, None if seed is None else expand_seeds(seed, ids))

    def async_reset(self, seed: Any = None) -> None:
        """Queues a reset of every env and returns without waiting; ``recv`` returns them.

        The way to start a send/recv loop, in every flavour. In async mode
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

    def seed(self, seed: Any = None) -> None:
        """Deprecated (sail-sg EnvPool warns too): pass ``seed`` to ``make`` or to
        ``reset``. Here ``seed`` (int or one per env) reseeds every env at the next reset
        that is given no seed of its own; ``None`` changes nothing."""
        warnings.warn("seed() is deprecated: pass seed= to make() or to reset(); the seed "
                      "given here applies at the next reset", UserWarning, stacklevel=2)
        if seed is not None:
            expand_seeds(seed, self._all_ids64)  # checks it now
            self._seed_next_reset = seed

    # -- state access (for alignment with reference implementations) -----
    def get_state(self, env_id: int) -> list[float]:
        """The full internal state of one env that is not in flight."""
        return self._pool.get_state(int(env_id))

    def set_state(self, env_id: int, state: Any) -> None:
        """Sets the internal state of one env that is not in flight."""
        self._pool.set_state(int(env_id), [float(s) for s in state])

    # -- life cycle --------------------------------------------------------
    def stage_times(self) -> StageTimes:
        """Where the pool's threads spent their time so far, stage by stage.

        Returns:
            A :class:`~envpool.core.stage_times.StageTimes`; ``.table()`` prints
            microseconds per env step per stage, and two reports subtract.

        Raises:
            RuntimeError: when the pool was made without ``ENVPOOL_STAGE_TIMES=1``.

        Example:
            >>> os.environ["ENVPOOL_STAGE_TIMES"] = "1"  # before making the pool
            >>> env = envpool.make_gymnasium("Pong-v5", num_envs=8)
            >>> print(env.stage_times().table())  # after stepping it
        """
        return StageTimes.from_native(self._pool.stage_times())

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
        if self._frames is not None:
            self._frames.close()
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
