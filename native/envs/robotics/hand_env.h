// What Gymnasium-Robotics' Shadow Dexterous Hand tasks share (gymnasium_robotics 1.4.2,
// envs/shadow_dexterous_hand/hand_env.py's MujocoHandEnv over envs/robot_env.py's
// MujocoRobotEnv): the 20 position actuators driven by an action in [-1, 1] (the control
// range's centre plus the action times its half-width, clipped), n_substeps mj_steps per
// step, the robot's joint positions and velocities in the observation, the goal-env
// contract (a dict observation achieved_goal / desired_goal / observation, info is_success
// as float32), and the frames (hand_env.py's DEFAULT_CAMERA_CONFIG).
//
// Info keys beside is_success, for sail-sg EnvPool's alignment tests (they set the state
// after a reset into the reference): qpos0, qvel0, qacc0, qacc_warmstart0 and goal0, the
// simulation's state and the goal right after the episode's reset.
//
// Randomness: numpy's default_rng(seed) of the reference (env.np_random), reproduced by
// NumpyGenerator (uniform, integers) and NumpyZiggurat (normal) in the reference's order.
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/common/mujoco_env.h"
#include "envs/common/numpy_normal.h"
#include "envs/common/numpy_random.h"

namespace envpool::robotics {

using mujoco::DataPtr;
using mujoco::ModelDeleter;
using mujoco::ModelParams;
using mujoco::MujocoEnv;

// The keywords every hand task has (after ModelParams'): reward_type, n_substeps,
// distance_threshold, and numpy's ziggurat tables (hidden, envpool/tasks/_numpy_ziggurat.py).
struct HandParams : ModelParams {
  std::string reward_type;
  int n_substeps = 20;
  double distance_threshold = 0.01;
  std::vector<double> zig_ki, zig_wi, zig_fi;
  NumpyZiggurat ziggurat;
  std::vector<int> robot_joints;  // the joints named robot*, in id order (robot_get_obs)

  // After the keywords are read: checks, the ziggurat, the robot joints.
  void Finish(const char* task) {
    if (reward_type != "sparse" && reward_type != "dense") {
      throw std::invalid_argument("reward_type must be 'sparse' or 'dense', got '" + reward_type +
                                  "'");
    }
    if (n_substeps < 1) throw std::invalid_argument("n_substeps must be at least 1");
    ziggurat = NumpyZiggurat::From(zig_ki, zig_wi, zig_fi);
    const mjModel* m = model.get();
    if (m->nu != 20) {
      throw std::invalid_argument(std::string("the ") + task + " model must have 20 actuators");
    }
    for (int j = 0; j < m->njnt; ++j) {
      const char* name = mj_id2name(m, mjOBJ_JOINT, j);
      if (name != nullptr && std::strncmp(name, "robot", 5) == 0) robot_joints.push_back(j);
    }
  }

  int Id(mjtObj type, const std::string& name, const char* task) const {
    const int id = mj_name2id(model.get(), type, name.c_str());
    if (id < 0) throw std::invalid_argument(std::string("the ") + task + " model has no '" + name + "'");
    return id;
  }
};

template <class P>
Keywords<P> HandKeywords(const std::string& xml_file, double distance_threshold) {
  Keywords<P> k = mujoco::ModelKeywords<P>(xml_file, true);
  k.Add("reward_type", std::string("sparse"), &P::reward_type);
  k.Add("n_substeps", 20, &P::n_substeps).AtLeast(1);
  k.Add("distance_threshold", distance_threshold, &P::distance_threshold);
  k.Add("_ziggurat_ki", std::vector<double>{}, &P::zig_ki);
  k.Add("_ziggurat_wi", std::vector<double>{}, &P::zig_wi);
  k.Add("_ziggurat_fi", std::vector<double>{}, &P::zig_fi);
  return k;
}

class HandEnv : public MujocoEnv {
 public:
  // The observation (three arrays, in gymnasium's sorted Dict order), the action box of
  // 20, and the infos.
  static EnvSpec HandSpec(const mjModel* m, int goal_size, int obs_size) {
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("achieved_goal", DType::kFloat64, {goal_size}));
    spec.obs.push_back(BoxSpec("desired_goal", DType::kFloat64, {goal_size}));
    spec.obs.push_back(BoxSpec("observation", DType::kFloat64, {obs_size}));
    spec.obs_layout = ObsLayout::kDict;
    spec.action = BoxSpec("action", DType::kFloat32, {20}, std::vector<double>(20, -1.0),
                          std::vector<double>(20, 1.0));
    spec.info.push_back(BoxSpec("is_success", DType::kFloat32, {}));
    spec.info.push_back(BoxSpec("qpos0", DType::kFloat64, {m->nq}));
    spec.info.push_back(BoxSpec("qvel0", DType::kFloat64, {m->nv}));
    spec.info.push_back(BoxSpec("qacc0", DType::kFloat64, {m->nv}));
    spec.info.push_back(BoxSpec("qacc_warmstart0", DType::kFloat64, {m->nv}));
    spec.info.push_back(BoxSpec("goal0", DType::kFloat64, {goal_size}));
    return spec;
  }

