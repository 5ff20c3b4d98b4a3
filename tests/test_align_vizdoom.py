"""ViZDoom envs against vizdoom's own Python DoomGame, run in the same test.

For Basic, DefendTheCenter, HealthGathering and MyWayHome at frame_skip 1 and 4:
the same seed and actions give the same screens (bitwise, at the engine's own
320x240 and after the 84x84 INTER_AREA resize computed with OpenCV on the
reference's screen), the same game variables, the same rewards (EnvPool's
shaping recomputed here from the reference's variables, as float32; and the
game's own reward) and the same episode ends. Also against vizdoom's gymnasium
wrapper, and EnvPool's combined action sets, keywords and errors.
"""

from __future__ import annotations

import os
import tempfile

import cv2
import numpy as np
import pytest
import vizdoom as vzd

import envpool
from envpool import _native
from envpool.tasks import vizdoom as vizdoom_tasks

SCENARIOS = {
    "Basic-v1": "basic",
    "DefendTheCenter-v1": "defend_the_center",
    "HealthGathering-v1": "health_gathering",
    "MyWayHome-v1": "my_way_home",
}
INFO = ["AMMO2", "AMMO3", "AMMO4", "AMMO5", "AMMO6", "AMMO7", "ARMOR", "DAMAGECOUNT",
        "DEATHCOUNT", "FRAGCOUNT", "HEALTH", "HITCOUNT", "KILLCOUNT", "SELECTED_WEAPON",
        "SELECTED_WEAPON_AMMO", "USER2"]
STEPS = 200
MAX_STEPS = 60  # short episodes: several truncations and natural ends per run


def test_controller_was_built() -> None:
    assert _native.vizdoom_missing == ""


class Reference:
    """vizdoom.DoomGame set up as the env sets up its game, plus EnvPool's reward shaping
    and info fixes written out again from its description."""

    def __init__(self, scenario: str, seed: int, frame_skip: int,
                 screen_format: vzd.ScreenFormat | None = None, directory: str = "") -> None:
        d = directory or vizdoom_tasks.SCENARIOS_DIR
        g = vzd.DoomGame()
        g.load_config(os.path.join(d, f"{scenario}.cfg"))
        if screen_format is not None:  # the cfg's otherwise
            g.set_screen_format(screen_format)
        g.set_vizdoom_path(vizdoom_tasks.ENGINE_PATH)
        g.set_doom_game_path(vizdoom_tasks.IWAD_PATH)
        # The engine writes its ini file; keep it out of the working directory.
        g.set_doom_config_path(os.path.join(tempfile.gettempdir(), "envpool_test_vizdoom.ini"))
        g.set_window_visible(False)
        g.set_mode(vzd.Mode.PLAYER)
        g.set_episode_timeout(0)
        g.set_doom_scenario_path(os.path.join(d, f"{scenario}.wad"))
        g.set_doom_map("map01")
        for name in INFO:
            g.add_available_game_variable(getattr(vzd.GameVariable, name))
        g.set_seed(seed)
        g.init()
        self.game = g
        self.frame_skip = frame_skip
        self.names = [v.name for v in g.get_available_game_variables()]
        rc = vizdoom_tasks.REWARD_CONFIG
        self.pos = [rc.get(n, (0.0, 0.0))[0] for n in self.names]
        self.neg = [rc.get(n, (0.0, 0.0))[1] for n in self.names]
        self.started = False
        self.gvs: list[float] = []
        self.screen = np.zeros(0)

    def reset(self) -> None:
        if self.started:
            self.game.new_episode()
        self.started = True
        self.observe(reset=True)

    def step(self, action: list[float]) -> tuple[float, float, bool]:
        game_reward = self.game.make_action(action, self.frame_skip)
        finished = self.game.is_episode_finished()
        return self.observe(reset=False), game_reward, finished

    def observe(self, reset: bool) -> float:
        state = self.game.get_state()
        if state is None:
            return 0.0
        gv = [float(x) for x in state.game_variables]
        last = list(gv) if reset else list(self.gvs)
        if reset:
            self.base = {}
            self.weapon, self.weapon_count = -1, 0
        for i, name in enumerate(self.names):
            if name in ("HITCOUNT", "DAMAGECOUNT", "DEATHCOUNT"):
                if reset:
                    self.base[name] = gv[i]
                    last[i] = 0.0
                gv[i] -= self.base[name]
        reward = np.float32(0)
        weapon, ammo = -1, 0
        for i, name in enumerate(self.names):
            delta = gv[i] - last[i]
            if name == "DAMAGECOUNT" and delta >= 200:
                delta = 200
            elif name == "HITCOUNT" and delta >= 5:
                delta = 5
            elif name == "SELECTED_WEAPON":
                weapon = int(gv[i])
            elif name == "SELECTED_WEAPON_AMMO":
                ammo = int(gv[i])
            elif name == "HEALTH":
                if last[i] < 0 and gv[i] < 0:
                    last[i] = gv[i] = 100.0
                elif gv[i] < 0:
                    gv[i] = last[i]
                elif last[i] < 0:
                    last[i] = gv[i]
                delta = gv[i] - last[i]
            if delta >= 0:
                reward = np.float32(reward + np.float32(delta * self.pos[i]))
            else:
                reward = np.float32(reward - np.float32(delta * self.neg[i]))
        if weapon == self.weapon:
            self.weapon_count += 1
        else:
            self.weapon, self.weapon_count = weapon, 1
        weights = vizdoom_tasks.SELECTED_WEAPON_REWARD_CONFIG
        if weapon >= 0 and self.weapon_count >= 5 and ammo > 0:
            reward = np.float32(reward + np.float32(weights.get(weapon, 0.0)))
        self.gvs = gv
        self.screen = np.asarray(state.screen_buffer)
        return float(reward)

    def info(self) -> dict[str, float]:
        return {n: (self.gvs[self.names.index(n)] if n in self.names else 0.0) for n in INFO}

    def close(self) -> None:
        self.game.close()


