"""Alignment of the Atari envs with ale-py 0.12.1 and gymnasium's Atari preprocessing.

1. Emulator: our env and a plain ``ale_py.ALEInterface`` run side by side with
   the same ALE seed (ours derives it from the env's seed as ale-py does and
   shows it in ``get_state``), the same sticky-action probability, the same reset
   sequence (``reset_game``, the no-ops our env drew, FIRE) and the same
   actions, each of our steps being ``frame_skip`` ``act`` calls on the
   reference (stopping at game over). After every step the raw RGB screen,
   the frame counters, lives, game over, the summed reward and the clipped
   reward must be equal: exactly, since both run the same emulator code.
2. Preprocessing: our observation against gymnasium's ``AtariPreprocessing``
   (frame_skip=4, noop_max=0, 84x84 grayscale, cv2.INTER_AREA) +
   ``FrameStackObservation(4)`` over ``gymnasium.make("ALE/<Game>-v5",
   frameskip=1)``, whose ALE is re-seeded with our env's ALE seed. Tolerance:
   none — our C++ area resize reproduces OpenCV's INTER_AREA arithmetic (the
   same weight tables, float accumulation order and rounding), so the stacked
   uint8 observations must be identical.
3. Seeding: ``reset(seed=s)`` against ale-py's own ``AtariEnv.reset(seed=s)``
   (its ``seed_game``: numpy's ``SeedSequence``, then a ROM reload), with sticky
   actions; our C++ ``SeedSequence`` against numpy's.
"""

from __future__ import annotations

import json
import pathlib
from typing import Any

import numpy as np
import pytest

import envpool
from envpool.tasks.atari import GAMES, rom_path

ale_py = pytest.importorskip("ale_py")

GAMES_UNDER_TEST = ["Pong", "Breakout", "SpaceInvaders", "MontezumaRevenge", "Seaquest"]
NOOP, FIRE = 0, 1
STATE_HEAD = 6  # seed, noops, lives, game over, frame number, episode frame number


def _ref_ale(seed: int, sticky: float, game: str, mode: int = -1,
             difficulty: int = -1) -> Any:
    """The reference emulator, set up as ale-py's ``AtariEnv.load_game`` does it."""
    ale = ale_py.ALEInterface()
    ale.setLoggerMode(ale_py.LoggerMode.Error)
    ale.setInt("random_seed", seed)
    ale.setFloat("repeat_action_probability", sticky)
    ale.loadROM(rom_path(GAMES[game]))
    if mode != -1:
        ale.setMode(mode)
    if difficulty != -1:
        ale.setDifficulty(difficulty)
    return ale


def _check_state(env: Any, ale: Any, where: Any) -> np.ndarray:
    state = np.array(env.get_state(0))
    assert state[2] == ale.lives(), where
    assert bool(state[3]) == ale.game_over(with_truncation=False), where
    assert state[4] == ale.getFrameNumber(), where
    assert state[5] == ale.getEpisodeFrameNumber(), where
    screen = state[STATE_HEAD:].astype(np.uint8).reshape(ale.getScreenRGB().shape)
    np.testing.assert_array_equal(screen, ale.getScreenRGB(), err_msg=str(where))
    return state


def _ref_reset(env: Any, ale: Any, fire: bool, reset_game: bool = True) -> None:
    """Replays our env's last reset on the reference: ``reset_game`` (unless the reference
    just did it itself, as ale-py's ``reset(seed=)`` does), our no-ops, FIRE."""
    noops = int(env.get_state(0)[1])
    if reset_game:
        ale.reset_game()
    for _ in range(noops):
        ale.act(NOOP)
        if ale.game_over(with_truncation=False):
            ale.reset_game()
    if fire:
        ale.act(FIRE)
        if ale.game_over(with_truncation=False):
            ale.reset_game()


