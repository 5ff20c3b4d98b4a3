// Humanoid-v4 / -v5: gymnasium/envs/mujoco/humanoid_v{4,5}.py.
#pragma once

#include <cmath>

#include <string>
#include <vector>

#include "envs/common/mujoco_env.h"

namespace envpool::mujoco {

// gymnasium's mass_center: np.einsum('b,bj->j', body_mass, xipos) (summed
// body by body) / body_mass.sum() (numpy's pairwise sum), x and y.
inline void MassCenter(const mjModel* m, const mjData* d, double* xy) {
  double num[3] = {0, 0, 0};
  for (int b = 0; b < m->nbody; ++b) {
    for (int j = 0; j < 3; ++j) num[j] += m->body_mass[b] * d->xipos[3 * b + j];
  }
  const double denom = NumpySum(m->body_mass, m->nbody);
  xy[0] = num[0] / denom;
  xy[1] = num[1] / denom;
}

// The humanoid observation: qpos[skip:], qvel, then (v4) cinert, cvel,
// qfrc_actuator, cfrc_ext of all bodies, or (v5) of bodies 1.. and
// qfrc_actuator[6:], each part optional.
struct HumanoidObs {
  int version;
  bool exclude_positions, cinert, cvel, qfrc_actuator, cfrc_ext;

  std::int64_t Size(const mjModel* m) const {
    const int first = version == 4 ? 0 : 1;
    std::int64_t n = m->nq + m->nv - (exclude_positions ? 2 : 0);
    if (cinert) n += 10 * (m->nbody - first);
    if (cvel) n += 6 * (m->nbody - first);
    if (qfrc_actuator) n += m->nv - (version == 4 ? 0 : 6);
    if (cfrc_ext) n += 6 * (m->nbody - first);
    return n;
  }
  void Write(const mjModel* m, const mjData* d, double* obs) const {
    const int first = version == 4 ? 0 : 1;
    double* o = obs;
    o = std::copy(d->qpos + (exclude_positions ? 2 : 0), d->qpos + m->nq, o);
    o = std::copy(d->qvel, d->qvel + m->nv, o);
    if (cinert) o = std::copy(d->cinert + 10 * first, d->cinert + 10 * m->nbody, o);
    if (cvel) o = std::copy(d->cvel + 6 * first, d->cvel + 6 * m->nbody, o);
    if (qfrc_actuator) {
      o = std::copy(d->qfrc_actuator + (version == 4 ? 0 : 6), d->qfrc_actuator + m->nv, o);
    }
    if (cfrc_ext) std::copy(d->cfrc_ext + 6 * first, d->cfrc_ext + 6 * m->nbody, o);
  }
};

// The v5 keywords that choose the observation's parts (v4 has every part).
template <class P>
void AddObservationKeywords(Keywords<P>& k, int version) {
  k.Add("include_cinert_in_observation", true, &P::cinert, version == 5);
  k.Add("include_cvel_in_observation", true, &P::cvel, version == 5);
  k.Add("include_qfrc_actuator_in_observation", true, &P::qfrc_actuator, version == 5);
  k.Add("include_cfrc_ext_in_observation", true, &P::cfrc_ext, version == 5);
}

// np.sum(np.square(x)) of n doubles.
inline double SumOfSquares(const double* x, int n) {
  std::vector<double> sq(n);
  for (int i = 0; i < n; ++i) sq[i] = x[i] * x[i];
  return NumpySum(sq.data(), n);
}

template <int V>
class Humanoid final : public MujocoEnv {
 public:
  struct Params : ModelParams {
    explicit Params(const Config& c) {
      ReadParams(Keys(), c, *this);
      obs = HumanoidObs{V, exclude_positions, cinert, cvel, qfrc_actuator, cfrc_ext};
    }
    int frame_skip;
    double forward_reward_weight, ctrl_cost_weight, contact_cost_weight;
    Range contact_cost_range;
    double healthy_reward;
    bool terminate_when_unhealthy;
    Range healthy_z_range;
    double reset_noise_scale;
    bool exclude_positions, cinert, cvel, qfrc_actuator, cfrc_ext;
    HumanoidObs obs;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k = ModelKeywords<Params>("humanoid.xml", V == 5);
    k.Add("frame_skip", 5, &Params::frame_skip, V == 5).AtLeast(1);
    k.Add("forward_reward_weight", 1.25, &Params::forward_reward_weight);
    k.Add("ctrl_cost_weight", 0.1, &Params::ctrl_cost_weight);
    // v4 has no contact cost.
    k.Add("contact_cost_weight", V == 4 ? 0.0 : 5e-7, &Params::contact_cost_weight, V == 5);
    k.Add("contact_cost_range", V == 4 ? Range{0, 0} : Range{-INFINITY, 10.0},
          &Params::contact_cost_range, V == 5).AllowInf().Ordered();
    k.Add("healthy_reward", 5.0, &Params::healthy_reward);
    k.Add("terminate_when_unhealthy", true, &Params::terminate_when_unhealthy);
    k.Add("healthy_z_range", Range{1.0, 2.0}, &Params::healthy_z_range).AllowInf().Ordered();
    k.Add("reset_noise_scale", 1e-2, &Params::reset_noise_scale);
    k.Add("exclude_current_positions_from_observation", true, &Params::exclude_positions);
    AddObservationKeywords(k, V);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }
  CameraConfig DefaultCamera() const override { return TrackCamera(1, 4.0, 2.0, -20.0); }  // DEFAULT_CAMERA_CONFIG

