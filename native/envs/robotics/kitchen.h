// Gymnasium-Robotics' Franka Kitchen (FrankaKitchen-v1; gymnasium_robotics 1.4.2):
// envs/franka_kitchen/kitchen_env.py's KitchenEnv over franka_env.py's FrankaRobot (a
// gymnasium MujocoEnv on the model kitchen_franka/kitchen_assets/kitchen_env_model.xml).
//
// The robot's 9 joints are driven by joint velocities in [-1, 1]: each step turns the action
// into position targets from the last *noisy* robot observation (FrankaRobot's
// _ctrl_velocity_limits and _ctrl_position_limits), runs frame_skip mj_steps and
// mj_rnePostConstraint, then observes: the robot's joint positions and velocities and the
// kitchen objects' qpos[9:] and qvel[9:], each plus uniform noise drawn from the env's
// np_random in that order (robot qpos, robot qvel, objects' qpos, objects' qvel), scaled by
// robot_noise_ratio / object_noise_ratio and the amplitudes of franka_config.xml (read by
// envpool/tasks/robotics_kitchen.py from the installed package, passed as hidden keywords).
//
// The goal-env observation: achieved_goal and desired_goal are dicts of the chosen tasks'
// joint values and goals (nested Dicts in gymnasium); here they are arrays named
// "achieved_goal:<task>" and "desired_goal:<task>" (sail-sg EnvPool's names) that the Python
// front nests. Each task is complete when the norm of its joints' distance to its goal is
// below BONUS_THRESH (0.3); the reward is the number of tasks completed at this step.
// The info arrays are 7-int masks in sail-sg EnvPool's task order (kTaskNames), and the state
// right after the reset (qpos0, qvel0, qacc0, qacc_warmstart0), which sail-sg EnvPool's tests
// set into the reference.
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/common/mujoco_env.h"
#include "envs/common/numpy_random.h"

