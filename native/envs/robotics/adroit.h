// Gymnasium-Robotics' Adroit hand tasks (gymnasium_robotics 1.4.2, envs/adroit_hand/): what
// the four tasks share. Each task (adroit_door.h, adroit_hammer.h, adroit_pen.h,
// adroit_relocate.h) is a gymnasium MujocoEnv (frame_skip 5) over its own model in
// envs/assets/adroit_hand/, whose __init__ makes the same edits: the wrist actuators' gains
// and biases set to a position servo of gain 10, the fingers' to gain 1, and the action box
// [-1, 1] mapped onto each actuator's ctrlrange (act_mean + a * act_rng).
//
// A reset draws the task's random layout from numpy's default_rng(seed) (reproduced in C++,
// in the reference's order) and writes it into the model (a body's or a site's position or
// orientation): each env owns a copy of the pool's edited model. The info keys are the
// task's `success` and sail-sg EnvPool's reset state: qpos0, qvel0, qacc0, qacc_warmstart0
// (after the reset's mj_forward) and extra0 (the layout the reset drew: the task's model
// values, which its test writes into the reference's model).
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/common/mujoco_env.h"
#include "envs/common/numpy_random.h"

namespace envpool::robotics {

using mujoco::CameraConfig;
using mujoco::ModelDeleter;
using mujoco::ModelPtr;

// The keywords and the edited model every Adroit task shares.
struct AdroitParams : mujoco::ModelParams {
  std::string reward_type;
  bool sparse = false;
  int frame_skip = 5;
  std::vector<double> act_mean, act_rng;  // per actuator
  int grasp_site = -1;                    // S_grasp: the palm

  // The id of a named object of the model (an invalid_argument if it has none).
  int Id(mjtObj type, const char* name) const {
    const int id = mj_name2id(model.get(), type, name);
    if (id < 0) {
      throw std::invalid_argument(xml_file + " has no object named '" + name + "'");
    }
    return id;
  }
};

// ModelKeywords (xml_file fixed to the task's model), then reward_type ("dense" or "sparse",
// any case, as the reference's reward_type.lower()).
template <class P>
Keywords<P> AdroitKeywords(const std::string& xml_file) {
  Keywords<P> k = mujoco::ModelKeywords<P>(xml_file, false);
  k.Add("reward_type", std::string("dense"), &P::reward_type);
  return k;
}

// Reads the keywords, loads the model, then makes the reference's __init__ edits on a copy.
template <class P>
void ReadAdroitParams(const Keywords<P>& keys, const Config& config, P& p) {
  mujoco::ReadParams(keys, config, p);
  std::string lower = p.reward_type;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  if (lower != "dense" && lower != "sparse") {
    throw std::invalid_argument("Unknown reward type, expected `dense` or `sparse` but got " +
                                p.reward_type);
  }
  p.sparse = lower == "sparse";
  mjModel* m = mj_copyModel(nullptr, p.model.get());
  if (m == nullptr) throw std::runtime_error("MuJoCo could not copy the Adroit model");
  p.model = ModelPtr(m, ModelDeleter());
  // actuator_gainprm[A_WRJ1 : A_WRJ0 + 1, :3] = [10, 0, 0], biasprm = [0, -10, 0]; the
  // fingers' (A_FFJ3 : A_THJ0 + 1) [1, 0, 0] and [0, -1, 0].
  const auto servo = [m](int first, int last, double gain) {
    for (int i = first; i <= last; ++i) {
      double* g = m->actuator_gainprm + i * mjNGAIN;
      double* b = m->actuator_biasprm + i * mjNBIAS;
      g[0] = gain;
      g[1] = g[2] = 0.0;
      b[0] = b[2] = 0.0;
      b[1] = -gain;
    }
  };
  servo(p.Id(mjOBJ_ACTUATOR, "A_WRJ1"), p.Id(mjOBJ_ACTUATOR, "A_WRJ0"), 10.0);
  servo(p.Id(mjOBJ_ACTUATOR, "A_FFJ3"), p.Id(mjOBJ_ACTUATOR, "A_THJ0"), 1.0);
  // act_mean = np.mean(ctrlrange, axis=1), act_rng = 0.5 * (high - low).
  for (int i = 0; i < m->nu; ++i) {
    const double lo = m->actuator_ctrlrange[2 * i], hi = m->actuator_ctrlrange[2 * i + 1];
    p.act_mean.push_back((lo + hi) / 2.0);
    p.act_rng.push_back(0.5 * (hi - lo));
  }
  p.grasp_site = p.Id(mjOBJ_SITE, "S_grasp");
}

// The spec of a task: its float64 observation, the float32 action box [-1, 1] of nu numbers,
// info["success"] (bool) and the reset state (extra0: extra_size numbers).
inline EnvSpec AdroitSpec(const mjModel* m, std::int64_t obs_size, std::int64_t extra_size) {
  EnvSpec spec;
  spec.obs.push_back(BoxSpec("obs", DType::kFloat64, {obs_size}));
  spec.action = BoxSpec("action", DType::kFloat32, {m->nu}, std::vector<double>(m->nu, -1.0),
                        std::vector<double>(m->nu, 1.0));
  spec.info.push_back(BoxSpec("success", DType::kBool, {}));
  spec.info.push_back(BoxSpec("qpos0", DType::kFloat64, {m->nq}));
  spec.info.push_back(BoxSpec("qvel0", DType::kFloat64, {m->nv}));
  spec.info.push_back(BoxSpec("qacc0", DType::kFloat64, {m->nv}));
  spec.info.push_back(BoxSpec("qacc_warmstart0", DType::kFloat64, {m->nv}));
  spec.info.push_back(BoxSpec("extra0", DType::kFloat64, {extra_size}));
  return spec;
}

// A task's DEFAULT_CAMERA_CONFIG: the free camera's distance and azimuth.
inline CameraConfig AdroitCamera(double distance, double azimuth) {
  CameraConfig c;
  c.distance = distance;
  c.azimuth = azimuth;
  return c;
}

// The base of the four tasks: the env's own model, the reset and step every task makes, the
// info. A task draws its layout (ResetModel), writes its observation (WriteObs) and computes
// its reward and success (Evaluate).
class AdroitHand : public mujoco::MujocoEnv {
 public:
  AdroitHand(const AdroitParams& p, int extra_size)
      : MujocoEnv(p, p.frame_skip, 0), ap_(p), extra0_(extra_size, 0.0) {
    mjModel* own = mj_copyModel(nullptr, m_);
    if (own == nullptr) throw std::runtime_error("MuJoCo could not copy the Adroit model");
    model_ = ModelPtr(own, ModelDeleter());
    m_ = own;
    model_edit_ = own;
    qacc0_.assign(m_->nv, 0.0);
    qacc_warmstart0_.assign(m_->nv, 0.0);
  }

