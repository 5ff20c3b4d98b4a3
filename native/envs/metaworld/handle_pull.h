// handle-pull-v3 and handle-pull-side-v3: metaworld/envs/sawyer_handle_pull_v3.py and
// sawyer_handle_pull_side_v3.py (reward_function_version "v2"): the handle-press models,
// the handle pulled up. They differ in the model, the ranges, the handle's site, obj_init_pos
// (handle-pull keeps the box's random position, handle-pull-side the handle's), the
// in-place distance (|dz|, or the 3-D one), the caging radii and the success distance.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "envs/metaworld/handle_press.h"
#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

template <bool kSide>
class HandlePull final : public BodyTask {
 public:
  static constexpr double kTargetRadius = 0.05;  // SawyerXYZEnv.TARGET_RADIUS

  HandlePull() : BodyTask("box") {}
  TaskConfig Config() const override {
    return kSide ? HandleConfig(true, 0.0, 0.0, 0.0) : HandleConfig(false, -0.001, 0.001, 0.18);
  }

  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    env.obj_init_pos = {v[0], v[1], v[2]};
    ModelWrites(env, v);
    env.SetQpos(9, {-0.1}, 9, 10);  // _set_obj_xyz(np.array(-0.1))
    env.target_pos = env.SitePos(env.Id(mjOBJ_SITE, "goalPull"));
    if (kSide) env.obj_init_pos = Handle(env);
  }

  int Objects(const Sawyer& env, double* out) const override {
    const Vec3 pos = Handle(env);
    std::copy(pos.begin(), pos.end(), out);
    std::fill(out + 3, out + 7, 0.0);  // np.zeros(4)
    return 7;
  }

  double Evaluate(Sawyer& env, const double* obs, const float* action, double* info) override {
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const Vec3& target = env.target_pos;
    const Vec3& init = env.obj_init_pos;
    double target_to_obj = 0, target_to_obj_init = 0;
    if (kSide) {
      // (obj - target) * [1, 1, 1]
      target_to_obj = env.Dist(obj, target);
      target_to_obj_init = env.Dist(init, target);
    } else {
      target_to_obj = std::abs(target[2] - obj[2]);
      target_to_obj_init = std::abs(target[2] - init[2]);
    }
    const double in_place = Tolerance(target_to_obj, 0, kTargetRadius, target_to_obj_init);
    const Num object_grasped = env.GripperCagingReward(
        action, obj.data(), kSide ? 0.032 : 0.022, kSide ? 0.06 : 0.05, 0.01, 0.01, 1.0,
        /*high_density=*/true, /*medium_density=*/false);
    Num reward = Hamacher(object_grasped, F64(in_place));
    const double tcp_opened = obs[3];
    const double tcp_to_obj = env.Dist(obj, env.TcpCenter());
    // handle-pull compares obj[1] with obj_init_pos[2], as the package does.
    const double lifted = kSide ? obj[2] : obj[1];
    if (tcp_to_obj < 0.035 && tcp_opened > 0 && lifted - 0.01 > init[2]) {
      reward = Op(reward, F64(1.0 + 5.0 * in_place), '+');
    }
    if (target_to_obj < kTargetRadius) reward = F64(10.0);
    SetInfo(info, {target_to_obj <= (kSide ? 0.08 : kTargetRadius) ? 1.0 : 0.0,
                   tcp_to_obj <= 0.05 ? 1.0 : 0.0,
                   (tcp_opened > 0 && obj[2] - 0.03 > init[2]) ? 1.0 : 0.0, object_grasped.v,
                   in_place, target_to_obj, reward.v});
    return reward.v;
  }

 private:
  static Vec3 Handle(const Sawyer& env) {
    return env.SitePos(env.Id(mjOBJ_SITE, kSide ? "handleCenter" : "handleRight"));
  }
};

}  // namespace envpool::metaworld
