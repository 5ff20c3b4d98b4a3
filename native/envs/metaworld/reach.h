// reach-v3 and reach-wall-v3: metaworld/envs/sawyer_reach_v3.py and sawyer_reach_wall_v3.py
// (reward_function_version "v2"), which differ in the ranges, the model and the infos.
#pragma once

#include <vector>

#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

template <bool kWall>
class Reach final : public ObjectTask {
 public:
  TaskConfig Config() const override {
    if (!kWall) {
      return ObjectConfig("sawyer_xyz/sawyer_reach_v3.xml", {-0.1, 0.8, 0.05}, {0.1, 0.9, 0.3});
    }
    TaskConfig c = ObjectConfig("sawyer_xyz/sawyer_reach_wall_v3.xml", {-0.05, 0.85, 0.05},
                                {0.05, 0.9, 0.3});
    c.random_low[0] = -0.05;
    c.random_low[2] = 0.015;
    c.random_high[0] = 0.05;
    c.random_high[1] = 0.65;
    c.random_high[2] = 0.015;
    return c;
  }

  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    env.target_pos = {v[3], v[4], v[5]};
    env.obj_init_pos = {v[0], v[1], v[2]};
    env.SetObjXyz(env.obj_init_pos);
    env.SetGoalSite(env.target_pos);
  }

  double Evaluate(Sawyer& env, const double* /*obs*/, const float* /*action*/,
                  double* info) override {
    const Vec3 tcp = env.TcpCenter();
    const double tcp_to_target = env.Dist(tcp, env.target_pos);
    const double in_place_margin = env.Dist(env.config().hand_init_pos, env.target_pos);
    const double in_place = Tolerance(tcp_to_target, 0, 0.05, in_place_margin);
    const double reward = 10 * in_place;
    const double success = tcp_to_target <= 0.05 ? 1.0 : 0.0;
    if (kWall) {
      SetInfo(info, {success, 0.0, 0.0, 0.0, in_place, tcp_to_target, reward});
    } else {
      SetInfo(info, {success, tcp_to_target, 1.0, tcp_to_target, in_place, tcp_to_target,
                     reward});
    }
    return reward;
  }
};

}  // namespace envpool::metaworld
