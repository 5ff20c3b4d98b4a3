"""Rendering (``render_mode="rgb_array"``): frames drawn by the worker threads.

1. Atari: ``render()`` is the ALE's RGB screen, equal bitwise to ale-py's
   ``AtariEnv(render_mode="rgb_array").render()`` after the same actions (lockstep, same
   seed); ``render_width`` / ``render_height`` shrink it as ``cv2.resize(INTER_AREA)`` does.
2. The API: EnvPool's ``render(env_ids=None, camera_id=None)`` (env ``render_env_id`` by
   default, batched ``(B, H, W, 3)`` uint8), gymnasium's vector ``render()`` (every env),
   the single env's ``render()``, ``metadata["render_modes"]`` / ``render_fps``, and what is
   refused: envs that do not render, envs in flight, bad ids, sizes and cameras.
3. The pool: frames are drawn in parallel on the workers, an env's exception in ``Render``
   reaches Python and leaves the pool usable, a held frame array stays as it was.
4. Classic control (CartPole, MountainCar, MountainCarContinuous, Acrobot, Pendulum):
   gymnasium's pygame picture, bit for bit, its anti-aliased outlines included.
   ViZDoom: the game's screen as RGB, equal bitwise to vizdoom's RGB24 screen in lockstep.
5. Toy text: ``render_mode="ansi"`` is gymnasium's ansi text (FrozenLake, Taxi,
   CliffWalking), stepped in lockstep with gymnasium's own env; ``render_mode="rgb_array"``
   is gymnasium's picture of the same state, bit for bit (FrozenLake's maps of every shape,
   CliffWalking, Taxi's orientations), and an unreadable sprite image is a clear error.
6. Videos end to end: gymnasium's ``RecordVideo`` on ``gymnasium.make("envpool/Pong-v5",
   render_mode="rgb_array")`` and SB3's ``VecVideoRecorder`` on the SB3 adapter write videos
   with the right number of frames.
"""

from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys
import time

import cv2
import gymnasium
import numpy as np
import pytest

import envpool
from envpool.tasks.atari import GAMES

ale_py = pytest.importorskip("ale_py")

SCREEN = (210, 160, 3)


def _count_frames(path: pathlib.Path) -> tuple[int, tuple[int, int]]:
    """The number of frames of a video file, decoded one by one, and their (height, width)."""
    cap = cv2.VideoCapture(str(path))
    n, shape = 0, (0, 0)
    while True:
        ok, frame = cap.read()
        if not ok:
            break
        n += 1
        shape = frame.shape[:2]
    cap.release()
    return n, shape


# -- 1. Atari against ale-py --------------------------------------------------------------
@pytest.mark.parametrize("game", ["Pong", "Breakout", "Adventure", "Pooyan"])
def test_atari_render_equals_ale_py(game: str) -> None:
    """Our frame and ale-py's ``render()`` after a seeded reset and 120 random steps
    (frame_skip 4, no no-ops, no fire reset, no sticky actions), compared at every step;
    Adventure's screen (a PAL cart) is 250 x 160, Pooyan's 220 x 160."""
    seed = 11
    env = envpool.make_gymnasium(f"{game}-v5", num_envs=1, seed=seed, noop_max=0,
                                 use_fire_reset=False, repeat_action_probability=0.0,
                                 render_mode="rgb_array")
    ref = ale_py.env.AtariEnv(GAMES[game], frameskip=4, repeat_action_probability=0.0,
                              render_mode="rgb_array")
    env.reset()
    ref.reset(seed=seed)
    frame = env.render()
    assert frame.shape == (1, *ref.render().shape) and frame.dtype == np.uint8
    np.testing.assert_array_equal(frame[0], ref.render())
    rng = np.random.default_rng(0)
    for step in range(120):
        a = int(rng.integers(env.single_action_space.n))
        _, _, term, trunc, _ = env.step(np.array([a], dtype=np.int32))
        ref.step(a)
        assert not (term[0] or trunc[0])
        np.testing.assert_array_equal(env.render()[0], ref.render(), err_msg=f"step {step}")
    env.close()
    ref.close()


@pytest.mark.parametrize("game", ["Breakout", "Adventure"])
def test_atari_render_size_is_area_resize(game: str) -> None:
    """``render_height`` x ``render_width`` is the full frame shrunk by cv2's INTER_AREA
    (Adventure's full frame has 250 rows); a larger one is refused with the game's size."""
    full = envpool.make_gymnasium(f"{game}-v5", num_envs=1, seed=3, render_mode="rgb_array")
    full.reset()
    frame = full.render()[0]
    rows = frame.shape[0]
    with pytest.raises(ValueError, match=f"render_height must be in 1 .. {rows}"):
        envpool.make(f"{game}-v5", render_mode="rgb_array", render_height=rows + 1)
    for height, width in ((84, 84), (105, 80), (150, 160), (rows, 160)):
        small = envpool.make_gymnasium(f"{game}-v5", num_envs=1, seed=3,
                                       render_mode="rgb_array", render_height=height,
                                       render_width=width)
        small.reset()
        want = cv2.resize(frame, (width, height), interpolation=cv2.INTER_AREA)
        got = small.render()
        assert got.shape == (1, height, width, 3)
        np.testing.assert_array_equal(got[0], want, err_msg=f"{height} x {width}")
        small.close()
    full.close()


# -- 2. The API -----------------------------------------------------------------------------
def _screen(env: object, i: int) -> np.ndarray:
    """Env i's RGB screen as its state reports it (the ALE's getScreenRGB)."""
    return np.array(env.get_state(i)[6:]).astype(np.uint8).reshape(SCREEN)


