"""jumanji 1.1.2's Sokoban against jumanji itself, side by side in the same test (jax on the
CPU), as tests/test_align_jumanji.py does for the other jumanji ids: env i of a pool seeded
with s resets as jumanji's ``env.reset(use)`` with ``use, key = split(key)`` from ``key =
PRNGKey(s + i)``, once per episode; both take the same actions across autoresets, and every
observation field (bitwise, same dtype), the float32 reward, terminated / truncated and the
info keys (jumanji's extras ``prop_correct_boxes`` and ``solved``) must be equal.

The levels: jumanji's default generator (HuggingFaceDeepMindGenerator) reads
``unfiltered-train.npy`` of InstaDeepAI/boxoban-levels through ``hf_hub_download``, which
needs the network. Here a level file of the same format (uint8 (n, 10, 10, 2)) is made in the
test and laid out as a Hugging Face cache (``HF_HUB_CACHE``): ``envpool.make("Sokoban-v0")``
finds it there with no keyword, and ``jumanji.make("Sokoban-v0")`` reads the same file through
its own generator code (its ``hf_hub_download`` answered by huggingface_hub's own lookup of
that cache), so both draw their levels from the same array with the same jax draws. The file
holds jumanji's own levels (ToyGenerator's two and SimpleSolveGenerator's, converted by its
``convert_level_to_array``) and random rooms whose boxes start next to their targets.

Episodes end all three ways: jumanji's time limit (120 steps, also EnvPool's limit: both
terminated and truncated; ``sokoban_time_limit=25`` alone: terminated), and solved levels
(SimpleSolveGenerator's level through ``sokoban_level_index``, scripted).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_align_jumanji import RefEnv as JumanjiRef  # tests/test_align_jumanji.py
from test_align_jumanji import _same
from test_render_jumanji import (  # tests/test_render_jumanji.py
    test_states_and_frames_equal_jumanji as states_and_frames_equal_jumanji,
)

import envpool

jax = pytest.importorskip("jax")
jumanji = pytest.importorskip("jumanji")
huggingface_hub = pytest.importorskip("huggingface_hub")
sokoban_env = pytest.importorskip("jumanji.environments.routing.sokoban.env")
sokoban_generator = pytest.importorskip("jumanji.environments.routing.sokoban.generator")

SEED = 24
N = 2
REPO = "InstaDeepAI/boxoban-levels"
REVISION = "0" * 40
NUM_RANDOM_LEVELS = 9
SIMPLE_LEVELS = (1, 5, 9)  # where SimpleSolveGenerator's level is in the file: 1 draw in 4
SCRIPT = (3, 3, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 0)  # its solution: left into a wall, 4 pushes up
MOVES = np.array([[-1, 0], [0, 1], [1, 0], [0, -1]])  # up, right, down, left
SIMPLE_FIXED = np.zeros((10, 10), np.uint8)  # set by hub_cache


def _simple_solve_level() -> np.ndarray:
    """SimpleSolveGenerator's level as (10, 10, 2) [fixed, variable], made by jumanji's
    convert_level_to_array from the generator's own text."""
    state = sokoban_generator.SimpleSolveGenerator()(jax.random.PRNGKey(0))
    SIMPLE_FIXED[...] = np.asarray(state.fixed_grid)
    return np.stack([np.asarray(state.fixed_grid), np.asarray(state.variable_grid)], -1)


def _random_level(rng: np.random.Generator) -> np.ndarray:
    """A walled 10 x 10 room with a few inner walls, 4 targets, a box next to each (one level
    in four with a box already on its target) and the agent."""
    fixed = np.ones((10, 10), np.uint8)
    fixed[1:9, 1:9] = (rng.random((8, 8)) < 0.1).astype(np.uint8)
    variable = np.zeros((10, 10), np.uint8)
    free = [tuple(c) for c in np.argwhere(fixed == 0)]
    rng.shuffle(free)
    taken: set[tuple[int, int]] = set()
    for target in free:
        if len(taken) >= 8:
            break
        move = MOVES[rng.integers(4)]
        box = (target[0] + move[0], target[1] + move[1])
        if target in taken or box in taken or fixed[box] != 0:
            continue
        taken |= {target, box}
        fixed[target] = 2
        variable[target if rng.random() < 0.06 else box] = 4
    agent = next(c for c in free if c not in taken and variable[c] == 0)
    variable[agent] = 3
    return np.stack([fixed, variable], -1)


@pytest.fixture(scope="module")
def hub_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Hugging Face cache holding ``unfiltered-train.npy`` of InstaDeepAI/boxoban-levels:
    random rooms and SimpleSolveGenerator's level, uint8 (n, 10, 10, 2)."""
    rng = np.random.default_rng(2024)
    levels = [_random_level(rng) for _ in range(NUM_RANDOM_LEVELS)]
    simple = _simple_solve_level()
    for index in SIMPLE_LEVELS:
        levels.insert(index, simple)
    cache = tmp_path_factory.mktemp("hub")
    repo = cache / ("models--" + REPO.replace("/", "--"))
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text(REVISION)
    (repo / "snapshots" / REVISION).mkdir(parents=True)
    np.save(repo / "snapshots" / REVISION / "unfiltered-train.npy", np.stack(levels))
    return cache


