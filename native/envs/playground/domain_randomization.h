// MuJoCo Playground's domain randomisation (playground 0.2.0): the robots' `domain_randomize(
// model, rng)` (locomotion/go1, berkeley_humanoid, g1, t1/randomize.py; manipulation/leap_hand
// rotate_z.py and reorient.py, aero_hand/rotate_z.py), which the package's training applies
// per env through brax's wrapper, restated over a native model.
//
// - When: once per env seed. brax's ppo.train calls the randomiser once, in
//   BraxDomainRandomizationVmapWrapper.__init__, with `split(key_env, num_envs)`, the keys
//   that also seed the envs' resets; every reset and step of env i then runs on model i. Here
//   env i of a pool seeded s draws its model from key PRNGKey(s + i) (the root of its reset
//   key chain, as brax's env key is both) when it is seeded: at creation and at a
//   reset(seed=...), never at a plain reset.
// - How: the package's draws in its order (`rng, key = split(rng)` per step,
//   `rng, key1, key2 = split(rng, 3)` for the cube's inertia and centre of mass), each
//   jax.random.uniform bit for bit (jax_random.h), and its float32 arithmetic on MJX's model
//   (float32 arrays): an entry it changes is float32(entry) op u, rounded once, then
//   stored in the float64 model (exactly). Entries it leaves alone keep their float64 values,
//   as without randomisation. Derived constants (body_subtreemass, dof_invweight0, ...) stay
//   the unrandomised model's, as the package leaves MJX's model's.
// - The package's quirks are kept: the hands' "cube mass" draw scales the cube's inertia only
//   (LEAP never sets the mass; Aero sets it, then overwrites body_mass from the unrandomised
//   model); Aero's cube friction draw is overwritten by the fingertips' (which use its key).
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/env.h"
#include "core/spec.h"
#include "envs/common/jax_random.h"
#include "envs/common/keywords.h"
#include "envs/common/mujoco_env.h"

namespace envpool::playground::dr {

using Range = std::pair<double, double>;

// The robots with a randomiser in the package.
enum class Robot { kGo1, kBerkeleyHumanoid, kG1, kT1, kLeapHand, kAeroHand };

// A model array the randomiser returns (its in_axes): the mjModel member, the count member
// and the numbers per element.
struct Field {
  const char* name;
  mjtNum* mjModel::*array;
  mjtSize mjModel::*count;
  int width;
};

inline const Field kGeomFriction{"geom_friction", &mjModel::geom_friction, &mjModel::ngeom, 3};
inline const Field kPairFriction{"pair_friction", &mjModel::pair_friction, &mjModel::npair,
                                 mjNREF + 3};
inline const Field kFrictionloss{"dof_frictionloss", &mjModel::dof_frictionloss, &mjModel::nv,
                                 1};
inline const Field kArmature{"dof_armature", &mjModel::dof_armature, &mjModel::nv, 1};
inline const Field kDamping{"dof_damping", &mjModel::dof_damping, &mjModel::nv, 1};
inline const Field kBodyIpos{"body_ipos", &mjModel::body_ipos, &mjModel::nbody, 3};
inline const Field kBodyMass{"body_mass", &mjModel::body_mass, &mjModel::nbody, 1};
inline const Field kBodyInertia{"body_inertia", &mjModel::body_inertia, &mjModel::nbody, 3};
inline const Field kQpos0{"qpos0", &mjModel::qpos0, &mjModel::nq, 1};
inline const Field kGainprm{"actuator_gainprm", &mjModel::actuator_gainprm, &mjModel::nu,
                            mjNGAIN};
inline const Field kBiasprm{"actuator_biasprm", &mjModel::actuator_biasprm, &mjModel::nu,
                            mjNBIAS};

// What one draw does to its entries (flat indices into the field): kSet puts u there, kScale
// multiplies, kAdd adds; "shared": one u (a scalar or shape-(1,) draw) for every entry,
// else u[i] for the i-th entry. kKp scales actuator_gainprm[:, 0] and sets
// actuator_biasprm[:, 1] to minus the result.
enum class Op { kSetShared, kScaleShared, kScale, kAddShared, kAdd, kKp };

struct Settings;

struct Draw {
  const Field* field;
  Op op;
  std::vector<int> entries;
  Range Settings::*range;  // the keyword of its range
};

// The keywords (a task's Params derives from Settings), and the plan drawn from them.
struct Settings {
  bool domain_randomization = false;
  Range dr_floor_friction, dr_fingertip_friction, dr_frictionloss_scale, dr_armature_scale,
      dr_com_offset, dr_body_mass_scale, dr_torso_mass_offset, dr_qpos0_offset, dr_kp_scale,
      dr_damping_scale, dr_cube_inertia_scale;

