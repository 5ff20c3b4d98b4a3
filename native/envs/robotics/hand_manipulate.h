// Gymnasium-Robotics' hand manipulation tasks (gymnasium_robotics 1.4.2,
// envs/shadow_dexterous_hand/manipulate.py's MujocoManipulateEnv and
// manipulate_touch_sensors.py's MujocoManipulateTouchSensorsEnv; the Block, Egg and Pen
// classes, v1): an object in the hand to bring to a target position and orientation. One
// native env for every object and target mode; the keywords are the classes' arguments
// (xml_file picks the object's model, target_position "ignore" / "fixed" / "random",
// target_rotation "ignore" / "fixed" / "xyz" / "z" / "parallel", ...), and touch_get_obs
// ("" for the models without touch sensors; "sensordata", "boolean" or "log") appends the
// 92 touch sensors (robot0:TS_*) to the observation.
//
// The goal is the object's position and quaternion (7 numbers). A reset, as the reference's
// _reset_sim (which never calls mj_resetData: the solver's warm start and the controls carry
// over from the previous episode): the setup's time, qpos and qvel, mj_forward, the object
// turned and moved at random, 10 steps of the zero action to let it settle, mj_forward; all
// again while the object's centre is not above the palm (z <= 0.04). Then the goal.
#pragma once

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "envs/common/rotations.h"
#include "envs/robotics/hand_env.h"

namespace envpool::robotics {

class HandManipulate final : public HandEnv {
 public:
  struct Params : HandParams {
    explicit Params(const Config& c) {
      mujoco::ReadParams(Keys(), c, *this);
      Finish("HandManipulate");
      Setup();
    }
    std::string target_position, target_rotation, touch_get_obs, touch_visualisation;
    std::vector<double> target_position_range;  // 3 x (low, high), row-major
    bool randomize_initial_position = true, randomize_initial_rotation = true;
    bool ignore_z_target_rotation = false;
    double rotation_threshold = 0.1;
    int object_joint = -1, target_joint = -1, object_center = -1, object_hidden = -1;
    std::vector<int> touch_sensors, touch_sites;  // robot0:TS_* and their sites robot0:T_*
    std::vector<rotations::Quat> parallel_quats;
    double initial_time = 0;
    std::vector<double> initial_qpos, initial_qvel;

   private:
    void Setup();
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k = HandKeywords<Params>("hand/manipulate_block.xml", 0.01);
    k.Add("target_position", std::string("random"), &Params::target_position);
    k.Add("target_rotation", std::string("xyz"), &Params::target_rotation);
    k.Add("target_position_range", std::vector<double>{-0.04, 0.04, -0.06, 0.02, 0.0, 0.06},
          &Params::target_position_range);
    k.Add("randomize_initial_position", true, &Params::randomize_initial_position);
    k.Add("randomize_initial_rotation", true, &Params::randomize_initial_rotation);
    k.Add("rotation_threshold", 0.1, &Params::rotation_threshold);
    k.Add("ignore_z_target_rotation", false, &Params::ignore_z_target_rotation);
    k.Add("touch_get_obs", std::string(), &Params::touch_get_obs);
    k.Add("touch_visualisation", std::string("on_touch"), &Params::touch_visualisation);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }
  static EnvSpec MakeSpec(const Params& p) {
    return HandSpec(p.model.get(), 7, 61 + static_cast<int>(p.touch_sensors.size()));
  }
  static FrameSize RenderSize(const Params& p, int width, int height, int camera_id) {
    return HandRenderSize(p, width, height, camera_id, "HandManipulate");
  }

  explicit HandManipulate(const Params& p) : HandEnv(p, 7), p_(p) {}

