// Gymnasium-Robotics' Fetch tasks on the mujoco bindings (FetchReach, FetchPush, FetchSlide,
// FetchPickAndPlace, v4; gymnasium_robotics 1.4.2): envs/fetch/fetch_env.py's
// MujocoFetchEnv over envs/robot_env.py's MujocoRobotEnv, with utils/mujoco_utils.py's
// mocap and actuator helpers and utils/rotations.py's mat2euler. One native env ("Fetch")
// for the four tasks: their differences are keywords (envpool/tasks/robotics.py sets each
// task's values, as each task's __init__ does).
//
// The goal-env contract: a dict observation (achieved_goal, desired_goal, observation, in
// gymnasium's sorted key order), info["is_success"] (float32, as _is_success returns it), and
// the reward of compute_reward (envpool/tasks/robotics.py has the batched compute_reward).
//
// What the pool shares (Params, built once): the model with reset_mocap_welds' edit of
// the weld's eq_data, and the result of _env_setup (the gripper moved into place by 10
// steps of the mocap), from which every reset starts: initial time, qpos, qvel, the
// gripper's site position and the object's height.
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/common/mujoco_env.h"
#include "envs/common/numpy_random.h"
#include "envs/common/rotations.h"

namespace envpool::robotics {

// The names of the MuJoCo base (envs/common/mujoco_env.h) that Fetch uses.
using mujoco::DataPtr;
using mujoco::FixedOrFreeCamera;
using mujoco::ModelKeywords;
using mujoco::ModelParams;
using mujoco::MujocoEnv;
using mujoco::SiteXposOn;

class Fetch final : public MujocoEnv {
 public:
  struct Params : ModelParams {
    explicit Params(const Config& c) {
      ReadParams(Keys(), c, *this);
      if (reward_type != "sparse" && reward_type != "dense") {
        throw std::invalid_argument("reward_type must be 'sparse' or 'dense', got '" + reward_type +
                                    "'");
      }
      if (n_substeps < 1) throw std::invalid_argument("n_substeps must be at least 1");
      target_offset = ReadVector(c, "target_offset", 3);
      initial_slide = ReadVector(c, "initial_slide", 3);
      initial_object_qpos = ReadVector(c, "initial_object_qpos", 7);
      Setup();
    }
    std::string reward_type;
    int n_substeps = 20;
    bool has_object = false, block_gripper = true, target_in_the_air = true;
    double gripper_extra_height = 0.2, obj_range = 0.15, target_range = 0.15,
           distance_threshold = 0.05;
    std::vector<double> target_offset, initial_slide, initial_object_qpos;
    // Model ids.
    int grip_site = -1, object_site = -1, object_joint = -1, target_site = -1;
    std::array<int, 2> finger_joints{-1, -1};  // robot0:l_ and r_gripper_finger_joint
    std::array<int, 2> gripper_state_joints{-1, -1};  // the last two "robot*" joints
    // _env_setup's results.
    double initial_time = 0;
    std::vector<double> initial_qpos, initial_qvel;
    double initial_gripper_xpos[3] = {0, 0, 0};
    double height_offset = 0;

   private:
    static std::vector<double> ReadVector(const Config& c, const std::string& key,
                                          std::size_t n) {
      std::vector<double> v = c.GetDoubles(key);
      if (v.size() != n) {
        throw std::invalid_argument(key + " must be a list of " + std::to_string(n) +
                                    " numbers");
      }
      return v;
    }
    int Id(mjtObj type, const char* name) const {
      const int id = mj_name2id(model.get(), type, name);
      if (id < 0) throw std::invalid_argument(std::string("the Fetch model has no '") + name + "'");
      return id;
    }
    // The model's edit (reset_mocap_welds), then _env_setup on a scratch mjData.
    void Setup();
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k = ModelKeywords<Params>("fetch/reach.xml", true);
    k.Add("reward_type", std::string("sparse"), &Params::reward_type);
    k.Add("n_substeps", 20, &Params::n_substeps).AtLeast(1);
    k.Add("has_object", false, &Params::has_object);
    k.Add("block_gripper", true, &Params::block_gripper);
    k.Add("target_in_the_air", true, &Params::target_in_the_air);
    k.Add("gripper_extra_height", 0.2, &Params::gripper_extra_height);
    k.Add("obj_range", 0.15, &Params::obj_range);
    k.Add("target_range", 0.15, &Params::target_range);
    k.Add("distance_threshold", 0.05, &Params::distance_threshold);
    return k;
  }
  static Config Defaults() {
    Config c = Keys().Defaults();
    // FetchReach's values (envs/fetch/reach.py).
    c.Set("target_offset", std::vector<double>{0.0, 0.0, 0.0});
    c.Set("initial_slide", std::vector<double>{0.4049, 0.48, 0.0});
    c.Set("initial_object_qpos", std::vector<double>{1.25, 0.53, 0.4, 1.0, 0.0, 0.0, 0.0});
    return c;
  }