namespace envpool::robotics {

namespace kitchen {

constexpr int kTasks = 7;
constexpr int kRobotDofs = 9;
// sail-sg EnvPool's task order (its info masks).
inline const std::array<const char*, kTasks> kTaskNames = {
    "bottom burner", "top burner", "light switch", "slide cabinet",
    "hinge cabinet", "microwave",  "kettle"};
// OBS_ELEMENT_INDICES and OBS_ELEMENT_GOALS of kitchen_env.py, in kTaskNames' order.
struct TaskGoal {
  int first, size;  // qpos[first : first + size]
  std::array<double, 7> goal;
};
inline const std::array<TaskGoal, kTasks> kTaskGoals = {{
    {11, 2, {-0.88, -0.01}},
    {15, 2, {-0.92, -0.01}},
    {17, 2, {-0.69, -0.05}},
    {19, 1, {0.37}},
    {20, 2, {0.0, 1.45}},
    {22, 1, {-0.75}},
    {23, 7, {-0.23, 0.75, 1.62, 0.99, 0.0, 0.0, -0.06}},
}};
constexpr double kBonusThresh = 0.3;
// KitchenEnv.__init__'s robot_env.init_qpos.
constexpr std::array<double, 30> kInitQpos = {
    1.48388023e-01,  -1.76848573e00,  1.84390296e00,  -2.47685760e00, 2.60252026e-01,
    7.12533105e-01,  1.59515394e00,   4.79267505e-02, 3.71350919e-02, -2.66279850e-04,
    -5.18043486e-05, 3.12877220e-05,  -4.51199853e-05, -3.90842156e-06, -4.22629655e-05,
    6.28065475e-05,  4.04984708e-05,  4.62730939e-04, -2.26906415e-04, -4.65501369e-04,
    -6.44129196e-03, -1.77048263e-03, 1.08009684e-03, -2.69397440e-01, 3.50383255e-01,
    1.61944683e00,   1.00618764e00,   4.06395120e-03, -6.62095997e-03, -2.68278933e-04};

}  // namespace kitchen

class Kitchen final : public mujoco::MujocoEnv {
 public:
  struct Params : mujoco::ModelParams {
    explicit Params(const Config& c) {
      mujoco::ReadParams(Keys(), c, *this);
      if (frame_skip < 1) throw std::invalid_argument("frame_skip must be at least 1");
      for (const std::string& name : c.GetStrings("tasks_to_complete")) {
        const auto it = std::find(kitchen::kTaskNames.begin(), kitchen::kTaskNames.end(), name);
        if (it == kitchen::kTaskNames.end()) {
          throw std::invalid_argument("The task " + name +
                                      " cannot be found the the list of possible goals: "
                                      "bottom burner, top burner, light switch, slide cabinet, "
                                      "hinge cabinet, microwave, kettle");
        }
        tasks[it - kitchen::kTaskNames.begin()] = true;
      }
      const mjModel* m = model.get();
      const std::size_t nv = static_cast<std::size_t>(m->nv);
      if (m->nq != 30 || m->nv != 29 || m->nu != kitchen::kRobotDofs) {
        throw std::invalid_argument("the Kitchen model must have 30 qpos, 29 qvel, 9 actuators");
      }
      if (pos_bound.size() != 2 * nv || vel_bound.size() != 2 * nv || pos_noise_amp.size() != nv ||
          vel_noise_amp.size() != nv) {
        throw std::invalid_argument("the Kitchen robot config needs nv bounds and amplitudes");
      }
      // robot_get_obs: the joints named "robot...", in id order.
      for (int j = 0; j < m->njnt; ++j) {
        const char* name = mj_id2name(m, mjOBJ_JOINT, j);
        if (name != nullptr && std::string(name).rfind("robot", 0) == 0) robot_joints.push_back(j);
      }
      if (robot_joints.size() != kitchen::kRobotDofs) {
        throw std::invalid_argument("the Kitchen model must have 9 robot joints");
      }
    }
    int frame_skip = 40;
    bool terminate_on_tasks_completed = true, remove_task_when_completed = true;
    double object_noise_ratio = 0.0005, robot_noise_ratio = 0.01;
    // franka_config.xml, per dof: (low, high) pairs, and the noise amplitudes.
    std::vector<double> pos_bound, vel_bound, pos_noise_amp, vel_noise_amp;
    std::array<bool, kitchen::kTasks> tasks{};  // the goal's tasks
    std::vector<int> robot_joints;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k = mujoco::ModelKeywords<Params>(
        "kitchen_franka/kitchen_assets/kitchen_env_model.xml", false);
    k.Add("frame_skip", 40, &Params::frame_skip).AtLeast(1);
    k.Add("terminate_on_tasks_completed", true, &Params::terminate_on_tasks_completed);
    k.Add("remove_task_when_completed", true, &Params::remove_task_when_completed);
    k.Add("object_noise_ratio", 0.0005, &Params::object_noise_ratio);
    k.Add("robot_noise_ratio", 0.01, &Params::robot_noise_ratio);
    // Hidden, from franka_config.xml (envpool/tasks/robotics_kitchen.py); the placeholder
    // defaults (one number, a list of numbers) make an env without them refuse to start.
    k.Add("_pos_bound", std::vector<double>{0.0}, &Params::pos_bound);
    k.Add("_vel_bound", std::vector<double>{0.0}, &Params::vel_bound);
    k.Add("_pos_noise_amp", std::vector<double>{0.0}, &Params::pos_noise_amp);
    k.Add("_vel_noise_amp", std::vector<double>{0.0}, &Params::vel_noise_amp);
    return k;
  }
  static Config Defaults() {
    Config c = Keys().Defaults();
    c.Set("tasks_to_complete", std::vector<std::string>(kitchen::kTaskNames.begin(),
                                                         kitchen::kTaskNames.end()));
    return c;
  }

  // gymnasium's Dict order (sorted keys, the tasks sorted by name too): achieved_goal:<task>,
  // desired_goal:<task>, observation (59); a float64 action box of 9 in [-1, 1]; the info masks
  // and the reset state.
  static EnvSpec MakeSpec(const Params& p) {
    EnvSpec spec;
    const std::vector<int> order = SortedTasks(p);
    for (const char* part : {"achieved_goal:", "desired_goal:"}) {
      for (int t : order) {
        spec.obs.push_back(BoxSpec(part + std::string(kitchen::kTaskNames[t]), DType::kFloat64,
                                   {kitchen::kTaskGoals[t].size}));
      }
    }
    spec.obs.push_back(BoxSpec("observation", DType::kFloat64, {59}));
    spec.obs_layout = ObsLayout::kDict;
    spec.action = BoxSpec("action", DType::kFloat64, {kitchen::kRobotDofs}, {-1.0}, {1.0});
    for (const char* key : {"tasks_to_complete", "step_task_completions",
                            "episode_task_completions"}) {
      spec.info.push_back(BoxSpec(key, DType::kInt32, {kitchen::kTasks}, {0}, {1}));
    }
    const mjModel* m = p.model.get();
    spec.info.push_back(BoxSpec("qpos0", DType::kFloat64, {m->nq}));
    spec.info.push_back(BoxSpec("qvel0", DType::kFloat64, {m->nv}));
    spec.info.push_back(BoxSpec("qacc0", DType::kFloat64, {m->nv}));
    spec.info.push_back(BoxSpec("qacc_warmstart0", DType::kFloat64, {m->nv}));
    return spec;
  }

