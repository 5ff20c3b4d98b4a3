// MyoSuite's musculoskeletal tasks (myosuite 2.12.2): the base every task shares,
// restated from the package's envs/env_base.py (MujocoEnv), robot/robot.py (Robot),
// envs/myo/base_v0.py (BaseV0) and envs/myo/fatigue.py (CumulativeFatigue). A task is one
// header (reach.h, ...) deriving from MyoEnv; its observation and reward terms are named
// as the package names them, so that the `obs_keys` and `weighted_reward_keys` keywords
// mean what they mean there.
//
// The model is the task's XML from the installed myosuite package (`assets_dir`, set by
// envpool/tasks/myosuite.py, is the package's folder; `model_path` is relative to it).
// Each env owns a copy of the compiled model: resets move target sites.
//
// What the package does, restated:
//   - Seeding: the env's np_random is gymnasium's np_random(seed), given at construction
//     (gym.make(id, seed=s)); the package's reset(seed=...) does not reseed it. Here the
//     pool's per-env seed is that construction seed, and reset(seed=...) reseeds as a new
//     env would be seeded. The fatigue model has a generator of its own with the same seed.
//   - Construction: init_qpos is the model's qpos0, but with normalize_act the actuated
//     slide and hinge joints (joint transmission) start at the middle of their range;
//     _setup's step with zero actions leaves nothing behind that a reset keeps.
//   - Step (BaseV0.step): with muscles (na > 0) and normalize_act, each muscle's action
//     becomes 1 / (1 + exp(-5 (a - 0.5))) in float32 (the action is float32; numpy's float32
//     exp, envs/common/numpy_exp.h), and the robot does not remap the controls; otherwise
//     the robot remaps them from [-1, 1] to the ctrlrange when normalize_act (motor models).
//     Fatigue (CumulativeFatigue.compute_act) then replaces the muscles' actions by the
//     active fraction of each muscle, and reafferentation moves EIP's action to EPL (EIP 0).
//     The controls (float32 when not remapped) go to ctrl; int(dt / timestep) mj_steps;
//     then the observed sim is synchronised (sensor2sim: qpos, qvel, act written back and
//     mj_forward), the observation dict, the reward dict (after expand_dims: the norms run
//     over the last axis, numpy's add.reduce), and `dense` = np.sum of weight * term in the
//     order of weighted_reward_keys. The reward is `dense`; `done` terminates.
//   - Reset: the task's own part first (targets drawn, the model edited, mj_forward), the
//     fatigue state, then Robot.reset: mj_resetData, qpos = init_qpos, qvel = init_qvel
//     (or the task's reset_qpos / reset_qvel), mj_forward; then the observation
//     (sensor2sim's mj_forward again).
//   - Observation: obsdict2obsvec, the obs_keys' values concatenated as float32; `act` is
//     appended to the keys when the model has muscles and the keys lack it.
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <functional>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/env.h"
#include "envs/common/keywords.h"
#include "envs/common/mujoco_env.h"
#include "envs/common/numpy_exp.h"
#include "envs/common/numpy_random.h"
#include "envs/myosuite/model_edit.h"

namespace envpool::myosuite {

using mujoco::Range;

// numpy's add.reduce of a contiguous float64 vector (np.sum, the norms' sum of squares).
inline double Sum(const std::vector<double>& v) {
  return mujoco::NumpySum(v.data(), static_cast<std::int64_t>(v.size()));
}
// np.linalg.norm(x, axis=-1): sqrt(add.reduce(x * x)).
inline double NormLastAxis(const double* x, int n) {
  std::vector<double> sq(n);
  for (int i = 0; i < n; ++i) sq[i] = x[i] * x[i];
  return std::sqrt(Sum(sq));
}
inline double NormLastAxis(const std::vector<double>& x) {
  return NormLastAxis(x.data(), static_cast<int>(x.size()));
}

// quat_math.euler2quat of one triple: the half angles' sines and cosines (libm's, which numpy's
// float64 sin and cos of a scalar are), combined in the package's order into (w, x, y, z).
inline void Euler2Quat(const double euler[3], double quat[4]) {
  const double ai = euler[2] / 2, aj = -euler[1] / 2, ak = euler[0] / 2;
  const double si = std::sin(ai), sj = std::sin(aj), sk = std::sin(ak);
  const double ci = std::cos(ai), cj = std::cos(aj), ck = std::cos(ak);
  const double cc = ci * ck, cs = ci * sk, sc = si * ck, ss = si * sk;
  quat[0] = cj * cc + sj * ss;
  quat[3] = cj * sc - sj * cs;
  quat[2] = -(cj * ss + sj * cc);
  quat[1] = cj * cs - sj * sc;
}

// vector_math.calculate_cosine of two 3-vectors: numpy's einsum dot product, (x0 y0 + x2 y2)
// + x1 y1, over the product of the norms (1 where that product is 0).
inline double Cosine3(const std::vector<double>& x, const std::vector<double>& y) {
  double norm_product = NormLastAxis(x) * NormLastAxis(y);
  if (norm_product == 0) norm_product = 1;
  return ((x[0] * y[0] + x[2] * y[2]) + x[1] * y[1]) / norm_product;
}

// Named vectors in insertion order: the package's obs_dict (and, with one number each,
// its rwd_dict). Few keys, looked up by name; the vectors are reused from step to step, and
// a reference to one stays valid when more keys are added (a deque).
class TermDict {
 public:
  std::vector<double>& operator[](const std::string& key) {
    for (auto& [name, values] : terms_) {
      if (name == key) return values;
    }
    terms_.emplace_back(key, std::vector<double>());
    return terms_.back().second;
  }
  const std::vector<double>* Find(const std::string& key) const {
    for (const auto& [name, values] : terms_) {
      if (name == key) return &values;
    }
    return nullptr;
  }
  const std::vector<double>& At(const std::string& key) const {
    const std::vector<double>* v = Find(key);
    if (v == nullptr) throw std::invalid_argument("MyoSuite: no term named '" + key + "'");
    return *v;
  }
  // A scalar term.
  double Scalar(const std::string& key) const { return At(key).at(0); }
  void Set(const std::string& key, double value) { (*this)[key].assign(1, value); }
  std::vector<std::string> Keys() const {
    std::vector<std::string> keys;
    for (const auto& term : terms_) keys.push_back(term.first);
    return keys;
  }

