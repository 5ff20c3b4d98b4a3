"""Alignment of the Box2D envs (LunarLander, BipedalWalker) with gymnasium's, step by step.

Both sides run Box2D's C++ engine from the same sources (ours: box2d-py 2.3.8's, built by
native/third_party/build_box2d.py; gymnasium's: the ``box2d`` 2.3.10 wheel), and ours
draws from numpy's default_rng(seed) reproduced in C++, so nothing is copied between the
two: our env with seed s and ``gymnasium.make(task_id)`` reset with seed s start in the
same state, and under the same actions every observation must be bitwise equal, every
reward equal to gymnasium's rounded to float32 (the pool's reward dtype), and the episode
ends the same. No tolerance anywhere. Later episodes continue the seeded generator on both
sides (our autoreset, gymnasium's reset() without a seed).

The actions mix uniform random ones with gymnasium's own ``heuristic`` pilot (mostly the
pilot in one episode, all random in the next), so that the episodes end every way
LunarLander ends: crashes and flights out of the screen (reward -100), landings that put
the lander to sleep (+100, with leg contacts and the shaping's +10 per leg on the way), and
the time limit.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.envs.box2d.lunar_lander import heuristic

import envpool

IDS = ["LunarLander-v3", "LunarLanderContinuous-v3", "LunarLander-v2",
       "LunarLanderContinuous-v2"]


def _reference(task_id: str, **kwargs: Any) -> gymnasium.Env:
    """gymnasium's env for ``task_id`` (its v3: gymnasium 1.x has no v2, and sail-sg
    EnvPool registers v2 as the v3 env)."""
    return gymnasium.make(task_id.replace("-v2", "-v3"), **kwargs)


def _action(ref: gymnasium.Env, obs: np.ndarray, rng: np.random.Generator,
            pilot: float) -> Any:
    """gymnasium's heuristic with probability ``pilot``, else a uniform random action;
    float32 for the continuous task (its action space's dtype)."""
    env = ref.unwrapped
    if rng.random() < pilot:
        a = heuristic(env, obs)
    elif env.continuous:
        a = rng.uniform(-1.0, 1.0, 2)
    else:
        a = int(rng.integers(0, 4))
    return np.asarray(a, dtype=np.float32) if env.continuous else int(a)


def _lockstep(task_id: str, steps: int, seed: int, pilots: tuple[float, ...],
              max_episode_steps: int | None = None, **kwargs: Any) -> dict[str, int]:
    limit = {} if max_episode_steps is None else {"max_episode_steps": max_episode_steps}
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=seed, **limit, **kwargs)
    ref = _reference(task_id, **limit, **kwargs)
    obs, _ = ours.reset()
    r_obs, _ = ref.reset(seed=seed)
    assert np.array_equal(obs[0], r_obs)
    rng = np.random.default_rng(seed)
    seen = {"crash": 0, "landed": 0, "truncated": 0, "leg_contact": 0}
    episodes = 0
    for t in range(steps):
        a = _action(ref, r_obs, rng, pilots[episodes % len(pilots)])
        obs, rew, term, trunc, _ = ours.step(np.array([a]))
        r_obs, r_rew, r_term, r_trunc, _ = ref.step(a)
        where = f"{task_id} {kwargs} step {t}"
        assert np.array_equal(obs[0], r_obs), (where, obs[0], r_obs)
        assert rew[0] == np.float32(r_rew), (where, rew[0], r_rew)
        assert (term[0], trunc[0]) == (r_term, r_trunc), where
        seen["leg_contact"] += int(r_obs[6] or r_obs[7])
        if r_term or r_trunc:
            seen["crash" if r_rew == -100 else "landed" if r_rew == 100 else "truncated"] += 1
            episodes += 1
            obs, *_ = ours.step(np.array([a]))  # our autoreset step
            r_obs, _ = ref.reset()
            assert np.array_equal(obs[0], r_obs), (where, "reset")
    ours.close()
    ref.close()
    return seen


@pytest.mark.parametrize("task_id", IDS)
def test_lunar_lander_matches_gymnasium(task_id: str) -> None:
    seen = _lockstep(task_id, 2500, seed=7, pilots=(0.95, 0.0))
    assert seen["crash"] and seen["landed"] and seen["leg_contact"], seen


