// MyoSuite's MyoChallenge 2024 bimanual handover (envs/myo/myochallenge/bimanual_v0.py,
// BimanualEnvV1): the MyoArm (63 muscles) and a robotic prosthesis (the MPL arm, 17 position
// actuators, bodies and joints named "prosthesis/...") pass a box (the body "manip_object",
// its free joint "manip_object/freejoint", its site "touch_site") from a start pillar (the
// mocap body "start") to a goal pillar (the mocap body "goal").
//
// What the package does, restated:
//   - Ids (IdInfo): the MyoArm's bodies are those not named "prosthesis..." and not start,
//     goal or manip_object (the world body 0 among them), the prosthesis's those named
//     "prosthesis/..."; each is kept as its id range (min, max), which labels a contact's
//     other body: MYO, PROSTH, START, GOAL, else ENV. The MyoArm's joints (not
//     "prosthesis...", not the object's) and the prosthesis's give one qpos address and one
//     dof address each; the object's are its free joint's seven qpos and six dofs. obj_gid
//     is the object body's first geom + 1 (its collision box), obj_mid the first mesh whose
//     name holds "box".
//   - Construction: the start and goal bodies' body_pos are start_center and goal_center.
//     With obj_scale_change the box's mesh is centered (__center_box_mesh): its vertices
//     (and the normals at the same addresses) rotated by the mesh geom's quat (scipy's
//     Rotation.apply, stored as float32), the geom's quat the identity, the vertices moved by
//     the mesh geom's pos minus the box geom's (float32 += float64) and the geom put at the
//     box's pos; only the frames see it (the mesh geom does not collide). The ranges: mass
//     body_mass + obj_mass_change, friction the box's friction -+ obj_friction_change, scale
//     -+obj_scale_change. init_obj_z and init_palm_z are the sites' z at qpos0. The
//     construction step (MujocoEnv._setup's step with float64 zeros) runs from qpos0; of what
//     it leaves, a reset keeps max_force (never reset) and the reward dict (whose `solved` the
//     next step's done reads; false there). init_qpos is then the model's keyframe 2.
//   - Step (BimanualEnvV1.step, before BaseV0.step): with normalize_act, the robotic
//     (non-muscle) actuators' actions are remapped from [-1, 1] to their ctrlrange, mean +
//     a (hi - lo) / 2, in float64, and stored back into the action's array (float32 from a
//     user, float64 in the construction step); BaseV0.step then leaves them unmapped (the
//     model has muscles).
//   - Reset, in this order of draws: start_pos = start_center + start_shifts (2 random(3) -
//     1) (three draws), goal_pos the same with goal_center and goal_shifts (three), set as the
//     two bodies' body_pos (mj_resetData puts the mocap bodies there); with obj_mass_change
//     the object body's mass (one); with obj_friction_change the box geom's friction
//     (three); with obj_scale_change the box geom's size = its initial size * (uniform(-c, c)
//     + 1) (three), except at the env's first reset (ignore_first_scale: no draw). goal_touch
//     = 0 (and the touch history). Then the base reset from keyframe 2 and its observation;
//     after it (AfterReset; the returned observation does not see it) the object's qpos x, y,
//     z = start_pos + (0, 0, 0.1), and init_obj_z, init_palm_z = the sites' z of the reset
//     state (before that move).
//   - Observation dict: time, myohand_qpos / myohand_qvel, pros_hand_qpos / pros_hand_qvel,
//     object_qpos / object_qvel (unscaled), start_pos, goal_pos (the drawn ones), elbow_fle
//     (the joint elbow_flexion's qpos), max_force (the largest touch sensor value so far,
//     from 0 at construction), touching_body (the labels of the object's contacts, as a set:
//     five 0/1 numbers MYO, PROSTH, START, GOAL, ENV), palm_pos (site S_grasp), fin0..fin4
//     (THtip, IFtip, MFtip, RFtip, LFtip), Rpalm_pos (the mean of the sites
//     prosthesis/palm_thumb and prosthesis/palm_pinky), MPL_ori (mat2euler of palm_thumb's
//     xmat), MPL_ori_err = MPL_ori - (pi, 0, pi), obj_pos (touch_site), reach_err = palm_pos -
//     obj_pos, pass_err = Rpalm_pos - obj_pos, act. Default keys time, myohand_qpos,
//     myohand_qvel, pros_hand_qpos, pros_hand_qvel, object_qpos, object_qvel, touching_body
//     (and act): 210 numbers.
//   - Rewards: reach_dist = |norm(reach_err)| + log(that + 1e-6); act = norm(act) / na;
//     fin_open = exp(-5 * the sum of the five fingertips' distances to the palm) (Python's
//     sum, in order); fin_dis = the sum of their distances to the object + log(that + 1e-6);
//     lift_bonus = 5 exp(-10 (elbow_fle - 1)^2) - 5; lift_height = 5 exp(-10 (h - 0.2)^2) -
//     5, h the norm of (obj z - init_obj_z, palm z - init_palm_z); pass_err = |norm(pass_err)|
//     + log(that + 1e-3); sparse 0; goal_dist = |obj_pos - (goal x, goal y, 1.09)|; a step
//     whose object contacts have the goal (touching_body[3] == 1) counts goal_touch; solved
//     = goal_dist < proximity_th and goal_touch >= 10; done (_get_done) = time > 10, or the
//     object's z < 0.3, or the PREVIOUS reward dict's solved (kept across resets). Default
//     weights reach_dist -0.1, act 0, fin_dis -0.5, pass_err -1.
//
// The package cannot be made under numpy >= 2.4 as it is: it passes one-element arrays
// where numbers are wanted (np.arange's bounds, MjModel.geom's index), which numpy 2.4 no
// longer converts; tests/test_align_myochallenge_bimanual.py gives it back that conversion.
//
// numpy's float64 log is the C library's log where numpy has no SIMD loop for it (x86-64
// without AVX-512); with AVX-512 its own loop may differ in the last bit, and so may the
// rewards built on it (the test tells).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/common/rotations.h"
#include "envs/myosuite/myo_env.h"

