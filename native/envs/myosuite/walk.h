// MyoSuite's leg tasks (envs/myo/myobase/walk_v0.py) on the 80-muscle legs model
// (simhive/myo_sim/leg/myolegs.xml): standing with the pelvis at a target (ReachEnvV0 of
// walk_v0, here LegReach: myoLegStandRandom), walking on flat ground (WalkEnvV0, here Walk:
// myoLegWalk) and walking on a heightfield (TerrainEnvV0, here Terrain: myoLegRoughTerrainWalk,
// myoLegHillyTerrainWalk, myoLegStairTerrainWalk).
//
// What the package does, restated:
//   - Setup (all three): init_qpos is the model's keyframe 0 (LegReach: init_qvel too; the
//     walks: zero). LegReach and Walk move the geom "terrain" (a heightfield) to (0, 0, -10)
//     and make it invisible; Terrain leaves it where the XML puts it until its first reset.
//     LegReach also makes the skin (geom group 1) invisible.
//   - LegReach reset: with a joint_random_range of non-zero span, generate_qpos draws
//     np_random.uniform(low, high) for every qpos number (nq draws), adds the draw to each
//     joint's first qpos number (jnt_qposadr: the free joint's x only) and clips those to
//     jnt_range (np.clip; an unlimited joint's range is [0, 0]). The observed sim goes to one
//     such qpos, mj_forward, and each site's target (`<site>_target`, site_pos) becomes the
//     site's xpos there plus np_random.uniform(low, high) (three numbers a site); then the base
//     reset from a second generate_qpos and qvel = init_qvel. (With a zero span neither qpos
//     is drawn: the targets follow the state the env is in.)
//   - LegReach observation dict: time, qpos, qvel * dt, act, tip_pos, target_pos, reach_err
//     (target - tip); default keys qpos, qvel, tip_pos, reach_err (and act).
//   - LegReach rewards: d = norm(reach_err), v = norm(qvel * dt), act_mag = norm(act) / na;
//     far_th = far_th * len(sites) once time > 2 dt (inf before), near_th = len(sites) *
//     0.05. reach 10 - d - 10 v, bonus (d < 2 near_th) + (d < near_th), act_reg -100 act_mag,
//     penalty -(d > far_th), sparse -d, solved d < near_th, done d > far_th. Default weights
//     reach 1, bonus 4, penalty 50, act_reg 1.
//   - Walk / Terrain step: the base step, then `steps` += 1 (the observation and the reward of
//     a step see the count before it; a reset sets it to 0).
//   - Walk reset: reset_type "init" starts from keyframe 2 (qpos and qvel), "random" from
//     keyframe 2 or 3 (np_random.uniform() < 0.5 picks 2) with np_random.normal(0, 0.02) added
//     to every qpos number (nq draws) but the root's height qpos[2] (the package means to keep
//     the rotation qpos[3:7] too, but keeps a view of it, which the noise reaches), anything
//     else from keyframe 0.
//   - Terrain reset, before Walk's: the heightfield's 100 x 100 data (float32) becomes
//       rough:  r = np_random.uniform(-0.5, 0.5) x 10000, (r - min) / (max - min) * 0.08 - 0.02;
//       hilly:  3000 times -2, then -2 + 0.5 (sin(linspace(0, 3 pi, 7000) + pi / 2) - 1),
//               normalized by its min and max, times a scale (0.63 for variant "fixed", else
//               np_random.uniform(0.53, 0.73)), in reverse order (np.flip of both axes);
//       stairs: 52 rows of -2 then 12 steps of 4 rows at -2 + 0.1 j, plus 2 and over
//               2 + 0.1 * 12, times a scale (2.5 for "fixed", else np_random.uniform(1.5, 3.5)),
//               in reverse order;
//     the terrain geom visible at (0, 0, 0), colliding (contype, conaffinity 1). No mj_setConst.
//   - Walk / Terrain observation dict (all of the observed sim after mj_forward): t, time,
//     qpos_without_xy (qpos[2:]), qvel * dt, com_vel (the mass-weighted sum of -cvel over the
//     bodies' linear parts x, y, over the total mass), torso_angle (xquat of "torso"),
//     feet_heights (xpos z of talus_l, talus_r), height (the centre of mass's z),
//     feet_rel_positions (xpos of talus_l, talus_r minus the pelvis's), phase_var ((steps /
//     hip_period) % 1), muscle_length (actuator_length), muscle_velocity (actuator_velocity
//     clipped to +-100), muscle_force (actuator_force / 1000 clipped to +-100), act.
//   - Walk / Terrain rewards: vel_reward exp(-(target_y_vel - v_y)^2) + exp(-(target_x_vel -
//     v_x)^2) (v the com_vel); cyclic_hip norm(des - hip_flexion (l, r)), des = float32 of 0.8
//     cos(2 pi phase + pi), 0.8 cos(2 pi phase); ref_rot exp(-norm(5 (qpos[3:7] - target_rot))),
//     target_rot init_qpos[3:7] unless given; joint_angle_rew exp(-5 mean |hip_adduction_l,
//     hip_adduction_r, hip_rotation_l, hip_rotation_r|); act_mag norm(act) / na; sparse the
//     vel_reward, solved vel_reward >= 1; done (1 or 0): the centre of mass below min_height, or
//     |R(qpos[3:7])[0][0]| > max_rot (quat2mat's matrix: the root's x axis leaves the x
//     direction), and for Terrain also the centre of mass less than 0.61 above the feet's mean
//     height. Default weights vel_reward 5, done -100, cyclic_hip -10, ref_rot 10,
//     joint_angle_rew 5.
//
// numpy's ways, kept: a sum over the bodies (np.sum(mass * x, 0)) adds the rows in order from
// the first; a sum over a whole vector (the total mass, np.mean, quat2mat's squared norm) is
// numpy's pairwise add.reduce; np.linalg.norm of a whole vector is BLAS's x.dot(x)
// (envs/common/numpy_blas.h); np.exp of a float64 is SVML's or libm's as the running numpy's
// (envs/common/numpy_exp.h); np.sin, np.cos of float64 are libm's; np.clip keeps NaN.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/common/numpy_normal.h"
#include "envs/myosuite/myo_env.h"

