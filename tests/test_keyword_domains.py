"""Keyword domains (envpool/core/keyword_domains.py): every numeric keyword of every native
env declares the values it accepts beside its default; a value outside that domain raises a
ValueError naming the keyword, the value and the domain before any env is made, and values
at the domain's edges make a pool that resets and steps with finite outputs.

The out-of-domain values of every native env's keywords are checked on specs (the check runs
before the factory, so it costs no env); the pools at the domain's edges step for a fixed set
of native envs here, and for every native env in the sweep (ENVPOOL_SWEEP=all)."""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np
import pytest

import envpool
from envpool.core.keyword_domains import (
    FLOAT32,
    FLOAT32_MAX,
    INT_MAX,
    INT_MIN,
    POOL_DOMAINS,
    Domain,
    check_keywords,
    native_domains,
)
from envpool.core.registry import all_tasks
from envpool.tasks import jumanji as jumanji_tasks


def _native_ids() -> list[str]:
    """One task id of every native env (the first registered)."""
    first: dict[tuple[str, str], str] = {}
    for task_id, task in all_tasks().items():
        first.setdefault((task.native_module.__name__, task.native_env), task_id)
    return sorted(first.values())


NATIVE_IDS = _native_ids()


def _numeric_keywords(task_id: str) -> dict[str, tuple[Any, Domain]]:
    """The task's numeric keywords (users' ones): name -> (its default for this id, domain)."""
    task = all_tasks()[task_id]
    defaults = {**task.native_module.default_config(task.native_env), **task.env_kwargs}
    domains = native_domains(task.native_module, task.native_env)
    return {k: (defaults[k], d) for k, d in domains.items()}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _outside(default: Any, d: Domain) -> list[Any]:
    """Values just outside the domain ``d`` of a keyword whose default is ``default``."""
    if _is_int(default):
        low = d.min + 1 if d.min_open else d.min
        high = d.max - 1 if d.max_open else d.max
        return [int(low) - 1, int(high) + 1]
    values: list[float] = [math.nan]
    if not d.allow_inf:
        values += [math.inf, -math.inf]
    if d.min > -math.inf:
        values.append(d.min if d.min_open else float(np.nextafter(d.min, -math.inf)))
    if d.max < math.inf:
        values.append(d.max if d.max_open else float(np.nextafter(d.max, math.inf)))
    if isinstance(default, float):
        return values
    n = max(len(default), 1)
    lists = [[v] * n for v in values]
    if d.ordered and n == 2:
        lists += [[default[1] + 1.0, default[0]], [math.inf, math.inf], [-math.inf, -math.inf]]
    return lists


def _message(task_id: str, name: str) -> str:
    return rf"{re.escape(task_id)}.*\b{name} must be .*got"


@pytest.mark.parametrize("task_id", NATIVE_IDS)
def test_values_outside_the_domain_raise_naming_the_keyword(task_id: str) -> None:
    keywords = _numeric_keywords(task_id)
    for name, (default, domain) in keywords.items():
        for value in _outside(default, domain):
            with pytest.raises(ValueError, match=_message(task_id, name)):
                envpool.make_spec(task_id, **{name: value})


def test_every_numeric_keyword_has_a_domain() -> None:
    """Every int, number and (non-empty) list of numbers: an empty default list reads the same
    from Python whether it holds numbers or strings."""
    for task_id in NATIVE_IDS:
        task = all_tasks()[task_id]
        defaults = task.native_module.default_config(task.native_env)
        numeric = {k for k, v in defaults.items() if k[:1] != "_" and not isinstance(v, (bool, str))
                   and (not isinstance(v, list) or (v and not isinstance(v[0], str)))}
        assert numeric <= set(native_domains(task.native_module, task.native_env)), task_id


# Keywords that count steps, frames or pixels: zero makes the references divide by a zero time
# step (gymnasium's MuJoCo envs: dt = frame_skip * timestep, NaN velocities), step no physics
# (mujoco's mj_step refuses nstep=0) or draw an empty frame; each refuses zero here.
AT_LEAST_ONE = ("frame_skip", "n_substeps", "frame_stack", "stack_num", "img_height",
                "img_width", "physics_steps_per_frame")


