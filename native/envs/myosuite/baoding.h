// MyoSuite's MyoChallenge 2022 Baoding balls (envs/myo/myochallenge/baoding_v1.py,
// BaodingEnvV1): the hand, palm up, rolls two balls (the bodies ball1 and ball2, their sites
// ball1_site and ball2_site) after two targets (the sites target1_site and target2_site) that
// go round an ellipse. The ids P1 and P2 differ in their keywords only.
//
// What the package does, restated:
//   - The task: HOLD (the targets stay), BAODING_CW or BAODING_CCW (they turn clockwise or
//     counterclockwise); sign 0, -1, 1. With task_choice "fixed" it is BAODING_CCW; with
//     "random" np_random.choice(Task) (an index draw, Generator.integers(0, 3)) when made and
//     at each reset. The balls' starting angles are pi/4 and pi/4 - pi; "random" resets draw
//     the first, uniform(0, 2 pi) (the second is it - pi).
//   - Construction, in this order: the task (random), x_radius = uniform(goal_xrange), y_radius
//     = uniform(goal_yrange) (draws even where the range is empty), counter 0, the goal
//     trajectory with time_step frame_skip * timestep and time_period 6. The balls' friction
//     range is ball1's friction -+ obj_friction_change. init_qpos is zeroed for the hand (all
//     but the two free joints, the last fourteen numbers) and its first joint set to -1.57.
//     The construction step (_setup's step with zero actions) is this class's step: it moves
//     the target sites to goal[0] (see Step) and counts 1; the site_pos edits stay in the
//     model, so the first reset's observation sees them (as each later reset's sees the last
//     step's).
//   - Goal trajectory: goal[t] = sign * 2 pi * (t * time_step / time_period) for both balls
//     (the package tabulates t < 1000).
//   - Reset, in this order of draws: (random) the task and the first ball's starting angle;
//     counter 0; x_radius, y_radius; time_period = uniform(goal_time_period); the trajectory
//     with time_step dt; with obj_mass_range, ball1's and ball2's mass (one draw each); with
//     obj_friction_change, ball1's and ball2's friction (three draws each); with
//     obj_size_range, ball1's and ball2's geom size (one draw each, all three numbers). Then
//     the base reset (the fatigue state too), from init_qpos.
//   - Step: before the base step, the target sites' site_pos x and y become x_radius *
//     cos(angle) - 0.0125 and y_radius * sin(angle) - 0.07 (angle: goal[counter] + the ball's
//     starting angle; numpy's float64 sin and cos of a scalar, libm's), counter + 1.
//   - Observation dict: time, hand_pos (qpos but the last fourteen), object1_pos and
//     object2_pos (the balls' sites' xpos), object1_velp and object2_velp (qvel[-12:-9] and
//     qvel[-6:-3] * dt), target1_pos and target2_pos (the targets' xpos), target1_err and
//     target2_err (target - object), act. Default keys: all but time (and act).
//   - Rewards: target1_dist, target2_dist = norm(target1_err), norm(target2_err); act_mag =
//     norm(act) / na; is_fall: either ball's z < drop_th. pos_dist_1 -target1_dist,
//     pos_dist_2 -target2_dist, act_reg -act_mag, sparse -(target1_dist + target2_dist), solved
//     both dists < proximity_th and no fall, done is_fall. Default weights pos_dist_1 5,
//     pos_dist_2 5. The reward dict also colors the balls (geom_rgba's first two numbers: ball1
//     (1, 1), ball2 (0.9, 0.7) when target1_dist < proximity_th, both (0.5, 0.5) otherwise).
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/myosuite/myo_env.h"