  // The three observation arrays in gymnasium's Dict order (sorted keys), a float32 action
  // box of 4 in [-1, 1] (n_actions=4), and info["is_success"] as a float32 scalar.
  static EnvSpec MakeSpec(const Params& p) {
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("achieved_goal", DType::kFloat64, {3}));
    spec.obs.push_back(BoxSpec("desired_goal", DType::kFloat64, {3}));
    spec.obs.push_back(BoxSpec("observation", DType::kFloat64, {p.has_object ? 25 : 10}));
    spec.obs_layout = ObsLayout::kDict;
    spec.action = BoxSpec("action", DType::kFloat32, {4}, {-1, -1, -1, -1}, {1, 1, 1, 1});
    spec.info.push_back(BoxSpec("is_success", DType::kFloat32, {}));
    // The goals' distance (the reward's d), and sail-sg EnvPool's episode-start keys, which
    // its tests set into the reference to compare rollouts: the state right after the reset
    // (qpos, qvel, qacc, qacc_warmstart, after its mj_forward) and the episode's goal.
    const std::int64_t nq = p.model->nq, nv = p.model->nv;
    spec.info.push_back(BoxSpec("distance", DType::kFloat64, {}));
    spec.info.push_back(BoxSpec("qpos0", DType::kFloat64, {nq}));
    spec.info.push_back(BoxSpec("qvel0", DType::kFloat64, {nv}));
    spec.info.push_back(BoxSpec("qacc0", DType::kFloat64, {nv}));
    spec.info.push_back(BoxSpec("qacc_warmstart0", DType::kFloat64, {nv}));
    spec.info.push_back(BoxSpec("goal0", DType::kFloat64, {3}));
    return spec;
  }

  explicit Fetch(const Params& p)
      : MujocoEnv(p, p.n_substeps, 0),
        p_(p),
        qacc0_(static_cast<std::size_t>(m_->nv), 0.0),
        qacc_warmstart0_(static_cast<std::size_t>(m_->nv), 0.0) {}

  void Seed(std::uint64_t seed) override { np_random_.Seed(seed); }

  // reset: MujocoFetchEnv._reset_sim (mj_resetData, the setup's time, qpos and qvel, the
  // object's random start), then _sample_goal.
  void Reset(Rng& /*rng*/) override {
    mj_resetData(m_, d_);
    d_->time = p_.initial_time;
    std::copy(p_.initial_qpos.begin(), p_.initial_qpos.end(), d_->qpos);
    std::copy(p_.initial_qvel.begin(), p_.initial_qvel.end(), d_->qvel);
    const double* g = p_.initial_gripper_xpos;
    if (p_.has_object) {
      double xy[2] = {g[0], g[1]};
      // while np.linalg.norm(object_xpos - initial_gripper_xpos[:2]) < 0.1: redraw
      while (NumpyBlas::Fixed().Norm2(xy[0] - g[0], xy[1] - g[1]) < 0.1) {
        const double u0 = np_random_.Uniform(-p_.obj_range, p_.obj_range);
        const double u1 = np_random_.Uniform(-p_.obj_range, p_.obj_range);
        xy[0] = g[0] + u0;
        xy[1] = g[1] + u1;
      }
      const int adr = m_->jnt_qposadr[p_.object_joint];
      d_->qpos[adr] = xy[0];
      d_->qpos[adr + 1] = xy[1];
    }
    mj_forward(m_, d_);
    SampleGoal();
    success_ = 0.0f;
    distance_ = GoalDistance();
    qpos0_.assign(d_->qpos, d_->qpos + m_->nq);
    qvel0_.assign(d_->qvel, d_->qvel + m_->nv);
    qacc0_.assign(d_->qacc, d_->qacc + m_->nv);
    qacc_warmstart0_.assign(d_->qacc_warmstart, d_->qacc_warmstart + m_->nv);
    std::copy(goal_, goal_ + 3, goal0_);
  }

