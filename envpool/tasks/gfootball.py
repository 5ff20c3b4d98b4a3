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


class OracleEngine:
    """One engine driven step by step, for tests that replay the package's
    ``football_env_core.py`` loop themselves (sail-sg EnvPool's
    ``envpool.gfootball.gfootball_envpool._GfootballOracleEngine``, which its tests' oracle
    drives): the engine the envs run, taken from the same pool of started engines.

    ``OracleEngine(base_path, physics_steps_per_frame)`` (``base_path``: EnvPool's
    package folder, where its engine data lies; here the data is found as the envs find
    it, so it is not read). ``reset(env_name, episode_number, engine_seed,
    max_episode_steps)`` resets the engine into the scenario for that episode number's
    parity with that engine seed (the duration is the scenario's own, so
    ``max_episode_steps`` is not read); ``step()``, ``action(action, left_team, player)``
    (the engine's action values), ``get_info()`` (the engine's state as a dict: the teams'
    positions, the ball, the controllers, goals, game mode, possession, step, in play) and
    ``waiting_for_game_count`` are the engine's."""

    def __init__(self, base_path: str = "", physics_steps_per_frame: int = 10) -> None:
        """Takes a started engine (see the class)."""
        del base_path
        if _gfootball is None or _gfootball.missing:
            raise RuntimeError(str(getattr(_gfootball, "missing", "")) or
                               f"envpool._gfootball is not available: {INSTALL_HINT}")
        recorded_scenarios()  # (raises where the engine's data is missing)
        load_sdl()  # (raises where SDL is missing)
        self._engine = _gfootball.OracleEngine(os.path.join(engine_dir(), "data"),
                                               int(physics_steps_per_frame))

    def reset(self, env_name: str, episode_number: int, engine_seed: int,
              max_episode_steps: int | None = None) -> None:
        """The engine's reset into ``env_name`` (see the class)."""
        del max_episode_steps
        config = _prepare({"env_name": env_name})
        parity = "even" if int(episode_number) % 2 == 0 else "odd"
        self._engine.reset(config["_config_keys"], config[f"_config_{parity}"],
                           config[f"_ball_{parity}"], config[f"_players_{parity}"],
                           int(engine_seed))

    def step(self) -> None:
        """The engine's step (physics_steps_per_frame physics steps)."""
        self._engine.step()

    def action(self, action: int, left_team: bool, player: int) -> None:
        """Gives the engine's ``action`` (its value, not an index of the action set) to a
        controlled player."""
        self._engine.action(int(action), bool(left_team), int(player))

    def get_info(self) -> dict[str, Any]:
        """The engine's state (see the class)."""
        return dict(self._engine.get_info())

    @property
    def waiting_for_game_count(self) -> int:
        """The steps the game has been held in a set piece (the package's counter)."""
        return int(self._engine.waiting_for_game_count)

    @waiting_for_game_count.setter
    def waiting_for_game_count(self, count: int) -> None:
        self._engine.waiting_for_game_count = int(count)


for _name, _duration in SCENARIOS.items() if _gfootball is not None else ():
    register(
        f"gfootball/{_name}-v1",
        "Gfootball",
        module=_gfootball,
        prepare=_prepare,
        python_kwargs={"env_name": _name},
    )