def _random_actions(n_buttons: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.random((STEPS, n_buttons)) < 0.4).astype(np.float64)


def _screen_obs(screen: np.ndarray, size: tuple[int, int] | None) -> np.ndarray:
    """The reference's CRCGCB screen (C, H, W), resized per channel as EnvPool does (a GRAY8
    screen, (H, W), is one channel)."""
    if screen.ndim == 2:
        screen = screen[None]
    if size is None:
        return screen
    return np.stack([cv2.resize(c, (size[1], size[0]), interpolation=cv2.INTER_AREA)
                     for c in screen])


@pytest.mark.sweep
@pytest.mark.parametrize("frame_skip", [1, 4])
@pytest.mark.parametrize("task_id", list(SCENARIOS))
@pytest.mark.parametrize("size", [None, (84, 84)], ids=["native", "84x84"])
def test_lockstep_with_doomgame(task_id: str, frame_skip: int, size: tuple | None) -> None:
    _lockstep(task_id, SCENARIOS[task_id], frame_skip, size, "")


# EnvPool's D1..D4 scenarios, whose maps the envpool-assets package (in the test extra) has
DFP = {"D1Basic-v1": "D1_basic", "D2Navigation-v1": "D2_navigation",
       "D3Battle-v1": "D3_battle", "D4Battle2-v1": "D4_battle2"}


@pytest.mark.parametrize("task_id", list(DFP))
def test_envpools_scenarios_read_envpool_assets(task_id: str) -> None:
    """The D1..D4 ids need no paths where envpool-assets is installed: they read its cfg and
    wad, and step as vizdoom's DoomGame does on the same files."""
    maps = vizdoom_tasks.ASSETS_MAPS_DIR
    assert maps, "envpool-assets (in the test extra) is not installed"
    config = envpool.make_spec(task_id).config
    assert config.cfg_path == os.path.join(maps, f"{DFP[task_id]}.cfg")
    assert config.wad_path == os.path.join(maps, f"{DFP[task_id]}.wad")
    assert task_id not in vizdoom_tasks.NEEDS_USER_FILES
    _lockstep(task_id, DFP[task_id], 4, None, maps, native=(120, 160))  # their cfg's screen


