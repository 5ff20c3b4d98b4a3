// disassemble-v3: metaworld/envs/sawyer_disassemble_peg_v3.py (SawyerNutDisassembleEnvV3,
// reward_function_version "v2").
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "envs/metaworld/nut.h"
#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

class Disassemble final : public NutTask {
 public:
  TaskConfig Config() const override {
    return HandConfig("sawyer_xyz/sawyer_assembly_peg.xml", Float32Vec(0, 0.4f, 0.2f),
                      {0.0, 0.6, 0.025, -0.1, 0.6, 0.1699}, {0.1, 0.75, 0.02501, 0.1, 0.75, 0.1701},
                      {-0.1 + 0.0, 0.6 + 0.0, 0.1699 + 0.005},
                      {0.1 + 0.0, 0.75 + 0.0, 0.1701 + 0.005});
  }

  void ModelWrites(Sawyer& env, const std::vector<double>& v) override {
    env.SetBodyPos(env.Id(mjOBJ_BODY, "peg"), {v[0] + 0.0, v[1] + 0.0, v[2] + 0.03});
    const int top = env.Id(mjOBJ_SITE, "pegTop");
    const double top_pos[3] = {v[0] + 0.0, v[1] + 0.0, v[2] + 0.08};
    std::copy(top_pos, top_pos + 3, env.model()->site_pos + 3 * top);
  }

  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    env.obj_init_pos = {v[0], v[1], v[2]};
    env.target_pos = {v[0] + 0, v[1] + 0, v[2] + 0.15};
    ModelWrites(env, v);
    env.Forward();
    env.SetObjXyz(env.obj_init_pos);
  }

  double Evaluate(Sawyer& env, const double* obs, const float* action, double* info) override {
    const auto [wrench_center, reward_quat, reward_grab] = Rewards(env, obs, action, false);
    // _reward_pos.
    const Vec3& t = env.target_pos;
    const double pos_error[3] = {(t[0] + 0.0) - wrench_center[0], (t[1] + 0.0) - wrench_center[1],
                                 (t[2] + 0.1) - wrench_center[2]};
    const bool lifted = wrench_center[2] > 0.02;
    const double reward_in_place = 0.1 * static_cast<double>(lifted) +
                                   0.9 * Tolerance(env.Norm(pos_error, 3), 0, 0.02, 0.2);
    Num reward = ToolReward(reward_grab, reward_in_place, reward_quat);
    const bool success = obs[6] > env.target_pos[2];
    if (success) reward = F64(10.0);
    return ToolInfo(info, success, reward_quat, reward_grab, reward_in_place, reward);
  }
};

}  // namespace envpool::metaworld
