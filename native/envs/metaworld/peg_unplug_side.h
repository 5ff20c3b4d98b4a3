// peg-unplug-side-v3: metaworld/envs/sawyer_peg_unplug_side_v3.py
// (reward_function_version "v2"), with its own _set_obj_xyz (the plug's position and an
// upright quaternion, its linear velocity zeroed).
#pragma once

#include <vector>

#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

class PegUnplugSide final : public SawyerTask {
 public:
  TaskConfig Config() const override {
    TaskConfig c;
    c.xml = "sawyer_xyz/sawyer_peg_unplug_side.xml";
    c.hand_low = {-0.5, 0.40, 0.05};
    c.hand_high = {0.5, 1, 0.5};
    c.hand_init_pos = {0, 0.6, 0.2};
    c.random_low = {-0.25, 0.6, -0.001};
    c.random_high = {-0.15, 0.8, 0.001};
    c.goal_low = {-0.25 + 0.194, 0.6 + 0.0, -0.001 + 0.131};
    c.goal_high = {-0.15 + 0.194, 0.8 + 0.0, 0.001 + 0.131};
    return c;
  }
  std::vector<double> DrawRandVec(Sawyer& env) const override { return env.RandVec(); }
  void ModelWrites(Sawyer& env, const std::vector<double>& v) override {
    env.SetBodyPos(env.Id(mjOBJ_BODY, "box"), {v[0], v[1], v[2]});
  }

  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    ModelWrites(env, v);
    const Vec3 plug = {v[0] + 0.044, v[1] + 0.0, v[2] + 0.131};
    env.SetQpos(9, {plug[0], plug[1], plug[2], 1.0, 0.0, 0.0, 0.0}, 9, 12);
    env.obj_init_pos = PegEnd(env);
    env.target_pos = {plug[0] + 0.15, plug[1] + 0.0, plug[2] + 0.0};
    env.SetGoalSite(env.target_pos);
  }

  int Objects(const Sawyer& env, double* out) const override {
    const Vec3 pos = PegEnd(env);
    const auto quat = env.BodyQuat(env.Id(mjOBJ_BODY, "plug1"));
    std::copy(pos.begin(), pos.end(), out);
    std::copy(quat.begin(), quat.end(), out + 3);
    return 7;
  }

  double Evaluate(Sawyer& env, const double* obs, const float* action, double* info) override {
    const Vec3 tcp = env.TcpCenter();
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const double tcp_opened = obs[3];
    const Vec3& target = env.target_pos;
    const double tcp_to_obj = env.Dist(obj, tcp);
    const double obj_to_target = env.Dist(obj, target);
    const Num object_grasped =
        env.GripperCagingReward(action, obs + 4, 0.025, 0.05, 0.01, 0.005, 0.8, true, false);
    const double in_place_margin = env.Dist(env.obj_init_pos, target);
    const double in_place = Tolerance(obj_to_target, 0, 0.05, in_place_margin);
    const bool grasp_success = tcp_opened > 0.5 && obj[0] - env.obj_init_pos[0] > 0.015;
    Num reward = Op(F64(2), object_grasped, '*');
    if (grasp_success && tcp_to_obj < 0.035) {
      // 1 + 2 * object_grasped + 5 * in_place
      reward = Op(Op(F64(1), Op(F64(2), object_grasped, '*'), '+'), F64(5 * in_place), '+');
    }
    if (obj_to_target <= 0.05) reward = F64(10.0);
    SetInfo(info, {obj_to_target <= 0.07 ? 1.0 : 0.0, tcp_to_obj <= 0.03 ? 1.0 : 0.0,
                   grasp_success ? 1.0 : 0.0, object_grasped.v, in_place, obj_to_target,
                   reward.v});
    return reward.v;
  }

 private:
  static Vec3 PegEnd(const Sawyer& env) { return env.SitePos(env.Id(mjOBJ_SITE, "pegEnd")); }
};

}  // namespace envpool::metaworld
