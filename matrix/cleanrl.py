"""CleanRL cells: the repo's CleanRL-style single-file scripts (``examples/cleanrl/``,
``examples/vizdoom/``), each run with ``--backend envpool`` and with its reference backend
(gymnasium's SyncVectorEnv as CleanRL's own scripts use, or vizdoom's gymnasium envs)."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from matrix.common import Run, load_example

Trainer = Callable[[str, int, int], Run]


def script_trainer(script: str, task_id: str, reference_backend: str = "gymnasium",
                   extra: tuple[str, ...] = ()) -> Trainer:
    """Runs ``examples/<script>``'s ``train(parse_args([...]))`` on one backend."""

    def train(stack: str, seed: int, steps: int) -> Run:
        module = load_example(script)
        backend = "envpool" if stack == "envpool" else reference_backend
        args = module.parse_args(["--env-id", task_id, "--backend", backend, "--seed", str(seed),
                                  "--total-timesteps", str(steps), "--no-progress", *extra])
        start = time.perf_counter()
        out = module.train(args)
        seconds = time.perf_counter() - start
        return Run(stack, seed, np.asarray(out["steps"]), np.asarray(out["returns"]), steps,
                   seconds)

    return train
