"""Pixel observations (``from_pixels=True``) of the DeepMind Control and MuJoCo tasks.

The frame is drawn on the worker after every reset and step and stacked channel-first,
``(3 * frame_stack, height, width)`` uint8, oldest first. It is compared, equal pixel for
pixel (as tests/test_render_mujoco.py compares ``render()``), with the references run in
lockstep: dm_control's ``pixels.Wrapper`` (its ``"pixels"`` key) for the Control Suite, and
gymnasium's ``AddRenderObservation`` on ``gymnasium.make(id, render_mode="rgb_array")`` for
the MuJoCo tasks. Stacks are checked against the reference's frames stacked here. Small frames
and few steps keep the file short (software rendering).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest

import envpool

pytest.importorskip("mujoco")

H, W = 40, 48  # small frames: a test draws each in software


def _chw(frame: np.ndarray) -> np.ndarray:
    return np.transpose(frame, (2, 0, 1))


def _stacked(frames: list[np.ndarray]) -> np.ndarray:
    return np.concatenate([_chw(f) for f in frames], axis=0)


def _dmc_state(domain: str, ref: Any) -> list[float]:
    from test_align_dm_control import physics_state, task_state

    return [*physics_state(ref), *task_state(domain, ref)]


# -- DeepMind Control ---------------------------------------------------------------------

@pytest.mark.parametrize(("task_id", "domain", "task", "camera_id"),
                         [("CheetahRun-v1", "cheetah", "run", 0),
                          ("CartpoleSwingup-v1", "cartpole", "swingup", -1)])
def test_dmc_pixels_equal_dm_control_pixels_wrapper(task_id: str, domain: str, task: str,
                                                    camera_id: int) -> None:
    """Lockstep with ``pixels.Wrapper(pixels_only=True)``: our state set from dm_control's after
    its reset, then the same actions; each new frame is the wrapper's, and from the third step
    the whole stack (k = 3) is the wrapper's last three frames."""
    suite = pytest.importorskip("dm_control.suite")
    from dm_control.suite.wrappers import pixels

    env = envpool.make_dm(task_id, num_envs=1, seed=1, from_pixels=True, frame_stack=3,
                          render_width=W, render_height=H, render_camera_id=camera_id)
    inner = suite.load(domain, task, task_kwargs={"random": 5})
    ref = pixels.Wrapper(inner, pixels_only=True,
                         render_kwargs={"height": H, "width": W, "camera_id": camera_id})
    frames = [ref.reset().observation["pixels"]]
    env.reset()
    env.set_state(0, _dmc_state(domain, inner))
    spec = inner.action_spec()
    rng = np.random.default_rng(0)
    for step in range(4):
        action = rng.uniform(spec.minimum, spec.maximum)
        ours = env.step(action[None]).observation.pixels
        frames.append(ref.step(action).observation["pixels"])
        assert ours.shape == (1, 9, H, W) and ours.dtype == np.uint8
        np.testing.assert_array_equal(ours[0, 6:], _chw(frames[-1]), f"step {step}")
        if step >= 1:
            np.testing.assert_array_equal(ours[0], _stacked(frames[-3:]), f"stack, step {step}")
    assert frames[-1].std() > 5, "a blank frame"
    env.close()


