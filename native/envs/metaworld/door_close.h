// door-close-v3: metaworld/envs/sawyer_door_close_v3.py (SawyerDoorCloseEnvV3,
// reward_function_version "v2"): door-open's model, the door opened at reset.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

class DoorClose final : public BodyTask {
 public:
  DoorClose() : BodyTask("door") {}

  TaskConfig Config() const override {
    // hand_init_pos: np.array([-0.5, 0.6, 0.2], dtype=np.float32)
    TaskConfig c = SawyerConfig("sawyer_xyz/sawyer_door_pull.xml",
                                {-0.5, static_cast<double>(0.6f), static_cast<double>(0.2f)});
    c.random_low = {0.0, 0.85, 0.15};
    c.random_high = {0.1, 0.95, 0.15};
    c.goal_low = {0.2, 0.65, 0.1499};
    c.goal_high = {0.3, 0.75, 0.1501};
    return c;
  }
  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    env.obj_init_pos = {v[0], v[1], v[2]};
    env.target_pos = {v[0] + 0.2, v[1] + -0.2, v[2] + 0.0};
    ModelWrites(env, v);
    env.SetGoalSite(env.target_pos);
    env.SetJoint("doorjoint", -1.5708, true);  // _set_obj_xyz(np.array(-1.5708))
  }

  int Objects(const Sawyer& env, double* out) const override {
    const int handle = env.Id(mjOBJ_GEOM, "handle");
    return WriteObject(out, env.GeomPos(handle), env.GeomQuat(handle));
  }

  double Evaluate(Sawyer& env, const double* obs, const float* /*action*/,
                  double* info) override {
    const double target_radius = 0.05;
    const Vec3 tcp = env.TcpCenter();
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const Vec3& target = env.target_pos;
    const double tcp_to_target = env.Dist(tcp, target);
    const double obj_to_target = env.Dist(obj, target);
    const double in_place_margin = env.Dist(env.obj_init_pos, target);
    const double in_place =
        ToleranceGaussian(obj_to_target, 0, target_radius, in_place_margin);
    // self.hand_init_pos (float32) - obj: float64.
    const double hand_margin = env.Dist(env.config().hand_init_pos, obj) + 0.1;
    const double hand_in_place =
        ToleranceGaussian(tcp_to_target, 0, 0.25 * target_radius, hand_margin);
    double reward = 3 * hand_in_place + 6 * in_place;
    if (obj_to_target < target_radius) reward = 10;
    SetInfo(info, {obj_to_target <= 0.08 ? 1.0 : 0.0, 0.0, 1.0, 1.0, hand_in_place,
                   obj_to_target, reward});
    return reward;
  }
};

}  // namespace envpool::metaworld