  // One step of the package's key chain: its draws take keys 1, 2, ... of split(rng, 1 + n)
  // and rng becomes key 0.
  struct Step {
    std::vector<Draw> draws;
  };
  std::vector<Step> plan;
  std::vector<const Field*> fields;  // the fields drawn, in order of first use
};

// The keywords of `robot`'s randomiser with the package's ranges, on a Params derived from
// Settings.
template <class P>
void AddKeywords(Keywords<P>& k, Robot robot) {
  const bool loco = robot == Robot::kGo1 || robot == Robot::kBerkeleyHumanoid ||
                    robot == Robot::kG1 || robot == Robot::kT1;
  const bool hand = !loco;
  const bool t1 = robot == Robot::kT1, g1 = robot == Robot::kG1;
  k.Add("domain_randomization", false, &P::domain_randomization);
  k.Add("dr_floor_friction", t1 ? Range{0.2, 0.6} : Range{0.4, 1.0}, &P::dr_floor_friction, loco)
      .AtLeast(0)
      .Ordered();
  k.Add("dr_fingertip_friction", Range{0.5, 1.0}, &P::dr_fingertip_friction, hand)
      .AtLeast(0)
      .Ordered();
  k.Add("dr_frictionloss_scale", g1 || hand ? Range{0.5, 2.0} : Range{0.9, 1.1},
        &P::dr_frictionloss_scale)
      .AtLeast(0)
      .Ordered();
  k.Add("dr_armature_scale", Range{1.0, 1.05}, &P::dr_armature_scale).AtLeast(0).Ordered();
  k.Add("dr_com_offset", hand ? Range{-5e-3, 5e-3} : Range{-0.05, 0.05}, &P::dr_com_offset,
        robot == Robot::kGo1 || hand)
      .Ordered();
  k.Add("dr_body_mass_scale", t1 ? Range{0.98, 1.02} : Range{0.9, 1.1}, &P::dr_body_mass_scale)
      .AtLeast(0)
      .Ordered();
  k.Add("dr_torso_mass_offset", Range{-1.0, 1.0}, &P::dr_torso_mass_offset, loco).Ordered();
  k.Add("dr_qpos0_offset", Range{-0.05, 0.05}, &P::dr_qpos0_offset).Ordered();
  k.Add("dr_kp_scale", hand ? Range{0.8, 1.2} : Range{0.9, 1.1}, &P::dr_kp_scale, t1 || hand)
      .AtLeast(0)
      .Ordered();
  k.Add("dr_damping_scale", hand ? Range{0.8, 1.2} : Range{0.5, 2.0}, &P::dr_damping_scale,
        t1 || hand)
      .AtLeast(0)
      .Ordered();
  k.Add("dr_cube_inertia_scale", Range{0.8, 1.2}, &P::dr_cube_inertia_scale, hand)
      .Above(0)
      .Ordered();
}

// The hands' randomised bodies (their randomiser's hand_body_names).
inline const std::vector<std::string> kLeapHandBodies = {
    "palm",  "if_bs", "if_px", "if_md", "if_ds", "mf_bs", "mf_px", "mf_md", "mf_ds",
    "rf_bs", "rf_px", "rf_md", "rf_ds", "th_mp", "th_bs", "th_px", "th_ds"};
inline const std::vector<std::string> kAeroHandBodies = {
    "palm",
    "right_index_f_link",        "right_index_proximal_link",  "right_index_middle_link",
    "right_index_distal_link",   "right_middle_f_link",        "right_middle_proximal_link",
    "right_middle_middle_link",  "right_middle_distal_link",   "right_ring_f_link",
    "right_ring_proximal_link",  "right_ring_middle_link",     "right_ring_distal_link",
    "right_pinky_f_link",        "right_pinky_proximal_link",  "right_pinky_middle_link",
    "right_pinky_distal_link",   "right_t_link",               "right_thumb_mcp_link",
    "right_thumb_proximal_link", "right_thumb_distal_link"};

namespace detail {

inline std::vector<int> Iota(int first, mjtSize end) {
  std::vector<int> v;
  for (int i = first; i < end; ++i) v.push_back(i);
  return v;
}

inline int Id(const mjModel* m, mjtObj type, const std::string& name) {
  const int i = mj_name2id(m, type, name.c_str());
  if (i < 0) throw std::invalid_argument("the model has no " + name);
  return i;
}

}  // namespace detail

// The package's draws for `robot` on model `m` (its ids, as randomize.py hard-codes them or
// looks them up by name), into s.plan. The hands' joints and fingertip geoms are named by
// `joints` and `fingertips` (the package's JOINT_NAMES and fingertip_geoms).
inline void Plan(Settings& s, Robot robot, const mjModel* m,
                 const std::vector<std::string>& joints = {},
                 const std::vector<std::string>& fingertips = {}) {
  using detail::Iota;
  using S = Settings;
  s.plan.clear();
  s.fields.clear();
  auto step = [&s](std::vector<Draw> draws) { s.plan.push_back(S::Step{std::move(draws)}); };
  auto xyz = [](int body) { return std::vector<int>{3 * body, 3 * body + 1, 3 * body + 2}; };
  if (robot == Robot::kLeapHand || robot == Robot::kAeroHand) {
    std::vector<int> qids, tips, hand_bodies;
    for (const std::string& j : joints) {
      qids.push_back(m->jnt_qposadr[detail::Id(m, mjOBJ_JOINT, j)]);
    }
    for (const std::string& g : fingertips) tips.push_back(3 * detail::Id(m, mjOBJ_GEOM, g));
    for (const std::string& b : robot == Robot::kLeapHand ? kLeapHandBodies : kAeroHandBodies) {
      hand_bodies.push_back(detail::Id(m, mjOBJ_BODY, b));
    }
    const int cube = detail::Id(m, mjOBJ_BODY, "cube");
    // Fingertip friction (Aero: its cube friction's key; that draw is overwritten).
    step({{&kGeomFriction, Op::kSetShared, tips, &S::dr_fingertip_friction}});
    // rng, key1, key2 = split(rng, 3): the cube's inertia, then its centre of mass.
    step({{&kBodyInertia, Op::kScaleShared, xyz(cube), &S::dr_cube_inertia_scale},
          {&kBodyIpos, Op::kAdd, xyz(cube), &S::dr_com_offset}});
    step({{&kQpos0, Op::kAdd, qids, &S::dr_qpos0_offset}});
    // The package indexes the dof arrays with the joints' qpos addresses.
    step({{&kFrictionloss, Op::kScale, qids, &S::dr_frictionloss_scale}});
    step({{&kArmature, Op::kScale, qids, &S::dr_armature_scale}});
    step({{&kBodyMass, Op::kScale, hand_bodies, &S::dr_body_mass_scale}});
    step({{&kGainprm, Op::kKp, Iota(0, m->nu), &S::dr_kp_scale}});
    step({{&kDamping, Op::kScale, qids, &S::dr_damping_scale}});
  } else {
    // FLOOR_GEOM_ID = 0; TORSO_BODY_ID = 1 (G1: 16); the actuated dofs 6.. and qpos 7..
    const int torso = robot == Robot::kG1 ? 16 : 1;
    if (robot == Robot::kG1) {
      // pair_friction[0:2, 0:2]: the feet's floor pairs' sliding friction.
      std::vector<int> pairs;
      for (int p = 0; p < std::min<mjtSize>(2, m->npair); ++p) {
        pairs.push_back((mjNREF + 3) * p);
        pairs.push_back((mjNREF + 3) * p + 1);
      }
      step({{&kPairFriction, Op::kSetShared, pairs, &S::dr_floor_friction}});
    } else {
      step({{&kGeomFriction, Op::kSetShared, {0}, &S::dr_floor_friction}});
    }
    step({{&kFrictionloss, Op::kScale, Iota(6, m->nv), &S::dr_frictionloss_scale}});
    step({{&kArmature, Op::kScale, Iota(6, m->nv), &S::dr_armature_scale}});
    if (robot == Robot::kGo1) step({{&kBodyIpos, Op::kAdd, xyz(torso), &S::dr_com_offset}});
    step({{&kBodyMass, Op::kScale, Iota(0, m->nbody), &S::dr_body_mass_scale}});
    step({{&kBodyMass, Op::kAddShared, {torso}, &S::dr_torso_mass_offset}});
    step({{&kQpos0, Op::kAdd, Iota(7, m->nq), &S::dr_qpos0_offset}});
    if (robot == Robot::kT1) {
      step({{&kGainprm, Op::kKp, Iota(0, m->nu), &S::dr_kp_scale}});
      // ANKLE_JOINT_IDS = [21, 22, 27, 28], used as dof indices.
      step({{&kDamping, Op::kScale, {21, 22, 27, 28}, &S::dr_damping_scale}});
    }
    // The torso must keep a positive mass.
    const double lowest = m->body_mass[torso] * s.dr_body_mass_scale.first +
                          s.dr_torso_mass_offset.first;
    if (s.domain_randomization && !(lowest > 0)) {
      throw std::invalid_argument(
          "dr_torso_mass_offset's low end would leave the torso a mass of " +
          std::to_string(lowest) + " kg: it must stay above 0");
    }
  }
  for (const S::Step& st : s.plan) {
    for (const Draw& d : st.draws) {
      for (int e : d.entries) {
        if (e < 0 || e >= m->*(d.field->count) * d.field->width) {
          throw std::invalid_argument(std::string("the model is too small for the package's "
                                                  "randomisation of ") +
                                      d.field->name);
        }
      }
      auto add = [&s](const Field* f) {
        if (std::find(s.fields.begin(), s.fields.end(), f) == s.fields.end()) {
          s.fields.push_back(f);
        }
      };
      add(d.field);
      if (d.op == Op::kKp) add(&kBiasprm);
    }
  }
}

// Writes into `m` (a copy of `base` of the same sizes) the package's domain_randomize(model,
// key) for one env: the drawn fields reset to base's, then the plan's draws.
inline void Apply(const Settings& s, const mjModel* base, const jax_random::Key& key,
                  bool fused, mjModel* m) {
  namespace jr = jax_random;
  for (const Field* f : s.fields) {
    const mjtSize n = base->*(f->count) * f->width;
    std::copy(base->*(f->array), base->*(f->array) + n, m->*(f->array));
  }
  jr::Key rng = key;
  for (const Settings::Step& st : s.plan) {
    const jr::Key parent = rng;
    rng = jr::SplitAt(parent, 0);
    for (std::size_t k = 0; k < st.draws.size(); ++k) {
      const Draw& d = st.draws[k];
      const jr::Key sub = jr::SplitAt(parent, static_cast<std::uint32_t>(k + 1));
      const Range& r = s.*(d.range);
      const float lo = static_cast<float>(r.first), hi = static_cast<float>(r.second);
      mjtNum* a = m->*(d.field->array);
      for (std::size_t i = 0; i < d.entries.size(); ++i) {
        const bool shared = d.op == Op::kSetShared || d.op == Op::kScaleShared ||
                            d.op == Op::kAddShared;
        const float u = jr::UniformF32(sub, shared ? 0U : static_cast<std::uint32_t>(i), lo, hi,
                                       fused);
        const int e = d.entries[i];
        // MJX's float32 value of the entry (exact where an earlier draw wrote it).
        const float x = static_cast<float>(a[e]);
        switch (d.op) {
          case Op::kSetShared: a[e] = u; break;
          case Op::kScaleShared:
          case Op::kScale: a[e] = x * u; break;
          case Op::kAddShared:
          case Op::kAdd: a[e] = x + u; break;
          case Op::kKp: {
            const float kp = static_cast<float>(a[mjNGAIN * e]) * u;
            a[mjNGAIN * e] = kp;
            m->actuator_biasprm[mjNBIAS * e + 1] = -kp;
            break;
          }
        }
      }
    }
  }
}

// The info arrays of a randomising pool: "dr_<field>" with the env's whole model field (the
// package's name and shape), for the fields the randomiser draws.
inline void AddInfo(const Settings& s, const mjModel* m, EnvSpec& spec) {
  if (!s.domain_randomization) return;
  for (const Field* f : s.fields) {
    std::vector<std::int64_t> shape = {m->*(f->count)};
    if (f->width > 1) shape.push_back(f->width);
    spec.info.push_back(BoxSpec(std::string("dr_") + f->name, DType::kFloat64, shape));
  }
}

inline void WriteInfo(const Settings& s, const mjModel* m, const Slot& slot,
                      std::size_t first) {
  if (!s.domain_randomization) return;
  for (std::size_t k = 0; k < s.fields.size(); ++k) {
    const Field* f = s.fields[k];
    const mjtSize n = m->*(f->count) * f->width;
    std::copy(m->*(f->array), m->*(f->array) + n, slot.Info<double>(first + k));
  }
}

// An env's randomised model: its own copy of the shared model, drawn anew at each seed.
class RandomizedModel {
 public:
  // Env::Seed: with randomisation on, points `model` / `m` (the MujocoEnv's) at this env's
  // copy, drawn from PRNGKey(seed).
  void Seed(const Settings& s, const mjModel* base, std::uint64_t seed, bool fused,
            mujoco::ModelPtr& model, const mjModel*& m) {
    if (!s.domain_randomization) return;
    if (own_ == nullptr) {
      mjModel* copy = mj_copyModel(nullptr, base);
      if (copy == nullptr) throw std::runtime_error("MuJoCo could not copy the model");
      model = mujoco::ModelPtr(copy, mujoco::ModelDeleter());
      own_ = copy;
      m = copy;
    }
    Apply(s, base, jax_random::PrngKey(seed), fused, own_);
  }

 private:
  mjModel* own_ = nullptr;  // owned by the env's ModelPtr
};

}  // namespace envpool::playground::dr