def test_dmc_state_and_pixels() -> None:
    """``pixels_only=False``: the state keys, unchanged (equal to a state-only pool of the same
    seed), then ``"pixels"`` (dm_control's key order); the frame is ``render()``'s."""
    kwargs = {"num_envs": 2, "seed": 3}
    env = envpool.make_gymnasium("CheetahRun-v1", from_pixels=True, pixels_only=False,
                                 render_width=W, render_height=H, render_mode="rgb_array",
                                 **kwargs)
    plain = envpool.make_gymnasium("CheetahRun-v1", **kwargs)
    space = env.observation_space
    assert isinstance(space, gymnasium.spaces.Dict)
    assert set(space.spaces) == {"position", "velocity", "pixels"}
    assert space["pixels"] == gymnasium.spaces.Box(0, 255, (3, H, W), np.uint8)
    assert space["position"] == plain.observation_space["position"]
    obs, _ = env.reset()
    ref_obs, _ = plain.reset()
    actions = np.full((2, 6), 0.5)
    for _ in range(2):
        for key in ("position", "velocity"):
            np.testing.assert_array_equal(obs[key], ref_obs[key])
        frames = env.render([0, 1])
        np.testing.assert_array_equal(obs["pixels"], np.transpose(frames, (0, 3, 1, 2)))
        assert (obs["pixels"][0] != obs["pixels"][1]).any()  # each env its own frame
        obs = env.step(actions)[0]
        ref_obs = plain.step(actions)[0]
    dm = envpool.make_dm("CheetahRun-v1", from_pixels=True, pixels_only=False)
    assert dm.observation_spec()._fields[:3] == ("position", "velocity", "pixels")
    for e in (env, plain, dm):
        e.close()


def test_dmc_stack_at_reset_and_autoreset() -> None:
    """After a reset (the first, and the pool's autoreset at the time limit) every frame of the
    stack is the first one; each step shifts the stack by one frame."""
    steps = 5
    env = envpool.make_gymnasium("WalkerWalk-v1", num_envs=1, seed=0, from_pixels=True,
                                 frame_stack=2, render_width=W, render_height=H,
                                 max_episode_steps=steps)
    obs, _ = env.reset()
    np.testing.assert_array_equal(obs[:, :3], obs[:, 3:])
    action = np.ones((1, 6))
    history = [obs]
    for _ in range(steps + 1):
        history.append(env.step(action)[0])
    for t in range(1, steps + 1):
        np.testing.assert_array_equal(history[t][:, :3], history[t - 1][:, 3:], f"step {t}")
    assert any((history[t][:, 3:] != history[t][:, :3]).any() for t in range(1, steps + 1)), (
        "the walker never moved")
    # step `steps` ended the episode (truncated); the next one is the new episode's reset
    last = history[steps + 1]
    np.testing.assert_array_equal(last[:, :3], last[:, 3:])
    assert (last[:, 3:] != history[steps][:, 3:]).any(), "not a new episode's frame"
    env.close()


def test_async_pixels_are_each_envs_frame() -> None:
    """Async mode, several envs on two threads: each returned row is its env's own frame."""
    env = envpool.make_gymnasium("PendulumSwingup-v1", num_envs=4, batch_size=2, num_threads=2,
                                 seed=7, from_pixels=True, render_width=W, render_height=H,
                                 render_mode="rgb_array")
    env.async_reset()
    for _ in range(4):
        obs, _, _, _, info = env.recv()
        ids = info["env_id"]
        frames = env.render(ids.tolist())
        np.testing.assert_array_equal(obs, np.transpose(frames, (0, 3, 1, 2)))
        env.send(np.ones((2, 1)), ids)
    env.close()


# -- gymnasium's MuJoCo tasks -------------------------------------------------------------