namespace envpool::myosuite {

// np.clip(x, lo, hi) of a float64: max then min, a NaN kept.
inline double NumpyClip(double x, double lo, double hi) {
  if (std::isnan(x)) return x;
  const double t = x > lo ? x : lo;
  return t < hi ? t : hi;
}

// The legs model's geom "terrain", which the tasks move and show or hide.
inline int TerrainGeom(const mjModel* m) {
  const int g = mj_name2id(m, mjOBJ_GEOM, "terrain");
  if (g < 0) throw std::invalid_argument("the model has no geom 'terrain' (the legs model)");
  return g;
}

// _setup's "move heightfield down if not used": invisible, at (0, 0, -10).
inline void HideTerrain(mjModel* m) {
  const int g = TerrainGeom(m);
  m->geom_rgba[4 * g + 3] = 0.0F;
  m->geom_pos[3 * g + 0] = 0.0;
  m->geom_pos[3 * g + 1] = 0.0;
  m->geom_pos[3 * g + 2] = -10.0;
}

inline void NeedKeyframes(const mjModel* m, int n) {
  if (m->nkey < n) {
    throw std::invalid_argument("the leg tasks need a model with " + std::to_string(n) +
                                " keyframes (the legs model)");
  }
}

// ReachEnvV0 of walk_v0: the pelvis to a target near where it starts.
class LegReach final : public MyoEnv {
 public:
  struct Params : MyoParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      if (sites.empty() || target_low.size() != 3 * sites.size() ||
          target_high.size() != 3 * sites.size()) {
        throw std::invalid_argument(
            "LegReach needs `sites` and three numbers per site in target_low and target_high");
      }
      Load();
      NeedKeyframes(model.get(), 1);
    }
    std::vector<std::string> sites;
    std::vector<double> target_low, target_high;
    Range joint_random_range{0.0, 0.0};
    double far_th = 0.35;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    AddMyoKeywords(k, "simhive/myo_sim/leg/myolegs.xml", 10);
    k.Add("sites", std::vector<std::string>{"pelvis"}, &Params::sites);
    k.Add("target_low", std::vector<double>{-0.05, -0.05, 0.0}, &Params::target_low);
    k.Add("target_high", std::vector<double>{0.05, 0.05, 0.0}, &Params::target_high);
    k.Add("joint_random_range", Range{0.0, 0.0}, &Params::joint_random_range);
    k.Add("far_th", 0.35, &Params::far_th);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& p) {
    LegReach env(p);
    return Spec(env.m_, env.ObsSize(), p.normalize_act);
  }

  explicit LegReach(const Params& p)
      : MyoEnv(p, {"qpos", "qvel", "tip_pos", "reach_err"},
               {{"reach", 1.0}, {"bonus", 4.0}, {"penalty", 50.0}, {"act_reg", 1.0}}),
        far_th_(p.far_th),
        low_(p.target_low),
        high_(p.target_high),
        joint_low_(p.joint_random_range.first),
        joint_high_(p.joint_random_range.second) {
    SetSites(p.sites);
    init_qpos_.assign(m_->key_qpos, m_->key_qpos + m_->nq);
    init_qvel_.assign(m_->key_qvel, m_->key_qvel + m_->nv);
    for (int g = 0; g < m_->ngeom; ++g) {
      if (m_->geom_group[g] == 1) mw_->geom_rgba[4 * g + 3] = 0.0F;
    }
    HideTerrain(mw_);
  }

 protected:
  void ResetTask() override {
    // np.ptp(joint_random_range) > 0.
    const bool random_qpos =
        std::max(joint_low_, joint_high_) - std::min(joint_low_, joint_high_) > 0;
    if (random_qpos) {
      const std::vector<double> qpos = GenerateQpos();
      std::copy(qpos.begin(), qpos.end(), d_->qpos);
    }
    mj_kinematics(m_, d_);  // the site positions of mj_forward
    for (std::size_t s = 0; s < tip_sids_.size(); ++s) {
      const double* xpos = d_->site_xpos + 3 * tip_sids_[s];
      const double tip[3] = {xpos[0], xpos[1], xpos[2]};
      for (int k = 0; k < 3; ++k) {
        mw_->site_pos[3 * target_sids_[s] + k] =
            tip[k] + np_random_.Uniform(low_[3 * s + k], high_[3 * s + k]);
      }
    }
    if (random_qpos) SetResetQpos(GenerateQpos());
  }

  void ObsDict(TermDict& obs) override {
    ObsBase(obs);
    ReachObs(obs);
  }

  void RewardDict(const TermDict& obs, TermDict& rwd) override {
    const double reach_dist = NormLastAxis(obs.At("reach_err"));
    const double vel_dist = NormLastAxis(obs.At("qvel"));
    const double act_mag = m_->na != 0 ? NormLastAxis(obs.At("act")) / m_->na : 0.0;
    const double n = static_cast<double>(tip_sids_.size());
    const double far_th =
        obs.Scalar("time") > 2 * dt_ ? far_th_ * n : std::numeric_limits<double>::infinity();
    const double near_th = n * 0.050;
    rwd.Set("reach", 10.0 - 1.0 * reach_dist - 10.0 * vel_dist);
    rwd.Set("bonus", 1.0 * (reach_dist < 2 * near_th) + 1.0 * (reach_dist < near_th));
    rwd.Set("act_reg", -100.0 * act_mag);
    rwd.Set("penalty", -1.0 * (reach_dist > far_th));
    rwd.Set("sparse", -1.0 * reach_dist);
    rwd.Set("solved", reach_dist < near_th);
    rwd.Set("done", reach_dist > far_th);
  }

 private:
  // generate_qpos: init_qpos plus a draw at each joint's first qpos number, clipped to the
  // joint's range.
  std::vector<double> GenerateQpos() {
    std::vector<double> draw(m_->nq);
    for (double& x : draw) x = np_random_.Uniform(joint_low_, joint_high_);
    std::vector<double> qpos(init_qpos_);
    for (int j = 0; j < m_->njnt; ++j) {
      const int a = m_->jnt_qposadr[j];
      qpos[a] = NumpyClip(qpos[a] + draw[a], m_->jnt_range[2 * j], m_->jnt_range[2 * j + 1]);
    }
    return qpos;
  }

  double far_th_;
  std::vector<double> low_, high_;
  double joint_low_, joint_high_;
};