 protected:
  // _render_callback: the target object at the goal (moved 0.15 along x when the position is
  // ignored), at rest; the hidden inner geom shown; mj_forward; the touch sites coloured by
  // their sensors (touch_visualisation "on_touch"). The target's joint is the simulation's
  // (as in the reference); the colours are the frames' model's.
  void RenderCallback(mjModel* rm) override {
    if (!render_prepared_) {
      render_prepared_ = true;
      if (p_.touch_visualisation == "off") {
        for (int s : p_.touch_sites) rm->site_rgba[4 * s + 3] = 0.0f;
      }
    }
    std::vector<double> goal = goal_;
    if (p_.target_position == "ignore") goal[0] += 0.15;
    std::copy(goal.begin(), goal.end(), d_->qpos + m_->jnt_qposadr[p_.target_joint]);
    std::fill(d_->qvel + m_->jnt_dofadr[p_.target_joint],
              d_->qvel + m_->jnt_dofadr[p_.target_joint] + 6, 0.0);
    if (p_.object_hidden >= 0) rm->geom_rgba[4 * p_.object_hidden + 3] = 1.0f;
    mj_forward(rm, d_);
    if (p_.touch_visualisation == "on_touch") {
      const float touch[4] = {1.0f, 0.0f, 0.0f, 0.5f}, notouch[4] = {0.0f, 0.5f, 0.0f, 0.2f};
      for (std::size_t i = 0; i < p_.touch_sensors.size(); ++i) {
        const float* c = d_->sensordata[p_.touch_sensors[i]] != 0.0 ? touch : notouch;
        std::copy(c, c + 4, rm->site_rgba + 4 * p_.touch_sites[i]);
      }
    }
  }

  // The object's joint qpos (position, quaternion).
  std::vector<double> AchievedGoal() const override {
    const double* q = d_->qpos + m_->jnt_qposadr[p_.object_joint];
    return std::vector<double>(q, q + 7);
  }

  // _goal_distance: the positions' distance (0 when ignored), and the angle between the
  // quaternions, 2 arccos(clip(w of quat_a * conj(quat_b))), quat_a with quat_b's Euler z
  // when ignore_z_target_rotation (0 when the rotation is ignored).
  std::pair<double, double> GoalDistance(const double* a, const double* b) const {
    double d_pos = 0.0, d_rot = 0.0;
    if (p_.target_position != "ignore") d_pos = GoalNorm(a, b, 3);
    if (p_.target_rotation != "ignore") {
      rotations::Quat qa{a[3], a[4], a[5], a[6]}, qb{b[3], b[4], b[5], b[6]};
      if (p_.ignore_z_target_rotation) {
        rotations::Vec3 ea = rotations::Quat2Euler(qa);
        const rotations::Vec3 eb = rotations::Quat2Euler(qb);
        ea[2] = eb[2];
        qa = rotations::Euler2Quat(ea);
      }
      const rotations::Quat diff = rotations::QuatMul(qa, rotations::QuatConjugate(qb));
      d_rot = 2 * std::acos(mujoco::Clip(diff[0], -1.0, 1.0));
    }
    return {d_pos, d_rot};
  }
  float IsSuccess() const override {
    const auto [d_pos, d_rot] = GoalDistance(AchievedGoal().data(), goal_.data());
    const float pos = d_pos < p_.distance_threshold ? 1.0f : 0.0f;
    const float rot = d_rot < p_.rotation_threshold ? 1.0f : 0.0f;
    return pos * rot;
  }
  // compute_reward: success - 1 (float32, sparse), -(10 d_pos + d_rot) (dense).
  double Reward() const override {
    if (p_.reward_type == "sparse") return static_cast<double>(IsSuccess() - 1.0f);
    const auto [d_pos, d_rot] = GoalDistance(AchievedGoal().data(), goal_.data());
    return -(10.0 * d_pos + d_rot);
  }