def test_render_env_ids_default_and_order() -> None:
    """``render()`` draws env ``render_env_id``; ``env_ids`` (a list or an int) draws those
    envs in the order given; every row is that env's own screen."""
    env = envpool.make("Pong-v5", num_envs=3, seed=0, render_mode="rgb_array",
                       render_env_id=1)
    env.reset()
    rng = np.random.default_rng(1)
    for _ in range(30):  # the envs' screens differ (their own no-ops and actions)
        env.step(rng.integers(env.action_space.n, size=3).astype(np.int32))
    screens = [_screen(env, i) for i in range(3)]
    assert not np.array_equal(screens[0], screens[2])
    np.testing.assert_array_equal(env.render(), screens[1][None])
    np.testing.assert_array_equal(env.render(2), screens[2][None])
    frames = env.render(env_ids=[2, 0, 1], camera_id=0)
    assert frames.shape == (3, *SCREEN) and frames.dtype == np.uint8
    for row, i in enumerate([2, 0, 1]):
        np.testing.assert_array_equal(frames[row], screens[i])
    env.close()


def test_flavours_and_metadata() -> None:
    """Every flavour renders the same frames; gymnasium's vector env gives one per env; the
    metadata names the mode and the fps (60 emulator frames per second / frame_skip)."""
    kw = {"num_envs": 2, "seed": 5, "render_mode": "rgb_array"}
    gymnasium_pool = envpool.make_gymnasium("Pong-v5", **kw)
    gym_pool = envpool.make_gym("Pong-v5", **kw)
    dm_pool = envpool.make_dm("Pong-v5", **kw)
    vec = gymnasium.make_vec("envpool/Pong-v5", num_envs=2, seed=5, render_mode="rgb_array")
    for pool in (gymnasium_pool, gym_pool, dm_pool, vec):
        pool.reset()
    want = gymnasium_pool.render([0, 1])
    np.testing.assert_array_equal(gym_pool.render([0, 1]), want)
    np.testing.assert_array_equal(dm_pool.render([0, 1]), want)
    frames = vec.render()  # gymnasium's vector contract: a tuple, one frame per env
    assert isinstance(frames, tuple) and len(frames) == 2
    np.testing.assert_array_equal(np.stack(frames), want)
    assert gymnasium_pool.render().shape == (1, *SCREEN)
    assert gymnasium_pool.metadata["render_modes"] == ["human", "rgb_array"]  # as ale-py's
    assert gymnasium_pool.metadata["render_fps"] == 15.0
    assert gymnasium_pool.render_mode == vec.render_mode == "rgb_array"
    skip2 = envpool.make("Pong-v5", frame_skip=2, render_mode="rgb_array")
    assert skip2.metadata["render_fps"] == 30.0
    single = gymnasium.make("envpool/Pong-v5", render_mode="rgb_array")
    single.reset(seed=5)
    np.testing.assert_array_equal(single.render(), want[0])
    assert single.metadata["render_modes"] == ["human", "rgb_array"]
    plain = gymnasium.make("envpool/Pong-v5")
    plain.reset(seed=0)
    assert plain.render() is None
    assert plain.unwrapped.metadata["render_modes"] == ["human", "rgb_array"]
    for e in (gymnasium_pool, gym_pool, dm_pool, vec, skip2, single, plain):
        e.close()


def test_refusals() -> None:
    """Clear errors: a family that does not render, another mode, render() without a render
    mode, bad ids (out of range, listed twice, not integers), bad sizes and cameras."""
    # An env that draws no frames: the pool is made (as sail-sg EnvPool makes it), render()
    # refuses, with a ValueError that is also a RuntimeError, "render not implemented".
    env = envpool.make("NChain-v0", render_mode="rgb_array")
    env.reset()
    with pytest.raises(ValueError, match=r"NChain-v0 \(native env 'NChain'\) does "
                                         r"not render yet \(render not implemented\)"):
        env.render()
    with pytest.raises(RuntimeError, match="render not implemented"):
        env.render(env_ids=[0])
    env.close()
    # gymnasium's own path refuses a mode the env does not list, at make
    with pytest.raises(ValueError, match="Catch-v0.*does not render yet"):
        gymnasium.make("envpool/Catch-v0", render_mode="rgb_array")
    with pytest.raises(ValueError, match="render_mode must be None, 'rgb_array', 'human' or "
                                         "'ansi', got 'window'"):
        envpool.make("Pong-v5", render_mode="window")
    with pytest.raises(ValueError, match="render_height must be in 1 .. 210"):
        envpool.make("Pong-v5", render_mode="rgb_array", render_height=211)
    with pytest.raises(ValueError, match=r"render_width must be an int in \[0, 16384\], got -1"):
        envpool.make("Pong-v5", render_mode="rgb_array", render_width=-1)
    with pytest.raises(ValueError, match="one view: camera_id must be -1 or 0, got 2"):
        envpool.make("Pong-v5", render_mode="rgb_array", render_camera_id=2)
    with pytest.raises(ValueError, match="render_env_id must be in 0 .. 1"):
        envpool.make("Pong-v5", num_envs=2, render_mode="rgb_array", render_env_id=2)
    plain = envpool.make("Pong-v5")
    plain.reset()
    with pytest.raises(RuntimeError, match="made without render_mode"):
        plain.render()
    env = envpool.make("Pong-v5", num_envs=2, render_mode="rgb_array")
    env.reset()
    with pytest.raises(ValueError, match="env_id 2 is out of range 0 .. 1"):
        env.render([0, 2])
    with pytest.raises(ValueError, match="env_id -1 is out of range"):
        env.render(-1)
    with pytest.raises(ValueError, match="env_id 1 is listed twice"):
        env.render([1, 0, 1])
    with pytest.raises(TypeError, match="env_ids must be integers"):
        env.render([0.5])
    with pytest.raises(ValueError, match="camera_id must be -1 or 0, got 7"):
        env.render(camera_id=7)
    assert env.render([0, 1]).shape == (2, *SCREEN)  # still usable
    for e in (plain, env):
        e.close()


