"""Atari task ids: ``<Game>-v5`` for every single-player game of ale-py (EnvPool's naming).

One native env, ``Atari`` of the module ``envpool._atari``, serves every game: ``game``
names the ROM and ``rom_path`` points at it inside the installed ``ale_py`` package
(``ale_py/roms/<game>.bin``, found without importing ale_py). The module links the ALE
library of the same ale-py version (native/third_party/build_ale.py); it is a module of its
own because the ALE is GPL-2.0-only (NOTICE), and an envpool built without it
(``-DENVPOOL_WITH_ATARI=OFF``) has no Atari ids.

Defaults are EnvPool's: frame_skip=4 (max-pool of the last two frames),
noop_max=30, episodic_life=False, zero_discount_on_life_loss=False,
reward_clip=False, stack_num=4, img_height=img_width=84, gray_scale=True,
use_inter_area_resize=True, use_fire_reset=True, repeat_action_probability=0,
full_action_space=False, max_episode_steps=27000.
"""

from __future__ import annotations

import os

from envpool.core.registry import register
from envpool.core.sdk import report_module_failure
from envpool.tasks._installed import package_path

try:
    from envpool import _atari
except ImportError as _error:  # built with -DENVPOOL_WITH_ATARI=OFF, or it cannot load
    _atari = None
    report_module_failure("envpool._atari (the Atari ids)", _error)

# The ROMs of ale-py 0.12.1 (the pinned version), used when ale_py is not
# installed so that the ids exist and making one explains what is missing.
_ALE_PY_0_12_1_ROMS = """
    adventure air_raid alien amidar assault asterix asteroids atlantis atlantis2 backgammon
    bank_heist basic_math battle_zone beam_rider berzerk blackjack bowling boxing breakout
    carnival casino centipede chopper_command combat crazy_climber crossbow darkchambers
    defender demon_attack donkey_kong double_dunk earthworld elevator_action enduro entombed et
    fishing_derby flag_capture freeway frogger frostbite galaxian gopher gravitar hangman
    haunted_house hero human_cannonball ice_hockey jamesbond journey_escape joust kaboom
    kangaroo keystone_kapers king_kong klax koolaid krull kung_fu_master laser_gates
    lost_luggage mario_bros maze_craze miniature_golf montezuma_revenge mr_do ms_pacman
    name_this_game othello pacman phoenix pitfall pitfall2 pong pooyan private_eye qbert
    riverraid road_runner robotank seaquest sir_lancelot skiing solaris space_invaders space_war
    star_gunner superman surround tennis tetris tic_tac_toe_3d time_pilot trondead turmoil
    tutankham up_n_down venture video_checkers video_chess video_cube video_pinball warlords
    wizard_of_wor word_zapper yars_revenge zaxxon
""".split()


ROMS_DIR = package_path("ale_py", "roms")


def _rom_ids() -> list[str]:
    if ROMS_DIR and os.path.isdir(ROMS_DIR):
        found = sorted(f[:-4] for f in os.listdir(ROMS_DIR) if f.endswith(".bin"))
        if found:
            return found
    return list(_ALE_PY_0_12_1_ROMS)


def rom_id_to_name(rom: str) -> str:
    """ale-py's naming: ``space_invaders`` -> ``SpaceInvaders``."""
    return rom.title().replace("_", "")


def rom_path(rom: str) -> str:
    return os.path.join(ROMS_DIR, f"{rom}.bin") if ROMS_DIR else ""


# ROMs that ale-py ships for PettingZoo's multi-player games only: the single-player ALE
# refuses them by calling exit(1) from loadROM, which would end the Python process, and
# ale-py registers no ALE/<Game>-v5 id for them (nor does EnvPool).
MULTIPLAYER_ONLY_ROMS = frozenset({"combat", "joust", "maze_craze", "warlords"})

GAMES: dict[str, str] = {
    rom_id_to_name(r): r for r in _rom_ids() if r not in MULTIPLAYER_ONLY_ROMS
}

# Keywords that may differ per env: each env has its own emulator, and these change
# neither the frames' shape nor the action set (game, full_action_space, frame_skip, the
# image keywords and stack_num do, or change what a step is).
PER_ENV_KWARGS = ("repeat_action_probability", "mode", "difficulty", "noop_max",
                  "episodic_life", "reward_clip", "use_fire_reset", "zero_discount_on_life_loss")

# sail-sg EnvPool spells one id its own way (from the ROM name tic_tac_toe_3d): both ids
# exist, the same env, so EnvPool scripts run unchanged.
ENVPOOL_SPELLINGS = {"TicTacToe3D": "TicTacToe3d"}

for _name, _rom in GAMES.items() if _atari is not None else ():
    for _id in dict.fromkeys((_name, ENVPOOL_SPELLINGS.get(_name, _name))):
        register(
            f"{_id}-v5",
            "Atari",
            module=_atari,
            max_episode_steps=27000,
            per_env_kwargs=PER_ENV_KWARGS,
            game=_rom,
            rom_path=rom_path(_rom),
        )
