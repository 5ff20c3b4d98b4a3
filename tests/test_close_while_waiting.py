"""close() from one thread while another thread's call waits in the pool: a Python thread's
recv (which releases the GIL while it waits) or XLA's threads stepping a jitted rollout. The
close waits for the call in progress and the pool is freed after it; a call after the close
raises "the pool is closed". Each case runs in a child process, so that a crash (the pool
freed under the waiting call) fails the test instead of the suite."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

# The Faulty-v0 task of tests/conftest.py, registered in the child as the conftest does.
PRELUDE = textwrap.dedent("""
    import threading, time
    import numpy as np
    import envpool
    envpool.register("Faulty-v0", "_Faulty", max_episode_steps=0)
""")


def _run_child(code: str) -> str:
    result = subprocess.run([sys.executable, "-c", PRELUDE + textwrap.dedent(code)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, (result.returncode, result.stderr[-3000:])
    return result.stdout


def test_close_from_another_thread_waits_for_a_waiting_recv() -> None:
    out = _run_child("""
        # One env whose steps sleep 0.3 s: the step's recv waits in the pool with the GIL
        # released (or steps the env itself: a recv without timeout helps), while this
        # thread closes the pool. Five rounds: the step is taken by a worker or by the recv.
        for round in range(5):
            env = envpool.make_gymnasium("Faulty-v0", num_envs=1, episode_length=100,
                                         step_sleep_us=300_000)
            env.reset()
            got = {}
            def step():
                got["obs"] = env.step(np.zeros(1, np.int64))[0]
                got["done"] = time.perf_counter()
            t = threading.Thread(target=step)
            t0 = time.perf_counter()
            t.start()
            time.sleep(0.1)          # the step's recv is waiting in the pool
            env.close()              # waits for that recv
            closed = time.perf_counter()
            t.join()
            assert env.closed
            assert got["obs"][:, 0].tolist() == [1], got
            # the close returned after the step's 0.3 s, not while the recv still waited
            assert closed - t0 > 0.29, (round, closed - t0)
            try:
                env.step(np.zeros(1, np.int64))
            except RuntimeError as e:
                assert "closed" in str(e), e
            else:
                raise AssertionError("a step after close() did not raise")
        print("ok")
    """)
    assert out.strip() == "ok"


def test_close_while_xla_steps_the_pool_never_crashes() -> None:
    pytest.importorskip("jax")
    out = _run_child("""
        import jax, jax.numpy as jnp
        jax.config.update("jax_enable_x64", True)   # Faulty-v0's arrays are 64-bit
        env = envpool.make_gym("Faulty-v0", num_envs=1, episode_length=1000,
                               step_sleep_us=100_000)
        handle, recv, send, step = env.xla()
        env.async_reset()
        handle, _ = recv(handle)

        @jax.jit
        def rollout(handle):
            def body(h, _):
                h, (obs, *_rest) = step(h, jnp.zeros(1, jnp.int64))
                return h, obs[0, 0]
            return jax.lax.scan(body, handle, None, length=10)

        result = rollout(handle)   # dispatched; XLA steps the pool on its threads
        time.sleep(0.25)
        env.close()                # while XLA still steps it (10 steps x 0.1 s)
        try:
            _, firsts = jax.block_until_ready(result)
            print("finished", int(firsts[-1]))
        except Exception as e:     # the calls after the close fail with the pool's message
            assert "closed" in str(e), e
            print("closed")
    """)
    assert out.strip() in ("closed", "finished 10"), out