def test_envs_in_flight_are_refused() -> None:
    """Async mode: envs sent and not yet received cannot be drawn; the others can."""
    env = envpool.make("Pong-v5", num_envs=4, batch_size=2, seed=0, render_mode="rgb_array")
    env.async_reset()
    _, _, _, _, info = env.recv()
    ready = info["env_id"]
    busy = sorted(set(range(4)) - set(ready.tolist()))
    with pytest.raises(ValueError, match=f"env_id {busy[0]} is in flight"):
        env.render(env.all_env_ids)
    frames = env.render(ready)
    for row, i in enumerate(ready):
        np.testing.assert_array_equal(frames[row], _screen(env, int(i)))
    env.close()


# -- 3. The pool ----------------------------------------------------------------------------
def test_frames_drawn_in_parallel_on_workers() -> None:
    """Four renders that each sleep 0.3 s, with four worker threads: the frames are drawn at
    once (about 0.3 s), not one after the other on the calling thread (1.2 s)."""
    env = envpool.make("Faulty-v0", num_envs=4, num_threads=4, render_mode="rgb_array",
                       render_sleep_us=300_000)
    env.reset()
    start = time.perf_counter()
    frames = env.render(env.all_env_ids)
    elapsed = time.perf_counter() - start
    assert frames.shape == (4, 2, 3, 3)
    assert elapsed < 0.9, f"{elapsed:.2f} s: the frames were not drawn in parallel"
    env.close()


def test_render_error_reaches_python_and_pool_goes_on() -> None:
    """An exception in an env's Render (on a worker) is raised by render(); the pool stays
    usable: it steps, and renders again."""
    env = envpool.make("Faulty-v0", num_envs=3, render_mode="rgb_array", fail_render_at=0)
    env.reset()
    with pytest.raises(RuntimeError, match="faulty env failed to render at step 0"):
        env.render(env.all_env_ids)
    obs, *_ = env.step(np.zeros(3, dtype=np.int32))
    assert (obs[:, 0] == 1).all()
    np.testing.assert_array_equal(env.render(env.all_env_ids), np.ones((3, 2, 3, 3)))
    env.close()


def test_held_frames_stay_and_sizes_follow_keywords() -> None:
    """A frame array that is held is not drawn over by the next render; the Faulty frame is
    every byte = steps since reset, at render_height x render_width."""
    env = envpool.make("Faulty-v0", num_envs=2, render_mode="rgb_array", render_height=4,
                       render_width=5)
    env.reset()
    first = env.render([0, 1])
    assert first.shape == (2, 4, 5, 3)
    for _ in range(3):
        env.step(np.zeros(2, dtype=np.int32))
    later = env.render([1, 0])
    assert (first == 0).all() and (later == 3).all()
    env.close()


def test_atari_render_before_reset_is_refused() -> None:
    """An Atari env that was never reset has no screen yet: a clear error, not a crash."""
    env = envpool.make("Pong-v5", render_mode="rgb_array")
    with pytest.raises(RuntimeError, match="has not been reset yet: call reset"):
        env.render()
    env.reset()
    assert env.render().shape == (1, *SCREEN)
    env.close()


# -- 4. Classic control --------------------------------------------------------------------
# task: (height, width, render_fps), gymnasium's
CLASSIC = {"CartPole-v1": (400, 600, 50), "MountainCar-v0": (400, 600, 30),
           "MountainCarContinuous-v0": (400, 600, 30), "Acrobot-v1": (500, 500, 15),
           "Pendulum-v1": (500, 500, 30)}


def _classic_frames(task: str, steps: int):
    """Our frame and gymnasium's (pygame) in the same state, after each of ``steps`` random
    steps of our env (through episode ends): yields (step, ours, theirs). The reference gets
    our state as gymnasium would hold it (MountainCarContinuous: a float32 array after a
    step; Pendulum: ``last_u``, the float32 last action its arrow shows)."""
    env = envpool.make(task, num_envs=1, seed=3, render_mode="rgb_array")
    ref = gymnasium.make(task, render_mode="rgb_array").unwrapped
    height, width, fps = CLASSIC[task]
    assert env.metadata["render_fps"] == ref.metadata["render_fps"] == fps
    env.reset()
    ref.reset(seed=0)
    rng = np.random.default_rng(0)
    last = None
    for step in range(steps):
        dtype = np.float32 if task == "MountainCarContinuous-v0" and step > 0 else np.float64
        ref.state = np.array(env.get_state(0), dtype=dtype)
        if task == "Pendulum-v1":
            ref.last_u = None if last is None else np.float32(last[0])
        ours, theirs = env.render()[0], ref.render()
        assert ours.shape == theirs.shape == (height, width, 3)
        yield step, ours, theirs
        if isinstance(env.action_space, gymnasium.spaces.Discrete):
            action = np.array([int(rng.integers(env.action_space.n))], dtype=np.int32)
        else:
            low, high = env.action_space.low, env.action_space.high
            action = rng.uniform(low, high).astype(np.float32)[None]
        env.step(action)
        last = action[0]
    ref.close()
    env.close()


@pytest.mark.parametrize("task", list(CLASSIC))
def test_classic_frame_equals_gymnasium(task: str) -> None:
    """Our frame equals gymnasium's full picture bit for bit over 100 lockstep steps:
    the polygons, SDL_gfx's filled circles, the anti-aliased outlines of the filled shapes
    (``gfxdraw.aapolygon``: SDL_gfx's error-accumulator lines; ``gfxdraw.aacircle``: its
    anti-aliased ellipse, both blended with SDL_gfx's integer alpha), the lines,
    MountainCar's anti-aliased track (``pygame.draw.aalines``), Pendulum's arrow image
    (smooth-scaled, flipped, alpha-blended) and the flip. Tolerance: none."""
    pytest.importorskip("pygame")
    for step, ours, theirs in _classic_frames(task, 100):
        np.testing.assert_array_equal(ours, theirs, err_msg=f"{task} step {step}")


