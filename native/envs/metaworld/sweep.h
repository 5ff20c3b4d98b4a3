// sweep-v3: metaworld/envs/sawyer_sweep_v3.py (reward_function_version "v2"), with its own
// _gripper_caging_reward (Sawyer::GrippingCagingReward, as soccer and sweep-into).
#pragma once

#include <vector>

#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

class Sweep final : public ObjectTask {
 public:
  static constexpr double kObjRadius = 0.02;  // the class's OBJ_RADIUS

  TaskConfig Config() const override {
    TaskConfig c;
    c.xml = "sawyer_xyz/sawyer_sweep_v3.xml";
    c.hand_low = {-0.5, 0.40, 0.05};
    c.hand_high = {0.5, 1.0, 0.5};
    c.hand_init_pos = {0.0, 0.6, 0.2};
    c.random_low = {-0.1, 0.6, 0.02};
    c.random_high = {0.1, 0.7, 0.02};
    c.goal_low = {0.49, 0.6, 0.00};
    c.goal_high = {0.51, 0.7, 0.02};
    return c;
  }
  std::vector<double> DrawRandVec(Sawyer& env) const override { return env.RandVec(); }

  // The object keeps init_config's height (0.02); the goal is (0.5, the object's y, 0.01).
  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    env.obj_init_pos = {v[0], v[1], 0.02};
    env.target_pos = {0.5, v[1], 0.01};
    env.SetObjXyz(env.obj_init_pos);
    env.SetGoalSite(env.target_pos);
  }

  int Objects(const Sawyer& env, double* out) const override {
    Ids(env);
    const Vec3 pos = env.BodyPos(obj_);
    const auto quat = env.BodyQuat(obj_);
    std::copy(pos.begin(), pos.end(), out);
    std::copy(quat.begin(), quat.end(), out + 3);
    return 7;
  }

  double Evaluate(Sawyer& env, const double* obs, const float* /*action*/,
                  double* info) override {
    Ids(env);
    const double target_radius = 0.05;
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const double tcp_opened = obs[3];
    const Vec3& target = env.target_pos;
    const double obj_to_target = env.Dist(obj, target);
    const double tcp_to_obj = env.Dist(obj, env.TcpCenter());
    const double in_place_margin = env.Dist(env.obj_init_pos, target);
    const double in_place = Tolerance(obj_to_target, 0, target_radius, in_place_margin);
    const double object_grasped = env.GrippingCagingReward(obj.data(), kObjRadius, 0.01, 0.005);
    const double grasped_in_place = Hamacher(F64(object_grasped), F64(in_place)).v;
    double reward = (2 * object_grasped) + (6 * grasped_in_place);
    if (obj_to_target < target_radius) reward = 10.0;
    const bool touching = env.TouchingObject(obj_geom_);
    SetInfo(info, {obj_to_target <= 0.05 ? 1.0 : 0.0, tcp_to_obj <= 0.03 ? 1.0 : 0.0,
                   touching && tcp_opened > 0 ? 1.0 : 0.0, object_grasped, in_place,
                   obj_to_target, reward});
    return reward;
  }
};

}  // namespace envpool::metaworld
