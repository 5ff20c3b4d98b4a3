"""Toy-text envs against gymnasium 1.4's toy_text references (run in the same test).

* Deterministic dynamics (non-slippery FrozenLake, dry Taxi, CliffWalking): ours
  and ``gymnasium.make(id).unwrapped`` are driven side by side with the same
  actions; our state is copied into the reference at every reset; obs, reward
  (as float32), terminated, truncated and info must match exactly.
* Stochastic transitions (slippery FrozenLake / CliffWalking, rainy Taxi): every
  transition we take must be an entry of the reference's ``P[s][a]`` with p > 0
  (same next state, reward, terminated and info["prob"]), and the frequencies of
  the outcomes must match the reference probabilities: a chi-square test at
  significance ALPHA, pooled over the (s, a) pairs whose three outcomes are
  distinct (they all share one probability vector, so the pooled counts are
  multinomial).
* Blackjack: each step is replayed on the reference from our pre-step hands with
  the cards we drew scripted into its generator, so the rules (dealer play,
  scoring, sab / natural) are checked exactly; the random parts (the deal, the
  outcome rates of a fixed policy) are compared by chi-square tests.
* NChain and Catch have no gymnasium reference: their documented dynamics
  (native/envs/toy_text/nchain.h, catch.h) are checked directly.

The seeds are fixed, so the statistical tests are deterministic; ALPHA = 1e-3 is
the chance that a correct implementation would fail one of them for an
arbitrary seed, and the sample sizes give them power against errors of a few
percentage points in any outcome probability.
"""

from __future__ import annotations

import inspect
from collections import Counter
from typing import Any

import gymnasium
import numpy as np
import pytest
from stats import binomial_p, goodness_of_fit, homogeneity  # tests/stats.py

import envpool

ALPHA = 1e-3


# -- references ----------------------------------------------------------------
def make_ref(ref_id: str, **kwargs: Any) -> Any:
    return gymnasium.make(ref_id, **kwargs).unwrapped


def copy_tabular_state(ref: Any, state: list[float]) -> None:
    ref.s = int(state[0])
    if hasattr(ref, "fickle_step"):  # Taxi: [s, fickle_step]
        ref.fickle_step = bool(state[1])


def greedy_policy(ref: Any, gamma: float = 0.95, iters: int = 300) -> np.ndarray:
    """Optimal actions of a deterministic tabular reference (value iteration on P)."""
    n_s, n_a = ref.observation_space.n, ref.action_space.n
    nxt = np.zeros((n_s, n_a), dtype=np.int64)
    rew = np.zeros((n_s, n_a))
    term = np.zeros((n_s, n_a))
    for s in range(n_s):
        for a in range(n_a):
            (_, ns, r, t), = ref.P[s][a]
            nxt[s, a], rew[s, a], term[s, a] = ns, r, t
    q = np.zeros((n_s, n_a))
    for _ in range(iters):
        q = rew + gamma * (1 - term) * q.max(axis=1)[nxt]
    return q.argmax(axis=1)


