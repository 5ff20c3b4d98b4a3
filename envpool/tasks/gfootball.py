"""Google Research Football task ids: sail-sg EnvPool's ``gfootball/<scenario>-v1``.

One native env, ``Gfootball`` of the module ``envpool._gfootball``
(native/envs/gfootball/gfootball_env.h), serves every scenario of the ``gfootball`` package
(2.10.2): the package's game engine, built from its sdist with envpool
(native/third_party/build_gfootball.py, which needs the system's SDL 2, EGL and Boost headers),
with the package's Python layer restated in C++. The observation is the package's Super Mini
Map (``representation="extracted"``, one frame), the reward its ``"scoring"`` reward, the
actions its default set of 19, one agent on the left team.

What the engine needs at run time, besides the module:

* its data (``data/``, ``fonts/`` and ``scenarios.json``: each scenario of the package's
  scenario files, recorded from the sdist): the ``envpool-ng-gfootball-data`` package, which
  the ``gfootball`` extra installs; a source build also installs them beside the module
  (``envpool/gfootball_data``), and a build used in place reads them from its cache;
* SDL 2, SDL_ttf and SDL_gfx (it opens its font and builds surfaces when a game starts), which
  the module loads when the first env is made: from the ``pysdl2-dll`` package (the
  ``gfootball`` extra) or from the system.

Making an env without either says what to install. The ids and their durations (the scenarios'
``game_duration``) are listed here, so that the ids exist wherever the engine is missing.

The episode's time limit is the scenario's own clock, as in the package: it is truncated when
the engine's step count reaches the duration (``info["steps_left"]`` 0), which counts from
-1 or 0 at the reset (the ball is in play at once, or after the engine's first step), so an
uninterrupted episode is ``duration + 1`` or ``duration`` steps. The ids therefore have no
pool time limit (``max_episode_steps`` None, which a user may still set).
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
from typing import Any

from envpool.core.registry import register
from envpool.core.sdk import report_module_failure

try:
    from envpool import _gfootball
except ImportError as _error:  # (it links Boost.Filesystem, which a source build takes from
    _gfootball = None          # the system: the gfootball ids are absent where it is gone)
    report_module_failure("envpool._gfootball (the gfootball ids)", _error)

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


DATA_PACKAGE = "envpool_gfootball_data"  # the envpool-ng-gfootball-data distribution
INSTALL_HINT = "pip install 'envpool-ng[gfootball]'"


def _package_dir(name: str) -> str:
    """The folder of the installed package ``name`` (without importing it), or ""."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return ""
    return list(spec.submodule_search_locations)[0]


@functools.lru_cache(maxsize=1)
def engine_dir() -> str:
    """The folder of the engine's data (``data/``, ``fonts/``, ``scenarios.json``): the
    envpool-ng-gfootball-data package, else the copy a source build installed beside the
    module (``envpool/gfootball_data``, in site-packages for an editable install), else the
    build's own (a build used in place, scripts/dev_build.sh); "" where none is."""
    module_dir = os.path.dirname(os.path.abspath(str(getattr(_gfootball, "__file__", ""))))
    package_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for folder in (_package_dir(DATA_PACKAGE), os.path.join(package_dir, "gfootball_data"),
                   os.path.join(module_dir, "gfootball_data"), str(_gfootball.build_dir)):
        if folder and os.path.isfile(os.path.join(folder, "scenarios.json")):
            return folder
    return ""


@functools.lru_cache(maxsize=1)
def load_sdl() -> str:
    """Loads SDL 2, SDL_ttf and SDL_gfx for the engine (once): the pysdl2-dll package's, else
    the system's. Returns where from; raises RuntimeError saying what to install."""
    sdl2dll = _package_dir("sdl2dll")
    return str(_gfootball.load_sdl([os.path.join(sdl2dll, "dll")] if sdl2dll else []))


@functools.lru_cache(maxsize=1)
def recorded_scenarios() -> dict[str, Any]:
    """The package's scenarios as its scenario files build them (build_gfootball.py)."""
    folder = engine_dir()
    if not folder:
        raise RuntimeError("the gfootball engine's data is not installed (the "
                           f"envpool-ng-gfootball-data package): {INSTALL_HINT}")
    with open(os.path.join(folder, "scenarios.json")) as f:
        return json.load(f)


def _prepare(config: dict[str, Any]) -> dict[str, Any]:
    """The engine's data folder and the scenario, as the native env's hidden keywords."""
    if _gfootball.missing:
        raise RuntimeError(str(_gfootball.missing))
    name = config["env_name"]
    scenarios = recorded_scenarios()  # (raises where the engine's data is missing)
    load_sdl()  # (raises where SDL is missing)
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


for _name, _duration in SCENARIOS.items() if _gfootball is not None else ():
    register(
        f"gfootball/{_name}-v1",
        "Gfootball",
        module=_gfootball,
        prepare=_prepare,
        python_kwargs={"env_name": _name},
    )