@pytest.mark.parametrize("task_id", ["Hopper-v5", "Ant-v4"])
def test_mujoco_pixels_equal_add_render_observation(task_id: str) -> None:
    """Lockstep with ``AddRenderObservation(render_only=True)`` on gymnasium's env made with
    ``render_mode="rgb_array"`` and the same size and camera (0, the tracking camera: the free
    camera's view is fixed at each side's first reset, before the states are made equal):
    gymnasium's state set from ours, the same actions; frames equal, and stacked (k = 2)."""
    env = envpool.make_gymnasium(task_id, num_envs=1, seed=2, from_pixels=True, frame_stack=2,
                                 render_width=W, render_height=H, render_camera_id=0)
    ref = gymnasium.wrappers.AddRenderObservation(
        gymnasium.make(task_id, render_mode="rgb_array", width=W, height=H, camera_id=0),
        render_only=True)
    assert env.observation_space == gymnasium.spaces.Box(0, 255, (6, H, W), np.uint8)
    assert ref.observation_space.shape == (H, W, 3)
    env.reset()
    ref.reset(seed=0)
    state = np.array(env.get_state(0))
    u = ref.unwrapped
    u.set_state(state[:u.model.nq], state[u.model.nq:])
    frames = [ref.render()]
    rng = np.random.default_rng(3)
    high = env.single_action_space.high
    for step in range(4):
        action = (rng.uniform(-0.3, 0.3, high.shape) * high).astype(np.float32)
        ours, _, term, trunc, _ = env.step(action[None])
        theirs = ref.step(action)[0]
        assert not (term[0] or trunc[0])
        frames.append(theirs)
        np.testing.assert_array_equal(ours[0], _stacked(frames[-2:]), f"{task_id} step {step}")
    assert frames[-1].std() > 5, "a blank frame"
    env.close()
    ref.close()


def test_mujoco_state_and_pixels() -> None:
    """``pixels_only=False``: gymnasium's ``AddRenderObservation(render_only=False)`` keys,
    "state" (the task's observation, unchanged) and "pixels"; info keys unchanged."""
    env = envpool.make_gymnasium("HalfCheetah-v5", num_envs=1, seed=4, from_pixels=True,
                                 pixels_only=False, render_width=W, render_height=H)
    plain = envpool.make_gymnasium("HalfCheetah-v5", num_envs=1, seed=4)
    ref = gymnasium.wrappers.AddRenderObservation(
        gymnasium.make("HalfCheetah-v5", render_mode="rgb_array", width=W, height=H),
        render_only=False)
    assert set(env.observation_space.spaces) == set(ref.observation_space.spaces)
    assert env.observation_space["state"] == plain.observation_space
    obs, info = env.reset()
    ref_obs, ref_info = plain.reset()
    np.testing.assert_array_equal(obs["state"], ref_obs)
    assert obs["pixels"].shape == (1, 3, H, W)
    obs, _, _, _, info = env.step(np.zeros((1, 6), np.float32))
    ref_obs, _, _, _, ref_info = plain.step(np.zeros((1, 6), np.float32))
    np.testing.assert_array_equal(obs["state"], ref_obs)
    assert set(info) == set(ref_info)
    for e in (env, plain, ref):
        e.close()


def test_mujoco_pixels_with_settings_per_env() -> None:
    """Different settings per env (``env_kwargs``: one factory per setting): each row is its
    env's own frame, also after the pool's autoreset."""
    env = envpool.make_gymnasium(
        "InvertedPendulum-v5", num_envs=2, seed=5, from_pixels=True, render_width=W,
        render_height=H, render_mode="rgb_array", max_episode_steps=2,
        env_kwargs={"reset_noise_scale": [0.0, 0.2]})
    obs, _ = env.reset()
    for _ in range(4):
        np.testing.assert_array_equal(obs, np.transpose(env.render([0, 1]), (0, 3, 1, 2)))
        obs = env.step(np.zeros((2, 1), np.float32))[0]
    env.close()


def test_playground_pixels_are_the_frames_render_draws() -> None:
    """MuJoCo Playground's tasks observe pixels as the other MuJoCo families: the frames of
    ``from_pixels=True`` (stacked oldest first) are those a pool without it draws with
    ``render()`` from the same seed, and the pixel pool's own ``render()`` returns the newest
    one, at the reset too (Go1's floor is an infinite plane, which MuJoCo's first scene update
    places from a camera at the origin: the renderer updates a fresh scene twice)."""
    pytest.importorskip("mujoco_playground")
    kw = dict(num_envs=1, seed=3, render_mode="rgb_array", render_width=W, render_height=H)
    env = envpool.make_gymnasium("Go1JoystickFlatTerrain-v1", from_pixels=True, frame_stack=2,
                                 **kw)
    plain = envpool.make_gymnasium("Go1JoystickFlatTerrain-v1", **kw)
    assert env.single_observation_space.shape == (6, H, W)
    obs, _ = env.reset()
    plain.reset()
    frames = [_chw(plain.render([0])[0])] * 2
    action = np.zeros((1, 12), np.float32)
    for step in range(3):
        np.testing.assert_array_equal(obs[0], np.concatenate(frames), err_msg=f"step {step}")
        np.testing.assert_array_equal(obs[0, 3:], _chw(env.render([0])[0]))
        obs = env.step(action)[0]
        plain.step(action)
        frames = [frames[1], _chw(plain.render([0])[0])]
    env.close()
    plain.close()


