"""gymnasium 1.4's jax-based envs (``phys2d/``, ``tabular/``) against gymnasium's own, run
side by side in the same test (gymnasium's FunctionalJaxEnv, jax 0.10.2 on the CPU).

* Same seed, same episodes: env i of a pool seeded with s draws its reset states and
  cards from jax's threefry key chain as ``gymnasium.make(id).reset(seed=s + i)`` does
  (``PRNGKey``, one ``split`` per reset and per step, later resets without a seed), so
  no state is copied: both are reset and stepped with the same actions, across
  autoresets (next_step: the reference is reset, without a seed, when ours is), and
  the observations (bitwise, as raw bits), rewards, terminated and truncated must be
  equal, and so must the key at the end.
* phys2d's float32 arithmetic is XLA's (fused multiply-adds, folded constants; see
  native/envs/classic_control/phys2d_*.h): bitwise, with no tolerance. It is XLA's code
  for an x86-64 CPU with FMA; on a CPU without FMA, XLA rounds each product and these
  tests would fail by an ulp (they are skipped there: see ``_HAS_FMA``).
* Spaces and time limits are gymnasium's; bad actions raise a ValueError.

Sizes keep the run to a few seconds (jax's jit compiles count): two envs, a few hundred
steps, enough to reach termination and the time limit of every id.
"""

from __future__ import annotations

from collections.abc import Callable

import gymnasium
import numpy as np
import pytest
from numerics import rerun_without_fma  # tests/numerics.py

import envpool

SEED = 11
N = 2


# (env, step, that env's last observation, rng) -> its action
Policy = Callable[[int, int, np.ndarray, np.random.Generator], object]


def _bits(x: object) -> np.ndarray:
    a = np.asarray(x)
    return a.view(np.uint32) if a.dtype == np.float32 else a


def _same(ours: np.ndarray, ref: object) -> bool:
    ref = np.asarray(ref)
    return ours.dtype == ref.dtype and np.array_equal(_bits(ours), _bits(ref))


_FUNC_ENVS: dict[str, object] = {}


def make_ref(task_id: str) -> gymnasium.Env:
    """gymnasium.make(task_id), sharing one functional env per id across the refs and tests:
    it is stateless (FunctionalJaxEnv holds the state and the key) and jitted, so jax
    compiles each id once (gymnasium's Blackjack takes about 2 s to compile)."""
    ref = gymnasium.make(task_id)
    ref.unwrapped.func_env = _FUNC_ENVS.setdefault(task_id, ref.unwrapped.func_env)
    return ref


def run_lockstep(task_id: str, policy: Policy, steps: int) -> dict[str, int]:
    """Steps ours (N envs, seed SEED) and N gymnasium envs seeded SEED + i side by side;
    returns how many episodes ended by termination and by truncation."""
    import jax

    ours = envpool.make_gymnasium(task_id, num_envs=N, seed=SEED)
    refs = [make_ref(task_id) for _ in range(N)]
    obs, _ = ours.reset()
    for i, ref in enumerate(refs):
        assert _same(obs[i], ref.reset(seed=SEED + i)[0]), (task_id, i)
    rng = np.random.default_rng(SEED)
    done = [False] * N
    ends = {"terminated": 0, "truncated": 0}
    for t in range(steps):
        actions = [policy(i, t, obs[i], rng) for i in range(N)]
        obs, rew, term, trunc, _ = ours.step(np.array(actions))
        for i, ref in enumerate(refs):
            where = (task_id, t, i)
            if done[i]:  # next_step autoreset: this step reset env i
                assert _same(obs[i], ref.reset()[0]), where
                assert rew[i] == 0 and not term[i] and not trunc[i], where
            else:
                r_obs, r_rew, r_term, r_trunc, _ = ref.step(actions[i])
                assert _same(obs[i], r_obs), (where, obs[i], r_obs)
                assert float(rew[i]) == r_rew, (where, rew[i], r_rew)
                assert (bool(term[i]), bool(trunc[i])) == (r_term, r_trunc), where
                ends["terminated"] += int(r_term)
                ends["truncated"] += int(r_trunc and not r_term)
            done[i] = bool(term[i] or trunc[i])
    for i, ref in enumerate(refs):  # the key chains are still in step
        key = np.asarray(jax.random.key_data(ref.unwrapped.rng))
        assert ours.get_state(i)[-2:] == [float(k) for k in key], (task_id, i)
    ours.close()
    return ends