def test_mountain_car_continuous_float32_picture() -> None:
    """After a step gymnasium's MountainCarContinuous state is a float32 array, and NumPy
    then draws the car in float32 arithmetic; at these positions (found by comparing
    gymnasium's float32 and float64 coordinates) that moves a corner of the car or a wheel
    by a pixel. Our env is stepped onto each position exactly (velocity 0 after the step)
    and its frame equals gymnasium's bit for bit."""
    pytest.importorskip("pygame")
    env = envpool.make("MountainCarContinuous-v0", num_envs=1, render_mode="rgb_array")
    ref = gymnasium.make("MountainCarContinuous-v0", render_mode="rgb_array").unwrapped
    env.reset()
    ref.reset(seed=0)
    for pos in (-0.4764036238193512, -0.36891046166419983, -0.6843369603157043,
                -0.05247997120022774, 0.27141082286834717, -1.1762901544570923):
        # velocity + (0 * power - 0.0025 * cos(3 * pos)) in float32 is 0: the car stays.
        pull = np.float32(0.0) * np.float32(0.0015) - np.float32(0.0025 * np.cos(3 * pos))
        env.set_state(0, [pos, -float(pull)])
        env.step(np.zeros((1, 1), dtype=np.float32))
        np.testing.assert_array_equal(env.get_state(0), [pos, 0.0])
        ref.state = np.array([pos, 0.0], dtype=np.float32)
        np.testing.assert_array_equal(env.render()[0], ref.render(), err_msg=f"pos {pos}")
    env.close()
    ref.close()


def test_pendulum_arrow_at_every_size() -> None:
    """Pendulum's arrow: gymnasium's clockwise.png shrunk to int(scale * |u| / 2) pixels
    (pygame-ce's smoothscale arithmetic), mirrored for u > 0, alpha-blended under the
    axle; clipped actions (|u| > 2) draw the largest, u = 0 none, and a reset forgets it.
    Equal to gymnasium's picture bit for bit at actions that give every size from 0 to
    113 pixels, both signs."""
    pytest.importorskip("pygame")
    env = envpool.make("Pendulum-v1", num_envs=1, seed=1, render_mode="rgb_array",
                       max_episode_steps=1000)  # (no time limit inside the 231 steps)
    ref = gymnasium.make("Pendulum-v1", render_mode="rgb_array").unwrapped
    env.reset()
    ref.reset(seed=0)
    scale = 500 / 4.4
    actions = [0.0, 2.5, -3.0] + [sign * (n + 0.5) * 2 / scale for n in range(114)
                                  for sign in (1, -1)]
    plain = None
    for u in actions:
        env.set_state(0, [0.3, 0.0])  # the same rod: only the arrow changes
        env.step(np.array([[u]], dtype=np.float32))
        ref.state = np.array(env.get_state(0))
        ref.last_u = np.clip(np.float32(u), -2, 2)
        ours = env.render()[0]
        np.testing.assert_array_equal(ours, ref.render(), err_msg=f"u = {u}")
        plain = ours if u == 0.0 else plain
    assert np.any(ours != plain)  # the arrows were drawn
    env.reset()
    ref.state, ref.last_u = np.array(env.get_state(0)), None
    np.testing.assert_array_equal(env.render()[0], ref.render())
    env.close()
    ref.close()