# -- deterministic lockstep ----------------------------------------------------
def run_lockstep(
    task_id: str,
    ref_id: str,
    *,
    env_kwargs: dict[str, Any] | None = None,
    ref_kwargs: dict[str, Any] | None = None,
    num_envs: int = 8,
    steps: int = 300,
    max_episode_steps: int | None = None,
    epsilon: float = 1.0,
    seed: int = 0,
) -> Counter:
    """Drives ours and num_envs references with the same epsilon-greedy actions;
    returns counts of what happened (episodes, terminations, rewards)."""
    env_kwargs = env_kwargs or {}
    ref_kwargs = env_kwargs if ref_kwargs is None else ref_kwargs
    extra = {} if max_episode_steps is None else {"max_episode_steps": max_episode_steps}
    env = envpool.make_gymnasium(task_id, num_envs=num_envs, seed=seed, **env_kwargs, **extra)
    limit = env.spec.max_episode_steps
    refs = [make_ref(ref_id, **ref_kwargs) for _ in range(num_envs)]
    greedy = greedy_policy(refs[0]) if epsilon < 1 else None
    rng = np.random.default_rng(seed)
    seen: Counter = Counter()

    def start(i: int, obs: np.ndarray, info: dict[str, Any]) -> None:
        ref = refs[i]
        ref.reset(seed=seed + i)
        state = env.get_state(i)
        assert ref.initial_state_distrib[int(state[0])] > 0, "not a start state of the reference"
        copy_tabular_state(ref, state)
        assert obs[i] == ref.s
        assert info["prob"][i] == 1.0
        if "action_mask" in info:
            np.testing.assert_array_equal(info["action_mask"][i], ref.action_mask(ref.s))
        seen["episodes"] += 1

    obs, info = env.reset()
    assert obs.dtype == np.int64
    for i in range(num_envs):
        start(i, obs, info)
    elapsed = np.zeros(num_envs, dtype=int)
    restart = np.zeros(num_envs, dtype=bool)
    n_actions = refs[0].action_space.n
    for _ in range(steps):
        actions = rng.integers(0, n_actions, num_envs)
        if greedy is not None:
            use = rng.random(num_envs) >= epsilon
            actions[use] = greedy[obs[use]]
        obs, rew, term, trunc, info = env.step(actions)
        assert rew.dtype == np.float32
        for i in range(num_envs):
            if restart[i]:  # next-step autoreset: this step reset env i
                assert rew[i] == 0 and not term[i] and not trunc[i]
                start(i, obs, info)
                elapsed[i] = 0
                continue
            elapsed[i] += 1
            r_obs, r_rew, r_term, r_trunc, r_info = refs[i].step(int(actions[i]))
            assert not r_trunc
            assert obs[i] == r_obs, (i, actions[i])
            assert rew[i] == np.float32(r_rew)
            assert term[i] == r_term
            assert trunc[i] == (limit is not None and elapsed[i] >= limit)
            assert info["prob"][i] == r_info["prob"]
            if "action_mask" in r_info:
                np.testing.assert_array_equal(info["action_mask"][i], r_info["action_mask"])
            assert env.get_state(i)[0] == refs[i].s
            seen[f"reward {float(r_rew)}"] += 1
            seen["terminated"] += int(r_term)
            seen["truncated"] += int(trunc[i])
        restart = term | trunc
    env.close()
    return seen


def test_frozen_lake_deterministic_matches_reference() -> None:
    seen = run_lockstep("FrozenLake-v1", "FrozenLake-v1", env_kwargs={"is_slippery": False},
                        epsilon=0.5, steps=300)
    assert seen["terminated"] >= 20 and seen["reward 1.0"] >= 5 and seen["episodes"] >= 30
    seen = run_lockstep("FrozenLake8x8-v1", "FrozenLake8x8-v1",
                        env_kwargs={"is_slippery": False}, epsilon=0.3, steps=400)
    assert seen["reward 1.0"] >= 5 and seen["terminated"] >= 10


def test_frozen_lake_custom_map_and_reward_schedule() -> None:
    desc = ["SFFH", "FHFF", "SFFG"]
    seen = run_lockstep(
        "FrozenLake-v1", "FrozenLake-v1",
        env_kwargs={"desc": desc, "is_slippery": False, "reward_schedule": (2, -1.5, -0.25)},
        ref_kwargs={"desc": desc, "is_slippery": False, "reward_schedule": (2, -1.5, -0.25)},
        epsilon=0.6, steps=300,
    )
    assert seen["reward 2.0"] >= 5 and seen["reward -1.5"] >= 5 and seen["reward -0.25"] >= 5
    env = envpool.make_gymnasium("FrozenLake-v1", desc=desc)
    assert env.single_observation_space == gymnasium.spaces.Discrete(12)
    env.close()


def test_taxi_deterministic_matches_reference() -> None:
    seen = run_lockstep("Taxi-v3", "Taxi-v4", epsilon=0.3, steps=400, num_envs=6)
    assert seen["terminated"] >= 10 and seen["reward -10.0"] >= 10
    seen = run_lockstep("Taxi-v4", "Taxi-v4", epsilon=0.3, steps=300, num_envs=6,
                        max_episode_steps=12)
    assert seen["terminated"] >= 5 and seen["truncated"] >= 5


# CliffWalking-v0: sail-sg EnvPool's id, gymnasium's v1 with its defaults
@pytest.mark.parametrize("task_id", ["CliffWalking-v0", "CliffWalking-v1"])
def test_cliff_walking_deterministic_matches_reference(task_id: str) -> None:
    seen = run_lockstep(task_id, "CliffWalking-v1", epsilon=0.4, steps=400,
                        max_episode_steps=60)
    assert seen["terminated"] >= 10 and seen["reward -100.0"] >= 10 and seen["truncated"] >= 1


