// MyoChallenge 2025's soccer track (envs/myo/myochallenge/soccer_v0.py: SoccerEnvV0 and its
// GoalKeeper) on the legs-and-ball model (envs/myo/assets/leg_soccer/myolegs_soccer.xml):
// myoChallengeSoccerP1-v0 (a stationary goalkeeper, the keyframe start) and
// myoChallengeSoccerP2-v0 (the goalkeeper's policy drawn at each reset, a randomized start).
// SoccerEnvV0 derives from WalkEnvV0 (walk.h's WalkBase here), whose setup it keeps (init_qpos
// keyframe 0, zero init_qvel, the heightfield `terrain` hidden) and whose observation, reward
// and reset it replaces.
//
// Two sims, as the package has them: the Robot steps its own MjData (the physics here, d_),
// whose mocap body stays where the model puts it (mj_resetData at each reset: the goalkeeper's
// default pose, (50, 0)); the env's own MjData (MyoEnv::Observed() here) is where the observation, the
// rewards and the goalkeeper live: each observation copies the physics' time, qpos, qvel and
// act into it and runs mj_forward there, with its own mocap (the goalkeeper's pose), zero
// controls and a zero qacc_warmstart (it is never stepped nor reset), so its constraint
// forces (the grf touch sensors, the pain term) are the solver's from a cold start. The
// goalkeeper thus moves in the observed sim only; the physics' ball meets the model's
// goalkeeper at (50, 0).
//
// What the package does, restated:
//   - GoalKeeper (a mocap body, mocap 0 of the observed sim): its pose (x, y, angle) is
//     mocap_pos[0][:2] and quat2euler(mocap_quat[0])[-1]; setting it fixes x at 50, clips y
//     to [-3.3, 3.3] and writes euler2quat((0, 0, angle)). Each step, before BaseV0.step, it
//     moves by dt times a velocity (dt = timestep * frame_skip), y += dt * v, from its
//     policy: "stationary" 0;
//     "random" np.clip(noise.sample(), -block_velocity, block_velocity) (the first of its two
//     rows); "block_ball" np.clip(clip(ball_y, -3.3, 3.3) - y, -block_velocity,
//     block_velocity) (the ball's xpos as the last mj_forward left it).
//   - GoalKeeper's reset (at construction and at each env reset, from the env's np_random):
//     a new pink.ColoredNoiseProcess(beta=2, size=(2, 10), scale=block_velocity) (24 normal
//     draws, the scale the block_velocity drawn before: common/pink_noise.h); the policy from
//     u = uniform(): block_ball if u < p0, random if u < p0 + p1, stationary if u < p0 + p1 +
//     p2 (else the previous policy stays); y = uniform(-3.3, 3.3), the pose (50, y, 0); then
//     block_velocity = uniform(*random_vel_range). Its construction first draws a
//     block_velocity = uniform(*random_vel_range), then resets. The noise process refills its
//     buffer (24 more normals) every 10 samples.
//   - Construction (gym.make(id, seed=s)): the env's np_random seeded, then the goalkeeper's
//     draws above on the observed sim as created (qpos0, one mj_forward); MujocoEnv._setup's
//     step then moves the goalkeeper once (dt 0.01, no draws: a fresh buffer), a pose the
//     observed sim keeps until the first reset's goalkeeper reset, and block_velocity stays:
//     the first reset's noise is scaled by it. Here Seed does these (reset(seed=...) makes a
//     new env's stream and observed sim).
//   - Reset: reset_type "random": keyframe 0 with uniform(-0.02, 0.02) (rnd_joint_noise) added
//     to the first qpos number of each of the 46 myo_joints in the package's order, then the
//     root's x += uniform(-1, 0) and y += uniform(-1, 1) (rnd_pos_noise); anything else:
//     keyframe 0 (qpos and qvel). Then BaseV0.reset (the fatigue state, Robot.reset, the
//     observation), then the goalkeeper's reset and mj_forward (which the returned
//     observation does not see: the goalkeeper is not observed).
//   - Observation dict: time, internal_qpos (the myo_joints' first qpos numbers),
//     internal_qvel (their first qvel numbers times dt), grf (the first number of sensors
//     r_foot, r_toes, l_foot, l_toes), torso_angle and pelvis_angle (xquat), muscle_length
//     (actuator_length), muscle_velocity (actuator_velocity clipped to +-100), muscle_force
//     (actuator_force / 1000 clipped to +-100), r_toe_pos, l_toe_pos (xpos of geoms r_bofoot,
//     l_bofoot), act, ball_pos (xpos of soccer_ball), goal_bounds, model_root_pos (the root
//     joint's 7 qpos), model_root_vel (its 6 qvel), goalkeeper_pos. Default keys
//     internal_qpos, internal_qvel, grf, torso_angle, ball_pos, model_root_pos, model_root_vel,
//     muscle_length, muscle_velocity, muscle_force (and act): 1276 numbers.
//   - Rewards: goal_scored (the ball's xpos x >= 50, -3.3 <= y <= 3.3, 0 <= z <= 2.2),
//     time_cost (the time), act_reg (np.mean(np.square(act)): a pairwise sum over na),
//     pain (get_jnt_limit_violation: J' times efc_force with every row but the joint-limit
//     ones zeroed (mj_mulJacTVec), at each of 12 JNT_OVEREXT joints' dof |clip(f, -1000,
//     1000)| / 1000, summed from 0 in order, over 12); sparse = done = goal scored, or time >=
//     max_time_sec, or the pelvis's xpos z < 0.2; solved = goal_scored. Default weights
//     goal_scored 1000, time_cost -0.01, act_reg -100, pain -10.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/common/numpy_normal.h"
#include "envs/common/pink_noise.h"
#include "envs/common/rotations.h"
#include "envs/myosuite/myo_env.h"
#include "envs/myosuite/walk.h"