@pytest.mark.parametrize("sticky", [0.0, 0.25])
@pytest.mark.parametrize("game", GAMES_UNDER_TEST)
def test_emulator_align(game: str, sticky: float) -> None:
    steps = 250
    env = envpool.make_gymnasium(f"{game}-v5", num_envs=1, seed=11,
                                 repeat_action_probability=sticky, reward_clip=True)
    obs, info = env.reset()
    state = np.array(env.get_state(0))
    ale = _ref_ale(int(state[0]), sticky, game)
    actions = ale.getMinimalActionSet()
    assert env.single_action_space.n == len(actions)
    fire = len(actions) >= 3 and actions[1] == ale_py.Action.FIRE
    assert obs.shape == (1, 4, 84, 84) and obs.dtype == np.uint8
    _ref_reset(env, ale, fire)
    _check_state(env, ale, "reset")
    _step_aligned(env, ale, fire, np.random.default_rng(5), steps, (game, sticky),
                  reward_clip=True)
    env.close()


def _other_mode_and_difficulty(game: str) -> tuple[int, int]:
    """A mode and a difficulty of ``game`` other than the ROM's defaults (the last ones)."""
    ale = _ref_ale(0, 0.0, game)
    modes, difficulties = ale.getAvailableModes(), ale.getAvailableDifficulties()
    assert len(modes) > 1 and len(difficulties) > 1, game
    return int(modes[-1]), int(difficulties[-1])


@pytest.mark.parametrize("game", ["Breakout", "SpaceInvaders"])
def test_mode_and_difficulty_align(game: str) -> None:
    """``mode`` / ``difficulty`` (EnvPool's keywords) set the ALE as ale-py's ``AtariEnv(mode=,
    difficulty=)`` does; the lockstep runs through autoresets, so every reload keeps them."""
    mode, difficulty = _other_mode_and_difficulty(game)
    env = envpool.make_gymnasium(f"{game}-v5", num_envs=1, seed=11, mode=mode,
                                 difficulty=difficulty)
    env.reset()
    state = np.array(env.get_state(0))
    ale = _ref_ale(int(state[0]), 0.0, game, mode, difficulty)
    actions = ale.getMinimalActionSet()
    fire = len(actions) >= 3 and actions[1] == ale_py.Action.FIRE
    _ref_reset(env, ale, fire)
    _check_state(env, ale, "reset")
    _step_aligned(env, ale, fire, np.random.default_rng(5), 300, (game, mode, difficulty),
                  reward_clip=False)
    env.close()


def test_mode_and_difficulty_change_the_game() -> None:
    """The settings reach the emulator: the same seed and actions give other screens."""
    mode, difficulty = _other_mode_and_difficulty("SpaceInvaders")
    screens = []
    for kw in ({}, {"mode": mode}, {"difficulty": difficulty}):
        env = envpool.make_gymnasium("SpaceInvaders-v5", num_envs=1, seed=3, **kw)
        env.reset()
        for a in np.random.default_rng(0).integers(6, size=100):
            env.step(np.array([a]))
        screens.append(np.array(env.get_state(0)[STATE_HEAD:]))
        env.close()
    assert not np.array_equal(screens[0], screens[1])
    assert not np.array_equal(screens[0], screens[2])


def test_unavailable_mode_or_difficulty_is_refused() -> None:
    modes = [int(m) for m in _ref_ale(0, 0.0, "Pong").getAvailableModes()]
    bad = max(modes) + 1
    with pytest.raises(ValueError, match=rf"mode {bad} is not one of this game's: "
                                         + ", ".join(map(str, modes))):
        envpool.make_gymnasium("Pong-v5", mode=bad)
    with pytest.raises(ValueError, match="difficulty 99 is not one of"):
        envpool.make_gymnasium("Pong-v5", difficulty=99)