@pytest.mark.parametrize("task_id", ["LunarLander-v3", "LunarLanderContinuous-v3"])
def test_lunar_lander_keywords_match_gymnasium(task_id: str) -> None:
    """Wind and turbulence (their offsets drawn with Generator.integers), another gravity,
    and a short time limit, so that episodes are also truncated."""
    seen = _lockstep(task_id, 1200, seed=11, pilots=(0.9,), max_episode_steps=150,
                     gravity=-7.5, enable_wind=True, wind_power=18.0, turbulence_power=1.9)
    assert seen["truncated"] and seen["leg_contact"], seen


@pytest.mark.parametrize("task_id", ["LunarLander-v3", "LunarLanderContinuous-v3"])
def test_lunar_lander_reset_is_gymnasiums_for_the_same_seed(task_id: str) -> None:
    """Env i of a pool made with seed s is gymnasium's env reset with seed s + i: the same
    first observation, bit for bit (the terrain, the initial force and the first step's
    engine dispersion all come from the seeded generator)."""
    n = 64
    ours = envpool.make_gymnasium(task_id, num_envs=n, seed=1000, enable_wind=True)
    obs, _ = ours.reset()
    ref = _reference(task_id, enable_wind=True)
    expected = np.stack([ref.reset(seed=1000 + i)[0] for i in range(n)])
    assert np.array_equal(obs, expected)
    # reset(seed=...) reseeds both the same way.
    obs, _ = ours.reset(seed=5)
    assert np.array_equal(obs[1], ref.reset(seed=6)[0])
    ours.close()


def test_lunar_lander_per_env_keywords() -> None:
    """gravity (and the wind keywords) may differ between the envs of one pool."""
    ours = envpool.make_gymnasium("LunarLander-v3", num_envs=2, seed=3,
                                  env_kwargs=[{"gravity": -2.0}, {"gravity": -11.0}])
    ours.reset()
    for _ in range(20):
        obs, *_ = ours.step(np.array([0, 0]))
    refs = [_reference("LunarLander-v3", gravity=g) for g in (-2.0, -11.0)]
    for i, ref in enumerate(refs):
        ref.reset(seed=3 + i)
        for _ in range(20):
            r_obs, *_ = ref.step(0)
        assert np.array_equal(obs[i], r_obs)


def test_lunar_lander_bad_input() -> None:
    """A wrong action shape, a NaN, an action out of range: a ValueError naming the
    problem, and the pool steps on afterwards as if the bad call never happened."""
    disc = envpool.make_gymnasium("LunarLander-v3", num_envs=2, seed=0)
    cont = envpool.make_gymnasium("LunarLanderContinuous-v3", num_envs=2, seed=0)
    disc.reset()
    cont.reset()
    bad_calls = [
        (disc, np.array([0, 4]), "out of range"),
        (disc, np.array([-1, 0]), "out of range"),
        (disc, np.array([0, 1, 2]), "shape"),
        (cont, np.array([[0.0, np.nan], [0.0, 0.0]], dtype=np.float32), "not finite"),
        (cont, np.array([[np.inf, 0.0], [0.0, 0.0]], dtype=np.float32), "not finite"),
        (cont, np.zeros((2, 3), dtype=np.float32), "shape"),
    ]
    for pool, action, message in bad_calls:
        with pytest.raises(ValueError, match=message):
            pool.step(action)
    ref = _reference("LunarLanderContinuous-v3")
    r_obs, _ = ref.reset(seed=0)
    obs, *_ = cont.step(np.array([[0.5, -0.7], [0.0, 0.0]], dtype=np.float32))
    r_obs, *_ = ref.step(np.array([0.5, -0.7], dtype=np.float32))
    assert np.array_equal(obs[0], r_obs)
    obs, *_ = disc.step(np.array([2, 3]))
    assert obs.shape == (2, 8)
    with pytest.raises(ValueError, match="gravity"):
        envpool.make_gymnasium("LunarLander-v3", gravity=-13.0)


