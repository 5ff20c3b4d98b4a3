"""Env steps per second of one env of TASK (argv[1]), one thread, for 4 s: the cost of the
BLAS-order branch (numpy_blas_branch.md)."""

import sys
import time

import numpy as np

import envpool

task = sys.argv[1]
env = envpool.make_gymnasium(task, num_envs=1, seed=0, num_threads=1)
env.reset()
sp = env.single_action_space
rng = np.random.default_rng(0)
acts = [rng.uniform(sp.low, sp.high, size=(1, *sp.shape)).astype(sp.dtype) for _ in range(64)]
n = 0
t0 = time.perf_counter()
while time.perf_counter() - t0 < 4.0:
    env.step(acts[n % 64])
    n += 1
print(f"{n / (time.perf_counter() - t0):.1f}")
