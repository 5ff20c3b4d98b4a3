// Meta-World's Sawyer arm (metaworld 3.1.1, metaworld/sawyer_xyz_env.py): the base every
// v3 task shares, line by line. The model is the task's XML from the installed metaworld
// package (`assets_dir`, set by envpool/tasks/metaworld.py); a task is one header
// (reach.h, push.h, ...) deriving from SawyerTask, picked by the `task_name` keyword, so
// that one pool may run different tasks (the spaces are the same for all of them).
//
// What the package does, restated:
//   - The model: mocap welds reset to (0 0 0, 0 0 0, -1 0 0 0, 5) (reset_mocap_welds; the
//     eleven numbers it writes; the twelfth that MuJoCo 3.17's welds have (mjNEQDATA; the
//     package's mujoco 3.3.0 had eleven) is left as compiled).
//     Each env owns a copy of the compiled model, since resets move the goal site (and, in
//     some tasks, bodies).
//   - Step: the mocap moves by clip(action[:3], -1, 1) * action_scale (float32 arithmetic,
//     numpy's NEP 50), clipped to mocap_low / mocap_high, its quaternion (1, 0, 1, 0); ctrl
//     = (a[3], -a[3]); frame_skip mj_steps and mj_rnePostConstraint (gymnasium's
//     do_simulation); the goal site's xpos set to the target; mj_forward; the observation
//     (clipped to the observation space) and the task's evaluate_state. Never terminated;
//     truncated at max_path_length = 500 steps (the pool's max_episode_steps).
//   - Observation (39): hand xpos, gripper opening clip(|rightclaw - leftclaw| / 0.1, 0, 1),
//     the objects' (pos, quat) padded to 14, the same 18 of the previous step, the goal
//     (zeros when `partially_observable`, the package's default).
//   - Reset: SawyerXYZEnv.reset calls reset_model, then gymnasium's MujocoEnv.reset calls
//     mj_resetData and reset_model again. The first call's physics is wiped, but its draws
//     and its writes into the model outlive it (the second call's physics computes from
//     them before writing them again: bodies in the reset observation, the goal site in
//     the reset frame), so the first call here draws and moves the bodies, and where frames
//     are drawn runs whole. The random vector is
//     self.np_random.uniform(low, high, size) of the task's _random_reset_space, the
//     package's seeded_rand_vec mode with np_random = default_rng(seed) (env.seed(seed)):
//     numpy's Generator, reproduced in envs/common/numpy_random.h and seeded with the env's
//     seed. The reset observation is not clipped; its previous-frame part is its current one.
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/env.h"
#include "envs/common/keywords.h"
#include "envs/common/mujoco_env.h"
#include "envs/common/numpy_blas.h"
#include "envs/common/numpy_random.h"
#include "envs/common/py_math.h"