namespace envpool::myosuite {

class Baoding final : public MyoEnv {
 public:
  struct Params : MyoParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      if (goal_time_period.size() != 2 || goal_xrange.size() != 2 || goal_yrange.size() != 2 ||
          (!obj_size_range.empty() && obj_size_range.size() != 2) ||
          (!obj_mass_range.empty() && obj_mass_range.size() != 2) ||
          (!obj_friction_change.empty() && obj_friction_change.size() != 3)) {
        throw std::invalid_argument("goal_time_period, goal_xrange, goal_yrange, obj_size_range "
                                    "and obj_mass_range need two numbers (the obj_ ones or "
                                    "none), obj_friction_change three (or none)");
      }
      if (task_choice != "fixed" && task_choice != "random") {
        throw std::invalid_argument("task_choice must be 'fixed' or 'random'");
      }
      Load();
    }
    double drop_th = 1.25, proximity_th = 0.015;
    std::vector<double> goal_time_period, goal_xrange, goal_yrange;
    std::vector<double> obj_size_range, obj_mass_range, obj_friction_change;
    std::string task_choice;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    AddMyoKeywords(k, "envs/myo/assets/hand/myohand_baoding.xml", 10);
    k.Add("drop_th", 1.25, &Params::drop_th);
    k.Add("proximity_th", 0.015, &Params::proximity_th);
    // At least a microsecond: a zero period divides by zero (in myosuite too: NaN goals and
    // observations), and one below ~1e-308 s overflows the goal's angle.
    k.Add("goal_time_period", std::vector<double>{5, 5}, &Params::goal_time_period).AtLeast(1e-6);
    k.Add("goal_xrange", std::vector<double>{0.025, 0.025}, &Params::goal_xrange);
    k.Add("goal_yrange", std::vector<double>{0.028, 0.028}, &Params::goal_yrange);
    k.Add("obj_size_range", std::vector<double>{}, &Params::obj_size_range);
    k.Add("obj_mass_range", std::vector<double>{}, &Params::obj_mass_range).AtLeast(0);
    k.Add("obj_friction_change", std::vector<double>{}, &Params::obj_friction_change);
    k.Add("task_choice", std::string("fixed"), &Params::task_choice);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& p) {
    Baoding env(p);
    return Spec(env.m_, env.ObsSize(), p.normalize_act);
  }

  explicit Baoding(const Params& p)
      : MyoEnv(p, {"hand_pos", "object1_pos", "object1_velp", "object2_pos", "object2_velp",
                   "target1_pos", "target2_pos", "target1_err", "target2_err"},
               {{"pos_dist_1", 5.0}, {"pos_dist_2", 5.0}}),
        p_(p),
        random_task_(p.task_choice == "random"),
        frame_skip_(p.frame_skip),
        object1_body_(BodyId("ball1")),
        object2_body_(BodyId("ball2")),
        object1_(SiteId("ball1_site")),
        object2_(SiteId("ball2_site")),
        object1_geom_(GeomId("ball1")),
        object2_geom_(GeomId("ball2")),
        target1_(SiteId("target1_site")),
        target2_(SiteId("target2_site")) {
    mw_->site_group[target1_] = 2;
    mw_->site_group[target2_] = 2;
    if (!p.obj_friction_change.empty()) {
      for (int k = 0; k < 3; ++k) {
        friction_low_[k] = m_->geom_friction[3 * object1_geom_ + k] - p.obj_friction_change[k];
        friction_high_[k] = m_->geom_friction[3 * object1_geom_ + k] + p.obj_friction_change[k];
      }
    }
    for (int i = 0; i + 14 < m_->nq; ++i) init_qpos_[i] *= 0;
    init_qpos_[0] = -1.57;
  }

  // A new env: the construction's draws and its step's target sites.
  void Seed(std::uint64_t seed) override {
    MyoEnv::Seed(seed);
    ball1_angle_ = 1.0 * M_PI / 4.0;
    ball2_angle_ = ball1_angle_ - M_PI;
    sign_ = random_task_ ? Sign(np_random_.Integers(0, 3)) : 1;
    x_radius_ = np_random_.Uniform(p_.goal_xrange[0], p_.goal_xrange[1]);
    y_radius_ = np_random_.Uniform(p_.goal_yrange[0], p_.goal_yrange[1]);
    time_step_ = frame_skip_ * m_->opt.timestep;
    time_period_ = 6;
    counter_ = 0;
    MoveTargets();
  }

  StepOutcome Step(const ActionView& action, Rng& rng) override {
    MoveTargets();
    return MyoEnv::Step(action, rng);
  }

 protected:
  void ResetTask() override {
    if (random_task_) {
      sign_ = Sign(np_random_.Integers(0, 3));
      ball1_angle_ = np_random_.Uniform(0, 2 * M_PI);
      ball2_angle_ = ball1_angle_ - M_PI;
    }
    counter_ = 0;
    x_radius_ = np_random_.Uniform(p_.goal_xrange[0], p_.goal_xrange[1]);
    y_radius_ = np_random_.Uniform(p_.goal_yrange[0], p_.goal_yrange[1]);
    time_period_ = np_random_.Uniform(p_.goal_time_period[0], p_.goal_time_period[1]);
    time_step_ = dt_;
    if (!p_.obj_mass_range.empty()) {
      mw_->body_mass[object1_body_] = np_random_.Uniform(p_.obj_mass_range[0],
                                                         p_.obj_mass_range[1]);
      mw_->body_mass[object2_body_] = np_random_.Uniform(p_.obj_mass_range[0],
                                                         p_.obj_mass_range[1]);
    }
    if (!p_.obj_friction_change.empty()) {
      for (int geom : {object1_geom_, object2_geom_}) {
        for (int k = 0; k < 3; ++k) {
          mw_->geom_friction[3 * geom + k] = np_random_.Uniform(friction_low_[k],
                                                                friction_high_[k]);
        }
      }
    }
    if (!p_.obj_size_range.empty()) {
      for (int geom : {object1_geom_, object2_geom_}) {
        const double size = np_random_.Uniform(p_.obj_size_range[0], p_.obj_size_range[1]);
        for (int k = 0; k < 3; ++k) mw_->geom_size[3 * geom + k] = size;
      }
    }
  }

  void ObsDict(TermDict& obs) override {
    obs["time"].assign(1, d_->time);
    obs["hand_pos"].assign(d_->qpos, d_->qpos + (m_->nq - 14));
    auto site = [&](const char* key, int id) -> std::vector<double>& {
      std::vector<double>& v = obs[key];
      v.assign(d_->site_xpos + 3 * id, d_->site_xpos + 3 * id + 3);
      return v;
    };
    auto velp = [&](const char* key, int from) {
      std::vector<double>& v = obs[key];
      v.resize(3);
      for (int k = 0; k < 3; ++k) v[k] = d_->qvel[m_->nv - from + k] * dt_;
    };
    const std::vector<double>& object1 = site("object1_pos", object1_);
    const std::vector<double>& object2 = site("object2_pos", object2_);
    velp("object1_velp", 12);
    velp("object2_velp", 6);
    const std::vector<double>& target1 = site("target1_pos", target1_);
    const std::vector<double>& target2 = site("target2_pos", target2_);
    std::vector<double>& err1 = obs["target1_err"];
    std::vector<double>& err2 = obs["target2_err"];
    err1.resize(3);
    err2.resize(3);
    for (int k = 0; k < 3; ++k) {
      err1[k] = target1[k] - object1[k];
      err2[k] = target2[k] - object2[k];
    }
    obs["act"].assign(d_->act, d_->act + m_->na);
  }

  void RewardDict(const TermDict& obs, TermDict& rwd) override {
    const double target1_dist = NormLastAxis(obs.At("target1_err"));
    const double target2_dist = NormLastAxis(obs.At("target2_err"));
    const double target_dist = target1_dist + target2_dist;
    double act_mag = NormLastAxis(obs.At("act"));
    if (m_->na != 0) act_mag = act_mag / m_->na;
    const bool fall = obs.At("object1_pos")[2] < p_.drop_th ||
                      obs.At("object2_pos")[2] < p_.drop_th;
    const bool near1 = target1_dist < p_.proximity_th;
    rwd.Set("pos_dist_1", -1.0 * target1_dist);
    rwd.Set("pos_dist_2", -1.0 * target2_dist);
    rwd.Set("act_reg", -1.0 * act_mag);
    rwd.Set("sparse", -target_dist);
    rwd.Set("solved", near1 && target2_dist < p_.proximity_th && !fall);
    rwd.Set("done", fall);
    mw_->geom_rgba[4 * object1_geom_] = near1 ? 1.0f : 0.5f;
    mw_->geom_rgba[4 * object1_geom_ + 1] = near1 ? 1.0f : 0.5f;
    mw_->geom_rgba[4 * object2_geom_] = near1 ? 0.9f : 0.5f;
    mw_->geom_rgba[4 * object2_geom_ + 1] = near1 ? 0.7f : 0.5f;
  }

 private:
  // The task's sign: HOLD 0, BAODING_CW -1, BAODING_CCW 1 (Task's values 0, 1, 2).
  static int Sign(std::int64_t task) { return task == 0 ? 0 : (task == 1 ? -1 : 1); }

  int GeomId(const char* name) const {
    const int id = mj_name2id(m_, mjOBJ_GEOM, name);
    if (id < 0) throw std::invalid_argument(std::string("the model has no geom '") + name + "'");
    return id;
  }

  // The step's target sites, at goal[counter]; counter + 1.
  void MoveTargets() {
    const double goal = sign_ * 2 * M_PI * (counter_ * time_step_ / time_period_);
    const double angle1 = goal + ball1_angle_, angle2 = goal + ball2_angle_;
    const double center[2] = {-0.0125, -0.07};
    mw_->site_pos[3 * target1_] = x_radius_ * std::cos(angle1) + center[0];
    mw_->site_pos[3 * target1_ + 1] = y_radius_ * std::sin(angle1) + center[1];
    mw_->site_pos[3 * target2_] = x_radius_ * std::cos(angle2) + center[0];
    mw_->site_pos[3 * target2_ + 1] = y_radius_ * std::sin(angle2) + center[1];
    ++counter_;
  }

  Params p_;
  bool random_task_;
  int frame_skip_;
  int object1_body_, object2_body_, object1_, object2_, object1_geom_, object2_geom_;
  int target1_, target2_;
  double friction_low_[3] = {0.0, 0.0, 0.0}, friction_high_[3] = {0.0, 0.0, 0.0};
  int sign_ = 1;
  double ball1_angle_ = M_PI / 4.0, ball2_angle_ = M_PI / 4.0 - M_PI;
  double x_radius_ = 0.0, y_radius_ = 0.0, time_step_ = 0.0, time_period_ = 6.0;
  int counter_ = 0;
};

}  // namespace envpool::myosuite
