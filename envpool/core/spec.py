"""A resolved configuration: task id + keywords -> every setting of a pool."""

from __future__ import annotations

import collections
import secrets
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from envpool.core import spaces as envpool_spaces
from envpool.core.keyword_domains import check_spec_keywords
from envpool.core.per_env import Uniform, check_keys, per_env_dicts
from envpool.core.registry import TaskSpec, get_task
from envpool.core.text_render import renders_text

# Keywords of the pool itself (sail-sg EnvPool's names), with their defaults.
POOL_DEFAULTS: dict[str, Any] = {
    "num_envs": 1,
    "batch_size": 0,  # 0: num_envs (sync mode)
    "num_threads": 0,  # 0: min(batch_size, cores - 1), at least 1
    "seed": 42,
    "max_episode_steps": None,  # None: the task's limit
    "thread_affinity_offset": -1,
    "autoreset_mode": AutoresetMode.NEXT_STEP,
    "max_num_players": 1,
    "gym_reset_return_info": True,
    # "rgb_array": render() draws frames; "human": and shows them in a window; "ansi": text
    # (toy-text grids)
    "render_mode": None,
    "render_env_id": 0,  # the env render() draws when given no env_ids
    "render_width": 0,  # 0: the env's own frame size
    "render_height": 0,
    "render_camera_id": -1,  # -1: the env's default view
    "info_env_kwargs": False,  # info["env_kwargs"]: each row's values of the env_kwargs keys
}

_AUTORESET = {
    "next_step": AutoresetMode.NEXT_STEP,
    "same_step": AutoresetMode.SAME_STEP,
    "disabled": AutoresetMode.DISABLED,
}
_NATIVE_AUTORESET = {v: k for k, v in _AUTORESET.items()}


def parse_autoreset_mode(mode: Any) -> AutoresetMode:
    """Accepts an AutoresetMode or its name ('next_step', 'NextStep', ...)."""
    if isinstance(mode, AutoresetMode):
        return mode
    if isinstance(mode, str):
        key = mode.lower().replace("-", "_")
        key = {"nextstep": "next_step", "samestep": "same_step"}.get(key, key)
        if key in _AUTORESET:
            return _AUTORESET[key]
    raise ValueError(
        f"autoreset_mode must be one of {', '.join(_AUTORESET)} (or a "
        f"gymnasium.vector.AutoresetMode), got {mode!r}"
    )


def _is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _coerce(name: str, value: Any, default: Any) -> Any:
    """Checks an env keyword against the type of its default."""
    if isinstance(default, bool):
        if isinstance(value, (bool, np.bool_)):
            return bool(value)
        expected = "a bool"
    elif isinstance(default, int):
        if _is_int(value):
            return int(value)
        expected = "an int"
    elif isinstance(default, float):
        if _is_int(value) or isinstance(value, (float, np.floating)):
            return float(value)
        expected = "a number"
    elif isinstance(default, str):
        if isinstance(value, str):
            return value
        expected = "a string"
    elif default and isinstance(default[0], float):
        if isinstance(value, (list, tuple, np.ndarray)) and all(
            _is_int(v) or isinstance(v, (float, np.floating)) for v in value
        ):
            return [float(v) for v in value]
        expected = "a list of numbers"
    else:
        if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
            return list(value)
        # An empty default may be a list of numbers (Meta-World's rand_vecs): numbers stay so.
        if not default and isinstance(value, (list, tuple, np.ndarray)) and all(
            _is_int(v) or isinstance(v, (float, np.floating)) for v in np.ravel(value)
        ):
            return [float(v) for v in np.ravel(value)]
        if isinstance(value, np.ndarray) and value.ndim >= 1:
            return ["".join(np.asarray(row).astype(str).ravel()) for row in value]
        expected = "a list of strings"
    raise TypeError(f"keyword {name!r} must be {expected}, got {value!r}")