def test_taxi_fickle_passenger_with_copied_state() -> None:
    # fickle_passenger with fickle_step = 0 is the dry model; with fickle_step = 1
    # the first move with the passenger aboard changes the destination to another pad.
    env = envpool.make_gymnasium("Taxi-v3", num_envs=1, seed=3, fickle_passenger=True,
                                 max_episode_steps=0)  # no time limit
    ref = make_ref("Taxi-v4", fickle_passenger=True)
    ref.reset(seed=0)
    env.reset()
    changed: Counter = Counter()
    for s in range(500):
        row, col, pas, dest = ref.decode(s)
        if pas != 4:
            continue
        for action in range(4):
            env.set_state(0, [s, 0])
            obs, *_ = env.step(np.array([action]))
            assert obs[0] == ref.P[s][action][0][1]
            env.set_state(0, [s, 1])
            obs, rew, term, _, info = env.step(np.array([action]))
            ns = ref.P[s][action][0][1]
            n_row, n_col, n_pas, n_dest = ref.decode(int(obs[0]))
            if (n_row, n_col) == (row, col):  # did not move: no change, still pending
                assert obs[0] == ns and env.get_state(0) == [ns, 1.0, action]  # (faces its move)
            else:
                assert (n_row, n_col, n_pas) == ref.decode(ns)[:3] and n_dest != dest
                assert env.get_state(0)[1] == 0.0
                changed[(dest, n_dest)] += 1
            assert rew[0] == ref.P[s][action][0][2] and term[0] == ref.P[s][action][0][3]
            # dones cannot happen on moves; step again is a normal step
    # The new destination is uniform over the other three pads.
    for dest in range(4):
        counts = np.array([changed[(dest, d)] for d in range(4) if d != dest])
        assert goodness_of_fit(counts, np.full(3, 1 / 3)) > ALPHA, (dest, counts)
    env.close()


def test_taxi_fickle_draw_on_reset() -> None:
    env = envpool.make_gymnasium("Taxi-v3", num_envs=500, seed=11, fickle_passenger=True,
                                 fickle_probability=0.3)
    pending = 0
    for _ in range(6):
        env.reset()
        pending += sum(int(env.get_state(i)[1]) for i in range(500))
    assert binomial_p(pending, 3000, 0.3) > ALPHA
    # New destinations after a fickle change are uniform over the other pads.
    ref = make_ref("Taxi-v4")
    s = ref.encode(2, 2, 4, 1)  # middle of the map, passenger aboard, heading to G
    new_dest: Counter = Counter()
    for i in range(500):
        env.set_state(i, [s, 1])
    for _ in range(4):
        obs, *_ = env.step(np.zeros(500, dtype=np.int64))  # south: always a move from (2, 2)
        for i in range(500):
            new_dest[ref.decode(int(obs[i]))[3]] += 1
            env.set_state(i, [s, 1])
    assert new_dest[1] == 0
    assert goodness_of_fit(np.array([new_dest[0], new_dest[2], new_dest[3]]),
                           np.full(3, 1 / 3)) > ALPHA
    env.close()


