"""A sample of the sanitizer sweep (scripts/sanitize_sweep.py) in the default suite.

The nightly job sweeps every id on an extension built with AddressSanitizer and
UndefinedBehaviorSanitizer; here one id, of a native env drawn anew each day from the date (the
sample is printed), runs through the same script on the installed build, where it catches
crashes, aborts and glibc's heap checks (``MALLOC_CHECK_=3``), as the heap overflow of the
taller Atari screens did. docs/testing.md, "The sanitizer sweep".
"""

from __future__ import annotations

import datetime
import importlib.util
import pathlib
import random
import sys
from types import ModuleType

import envpool
from envpool.core import registry
from envpool.tasks import jumanji as jumanji_tasks
from envpool.tasks import minigrid as minigrid_tasks
from envpool.tasks import vizdoom as vizdoom_tasks

ROOT = pathlib.Path(__file__).resolve().parents[1]
SAMPLE = 1


def _sweep() -> ModuleType:
    spec = importlib.util.spec_from_file_location("sanitize_sweep",
                                                  ROOT / "scripts" / "sanitize_sweep.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_a_sample_of_ids_survives_the_sweep() -> None:
    sweep = _sweep()
    ids = [i for i in envpool.list_all_envs()
           if i not in vizdoom_tasks.NEEDS_USER_FILES | minigrid_tasks.NEEDS_USER_FILES
           | jumanji_tasks.NEEDS_USER_FILES
           and not i.startswith(("_", "Faulty"))]
    # A native env first, then one of its ids: every native env's code as likely as any
    # other's (MyoSuite's tracking tasks alone are a quarter of the ids).
    by_native: dict[str, list[str]] = {}
    for task_id in ids:
        by_native.setdefault(registry.get_task(task_id).native_env, []).append(task_id)
    seed = int(datetime.date.today().strftime("%Y%m%d"))
    rng = random.Random(seed)
    sample = sorted(rng.choice(by_native[native])
                    for native in rng.sample(sorted(by_native), SAMPLE))
    print(f"sanitize sweep sample (seed {seed}): {' '.join(sample)}")
    for task_id in sample:
        result = sweep.run_one(task_id, steps=4, timeout=300)
        assert result["ok"], f"{task_id}: {result}"
        assert result["runs"] >= 2  # the default keywords, sync and async


def test_a_failing_child_fails_the_sweep() -> None:
    sweep = _sweep()
    result = sweep.run_one("NoSuchEnv-v0", steps=1, timeout=120)
    assert not result["ok"] and result["code"] != 0 and "NoSuchEnv-v0" in result["stderr"]
    # A sanitizer report fails a child even when it exits 0 (ASan without halt_on_error).
    report = "==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6020"
    assert sweep.verdict(0, "done\n", report) == (False, ["ERROR: AddressSanitizer"])
    assert sweep.verdict(0, "done\n", "a warning")[0]
    assert not sweep.verdict(0, '{"keywords": {}}\n', "")[0]  # it stopped before "done"


def test_keyword_sets_change_the_buffers() -> None:
    sweep = _sweep()
    atari = sweep.keyword_sets("Adventure-v5")
    assert {} in atari and {"render_mode": "rgb_array"} in atari
    assert any(k.get("gray_scale") is False and k.get("img_height") == 210 for k in atari)
    # a size the env cannot draw is left out (classic control draws gymnasium's size only)
    assert {"render_mode": "rgb_array"} in sweep.keyword_sets("CartPole-v1")
    assert not any("render_width" in k for k in sweep.keyword_sets("CartPole-v1"))
    assert any(k.get("frame_stack") == 3 for k in sweep.keyword_sets("CheetahRun-v1"))
    assert any(k.get("from_pixels") for k in sweep.keyword_sets("Hopper-v5"))
    assert {"render_mode": "ansi"} in sweep.keyword_sets("FrozenLake-v1")