 private:
  std::deque<std::pair<std::string, std::vector<double>>> terms_;
};

// CumulativeFatigue (the 3CC-r model), for the muscle actuators of a model, in their order.
class CumulativeFatigue {
 public:
  CumulativeFatigue() = default;
  CumulativeFatigue(const mjModel* m, int frame_skip) : dt_(m->opt.timestep * frame_skip) {
    for (int i = 0; i < m->nu; ++i) {
      if (m->actuator_dyntype[i] != mjDYN_MUSCLE) continue;
      tauact_.push_back(m->actuator_dynprm[i * mjNDYN + 0]);
      taudeact_.push_back(m->actuator_dynprm[i * mjNDYN + 1]);
    }
    const std::size_t n = tauact_.size();
    ma_.assign(n, 0.0);
    mr_.assign(n, 1.0);
    mf_.assign(n, 0.0);
  }

  void Seed(std::uint64_t seed) { np_random_.Seed(seed); }
  std::size_t Size() const { return tauact_.size(); }

  // reset(fatigue_reset_vec, fatigue_reset_random).
  void Reset(const std::vector<double>& reset_vec, bool reset_random) {
    const std::size_t n = Size();
    if (reset_random) {
      std::vector<double> non_fatigued(n), active(n);
      for (double& x : non_fatigued) x = np_random_.NextDouble();
      for (double& x : active) x = np_random_.NextDouble();
      for (std::size_t i = 0; i < n; ++i) {
        ma_[i] = non_fatigued[i] * active[i];
        mr_[i] = non_fatigued[i] * (1 - active[i]);
        mf_[i] = 1 - non_fatigued[i];
      }
    } else if (!reset_vec.empty()) {
      for (std::size_t i = 0; i < n; ++i) {
        mf_[i] = reset_vec[i];
        mr_[i] = 1 - reset_vec[i];
        ma_[i] = 0.0;
      }
    } else {
      std::fill(ma_.begin(), ma_.end(), 0.0);
      std::fill(mr_.begin(), mr_.end(), 1.0);
      std::fill(mf_.begin(), mf_.end(), 0.0);
    }
  }

  // compute_act(act): the target load is the muscles' actions (float32 from a step; float64
  // in the construction step); returns the active fractions (float64), which the caller
  // stores back into its actions.
  template <class T>
  void ComputeAct(const T* target, double* out) {
    for (std::size_t i = 0; i < Size(); ++i) {
      const double tl = static_cast<double>(target[i]);
      const double ma = ma_[i], mr = mr_[i], mf = mf_[i];
      const double ld = 1 / tauact_[i] * (0.5 + 1.5 * ma);
      const double lr = (0.5 + 1.5 * ma) / taudeact_[i];
      double c = 0.0;
      if (ma < tl && mr > (tl - ma)) {
        c = ld * (tl - ma);
      } else if (ma < tl && mr <= (tl - ma)) {
        c = ld * mr;
      } else if (ma >= tl) {
        c = lr * (tl - ma);
      }
      const double rr = ma >= tl ? kRecoveryMultiplier * kRecovery : (ma < tl ? kRecovery : 0.0);
      const double lo = std::max(-ma / dt_ + kFatigue * ma, (mr - 1) / dt_ + rr * mf);
      const double hi = std::min((1 - ma) / dt_ + kFatigue * ma, mr / dt_ + rr * mf);
      c = std::min(std::max(c, lo), hi);  // np.clip: minimum(maximum(c, lo), hi)
      const double dma = (c - kFatigue * ma) * dt_;
      const double dmr = (-c + rr * mf) * dt_;
      const double dmf = (kFatigue * ma - rr * mf) * dt_;
      ma_[i] = ma + dma;
      mr_[i] = mr + dmr;
      mf_[i] = mf + dmf;
      out[i] = ma_[i];
    }
  }

  const std::vector<double>& MA() const { return ma_; }
  const std::vector<double>& MR() const { return mr_; }
  const std::vector<double>& MF() const { return mf_; }