// The keywords WalkEnvV0 and TerrainEnvV0 share.
struct WalkParams : MyoParams {
  double min_height = 0.8, max_rot = 0.8;
  int hip_period = 100;
  std::string reset_type = "init";
  double target_x_vel = 0.0, target_y_vel = 1.2;
  std::vector<double> target_rot;  // empty: init_qpos[3:7]
  std::vector<double> ziggurat_ki, ziggurat_wi, ziggurat_fi;
  // Reads the keywords, then the model.
  template <class P>
  void ReadWalk(const Keywords<P>& keys, const Config& c, P& p) {
    keys.Read(c, p);
    if (hip_period == 0) throw std::invalid_argument("hip_period must not be 0");
    if (!target_rot.empty() && target_rot.size() != 4) {
      throw std::invalid_argument("target_rot is a quaternion (4 numbers) or empty");
    }
    Load();
    NeedKeyframes(model.get(), 4);
  }
};

template <class P>
void AddWalkKeywords(Keywords<P>& k) {
  AddMyoKeywords(k, "simhive/myo_sim/leg/myolegs.xml", 10);
  k.Add("min_height", 0.8, &P::min_height);
  k.Add("max_rot", 0.8, &P::max_rot);
  k.Add("hip_period", 100, &P::hip_period);
  k.Add("reset_type", std::string("init"), &P::reset_type);
  k.Add("target_x_vel", 0.0, &P::target_x_vel);
  k.Add("target_y_vel", 1.2, &P::target_y_vel);
  k.Add("target_rot", std::vector<double>{}, &P::target_rot);
  k.Add("_ziggurat_ki", std::vector<double>{}, &P::ziggurat_ki);
  k.Add("_ziggurat_wi", std::vector<double>{}, &P::ziggurat_wi);
  k.Add("_ziggurat_fi", std::vector<double>{}, &P::ziggurat_fi);
}