def test_pendulum_arrow_image_errors(tmp_path: pathlib.Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """An arrow image that cannot be read (gymnasium's asset missing, not a PNG, cut short)
    fails the first render that needs it with a RuntimeError naming the file; frames
    without an arrow (after a reset) are drawn, and the pool goes on stepping."""
    import dataclasses

    from envpool.core import registry

    task = registry.get_task("Pendulum-v1")
    real = pathlib.Path(task.prepare({})["_arrow_png"]).read_bytes()
    for content, why in ((None, "cannot read the image"), (b"GIF89a", "is not a PNG file"),
                         (real[:300], "")):
        path = tmp_path / "arrow.png"
        path.unlink(missing_ok=True)
        if content is not None:
            path.write_bytes(content)
        moved = dataclasses.replace(task, prepare=lambda kw, p=str(path): {"_arrow_png": p})
        monkeypatch.setitem(registry._TASKS, "Pendulum-v1", moved)
        env = envpool.make("Pendulum-v1", render_mode="rgb_array")
        env.reset()
        assert env.render().shape == (1, 500, 500, 3)  # no arrow after a reset
        env.step(np.ones((1, 1), dtype=np.float32))
        with pytest.raises(RuntimeError, match=re.escape(f"image '{path}'")) as error:
            env.render()
        assert why in str(error.value)
        env.step(np.ones((1, 1), dtype=np.float32))
        env.close()


# -- 4b. ViZDoom ------------------------------------------------------------------------------
@pytest.mark.parametrize(("task", "scenario", "frame_skip"),
                         [("DefendTheCenter-v1", "defend_the_center", 4),
                          ("SimplerBasic-v1", "simpler_basic", 4),
                          ("HealthGathering-v1", "health_gathering", 35)])
def test_vizdoom_frame_equals_rgb24_screen(task: str, scenario: str, frame_skip: int) -> None:
    """Our frame and vizdoom's own DoomGame, set up as the env's game but with
    ``ScreenFormat.RGB24`` (the screen vizdoom's gymnasium wrapper renders), the same seed and
    actions in lockstep through episode ends (max_episode_steps 30): equal bit for bit at
    every step. DefendTheCenter's cfg asks for CRCGCB, SimplerBasic's for GRAY8 (the frame
    is then the grey screen in all three channels, as the wrapper draws it, and equal to
    the grey channel of our observation); a finished episode is black, as in the wrapper
    (HealthGathering at 35 tics a step: the acid floor kills the player within 80 steps)."""
    pytest.importorskip("vizdoom")
    import vizdoom as vzd
    from test_align_vizdoom import Reference

    seed = 7
    env = envpool.make(task, num_envs=1, seed=seed, stack_num=1, frame_skip=frame_skip,
                       img_height=240, img_width=320, max_episode_steps=30,
                       render_mode="rgb_array")
    gray = scenario == "simpler_basic"
    ref = Reference(scenario, seed, frame_skip, vzd.ScreenFormat.GRAY8 if gray else
                    vzd.ScreenFormat.RGB24)
    assert env.metadata["render_fps"] == 35 / frame_skip
    try:
        obs, _ = env.reset()
        ref.reset()
        rng = np.random.default_rng(0)
        ends = deaths = 0
        for step in range(80):
            frame = env.render()[0]
            assert frame.shape == (240, 320, 3) and frame.dtype == np.uint8
            want = np.repeat(ref.screen[..., None], 3, axis=2) if gray else ref.screen
            np.testing.assert_array_equal(frame, want, err_msg=f"step {step}")
            if gray:
                np.testing.assert_array_equal(frame[..., 0], obs[0, 0])
            action = (rng.random(env.action_space.shape[0]) < 0.4).astype(np.float64)
            obs, _, term, trunc, _ = env.step(action[None])
            _, _, finished = ref.step(list(action))
            assert bool(term[0]) == finished
            if term[0]:
                assert not env.render().any()  # no state: the wrapper's black frame
                deaths += 1
            if term[0] or trunc[0]:
                ends += 1
                obs, _ = env.reset()
                ref.reset()
        assert ends >= 2 and (deaths >= 1 or scenario != "health_gathering")
    finally:
        env.close()
        ref.close()


@pytest.mark.parametrize(("task", "kwargs"), [
    ("Basic-v1", {"img_height": 60, "img_width": 80, "stack_num": 2}),
    ("D1Basic-v1", {"img_height": 240, "img_width": 320, "stack_num": 1}),
])
def test_vizdoom_render_at_the_observation_size_is_the_observed_frame(
        task: str, kwargs: dict[str, int]) -> None:
    """render_height x render_width = img_height x img_width (not the screen's size): the
    newest observed frame, channel-last, a gray frame repeated in R, G and B, as EnvPool's
    render (its render test asks for this on every id); the screen's size still gives the
    screen."""
    pytest.importorskip("vizdoom")
    if task.startswith("D1"):
        pytest.importorskip("envpool_assets")
    h, w = kwargs["img_height"], kwargs["img_width"]
    env = envpool.make_gym(task, num_envs=2, render_mode="rgb_array", render_width=w,
                           render_height=h, **kwargs)
    try:
        obs, _ = env.reset()
        for _ in range(3):
            frames = env.render(env_ids=[0, 1])
            assert frames.shape == (2, h, w, 3) and frames.dtype == np.uint8
            for i in range(2):
                newest = obs[i][-(obs.shape[1] // kwargs["stack_num"]):]
                expected = np.repeat(newest, 3, axis=0) if newest.shape[0] == 1 else newest
                np.testing.assert_array_equal(frames[i], expected.transpose(1, 2, 0))
            space = env.action_space
            obs = env.step(np.zeros((2, *space.shape), dtype=space.dtype))[0]
    finally:
        env.close()


def test_vizdoom_render_refusals() -> None:
    """ViZDoom draws its screen at the cfg's resolution only, from one view, and only once
    the engine has started (the first reset)."""
    pytest.importorskip("vizdoom")
    with pytest.raises(ValueError, match="ViZDoom frames are the screen, 240 x 320"):
        envpool.make("Basic-v1", render_mode="rgb_array", render_height=120)
    with pytest.raises(ValueError, match="ViZDoom has one view: camera_id must be -1 or 0"):
        envpool.make("Basic-v1", render_mode="rgb_array", render_camera_id=1)
    env = envpool.make("Basic-v1", num_envs=1, render_mode="rgb_array")
    try:
        with pytest.raises(RuntimeError, match="has not been reset yet"):
            env.render()
        env.reset()
        assert env.render().shape == (1, 240, 320, 3)
    finally:
        env.close()


# -- 5. Toy text ---------------------------------------------------------------------------
@pytest.mark.parametrize(("task", "kwargs"), [("FrozenLake-v1", {"is_slippery": False}),
                                              ("FrozenLake8x8-v1", {"is_slippery": False}),
                                              ("Taxi-v4", {}), ("CliffWalking-v1", {})])
def test_ansi_text_equals_gymnasium(task: str, kwargs: dict) -> None:
    """Our single env and gymnasium's, the same actions (deterministic grids; gymnasium's
    start state set to ours at each reset): the ansi text is equal after every reset and
    step, through episode ends (FrozenLake's holes; CliffWalking's cliff sends it back
    to the start)."""
    ours = gymnasium.make(f"envpool/{task}", render_mode="ansi", **kwargs)
    ref = gymnasium.make(task, render_mode="ansi", **kwargs).unwrapped
    # human, ansi, rgb_array (gymnasium's order varies by env)
    assert sorted(ours.metadata["render_modes"]) == sorted(ref.metadata["render_modes"])
    assert ours.metadata["render_fps"] == 4

    def reset(seed: int) -> None:
        obs, _ = ours.reset(seed=seed)
        ref.reset(seed=seed)
        ref.s = int(obs)  # the start state (Taxi's is drawn)

    rng = np.random.default_rng(0)
    reset(0)
    episodes = 0
    for step in range(120):
        text = ours.render()
        assert isinstance(text, str) and text == ref.render(), f"step {step}"
        a = int(rng.integers(ours.action_space.n))
        _, _, term, trunc, _ = ours.step(a)
        _, _, ref_term, _, _ = ref.step(a)
        assert term == ref_term
        if term or trunc:
            assert ours.render() == ref.render()
            episodes += 1
            reset(step + 1)
    assert episodes > 0 or not task.startswith("FrozenLake")  # holes end episodes
    ours.close()


# task: (height, width) of gymnasium's picture
TOY_TEXT = {"FrozenLake-v1": (256, 256), "FrozenLake8x8-v1": (512, 512),
            "CliffWalking-v1": (256, 768), "Taxi-v4": (456, 536)}


@pytest.mark.parametrize("task", list(TOY_TEXT))
def test_toy_text_picture_equals_gymnasium(task: str) -> None:
    """Our single env and gymnasium's (1.4, pygame) over 150 random steps through episode
    ends, gymnasium's env reset with ours and given our state (``s``) and the last action
    at every step: the rgb_array pictures are equal bit for bit, tolerance none (the
    sprites, their nearest-pixel scaling, alpha blits, FrozenLake's cracks and borders,
    the agent hidden in a hole, the cliff tiles, Taxi's passenger, destination and the
    taxi facing its last move, empty or full)."""
    pytest.importorskip("pygame")
    ours = gymnasium.make(f"envpool/{task}", render_mode="rgb_array")
    ref = gymnasium.make(task, render_mode="rgb_array").unwrapped
    # human, ansi, rgb_array (gymnasium's order varies by env)
    assert sorted(ours.metadata["render_modes"]) == sorted(ref.metadata["render_modes"])
    assert ours.metadata["render_fps"] == ref.metadata["render_fps"] == 4

    def reset(seed: int) -> None:
        ours.reset(seed=seed)
        ref.reset(seed=seed)  # (Taxi: the taxi faces south again)

    rng = np.random.default_rng(0)
    reset(0)
    episodes, falls, seen = 0, 0, set()
    for step in range(150):
        state = ours.unwrapped.pool.get_state(0)
        ref.s = int(state[0])
        frame = ours.render()
        assert frame.shape == (*TOY_TEXT[task], 3) and frame.dtype == np.uint8
        np.testing.assert_array_equal(frame, ref.render(), err_msg=f"{task} step {step}")
        if task.startswith("Taxi"):  # the orientation our state reports is the one drawn
            assert state[2] == ref.taxi_orientation
            seen.add((int(state[2]), ref.decode(ref.s)[2] == 4))
        a = int(rng.integers(ours.action_space.n))
        _, reward, term, trunc, _ = ours.step(a)
        ref.lastaction = a
        falls += reward == -100  # CliffWalking: back to the start
        if term or trunc:
            episodes += 1
            reset(step + 1)
    if task.startswith("Taxi"):
        assert {o for o, _ in seen} == {0, 1, 2, 3}  # every orientation was drawn
        assert any(full for _, full in seen)  # and the taxi with its passenger aboard
    elif task.startswith("CliffWalking"):
        assert falls > 0  # the cliff drew the agent back at the start
    else:
        assert episodes > 0  # FrozenLake's holes (the agent hidden) or the goal
    ours.close()


def test_blackjack_picture_equals_gymnasium() -> None:
    """Blackjack: gymnasium's env given our hands and the face-up card's suit and picture (our
    state's last two numbers) at every step of 600 random ones through episode ends draws
    the same table bit for bit, tolerance none: all 48 face-up cards (J/Q/K for a 10, never
    a 10), one- and two-digit sums, busts, the usable-ace label."""
    pytest.importorskip("pygame")
    ours = gymnasium.make("envpool/Blackjack-v1", render_mode="rgb_array")
    ref = gymnasium.make("Blackjack-v1", render_mode="rgb_array").unwrapped
    assert ours.metadata["render_modes"] == ref.metadata["render_modes"]  # human, rgb_array
    assert ours.metadata["render_fps"] == ref.metadata["render_fps"] == 4
    cards, sums, aces = set(), set(), set()

    def check(step: int) -> None:
        state = ours.unwrapped.pool.get_state(0)
        n = int(state[0])
        ref.player = [int(c) for c in state[1:1 + n]]
        m = int(state[1 + n])
        ref.dealer = [int(c) for c in state[2 + n:2 + n + m]]
        suit, face = int(state[2 + n + m]), int(state[3 + n + m])
        up = ref.dealer[0]
        ref.dealer_top_card_suit = "CDHS"[suit]
        ref.dealer_top_card_value_str = {1: "A", 10: "JQK"[face]}.get(up, str(up))
        frame = ours.render()
        assert frame.shape == (376, 384, 3) and frame.dtype == np.uint8
        np.testing.assert_array_equal(frame, ref.render(), err_msg=f"step {step}")
        player_sum, _, usable = ref._get_obs()
        cards.add(ref.dealer_top_card_value_str + ref.dealer_top_card_suit)
        sums.add(player_sum)
        aces.add(usable)

    ours.reset(seed=3)
    rng = np.random.default_rng(0)
    for step in range(600):
        check(step)
        _, _, term, trunc, _ = ours.step(int(rng.integers(2)))
        if term or trunc:
            check(step)  # the last hand: a bust, or the dealer's played out
            ours.reset()
    assert len(cards) == 48  # every face-up card, 10s as J, Q or K
    assert max(sums) > 21 and min(sums) < 10 and aces == {0, 1}
    ours.close()
    ref.close()


@pytest.mark.parametrize("shape", [(3, 10), (10, 5), (13, 17), (1, 2), (40, 40), (7, 64)])
def test_frozen_lake_maps_of_every_shape(shape: tuple[int, int]) -> None:
    """Custom maps (``desc``): the window is min(64 x cells, 512) on each side, the tiles
    scaled to the cell (SDL's nearest-pixel stretch, as ``pygame.transform.scale``) and the
    overlays by min(cell) / 64; with the agent set on every cell the picture equals
    gymnasium's bit for bit (what no cell covers stays black in both)."""
    pytest.importorskip("pygame")
    rng = np.random.default_rng(sum(shape))
    nrow, ncol = shape
    desc = ["".join(rng.choice(list("FFFH"), ncol)) for _ in range(nrow)]
    desc[0] = "S" + desc[0][1:]
    desc[-1] = desc[-1][:-1] + "G"
    env = envpool.make("FrozenLake-v1", num_envs=1, desc=desc, render_mode="rgb_array")
    ref = gymnasium.make("FrozenLake-v1", desc=desc, render_mode="rgb_array").unwrapped
    env.reset()
    ref.reset(seed=0)
    for s in range(0, nrow * ncol, max(1, nrow * ncol // 97)):
        env.set_state(0, [s])
        ref.s = s
        np.testing.assert_array_equal(env.render()[0], ref.render(), err_msg=f"s = {s}")
    env.close()
    ref.close()


def test_toy_text_picture_refusals_and_state() -> None:
    """Sizes and cameras other than gymnasium's are refused; a FrozenLake map of more than 512
    rows (gymnasium's cells would be 0 pixels) is refused when drawn; Taxi's state carries
    the orientation ([s, fickle_step, orientation]), set_state takes it or keeps it."""
    with pytest.raises(ValueError, match=r"Taxi frames are 456 x 536 \(gymnasium's\)"):
        envpool.make("Taxi-v4", render_mode="rgb_array", render_width=100)
    with pytest.raises(ValueError, match="FrozenLake has one view: camera_id must be -1 or 0"):
        envpool.make("FrozenLake-v1", render_mode="rgb_array", render_camera_id=1)
    tall = envpool.make("FrozenLake-v1", desc=["S"] + ["F"] * 512 + ["G"],
                        render_mode="rgb_array")
    tall.reset()
    with pytest.raises(RuntimeError, match="at most 512 rows and 512 columns, got 514 x 1"):
        tall.render()
    taxi = envpool.make("Taxi-v4", num_envs=1, render_mode="rgb_array")
    taxi.reset()
    assert taxi.get_state(0)[2] == 0
    taxi.set_state(0, [0, 0, 3])  # (row 0, col 0) facing west
    west = taxi.render()[0]
    taxi.set_state(0, [0, 0])  # keeps the orientation
    assert taxi.get_state(0) == [0, 0, 3]
    np.testing.assert_array_equal(taxi.render()[0], west)
    with pytest.raises(ValueError, match="orientation must be 0, 1, 2 or 3"):
        taxi.set_state(0, [0, 0, 4])
    for e in (tall, taxi):
        e.close()


@pytest.mark.parametrize("task", ["FrozenLake-v1", "CliffWalking-v1", "Taxi-v4"])
def test_toy_text_image_errors(task: str, tmp_path: pathlib.Path,
                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The sprites are read from the folder the task passes (gymnasium's toy_text/img) on the
    first frame: a folder without them fails that render with a RuntimeError naming the
    missing file, one with a broken image names that image, an unknown folder says so;
    the pool goes on stepping."""
    import dataclasses
    import shutil

    from envpool.core import registry

    spec = registry.get_task(task)
    real = pathlib.Path(spec.prepare({})["_img_dir"])
    broken = tmp_path / "broken"
    shutil.copytree(real, broken)
    first = {"FrozenLake-v1": "tile_ice.png", "CliffWalking-v1": "cliff_walking/tile_ground.png",
             "Taxi-v4": "taxi/taxi_v.png"}[task]
    (broken / first).write_bytes((real / first).read_bytes()[:200])
    for folder, why in ((tmp_path / "empty", "cannot read the image"),
                        (broken, "is cut short"), ("", "is not known")):
        moved = dataclasses.replace(spec, prepare=lambda kw, d=str(folder): {"_img_dir": d})
        monkeypatch.setitem(registry._TASKS, task, moved)
        env = envpool.make(task, render_mode="rgb_array")
        env.reset()
        with pytest.raises(RuntimeError, match=why) as error:
            env.render()
        if folder:
            assert str(folder) in str(error.value)
        env.step(np.zeros(1, dtype=np.int32))
        env.close()


def test_ansi_pool_ids_autoreset_and_refusals() -> None:
    """A pool's text: one string per listed env; the autoreset step forgets the last action
    (gymnasium's text after a reset); envs in flight and other families are refused."""
    env = envpool.make("CliffWalking-v1", num_envs=2, render_mode="ansi")
    env.reset()
    assert len(env.render([1, 0])) == 2 and isinstance(env.render()[0], str)
    frozen = envpool.make("FrozenLake-v1", num_envs=1, is_slippery=False, render_mode="ansi")
    frozen.reset()
    for a in (2, 2, 1, 1, 1, 2):  # right, right, down, down, down, right: the goal
        _, _, term, _, _ = frozen.step(np.array([a]))
    assert term[0] and frozen.render()[0].startswith("  (Right)\n")
    frozen.step(np.array([0]))  # next-step autoreset: a new episode, no last action
    assert frozen.render()[0].startswith("\n\x1b[41mS")
    async_pool = envpool.make("Taxi-v4", num_envs=3, batch_size=1, render_mode="ansi")
    async_pool.async_reset()
    _, _, _, _, info = async_pool.recv()
    busy = sorted(set(range(3)) - {int(info["env_id"][0])})
    with pytest.raises(ValueError, match=f"env_id {busy[0]} is in flight"):
        async_pool.render(list(range(3)))
    with pytest.raises(ValueError, match="Pong-v5 does not render ansi text"):
        envpool.make("Pong-v5", render_mode="ansi")
    with pytest.raises(ValueError, match="CartPole-v1 does not render ansi text"):
        envpool.make("CartPole-v1", render_mode="ansi")
    for e in (env, frozen, async_pool):
        e.close()


# -- 6. Videos --------------------------------------------------------------------------------
def _record_episode_start(env: object, folder: pathlib.Path) -> tuple[int, tuple[int, int]]:
    """Resets a recording wrapper, takes 20 random steps and closes it: the frame count and
    frame size of the one video it wrote to ``folder``."""
    env.reset(seed=0)
    for _ in range(20):
        env.step(env.action_space.sample())
    env.close()
    videos = sorted(folder.glob("*.mp4"))
    assert len(videos) == 1
    return _count_frames(videos[0])


def test_gymnasium_record_video(tmp_path: pathlib.Path) -> None:
    """gymnasium's RecordVideo over one envpool env writes the reset frame plus one frame per
    step, at the env's size."""
    pytest.importorskip("moviepy")
    env = gymnasium.make("envpool/Pong-v5", render_mode="rgb_array")
    env = gymnasium.wrappers.RecordVideo(env, str(tmp_path), episode_trigger=lambda e: e == 0)
    assert _record_episode_start(env, tmp_path) == (21, SCREEN[:2])


def test_gymnasium_vector_record_video(tmp_path: pathlib.Path) -> None:
    """gymnasium's vector RecordVideo over ``make_vec``: one frame of both envs side by side
    per step, the reset frame plus one per step."""
    pytest.importorskip("moviepy")
    envs = gymnasium.make_vec("envpool/Pong-v5", num_envs=2, render_mode="rgb_array")
    envs = gymnasium.wrappers.vector.RecordVideo(envs, str(tmp_path),
                                                 episode_trigger=lambda e: e == 0)
    n, (height, width) = _record_episode_start(envs, tmp_path)
    assert n == 21 and height % SCREEN[0] == 0 and width % SCREEN[1] == 0
    assert height * width == 2 * SCREEN[0] * SCREEN[1]


def test_sb3_vec_video_recorder(tmp_path: pathlib.Path) -> None:
    """SB3's VecVideoRecorder over the SB3 adapter: one tiled frame of every env per step,
    video_length + 1 frames in all (SB3's own count), at the env's fps."""
    pytest.importorskip("moviepy")
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.vec_env import VecVideoRecorder
    from stable_baselines3.common.vec_env.base_vec_env import tile_images

    from envpool.integrations.sb3 import make_vec_env

    venv = make_vec_env("Pong-v5", n_envs=2, seed=0, render_mode="rgb_array")
    rec = VecVideoRecorder(venv, str(tmp_path), record_video_trigger=lambda s: s == 0,
                           video_length=20)
    assert rec.frames_per_sec == 15.0
    rec.reset()
    images = venv.get_images()
    assert len(images) == 2 and images[0].shape == SCREEN
    tiled = tile_images(images).shape[:2]
    for _ in range(20):
        rec.step(np.zeros(2, dtype=np.int64))
    rec.close()
    videos = sorted(tmp_path.glob("*.mp4"))
    assert len(videos) == 1
    # (moviepy 2.2 writes one frame less for some counts at 15 fps, 13 for one: 21 is exact)
    assert _count_frames(videos[0]) == (21, tiled)


# -- render_mode="human" -----------------------------------------------------------
def test_human_mode_shows_the_rgb_array_frame_and_returns_none() -> None:
    """EnvPool's human mode: render() draws the frame rgb_array would give, passes it to
    the pool's _show_human_frame (EnvPool's hook, replaced here) and returns None."""
    kwargs = {"num_envs": 2, "seed": 4, "render_width": 32, "render_height": 24}
    human = envpool.make_gym("Ant-v5", render_mode="human", **kwargs)
    arrays = envpool.make_gym("Ant-v5", render_mode="rgb_array", **kwargs)
    shown: list[np.ndarray] = []
    human._show_human_frame = lambda frame: shown.append(np.array(frame))
    human.reset()
    arrays.reset()
    assert human.render() is None and human.render(env_ids=1) is None
    np.testing.assert_array_equal(shown[0], arrays.render()[0], strict=True)
    np.testing.assert_array_equal(shown[1], arrays.render(env_ids=[1])[0], strict=True)
    assert shown[0].shape == (24, 32, 3)
    with pytest.raises(ValueError, match="shows one env"):
        human.render(env_ids=[0, 1])
    human.close()
    arrays.close()


def test_a_human_single_env_shows_every_reset_and_step() -> None:
    env = gymnasium.make("envpool/CartPole-v1", render_mode="human")
    shown: list[np.ndarray] = []
    env.unwrapped.pool._show_human_frame = lambda frame: shown.append(np.array(frame))
    env.reset(seed=0)
    env.step(0)
    env.step(1)
    assert len(shown) == 3 and shown[0].shape == (400, 600, 3)
    assert env.render() is None and len(shown) == 4
    env.close()


_HUMAN = """
import envpool
env = envpool.make_gymnasium("CartPole-v1", num_envs=1, render_mode="human")
env.reset()
try:
    print("shown", env.render())
except RuntimeError as error:
    print("error", error)
env.close()
"""


@pytest.mark.parametrize("driver", ["dummy", None])
def test_the_window_opens_or_says_why_not(driver: str | None) -> None:
    """pygame's window with SDL's dummy driver (what a test machine can open); without a
    display and without that choice, a clear error instead of a window nobody sees."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    if driver:
        env["SDL_VIDEODRIVER"] = driver
    out = subprocess.run([sys.executable, "-c", _HUMAN], env=env, capture_output=True,
                         text=True, timeout=120, cwd=pathlib.Path(__file__).parent.parent)
    assert out.returncode == 0, out.stderr[-2000:]
    if driver:
        assert "shown None" in out.stdout, out.stdout
    else:
        assert "error render_mode='human' needs a display" in out.stdout, out.stdout