  explicit Kitchen(const Params& p)
      : MujocoEnv(p, p.frame_skip, 0), p_(p), order_(SortedTasks(p)) {}

  void Seed(std::uint64_t seed) override { np_random_.Seed(seed); }

  // KitchenEnv.reset: the robot env's reset (mj_resetData, set_state(init_qpos, zeros), its
  // noisy observation), then the kitchen's observation; every task still to complete.
  void Reset(Rng& /*rng*/) override {
    mj_resetData(m_, d_);
    const std::vector<double> qvel(m_->nv, 0.0);
    SetQposQvel(kitchen::kInitQpos.data(), qvel.data());
    qacc0_.assign(d_->qacc, d_->qacc + m_->nv);
    qacc_warmstart0_.assign(d_->qacc_warmstart, d_->qacc_warmstart + m_->nv);
    Observe();
    remaining_ = p_.tasks;
    step_done_.fill(false);
    episode_done_.fill(false);
  }

  // KitchenEnv.step: FrankaRobot.step (the controls, the simulation, its observation), the
  // kitchen's observation, compute_reward, the completed tasks' bookkeeping.
  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const double* a = action.As<double>();
    const double dt = m_->opt.timestep * p_.frame_skip;
    for (int i = 0; i < kitchen::kRobotDofs; ++i) {
      // act_mid + clip(action) * act_rng, then the velocity and position limits.
      const double v = 0.0 + mujoco::Clip(a[i], -1.0, 1.0) * 2.0;
      const double vel = mujoco::Clip(v, p_.vel_bound[2 * i], p_.vel_bound[2 * i + 1]);
      const double pos = last_robot_qpos_[i] + vel * dt;
      d_->ctrl[i] = mujoco::Clip(pos, p_.pos_bound[2 * i], p_.pos_bound[2 * i + 1]);
    }
    for (int i = 0; i < frame_skip_; ++i) mj_step(m_, d_);
    mj_rnePostConstraint(m_, d_);
    Observe();
    // compute_reward over the tasks still to complete.
    int completed = 0;
    for (int t = 0; t < kitchen::kTasks; ++t) {
      step_done_[t] = remaining_[t] && TaskComplete(t);
      if (step_done_[t]) ++completed;
    }
    int episode_count = 0, goal_count = 0;
    for (int t = 0; t < kitchen::kTasks; ++t) {
      if (step_done_[t]) {
        if (p_.remove_task_when_completed) remaining_[t] = false;
        episode_done_[t] = true;
      }
      episode_count += episode_done_[t] ? 1 : 0;
      goal_count += p_.tasks[t] ? 1 : 0;
    }
    StepOutcome out;
    out.reward = static_cast<double>(completed);
    out.terminated = p_.terminate_on_tasks_completed && episode_count == goal_count;
    return out;
  }

  void Write(const Slot& slot) const override {
    std::size_t k = 0;
    for (int t : order_) {
      const kitchen::TaskGoal& g = kitchen::kTaskGoals[t];
      std::copy(d_->qpos + g.first, d_->qpos + g.first + g.size, slot.Obs<double>(k++));
    }
    for (int t : order_) {
      const kitchen::TaskGoal& g = kitchen::kTaskGoals[t];
      std::copy(g.goal.begin(), g.goal.begin() + g.size, slot.Obs<double>(k++));
    }
    std::copy(obs_.begin(), obs_.end(), slot.Obs<double>(k));
    const std::array<const std::array<bool, kitchen::kTasks>*, 3> masks = {
        &remaining_, &step_done_, &episode_done_};
    for (std::size_t i = 0; i < masks.size(); ++i) {
      std::int32_t* dst = slot.Info<std::int32_t>(i);
      for (int t = 0; t < kitchen::kTasks; ++t) dst[t] = (*masks[i])[t] ? 1 : 0;
    }
    std::copy(qpos0_.begin(), qpos0_.end(), slot.Info<double>(3));
    std::copy(qvel0_.begin(), qvel0_.end(), slot.Info<double>(4));
    std::copy(qacc0_.begin(), qacc0_.end(), slot.Info<double>(5));
    std::copy(qacc_warmstart0_.begin(), qacc_warmstart0_.end(), slot.Info<double>(6));
  }