namespace envpool::metaworld {

using Vec3 = std::array<double, 3>;

// A number of the reward code with its numpy type: a float32 (np.float32, from the float32
// action) or a float64 (a Python float or np.float64). Under NEP 50 a Python float meeting
// a float32 is rounded to float32 and the operation is float32; np.float64 with np.float32
// is float64. The reward code mixes only Python floats with the float32s.
// np64 marks an np.float64 (a numpy scalar: an element of the observation, np.clip's
// result), which is not weak: np.float64 with np.float32 is float64.
struct Num {
  double v = 0.0;
  bool f32 = false;
  bool np64 = false;
};
inline Num F64(double v) { return Num{v, false}; }
inline Num NpF64(double v) { return Num{v, false, true}; }
inline Num Op(Num a, Num b, char op) {
  if ((a.f32 || b.f32) && !a.np64 && !b.np64) {
    const float x = static_cast<float>(a.v), y = static_cast<float>(b.v);
    float r = 0.0f;
    if (op == '+') r = x + y;
    if (op == '-') r = x - y;
    if (op == '*') r = x * y;
    if (op == '/') r = x / y;
    return Num{static_cast<double>(r), true};
  }
  double r = 0.0;
  if (op == '+') r = a.v + b.v;
  if (op == '-') r = a.v - b.v;
  if (op == '*') r = a.v * b.v;
  if (op == '/') r = a.v / b.v;
  return Num{r, false, a.np64 || b.np64};
}

// reward_utils.tolerance with sigmoid="long_tail" and value_at_margin 0.1.
inline double Tolerance(double x, double lower, double upper, double margin) {
  const bool in_bounds = lower <= x && x <= upper;
  if (margin == 0) return in_bounds ? 1.0 : 0.0;
  const double d = (x < lower ? lower - x : x - upper) / margin;
  if (in_bounds) return 1.0;
  const double scale = std::sqrt(1 / 0.1 - 1);
  return 1 / (PyPow2(d * scale) + 1);  // numpy's `** 2` on a float64 scalar: libm's pow
}

// reward_utils.tolerance with sigmoid="gaussian" and value_at_margin 0.1.
inline double ToleranceGaussian(double x, double lower, double upper, double margin) {
  const bool in_bounds = lower <= x && x <= upper;
  if (margin == 0) return in_bounds ? 1.0 : 0.0;
  const double d = (x < lower ? lower - x : x - upper) / margin;
  if (in_bounds) return 1.0;
  const double scale = std::sqrt(-2 * std::log(0.1));
  return std::exp(-0.5 * PyPow2(d * scale));
}

// reward_utils.hamacher_product: (a b) / (a + b - a b), 0 when the denominator is not > 0.
inline Num Hamacher(Num a, Num b) {
  const Num ab = Op(a, b, '*');
  const Num denominator = Op(Op(a, b, '+'), ab, '-');
  if (denominator.v > 0) return Op(ab, denominator, '/');
  return Num{0.0, false};  // the Python int 0
}

// scipy's Rotation.from_matrix(m).as_quat() (x, y, z, w) of an orthonormal 3x3 matrix
// (MuJoCo's xmat is orthonormal to far below scipy's 1e-12 test, so scipy skips its SVD).
inline std::array<double, 4> MatrixToQuat(const double* m) {
  const double trace = m[0] + m[4] + m[8];
  const double decision[4] = {m[0], m[4], m[8], trace};
  int choice = 0;
  for (int i = 1; i < 4; ++i) {
    if (decision[i] > decision[choice]) choice = i;
  }
  std::array<double, 4> q{};
  if (choice != 3) {
    const int i = choice, j = (i + 1) % 3, k = (j + 1) % 3;
    q[i] = 1 - trace + 2 * m[3 * i + i];
    q[j] = m[3 * j + i] + m[3 * i + j];
    q[k] = m[3 * k + i] + m[3 * i + k];
    q[3] = m[3 * k + j] - m[3 * j + k];
  } else {
    q[0] = m[7] - m[5];
    q[1] = m[2] - m[6];
    q[2] = m[3] - m[1];
    q[3] = 1 + trace;
  }
  const double norm = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (double& x : q) x /= norm;
  return q;
}

class Sawyer;

// evaluate_state's info, in the order of Sawyer::InfoKeys.
inline void SetInfo(double* info, const std::array<double, 7>& values) {
  std::copy(values.begin(), values.end(), info);
}

// A task's constants (its __init__), as SawyerXYZEnv keeps them.
struct TaskConfig {
  std::string xml;  // under the package's assets folder
  Vec3 hand_low{-0.2, 0.55, 0.05}, hand_high{0.2, 0.75, 0.3};
  Vec3 hand_init_pos{0, 0.6, 0.2};
  std::vector<double> random_low, random_high;  // _random_reset_space
  Vec3 goal_low{}, goal_high{};                  // goal_space
  // _target_site_config's site: its xpos is set to the target after each step's physics.
  std::string target_site = "goal";
};

// The constants of most tasks: the hand in (-0.5, 0.4, 0.05) to (0.5, 1, 0.5).
inline TaskConfig HandConfig(std::string xml, const Vec3& hand_init_pos,
                             std::vector<double> random_low, std::vector<double> random_high,
                             const Vec3& goal_low, const Vec3& goal_high) {
  TaskConfig c;
  c.xml = std::move(xml);
  c.hand_low = {-0.5, 0.40, 0.05};
  c.hand_high = {0.5, 1, 0.5};
  c.hand_init_pos = hand_init_pos;
  c.random_low = std::move(random_low);
  c.random_high = std::move(random_high);
  c.goal_low = goal_low;
  c.goal_high = goal_high;
  return c;
}
// A hand_init_pos given as np.array(..., dtype=np.float32).
inline Vec3 Float32Vec(float x, float y, float z) {
  return {static_cast<double>(x), static_cast<double>(y), static_cast<double>(z)};
}

// One v3 task: its reset_model after _reset_hand, its objects' observation, its
// evaluate_state. Each env owns its task object (the task's own per-episode values).
class SawyerTask {
 public:
  virtual ~SawyerTask() = default;
  virtual TaskConfig Config() const = 0;
  // reset_model's draws from the random vector: returns the vector that reset_model keeps
  // (drawn with env.RandVec(), again while the task rejects it).
  virtual std::vector<double> DrawRandVec(Sawyer& env) const = 0;
  // The rest of reset_model, after _reset_hand, with the vector DrawRandVec returned.
  virtual void ResetModel(Sawyer& env, const std::vector<double>& rand_vec) = 0;
  // What reset_model writes into the model from the vector alone (a body moved to it), for
  // the tasks' ResetModel to share: the first of a reset's two reset_model calls leaves it
  // behind for the second's _reset_hand.
  virtual void ModelWrites(Sawyer& /*env*/, const std::vector<double>& /*rand_vec*/) {}
  // _get_pos_objects and _get_quat_objects, interleaved (pos, quat) as the observation has
  // them; returns how many numbers were written.
  virtual int Objects(const Sawyer& env, double* out) const = 0;
  // evaluate_state: the reward and the seven info values (success, near_object,
  // grasp_success, grasp_reward, in_place_reward, obj_to_target, unscaled_reward).
  virtual double Evaluate(Sawyer& env, const double* obs, const float* action,
                          double* info) = 0;
  // After the step's mj_forward, before the observation: for a task whose _target_pos is a
  // view of MuJoCo's data (it follows the data).
  virtual void AfterForward(Sawyer& /*env*/) {}
};

// The task of a name (tasks.h), and its index in metaworld's ALL_V3_ENVIRONMENTS.
inline std::unique_ptr<SawyerTask> MakeTask(const std::string& name);
inline int TaskIndex(const std::string& name);

inline constexpr int kObsSize = 39;
inline constexpr int kMaxPathLength = 500;

class Sawyer final : public mujoco::MujocoEnv {
 public:
  struct Params : mujoco::ModelParams {
    explicit Params(const envpool::Config& c) {
      Keys().Read(c, *this);
      // Drawn: render_mode given (_render, set by the pool) or from_pixels (PixelObservation's
      // keyword, in the same config).
      if (c.Has("from_pixels") && c.GetBool("from_pixels")) drawn = true;
      blas.dot_fma = numpy_dot_fma;
      task_index = TaskIndex(task_name);
      config = MakeTask(task_name)->Config();
      if (assets_dir.empty()) {
        throw std::invalid_argument(
            "assets_dir is empty: Meta-World's models come with the metaworld package "
            "(pip install --no-deps metaworld==3.1.1)");
      }
      xml_file = config.xml;
      const std::string path = mujoco::ExpandModelPath(xml_file, assets_dir);
      char error[1000] = "";
      mjModel* m = mj_loadXML(path.c_str(), nullptr, error, sizeof(error));
      if (m == nullptr) throw std::runtime_error("MuJoCo could not load " + path + ": " + error);
      // SawyerMocapBase.reset_mocap_welds.
      static const double kWeld[11] = {0, 0, 0, 0, 0, 0, -1, 0, 0, 0, 5};
      for (int i = 0; i < m->neq; ++i) {
        if (m->eq_type[i] == mjEQ_WELD) std::copy(kWeld, kWeld + 11, m->eq_data + i * mjNEQDATA);
      }
      model = mujoco::ModelPtr(m, mujoco::ModelDeleter());
      const std::size_t dim = config.random_low.size();
      if (rand_vecs.size() % dim != 0) {
        throw std::invalid_argument(
            "rand_vecs holds " + std::to_string(rand_vecs.size()) + " numbers: " + task_name +
            "'s random vectors have " + std::to_string(dim) + " each (one or more of them, "
            "concatenated)");
      }
      if (use_one_hot && (num_tasks < 1 || one_hot_index < 0 || one_hot_index >= num_tasks)) {
        throw std::invalid_argument("use_one_hot needs num_tasks >= 1 and one_hot_index in 0 .. "
                                    "num_tasks - 1, got num_tasks=" + std::to_string(num_tasks) +
                                    ", one_hot_index=" + std::to_string(one_hot_index));
      }
    }
    std::string task_name;
    bool partially_observable = true;
    int frame_skip = 5;
    double action_scale = 0.01;
    // The task's random vectors (concatenated): empty, each reset draws one from
    // default_rng(seed) (seeded_rand_vec); one, every reset uses it (set_task's frozen
    // vector); several, each reset picks one with np_random.choice (RandomTaskSelectWrapper).
    std::vector<double> rand_vecs;
    // OneHotWrapper: one_hot_index's one of num_tasks numbers appended to the observation.
    bool use_one_hot = false;
    int num_tasks = 1;
    int one_hot_index = 0;
    bool drawn = false;  // frames are drawn: the reset's first reset_model call runs whole
    int task_index = 0;
    TaskConfig config;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    k.Add("task_name", std::string("reach-v3"), &Params::task_name);
    k.Add("partially_observable", true, &Params::partially_observable);
    k.Add("rand_vecs", std::vector<double>{}, &Params::rand_vecs);
    k.Add("use_one_hot", false, &Params::use_one_hot);
    k.Add("num_tasks", 1, &Params::num_tasks);
    k.Add("one_hot_index", 0, &Params::one_hot_index);
    k.Add("frame_skip", 5, &Params::frame_skip, false);
    k.Add("action_scale", 1.0 / 100, &Params::action_scale, false);
    k.Add("assets_dir", std::string(), &Params::assets_dir);
    k.Add("_numpy_dot_fma", true, &Params::numpy_dot_fma);
    k.Add("_render", false, &Params::drawn);  // set by the pool (envpool/core/spec.py)
    return k;
  }
  static envpool::Config Defaults() { return Keys().Defaults(); }

