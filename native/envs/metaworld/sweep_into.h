// sweep-into-v3: metaworld/envs/sawyer_sweep_into_goal_v3.py (SawyerSweepIntoGoalEnvV3,
// reward_function_version "v2"). The target is the fixed goal (0, 0.84, 0.02): the random
// vector's goal part is drawn and never read.
#pragma once

#include <vector>

#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

class SweepInto final : public SawyerTask {
 public:
  TaskConfig Config() const override {
    return HandConfig("sawyer_xyz/sawyer_table_with_hole.xml", {0.0, 0.6, 0.2},
                      {-0.1, 0.6, 0.02, -0.001, 0.8399, 0.0199},
                      {0.1, 0.7, 0.02, +0.001, 0.8401, 0.0201}, {-0.001, 0.8399, 0.0199},
                      {+0.001, 0.8401, 0.0201});
  }

  // Redrawn while the object is closer than 0.15 to the goal in x-y.
  std::vector<double> DrawRandVec(Sawyer& env) const override {
    std::vector<double> v = env.RandVec();
    while (env.blas().Norm2(v[0] - kGoal[0], v[1] - kGoal[1]) < 0.15) v = env.RandVec();
    return v;
  }

  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    env.target_pos = kGoal;
    // [goal_pos[:2], obj_init_pos[-1]]: the object's height after _reset_hand.
    env.obj_init_pos = {v[0], v[1], env.BodyPos(Obj(env))[2]};
    env.SetObjXyz(env.obj_init_pos);
    env.SetGoalSite(env.target_pos);
  }

  int Objects(const Sawyer& env, double* out) const override {
    return env.BodyPosGeomQuat(Obj(env), env.Id(mjOBJ_GEOM, "objGeom"), out);
  }

  double Evaluate(Sawyer& env, const double* obs, const float* /*action*/,
                  double* info) override {
    const double target_radius = 0.05, obj_radius = 0.02;
    const Vec3 tcp = env.TcpCenter();
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const double tcp_opened = obs[3];
    const Vec3 target = {env.target_pos[0], env.target_pos[1], obj[2]};
    const double obj_to_target = env.Dist(obj, target);
    const double tcp_to_obj = env.Dist(obj, tcp);
    const double in_place_margin = env.Dist(env.obj_init_pos, target);
    const double in_place = Tolerance(obj_to_target, 0, target_radius, in_place_margin);
    const double object_grasped = env.GrippingCagingReward(obs + 4, obj_radius, 0.005, 0.01);
    const double in_place_and_object_grasped =
        Hamacher(F64(object_grasped), F64(in_place)).v;
    double reward = (2 * object_grasped) + (6 * in_place_and_object_grasped);
    if (obj_to_target < target_radius) reward = 10.0;
    const bool grasp_success =
        env.TouchingObject(env.Id(mjOBJ_GEOM, "objGeom")) && tcp_opened > 0;
    SetInfo(info, {obj_to_target <= 0.05 ? 1.0 : 0.0, tcp_to_obj <= 0.03 ? 1.0 : 0.0,
                   grasp_success ? 1.0 : 0.0, object_grasped, in_place, obj_to_target,
                   reward});
    return reward;
  }

 private:
  static constexpr Vec3 kGoal = {0.0, 0.84, 0.02};
  static int Obj(const Sawyer& env) { return env.Id(mjOBJ_BODY, "obj"); }
};

}  // namespace envpool::metaworld