 private:
  // The package's coefficients, as its Python floats compute them.
  static constexpr double kRecoveryMultiplier = 10 * 15;
  static constexpr double kFatigue = 0.00912;
  static constexpr double kRecovery = 0.1 * 0.00094;

  double dt_ = 0.0;
  std::vector<double> tauact_, taudeact_;
  std::vector<double> ma_, mr_, mf_;
  NumpyGenerator np_random_;
};

// The keywords every task has. A task's Params derives from MyoParams and starts its
// keyword list with MyoKeywords.
struct MyoParams : mujoco::ModelParams {
  std::string model_path;
  int frame_skip = 10;
  bool normalize_act = true;
  std::string muscle_condition;
  std::vector<double> fatigue_reset_vec;
  bool fatigue_reset_random = false;
  std::vector<std::string> obs_keys;
  std::vector<std::string> reward_keys;
  std::vector<double> reward_weights;
  bool numpy_exp_simd = true;
  bool numpy_exp_f64_svml = false;
  // The id's index in the registry's list of MyoSuite ids (envpool/tasks/myosuite.py's
  // TASKS, the order of MYOSUITE_TASKS), set by the registration: the info's `task_id`,
  // as EnvPool gives it. -1 when the env is made without a registered id.
  int task_index = -1;
  // The package's edit_fn made on the model's spec before compiling (model_edit.h), by
  // name: "" (none) or "arm_reaching". A task that has one reads it as `model_edit`.
  std::string model_edit;
  // The model, compiled once per pool (its spec edited first when model_edit is set, or by
  // `loader` from the XML's path when given: a task that edits the XML's text), with the
  // muscle condition's edits (sarcopenia).
  void Load(const std::function<mjModel*(const std::string&)>& loader = nullptr) {
    blas.dot_fma = numpy_dot_fma;  // np.linalg.norm without an axis (numpy_blas.h)
    if (assets_dir.empty()) {
      throw std::invalid_argument(
          "assets_dir is empty: MyoSuite's models come with the myosuite package "
          "(pip install --no-deps myosuite==2.12.2)");
    }
    if (muscle_condition != "" && muscle_condition != "sarcopenia" &&
        muscle_condition != "fatigue" && muscle_condition != "reafferentation") {
      throw std::invalid_argument("muscle_condition must be '', 'sarcopenia', 'fatigue' or "
                                  "'reafferentation', got '" + muscle_condition + "'");
    }
    if (reward_keys.size() != reward_weights.size()) {
      throw std::invalid_argument("reward_keys and reward_weights must have the same length");
    }
    if (frame_skip < 1) throw std::invalid_argument("frame_skip must be >= 1");
    const std::string path = assets_dir + "/" + model_path;
    mjModel* m = nullptr;
    if (loader) {
      m = loader(path);
    } else if (model_edit.empty()) {
      char error[1000] = "";
      m = mj_loadXML(path.c_str(), nullptr, error, sizeof(error));
      if (m == nullptr) throw std::runtime_error("MuJoCo could not load " + path + ": " + error);
    } else {
      m = LoadEditedModel(path, model_edit);
    }
    // initializeConditions: a weaker muscle has half the maximum force (gainprm[2]).
    if (muscle_condition == "sarcopenia") {
      for (int i = 0; i < m->nu; ++i) m->actuator_gainprm[i * mjNGAIN + 2] *= 0.5;
    }
    if (muscle_condition == "reafferentation" &&
        (mj_name2id(m, mjOBJ_ACTUATOR, "EPL") < 0 || mj_name2id(m, mjOBJ_ACTUATOR, "EIP") < 0)) {
      mj_deleteModel(m);
      throw std::invalid_argument("muscle_condition 'reafferentation' needs a model with the "
                                  "EPL and EIP muscles (the hand models)");
    }
    model = mujoco::ModelPtr(m, mujoco::ModelDeleter());
  }
};

template <class P>
void AddMyoKeywords(Keywords<P>& k, const std::string& model_path, int frame_skip) {
  k.Add("assets_dir", std::string(), &P::assets_dir);
  k.Add("model_path", model_path, &P::model_path);
  k.Add("frame_skip", frame_skip, &P::frame_skip).AtLeast(1);
  k.Add("normalize_act", true, &P::normalize_act);
  k.Add("muscle_condition", std::string(), &P::muscle_condition);
  k.Add("fatigue_reset_vec", std::vector<double>{}, &P::fatigue_reset_vec);
  k.Add("fatigue_reset_random", false, &P::fatigue_reset_random);
  k.Add("obs_keys", std::vector<std::string>{}, &P::obs_keys);
  k.Add("reward_keys", std::vector<std::string>{}, &P::reward_keys);
  k.Add("reward_weights", std::vector<double>{}, &P::reward_weights);
  k.Add("_numpy_exp_simd", true, &P::numpy_exp_simd);
  k.Add("_numpy_dot_fma", true, &P::numpy_dot_fma);
  k.Add("_numpy_exp_f64_svml", false, &P::numpy_exp_f64_svml);
  k.Add("_task_index", -1, &P::task_index);
}

// The base env. A task implements ResetTask (its draws and edits before Robot.reset),
// ObsDict (get_obs_dict) and RewardDict (get_reward_dict: its named terms plus sparse,
// solved and done).
class MyoEnv : public mujoco::MujocoEnv {
 public:
  // The observation's size: the obs keys' values at the model's initial state.
  // The info: the package's `sparse` and `solved` (float64), then EnvPool's own keys
  // (its envpool/mujoco/myosuite/myosuite_env.h gives them in its released build): the id's
  // index `task_id` (int32), `oracle_numpy2_broken` (bool, false: every id is made under
  // numpy 2) and the MuJoCo model's sizes (int32).
  static constexpr const char* kInfoKeys[] = {"sparse", "solved"};
  static constexpr const char* kModelSizeKeys[] = {
      "model_nq",    "model_nv",    "model_na",          "model_nu",    "model_nsite",
      "model_nbody", "model_ngeom", "model_nhfielddata", "model_nmocap"};