  static std::vector<std::string> InfoKeys() {
    if (V == 4) {
      return {"reward_linvel", "reward_quadctrl",      "reward_alive", "x_position",
              "y_position",    "distance_from_origin", "x_velocity",   "y_velocity",
              "forward_reward"};
    }
    return {"x_position",     "y_position",     "tendon_length", "tendon_velocity",
            "distance_from_origin", "x_velocity", "y_velocity", "reward_survive",
            "reward_forward", "reward_ctrl",    "reward_contact"};
  }
  static std::vector<int> InfoSizes(const mjModel* m) {
    if (V == 4) return {};
    std::vector<int> sizes(InfoKeys().size(), -1);
    sizes[2] = sizes[3] = m->ntendon;
    return sizes;
  }

  static EnvSpec MakeSpec(const Params& p) {
    const mjModel* m = p.model.get();
    return MujocoSpec(m, p.obs.Size(m), InfoKeys(), InfoSizes(m));
  }

  explicit Humanoid(const Params& p) : MujocoEnv(p, p.frame_skip, 0), p_(p) {
    info_sizes_ = InfoSizes(m_);
    info_.assign(V == 4 ? InfoKeys().size() : InfoKeys().size() - 2 + 2 * m_->ntendon, 0.0);
  }

  void Reset(Rng& rng) override {
    ResetWithNoise(rng, p_.reset_noise_scale, /*normal_qvel=*/false);
    std::fill(info_.begin(), info_.end(), 0.0);
    if (V == 5) {
      const double* q = d_->qpos;
      info_.clear();
      info_.insert(info_.end(), {q[0], q[1]});
      info_.insert(info_.end(), d_->ten_length, d_->ten_length + m_->ntendon);
      info_.insert(info_.end(), d_->ten_velocity, d_->ten_velocity + m_->ntendon);
      info_.insert(info_.end(), {p_.blas.Norm2(q[0], q[1]), 0, 0, 0, 0, 0, 0});
    }
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    double before[2], after[2];
    MassCenter(m_, d_, before);
    DoSimulation(action.As<float>());
    MassCenter(m_, d_, after);
    const double vx = (after[0] - before[0]) / dt_, vy = (after[1] - before[1]) / dt_;
    const double z = d_->qpos[2];
    const bool healthy = p_.healthy_z_range.first < z && z < p_.healthy_z_range.second;
    const double healthy_reward =
        (V == 4 ? (healthy || p_.terminate_when_unhealthy) : healthy) ? p_.healthy_reward : 0.0;
    const double forward_reward = p_.forward_reward_weight * vx;
    const double rewards = forward_reward + healthy_reward;
    // Here the control cost is of data.ctrl (float64), not of the action.
    const double ctrl_cost = p_.ctrl_cost_weight * SumOfSquares(d_->ctrl, m_->nu);
    StepOutcome out;
    out.terminated = !healthy && p_.terminate_when_unhealthy;
    if (V == 4) {
      out.reward = rewards - ctrl_cost;
      info_ = {forward_reward, -ctrl_cost, healthy_reward, after[0], after[1],
               p_.blas.Norm2(after[0], after[1]), vx, vy, forward_reward};
    } else {
      const double contact_cost =
          Clip(p_.contact_cost_weight * SumOfSquares(d_->cfrc_ext, 6 * m_->nbody),
               p_.contact_cost_range.first, p_.contact_cost_range.second);
      out.reward = rewards - (ctrl_cost + contact_cost);
      const double* q = d_->qpos;
      info_.clear();
      info_.insert(info_.end(), {q[0], q[1]});
      info_.insert(info_.end(), d_->ten_length, d_->ten_length + m_->ntendon);
      info_.insert(info_.end(), d_->ten_velocity, d_->ten_velocity + m_->ntendon);
      info_.insert(info_.end(), {p_.blas.Norm2(q[0], q[1]), vx, vy, healthy_reward, forward_reward,
                                 -ctrl_cost, -contact_cost});
    }
    return out;
  }

 private:
  void WriteObs(double* obs) const override { p_.obs.Write(m_, d_, obs); }

  Params p_;
};

}  // namespace envpool::mujoco
