// button-press-topdown-v3 and button-press-topdown-wall-v3:
// metaworld/envs/sawyer_button_press_topdown_v3.py and sawyer_button_press_topdown_wall_v3.py
// (reward_function_version "v2"), which differ in the model and the gripper's term.
#pragma once

#include <cmath>
#include <vector>

#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

template <bool kWall>
class ButtonPressTopdown final : public SawyerTask {
 public:
  TaskConfig Config() const override {
    TaskConfig c;
    c.xml = kWall ? "sawyer_xyz/sawyer_button_press_topdown_wall.xml"
                  : "sawyer_xyz/sawyer_button_press_topdown.xml";
    c.hand_low = {-0.5, 0.40, 0.05};
    c.hand_high = {0.5, 1, 0.5};
    c.hand_init_pos = {0.0, static_cast<double>(0.4f), static_cast<double>(0.2f)};
    c.random_low = {-0.1, 0.8, 0.115};
    c.random_high = {0.1, 0.9, 0.115};
    c.goal_low = c.hand_low;
    c.goal_high = c.hand_high;
    return c;
  }
  std::vector<double> DrawRandVec(Sawyer& env) const override { return env.RandVec(); }
  void ModelWrites(Sawyer& env, const std::vector<double>& v) override {
    env.SetBodyPos(env.Id(mjOBJ_BODY, "box"), {v[0], v[1], v[2]});
  }

  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    env.obj_init_pos = {v[0], v[1], v[2]};
    ModelWrites(env, v);
    env.Forward();
    env.target_pos = env.SitePos(env.Id(mjOBJ_SITE, "hole"));
    obj_to_target_init_ =
        std::abs(env.target_pos[2] - env.SitePos(env.Id(mjOBJ_SITE, "buttonStart"))[2]);
  }

  int Objects(const Sawyer& env, double* out) const override {
    const int button = env.Id(mjOBJ_BODY, "button");
    const Vec3 p = env.BodyPos(button);
    const Vec3 pos = {p[0] + 0.0, p[1] + 0.0, p[2] + 0.193};
    const auto quat = env.BodyQuat(button);
    std::copy(pos.begin(), pos.end(), out);
    std::copy(quat.begin(), quat.end(), out + 3);
    return 7;
  }

  double Evaluate(Sawyer& env, const double* obs, const float* /*action*/,
                  double* info) override {
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const Vec3 tcp = env.TcpCenter();
    const double tcp_to_obj = env.Dist(obj, tcp);
    const double tcp_to_obj_init = env.Dist(obj, env.init_tcp);
    const double obj_to_target = std::abs(env.target_pos[2] - obj[2]);
    // 1 - obs[3], or the wall task's max(obs[3], 0.0)
    const double tcp_closed = kWall ? (0.0 > obs[3] ? 0.0 : obs[3]) : 1 - obs[3];
    const double near_button = Tolerance(tcp_to_obj, 0, 0.01, tcp_to_obj_init);
    const double button_pressed = Tolerance(obj_to_target, 0, 0.005, obj_to_target_init_);
    double reward = 5 * Hamacher(F64(tcp_closed), F64(near_button)).v;
    if (tcp_to_obj <= 0.03) reward += 5 * button_pressed;
    SetInfo(info, {obj_to_target <= 0.024 ? 1.0 : 0.0, tcp_to_obj <= 0.05 ? 1.0 : 0.0,
                   obs[3] > 0 ? 1.0 : 0.0, near_button, button_pressed, obj_to_target, reward});
    return reward;
  }

 private:
  double obj_to_target_init_ = 0;
};

}  // namespace envpool::metaworld