  MyoEnv(const MyoParams& p, std::vector<std::string> default_obs_keys,
         std::vector<std::pair<std::string, double>> default_weights)
      : MujocoEnv(OwnModel(p), p.frame_skip, 2),
        mw_(const_cast<mjModel*>(m_)),  // this env's own copy (OwnModel)
        normalize_act_(p.normalize_act),
        numpy_exp_simd_(p.numpy_exp_simd),
        numpy_exp_f64_svml_(p.numpy_exp_f64_svml),
        fatigue_reset_random_(p.fatigue_reset_random),
        task_index_(p.task_index),
        fatigue_reset_vec_(p.fatigue_reset_vec),
        obs_keys_(p.obs_keys.empty() ? std::move(default_obs_keys) : p.obs_keys) {
    if (p.muscle_condition == "sarcopenia") condition_ = Condition::kSarcopenia;
    if (p.muscle_condition == "fatigue") condition_ = Condition::kFatigue;
    if (p.muscle_condition == "reafferentation") condition_ = Condition::kReafferentation;
    if (p.reward_keys.empty()) {
      weights_ = std::move(default_weights);
    } else {
      for (std::size_t i = 0; i < p.reward_keys.size(); ++i) {
        weights_.emplace_back(p.reward_keys[i], p.reward_weights[i]);
      }
    }
    // BaseV0._setup: `act` observed when the model has muscles.
    if (m_->na > 0 && std::find(obs_keys_.begin(), obs_keys_.end(), "act") == obs_keys_.end()) {
      obs_keys_.push_back("act");
    }
    for (int i = 0; i < m_->nu; ++i) muscle_.push_back(m_->actuator_dyntype[i] == mjDYN_MUSCLE);
    if (condition_ == Condition::kFatigue) fatigue_ = CumulativeFatigue(m_, p.frame_skip);
    if (condition_ == Condition::kReafferentation) {
      epl_ = mj_name2id(m_, mjOBJ_ACTUATOR, "EPL");
      eip_ = mj_name2id(m_, mjOBJ_ACTUATOR, "EIP");
    }
    // MujocoEnv._setup: the actuated slide and hinge joints start mid-range.
    if (normalize_act_) {
      for (int i = 0; i < m_->nu; ++i) {
        if (m_->actuator_trntype[i] != mjTRN_JOINT) continue;
        const int j = m_->actuator_trnid[2 * i];
        if (m_->jnt_type[j] != mjJNT_SLIDE && m_->jnt_type[j] != mjJNT_HINGE) continue;
        // np.mean over the range's two numbers: add.reduce, then the division.
        init_qpos_[m_->jnt_qposadr[j]] =
            (0.0 + m_->jnt_range[2 * j] + m_->jnt_range[2 * j + 1]) / 2.0;
      }
    }
    // Robot.step: int(step_duration / timestep), step_duration = timestep * frame_skip.
    n_frames_ = static_cast<int>(dt_ / m_->opt.timestep);
    ctrl_.resize(m_->nu);
    action_size_ = m_->nu;
  }

  void Seed(std::uint64_t seed) override {
    np_random_.Seed(seed);
    fatigue_.Seed(seed);
    if (keep_fatigue_ && condition_ == Condition::kFatigue) ConstructionFatigue();
  }

  void Reset(Rng& /*rng*/) override {
    ResetOnce();
    if (!ResetAgain()) return;
    // A task whose reset redoes itself (RelocateEnvV0: while the reset state has contacts,
    // reset again, with new draws) returns the first attempt's observation, as the package's
    // recursion does.
    const std::vector<float> first = obs_;
    do {
      ResetOnce();
    } while (ResetAgain());
    if (ResetReturnsFirstAttempt()) obs_ = first;
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const float* user = action.As<float>();
    // The action BaseV0.step gets: the user's float32 action, or what the task's step makes
    // of it (TaskAction).
    std::vector<double> a(user, user + action_size_);
    bool float64 = false;
    TaskAction(a, float64);
    Actuate(a, float64, fatigue_);
    // forward: get_obs syncs the observed sim (the same one) and runs mj_forward.
    mj_forward(m_, d_);
    Observe();
    // The new reward dict; until it replaces rwd_, rwd_ is the previous step's (the
    // package's self.rwd_dict, which a task's get_obs_dict or get_reward_dict may read).
    TermDict rwd;
    RewardDict(obs_dict_, rwd);
    rwd_ = std::move(rwd);
    StepOutcome out;
    out.reward = Dense();
    out.terminated = rwd_.Scalar("done") != 0.0;
    info_[0] = rwd_.Scalar("sparse");
    info_[1] = rwd_.Scalar("solved");
    return out;
  }

