// MyoSuite's MyoDM object tracking tasks (envs/myo/myodm/myodm_v0.py, TrackEnv; the MyoDex
// paper's tasks): the hand follows a reference of the hand's 29 joint angles and of an
// object's position and orientation. The reference (logger/reference_motion.py,
// ReferenceMotion) is one of three kinds, by its number of rows: a motion to track (more
// than two rows: the MyoHand<Object><Task>-v0 ids, a motion file of the package's
// envs/myo/myodm/data), a fixed target (one row: MyoHand<Object>Fixed-v0) or a range from
// which each observation draws a target (two rows, low and high: MyoHand<Object>Random-v0).
//
// The model is the package's envs/myo/assets/hand/myohand_object.xml with every
// "OBJECT_NAME" replaced by the object's name, as the package does (it writes the edited
// text next to the file and compiles that); here the edited text is compiled from memory
// under a name in the same folder, so that its includes resolve the same (the compiled model
// is the package's, byte for byte).
//
// The references are data of the installed package, which this repository does not copy:
// envpool/tasks/myosuite.py reads a motion file (np.load) when a pool is made, or builds the
// inline reference of the Fixed and Random ids as the package's registration writes it, and
// passes it as the hidden keywords _ref_time (rounded to 4 decimals, as ReferenceMotion
// rounds it), _ref_robot, _ref_robot_vel (empty when the reference has none), _ref_object
// (7 numbers a row: position and quaternion), _robot_dim and _init_qpos_head: the robot's
// start, the object's start position and the Euler angles of its start orientation
// (quat_math.quat2euler, computed there with numpy, as the package computes them).
//
// What the package does, restated:
//   - Construction: the geom "body" (the skeleton) is made invisible (alpha 0). The lift
//     height is the object body's xipos z at qpos0 plus 0.02. init_qpos is the reference's
//     start: the robot's joints, the object's three slide joints, and its three hinge joints
//     (the last three numbers) the Euler angles of its start quaternion. The construction
//     step takes an observation, and so draws one target of a Random reference.
//   - The reference at time t (get_reference): t rounded to 4 decimals (numpy's round:
//     rint(t * 10^4) / 10^4). Fixed: row 0. Random: robot, robot velocity and object, each
//     uniform(low row, high row), element by element, in that order (a low equal to the high
//     still draws). Track: past the last time, the last row (motion_extrapolation); else the
//     row whose time equals t, found from a cached index (the cache or the next row; a reset
//     sets it to 0), else by a sorted search, and between two rows a blend (never needed
//     here: the motions are sampled every 0.02 s, the env's step).
//   - Observation dict (get_obs_dict), each observation: the reference at the data's time;
//     the site "target" of the model moves to the object's reference position; qp, qv (qpos,
//     qvel: not scaled by dt here), hand_qpos_err = qpos of the hand (all but the last six) -
//     reference robot, hand_qvel_err = qvel of the hand - reference velocity ([0] when the
//     reference has none), obj_com_err = object body's xipos - reference position, act; and
//     what the reward reads: curr_obj_com (xipos), curr_obj_rot (quat_math.mat2quat of the
//     object's ximat), base_error = object's xipos - the "lunate" body's xipos, targ_obj_com,
//     targ_obj_rot (the reference's quaternion, not normalized for a Random reference).
//   - Rewards: norm2(x) = np.sum(x ** 2). obj = exp(-50 (sqrt(norm2(tgt com - com)) + 0.1
//     rotation / pi)), rotation = |2 arctan2(|v|, w)| of the quaternion product obj_rot *
//     conj(targ_obj_rot) = (w, v) (quat_math.quatDiff2Vel); base = exp(-40 sqrt(norm2(
//     base_error))); pose = 0.35 exp(-5 norm2(hand_qpos_err)) + 0.05 exp(-0.1 norm2(
//     hand_qvel_err)); bonus = reference z >= lift height and object z >= lift height;
//     termination = norm2(obj_com_err) >= 0.25^2 or norm2(base_error) >= 0.25^2. Terms: pose,
//     object (obj + base), bonus, penalty (termination), sparse 0, solved 0, done
//     (termination). Default weights pose 0, object 1, bonus 1, penalty -2.
//
// Where this differs from the package in the last bits: the object's orientation quaternion
// comes from MuJoCo's mju_mat2Quat (the package takes the eigenvector of the largest
// eigenvalue of a 4x4 matrix with LAPACK's dsyevd), and the angle from the C library's atan2
// (numpy's float64 arctan2 is an SVML kernel on AVX-512 CPUs). Both feed the object term of
// the reward only: observations, termination and the other terms are the package's, bit for
// bit.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/myosuite/myo_env.h"