def test_lunar_lander_threads_do_not_matter() -> None:
    """Each env steps its own world, on whichever thread: the same seeds give the same
    trajectories with 1 thread and with 4 (the Box2D state shared between worlds is made
    per thread or filled once at build time: native/third_party/build_box2d.py)."""
    runs = []
    for threads in (1, 4):
        pool = envpool.make_gymnasium("LunarLanderContinuous-v3", num_envs=8, seed=21,
                                      num_threads=threads)
        obs = [pool.reset()[0]]
        actions = np.random.default_rng(0).uniform(-1, 1, (300, 8, 2)).astype(np.float32)
        for a in actions:
            obs.append(pool.step(a)[0])
        pool.close()
        runs.append(np.stack(obs))
    assert np.array_equal(runs[0], runs[1])


@pytest.mark.parametrize("task_id", ["LunarLander-v3", "LunarLanderContinuous-v3"])
def test_lunar_lander_frames_equal_gymnasium(task_id: str) -> None:
    """``render_mode="rgb_array"``: gymnasium's pygame picture, bit for bit (the filled and
    anti-aliased terrain, hull, legs and flags, and the engines' flame particles, which
    both sides then simulate and age in render()). Drawn at the reset, every third step and
    at a stretch of steps left undrawn (the particles pile up, as in gymnasium); the
    observations stay gymnasium's with the particles in the world."""
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=4, render_mode="rgb_array")
    ref = gymnasium.make(task_id, render_mode="rgb_array")
    ours.reset()
    r_obs, _ = ref.reset(seed=4)
    assert np.array_equal(ours.render()[0], ref.render())
    rng = np.random.default_rng(4)
    most_particles = frames = 0
    for t in range(360):
        a = _action(ref, r_obs, rng, 0.8)
        obs, *_ = ours.step(np.array([a]))
        r_obs, _, r_term, r_trunc, _ = ref.step(a)
        assert np.array_equal(obs[0], r_obs), t
        if t % 3 == 0 and not 150 <= t < 200:
            most_particles = max(most_particles, len(ref.unwrapped.particles))
            assert np.array_equal(ours.render()[0], ref.render()), t
            frames += 1
        if r_term or r_trunc:
            ours.step(np.array([a]))
            r_obs, _ = ref.reset()
    assert frames > 90 and most_particles > 10, (frames, most_particles)
    ours.close()
    ref.close()


def test_lunar_lander_state_info_is_gymnasiums() -> None:
    """The info keys sail-sg EnvPool's test build writes (its alignment test rebuilds
    gymnasium's world from them) hold gymnasium's values, in float32: the sky polygons, the
    bodies' states, the legs' contacts, the shaping, game_over, the initial force and the
    last step's dispersion draws."""
    ours = envpool.make_gymnasium("LunarLander-v3", num_envs=1, seed=9)
    ref = _reference("LunarLander-v3")
    base = ref.unwrapped
    _, info = ours.reset()
    r_obs, _ = ref.reset(seed=9)
    f32 = np.float32
    assert np.array_equal(info["sky_polys"][0], np.array(base.sky_polys, dtype=f32))
    seeded = np.random.default_rng(9)  # gymnasium's reset: 12 terrain heights, then the force
    seeded.uniform(0, 400 / 30 / 2, size=(12,))
    force = [seeded.uniform(-1000.0, 1000.0) for _ in range(2)]
    assert np.array_equal(info["initial_force"][0], np.array(force, dtype=f32))
    draws: list[float] = []

    class Recording:  # gymnasium's generator, its uniform draws noted
        def __init__(self, generator: np.random.Generator) -> None:
            self.generator = generator

        def uniform(self, *args: Any, **kwargs: Any) -> Any:
            out = self.generator.uniform(*args, **kwargs)
            draws.append(out)
            return out

        def __getattr__(self, name: str) -> Any:
            return getattr(self.generator, name)

    base._np_random = Recording(base.np_random)
    rng = np.random.default_rng(9)
    for t in range(200):
        draws.clear()
        a = _action(ref, r_obs, rng, 0.9)
        _, _, _, _, info = ours.step(np.array([a]))
        r_obs, _, r_term, _, _ = ref.step(a)
        bodies = [base.lander, *base.legs]
        states = [[b.position[0], b.position[1], b.angle, b.linearVelocity[0],
                   b.linearVelocity[1], b.angularVelocity, float(b.awake)] for b in bodies]
        assert np.array_equal(info["lander_state"][0], np.array(states[0], dtype=f32)), t
        assert np.array_equal(info["leg_states"][0], np.array(states[1:], dtype=f32)), t
        contacts = [float(leg.ground_contact) for leg in base.legs]
        assert np.array_equal(info["ground_contact"][0], np.array(contacts, dtype=f32)), t
        assert info["prev_shaping"][0] == f32(base.prev_shaping), t
        assert info["game_over"][0] == f32(base.game_over), t
        assert np.array_equal(info["last_dispersion"][0], np.array(draws, dtype=f32)), t
        if r_term:
            break
    assert t > 50, t