@pytest.mark.parametrize("task_id", NATIVE_IDS)
def test_step_and_size_counts_refuse_zero(task_id: str) -> None:
    keywords = _numeric_keywords(task_id)
    for name in AT_LEAST_ONE:
        if name in keywords:
            assert keywords[name][1].min >= 1, (task_id, name)
            for value in (0, -1):
                with pytest.raises(ValueError, match=_message(task_id, name)):
                    envpool.make_spec(task_id, **{name: value})


def test_the_two_nan_holes_of_ant_raise_as_gymnasium_does() -> None:
    """frame_skip=0 gave NaN rewards and velocities, reset_noise_scale=nan NaN observations;
    gymnasium's Ant-v5 raises on both."""
    gymnasium = pytest.importorskip("gymnasium")
    for kwargs in ({"frame_skip": 0}, {"reset_noise_scale": math.nan}):
        with pytest.raises(Exception):  # noqa: B017 (gymnasium: ZeroDivisionError / ValueError)
            ref = gymnasium.make("Ant-v5", **kwargs)
            ref.reset(seed=0)
        name = next(iter(kwargs))
        with pytest.raises(ValueError, match=_message("Ant-v5", name)):
            envpool.make_gymnasium("Ant-v5", num_envs=1, **kwargs)
    with pytest.raises(ValueError, match=r"frame_skip must be an int >= 1 \(and a C\+\+ int\), "
                                         r"got 0"):
        envpool.make_gymnasium("Ant-v5", num_envs=1, frame_skip=0)
    with pytest.raises(ValueError, match=r"reset_noise_scale must be a finite number within "
                                         r"float32's range, got nan"):
        envpool.make_gymnasium("Ant-v5", num_envs=1, reset_noise_scale=math.nan)


def test_pool_keywords_outside_their_domains_raise() -> None:
    for name, domain in POOL_DOMAINS.items():
        for value in (int(domain.min) - 1, int(domain.max) + 1):
            with pytest.raises(ValueError, match=rf"\b{name} must be an int"):
                envpool.make_spec("CartPole-v1", **{"num_envs": 2, name: value})


def test_per_env_values_and_uniform_ends_are_checked() -> None:
    with pytest.raises(ValueError, match=r"env_kwargs of env 1\).*g must be a finite number"):
        envpool.make_spec("Pendulum-v1", num_envs=2, env_kwargs={"g": [10.0, math.inf]})
    with pytest.raises(ValueError, match=r"env 0\).*reset_noise_scale must be a finite"):
        envpool.make_spec("Ant-v5", num_envs=1,
                          env_kwargs=[{"reset_noise_scale": math.nan}])
    # a value drawn at each reset: both ends of its range
    with pytest.raises(ValueError, match=r"env 1\).*g must be a finite number.*got 1e\+39"):
        envpool.make_spec("Pendulum-v1", num_envs=2,
                          env_kwargs={"g": [10.0, envpool.Uniform(8.0, 1e39)]})


def test_a_tasks_python_keywords_are_checked_too() -> None:
    """ViZDoom's reward_config (a dict, read by its prepare hook): each number is a float32
    of the engine's config, so NaN, inf and numbers past float32's range are refused."""
    from envpool import _native

    if _native.vizdoom_missing:
        pytest.skip(_native.vizdoom_missing)
    for bad in (math.nan, math.inf, 1e39):
        with pytest.raises(ValueError, match=r"reward_config\['KILLCOUNT'\] must be"):
            envpool.make_spec("Basic-v1", reward_config={"KILLCOUNT": (bad, 0.0)})


def test_domains_are_visible_from_python() -> None:
    task = all_tasks()["Ant-v5"]
    ant = native_domains(task.native_module, task.native_env)
    assert ant["frame_skip"] == Domain(1, INT_MAX)
    assert ant["reset_noise_scale"] == FLOAT32  # any finite number (as gymnasium takes)
    assert ant["healthy_z_range"] == Domain(allow_inf=True, ordered=True)
    assert Domain(INT_MIN, INT_MAX).describe(True) == (
        "an int in [-2147483648, 2147483647] (a C++ int)")
    assert Domain(1, INT_MAX).describe(True) == "an int >= 1 (and a C++ int)"
    assert FLOAT32.describe(False) == "a finite number within float32's range"
    assert Domain(0, 1, max_open=True).describe(False) == "a finite number in [0, 1)"


