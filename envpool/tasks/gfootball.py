"""Google Research Football task ids: sail-sg EnvPool's ``gfootball/<scenario>-v1``.

One native env, ``Gfootball`` (native/envs/gfootball/gfootball_env.h), serves every scenario of
the ``gfootball`` package (2.10.2): the package's game engine, built from its sdist with envpool
(native/third_party/build_gfootball.py, which needs the system's SDL 2, EGL / OpenGL and
Boost), with the package's Python layer restated in C++. The observation is the package's
Super Mini Map (``representation="extracted"``, one frame), the reward its ``"scoring"``
reward, the actions its default set of 19, one agent on the left team.

The scenarios come from the package's scenario files, recorded when the engine was built
(``scenarios.json`` beside the engine's data: in the installed package's
``envpool/gfootball_data``, or in the build's cache for a build used in place). The ids and
their durations (the scenarios' ``game_duration``) are listed here, so that the ids exist
where the engine was not built; making one there says what is missing.

The episode's time limit is the scenario's own clock, as in the package: it is truncated when
the engine's step count reaches the duration (``info["steps_left"]`` 0), which counts from
-1 or 0 at the reset (the ball is in play at once, or after the engine's first step), so an
uninterrupted episode is ``duration + 1`` or ``duration`` steps. The ids therefore have no
pool time limit (``max_episode_steps`` None, which a user may still set).
"""

from __future__ import annotations

import functools
import json
import os
from typing import Any

from envpool import _native
from envpool.core.registry import register

GFOOTBALL_VERSION = "2.10.2"

# scenario -> game_duration (env steps), as its file in gfootball/scenarios/ sets it.
SCENARIOS: dict[str, int] = {
    "11_vs_11_competition": 3000,
    "11_vs_11_easy_stochastic": 3000,
    "11_vs_11_hard_stochastic": 3000,
    "11_vs_11_kaggle": 3000,
    "11_vs_11_stochastic": 3000,
    "1_vs_1_easy": 500,
    "5_vs_5": 3000,
    "academy_3_vs_1_with_keeper": 400,
    "academy_corner": 400,
    "academy_counterattack_easy": 400,
    "academy_counterattack_hard": 400,
    "academy_empty_goal": 400,
    "academy_empty_goal_close": 400,
    "academy_pass_and_shoot_with_keeper": 400,
    "academy_run_pass_and_shoot_with_keeper": 400,
    "academy_run_to_score": 400,
    "academy_run_to_score_with_keeper": 400,
    "academy_single_goal_versus_lazy": 3000,
}


@functools.lru_cache(maxsize=1)
def engine_dir() -> str:
    """The folder of the engine's data (``data/``, ``fonts/``, ``scenarios.json``): the
    installed package's copy, else the build's (a build used in place,
    scripts/dev_build.sh); "" without an engine."""
    # Beside the extension module: the wheel's envpool/, or an editable install's
    # site-packages/envpool/ (where the package's own folder is the checkout).
    for folder in (os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                   os.path.dirname(os.path.abspath(str(getattr(_native, "__file__", ""))))):
        installed = os.path.join(folder, "gfootball_data")
        if os.path.isfile(os.path.join(installed, "scenarios.json")):
            return installed
    built = str(getattr(_native, "gfootball_build_dir", ""))
    return built if built and os.path.isfile(os.path.join(built, "scenarios.json")) else ""


@functools.lru_cache(maxsize=1)
def recorded_scenarios() -> dict[str, Any]:
    """The package's scenarios as its scenario files build them (build_gfootball.py)."""
    folder = engine_dir()
    if not folder:
        raise RuntimeError("the gfootball engine's data is missing (reinstall envpool)")
    with open(os.path.join(folder, "scenarios.json")) as f:
        return json.load(f)


def _prepare(config: dict[str, Any]) -> dict[str, Any]:
    """The engine's data folder and the scenario, as the native env's hidden keywords."""
    missing = str(getattr(_native, "gfootball_missing", ""))
    if missing:
        raise RuntimeError(missing)
    name = config["env_name"]
    scenarios = recorded_scenarios()  # (raises where the engine's data is missing)
    if name not in scenarios:
        raise ValueError(f"unknown gfootball scenario {name!r}; known: "
                         f"{', '.join(sorted(scenarios))}")
    even, odd = scenarios[name]["even"], scenarios[name]["odd"]
    if set(even["values"]) != set(odd["values"]):
        raise ValueError(f"gfootball scenario {name!r} sets different fields by episode parity")
    keys = sorted(even["values"])
    return {
        "_data_dir": os.path.join(engine_dir(), "data"),
        "_game_duration": int(even["values"].get("game_duration", 3000)),
        "_config_keys": keys,
        "_config_even": [float(even["values"][k]) for k in keys],
        "_config_odd": [float(odd["values"][k]) for k in keys],
        "_ball_even": [float(x) for x in even["ball"]],
        "_ball_odd": [float(x) for x in odd["ball"]],
        "_players_even": [float(x) for p in even["players"] for x in p],
        "_players_odd": [float(x) for p in odd["players"] for x in p],
    }


for _name, _duration in SCENARIOS.items():
    register(
        f"gfootball/{_name}-v1",
        "Gfootball",
        prepare=_prepare,
        python_kwargs={"env_name": _name},
    )