# BipedalWalker-v3 and BipedalWalkerHardcore-v3: gymnasium's env beside ours, no state copied
# between them. Both sides build their terrain from the seeded generator, so our env with
# seed s and gymnasium's reset with seed s walk on the same ground: the lidar (the last ten
# observations) sees it, the legs' contacts and the falls follow from it. Observations,
# rewards (gymnasium's are numpy float32 after the torque cost), terminated and truncated
# must be bitwise equal, through autoresets (both continue the seeded generator).

BW_IDS = ["BipedalWalker-v3", "BipedalWalkerHardcore-v3"]


def _bw_kinds(ref: gymnasium.Env, reach: float) -> set[str]:
    """The kinds of gymnasium's hardcore obstacles (its static polygons) that start before
    ``reach`` (the farthest x the walker's lidar got to): a pit's wall is 1 x 4 steps, a
    stump 1 x 1 or 2 x 2, a stair 4 x 1."""
    step = 14 / 30.0
    kinds = set()
    for body in ref.unwrapped.terrain:
        vertices = body.fixtures[0].shape.vertices
        if len(vertices) != 4:
            continue  # an edge of the ground
        xs, ys = [v[0] for v in vertices], [v[1] for v in vertices]
        if min(xs) > reach:
            continue
        w, h = round((max(xs) - min(xs)) / step), round((max(ys) - min(ys)) / step)
        kinds.add({(1, 4): "pit", (4, 1): "stairs"}.get((w, h), "stump"))
    return kinds


def _bw_lockstep(task_id: str, seed: int, steps: int, policy: str,
                 **kwargs: Any) -> dict[str, Any]:
    """Runs ours and gymnasium's ``task_id`` side by side for ``steps`` steps under
    ``policy``: "random" (every other episode, from the first, hips pushed forward, uniform
    in [0.5, 1.5] (clipped by gymnasium above 1), the others uniform in [-1.25, 1.25], both
    beyond [-1, 1] at times) or "heuristic" (gymnasium's BipedalWalkerHeuristics, a new
    one each episode)."""
    from gymnasium.envs.box2d.bipedal_walker import BipedalWalkerHeuristics

    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=seed, **kwargs)
    ref = gymnasium.make(task_id, **kwargs)
    obs, _ = ours.reset()
    r_obs, _ = ref.reset(seed=seed)
    assert np.array_equal(obs[0], r_obs)
    rng = np.random.default_rng(seed)
    pilot = BipedalWalkerHeuristics()
    seen: dict[str, Any] = {"fall": 0, "end": 0, "truncated": 0, "clipped": 0, "contact": 0,
                            "kinds": set()}
    reach = 0.0
    episodes = 0
    for t in range(steps):
        if policy == "random" and episodes % 2 == 0:  # falls in 40 to 110 steps
            a = (rng.uniform(-0.5, 0.5, 4) + [1.0, 0.0, 1.0, 0.0]).astype(np.float32)
        elif policy == "random":
            a = rng.uniform(-1.25, 1.25, 4).astype(np.float32)
        else:
            a = np.asarray(pilot.step_heuristic(r_obs), dtype=np.float32)
        seen["clipped"] += int(np.any(np.abs(a) > 1))
        obs, rew, term, trunc, _ = ours.step(a[None])
        r_obs, r_rew, r_term, r_trunc, _ = ref.step(a)
        where = f"{task_id} {kwargs} seed {seed} step {t}"
        np.testing.assert_array_equal(obs[0], r_obs, err_msg=where)
        assert rew[0] == np.float32(r_rew), (where, rew[0], r_rew)
        assert (term[0], trunc[0]) == (r_term, r_trunc), where
        seen["contact"] += int(r_obs[8] or r_obs[13])
        reach = max(reach, ref.unwrapped.hull.position[0] + 160 / 30.0)
        if r_term or r_trunc:
            seen["fall" if r_rew == -100 else "end" if r_term else "truncated"] += 1
            seen["kinds"] |= _bw_kinds(ref, reach)
            reach = 0.0
            episodes += 1
            obs, *_ = ours.step(a[None])  # our autoreset step
            r_obs, _ = ref.reset()
            np.testing.assert_array_equal(obs[0], r_obs, err_msg=f"{where} reset")
            pilot = BipedalWalkerHeuristics()
    seen["kinds"] |= _bw_kinds(ref, reach)
    ours.close()
    ref.close()
    return seen


