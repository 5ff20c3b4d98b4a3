// MyoSuite's MyoChallenge 2023 object relocation (envs/myo/myochallenge/relocate_v0.py,
// RelocateEnvV0): the arm and hand carry an object (the body "Object", its site "object_o")
// to a target (the body "target", its site "target_o"). The ids P1, P2 and P2eval differ in
// their keywords only: the ranges a reset draws from, and which draws it makes.
//
// What the package does, restated:
//   - Construction: init_qpos is the model's keyframe 1 when obj_xyz_range is given, else
//     keyframe 0 (the whole qpos, the object's six joints too).
//   - Reset, in this order of draws: the target body's body_pos uniform(target_xyz_range)
//     (three draws) and its body_quat euler2quat(uniform(target_rxryrz_range)) (three, drawn
//     even where the range is empty); with obj_xyz_range, the object body's body_pos (three).
//     With obj_geom_range, for each geom of the body Object in order: its type choice([2, 3, 4,
//     5, 6]) (an index draw, Generator.integers(0, 5)), its size uniform(obj_geom_range)
//     (three), its geom_aabb's half sizes = the range's high and geom_rbound = 2 max(high), its
//     pos uniform(-1.0 * size, size) (three), its quat euler2quat(uniform(-pi/2, pi/2)) (three),
//     its rgba uniform((0.2, 0.2, 0.2, 1), (0.9, 0.9, 0.9, 1)) (four, stored as float32), and
//     with obj_friction_range its friction (three); then, with obj_mass_range, the object
//     body's mass (one). No mj_setConst. With qpos_noise_range (a number, no draw) the reset
//     starts from init_qpos + qpos_noise_range * (each joint's range high - low), but the last
//     six (the object's) from init_qpos. Then the base reset (the fatigue state too). If the
//     reset state has contacts (ncon > 0 after its mj_forward), the whole reset is done again
//     (new draws) until it has none; the package returns the FIRST attempt's observation
//     (its reset calls itself and drops what that returns), while the env is in the last
//     attempt's state.
//   - Two datas: the robot steps its own MjData (the sim), and the observation is read from
//     the env's (the observed copy), which each get_obs syncs from the sim (time, qpos,
//     qvel, act; mj_forward). The target is a mocap body: mj_resetData (Robot.reset, on the
//     sim only) moves the sim's target to the drawn body_pos / body_quat (its receptacle
//     collides with the object there), while the observed copy, never reset, keeps its
//     mocap pose from when it was made: the XML's. So the observed goal (goal_pos, goal_rot,
//     the errors, the rewards) is always the XML's, whatever the draws; and the contacts the
//     reset counts are the observed copy's. Here too (od_).
//   - Observation dict: time, hand_qpos (qpos but its last seven: the package's, though the
//     object has six), hand_qpos_corrected (qpos but the last six), hand_qvel (qvel but the
//     last six, * dt), obj_pos, goal_pos, palm_pos (the sites object_o, target_o, S_grasp),
//     pos_err = goal_pos - obj_pos, reach_err = palm_pos - obj_pos, obj_rot and goal_rot
//     (quat_math.mat2euler of the sites' xmat), rot_err = goal_rot - obj_rot, act. Default keys
//     hand_qpos, hand_qvel, obj_pos, goal_pos, pos_err, obj_rot, goal_rot, rot_err (and act).
//   - Rewards: reach_dist, pos_dist, rot_dist = |norm| of reach_err, pos_err, rot_err; act_mag
//     = norm(act) / na; drop = reach_dist > drop_th. pos_dist -pos_dist, rot_dist -rot_dist,
//     act_reg -act_mag, sparse -rot_dist - 10 pos_dist, solved pos_dist < pos_th and rot_dist
//     < rot_th and not drop, done drop. Default weights pos_dist 100, rot_dist 1. The reward
//     dict also marks the site target_ball: rgba's first two numbers (0, 2) and size 0.25 when
//     solved, (2, 0) and 0.1 otherwise.
//
// mat2euler's arctan2: see die_reorient.h (the float64 sparse may differ in its last bits
// where numpy's arctan2 is SVML's).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/common/rotations.h"
#include "envs/myosuite/myo_env.h"