@pytest.mark.parametrize(
    ("task_id", "steps"), [("phys2d/CartPole-v0", 230), ("phys2d/CartPole-v1", 120)]
)
def test_phys2d_cartpole_same_seed_same_episodes(task_id: str, steps: int) -> None:
    """Env 0 pushes at random (short episodes, terminated); env 1 balances on the pole's
    angle and rate, past v0's time limit (v1's, 500 steps, is the same pool code: its
    value is checked below, its steps are left out to keep the run short)."""

    def policy(i: int, t: int, obs: np.ndarray, rng: np.random.Generator) -> int:
        return int(rng.integers(2)) if i == 0 else int(obs[2] + 0.5 * obs[3] > 0)

    ends = run_lockstep(task_id, policy, steps)
    limit = gymnasium.spec(task_id).max_episode_steps
    assert ends["terminated"] >= 3 and ends["truncated"] == (steps > limit), ends


@pytest.mark.parametrize("task_id", ["phys2d/Pendulum-v0"])
def test_phys2d_pendulum_same_seed_same_episodes(task_id: str) -> None:
    """Torques uniform in [-2, 2], the bounds themselves and +-3 (clipped to +-2 by both:
    the pool does not bound Box actions), past the time limit."""

    def policy(i: int, t: int, obs: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        u = (-3.0, 3.0)[i] if t % 5 == 0 else (2.0, -2.0)[i] if t % 5 == 1 else rng.uniform(-2, 2)
        return np.array([u], dtype=np.float32)

    ends = run_lockstep(task_id, policy, 210)
    assert ends == {"terminated": 0, "truncated": N}, ends


@pytest.mark.parametrize("task_id", ["tabular/Blackjack-v0"])
def test_tabular_blackjack_same_seed_same_cards(task_id: str) -> None:
    """Hit or stick at random: the same deals, dealer draws and outcomes (sutton_and_barto
    rules) as gymnasium's, over a couple of hundred hands (gymnasium's jitted blackjack takes
    seconds to compile and 5 to 10 ms a step, hence no more)."""

    def policy(i: int, t: int, obs: np.ndarray, rng: np.random.Generator) -> int:
        return int(rng.integers(2))

    ends = run_lockstep(task_id, policy, 200)
    assert ends["terminated"] >= 100 and ends["truncated"] == 0, ends


# (player's cards, dealer's cards, action, gymnasium's reward where a rule fixes it)
HANDS = [
    ([1, 10], [7, 7, 7], 0, 1.0),  # natural against a dealer's 21 of three cards: wins
    ([7, 7, 7], [1, 10], 0, 0.0),  # 21 of three cards against a dealer's natural: a draw
    ([1, 10], [10, 1], 0, 0.0),  # natural against natural: a draw
    ([10, 6], [10, 6], 0, None),  # the dealer draws to 17 or more (jax's cards)
    ([10, 6], [9, 9], 1, None),  # hit: bust or not
    ([1, 5], [10, 7], 1, None),  # a usable ace, then maybe not
    ([10, 10], [10, 9], 0, 1.0),  # 20 against 19
    ([10, 8], [10, 9], 0, -1.0),  # 18 against 19
]


@pytest.mark.parametrize("task_id", ["tabular/Blackjack-v0"])
def test_tabular_blackjack_scripted_hands(task_id: str) -> None:
    """The rules random play seldom reaches (sutton_and_barto naturals), from hands set
    into both (ours with set_state, the reference's EnvState, and the same key)."""
    import jax
    import jax.numpy as jnp
    from gymnasium.envs.tabular.blackjack import EnvState

    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=SEED)
    ref = make_ref(task_id)
    ref.reset(seed=SEED)
    for player, dealer, action, expected in HANDS:
        ours.reset()
        ref.reset()
        hands = [np.zeros(21, np.float32), np.zeros(21, np.float32)]
        hands[0][: len(player)], hands[1][: len(dealer)] = player, dealer
        ref.unwrapped.state = EnvState(
            dealer_hand=jnp.asarray(hands[1]),
            player_hand=jnp.asarray(hands[0]),
            dealer_cards=len(dealer),
            player_cards=len(player),
            done=0,
        )
        key = [float(k) for k in np.asarray(jax.random.key_data(ref.unwrapped.rng))]
        ours.set_state(0, [len(player), len(dealer), *hands[0], *hands[1], *key])
        obs, rew, term, _, _ = ours.step(np.array([action]))
        r_obs, r_rew, r_term, _, _ = ref.step(action)
        where = (player, dealer, action)
        assert _same(obs[0], r_obs) and float(rew[0]) == r_rew, (where, obs, r_obs, rew, r_rew)
        assert bool(term[0]) == r_term, where
        assert expected is None or r_rew == expected, (where, r_rew)
    ours.close()


