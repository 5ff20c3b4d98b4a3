// Gymnasium-Robotics' HandReach (gymnasium_robotics 1.4.2, envs/shadow_dexterous_hand/
// reach.py's MujocoHandReachEnv, registered as HandReach-v3 and HandReachDense-v3): the five
// fingertips to reach target positions, the thumb and one other finger meeting above the
// palm. The goal is the 15 coordinates of the fingertips (sites robot0:S_*tip).
//
// What the pool shares (Params): the model and the result of _env_setup (the joints set
// to DEFAULT_INITIAL_QPOS, mj_forward): the initial time, qpos and qvel every reset starts
// from, the fingertips' positions there (initial_goal) and the palm's position.
#pragma once

#include <array>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "envs/robotics/hand_env.h"

namespace envpool::robotics {

class HandReach final : public HandEnv {
 public:
  struct Params : HandParams {
    explicit Params(const Config& c) {
      mujoco::ReadParams(Keys(), c, *this);
      Finish("HandReach");
      Setup();
    }
    std::array<int, 5> fingertips{};   // FINGERTIP_SITE_NAMES' sites
    std::array<int, 5> target_sites{};  // target0..4 (frames)
    std::array<int, 5> finger_sites{};  // finger0..4 (frames)
    double initial_time = 0;
    std::vector<double> initial_qpos, initial_qvel;
    std::vector<double> initial_goal;  // 15
    double palm_xpos[3] = {0, 0, 0};

   private:
    void Setup();
  };

  static Keywords<Params> Keys() { return HandKeywords<Params>("hand/reach.xml", 0.01); }
  static Config Defaults() { return Keys().Defaults(); }
  static EnvSpec MakeSpec(const Params& p) { return HandSpec(p.model.get(), 15, 63); }
  static FrameSize RenderSize(const Params& p, int width, int height, int camera_id) {
    return HandRenderSize(p, width, height, camera_id, "HandReach");
  }

  explicit HandReach(const Params& p) : HandEnv(p, 15), p_(p) {}

 protected:
  // MujocoRobotEnv._reset_sim: mj_resetData, the setup's time, qpos and qvel, mj_forward.
  bool ResetSim() override {
    mj_resetData(m_, d_);
    d_->time = p_.initial_time;
    std::copy(p_.initial_qpos.begin(), p_.initial_qpos.end(), d_->qpos);
    std::copy(p_.initial_qvel.begin(), p_.initial_qvel.end(), d_->qvel);
    mj_forward(m_, d_);
    return true;
  }

  // _render_callback: the target sites moved to the goal and the finger sites to the
  // fingertips (site_pos = position - (site_xpos - site_pos)), then mj_forward.
  void RenderCallback(mjModel* rm) override {
    double offset[2][5][3];
    for (int f = 0; f < 5; ++f) {
      const int sites[2] = {p_.target_sites[f], p_.finger_sites[f]};
      for (int k = 0; k < 2; ++k) {
        double x[3];
        mujoco::SiteXposOn(rm, d_, sites[k], x);
        for (int i = 0; i < 3; ++i) offset[k][f][i] = x[i] - rm->site_pos[3 * sites[k] + i];
      }
    }
    const std::vector<double> achieved = AchievedGoal();
    for (int f = 0; f < 5; ++f) {
      for (int i = 0; i < 3; ++i) {
        rm->site_pos[3 * p_.target_sites[f] + i] = goal_[3 * f + i] - offset[0][f][i];
      }
    }
    for (int f = 0; f < 5; ++f) {
      for (int i = 0; i < 3; ++i) {
        rm->site_pos[3 * p_.finger_sites[f] + i] = achieved[3 * f + i] - offset[1][f][i];
      }
    }
    mj_forward(rm, d_);
  }

  std::vector<double> AchievedGoal() const override {
    std::vector<double> g(15);
    for (int f = 0; f < 5; ++f) {
      std::copy(d_->site_xpos + 3 * p_.fingertips[f], d_->site_xpos + 3 * p_.fingertips[f] + 3,
                g.begin() + 3 * f);
    }
    return g;
  }
  // _is_success: d < distance_threshold.
  float IsSuccess() const override {
    return GoalNorm(AchievedGoal().data(), goal_.data(), 15) < p_.distance_threshold ? 1.0f : 0.0f;
  }
  // compute_reward: -(d > distance_threshold) as float32 (sparse), -d (dense).
  double Reward() const override {
    const double d = GoalNorm(AchievedGoal().data(), goal_.data(), 15);
    if (p_.reward_type == "sparse") return static_cast<double>(-(d > p_.distance_threshold ? 1.0f : 0.0f));
    return -d;
  }