  static std::vector<std::string> InfoKeys() {
    return {"success",         "near_object",    "grasp_success",  "grasp_reward",
            "in_place_reward", "obj_to_target", "unscaled_reward"};
  }

  // The package's sawyer_observation_space, but for the goal of a fully observed task
  // (partially_observable=False), left unbounded here so that the envs of one pool may run
  // different tasks (its values are clipped to the task's goal_space as the package does).
  static EnvSpec MakeSpec(const Params& p) {
    const double inf = INFINITY;
    std::vector<double> low, high;
    for (int half = 0; half < 2; ++half) {
      for (int i = 0; i < 3; ++i) {
        low.push_back(kHandLow[i]);
        high.push_back(kHandHigh[i]);
      }
      low.push_back(-1.0);
      high.push_back(1.0);
      for (int i = 0; i < 14; ++i) {
        low.push_back(-inf);
        high.push_back(inf);
      }
    }
    for (int i = 0; i < 3; ++i) {
      low.push_back(p.partially_observable ? 0.0 : -inf);
      high.push_back(p.partially_observable ? 0.0 : inf);
    }
    const int one_hot = p.use_one_hot ? p.num_tasks : 0;
    low.resize(low.size() + one_hot, 0.0);
    high.resize(high.size() + one_hot, 1.0);
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("obs", DType::kFloat64, {kObsSize + one_hot}, low, high));
    spec.action = BoxSpec("action", DType::kFloat32, {4}, {-1, -1, -1, -1}, {1, 1, 1, 1});
    for (const std::string& key : InfoKeys()) {
      spec.info.push_back(BoxSpec(key, DType::kFloat64, {}));
    }
    spec.info.push_back(BoxSpec("task_id", DType::kInt32, {}));
    return spec;
  }

  explicit Sawyer(const Params& p)
      : MujocoEnv(OwnModel(p), p.frame_skip, InfoKeys().size()),
        p_(p),
        model_rw_(const_cast<mjModel*>(m_)),  // this env's own copy (OwnModel)
        task_(MakeTask(p.task_name)),
        cfg_(p.config) {
    hand_ = Id(mjOBJ_BODY, "hand");
    rightclaw_ = Id(mjOBJ_BODY, "rightclaw");
    leftclaw_ = Id(mjOBJ_BODY, "leftclaw");
    leftpad_ = Id(mjOBJ_BODY, "leftpad");
    rightpad_ = Id(mjOBJ_BODY, "rightpad");
    right_ee_ = Id(mjOBJ_SITE, "rightEndEffector");
    left_ee_ = Id(mjOBJ_SITE, "leftEndEffector");
    goal_site_ = mj_name2id(m_, mjOBJ_SITE, cfg_.target_site.c_str());  // -1: none
    leftpad_geom_ = Id(mjOBJ_GEOM, "leftpad_geom");
    rightpad_geom_ = Id(mjOBJ_GEOM, "rightpad_geom");
    mocap_ = m_->body_mocapid[Id(mjOBJ_BODY, "mocap")];
    mj_forward(m_, d_);
  }