@pytest.mark.parametrize("task_id", ["tabular/CliffWalking-v0"])
def test_tabular_cliffwalking_same_episodes(task_id: str) -> None:
    """Env 0 walks up, along the top of the cliff and down to the goal (terminated), then
    again; env 1 walks at random (into the cliff and against the walls)."""
    path = [0] + [1] * 11 + [2]

    def policy(i: int, t: int, obs: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        k = t % (len(path) + 1)  # (step len(path) of each round is the autoreset)
        a = (path[k] if k < len(path) else 0) if i == 0 else rng.integers(4)
        return np.array([a], dtype=np.int32)

    ends = run_lockstep(task_id, policy, 60)
    assert ends["terminated"] >= 3 and ends["truncated"] == 0, ends


@pytest.mark.parametrize(
    "task_id",
    [
        "phys2d/CartPole-v0",
        "phys2d/CartPole-v1",
        "phys2d/Pendulum-v0",
        "tabular/Blackjack-v0",
        "tabular/CliffWalking-v0",
    ],
)
def test_jax_ids_have_gymnasiums_spaces_and_limits(task_id: str) -> None:
    ours = envpool.make_gymnasium(task_id, num_envs=1)
    ref = make_ref(task_id)
    assert ours.single_observation_space == ref.observation_space
    assert ours.single_action_space == ref.action_space
    assert (envpool.make_spec(task_id).config.max_episode_steps or None) == (
        gymnasium.spec(task_id).max_episode_steps
    )
    ours.close()


@pytest.mark.parametrize(
    ("task_id", "action", "message"),
    [
        ("phys2d/CartPole-v0", [2, 0], "action 2 for env 0 is out of range"),
        ("phys2d/CartPole-v1", [0, -1], "action -1 for env 1 is out of range"),
        ("tabular/Blackjack-v0", [0, 2], "action 2 for env 1 is out of range"),
        ("tabular/CliffWalking-v0", [[4], [0]], "action 4 .* out of range: .* integers 0 .. 3"),
        ("tabular/CliffWalking-v0", [[0], [-1]], "action -1 .* out of range"),
        ("tabular/CliffWalking-v0", [[1.5], [0]], "action 1.5 .* out of range"),
        ("phys2d/Pendulum-v0", [[np.nan], [0.0]], "not finite"),
        ("phys2d/Pendulum-v0", [[0.0], [np.inf]], "not finite"),
    ],
)
def test_jax_ids_refuse_bad_actions(task_id: str, action: list, message: str) -> None:
    env = envpool.make_gymnasium(task_id, num_envs=2)
    env.reset()
    with pytest.raises(ValueError, match=message):
        env.step(np.array(action))
    env.close()


def test_namespaced_ids_are_not_in_gymnasiums_registry_under_envpool() -> None:
    """gymnasium's ids have one namespace at most: envpool/phys2d/CartPole-v0 is not one, so
    these ids are made with envpool.make_gymnasium only."""
    assert "envpool/CartPole-v1" in gymnasium.registry
    assert not [k for k in gymnasium.registry if k.startswith(("envpool/phys2d", "envpool/tab"))]


@pytest.mark.parametrize(
    "task_id",
    [
        "phys2d/CartPole-v0",
        "phys2d/Pendulum-v0",
        "tabular/Blackjack-v0",
    ],
)
def test_jax_ids_reset_like_gymnasium_for_many_seeds(task_id: str) -> None:
    """Env i of a pool made with seed s, or reset with seed s, starts where gymnasium's
    reset(seed=s + i) does: 64 seeds from make, then 4 across 2**32 (jax keeps the low 32
    bits of a seed: PRNGKey(2**32 + 1) is PRNGKey(1))."""
    ours = envpool.make_gymnasium(task_id, num_envs=64, seed=1000)
    ref = make_ref(task_id)
    obs, _ = ours.reset()
    for i in range(64):
        assert _same(obs[i], ref.reset(seed=1000 + i)[0]), (task_id, i)
    obs, _ = ours.reset(seed=2**32 - 2)
    for i in range(4):
        assert _same(obs[i], ref.reset(seed=2**32 - 2 + i)[0]), (task_id, i)
        if task_id == "tabular/Blackjack-v0":  # the cards, not only the sums shown
            state = ref.unwrapped.state
            cards = np.concatenate([state.player_hand, state.dealer_hand])
            assert ours.get_state(i)[2:44] == cards.tolist(), (task_id, i)
    ours.close()


# States random play seldom reaches, set into both: thresholds exactly and one float32 step
# beyond, large angles and rates (sin / cos / fmod far from 0, th + pi < 0).
_F = np.float32
_EDGE = {
    "phys2d/CartPole-v0": [
        [2.4, 0.0, 0.0, 0.0],
        [np.nextafter(_F(2.4), _F(3)), 0.0, 0.0, 0.0],
        [-2.4, -1e-3, 0.2094395, 0.0],
        [0.0, 0.0, -0.2094395, -1e-3],
        [0.0, 50.0, 3.0, -40.0],
        [-1e3, 1e4, -1e4, 1e5],
    ],
    "phys2d/Pendulum-v0": [
        [np.pi, 0.0],
        [-np.pi, 8.0],
        [-4.0, -8.0],
        [-1e4, 3.0],
        [1e6, -0.5],
        [123.456, 7.99],
    ],
}


@pytest.mark.parametrize("task_id", sorted(_EDGE))
def test_phys2d_edge_states(task_id: str) -> None:
    import jax
    import jax.numpy as jnp

    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=SEED)
    ref = make_ref(task_id)
    ref.reset(seed=SEED)
    for k, state in enumerate(_EDGE[task_id]):
        for action in (0, 1) if "CartPole" in task_id else (-2.0, 0.7):
            ours.reset()
            ref.reset()
            ref.unwrapped.state = jnp.asarray(state, dtype=jnp.float32)
            key = [float(x) for x in np.asarray(jax.random.key_data(ref.unwrapped.rng))]
            ours.set_state(0, [float(_F(x)) for x in state] + key)
            a = action if "CartPole" in task_id else np.array([action], np.float32)
            obs, rew, term, _, _ = ours.step(np.array([a]))
            r_obs, r_rew, r_term, _, _ = ref.step(a)
            where = (task_id, k, state, action)
            assert _same(obs[0], r_obs), (where, obs[0], r_obs)
            assert float(rew[0]) == r_rew and bool(term[0]) == r_term, (where, rew, r_rew)
    ours.close()


def test_phys2d_without_fma_as_xla_without_fma() -> None:
    """XLA contracts a product feeding a sum into one fused multiply-add only where it may
    use FMA instructions; elsewhere (an x86-64 CPU without FMA, or XLA_FLAGS'
    --xla_cpu_max_isa below AVX2) each rounds apart, and so do the phys2d envs here
    (xla_uses_fma). The phys2d tests above, run again in a process whose XLA and pool both
    stop at AVX: bitwise again, on other numbers (the second test shows they differ)."""
    from envpool.tasks.classic_control import xla_uses_fma

    probe = ("import envpool, numpy as np; e = envpool.make_gymnasium('phys2d/Pendulum-v0', "
             "seed=1); e.reset(); a = np.array([[1.5]], np.float32); "
             "print(b''.join(e.step(a)[0].tobytes() for _ in range(30)).hex())")
    assert rerun_without_fma(__file__, "phys2d and not without_fma", probe) == xla_uses_fma()
