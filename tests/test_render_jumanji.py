"""Jumanji's frames and States against jumanji 1.1.2 itself, side by side in the same test.

A Jumanji pool draws its frames with jumanji's own viewer from the State it rebuilds from
the native env (envpool/tasks/jumanji_frames.py). Here a pool and jumanji's env are reset
from the same seed (the key chain of native/envs/jumanji/jumanji_env.h) and stepped with the
same actions, and at every step

* the State rebuilt from the pool (``JumanjiFrames.state``) equals jumanji's State leaf by
  leaf: same structure, dtypes, shapes and values (floats as raw bits);
* at a few steps the pool's ``render()`` equals the frame jumanji's own viewer draws of
  jumanji's own State (``env.render(state)`` in its ``rgb_array`` mode at the same size),
  pixel for pixel.

Sokoban's reference needs its level file in a Hugging Face cache: its State and frames are
checked in test_align_jumanji_sokoban.py. The sweep is sampled (``sweep(by="none")``);
``ENVPOOL_SWEEP=all`` runs every id.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from jax_states import assert_same_state

import envpool
from envpool.tasks.jumanji import JUMANJI_ENV_IDS
from envpool.tasks.jumanji_frames import NUMPY_VIEWERS

jax = pytest.importorskip("jax")
jumanji = pytest.importorskip("jumanji")
matplotlib = pytest.importorskip("matplotlib")

SEED = 3
STEPS = 12
DRAWN = (0, 1, 6, 12)  # the steps whose frames are compared (0: the reset)
HEIGHT, WIDTH = 96, 128


def reference_env(task_id: str) -> Any:
    """jumanji's env of an id (Connector-v2: jumanji 1.1.1's, rebuilt from 1.1.2)."""
    if task_id == "Connector-v2":
        from jumanji_connector_v2 import ConnectorV2

        return ConnectorV2()
    return jumanji.make(task_id)


def package_frame(env: Any, state: Any, height: int, width: int) -> np.ndarray:
    """The frame jumanji's own viewer of ``env`` draws of ``state`` in its rgb_array mode,
    ``height`` x ``width`` pixels (figure size in inches at 100 dpi): the viewer as jumanji
    makes it, on a new pyplot figure of the viewer's name (closed after the frame)."""
    import matplotlib.pyplot as plt

    viewer = next(v for v in vars(env).values() if hasattr(v, "_display_rgb_array"))
    if not getattr(viewer, "_envpool_test", False):
        plt.close(viewer._name)
        viewer._display = viewer._display_rgb_array
        viewer.figure_size = (width / 100.0, height / 100.0)
        viewer._envpool_test = True
    with matplotlib.rc_context({"figure.dpi": 100}):
        frame = env.render(state)
        if frame is None:
            frame = viewer.render(state)
    frame = np.array(frame)[:, :, :3]
    plt.close(viewer._name)  # the next frame on a new figure, as the pool draws each
    return frame


def policy(space: Any, obs: dict[str, Any], rng: np.random.Generator) -> np.ndarray:
    """An action of env 0: a valid one drawn from the action mask (per agent where the mask
    has a row per agent), else a sample of the action space."""
    mask = obs.get("action_mask") if isinstance(obs, dict) else None
    shape = getattr(space, "nvec", None)
    if mask is None:
        return np.asarray(space.sample(), dtype=space.dtype)
    mask = np.asarray(mask[0])
    per_agent_box = (shape is None and mask.ndim == 2 and space.shape == mask.shape[:1]
                     and np.all(space.high == mask.shape[1] - 1))  # Box: an action per agent
    if shape is None and space.shape == (mask.ndim,) and mask.ndim > 1 and not per_agent_box:
        shape = mask.shape  # a Box action of the mask's cells (Minesweeper, Sudoku)
    if shape is not None and mask.shape == tuple(shape):  # (row, col), (row, col, digit)
        valid = np.argwhere(mask)
        return np.asarray(valid[rng.integers(len(valid))] if len(valid) else
                          np.zeros(len(shape)), dtype=space.dtype)
    if per_agent_box or (shape is not None and mask.ndim == 2 and mask.shape[0] == len(shape)):
        # a mask row per agent
        return np.asarray([rng.choice(np.flatnonzero(row)) if row.any() else 0
                           for row in mask], dtype=space.dtype)
    valid = np.flatnonzero(mask.reshape(-1))
    pick = int(rng.choice(valid)) if len(valid) else 0
    if shape is not None:
        return np.asarray(np.unravel_index(pick, tuple(shape)), dtype=space.dtype)
    return np.asarray(pick, dtype=space.dtype)


_IDS = [i for i in JUMANJI_ENV_IDS if i != "Sokoban-v0"]


