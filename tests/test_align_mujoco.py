"""Alignment of the MuJoCo envs with gymnasium's (v4 and v5), step by step.

sail-sg EnvPool's legacy ids (``Ant-v3``, ``Reacher-v2``, ..., and ``Pusher-v4``, which
gymnasium refuses to make on mujoco >= 3) are compared with the gymnasium v4 class they
run: for the legacy ids, without the ``mj_rnePostConstraint`` call that ends gymnasium's
steps (mujoco-py on MuJoCo >= 2.0 never made it; envpool/tasks/mujoco.py), and for the
Pusher v4 class, made with gymnasium's mujoco-version check passed over.

Our env and ``gymnasium.make(task_id, **kwargs).unwrapped`` run side by side:
after each of our resets the reference is reset too (``mj_resetData``) and our
qpos/qvel are copied into it with ``set_state`` (which runs ``mj_forward``, as
our reset does); the two RNG streams differ. Then both take the same random
float32 actions. Both call the same MuJoCo library with the same mj_step
sequence, so observations, rewards (float32 of the reference's float64),
terminated, truncated, info values and the state must match bitwise.
The truncation at ``max_episode_steps`` is done by our pool; the reference's
steps are counted here.
"""

from __future__ import annotations

import os
from typing import Any

import gymnasium
import mujoco
import numpy as np
import pytest

import envpool
from envpool.tasks import mujoco as mujoco_tasks
from envpool.tasks._numpy_blas import OTHER, numpy_blas_orders

NUM_ENVS = 2


# task id, keywords, number of steps of our pool (per env), max_episode_steps,
# how the episodes must end within the run: "term" (at least two terminations),
# "trunc" (never terminated, at least two truncations) or "both".
CASES: list[tuple[str, dict[str, Any], int, int, str]] = [
    ("HalfCheetah-v4", {}, 260, 100, "trunc"),
    ("HalfCheetah-v5", {}, 260, 100, "trunc"),
    # sail-sg EnvPool's model file, from the envpool-assets package (a test dependency)
    ("HalfCheetah-v5", {"xml_file": "half_cheetah_envpool.xml"}, 120, 50, "trunc"),
    ("HalfCheetah-v5", {"frame_skip": 3, "ctrl_cost_weight": 0.3,
                        "exclude_current_positions_from_observation": False}, 120, 50, "trunc"),
    ("Hopper-v4", {}, 300, 1000, "term"),
    ("Hopper-v5", {}, 300, 1000, "term"),
    ("Hopper-v4", {"terminate_when_unhealthy": False}, 150, 60, "trunc"),
    ("Hopper-v5", {"terminate_when_unhealthy": False, "healthy_z_range": (0.9, float("inf")),
                   "exclude_current_positions_from_observation": False}, 150, 60, "trunc"),
    ("Walker2d-v4", {}, 300, 1000, "term"),
    ("Walker2d-v5", {}, 300, 1000, "term"),
    ("Walker2d-v5", {"terminate_when_unhealthy": False, "frame_skip": 2}, 150, 60, "trunc"),
    ("Ant-v4", {}, 300, 100, "both"),
    ("Ant-v4", {"use_contact_forces": True, "healthy_z_range": (0.5, 1.0)}, 300, 1000, "term"),
    ("Ant-v5", {}, 300, 100, "both"),
    ("Ant-v5", {"include_cfrc_ext_in_observation": False, "main_body": 2,
                "healthy_z_range": (0.5, 1.0)}, 300, 1000, "term"),
    ("Swimmer-v4", {}, 220, 100, "trunc"),
    ("Swimmer-v5", {}, 220, 100, "trunc"),
    ("Swimmer-v5", {"exclude_current_positions_from_observation": False, "frame_skip": 2}, 120,
     50, "trunc"),
    ("Humanoid-v4", {}, 150, 1000, "term"),
    ("Humanoid-v5", {}, 150, 1000, "term"),
    ("Humanoid-v5", {"include_cinert_in_observation": False, "include_cvel_in_observation": False,
                     "contact_cost_range": (float("-inf"), 0.001),
                     "terminate_when_unhealthy": False},
     80, 30, "trunc"),
    ("HumanoidStandup-v4", {}, 80, 30, "trunc"),
    ("HumanoidStandup-v5", {}, 80, 30, "trunc"),
    ("HumanoidStandup-v5", {"include_qfrc_actuator_in_observation": False,
                            "include_cfrc_ext_in_observation": False,
                            "impact_cost_range": (float("-inf"), 1e-3)}, 80, 30, "trunc"),
    ("InvertedPendulum-v4", {}, 200, 1000, "term"),
    ("InvertedPendulum-v5", {}, 200, 1000, "term"),
    ("InvertedPendulum-v5", {"reset_noise_scale": 0.05, "frame_skip": 1}, 200, 1000, "term"),
    ("InvertedDoublePendulum-v4", {}, 200, 1000, "term"),
    ("InvertedDoublePendulum-v5", {}, 200, 1000, "term"),
    ("InvertedDoublePendulum-v5", {"healthy_reward": 3.0}, 200, 1000, "term"),
    ("Reacher-v4", {}, 130, 50, "trunc"),
    ("Reacher-v5", {}, 130, 50, "trunc"),
    ("Reacher-v5", {"reward_control_weight": 0.3, "reward_dist_weight": 2.0}, 130, 50, "trunc"),
    ("Pusher-v5", {}, 130, 50, "trunc"),
    ("Pusher-v5", {"reward_near_weight": 0.7, "reward_control_weight": 0.2}, 130, 50, "trunc"),
    ("Pusher-v4", {}, 130, 50, "trunc"),
    # EnvPool's legacy ids
    ("Ant-v3", {}, 300, 100, "both"),
    ("Ant-v3", {"use_contact_forces": False}, 120, 50, "both"),
    ("HalfCheetah-v3", {}, 120, 50, "trunc"),
    ("Hopper-v3", {}, 300, 1000, "term"),
    ("Humanoid-v3", {}, 150, 1000, "term"),
    ("Swimmer-v3", {}, 120, 50, "trunc"),
    ("Walker2d-v3", {}, 300, 1000, "term"),
    ("HumanoidStandup-v2", {}, 80, 30, "trunc"),
    ("InvertedDoublePendulum-v2", {}, 200, 1000, "term"),
    ("InvertedPendulum-v2", {}, 200, 1000, "term"),
    ("Pusher-v2", {}, 130, 50, "trunc"),
    ("Reacher-v2", {}, 130, 50, "trunc"),
]
LEGACY = {task_id: (task, kwargs) for task_id, task, kwargs in mujoco_tasks.LEGACY}


