// bin-picking-v3: metaworld/envs/sawyer_bin_picking_v3.py (SawyerBinPickingEnvV3,
// reward_function_version "v2"). The target is get_body_com("bin_goal"), a view of
// data.xpos (the bin does not move); the in-place margin is the episode's first
// evaluated distance to it.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

class BinPicking final : public SawyerTask {
 public:
  TaskConfig Config() const override {
    TaskConfig c = HandConfig("sawyer_xyz/sawyer_bin_picking.xml", {0, 0.6, 0.2},
                              {-0.21, 0.65, 0.02, 0.1199, 0.699, -0.001},
                              {-0.03, 0.75, 0.02, 0.1201, 0.701, +0.001},
                              {0.1199, 0.699, -0.001}, {0.1201, 0.701, +0.001});
    c.hand_low[2] = 0.07;
    return c;
  }
  std::vector<double> DrawRandVec(Sawyer& env) const override { return env.RandVec(); }

  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    // [rand_vec[:2], the object's height after _reset_hand].
    env.obj_init_pos = {v[0], v[1], env.BodyPos(env.Id(mjOBJ_BODY, "obj"))[2]};
    env.SetObjXyz(env.obj_init_pos);
    AfterForward(env);
    has_target_to_obj_init_ = false;
  }
  void AfterForward(Sawyer& env) override {
    env.target_pos = env.BodyPos(env.Id(mjOBJ_BODY, "bin_goal"));
  }

  int Objects(const Sawyer& env, double* out) const override {
    return env.BodyPosQuat(env.Id(mjOBJ_BODY, "obj"), out);
  }

  double Evaluate(Sawyer& env, const double* obs, const float* action, double* info) override {
    const double target_radius = 0.05;  // the base's TARGET_RADIUS
    const double* hand = obs;
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const Vec3& target = env.target_pos;
    const double target_to_obj = env.Dist(obj, target);
    if (!has_target_to_obj_init_) {
      target_to_obj_init_ = target_to_obj;
      has_target_to_obj_init_ = true;
    }
    const double in_place = Tolerance(target_to_obj, 0, target_radius, target_to_obj_init_);
    const double threshold = 0.03;
    const double radii[2] = {
        env.blas().Norm2(hand[0] - env.obj_init_pos[0], hand[1] - env.obj_init_pos[1]),
        env.blas().Norm2(hand[0] - target[0], hand[1] - target[1])};
    double floor = 0;
    for (int i = 0; i < 2; ++i) {
      const double f = radii[i] > threshold ? 0.02 * std::log(radii[i] - threshold) + 0.2 : 0.0;
      floor = i == 0 ? f : std::min(floor, f);
    }
    const double above_floor =
        hand[2] >= floor ? 1.0 : Tolerance(std::max(floor - hand[2], 0.0), 0.0, 0.01, 0.05);
    const Num object_grasped =
        env.GripperCagingReward(action, obs + 4, 0.015, 0.05, 0.01, 0.01, 0.7, true, false);
    Num reward = Hamacher(object_grasped, F64(in_place));
    const Vec3 h = {hand[0], hand[1], hand[2]};
    const bool near_object = env.Dist(obj, h) < 0.04;
    const bool pinched_without_obj = obs[3] < 0.43;
    const bool lifted = obj[2] - 0.02 > env.obj_init_pos[2];
    const bool grasp_success = near_object && lifted && !pinched_without_obj;
    if (grasp_success) {
      reward = Op(reward, F64(1.0 + 5.0 * Hamacher(F64(above_floor), F64(in_place)).v), '+');
    }
    if (target_to_obj < target_radius) reward = F64(10.0);
    SetInfo(info, {target_to_obj <= 0.05 ? 1.0 : 0.0, near_object ? 1.0 : 0.0,
                   grasp_success ? 1.0 : 0.0, object_grasped.v, in_place, target_to_obj,
                   reward.v});
    return reward.v;
  }

 private:
  bool has_target_to_obj_init_ = false;
  double target_to_obj_init_ = 0;
};

}  // namespace envpool::metaworld