namespace envpool::myosuite {

// GoalKeeper: the goal's defender, a mocap body moving along y at x = 50.
class SoccerGoalKeeper {
 public:
  static constexpr double kFixedX = 50;
  static constexpr double kYMin = -3.3;
  static constexpr double kYMax = 3.3;
  enum class Policy { kNone, kBlockBall, kRandom, kStationary };

  SoccerGoalKeeper() = default;
  SoccerGoalKeeper(std::vector<double> probabilities, Range vel_range)
      : probabilities_(std::move(probabilities)), vel_range_(vel_range) {}

  // __init__: block_velocity drawn, then reset_goalkeeper(rng).
  void Construct(mjData* d, NumpyGenerator& rng, const NumpyZiggurat& zig) {
    policy_ = Policy::kNone;
    block_velocity_ = rng.Uniform(vel_range_.first, vel_range_.second);
    Reset(d, rng, zig);
  }

  // reset_goalkeeper(rng).
  void Reset(mjData* d, NumpyGenerator& rng, const NumpyZiggurat& zig) {
    noise_ = ColoredNoiseProcess(2.0, 2, 10, block_velocity_, 0.0, rng, zig);
    const double u = rng.Uniform(0.0, 1.0);
    const double p0 = probabilities_[0], p1 = probabilities_[1], p2 = probabilities_[2];
    if (u < p0) {
      policy_ = Policy::kBlockBall;
    } else if (u < p0 + p1) {
      policy_ = Policy::kRandom;
    } else if (u < p0 + p1 + p2) {
      policy_ = Policy::kStationary;
    }
    const double y = rng.Uniform(kYMin, kYMax);
    SetPose(d, {kFixedX, y, 0.0});
    block_velocity_ = rng.Uniform(vel_range_.first, vel_range_.second);
  }