def test_mode_and_difficulty_per_env() -> None:
    """One pool whose envs play other modes and difficulties: each row is what a pool of
    that env alone gives."""
    mode, difficulty = _other_mode_and_difficulty("SpaceInvaders")
    settings = [{"mode": -1, "difficulty": -1}, {"mode": mode, "difficulty": difficulty}]
    pool = envpool.make_gymnasium("SpaceInvaders-v5", num_envs=2, seed=[4, 4],
                                  env_kwargs=settings)
    singles = [envpool.make_gymnasium("SpaceInvaders-v5", num_envs=1, seed=4, **kw)
               for kw in settings]
    obs, _ = pool.reset()
    for i, single in enumerate(singles):
        np.testing.assert_array_equal(obs[i], single.reset()[0][0])
    for a in np.random.default_rng(1).integers(6, size=80):
        obs = pool.step(np.array([a, a]))[0]
        for i, single in enumerate(singles):
            np.testing.assert_array_equal(obs[i], single.step(np.array([a]))[0][0])
    assert not np.array_equal(obs[0], obs[1])


def _step_aligned(env: Any, ale: Any, fire: bool, rng: np.random.Generator, steps: int,
                  where: Any, reward_clip: bool, check_every: int = 5) -> None:
    """Steps our env (one env, frame_skip 4) and the reference ALE side by side with the same
    random actions, each of our steps being 4 ``act`` calls on the reference (stopping at game
    over), replaying our resets after a game over; checks the rewards, lives and game over
    every step (the RAM too) and the screen and frame counters every ``check_every`` steps."""
    actions = ale.getMinimalActionSet()
    needs_reset = False
    for t in range(steps):
        a = int(rng.integers(len(actions)))
        _, reward, terminated, truncated, info = env.step(np.array([a]))
        if needs_reset:
            _ref_reset(env, ale, fire)
            _check_state(env, ale, (where, "autoreset", t))
            needs_reset = False
            continue
        ref_reward = 0
        for _ in range(4):
            ref_reward += ale.act(actions[a])
            if ale.game_over(with_truncation=False):
                break
        at = (where, t)
        if t % check_every == 0 or terminated[0]:  # the screen through get_state is slow-ish
            _check_state(env, ale, at)
        assert info["reward"][0] == ref_reward, at
        assert reward[0] == (np.sign(ref_reward) if reward_clip else ref_reward), at
        assert info["lives"][0] == ale.lives(), at
        np.testing.assert_array_equal(info["ram"][0], ale.getRAM(), err_msg=str(at))
        assert bool(info["terminated"][0]) == ale.game_over(with_truncation=False), at
        assert bool(terminated[0]) == ale.game_over(with_truncation=False), at
        assert not truncated[0]
        needs_reset = bool(terminated[0])


def _ale_py_seed(seed: int) -> int:
    """The ALE seed ale-py 0.12.1's ``AtariEnv.seed_game(seed)`` sets (numpy's words)."""
    return int(np.int32(np.random.SeedSequence(seed).generate_state(n_words=2)[1]))


SEEDS = [0, 1, 2, 3, 11, 12345, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**32 + 7, 2**40 + 3,
         2**63 - 1, 2**63, 2**64 - 2, 2**64 - 1]


def test_seed_sequence_matches_numpy() -> None:
    """Our C++ SeedSequence (the source of the ALE seeds) against numpy's, for edge seeds and
    random 64-bit ones; more words than the pool of 4 check that the pool is cycled."""
    from envpool import _native as native
    rng = np.random.default_rng(0)
    seeds = SEEDS + [int(x) for x in rng.integers(0, 2**64, size=300, dtype=np.uint64)]
    for seed in seeds:
        for n_words in (1, 2, 9):
            ref = np.random.SeedSequence(seed).generate_state(n_words)
            assert ref.dtype == np.uint32
            np.testing.assert_array_equal(native._seed_sequence_state(seed, n_words), ref,
                                          err_msg=f"seed {seed}, {n_words} words")


