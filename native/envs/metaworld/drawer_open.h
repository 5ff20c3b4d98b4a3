// drawer-open-v3: metaworld/envs/sawyer_drawer_open_v3.py (reward_function_version "v2").
#pragma once

#include <vector>

#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

// The drawer tasks' constants and observation (drawer_open.h, drawer_close.h).
class DrawerTask : public SawyerTask {
 public:
  TaskConfig Config() const override {
    TaskConfig c;
    c.xml = "sawyer_xyz/sawyer_drawer.xml";
    c.hand_low = {-0.5, 0.40, 0.05};
    c.hand_high = {0.5, 1, 0.5};
    // np.array([0, 0.6, 0.2], dtype=np.float32)
    c.hand_init_pos = {0.0, static_cast<double>(0.6f), static_cast<double>(0.2f)};
    c.random_low = {-0.1, 0.9, 0.0};
    c.random_high = {0.1, 0.9, 0.0};
    c.goal_low = c.hand_low;
    c.goal_high = c.hand_high;
    return c;
  }
  std::vector<double> DrawRandVec(Sawyer& env) const override { return env.RandVec(); }
  // self.model.body("drawer").pos = obj_init_pos.
  void ModelWrites(Sawyer& env, const std::vector<double>& v) override {
    env.SetBodyPos(env.Id(mjOBJ_BODY, "drawer"), {v[0], v[1], v[2]});
  }

 protected:
  // get_body_com("drawer_link") + offset.
  Vec3 Handle(const Sawyer& env, double dz) const {
    const Vec3 p = env.BodyPos(env.Id(mjOBJ_BODY, "drawer_link"));
    return {p[0] + 0.0, p[1] + -0.16, p[2] + dz};
  }
};

class DrawerOpen final : public DrawerTask {
 public:
  static constexpr double kMaxDist = 0.2;

  // No mj_forward after the drawer moves: the observation still shows the drawer where
  // _reset_hand left it, as the package's does.
  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    ModelWrites(env, v);
    env.obj_init_pos = {v[0], v[1], v[2]};
    env.target_pos = {v[0] + 0.0, v[1] + (-0.16 - kMaxDist), v[2] + 0.09};
    env.SetGoalSite(env.target_pos);
  }

  int Objects(const Sawyer& env, double* out) const override {
    const Vec3 pos = Handle(env, 0.0);
    const auto quat = env.BodyQuat(env.Id(mjOBJ_BODY, "drawer_link"));
    std::copy(pos.begin(), pos.end(), out);
    std::copy(quat.begin(), quat.end(), out + 3);
    return 7;
  }

  double Evaluate(Sawyer& env, const double* obs, const float* /*action*/,
                  double* info) override {
    const Vec3 gripper = {obs[0], obs[1], obs[2]};
    const Vec3 handle = {obs[4], obs[5], obs[6]};
    const double handle_error = env.Dist(handle, env.target_pos);
    const double reward_for_opening = Tolerance(handle_error, 0, 0.02, kMaxDist);
    const Vec3& t = env.target_pos;
    const Vec3 handle_pos_init = {t[0] + 0.0, t[1] + kMaxDist, t[2] + 0.0};
    const double scale[3] = {3.0, 3.0, 1.0};
    double gripper_error[3], gripper_error_init[3];
    for (int i = 0; i < 3; ++i) {
      gripper_error[i] = (handle[i] - gripper[i]) * scale[i];
      gripper_error_init[i] = (handle_pos_init[i] - env.init_tcp[i]) * scale[i];
    }
    const double reward_for_caging =
        Tolerance(env.Norm(gripper_error, 3), 0, 0.01, env.Norm(gripper_error_init, 3));
    double reward = reward_for_caging + reward_for_opening;
    reward *= 5.0;
    const double gripper_dist = env.Dist(handle, gripper);
    SetInfo(info, {handle_error <= 0.03 ? 1.0 : 0.0, gripper_dist <= 0.03 ? 1.0 : 0.0,
                   obs[3] > 0 ? 1.0 : 0.0, reward_for_caging, reward_for_opening, handle_error,
                   reward});
    return reward;
  }
};

}  // namespace envpool::metaworld