  void Write(const Slot& slot) const override {
    std::copy(obs_.begin(), obs_.end(), slot.Obs<float>());
    *slot.Info<double>(0) = info_[0];
    *slot.Info<double>(1) = info_[1];
    *slot.Info<std::int32_t>(2) = task_index_;
    *slot.Info<bool>(3) = false;  // oracle_numpy2_broken
    // MuJoCo's sizes are int or mjtSize (int64, nhfielddata); the info's are int32.
    const std::int64_t sizes[] = {m_->nq,    m_->nv,    m_->na,          m_->nu,   m_->nsite,
                                  m_->nbody, m_->ngeom, m_->nhfielddata, m_->nmocap};
    for (std::size_t i = 0; i < std::size(sizes); ++i) {
      *slot.Info<std::int32_t>(4 + i) = static_cast<std::int32_t>(sizes[i]);
    }
  }

  // The package draws its observed copy of the sim: the same state, but its controls are
  // never set (0), and actuators are drawn by their controls. So the frame is drawn after an
  // mj_forward with zero controls; the controls are put back after (the next mj_step
  // recomputes everything it reads).
  void Render(int width, int height, int camera_id, std::uint8_t* out) override {
    std::copy(d_->ctrl, d_->ctrl + m_->nu, ctrl_.begin());
    std::fill(d_->ctrl, d_->ctrl + m_->nu, 0.0);
    mj_forward(m_, d_);
    MujocoEnv::Render(width, height, camera_id, out);
    std::copy(ctrl_.begin(), ctrl_.end(), d_->ctrl);
  }

  // The obs vector's size, for MakeSpec: a throwaway env's first observation.
  std::size_t ObsSize() {
    Observe();
    return obs_.size();
  }

  // One env's spec: the float32 observation in (-10, 10) (obs_range), the action in
  // [-1, 1] (normalize_act) or the ctrlrange, and the info's sparse and solved. The action
  // has the first `action_size` actuators (all nu when -1).
  static EnvSpec Spec(const mjModel* m, std::size_t obs_size, bool normalize_act,
                      int action_size = -1) {
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("obs", DType::kFloat32, {static_cast<std::int64_t>(obs_size)},
                               {-10.0}, {10.0}));
    if (action_size < 0) action_size = m->nu;
    std::vector<double> low, high;
    for (int i = 0; i < action_size; ++i) {
      low.push_back(normalize_act ? -1.0 : static_cast<float>(m->actuator_ctrlrange[2 * i]));
      high.push_back(normalize_act ? 1.0 : static_cast<float>(m->actuator_ctrlrange[2 * i + 1]));
    }
    spec.action = BoxSpec("action", DType::kFloat32, {action_size}, low, high);
    for (const char* key : kInfoKeys) spec.info.push_back(BoxSpec(key, DType::kFloat64, {}));
    spec.info.push_back(BoxSpec("task_id", DType::kInt32, {}));
    spec.info.push_back(BoxSpec("oracle_numpy2_broken", DType::kBool, {}));
    for (const char* key : kModelSizeKeys) spec.info.push_back(BoxSpec(key, DType::kInt32, {}));
    return spec;
  }

 protected:
  // The task's reset before Robot.reset (ReachEnvV0.reset's generate_target_pose, ...).
  virtual void ResetTask() {}
  // For the tasks whose reset calls BaseV0.reset(reset_qpos, reset_qvel) positionally
  // (MyoChallenge's ReorientEnvV0): reset_qpos (None) lands in its fatigue_reset, so the
  // fatigue state is never reset. It starts as the construction step left it (_setup's
  // step with float64 zero actions: sigmoid(0) with float64 np.exp, then compute_act from
  // the fresh state) and carries over from episode to episode. A seed (a new env) starts it
  // there again.
  void KeepFatigueAcrossResets() { keep_fatigue_ = true; }
  // The package's construction step (MujocoEnv._setup's step with float64 zero actions, from
  // the model's initial state), for what it leaves in the model: the colors and sizes a
  // task's reward dict sets, which the first reset's frame shows. Its state is not kept (a
  // reset starts anew; the fatigue state: see KeepFatigueAcrossResets).
  void ConstructionStep() {
    mj_resetData(m_, d_);
    mj_forward(m_, d_);
    CumulativeFatigue fatigue = fatigue_;
    fatigue.Reset({}, false);
    in_construction_ = true;
    std::vector<double> a(m_->nu, 0.0);
    bool float64 = true;
    TaskAction(a, float64);
    Actuate(a, float64, fatigue);
    mj_forward(m_, d_);
    Observe();
    TermDict rwd;
    RewardDict(obs_dict_, rwd);
    in_construction_ = false;
    mj_resetData(m_, d_);
    mj_forward(m_, d_);
  }
  // Whether the step being taken is the construction step (see ConstructionStep), for a
  // TaskAction that differs there.
  bool InConstruction() const { return in_construction_; }