namespace envpool::myosuite {

// The package's XML with every "OBJECT_NAME" replaced by `object_name`, compiled from memory
// under a name next to the file (its includes are relative to its folder).
inline mjModel* LoadObjectModel(const std::string& path, const std::string& object_name) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string xml = buffer.str();
  const std::string placeholder = "OBJECT_NAME";
  for (std::size_t at = xml.find(placeholder); at != std::string::npos;
       at = xml.find(placeholder, at + object_name.size())) {
    xml.replace(at, placeholder.size(), object_name);
  }
  const std::string name = path.substr(0, path.size() - 4) + "_" + object_name + "_envpool.xml";
  struct Vfs {
    Vfs() { mj_defaultVFS(&vfs); }
    ~Vfs() { mj_deleteVFS(&vfs); }
    Vfs(const Vfs&) = delete;
    Vfs& operator=(const Vfs&) = delete;
    mjVFS vfs;
  } vfs;
  if (mj_addBufferVFS(&vfs.vfs, name.c_str(), xml.data(), static_cast<int>(xml.size())) != 0) {
    throw std::runtime_error("MuJoCo could not take the edited " + path);
  }
  char error[1000] = "";
  mjModel* m = mj_loadXML(name.c_str(), &vfs.vfs, error, sizeof(error));
  if (m == nullptr) {
    throw std::runtime_error("MuJoCo could not load " + path + " for the object '" +
                             object_name + "': " + error);
  }
  return m;
}

