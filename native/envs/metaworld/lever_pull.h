// lever-pull-v3: metaworld/envs/sawyer_lever_pull_v3.py (reward_function_version "v2").
#pragma once

#include <cmath>
#include <vector>

#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

class LeverPull final : public SawyerTask {
 public:
  static constexpr double kLeverRadius = 0.2;  // the class's LEVER_RADIUS

  TaskConfig Config() const override {
    TaskConfig c;
    c.xml = "sawyer_xyz/sawyer_lever_pull.xml";
    c.hand_low = {-0.5, 0.40, -0.15};
    c.hand_high = {0.5, 1, 0.5};
    // np.array([0, 0.4, 0.2], dtype=np.float32)
    c.hand_init_pos = {0.0, static_cast<double>(0.4f), static_cast<double>(0.2f)};
    c.random_low = {-0.1, 0.7, 0.0};
    c.random_high = {0.1, 0.8, 0.0};
    c.goal_low = c.hand_low;
    c.goal_high = c.hand_high;
    return c;
  }
  std::vector<double> DrawRandVec(Sawyer& env) const override { return env.RandVec(); }
  void ModelWrites(Sawyer& env, const std::vector<double>& v) override {
    env.SetBodyPos(env.Id(mjOBJ_BODY, "lever"), {v[0], v[1], v[2]});
  }

  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    env.obj_init_pos = {v[0], v[1], v[2]};
    ModelWrites(env, v);
    lever_pos_init_ = {v[0] + 0.12, v[1] + -kLeverRadius, v[2] + 0.25};
    env.target_pos = {v[0] + 0.12, v[1] + 0.0, v[2] + (0.25 + kLeverRadius)};
    env.SetGoalSite(env.target_pos);
  }

  int Objects(const Sawyer& env, double* out) const override {
    const Vec3 pos = env.SitePos(env.Id(mjOBJ_SITE, "leverStart"));
    const auto quat = env.GeomQuat(env.Id(mjOBJ_GEOM, "objGeom"));
    std::copy(pos.begin(), pos.end(), out);
    std::copy(quat.begin(), quat.end(), out + 3);
    return 7;
  }

  double Evaluate(Sawyer& env, const double* obs, const float* /*action*/,
                  double* info) override {
    const double gripper[3] = {obs[0], obs[1], obs[2]};
    const Vec3 lever = {obs[4], obs[5], obs[6]};
    const double scale[3] = {4.0, 1.0, 4.0};
    const double offset[3] = {0.0, 0.055, 0.07};
    double shoulder_to_lever[3], shoulder_to_lever_init[3];
    for (int i = 0; i < 3; ++i) {
      shoulder_to_lever[i] = ((gripper[i] + offset[i]) - lever[i]) * scale[i];
      shoulder_to_lever_init[i] =
          ((env.init_tcp[i] + offset[i]) - lever_pos_init_[i]) * scale[i];
    }
    const double shoulder_dist = env.Norm(shoulder_to_lever, 3);
    const double ready_to_lift =
        Tolerance(shoulder_dist, 0, 0.02, env.Norm(shoulder_to_lever_init, 3));
    const double lever_angle = -env.JointQpos("LeverAxis");
    const double lever_angle_desired = M_PI / 2.0;
    const double lever_error = std::abs(lever_angle - lever_angle_desired);
    const double lever_engagement =
        Tolerance(lever_error, 0, M_PI / 48.0, (M_PI / 2.0) - (M_PI / 12.0));
    const Vec3& target = env.target_pos;
    const double obj_to_target = env.Dist(lever, target);
    const double in_place_margin = env.Dist(lever_pos_init_, target);
    const double in_place = Tolerance(obj_to_target, 0, 0.04, in_place_margin);
    const double reward = 10.0 * Hamacher(F64(ready_to_lift), F64(in_place)).v;
    SetInfo(info, {lever_error <= M_PI / 24 ? 1.0 : 0.0, shoulder_dist < 0.03 ? 1.0 : 0.0,
                   ready_to_lift > 0.9 ? 1.0 : 0.0, ready_to_lift, lever_engagement, shoulder_dist,
                   reward});
    return reward;
  }

 private:
  Vec3 lever_pos_init_{};
};

}  // namespace envpool::metaworld
