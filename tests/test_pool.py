"""Behaviour of the pool: determinism, autoreset modes, async protocol, bad input."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import envpool


def _trajectories(num_threads: int, batch_size: int, seed: int = 0, per_env: int = 120) -> dict:
    """The first ``per_env`` (obs, reward, terminated, truncated) of each env of CartPole
    driven by per-env action streams, whatever order the pool returns envs in."""
    num_envs = 6
    env = envpool.make_gymnasium("CartPole-v1", num_envs=num_envs, batch_size=batch_size,
                                 num_threads=num_threads, seed=seed, max_episode_steps=40)
    streams = [np.random.default_rng(100 + i) for i in range(num_envs)]
    traj: dict[int, list] = {i: [] for i in range(num_envs)}
    env.async_reset()
    for _ in range(100 * per_env):  # a bound; the loop ends once every env has enough
        if min(len(t) for t in traj.values()) >= per_env:
            break
        obs, rew, term, trunc, info = env.recv()
        ids = info["env_id"]
        for k, i in enumerate(ids):
            traj[int(i)].append((obs[k].tobytes(), float(rew[k]), bool(term[k]), bool(trunc[k])))
        env.send(np.array([streams[i].integers(2) for i in ids], np.int32), ids)
    env.close()
    assert min(len(t) for t in traj.values()) >= per_env
    return {i: t[:per_env] for i, t in traj.items()}


def test_same_trajectories_for_any_thread_count_and_mode() -> None:
    ref = _trajectories(num_threads=1, batch_size=6)
    # 120 steps with a 40-step limit: every env goes through several episodes.
    assert all(sum(term or trunc for *_, term, trunc in t) >= 3 for t in ref.values())
    for threads, batch in [(2, 6), (4, 6), (1, 2), (2, 3), (4, 1)]:
        got = _trajectories(threads, batch)
        for i in ref:
            assert got[i] == ref[i], (threads, batch, i)
    other = _trajectories(num_threads=2, batch_size=6, seed=1)
    assert other[0][0] != ref[0][0]


def test_next_step_autoreset() -> None:
    env = envpool.make_gymnasium("Faulty-v0", num_envs=2, episode_length=3)
    obs, _ = env.reset()
    rows = [env.step(np.array([2, 1], np.int32)) for _ in range(4)]
    obs3, rew3, term3, _, info3 = rows[2]
    assert term3.all() and np.array_equal(obs3[:, 0], [3, 3]) and np.array_equal(rew3, [2, 1])
    obs4, rew4, term4, trunc4, info4 = rows[3]
    # The step after the done one resets: reset obs, reward 0, flags off, action ignored.
    assert np.array_equal(obs4[:, 0], [0, 0]) and np.array_equal(rew4, [0, 0])
    assert not term4.any() and not trunc4.any() and np.array_equal(info4["elapsed_step"], [0, 0])
    assert not np.array_equal(obs4[:, 1], obs[:, 1])  # a new episode draws anew
    assert np.array_equal(info4["total_steps"], info3["total_steps"])  # not stepped


def test_same_step_autoreset_matches_next_step() -> None:
    kw = {"num_envs": 3, "seed": 7, "max_episode_steps": 30}
    nxt = envpool.make_gymnasium("CartPole-v1", **kw)
    same = envpool.make_gymnasium("CartPole-v1", autoreset_mode="same_step", **kw)
    assert same.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    n_obs, _ = nxt.reset()
    s_obs, _ = same.reset()
    assert np.array_equal(n_obs, s_obs)
    rng = np.random.default_rng(0)
    dones = 0
    for _ in range(120):
        a = rng.integers(0, 2, 3)
        n_obs, n_rew, n_term, n_trunc, _ = nxt.step(a)
        s_obs, s_rew, s_term, s_trunc, s_info = same.step(a)
        assert np.array_equal(n_rew, s_rew) and np.array_equal(n_term, s_term)
        assert np.array_equal(n_trunc, s_trunc)
        done = n_term | n_trunc
        assert np.array_equal(s_info["_final_obs"], done)
        assert np.array_equal(s_info["final_obs"][done], n_obs[done])
        assert (s_info["final_obs"][~done] == 0).all()
        if done.any():
            dones += int(done.sum())
            lengths = s_info["final_info"]["elapsed_step"][done]
            assert (lengths > 0).all()
            assert (s_info["elapsed_step"][done] == 0).all()
            # next-step mode shows the reset obs one step later (action ignored)
            n_obs2, n_rew2, *_ = nxt.step(np.zeros(3, np.int64))
            assert np.array_equal(n_obs2[done], s_obs[done]) and (n_rew2[done] == 0).all()
            # and resynchronise the not-done envs by stepping the same-step pool too
            s_obs, *_ = same.step(np.zeros(3, np.int64))
            assert np.array_equal(n_obs2[~done], s_obs[~done])
            break
    assert dones > 0


def test_terminated_and_truncated_both_true() -> None:
    env = envpool.make_gymnasium("Faulty-v0", num_envs=1, episode_length=4, max_episode_steps=4)
    env.reset()
    for _ in range(3):
        _, _, term, trunc, _ = env.step(np.zeros(1, np.int32))
        assert not term[0] and not trunc[0]
    _, _, term, trunc, _ = env.step(np.zeros(1, np.int32))
    assert term[0] and trunc[0]


def test_disabled_autoreset_and_reset_mask() -> None:
    env = envpool.make_gymnasium("Faulty-v0", num_envs=3, episode_length=2,
                                 autoreset_mode="disabled")
    obs0, _ = env.reset()
    env.step(np.zeros(3, np.int32))
    # env 2 is one step behind
    obs, _, term, _, _ = env.step(np.zeros(2, np.int32), env_id=[0, 1])
    assert term.all()
    with pytest.raises(ValueError, match="autoreset is disabled"):
        env.step(np.zeros(3, np.int32))
    obs, info = env.reset(options={"reset_mask": np.array([True, False, False])})
    assert obs.shape == (3, 2)
    assert obs[0, 0] == 0 and obs[1, 0] == 2 and obs[2, 0] == 1  # only env 0 was reset
    assert np.array_equal(info["elapsed_step"], [0, 2, 1])
    with pytest.raises(ValueError, match="reset_mask"):
        env.reset(options={"reset_mask": np.array([1, 0, 0])})


def test_outputs_stay_valid_while_held() -> None:
    env = envpool.make_gymnasium("CartPole-v1", num_envs=4, seed=3)
    held, _ = env.reset()
    copy = held.copy()
    seen = []
    for _ in range(50):
        obs, *_ = env.step(np.ones(4, np.int64))
        seen.append((obs, obs.copy()))
    assert np.array_equal(held, copy)
    assert all(np.array_equal(a, b) for a, b in seen)


def test_async_protocol() -> None:
    env = envpool.make_gymnasium("Faulty-v0", num_envs=8, batch_size=3, seed=0)
    assert env.is_async and env.num_envs == 8 and env.observation_space.shape == (2,)
    env.async_reset()
    counts = np.zeros(8, int)
    for _ in range(40):
        obs, rew, term, trunc, info = env.recv()
        ids = info["env_id"]
        assert len(ids) == 3 and len(set(ids)) == 3
        counts[ids] += 1
        with pytest.raises(ValueError, match="in flight"):
            env.send(np.zeros(1, np.int32), [int(np.setdiff1d(np.arange(8), ids)[0])])
        env.send(np.ones(3, np.int32), ids)
    assert (counts > 0).all()
    # 8 envs in flight, batch 3: two more batches can complete, then two envs remain.
    env.recv()
    env.recv()
    with pytest.raises(RuntimeError, match="wait forever"):
        env.recv()


def test_bad_actions_and_ids_raise_and_leave_the_pool_usable() -> None:
    env = envpool.make_gymnasium("CartPole-v1", num_envs=3)
    env.reset()
    cases = [
        (np.zeros(2, np.int32), None, ValueError, "shape"),
        (np.zeros((3, 1), np.int32), None, ValueError, "shape"),
        (np.full(3, 0.5, np.float32), None, TypeError, "integers"),
        (np.array([0, 1, 2]), None, ValueError, "out of range"),
        (np.array([0, -1, 0]), None, ValueError, "out of range"),
        (np.array([0, 2**40, 0]), None, ValueError, "out of range"),
        (np.zeros(2, np.int32), [0, 3], ValueError, "out of range"),
        (np.zeros(2, np.int32), [1, 1], ValueError, "twice"),
        (np.zeros(2, np.int32), [0.0, 1.0], TypeError, "env_id"),
        (["a", "b", "c"], None, TypeError, "integers"),
    ]
    for action, ids, err, msg in cases:
        with pytest.raises(err, match=msg):
            env.step(action, ids)
    obs, *_ = env.step(np.ones(3, np.int32))  # nothing was queued by the failures
    assert obs.shape == (3, 4)
    with pytest.raises(RuntimeError, match="nothing in flight"):
        env.recv()


def test_use_after_close_raises() -> None:
    env = envpool.make_gymnasium("CartPole-v1", num_envs=2)
    env.reset()
    env.close()
    env.close()  # idempotent
    with pytest.raises(RuntimeError, match="closed"):
        env.step(np.zeros(2, np.int32))
    with pytest.raises(RuntimeError, match="closed"):
        env.reset()


def test_worker_exception_surfaces_in_python() -> None:
    env = envpool.make_gymnasium("Faulty-v0", num_envs=2, fail_at_step=3, num_threads=2)
    env.reset()
    env.step(np.zeros(2, np.int32))
    env.step(np.zeros(2, np.int32))
    with pytest.raises(RuntimeError, match="faulty env failed at step 3"):
        env.step(np.zeros(2, np.int32))
    with pytest.raises(RuntimeError, match="stopped after an error.*faulty env failed"):
        env.reset()


def test_recv_timeout() -> None:
    env = envpool.make_gymnasium("Faulty-v0", num_envs=1, step_sleep_us=300_000)
    env.reset()
    env.send(np.zeros(1, np.int32))
    start = time.monotonic()
    with pytest.raises(TimeoutError):
        env.recv(timeout=0.05)
    assert time.monotonic() - start < 0.25
    obs, *_ = env.recv(timeout=5)  # the step still arrives
    assert obs[0, 0] == 1


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize(("recv_call", "step_s", "within_s"), [
    # recv(timeout=...) only waits for the workers: Ctrl-C lands within its 20 ms poll,
    # long before the 4 s steps end.
    ("env.recv(timeout=60)", 4.0, 2.0),
    # recv() steps queued envs on the calling thread while it waits (no thread wake-up
    # per round): Ctrl-C lands between two env steps, so at the end of the 2 s step
    # it is in, 1.5 s after the signal, not when the batch is complete (its third
    # step ends 4 s after the send, 3.5 s after the signal).
    ("env.recv()", 2.0, 3.0),
])
def test_ctrl_c_interrupts_a_blocking_recv(recv_call: str, step_s: float,
                                           within_s: float) -> None:
    script = textwrap.dedent(
        f"""
        import signal, sys, traceback, numpy as np, envpool
        # Python keeps SIGINT ignored when it starts with it ignored (a job started in
        # the background of a non-interactive shell): take Ctrl-C as a terminal does.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        envpool.register("Slow-v0", "_Faulty")
        env = envpool.make_gymnasium("Slow-v0", num_envs=5, batch_size=4, num_threads=1,
                                     step_sleep_us={int(step_s * 1e6)})
        env.async_reset()
        ids = env.recv()[4]["env_id"]  # one reset stays done in flight
        # The next batch needs three of these four steps; one worker and the caller
        # run two at a time.
        env.send(np.zeros(4, np.int32), ids)
        try:
            print("waiting", flush=True)
            {recv_call}
        except KeyboardInterrupt as e:
            frames = [f.name for f in traceback.extract_tb(e.__traceback__)]
            print("interrupted in recv" if "recv_raw" in frames else "interrupted elsewhere",
                  flush=True)
            sys.exit(3)
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdout.readline().strip() == "waiting"
    time.sleep(0.5)  # let it enter recv
    start = time.monotonic()
    proc.send_signal(signal.SIGINT)
    assert proc.stdout.readline().strip() == "interrupted in recv"
    assert time.monotonic() - start < within_s
    # At exit the pool joins its workers, which finish the step they are in.
    proc.communicate(timeout=30)
    assert proc.returncode == 3


@pytest.mark.parametrize("batch_size", [8, 4])
def test_an_idle_pool_uses_no_cpu(batch_size: int) -> None:
    # Workers (and recv) spin briefly before they sleep, so that a fast env's next send
    # finds them awake; a pool left alone must still go to sleep. Measured as this
    # process's CPU time over half a second of sleep right after a busy stretch.
    env = envpool.make_gymnasium("CartPole-v1", num_envs=8, batch_size=batch_size,
                                 num_threads=2)
    env.async_reset()
    for _ in range(2000):
        ids = env.recv()[4]["env_id"]
        env.send(np.zeros(len(ids), np.int32), ids)
    env.recv()
    time.sleep(0.05)
    cpu0, wall0 = time.process_time(), time.perf_counter()
    time.sleep(0.5)
    share = (time.process_time() - cpu0) / (time.perf_counter() - wall0)
    env.close()
    assert share < 0.05, f"an idle pool used {share:.1%} of a core"