// WalkEnvV0's observation, reward and reset; Terrain adds its heightfield and knee test.
class WalkBase : public MyoEnv {
 public:
  StepOutcome Step(const ActionView& action, Rng& rng) override {
    StepOutcome out = MyoEnv::Step(action, rng);
    ++steps_;
    return out;
  }

 protected:
  WalkBase(const WalkParams& p, bool terrain)
      : MyoEnv(p,
               {"qpos_without_xy", "qvel", "com_vel", "torso_angle", "feet_heights", "height",
                "feet_rel_positions", "phase_var", "muscle_length", "muscle_velocity",
                "muscle_force"},
               {{"vel_reward", 5.0},
                {"done", -100.0},
                {"cyclic_hip", -10.0},
                {"ref_rot", 10.0},
                {"joint_angle_rew", 5.0}}),
        terrain_(terrain),
        min_height_(p.min_height),
        max_rot_(p.max_rot),
        hip_period_(p.hip_period),
        reset_type_(p.reset_type),
        target_x_vel_(p.target_x_vel),
        target_y_vel_(p.target_y_vel),
        dot_fma_(p.numpy_dot_fma),
        ziggurat_(NumpyZiggurat::From(p.ziggurat_ki, p.ziggurat_wi, p.ziggurat_fi)) {
    init_qpos_.assign(m_->key_qpos, m_->key_qpos + m_->nq);
    init_qvel_.assign(m_->nv, 0.0);
    target_rot_ = p.target_rot.empty()
                      ? std::vector<double>(init_qpos_.begin() + 3, init_qpos_.begin() + 7)
                      : p.target_rot;
    torso_ = Body("torso");
    talus_l_ = Body("talus_l");
    talus_r_ = Body("talus_r");
    pelvis_ = Body("pelvis");
    for (const char* name : {"hip_flexion_l", "hip_flexion_r"}) hip_flexion_.push_back(Qpos(name));
    for (const char* name :
         {"hip_adduction_l", "hip_adduction_r", "hip_rotation_l", "hip_rotation_r"}) {
      hip_angles_.push_back(Qpos(name));
    }
    if (reset_type_ == "random" && !ziggurat_.loaded) {
      throw std::invalid_argument("reset_type 'random' draws normals: it needs numpy's ziggurat "
                                  "tables (the _ziggurat_* keywords, which envpool.make passes)");
    }
  }

  // WalkEnvV0.reset's start (steps, the reset state); Terrain edits its heightfield first.
  void ResetTask() override {
    steps_ = 0;
    int key = 0;
    const bool random = reset_type_ == "random";
    if (random) {
      key = np_random_.Uniform(0.0, 1.0) < 0.5 ? 2 : 3;
    } else if (reset_type_ == "init") {
      key = 2;
    }
    std::vector<double> qpos(m_->key_qpos + key * m_->nq, m_->key_qpos + (key + 1) * m_->nq);
    std::vector<double> qvel(m_->key_qvel + key * m_->nv, m_->key_qvel + (key + 1) * m_->nv);
    if (random) {
      std::vector<double> noise(m_->nq);
      for (double& x : noise) x = ziggurat_.Normal(np_random_, 0.0, 0.02);
      // The package keeps the height (a copy) but not the rotation (a view of the qpos it
      // adds the noise to): every qpos number but qpos[2] moves.
      for (int i = 0; i < m_->nq; ++i) {
        if (i != 2) qpos[i] = qpos[i] + noise[i];
      }
    }
    SetResetQpos(std::move(qpos));
    SetResetQvel(std::move(qvel));
  }

