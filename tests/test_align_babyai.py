"""Alignment of the BabyAI levels with the ``minigrid`` package (3.2.0), its own envs run in
the same test.

The levels (native/envs/minigrid/babyai_*.h) draw from numpy's Generator reproduced in C++,
seeded with the env's seed, so env i of a pool made with seed s and
``gymnasium.make(task_id)`` reset with seed s + i generate the same level and mission
(rejection sampling included). Under the same actions every observation (image, direction,
mission text and tokens), ``agent_pos``, reward (the package's float64 rounded to float32,
the pool's dtype) and both flags must be equal: the verifiers' success and failure end the
episodes at the same step, and the per-episode ``max_steps`` truncates them the same.

The actions come from the package's own BabyAI bot (minigrid.utils.baby_ai_bot), planning
on the package's env, with one random action in ten, so the trajectories reach the
missions' successes (and, with the random actions and the Debug levels' strict verifiers,
failures) rather than wander; the bot's errors fall back to random actions. The package is
slow in Python (a BossLevel reset takes tens of milliseconds, the bot more per step): the
default suite runs one seed per id and a short trajectory, the nightly suite four seeds
through whole episodes and their autoresets.
"""

from __future__ import annotations

import signal
import time
from typing import Any

import gymnasium
import minigrid  # noqa: F401  (registers the package's ids)
import numpy as np
import pytest
from minigrid.utils.baby_ai_bot import BabyAIBot

import envpool
from envpool.tasks.minigrid import VOCABULARY, decode_mission, decode_tokens

IDS = sorted(i for i in gymnasium.registry if i.startswith("BabyAI-"))

# BabyAI's grammar (minigrid/envs/babyai/core/verifier.py: the surfaces of ObjDesc and of
# the instructions), every word a mission may have.
GRAMMAR = (
    "go to the a pick up open put next then after you and in front of behind on your "
    "left right object , red green blue purple yellow grey key ball box door"
).split()


def _check(
    obs: dict[str, np.ndarray], info: dict[str, Any], ref_obs: dict[str, Any], ref: Any, where: Any
) -> None:
    assert np.array_equal(obs["image"][0], ref_obs["image"]), where
    assert obs["direction"][0] == ref_obs["direction"], where
    assert decode_mission(obs["mission"][0]) == ref_obs["mission"], where
    assert decode_tokens(obs["mission_tokens"][0]) == ref_obs["mission"], where
    assert tuple(info["agent_pos"][0]) == tuple(int(v) for v in ref.unwrapped.agent_pos), where


class _Runaway(Exception):
    pass


# The most subgoals one finite replan() of the package's bot pushes in the trajectories
# here is 8 (measured, every id, the default suite's seed and the nightly's). Where the bot
# plans for ever it pushes without end: UnlockToUnlock's seed 7 at its third step faces a
# locked door whose key it has not seen and cycles explore, go to the door, go to the key,
# explore, ... (three subgoals more a cycle, thousands a second, the stack's memory
# growing); the nightly's trajectories meet three more (UnlockToUnlock's seeds 11 and 14,
# GoToImpUnlock's 14). A bound on pushes, not on time:
# the actions are the same on every machine and nothing rests on a signal (an alarm's
# exception raised inside a gc callback, such as the one jax registers and an xdist worker
# imports when it collects the JAX tests, is printed and dropped: a one-shot alarm lost
# that way left the bot planning for ever).
MOST_PUSHES = 200


class _Plan(list):  # type: ignore[type-arg]
    """The bot's stack of subgoals, counting the pushes of the current replan(); past
    MOST_PUSHES every further push raises _Runaway."""

    pushes = 0

    def append(self, subgoal: Any) -> None:
        self.pushes += 1
        if self.pushes > MOST_PUSHES:
            raise _Runaway
        super().append(subgoal)


def _new_bot(env: Any) -> BabyAIBot:
    """The package's bot planning on `env`, its stack a _Plan."""
    bot = BabyAIBot(env.unwrapped)
    bot.stack = _Plan(bot.stack)
    return bot


def _bot_action(bot: BabyAIBot, action: int | None) -> int:
    """The bot's next action; it raises where it gives up (a blocked path, after a random
    action) and _Runaway where it plans for ever (rarely, UnlockToUnlock): then the episode
    goes on with random actions."""
    bot.stack.pushes = 0
    return int(bot.replan(action))


