"""Each ViZDoom env is an engine process owned by the Python process: close(), garbage
collection, Ctrl-C, an engine dying under a worker, and kill -9 of Python leave no engine
running and no shared-memory segment in /dev/shm.

Engines are found as child processes named ``vizdoom`` in /proc. An engine killed with
its owner (kill -9) is reparented and waits as a zombie until the new parent reaps it;
a zombie runs nothing and holds no memory, so it counts as gone.
"""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import envpool

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def _stat(pid: int) -> tuple[str, str, int] | None:
    """(comm, state, ppid) of a live process, None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
    except OSError:
        return None
    comm = text[text.index("(") + 1:text.rindex(")")]
    state, ppid = text[text.rindex(")") + 2:].split()[:2]
    return comm, state, int(ppid)


def engines_of(parent: int) -> set[int]:
    """Running (not zombie) engine processes whose parent is ``parent``."""
    found = set()
    for name in os.listdir("/proc"):
        if name.isdigit():
            st = _stat(int(name))
            if st and st[0] == "vizdoom" and st[1] != "Z" and st[2] == parent:
                found.add(int(name))
    return found


def running(pids: set[int]) -> set[int]:
    return {p for p in pids if (st := _stat(p)) is not None and st[1] != "Z"}


def shm_entries() -> set[str]:
    return {n for n in os.listdir("/dev/shm") if n.startswith("ViZDoom")}


def wait_until(cond, timeout: float = 10.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.05)
    return cond()


def _make(n: int = 3, **kw):
    return envpool.make("Basic-v1", env_type="gymnasium", num_envs=n, seed=0, stack_num=1,
                        **kw)


@pytest.fixture
def shm_before():
    before = shm_entries()
    yield before
    assert wait_until(lambda: shm_entries() <= before), shm_entries() - before


def test_engines_start_at_reset_and_close_stops_them(shm_before) -> None:
    me = os.getpid()
    assert engines_of(me) == set()
    env = _make()
    env.reset()
    engines = engines_of(me)
    assert len(engines) == 3
    # Their shared memory is unlinked once mapped: nothing named in /dev/shm even now.
    assert shm_entries() <= shm_before
    env.step(np.zeros((3, 3)))
    env.close()
    assert running(engines) == set()
    assert engines_of(me) == set()


def test_garbage_collection_stops_engines(shm_before) -> None:
    env = _make()
    env.reset()
    engines = engines_of(os.getpid())
    assert len(engines) == 3
    del env
    gc.collect()
    assert wait_until(lambda: not running(engines))


def test_an_engine_killed_under_a_worker_is_an_error_not_a_hang(shm_before) -> None:
    env = _make(2)
    env.reset()
    engines = sorted(engines_of(os.getpid()))
    os.kill(engines[0], signal.SIGKILL)
    with pytest.raises(Exception, match="(?i)vizdoom|doom|engine|exit|crash"):
        for _ in range(5):  # the dead engine is noticed at its env's next step
            env.step(np.zeros((2, 3)))
    env.close()
    assert wait_until(lambda: not running(set(engines)))


_CHILD = textwrap.dedent("""
    import os, signal, sys, time
    import numpy as np
    import envpool
    # Python keeps SIGINT ignored when it starts with it ignored (a job started in the
    # background of a non-interactive shell): take Ctrl-C as a terminal does.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    env = envpool.make("Basic-v1", env_type="gymnasium", num_envs=3, seed=0, stack_num=1)
    env.reset()
    print("ready", flush=True)
    try:
        while True:
            env.step(np.zeros((3, 3)))
    except KeyboardInterrupt:
        # The engines did not get the terminal's SIGINT (own process group): the pool
        # still steps after Ctrl-C. A step cut in its recv left its batch in flight;
        # recv() collects it (docs/api.md); Ctrl-C between two steps left nothing.
        try:
            env.recv()
        except RuntimeError:
            pass
        env.step(np.zeros((3, 3)))
        print("interrupted, still stepping", flush=True)
        if sys.argv[1] == "hold":
            time.sleep(60)
""")


def _start_child(mode: str) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", _CHILD, mode], stdout=subprocess.PIPE,
                            text=True, start_new_session=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    return proc


def test_ctrl_c_interrupts_python_and_leaves_no_engine(shm_before) -> None:
    proc = _start_child("exit")
    try:
        assert wait_until(lambda: len(engines_of(proc.pid)) == 3)
        engines = engines_of(proc.pid)
        time.sleep(0.3)
        os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C sends
        out, _ = proc.communicate(timeout=60)
        assert "interrupted, still stepping" in out
        assert wait_until(lambda: not running(engines))
    finally:
        if proc.poll() is None:
            proc.kill()


def test_kill_9_of_python_leaves_no_engine_and_no_shared_memory(shm_before) -> None:
    proc = _start_child("hold")
    try:
        assert wait_until(lambda: len(engines_of(proc.pid)) == 3)
        engines = engines_of(proc.pid)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        assert wait_until(lambda: not running(engines)), running(engines)
    finally:
        if proc.poll() is None:
            proc.kill()


_BLAS_CHILD = textwrap.dedent("""
    import numpy as np
    import scipy.linalg  # OpenBLAS with its thread pool and its pthread_atfork handler
    import envpool
    a = np.random.default_rng(0).random((300, 300))
    for k in range(3):
        scipy.linalg.lu_factor(a @ a)  # the BLAS threads are up
        env = envpool.make("Basic-v1", env_type="gymnasium", num_envs=8, seed=k, stack_num=1)
        env.reset()  # 8 workers start 8 engines at once
        env.close()
    print("ok", flush=True)
""")


def test_engines_start_while_openblas_threads_run() -> None:
    """Engines were started with fork(), which runs pthread_atfork handlers; OpenBLAS's
    joins its threads there and deadlocked when several workers forked at once (seen in
    the full suite after a test had imported scipy). vfork runs no handlers."""
    pytest.importorskip("scipy")
    proc = subprocess.run([sys.executable, "-c", _BLAS_CHILD], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "ok"