  // The task's step before BaseV0.step: `a` holds the user's action (the action space's
  // size, SetActionSize), float32 values; the task may change it (BimanualEnvV1.step remaps
  // its robotic actuators) or replace it with the nu controls BaseV0.step gets (RunTrack
  // appends its prosthesis's torques), and sets `float64` when its array is float64 (then
  // the muscles' sigmoid and the fatigue model run in float64 and nothing is rounded to
  // float32). In the construction step, `a` is nu float64 zeros and `float64` is true.
  virtual void TaskAction(std::vector<double>& /*a*/, bool& /*float64*/) {}
  // The task's part of reset after BaseV0.reset has observed (what the package's reset does
  // after super().reset(): its returned observation does not see it).
  virtual void AfterReset() {}
  // The action space's size when it is not nu (RunTrack: the muscles only).
  void SetActionSize(int size) { action_size_ = size; }
  int ActionSize() const { return action_size_; }

  // After a reset: whether the task resets again (see Reset).
  virtual bool ResetAgain() const { return false; }
  // Whether a reset that resets again returns its first attempt's observation (RelocateEnvV0's
  // recursion) or its last one (RunTrack's reset, whose second BaseV0.reset starts from the
  // first one's state moved to the ground).
  virtual bool ResetReturnsFirstAttempt() const { return true; }
  // The qpos this reset starts from (reset(reset_qpos=...)), instead of init_qpos.
  void SetResetQpos(std::vector<double> qpos) {
    reset_qpos_ = std::move(qpos);
    has_reset_qpos_ = true;
  }
  // The qvel this reset starts from (reset(reset_qvel=...)), instead of init_qvel.
  void SetResetQvel(std::vector<double> qvel) {
    reset_qvel_ = std::move(qvel);
    has_reset_qvel_ = true;
  }
  // np.exp of a float64 number, as the running numpy computes it (envs/common/numpy_exp.h).
  double NumpyExp(double x) const { return NumpyExpF64(x, numpy_exp_f64_svml_); }
  // get_obs_dict(model, data) of this env's data.
  virtual void ObsDict(TermDict& obs) = 0;
  // get_reward_dict: the named terms, with sparse, solved and done.
  virtual void RewardDict(const TermDict& obs, TermDict& rwd) = 0;

  // BaseV0._setup's sites: each site `s` and its target `s_target` (tip_sids, target_sids).
  void SetSites(const std::vector<std::string>& sites) {
    for (const std::string& site : sites) {
      const int tip = mj_name2id(m_, mjOBJ_SITE, site.c_str());
      const int target = mj_name2id(m_, mjOBJ_SITE, (site + "_target").c_str());
      if (tip < 0 || target < 0) {
        throw std::invalid_argument("the model has no sites '" + site + "' and '" + site +
                                    "_target'");
      }
      tip_sids_.push_back(tip);
      target_sids_.push_back(target);
    }
  }

  // The id of the model's site (body) `name`, which the task needs.
  int SiteId(const char* name) const { return NamedId(mjOBJ_SITE, "site", name); }
  int BodyId(const char* name) const { return NamedId(mjOBJ_BODY, "body", name); }

  // The reaching tasks' obs_dict entries (ReachEnvV0 of myobase and of walk_v0): tip_pos
  // (the sites' xpos), target_pos (their targets' xpos), reach_err = target_pos - tip_pos.
  void ReachObs(TermDict& obs) const {
    std::vector<double>& tip = obs["tip_pos"];
    std::vector<double>& target = obs["target_pos"];
    tip.clear();
    target.clear();
    for (std::size_t s = 0; s < tip_sids_.size(); ++s) {
      tip.insert(tip.end(), d_->site_xpos + 3 * tip_sids_[s], d_->site_xpos + 3 * tip_sids_[s] + 3);
      target.insert(target.end(), d_->site_xpos + 3 * target_sids_[s],
                    d_->site_xpos + 3 * target_sids_[s] + 3);
    }
    std::vector<double>& err = obs["reach_err"];
    err.resize(tip.size());
    for (std::size_t i = 0; i < tip.size(); ++i) err[i] = target[i] - tip[i];
  }