def test_bipedal_walker_spaces_and_limits_are_gymnasiums() -> None:
    """gymnasium's spaces (the observation's bounds exactly), time limits and threshold."""
    for task_id in BW_IDS:
        ours = envpool.make_gymnasium(task_id, num_envs=1)
        ref = gymnasium.make(task_id)
        assert ours.single_observation_space == ref.observation_space, task_id
        np.testing.assert_array_equal(ours.single_observation_space.low,
                                      ref.observation_space.low)
        np.testing.assert_array_equal(ours.single_observation_space.high,
                                      ref.observation_space.high)
        assert ours.single_action_space == ref.action_space, task_id
        ours_spec = envpool.make_spec(task_id)
        assert ours_spec.max_episode_steps == ref.spec.max_episode_steps, task_id
        assert ours_spec.reward_threshold == ref.spec.reward_threshold == 300, task_id
        ours.close()


@pytest.mark.parametrize("task_id", BW_IDS)
def test_bipedal_walker_reset_is_gymnasiums_for_the_same_seed(task_id: str) -> None:
    """Env i of a pool made with seed s is gymnasium's env reset with seed s + i: the same
    first observation, bit for bit (the terrain's start, the initial push)."""
    n = 24
    ours = envpool.make_gymnasium(task_id, num_envs=n, seed=1000)
    obs, _ = ours.reset()
    ref = gymnasium.make(task_id)
    expected = np.stack([ref.reset(seed=1000 + i)[0] for i in range(n)])
    np.testing.assert_array_equal(obs, expected)
    obs, _ = ours.reset(seed=5)
    np.testing.assert_array_equal(obs[1], ref.reset(seed=6)[0])
    ours.close()


@pytest.mark.parametrize("task_id", BW_IDS)
def test_bipedal_walker_random_actions_match_gymnasium(task_id: str) -> None:
    """Random torques (some beyond [-1, 1], which gymnasium clips), every other episode
    biased so that the walker falls forward: it falls (-100) again and again; every step
    bitwise, over the autoresets."""
    falls = clipped = contact = 0
    for seed in (0, 1, 2):
        seen = _bw_lockstep(task_id, seed, 350, "random")
        falls, clipped, contact = (falls + seen["fall"], clipped + seen["clipped"],
                                   contact + seen["contact"])
    assert falls >= 6 and clipped > 100 and contact > 50, (falls, clipped, contact)


def test_bipedal_walker_hardcore_obstacles_match_gymnasium() -> None:
    """gymnasium's heuristic pilot on the hardcore terrain: it walks into stumps, pits and
    stairs (and falls at some); every step bitwise."""
    kinds: set[str] = set()
    for seed in (0, 1, 3):
        seen = _bw_lockstep("BipedalWalkerHardcore-v3", seed, 500, "heuristic")
        kinds |= seen["kinds"]
        assert seen["fall"] >= 1, (seed, seen)
    assert kinds == {"stump", "pit", "stairs"}, kinds