  // _get_obs' observation: robot qpos, robot qvel, the object's qvel (6), the achieved
  // goal (7), then the touch sensors (their values, > 0 as 0 / 1, or log(value + 1)).
  void WriteObs(double* obs) const override {
    double* o = WriteRobot(obs);
    const double* v = d_->qvel + m_->jnt_dofadr[p_.object_joint];
    o = std::copy(v, v + 6, o);
    const std::vector<double> g = AchievedGoal();
    o = std::copy(g.begin(), g.end(), o);
    for (int s : p_.touch_sensors) {
      const double x = d_->sensordata[s];  // indexed by sensor id, as the reference does
      if (p_.touch_get_obs == "sensordata") {
        *o++ = x;
      } else if (p_.touch_get_obs == "boolean") {
        *o++ = x > 0.0 ? 1.0 : 0.0;
      } else {
        *o++ = std::log(x + 1.0);
      }
    }
  }

 private:
  // A draw of rotation about an axis: angle uniform in [-pi, pi), the axis z or uniform in
  // [-1, 1)^3 (xyz), then quat_from_angle_and_axis; parallel: times a parallel quaternion
  // drawn by integers(24).
  rotations::Quat DrawRotation(bool xyz) {
    const double angle = np_random_.Uniform(-M_PI, M_PI);
    rotations::Vec3 axis{0.0, 0.0, 1.0};
    if (xyz) {
      for (double& a : axis) a = np_random_.Uniform(-1.0, 1.0);
    }
    return rotations::QuatFromAngleAndAxis(angle, axis, NumpyBlas::Fixed());
  }
  const rotations::Quat& DrawParallel() {
    const auto n = static_cast<std::int64_t>(p_.parallel_quats.size());
    return p_.parallel_quats[static_cast<std::size_t>(np_random_.Integers(0, n))];
  }

  // MujocoManipulateEnv._reset_sim; false when the object fell off the palm.
  bool ResetSim() override {
    d_->time = p_.initial_time;
    std::copy(p_.initial_qpos.begin(), p_.initial_qpos.end(), d_->qpos);
    std::copy(p_.initial_qvel.begin(), p_.initial_qvel.end(), d_->qvel);
    mj_forward(m_, d_);
    double* object = d_->qpos + m_->jnt_qposadr[p_.object_joint];
    double pos[3] = {object[0], object[1], object[2]};
    rotations::Quat quat{object[3], object[4], object[5], object[6]};
    if (p_.randomize_initial_rotation) {
      const std::string& mode = p_.target_rotation;
      if (mode == "z") {
        quat = rotations::QuatMul(quat, DrawRotation(false));
      } else if (mode == "parallel") {
        const rotations::Quat z_quat = DrawRotation(false);
        const rotations::Quat offset = rotations::QuatMul(z_quat, DrawParallel());
        quat = rotations::QuatMul(quat, offset);
      } else if (mode == "xyz" || mode == "ignore") {
        quat = rotations::QuatMul(quat, DrawRotation(true));
      }
    }
    if (p_.randomize_initial_position && p_.target_position != "fixed") {
      double noise[3];
      for (double& v : noise) v = p_.ziggurat.Normal(np_random_, 0.0, 0.005);
      for (int i = 0; i < 3; ++i) pos[i] += noise[i];
    }
    rotations::Normalize(quat, NumpyBlas::Fixed());
    std::copy(pos, pos + 3, object);
    std::copy(quat.begin(), quat.end(), object + 3);
    const double zeros[20] = {};
    for (int k = 0; k < 10; ++k) {
      SetAction(zeros);
      for (int s = 0; s < p_.n_substeps; ++s) mj_step(m_, d_);
    }
    mj_forward(m_, d_);
    return d_->site_xpos[3 * p_.object_center + 2] > 0.04;
  }