def expand_seeds(seed: Any, env_ids: Sequence[int] | np.ndarray) -> list[int]:
    """One seed per env of ``env_ids``: an int ``s`` gives env ``i`` the seed ``s + i`` (so
    ``reset(seed=s)`` of any subset of envs matches ``make(seed=s)``); a sequence gives one
    seed per listed env, in order. Seeds must be in 0 .. 2**64 - 1."""
    if _is_int(seed):
        seeds = [int(seed) + int(i) for i in env_ids]
    elif isinstance(seed, (Sequence, np.ndarray)) and not isinstance(seed, str):
        seeds = [int(s) for s in seed] if all(_is_int(s) for s in seed) else []
        if len(seeds) != len(env_ids):
            raise ValueError(f"seed as a list needs {len(env_ids)} integers (one per env), "
                             f"got {seed!r}")
    else:
        raise TypeError(f"seed must be an int, a list of ints or None, got {seed!r}")
    if any(s < 0 or s >= 2**64 for s in seeds):
        raise ValueError("seeds must be in 0 .. 2**64 - 1")
    return seeds


class RenderNotImplementedError(ValueError, RuntimeError):
    """``render_mode`` for a task whose env draws no frames: a ValueError (a keyword the task
    cannot take), and a RuntimeError ("render not implemented") as sail-sg EnvPool raises."""


def _check_render(task_id: str, task: TaskSpec, factory: Any,
                  pool: dict[str, Any]) -> tuple[int, int, float]:
    """Checks the render keywords; the frame (height, width, fps) the env draws."""
    mode = pool["render_mode"]
    if mode not in ("rgb_array", "human"):
        raise ValueError(f"render_mode must be None, 'rgb_array', 'human' or 'ansi', got "
                         f"{mode!r}")
    if not 0 <= pool["render_env_id"] < pool["num_envs"]:
        raise ValueError(f"render_env_id must be in 0 .. {pool['num_envs'] - 1}, got "
                         f"{pool['render_env_id']}")
    if pool["render_width"] < 0 or pool["render_height"] < 0:
        raise ValueError("render_width and render_height must be >= 0 (0: the env's own size)")
    frame = factory.render_size(pool["render_width"], pool["render_height"],
                                pool["render_camera_id"])
    if frame is None:
        raise RenderNotImplementedError(
            f"{task_id} (native env {task.native_env!r}) does not render yet (render not "
            "implemented): render_mode must be None (docs/api.md, Rendering, lists the "
            "families that draw frames)")
    height, width, fps = frame
    return int(height), int(width), float(fps)


# The frame of ``from_pixels=True`` when render_width / render_height are not given: 84 x 84,
# as in sail-sg EnvPool and the DrQ / CURL papers.
PIXEL_SIZE = 84


def _pixel_keywords(task_id: str, env_defaults: dict[str, Any],
                    kwargs: dict[str, Any]) -> dict[str, Any]:
    """Checks ``from_pixels`` and returns the hidden native keywords of the frame it observes
    (empty without it): its size and camera are render_width, render_height and
    render_camera_id (sail-sg EnvPool's names), 84 x 84 from camera -1 by default.
    ``from_pixels=False`` is accepted by every task, as in EnvPool."""
    if "from_pixels" not in env_defaults:
        if kwargs.get("from_pixels"):
            raise ValueError(f"{task_id} has no pixel observations: from_pixels=True is for the "
                             "MuJoCo and DeepMind Control tasks (the ones that render)")
        kwargs.pop("from_pixels", None)
        return {}
    if not kwargs.get("from_pixels"):
        return {}
    frame = {"render_width": PIXEL_SIZE, "render_height": PIXEL_SIZE, "render_camera_id": -1}
    for key in frame:
        value = kwargs.get(key, frame[key])
        if not _is_int(value):
            raise TypeError(f"{key} must be an int, got {value!r}")
        frame[key] = int(value)
    if frame["render_width"] <= 0 or frame["render_height"] <= 0:
        raise ValueError("from_pixels=True needs positive render_width and render_height (the "
                         f"frame observed; default {PIXEL_SIZE} x {PIXEL_SIZE}), got "
                         f"{frame['render_width']} x {frame['render_height']}")
    return {"_pixel_width": frame["render_width"], "_pixel_height": frame["render_height"],
            "_pixel_camera_id": frame["render_camera_id"]}