@pytest.mark.parametrize("game", ["Pong", "Breakout"])
def test_reset_seed_matches_ale_py(game: str) -> None:
    """``reset(seed=s)`` restarts the emulator exactly as ale-py's ``AtariEnv.reset(seed=s)``
    does (same ALE seed, ROM reloaded), with sticky actions, the default no-ops and the fire
    reset: after replaying our no-ops and FIRE on ale-py's emulator, the raw screens, frame
    counters, lives and rewards are equal at every step; again after a second ``reset(seed=)``
    in the middle of the run, and on an env that has run before."""
    sticky = 0.25
    env = envpool.make_gymnasium(f"{game}-v5", num_envs=1, seed=0,
                                 repeat_action_probability=sticky)
    env.reset()
    for _ in range(20):  # a used env: its ALE has run, its Rng has drawn
        env.step(np.zeros(1, dtype=np.int32))
    ref = ale_py.env.AtariEnv(GAMES[game], frameskip=1, repeat_action_probability=sticky)
    ale = ref.ale
    actions = ale.getMinimalActionSet()
    fire = len(actions) >= 3 and actions[1] == ale_py.Action.FIRE
    assert fire
    rng = np.random.default_rng(4)
    for seed in (123, 2**40 + 5):
        env.reset(seed=seed)
        _, info = ref.reset(seed=seed)
        state = env.get_state(0)
        assert state[0] == np.int32(info["seeds"][1]) == _ale_py_seed(seed)
        _ref_reset(env, ale, fire, reset_game=False)
        _check_state(env, ale, (game, seed, "reset"))
        _step_aligned(env, ale, fire, rng, 150, (game, seed), reward_clip=False, check_every=1)
    env.close()
    ref.close()


def _record(env: Any, steps: int, seed: int = 7) -> tuple[np.ndarray, np.ndarray, list]:
    """Observations and rewards of `steps` random steps (the same actions for every env),
    and the envs' final states."""
    rng = np.random.default_rng(seed)
    obs, rewards = [], []
    for _ in range(steps):
        a = int(rng.integers(env.single_action_space.n))
        o, r, _, _, _ = env.step(np.full(len(env), a, dtype=np.int32))
        obs.append(o.copy())
        rewards.append(r.copy())
    return np.array(obs), np.array(rewards), [env.get_state(i) for i in range(len(env))]


@pytest.mark.parametrize("game", ["Pong", "Breakout"])
def test_make_seed_equals_reset_seed(game: str) -> None:
    """``make(seed=s)`` + ``reset()`` and ``reset(seed=s)`` on an env that has run under another
    seed give the same episode (env i: seed s + i, ALE seed as ale-py derives it)."""
    kw = {"num_envs": 2, "repeat_action_probability": 0.25}
    fresh = envpool.make_gymnasium(f"{game}-v5", seed=1000, **kw)
    fresh_obs, _ = fresh.reset()
    used = envpool.make_gymnasium(f"{game}-v5", seed=5, **kw)
    used.reset()
    _record(used, 40, seed=1)
    used_obs, _ = used.reset(seed=1000)
    for i in range(2):
        assert fresh.get_state(i)[0] == _ale_py_seed(1000 + i)
    np.testing.assert_array_equal(used_obs, fresh_obs)
    a, b = _record(fresh, 80), _record(used, 80)
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])
    for i in range(2):
        np.testing.assert_array_equal(a[2][i], b[2][i])
    fresh.close()
    used.close()


def test_seeds_differ_through_the_ale() -> None:
    """Without no-ops or a fire press, two envs with different seeds and the same actions
    differ only through their ALE seeds: apart under sticky actions, equal without."""
    for sticky in (0.25, 0.0):
        env = envpool.make_gymnasium("Pong-v5", num_envs=2, seed=3, noop_max=0,
                                     use_fire_reset=False, repeat_action_probability=sticky)
        env.reset()
        obs, _, states = _record(env, 100)
        assert states[0][0] == _ale_py_seed(3) != states[1][0] == _ale_py_seed(4)
        assert np.array_equal(obs[:, 0], obs[:, 1]) == (sticky == 0), sticky
        env.close()


