"""A resolved configuration: task id + keywords -> every setting of a pool."""

from __future__ import annotations

import collections
from typing import Any

import numpy as np
from gymnasium import spaces

from envpool.core import array_spec
from envpool.core import spaces as envpool_spaces
from envpool.core.array_spec import ArraySpec
from envpool.core.keyword_domains import check_spec_keywords
from envpool.core.keywords import (
    NATIVE_AUTORESET,
    POOL_DEFAULTS,
    check_render,
    coerce,
    is_int,
    parse_autoreset_mode,
    pixel_keywords,
)
from envpool.core.per_env import Uniform, check_keys, per_env_dicts
from envpool.core.registry import TaskSpec, get_task
from envpool.core.seeds import make_seeds
from envpool.core.text_render import renders_text


class EnvSpec:
    """Everything a pool of ``task_id`` is made from: the resolved keywords
    (``config``), the single-env spaces and the task's limits.

    ``id``, ``max_episode_steps`` and ``reward_threshold`` read like gymnasium's
    EnvSpec; ``config`` is a namedtuple of every keyword.
    """

    def __init__(self, task_id: str, env_kwargs: Any = None, **kwargs: Any) -> None:
        task = get_task(task_id)
        native_defaults = task.native_module.default_config(task.native_env)
        # Keywords starting with "_" are the env's hidden ones, filled by the task's
        # prepare hook (a generated model's XML, ...), never by users.
        env_defaults = {k: v for k, v in native_defaults.items() if k[:1] != "_"}
        kwargs = dict(kwargs)
        pixel_frame = pixel_keywords(task_id, env_defaults, kwargs)
        unknown = sorted(set(kwargs) - set(POOL_DEFAULTS) - set(env_defaults)
                         - set(task.python_kwargs))
        if unknown:
            valid = sorted(set(POOL_DEFAULTS) | set(env_defaults) | set(task.python_kwargs))
            raise TypeError(
                f"{task_id} got unknown keyword(s) {', '.join(unknown)}; valid keywords: "
                f"{', '.join(valid)}"
            )
        env_config = {k: coerce(k, v, env_defaults[k]) for k, v in task.env_kwargs.items()}
        env_config = {**env_defaults, **env_config}
        for key in env_defaults:
            if key in kwargs:
                env_config[key] = coerce(key, kwargs[key], env_defaults[key])
        # Every numeric keyword against its declared domain, before any env is made.
        check_spec_keywords(task_id, task, env_defaults, env_config, kwargs, env_kwargs)
        hidden = {k: v for k, v in native_defaults.items() if k[:1] == "_"}
        if "_render" in hidden:  # an env whose steps differ when it is drawn (LunarLander's
            hidden["_render"] = kwargs.get("render_mode") is not None  # flame particles)
        python_config = {k: kwargs.get(k, v) for k, v in task.python_kwargs.items()}
        if task.prepare is not None:
            hidden.update(task.prepare({**env_config, **python_config}))
        hidden.update(pixel_frame)
        native_config = {**env_config, **hidden}
        # Built once: the pool made from this spec takes it (pool.py), so an Atari ROM is
        # probed, a model compiled, ... once per pool, not once more for the pool itself.
        self.native_factory = task.native_module.factory(task.native_env, native_config)
        self.native_spec = self.native_factory.spec()
        pool = {**POOL_DEFAULTS, **{k: v for k, v in kwargs.items() if k in POOL_DEFAULTS}}
        if pixel_frame:  # render() draws what the envs observe, unless told otherwise
            pool["render_width"] = pixel_frame["_pixel_width"]
            pool["render_height"] = pixel_frame["_pixel_height"]
            pool["render_camera_id"] = pixel_frame["_pixel_camera_id"]
        if pool["max_episode_steps"] is None:
            pool["max_episode_steps"] = task.max_episode_steps or 0
        for key in ("num_envs", "batch_size", "num_threads", "max_episode_steps",
                    "thread_affinity_offset", "max_num_players", "render_env_id",
                    "render_width", "render_height", "render_camera_id"):
            if not is_int(pool[key]):
                raise TypeError(f"{key} must be an int, got {pool[key]!r}")
            pool[key] = int(pool[key])
        if pool["num_envs"] < 1:
            raise ValueError(f"num_envs must be >= 1, got {pool['num_envs']}")
        if pool["batch_size"] == 0:
            pool["batch_size"] = pool["num_envs"]
        if not 1 <= pool["batch_size"] <= pool["num_envs"]:
            raise ValueError(
                f"batch_size must be in 1 .. num_envs ({pool['num_envs']}), "
                f"got {pool['batch_size']}"
            )
        if pool["num_threads"] == 0 and task.thread_per_env:
            pool["num_threads"] = pool["num_envs"]
        #: The most players an env has (multi-player envs: the core's test env), or 0.
        self.max_num_players: int = self.native_spec.get("max_num_players", 0)
        if self.max_num_players == 0 and pool["max_num_players"] != 1:
            raise ValueError(f"{task_id} is a single-player env: max_num_players must be 1")
        #: (height, width, fps) of the frames render() draws; None without render_mode.
        self.render_frame: tuple[int, int, float] | None = None
        if pool["render_mode"] == "ansi":
            if not renders_text(task.native_module, task.native_env):
                raise ValueError(f"{task_id} does not render ansi text: render_mode='ansi' "
                                 "is for FrozenLake, Taxi and CliffWalking")
        elif pool["render_mode"] is not None:
            self.render_frame = check_render(task_id, task, self.native_factory, pool)
        pool["autoreset_mode"] = parse_autoreset_mode(pool["autoreset_mode"])
        self.seeds = make_seeds(pool["seed"], pool["num_envs"])
        if not isinstance(pool["info_env_kwargs"], (bool, np.bool_)):
            raise TypeError(f"info_env_kwargs must be a bool, got {pool['info_env_kwargs']!r}")

        self.id = task_id
        #: The keywords given to make this spec (the others in ``config`` are defaults).
        self.given_keywords: frozenset[str] = frozenset(kwargs)
        self.task = task
        self.native_env = task.native_env
        self.env_config = native_config
        self.max_episode_steps = pool["max_episode_steps"] or None
        self.reward_threshold = task.reward_threshold
        merged = {**pool, **env_config, **python_config}
        self.config = collections.namedtuple("Config", sorted(merged))(
            **{k: merged[k] for k in sorted(merged)}
        )
        self._resolve_per_env(task_id, task, env_kwargs, pool["num_envs"], env_defaults,
                              {**env_config, **python_config})

    def _resolve_per_env(self, task_id: str, task: TaskSpec, env_kwargs: Any, num_envs: int,
                         env_defaults: dict[str, Any], base: dict[str, Any]) -> None:
        """Sets ``env_configs`` (each env's keywords), ``env_kwargs_keys`` (those that
        vary), and what the native pool takes: ``native_env_configs`` (one per env, or
        [] when every env has the base config) and ``native_ranges``."""
        self.env_configs: list[dict[str, Any]] = [dict(base) for _ in range(num_envs)]
        self.env_kwargs_keys: tuple[str, ...] = ()
        self.native_env_configs: list[dict[str, Any]] = []
        self.native_ranges: list[list[tuple[str, float, float]]] = []
        if env_kwargs is None:
            return
        per_env = per_env_dicts(env_kwargs, num_envs)
        defaults = {**env_defaults, **task.python_kwargs}
        check_keys(task_id, per_env, set(defaults), set(POOL_DEFAULTS), task.per_env_kwargs,
                   task.random_kwargs)
        self.env_kwargs_keys = tuple(sorted(set().union(*per_env)))
        native_by_key: dict[str, dict[str, Any]] = {}
        for i, overrides in enumerate(per_env):
            config = self.env_configs[i]
            ranges = []
            for key, value in overrides.items():
                if isinstance(value, Uniform):
                    ranges.append((key, value.low, value.high))
                    config[key] = value
                else:
                    config[key] = coerce(key, value, defaults[key])
            # The native config holds a range's low end until the first reset draws.
            resolved = {k: v.low if isinstance(v, Uniform) else v for k, v in config.items()}
            native = {k: v for k, v in resolved.items() if k in env_defaults}
            native.update({k: v for k, v in self.env_config.items() if k[:1] == "_"})
            if task.prepare is not None:
                native.update(task.prepare(resolved))
            key = repr(sorted(native.items()))
            if key not in native_by_key:
                changed = sorted(k for k in overrides if base[k] != resolved[k])
                spec = dict(task.native_module.spec(task.native_env, native))
                # The frame render() draws ("render") may differ (MiniGrid's size) unless
                # the pool renders: the frames of one render() call are one array.
                frame = spec.pop("render", None)
                base_spec = {k: v for k, v in self.native_spec.items() if k != "render"}
                if spec != base_spec:
                    raise ValueError(f"{task_id}: env_kwargs {', '.join(changed)} would change "
                                     "the spaces of env " f"{i}; the envs of a pool share them")
                if self.render_frame is not None and frame != self.native_spec.get("render"):
                    raise ValueError(
                        f"{task_id}: env_kwargs {', '.join(changed)} would change the frame "
                        f"of env {i} ({frame[0]} x {frame[1]}, the pool's is "
                        f"{self.render_frame[0]} x {self.render_frame[1]}); the envs of a "
                        "pool made with render_mode draw frames of one size")
                native_by_key[key] = native
            self.native_env_configs.append(native_by_key[key])
            self.native_ranges.append(ranges)

    @property
    def observation_space(self) -> spaces.Space:
        """The observation space of one env."""
        return envpool_spaces.observation_space(self.native_spec, self.task.space_dtypes)

    @property
    def gymnasium_observation_space(self) -> spaces.Space:
        """sail-sg EnvPool's name of :attr:`observation_space` (the spaces are gymnasium's)."""
        return self.observation_space

    @property
    def action_space(self) -> spaces.Space:
        """The action space of one env."""
        return envpool_spaces.action_space(self.native_spec)

    @property
    def gymnasium_action_space(self) -> spaces.Space:
        """sail-sg EnvPool's name of :attr:`action_space` (the spaces are gymnasium's)."""
        return self.action_space

    @property
    def state_array_spec(self) -> dict[str, ArraySpec]:
        """The arrays of one env's output by name, in sail-sg EnvPool's layout
        (:func:`envpool.core.array_spec.state_array_spec`)."""
        return array_spec.state_array_spec(self.native_spec, self.config.num_envs)

    @property
    def action_array_spec(self) -> dict[str, ArraySpec]:
        """The arrays of the action dict (``env_id``, ``players.env_id``, ``action``),
        which ``send`` / ``step`` take (:func:`envpool.core.array_spec.action_array_spec`)."""
        return array_spec.action_array_spec(self.native_spec, self.config.num_envs,
                                            self.max_num_players)

    def observation_spec(self) -> Any:
        """The dm flavour's per-env observation spec: a ``State`` namedtuple of
        ``dm_env.specs`` (``obs``, ``env_id``, ``players``, ``elapsed_step``, the info keys), as
        sail-sg EnvPool's ``EnvSpec.observation_spec()``."""
        return envpool_spaces.dm_specs(self.native_spec)[1]

    def action_spec(self) -> Any:
        """The dm flavour's per-env action spec (a ``dm_env.specs`` array)."""
        return envpool_spaces.dm_spec(envpool_spaces.env_action(self.native_spec))

    def native_autoreset(self) -> str:
        """The native pool's name of the autoreset mode (``"next_step"``, ...)."""
        return NATIVE_AUTORESET[self.config.autoreset_mode]

    def __repr__(self) -> str:
        return f"EnvSpec({self.id!r}, {self.config})"