namespace envpool::myosuite {

class Relocate final : public MyoEnv {
 public:
  struct Params : MyoParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      auto check = [](const std::vector<double>& low, const std::vector<double>& high,
                      std::size_t n, bool optional, const char* name) {
        if ((optional && low.empty() && high.empty()) || (low.size() == n && high.size() == n)) {
          return;
        }
        throw std::invalid_argument(std::string(name) + ": low and high need " +
                                    std::to_string(n) + " numbers each" +
                                    (optional ? " (or none)" : ""));
      };
      check(target_xyz_low, target_xyz_high, 3, false, "target_xyz");
      check(target_rxryrz_low, target_rxryrz_high, 3, false, "target_rxryrz");
      check(obj_xyz_low, obj_xyz_high, 3, true, "obj_xyz");
      check(obj_geom_low, obj_geom_high, 3, true, "obj_geom");
      check(obj_mass_low, obj_mass_high, 1, true, "obj_mass");
      check(obj_friction_low, obj_friction_high, 3, true, "obj_friction");
      if (qpos_noise_range.size() > 1) {
        throw std::invalid_argument("qpos_noise_range: one number (or none)");
      }
      Load();
    }
    std::vector<double> target_xyz_low, target_xyz_high, target_rxryrz_low, target_rxryrz_high;
    std::vector<double> obj_xyz_low, obj_xyz_high, obj_geom_low, obj_geom_high;
    std::vector<double> obj_mass_low, obj_mass_high, obj_friction_low, obj_friction_high;
    std::vector<double> qpos_noise_range;
    double pos_th = 0.025, rot_th = 0.262, drop_th = 0.50;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    AddMyoKeywords(k, "envs/myo/assets/arm/myoarm_relocate.xml", 5);
    k.Add("target_xyz_low", std::vector<double>{0.0, -0.35, 0.9}, &Params::target_xyz_low);
    k.Add("target_xyz_high", std::vector<double>{0.2, -0.1, 0.9}, &Params::target_xyz_high);
    k.Add("target_rxryrz_low", std::vector<double>{0.0, 0.0, 0.0}, &Params::target_rxryrz_low);
    k.Add("target_rxryrz_high", std::vector<double>{0.0, 0.0, 0.0},
          &Params::target_rxryrz_high);
    k.Add("obj_xyz_low", std::vector<double>{}, &Params::obj_xyz_low);
    k.Add("obj_xyz_high", std::vector<double>{}, &Params::obj_xyz_high);
    k.Add("obj_geom_low", std::vector<double>{}, &Params::obj_geom_low);
    k.Add("obj_geom_high", std::vector<double>{}, &Params::obj_geom_high);
    k.Add("obj_mass_low", std::vector<double>{}, &Params::obj_mass_low).AtLeast(0);
    k.Add("obj_mass_high", std::vector<double>{}, &Params::obj_mass_high).AtLeast(0);
    k.Add("obj_friction_low", std::vector<double>{}, &Params::obj_friction_low);
    k.Add("obj_friction_high", std::vector<double>{}, &Params::obj_friction_high);
    k.Add("qpos_noise_range", std::vector<double>{}, &Params::qpos_noise_range);
    k.Add("pos_th", 0.025, &Params::pos_th).AllowInf();
    k.Add("rot_th", 0.262, &Params::rot_th).AllowInf();
    k.Add("drop_th", 0.50, &Params::drop_th).AllowInf();
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& p) {
    Relocate env(p);
    return Spec(env.m_, env.ObsSize(), p.normalize_act);
  }

  explicit Relocate(const Params& p)
      : MyoEnv(p, {"hand_qpos", "hand_qvel", "obj_pos", "goal_pos", "pos_err", "obj_rot",
                   "goal_rot", "rot_err"},
               {{"pos_dist", 100.0}, {"rot_dist", 1.0}}),
        p_(p),
        od_(mj_makeData(m_), mj_deleteData),
        palm_(SiteId("S_grasp")),
        object_(SiteId("object_o")),
        goal_(SiteId("target_o")),
        success_(SiteId("target_ball")),
        object_body_(BodyId("Object")),
        goal_body_(BodyId("target")) {
    const int key = p.obj_xyz_low.empty() ? 0 : 1;
    if (key >= m_->nkey) throw std::invalid_argument("the model has no keyframe " +
                                                     std::to_string(key));
    std::copy(m_->key_qpos + key * m_->nq, m_->key_qpos + (key + 1) * m_->nq,
              init_qpos_.begin());
    if (!p.qpos_noise_range.empty() && m_->njnt != m_->nq) {
      throw std::invalid_argument("qpos_noise_range needs one qpos number a joint");
    }
    ConstructionStep();
  }

  // The package draws its observed copy, where the target is at the XML's pose: drawn so
  // here (the sim's mocap pose put back after; the next mj_step recomputes what the frame's
  // mj_forward changed).
  void Render(int width, int height, int camera_id, std::uint8_t* out) override {
    const int n = m_->nmocap;
    std::vector<double> pos(d_->mocap_pos, d_->mocap_pos + 3 * n);
    std::vector<double> quat(d_->mocap_quat, d_->mocap_quat + 4 * n);
    std::copy(od_->mocap_pos, od_->mocap_pos + 3 * n, d_->mocap_pos);
    std::copy(od_->mocap_quat, od_->mocap_quat + 4 * n, d_->mocap_quat);
    MyoEnv::Render(width, height, camera_id, out);
    std::copy(pos.begin(), pos.end(), d_->mocap_pos);
    std::copy(quat.begin(), quat.end(), d_->mocap_quat);
  }

 protected:
  void ResetTask() override {
    for (int k = 0; k < 3; ++k) {
      mw_->body_pos[3 * goal_body_ + k] = Draw(p_.target_xyz_low, p_.target_xyz_high, k);
    }
    double euler[3];
    for (int k = 0; k < 3; ++k) euler[k] = Draw(p_.target_rxryrz_low, p_.target_rxryrz_high, k);
    Euler2Quat(euler, mw_->body_quat + 4 * goal_body_);
    if (!p_.obj_xyz_low.empty()) {
      for (int k = 0; k < 3; ++k) {
        mw_->body_pos[3 * object_body_ + k] = Draw(p_.obj_xyz_low, p_.obj_xyz_high, k);
      }
    }
    if (!p_.obj_geom_low.empty()) {
      const double* high = p_.obj_geom_high.data();
      const double rbound = 2.0 * std::max({high[0], high[1], high[2]});
      const int g0 = m_->body_geomadr[object_body_];
      for (int g = g0; g < g0 + m_->body_geomnum[object_body_]; ++g) {
        mw_->geom_type[g] = static_cast<int>(np_random_.Integers(0, 5)) + 2;
        double* size = mw_->geom_size + 3 * g;
        for (int k = 0; k < 3; ++k) size[k] = Draw(p_.obj_geom_low, p_.obj_geom_high, k);
        for (int k = 0; k < 3; ++k) mw_->geom_aabb[6 * g + 3 + k] = high[k];
        mw_->geom_rbound[g] = rbound;
        for (int k = 0; k < 3; ++k) {
          mw_->geom_pos[3 * g + k] = np_random_.Uniform(-1.0 * size[k], size[k]);
        }
        double geuler[3];
        for (double& x : geuler) x = np_random_.Uniform(-M_PI / 2, M_PI / 2);
        Euler2Quat(geuler, mw_->geom_quat + 4 * g);
        const double rgba_low[4] = {0.2, 0.2, 0.2, 1}, rgba_high[4] = {0.9, 0.9, 0.9, 1};
        for (int k = 0; k < 4; ++k) {
          mw_->geom_rgba[4 * g + k] = static_cast<float>(np_random_.Uniform(rgba_low[k],
                                                                            rgba_high[k]));
        }
        if (!p_.obj_friction_low.empty()) {
          for (int k = 0; k < 3; ++k) {
            mw_->geom_friction[3 * g + k] = Draw(p_.obj_friction_low, p_.obj_friction_high, k);
          }
        }
      }
      if (!p_.obj_mass_low.empty()) {
        mw_->body_mass[object_body_] = Draw(p_.obj_mass_low, p_.obj_mass_high, 0);
      }
    }
    if (!p_.qpos_noise_range.empty()) {
      const double noise = p_.qpos_noise_range[0];
      std::vector<double> qpos(init_qpos_);
      for (int j = 0; j < m_->njnt; ++j) {
        qpos[j] = init_qpos_[j] + noise * (m_->jnt_range[2 * j + 1] - m_->jnt_range[2 * j]);
      }
      for (int i = m_->nq - 6; i < m_->nq; ++i) qpos[i] = init_qpos_[i];
      SetResetQpos(std::move(qpos));
    }
  }

  // The package counts the contacts of its observed copy (the target where the XML has it).
  bool ResetAgain() const override { return od_->ncon > 0; }

  void ObsDict(TermDict& obs) override {
    // sensor2sim: the observed copy takes the sim's time, qpos, qvel and act; mj_forward.
    mjData* d = od_.get();
    d->time = d_->time;
    std::copy(d_->qpos, d_->qpos + m_->nq, d->qpos);
    std::copy(d_->qvel, d_->qvel + m_->nv, d->qvel);
    std::copy(d_->act, d_->act + m_->na, d->act);
    mj_forward(m_, d);
    obs["time"].assign(1, d->time);
    obs["hand_qpos"].assign(d->qpos, d->qpos + (m_->nq - 7));
    obs["hand_qpos_corrected"].assign(d->qpos, d->qpos + (m_->nq - 6));
    std::vector<double>& hand_qvel = obs["hand_qvel"];
    hand_qvel.resize(m_->nv - 6);
    for (int i = 0; i < m_->nv - 6; ++i) hand_qvel[i] = d->qvel[i] * dt_;
    std::vector<double>& obj_pos = obs["obj_pos"];
    std::vector<double>& goal_pos = obs["goal_pos"];
    std::vector<double>& palm_pos = obs["palm_pos"];
    obj_pos.assign(d->site_xpos + 3 * object_, d->site_xpos + 3 * object_ + 3);
    goal_pos.assign(d->site_xpos + 3 * goal_, d->site_xpos + 3 * goal_ + 3);
    palm_pos.assign(d->site_xpos + 3 * palm_, d->site_xpos + 3 * palm_ + 3);
    std::vector<double>& pos_err = obs["pos_err"];
    std::vector<double>& reach_err = obs["reach_err"];
    pos_err.resize(3);
    reach_err.resize(3);
    for (int k = 0; k < 3; ++k) {
      pos_err[k] = goal_pos[k] - obj_pos[k];
      reach_err[k] = palm_pos[k] - obj_pos[k];
    }
    std::vector<double>& obj_rot = obs["obj_rot"];
    std::vector<double>& goal_rot = obs["goal_rot"];
    obj_rot = SiteEuler(*d, object_);
    goal_rot = SiteEuler(*d, goal_);
    std::vector<double>& rot_err = obs["rot_err"];
    rot_err.resize(3);
    for (int k = 0; k < 3; ++k) rot_err[k] = goal_rot[k] - obj_rot[k];
    if (m_->na > 0) obs["act"].assign(d->act, d->act + m_->na);
  }

  void RewardDict(const TermDict& obs, TermDict& rwd) override {
    const double reach_dist = std::abs(NormLastAxis(obs.At("reach_err")));
    const double pos_dist = std::abs(NormLastAxis(obs.At("pos_err")));
    const double rot_dist = std::abs(NormLastAxis(obs.At("rot_err")));
    const double act_mag = m_->na != 0 ? NormLastAxis(obs.At("act")) / m_->na : 0.0;
    const bool drop = reach_dist > p_.drop_th;
    const bool solved = pos_dist < p_.pos_th && rot_dist < p_.rot_th && !drop;
    rwd.Set("pos_dist", -1.0 * pos_dist);
    rwd.Set("rot_dist", -1.0 * rot_dist);
    rwd.Set("act_reg", -1.0 * act_mag);
    rwd.Set("sparse", -rot_dist - 10.0 * pos_dist);
    rwd.Set("solved", solved);
    rwd.Set("done", drop);
    mw_->site_rgba[4 * success_] = solved ? 0.0f : 2.0f;
    mw_->site_rgba[4 * success_ + 1] = solved ? 2.0f : 0.0f;
    for (int k = 0; k < 3; ++k) mw_->site_size[3 * success_ + k] = solved ? 0.25 : 0.1;
  }

 private:
  // uniform(low, high)'s k-th number.
  double Draw(const std::vector<double>& low, const std::vector<double>& high, int k) {
    return np_random_.Uniform(low[k], high[k]);
  }

  // mat2euler of a site's xmat (row-major, as the package reshapes it).
  static std::vector<double> SiteEuler(const mjData& d, int site) {
    rotations::Mat3 mat;
    for (int k = 0; k < 9; ++k) mat[k] = d.site_xmat[9 * site + k];
    const rotations::Vec3 e = rotations::Mat2Euler(mat);
    return {e[0], e[1], e[2]};
  }

  Params p_;
  // The package's observed copy of the sim (env.mj_data; see above).
  std::unique_ptr<mjData, void (*)(mjData*)> od_;
  int palm_, object_, goal_, success_, object_body_, goal_body_;
};

}  // namespace envpool::myosuite
