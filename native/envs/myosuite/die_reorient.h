// MyoSuite's MyoChallenge 2022 die reorientation (envs/myo/myochallenge/reorient_v0.py,
// ReorientEnvV0): the hand, palm up, turns a die (the body "Object", its site "object_o") to
// the pose of a target die (the body "target", its site "target_o"). The ids Demo, P1 and P2
// differ in their keywords only: the ranges of the goal's offset and rotation, of the die's
// size, mass and friction, and the position threshold.
//
// What the package does, restated:
//   - Construction: at the model's initial state (qpos0, mj_forward), goal_init_pos is the
//     target site's xpos and goal_obj_offset the target site's xpos minus the object site's;
//     the die's geoms (those of the body Object) keep their initial size and position, the
//     target geom "target_dice" its size. The friction range is each die geom's friction -+
//     obj_friction_change (three numbers, by axis). init_qpos is zeroed for the hand (all but
//     the die's free joint, its last seven numbers) and its first joint set to -1.5 (palm up).
//   - Reset, in this order of draws: the target body's body_pos = goal_init_pos +
//     uniform(goal_pos[0], goal_pos[1]) (three draws); its body_quat = euler2quat of three
//     uniform(goal_rot[0], goal_rot[1]); each die geom's friction uniform(low, high) (three
//     draws a geom, in geom order; equal bounds still draw); the die body's mass
//     uniform(obj_mass_range); one del_size = uniform(-obj_size_change, obj_size_change). The
//     target geom's size is its initial one + del_size; the die's geoms but the last three
//     get their initial size[1] + del_size, the last three all their initial size +
//     del_size; every die geom's position becomes pos / |pos + 1e-16| * (|initial pos| +
//     del_size), pos its current one (so the positions drift a little from reset to reset,
//     there as here). No mj_setConst. Then the base reset, from init_qpos.
//   - Observation dict: time, hand_qpos_noMD5 (qpos but its last seven: the package's own
//     comment says this also drops the little finger's distal joint, kept for its
//     submissions), hand_qpos (qpos but the last six), hand_qvel (qvel but the last six, *
//     dt), obj_pos and goal_pos (the two sites' xpos), pos_err = goal_pos - obj_pos -
//     goal_obj_offset, obj_rot and goal_rot (quat_math.mat2euler of the sites' xmat), rot_err
//     = goal_rot - obj_rot, act. Default keys hand_qpos_noMD5, hand_qvel, obj_pos, goal_pos,
//     pos_err, obj_rot, goal_rot, rot_err (and act).
//   - Rewards: pos_dist = |norm(pos_err)|, rot_dist = |norm(rot_err)|, act_mag = norm(act) /
//     na, drop = pos_dist > drop_th. pos_dist -pos_dist, rot_dist -rot_dist, bonus (pos_dist
//     < 2 pos_th) + (pos_dist < pos_th), act_reg -act_mag, penalty -drop, sparse -rot_dist -
//     10 pos_dist, solved pos_dist < pos_th and rot_dist < rot_th and not drop, done drop.
//     Default weights pos_dist 100, rot_dist 1 (bonus, act_reg, penalty 0). The reward dict
//     also colors the site target_ball: its first two rgba numbers (0, 2) when solved, (2, 0)
//     otherwise.
//
// mat2euler calls numpy's float64 arctan2, which on AVX-512 CPUs is SVML's kernel and differs
// from the C library's atan2 (called here) in the last bit for a few percent of arguments:
// there the Euler angles, and what is computed from them (rot_err, rot_dist, the reward and
// sparse), may differ in their last bits (tests/test_align_myosuite.py tells).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/common/rotations.h"
#include "envs/myosuite/myo_env.h"