class ArraySpec:
    """sail-sg EnvPool's ``ArraySpec``: the dtype, shape and bounds of one array of its
    action dict (``EnvSpec.action_array_spec``). ``-1`` in ``shape`` is EnvPool's
    players dimension."""

    def __init__(self, dtype: Any, shape: Sequence[int], minimum: Any, maximum: Any,
                 inner_shape: Sequence[int] | None = None) -> None:
        self.dtype = np.dtype(dtype)
        self.shape = list(shape)
        self.minimum = minimum
        self.maximum = maximum
        #: A container array (EnvPool's Container: each value is an array of ``dtype``):
        #: the shape of its values, ``-1`` where each value has its own size; else None.
        self.inner_shape = None if inner_shape is None else list(inner_shape)

    def __repr__(self) -> str:
        return (f"ArraySpec(shape={self.shape}, dtype={self.dtype}, minimum={self.minimum}, "
                f"maximum={self.maximum})")


def _state_array(array: dict[str, Any]) -> ArraySpec:
    """The :class:`ArraySpec` of a native array: ``-1`` leads the shape of a per-player
    one (EnvPool's players dimension); a container array is an object array of arrays."""
    players = [-1] if array.get("per_player") else []
    if array.get("container"):  # (bounds of its elements)
        low, high = envpool_spaces.bounds({**array, "shape": []}, scalar=True)
        return ArraySpec(object, players, low, high, inner_shape=array["shape"])
    low, high = envpool_spaces.bounds(array, scalar=True)
    return ArraySpec(array["dtype"], [*players, *array["shape"]], low, high)


