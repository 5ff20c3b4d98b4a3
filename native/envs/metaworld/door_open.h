// door-open-v3: metaworld/envs/sawyer_door_v3.py (SawyerDoorEnvV3, reward_function_version
// "v2").
#pragma once

#include <cmath>
#include <vector>

#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

class DoorOpen final : public SawyerTask {
 public:
  TaskConfig Config() const override {
    TaskConfig c;
    c.xml = "sawyer_xyz/sawyer_door_pull.xml";
    c.hand_low = {-0.5, 0.40, 0.05};
    c.hand_high = {0.5, 1, 0.5};
    c.hand_init_pos = {0.0, 0.6, 0.2};
    c.random_low = {0.0, 0.85, 0.15};
    c.random_high = {0.1, 0.95, 0.15};
    c.goal_low = {-0.3, 0.4, 0.1499};
    c.goal_high = {-0.2, 0.5, 0.1501};
    return c;
  }
  std::vector<double> DrawRandVec(Sawyer& env) const override { return env.RandVec(); }
  void ModelWrites(Sawyer& env, const std::vector<double>& v) override {
    env.SetBodyPos(env.Id(mjOBJ_BODY, "door"), {v[0], v[1], v[2]});
  }

  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    env.obj_init_pos = {v[0], v[1], v[2]};
    env.target_pos = {v[0] + -0.3, v[1] + -0.45, v[2] + 0.0};
    ModelWrites(env, v);
    env.SetGoalSite(env.target_pos);
    env.SetJoint("doorjoint", 0.0, true);  // _set_obj_xyz(np.array(0))
  }

  int Objects(const Sawyer& env, double* out) const override {
    const int handle = env.Id(mjOBJ_GEOM, "handle");
    const Vec3 pos = env.GeomPos(handle);
    const auto quat = env.GeomQuat(handle);
    std::copy(pos.begin(), pos.end(), out);
    std::copy(quat.begin(), quat.end(), out + 3);
    return 7;
  }

  double Evaluate(Sawyer& env, const double* obs, const float* action, double* info) override {
    const double theta = env.JointQpos("doorjoint");
    // float((np.clip(actions[3], -1, 1) + 1.0) / 2.0): float32 arithmetic.
    const float grab = (std::min(std::max(action[3], -1.0f), 1.0f) + 1.0f) / 2.0f;
    const double reward_grab = static_cast<double>(grab);
    double ready_to_open = 0, opened = 0;
    RewardPos(env, obs, theta, &ready_to_open, &opened);
    // sum((2.0 * hamacher_product(ready, grab), 8.0 * opened)), from the int 0
    double reward = 2.0 * Hamacher(F64(ready_to_open), F64(reward_grab)).v + 8.0 * opened;
    const bool success = std::abs(obs[4] - env.target_pos[0]) <= 0.08;
    if (success) reward = 10.0;
    SetInfo(info, {success ? 1.0 : 0.0, ready_to_open, reward_grab >= 0.5 ? 1.0 : 0.0, reward_grab,
                   opened, 0.0, reward});
    return reward;
  }

 private:
  // SawyerDoorEnvV3._reward_pos.
  static void RewardPos(const Sawyer& env, const double* obs, double theta, double* ready,
                        double* opened) {
    const double hand[3] = {obs[0], obs[1], obs[2]};
    const double door[3] = {obs[4] + -0.05, obs[5] + 0.0, obs[6] + 0.0};
    const double threshold = 0.12;
    const double radius = env.blas().Norm2(hand[0] - door[0], hand[1] - door[1]);
    const double floor = radius <= threshold ? 0.0 : 0.04 * std::log(radius - threshold) + 0.4;
    const double above_floor =
        hand[2] >= floor ? 1.0 : Tolerance(floor - hand[2], 0.0, 0.01, floor / 2.0);
    const double offset[3] = {0.05, 0.03, -0.01};
    double d[3];
    for (int i = 0; i < 3; ++i) d[i] = (hand[i] - door[i]) - offset[i];
    const double in_place = Tolerance(env.Norm(d, 3), 0, threshold / 2.0, 0.5);
    *ready = Hamacher(F64(above_floor), F64(in_place)).v;
    const double door_angle = -theta;
    const double a = 0.2, b = 0.8;
    *opened = a * static_cast<double>(theta < -M_PI / 90.0) +
              b * Tolerance(M_PI / 2.0 + M_PI / 6 - door_angle, 0, 0.5, M_PI / 3.0);
  }
};

}  // namespace envpool::metaworld