  // update_goalkeeper_state: the policy's velocity, then move_goalkeeper.
  void Update(mjData* d, double dt, int ball_body, NumpyGenerator& rng,
              const NumpyZiggurat& zig) {
    double vel = 0.0;
    switch (policy_) {
      case Policy::kStationary:
        vel = 0.0;
        break;
      case Policy::kRandom:
        vel = NumpyClip(noise_.Sample(rng, zig)[0], -block_velocity_, block_velocity_);
        break;
      case Policy::kBlockBall: {
        const double target = NumpyClip(d->xpos[3 * ball_body + 1], kYMin, kYMax);
        vel = NumpyClip(target - Pose(d)[1], -block_velocity_, block_velocity_);
        break;
      }
      case Policy::kNone:
        // The package's goalkeeper_policy attribute is never set when the first draw
        // falls past the probabilities' sum: its step raises.
        throw std::runtime_error("the goalkeeper has no policy (goalkeeper_probabilities "
                                 "sum below the draw)");
    }
    rotations::Vec3 pose = Pose(d);
    pose[1] += dt * vel;
    SetPose(d, pose);
  }

  Policy policy() const { return policy_; }

 private:
  // get_goalkeeper_pose: (mocap x, mocap y, quat2euler(mocap quat)[-1]).
  static rotations::Vec3 Pose(const mjData* d) {
    const rotations::Quat q = {d->mocap_quat[0], d->mocap_quat[1], d->mocap_quat[2],
                               d->mocap_quat[3]};
    return {d->mocap_pos[0], d->mocap_pos[1], rotations::Quat2Euler(q)[2]};
  }
  // set_goalkeeper_pose.
  static void SetPose(mjData* d, rotations::Vec3 pose) {
    pose[0] = kFixedX;
    pose[1] = NumpyClip(pose[1], kYMin, kYMax);
    d->mocap_pos[0] = pose[0];
    d->mocap_pos[1] = pose[1];
    const rotations::Quat q = rotations::Euler2Quat({0.0, 0.0, pose[2]});
    std::copy(q.begin(), q.end(), d->mocap_quat);
  }