class EnvSpec:
    """Everything a pool of ``task_id`` is made from: the resolved keywords
    (``config``), the single-env spaces and the task's limits.

    ``id``, ``max_episode_steps`` and ``reward_threshold`` read like gymnasium's
    EnvSpec; ``config`` is a namedtuple like sail-sg EnvPool's.
    """

    def __init__(self, task_id: str, env_kwargs: Any = None, **kwargs: Any) -> None:
        task = get_task(task_id)
        native_defaults = task.native_module.default_config(task.native_env)
        # Keywords starting with "_" are the env's hidden ones, filled by the task's
        # prepare hook (a generated model's XML, ...), never by users.
        env_defaults = {k: v for k, v in native_defaults.items() if k[:1] != "_"}
        kwargs = dict(kwargs)
        pixel_frame = _pixel_keywords(task_id, env_defaults, kwargs)
        unknown = sorted(set(kwargs) - set(POOL_DEFAULTS) - set(env_defaults)
                         - set(task.python_kwargs))
        if unknown:
            valid = sorted(set(POOL_DEFAULTS) | set(env_defaults) | set(task.python_kwargs))
            raise TypeError(
                f"{task_id} got unknown keyword(s) {', '.join(unknown)}; valid keywords: "
                f"{', '.join(valid)}"
            )
        env_config = {k: _coerce(k, v, env_defaults[k]) for k, v in task.env_kwargs.items()}
        env_config = {**env_defaults, **env_config}
        for key in env_defaults:
            if key in kwargs:
                env_config[key] = _coerce(key, kwargs[key], env_defaults[key])
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
            if not _is_int(pool[key]):
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
        if pool["num_threads"] < 0 or pool["max_episode_steps"] < 0:
            raise ValueError("num_threads and max_episode_steps must be >= 0")
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
            self.render_frame = _check_render(task_id, task, self.native_factory, pool)
        pool["autoreset_mode"] = parse_autoreset_mode(pool["autoreset_mode"])
        seed = secrets.randbits(31) if pool["seed"] is None else pool["seed"]
        self.seeds = expand_seeds(seed, range(pool["num_envs"]))
        if not isinstance(pool["info_env_kwargs"], (bool, np.bool_)):
            raise TypeError(f"info_env_kwargs must be a bool, got {pool['info_env_kwargs']!r}")

        self.id = task_id
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
                    config[key] = _coerce(key, value, defaults[key])
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
        return envpool_spaces.observation_space(self.native_spec)

    @property
    def gymnasium_observation_space(self) -> spaces.Space:
        """sail-sg EnvPool's name of :attr:`observation_space` (the spaces are gymnasium's)."""
        return self.observation_space

    @property
    def action_space(self) -> spaces.Space:
        """The action space of one env."""
        return envpool_spaces.action_space(self.native_spec)

    @property
    def state_array_spec(self) -> dict[str, ArraySpec]:
        """sail-sg EnvPool's ``state_array_spec``: the arrays of one env's output, in its
        order and by its names: ``info:env_id``, ``info:players.env_id``,
        ``elapsed_step``, ``done`` (terminated or truncated), ``reward``, ``discount``,
        ``step_type`` (dm_env's), ``trunc`` (truncated), then ``obs`` (or ``obs:<name>``
        for each array of a dict observation) and ``info:<key>`` for each info key."""
        native = self.native_spec
        last_env = self.config.num_envs - 1
        out: dict[str, ArraySpec] = {
            "info:env_id": ArraySpec(np.int32, [], 0, last_env),
            "info:players.env_id": ArraySpec(np.int32, [-1], 0, last_env),
            "elapsed_step": ArraySpec(np.int32, [], 0, np.iinfo(np.int32).max),
            "done": ArraySpec(np.bool_, [], False, True),
            "reward": ArraySpec(np.float32, [-1], -np.inf, np.inf),
            "discount": ArraySpec(np.float32, [-1], 0.0, 1.0),
            "step_type": ArraySpec(np.int32, [], 0, 2),
            "trunc": ArraySpec(np.bool_, [], False, True),
        }
        single = native["obs_layout"] != "dict" and len(native["obs"]) == 1
        for o in native["obs"]:
            out["obs" if single else f"obs:{o['name']}"] = _state_array(o)
        for i in native["info"]:
            # the env's own discount, and a multi-player env's rewards per player: the
            # "discount" and "reward" above
            if i["name"] == "discount" or (i["name"] == "reward" and i.get("per_player")):
                continue
            out[f"info:{i['name']}"] = _state_array(i)
        return out

    @property
    def action_array_spec(self) -> dict[str, ArraySpec]:
        """sail-sg EnvPool's ``action_array_spec``: the arrays of its action dict
        (``env_id``, ``players.env_id``, ``action``), which ``send`` / ``step`` take."""
        action = self.native_spec["action"]
        if action["n"] > 0:
            low: Any = action["start"]
            high: Any = action["start"] + action["n"] - 1
        else:
            low, high = envpool_spaces.bounds(action, scalar=True)
        last_env = self.config.num_envs - 1
        arrays = {"env_id": ArraySpec(np.int32, [], 0, last_env),
                  "players.env_id": ArraySpec(np.int32, [-1], 0, last_env)}
        if not self.max_num_players:
            arrays["action"] = ArraySpec(action["dtype"], [-1, *action["shape"]], low, high)
            return arrays
        # A multi-player env: its own action (one per env), then one value per player of
        # each player action array.
        arrays[action["name"]] = ArraySpec(action["dtype"], list(action["shape"]), low, high)
        for a in self.native_spec["player_actions"]:
            arrays[a["name"]] = _state_array({**a, "per_player": True})
        return arrays

    def observation_spec(self) -> Any:
        """The dm flavour's per-env observation spec: a ``State`` namedtuple of
        ``dm_env.specs`` (``obs``, ``env_id``, ``players``, ``elapsed_step``, the info keys), as
        sail-sg EnvPool's ``EnvSpec.observation_spec()``."""
        from envpool.core.dm_env import dm_specs  # (the dm flavour imports this module)

        return dm_specs(self)[1]

    def action_spec(self) -> Any:
        """The dm flavour's per-env action spec (a ``dm_env.specs`` array)."""
        from envpool.core.dm_env import dm_specs

        return dm_specs(self)[2]

    def native_autoreset(self) -> str:
        return _NATIVE_AUTORESET[self.config.autoreset_mode]

    def __repr__(self) -> str:
        return f"EnvSpec({self.id!r}, {self.config})"