def test_bipedal_walker_reaches_the_end_and_the_time_limit() -> None:
    """The heuristic pilot on BipedalWalker-v3 (seed 0) is still walking at gymnasium's
    limit, 1600 steps: truncated there; given 1700 it reaches the terrain's end
    (terminated, not -100). Every step bitwise."""
    seen = _bw_lockstep("BipedalWalker-v3", 0, 1600, "heuristic")
    assert (seen["truncated"], seen["fall"], seen["end"]) == (1, 0, 0), seen
    seen = _bw_lockstep("BipedalWalker-v3", 0, 1700, "heuristic", max_episode_steps=1700)
    assert (seen["end"], seen["fall"], seen["truncated"]) == (1, 0, 0), seen


def test_bipedal_walker_per_env_hardcore_and_short_limit() -> None:
    """hardcore may differ between the envs of one pool; a short max_episode_steps
    truncates as gymnasium's TimeLimit does; bad actions are refused without effect."""
    ours = envpool.make_gymnasium("BipedalWalker-v3", num_envs=2, seed=3, max_episode_steps=40,
                                  env_kwargs=[{"hardcore": False}, {"hardcore": True}])
    refs = [gymnasium.make("BipedalWalker-v3", hardcore=h, max_episode_steps=40)
            for h in (False, True)]
    obs, _ = ours.reset()
    r_obs = [ref.reset(seed=3 + i)[0] for i, ref in enumerate(refs)]
    np.testing.assert_array_equal(obs, np.stack(r_obs))
    # A NaN or a wrong shape is refused, and the envs step on as if it had not been sent.
    with pytest.raises(ValueError, match="not finite"):
        ours.step(np.array([[0.0, np.nan, 0.0, 0.0], [0.0] * 4], dtype=np.float32))
    with pytest.raises(ValueError, match="shape"):
        ours.step(np.zeros((2, 3), dtype=np.float32))
    actions = np.random.default_rng(3).uniform(-0.3, 0.3, (40, 2, 4)).astype(np.float32)
    for t, a in enumerate(actions):
        obs, rew, term, trunc, _ = ours.step(a)
        for i, ref in enumerate(refs):
            r_obs, r_rew, r_term, r_trunc, _ = ref.step(a[i])
            np.testing.assert_array_equal(obs[i], r_obs, err_msg=f"env {i} step {t}")
            assert (rew[i], term[i], trunc[i]) == (np.float32(r_rew), r_term, r_trunc), (i, t)
    assert trunc.all() and not term.any()
    ours.close()


def test_bipedal_walker_threads_do_not_matter() -> None:
    """Each env keeps its own world on whichever thread: the same seeds give the same
    trajectories (autoresets included) with 1 thread and with 4."""
    runs = []
    actions = np.random.default_rng(1).uniform(-1, 1, (200, 6, 4)).astype(np.float32)
    actions[:, :, 0] += 0.8  # hips forward: falls, then autoresets
    for threads in (1, 4):
        pool = envpool.make_gymnasium("BipedalWalkerHardcore-v3", num_envs=6, seed=8,
                                      num_threads=threads)
        out = [pool.reset()[0]]
        for a in actions:
            obs, rew, term, _, _ = pool.step(a)
            out += [obs, rew[:, None], term[:, None]]
        pool.close()
        runs.append(np.concatenate([o.reshape(6, -1) for o in out], axis=1))
        assert (runs[-1] == -100).any()  # a fall's reward: some episodes ended
    np.testing.assert_array_equal(runs[0], runs[1])


