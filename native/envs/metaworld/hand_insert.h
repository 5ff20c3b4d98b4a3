// hand-insert-v3: metaworld/envs/sawyer_hand_insert_v3.py (reward_function_version "v2").
#pragma once

#include <vector>

#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

class HandInsert final : public SawyerTask {
 public:
  static constexpr double kTargetRadius = 0.05;  // the class's TARGET_RADIUS

  TaskConfig Config() const override {
    TaskConfig c;
    c.xml = "sawyer_xyz/sawyer_table_with_hole.xml";
    c.hand_low = {-0.5, 0.40, -0.15};
    c.hand_high = {0.5, 1, 0.5};
    // np.array([0, 0.6, 0.2], dtype=np.float32)
    c.hand_init_pos = {0.0, static_cast<double>(0.6f), static_cast<double>(0.2f)};
    c.random_low = {-0.1, 0.6, 0.05, -0.04, 0.8, -0.0201};
    c.random_high = {0.1, 0.7, 0.05, 0.04, 0.88, -0.0199};
    c.goal_low = {-0.04, 0.8, -0.0201};
    c.goal_high = {0.04, 0.88, -0.0199};
    return c;
  }

  // Redrawn while the object and the goal are closer than 0.15 in x-y.
  std::vector<double> DrawRandVec(Sawyer& env) const override {
    std::vector<double> v = env.RandVec();
    while (env.blas().Norm2(v[0] - v[3], v[1] - v[4]) < 0.15) v = env.RandVec();
    return v;
  }

  // The object keeps init_config's height (obj_init_pos[-1], 0.05).
  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    env.obj_init_pos = {v[0], v[1], 0.05};
    env.target_pos = {v[3], v[4], v[5]};
    env.SetObjXyz(env.obj_init_pos);
    env.SetGoalSite(env.target_pos);
  }

  int Objects(const Sawyer& env, double* out) const override {
    const int obj = env.Id(mjOBJ_BODY, "obj");
    const Vec3 pos = env.BodyPos(obj);
    const auto quat = env.BodyQuat(obj);
    std::copy(pos.begin(), pos.end(), out);
    std::copy(quat.begin(), quat.end(), out + 3);
    return 7;
  }

  double Evaluate(Sawyer& env, const double* obs, const float* action, double* info) override {
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const double target_to_obj = env.Dist(obj, env.target_pos);
    const double target_to_obj_init = env.Dist(env.obj_init_pos, env.target_pos);
    const double in_place = Tolerance(target_to_obj, 0, kTargetRadius, target_to_obj_init);
    const Num object_grasped =
        env.GripperCagingReward(action, obs + 4, 0.015, 0.05, 0.01, 0.005, 1.0, true, false);
    Num reward = Hamacher(object_grasped, F64(in_place));
    const double tcp_opened = obs[3];
    const double tcp_to_obj = env.Dist(obj, env.TcpCenter());
    if (tcp_to_obj < 0.02 && tcp_opened > 0) reward = Op(reward, F64(1.0 + 7.0 * in_place), '+');
    if (target_to_obj < kTargetRadius) reward = F64(10.0);
    const bool touching = env.TouchingObject(env.Id(mjOBJ_GEOM, "objGeom"));
    SetInfo(info, {target_to_obj <= 0.05 ? 1.0 : 0.0, tcp_to_obj <= 0.03 ? 1.0 : 0.0,
                   touching && tcp_opened > 0 && obj[2] - 0.02 > env.obj_init_pos[2] ? 1.0 : 0.0,
                   object_grasped.v, in_place, target_to_obj, reward.v});
    return reward.v;
  }
};

}  // namespace envpool::metaworld