namespace envpool::myosuite {

class Bimanual final : public MyoEnv {
 public:
  struct Params : MyoParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      auto three = [](const std::vector<double>& v, const char* name) {
        if (v.size() != 3) throw std::invalid_argument(std::string(name) + ": three numbers");
      };
      three(start_center, "start_center");
      three(goal_center, "goal_center");
      three(start_shifts, "start_shifts");
      three(goal_shifts, "goal_shifts");
      if (!obj_scale_change.empty()) three(obj_scale_change, "obj_scale_change");
      if (!obj_friction_change.empty()) three(obj_friction_change, "obj_friction_change");
      if (!obj_mass_change.empty() && obj_mass_change.size() != 2) {
        throw std::invalid_argument("obj_mass_change: two numbers (low, high) or none");
      }
      Load();
    }
    std::vector<double> start_center, goal_center, start_shifts, goal_shifts;
    std::vector<double> obj_scale_change, obj_mass_change, obj_friction_change;
    double proximity_th = 0.17;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    AddMyoKeywords(k, "envs/myo/assets/arm/myoarm_bionic_bimanual.xml", 10);
    k.Add("start_center", std::vector<double>{-0.4, -0.25, 1.05}, &Params::start_center);
    k.Add("goal_center", std::vector<double>{0.4, -0.25, 1.05}, &Params::goal_center);
    k.Add("start_shifts", std::vector<double>{0.055, 0.055, 0.0}, &Params::start_shifts);
    k.Add("goal_shifts", std::vector<double>{0.098, 0.098, 0.0}, &Params::goal_shifts);
    k.Add("obj_scale_change", std::vector<double>{}, &Params::obj_scale_change);
    k.Add("obj_mass_change", std::vector<double>{}, &Params::obj_mass_change);
    k.Add("obj_friction_change", std::vector<double>{}, &Params::obj_friction_change);
    k.Add("proximity_th", 0.17, &Params::proximity_th).AllowInf();
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& p) {
    Bimanual env(p);
    return Spec(env.m_, env.ObsSize(), p.normalize_act);
  }

  explicit Bimanual(const Params& p)
      : MyoEnv(p, {"time", "myohand_qpos", "myohand_qvel", "pros_hand_qpos", "pros_hand_qvel",
                   "object_qpos", "object_qvel", "touching_body"},
               {{"reach_dist", -0.1}, {"act", 0.0}, {"fin_dis", -0.5}, {"pass_err", -1.0}}),
        p_(p),
        obj_bid_(BodyId("manip_object")),
        start_bid_(BodyId("start")),
        goal_bid_(BodyId("goal")),
        obj_sid_(SiteId("touch_site")),
        palm_sid_(SiteId("S_grasp")),
        fin_sids_{SiteId("THtip"), SiteId("IFtip"), SiteId("MFtip"), SiteId("RFtip"),
                  SiteId("LFtip")},
        rpalm1_sid_(SiteId("prosthesis/palm_thumb")),
        rpalm2_sid_(SiteId("prosthesis/palm_pinky")) {
    ReadIds();
    mj_forward(m_, Observed());
    init_obj_z_ = Observed()->site_xpos[3 * obj_sid_ + 2];
    init_palm_z_ = Observed()->site_xpos[3 * palm_sid_ + 2];
    for (int k = 0; k < 3; ++k) {
      mw_->body_pos[3 * start_bid_ + k] = p.start_center[k];
      mw_->body_pos[3 * goal_bid_ + k] = p.goal_center[k];
      start_pos_[k] = p.start_center[k];
      goal_pos_[k] = p.goal_center[k];
    }
    // Draws that would make the box's mass, friction or size negative (MuJoCo's dynamics NaN
    // then; the package passes them on) are refused.
    if (!p.obj_mass_change.empty()) {
      mass_low_ = m_->body_mass[obj_bid_] + p.obj_mass_change[0];
      mass_high_ = m_->body_mass[obj_bid_] + p.obj_mass_change[1];
      if (!(std::min(mass_low_, mass_high_) >= 0)) {
        throw std::invalid_argument("obj_mass_change: the box's mass (" +
                                    std::to_string(m_->body_mass[obj_bid_]) +
                                    ") plus each bound must be >= 0");
      }
    }
    for (int k = 0; k < 3 && !p.obj_friction_change.empty(); ++k) {
      friction_low_[k] = m_->geom_friction[3 * obj_gid_ + k] - p.obj_friction_change[k];
      friction_high_[k] = m_->geom_friction[3 * obj_gid_ + k] + p.obj_friction_change[k];
      if (!(std::min(friction_low_[k], friction_high_[k]) >= 0)) {
        throw std::invalid_argument("obj_friction_change: the box's friction -+ each number "
                                    "must be >= 0");
      }
    }
    for (double c : p.obj_scale_change) {
      if (!(std::abs(c) < 1)) {
        throw std::invalid_argument("obj_scale_change: each number's magnitude must be < 1 "
                                    "(a scale of 1 -+ it)");
      }
    }
    for (int k = 0; k < 3; ++k) obj_size0_[k] = m_->geom_size[3 * obj_gid_ + k];
    if (!p.obj_scale_change.empty()) CenterBoxMesh();
    ConstructionStep();
    construction_max_force_ = max_force_;
    std::copy(m_->key_qpos + 2 * m_->nq, m_->key_qpos + 3 * m_->nq, init_qpos_.begin());
  }

  // A new env: the box at its initial size, its first reset drawing no scale, max_force as
  // the construction step left it, no previous reward dict whose `solved` counts.
  void Seed(std::uint64_t seed) override {
    MyoEnv::Seed(seed);
    for (int k = 0; k < 3; ++k) mw_->geom_size[3 * obj_gid_ + k] = obj_size0_[k];
    ignore_first_scale_ = true;
    max_force_ = construction_max_force_;
    rwd_ = TermDict();
  }

  // The package draws its observed copy as it is (no mj_forward: after a reset, the object's
  // move is in its qpos only): drawn so here, the sim's data put back after.
  void Render(int width, int height, int camera_id, std::uint8_t* out) override {
    std::unique_ptr<mjData, void (*)(mjData*)> sim(mj_copyData(nullptr, m_, d_), mj_deleteData);
    mj_copyData(d_, m_, Observed());
    mujoco::MujocoEnv::Render(width, height, camera_id, out);
    mj_copyData(d_, m_, sim.get());
  }

 protected:
  void TaskAction(std::vector<double>& a, bool& float64) override {
    if (!p_.normalize_act) return;
    for (int i = 0; i < m_->nu; ++i) {
      if (m_->actuator_dyntype[i] == mjDYN_MUSCLE) continue;
      const double lo = m_->actuator_ctrlrange[2 * i], hi = m_->actuator_ctrlrange[2 * i + 1];
      // np.mean over the range's two numbers, then mean + a * (hi - lo) / 2.0 in float64,
      // stored into the action's array (float32 unless the construction step's).
      const double v = (lo + hi) / 2.0 + a[i] * (hi - lo) / 2.0;
      a[i] = float64 ? v : static_cast<double>(static_cast<float>(v));
    }
  }

  void ResetTask() override {
    double r[3];
    for (double& x : r) x = np_random_.NextDouble();
    for (int k = 0; k < 3; ++k) {
      start_pos_[k] = p_.start_center[k] + p_.start_shifts[k] * (2 * r[k] - 1);
    }
    for (double& x : r) x = np_random_.NextDouble();
    for (int k = 0; k < 3; ++k) {
      goal_pos_[k] = p_.goal_center[k] + p_.goal_shifts[k] * (2 * r[k] - 1);
    }
    for (int k = 0; k < 3; ++k) {
      mw_->body_pos[3 * start_bid_ + k] = start_pos_[k];
      mw_->body_pos[3 * goal_bid_ + k] = goal_pos_[k];
    }
    goal_touch_ = 0;
    if (!p_.obj_mass_change.empty()) {
      mw_->body_mass[obj_bid_] = np_random_.Uniform(mass_low_, mass_high_);
    }
    if (!p_.obj_friction_change.empty()) {
      for (int k = 0; k < 3; ++k) {
        mw_->geom_friction[3 * obj_gid_ + k] = np_random_.Uniform(friction_low_[k],
                                                                  friction_high_[k]);
      }
    }
    if (!p_.obj_scale_change.empty() && !ignore_first_scale_) {
      for (int k = 0; k < 3; ++k) {
        const double c = p_.obj_scale_change[k];
        const double scale = np_random_.Uniform(-c, c) + 1;
        mw_->geom_size[3 * obj_gid_ + k] = obj_size0_[k] * scale;
      }
    } else {
      ignore_first_scale_ = false;
    }
  }

  // The package moves the object in its observed copy (env.mj_data), which the next
  // observation's sync overwrites: the sim's object stays where keyframe 2 has it. (The qpos
  // address is the body's first joint's id, jntadr, which is the free joint's qpos address
  // here.)
  void AfterReset() override {
    const int adr = m_->body_jntadr[obj_bid_];
    const double lift[3] = {0.0, 0.0, 0.1};
    for (int k = 0; k < 3; ++k) Observed()->qpos[adr + k] = start_pos_[k] + lift[k];
    init_obj_z_ = Observed()->site_xpos[3 * obj_sid_ + 2];
    init_palm_z_ = Observed()->site_xpos[3 * palm_sid_ + 2];
  }

  void ObsDict(TermDict& obs) override {
    SyncObserved();  // everything below reads the observed copy
    mjData* d = Observed();
    obs["time"].assign(1, d->time);
    obs["qp"].assign(d->qpos, d->qpos + m_->nq);
    obs["qv"].assign(d->qvel, d->qvel + m_->nv);
    Gather(obs["myohand_qpos"], d->qpos, myo_qpos_);
    Gather(obs["myohand_qvel"], d->qvel, myo_dof_);
    Gather(obs["pros_hand_qpos"], d->qpos, prosth_qpos_);
    Gather(obs["pros_hand_qvel"], d->qvel, prosth_dof_);
    obs["object_qpos"].assign(d->qpos + manip_qpos_, d->qpos + manip_qpos_ + 7);
    obs["object_qvel"].assign(d->qvel + manip_dof_, d->qvel + manip_dof_ + 6);
    obs["start_pos"].assign(start_pos_, start_pos_ + 3);
    obs["goal_pos"].assign(goal_pos_, goal_pos_ + 3);
    obs["elbow_fle"].assign(1, d->qpos[elbow_qpos_]);
    // get_touching_objects: the labels of the object's contacts, as a set.
    bool touching[5] = {false, false, false, false, false};
    for (int c = 0; c < d->ncon; ++c) {
      const int b1 = m_->geom_bodyid[d->contact[c].geom[0]];
      const int b2 = m_->geom_bodyid[d->contact[c].geom[1]];
      if (b1 == obj_bid_) {
        touching[Label(b2)] = true;
      } else if (b2 == obj_bid_) {
        touching[Label(b1)] = true;
      }
    }
    const double force = d->sensordata[0];
    if (force > max_force_) max_force_ = force;
    obs["max_force"].assign(1, max_force_);
    std::vector<double>& touching_body = obs["touching_body"];
    touching_body.resize(5);
    for (int i = 0; i < 5; ++i) touching_body[i] = touching[i] ? 1.0 : 0.0;
    const double* palm = d->site_xpos + 3 * palm_sid_;
    obs["palm_pos"].assign(palm, palm + 3);
    static const char* const kFin[5] = {"fin0", "fin1", "fin2", "fin3", "fin4"};
    for (int f = 0; f < 5; ++f) {
      obs[kFin[f]].assign(d->site_xpos + 3 * fin_sids_[f], d->site_xpos + 3 * fin_sids_[f] + 3);
    }
    std::vector<double>& rpalm = obs["Rpalm_pos"];
    rpalm.resize(3);
    for (int k = 0; k < 3; ++k) {
      rpalm[k] = (d->site_xpos[3 * rpalm1_sid_ + k] + d->site_xpos[3 * rpalm2_sid_ + k]) / 2;
    }
    rotations::Mat3 mat;
    for (int k = 0; k < 9; ++k) mat[k] = d->site_xmat[9 * rpalm1_sid_ + k];
    const rotations::Vec3 ori = rotations::Mat2Euler(mat);
    obs["MPL_ori"].assign(ori.begin(), ori.end());
    const double ori_ref[3] = {M_PI, 0.0, M_PI};
    std::vector<double>& ori_err = obs["MPL_ori_err"];
    ori_err.resize(3);
    for (int k = 0; k < 3; ++k) ori_err[k] = ori[k] - ori_ref[k];
    const double* obj = d->site_xpos + 3 * obj_sid_;
    obs["obj_pos"].assign(obj, obj + 3);
    std::vector<double>& reach_err = obs["reach_err"];
    std::vector<double>& pass_err = obs["pass_err"];
    reach_err.resize(3);
    pass_err.resize(3);
    for (int k = 0; k < 3; ++k) {
      reach_err[k] = palm[k] - obj[k];
      pass_err[k] = rpalm[k] - obj[k];
    }
    if (m_->na > 0) obs["act"].assign(d->act, d->act + m_->na);
  }

  void RewardDict(const TermDict& obs, TermDict& rwd) override {
    const double reach_dist = std::abs(NormLastAxis(obs.At("reach_err")));
    const double pass_dist = std::abs(NormLastAxis(obs.At("pass_err")));
    const std::vector<double>& obj_pos = obs.At("obj_pos");
    const std::vector<double>& palm_pos = obs.At("palm_pos");
    const std::vector<double> goal_pos = {goal_pos_[0], goal_pos_[1], kPillarHeight};
    const double lift[2] = {obj_pos[2] - init_obj_z_, palm_pos[2] - init_palm_z_};
    double lift_height = NormLastAxis(lift, 2);
    lift_height = 5 * NumpyExp(-10 * Square(lift_height - kTargetZ)) - 5;
    const double act = m_->na != 0 ? NormLastAxis(obs.At("act")) / m_->na : 0.0;
    static const char* const kFin[5] = {"fin0", "fin1", "fin2", "fin3", "fin4"};
    // Python's sum over the fingers: 0 + d0 + d1 + ... in order.
    double fin_open = 0.0, fin_dis = 0.0;
    for (const char* fin : kFin) {
      const std::vector<double>& tip = obs.At(fin);
      double to_palm[3], to_obj[3];
      for (int k = 0; k < 3; ++k) {
        to_palm[k] = tip[k] - palm_pos[k];
        to_obj[k] = tip[k] - obj_pos[k];
      }
      fin_open += NormLastAxis(to_palm, 3);
      fin_dis += NormLastAxis(to_obj, 3);
    }
    const double elbow_err = 5 * NumpyExp(-10 * Square(obs.Scalar("elbow_fle") - 1.0)) - 5;
    double to_goal[3];
    for (int k = 0; k < 3; ++k) to_goal[k] = obj_pos[k] - goal_pos[k];
    const double goal_dis = std::abs(NormLastAxis(to_goal, 3));
    if (obs.At("touching_body")[3] == 1) ++goal_touch_;
    rwd.Set("reach_dist", reach_dist + std::log(reach_dist + 1e-6));
    rwd.Set("act", act);
    rwd.Set("fin_open", NumpyExp(-5 * fin_open));
    rwd.Set("fin_dis", fin_dis + std::log(fin_dis + 1e-6));
    rwd.Set("lift_bonus", elbow_err);
    rwd.Set("lift_height", lift_height);
    rwd.Set("pass_err", pass_dist + std::log(pass_dist + 1e-3));
    rwd.Set("sparse", 0.0);
    rwd.Set("goal_dist", goal_dis);
    rwd.Set("solved", goal_dis < p_.proximity_th && goal_touch_ >= kTargetGoalTouch);
    rwd.Set("done", Done(obs.Scalar("time"), obj_pos[2]));
  }

 private:
  static constexpr double kMaxTime = 10.0;
  static constexpr double kPillarHeight = 1.09;
  static constexpr double kTargetZ = 0.2;
  static constexpr int kTargetGoalTouch = 10;  // GOAL_CONTACT
  enum Label { kMyo = 0, kProsth = 1, kStart = 2, kGoal = 3, kEnv = 4 };

  static double Square(double x) { return x * x; }

  // _get_done: the time, the object's drop, or the previous reward dict's `solved`.
  bool Done(double time, double z) const {
    if (time > kMaxTime) return true;
    if (z < 0.3) return true;
    const std::vector<double>* solved = rwd_.Find("solved");
    return solved != nullptr && solved->at(0) != 0.0;
  }

  // body_id_to_label.
  int Label(int body) const {
    if (myo_body_[0] <= body && body <= myo_body_[1]) return kMyo;
    if (prosth_body_[0] <= body && body <= prosth_body_[1]) return kProsth;
    if (body == start_bid_) return kStart;
    if (body == goal_bid_) return kGoal;
    return kEnv;
  }

  static void Gather(std::vector<double>& out, const double* x, const std::vector<int>& idx) {
    out.resize(idx.size());
    for (std::size_t i = 0; i < idx.size(); ++i) out[i] = x[idx[i]];
  }

  static bool StartsWith(const char* name, const char* prefix) {
    return name != nullptr && std::strncmp(name, prefix, std::strlen(prefix)) == 0;
  }

  // IdInfo, and the ids _setup reads.
  void ReadIds() {
    myo_body_[0] = prosth_body_[0] = m_->nbody;
    myo_body_[1] = prosth_body_[1] = -1;
    for (int b = 0; b < m_->nbody; ++b) {
      const char* raw = mj_id2name(m_, mjOBJ_BODY, b);
      const std::string name = raw == nullptr ? "" : raw;
      int* range = nullptr;
      if (StartsWith(name.c_str(), "prosthesis/")) {
        range = prosth_body_;
      } else if (!StartsWith(name.c_str(), "prosthesis") && name != "start" && name != "goal" &&
                 name != "manip_object") {
        range = myo_body_;
      }
      if (range == nullptr) continue;
      range[0] = std::min(range[0], b);
      range[1] = std::max(range[1], b);
    }
    if (myo_body_[1] < 0 || prosth_body_[1] < 0) {
      throw std::invalid_argument("the model has no MyoArm or no prosthesis bodies");
    }
    const int free_joint = mj_name2id(m_, mjOBJ_JOINT, "manip_object/freejoint");
    if (free_joint < 0) throw std::invalid_argument("the model has no joint 'manip_object/freejoint'");
    for (int j = 0; j < m_->njnt; ++j) {
      if (j == free_joint) continue;
      const char* name = mj_id2name(m_, mjOBJ_JOINT, j);
      const bool prosth = StartsWith(name, "prosthesis");
      (prosth ? prosth_qpos_ : myo_qpos_).push_back(m_->jnt_qposadr[j]);
      (prosth ? prosth_dof_ : myo_dof_).push_back(m_->jnt_dofadr[j]);
    }
    manip_qpos_ = m_->jnt_qposadr[free_joint];
    manip_dof_ = m_->jnt_dofadr[free_joint];
    const int elbow = mj_name2id(m_, mjOBJ_JOINT, "elbow_flexion");
    if (elbow < 0) throw std::invalid_argument("the model has no joint 'elbow_flexion'");
    elbow_qpos_ = m_->jnt_qposadr[elbow];
    obj_gid_ = m_->body_geomadr[obj_bid_] + 1;
    if (m_->body_geomnum[obj_bid_] < 2) {
      throw std::invalid_argument("the object body needs its mesh geom and its box geom");
    }
    obj_mid_ = -1;
    for (int i = 0; i < m_->nmesh && obj_mid_ < 0; ++i) {
      const char* name = mj_id2name(m_, mjOBJ_MESH, i);
      if (name != nullptr && std::strstr(name, "box") != nullptr) obj_mid_ = i;
    }
    if (m_->nsensordata < 1) throw std::invalid_argument("the model has no touch sensor");
  }

  // __center_box_mesh: the mesh geom (obj_gid - 1) rotated into its vertices, then moved onto
  // the box geom. The vertex rows are mesh(obj_mid)'s address on, mesh 0's count of them; the
  // normals' rows are the same numbers (the package indexes mesh_normal with them).
  void CenterBoxMesh() {
    if (obj_mid_ < 0) throw std::invalid_argument("obj_scale_change: the model has no box mesh");
    const int mesh_geom = obj_gid_ - 1;
    const int adr = m_->mesh_vertadr[obj_mid_], n = m_->mesh_vertnum[0];
    if (adr + n > m_->nmeshvert || adr + n > m_->nmeshnormal) {
      throw std::invalid_argument("obj_scale_change: the box mesh's rows are out of range");
    }
    // scipy's Rotation.from_quat([x, y, z, w]) (normalized) and its matrix.
    const double* q = m_->geom_quat + 4 * mesh_geom;
    double x = q[1], y = q[2], z = q[3], w = q[0];
    const double norm = std::sqrt(x * x + y * y + z * z + w * w);
    x /= norm;
    y /= norm;
    z /= norm;
    w /= norm;
    const double xx = x * x, yy = y * y, zz = z * z, ww = w * w;
    const double xy = x * y, zw = z * w, xz = x * z, yw = y * w, yz = y * z, xw = x * w;
    const double r[9] = {xx - yy - zz + ww, 2 * (xy - zw),      2 * (xz + yw),
                         2 * (xy + zw),     -xx + yy - zz + ww, 2 * (yz - xw),
                         2 * (xz - yw),     2 * (yz + xw),      -xx - yy + zz + ww};
    auto rotate = [&r](float* v) {
      const double a = v[0], b = v[1], c = v[2];
      for (int k = 0; k < 3; ++k) {
        v[k] = static_cast<float>(r[3 * k] * a + r[3 * k + 1] * b + r[3 * k + 2] * c);
      }
    };
    for (int i = adr; i < adr + n; ++i) rotate(mw_->mesh_vert + 3 * i);
    for (int i = adr; i < adr + n; ++i) rotate(mw_->mesh_normal + 3 * i);
    const double quat[4] = {1, 0, 0, 0};
    std::copy(quat, quat + 4, mw_->geom_quat + 4 * mesh_geom);
    double shift[3];
    for (int k = 0; k < 3; ++k) {
      shift[k] = m_->geom_pos[3 * mesh_geom + k] - m_->geom_pos[3 * obj_gid_ + k];
    }
    for (int i = adr; i < adr + n; ++i) {
      for (int k = 0; k < 3; ++k) {
        float& v = mw_->mesh_vert[3 * i + k];
        v = static_cast<float>(static_cast<double>(v) + shift[k]);
      }
    }
    for (int k = 0; k < 3; ++k) mw_->geom_pos[3 * mesh_geom + k] = m_->geom_pos[3 * obj_gid_ + k];
  }

  Params p_;
  int obj_bid_, start_bid_, goal_bid_, obj_sid_, palm_sid_;
  int fin_sids_[5];
  int rpalm1_sid_, rpalm2_sid_;
  int obj_gid_ = -1, obj_mid_ = -1;
  int myo_body_[2] = {0, 0}, prosth_body_[2] = {0, 0};
  std::vector<int> myo_qpos_, myo_dof_, prosth_qpos_, prosth_dof_;
  int manip_qpos_ = 0, manip_dof_ = 0, elbow_qpos_ = 0;
  double start_pos_[3] = {0, 0, 0}, goal_pos_[3] = {0, 0, 0};
  double init_obj_z_ = 0.0, init_palm_z_ = 0.0;
  double mass_low_ = 0.0, mass_high_ = 0.0;
  double friction_low_[3] = {0, 0, 0}, friction_high_[3] = {0, 0, 0};
  double obj_size0_[3] = {0, 0, 0};
  bool ignore_first_scale_ = true;
  double max_force_ = 0.0, construction_max_force_ = 0.0;
  int goal_touch_ = 0;
};

}  // namespace envpool::myosuite