def _lockstep(task_id: str, seed: int, max_steps: int, episodes: int = 1) -> int:
    """Steps ours and the package's env (reset with `seed`) with the bot's actions until
    `episodes` episodes ended or `max_steps` steps; returns the successes."""
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=seed)
    ref = gymnasium.make(task_id)
    obs, info = ours.reset()
    ref_obs, _ = ref.reset(seed=seed)
    _check(obs, info, ref_obs, ref, (task_id, seed, "reset"))
    rng = np.random.default_rng(seed)
    bot: BabyAIBot | None = _new_bot(ref)
    action = None
    successes = 0
    for t in range(max_steps):
        try:
            if bot is None:
                raise _Runaway
            action = _bot_action(bot, action)
        except _Runaway:  # random actions for the rest of the episode
            action = int(rng.integers(0, 7))
            bot = None
        except Exception:  # noqa: BLE001  (the bot gave up: a fresh one)
            action = int(rng.integers(0, 7))
            bot = _new_bot(ref)
        if rng.random() < 0.1:
            action = int(rng.integers(0, 7))
        ref_obs, ref_r, ref_term, ref_trunc, _ = ref.step(action)
        obs, r, term, trunc, info = ours.step(np.array([action]))
        where = (task_id, seed, t)
        _check(obs, info, ref_obs, ref, where)
        assert r[0] == np.float32(ref_r), where
        assert (bool(term[0]), bool(trunc[0])) == (ref_term, ref_trunc), where
        if ref_term or ref_trunc:
            successes += ref_r > 0
            episodes -= 1
            if episodes == 0:
                break
            # The pool autoresets on its next step (its action ignored), the package's env
            # with reset() continuing its generator.
            obs, _, _, _, info = ours.step(np.array([0]))
            ref_obs, _ = ref.reset()
            _check(obs, info, ref_obs, ref, (task_id, seed, t, "autoreset"))
            bot = _new_bot(ref)
            action = None
    ours.close()
    return successes


def test_registered_ids_are_the_packages() -> None:
    """The 96 BabyAI ids of the package, each without a gymnasium time limit (the env
    truncates itself at the level's max_steps)."""
    ours = sorted(i for i in envpool.list_all_envs() if i.startswith("BabyAI-"))
    assert ours == IDS and len(IDS) == 96
    for task_id in IDS:
        assert envpool.make_spec(task_id).max_episode_steps is None
        assert gymnasium.spec(task_id).max_episode_steps is None


def test_vocabulary_covers_the_grammar() -> None:
    """Every word of BabyAI's grammar has a token of its own (none is <unk>)."""
    for word in GRAMMAR:
        assert word in VOCABULARY, word


@pytest.mark.parametrize("task_id", IDS)
def test_lockstep_with_the_package(task_id: str) -> None:
    """One seed, the reset and up to 40 of the bot's steps (the episode's end included
    where it comes first)."""
    _lockstep(task_id, 7, 40)


def _timer_ran_out(signum: int, frame: Any) -> None:
    raise AssertionError("the lockstep ran past its 300 s")


def test_a_plan_without_end_is_cut_and_the_timer_stays_armed() -> None:
    """The package's bot on UnlockToUnlock, seed 7: its third replan() never ends (see
    MOST_PUSHES). The bound cuts it at the same push on every machine and again at every
    later push (an exception dropped once does not let it run on); and the lockstep
    through it leaves the process's real-time timer armed (pytest-timeout's under its
    signal method: what ends a test that hangs)."""
    task_id = "BabyAI-UnlockToUnlock-v0"
    ref = gymnasium.make(task_id)
    ref.reset(seed=7)
    bot = _new_bot(ref)
    action = None
    for _ in range(2):
        action = _bot_action(bot, action)
        ref.step(action)
    with pytest.raises(_Runaway):
        _bot_action(bot, action)
    assert bot.stack.pushes == MOST_PUSHES + 1
    with pytest.raises(_Runaway):
        bot.stack.append(None)
    previous = signal.signal(signal.SIGALRM, _timer_ran_out)
    armed = signal.setitimer(signal.ITIMER_REAL, 300)
    start = time.monotonic()
    try:
        _lockstep(task_id, 7, 40)
        assert signal.getitimer(signal.ITIMER_REAL)[0] > 0, "the lockstep disarmed the timer"
    finally:
        left = max(armed[0] - (time.monotonic() - start), 1e-3) if armed[0] > 0 else 0
        signal.setitimer(signal.ITIMER_REAL, left, armed[1])
        signal.signal(signal.SIGALRM, previous)