def make_reference(task_id: str, kwargs: dict[str, Any],
                   monkeypatch: pytest.MonkeyPatch) -> gymnasium.Env:
    """``gymnasium.make(task_id, **kwargs).unwrapped``, or for a legacy id its v4 class
    without mj_rnePostConstraint; gymnasium's Pusher v4 class made on mujoco >= 3."""
    if task_id in LEGACY:
        task, defaults = LEGACY[task_id]
        task_id, kwargs = f"{task}-v4", {**defaults, **kwargs}
        monkeypatch.setattr(mujoco, "mj_rnePostConstraint", lambda model, data: None)
    if task_id == "Pusher-v4":
        with monkeypatch.context() as m:
            m.setattr(mujoco, "__version__", "2.3.7")  # pusher_v4.py refuses mujoco >= 3
            return gymnasium.make(task_id, **kwargs).unwrapped
    return gymnasium.make(task_id, **kwargs).unwrapped


# Info values that gymnasium computes with np.linalg.norm, i.e. sqrt(BLAS ddot(x, x)).
# OpenBLAS picks its ddot kernel by CPU, and the kernels sum in different orders (plain
# on AVX2, fused multiply-adds on AVX-512: envpool/tasks/_numpy_blas.py); our envs sum in
# the running numpy's order, so these keys are compared bitwise wherever that order is
# plain or fused (every CPU numpy 2 runs on). Where it is neither (only a kernel forced by
# hand: OPENBLAS_CORETYPE=Prescott or Core2), within a relative 2**-50: these are sums of 2
# or 3 squares, which any order computes to within a relative (n - 1) * 2**-53 (no
# cancellation), so two orders differ by at most 4 * 2**-53 before the square root.
NORM_KEYS = frozenset({"distance_from_origin", "reward_dist", "reward_near"})
NORM_RTOL = 0.0 if numpy_blas_orders()["dot"] != OTHER else 2.0**-50


def _check_info(info: dict[str, Any], i: int, ref_info: dict[str, Any], where: Any) -> None:
    for key, value in ref_info.items():
        assert key in info, (key, where)
        ours = info[key][i]
        assert ours.dtype == np.float64
        want = np.asarray(value, dtype=np.float64)
        if key in NORM_KEYS and NORM_RTOL:
            np.testing.assert_allclose(ours, want, rtol=NORM_RTOL, atol=0,
                                       err_msg=f"{key} {where}")
        else:
            np.testing.assert_array_equal(ours, want, strict=True, err_msg=f"{key} {where}")