  // The reference's frames: 480 x 480 by default, render_fps round(1 / dt) = 25; camera -1
  // the free camera of DEFAULT_CAMERA_CONFIG, another id a camera of the model.
  static FrameSize HandRenderSize(const HandParams& p, int width, int height, int camera_id,
                                  const char* task) {
    const auto [w, h] =
        mjrender::CheckFrame(p.model.get(), width, height, camera_id, 480, 480, task);
    return FrameSize{h, w, std::round(1.0 / (p.model->opt.timestep * p.n_substeps))};
  }

  HandEnv(const HandParams& p, int goal_size)
      : MujocoEnv(p, p.n_substeps, 0), hp_(p), goal_(goal_size, 0.0), goal0_(goal_size, 0.0) {}

  void Seed(std::uint64_t seed) override { np_random_.Seed(seed); }

  // robot_env.reset: _reset_sim until it succeeds, then _sample_goal.
  void Reset(Rng& /*rng*/) override {
    while (!ResetSim()) {
    }
    SampleGoal();
    EpisodeStarted();
  }

  // MujocoRobotEnv.render: _render_callback (on the env's copy of the model: RenderModel),
  // then the frame.
  void Render(int width, int height, int camera_id, std::uint8_t* out) override {
    if (width == 0) width = 480;
    if (height == 0) height = 480;
    RenderCallback(RenderModel(width, height));
    mjvCamera cam = Camera(camera_id);
    renderer_->Draw(render_model_.get(), d_, &cam, width, height, out);
  }