def _inside(default: Any, d: Domain) -> list[Any]:
    """Values inside the domain ``d`` where envs break most often: its finite ends (just
    inside an open one), zero and -1 where it holds them; a list gets each of them in every
    place, and a range its widest and an empty one."""
    if _is_int(default):
        ends = [d.min + 1 if d.min_open else d.min, d.max - 1 if d.max_open else d.max]
        scalars: list[Any] = [int(v) for v in ends if abs(v) <= 1000] + [0, -1]
    else:  # (the declared ends: not float32's largest, the default bound of every number)
        ends = [float(np.nextafter(d.min, math.inf)) if d.min_open else d.min,
                float(np.nextafter(d.max, -math.inf)) if d.max_open else d.max]
        scalars = [v for v in ends if abs(v) < FLOAT32_MAX] + [0.0, -1.0]
    scalars = [v for v in dict.fromkeys(scalars)
               if math.isfinite(v) and d.contains(float(v))]
    if not isinstance(default, list):
        return scalars
    if not default:
        return []  # (a list whose length the env reads: an empty default means "none")
    lists = [[v] * len(default) for v in scalars]
    if d.ordered and len(default) == 2:
        lists += [[-math.inf, math.inf] if d.allow_inf else [], [default[0], default[0]]]
    return [v for v in lists if v]


def _finite(tree: Any) -> bool:
    if isinstance(tree, dict):
        return all(_finite(v) for v in tree.values())
    array = np.asarray(tree)
    return array.dtype.kind not in "fc" or bool(np.isfinite(array).all())


def _steps_finite(task_id: str, kwargs: dict[str, Any], steps: int = 3) -> None:
    """A pool of ``task_id`` with ``kwargs`` resets and steps with finite observations and
    rewards, or refuses a value with a ValueError that names its keyword."""
    name = next(iter(kwargs))
    try:
        env = envpool.make_gymnasium(task_id, num_envs=1, seed=0, **kwargs)
    except ValueError as e:  # a relation with another keyword (MiniGrid's sizes, ...)
        assert re.search(rf"\b{name}\b", str(e)), (kwargs, e)
        return
    try:
        obs, info = env.reset()
        assert _finite(obs), (task_id, kwargs, "reset")
        space = env.single_action_space
        space.seed(0)
        # (a multi-player pool whose players act, without an action of its own, takes one
        # row per player: the highway multi-agent intersection)
        rows = 1 if "action" in env.spec.action_array_spec else len(info["players"]["env_id"])
        for _ in range(steps):
            obs, reward, *_ = env.step(np.stack([space.sample() for _ in range(rows)]))
            assert _finite(obs) and _finite(reward), (task_id, kwargs, obs, reward)
    finally:
        env.close()


def _check_inside(task_id: str) -> None:
    for name, (default, domain) in _numeric_keywords(task_id).items():
        for value in _inside(default, domain):
            _steps_finite(task_id, {name: value})


# Native envs whose pools cost little to make: their edges step in the default suite.
CHEAP_IDS = ["Ant-v5", "Hopper-v5", "Humanoid-v5", "HumanoidStandup-v5",
             "InvertedDoublePendulum-v5", "LunarLander-v3", "FrozenLake-v1", "Taxi-v3", "NChain-v0",
             "Catch-v0", "Pendulum-v1"]


@pytest.mark.parametrize("task_id", CHEAP_IDS)
def test_values_at_the_domains_edges_step_finite(task_id: str) -> None:
    _check_inside(task_id)


@pytest.mark.sweep(by="none", extra=1)
@pytest.mark.parametrize("task_id", [i for i in NATIVE_IDS  # (Sokoban: without its levels here)
                                     if i not in jumanji_tasks.NEEDS_USER_FILES])
def test_values_at_the_domains_edges_step_finite_sweep(task_id: str) -> None:
    _check_inside(task_id)


def test_every_ids_own_values_are_inside_the_domains() -> None:
    """The defaults and each registration's keywords (MyoSuite's rot_th=inf: "ignore the
    rotation", as myosuite registers it) are inside their domains."""
    for task_id, task in all_tasks().items():
        domains = native_domains(task.native_module, task.native_env)
        values = {**task.native_module.default_config(task.native_env), **task.env_kwargs}
        check_keywords(task_id, values, domains)