  // The in-hand object tasks' obs_dict entries (pen_v0 and reorient_sar_v0), but act: time,
  // hand_jnt (qpos but the object's free joint, the last six), obj_pos (body `obj`'s xpos),
  // obj_des_pos (site `goal`'s xpos), obj_vel (the object's six qvel * dt), obj_rot ((top -
  // bottom) / length, of the object's two markers' positions), obj_des_rot (the same of the
  // target's), obj_err_pos and obj_err_rot (the differences).
  void ObjectObs(TermDict& obs, int obj, int goal, const double* top, const double* bottom,
                 double length, const double* tar_top, const double* tar_bottom,
                 double tar_length) const {
    const int n = m_->nq - 6;
    obs["time"].assign(1, d_->time);
    obs["hand_jnt"].assign(d_->qpos, d_->qpos + n);
    std::vector<double>& pos = obs["obj_pos"];
    pos.assign(d_->xpos + 3 * obj, d_->xpos + 3 * obj + 3);
    std::vector<double>& des_pos = obs["obj_des_pos"];
    des_pos.assign(d_->site_xpos + 3 * goal, d_->site_xpos + 3 * goal + 3);
    std::vector<double>& vel = obs["obj_vel"];
    vel.resize(6);
    for (int i = 0; i < 6; ++i) vel[i] = d_->qvel[m_->nv - 6 + i] * dt_;
    std::vector<double>& rot = obs["obj_rot"];
    std::vector<double>& des_rot = obs["obj_des_rot"];
    rot.resize(3);
    des_rot.resize(3);
    for (int k = 0; k < 3; ++k) {
      rot[k] = (top[k] - bottom[k]) / length;
      des_rot[k] = (tar_top[k] - tar_bottom[k]) / tar_length;
    }
    std::vector<double>& err_pos = obs["obj_err_pos"];
    std::vector<double>& err_rot = obs["obj_err_rot"];
    err_pos.resize(3);
    err_rot.resize(3);
    for (int k = 0; k < 3; ++k) {
      err_pos[k] = pos[k] - des_pos[k];
      err_rot[k] = rot[k] - des_rot[k];
    }
  }

  // The common obs_dict entries: time, qpos, qvel * dt, act.
  void ObsBase(TermDict& obs) const {
    obs["time"].assign(1, d_->time);
    obs["qpos"].assign(d_->qpos, d_->qpos + m_->nq);
    std::vector<double>& qvel = obs["qvel"];
    qvel.resize(m_->nv);
    for (int i = 0; i < m_->nv; ++i) qvel[i] = d_->qvel[i] * dt_;
    if (m_->na > 0) obs["act"].assign(d_->act, d_->act + m_->na);
  }

  // The dense reward: np.sum([wt * rwd[key] ...], axis=0), in the weights' order.
  virtual double Dense() const {
    std::vector<double> terms;
    for (const auto& [key, wt] : weights_) terms.push_back(wt * rwd_.Scalar(key));
    return Sum(terms);
  }

  // The package's observed sim (env.mj_data): its Robot steps a MjData of its own (here d_),
  // and each observation copies the Robot's time, qpos, qvel and act into the env's MjData and
  // runs mj_forward there (Robot.sensor2sim). That copy's controls are never set (0), its
  // qacc_warmstart never written (mj_forward does not: its constraint solver starts cold), and
  // what a task writes into it (a mocap opponent, an object moved after a reset) the physics
  // never sees. The tasks whose observations read its contact or constraint forces (touch and
  // force sensors, joint-limit forces) or what only it holds observe this one (made on first
  // use, at the model's qpos0, as the package's env makes its MjData; a cache, hence const).
  mjData* Observed() const {
    if (!observed_) observed_ = mujoco::DataPtr(mj_makeData(m_));
    return observed_.get();
  }
  // Robot.sensor2sim: the time, qpos, qvel and act into the observed sim, then mj_forward.
  void SyncObserved() {
    mjData* od = Observed();
    od->time = d_->time;
    std::copy(d_->qpos, d_->qpos + m_->nq, od->qpos);
    std::copy(d_->qvel, d_->qvel + m_->nv, od->qvel);
    std::copy(d_->act, d_->act + m_->na, od->act);
    mj_forward(m_, od);
  }

  // The weighted reward keys (weighted_reward_keys, or the keywords'), in their order.
  const std::vector<std::pair<std::string, double>>& Weights() const { return weights_; }

  mjModel* mw_;  // this env's model, which resets edit
  NumpyGenerator np_random_;
  std::vector<int> tip_sids_, target_sids_;
  TermDict obs_dict_, rwd_;

 private:
  enum class Condition { kNormal, kSarcopenia, kFatigue, kReafferentation };

  static mujoco::ModelParams OwnModel(const MyoParams& p) {
    mujoco::ModelParams own = p;
    own.model = mujoco::ModelPtr(mj_copyModel(nullptr, p.model.get()), mujoco::ModelDeleter());
    return own;
  }

  // get_obs: the obs dict, and the obs keys' values as float32.
  void Observe() {
    ObsDict(obs_dict_);
    obs_.clear();
    for (const std::string& key : obs_keys_) {
      const std::vector<double>* v = obs_dict_.Find(key);
      if (v == nullptr) {
        throw std::invalid_argument("MyoSuite: this task has no observation named '" + key + "'");
      }
      for (double x : *v) obs_.push_back(static_cast<float>(x));
    }
  }

  void WriteObs(double* /*obs*/) const override {}
  // The package's frames (MJRenderer.render_offscreen, camera -1): mujoco.Renderer's default
  // free camera.
  bool MujocoFreeCamera() const override { return true; }
  // mujoco.Renderer's default max_geom (10000), which the package's MJRenderer keeps: the
  // bimanual task's scene has more than gymnasium's 1000.
  int SceneMaxGeom() const override { return 10000; }
  // BaseV0's viewer_setup(render_actuator=True): actuators drawn, tendons colored by their
  // muscles' activation.
  void SceneOptions(mjvOption& opt) const override {
    opt.flags[mjVIS_ACTUATOR] = 1;
    opt.flags[mjVIS_ACTIVATION] = 1;
  }