  // _get_obs' observation: robot qpos, robot qvel, the achieved goal.
  void WriteObs(double* obs) const override {
    double* o = WriteRobot(obs);
    const std::vector<double> g = AchievedGoal();
    std::copy(g.begin(), g.end(), o);
  }

 private:
  // _sample_goal, numpy's draws in the reference's order: one of the four fingers
  // (choice), the meeting point (palm + [0, -0.09, 0.05] + normal(scale=0.005, size=3)), the
  // thumb's and the finger's goals 0.005 short of it, and with probability 0.1 (uniform()) the
  // initial fingertips instead.
  void SampleGoal() override {
    const int finger = static_cast<int>(np_random_.Integers(0, 4));  // choice of 4 names
    const double offset[3] = {0.0, -0.09, 0.05};
    double meeting[3];
    for (int i = 0; i < 3; ++i) meeting[i] = p_.palm_xpos[i] + offset[i];
    double noise[3];
    for (double& v : noise) v = p_.ziggurat.Normal(np_random_, 0.0, 0.005);
    for (int i = 0; i < 3; ++i) meeting[i] += noise[i];
    goal_ = p_.initial_goal;
    for (int idx : {4, finger}) {
      double dir[3];
      for (int i = 0; i < 3; ++i) dir[i] = meeting[i] - goal_[3 * idx + i];
      const double n = NumpyBlas::Fixed().Norm(dir, 3);
      for (double& v : dir) v /= n;
      for (int i = 0; i < 3; ++i) goal_[3 * idx + i] = meeting[i] - 0.005 * dir[i];
    }
    if (np_random_.Uniform(0.0, 1.0) < 0.1) goal_ = p_.initial_goal;
  }

  Params p_;
};

inline void HandReach::Params::Setup() {
  const char* tips[5] = {"robot0:S_fftip", "robot0:S_mftip", "robot0:S_rftip", "robot0:S_lftip",
                         "robot0:S_thtip"};
  for (int f = 0; f < 5; ++f) {
    fingertips[f] = Id(mjOBJ_SITE, tips[f], "HandReach");
    target_sites[f] = Id(mjOBJ_SITE, "target" + std::to_string(f), "HandReach");
    finger_sites[f] = Id(mjOBJ_SITE, "finger" + std::to_string(f), "HandReach");
  }
  // reach.py's DEFAULT_INITIAL_QPOS, in its order.
  const std::pair<const char*, double> initial[] = {
      {"robot0:WRJ1", -0.16514339750464327}, {"robot0:WRJ0", -0.31973286565062153},
      {"robot0:FFJ3", 0.14340512546557435},  {"robot0:FFJ2", 0.32028208333591573},
      {"robot0:FFJ1", 0.7126053607727917},   {"robot0:FFJ0", 0.6705281001412586},
      {"robot0:MFJ3", 0.000246444303701037}, {"robot0:MFJ2", 0.3152655251085491},
      {"robot0:MFJ1", 0.7659800313729842},   {"robot0:MFJ0", 0.7323156897425923},
      {"robot0:RFJ3", 0.00038520700007378114}, {"robot0:RFJ2", 0.36743546201985233},
      {"robot0:RFJ1", 0.7119514095008576},   {"robot0:RFJ0", 0.6699446327514138},
      {"robot0:LFJ4", 0.0525442258033891},   {"robot0:LFJ3", -0.13615534724474673},
      {"robot0:LFJ2", 0.39872030433433003},  {"robot0:LFJ1", 0.7415570009679252},
      {"robot0:LFJ0", 0.704096378652974},    {"robot0:THJ4", 0.003673823825070126},
      {"robot0:THJ3", 0.5506291436028695},   {"robot0:THJ2", -0.014515151997119306},
      {"robot0:THJ1", -0.0015229223564485414}, {"robot0:THJ0", -0.7894883021600622},
  };
  const mjModel* m = model.get();
  DataPtr data(mj_makeData(m));
  mjData* d = data.get();
  if (d == nullptr) throw std::runtime_error("MuJoCo could not allocate mjData");
  for (const auto& [name, value] : initial) d->qpos[m->jnt_qposadr[Id(mjOBJ_JOINT, name, "HandReach")]] = value;
  mj_forward(m, d);
  initial_goal.resize(15);
  for (int f = 0; f < 5; ++f) {
    std::copy(d->site_xpos + 3 * fingertips[f], d->site_xpos + 3 * fingertips[f] + 3,
              initial_goal.begin() + 3 * f);
  }
  const int palm = Id(mjOBJ_BODY, "robot0:palm", "HandReach");
  std::copy(d->xpos + 3 * palm, d->xpos + 3 * palm + 3, palm_xpos);
  initial_time = d->time;
  initial_qpos.assign(d->qpos, d->qpos + m->nq);
  initial_qvel.assign(d->qvel, d->qvel + m->nv);
}

}  // namespace envpool::robotics
