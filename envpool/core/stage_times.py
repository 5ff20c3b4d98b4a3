"""Where a pool's threads spend their time, stage by stage.

Set ``ENVPOOL_STAGE_TIMES=1`` in the environment before making a pool (or pass
``stage_times=True`` to the native pool) and each of its threads books its wall time
to the stage it is in: the calling thread to ``caller`` (Python and your code, between
the pool's calls), ``admission`` (send), ``wake`` and ``recv_wait``; the workers to
``idle``, ``queue``, ``step``, ``reset``, ``write`` (the observation into the batch),
``hand_off`` (the row, the pool's columns, completing the batch) and ``render``. Envs
mark the parts of a step worth telling apart: ``preprocess`` (grayscale, max-pool,
resize, frame stack) and ``draw`` (a picture drawn as the observation). The calling
thread steps envs too while it waits in ``recv``, so it has every stage. The stages of
a thread add up to its wall time since the pool was made, less the current stretch.

Timing costs a few clock reads per step (tens of nanoseconds each): nothing next to an
Atari or MuJoCo step, a visible share of a CartPole step.

Example::

    import os
    os.environ["ENVPOOL_STAGE_TIMES"] = "1"
    env = envpool.make_gymnasium("Pong-v5", num_envs=8)
    ...  # step it
    print(env.stage_times().table())
"""

from __future__ import annotations

import os
from dataclasses import dataclass

#: The environment variable that turns stage timing on ("1") for pools made after it is set.
ENV_VAR = "ENVPOOL_STAGE_TIMES"

#: The stages, in the order the native pool lists them (native/core/stage_clock.h).
STAGES = ("caller", "admission", "wake", "recv_wait", "idle", "queue", "step", "reset",
          "preprocess", "draw", "write", "hand_off", "render")
#: The stages that are work on an env, whichever thread runs it.
ENV_WORK = ("step", "reset", "preprocess", "draw", "write", "hand_off", "render")


def requested() -> bool:
    """Whether ``ENVPOOL_STAGE_TIMES`` asks for stage timing.

    Returns:
        True for ``"1"``, False when unset, empty or ``"0"``.

    Raises:
        ValueError: for any other value, so a typo does not silently time nothing.
    """
    value = os.environ.get(ENV_VAR, "")
    if value not in ("", "0", "1"):
        raise ValueError(f"{ENV_VAR} must be 0 or 1, got {value!r}")
    return value == "1"


@dataclass(frozen=True)
class StageTimes:
    """Seconds and entries per stage for each thread of one pool.

    Attributes:
        threads: one dict per thread, the calling thread's first, then each worker's:
            stage name -> (seconds, entries).
    """

    threads: tuple[dict[str, tuple[float, int]], ...]

    @classmethod
    def from_native(cls, raw: list[dict[str, tuple[float, int]]]) -> StageTimes:
        """Builds the report from the native pool's ``stage_times()``.

        Raises:
            RuntimeError: when the pool was made without stage timing.
        """
        if not raw:
            raise RuntimeError(f"this pool does not time its stages: set {ENV_VAR}=1 in the "
                               "environment before making it")
        return cls(tuple({k: (float(v[0]), int(v[1])) for k, v in t.items()} for t in raw))

    def seconds(self, stage: str, thread: int | None = None) -> float:
        """Seconds booked to ``stage`` by one thread (0: the caller) or all threads."""
        pick = self.threads if thread is None else (self.threads[thread],)
        return sum(t[stage][0] for t in pick)

    @property
    def env_steps(self) -> int:
        """Env steps run (entries into ``step``, on every thread)."""
        return sum(t["step"][1] for t in self.threads)

    def __sub__(self, other: StageTimes) -> StageTimes:
        """The times booked between two reports of the same pool (``later - earlier``)."""
        if len(other.threads) != len(self.threads):
            raise ValueError("reports of pools with different threads")
        return StageTimes(tuple(
            {k: (a[k][0] - b[k][0], a[k][1] - b[k][1]) for k in a}
            for a, b in zip(self.threads, other.threads, strict=True)))

    def per_step(self) -> dict[str, dict[str, float]]:
        """Microseconds per env step of each stage: ``{"caller": {...}, "workers": {...}}``.

        Raises:
            ValueError: when no env step was run.
        """
        steps = self.env_steps
        if steps == 0:
            raise ValueError("no env step in this report")
        caller = {s: self.threads[0][s][0] * 1e6 / steps for s in STAGES}
        workers = {s: sum(t[s][0] for t in self.threads[1:]) * 1e6 / steps for s in STAGES}
        return {"caller": caller, "workers": workers}

    def table(self) -> str:
        """A markdown table: microseconds per env step and share of thread time, per stage."""
        per = self.per_step()
        total_c = sum(per["caller"].values()) or 1.0
        total_w = sum(per["workers"].values()) or 1.0
        rows = ["| stage | caller us/step | caller share | workers us/step | workers share |",
                "|---|---:|---:|---:|---:|"]
        for s in STAGES:
            c, w = per["caller"][s], per["workers"][s]
            if c == 0.0 and w == 0.0:
                continue
            rows.append(f"| {s} | {c:.2f} | {c / total_c:.1%} | {w:.2f} | {w / total_w:.1%} |")
        rows.append(f"| all ({self.env_steps:,} env steps, {len(self.threads) - 1} workers) | "
                    f"{total_c:.2f} | | {total_w:.2f} | |")
        return "\n".join(rows)


def env_work_per_step(report: StageTimes) -> float:
    """Microseconds of env work per env step (the ``ENV_WORK`` stages: the pool's hand-off
    included), whichever thread ran it: time on the threads' clocks, which is CPU time
    where the env computes rather than waits (ViZDoom's steps wait for its engines)."""
    return sum(report.seconds(s) for s in ENV_WORK) * 1e6 / max(report.env_steps, 1)

