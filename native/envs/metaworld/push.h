// push-v3: metaworld/envs/sawyer_push_v3.py (reward_function_version "v2").
#pragma once

#include <vector>

#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

class Push final : public ObjectTask {
 public:
  TaskConfig Config() const override {
    return ObjectConfig("sawyer_xyz/sawyer_push_v3.xml", {-0.1, 0.8, 0.01}, {0.1, 0.9, 0.02});
  }

  // The object keeps its height (fix_extreme_obj_pos: the body's z after _reset_hand), the
  // goal takes it too.
  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    Ids(env);
    const double z = env.BodyPos(obj_)[2];
    env.target_pos = {v[3], v[4], z};
    env.obj_init_pos = {v[0], v[1], z};
    env.SetObjXyz(env.obj_init_pos);
    env.SetGoalSite(env.target_pos);
  }

  double Evaluate(Sawyer& env, const double* obs, const float* action, double* info) override {
    Ids(env);
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const double tcp_opened = obs[3];
    const double tcp_to_obj = env.Dist(obj, env.TcpCenter());
    const double target_to_obj = env.Dist(obj, env.target_pos);
    const double target_to_obj_init = env.Dist(env.obj_init_pos, env.target_pos);
    const double in_place = Tolerance(target_to_obj, 0, 0.05, target_to_obj_init);
    const Num object_grasped =
        env.GripperCagingReward(action, obs + 4, 0.015, 0.05, 0.01, 0.005, 1.0, true, false);
    Num reward = Op(F64(2), object_grasped, '*');
    if (tcp_to_obj < 0.02 && tcp_opened > 0) {
      // reward += 1.0 + reward + 5.0 * in_place
      reward = Op(reward, Op(Op(F64(1.0), reward, '+'), F64(5.0 * in_place), '+'), '+');
    }
    if (target_to_obj < 0.05) reward = F64(10.0);
    const bool touching = env.TouchingObject(obj_geom_);
    SetInfo(info, {target_to_obj <= 0.05 ? 1.0 : 0.0, tcp_to_obj <= 0.03 ? 1.0 : 0.0,
                   touching && tcp_opened > 0 && obj[2] - 0.02 > env.obj_init_pos[2] ? 1.0 : 0.0,
                   object_grasped.v, in_place, target_to_obj, reward.v});
    return reward.v;
  }
};

}  // namespace envpool::metaworld