def _lockstep(task_id: str, scenario: str, frame_skip: int, size: tuple | None,
              directory: str, native: tuple[int, int] = (240, 320)) -> None:
    seed = 1234 + frame_skip
    kw = {} if size is None else {"img_height": size[0], "img_width": size[1]}
    if size is None:
        kw = {"img_height": native[0], "img_width": native[1]}
    env = envpool.make(task_id, env_type="gymnasium", num_envs=1, seed=seed, stack_num=2,
                       frame_skip=frame_skip, max_episode_steps=MAX_STEPS, **kw)
    ref = Reference(scenario, seed, frame_skip, directory=directory)
    try:
        n_buttons = env.action_space.shape[0]
        assert n_buttons == len(ref.game.get_available_buttons())
        actions = _random_actions(n_buttons, seed)
        obs, info = env.reset()
        ref.reset()
        prev = _screen_obs(ref.screen, size)
        np.testing.assert_array_equal(obs[0], np.concatenate([prev, prev]))
        ends = {"terminated": 0, "truncated": 0}
        elapsed = 0
        for t in range(STEPS):
            obs, reward, terminated, truncated, info = env.step(actions[t][None])
            ref_reward, ref_game_reward, finished = ref.step(list(actions[t]))
            elapsed += 1
            assert bool(terminated[0]) == finished, f"step {t}"
            assert float(info["game_reward"][0]) == ref_game_reward, f"step {t}"
            assert np.float32(reward[0]) == np.float32(ref_reward), f"step {t}"
            for name, value in ref.info().items():
                assert float(info[name][0]) == value, f"step {t}: {name}"
            if not finished:  # the last frame stays when the game has ended
                cur = _screen_obs(ref.screen, size)
                np.testing.assert_array_equal(obs[0], np.concatenate([prev, cur]),
                                              err_msg=f"step {t}")
                prev = cur
            assert bool(truncated[0]) == (elapsed >= MAX_STEPS and not finished)
            if terminated[0] or truncated[0]:
                ends["terminated" if terminated[0] else "truncated"] += 1
                obs, info = env.reset()
                ref.reset()
                elapsed = 0
                prev = _screen_obs(ref.screen, size)
                np.testing.assert_array_equal(obs[0], np.concatenate([prev, prev]))
        assert ends["truncated"] >= 1  # the run crossed episode boundaries
    finally:
        env.close()
        ref.close()


def test_lockstep_with_vizdoom_gymnasium_wrapper() -> None:
    """vizdoom's own gymnasium env (RGB24, the scenario's timeout, the game's reward)
    against ours with use_game_reward=True at the engine's resolution, through the
    first episodes until the wrapper's timeout (which ours does not apply)."""
    import gymnasium
    from vizdoom import gymnasium_wrapper  # noqa: F401  (registers Vizdoom* ids)

    theirs = gymnasium.make("VizdoomBasic-MultiBinary-v1", frame_skip=4)
    # The wrapper seeds its game with a draw from its own np_random.
    game_seed = int(np.random.Generator(np.random.PCG64(7)).integers(
        0, np.iinfo(np.uint32).max + 1, dtype=np.uint32))
    ours = envpool.make("Basic-v1", env_type="gymnasium", num_envs=1, seed=game_seed,
                        frame_skip=4, stack_num=1, img_height=240, img_width=320,
                        use_game_reward=True)
    try:
        their_obs, _ = theirs.reset(seed=7)  # set_seed(game_seed), init()
        obs, _ = ours.reset()
        np.testing.assert_array_equal(obs[0].transpose(1, 2, 0), their_obs["screen"])
        rng = np.random.default_rng(0)
        compared = 0
        for _ in range(70):  # basic.cfg's timeout is 300 tics = 75 steps
            a = (rng.random(3) < 0.5).astype(np.int8)
            their_obs, their_reward, their_term, their_trunc, _ = theirs.step(a)
            obs, reward, term, trunc, _ = ours.step(a[None].astype(np.float64))
            assert reward[0] == np.float32(their_reward)
            assert bool(term[0]) == (their_term and not their_trunc)
            compared += 1
            if their_term or their_trunc:
                break
            np.testing.assert_array_equal(obs[0].transpose(1, 2, 0), their_obs["screen"])
        assert compared >= 5
    finally:
        theirs.close()
        ours.close()


