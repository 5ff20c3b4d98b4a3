// assembly-v3: metaworld/envs/sawyer_assembly_peg_v3.py (SawyerNutAssemblyEnvV3,
// reward_function_version "v2").
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "envs/metaworld/nut.h"
#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

class Assembly final : public NutTask {
 public:
  TaskConfig Config() const override {
    return HandConfig("sawyer_xyz/sawyer_assembly_peg.xml", Float32Vec(0, 0.6f, 0.2f),
                      {0, 0.6, 0.02, -0.1, 0.75, 0.1}, {0, 0.6, 0.02, 0.1, 0.85, 0.1},
                      {-0.1, 0.75, 0.1}, {0.1, 0.85, 0.1});
  }

  void ModelWrites(Sawyer& env, const std::vector<double>& v) override {
    env.SetBodyPos(env.Id(mjOBJ_BODY, "peg"), {v[3] - 0.0, v[4] - 0.0, v[5] - 0.05});
    const int top = env.Id(mjOBJ_SITE, "pegTop");
    std::copy(v.begin() + 3, v.begin() + 6, env.model()->site_pos + 3 * top);
  }

  // The peg moves after _set_obj_xyz's mj_forward, as in the package.
  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    env.obj_init_pos = {v[0], v[1], v[2]};
    env.target_pos = {v[3], v[4], v[5]};
    env.SetObjXyz(env.obj_init_pos);
    ModelWrites(env, v);
  }

  double Evaluate(Sawyer& env, const double* obs, const float* action, double* info) override {
    const auto [wrench_center, reward_quat, reward_grab] = Rewards(env, obs, action, true);
    // _reward_pos: a funnel over the peg.
    const Vec3& t = env.target_pos;
    double pos_error[3] = {t[0] - wrench_center[0], t[1] - wrench_center[1],
                           t[2] - wrench_center[2]};
    const double radius = env.blas().Norm2(pos_error[0], pos_error[1]);
    const bool aligned = radius < 0.02;
    const bool hooked = pos_error[2] > 0.0;
    const bool success = aligned && hooked;
    const double threshold = success ? 0.02 : 0.01;
    double target_height = 0.0;
    if (radius > threshold) target_height = 0.02 * std::log(radius - threshold) + 0.2;
    pos_error[2] = target_height - wrench_center[2];
    const double scale[3] = {1.0, 1.0, 3.0};
    double scaled[3];
    for (int i = 0; i < 3; ++i) scaled[i] = pos_error[i] * scale[i];
    const bool lifted = wrench_center[2] > 0.02 || radius < threshold;
    const double reward_in_place = 0.1 * static_cast<double>(lifted) +
                                   0.9 * Tolerance(env.Norm(scaled, 3), 0, 0.02, 0.4);
    Num reward = ToolReward(reward_grab, reward_in_place, reward_quat);
    if (success) reward = F64(10.0);
    return ToolInfo(info, success, reward_quat, reward_grab, reward_in_place, reward);
  }
};

}  // namespace envpool::metaworld