@pytest.mark.sweep(by="none")
@pytest.mark.parametrize("task_id", _IDS)
def test_states_and_frames_equal_jumanji(task_id: str) -> None:
    """The same State leaf by leaf at every step, and the same frames pixel for pixel."""
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=SEED, render_mode="rgb_array",
                                  render_width=WIDTH, render_height=HEIGHT)
    ref = reference_env(task_id)
    reset, step = jax.jit(ref.reset), jax.jit(ref.step)
    use, _ = jax.random.split(jax.random.PRNGKey(SEED))
    state, _ = reset(use)
    obs, _ = ours.reset()
    rng = np.random.default_rng(SEED)
    space = ours.single_action_space
    for t in range(STEPS + 1):
        if t:
            action = policy(space, obs, rng)
            state, timestep = step(state, action)
            obs, _, term, trunc, _ = ours.step(action[None])
        assert_same_state(ours._frames.state(ours.get_state(0)), state, (task_id, t))
        if t in DRAWN:
            frame = ours.render()
            assert frame.shape == (1, HEIGHT, WIDTH, 3) and frame.dtype == np.uint8
            # A viewer that only reads the State draws the same picture from numpy copies of
            # its arrays, seconds a frame faster where it reads them element by element.
            drawn = (jax.tree_util.tree_map(np.asarray, state) if task_id in NUMPY_VIEWERS
                     else state)
            expected = package_frame(ref, drawn, HEIGHT, WIDTH)
            assert np.array_equal(frame[0], expected), (
                task_id, t, int(np.count_nonzero(frame[0] != expected)))
        if t and (term[0] or trunc[0]):
            break
    ours.close()


def test_render_checks() -> None:
    """The checks of render() hold for frames drawn in Python: envs in flight, listed twice
    or out of range, a camera the envs lack, a closed pool."""
    env = envpool.make("Game2048-v1", num_envs=3, batch_size=1, seed=0,
                       render_mode="rgb_array")
    env.async_reset()
    _, _, _, _, info = env.recv()
    ready = int(info["env_id"][0])
    busy = sorted(set(range(3)) - {ready})
    with pytest.raises(ValueError, match=f"env_id {busy[0]} is in flight"):
        env.render(env_ids=busy)
    with pytest.raises(ValueError, match="listed twice"):
        env.render(env_ids=[ready, ready])
    for bad in (7, -1, 2**40):
        with pytest.raises(ValueError, match=f"env_id {bad} is out of range"):
            env.render(env_ids=[bad])
    with pytest.raises(ValueError, match="camera_id"):
        env.render(env_ids=[ready], camera_id=2)
    frames = env.render(env_ids=[ready])
    assert frames.shape == (1, 256, 256, 3) and frames.dtype == np.uint8
    assert len(np.unique(frames.reshape(-1, 3), axis=0)) > 2  # a picture, not a fill
    drawer, state = env._frames, env.get_state(ready)
    env.close()
    with pytest.raises(RuntimeError):
        env.render(env_ids=[ready])
    with pytest.raises(RuntimeError, match="closed"):  # a draw that got its state before
        drawer.draw(state)


def test_frames_from_threads_sizes_and_flavours() -> None:
    """Pools drawing from several threads at once, two pools of different frame sizes drawn
    in turn, the gymnasium vector and single-env flavours and the human mode: every frame is
    the one drawn alone (whatever was drawn before it); no figure stays open; pyplot's
    interactive flag and backend are as they were."""
    import threading

    import gymnasium
    import matplotlib.pyplot as plt

    backend, interactive = matplotlib.get_backend(), plt.isinteractive()
    figures = set(plt.get_fignums())
    small = envpool.make("Game2048-v1", num_envs=4, seed=1, render_mode="rgb_array",
                         render_width=64, render_height=48)
    large = envpool.make("Game2048-v1", num_envs=4, seed=1, render_mode="rgb_array")
    small.reset()
    large.reset()
    alone = {(p, i): pool.render(env_ids=[i])[0].copy()
             for p, pool in enumerate((small, large)) for i in range(4)}
    assert alone[0, 0].shape == (48, 64, 3) and alone[1, 0].shape == (256, 256, 3)
    assert not np.array_equal(alone[1, 0], alone[1, 1])  # other boards, other frames
    drawn: dict[tuple[int, int], list[np.ndarray]] = {key: [] for key in alone}

    def draw(p: int, i: int) -> None:
        for _ in range(3):
            drawn[p, i].append((small, large)[p].render(env_ids=[i])[0].copy())

    threads = [threading.Thread(target=draw, args=key) for key in alone]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for key, frames in drawn.items():
        assert len(frames) == 3 and all(np.array_equal(f, alone[key]) for f in frames), key
    assert set(plt.get_fignums()) == figures  # each frame's figure closed after it
    small.close()
    large.close()
    assert set(plt.get_fignums()) == figures
    vec = gymnasium.make_vec("envpool/Game2048-v1", num_envs=2, seed=1,
                             render_mode="rgb_array")
    vec.reset(seed=1)
    assert np.array_equal(vec.render()[0], alone[1, 0])
    vec.close()
    single = gymnasium.make("envpool/Game2048-v1", render_mode="rgb_array")
    single.reset(seed=1)
    assert np.array_equal(single.render(), alone[1, 0])
    single.close()
    shown: list[np.ndarray] = []
    human = envpool.make("Game2048-v1", num_envs=1, seed=1, render_mode="human")
    human._show_human_frame = shown.append
    human.reset()
    assert human.render() is None and np.array_equal(shown[0], alone[1, 0])
    human.close()
    assert (matplotlib.get_backend(), plt.isinteractive()) == (backend, interactive)
