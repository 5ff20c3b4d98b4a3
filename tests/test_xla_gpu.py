"""pool.xla() with the jitted functions placed on a GPU (jax's CUDA build): the custom calls'
CUDA handlers (envpool/core/xla_shim.cc) copy the handle and the actions to the host, step the
pool there and copy the batch to the GPU. Each test runs the same rollout twice, on two pools
made with the same seed: once placed on the CPU (the CPU handlers) and once on the GPU (the
CUDA handlers), and asserts that the GPU's results are on the GPU and equal the CPU's bit for
bit (dtypes too). A policy inside the scan reads each batch's observations, so a batch copied
wrongly to the GPU changes the actions and the trajectory after it.

A machine without a GPU skips them all (the CUDA handlers cannot run there); with
``ENVPOOL_REQUIRE_GPU=1`` (scripts/gpu_xla_check.sh on a GPU machine) a missing GPU fails
them instead. tests/test_xla.py covers the CPU handlers on every machine."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from xla_trajectories import Trajectories, assert_same_trajectories, per_env  # tests/

import envpool

jax = pytest.importorskip("jax")  # (in the test extra: never skipped in CI)
jnp = jax.numpy


def _gpu() -> Any:
    """jax's first GPU device, or the test's skip (its failure under ENVPOOL_REQUIRE_GPU=1)."""
    try:
        gpus = jax.devices("gpu")
    except RuntimeError:  # no GPU backend: a CPU-only jaxlib, or no driver
        gpus = []
    if gpus:
        return gpus[0]
    if os.environ.get("ENVPOOL_REQUIRE_GPU") == "1":
        pytest.fail("ENVPOOL_REQUIRE_GPU=1 and jax has no GPU device")
    pytest.skip("no GPU device in jax: the CUDA handlers run only on a GPU "
                "(scripts/gpu_xla_check.sh)")


@pytest.fixture
def gpu() -> Any:
    """The GPU the tests place their jitted functions on."""
    return _gpu()


@contextlib.contextmanager
def x64(on: bool) -> Iterator[None]:
    """jax with float64 / int64 arrays while ``on`` (for the envs that have them)."""
    before = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", before or on)
    try:
        yield
    finally:
        jax.config.update("jax_enable_x64", before)


def _leaves(tree: Any) -> list[Any]:
    return jax.tree_util.tree_leaves(tree)


def _assert_equal(gpu_tree: Any, cpu_tree: Any, where: str) -> None:
    """Same structure, dtypes and bits."""
    a, b = _leaves(gpu_tree), _leaves(cpu_tree)
    assert len(a) == len(b) > 0, where
    for x, y in zip(a, b, strict=True):
        x, y = np.asarray(x), np.asarray(y)
        assert x.dtype == y.dtype and x.shape == y.shape, (where, x.dtype, y.dtype, x.shape)
        np.testing.assert_array_equal(x, y, err_msg=where)


def _on(tree: Any, device: Any, where: str) -> None:
    """Every array of ``tree`` lives on ``device`` alone."""
    for leaf in _leaves(tree):
        assert leaf.devices() == {device}, (where, leaf.devices())


def _policy(task_id: str, n: int) -> Callable[[Any, Any], Any]:
    """Each env's action from its observation (so that a wrong copy of a batch changes the
    next actions): a hash of the observation's bytes modulo the action count, or torques."""

    def act(obs: Any, env_id: Any) -> Any:
        flat = obs.reshape(obs.shape[0], -1)
        if task_id == "Ant-v5":  # 8 torques in [-1, 1] from the first 8 coordinates
            return jnp.tanh(flat[:, :8] * 3.0).astype(jnp.float32)
        if jnp.issubdtype(flat.dtype, jnp.floating):
            score = jnp.sum(jnp.round(flat * 1000.0).astype(jnp.int32), axis=1)
        else:
            score = jnp.sum(flat.astype(jnp.int32) * (jnp.arange(flat.shape[1]) % 7 + 1), axis=1)
        return ((score + env_id) % n).astype(jnp.int32)

    return act


SYNC_CASES = [
    ("CartPole-v1", envpool.make_gym, {"max_episode_steps": 12}, 2),
    ("Pong-v5", envpool.make_gymnasium, {"max_episode_steps": 9}, 6),
    ("Pong-v5", envpool.make_dm, {"max_episode_steps": 9}, 6),
    ("Ant-v5", envpool.make_gymnasium, {"max_episode_steps": 7}, 0),
]


def _sync_rollout(task_id: str, make: Any, kwargs: dict, n: int, device: Any,
                  num_envs: int = 3) -> Any:
    """Reset outside jit, then two jitted scans of 10 steps (the first one's handle goes on
    in the second) with the policy inside, all placed on ``device``."""
    env = make(task_id, num_envs=num_envs, seed=7, **kwargs)
    handle, recv, _, step = env.xla()
    act = _policy(task_id, n)
    env.async_reset()
    handle, first = recv(jax.device_put(handle, device))

    def obs_of(result: Any) -> Any:
        return result.observation.obs if hasattr(result, "observation") else result[0]

    def env_ids(result: Any) -> Any:
        return (result.observation.env_id if hasattr(result, "observation")
                else result[-1]["env_id"])

    @jax.jit
    def rollout(handle: Any, last: Any) -> tuple[Any, Any]:
        def body(carry: Any, _: Any) -> tuple[Any, Any]:
            h, obs, ids = carry
            h, result = step(h, act(obs, ids))
            return (h, obs_of(result), env_ids(result)), result

        (handle, *_), out = jax.lax.scan(body, (handle, obs_of(last), env_ids(last)), None,
                                         length=10)
        return handle, out

    handle, part1 = rollout(handle, first)
    last = jax.tree_util.tree_map(lambda x: x[-1], part1)
    handle, part2 = rollout(handle, last)
    compiled = rollout.lower(handle, last).compile().as_text()
    jax.block_until_ready((first, part1, part2))  # (closing a pool that XLA still steps
    env.close()                                   # is not allowed)
    return first, part1, part2, compiled