def test_reset_seed_after_life_loss_is_a_new_game() -> None:
    """With ``episodic_life``, a plain reset after a life loss continues the game, but
    ``reset(seed=s)`` reloads the ROM: a new game, as from ``make(seed=s)``."""
    kw = {"num_envs": 1, "episodic_life": True, "repeat_action_probability": 0.25}
    env = envpool.make_gymnasium("Breakout-v5", seed=9, **kw)
    env.reset()
    rng = np.random.default_rng(0)
    for _ in range(2000):
        _, _, terminated, _, info = env.step(rng.integers(4, size=1))
        if terminated[0]:
            break
    assert terminated[0] and info["lives"][0] == 4
    obs, info = env.reset(seed=21)
    assert info["lives"][0] == 5
    ref = envpool.make_gymnasium("Breakout-v5", seed=21, **kw)
    ref_obs, _ = ref.reset()
    np.testing.assert_array_equal(obs, ref_obs)
    np.testing.assert_array_equal(env.get_state(0), ref.get_state(0))
    env.close()
    ref.close()


# Games whose screen is not 210 x 160: Adventure (a PAL cart, 250 rows), Pooyan (220).
TALL_GAMES = ["Adventure", "Pooyan"]


@pytest.mark.parametrize(("game", "sticky"), [(g, 0.0) for g in GAMES_UNDER_TEST + TALL_GAMES]
                         + [("Breakout", 0.25)])
def test_preprocessing_align(game: str, sticky: float) -> None:
    _preprocessing_lockstep(game, sticky, steps=200)


# RGB observations, at the screen's own size and at 84 x 84: AtariPreprocessing's
# grayscale_obs=False, screen_size (width, height); our frames are channel-first.
@pytest.mark.parametrize("size", [(210, 160), (84, 84)])
@pytest.mark.parametrize("game", ["Pong", *TALL_GAMES])
def test_preprocessing_align_rgb(game: str, size: tuple[int, int]) -> None:
    _preprocessing_lockstep(game, 0.0, steps=60, gray_scale=False, img_size=size)


# A step whose game ends before its last frame skips the grabs, and gymnasium then maxes the
# previous step's pooled frame with its next-to-last frame in place: the path the envs reach
# only on game over. Random play ends these games within the step budget.
@pytest.mark.parametrize("game", ["SpaceInvaders", "Breakout"])
def test_preprocessing_align_through_game_over(game: str) -> None:
    game_overs = _preprocessing_lockstep(game, 0.0, steps=6000, stop_after_game_overs=2)
    assert game_overs >= 1, f"{game}: no game ended in 6000 steps; the test saw no game over"