def test_missions_succeed_and_truncate() -> None:
    """Whole episodes of a few quick levels, through their successes (and the reward's
    step count) and autoresets, and the per-episode max_steps truncation."""
    successes = sum(
        _lockstep(task_id, seed, 400, episodes=3)
        for task_id in (
            "BabyAI-GoToRedBallNoDists-v0",
            "BabyAI-OpenRedDoor-v0",
            "BabyAI-PutNextLocalS5N3-v0",
            "BabyAI-OneRoomS8-v0",
        )
        for seed in (1, 2)
    )
    assert successes >= 12
    # max_steps (64 steps for one GoTo in a room of 8) runs out under `left` turns.
    ours = envpool.make_gymnasium("BabyAI-GoToRedBallNoDists-v0", num_envs=1, seed=3)
    ref = gymnasium.make("BabyAI-GoToRedBallNoDists-v0")
    ours.reset()
    ref.reset(seed=3)
    for t in range(64):
        _, _, term, trunc, _ = ours.step(np.array([0]))
        _, _, ref_term, ref_trunc, _ = ref.step(0)
        assert (bool(term[0]), bool(trunc[0])) == (ref_term, ref_trunc) == (False, t == 63)


def test_success_on_the_last_step_is_terminated_and_truncated() -> None:
    """A success on the step that reaches max_steps: the package's terminated and truncated
    are both True, and so are ours (gymnasium's semantics, docs/api.md). EnvPool's own
    babyai_align_test expects `terminated` False there (it asserts `term == (oracle_term and
    not oracle_trunc)`), so its unseeded random actions fail it in the rare episode that
    ends like this one. The actions: gymnasium's Discrete(7) seeded with 3209, as
    `action_space.sample()` draws them; the 64th faces the red ball."""
    task_id = "BabyAI-GoToRedBallGrey-v0"
    actions = [int(a) for a in "3265305353315405216255223100336351621523435666433021514042422620"]
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=0)
    ref = gymnasium.make(task_id)
    obs, info = ours.reset()
    ref_obs, _ = ref.reset(seed=0)
    _check(obs, info, ref_obs, ref, "reset")
    assert ref.unwrapped.max_steps == len(actions) == 64
    for t, action in enumerate(actions):
        ref_obs, ref_r, ref_term, ref_trunc, _ = ref.step(action)
        obs, r, term, trunc, info = ours.step(np.array([action]))
        _check(obs, info, ref_obs, ref, t)
        assert r[0] == np.float32(ref_r), t
        assert (bool(term[0]), bool(trunc[0])) == (ref_term, ref_trunc) == (t == 63, t == 63), t
    assert r[0] == np.float32(1 - 0.9 * 64 / 64)
    ours.close()


def test_reset_batch_of_seeds() -> None:
    """Env i of a pool made with seed s is the package's env reset with seed s + i, for the
    levels with rejection sampling and random instructions."""
    for task_id in (
        "BabyAI-BossLevel-v0",
        "BabyAI-SynthSeq-v0",
        "BabyAI-PutNextLocal-v0",
        "BabyAI-UnblockPickup-v0",
        "BabyAI-GoToRedBlueBall-v0",
    ):
        ours = envpool.make_gymnasium(task_id, num_envs=6, seed=30)
        obs, _ = ours.reset()
        ref = gymnasium.make(task_id)
        for i in range(6):
            ref_obs, _ = ref.reset(seed=30 + i)
            assert np.array_equal(obs["image"][i], ref_obs["image"]), (task_id, i)
            assert decode_mission(obs["mission"][i]) == ref_obs["mission"], (task_id, i)
            assert decode_tokens(obs["mission_tokens"][i]) == ref_obs["mission"], (task_id, i)
        ours.close()


def test_render_is_the_packages() -> None:
    """A BabyAI frame through picture.h (doors, keys, balls, boxes of every color) equals
    the package's rgb_array render, at the reset and after a few steps."""
    task_id = "BabyAI-BossLevel-v0"
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=4, render_mode="rgb_array")
    ref = gymnasium.make(task_id, render_mode="rgb_array")
    ours.reset()
    ref.reset(seed=4)
    assert np.array_equal(ours.render()[0], ref.render())
    for action in (2, 2, 1, 2, 5, 3):
        ours.step(np.array([action]))
        ref.step(action)
        assert np.array_equal(ours.render()[0], ref.render())
    ours.close()


@pytest.mark.nightly
@pytest.mark.timeout(300)  # about 2.6 s an id (96 ids: 248 s)
@pytest.mark.parametrize("task_id", IDS)
def test_lockstep_with_the_package_nightly(task_id: str) -> None:
    """Four more seeds per id, each through two whole episodes (success, failure or
    truncation) and the autoreset between them."""
    for seed in (11, 12, 13, 14):
        _lockstep(task_id, seed, 3000, episodes=2)
