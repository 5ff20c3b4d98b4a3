// faucet-open-v3 and faucet-close-v3: metaworld/envs/sawyer_faucet_open_v3.py and
// sawyer_faucet_close_v3.py (reward_function_version "v2"), which differ in the ranges, the
// handle's site, the target's side, an offset of the handle in the reward and the
// close task's mj_forward at reset.
#pragma once

#include <cmath>
#include <vector>

#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

template <bool kClose>
class Faucet final : public SawyerTask {
 public:
  static constexpr double kHandleLength = 0.175;
  static constexpr double kTargetRadius = 0.07;

  TaskConfig Config() const override {
    TaskConfig c;
    c.xml = "sawyer_xyz/sawyer_faucet.xml";
    c.hand_low = {-0.5, 0.40, -0.15};
    c.hand_high = {0.5, 1, 0.5};
    c.hand_init_pos = {0.0, 0.4, 0.2};
    c.random_low = {kClose ? -0.1 : -0.05, 0.8, 0.0};
    c.random_high = {kClose ? 0.1 : 0.05, 0.85, 0.0};
    c.goal_low = c.hand_low;
    c.goal_high = c.hand_high;
    // _target_site_config: this task's goal site (the other's is moved to 10, 10, 10;
    // neither xpos outlives the step's mj_forward).
    c.target_site = kClose ? "goal_close" : "goal_open";
    return c;
  }
  std::vector<double> DrawRandVec(Sawyer& env) const override { return env.RandVec(); }
  void ModelWrites(Sawyer& env, const std::vector<double>& v) override {
    env.SetBodyPos(env.Id(mjOBJ_BODY, "faucetBase"), {v[0], v[1], v[2]});
  }

  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    env.obj_init_pos = {v[0], v[1], v[2]};
    ModelWrites(env, v);
    const double dx = kClose ? -kHandleLength : +kHandleLength;
    env.target_pos = {v[0] + dx, v[1] + 0.0, v[2] + 0.125};
    if (kClose) env.Forward();
    env.SetGoalSite(env.target_pos);
  }

  int Objects(const Sawyer& env, double* out) const override {
    const Vec3 p = env.SitePos(env.Id(mjOBJ_SITE, kClose ? "handleStartClose" : "handleStartOpen"));
    const Vec3 pos = {p[0] + 0.0, p[1] + 0.0, p[2] + -0.01};
    const auto quat = env.BodyQuat(env.Id(mjOBJ_BODY, "faucetBase"));
    std::copy(pos.begin(), pos.end(), out);
    std::copy(quat.begin(), quat.end(), out + 3);
    return 7;
  }

  double Evaluate(Sawyer& env, const double* obs, const float* /*action*/,
                  double* info) override {
    // obs[4:7], + (-0.04, 0, 0.03) in the open task.
    const Vec3 obj = kClose ? Vec3{obs[4], obs[5], obs[6]}
                            : Vec3{obs[4] + -0.04, obs[5] + 0.0, obs[6] + 0.03};
    const Vec3 tcp = env.TcpCenter();
    const Vec3& target = env.target_pos;
    const double target_to_obj = env.Dist(obj, target);
    const double target_to_obj_init = env.Dist(env.obj_init_pos, target);
    const double in_place = Tolerance(target_to_obj, 0, kTargetRadius,
                                      std::abs(target_to_obj_init - kTargetRadius));
    const double faucet_reach_radius = 0.01;
    const double tcp_to_obj = env.Dist(obj, tcp);
    const double tcp_to_obj_init = env.Dist(env.obj_init_pos, env.init_tcp);
    const double reach = ToleranceGaussian(tcp_to_obj, 0, faucet_reach_radius,
                                           std::abs(tcp_to_obj_init - faucet_reach_radius));
    double reward = 2 * reach + 3 * in_place;
    reward *= 2;
    if (target_to_obj <= kTargetRadius) reward = 10;
    SetInfo(info, {target_to_obj <= 0.07 ? 1.0 : 0.0, tcp_to_obj <= 0.01 ? 1.0 : 0.0, 1.0, reach,
                   in_place, target_to_obj, reward});
    return reward;
  }
};

}  // namespace envpool::metaworld