  // step: clip, _set_action, n_substeps mj_steps, _step_callback, then the observation,
  // is_success and compute_reward.
  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const float* raw = action.As<float>();
    float a[4];
    for (int i = 0; i < 4; ++i) a[i] = ClipF(raw[i]);
    // _set_action: pos_ctrl *= 0.05 in float32, the gripper's two equal controls (zeros when
    // blocked), concatenated with the fixed rotation [1, 0, 1, 0] into float64.
    double act[9];
    for (int i = 0; i < 3; ++i) act[i] = static_cast<double>(a[i] * 0.05f);
    act[3] = 1.0;
    act[4] = 0.0;
    act[5] = 1.0;
    act[6] = 0.0;
    const double grip = p_.block_gripper ? 0.0 : static_cast<double>(a[3]);
    act[7] = act[8] = grip;
    CtrlSetAction(act + 7);
    MocapSetAction(act);
    for (int i = 0; i < p_.n_substeps; ++i) mj_step(m_, d_);
    if (p_.block_gripper) {
      for (int j : p_.finger_joints) d_->qpos[m_->jnt_qposadr[j]] = 0.0;
      mj_forward(m_, d_);
    }
    const double d = GoalDistance();
    distance_ = d;
    success_ = d < p_.distance_threshold ? 1.0f : 0.0f;
    StepOutcome out;
    if (p_.reward_type == "sparse") {
      out.reward = static_cast<double>(-(d > p_.distance_threshold ? 1.0f : 0.0f));
    } else {
      out.reward = -d;
    }
    return out;
  }

  void Write(const Slot& slot) const override {
    const double* achieved = AchievedGoal();
    std::copy(achieved, achieved + 3, slot.Obs<double>(0));
    std::copy(goal_, goal_ + 3, slot.Obs<double>(1));
    WriteObs(slot.Obs<double>(2));
    *slot.Info<float>(0) = success_;
    *slot.Info<double>(1) = distance_;
    std::copy(qpos0_.begin(), qpos0_.end(), slot.Info<double>(2));
    std::copy(qvel0_.begin(), qvel0_.end(), slot.Info<double>(3));
    std::copy(qacc0_.begin(), qacc0_.end(), slot.Info<double>(4));
    std::copy(qacc_warmstart0_.begin(), qacc_warmstart0_.end(), slot.Info<double>(5));
    std::copy(goal0_, goal0_ + 3, slot.Info<double>(6));
  }

  // qpos, qvel, then the goal (3 numbers).
  std::vector<double> GetState() const override {
    std::vector<double> s = MujocoEnv::GetState();
    s.insert(s.end(), goal_, goal_ + 3);
    return s;
  }
  void SetState(const std::vector<double>& state) override {
    const std::size_t n = m_->nq + m_->nv;
    if (state.size() != n + 3) {
      throw std::invalid_argument("the state is qpos, qvel, then the goal: " +
                                  std::to_string(n + 3) + " numbers");
    }
    MujocoEnv::SetState(std::vector<double>(state.begin(), state.begin() + n));
    std::copy(state.begin() + n, state.end(), goal_);
  }

  // The reference's frames (robot_env.py's MujocoRobotEnv.render with fetch_env.py's
  // DEFAULT_CAMERA_CONFIG): 480 x 480 by default, render_fps round(1 / dt) = 25; camera -1 the
  // free camera, another id a camera of the model.
  static FrameSize RenderSize(const Params& p, int width, int height, int camera_id) {
    const auto [w, h] =
        mjrender::CheckFrame(p.model.get(), width, height, camera_id, 480, 480, "Fetch");
    return FrameSize{h, w, std::round(1.0 / (p.model->opt.timestep * p.n_substeps))};
  }

  // _render_callback, then gymnasium's MujocoRenderer: the goal is drawn by moving the
  // target0 site of the model (site_pos = goal - (site_xpos - site_pos) of site 0) and
  // mj_forward. The model of the pool is shared and read-only, so the env draws from its own
  // copy (made at its first frame, as the reference's renderer is), the one the reference
  // edits; the edit moves a site only, which no step reads.
  void Render(int width, int height, int camera_id, std::uint8_t* out) override {
    if (width == 0) width = 480;
    if (height == 0) height = 480;
    if (!render_model_) {
      render_model_.reset(mj_copyModel(nullptr, m_));
      if (!render_model_) throw std::runtime_error("MuJoCo could not copy the Fetch model");
      renderer_ = std::make_unique<mjrender::SceneRenderer>(render_model_.get(),
                                                            render_model_.get(), width, height,
                                                            1000);
    }
    mjModel* rm = render_model_.get();
    // sites_offset[0] = site_xpos[0] - site_pos[0], where the reference's site_xpos[0] came
    // from its edited model (site 0 is target0, whose position our steps compute from the
    // pool's model): site 0's position from its body's frame and the copy's site_pos, as
    // MuJoCo's kinematics place a site.
    double site0[3], offset[3];
    SiteXposOn(rm, d_, 0, site0);
    for (int i = 0; i < 3; ++i) offset[i] = site0[i] - rm->site_pos[i];
    for (int i = 0; i < 3; ++i) rm->site_pos[3 * p_.target_site + i] = goal_[i] - offset[i];
    mj_forward(rm, d_);
    // DEFAULT_CAMERA_CONFIG
    mjvCamera cam = FixedOrFreeCamera(camera_id, 2.5, 132.0, -14.0, 1.3, 0.75, 0.55);
    renderer_->Draw(rm, d_, &cam, width, height, out);
  }

 private:
  static float ClipF(float x) {
    if (std::isnan(x)) return x;
    return std::min(std::max(x, -1.0f), 1.0f);
  }

  // mujoco_utils.ctrl_set_action on the action's last two numbers: a position actuator
  // (biastype != 0) takes the joint's qpos plus the number.
  void CtrlSetAction(const double* action) {
    for (int i = 0; i < m_->nu && i < 2; ++i) {
      if (m_->actuator_biastype[i] == 0) {
        d_->ctrl[i] = action[i];
      } else {
        const int idx = m_->jnt_qposadr[m_->actuator_trnid[2 * i]];
        d_->ctrl[i] = d_->qpos[idx] + action[i];
      }
    }
  }

  // mujoco_utils.mocap_set_action: reset_mocap2body_xpos, then mocap pos and quat plus the
  // action's first 7 numbers (one mocap body).
  void MocapSetAction(const double* action) {
    if (m_->nmocap <= 0) return;
    for (int e = 0; e < m_->neq; ++e) {
      if (m_->eq_type[e] != mjEQ_WELD) continue;
      const int obj1 = m_->eq_obj1id[e], obj2 = m_->eq_obj2id[e];
      int mocap = m_->body_mocapid[obj1], body = obj2;
      if (mocap == -1) {
        mocap = m_->body_mocapid[obj2];
        body = obj1;
      }
      if (mocap == -1) throw std::runtime_error("a weld of the Fetch model has no mocap body");
      std::copy(d_->xpos + 3 * body, d_->xpos + 3 * body + 3, d_->mocap_pos + 3 * mocap);
      std::copy(d_->xquat + 4 * body, d_->xquat + 4 * body + 4, d_->mocap_quat + 4 * mocap);
    }
    for (int i = 0; i < 3; ++i) d_->mocap_pos[i] = d_->mocap_pos[i] + action[i];
    for (int i = 0; i < 4; ++i) d_->mocap_quat[i] = d_->mocap_quat[i] + action[3 + i];
  }

  // _sample_goal, numpy's draws in the reference's order.
  void SampleGoal() {
    const double* g = p_.initial_gripper_xpos;
    double u[3];
    for (double& x : u) x = np_random_.Uniform(-p_.target_range, p_.target_range);
    for (int i = 0; i < 3; ++i) goal_[i] = g[i] + u[i];
    if (p_.has_object) {
      for (int i = 0; i < 3; ++i) goal_[i] += p_.target_offset[i];
      goal_[2] = p_.height_offset;
      if (p_.target_in_the_air && np_random_.Uniform(0.0, 1.0) < 0.5) {
        goal_[2] += np_random_.Uniform(0.0, 0.45);
      }
    }
  }

  const double* AchievedGoal() const {
    return d_->site_xpos + 3 * (p_.has_object ? p_.object_site : p_.grip_site);
  }

  // goal_distance: np.linalg.norm(a - b, axis=-1) = sqrt(add.reduce(square)), summed in order.
  double GoalDistance() const {
    const double* a = AchievedGoal();
    double s = 0.0;
    for (int i = 0; i < 3; ++i) {
      const double v = a[i] - goal_[i];
      s = s + v * v;
    }
    return std::sqrt(s);
  }

  // (jac @ qvel) * dt of a site: jacp (or jacr) from mj_jacSite, the product summed in order.
  void SiteVelocity(int site, bool rotational, double dt, double out[3]) const {
    std::vector<double> jac(3 * m_->nv);
    if (rotational) {
      mj_jacSite(m_, d_, nullptr, jac.data(), site);
    } else {
      mj_jacSite(m_, d_, jac.data(), nullptr, site);
    }
    for (int r = 0; r < 3; ++r) {
      double s = 0.0;
      for (int j = 0; j < m_->nv; ++j) s = s + jac[r * m_->nv + j] * d_->qvel[j];
      out[r] = s * dt;
    }
  }

  // _get_obs' observation: grip_pos, object_pos, object_rel_pos, gripper_state, object_rot,
  // object_velp (relative to the gripper's), object_velr, grip_velp, gripper_vel.
  void WriteObs(double* obs) const override {
    const double dt = static_cast<double>(p_.n_substeps) * m_->opt.timestep;
    const double* grip_pos = d_->site_xpos + 3 * p_.grip_site;
    double grip_velp[3];
    SiteVelocity(p_.grip_site, false, dt, grip_velp);
    double* o = std::copy(grip_pos, grip_pos + 3, obs);
    if (p_.has_object) {
      const double* object_pos = d_->site_xpos + 3 * p_.object_site;
      double velp[3], velr[3];
      rotations::Mat3 xmat;
      std::copy(d_->site_xmat + 9 * p_.object_site, d_->site_xmat + 9 * p_.object_site + 9,
                xmat.begin());
      const rotations::Vec3 rot = rotations::Mat2Euler(xmat);
      SiteVelocity(p_.object_site, false, dt, velp);
      SiteVelocity(p_.object_site, true, dt, velr);
      o = std::copy(object_pos, object_pos + 3, o);
      for (int i = 0; i < 3; ++i) *o++ = object_pos[i] - grip_pos[i];
      for (int j : p_.gripper_state_joints) *o++ = d_->qpos[m_->jnt_qposadr[j]];
      o = std::copy(rot.begin(), rot.end(), o);
      for (int i = 0; i < 3; ++i) *o++ = velp[i] - grip_velp[i];
      o = std::copy(velr, velr + 3, o);
    } else {
      for (int j : p_.gripper_state_joints) *o++ = d_->qpos[m_->jnt_qposadr[j]];
    }
    o = std::copy(grip_velp, grip_velp + 3, o);
    for (int j : p_.gripper_state_joints) *o++ = d_->qvel[m_->jnt_dofadr[j]] * dt;
  }

  Params p_;
  NumpyGenerator np_random_;
  std::unique_ptr<mjModel, ModelDeleter> render_model_;  // the frames' model (Render)
  std::unique_ptr<mjrender::SceneRenderer> renderer_;
  double goal_[3] = {0, 0, 0};
  // The info's distance, and the episode's start (MakeSpec): qpos0_ and qvel0_ are
  // MujocoEnv's.
  double distance_ = 0.0;
  std::vector<double> qacc0_, qacc_warmstart0_;
  double goal0_[3] = {0, 0, 0};
  float success_ = 0.0f;
};