  void ObsDict(TermDict& obs) override {
    obs["t"].assign(1, d_->time);
    obs["time"].assign(1, d_->time);
    obs["qpos_without_xy"].assign(d_->qpos + 2, d_->qpos + m_->nq);
    std::vector<double>& qvel = obs["qvel"];
    qvel.resize(m_->nv);
    for (int i = 0; i < m_->nv; ++i) qvel[i] = d_->qvel[i] * dt_;
    const std::pair<double, double> vel = ComVelocity();
    obs["com_vel"] = {vel.first, vel.second};
    obs["torso_angle"].assign(d_->xquat + 4 * torso_, d_->xquat + 4 * torso_ + 4);
    obs["feet_heights"] = {d_->xpos[3 * talus_l_ + 2], d_->xpos[3 * talus_r_ + 2]};
    obs["height"].assign(1, Height());
    std::vector<double>& feet = obs["feet_rel_positions"];
    feet.resize(6);
    for (int k = 0; k < 3; ++k) {
      feet[k] = d_->xpos[3 * talus_l_ + k] - d_->xpos[3 * pelvis_ + k];
      feet[3 + k] = d_->xpos[3 * talus_r_ + k] - d_->xpos[3 * pelvis_ + k];
    }
    obs["phase_var"].assign(1, Phase());
    obs["muscle_length"].assign(d_->actuator_length, d_->actuator_length + m_->nu);
    std::vector<double>& velocity = obs["muscle_velocity"];
    std::vector<double>& force = obs["muscle_force"];
    velocity.resize(m_->nu);
    force.resize(m_->nu);
    for (int i = 0; i < m_->nu; ++i) {
      velocity[i] = NumpyClip(d_->actuator_velocity[i], -100.0, 100.0);
      force[i] = NumpyClip(d_->actuator_force[i] / 1000.0, -100.0, 100.0);
    }
    if (m_->na > 0) obs["act"].assign(d_->act, d_->act + m_->na);
  }

  void RewardDict(const TermDict& obs, TermDict& rwd) override {
    const std::pair<double, double> vel = ComVelocity();
    const double dy = target_y_vel_ - vel.second, dx = target_x_vel_ - vel.first;
    const double vel_reward = NumpyExp(-(dy * dy)) + NumpyExp(-(dx * dx));
    // _get_cyclic_rew: the desired hip flexions, rounded to float32.
    const double phase = Phase();
    const float des[2] = {static_cast<float>(0.8 * std::cos(phase * 2 * M_PI + M_PI)),
                          static_cast<float>(0.8 * std::cos(phase * 2 * M_PI))};
    double diff[2];
    for (int i = 0; i < 2; ++i) diff[i] = static_cast<double>(des[i]) - d_->qpos[hip_flexion_[i]];
    const double cyclic_hip = std::sqrt(Dot(diff, diff, 2));
    double rot[4];
    for (int i = 0; i < 4; ++i) rot[i] = 5.0 * (d_->qpos[3 + i] - target_rot_[i]);
    const double ref_rot = NumpyExp(-std::sqrt(Dot(rot, rot, 4)));
    std::vector<double> angles;
    for (int a : hip_angles_) angles.push_back(std::fabs(d_->qpos[a]));
    const double mag = Sum(angles) / static_cast<double>(angles.size());
    const double joint_angle_rew = NumpyExp(-5.0 * mag);
    const double act_mag = m_->na != 0 ? NormLastAxis(obs.At("act")) / m_->na : 0.0;
    rwd.Set("vel_reward", vel_reward);
    rwd.Set("cyclic_hip", cyclic_hip);
    rwd.Set("ref_rot", ref_rot);
    rwd.Set("joint_angle_rew", joint_angle_rew);
    rwd.Set("act_mag", act_mag);
    rwd.Set("sparse", vel_reward);
    rwd.Set("solved", vel_reward >= 1.0);
    rwd.Set("done", Done() ? 1.0 : 0.0);
  }