  // The reference's frames: gymnasium's MujocoRenderer with franka_env.py's
  // DEFAULT_CAMERA_CONFIG (MujocoEnv::Render), 480 x 480. render_fps is the package's 12,
  // int(np.round(1 / dt)) with dt 0.08: numpy rounds 12.5 half to even (std::nearbyint in
  // the default rounding mode), where std::round would give 13.
  static FrameSize RenderSize(const Params& p, int width, int height, int camera_id) {
    FrameSize frame = MujocoEnv::RenderSize(p, width, height, camera_id);
    frame.fps = std::nearbyint(1.0 / (p.model->opt.timestep * p.frame_skip));
    return frame;
  }

 protected:
  mujoco::CameraConfig DefaultCamera() const override {
    mujoco::CameraConfig c;
    c.distance = 2.2;
    c.azimuth = 70.0;
    c.elevation = -35.0;
    c.lookat[0] = -0.2;
    c.lookat[1] = 0.5;
    c.lookat[2] = 2.0;
    return c;
  }

 private:
  // The goal's tasks in the order of their sorted names (gymnasium's Dict keys).
  static std::vector<int> SortedTasks(const Params& p) {
    std::vector<int> order;
    for (int t = 0; t < kitchen::kTasks; ++t) {
      if (p.tasks[t]) order.push_back(t);
    }
    std::sort(order.begin(), order.end(), [](int a, int b) {
      return std::string(kitchen::kTaskNames[a]) < std::string(kitchen::kTaskNames[b]);
    });
    return order;
  }

  // np.linalg.norm(achieved_goal[task] - desired_goal[task]) < BONUS_THRESH.
  bool TaskComplete(int t) const {
    const kitchen::TaskGoal& g = kitchen::kTaskGoals[t];
    double diff[7];
    for (int i = 0; i < g.size; ++i) diff[i] = d_->qpos[g.first + i] - g.goal[i];
    return p_.blas.Norm(diff, g.size) < kitchen::kBonusThresh;
  }

  // FrankaRobot._get_obs then KitchenEnv._get_obs: each part plus
  // (ratio * amplitude) * uniform(-1, 1), drawn in this order.
  void Observe() {
    double* o = obs_.data();
    for (int i = 0; i < kitchen::kRobotDofs; ++i) {
      const double x = d_->qpos[m_->jnt_qposadr[p_.robot_joints[i]]];
      o[i] = x + p_.robot_noise_ratio * p_.pos_noise_amp[i] * np_random_.Uniform(-1.0, 1.0);
      last_robot_qpos_[i] = o[i];
    }
    o += kitchen::kRobotDofs;
    for (int i = 0; i < kitchen::kRobotDofs; ++i) {
      const double x = d_->qvel[m_->jnt_dofadr[p_.robot_joints[i]]];
      o[i] = x + p_.robot_noise_ratio * p_.vel_noise_amp[i] * np_random_.Uniform(-1.0, 1.0);
    }
    o += kitchen::kRobotDofs;
    // obj_qpos = qpos[9:] with robot_pos_noise_amp[8:], obj_qvel = qvel[9:] with
    // robot_vel_noise_amp[9:] (the package's offsets, one apart).
    for (int i = kitchen::kRobotDofs; i < m_->nq; ++i) {
      *o++ = d_->qpos[i] +
             p_.object_noise_ratio * p_.pos_noise_amp[i - 1] * np_random_.Uniform(-1.0, 1.0);
    }
    for (int i = kitchen::kRobotDofs; i < m_->nv; ++i) {
      *o++ = d_->qvel[i] +
             p_.object_noise_ratio * p_.vel_noise_amp[i] * np_random_.Uniform(-1.0, 1.0);
    }
  }

  void WriteObs(double* obs) const override { std::copy(obs_.begin(), obs_.end(), obs); }

  Params p_;
  std::vector<int> order_;
  NumpyGenerator np_random_;
  std::array<double, 59> obs_{};
  std::array<double, kitchen::kRobotDofs> last_robot_qpos_{};
  std::array<bool, kitchen::kTasks> remaining_{}, step_done_{}, episode_done_{};
  std::vector<double> qacc0_, qacc_warmstart0_;
};

}  // namespace envpool::robotics