# Combined action-set sizes measured on sail-sg EnvPool 1.2.5 with its defaults:
# (size, size with force_speed=True).
ENVPOOL_ACTION_SET_SIZES = {
    "Basic-v1": (6, 6), "BasicAudio-v1": (6, 6), "BasicNotifications-v1": (6, 6),
    "Cig-v1": (108, 108), "DeadlyCorridor-v1": (54, 54), "Deathmatch-v1": (4536, 2268),
    "DefendTheCenter-v1": (6, 6), "DefendTheLine-v1": (6, 6), "HealthGathering-v1": (6, 6),
    "HealthGatheringSupreme-v1": (6, 6), "MultiDuel-v1": (6, 6), "MyWayHome-v1": (18, 18),
    "PredictPosition-v1": (6, 6), "RocketBasic-v1": (6, 6), "SimplerBasic-v1": (6, 6),
    "TakeCover-v1": (3, 3),
}


@pytest.mark.parametrize("task_id", sorted(ENVPOOL_ACTION_SET_SIZES))
def test_combined_action_set_sizes_match_envpool(task_id: str) -> None:
    n, n_speed = ENVPOOL_ACTION_SET_SIZES[task_id]
    assert envpool.make_spec(task_id, use_combined_action=True).action_space.n == n
    spec = envpool.make_spec(task_id, use_combined_action=True, force_speed=True)
    assert spec.action_space.n == n_speed


def _basic_table(i: int) -> list[int]:
    # EnvPool's order for Basic [MOVE_LEFT, MOVE_RIGHT, ATTACK]: ATTACK outermost, then
    # the MOVE_RIGHT / MOVE_LEFT pair: neither, right, left.
    attack, pair = divmod(i, 3)
    return [int(pair == 2), int(pair == 1), attack]


def _my_way_home_table(i: int) -> list[int]:
    # [TURN_LEFT, TURN_RIGHT, MOVE_FORWARD, MOVE_LEFT, MOVE_RIGHT]: index = 6 lr + 3 fwd +
    # turn, lr and turn: none, right, left.
    lr, rest = divmod(i, 6)
    fwd, turn = divmod(rest, 3)
    return [int(turn == 2), int(turn == 1), fwd, int(lr == 2), int(lr == 1)]


@pytest.mark.parametrize("task_id,table,n", [("Basic-v1", _basic_table, 6),
                                             ("MyWayHome-v1", _my_way_home_table, 18)])
def test_combined_actions_press_envpools_buttons(task_id: str, table, n: int) -> None:
    """Each combined index acts as EnvPool's button vector for it: lockstep with an
    env that takes the vectors."""
    kw = dict(env_type="gymnasium", num_envs=1, seed=0, stack_num=1, img_height=240,
              img_width=320, use_game_reward=True)
    combined = envpool.make(task_id, use_combined_action=True, **kw)
    raw = envpool.make(task_id, **kw)
    try:
        assert combined.action_space.n == n
        combined.reset()
        raw.reset()
        for k in list(range(n)) + list(range(n))[::-1]:
            o1, r1, t1, *_ = combined.step(np.array([k]))
            o2, r2, t2, *_ = raw.step(np.array([table(k)], dtype=np.float64))
            np.testing.assert_array_equal(o1, o2, err_msg=f"action {k}")
            assert r1[0] == r2[0] and t1[0] == t2[0]
    finally:
        combined.close()
        raw.close()


