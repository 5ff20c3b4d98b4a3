// handle-press-v3 and handle-press-side-v3: metaworld/envs/sawyer_handle_press_v3.py and
// sawyer_handle_press_side_v3.py (reward_function_version "v2"), which differ only in the
// model and the ranges.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

// The handle tasks' constants: the box at (-0.1, 0.8, z_low) to (0.1, 0.9, z_high), or the
// sideways model's at (-0.35, 0.65, z_low) to (-0.25, 0.75, z_high), whose goal space is the
// hand's; the front model's goal space is (-0.1, 0.55, 0.04) to (0.1, 0.7, goal_z_high).
inline TaskConfig HandleConfig(bool side, double z_low, double z_high, double goal_z_high) {
  TaskConfig c = SawyerConfig(side ? "sawyer_xyz/sawyer_handle_press_sideways.xml"
                                   : "sawyer_xyz/sawyer_handle_press.xml",
                              {0, 0.6, 0.2});  // float64
  if (side) {
    c.random_low = {-0.35, 0.65, z_low};
    c.random_high = {-0.25, 0.75, z_high};
    c.goal_low = c.hand_low;
    c.goal_high = c.hand_high;
  } else {
    c.random_low = {-0.1, 0.8, z_low};
    c.random_high = {0.1, 0.9, z_high};
    c.goal_low = {-0.1, 0.55, 0.04};
    c.goal_high = {0.1, 0.70, goal_z_high};
  }
  return c;
}

template <bool kSide>
class HandlePress final : public BodyTask {
 public:
  static constexpr double kTargetRadius = 0.02;

  HandlePress() : BodyTask("box") {}
  TaskConfig Config() const override { return HandleConfig(kSide, -0.001, 0.001, 0.08); }

  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    env.obj_init_pos = {v[0], v[1], v[2]};
    ModelWrites(env, v);
    env.SetQpos(9, {-0.001}, 9, 10);  // _set_obj_xyz(np.array(-0.001))
    env.target_pos = env.SitePos(env.Id(mjOBJ_SITE, "goalPress"));
    handle_init_ = Handle(env);
  }

  int Objects(const Sawyer& env, double* out) const override {
    const Vec3 pos = Handle(env);
    std::copy(pos.begin(), pos.end(), out);
    std::fill(out + 3, out + 7, 0.0);  // np.zeros(4)
    return 7;
  }

  double Evaluate(Sawyer& env, const double* /*obs*/, const float* /*action*/,
                  double* info) override {
    const Vec3 obj = Handle(env);
    const Vec3 tcp = env.TcpCenter();
    const Vec3& target = env.target_pos;
    const double dz = obj[2] - target[2];
    const double target_to_obj = env.Norm(&dz, 1);
    const double dz_init = handle_init_[2] - target[2];
    const double target_to_obj_init = env.Norm(&dz_init, 1);
    const double in_place = Tolerance(target_to_obj, 0, kTargetRadius,
                                      std::abs(target_to_obj_init - kTargetRadius));
    const double handle_radius = 0.02;
    const double tcp_to_obj = env.Dist(obj, tcp);
    const double tcp_to_obj_init = env.Dist(handle_init_, env.init_tcp);
    const double reach =
        Tolerance(tcp_to_obj, 0, handle_radius, std::abs(tcp_to_obj_init - handle_radius));
    Num reward = Hamacher(F64(reach), F64(in_place));
    if (target_to_obj <= kTargetRadius) reward = F64(1.0);
    reward = Op(reward, F64(10), '*');
    SetInfo(info, {target_to_obj <= kTargetRadius ? 1.0 : 0.0, tcp_to_obj <= 0.05 ? 1.0 : 0.0,
                   1.0, reach, in_place, target_to_obj, reward.v});
    return reward.v;
  }

 private:
  static Vec3 Handle(const Sawyer& env) {
    return env.SitePos(env.Id(mjOBJ_SITE, "handleStart"));
  }
  Vec3 handle_init_{};
};

}  // namespace envpool::metaworld
