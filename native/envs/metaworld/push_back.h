// push-back-v3: metaworld/envs/sawyer_push_back_v3.py (reward_function_version "v2"), with
// its own _gripper_caging_reward (Sawyer::GrippingCagingReward, as soccer and sweep-into).
#pragma once

#include <vector>

#include "envs/metaworld/push_wall.h"
#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

class PushBack final : public WallObjectTask {
 public:
  static constexpr double kObjRadius = 0.007;    // the class's OBJ_RADIUS
  static constexpr double kTargetRadius = 0.05;  // the class's TARGET_RADIUS

  TaskConfig Config() const override {
    TaskConfig c;
    c.xml = "sawyer_xyz/sawyer_push_back_v3.xml";
    c.hand_low = {-0.5, 0.40, 0.05};
    c.hand_high = {0.5, 1, 0.5};
    // np.array([0, 0.6, 0.2], dtype=np.float32)
    c.hand_init_pos = {0.0, static_cast<double>(0.6f), static_cast<double>(0.2f)};
    c.random_low = {-0.1, 0.8, 0.02, -0.1, 0.6, 0.0199};
    c.random_high = {0.1, 0.85, 0.02, 0.1, 0.7, 0.0201};
    c.goal_low = {-0.1, 0.6, 0.0199};
    c.goal_high = {0.1, 0.7, 0.0201};
    return c;
  }

  // The object and the goal take the height of the object's geom after _reset_hand
  // (adjust_initObjPos).
  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    Ids(env);
    const double z = env.GeomPos(obj_geom_)[2];
    env.target_pos = {v[3], v[4], z};
    env.obj_init_pos = {v[0], v[1], z};
    env.SetObjXyz(env.obj_init_pos);
    env.SetGoalSite(env.target_pos);
  }

  double Evaluate(Sawyer& env, const double* obs, const float* /*action*/,
                  double* info) override {
    Ids(env);
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const double tcp_opened = obs[3];
    const double tcp_to_obj = env.Dist(obj, env.TcpCenter());
    const double target_to_obj = env.Dist(obj, env.target_pos);
    const double target_to_obj_init = env.Dist(env.obj_init_pos, env.target_pos);
    const double in_place = Tolerance(target_to_obj, 0, kTargetRadius, target_to_obj_init);
    const double object_grasped = env.GrippingCagingReward(obj.data(), kObjRadius, 0.003, 0.01);
    double reward = Hamacher(F64(object_grasped), F64(in_place)).v;
    if (tcp_to_obj < 0.01 && 0 < tcp_opened && tcp_opened < 0.55 &&
        target_to_obj_init - target_to_obj > 0.01) {
      reward += 1.0 + 5.0 * in_place;
    }
    if (target_to_obj < kTargetRadius) reward = 10.0;
    const bool touching = env.TouchingObject(obj_geom_);
    SetInfo(info, {target_to_obj <= 0.07 ? 1.0 : 0.0, tcp_to_obj <= 0.03 ? 1.0 : 0.0,
                   touching && tcp_opened > 0 && obj[2] - 0.02 > env.obj_init_pos[2] ? 1.0 : 0.0,
                   object_grasped, in_place, target_to_obj, reward});
    return reward;
  }
};

}  // namespace envpool::metaworld