  bool terrain_;

 private:
  int Body(const char* name) const {
    const int b = mj_name2id(m_, mjOBJ_BODY, name);
    if (b < 0) throw std::invalid_argument(std::string("the model has no body '") + name + "'");
    return b;
  }
  int Qpos(const char* name) const {
    const int j = mj_name2id(m_, mjOBJ_JOINT, name);
    if (j < 0) throw std::invalid_argument(std::string("the model has no joint '") + name + "'");
    return m_->jnt_qposadr[j];
  }

  double Dot(const double* x, const double* y, int n) const {
    return NumpyBlas::Sum(x, y, n, dot_fma_);
  }

  // (steps / hip_period) % 1 (Python's float modulo: fmod for non-negative numbers).
  double Phase() const {
    return std::fmod(static_cast<double>(steps_) / static_cast<double>(hip_period_), 1.0);
  }

  // np.sum(mass[:, None] * x, 0) / np.sum(mass), column k of x (stride numbers a body):
  // the rows added in order from the first; the total mass a pairwise add.reduce.
  double MassWeighted(const double* x, int stride, int k, bool negate) const {
    double sum = 0.0;
    for (int b = 0; b < m_->nbody; ++b) {
      const double v = negate ? -x[stride * b + k] : x[stride * b + k];
      const double term = m_->body_mass[b] * v;
      sum = b == 0 ? term : sum + term;
    }
    return sum / mujoco::NumpySum(m_->body_mass, m_->nbody);
  }
  // _get_com_velocity: the linear x, y of the mass-weighted -cvel.
  std::pair<double, double> ComVelocity() const {
    return {MassWeighted(d_->cvel, 6, 3, true), MassWeighted(d_->cvel, 6, 4, true)};
  }
  // _get_height: the centre of mass's z (xipos).
  double Height() const { return MassWeighted(d_->xipos, 3, 2, false); }

  // _get_done (TerrainEnvV0's adds the knee test).
  bool Done() const {
    const double height = Height();
    if (height < min_height_) return true;
    // _get_rot_condition: quat2mat(qpos[3:7])[0][0], 1 - (y Y + z Z) with Y = y s, Z = z s,
    // s = 2 / |q|^2 (the identity where |q|^2 <= eps).
    const double* q = d_->qpos + 3;
    const double sq[4] = {q[0] * q[0], q[1] * q[1], q[2] * q[2], q[3] * q[3]};
    const double nq = mujoco::NumpySum(sq, 4);
    double m00 = 1.0;
    if (nq > std::numeric_limits<double>::epsilon()) {
      const double s = 2.0 / nq;
      m00 = 1.0 - (q[2] * (q[2] * s) + q[3] * (q[3] * s));
    }
    if (std::fabs(m00) > max_rot_) return true;
    if (terrain_) {
      const double feet[2] = {d_->xpos[3 * talus_l_ + 2], d_->xpos[3 * talus_r_ + 2]};
      if (height - mujoco::NumpySum(feet, 2) / 2.0 < 0.61) return true;
    }
    return false;
  }

  double min_height_, max_rot_;
  int hip_period_;
  std::string reset_type_;
  double target_x_vel_, target_y_vel_;
  bool dot_fma_;
  NumpyZiggurat ziggurat_;
  std::vector<double> target_rot_;
  int torso_ = -1, talus_l_ = -1, talus_r_ = -1, pelvis_ = -1;
  std::vector<int> hip_flexion_, hip_angles_;
  int steps_ = 0;
};

// WalkEnvV0: walking on flat ground at target_x_vel, target_y_vel.
class Walk final : public WalkBase {
 public:
  struct Params : WalkParams {
    explicit Params(const Config& c) { ReadWalk(Keys(), c, *this); }
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    AddWalkKeywords(k);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& p) {
    Walk env(p);
    return Spec(env.m_, env.ObsSize(), p.normalize_act);
  }

  explicit Walk(const Params& p) : WalkBase(p, false) { HideTerrain(mw_); }
};

// TerrainEnvV0: walking on the heightfield `terrain` ("rough", "hilly" or "stairs"; another
// name shows the flat heightfield XML's data), redrawn at each reset.
class Terrain final : public WalkBase {
 public:
  struct Params : WalkParams {
    explicit Params(const Config& c) { ReadWalk(Keys(), c, *this); }
    std::string terrain = "rough", variant;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    AddWalkKeywords(k);
    k.Add("terrain", std::string("rough"), &Params::terrain);
    k.Add("variant", std::string(), &Params::variant);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& p) {
    Terrain env(p);
    return Spec(env.m_, env.ObsSize(), p.normalize_act);
  }