  void Seed(std::uint64_t seed) override { np_random_.Seed(seed); }

  void Reset(Rng& /*rng*/) override {
    curr_path_length_ = 0;
    if (!p_.rand_vecs.empty()) {
      // RandomTaskSelectWrapper.reset: np_random.choice(len(tasks)), then set_task.
      const auto count = static_cast<std::int64_t>(p_.rand_vecs.size() / cfg_.random_low.size());
      rand_vec_index_ = static_cast<std::size_t>(np_random_.Integers(0, count));
      fixed_draws_ = 0;
    }
    // SawyerXYZEnv.reset's own reset_model call: its draws and its writes into the model
    // outlive it; the second call's physics computes from those writes before making its
    // own. The reset observation shows the bodies it moved (ModelWrites: from the vector
    // alone); the reset frame shows the goal site too (data.site_xpos, until the first
    // step's mj_forward), from a target that may come from the first call's physics (push's
    // goal height is the object's after the hand's settling). So where frames are drawn the
    // call runs whole (a second hand settling, 250 mj_steps); elsewhere it only draws and
    // moves the bodies, which gives the same observations, rewards and infos.
    if (p_.drawn) {
      ResetHand();
      task_->ResetModel(*this, task_->DrawRandVec(*this));
    } else {
      task_->ModelWrites(*this, task_->DrawRandVec(*this));
    }
    // gymnasium's MujocoEnv.reset: mj_resetData, then reset_model.
    mj_resetData(m_, d_);
    ResetHand();
    task_->ResetModel(*this, task_->DrawRandVec(*this));
    CurrentObs(curr_.data());
    obs_.fill(0.0);
    std::copy(curr_.begin(), curr_.end(), obs_.begin());
    std::copy(curr_.begin(), curr_.end(), obs_.begin() + 18);
    Goal(obs_.data() + 36);
    prev_ = curr_;
    std::fill(info_.begin(), info_.end(), 0.0);
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const float* a = action.As<float>();
    SetXyzAction(a);
    const double ctrl[2] = {static_cast<double>(a[3]), -static_cast<double>(a[3])};
    DoSimulation(ctrl);
    ++curr_path_length_;
    if (goal_site_ >= 0) {
      for (int i = 0; i < 3; ++i) d_->site_xpos[3 * goal_site_ + i] = target_pos[i];
    }
    mj_forward(m_, d_);
    task_->AfterForward(*this);
    // _get_obs: the current frame, the previous one, the goal; then clipped.
    CurrentObs(curr_.data());
    std::copy(curr_.begin(), curr_.end(), obs_.begin());
    std::copy(prev_.begin(), prev_.end(), obs_.begin() + 18);
    Goal(obs_.data() + 36);
    prev_ = curr_;
    ClipObs();
    StepOutcome out;
    out.reward = task_->Evaluate(*this, obs_.data(), a, info_.data());
    return out;
  }

  void Write(const Slot& slot) const override {
    double* obs = slot.Obs<double>();
    WriteObs(obs);
    if (p_.use_one_hot) {
      std::fill(obs + kObsSize, obs + kObsSize + p_.num_tasks, 0.0);
      obs[kObsSize + p_.one_hot_index] = 1.0;
    }
    for (std::size_t i = 0; i < info_.size(); ++i) *slot.Info<double>(i) = info_[i];
    *slot.Info<std::int32_t>(info_.size()) = p_.task_index;
  }