  void Seed(std::uint64_t seed) override { np_random_.Seed(seed); }

  // MujocoEnv.reset: mj_resetData, then reset_model (the task's draws into the model, then
  // set_state(init_qpos, init_qvel), whose mj_forward).
  void Reset(Rng& /*rng*/) override {
    mj_resetData(m_, d_);
    ResetModel(model_edit_);
    SetQposQvel(init_qpos_.data(), init_qvel_.data());
    AfterReset();
    qacc0_.assign(d_->qacc, d_->qacc + m_->nv);
    qacc_warmstart0_.assign(d_->qacc_warmstart, d_->qacc_warmstart + m_->nv);
    success_ = false;
  }

  // step: np.clip(a, -1, 1) (float32), act_mean + a * act_rng (float64), do_simulation (ctrl,
  // frame_skip mj_steps, mj_rnePostConstraint), then the task's reward and success.
  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const float* raw = action.As<float>();
    for (int i = 0; i < m_->nu; ++i) {
      float a = raw[i];
      if (!std::isnan(a)) a = std::min(std::max(a, -1.0f), 1.0f);
      d_->ctrl[i] = ap_.act_mean[i] + static_cast<double>(a) * ap_.act_rng[i];
    }
    for (int i = 0; i < frame_skip_; ++i) mj_step(m_, d_);
    if (post_constraint_) mj_rnePostConstraint(m_, d_);
    StepOutcome out;
    out.reward = Evaluate(success_);
    return out;
  }

  void Write(const Slot& slot) const override {
    WriteObs(slot.Obs<double>());
    *slot.Info<bool>(0) = success_;
    std::copy(qpos0_.begin(), qpos0_.end(), slot.Info<double>(1));
    std::copy(qvel0_.begin(), qvel0_.end(), slot.Info<double>(2));
    std::copy(qacc0_.begin(), qacc0_.end(), slot.Info<double>(3));
    std::copy(qacc_warmstart0_.begin(), qacc_warmstart0_.end(), slot.Info<double>(4));
    std::copy(extra0_.begin(), extra0_.end(), slot.Info<double>(5));
  }

 protected:
  // The task's reset_model draws, written into the env's model (and into extra0_).
  virtual void ResetModel(mjModel* m) = 0;
  // What the task's reset computes after set_state (the pen's lengths).
  virtual void AfterReset() {}
  // The reward after a step, and whether the goal is achieved (info["success"]).
  virtual double Evaluate(bool& success) const = 0;

  // Position of site `site` / body `body` (site_xpos, xpos).
  const double* SiteXpos(int site) const { return d_->site_xpos + 3 * site; }
  const double* BodyXpos(int body) const { return d_->xpos + 3 * body; }
  // np.linalg.norm(a - b) of two 3-vectors (numpy's BLAS order, envs/common/numpy_blas.h).
  double Distance(const double* a, const double* b) const {
    const double v[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return ap_.blas.Norm(v, 3);
  }
  // out = a - b, three numbers; returns out + 3.
  static double* Diff3(const double* a, const double* b, double* out) {
    for (int i = 0; i < 3; ++i) out[i] = a[i] - b[i];
    return out + 3;
  }
  static double* Copy3(const double* a, double* out) { return std::copy(a, a + 3, out); }

  AdroitParams ap_;
  mjModel* model_edit_ = nullptr;  // the env's own model (model_), which its resets edit
  NumpyGenerator np_random_;
  std::vector<double> qacc0_, qacc_warmstart0_, extra0_;
  bool success_ = false;
};

}  // namespace envpool::robotics