@pytest.mark.parametrize(("task_id", "make", "kwargs", "n"), SYNC_CASES)
def test_gpu_scan_equals_cpu_scan(gpu: Any, task_id: str, make: Any, kwargs: dict,
                                  n: int) -> None:
    """Sync pools, past time limits and resets: the GPU's arrays are on the GPU, the
    compiled GPU program holds both custom calls, and every array equals the CPU's."""
    cpu = jax.devices("cpu")[0]
    with x64(task_id == "Ant-v5"):
        on_gpu = _sync_rollout(task_id, make, kwargs, n, gpu)
        on_cpu = _sync_rollout(task_id, make, kwargs, n, cpu)
    for name, g, c in zip(("reset", "scan 1", "scan 2"), on_gpu[:3], on_cpu[:3], strict=True):
        _on(g, gpu, f"{task_id}: {name}")
        _on(c, cpu, f"{task_id}: {name}")
        _assert_equal(g, c, f"{task_id}: {name}")
    assert "envpool_xla_recv" in on_gpu[3] and "envpool_xla_send" in on_gpu[3]


def test_gpu_scan_of_64_envs_steps_each_once(gpu: Any) -> None:
    """64 envs: XLA's GPU compiler (jaxlib 0.11.2) fused the recv call of such a scan with
    the dynamic update slice that stacks its results and kept the call too, so recv ran
    twice a step ("recv() with nothing in flight"); xla.py's barriers keep the calls out of
    fusions. The GPU's arrays equal the CPU's."""
    case = ("CartPole-v1", envpool.make_gym, {"max_episode_steps": 12}, 2)
    on_gpu = _sync_rollout(*case, gpu, num_envs=64)
    on_cpu = _sync_rollout(*case, jax.devices("cpu")[0], num_envs=64)
    for name, g, c in zip(("reset", "scan 1", "scan 2"), on_gpu[:3], on_cpu[:3], strict=True):
        _on(g, gpu, f"64 envs: {name}")
        _assert_equal(g, c, f"64 envs: {name}")


def _async_rollout(device: Any, rounds: int) -> Trajectories:
    """An async pool (6 envs, batches of 3) stepped by a jitted scan of recv / send on
    ``device``: each env's own sequence of (obs, reward, terminated, truncated)."""
    env = envpool.make_gymnasium("Pong-v5", num_envs=6, batch_size=3, num_threads=2, seed=1,
                                 max_episode_steps=8)
    handle, recv, send, _ = env.xla()
    act = _policy("Pong-v5", 6)
    env.async_reset()

    def body(h: Any, _: Any) -> tuple[Any, Any]:
        h, (obs, reward, terminated, truncated, info) = recv(h)
        h = send(h, act(obs, info["env_id"]), info["env_id"])
        return h, (info["env_id"], obs, reward, terminated, truncated)

    scan = jax.jit(lambda h: jax.lax.scan(body, h, None, length=rounds))
    _, out = jax.block_until_ready(scan(jax.device_put(handle, device)))
    _on(out, device, f"async on {device}")
    ids, *rows = (np.asarray(x) for x in out)
    env.close()
    return per_env(ids, rows)


def test_gpu_async_pool_gives_each_env_the_cpu_trajectory(gpu: Any) -> None:
    """Async: which envs a batch holds is the threads' timing, so each env's own sequence
    is compared (its actions come from its observations: send's env ids and actions are
    read back from the GPU), over the steps both runs have, past episode ends."""
    ours, theirs = _async_rollout(gpu, 200), _async_rollout(jax.devices("cpu")[0], 200)
    assert_same_trajectories(ours, theirs, "async Pong-v5")


def test_gpu_errors_raise_and_leave_the_pool_usable(gpu: Any) -> None:
    """An out-of-range action fails the GPU call with the pool's message; the pool steps
    on; a call on a closed pool fails with "closed"; a handle that is not one is refused."""
    env = envpool.make_gym("CartPole-v1", num_envs=2, seed=0)
    handle, recv, send, step = env.xla()
    handle = jax.device_put(handle, gpu)
    env.async_reset()
    handle, _ = jax.jit(recv)(handle)
    with pytest.raises(Exception, match="out of range"):
        jax.block_until_ready(jax.jit(send)(handle, jax.device_put(
            np.array([0, 7], np.int32), gpu)))
    handle, (obs, *_) = jax.jit(step)(handle, jax.device_put(np.array([0, 1], np.int32), gpu))
    assert jax.block_until_ready(obs).shape == (2, 4) and obs.devices() == {gpu}
    with pytest.raises(Exception, match="not an envpool XLA handle"):
        jax.block_until_ready(jax.jit(recv)(jax.device_put(np.zeros(8, np.uint8), gpu))[0])
    env.close()
    with pytest.raises(Exception, match="closed"):
        jax.block_until_ready(jax.jit(recv)(handle)[0])