class Track final : public MyoEnv {
 public:
  struct Params : MyoParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      if (object_name.empty()) throw std::invalid_argument("MyoTrack needs an object_name");
      Load([this](const std::string& path) { return LoadObjectModel(path, object_name); });
    }
    // The reference's source, which the prepare hook reads: a motion file of the package's
    // envs/myo/myodm/data, or (no motion) the inline reference "fixed" or "random".
    std::string object_name, motion, reference;
    std::vector<double> ref_time, ref_robot, ref_robot_vel, ref_object, init_qpos_head;
    int robot_dim = 29;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    AddMyoKeywords(k, "envs/myo/assets/hand/myohand_object.xml", 10);
    k.Add("object_name", std::string(), &Params::object_name);
    k.Add("motion", std::string(), &Params::motion);
    k.Add("reference", std::string("fixed"), &Params::reference);
    k.Add("_ref_time", std::vector<double>{}, &Params::ref_time);
    k.Add("_ref_robot", std::vector<double>{}, &Params::ref_robot);
    k.Add("_ref_robot_vel", std::vector<double>{}, &Params::ref_robot_vel);
    k.Add("_ref_object", std::vector<double>{}, &Params::ref_object);
    k.Add("_robot_dim", 29, &Params::robot_dim);
    k.Add("_init_qpos_head", std::vector<double>{}, &Params::init_qpos_head);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& p) {
    Track env(p);
    return Spec(env.m_, env.ObsSize(), p.normalize_act);
  }

  explicit Track(const Params& p)
      : MyoEnv(p, {"qp", "qv", "hand_qpos_err", "hand_qvel_err", "obj_com_err"},
               {{"pose", 0.0}, {"object", 1.0}, {"bonus", 1.0}, {"penalty", -2.0}}),
        time_(p.ref_time),
        robot_(p.ref_robot),
        robot_vel_(p.ref_robot_vel),
        object_(p.ref_object),
        robot_dim_(p.robot_dim),
        target_(SiteId("target")),
        object_bid_(BodyId(p.object_name.c_str())),
        wrist_bid_(BodyId("lunate")),
        rng_(&np_random_) {
    if (robot_dim_ < 1 || robot_dim_ != m_->nq - 6 || m_->nq != m_->nv) {
      throw std::invalid_argument("MyoTrack: the reference's robot has " +
                                  std::to_string(robot_dim_) + " joints, the model's hand " +
                                  std::to_string(m_->nq - 6));
    }
    if (robot_.empty() || robot_.size() % robot_dim_ != 0 || object_.empty() ||
        object_.size() % 7 != 0 ||
        (!robot_vel_.empty() && robot_vel_.size() != robot_.size()) ||
        p.init_qpos_head.size() != static_cast<std::size_t>(robot_dim_ + 6)) {
      throw std::invalid_argument(
          "MyoTrack needs its reference (_ref_time, _ref_robot, _ref_robot_vel, _ref_object, "
          "_init_qpos_head), which envpool/tasks/myosuite.py reads from the installed myosuite "
          "package's motion files or builds as the package registers the Fixed and Random ids");
    }
    robot_rows_ = static_cast<int>(robot_.size() / robot_dim_);
    object_rows_ = static_cast<int>(object_.size() / 7);
    const int rows = std::max(robot_rows_, object_rows_);
    kind_ = rows > 2 ? Kind::kTrack : (rows == 2 ? Kind::kRandom : Kind::kFixed);
    if (kind_ == Kind::kTrack && time_.size() != static_cast<std::size_t>(rows)) {
      throw std::invalid_argument("MyoTrack: _ref_time must have a time per row");
    }
    if (kind_ == Kind::kRandom && (robot_rows_ != 2 || object_rows_ != 2 ||
                                   robot_vel_.size() != robot_.size())) {
      throw std::invalid_argument("MyoTrack: a random reference has two rows (low, high) of "
                                  "robot, robot velocity and object");
    }
    // The body skeleton is not drawn.
    const int body_geom = mj_name2id(m_, mjOBJ_GEOM, "body");
    if (body_geom >= 0) mw_->geom_rgba[4 * body_geom + 3] = 0.0f;
    // The lift height: the object's centre of mass at qpos0.
    mj_resetData(m_, d_);
    mj_forward(m_, d_);
    lift_z_ = d_->xipos[3 * object_bid_ + 2] + 0.02;
    // init_qpos: the reference's start.
    for (int i = 0; i < robot_dim_ + 3; ++i) init_qpos_[i] = p.init_qpos_head[i];
    for (int i = 0; i < 3; ++i) init_qpos_[m_->nq - 3 + i] = p.init_qpos_head[robot_dim_ + 3 + i];
    ref_robot_.resize(robot_dim_);
    ref_robot_vel_.resize(robot_vel_.empty() ? 0 : robot_dim_);
    ref_object_.resize(7);
  }

  // The construction step's observation draws a target of a Random reference.
  void Seed(std::uint64_t seed) override {
    MyoEnv::Seed(seed);
    if (kind_ == Kind::kRandom) Reference(0.0);
  }

 protected:
  void ResetTask() override { index_cache_ = 0; }

  void ObsDict(TermDict& obs) override {
    Reference(d_->time);
    // update_reference_insim: the target site at the object's reference position.
    for (int k = 0; k < 3; ++k) mw_->site_pos[3 * target_ + k] = ref_object_[k];
    mj_forward(m_, d_);
    const int n = robot_dim_;
    obs["time"].assign(1, d_->time);
    obs["qp"].assign(d_->qpos, d_->qpos + m_->nq);
    obs["qv"].assign(d_->qvel, d_->qvel + m_->nv);
    std::vector<double>& robot_err = obs["robot_err"];
    robot_err.resize(n);
    for (int i = 0; i < n; ++i) robot_err[i] = d_->qpos[i] - ref_robot_[i];
    obs["curr_hand_qpos"].assign(d_->qpos, d_->qpos + n);
    obs["curr_hand_qvel"].assign(d_->qvel, d_->qvel + n);
    obs["targ_hand_qpos"] = ref_robot_;
    if (ref_robot_vel_.empty()) {
      obs["targ_hand_qvel"].assign(1, 0.0);
    } else {
      obs["targ_hand_qvel"] = ref_robot_vel_;
    }
    const double* com = d_->xipos + 3 * object_bid_;
    const double* wrist = d_->xipos + 3 * wrist_bid_;
    obs["curr_obj_com"].assign(com, com + 3);
    std::vector<double>& rot = obs["curr_obj_rot"];
    rot.resize(4);
    mju_mat2Quat(rot.data(), d_->ximat + 9 * object_bid_);
    if (rot[0] < 0) {
      for (double& x : rot) x *= -1;
    }
    obs["wrist_err"].assign(wrist, wrist + 3);
    std::vector<double>& base = obs["base_error"];
    base.resize(3);
    for (int k = 0; k < 3; ++k) base[k] = com[k] - wrist[k];
    obs["targ_obj_com"].assign(ref_object_.begin(), ref_object_.begin() + 3);
    obs["targ_obj_rot"].assign(ref_object_.begin() + 3, ref_object_.end());
    std::vector<double>& qpos_err = obs["hand_qpos_err"];
    qpos_err.resize(n);
    for (int i = 0; i < n; ++i) qpos_err[i] = d_->qpos[i] - ref_robot_[i];
    std::vector<double>& qvel_err = obs["hand_qvel_err"];
    if (ref_robot_vel_.empty()) {
      qvel_err.assign(1, 0.0);
    } else {
      qvel_err.resize(n);
      for (int i = 0; i < n; ++i) qvel_err[i] = d_->qvel[i] - ref_robot_vel_[i];
    }
    std::vector<double>& com_err = obs["obj_com_err"];
    com_err.resize(3);
    for (int k = 0; k < 3; ++k) com_err[k] = com[k] - ref_object_[k];
    if (m_->na > 0) obs["act"].assign(d_->act, d_->act + m_->na);
  }

  void RewardDict(const TermDict& obs, TermDict& rwd) override {
    const std::vector<double>& tgt_com = obs.At("targ_obj_com");
    const std::vector<double>& tgt_rot = obs.At("targ_obj_rot");
    const std::vector<double>& com = obs.At("curr_obj_com");
    const std::vector<double>& rot = obs.At("curr_obj_rot");
    std::vector<double> d(3);
    for (int k = 0; k < 3; ++k) d[k] = tgt_com[k] - com[k];
    const double obj_com_err = std::sqrt(Norm2(d));
    // quatDiff2Vel(tgt, obj): diff = obj * (tgt's conjugate), angle 2 atan2(|v|, w).
    const double neg[4] = {tgt_rot[0], -tgt_rot[1], -tgt_rot[2], -tgt_rot[3]};
    const double* qa = rot.data();
    const double diff[4] = {
        qa[0] * neg[0] - qa[1] * neg[1] - qa[2] * neg[2] - qa[3] * neg[3],
        qa[0] * neg[1] + qa[1] * neg[0] + qa[2] * neg[3] - qa[3] * neg[2],
        qa[0] * neg[2] - qa[1] * neg[3] + qa[2] * neg[0] + qa[3] * neg[1],
        qa[0] * neg[3] + qa[1] * neg[2] - qa[2] * neg[1] + qa[3] * neg[0]};
    const std::vector<double> axis = {diff[1] * diff[1], diff[2] * diff[2], diff[3] * diff[3]};
    const double sin_a_2 = std::sqrt(Sum(axis));
    const double speed = 2 * std::atan2(sin_a_2, diff[0]) / 1;
    const double obj_rot_err = std::fabs(speed) / M_PI;
    const double obj_reward = NumpyExp(-50 * (obj_com_err + 0.1 * obj_rot_err));
    const bool lift_bonus = tgt_com[2] >= lift_z_ && com[2] >= lift_z_;
    const double qpos_reward = NumpyExp(-5.0 * Norm2(obs.At("hand_qpos_err")));
    const double qvel_reward = NumpyExp(-0.1 * Norm2(obs.At("hand_qvel_err")));
    const double pose_reward = 0.35 * qpos_reward;
    const double vel_reward = 0.05 * qvel_reward;
    const double base_error = std::sqrt(Norm2(obs.At("base_error")));
    const double base_reward = NumpyExp(-40 * base_error);
    const bool term = Norm2(obs.At("obj_com_err")) >= 0.25 * 0.25 ||
                      Norm2(obs.At("base_error")) >= 0.25 * 0.25;
    rwd.Set("pose", pose_reward + vel_reward);
    rwd.Set("object", obj_reward + base_reward);
    rwd.Set("bonus", 1 * static_cast<double>(lift_bonus));
    rwd.Set("penalty", static_cast<double>(term));
    rwd.Set("sparse", 0.0);
    rwd.Set("solved", 0.0);
    rwd.Set("done", term ? 1.0 : 0.0);
  }

 private:
  enum class Kind { kFixed, kRandom, kTrack };

  // norm2: np.sum(np.square(x)).
  static double Norm2(const std::vector<double>& x) {
    std::vector<double> sq(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) sq[i] = x[i] * x[i];
    return Sum(sq);
  }

  // np.around(t, 4).
  static double Round4(double t) { return std::nearbyint(t * 10000.0) / 10000.0; }

  // get_reference(t): the reference's robot, robot velocity and object, into ref_*_.
  void Reference(double t) const {
    if (kind_ == Kind::kFixed) {
      std::copy(robot_.begin(), robot_.begin() + robot_dim_, ref_robot_.begin());
      if (!robot_vel_.empty()) {
        std::copy(robot_vel_.begin(), robot_vel_.begin() + robot_dim_, ref_robot_vel_.begin());
      }
      std::copy(object_.begin(), object_.begin() + 7, ref_object_.begin());
      return;
    }
    if (kind_ == Kind::kRandom) {
      for (int i = 0; i < robot_dim_; ++i) ref_robot_[i] = rng_->Uniform(robot_[i], robot_[robot_dim_ + i]);
      for (int i = 0; i < robot_dim_; ++i) {
        ref_robot_vel_[i] = rng_->Uniform(robot_vel_[i], robot_vel_[robot_dim_ + i]);
      }
      for (int i = 0; i < 7; ++i) ref_object_[i] = rng_->Uniform(object_[i], object_[7 + i]);
      return;
    }
    t = Round4(t);
    const int horizon = static_cast<int>(time_.size());
    int ind = 0, next = 0;
    if (t >= time_.back()) {
      ind = next = horizon - 1;
    } else if (t == time_[index_cache_]) {
      ind = next = index_cache_;
    } else if (index_cache_ < horizon - 1 && t == time_[index_cache_ + 1]) {
      ind = next = ++index_cache_;
    } else if (index_cache_ < horizon - 1 && t > time_[index_cache_] &&
               t < time_[index_cache_ + 1]) {
      ind = index_cache_;
      next = index_cache_ + 1;
    } else {
      index_cache_ = static_cast<int>(std::upper_bound(time_.begin(), time_.end(), t) -
                                      time_.begin()) - 1;
      ind = next = index_cache_;
      if (t != time_[index_cache_]) next = index_cache_ + 1;
    }
    const int r = robot_rows_ > 1 ? 1 : 0, o = object_rows_ > 1 ? 1 : 0;
    if (ind == next) {
      for (int i = 0; i < robot_dim_; ++i) ref_robot_[i] = robot_[r * ind * robot_dim_ + i];
      for (std::size_t i = 0; i < ref_robot_vel_.size(); ++i) {
        ref_robot_vel_[i] = robot_vel_[r * ind * robot_dim_ + i];
      }
      for (int i = 0; i < 7; ++i) ref_object_[i] = object_[o * ind * 7 + i];
      return;
    }
    // The package's blend, as it writes it (the robot's rows raised to a power).
    const double blend = t - time_[ind] / (time_[next] - time_[ind]);
    for (int i = 0; i < robot_dim_; ++i) {
      ref_robot_[i] = r ? std::pow(1.0 - blend, robot_[ind * robot_dim_ + i]) +
                              blend * robot_[next * robot_dim_ + i]
                        : robot_[i];
    }
    for (std::size_t i = 0; i < ref_robot_vel_.size(); ++i) {
      ref_robot_vel_[i] = r ? std::pow(1.0 - blend, robot_vel_[ind * robot_dim_ + i]) +
                                  blend * robot_vel_[next * robot_dim_ + i]
                            : robot_vel_[i];
    }
    for (int i = 0; i < 7; ++i) {
      ref_object_[i] = o ? (1.0 - blend) * object_[ind * 7 + i] + blend * object_[next * 7 + i]
                         : object_[i];
    }
  }

  std::vector<double> time_, robot_, robot_vel_, object_;
  int robot_dim_, robot_rows_ = 0, object_rows_ = 0;
  Kind kind_ = Kind::kFixed;
  int target_, object_bid_, wrist_bid_;
  double lift_z_ = 0.0;
  NumpyGenerator* rng_;  // np_random_, drawn from by the observation of a Random reference
  mutable int index_cache_ = 0;
  mutable std::vector<double> ref_robot_, ref_robot_vel_, ref_object_;
};

}  // namespace envpool::myosuite