  explicit Terrain(const Params& p)
      : WalkBase(p, true), terrain_name_(p.terrain), fixed_(p.variant == "fixed") {
    geom_ = TerrainGeom(m_);
    const int h = m_->geom_dataid[geom_];
    if (m_->geom_type[geom_] != mjGEOM_HFIELD || h < 0 ||
        m_->hfield_nrow[h] * m_->hfield_ncol[h] != kSize) {
      throw std::invalid_argument("the geom 'terrain' must be a 100 x 100 heightfield");
    }
    hfield_ = mw_->hfield_data + m_->hfield_adr[h];
    if (terrain_name_ == "hilly") shape_ = Hills();
    if (terrain_name_ == "stairs") shape_ = Stairs();
  }

 protected:
  void ResetTask() override {
    if (terrain_name_ == "rough") {
      std::vector<double> rough(kSize);
      for (double& x : rough) x = np_random_.Uniform(-0.5, 0.5);
      const auto [lo, hi] = std::minmax_element(rough.begin(), rough.end());
      const double low = *lo, span = *hi - *lo;
      for (int i = 0; i < kSize; ++i) {
        hfield_[i] = static_cast<float>((rough[i] - low) / span * 0.08 - 0.02);
      }
    } else if (terrain_name_ == "hilly" || terrain_name_ == "stairs") {
      const bool hilly = terrain_name_ == "hilly";
      const double scale = fixed_ ? (hilly ? 0.63 : 2.5)
                                  : (hilly ? np_random_.Uniform(0.53, 0.73)
                                           : np_random_.Uniform(1.5, 3.5));
      // np.flip over both axes of the 100 x 100 grid: the flat order reversed.
      for (int i = 0; i < kSize; ++i) hfield_[i] = static_cast<float>(shape_[kSize - 1 - i] * scale);
    }
    mw_->geom_rgba[4 * geom_ + 3] = 1.0F;
    for (int k = 0; k < 3; ++k) mw_->geom_pos[3 * geom_ + k] = 0.0;
    mw_->geom_contype[geom_] = 1;
    mw_->geom_conaffinity[geom_] = 1;
    WalkBase::ResetTask();
  }

 private:
  static constexpr int kSize = 10000;

  // (x - min) / (max - min), elementwise.
  static std::vector<double> Normalized(std::vector<double> x) {
    const auto [lo, hi] = std::minmax_element(x.begin(), x.end());
    const double low = *lo, span = *hi - *lo;
    for (double& v : x) v = (v - low) / span;
    return x;
  }

  // 3000 flat, then half a cosine-like hill profile over np.linspace(0, 3 pi, 7000).
  static std::vector<double> Hills() {
    constexpr int kFlat = 3000, kWave = kSize - kFlat;
    const double stop = 3 * M_PI;
    const double step = (stop - 0.0) / (kWave - 1);
    std::vector<double> data(kFlat, -2.0);
    for (int i = 0; i < kWave; ++i) {
      const double x = i == kWave - 1 ? stop : static_cast<double>(i) * step + 0.0;
      data.push_back(-2.0 + 0.5 * (std::sin(x + M_PI / 2) - 1.0));
    }
    return Normalized(std::move(data));
  }

  // 52 flat rows at -2, then 12 stairs of 4 rows, each 0.1 higher; (x + 2) / (2 + 0.1 * 12).
  static std::vector<double> Stairs() {
    constexpr int kStairs = 12, kRowsFlat = 52, kRowsStair = 4, kCols = 100;
    constexpr double kStairHeight = 0.1;
    std::vector<double> data(kRowsFlat * kCols, -2.0);
    for (int j = 0; j < kStairs; ++j) data.insert(data.end(), kRowsStair * kCols, -2 + kStairHeight * j);
    const double total = 2 + kStairHeight * kStairs;
    for (double& v : data) v = (v + 2) / total;
    return data;
  }

  std::string terrain_name_;
  bool fixed_;
  int geom_ = -1;
  float* hfield_ = nullptr;
  std::vector<double> shape_;
};

}  // namespace envpool::myosuite