  // The helpers the tasks use (SawyerXYZEnv's), and their per-episode state.
  mjModel* model() { return model_rw_; }
  const mjModel* model() const { return m_; }
  mjData* data() { return d_; }
  const mjData* data() const { return d_; }
  const NumpyBlas& blas() const { return p_.blas; }
  int Id(mjtObj type, const char* name) const {
    const int id = mj_name2id(m_, type, name);
    if (id < 0) throw std::invalid_argument(std::string("the Sawyer model has no ") + name);
    return id;
  }
  Vec3 BodyPos(int body) const {  // get_body_com / data.body(name).xpos
    return {d_->xpos[3 * body], d_->xpos[3 * body + 1], d_->xpos[3 * body + 2]};
  }
  Vec3 GeomPos(int geom) const {
    return {d_->geom_xpos[3 * geom], d_->geom_xpos[3 * geom + 1], d_->geom_xpos[3 * geom + 2]};
  }
  std::array<double, 4> BodyQuat(int body) const {  // data.body(name).xquat
    return {d_->xquat[4 * body], d_->xquat[4 * body + 1], d_->xquat[4 * body + 2],
            d_->xquat[4 * body + 3]};
  }
  // get_body_com(name) and data.body(name).xquat, as _get_pos_objects and
  // _get_quat_objects of a body give them; returns 7.
  int BodyPosQuat(int body, double* out) const {
    const Vec3 pos = BodyPos(body);
    const auto quat = BodyQuat(body);
    std::copy(pos.begin(), pos.end(), out);
    std::copy(quat.begin(), quat.end(), out + 3);
    return 7;
  }
  // The same with the quaternion of the geom's xmat (Rotation.from_matrix(...).as_quat()).
  int BodyPosGeomQuat(int body, int geom, double* out) const {
    const Vec3 pos = BodyPos(body);
    const auto quat = GeomQuat(geom);
    std::copy(pos.begin(), pos.end(), out);
    std::copy(quat.begin(), quat.end(), out + 3);
    return 7;
  }
  // A site's xpos and a body's xquat.
  int SitePosBodyQuat(int site, int body, double* out) const {
    const Vec3 pos = SitePos(site);
    const auto quat = BodyQuat(body);
    std::copy(pos.begin(), pos.end(), out);
    std::copy(quat.begin(), quat.end(), out + 3);
    return 7;
  }
  // self.model.body(name).pos = pos.
  void SetBodyPos(int body, const Vec3& pos) {
    for (int i = 0; i < 3; ++i) model_rw_->body_pos[3 * body + i] = pos[i];
  }
  // A task's _set_obj_xyz on a hinge or slide joint: qpos[adr] = value (and qvel 0 when
  // zero_qvel), then set_state (mj_forward).
  void SetJoint(const char* joint, double value, bool zero_qvel) {
    const int j = Id(mjOBJ_JOINT, joint);
    std::vector<double> qpos(d_->qpos, d_->qpos + m_->nq), qvel(d_->qvel, d_->qvel + m_->nv);
    qpos[m_->jnt_qposadr[j]] = value;
    if (zero_qvel) qvel[m_->jnt_dofadr[j]] = 0;
    SetQposQvel(qpos.data(), qvel.data(), false);
  }
  // mujoco.mj_step(model, data), n times (a reset_model's own steps, no control change).
  void MjStep(int n) {
    for (int i = 0; i < n; ++i) mj_step(m_, d_);
  }
  int frame_skip() const { return frame_skip_; }
  double JointQpos(const char* joint) const {
    return d_->qpos[m_->jnt_qposadr[Id(mjOBJ_JOINT, joint)]];
  }
  // data.joint(name).qpos = value, without mj_forward.
  void SetJointQposOnly(const char* joint, double value) {
    d_->qpos[m_->jnt_qposadr[Id(mjOBJ_JOINT, joint)]] = value;
  }
  void Forward() { mj_forward(m_, d_); }
  Vec3 SitePos(int site) const {
    return {d_->site_xpos[3 * site], d_->site_xpos[3 * site + 1], d_->site_xpos[3 * site + 2]};
  }
  // tcp_center: (rightEndEffector + leftEndEffector) / 2.
  Vec3 TcpCenter() const {
    const Vec3 r = SitePos(right_ee_), l = SitePos(left_ee_);
    return {(r[0] + l[0]) / 2.0, (r[1] + l[1]) / 2.0, (r[2] + l[2]) / 2.0};
  }
  std::array<double, 4> GeomQuat(int geom) const { return MatrixToQuat(d_->geom_xmat + 9 * geom); }
  double Norm(const double* x, int n) const { return p_.blas.Norm(x, n); }
  double Dist(const Vec3& a, const Vec3& b) const {
    const double v[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return Norm(v, 3);
  }
  // _get_state_rand_vec: the episode's fixed vector (rand_vecs), or
  // self.np_random.uniform(low, high, size) of the task's _random_reset_space.
  std::vector<double> RandVec() {
    const std::size_t dim = cfg_.random_low.size();
    if (!p_.rand_vecs.empty()) {
      // Each of a reset's two reset_model calls reads it once; a third read is a task
      // rejecting it (objects too close), where the package would loop forever.
      if (++fixed_draws_ > 2) {
        throw std::invalid_argument(p_.task_name + " rejects the random vector of rand_vecs "
                                    "(its reset_model redraws it forever: two of its positions "
                                    "are too close in x-y)");
      }
      const auto first = p_.rand_vecs.begin() + static_cast<std::ptrdiff_t>(rand_vec_index_ * dim);
      return std::vector<double>(first, first + static_cast<std::ptrdiff_t>(dim));
    }
    std::vector<double> v(dim);
    for (std::size_t i = 0; i < v.size(); ++i) {
      v[i] = np_random_.Uniform(cfg_.random_low[i], cfg_.random_high[i]);
    }
    return v;
  }
  // The random vector of a task whose first and second triples are two objects (or an
  // object and a goal), redrawn while they are closer than min_xy in x-y.
  std::vector<double> RandVecApart(double min_xy) {
    std::vector<double> v = RandVec();
    while (p_.blas.Norm2(v[0] - v[3], v[1] - v[4]) < min_xy) v = RandVec();
    return v;
  }
  // _set_obj_xyz: qpos[9:12] = pos, qvel[9:15] = 0, set_state.
  void SetObjXyz(const Vec3& pos) { SetQpos(9, {pos[0], pos[1], pos[2]}, 9, 15); }
  // A task's own _set_obj_xyz (also on other joints than the first object's):
  // qpos[qpos_begin + i] = values[i], qvel[qvel_begin:qvel_end] = 0, then set_state.
  void SetQpos(int qpos_begin, const std::vector<double>& values, int qvel_begin,
               int qvel_end) {
    std::vector<double> qpos(d_->qpos, d_->qpos + m_->nq), qvel(d_->qvel, d_->qvel + m_->nv);
    std::copy(values.begin(), values.end(), qpos.begin() + qpos_begin);
    // numpy's slice qvel[qvel_begin:qvel_end]: cut at nv
    for (int i = qvel_begin; i < std::min(qvel_end, static_cast<int>(m_->nv)); ++i) qvel[i] = 0;
    SetQposQvel(qpos.data(), qvel.data(), false);
  }
  // self.model.site("goal").pos = target (the site of _target_site_config).
  void SetGoalSite(const Vec3& target) {
    if (goal_site_ < 0) throw std::logic_error("the model has no goal site");
    for (int i = 0; i < 3; ++i) model_rw_->site_pos[3 * goal_site_ + i] = target[i];
  }
  // self.model.site(name).pos = pos.
  void SetSitePos(const char* site, const Vec3& pos) {
    const int id = Id(mjOBJ_SITE, site);
    for (int i = 0; i < 3; ++i) model_rw_->site_pos[3 * id + i] = pos[i];
  }
  // touching_object: the contact forces of both pads on the geom are positive.
  bool TouchingObject(int geom) const {
    double left = 0, right = 0;  // Python's sum(), from the int 0
    for (int i = 0; i < d_->ncon; ++i) {
      const mjContact& c = d_->contact[i];
      const bool has_obj = c.geom1 == geom || c.geom2 == geom;
      if (!has_obj) continue;
      // efc_force[efc_address]; an excluded contact's -1 is numpy's last element.
      const int adr = c.efc_address >= 0 ? c.efc_address : d_->nefc - 1;
      if (c.geom1 == leftpad_geom_ || c.geom2 == leftpad_geom_) left += d_->efc_force[adr];
      if (c.geom1 == rightpad_geom_ || c.geom2 == rightpad_geom_) right += d_->efc_force[adr];
    }
    return 0 < left && 0 < right;
  }

  // The x-z distances of the tasks' own caging rewards (pick-place, push-back, sweep):
  // norm((tcp + [0, -tcp[1], 0]) - (obj + [0, -obj[1], 0])), 3-vectors with a zero y, and the
  // same of obj_init_pos and init_tcp.
  std::pair<double, double> XzDistances(const Vec3& obj_pos) const {
    const Vec3 tcp = TcpCenter();
    const double d_xz[3] = {(tcp[0] + 0.0) - (obj_pos[0] + 0.0),
                            (tcp[1] + -tcp[1]) - (obj_pos[1] + -obj_pos[1]),
                            (tcp[2] + 0.0) - (obj_pos[2] + 0.0)};
    const Vec3& o = obj_init_pos;
    const Vec3& t = init_tcp;
    const double init_xz[3] = {(o[0] + 0.0) - (t[0] + 0.0), (o[1] + -o[1]) - (t[1] + -t[1]),
                               (o[2] + 0.0) - (t[2] + 0.0)};
    return {Norm(d_xz, 3), Norm(init_xz, 3)};
  }

  // SawyerXYZEnv._gripper_caging_reward (the base version; pick-place has its own). Its
  // object's initial position is obj_init_pos, or init_pos where given (stick-push's copy
  // of it reads stick_init_pos).
  Num GripperCagingReward(const float* action, const double* obj_pos, double obj_radius,
                          double pad_success_thresh, double object_reach_radius,
                          double xz_thresh, double desired_gripper_effort, bool high_density,
                          bool medium_density, const Vec3* init_pos = nullptr) const {
    const Vec3& obj_init_pos = init_pos != nullptr ? *init_pos : this->obj_init_pos;
    const Vec3 left_pad = BodyPos(leftpad_), right_pad = BodyPos(rightpad_);
    const double pad_y[2] = {left_pad[1], right_pad[1]};
    double caging_lr[2];
    for (int i = 0; i < 2; ++i) {
      const double pad_to_obj = std::abs(pad_y[i] - obj_pos[1]);
      const double pad_to_objinit = std::abs(pad_y[i] - obj_init_pos[1]);
      const double margin = std::abs(pad_to_objinit - pad_success_thresh);
      caging_lr[i] = Tolerance(pad_to_obj, obj_radius, pad_success_thresh, margin);
    }
    const Num caging_y = Hamacher(F64(caging_lr[0]), F64(caging_lr[1]));
    const Vec3 tcp = TcpCenter();
    const double init_xz[2] = {obj_init_pos[0] - init_tcp[0], obj_init_pos[2] - init_tcp[2]};
    double caging_xz_margin = Norm(init_xz, 2);
    caging_xz_margin -= xz_thresh;
    const double xz[2] = {tcp[0] - obj_pos[0], tcp[2] - obj_pos[2]};
    const double caging_xz = Tolerance(Norm(xz, 2), 0, xz_thresh, caging_xz_margin);
    // min(max(0, action[-1]), effort) / effort: the int 0, a float32, or the float effort.
    Num gripper_closed;
    const float a = action[3];
    if (!(a > 0)) {
      gripper_closed = Op(Num{0.0, false}, F64(desired_gripper_effort), '/');
    } else if (desired_gripper_effort < a) {
      gripper_closed = Op(F64(desired_gripper_effort), F64(desired_gripper_effort), '/');
    } else {
      gripper_closed = Op(Num{a, true}, F64(desired_gripper_effort), '/');
    }
    const Num caging = Hamacher(caging_y, F64(caging_xz));
    const Num gripping = caging.v > 0.97 ? gripper_closed : F64(0.0);
    Num caging_and_gripping = Hamacher(caging, gripping);
    if (high_density) caging_and_gripping = Op(Op(caging_and_gripping, caging, '+'), F64(2), '/');
    if (medium_density) {
      const Vec3 t = TcpCenter();
      const double to_obj[3] = {obj_pos[0] - t[0], obj_pos[1] - t[1], obj_pos[2] - t[2]};
      const double tcp_to_obj = Norm(to_obj, 3);
      const double tcp_to_obj_init = Dist(obj_init_pos, init_tcp);
      const double reach_margin = std::abs(tcp_to_obj_init - object_reach_radius);
      const double reach = Tolerance(tcp_to_obj, 0, object_reach_radius, reach_margin);
      caging_and_gripping = Op(Op(caging_and_gripping, F64(reach), '+'), F64(2), '/');
    }
    return caging_and_gripping;
  }

  // The _gripper_caging_reward of the pushing tasks (soccer, sweep-into, sweep, push-back):
  // the pads' y caging, and their gripping within obj_radius + grip_extra, from the pads'
  // current positions (init_left_pad / init_right_pad are views of data.xpos), the x-z
  // caging within xz_margin; (caging + gripping) / 2, all Python floats (the action is
  // not read).
  double GrippingCagingReward(const double* obj_pos, double obj_radius, double grip_extra,
                              double xz_margin) const {
    const double pad_margin = 0.05;
    const double grip_margin = obj_radius + grip_extra;
    const Vec3 left_pad = BodyPos(leftpad_), right_pad = BodyPos(rightpad_);
    const double delta_left = left_pad[1] - obj_pos[1];
    const double delta_right = obj_pos[1] - right_pad[1];
    const double right_margin = std::abs(std::abs(obj_pos[1] - right_pad[1]) - pad_margin);
    const double left_margin = std::abs(std::abs(obj_pos[1] - left_pad[1]) - pad_margin);
    const double right_caging = Tolerance(delta_right, obj_radius, pad_margin, right_margin);
    const double left_caging = Tolerance(delta_left, obj_radius, pad_margin, left_margin);
    const double right_gripping =
        Tolerance(delta_right, obj_radius, grip_margin, right_margin);
    const double left_gripping = Tolerance(delta_left, obj_radius, grip_margin, left_margin);
    const double y_caging = Hamacher(F64(right_caging), F64(left_caging)).v;
    const double y_gripping = Hamacher(F64(right_gripping), F64(left_gripping)).v;
    const auto [tcp_obj_norm_x_z, init_norm_x_z] =
        XzDistances({obj_pos[0], obj_pos[1], obj_pos[2]});
    const double x_z_margin = init_norm_x_z - xz_margin;
    const double x_z_caging = Tolerance(tcp_obj_norm_x_z, 0, xz_margin, x_z_margin);
    const double caging = Hamacher(F64(y_caging), F64(x_z_caging)).v;
    const double gripping = caging > 0.95 ? y_gripping : 0.0;
    return (caging + gripping) / 2;
  }

  // The per-episode values of SawyerXYZEnv that the tasks set and read.
  Vec3 target_pos{}, obj_init_pos{}, init_tcp{};
  int leftpad_ = -1, rightpad_ = -1;

  const TaskConfig& config() const { return cfg_; }

 private:
  static constexpr double kHandLow[3] = {-0.525, 0.348, -0.0525};
  static constexpr double kHandHigh[3] = {0.525, 1.025, 0.7};

  // A copy of the shared compiled model for this env (its resets write to it).
  static mujoco::ModelParams OwnModel(const Params& p) {
    mujoco::ModelParams own = p;
    own.model = mujoco::ModelPtr(mj_copyModel(nullptr, p.model.get()), mujoco::ModelDeleter());
    return own;
  }

  // do_simulation(ctrl, frame_skip).
  void DoSimulation(const double ctrl[2]) {
    d_->ctrl[0] = ctrl[0];
    d_->ctrl[1] = ctrl[1];
    for (int i = 0; i < frame_skip_; ++i) mj_step(m_, d_);
    mj_rnePostConstraint(m_, d_);
  }

  // _reset_hand(50): the mocap held at hand_init_pos, the gripper opened.
  void ResetHand() {
    const double ctrl[2] = {-1.0, 1.0};
    for (int s = 0; s < 50; ++s) {
      for (int i = 0; i < 3; ++i) d_->mocap_pos[3 * mocap_ + i] = cfg_.hand_init_pos[i];
      const double quat[4] = {1, 0, 1, 0};
      std::copy(quat, quat + 4, d_->mocap_quat + 4 * mocap_);
      DoSimulation(ctrl);
    }
    init_tcp = TcpCenter();
  }

  // set_xyz_action.
  void SetXyzAction(const float* action) {
    for (int i = 0; i < 3; ++i) {
      const float a = std::min(std::max(action[i], -1.0f), 1.0f);
      const float delta = a * static_cast<float>(p_.action_scale);
      for (int b = 0; b < m_->nmocap; ++b) d_->mocap_pos[3 * b + i] += static_cast<double>(delta);
      d_->mocap_pos[i] = mujoco::Clip(d_->mocap_pos[i], cfg_.hand_low[i], cfg_.hand_high[i]);
    }
    const double quat[4] = {1, 0, 1, 0};
    for (int b = 0; b < m_->nmocap; ++b) std::copy(quat, quat + 4, d_->mocap_quat + 4 * b);
  }

  // _get_curr_obs_combined_no_goal.
  void CurrentObs(double* out) const {
    const Vec3 hand = BodyPos(hand_);
    std::copy(hand.begin(), hand.end(), out);
    const Vec3 r = BodyPos(rightclaw_), l = BodyPos(leftclaw_);
    const double apart = Dist(r, l);
    out[3] = mujoco::Clip(apart / 0.1, 0.0, 1.0);
    std::fill(out + 4, out + 18, 0.0);
    task_->Objects(*this, out + 4);
  }

  void Goal(double* out) const {
    for (int i = 0; i < 3; ++i) out[i] = p_.partially_observable ? 0.0 : target_pos[i];
  }

  // np.clip(obs, sawyer_observation_space.low, .high).
  void ClipObs() {
    for (int half = 0; half < 2; ++half) {
      double* o = obs_.data() + 18 * half;
      for (int i = 0; i < 3; ++i) o[i] = mujoco::Clip(o[i], kHandLow[i], kHandHigh[i]);
      o[3] = mujoco::Clip(o[3], -1.0, 1.0);
    }
    for (int i = 0; i < 3; ++i) {
      double& g = obs_[36 + i];
      g = p_.partially_observable ? mujoco::Clip(g, 0.0, 0.0)
                                  : mujoco::Clip(g, cfg_.goal_low[i], cfg_.goal_high[i]);
    }
  }

  void WriteObs(double* obs) const override { std::copy(obs_.begin(), obs_.end(), obs); }

  Params p_;
  mjModel* model_rw_;
  std::unique_ptr<SawyerTask> task_;
  TaskConfig cfg_;
  NumpyGenerator np_random_;
  int hand_ = -1, rightclaw_ = -1, leftclaw_ = -1, right_ee_ = -1, left_ee_ = -1;
  int goal_site_ = -1, leftpad_geom_ = -1, rightpad_geom_ = -1, mocap_ = -1;
  int curr_path_length_ = 0;
  std::size_t rand_vec_index_ = 0;  // the episode's vector in rand_vecs
  int fixed_draws_ = 0;             // RandVec reads of it in this reset
  std::array<double, 18> curr_{}, prev_{};
  std::array<double, kObsSize> obs_{};
};

// _get_pos_objects and _get_quat_objects of a task with one object, written as Objects
// returns them.
inline int WriteObject(double* out, const Vec3& pos, const std::array<double, 4>& quat) {
  std::copy(pos.begin(), pos.end(), out);
  std::copy(quat.begin(), quat.end(), out + 3);
  return 7;
}

// The hand's box of most tasks: (-0.5, 0.4, 0.05) to (0.5, 1, 0.5).
inline TaskConfig SawyerConfig(const std::string& xml, const Vec3& hand_init_pos) {
  return HandConfig(xml, hand_init_pos, {}, {}, {}, {});
}

// A task whose random vector, drawn once, is the position of one body of the model that
// reset_model moves there (self.model.body(name).pos = rand_vec: a box, a door).
class BodyTask : public SawyerTask {
 public:
  explicit BodyTask(const char* body) : body_(body) {}
  std::vector<double> DrawRandVec(Sawyer& env) const override { return env.RandVec(); }
  void ModelWrites(Sawyer& env, const std::vector<double>& v) override {
    env.SetBodyPos(env.Id(mjOBJ_BODY, body_), {v[0], v[1], v[2]});
  }

