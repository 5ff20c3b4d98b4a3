"""The keywords of a pool: their defaults and checks (the env's own keywords are the
native env's: ``default_config``).

:data:`POOL_DEFAULTS` lists the keywords every task takes; :func:`coerce` checks an env
keyword against its default's type; :func:`check_render` and :func:`pixel_keywords`
check the render and ``from_pixels`` keywords against what the native env can draw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from gymnasium.vector import AutoresetMode

if TYPE_CHECKING:
    from envpool.core.registry import TaskSpec

# Keywords of the pool itself, with their defaults.
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
#: The native pool's name of each autoreset mode.
NATIVE_AUTORESET = {v: k for k, v in _AUTORESET.items()}


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


def is_int(value: Any) -> bool:
    """An int (Python's or numpy's), not a bool."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def coerce(name: str, value: Any, default: Any) -> Any:
    """Checks an env keyword against the type of its default."""
    if isinstance(default, bool):
        if isinstance(value, (bool, np.bool_)):
            return bool(value)
        # sail-sg EnvPool's configs carry flags as floats (push_enable=0.0): 0.0 and 1.0 are
        # taken as False and True; ints and other numbers stay refused
        if isinstance(value, (float, np.floating)) and value in (0.0, 1.0):
            return bool(value)
        expected = "a bool"
    elif isinstance(default, int):
        if is_int(value):
            return int(value)
        expected = "an int"
    elif isinstance(default, float):
        if is_int(value) or isinstance(value, (float, np.floating)):
            return float(value)
        expected = "a number"
    elif isinstance(default, str):
        if isinstance(value, str):
            return value
        expected = "a string"
    elif default and isinstance(default[0], float):
        if isinstance(value, (list, tuple, np.ndarray)) and all(
            is_int(v) or isinstance(v, (float, np.floating)) for v in value
        ):
            return [float(v) for v in value]
        expected = "a list of numbers"
    else:
        if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
            return list(value)
        # An empty default may be a list of numbers (Meta-World's rand_vecs): numbers stay so.
        if not default and isinstance(value, (list, tuple, np.ndarray)) and all(
            is_int(v) or isinstance(v, (float, np.floating)) for v in np.ravel(value)
        ):
            return [float(v) for v in np.ravel(value)]
        if isinstance(value, np.ndarray) and value.ndim >= 1:
            return ["".join(np.asarray(row).astype(str).ravel()) for row in value]
        expected = "a list of strings"
    raise TypeError(f"keyword {name!r} must be {expected}, got {value!r}")


class RenderNotImplementedError(ValueError, RuntimeError):
    """``render_mode`` for a task whose env draws no frames: a ValueError (a keyword the task
    cannot take), and a RuntimeError ("render not implemented") as sail-sg EnvPool raises."""


def render_refusal(task_id: str, task: TaskSpec) -> RenderNotImplementedError:
    """The error ``render()`` raises for a task whose env draws no frames (sail-sg EnvPool
    makes such a pool with a ``render_mode`` and refuses at ``render()``, as here)."""
    return RenderNotImplementedError(
        f"{task_id} (native env {task.native_env!r}) does not render yet (render not "
        "implemented): make it with render_mode=None (docs/api.md, Rendering, lists the "
        "families that draw frames)")


def check_render(task_id: str, task: TaskSpec, factory: Any,
                  pool: dict[str, Any]) -> tuple[int, int, float] | None:
    """Checks the render keywords; the frame (height, width, fps) the env draws, None for
    an env that draws none (``render()`` then raises :func:`render_refusal`'s error)."""
    mode = pool["render_mode"]
    if mode not in ("rgb_array", "human"):
        raise ValueError(f"render_mode must be None, 'rgb_array', 'human' or 'ansi', got "
                         f"{mode!r}")
    if not 0 <= pool["render_env_id"] < pool["num_envs"]:
        raise ValueError(f"render_env_id must be in 0 .. {pool['num_envs'] - 1}, got "
                         f"{pool['render_env_id']}")
    frame = factory.render_size(pool["render_width"], pool["render_height"],
                                pool["render_camera_id"])
    if frame is None:
        return None
    height, width, fps = frame
    return int(height), int(width), float(fps)


# The frame of ``from_pixels=True`` when render_width / render_height are not given: 84 x 84,
# as in sail-sg EnvPool and the DrQ / CURL papers.
PIXEL_SIZE = 84


def pixel_keywords(task_id: str, env_defaults: dict[str, Any],
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
        if not is_int(value):
            raise TypeError(f"{key} must be an int, got {value!r}")
        frame[key] = int(value)
    if frame["render_width"] <= 0 or frame["render_height"] <= 0:
        raise ValueError("from_pixels=True needs positive render_width and render_height (the "
                         f"frame observed; default {PIXEL_SIZE} x {PIXEL_SIZE}), got "
                         f"{frame['render_width']} x {frame['render_height']}")
    return {"_pixel_width": frame["render_width"], "_pixel_height": frame["render_height"],
            "_pixel_camera_id": frame["render_camera_id"]}
