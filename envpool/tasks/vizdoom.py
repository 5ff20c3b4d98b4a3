"""ViZDoom task ids: sail-sg EnvPool's ``<Scenario>-v1`` ids and keywords.

One native env, ``ViZDoom``, serves every scenario. Each env drives one engine
process of the installed ``vizdoom`` package (its ``vizdoom`` executable,
``freedoom2.wad`` and ``scenarios/``, found without importing vizdoom) through
vizdoom's own C++ controller (built from the vizdoom sdist with the package,
see native/third_party/build_vizdoom.py).

Ids: one per scenario of the vizdoom package with a ``.cfg`` and a ``.wad``
(``basic`` -> ``Basic-v1``), EnvPool's four DFP scenarios ``D1Basic-v1`` ..
``D4Battle2-v1`` (their files are not in the vizdoom package: pass ``cfg_path``
and ``wad_path``), and ``VizdoomCustom-v1`` for any ``cfg_path`` / ``wad_path``.

Defaults are EnvPool's: img_height=img_width=84, stack_num=4, frame_skip=4,
use_combined_action=False (a float64 vector, one value per button),
use_inter_area_resize=True, weapon_duration=5, its reward_config and
selected_weapon_reward_config weights (float32 values, as EnvPool stores
them), max_episode_steps=525. The reward is EnvPool's: weighted deltas of game
variables, not the scenario's own reward; ``use_game_reward=True`` (not in
EnvPool) gives the scenario's reward instead, which is also in
``info["game_reward"]``.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from envpool import _native
from envpool.core.keyword_domains import FLOAT32, check_value
from envpool.core.registry import register
from envpool.tasks._installed import package_path

VIZDOOM_VERSION = "1.3.2"
INSTALL_HINT = f"pip install vizdoom=={VIZDOOM_VERSION}"


PACKAGE_DIR = package_path("vizdoom")
SCENARIOS_DIR = os.path.join(PACKAGE_DIR, "scenarios") if PACKAGE_DIR else ""
ENGINE_PATH = os.path.join(PACKAGE_DIR, "vizdoom") if PACKAGE_DIR else ""
IWAD_PATH = os.path.join(PACKAGE_DIR, "freedoom2.wad") if PACKAGE_DIR else ""

# The scenarios of vizdoom 1.3.2 that have a cfg and a wad, used when vizdoom is
# not installed so that the ids exist and making one says what is missing.
_VIZDOOM_1_3_2_SCENARIOS = """
    basic basic_audio basic_notifications cig deadly_corridor deathmatch defend_the_center
    defend_the_line health_gathering health_gathering_supreme multi_duel my_way_home
    predict_position rocket_basic simpler_basic take_cover
""".split()
# EnvPool's scenarios from Dosovitskiy & Koltun's "Learning to Act by Predicting the
# Future", which the vizdoom package does not ship: their maps come from the
# envpool-assets package (the data package sail-sg EnvPool installs), read where it is
# installed (`pip install envpool-assets`, or the vizdoom-assets extra); without it,
# their ids need cfg_path= and wad_path=.
DFP_SCENARIOS = ["D1_basic", "D2_navigation", "D3_battle", "D4_battle2"]
ASSETS_HINT = "pip install envpool-assets"
ASSETS_MAPS_DIR = package_path("envpool_assets", "vizdoom", "maps")


def _cfg_wad(folder: str, scenario: str) -> tuple[str, str]:
    """The paths of ``scenario``'s cfg and wad files in ``folder``."""
    return (os.path.join(folder, f"{scenario}.cfg"), os.path.join(folder, f"{scenario}.wad"))


def _assets_map(scenario: str) -> tuple[str, str] | None:
    """The cfg and wad of ``scenario`` in envpool-assets, when it is installed."""
    if not ASSETS_MAPS_DIR:
        return None
    cfg, wad = _cfg_wad(ASSETS_MAPS_DIR, scenario)
    return (cfg, wad) if os.path.isfile(cfg) and os.path.isfile(wad) else None


def _scenarios() -> list[str]:
    if SCENARIOS_DIR and os.path.isdir(SCENARIOS_DIR):
        found = sorted(
            f[:-4] for f in os.listdir(SCENARIOS_DIR)
            if f.endswith(".cfg") and os.path.exists(os.path.join(SCENARIOS_DIR, f[:-4] + ".wad"))
        )
        if found:
            return found
    return list(_VIZDOOM_1_3_2_SCENARIOS)


def scenario_id(scenario: str) -> str:
    """EnvPool's naming: ``defend_the_center`` -> ``DefendTheCenter-v1``."""
    return "".join(part.capitalize() for part in scenario.split("_")) + "-v1"


def _f32(x: Any) -> float:
    return float(np.float32(x))


# EnvPool's defaults; its C++ config holds them as float32.
REWARD_CONFIG: dict[str, tuple[float, float]] = {
    "FRAGCOUNT": (1, -1.5), "KILLCOUNT": (1, 0), "DEATHCOUNT": (-0.75, 0.75),
    "HITCOUNT": (0.01, -0.01), "DAMAGECOUNT": (0.003, -0.003), "HEALTH": (0.005, -0.003),
    "ARMOR": (0.005, -0.001),
    "WEAPON0": (0.02, -0.01), "AMMO0": (0.0002, -0.0001),
    "WEAPON1": (0.02, -0.01), "AMMO1": (0.0002, -0.0001),
    "WEAPON2": (0.02, -0.01), "AMMO2": (0.0002, -0.0001),
    "WEAPON3": (0.1, -0.05), "AMMO3": (0.001, -0.0005),
    "WEAPON4": (0.1, -0.05), "AMMO4": (0.001, -0.0005),
    "WEAPON5": (0.1, -0.05), "AMMO5": (0.001, -0.0005),
    "WEAPON6": (0.2, -0.1), "AMMO6": (0.002, -0.001),
    "WEAPON7": (0.2, -0.1), "AMMO7": (0.002, -0.001),
}
REWARD_CONFIG = {k: (_f32(a), _f32(b)) for k, (a, b) in sorted(REWARD_CONFIG.items())}
SELECTED_WEAPON_REWARD_CONFIG: dict[int, float] = {
    i: _f32(w) for i, w in enumerate([0.0002, 0.0002, 0.0002, 0.001, 0.001, 0.001, 0.002, 0.002])
}
NUM_WEAPON_SLOTS = 10