  std::vector<double> probabilities_{0.1, 0.45, 0.45};
  Range vel_range_{1.0, 5.0};
  double block_velocity_ = 0.0;
  Policy policy_ = Policy::kNone;
  ColoredNoiseProcess noise_;
};

class Soccer final : public WalkBase {
 public:
  struct Params : WalkParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      if (goalkeeper_probabilities.size() != 3) {
        throw std::invalid_argument("goalkeeper_probabilities are 3 numbers (block_ball, "
                                    "random, stationary)");
      }
      double sum = 0.0;
      for (double p : goalkeeper_probabilities) {
        if (!(p >= 0 && p <= 1)) {
          throw std::invalid_argument(
              "goalkeeper_probabilities: GoalKeeper probabilities should be between 0 and 1");
        }
        sum += p;
      }
      // np.isclose(np.sum(p), 1.0): |sum - 1| <= 1e-8 + 1e-5.
      if (!(std::fabs(sum - 1.0) <= 1e-8 + 1e-5 * 1.0)) {
        throw std::invalid_argument(
            "goalkeeper_probabilities: GoalKeeper probabilities should sum to 1.0");
      }
      if (reset_type != "none" && reset_type != "init" && reset_type != "random") {
        throw std::invalid_argument("reset_type must be 'none', 'init' or 'random', got '" +
                                    reset_type + "'");
      }
      // The goalkeeper's noise draws normals at every reset.
      if (ziggurat_ki.empty()) {
        throw std::invalid_argument("the goalkeeper's noise draws normals: it needs numpy's "
                                    "ziggurat tables (the _ziggurat_* keywords, which "
                                    "envpool.make passes)");
      }
      if (hip_period == 0) throw std::invalid_argument("hip_period must not be 0");
      Load();
      NeedKeyframes(model.get(), 1);
      if (model->nmocap < 1) throw std::invalid_argument("the goalkeeper is the model's mocap 0");
    }
    Range random_vel_range{1.0, 5.0};
    std::vector<double> goalkeeper_probabilities{0.1, 0.45, 0.45};
    double min_agent_spawn_distance = 1.0, rnd_pos_noise = 1.0, rnd_joint_noise = 0.02;
    double max_time_sec = 10.0;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    AddMyoKeywords(k, "envs/myo/assets/leg_soccer/myolegs_soccer.xml", 10);
    // WalkEnvV0._setup's keywords (taken, unused by the soccer task but reset_type).
    k.Add("min_height", 0.8, &Params::min_height);
    k.Add("max_rot", 0.8, &Params::max_rot);
    k.Add("hip_period", 100, &Params::hip_period);
    k.Add("reset_type", std::string("none"), &Params::reset_type);
    k.Add("target_x_vel", 0.0, &Params::target_x_vel);
    k.Add("target_y_vel", 1.2, &Params::target_y_vel);
    k.Add("target_rot", std::vector<double>{}, &Params::target_rot);
    k.Add("_ziggurat_ki", std::vector<double>{}, &Params::ziggurat_ki);
    k.Add("_ziggurat_wi", std::vector<double>{}, &Params::ziggurat_wi);
    k.Add("_ziggurat_fi", std::vector<double>{}, &Params::ziggurat_fi);
    // Stored by the package and read nowhere; a distance.
    k.Add("min_agent_spawn_distance", 1.0, &Params::min_agent_spawn_distance).AtLeast(0);
    k.Add("random_vel_range", Range{1.0, 5.0}, &Params::random_vel_range).AtLeast(0).Ordered();
    k.Add("rnd_pos_noise", 1.0, &Params::rnd_pos_noise);
    k.Add("rnd_joint_noise", 0.02, &Params::rnd_joint_noise);
    k.Add("goalkeeper_probabilities", std::vector<double>{0.1, 0.45, 0.45},
          &Params::goalkeeper_probabilities);
    k.Add("max_time_sec", 10.0, &Params::max_time_sec);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& p) {
    Soccer env(p);
    return Spec(env.m_, env.ObsSize(), p.normalize_act);
  }

  explicit Soccer(const Params& p)
      : WalkBase(WithSoccerDefaults(p), false),
        reset_type_(p.reset_type),
        rnd_pos_noise_(p.rnd_pos_noise),
        rnd_joint_noise_(p.rnd_joint_noise),
        max_time_(p.max_time_sec),
        ziggurat_(NumpyZiggurat::From(p.ziggurat_ki, p.ziggurat_wi, p.ziggurat_fi)),
        goalkeeper_(p.goalkeeper_probabilities, p.random_vel_range),
        e_(Observed()) {
    if (e_ == nullptr) throw std::runtime_error("MuJoCo could not allocate mjData");
    HideTerrain(mw_);  // WalkEnvV0._setup
    for (const char* name : kMyoJoints) {
      const int j = Joint(name);
      joint_qpos_.push_back(m_->jnt_qposadr[j]);
      joint_dof_.push_back(m_->jnt_dofadr[j]);
    }
    for (const char* name : kJntOverext) overext_dof_.push_back(m_->jnt_dofadr[Joint(name)]);
    for (const char* name : {"r_foot", "r_toes", "l_foot", "l_toes"}) {
      const int s = mj_name2id(m_, mjOBJ_SENSOR, name);
      if (s < 0) throw std::invalid_argument(std::string("the model has no sensor '") + name + "'");
      grf_adr_.push_back(m_->sensor_adr[s]);
    }
    root_ = Joint("root");
    torso_ = BodyId("torso");
    pelvis_ = BodyId("pelvis");
    ball_ = BodyId("soccer_ball");
    r_toe_ = Geom("r_bofoot");
    l_toe_ = Geom("l_bofoot");
    Construct();
  }

  void Seed(std::uint64_t seed) override {
    WalkBase::Seed(seed);
    Construct();
  }

  // The package draws the env's own MjData (MJRenderer(mj_model, mj_data)): the observed sim,
  // whose goalkeeper is where the goalkeeper is (MyoEnv::Render draws the physics with zero
  // controls, as the observed sim has them). The physics' mocap pose is put back after; the
  // next mj_step recomputes what the frame's mj_forward left.
  void Render(int width, int height, int camera_id, std::uint8_t* out) override {
    const double pos[3] = {d_->mocap_pos[0], d_->mocap_pos[1], d_->mocap_pos[2]};
    const double quat[4] = {d_->mocap_quat[0], d_->mocap_quat[1], d_->mocap_quat[2],
                            d_->mocap_quat[3]};
    std::copy(e_->mocap_pos, e_->mocap_pos + 3, d_->mocap_pos);
    std::copy(e_->mocap_quat, e_->mocap_quat + 4, d_->mocap_quat);
    WalkBase::Render(width, height, camera_id, out);
    std::copy(pos, pos + 3, d_->mocap_pos);
    std::copy(quat, quat + 4, d_->mocap_quat);
  }

 protected:
  void ResetTask() override {
    std::vector<double> qpos(m_->key_qpos, m_->key_qpos + m_->nq);
    std::vector<double> qvel(m_->key_qvel, m_->key_qvel + m_->nv);
    if (reset_type_ == "random") {
      // _get_randomized_initial_state: noise on the myo joints, then the root's x (behind the
      // ball only) and y.
      const double jn = std::fabs(rnd_joint_noise_), pn = std::fabs(rnd_pos_noise_);
      for (int adr : joint_qpos_) qpos[adr] += np_random_.Uniform(-jn, jn);
      const int root = m_->jnt_qposadr[root_];
      qpos[root] += np_random_.Uniform(-pn, 0.0);
      qpos[root + 1] += np_random_.Uniform(-pn, pn);
    }
    SetResetQpos(std::move(qpos));
    SetResetQvel(std::move(qvel));
  }

  void AfterReset() override {
    goalkeeper_.Reset(e_, np_random_, ziggurat_);
    mj_forward(m_, e_);
  }

  void TaskAction(std::vector<double>& /*a*/, bool& /*float64*/) override {
    goalkeeper_.Update(e_, dt_, ball_, np_random_, ziggurat_);
  }

  void ObsDict(TermDict& obs) override {
    SyncObserved();  // everything below reads the observed sim
    obs["time"].assign(1, e_->time);
    std::vector<double>& qpos = obs["internal_qpos"];
    std::vector<double>& qvel = obs["internal_qvel"];
    qpos.resize(joint_qpos_.size());
    qvel.resize(joint_dof_.size());
    for (std::size_t i = 0; i < joint_qpos_.size(); ++i) {
      qpos[i] = e_->qpos[joint_qpos_[i]];
      qvel[i] = e_->qvel[joint_dof_[i]] * dt_;
    }
    std::vector<double>& grf = obs["grf"];
    grf.resize(grf_adr_.size());
    for (std::size_t i = 0; i < grf_adr_.size(); ++i) grf[i] = e_->sensordata[grf_adr_[i]];
    obs["torso_angle"].assign(e_->xquat + 4 * torso_, e_->xquat + 4 * torso_ + 4);
    obs["pelvis_angle"].assign(e_->xquat + 4 * pelvis_, e_->xquat + 4 * pelvis_ + 4);
    obs["muscle_length"].assign(e_->actuator_length, e_->actuator_length + m_->nu);
    std::vector<double>& velocity = obs["muscle_velocity"];
    std::vector<double>& force = obs["muscle_force"];
    velocity.resize(m_->nu);
    force.resize(m_->nu);
    for (int i = 0; i < m_->nu; ++i) {
      velocity[i] = NumpyClip(e_->actuator_velocity[i], -100.0, 100.0);
      force[i] = NumpyClip(e_->actuator_force[i] / 1000.0, -100.0, 100.0);
    }
    obs["r_toe_pos"].assign(e_->geom_xpos + 3 * r_toe_, e_->geom_xpos + 3 * r_toe_ + 3);
    obs["l_toe_pos"].assign(e_->geom_xpos + 3 * l_toe_, e_->geom_xpos + 3 * l_toe_ + 3);
    if (m_->na > 0) obs["act"].assign(e_->act, e_->act + m_->na);
    obs["ball_pos"].assign(e_->xpos + 3 * ball_, e_->xpos + 3 * ball_ + 3);
    std::vector<double>& bounds = obs["goal_bounds"];
    bounds.clear();
    for (double z : {kGoalZMin, kGoalZMax}) {
      for (double y : {SoccerGoalKeeper::kYMin, SoccerGoalKeeper::kYMax}) {
        bounds.insert(bounds.end(), {SoccerGoalKeeper::kFixedX, y, z});
      }
    }
    const int qadr = m_->jnt_qposadr[root_], vadr = m_->jnt_dofadr[root_];
    obs["model_root_pos"].assign(e_->qpos + qadr, e_->qpos + qadr + 7);
    obs["model_root_vel"].assign(e_->qvel + vadr, e_->qvel + vadr + 6);
    obs["goalkeeper_pos"] = {e_->mocap_pos[0], e_->mocap_pos[1]};
  }

  void RewardDict(const TermDict& obs, TermDict& rwd) override {
    double act_mag = 0.0;
    if (m_->na != 0) {
      const std::vector<double>& act = obs.At("act");
      std::vector<double> sq(act.size());
      for (std::size_t i = 0; i < act.size(); ++i) sq[i] = act[i] * act[i];
      act_mag = Sum(sq) / static_cast<double>(sq.size());
    }
    const bool goal = GoalScored();
    const double time = obs.Scalar("time");
    const bool done = goal || time >= max_time_ || Fallen();
    rwd.Set("goal_scored", goal ? 1.0 : 0.0);
    rwd.Set("time_cost", time);
    rwd.Set("act_reg", act_mag);
    rwd.Set("pain", JointLimitViolation());
    rwd.Set("sparse", done ? 1.0 : 0.0);
    rwd.Set("solved", goal ? 1.0 : 0.0);
    rwd.Set("done", done ? 1.0 : 0.0);
  }

 private:
  static constexpr double kGoalZMin = 0.0, kGoalZMax = 2.2;
  static constexpr const char* kMyoJoints[] = {
      "Abs_r3",         "Abs_t1",
      "Abs_t2",         "L1_L2_AR",
      "L1_L2_FE",       "L1_L2_LB",
      "L2_L3_AR",       "L2_L3_FE",
      "L2_L3_LB",       "L3_L4_AR",
      "L3_L4_FE",       "L3_L4_LB",
      "L4_L5_AR",       "L4_L5_FE",
      "L4_L5_LB",       "ankle_angle_l",
      "ankle_angle_r",  "axial_rotation",
      "flex_extension", "hip_adduction_l",
      "hip_adduction_r", "hip_flexion_l",
      "hip_flexion_r",  "hip_rotation_l",
      "hip_rotation_r", "knee_angle_l",
      "knee_angle_l_beta_rotation1", "knee_angle_l_beta_translation1",
      "knee_angle_l_beta_translation2", "knee_angle_l_rotation2",
      "knee_angle_l_rotation3", "knee_angle_l_translation1",
      "knee_angle_l_translation2", "knee_angle_r",
      "knee_angle_r_beta_rotation1", "knee_angle_r_beta_translation1",
      "knee_angle_r_beta_translation2", "knee_angle_r_rotation2",
      "knee_angle_r_rotation3", "knee_angle_r_translation1",
      "knee_angle_r_translation2", "lat_bending",
      "mtp_angle_l",    "mtp_angle_r",
      "subtalar_angle_l", "subtalar_angle_r"};
  static constexpr const char* kJntOverext[] = {
      "hip_adduction_l", "hip_adduction_r", "hip_flexion_l",          "hip_flexion_r",
      "hip_rotation_l",  "hip_rotation_r",  "knee_angle_l",           "knee_angle_l_rotation2",
      "knee_angle_l_rotation3", "mtp_angle_l", "ankle_angle_l", "subtalar_angle_l"};

  // The soccer task's default obs keys and reward weights where the keywords give none
  // (WalkBase takes the walking task's otherwise).
  static WalkParams WithSoccerDefaults(const Params& p) {
    WalkParams w = p;
    if (w.obs_keys.empty()) {
      w.obs_keys = {"internal_qpos", "internal_qvel",  "grf",           "torso_angle",
                    "ball_pos",      "model_root_pos", "model_root_vel", "muscle_length",
                    "muscle_velocity", "muscle_force"};
    }
    if (w.reward_keys.empty()) {
      w.reward_keys = {"goal_scored", "time_cost", "act_reg", "pain"};
      w.reward_weights = {1000, -0.01, -100, -10};
    }
    return w;
  }

  int Joint(const char* name) const {
    const int j = mj_name2id(m_, mjOBJ_JOINT, name);
    if (j < 0) throw std::invalid_argument(std::string("the model has no joint '") + name + "'");
    return j;
  }
  int Geom(const char* name) const {
    const int g = mj_name2id(m_, mjOBJ_GEOM, name);
    if (g < 0) throw std::invalid_argument(std::string("the model has no geom '") + name + "'");
    return g;
  }

  // A new env's observed sim and goalkeeper: the sim as created (qpos0, mj_forward), the
  // goalkeeper's construction draws (GoalKeeper.__init__ in _setup), then the construction
  // step's move (GoalKeeper's default dt, 0.01).
  void Construct() {
    mj_resetData(m_, e_);
    mj_forward(m_, e_);
    goalkeeper_.Construct(e_, np_random_, ziggurat_);
    goalkeeper_.Update(e_, 0.01, ball_, np_random_, ziggurat_);
  }

  // _goal_scored_condition.
  bool GoalScored() const {
    const double* b = e_->xpos + 3 * ball_;
    return b[0] >= SoccerGoalKeeper::kFixedX && SoccerGoalKeeper::kYMin <= b[1] &&
           b[1] <= SoccerGoalKeeper::kYMax && kGoalZMin <= b[2] && b[2] <= kGoalZMax;
  }
  // _get_fallen_condition.
  bool Fallen() const { return e_->xpos[3 * pelvis_ + 2] < 0.2; }

  // get_jnt_limit_violation (startFlag is set: the construction step's -1 is not kept).
  double JointLimitViolation() {
    limit_efc_.assign(e_->efc_force, e_->efc_force + e_->nefc);
    for (int i = 0; i < e_->nefc; ++i) {
      if (e_->efc_type[i] != mjCNSTR_LIMIT_JOINT) limit_efc_[i] = 0.0;
    }
    joint_force_.assign(m_->nv, 0.0);
    mj_mulJacTVec(m_, e_, joint_force_.data(), limit_efc_.data());
    double score = 0.0;
    for (std::size_t i = 0; i < overext_dof_.size(); ++i) {
      const double f = std::fabs(NumpyClip(joint_force_[overext_dof_[i]], -1000.0, 1000.0)) / 1000;
      score = i == 0 ? f : score + f;
    }
    return score / static_cast<double>(overext_dof_.size());
  }

  std::string reset_type_;
  double rnd_pos_noise_, rnd_joint_noise_, max_time_;
  NumpyZiggurat ziggurat_;
  SoccerGoalKeeper goalkeeper_;
  std::vector<int> joint_qpos_, joint_dof_, overext_dof_, grf_adr_;
  int root_ = -1, torso_ = -1, pelvis_ = -1, ball_ = -1, r_toe_ = -1, l_toe_ = -1;
  std::vector<double> limit_efc_, joint_force_;
  mjData* e_;
};

}  // namespace envpool::myosuite