 private:
  const char* body_;
};

// The _reward_quat of the tool tasks: max(1 - |quat - ideal| / scale, 0).
inline double QuatReward(const Sawyer& env, const double* quat, const std::array<double, 4>& ideal,
                         double scale) {
  double q[4];
  for (int i = 0; i < 4; ++i) q[i] = quat[i] - ideal[i];
  return std::max(1.0 - env.Norm(q, 4) / scale, 0.0);
}

// A tool's position with its x replaced by the hand's where they are closer than
// half_length in x (hammer's hammer_threshed, the nut tasks' wrench_threshed).
inline Vec3 Threshed(const double* hand, const double* tool, double half_length) {
  Vec3 t = {tool[0], tool[1], tool[2]};
  if (std::abs(tool[0] - hand[0]) < half_length) t[0] = hand[0];
  return t;
}

// The tool tasks' reward: (2 grab + 6 in_place) * quat.
inline Num ToolReward(Num grab, double in_place, double quat) {
  return Op(Op(Op(F64(2.0), grab, '*'), F64(6.0 * in_place), '+'), F64(quat), '*');
}

// The tool tasks' info (near_object is the quaternion's reward); returns the reward.
inline double ToolInfo(double* info, bool success, double reward_quat, Num reward_grab,
                       double reward_in_place, Num reward) {
  SetInfo(info, {success ? 1.0 : 0.0, reward_quat, reward_grab.v >= 0.5 ? 1.0 : 0.0,
                 reward_grab.v, reward_in_place, 0.0, reward.v});
  return reward.v;
}

// The tasks with one object, body "obj" and geom "objGeom", observed as (pos, quat), whose
// random vector is (object x y z, goal x y z) and whose hand works in (-0.5, 0.4, 0.05) to
// (0.5, 1, 0.5) from (0, 0.6, 0.2): reach, push, pick-place.
class ObjectTask : public SawyerTask {
 public:
  static TaskConfig ObjectConfig(const std::string& xml, const Vec3& goal_low,
                                 const Vec3& goal_high) {
    TaskConfig c;
    c.xml = xml;
    c.hand_low = {-0.5, 0.40, 0.05};
    c.hand_high = {0.5, 1, 0.5};
    c.hand_init_pos = {0.0, 0.6, 0.2};
    c.random_low = {-0.1, 0.6, 0.02, goal_low[0], goal_low[1], goal_low[2]};
    c.random_high = {0.1, 0.7, 0.02, goal_high[0], goal_high[1], goal_high[2]};
    c.goal_low = goal_low;
    c.goal_high = goal_high;
    return c;
  }

  // Redrawn while the object and the goal are closer than 0.15 in x-y.
  std::vector<double> DrawRandVec(Sawyer& env) const override {
    std::vector<double> v = env.RandVec();
    while (env.blas().Norm2(v[0] - v[3], v[1] - v[4]) < 0.15) v = env.RandVec();
    return v;
  }

  int Objects(const Sawyer& env, double* out) const override {
    Ids(env);
    const Vec3 pos = env.BodyPos(obj_);
    const auto quat = env.GeomQuat(obj_geom_);
    std::copy(pos.begin(), pos.end(), out);
    std::copy(quat.begin(), quat.end(), out + 3);
    return 7;
  }

 protected:
  void Ids(const Sawyer& env) const {
    if (obj_ < 0) {
      obj_ = env.Id(mjOBJ_BODY, "obj");
      obj_geom_ = env.Id(mjOBJ_GEOM, "objGeom");
    }
  }
  mutable int obj_ = -1, obj_geom_ = -1;
};

}  // namespace envpool::metaworld