  // BaseV0.step from its action on: the muscles' sigmoid (float32, or float64 for a float64
  // array), the muscle condition, Robot.step's controls and its mj_steps.
  void Actuate(std::vector<double>& a, bool float64, CumulativeFatigue& fatigue) {
    if (static_cast<int>(a.size()) != m_->nu) {
      throw std::logic_error("MyoSuite: the task's step gave " + std::to_string(a.size()) +
                             " controls for a model with " + std::to_string(m_->nu));
    }
    bool normalized = normalize_act_;
    if (m_->na > 0 && normalize_act_) {
      for (int i = 0; i < m_->nu; ++i) {
        if (!muscle_[i]) continue;
        a[i] = float64 ? 1.0 / (1.0 + NumpyExp(-5.0 * (a[i] - 0.5)))
                       : NumpySigmoidMyo(static_cast<float>(a[i]), numpy_exp_simd_);
      }
      normalized = false;
    }
    if (condition_ == Condition::kFatigue) {
      std::vector<double> active(fatigue.Size());
      if (float64) {
        std::vector<double> target;
        for (int i = 0; i < m_->nu; ++i) {
          if (muscle_[i]) target.push_back(a[i]);
        }
        fatigue.ComputeAct(target.data(), active.data());
      } else {
        std::vector<float> target;
        for (int i = 0; i < m_->nu; ++i) {
          if (muscle_[i]) target.push_back(static_cast<float>(a[i]));
        }
        fatigue.ComputeAct(target.data(), active.data());
      }
      std::size_t k = 0;
      for (int i = 0; i < m_->nu; ++i) {
        if (!muscle_[i]) continue;
        a[i] = float64 ? active[k] : static_cast<float>(active[k]);
        ++k;
      }
    } else if (condition_ == Condition::kReafferentation) {
      a[epl_] = a[eip_];
      a[eip_] = 0.0;
    }
    // Robot.process_actuator: the controls remapped from [-1, 1] when normalized.
    for (int i = 0; i < m_->nu; ++i) {
      if (normalized) {
        const double lo = m_->actuator_ctrlrange[2 * i], hi = m_->actuator_ctrlrange[2 * i + 1];
        const double mid = (0.0 + lo + hi) / 2.0;
        ctrl_[i] = mid + a[i] * (hi - lo) / 2.0;
      } else {
        ctrl_[i] = a[i];
      }
    }
    std::copy(ctrl_.begin(), ctrl_.end(), d_->ctrl);
    for (int i = 0; i < n_frames_; ++i) mj_step(m_, d_);
  }

  // One reset: the task's, the fatigue state's, Robot.reset's, the observation.
  void ResetOnce() {
    ResetTask();
    // BaseV0.reset: the fatigue state.
    if (condition_ == Condition::kFatigue && !keep_fatigue_) {
      fatigue_.Reset(fatigue_reset_vec_, fatigue_reset_random_);
    }
    // Robot.reset: from the task's start (reset_qpos) or init_qpos.
    mj_resetData(m_, d_);
    SetQposQvel(has_reset_qpos_ ? reset_qpos_.data() : init_qpos_.data(),
                has_reset_qvel_ ? reset_qvel_.data() : init_qvel_.data());
    has_reset_qpos_ = has_reset_qvel_ = false;
    Observe();
    AfterReset();
  }

  // The fatigue state the construction step leaves (see KeepFatigueAcrossResets).
  void ConstructionFatigue() {
    fatigue_.Reset({}, false);
    std::vector<double> target;
    for (int i = 0; i < m_->nu; ++i) {
      if (!muscle_[i]) continue;
      // 1.0 / (1.0 + np.exp(-5.0 * (0.0 - 0.5))) in float64 with normalize_act, else 0.
      target.push_back(m_->na > 0 && normalize_act_
                           ? 1.0 / (1.0 + NumpyExp(-5.0 * (0.0 - 0.5)))
                           : 0.0);
    }
    std::vector<double> active(target.size());
    fatigue_.ComputeAct(target.data(), active.data());
  }

  int NamedId(mjtObj type, const char* what, const char* name) const {
    const int id = mj_name2id(m_, type, name);
    if (id < 0) {
      throw std::invalid_argument(std::string("the model has no ") + what + " '" + name + "'");
    }
    return id;
  }

  bool normalize_act_, numpy_exp_simd_, numpy_exp_f64_svml_, fatigue_reset_random_;
  std::int32_t task_index_;
  std::vector<double> fatigue_reset_vec_;
  std::vector<std::string> obs_keys_;
  std::vector<std::pair<std::string, double>> weights_;
  Condition condition_ = Condition::kNormal;
  bool keep_fatigue_ = false;
  bool in_construction_ = false;
  mutable mujoco::DataPtr observed_;  // see Observed()
  int action_size_ = 0;
  std::vector<bool> muscle_;
  CumulativeFatigue fatigue_;
  int epl_ = -1, eip_ = -1;
  int n_frames_ = 0;
  std::vector<double> ctrl_;
  std::vector<float> obs_;
  std::vector<double> reset_qpos_, reset_qvel_;
  bool has_reset_qpos_ = false, has_reset_qvel_ = false;
};

}  // namespace envpool::myosuite