def _doom_config_path() -> str:
    root = os.environ.get("ENVPOOL_CACHE_DIR") or os.path.join(
        os.path.expanduser("~"), ".cache", "envpool")
    folder = os.path.join(root, "vizdoom")
    os.makedirs(folder, exist_ok=True)
    return os.path.join(folder, "_vizdoom.ini")


def _pairs(name: str, value: Any, width: int) -> list[tuple[Any, list[float]]]:
    if not isinstance(value, dict):
        raise TypeError(f"{name} must be a dict, got {value!r}")
    out = []
    for key, entry in value.items():
        numbers = list(entry) if isinstance(entry, (tuple, list, np.ndarray)) else [entry]
        if len(numbers) != width or not all(
            isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool)
            for x in numbers
        ):
            raise ValueError(f"{name}[{key!r}] must be {width} number(s), got {entry!r}")
        # each number is a float32 of the engine's config: finite there too
        check_value("ViZDoom", f"{name}[{key!r}]", numbers, FLOAT32)
        out.append((key, [float(x) for x in numbers]))
    return out


def _prepare(kw: dict[str, Any]) -> dict[str, Any]:
    if _native.vizdoom_missing:
        raise RuntimeError(_native.vizdoom_missing)
    if not PACKAGE_DIR and not (kw["vzd_path"] and kw["iwad_path"]):
        raise ImportError(f"the ViZDoom envs run the engine of the vizdoom package: {INSTALL_HINT}")
    if not kw["cfg_path"]:
        raise ValueError(
            "cfg_path is empty: VizdoomCustom-v1 needs the scenario's cfg_path= (and "
            "wad_path=); the D1..D4 scenarios read theirs from the envpool-assets package, "
            f"which is not installed ({ASSETS_HINT}), or take cfg_path= and wad_path=")
    rewards = _pairs("reward_config", kw["reward_config"], 2)
    weapons = _pairs("selected_weapon_reward_config", kw["selected_weapon_reward_config"], 1)
    weapon_reward = [0.0] * NUM_WEAPON_SLOTS
    for slot, (w,) in weapons:
        if not isinstance(slot, (int, np.integer)) or not 0 <= slot < NUM_WEAPON_SLOTS:
            raise ValueError(f"selected_weapon_reward_config: weapon slots are 0 .. "
                             f"{NUM_WEAPON_SLOTS - 1}, got {slot!r}")
        weapon_reward[int(slot)] = _f32(w)
    deltas = _pairs("delta_button_config", kw["delta_button_config"], 3)
    return {
        "_doom_config_path": _doom_config_path(),
        "_reward_variables": [str(k) for k, _ in rewards],
        "_reward_pos": [_f32(v[0]) for _, v in rewards],
        "_reward_neg": [_f32(v[1]) for _, v in rewards],
        "_weapon_reward": weapon_reward,
        "_delta_buttons": [str(k) for k, _ in deltas],
        "_delta_num": [float(int(v[0])) for _, v in deltas],
        "_delta_min": [_f32(v[1]) for _, v in deltas],
        "_delta_max": [_f32(v[2]) for _, v in deltas],
    }


_PYTHON_KWARGS = {
    "reward_config": REWARD_CONFIG,
    "selected_weapon_reward_config": SELECTED_WEAPON_REWARD_CONFIG,
    "delta_button_config": {},
}

# Maps with deathmatch starts only: without -deathmatch the engine stops with "No player
# 1 start" (as in vizdoom's own examples, which host a game for them; EnvPool 1.2.5, whose
# game_args default is empty, cannot start them).
_DEATHMATCH_ONLY = {"cig", "multi_duel"}
# Ids with no files here (neither the vizdoom package nor envpool-assets has them):
# making one needs cfg_path / wad_path.
NEEDS_USER_FILES = {scenario_id(s) for s in DFP_SCENARIOS + ["vizdoom_custom"]
                    if s == "vizdoom_custom" or _assets_map(s) is None}

SCENARIOS: dict[str, str] = {}
_PACKAGE_SCENARIOS = _scenarios()  # one listing of the package's folder, at import
for _scenario in _PACKAGE_SCENARIOS + DFP_SCENARIOS + ["vizdoom_custom"]:
    _id = scenario_id(_scenario)
    SCENARIOS[_id] = _scenario
    _in_package = bool(SCENARIOS_DIR) and _scenario in _PACKAGE_SCENARIOS
    _files = (_cfg_wad(SCENARIOS_DIR, _scenario) if _in_package
              else _assets_map(_scenario) or ("", ""))
    register(
        _id,
        "ViZDoom",
        max_episode_steps=525,
        prepare=_prepare,
        python_kwargs=_PYTHON_KWARGS,
        thread_per_env=True,  # each step waits on the env's engine process
        cfg_path=_files[0],
        wad_path=_files[1],
        vzd_path=ENGINE_PATH,
        iwad_path=IWAD_PATH,
        **({"game_args": "-deathmatch"} if _scenario in _DEATHMATCH_ONLY else {}),
    )