  // _sample_goal: the position (the object's, plus uniform(range) when random), then the
  // quaternion (drawn as in the reset; the object's own when ignored or fixed), normalised.
  void SampleGoal() override {
    const double* object = d_->qpos + m_->jnt_qposadr[p_.object_joint];
    double target_pos[3] = {object[0], object[1], object[2]};
    if (p_.target_position == "random") {
      double offset[3];
      for (int i = 0; i < 3; ++i) {
        offset[i] = np_random_.Uniform(p_.target_position_range[2 * i],
                                       p_.target_position_range[2 * i + 1]);
      }
      for (int i = 0; i < 3; ++i) target_pos[i] = object[i] + offset[i];
    }
    rotations::Quat quat{object[3], object[4], object[5], object[6]};
    const std::string& mode = p_.target_rotation;
    if (mode == "z") {
      quat = DrawRotation(false);
    } else if (mode == "parallel") {
      quat = DrawRotation(false);
      quat = rotations::QuatMul(quat, DrawParallel());
    } else if (mode == "xyz") {
      quat = DrawRotation(true);
    }
    rotations::Normalize(quat, NumpyBlas::Fixed());
    std::copy(target_pos, target_pos + 3, goal_.begin());
    std::copy(quat.begin(), quat.end(), goal_.begin() + 3);
  }

  Params p_;
  bool render_prepared_ = false;
};

inline void HandManipulate::Params::Setup() {
  const char* task = "HandManipulate";
  if (target_position != "ignore" && target_position != "fixed" && target_position != "random") {
    throw std::invalid_argument("target_position must be 'ignore', 'fixed' or 'random', got '" +
                                target_position + "'");
  }
  if (target_rotation != "ignore" && target_rotation != "fixed" && target_rotation != "xyz" &&
      target_rotation != "z" && target_rotation != "parallel") {
    throw std::invalid_argument(
        "target_rotation must be 'ignore', 'fixed', 'xyz', 'z' or 'parallel', got '" +
        target_rotation + "'");
  }
  if (touch_get_obs != "" && touch_get_obs != "sensordata" && touch_get_obs != "boolean" &&
      touch_get_obs != "log") {
    throw std::invalid_argument(
        "touch_get_obs must be 'sensordata', 'boolean' or 'log', got '" + touch_get_obs + "'");
  }
  if (touch_visualisation != "on_touch" && touch_visualisation != "always" &&
      touch_visualisation != "off") {
    throw std::invalid_argument("touch_visualisation must be 'on_touch', 'always' or 'off', got '" +
                                touch_visualisation + "'");
  }
  if (target_position_range.size() != 6) {
    throw std::invalid_argument("target_position_range must be 3 (low, high) pairs: 6 numbers");
  }
  object_joint = Id(mjOBJ_JOINT, "object:joint", task);
  target_joint = Id(mjOBJ_JOINT, "target:joint", task);
  object_center = Id(mjOBJ_SITE, "object:center", task);
  object_hidden = mj_name2id(model.get(), mjOBJ_GEOM, "object_hidden");
  const mjModel* m = model.get();
  if (!touch_get_obs.empty()) {
    // The sensors whose name has robot0:TS_, in id order, and their sites robot0:T_*.
    for (int s = 0; s < m->nsensor; ++s) {
      const char* name = mj_id2name(m, mjOBJ_SENSOR, s);
      if (name == nullptr) continue;
      std::string n(name);
      const std::size_t at = n.find("robot0:TS_");
      if (at == std::string::npos) continue;
      touch_sensors.push_back(s);
      n.replace(at, 10, "robot0:T_");
      touch_sites.push_back(Id(mjOBJ_SITE, n, task));
    }
    if (touch_sensors.empty()) {
      throw std::invalid_argument("touch_get_obs needs a model with touch sensors (robot0:TS_*)");
    }
  }
  parallel_quats = rotations::ParallelQuats();
  if (parallel_quats.size() != 24) throw std::logic_error("there must be 24 parallel rotations");
  // _env_setup (no initial_qpos: mj_forward only).
  DataPtr data(mj_makeData(m));
  mjData* d = data.get();
  if (d == nullptr) throw std::runtime_error("MuJoCo could not allocate mjData");
  mj_forward(m, d);
  initial_time = d->time;
  initial_qpos.assign(d->qpos, d->qpos + m->nq);
  initial_qvel.assign(d->qvel, d->qvel + m->nv);
}

}  // namespace envpool::robotics