def _preprocessing_lockstep(game: str, sticky: float, steps: int,
                            stop_after_game_overs: int | None = None, gray_scale: bool = True,
                            img_size: tuple[int, int] = (84, 84)) -> int:
    """Our Pong-style preprocessing against gymnasium's AtariPreprocessing +
    FrameStackObservation on the same emulator, observation for observation; returns
    the number of games that ended. ``img_size``: (height, width)."""
    pytest.importorskip("cv2")
    import gymnasium
    from gymnasium.wrappers import AtariPreprocessing, FrameStackObservation

    gymnasium.register_envs(ale_py)
    env = envpool.make_gymnasium(f"{game}-v5", num_envs=1, seed=2, noop_max=0,
                                 use_fire_reset=False, repeat_action_probability=sticky,
                                 gray_scale=gray_scale, img_height=img_size[0],
                                 img_width=img_size[1])
    obs, _ = env.reset()
    seed = int(env.get_state(0)[0])
    base = gymnasium.make(f"ALE/{game}-v5", frameskip=1, repeat_action_probability=sticky,
                          full_action_space=False)
    ref = FrameStackObservation(
        AtariPreprocessing(base, noop_max=0, frame_skip=4, screen_size=img_size[::-1],
                           terminal_on_life_loss=False, grayscale_obs=gray_scale,
                           scale_obs=False),
        stack_size=4)

    def ours(obs: np.ndarray) -> np.ndarray:
        """Env 0's stack in gymnasium's layout: (4, H, W), or (4, H, W, 3) from our
        channel-first (4 * 3, H, W)."""
        if gray_scale:
            return obs[0]
        return obs[0].reshape(4, 3, *img_size).transpose(0, 2, 3, 1)

    ref.reset(seed=0)
    base.unwrapped.ale.setInt("random_seed", seed)
    base.unwrapped.load_game()
    ref_obs, _ = ref.reset()
    assert ref_obs.shape == ours(obs).shape
    np.testing.assert_array_equal(ours(obs), ref_obs)
    rng = np.random.default_rng(9)
    needs_reset = False
    game_overs = 0
    n = env.single_action_space.n
    assert n == base.action_space.n
    for t in range(steps):
        a = int(rng.integers(n))
        obs, reward, terminated, truncated, info = env.step(np.array([a]))
        if needs_reset:
            ref_obs, _ = ref.reset()
            needs_reset = False
        else:
            ref_obs, ref_reward, ref_term, ref_trunc, _ = ref.step(a)
            assert reward[0] == ref_reward, (game, t)
            assert bool(terminated[0]) == ref_term, (game, t)
            needs_reset = bool(ref_term)
            game_overs += bool(ref_term)
        np.testing.assert_array_equal(ours(obs), ref_obs, err_msg=f"{game} step {t}")
        if stop_after_game_overs is not None and game_overs >= stop_after_game_overs:
            break
    env.close()
    ref.close()
    return game_overs


def test_defaults_make_and_step() -> None:
    """The default keywords (noop_max=30, fire reset, 4x84x84 stacks) and the info keys."""
    for game in ("Pong", "Breakout"):
        env = envpool.make_gymnasium(f"{game}-v5", num_envs=2, seed=0)
        obs, info = env.reset()
        assert obs.shape == (2, 4, 84, 84)
        assert set(info) >= {"lives", "reward", "terminated", "elapsed_step", "env_id"}
        lives = {"Pong": 0, "Breakout": 5}[game]  # the ALE reports no lives for Pong
        assert (info["lives"] == lives).all() and np.array_equal(info["elapsed_step"], [0, 0])
        obs2, reward, term, trunc, info = env.step(np.zeros(2, dtype=np.int32))
        assert obs2.shape == (2, 4, 84, 84) and obs2.dtype == np.uint8
        assert np.array_equal(info["elapsed_step"], [1, 1]) and not (term | trunc).any()
        # the stack moved by one frame: the old newest frame is now the second newest
        assert np.array_equal(obs2[:, 2], obs[:, 3])
        env.close()