@pytest.mark.parametrize("task_id", BW_IDS)
def test_bipedal_walker_frames_equal_gymnasium(task_id: str) -> None:
    """``render_mode="rgb_array"``: gymnasium's pygame picture, bit for bit: the sky, the
    clouds and the terrain scrolled with the walker (the surface as wide as the scroll, its
    last 600 columns kept), the stumps, pits and stairs, the lidar ray (to the point it hit)
    that each render() moves on, the hull and legs, the flag. The heuristic pilot, drawn
    every tenth step, after a first episode of random torques that push the walker back
    left of its start (a negative scroll) until it falls, drawn every other step."""
    from gymnasium.envs.box2d.bipedal_walker import BipedalWalkerHeuristics

    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=1, render_mode="rgb_array")
    ref = gymnasium.make(task_id, render_mode="rgb_array")
    ours.reset()
    r_obs, _ = ref.reset(seed=1)
    np.testing.assert_array_equal(ours.render()[0], ref.render())
    pilot = BipedalWalkerHeuristics()
    rng = np.random.default_rng(1)
    resets = frames = 0
    least_scroll = 1.0
    for t in range(520):
        if resets == 0:  # the walker goes left of its start, and falls
            a = (rng.uniform(-1, 1, 4) + [-0.6, -0.6, 0.0, 0.6]).astype(np.float32)
        else:
            a = np.asarray(pilot.step_heuristic(r_obs), dtype=np.float32)
        obs, *_ = ours.step(a[None])
        r_obs, _, r_term, r_trunc, _ = ref.step(a)
        np.testing.assert_array_equal(obs[0], r_obs, err_msg=f"step {t}")
        least_scroll = min(least_scroll, ref.unwrapped.scroll)
        if t % 10 == 0 or (resets == 0 and t % 2 == 0):
            np.testing.assert_array_equal(ours.render()[0], ref.render(), err_msg=f"step {t}")
            frames += 1
        if r_term or r_trunc:
            resets += 1
            ours.step(a[None])
            r_obs, _ = ref.reset()
            pilot = BipedalWalkerHeuristics()
    assert frames > 80 and resets >= 1 and least_scroll < 0, (frames, resets, least_scroll)
    ours.close()
    ref.close()


# -- render_width / render_height: gymnasium's picture shrunk as pygame shrinks it ---------


def _smoothscaled(frame: np.ndarray, width: int, height: int) -> np.ndarray:
    """pygame.transform.smoothscale of an RGB frame (gymnasium's own way to a smaller
    picture: CarRacing's observation)."""
    import pygame

    surface = pygame.surfarray.make_surface(np.ascontiguousarray(frame.transpose(1, 0, 2)))
    small = pygame.transform.smoothscale(surface, (width, height))
    return np.asarray(pygame.surfarray.pixels3d(small)).transpose(1, 0, 2).copy()


@pytest.mark.parametrize("task_id", ["LunarLander-v3", "BipedalWalker-v3", "CarRacing-v3"])
@pytest.mark.parametrize("size", [(64, 48), (600, 200), (300, 400), (4, 3)])
def test_render_at_a_smaller_size_is_the_picture_smoothscaled(
        task_id: str, size: tuple[int, int]) -> None:
    """A smaller ``render_width`` x ``render_height`` is gymnasium's picture (this
    package's, bit for bit equal to it) shrunk by pygame's smoothscale, bitwise; a side of
    gymnasium's own length is kept as it is. Gymnasium draws the two pools' envs alike:
    the same seed gives the same picture at every step."""
    width, height = size
    full = envpool.make_gymnasium(task_id, num_envs=1, seed=2, render_mode="rgb_array")
    small = envpool.make_gymnasium(task_id, num_envs=2, seed=2, render_mode="rgb_array",
                                   render_width=width, render_height=height)
    full.reset()
    small.reset()
    action = np.zeros((1, *full.single_action_space.shape), full.single_action_space.dtype)
    for _ in range(3):
        frame = small.render(env_ids=[0])
        assert frame.shape == (1, height, width, 3) and frame.dtype == np.uint8
        np.testing.assert_array_equal(frame[0], _smoothscaled(full.render()[0], width, height))
        full.step(action)
        small.step(np.repeat(action, 2, axis=0))
    full.close()
    small.close()


@pytest.mark.parametrize("kwargs", [{"render_width": 601}, {"render_height": 401},
                                    {"render_width": 1200, "render_height": 800},
                                    {"render_width": 3}, {"render_height": 2}])
def test_render_larger_or_far_smaller_is_refused(kwargs: dict[str, int]) -> None:
    """Larger than gymnasium's picture, or a shrink by 200 or more (pygame's filter sums in
    16 bits): refused."""
    with pytest.raises(ValueError, match=r"render_height must be 3 to 400 and render_width 4 "
                                         r"to 600"):
        envpool.make_gymnasium("LunarLander-v3", render_mode="rgb_array", **kwargs)
