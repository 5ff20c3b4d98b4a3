// drawer-close-v3: metaworld/envs/sawyer_drawer_close_v3.py (reward_function_version "v2").
#pragma once

#include <cmath>
#include <vector>

#include "envs/metaworld/drawer_open.h"
#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

class DrawerClose final : public DrawerTask {
 public:
  static constexpr double kMaxDist = 0.15;

  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    ModelWrites(env, v);
    env.target_pos = {v[0] + 0.0, v[1] + -0.16, v[2] + 0.09};
    env.SetJoint("goal_slidey", -kMaxDist, false);  // _set_obj_xyz: qpos[9], qvel kept
    env.obj_init_pos = Handle(env, 0.05);
    env.SetGoalSite(env.target_pos);
  }

  int Objects(const Sawyer& env, double* out) const override {
    const Vec3 pos = Handle(env, 0.05);
    std::copy(pos.begin(), pos.end(), out);
    std::fill(out + 3, out + 7, 0.0);  // np.zeros(4)
    return 7;
  }

  double Evaluate(Sawyer& env, const double* obs, const float* action, double* info) override {
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const Vec3 tcp = env.TcpCenter();
    const double target_radius = 0.05;
    const double target_to_obj = env.Dist(obj, env.target_pos);
    const double target_to_obj_init = env.Dist(env.obj_init_pos, env.target_pos);
    const double in_place = Tolerance(target_to_obj, 0, target_radius,
                                      std::abs(target_to_obj_init - target_radius));
    const double handle_reach_radius = 0.005;
    const double tcp_to_obj = env.Dist(obj, tcp);
    const double tcp_to_obj_init = env.Dist(env.obj_init_pos, env.init_tcp);
    const double reach0 = ToleranceGaussian(tcp_to_obj, 0, handle_reach_radius,
                                            std::abs(tcp_to_obj_init - handle_reach_radius));
    // min(max(0, action[-1]), 1): the int 0, a float32, or the int 1.
    const float a = action[3];
    Num gripper_closed = F64(0.0);
    if (a > 0) gripper_closed = 1 < a ? F64(1.0) : Num{a, true};
    const Num reach = Hamacher(F64(reach0), gripper_closed);
    Num reward = Hamacher(reach, F64(in_place));
    if (target_to_obj <= target_radius + 0.015) reward = F64(1.0);
    reward = Op(reward, F64(10), '*');
    SetInfo(info, {target_to_obj <= target_radius + 0.015 ? 1.0 : 0.0,
                   tcp_to_obj <= 0.01 ? 1.0 : 0.0, 1.0, reach.v, in_place, target_to_obj,
                   reward.v});
    return reward.v;
  }
};

}  // namespace envpool::metaworld