def test_every_game_observes_and_draws_its_whole_screen() -> None:
    """Every game's frame is its whole screen: 210 x 160 for most, taller for some (ale-py's
    getScreenDims: 250 x 160 for the PAL carts, 220 x 160 for Pooyan, ...). For each game
    whose screen is not 210 x 160 (and Pong): render() is the whole RGB screen, the one in
    get_state, and an RGB observation of that size (one frame, no skip, no stack) is that
    screen too. A render or observation path that assumed 210 rows wrote past its buffer
    for the taller games (a heap overflow that aborted the process)."""
    sizes = {game: envpool.make_spec(f"{game}-v5", render_mode="rgb_array").render_frame[:2]
             for game in GAMES}
    assert {210, 220, 250} <= {h for h, _ in sizes.values()}  # Pooyan, the PAL carts
    checked = [g for g, size in sizes.items() if size != (210, 160)] + ["Pong"]
    for game in checked:
        ale = ale_py.ALEInterface()
        ale.setLoggerMode(ale_py.LoggerMode.Error)
        ale.loadROM(rom_path(GAMES[game]))
        height, width = ale.getScreenDims()
        assert sizes[game] == (height, width), game
        env = envpool.make_gymnasium(f"{game}-v5", num_envs=1, seed=0, render_mode="rgb_array",
                                     gray_scale=False, img_height=height, img_width=width,
                                     stack_num=1, frame_skip=1, noop_max=0)
        obs, _ = env.reset()
        for t in range(3):
            frame = env.render()
            assert frame.shape == (1, height, width, 3), game
            screen = np.array(env.get_state(0)[STATE_HEAD:]).astype(np.uint8)
            np.testing.assert_array_equal(frame[0].ravel(), screen, err_msg=game)
            np.testing.assert_array_equal(obs[0].transpose(1, 2, 0), frame[0], err_msg=game)
            obs = env.step(np.array([t % env.single_action_space.n]))[0]
        env.close()
    assert len(checked) >= 14  # the 13 games of the heap overflow, and Pong


def test_all_games_registered() -> None:
    ids = envpool.list_all_envs()
    for game in GAMES:
        assert f"{game}-v5" in ids
    assert len(GAMES) >= 100
    assert "Pong-v5" in ids and "SpaceInvaders-v5" in ids and "MontezumaRevenge-v5" in ids


def test_missing_rom_error() -> None:
    with pytest.raises(Exception, match="ale-py"):
        envpool.make_gymnasium("Pong-v5", num_envs=1, rom_path="/nonexistent/pong.bin")


def test_episodic_life() -> None:
    """A life loss ends the episode (terminated) but not the game: the next reset continues
    with the lives left; info["terminated"] is the real game over."""
    env = envpool.make_gymnasium("Breakout-v5", num_envs=1, seed=1, episodic_life=True)
    env.reset()
    rng = np.random.default_rng(0)
    lives_seen = []
    for _ in range(2000):
        _, _, terminated, _, info = env.step(rng.integers(4, size=1))
        if terminated[0]:
            lives_seen.append(int(info["lives"][0]))
            assert bool(info["terminated"][0]) == (info["lives"][0] == 0)
            _, _, _, _, info = env.step(np.zeros(1, dtype=np.int32))  # the autoreset step
            if lives_seen[-1] > 0:
                assert info["lives"][0] == lives_seen[-1]
            if len(lives_seen) >= 3:
                break
    assert lives_seen[:3] == [4, 3, 2]
    env.close()


def test_defaults_equal_envpool_1_2_5() -> None:
    """Our Atari defaults against sail-sg EnvPool 1.2.5's, as its ``make_spec("Pong-v5")
    .config`` reports them. EnvPool cannot be installed beside this package (the same import
    name), so its config was saved from a separate venv: ``pip install envpool==1.2.5``, then
    ``python -c 'import envpool, json; print(json.dumps(envpool.make_spec("Pong-v5").config
    ._asdict()))'`` (base_path, an install path, dropped) into
    ``tests/data/envpool_1_2_5_pong_config.json``.

    Every keyword both have must have the same default. Deliberate differences, documented in
    docs/atari.md: EnvPool's ``task`` is our ``game`` (and ``rom_path`` ours alone).
    """
    path = pathlib.Path(__file__).parent / "data" / "envpool_1_2_5_pong_config.json"
    ref = json.loads(path.read_text())
    ours = envpool.make_spec("Pong-v5").config._asdict()
    shared = sorted(set(ref) & set(ours))
    assert len(shared) >= 20
    assert {k: ours[k] for k in shared} == {k: ref[k] for k in shared}
    assert set(ref) - set(ours) == {"task"}
    assert ref["task"] == ours["game"] == "pong"
