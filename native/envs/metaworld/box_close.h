// box-close-v3: metaworld/envs/sawyer_box_close_v3.py (SawyerBoxCloseEnvV3,
// reward_function_version "v2").
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

class BoxClose final : public SawyerTask {
 public:
  TaskConfig Config() const override {
    return HandConfig("sawyer_xyz/sawyer_box.xml", Float32Vec(0, 0.6f, 0.2f),
                      {-0.05, 0.5, 0.02, -0.1, 0.7, 0.133}, {0.05, 0.55, 0.02, 0.1, 0.8, 0.133},
                      {-0.1, 0.7, 0.133}, {0.1, 0.8, 0.133});
  }

  // Redrawn while the lid and the box are closer than 0.25 in x-y.
  std::vector<double> DrawRandVec(Sawyer& env) const override {
    return env.RandVecApart(0.25);
  }
  // The box (a child of the world without a joint: its height is its model pos's) moved
  // under the goal.
  void ModelWrites(Sawyer& env, const std::vector<double>& v) override {
    const int box = env.Id(mjOBJ_BODY, "boxbody");
    env.SetBodyPos(box, {v[3], v[4], env.model()->body_pos[3 * box + 2]});
  }

  // After the box moves, frame_skip mj_steps (the gripper's ctrl as _reset_hand left it),
  // then _set_obj_xyz.
  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    // [goal_pos[:2], obj_init_pos[-1]]: the float32 0.02 of init_config.
    env.obj_init_pos = {v[0], v[1], static_cast<double>(0.02f)};
    env.target_pos = {v[3], v[4], v[5]};
    ModelWrites(env, v);
    env.MjStep(env.frame_skip());
    env.SetObjXyz(env.obj_init_pos);
    env.SetGoalSite(env.target_pos);
  }

  int Objects(const Sawyer& env, double* out) const override {
    return env.BodyPosQuat(env.Id(mjOBJ_BODY, "top_link"), out);
  }

  double Evaluate(Sawyer& env, const double* obs, const float* action, double* info) override {
    // _reward_grab_effort: float32 arithmetic, then float().
    const float a3 = std::min(std::max(action[3], -1.0f), 1.0f);
    const float grab32 = std::min(std::max((a3 + 1.0f) / 2.0f, 0.0f), 1.0f);
    const double reward_grab = static_cast<double>(grab32);
    // _reward_quat.
    const double reward_quat = QuatReward(env, obs + 7, {0.707, 0, 0, 0.707}, 0.2);
    double ready_to_lift = 0, lifted = 0;
    RewardPos(env, obs, &ready_to_lift, &lifted);
    double reward = 2.0 * Hamacher(F64(reward_grab), F64(ready_to_lift)).v + 8.0 * lifted;
    const Vec3 lid = {obs[4], obs[5], obs[6]};
    const bool success = env.Dist(lid, env.target_pos) < 0.08;
    if (success) reward = 10.0;
    reward *= reward_quat;
    SetInfo(info, {success ? 1.0 : 0.0, ready_to_lift, reward_grab >= 0.5 ? 1.0 : 0.0,
                   reward_grab, lifted, 0.0, reward});
    return reward;
  }

 private:
  // SawyerBoxCloseEnvV3._reward_pos.
  static void RewardPos(const Sawyer& env, const double* obs, double* ready, double* lifted) {
    const double* hand = obs;
    const double lid[3] = {obs[4] + 0.0, obs[5] + 0.0, obs[6] + 0.02};
    const double threshold = 0.02;
    const double radius = env.blas().Norm2(hand[0] - lid[0], hand[1] - lid[1]);
    const double floor = radius <= threshold ? 0.0 : 0.04 * std::log(radius - threshold) + 0.4;
    const double above_floor =
        hand[2] >= floor ? 1.0 : Tolerance(floor - hand[2], 0.0, 0.01, floor / 2.0);
    const double d[3] = {hand[0] - lid[0], hand[1] - lid[1], hand[2] - lid[2]};
    const double in_place = Tolerance(env.Norm(d, 3), 0, 0.02, 0.5);
    *ready = Hamacher(F64(above_floor), F64(in_place)).v;
    const Vec3& t = env.target_pos;
    const double scale[3] = {1.0, 1.0, 3.0};
    double e[3];
    for (int i = 0; i < 3; ++i) e[i] = (t[i] - lid[i]) * scale[i];
    *lifted = 0.2 * static_cast<double>(lid[2] > 0.04) +
              0.8 * Tolerance(env.Norm(e, 3), 0, 0.05, 0.25);
  }
};

}  // namespace envpool::metaworld