@pytest.fixture()
def in_cache(hub_cache: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """HF_HUB_CACHE at the test's cache, and jumanji's hf_hub_download answered from it by
    huggingface_hub's own cache lookup (no network)."""
    def download(repo_id: str, filename: str) -> str:
        path = huggingface_hub.try_to_load_from_cache(repo_id, filename, cache_dir=hub_cache)
        assert isinstance(path, str), (repo_id, filename, path)
        return path

    monkeypatch.setenv("HF_HUB_CACHE", str(hub_cache))
    monkeypatch.setattr(sokoban_generator, "hf_hub_download", download)
    yield hub_cache


class RefEnv(JumanjiRef):
    """One jumanji Sokoban (any generator, any time limit) with the key chain of
    native/envs/jumanji/jumanji_env.h: tests/test_align_jumanji.py's RefEnv of this env."""

    def __init__(self, env: Any, seed: int) -> None:  # (no super(): it makes jumanji's id)
        self.env, self._reset, self._step = env, jax.jit(env.reset), jax.jit(env.step)
        self.key = jax.random.PRNGKey(seed)
        self.state: Any = None


def _check(obs: dict[str, np.ndarray], info: dict[str, Any], i: int, timestep: Any,
           where: Any) -> None:
    for name in ("grid", "step_count"):
        assert _same(obs[name][i], getattr(timestep.observation, name)), (where, name)
    for name in ("prop_correct_boxes", "solved"):
        assert _same(info[name][i], timestep.extras[name]), (where, name, info[name][i])


def _policy(obs: dict[str, np.ndarray], i: int, rng: np.random.Generator) -> int:
    """SimpleSolveGenerator's level: its solution (SCRIPT). Elsewhere a move that pushes a box
    onto a target when there is one (mostly), else any move."""
    variable, fixed = obs["grid"][i][..., 0], obs["grid"][i][..., 1]
    step = int(obs["step_count"][i])
    if np.array_equal(fixed, SIMPLE_FIXED) and step < len(SCRIPT):
        return SCRIPT[step]
    agent = np.argwhere(variable == 3)[0]
    for a in rng.permutation(4):
        box, beyond = agent + MOVES[a], agent + 2 * MOVES[a]
        if (beyond.min() >= 0 and beyond.max() < 10 and variable[tuple(box)] == 4
                and fixed[tuple(beyond)] == 2 and variable[tuple(beyond)] == 0):
            return int(a) if rng.random() < 0.8 else int(rng.integers(4))
    return int(rng.integers(4))


def run_lockstep(refs: list[RefEnv], steps: int, **kwargs: Any) -> dict[str, int]:
    """Steps ours (N envs, seed SEED, ``kwargs``) and ``refs`` side by side with _policy's
    moves; counts the episodes that ended by termination alone, by truncation too and
    solved, and the steps that put a box on a target."""
    ours = envpool.make_gymnasium("Sokoban-v0", num_envs=N, seed=SEED, **kwargs)
    obs, info = ours.reset()
    for i, ref in enumerate(refs):
        _check(obs, info, i, ref.reset(), ("reset", i))
    rng = np.random.default_rng(SEED)
    done = [False] * N
    ends = {"terminated": 0, "both": 0, "solved": 0, "on_target": 0}
    for t in range(steps):
        actions = np.array([_policy(obs, i, rng) for i in range(N)], np.int32)
        obs, rew, term, trunc, info = ours.step(actions)
        for i, ref in enumerate(refs):
            where = (t, i, int(actions[i]))
            if done[i]:  # next_step autoreset: this step reset env i
                _check(obs, info, i, ref.reset(), where)
                assert rew[i] == 0 and not term[i] and not trunc[i], where
            else:
                timestep = ref.step(int(actions[i]))
                _check(obs, info, i, timestep, where)
                assert _same(rew[i], np.asarray(timestep.reward)), (where, rew[i])
                r_term = bool(timestep.last()) and float(timestep.discount) == 0.0
                r_trunc = int(info["elapsed_step"][i]) >= ours.spec.config.max_episode_steps
                assert (bool(term[i]), bool(trunc[i])) == (r_term, r_trunc), where
                ends["terminated"] += int(r_term and not r_trunc)
                ends["both"] += int(r_term and r_trunc)
                ends["solved"] += int(bool(info["solved"][i]))
                ends["on_target"] += int(rew[i] > 0)
            done[i] = bool(term[i] or trunc[i])
    ours.close()
    return ends


@pytest.mark.parametrize("task_id", ["Sokoban-v0"])
@pytest.mark.parametrize("time_limit", [120, 25])
def test_same_seed_same_episodes(task_id: str, time_limit: int, in_cache: Path) -> None:
    """Levels drawn from the same file by the same keys, solved, or walked with pushes onto
    targets until jumanji's time limit (at 120 EnvPool's too: terminated and truncated; at
    25, sokoban_time_limit, terminated): the same steps and ends as jumanji's."""
    ref_env = (jumanji.make(task_id) if time_limit == 120
               else sokoban_env.Sokoban(time_limit=time_limit))
    refs = [RefEnv(ref_env, SEED + i) for i in range(N)]
    kwargs = {} if time_limit == 120 else {"sokoban_time_limit": time_limit}
    ends = run_lockstep(refs, {120: 300, 25: 90}[time_limit], **kwargs)
    assert ends["solved"] >= 2 and ends["on_target"] >= 2 * ends["solved"] + 3, ends
    at_limit = ends["both"] if time_limit == 120 else ends["terminated"] - ends["solved"]
    assert at_limit >= 2, ends


def test_levels_and_keywords(in_cache: Path, tmp_path: Path) -> None:
    """sokoban_levels_file reads any file of the format; sokoban_dataset names another file of
    the cache; bad files and values raise naming what is wrong."""
    levels = np.load(in_cache / ("models--" + REPO.replace("/", "--")) / "snapshots" /
                     REVISION / "unfiltered-train.npy")
    own = tmp_path / "mine.npy"
    np.save(own, levels[3:5])
    for kwargs, level in [({"sokoban_levels_file": str(own), "sokoban_level_index": 1}, 4),
                          ({"sokoban_level_index": 3}, 3)]:
        env = envpool.make_gymnasium("Sokoban-v0", num_envs=2, seed=1, **kwargs)
        for _ in range(3):
            obs, _ = env.reset()
            assert np.array_equal(obs["grid"], np.stack([levels[level][..., ::-1]] * 2))
        env.close()
    with pytest.raises(ValueError, match="'unfiltered-valid.npy'.*sokoban_levels_file"):
        envpool.make("Sokoban-v0", num_envs=1, sokoban_dataset="unfiltered-valid")
    with pytest.raises(FileNotFoundError, match="sokoban_levels_file"):
        envpool.make("Sokoban-v0", num_envs=1, sokoban_levels_file=str(tmp_path / "none.npy"))
    two = levels[:1].copy()
    row, col = np.argwhere((two[0, ..., 0] == 0) & (two[0, ..., 1] == 0))[0]
    two[0, row, col, 1] = 3
    bad = {"a float file": np.zeros((1, 10, 10, 2), np.float32),
           "a wrong shape": np.zeros((1, 10, 10), np.uint8),
           "two agents": two,
           "a bad cell": np.concatenate([levels[:1, ..., :1] + 3, levels[:1, ..., 1:]], -1)}
    for name, array in bad.items():
        np.save(tmp_path / "bad.npy", array)
        with pytest.raises(ValueError, match=re.escape(str(tmp_path / "bad.npy"))):
            envpool.make("Sokoban-v0", num_envs=1, sokoban_levels_file=str(tmp_path / "bad.npy"))
        del name
    (tmp_path / "text.npy").write_text("not numpy")
    with pytest.raises(ValueError, match="not an .npy file"):
        envpool.make("Sokoban-v0", num_envs=1, sokoban_levels_file=str(tmp_path / "text.npy"))
    for key, value in [("sokoban_level_index", len(levels)), ("sokoban_level_index", -2),
                       ("sokoban_time_limit", 0), ("sokoban_time_limit", float("nan")),
                       ("sokoban_dataset", "../unfiltered-train")]:
        with pytest.raises((ValueError, TypeError), match=key):  # (NaN: not an int)
            envpool.make("Sokoban-v0", num_envs=1, **{key: value})


def test_no_levels_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the file in the cache (and no sokoban_levels_file) the spec is made (its spaces
    need no level) and making a pool says where it looked and how to get the levels."""
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    spec = envpool.make_spec("Jumanji/Sokoban-v0")
    assert spec.observation_space["grid"].shape == (10, 10, 2)
    assert spec.observation_space["step_count"].n == 121
    with pytest.raises(ValueError, match=re.escape(str(tmp_path)) + ".*hf_hub_download"):
        envpool.make_gymnasium("Jumanji/Sokoban-v0", num_envs=1)


def test_states_and_frames_equal_jumanji(in_cache: Path) -> None:
    """render_mode="rgb_array": at every step jumanji's State rebuilt from the pool equals
    jumanji's own leaf by leaf, and the frames its viewer draws are equal pixel for pixel
    (tests/test_render_jumanji.py's test, with the levels of this module's cache)."""
    assert in_cache.is_dir()
    states_and_frames_equal_jumanji("Sokoban-v0")