  // robot_env.step: the action clipped to [-1, 1] (float32), _set_action, n_substeps mj_steps,
  // then is_success and compute_reward of the new achieved goal.
  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const float* raw = action.As<float>();
    double a[20];
    for (int i = 0; i < 20; ++i) {
      const float x = std::isnan(raw[i]) ? raw[i] : std::min(std::max(raw[i], -1.0f), 1.0f);
      a[i] = static_cast<double>(x);
    }
    SetAction(a);
    for (int i = 0; i < hp_.n_substeps; ++i) mj_step(m_, d_);
    success_ = IsSuccess();
    StepOutcome out;
    out.reward = Reward();
    return out;
  }

  void Write(const Slot& slot) const override {
    const std::vector<double> achieved = AchievedGoal();
    std::copy(achieved.begin(), achieved.end(), slot.Obs<double>(0));
    std::copy(goal_.begin(), goal_.end(), slot.Obs<double>(1));
    WriteObs(slot.Obs<double>(2));
    *slot.Info<float>(0) = success_;
    std::copy(qpos0_.begin(), qpos0_.end(), slot.Info<double>(1));
    std::copy(qvel0_.begin(), qvel0_.end(), slot.Info<double>(2));
    std::copy(qacc0_.begin(), qacc0_.end(), slot.Info<double>(3));
    std::copy(qacc_warmstart0_.begin(), qacc_warmstart0_.end(), slot.Info<double>(4));
    std::copy(goal0_.begin(), goal0_.end(), slot.Info<double>(5));
  }

  // qpos, qvel, then the goal.
  std::vector<double> GetState() const override {
    std::vector<double> s = MujocoEnv::GetState();
    s.insert(s.end(), goal_.begin(), goal_.end());
    return s;
  }
  void SetState(const std::vector<double>& state) override {
    const std::size_t n = m_->nq + m_->nv;
    if (state.size() != n + goal_.size()) {
      throw std::invalid_argument("the state is qpos, qvel, then the goal: " +
                                  std::to_string(n + goal_.size()) + " numbers");
    }
    MujocoEnv::SetState(std::vector<double>(state.begin(), state.begin() + n));
    std::copy(state.begin() + n, state.end(), goal_.begin());
  }

 protected:
  // MujocoHandEnv._set_action (absolute control): ctrl = centre + action * half-range of
  // each actuator's ctrlrange, then clipped to it.
  void SetAction(const double* action) {
    for (int i = 0; i < 20; ++i) {
      const double lo = m_->actuator_ctrlrange[2 * i], hi = m_->actuator_ctrlrange[2 * i + 1];
      const double range = (hi - lo) / 2.0, center = (hi + lo) / 2.0;
      d_->ctrl[i] = mujoco::Clip(center + action[i] * range, lo, hi);
    }
  }

  // robot_get_obs: the robot joints' qpos, then their qvel (hinges: one number each).
  double* WriteRobot(double* o) const {
    for (int j : hp_.robot_joints) *o++ = d_->qpos[m_->jnt_qposadr[j]];
    for (int j : hp_.robot_joints) *o++ = d_->qvel[m_->jnt_dofadr[j]];
    return o;
  }

  // The end of a reset: the info's state and goal of the episode, is_success back to 0.
  void EpisodeStarted() {
    qpos0_.assign(d_->qpos, d_->qpos + m_->nq);
    qvel0_.assign(d_->qvel, d_->qvel + m_->nv);
    qacc0_.assign(d_->qacc, d_->qacc + m_->nv);
    qacc_warmstart0_.assign(d_->qacc_warmstart, d_->qacc_warmstart + m_->nv);
    goal0_ = goal_;
    success_ = 0.0f;
  }

  // The free camera of DEFAULT_CAMERA_CONFIG, or the model's camera `camera_id`.
  static mjvCamera Camera(int camera_id) {
    return mujoco::FixedOrFreeCamera(camera_id, 0.5, 55.0, -25.0, 1.0, 0.96, 0.14);
  }

  // The model the frames are drawn with: the env's own copy, made at its first frame (as the
  // reference's renderer is), which _render_callback edits (sites, colours); no step reads it.
  mjModel* RenderModel(int width, int height) {
    if (!render_model_) {
      render_model_.reset(mj_copyModel(nullptr, m_));
      if (!render_model_) throw std::runtime_error("MuJoCo could not copy the hand model");
      renderer_ = std::make_unique<mjrender::SceneRenderer>(render_model_.get(),
                                                            render_model_.get(), width, height,
                                                            1000);
    }
    return render_model_.get();
  }
  virtual bool ResetSim() = 0;
  virtual void SampleGoal() = 0;
  virtual void RenderCallback(mjModel* rm) = 0;
  virtual std::vector<double> AchievedGoal() const = 0;
  virtual float IsSuccess() const = 0;
  virtual double Reward() const = 0;

  HandParams hp_;  // the shared keywords (a copy: an env may outlive the Params it was made from)
  NumpyGenerator np_random_;
  std::vector<double> goal_, goal0_;
  std::vector<double> qacc0_, qacc_warmstart0_;
  float success_ = 0.0f;
  std::unique_ptr<mjModel, ModelDeleter> render_model_;
  std::unique_ptr<mjrender::SceneRenderer> renderer_;
};

// goal_distance / np.linalg.norm(a - b, axis=-1) of n numbers: sqrt(add.reduce(square)),
// numpy's pairwise sum.
inline double GoalNorm(const double* a, const double* b, int n) {
  std::vector<double> sq(n);
  for (int i = 0; i < n; ++i) {
    const double v = a[i] - b[i];
    sq[i] = v * v;
  }
  return std::sqrt(mujoco::NumpySum(sq.data(), n));
}

}  // namespace envpool::robotics
