"""The rendering gallery of the docs site (docs/render.md and docs/render/*.png).

    python scripts/render_gallery.py                       # rewrite docs/render.md, docs/render/
    python scripts/render_gallery.py --out /tmp/g --only CartPole-v1   # one picture elsewhere

For one task of each family, our ``render()`` beside the reference package's picture after the
same state or the same actions, with the difference measured on the two arrays (pixels that
differ in any channel, and the largest absolute difference of a channel). A family appears
when its task renders (``envpool.make(task, render_mode=...)`` accepts the mode): the
candidates below are tried, and the ones that do not render yet are listed at the end of the
page, so a family that learns to render appears on the next run. Toy text shows both its
pictures and, once more, gymnasium's ansi text.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# Headless OpenGL for the MuJoCo references (gymnasium's renderer, dm_control's), as envpool's
# default; set before they are imported (dm_control picks its backend then).
os.environ.setdefault("MUJOCO_GL", "egl")

import cv2  # noqa: E402
import gymnasium  # noqa: E402
import numpy as np  # noqa: E402

import envpool  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
STEPS = 40
SEED = 0


@dataclass
class Shown:
    """One family's entry: our picture (or text) and the reference's, and how they were made."""

    ours: np.ndarray | str
    theirs: np.ndarray | str | None
    reference: str  # what the reference picture is
    how: str  # how both were brought to the same state
    note: str = ""  # what is known to differ


def _actions(env: Any, rng: np.random.Generator) -> np.ndarray:
    """One random action for a pool of one env."""
    space = env.action_space
    if isinstance(space, gymnasium.spaces.Discrete):
        return np.array([int(rng.integers(space.n))], dtype=space.dtype)
    return rng.uniform(np.maximum(space.low, -1), np.minimum(space.high, 1)).astype(
        space.dtype)[None]


def _atari(task: str) -> Shown:
    import ale_py

    from envpool.tasks.atari import GAMES

    env = envpool.make(task, num_envs=1, seed=SEED, noop_max=0, use_fire_reset=False,
                       repeat_action_probability=0.0, render_mode="rgb_array")
    ref = ale_py.env.AtariEnv(GAMES[task.split("-")[0]], frameskip=4,
                              repeat_action_probability=0.0, render_mode="rgb_array")
    env.reset()
    ref.reset(seed=SEED)
    rng = np.random.default_rng(SEED)
    for _ in range(STEPS):
        a = _actions(env, rng)
        env.step(a)
        ref.step(int(a[0]))
    shown = Shown(env.render()[0], ref.render(), "ale-py's `AtariEnv(render_mode=\"rgb_array\")"
                  ".render()`", f"the same seed and {STEPS} random actions in lockstep "
                  "(frame_skip 4, no no-ops, no sticky actions)")
    env.close()
    ref.close()
    return shown


def _stepped(task: str) -> tuple[Any, np.ndarray]:
    """A pool of one ``task`` env drawing rgb_array frames after a reset and STEPS random
    actions, and the last action."""
    env = envpool.make(task, num_envs=1, seed=SEED, render_mode="rgb_array")
    env.reset()
    rng = np.random.default_rng(SEED)
    for _ in range(STEPS):
        last = _actions(env, rng)
        env.step(last)
    return env, last


def _classic(task: str) -> Shown:
    env, last = _stepped(task)
    if task == "Pendulum-v1":  # one more step with a torque large enough to show the arrow
        last = np.array([[1.5]], dtype=np.float32)
        env.step(last)
    ref = gymnasium.make(task, render_mode="rgb_array").unwrapped
    ref.reset(seed=SEED)
    # gymnasium's state after a step: MountainCarContinuous keeps a float32 array.
    dtype = np.float32 if task == "MountainCarContinuous-v0" else np.float64
    ref.state = np.array(env.get_state(0), dtype=dtype)
    if task == "Pendulum-v1":
        ref.last_u = np.float32(np.clip(last[0, 0], -2, 2))  # the arrow: gymnasium's float32
    shown = Shown(env.render()[0], ref.render(), f"gymnasium's `{task}` `render()` (pygame)",
                  f"{STEPS} random steps of ours, then our state set into gymnasium's env")
    env.close()
    ref.close()
    return shown


def _toy_text_picture(task: str) -> Shown:
    kw = {"is_slippery": False} if task.startswith("FrozenLake") else {}  # no slips to draw
    env = envpool.make(task, num_envs=1, seed=SEED, render_mode="rgb_array", **kw)
    env.reset()
    rng = np.random.default_rng(SEED)
    for _ in range(8):  # up to 8 random steps, stopping at an episode's end
        _, _, term, trunc, _ = env.step(_actions(env, rng))
        if term[0] or trunc[0]:
            break
    ref = gymnasium.make(task, render_mode="rgb_array", **kw).unwrapped
    ref.reset(seed=SEED)
    state = env.get_state(0)
    if task.startswith("Blackjack"):  # [len(player), *player, len(dealer), *dealer, suit, face]
        n = int(state[0])
        ref.player = [int(c) for c in state[1:1 + n]]
        ref.dealer = [int(c) for c in state[2 + n:-2]]
        up, suit, face = ref.dealer[0], int(state[-2]), int(state[-1])
        ref.dealer_top_card_suit = "CDHS"[suit]
        ref.dealer_top_card_value_str = {1: "A", 10: "JQK"[face]}.get(up, str(up))
    else:
        ref.s = int(state[0])
    if task.startswith("Taxi"):
        ref.taxi_orientation = int(state[2])  # the way our taxi faces: its last move
    shown = Shown(env.render()[0], ref.render(), f"gymnasium's `{task}` `render()` (pygame)",
                  "up to 8 random steps of ours, then our state set into gymnasium's env" +
                  (" (is_slippery=False)" if kw else ""))
    env.close()
    ref.close()
    return shown


def _toy_text(task: str) -> Shown:
    kw = {"is_slippery": False} if task.startswith("FrozenLake") else {}  # no slips to draw
    ours = gymnasium.make(f"envpool/{task}", render_mode="ansi", **kw)
    ref = gymnasium.make(task, render_mode="ansi", **kw).unwrapped
    obs, _ = ours.reset(seed=SEED)
    ref.reset(seed=SEED)
    ref.s = int(obs)
    rng = np.random.default_rng(SEED)
    for _ in range(5):
        a = int(rng.integers(ours.action_space.n))
        _, _, term, trunc, _ = ours.step(a)
        ref.step(a)
        if term or trunc:
            break
    shown = Shown(ours.render(), ref.render(), f"gymnasium's `{task}` `render()` (ansi)",
                  "the same start state and up to 5 random actions in lockstep" +
                  (" (is_slippery=False)" if kw else ""))
    ours.close()
    return shown


def _vizdoom(task: str) -> Shown:
    import vizdoom as vzd

    from envpool.tasks import vizdoom as vizdoom_tasks

    sys.path.insert(0, str(ROOT / "tests"))  # vizdoom's DoomGame set up as the env's game
    from test_align_vizdoom import Reference

    env = envpool.make(task, num_envs=1, seed=SEED, frame_skip=4, render_mode="rgb_array")
    ref = Reference(vizdoom_tasks.SCENARIOS[task], SEED, 4, vzd.ScreenFormat.RGB24)
    env.reset()
    ref.reset()
    rng = np.random.default_rng(SEED)
    finished = False
    for _ in range(STEPS):
        a = (rng.random(env.action_space.shape[0]) < 0.4).astype(np.float64)
        env.step(a[None])
        finished = ref.step(list(a))[2]
    shown = Shown(env.render()[0], None if finished else ref.screen,
                  "vizdoom's `DoomGame` `state.screen_buffer` with `ScreenFormat.RGB24`",
                  f"the same seed and {STEPS} random actions in lockstep (frame_skip 4)")
    env.close()
    ref.close()
    return shown


def _reference(draw: Callable[[], np.ndarray]) -> tuple[np.ndarray | None, str]:
    """The reference's picture, or None and why not (MuJoCo's renderer needs an OpenGL
    backend, MUJOCO_GL=egl or osmesa, which a machine may lack)."""
    try:
        return draw(), ""
    except Exception as e:  # the page says so beside our picture
        return None, f"the reference could not draw here: `{type(e).__name__}: {e}`"


def _mujoco(task: str) -> Shown:
    env, _ = _stepped(task)
    # The state set into both envs: set_state runs mj_forward on each (after a step, the
    # positions MuJoCo draws are those of the step's last mj_step, before its integration).
    state = np.array(env.get_state(0))
    env.set_state(0, state)
    ours = env.render()[0]
    ref = gymnasium.make(task, render_mode="rgb_array", width=ours.shape[1],
                         height=ours.shape[0]).unwrapped
    ref.reset(seed=SEED)
    ref.set_state(state[:ref.model.nq], state[ref.model.nq:ref.model.nq + ref.model.nv])
    theirs, note = _reference(ref.render)
    shown = Shown(ours, theirs, reference=f"gymnasium's `{task}` `render()` (MuJoCo's renderer)",
                  how=f"{STEPS} random steps of ours, then our qpos and qvel set into both envs",
                  note=note)
    env.close()
    ref.close()
    return shown


def _dm_control(task: str) -> Shown:
    import mujoco
    from dm_control import suite

    from envpool.tasks.dm_control import TASKS

    env = envpool.make(task, num_envs=1, seed=SEED, render_mode="rgb_array")
    domain, name = TASKS[task]
    ref = suite.load(domain, name, task_kwargs={"random": SEED})
    ref.reset()
    env.reset()
    # dm_control's state into ours (tests/test_align_dm_control.py): the integration state
    # (cheetah has no task state of its own).
    spec = mujoco.mjtState.mjSTATE_INTEGRATION
    physics = np.empty(mujoco.mj_stateSize(ref.physics.model.ptr, spec))
    mujoco.mj_getState(ref.physics.model.ptr, ref.physics.data.ptr, physics, spec)
    env.set_state(0, list(physics))
    rng = np.random.default_rng(SEED)
    spec_a = ref.action_spec()
    for _ in range(STEPS):
        a = rng.uniform(spec_a.minimum, spec_a.maximum)
        env.step(a[None].astype(env.action_space.dtype))
        ref.step(a)
    ours = env.render()[0]
    theirs, note = _reference(lambda: ref.physics.render(ours.shape[0], ours.shape[1]))
    shown = Shown(ours, theirs, note=note,
                  reference=f"dm_control's `{domain}/{name}` `physics.render()`",
                  how=f"dm_control's reset state copied into ours, then {STEPS} random actions "
                  "in lockstep")
    env.close()
    return shown


def _box2d(task: str) -> Shown:
    if task.startswith("BipedalWalker"):
        return _bipedal_walker(task)
    if task.startswith("CarRacing"):
        return _car_racing(task)
    from gymnasium.envs.box2d.lunar_lander import heuristic

    env = envpool.make_gymnasium(task, num_envs=1, seed=SEED, render_mode="rgb_array")
    ref = gymnasium.make(task, render_mode="rgb_array")
    env.reset()
    obs, _ = ref.reset(seed=SEED)
    for _ in range(3 * STEPS):  # gymnasium's pilot, both drawn at every step (the flames age)
        a = heuristic(ref.unwrapped, obs)
        env.step(np.array([a]))
        obs = ref.step(a)[0]
        ours, theirs = env.render()[0], ref.render()
    shown = Shown(ours, theirs, f"gymnasium's `{task}` `render()` (pygame)",
                  f"the same seed and {3 * STEPS} steps of gymnasium's heuristic pilot in "
                  "lockstep, both drawn at every step")
    env.close()
    ref.close()
    return shown


def _bipedal_walker(task: str) -> Shown:
    from gymnasium.envs.box2d.bipedal_walker import BipedalWalkerHeuristics

    env = envpool.make_gymnasium(task, num_envs=1, seed=SEED, render_mode="rgb_array")
    ref = gymnasium.make(task, render_mode="rgb_array")
    env.reset()
    obs, _ = ref.reset(seed=SEED)
    pilot = BipedalWalkerHeuristics()
    for _ in range(8 * STEPS):  # far enough for the first stumps, pits or stairs to show
        a = np.asarray(pilot.step_heuristic(obs), dtype=np.float32)
        env.step(a[None])
        obs = ref.step(a)[0]
    shown = Shown(env.render()[0], ref.render(), f"gymnasium's `{task}` `render()` (pygame)",
                  f"the same seed and {8 * STEPS} steps of gymnasium's BipedalWalkerHeuristics "
                  "pilot in lockstep")
    env.close()
    ref.close()
    return shown


def _car_racing(task: str) -> Shown:
    env = envpool.make_gymnasium(task, num_envs=1, seed=SEED, render_mode="rgb_array")
    ref = gymnasium.make(task, render_mode="rgb_array")
    env.reset()
    ref.reset(seed=SEED)
    rng = np.random.default_rng(SEED)
    for t in range(60):  # gas, then hard braking while steering: the wheels leave skid marks
        a = np.array([rng.uniform(-1, 1), 1.0, 0.0] if t % 20 < 12 else
                     [rng.uniform(-1, 1), 0.0, 1.0], np.float32)
        env.step(a[None])
        ref.step(a)
    shown = Shown(env.render()[0], ref.render(), f"gymnasium's `{task}` `render()` (pygame)",
                  "the same seed and 60 steps of random steering, gas and hard braking in "
                  "lockstep (skid marks)")
    env.close()
    ref.close()
    return shown


def _minigrid(task: str) -> Shown:
    import minigrid  # noqa: F401  (registers the package's ids with gymnasium)

    env = envpool.make_gymnasium(task, num_envs=1, seed=SEED, render_mode="rgb_array")
    ref = gymnasium.make(task, render_mode="rgb_array")
    env.reset()
    ref.reset(seed=SEED)
    rng = np.random.default_rng(SEED)
    for _ in range(STEPS):
        a = int(rng.integers(3))  # turn left, turn right, forward: the agent walks about
        env.step(np.array([a]))
        ref.step(a)
    shown = Shown(env.render()[0], ref.render(), f"the `minigrid` package's `{task}` "
                  "`render()` (tile 32, the agent's view highlighted)",
                  f"the same seed and {STEPS} random moves in lockstep")
    env.close()
    ref.close()
    return shown


def _lockstep(task: str, ref: Any, reference: str) -> Shown:
    """Ours and ``ref`` from the same seed (they draw their resets alike: the alignment tests),
    then the same STEPS random actions; ``ref`` is reset with the seed here."""
    env = envpool.make(task, num_envs=1, seed=SEED, render_mode="rgb_array")
    env.reset()
    ref.reset(seed=SEED)
    space = env.action_space
    rng = np.random.default_rng(SEED)
    for _ in range(STEPS):
        a = rng.uniform(space.low, space.high).astype(space.dtype)
        env.step(a[None])
        ref.step(a)
    ours = env.render()[0]
    theirs, note = _reference(ref.render)
    env.close()
    ref.close()
    return Shown(ours, theirs, reference=reference,
                 how=f"the same seed and {STEPS} random actions in lockstep", note=note)


def _robotics(task: str) -> Shown:
    from envpool.integrations._reference_envs import gymnasium_robotics_on_mujoco3

    gymnasium_robotics_on_mujoco3()  # (gymnasium_robotics' envs on mujoco 3.17: docs/robotics.md)
    ref = gymnasium.make(task, render_mode="rgb_array")
    return _lockstep(task, ref, f"gymnasium_robotics' `{task}` `render()` (MuJoCo's renderer)")


def _metaworld(task: str) -> Shown:
    from metaworld.env_dict import ALL_V3_ENVIRONMENTS

    from envpool.integrations._reference_envs import metaworld_on_mujoco3
    from envpool.tasks.metaworld import TASKS, task_id

    metaworld_on_mujoco3()  # (metaworld's envs on mujoco 3.17: docs/metaworld.md)
    name = next(n for n in TASKS if task_id(n) == task)
    ref = ALL_V3_ENVIRONMENTS[name](render_mode="rgb_array")
    ref._set_task_called = True  # the package's seeded mode, as ours: docs/metaworld.md
    ref._freeze_rand_vec = False
    ref.seeded_rand_vec = True
    ref.seed(SEED)
    return _lockstep(task, ref, f"metaworld's `{name}` `render()` (MuJoCo's renderer)")


# family -> (task ids, render mode, how the pair is made)
FAMILIES: dict[str, tuple[list[str], str, Callable[[str], Shown]]] = {
    "Atari": (["Pong-v5"], "rgb_array", _atari),
    "Classic control": (["CartPole-v1", "MountainCar-v0", "MountainCarContinuous-v0",
                         "Acrobot-v1", "Pendulum-v1"], "rgb_array", _classic),
    "Toy text": (["FrozenLake-v1", "Taxi-v4", "CliffWalking-v1", "Blackjack-v1"], "rgb_array",
                 _toy_text_picture),
    "Toy text, ansi text": (["FrozenLake-v1", "Taxi-v4", "CliffWalking-v1"], "ansi",
                            _toy_text),
    "ViZDoom": (["DefendTheCenter-v1"], "rgb_array", _vizdoom),
    "MuJoCo": (["HalfCheetah-v5"], "rgb_array", _mujoco),
    "DeepMind Control": (["CheetahRun-v1"], "rgb_array", _dm_control),
    "Box2D": (["LunarLander-v3", "BipedalWalkerHardcore-v3", "CarRacing-v3"], "rgb_array",
              _box2d),
    "MiniGrid": (["MiniGrid-DoorKey-8x8-v0"], "rgb_array", _minigrid),
    "Gymnasium-Robotics": (["FetchPickAndPlace-v4", "HandManipulateBlock-v1",
                            "AdroitHandDoor-v1", "PointMaze_Medium-v3", "FrankaKitchen-v1"],
                           "rgb_array", _robotics),
    "Meta-World": (["MetaWorld/PickPlace-v3"], "rgb_array", _metaworld),
}


def renders(task: str, mode: str) -> str | None:
    """None when ``task`` draws ``mode``, else why not (the error envpool gives)."""
    try:
        env = envpool.make(task, num_envs=1, render_mode=mode)
    except (ValueError, ImportError) as e:
        return str(e)
    try:
        env.reset()
        env.render()
    except (ValueError, RuntimeError) as e:
        return str(e)
    finally:
        env.close()
    return None


def difference(ours: np.ndarray, theirs: np.ndarray) -> tuple[int, int, int]:
    """(pixels differing in any channel, pixels in all, largest absolute channel difference)."""
    if ours.shape != theirs.shape:
        raise ValueError(f"the pictures differ in shape: {ours.shape} and {theirs.shape}")
    differ = np.any(ours != theirs, axis=-1)
    return (int(differ.sum()), int(differ.size),
            int(np.abs(ours.astype(np.int16) - theirs.astype(np.int16)).max()))


def _file(task: str, side: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", task.lower()).strip("_") + f"_{side}.png"


def _text(s: str) -> str:
    """ansi text for a code block: the colour codes taken out."""
    return re.sub(r"\x1b\[[0-9;]*m", "", s).rstrip("\n")


def _entry(task: str, shown: Shown, pictures: pathlib.Path) -> list[str]:
    lines = [f"### {task}", "", f"Reference: {shown.reference}; {shown.how}.", ""]
    if isinstance(shown.ours, str):
        same = shown.ours == shown.theirs
        lines += ["envpool:", "", "```text", _text(shown.ours), "```", "",
                  "reference:", "", "```text", _text(str(shown.theirs)), "```", "",
                  f"Equal, colour codes included: {'yes' if same else 'no'}.", ""]
        return lines
    cv2.imwrite(str(pictures / _file(task, "envpool")), shown.ours[..., ::-1])
    if shown.theirs is None:
        return lines + [f"![envpool {task}](render/{_file(task, 'envpool')})", "",
                        f"No reference picture: {shown.note or 'none in this state'}.", ""]
    theirs = np.ascontiguousarray(shown.theirs)
    cv2.imwrite(str(pictures / _file(task, "reference")), theirs[..., ::-1])
    n, total, top = difference(shown.ours, theirs)
    lines += ["| envpool | reference |", "| --- | --- |",
              f"| ![envpool {task}](render/{_file(task, 'envpool')}) | "
              f"![reference {task}](render/{_file(task, 'reference')}) |", "",
              f"Pixels differing: **{n}** of {total} ({100 * n / total:.3f}%); largest absolute "
              f"difference of a channel: **{top}**.", ""]
    if shown.note:
        lines += [f"Known difference: {shown.note}.", ""]
    return lines


def write(out: pathlib.Path, only: set[str] | None = None) -> list[str]:
    """Writes ``out``/render.md and ``out``/render/*.png; returns the tasks drawn."""
    pictures = out / "render"
    pictures.mkdir(parents=True, exist_ok=True)
    lines = ["# Rendering gallery", "",
             "Generated by `python scripts/render_gallery.py` (do not edit by hand). For one task "
             "of each family that renders, our `render()` beside the reference package's "
             "picture in the same state, and their difference measured on the two arrays. "
             "What each family draws, and the tests that hold it to the reference, are in "
             "[the API page](api.md#rendering).", ""]
    drawn, missing = [], []
    for family, (tasks, mode, make) in FAMILIES.items():
        chosen = [t for t in tasks if only is None or t in only]
        entries: list[str] = []
        for task in chosen:
            why = renders(task, mode)
            if why is not None:
                missing.append(f"* {family}, `{task}`: {why}")
                continue
            try:
                entries += _entry(task, make(task), pictures)
            except Exception as e:  # the page says what failed rather than leaving a gap
                entries += [f"### {task}", "", f"Could not be drawn here: `{type(e).__name__}: "
                            f"{e}`.", ""]
            drawn.append(task)
        if entries:
            lines += [f"## {family}", "", *entries]
    if missing:
        lines += ["## Not rendering yet", "", *missing, ""]
    (out / "render.md").write_text("\n".join(lines).rstrip("\n") + "\n")
    return drawn


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=pathlib.Path, default=ROOT / "docs",
                        help="folder for render.md and render/ (default: docs)")
    parser.add_argument("--only", nargs="*", help="task ids to draw (default: all)")
    args = parser.parse_args(argv)
    drawn = write(args.out, set(args.only) if args.only else None)
    print(f"drew {len(drawn)} tasks into {args.out}: {', '.join(drawn)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