# -- spaces, specs, defaults and refusals -------------------------------------------------

def test_spaces_in_every_flavour_and_a_cnn() -> None:
    """84 x 84 by default (EnvPool's and DrQ's size); the same space from make_spec, the
    gymnasium, gym and dm flavours and gymnasium.make_vec; a CNN built from
    ``observation_space.shape`` takes a batch."""
    torch = pytest.importorskip("torch")
    box = gymnasium.spaces.Box(0, 255, (9, 84, 84), np.uint8)
    spec = envpool.make_spec("WalkerWalk-v1", from_pixels=True, frame_stack=3)
    assert spec.observation_space == box
    assert spec.config.from_pixels and spec.config.render_width == 84
    env = envpool.make_gymnasium("WalkerWalk-v1", num_envs=2, from_pixels=True, frame_stack=3)
    assert env.observation_space == box and env.single_observation_space == box
    gym_env = envpool.make_gym("WalkerWalk-v1", num_envs=2, from_pixels=True, frame_stack=3)
    assert tuple(gym_env.observation_space.shape) == (9, 84, 84)
    dm = envpool.make_dm("WalkerWalk-v1", num_envs=2, from_pixels=True, frame_stack=3)
    pix = dm.observation_spec().pixels
    assert pix.shape == (9, 84, 84) and pix.dtype == np.uint8 and pix.maximum.max() == 255
    vec = gymnasium.make_vec("envpool/Swimmer-v5", num_envs=2, from_pixels=True,
                             render_width=W, render_height=H)
    assert vec.observation_space.shape == (2, 3, H, W)
    obs, _ = env.reset()
    c = env.observation_space.shape[0]
    net = torch.nn.Sequential(torch.nn.Conv2d(c, 8, 8, stride=4), torch.nn.ReLU(),
                              torch.nn.Flatten(), torch.nn.LazyLinear(4))
    assert net(torch.as_tensor(obs, dtype=torch.float32) / 255).shape == (2, 4)
    ts = dm.reset()
    assert ts.observation.pixels.shape == (2, 9, 84, 84)
    for e in (env, gym_env, dm, vec):
        e.close()


def test_refusals() -> None:
    """Bad combinations are a ValueError naming what is wrong."""
    with pytest.raises(ValueError, match="no pixel observations"):
        envpool.make_gymnasium("CartPole-v1", from_pixels=True)
    envpool.make_gymnasium("CartPole-v1", from_pixels=False).close()  # accepted, as in EnvPool
    with pytest.raises(ValueError, match="positive render_width"):
        envpool.make_spec("CheetahRun-v1", from_pixels=True, render_width=0)
    with pytest.raises(ValueError, match="camera"):
        envpool.make_spec("CheetahRun-v1", from_pixels=True, render_camera_id=99)
    with pytest.raises(ValueError, match="frame_stack must be an int >= 1"):
        envpool.make_spec("Hopper-v5", frame_stack=0)
    with pytest.raises(ValueError, match="frame_stack must be an int >= 1"):
        envpool.make_spec("Hopper-v5", from_pixels=True, frame_stack=0)