@pytest.mark.parametrize(
    ("task_id", "kwargs", "num_steps", "max_steps", "ends"),
    CASES,
    ids=[f"{c[0]}-{c[1]}" for c in CASES],
)
def test_align(task_id: str, kwargs: dict[str, Any], num_steps: int, max_steps: int,
               ends: str, monkeypatch: pytest.MonkeyPatch) -> None:
    env = envpool.make_gymnasium(task_id, num_envs=NUM_ENVS, seed=3,
                                 max_episode_steps=max_steps, **kwargs)
    ref_kwargs = dict(kwargs)
    if str(kwargs.get("xml_file", "")).endswith("_envpool.xml"):  # where we find it
        assert mujoco_tasks.ENVPOOL_ASSETS_DIR, "envpool-assets is a test dependency"
        ref_kwargs["xml_file"] = os.path.join(mujoco_tasks.ENVPOOL_ASSETS_DIR, kwargs["xml_file"])
        assert env.spec.config.xml_file == kwargs["xml_file"]
    refs = [make_reference(task_id, ref_kwargs, monkeypatch) for _ in range(NUM_ENVS)]
    assert env.single_observation_space.shape == refs[0].observation_space.shape
    assert env.single_observation_space.dtype == np.float64
    np.testing.assert_array_equal(env.single_action_space.low, refs[0].action_space.low)
    np.testing.assert_array_equal(env.single_action_space.high, refs[0].action_space.high)
    low, high = refs[0].action_space.low, refs[0].action_space.high
    rng = np.random.default_rng(7)

    starts: list[Any] = [None] * NUM_ENVS

    def sync(i: int, info: dict[str, Any]) -> None:
        ref = refs[i]
        ref.reset(seed=int(rng.integers(1 << 30)))
        state = np.array(env.get_state(i))
        nq = ref.model.nq
        # sail-sg EnvPool's info: the episode's start, as its align tests read it.
        np.testing.assert_array_equal(info["qpos0"][i], state[:nq], strict=True)
        np.testing.assert_array_equal(info["qvel0"][i], state[nq:], strict=True)
        starts[i] = state
        ref.set_state(state[:nq], state[nq:])
        np.testing.assert_array_equal(obs[i], ref._get_obs(), strict=True)
        _check_info(info, i, ref._get_reset_info(), "reset")

    obs, info = env.reset()
    ref_steps = [0] * NUM_ENVS
    for i in range(NUM_ENVS):
        sync(i, info)

    needs_reset = [False] * NUM_ENVS
    terminations = truncations = 0
    for _ in range(num_steps):
        # Mostly inside the bounds, some outside (MuJoCo clamps ctrl itself).
        action = rng.uniform(1.2 * low, 1.2 * high, size=(NUM_ENVS, len(low))).astype(np.float32)
        obs, reward, terminated, truncated, info = env.step(action)
        for i in range(NUM_ENVS):
            ref = refs[i]
            if needs_reset[i]:
                # Next-step autoreset: this step reset env i.
                assert info["elapsed_step"][i] == 0
                assert reward[i] == 0 and not terminated[i] and not truncated[i]
                sync(i, info)
                ref_steps[i] = 0
                needs_reset[i] = False
                continue
            ref_obs, ref_reward, ref_term, ref_trunc, ref_info = ref.step(action[i])
            ref_steps[i] += 1
            where = (i, ref_steps[i])
            ref_trunc = ref_trunc or ref_steps[i] >= max_steps
            assert info["elapsed_step"][i] == ref_steps[i]
            np.testing.assert_array_equal(obs[i], ref_obs, strict=True, err_msg=str(where))
            assert reward[i] == np.float32(ref_reward), (where, reward[i], ref_reward)
            assert bool(terminated[i]) == bool(ref_term), where
            assert bool(truncated[i]) == ref_trunc, where
            _check_info(info, i, ref_info, where)
            np.testing.assert_array_equal(
                np.concatenate([info["qpos0"][i], info["qvel0"][i]]), starts[i])
            np.testing.assert_array_equal(
                np.array(env.get_state(i)), ref.state_vector(), err_msg=str(where))
            terminations += bool(ref_term)
            truncations += bool(ref_trunc and not ref_term)
            needs_reset[i] = bool(ref_term or ref_trunc)
    if ends in ("term", "both"):
        assert terminations >= 2
    if ends in ("trunc", "both"):
        assert truncations >= 2
    if ends == "trunc":
        assert terminations == 0
    env.close()


def test_a_missing_model_file_is_named() -> None:
    with pytest.raises(ValueError, match="nothing_envpool.xml does not exist"):
        envpool.make_spec("HalfCheetah-v5", xml_file="nothing_envpool.xml")
