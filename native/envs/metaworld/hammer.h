// hammer-v3: metaworld/envs/sawyer_hammer_v3.py (SawyerHammerEnvV3, reward_function_version
// "v2"). Two objects: the hammer and the nail.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

class Hammer final : public SawyerTask {
 public:
  static constexpr double kHandleLength = 0.14;  // HAMMER_HANDLE_LENGTH

  TaskConfig Config() const override {
    return HandConfig("sawyer_xyz/sawyer_hammer.xml", {0, 0.4, 0.2}, {-0.1, 0.4, 0.0},
                      {0.1, 0.5, 0.0}, {0.2399, 0.7399, 0.109}, {0.2401, 0.7401, 0.111});
  }
  std::vector<double> DrawRandVec(Sawyer& env) const override { return env.RandVec(); }
  void ModelWrites(Sawyer& env, const std::vector<double>& /*v*/) override {
    env.SetBodyPos(env.Id(mjOBJ_BODY, "box"), {0.24, 0.85, 0.0});
  }

  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    ModelWrites(env, v);
    env.target_pos = env.SitePos(env.Id(mjOBJ_SITE, "goal"));
    env.obj_init_pos = {v[0], v[1], v[2]};
    env.SetObjXyz(env.obj_init_pos);  // _set_hammer_xyz
  }

  int Objects(const Sawyer& env, double* out) const override {
    const int n = env.BodyPosQuat(env.Id(mjOBJ_BODY, "hammer"), out);
    return n + env.BodyPosQuat(env.Id(mjOBJ_BODY, "nail_link"), out + n);
  }

  double Evaluate(Sawyer& env, const double* obs, const float* action, double* info) override {
    const double* hand = obs;
    const double* hammer = obs + 4;
    const Vec3 hammer_head = {hammer[0] + 0.16, hammer[1] + 0.06, hammer[2] + 0.0};
    const Vec3 hammer_threshed = Threshed(hand, hammer, kHandleLength / 2.0);
    // _reward_quat: the hammer's quaternion against (1, 0, 0, 0).
    const double reward_quat = QuatReward(env, obs + 7, {1.0, 0.0, 0.0, 0.0}, 0.4);
    const Num reward_grab = env.GripperCagingReward(action, hammer_threshed.data(), 0.015,
                                                    0.02, 0.01, 0.01, 1.0, true, false);
    // _reward_pos.
    const bool lifted = hammer_head[2] > 0.02;
    const double pos_error[3] = {env.target_pos[0] - hammer_head[0],
                                 env.target_pos[1] - hammer_head[1],
                                 env.target_pos[2] - hammer_head[2]};
    const double reward_in_place =
        0.1 * static_cast<double>(lifted) +
        0.9 * Tolerance(env.Norm(pos_error, 3), 0, 0.02, 0.2);
    Num reward = ToolReward(reward_grab, reward_in_place, reward_quat);
    const bool success = env.JointQpos("NailSlideJoint") > 0.09;
    if (success && reward.v > 5.0) reward = F64(10.0);
    return ToolInfo(info, success, reward_quat, reward_grab, reward_in_place, reward);
  }
};

}  // namespace envpool::metaworld