inline void Fetch::Params::Setup() {
  grip_site = Id(mjOBJ_SITE, "robot0:grip");
  target_site = Id(mjOBJ_SITE, "target0");
  finger_joints = {Id(mjOBJ_JOINT, "robot0:l_gripper_finger_joint"),
                   Id(mjOBJ_JOINT, "robot0:r_gripper_finger_joint")};
  std::vector<int> robot_joints;
  for (int j = 0; j < model->njnt; ++j) {
    const char* name = mj_id2name(model.get(), mjOBJ_JOINT, j);
    if (name != nullptr && std::strncmp(name, "robot", 5) == 0) robot_joints.push_back(j);
  }
  if (robot_joints.size() < 2) throw std::invalid_argument("the Fetch model has no gripper joints");
  gripper_state_joints = {robot_joints[robot_joints.size() - 2], robot_joints.back()};
  if (has_object) {
    object_site = Id(mjOBJ_SITE, "object0");
    object_joint = Id(mjOBJ_JOINT, "object0:joint");
  }
  // reset_mocap_welds edits the model: each weld's eq_data[:7] = [0, 0, 0, 0, 0, 0, 1].
  mjModel* m = mj_copyModel(nullptr, model.get());
  if (m == nullptr) throw std::runtime_error("MuJoCo could not copy the Fetch model");
  model = ModelPtr(m, ModelDeleter());
  if (m->nmocap > 0) {
    for (int e = 0; e < m->neq; ++e) {
      if (m->eq_type[e] != mjEQ_WELD) continue;
      const double weld[7] = {0, 0, 0, 0, 0, 0, 1};
      std::copy(weld, weld + 7, m->eq_data + e * mjNEQDATA);
    }
  }
  // _env_setup: initial_qpos by joint, reset_mocap_welds (its mj_forward), mj_forward, the
  // mocap moved above the table, 10 x n_substeps mj_steps.
  DataPtr data(mj_makeData(m));
  mjData* d = data.get();
  if (d == nullptr) throw std::runtime_error("MuJoCo could not allocate mjData");
  const char* slides[3] = {"robot0:slide0", "robot0:slide1", "robot0:slide2"};
  for (int i = 0; i < 3; ++i) d->qpos[m->jnt_qposadr[Id(mjOBJ_JOINT, slides[i])]] = initial_slide[i];
  if (has_object) {
    const int adr = m->jnt_qposadr[object_joint];
    std::copy(initial_object_qpos.begin(), initial_object_qpos.end(), d->qpos + adr);
  }
  mj_forward(m, d);
  mj_forward(m, d);
  const double offset[3] = {-0.498, 0.005, -0.431 + gripper_extra_height};
  const int mocap = m->body_mocapid[Id(mjOBJ_BODY, "robot0:mocap")];
  if (mocap < 0) throw std::invalid_argument("robot0:mocap is not a mocap body");
  for (int i = 0; i < 3; ++i) d->mocap_pos[3 * mocap + i] = offset[i] + d->site_xpos[3 * grip_site + i];
  const double quat[4] = {1.0, 0.0, 1.0, 0.0};
  std::copy(quat, quat + 4, d->mocap_quat + 4 * mocap);
  for (int k = 0; k < 10; ++k) {
    for (int s = 0; s < n_substeps; ++s) mj_step(m, d);
  }
  std::copy(d->site_xpos + 3 * grip_site, d->site_xpos + 3 * grip_site + 3, initial_gripper_xpos);
  if (has_object) height_offset = d->site_xpos[3 * object_site + 2];
  initial_time = d->time;
  initial_qpos.assign(d->qpos, d->qpos + m->nq);
  initial_qvel.assign(d->qvel, d->qvel + m->nv);
}

}  // namespace envpool::robotics