# With frames, fewer and shorter episodes: a frame of Hopper takes about 70 ms in Mesa's
# software renderer, whatever its size.
@pytest.mark.parametrize(("from_pixels", "steps", "episode"), [(False, 60, 25), (True, 12, 4)])
def test_mujoco_frame_stack_stacks_the_state(from_pixels: bool, steps: int, episode: int) -> None:
    """frame_stack=k on a gymnasium MuJoCo task (EnvPool's keyword): the state observation of
    shape (n,) becomes (k, n), the last k observations of the frame_stack=1 env, oldest first,
    the reset's repeated; with from_pixels=True, pixels_only=False the frames are stacked
    beside it. Infos, rewards and ends are those of the unstacked env."""
    k = 3
    extra = {"from_pixels": True, "pixels_only": False, "render_width": 32,
             "render_height": 24} if from_pixels else {}
    one = envpool.make_gymnasium("Hopper-v5", num_envs=2, seed=5, max_episode_steps=episode,
                                 **extra)
    stacked = envpool.make_gymnasium("Hopper-v5", num_envs=2, seed=5,
                                     max_episode_steps=episode, frame_stack=k, **extra)
    n = 11

    def state(obs: Any) -> np.ndarray:
        return obs["state"] if from_pixels else obs

    space = stacked.single_observation_space
    assert (space["state"] if from_pixels else space).shape == (k, n)
    if from_pixels:
        assert space["pixels"].shape == (3 * k, 24, 32)
    assert envpool.make_spec("Hopper-v5", frame_stack=k).observation_space.shape == (k, n)
    obs1, info1 = one.reset()
    obs, info = stacked.reset()
    history = [state(obs1).copy() for _ in range(k)]
    np.testing.assert_array_equal(state(obs), np.stack(history, axis=1), strict=True)
    rng = np.random.default_rng(0)
    resets = 0
    for _ in range(steps):
        action = rng.uniform(-1, 1, (2, 3)).astype(np.float32)
        obs1, rew1, term1, trunc1, info1 = one.step(action)
        obs, rew, term, trunc, info = stacked.step(action)
        # Next-step autoreset: an env that ended restarts with its reset repeated.
        for i in np.flatnonzero(info1["elapsed_step"] == 0):
            resets += 1
            for h in history:
                h[i] = state(obs1)[i]
        history = [*history[1:], state(obs1).copy()]
        np.testing.assert_array_equal(state(obs), np.stack(history, axis=1), strict=True)
        if from_pixels:
            np.testing.assert_array_equal(obs["pixels"][:, -3:], obs1["pixels"])
        np.testing.assert_array_equal(rew, rew1)
        np.testing.assert_array_equal(term, term1)
        np.testing.assert_array_equal(trunc, trunc1)
        for key in ("x_position", "z_distance_from_origin", "elapsed_step"):
            np.testing.assert_array_equal(info[key], info1[key])
    assert resets >= 2  # episodes ended and restarted
    one.close()
    stacked.close()


def test_benchmark_reference_observes_the_same() -> None:
    """bench.py's dm_control_pixels reference (dm_control + pixels.Wrapper through Shimmy,
    frame-stacked) observes what the envpool pool of the benchmark observes: same space, the
    reset frame repeated, each step's frame dm_control's ``physics.render``."""
    pytest.importorskip("shimmy")
    pytest.importorskip("dm_control")
    import pathlib
    import sys

    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "benchmarks"))
    import _runners

    ref = _runners.dm_pixels_env("CheetahRun-v1")
    spec = envpool.make_spec("CheetahRun-v1", from_pixels=True, **_runners.PIXELS)
    assert ref.observation_space == spec.observation_space
    obs, _ = ref.reset(seed=0)
    np.testing.assert_array_equal(obs[:3], obs[6:])
    obs = ref.step(np.zeros(6))[0]
    physics = ref.unwrapped._env.physics
    newest = physics.render(84, 84, camera_id=0)
    np.testing.assert_array_equal(obs[6:], _chw(newest))
    ref.close()