namespace envpool::myosuite {

class DieReorient final : public MyoEnv {
 public:
  struct Params : MyoParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      if (goal_pos.size() != 2 || goal_rot.size() != 2 || obj_mass_range.size() != 2 ||
          obj_friction_change.size() != 3) {
        throw std::invalid_argument("goal_pos, goal_rot and obj_mass_range need two numbers, "
                                    "obj_friction_change three");
      }
      Load();
    }
    std::vector<double> goal_pos, goal_rot, obj_mass_range, obj_friction_change;
    double obj_size_change = 0.0;
    double pos_th = 0.025, rot_th = 0.262, drop_th = 0.200;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    AddMyoKeywords(k, "envs/myo/assets/hand/myohand_die.xml", 5);
    k.Add("goal_pos", std::vector<double>{0.0, 0.0}, &Params::goal_pos);
    k.Add("goal_rot", std::vector<double>{0.785, 0.785}, &Params::goal_rot);
    k.Add("obj_size_change", 0.0, &Params::obj_size_change);
    // a negative mass makes MuJoCo's dynamics NaN (myosuite passes it on as well)
    k.Add("obj_mass_range", std::vector<double>{0.108, 0.108}, &Params::obj_mass_range).AtLeast(0);
    k.Add("obj_friction_change", std::vector<double>{0.0, 0.0, 0.0},
          &Params::obj_friction_change);
    k.Add("pos_th", 0.025, &Params::pos_th).AllowInf();
    k.Add("rot_th", 0.262, &Params::rot_th).AllowInf();
    k.Add("drop_th", 0.200, &Params::drop_th).AllowInf();
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& p) {
    DieReorient env(p);
    return Spec(env.m_, env.ObsSize(), p.normalize_act);
  }

  explicit DieReorient(const Params& p)
      : MyoEnv(p, {"hand_qpos_noMD5", "hand_qvel", "obj_pos", "goal_pos", "pos_err", "obj_rot",
                   "goal_rot", "rot_err"},
               {{"pos_dist", 100.0}, {"rot_dist", 1.0}, {"bonus", 0.0}, {"act_reg", 0.0},
                {"penalty", 0.0}}),
        goal_pos_range_(p.goal_pos),
        goal_rot_range_(p.goal_rot),
        mass_range_(p.obj_mass_range),
        size_change_(p.obj_size_change),
        pos_th_(p.pos_th),
        rot_th_(p.rot_th),
        drop_th_(p.drop_th),
        object_(SiteId("object_o")),
        goal_(SiteId("target_o")),
        success_(SiteId("target_ball")),
        goal_body_(BodyId("target")),
        object_body_(BodyId("Object")),
        target_geom_(GeomId("target_dice")) {
    mj_forward(m_, d_);
    for (int k = 0; k < 3; ++k) {
      goal_init_pos_[k] = d_->site_xpos[3 * goal_ + k];
      goal_obj_offset_[k] = d_->site_xpos[3 * goal_ + k] - d_->site_xpos[3 * object_ + k];
    }
    for (int k = 0; k < 3; ++k) target_default_size_[k] = m_->geom_size[3 * target_geom_ + k];
    gid0_ = m_->body_geomadr[object_body_];
    gidn_ = gid0_ + m_->body_geomnum[object_body_];
    if (gidn_ - gid0_ < 3) throw std::invalid_argument("the die needs at least three geoms");
    object_default_size_.assign(m_->geom_size + 3 * gid0_, m_->geom_size + 3 * gidn_);
    object_default_pos_.assign(m_->geom_pos + 3 * gid0_, m_->geom_pos + 3 * gidn_);
    for (int i = 3 * gid0_; i < 3 * gidn_; ++i) {
      const double change = p.obj_friction_change[i % 3];
      friction_low_.push_back(m_->geom_friction[i] - change);
      friction_high_.push_back(m_->geom_friction[i] + change);
    }
    for (int i = 0; i + 7 < m_->nq; ++i) init_qpos_[i] *= 0;
    init_qpos_[0] = -1.5;
    KeepFatigueAcrossResets();
    ConstructionStep();
  }

  // A new env: the die's geoms where the XML has them (each reset moves them from where they
  // are).
  void Seed(std::uint64_t seed) override {
    MyoEnv::Seed(seed);
    std::copy(object_default_pos_.begin(), object_default_pos_.end(), mw_->geom_pos + 3 * gid0_);
  }

 protected:
  void ResetTask() override {
    for (int k = 0; k < 3; ++k) {
      mw_->body_pos[3 * goal_body_ + k] =
          goal_init_pos_[k] + np_random_.Uniform(goal_pos_range_[0], goal_pos_range_[1]);
    }
    double euler[3];
    for (double& x : euler) x = np_random_.Uniform(goal_rot_range_[0], goal_rot_range_[1]);
    Euler2Quat(euler, mw_->body_quat + 4 * goal_body_);
    for (std::size_t i = 0; i < friction_low_.size(); ++i) {
      mw_->geom_friction[3 * gid0_ + i] = np_random_.Uniform(friction_low_[i], friction_high_[i]);
    }
    mw_->body_mass[object_body_] = np_random_.Uniform(mass_range_[0], mass_range_[1]);
    const double del_size = np_random_.Uniform(-size_change_, size_change_);
    for (int k = 0; k < 3; ++k) {
      mw_->geom_size[3 * target_geom_ + k] = target_default_size_[k] + del_size;
    }
    const int n = gidn_ - gid0_;
    for (int g = 0; g < n - 3; ++g) {
      mw_->geom_size[3 * (gid0_ + g) + 1] = object_default_size_[3 * g + 1] + del_size;
    }
    for (int g = n - 3; g < n; ++g) {
      for (int k = 0; k < 3; ++k) {
        mw_->geom_size[3 * (gid0_ + g) + k] = object_default_size_[3 * g + k] + del_size;
      }
    }
    for (int i = 0; i < 3 * n; ++i) {
      double& pos = mw_->geom_pos[3 * gid0_ + i];
      pos = pos / std::abs(pos + 1e-16) * (std::abs(object_default_pos_[i]) + del_size);
    }
  }

  void ObsDict(TermDict& obs) override {
    obs["time"].assign(1, d_->time);
    obs["hand_qpos_noMD5"].assign(d_->qpos, d_->qpos + (m_->nq - 7));
    obs["hand_qpos"].assign(d_->qpos, d_->qpos + (m_->nq - 6));
    std::vector<double>& hand_qvel = obs["hand_qvel"];
    hand_qvel.resize(m_->nv - 6);
    for (int i = 0; i < m_->nv - 6; ++i) hand_qvel[i] = d_->qvel[i] * dt_;
    std::vector<double>& obj_pos = obs["obj_pos"];
    std::vector<double>& goal_pos = obs["goal_pos"];
    obj_pos.assign(d_->site_xpos + 3 * object_, d_->site_xpos + 3 * object_ + 3);
    goal_pos.assign(d_->site_xpos + 3 * goal_, d_->site_xpos + 3 * goal_ + 3);
    std::vector<double>& pos_err = obs["pos_err"];
    pos_err.resize(3);
    for (int k = 0; k < 3; ++k) pos_err[k] = goal_pos[k] - obj_pos[k] - goal_obj_offset_[k];
    std::vector<double>& obj_rot = obs["obj_rot"];
    std::vector<double>& goal_rot = obs["goal_rot"];
    obj_rot = SiteEuler(object_);
    goal_rot = SiteEuler(goal_);
    std::vector<double>& rot_err = obs["rot_err"];
    rot_err.resize(3);
    for (int k = 0; k < 3; ++k) rot_err[k] = goal_rot[k] - obj_rot[k];
    if (m_->na > 0) obs["act"].assign(d_->act, d_->act + m_->na);
  }

  void RewardDict(const TermDict& obs, TermDict& rwd) override {
    const double pos_dist = std::abs(NormLastAxis(obs.At("pos_err")));
    const double rot_dist = std::abs(NormLastAxis(obs.At("rot_err")));
    const double act_mag = m_->na != 0 ? NormLastAxis(obs.At("act")) / m_->na : 0.0;
    const bool drop = pos_dist > drop_th_;
    const bool solved = pos_dist < pos_th_ && rot_dist < rot_th_ && !drop;
    rwd.Set("pos_dist", -1.0 * pos_dist);
    rwd.Set("rot_dist", -1.0 * rot_dist);
    rwd.Set("bonus", 1.0 * (pos_dist < 2 * pos_th_) + 1.0 * (pos_dist < pos_th_));
    rwd.Set("act_reg", -1.0 * act_mag);
    rwd.Set("penalty", -1.0 * drop);
    rwd.Set("sparse", -rot_dist - 10.0 * pos_dist);
    rwd.Set("solved", solved);
    rwd.Set("done", drop);
    mw_->site_rgba[4 * success_] = solved ? 0.0f : 2.0f;
    mw_->site_rgba[4 * success_ + 1] = solved ? 2.0f : 0.0f;
  }

 private:
  int GeomId(const char* name) const {
    const int id = mj_name2id(m_, mjOBJ_GEOM, name);
    if (id < 0) throw std::invalid_argument(std::string("the model has no geom '") + name + "'");
    return id;
  }

  // mat2euler of a site's xmat (row-major, as the package reshapes it).
  std::vector<double> SiteEuler(int site) const {
    rotations::Mat3 mat;
    for (int k = 0; k < 9; ++k) mat[k] = d_->site_xmat[9 * site + k];
    const rotations::Vec3 e = rotations::Mat2Euler(mat);
    return {e[0], e[1], e[2]};
  }

  std::vector<double> goal_pos_range_, goal_rot_range_, mass_range_;
  double size_change_, pos_th_, rot_th_, drop_th_;
  int object_, goal_, success_, goal_body_, object_body_, target_geom_;
  int gid0_ = 0, gidn_ = 0;
  double goal_init_pos_[3] = {0.0, 0.0, 0.0};
  double goal_obj_offset_[3] = {0.0, 0.0, 0.0};
  double target_default_size_[3] = {0.0, 0.0, 0.0};
  std::vector<double> object_default_size_, object_default_pos_;
  std::vector<double> friction_low_, friction_high_;
};

}  // namespace envpool::myosuite