# -- stochastic transitions against P --------------------------------------------
def check_against_p(
    task_id: str,
    ref_id: str,
    *,
    env_kwargs: dict[str, Any] | None = None,
    num_envs: int = 64,
    steps: int = 400,
    max_episode_steps: int | None = None,
    seed: int = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """Checks each transition against the reference's P; returns the pooled
    outcome counts and probabilities of the (s, a) pairs with three distinct
    outcomes."""
    env_kwargs = env_kwargs or {}
    extra = {} if max_episode_steps is None else {"max_episode_steps": max_episode_steps}
    env = envpool.make_gymnasium(task_id, num_envs=num_envs, seed=seed, **env_kwargs, **extra)
    ref = make_ref(ref_id, **env_kwargs)
    rng = np.random.default_rng(seed + 1)
    n_actions = ref.action_space.n
    pooled = np.zeros(3)
    probs: tuple[float, ...] | None = None
    positive: dict[tuple[int, int], list[tuple[tuple[Any, ...], int]]] = {}

    def outcomes(s: int, a: int) -> list[tuple[tuple[Any, ...], int]]:
        if (s, a) not in positive:
            positive[(s, a)] = [((ns, np.float32(r), bool(t), p), k)
                                for k, (p, ns, r, t) in enumerate(ref.P[s][a]) if p > 0]
        return positive[(s, a)]

    obs, _ = env.reset()
    for i in range(num_envs):
        assert ref.initial_state_distrib[obs[i]] > 0
    restart = np.zeros(num_envs, dtype=bool)
    for _ in range(steps):
        prev = obs.copy()
        actions = rng.integers(0, n_actions, num_envs)
        obs, rew, term, trunc, info = env.step(actions)
        for i in range(num_envs):
            if restart[i]:
                assert ref.initial_state_distrib[obs[i]] > 0
                continue
            s, a = int(prev[i]), int(actions[i])
            key = (int(obs[i]), rew[i], bool(term[i]), float(info["prob"][i]))
            options = outcomes(s, a)
            matches = [k for o, k in options if o == key]
            assert matches, f"P[{s}][{a}] = {ref.P[s][a]} has no outcome {key}"
            distinct = {o[:3] for o, _ in options}
            if len(options) == 3 and len(distinct) == 3:
                p = tuple(o[3] for o, _ in options)
                assert probs is None or p == probs
                probs = p
                pooled[matches[0]] += 1
        restart = term | trunc
    env.close()
    assert probs is not None
    return pooled, np.array(probs)


@pytest.mark.parametrize(
    ("task_id", "env_kwargs", "expected"),
    [
        ("FrozenLake-v1", {}, (1 / 3, 1 / 3, 1 / 3)),
        ("FrozenLake8x8-v1", {"success_rate": 0.75}, (0.125, 0.75, 0.125)),
        ("CliffWalkingSlippery-v1", {}, (1 / 3, 1 / 3, 1 / 3)),
        ("Taxi-v3", {"is_rainy": True}, (0.8, 0.1, 0.1)),
        ("Taxi-v4", {"is_rainy": True, "rainy_probability": 0.6}, (0.6, 0.2, 0.2)),
    ],
)
def test_stochastic_transitions_follow_reference_p(
    task_id: str, env_kwargs: dict[str, Any], expected: tuple[float, ...]
) -> None:
    ref_id = "Taxi-v4" if task_id.startswith("Taxi") else task_id
    limit = 50 if task_id.startswith("Cliff") else None
    counts, probs = check_against_p(task_id, ref_id, env_kwargs=env_kwargs,
                                    max_episode_steps=limit)
    np.testing.assert_allclose(probs, expected)
    assert counts.sum() >= 2000, counts
    assert goodness_of_fit(counts, probs) > ALPHA, (counts, probs)


def test_frozen_lake_start_is_uniform_over_start_tiles() -> None:
    desc = ["SFS", "FHF", "SFG"]
    env = envpool.make_gymnasium("FrozenLake-v1", desc=desc, num_envs=300, seed=5)
    ref = make_ref("FrozenLake-v1", desc=desc)
    counts = np.zeros(9)
    for _ in range(5):
        obs, _ = env.reset()
        np.add.at(counts, obs, 1)
    support = ref.initial_state_distrib > 0
    assert counts[~support].sum() == 0
    assert goodness_of_fit(counts[support], ref.initial_state_distrib[support]) > ALPHA
    env.close()


def test_taxi_start_distribution_matches_reference() -> None:
    env = envpool.make_gymnasium("Taxi-v3", num_envs=1000, seed=9)
    ref = make_ref("Taxi-v4")
    counts = np.zeros(500)
    for _ in range(6):
        obs, _ = env.reset()
        np.add.at(counts, obs, 1)
    support = ref.initial_state_distrib > 0
    assert support.sum() == 300 and counts[~support].sum() == 0
    assert goodness_of_fit(counts[support], ref.initial_state_distrib[support]) > ALPHA
    env.close()


# -- Blackjack -------------------------------------------------------------------
class ScriptedDraws:
    """Stands in for the reference's np_random: draw_card() returns these cards."""

    def __init__(self, cards: list[int]) -> None:
        self.cards = list(cards)

    def choice(self, deck: Any) -> int:
        return self.cards.pop(0)


def decode_hands(state: list[float]) -> tuple[list[int], list[int]]:
    """The hands of our state [len(player), *player, len(dealer), *dealer, suit, face]."""
    n = int(state[0])
    player = [int(c) for c in state[1:1 + n]]
    m = int(state[1 + n])
    dealer = [int(c) for c in state[2 + n:2 + n + m]]
    assert len(state) == 4 + n + m
    return player, dealer


def encode_hands(player: list[int], dealer: list[int]) -> list[float]:
    return [len(player), *player, len(dealer), *dealer]


@pytest.mark.parametrize(("sab", "natural"), [(True, False), (False, True), (False, False)])
def test_blackjack_rules_match_reference_with_scripted_draws(sab: bool, natural: bool) -> None:
    num_envs = 16
    env = envpool.make_gymnasium("Blackjack-v1", num_envs=num_envs, seed=21, sab=sab,
                                 natural=natural)
    assert env.single_observation_space == make_ref("Blackjack-v1").observation_space
    refs = [make_ref("Blackjack-v1", sab=sab, natural=natural) for _ in range(num_envs)]
    for i, ref in enumerate(refs):
        ref.reset(seed=i)
    rng = np.random.default_rng(4)
    rewards: Counter = Counter()

    def check_deal(i: int, obs: tuple[np.ndarray, ...]) -> None:
        player, dealer = decode_hands(env.get_state(i))
        assert len(player) == 2 and len(dealer) == 2
        refs[i].player, refs[i].dealer = player, dealer
        assert tuple(int(o[i]) for o in obs) == refs[i]._get_obs()

    obs, _ = env.reset()
    assert all(o.dtype == np.int64 for o in obs)
    for i in range(num_envs):
        check_deal(i, obs)
    restart = np.zeros(num_envs, dtype=bool)
    for _ in range(600):
        before = [decode_hands(env.get_state(i)) for i in range(num_envs)]
        actions = (rng.random(num_envs) < 0.4).astype(np.int64)  # hit with probability 0.4
        obs, rew, term, trunc, _ = env.step(actions)
        assert not trunc.any()
        for i in range(num_envs):
            if restart[i]:
                assert rew[i] == 0 and not term[i]
                check_deal(i, obs)
                continue
            (player, dealer), (player2, dealer2) = before[i], decode_hands(env.get_state(i))
            if actions[i]:  # hit: one card to the player
                assert player2[:-1] == player and dealer2 == dealer
                drawn = player2[-1:]
            else:  # stick: the dealer plays
                assert player2 == player and dealer2[:len(dealer)] == dealer
                drawn = dealer2[len(dealer):]
            ref = refs[i]
            ref.player, ref.dealer = list(player), list(dealer)
            ref.np_random = ScriptedDraws(drawn)
            r_obs, r_rew, r_term, _, r_info = ref.step(int(actions[i]))
            assert ref.np_random.cards == [], "we drew more cards than the reference"
            assert ref.player == player2 and ref.dealer == dealer2
            assert tuple(int(o[i]) for o in obs) == r_obs
            assert rew[i] == np.float32(r_rew) and term[i] == r_term and r_info == {}
            rewards[float(r_rew)] += int(r_term)
        restart = term | trunc
    assert rewards[1.0] > 50 and rewards[-1.0] > 50 and rewards[0.0] > 5
    if natural and not sab:
        assert rewards[1.5] >= 1
    env.close()


def test_blackjack_natural_rules_on_set_hands() -> None:
    # (player, dealer, sab, natural) -> reward; the dealer stands on both hands.
    cases = [
        ([1, 10], [10, 7], True, False, 1.0),
        ([1, 10], [10, 1], True, False, 0.0),   # both naturals
        ([1, 10], [10, 4, 7], True, False, 1.0),  # natural beats a non-natural 21 (sab)
        ([1, 10], [10, 4, 7], False, False, 0.0),
        ([1, 10], [10, 7], False, True, 1.5),
        ([1, 10], [10, 7], True, True, 1.0),   # sab overrides natural
        ([10, 5, 6], [10, 7], False, True, 1.0),  # 21, not a natural
    ]
    for player, dealer, sab, natural, expected in cases:
        env = envpool.make_gymnasium("Blackjack-v1", num_envs=1, seed=0, sab=sab, natural=natural)
        env.reset()
        env.set_state(0, encode_hands(player, dealer))
        assert env.get_state(0)[:-2] == encode_hands(player, dealer)  # (suit, face kept)
        _, rew, term, _, _ = env.step(np.array([0]))
        ref = make_ref("Blackjack-v1", sab=sab, natural=natural)
        ref.reset(seed=0)
        ref.player, ref.dealer = list(player), list(dealer)
        ref.np_random = ScriptedDraws([])
        _, r_rew, r_term, _, _ = ref.step(0)
        assert rew[0] == r_rew == expected and term[0] and r_term
        env.close()
    env = envpool.make_gymnasium("Blackjack-v1", num_envs=1)
    env.reset()
    for bad in ([2, 1, 11, 1, 5], [1, 5], [2, 1, 2, 0], [2, 1, 2, 1, 5, 3], [1, 5, 1, 10, 4, 0],
                [1, 5, 1, 10, 0, 3], [1, 5, 1, 10, 1.5, 0], [1, 5, 1, 10, 0, 1, 0]):
        with pytest.raises(ValueError, match="Blackjack state"):
            env.set_state(0, bad)
    env.set_state(0, [1, 5, 1, 10, 3, 2])  # the king of spades
    env.set_state(0, [2, 5, 6, 1, 10])  # new hands keep the suit and face
    assert env.get_state(0) == [2, 5, 6, 1, 10, 3, 2]
    env.close()


def test_blackjack_face_up_card_suit_and_picture() -> None:
    """The face-up card's picture, drawn at each deal as gymnasium's reset draws it: the suit
    uniform over C, D, H, S; for a 10 a jack, queen or king, uniform; no picture drawn for
    other cards (face 0); the suit independent of the card's value."""
    num_envs = 500
    env = envpool.make_gymnasium("Blackjack-v1", num_envs=num_envs, seed=11)
    suits = np.zeros((11, 4))  # by the face-up card's value
    faces = np.zeros(3)
    for _ in range(8):
        env.reset()
        for i in range(num_envs):
            state = env.get_state(i)
            up = int(state[2 + int(state[0])])
            suit, face = int(state[-2]), int(state[-1])
            suits[up, suit] += 1
            if up == 10:
                faces[face] += 1
            else:
                assert face == 0
    env.close()
    assert goodness_of_fit(suits.sum(axis=0), np.full(4, 0.25)) > ALPHA
    assert goodness_of_fit(faces, np.full(3, 1 / 3)) > ALPHA
    assert homogeneity(suits[1:]) > ALPHA


def blackjack_outcomes_ours(episodes: int, seed: int) -> tuple[np.ndarray, np.ndarray, Counter]:
    """(win, draw, loss) counts of 'stick on 17 or more', dealer-card counts and
    initial-player-sum counts."""
    num_envs = 200
    env = envpool.make_gymnasium("Blackjack-v1", num_envs=num_envs, seed=seed)
    outcome = np.zeros(3)
    dealer_card = np.zeros(11)
    start_sum: Counter = Counter()
    obs, _ = env.reset()
    fresh = np.ones(num_envs, dtype=bool)  # obs[i] is a fresh deal
    done = np.zeros(num_envs, dtype=bool)
    while outcome.sum() < episodes:
        np.add.at(dealer_card, obs[1][fresh], 1)
        start_sum.update(obs[0][fresh].tolist())
        actions = (obs[0] < 17).astype(np.int64)
        obs, rew, term, _, _ = env.step(actions)
        outcome += [(term & (rew > 0)).sum(), (term & (rew == 0)).sum(), (term & (rew < 0)).sum()]
        fresh = done  # next-step autoreset: envs done last step were dealt again now
        done = term.copy()
    env.close()
    return outcome, dealer_card, start_sum


def blackjack_outcomes_ref(episodes: int, seed: int) -> np.ndarray:
    ref = make_ref("Blackjack-v1")
    ref.reset(seed=seed)
    outcome = np.zeros(3)
    for _ in range(episodes):
        obs, _ = ref.reset()
        terminated = False
        while not terminated:
            obs, rew, terminated, _, _ = ref.step(int(obs[0] < 17))
        outcome[0 if rew > 0 else 1 if rew == 0 else 2] += 1
    return outcome


def test_blackjack_outcome_and_deal_distributions() -> None:
    ours, dealer_card, start_sum = blackjack_outcomes_ours(20_000, seed=1)
    ref = blackjack_outcomes_ref(12_000, seed=2)
    assert homogeneity(np.stack([ours, ref])) > ALPHA, (ours, ref)
    # The deal against exact probabilities: dealer's up card, player's starting sum.
    card_p = np.array([0] + [1 / 13] * 9 + [4 / 13])
    assert goodness_of_fit(dealer_card[1:], card_p[1:]) > ALPHA
    exact: Counter = Counter()
    for a in range(1, 11):
        for b in range(1, 11):
            total = a + b + (10 if 1 in (a, b) and a + b + 10 <= 21 else 0)
            exact[total] += card_p[a] * card_p[b]
    sums = sorted(exact)
    assert set(start_sum) <= set(sums)
    counts = np.array([start_sum[s] for s in sums])
    probs = np.array([exact[s] for s in sums])
    assert goodness_of_fit(counts, probs) > ALPHA


# -- NChain ----------------------------------------------------------------------
def test_nchain_dynamics() -> None:
    env = envpool.make_gymnasium("NChain-v0", num_envs=1, slip=0.0)
    assert env.spec.max_episode_steps == 1000
    assert env.single_observation_space == gymnasium.spaces.Discrete(5)
    assert env.single_action_space == gymnasium.spaces.Discrete(2)
    obs, info = env.reset()
    assert obs[0] == 0 and obs.dtype == np.int64
    expected = [(0, 1, 0.0), (0, 2, 0.0), (0, 3, 0.0), (0, 4, 0.0), (0, 4, 10.0), (0, 4, 10.0),
                (1, 0, 2.0), (1, 0, 2.0), (0, 1, 0.0)]
    for action, state, reward in expected:
        obs, rew, term, trunc, _ = env.step(np.array([action]))
        assert (obs[0], rew[0], term[0], trunc[0]) == (state, reward, False, False)
    env.close()
    # Custom chain, time limit at 1000 steps, never terminates.
    env = envpool.make_gymnasium("NChain-v0", num_envs=2, n=3, slip=0.0, small=1, large=5)
    env.reset()
    total = np.zeros(2)
    for t in range(1, 1001):
        obs, rew, term, trunc, _ = env.step(np.array([0, 1]))
        total += rew
        assert not term.any() and trunc.all() == (t == 1000)
    assert total.tolist() == [5.0 * 998, 1.0 * 1000]
    obs, rew, *_ = env.step(np.array([0, 0]))  # next-step autoreset
    assert obs.tolist() == [0, 0] and rew.tolist() == [0, 0]
    env.close()


def test_nchain_slip_probability() -> None:
    num_envs = 100
    env = envpool.make_gymnasium("NChain-v0", num_envs=num_envs, seed=3)
    rng = np.random.default_rng(0)
    obs, _ = env.reset()
    slipped = n = 0
    for _ in range(100):
        prev = obs.copy()
        actions = rng.integers(0, 2, num_envs)
        obs, rew, *_ = env.step(actions)
        forward_taken = np.where(prev < 4, obs == prev + 1, (obs == 4) & (rew == 10))
        backward_taken = (obs == 0) & (rew == 2)
        assert (forward_taken ^ backward_taken).all()
        assert ((rew == 0) == (forward_taken & (prev < 4))).all()
        slipped += int((forward_taken != (actions == 0)).sum())
        n += num_envs
    assert binomial_p(slipped, n, 0.2) > ALPHA
    env.close()


# -- Catch -----------------------------------------------------------------------
def catch_board(rows: int, cols: int, ball: tuple[int, int], paddle: int) -> np.ndarray:
    board = np.zeros((rows, cols), dtype=np.float32)
    board[ball] = 1
    board[rows - 1, paddle] = 1
    return board


def test_catch_dynamics() -> None:
    rows, cols, num_envs = 10, 5, 32
    env = envpool.make_gymnasium("Catch-v0", num_envs=num_envs, seed=7)
    assert env.single_observation_space == gymnasium.spaces.Box(0, 1, (rows, cols), np.float32)
    assert env.single_action_space.n == 3 and env.single_action_space.start == 0
    rng = np.random.default_rng(0)
    obs, _ = env.reset()
    assert obs.dtype == np.float32 and obs.shape == (num_envs, rows, cols)
    ball_col = obs[:, 0, :].argmax(axis=1)
    for i in range(num_envs):
        np.testing.assert_array_equal(obs[i], catch_board(rows, cols, (0, ball_col[i]), 2))
        assert env.get_state(i) == [0, ball_col[i], 2]
    paddle = np.full(num_envs, 2)
    for t in range(1, rows):
        # Half the envs track the ball, half move at random.
        track = np.sign(ball_col - paddle) + 1
        actions = np.where(np.arange(num_envs) % 2 == 0, track, rng.integers(0, 3, num_envs))
        obs, rew, term, trunc, _ = env.step(actions)
        paddle = np.clip(paddle + actions - 1, 0, cols - 1)
        for i in range(num_envs):
            np.testing.assert_array_equal(obs[i], catch_board(rows, cols, (t, ball_col[i]),
                                                              paddle[i]))
        assert not trunc.any() and term.all() == (t == rows - 1) and term.any() == term.all()
        if t < rows - 1:
            assert (rew == 0).all()
    np.testing.assert_array_equal(rew, np.where(paddle == ball_col, 1.0, -1.0))
    assert (rew[::2] == 1).all()
    obs, rew, term, _, _ = env.step(np.ones(num_envs, dtype=np.int64))  # autoreset
    assert (rew == 0).all() and not term.any() and (obs[:, 0, :].sum(axis=1) == 1).all()
    assert (obs[:, rows - 1, 2] == 1).all() and obs.sum() == 2 * num_envs
    env.close()


def test_catch_ball_column_uniform_and_custom_board() -> None:
    env = envpool.make_gymnasium("Catch-v0", num_envs=500, seed=1)
    counts = np.zeros(5)
    for _ in range(4):
        obs, _ = env.reset()
        np.add.at(counts, obs[:, 0, :].argmax(axis=1), 1)
    assert goodness_of_fit(counts, np.full(5, 0.2)) > ALPHA
    env.close()
    env = envpool.make_gymnasium("Catch-v0", num_envs=1, rows=4, columns=3)
    obs, _ = env.reset()
    assert obs.shape == (1, 4, 3) and obs[0, 3, 1] == 1
    env.set_state(0, [0, 0, 2])
    steps = 0
    term = np.array([False])
    while not term[0]:
        obs, rew, term, _, _ = env.step(np.array([0]))  # left
        steps += 1
    assert steps == 3 and rew[0] == 1.0 and env.get_state(0) == [3, 0, 0]
    with pytest.raises(ValueError, match="Catch state"):
        env.set_state(0, [0, 5])
    env.close()


# -- registration, spaces, keywords, errors ----------------------------------------
@pytest.mark.parametrize(
    ("task_id", "ref_id"),
    [
        ("FrozenLake-v1", "FrozenLake-v1"),
        ("FrozenLake8x8-v1", "FrozenLake8x8-v1"),
        ("Taxi-v3", "Taxi-v4"),
        ("Taxi-v4", "Taxi-v4"),
        ("CliffWalking-v0", "CliffWalking-v1"),  # sail-sg EnvPool's id
        ("CliffWalking-v1", "CliffWalking-v1"),
        ("CliffWalkingSlippery-v1", "CliffWalkingSlippery-v1"),
        ("Blackjack-v1", "Blackjack-v1"),
    ],
)
def test_registration_and_spaces_mirror_gymnasium(task_id: str, ref_id: str) -> None:
    ref_spec = gymnasium.spec(ref_id)
    ours = envpool.make_spec(task_id)
    assert ours.max_episode_steps == ref_spec.max_episode_steps
    assert ours.reward_threshold == ref_spec.reward_threshold
    for key, value in ref_spec.kwargs.items():
        assert ours.env_config[key] == value, key
    ref = make_ref(ref_id)
    assert ours.observation_space == ref.observation_space
    assert ours.action_space == ref.action_space
    # Every constructor keyword of the reference (render_mode aside) is a keyword here.
    params = set(inspect.signature(type(ref).__init__).parameters) - {"self", "render_mode"}
    assert params == {k for k in ours.env_config if k[:1] != "_"}  # (not the hidden ones)


def test_bad_keywords_raise_with_valid_choices() -> None:
    with pytest.raises(ValueError, match="'4x4', '8x8'"):
        envpool.make_gymnasium("FrozenLake-v1", map_name="5x5")
    with pytest.raises(ValueError, match="same length"):
        envpool.make_gymnasium("FrozenLake-v1", desc=["SFF", "FG"])
    with pytest.raises(ValueError, match="valid tiles: S .*F .*H .*G"):
        envpool.make_gymnasium("FrozenLake-v1", desc=["SX", "FG"])
    with pytest.raises(ValueError, match="start tile"):
        envpool.make_gymnasium("FrozenLake-v1", desc=["FF", "FG"])
    with pytest.raises(ValueError, match="3 numbers"):
        envpool.make_gymnasium("FrozenLake-v1", reward_schedule=(1, 0))
    with pytest.raises(TypeError, match="list of numbers"):
        envpool.make_gymnasium("FrozenLake-v1", reward_schedule=["1", "x", "0"])
    with pytest.raises(ValueError, match="success_rate"):
        envpool.make_gymnasium("FrozenLake-v1", success_rate=1.5)
    with pytest.raises(ValueError, match="rainy_probability"):
        envpool.make_gymnasium("Taxi-v3", rainy_probability=-0.1)
    with pytest.raises(ValueError, match="slip"):
        envpool.make_gymnasium("NChain-v0", slip=2.0)
    with pytest.raises(ValueError, match="rows"):
        envpool.make_gymnasium("Catch-v0", rows=1)
    env = envpool.make_gymnasium("Taxi-v3")
    env.reset()
    with pytest.raises(ValueError, match="0 .. 499"):
        env.set_state(0, [500, 0])
    env.close()