def test_ids_keywords_and_spaces() -> None:
    ids = [i for i in envpool.list_all_envs() if i in vizdoom_tasks.SCENARIOS]
    assert len(ids) == 21
    for task_id in ("D1Basic-v1", "D2Navigation-v1", "D3Battle-v1", "D4Battle2-v1",
                    "VizdoomCustom-v1", "Cig-v1", "MultiDuel-v1", "RocketBasic-v1"):
        assert task_id in ids
    spec = envpool.make_spec("Basic-v1")
    assert spec.config.max_episode_steps == 525
    assert spec.config.reward_config["KILLCOUNT"] == (1.0, 0.0)
    assert spec.observation_space.shape == (12, 84, 84)
    assert spec.observation_space.dtype == np.uint8
    gray = envpool.make_spec("HealthGatheringSupreme-v1", stack_num=3)
    assert gray.observation_space.shape[0] == 3 * vzd_channels("health_gathering_supreme")


def vzd_channels(scenario: str) -> int:
    g = vzd.DoomGame()
    g.load_config(os.path.join(vizdoom_tasks.SCENARIOS_DIR, f"{scenario}.cfg"))
    return int(g.get_screen_channels())


def test_bad_keywords_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="not a ViZDoom game variable"):
        envpool.make_spec("Basic-v1", reward_config={"NOT_A_VARIABLE": (1, 0)})
    with pytest.raises(ValueError, match="2 number"):
        envpool.make_spec("Basic-v1", reward_config={"KILLCOUNT": 1})
    with pytest.raises(ValueError, match="not a delta button"):
        envpool.make_spec("Basic-v1", delta_button_config={"ATTACK": (3, -1, 1)})
    with pytest.raises(ValueError, match="weapon slots"):
        envpool.make_spec("Basic-v1", selected_weapon_reward_config={12: 1.0})
    with pytest.raises(ValueError, match="cfg_path"):
        envpool.make("VizdoomCustom-v1", num_envs=1)
    with pytest.raises(ValueError, match="envpool-assets"):  # (as where it is not installed)
        envpool.make("D3Battle-v1", num_envs=1, cfg_path="", wad_path="")
    with pytest.raises(ValueError, match="not found"):
        envpool.make("Basic-v1", num_envs=1, wad_path="/nonexistent.wad")
    with pytest.raises(TypeError, match="unknown keyword"):
        envpool.make("Basic-v1", num_envs=1, img_heigth=84)


def test_an_engine_that_cannot_start_is_an_exception_not_a_crash() -> None:
    """cig.wad has deathmatch starts only: without -deathmatch the engine stops at once.
    vizdoom's controller then dereferenced a null game state (the build fixes that), so
    the engine's own message reaches Python."""
    env = envpool.make("Cig-v1", env_type="gymnasium", num_envs=1, game_args="")
    try:
        with pytest.raises(RuntimeError, match="No player 1 start"):
            env.reset()
    finally:
        env.close()


def test_reward_config_changes_the_reward() -> None:
    """Basic, ATTACK held: with only AMMO2 weighted (-0.5 per bullet spent), the return
    is -0.5 times the bullets spent; the default weights give another return."""
    kw = dict(env_type="gymnasium", num_envs=1, seed=3, stack_num=1, max_episode_steps=10)
    default = envpool.make("Basic-v1", **kw)
    custom = envpool.make("Basic-v1", reward_config={"AMMO2": (0.0, -0.5)},
                          selected_weapon_reward_config={}, **kw)
    try:
        _, info0 = custom.reset()
        default.reset()
        shoot = np.array([[0.0, 0.0, 1.0]])
        total_default = total_custom = 0.0
        for _ in range(10):
            _, r_default, *_ = default.step(shoot)
            _, r_custom, term, _, info = custom.step(shoot)
            total_default += float(r_default[0])
            total_custom += float(r_custom[0])
            if term[0]:
                break
        spent = info0["AMMO2"][0] - info["AMMO2"][0]
        assert spent >= 2
        assert total_custom == -0.5 * spent
        assert total_default != total_custom
    finally:
        default.close()
        custom.close()
