// pick-out-of-hole-v3: metaworld/envs/sawyer_pick_out_of_hole_v3.py
// (SawyerPickOutOfHoleEnvV3, reward_function_version "v2"). Its success radius is the
// base's TARGET_RADIUS (0.05): the class's own _TARGET_RADIUS is never read.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

class PickOutOfHole final : public SawyerTask {
 public:
  TaskConfig Config() const override {
    TaskConfig c = HandConfig("sawyer_xyz/sawyer_pick_out_of_hole.xml", {0.0, 0.6, 0.2},
                              {0, 0.75, 0.02, -0.1, 0.5, 0.15}, {0, 0.75, 0.02, 0.1, 0.6, 0.3},
                              {-0.1, 0.5, 0.15}, {0.1, 0.6, 0.3});
    c.hand_low[2] = -0.05;
    return c;
  }

  // Redrawn while the object and the goal are closer than 0.15 in x-y.
  std::vector<double> DrawRandVec(Sawyer& env) const override {
    return env.RandVecApart(0.15);
  }

  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    env.obj_init_pos = {v[0], v[1], v[2]};
    env.SetObjXyz(env.obj_init_pos);
    env.target_pos = {v[3], v[4], v[5]};
    env.SetGoalSite(env.target_pos);
  }

  int Objects(const Sawyer& env, double* out) const override {
    return env.BodyPosQuat(env.Id(mjOBJ_BODY, "obj"), out);
  }

  double Evaluate(Sawyer& env, const double* obs, const float* action, double* info) override {
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const Vec3 gripper = env.TcpCenter();
    const double obj_to_target = env.Dist(obj, env.target_pos);
    const double tcp_to_obj = env.Dist(obj, gripper);
    const double in_place_margin = env.Dist(env.obj_init_pos, env.target_pos);
    const double threshold = 0.03;
    const double radius =
        env.blas().Norm2(gripper[0] - env.obj_init_pos[0], gripper[1] - env.obj_init_pos[1]);
    const double floor = radius <= threshold ? 0.0 : 0.015 * std::log(radius - threshold) + 0.15;
    const double above_floor =
        gripper[2] >= floor ? 1.0
                            : Tolerance(std::max(floor - gripper[2], 0.0), 0.0, 0.01, 0.02);
    const Num object_grasped =
        env.GripperCagingReward(action, obs + 4, 0.015, 0.02, 0.01, 0.03, 0.1, true, false);
    const double in_place = Tolerance(obj_to_target, 0, 0.02, in_place_margin);
    Num reward = Hamacher(object_grasped, F64(in_place));
    const bool near_object = tcp_to_obj < 0.04;
    const bool pinched_without_obj = obs[3] < 0.33;
    const bool lifted = obj[2] - 0.02 > env.obj_init_pos[2];
    const bool grasp_success = near_object && lifted && !pinched_without_obj;
    if (grasp_success) {
      reward = Op(reward, F64(1.0 + 5.0 * Hamacher(F64(in_place), F64(above_floor)).v), '+');
    }
    if (obj_to_target < 0.05) reward = F64(10.0);  // the base's TARGET_RADIUS
    SetInfo(info, {obj_to_target <= 0.07 ? 1.0 : 0.0, tcp_to_obj <= 0.03 ? 1.0 : 0.0,
                   grasp_success ? 1.0 : 0.0, object_grasped.v, in_place, obj_to_target,
                   reward.v});
    return reward.v;
  }
};

}  // namespace envpool::metaworld
