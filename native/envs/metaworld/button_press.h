// button-press-v3 and button-press-wall-v3: metaworld/envs/sawyer_button_press_v3.py and
// sawyer_button_press_wall_v3.py (reward_function_version "v2"), which differ in the model,
// the ranges and the reward's shape.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

template <bool kWall>
class ButtonPress final : public BodyTask {
 public:
  ButtonPress() : BodyTask("box") {}

  TaskConfig Config() const override {
    // hand_init_pos: np.array([0, 0.4, 0.2], dtype=np.float32)
    TaskConfig c = SawyerConfig(kWall ? "sawyer_xyz/sawyer_button_press_wall.xml"
                                      : "sawyer_xyz/sawyer_button_press.xml",
                                {0.0, static_cast<double>(0.4f), static_cast<double>(0.2f)});
    if (kWall) {
      c.random_low = {-0.05, 0.85, 0.1149};
      c.random_high = {0.05, 0.9, 0.1151};
    } else {
      c.random_low = {-0.1, 0.85, 0.115};
      c.random_high = {0.1, 0.9, 0.115};
    }
    c.goal_low = c.hand_low;
    c.goal_high = c.hand_high;
    return c;
  }
  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    env.obj_init_pos = {v[0], v[1], v[2]};
    ModelWrites(env, v);
    env.SetQpos(9, {0.0}, 9, 10);  // _set_obj_xyz(np.array(0))
    env.target_pos = env.SitePos(env.Id(mjOBJ_SITE, "hole"));
    obj_to_target_init_ =
        std::abs(env.target_pos[1] - env.SitePos(env.Id(mjOBJ_SITE, "buttonStart"))[1]);
  }

  int Objects(const Sawyer& env, double* out) const override {
    const int button = env.Id(mjOBJ_BODY, "button");
    const Vec3 p = env.BodyPos(button);
    const Vec3 pos = {p[0] + 0.0, p[1] + -0.193, p[2] + 0.0};
    return WriteObject(out, pos, env.BodyQuat(button));
  }

  double Evaluate(Sawyer& env, const double* obs, const float* /*action*/,
                  double* info) override {
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const Vec3 tcp = env.TcpCenter();
    const double tcp_to_obj = env.Dist(obj, tcp);
    const double tcp_to_obj_init = env.Dist(obj, env.init_tcp);
    const double obj_to_target = std::abs(env.target_pos[1] - obj[1]);
    const double near_button = Tolerance(tcp_to_obj, 0, kWall ? 0.01 : 0.05, tcp_to_obj_init);
    const double button_pressed = Tolerance(obj_to_target, 0, 0.005, obj_to_target_init_);
    double reward = 0.0;
    if (kWall) {
      if (tcp_to_obj > 0.07) {
        const double tcp_status = (1 - obs[3]) / 2.0;
        reward = 2 * Hamacher(F64(tcp_status), F64(near_button)).v;
      } else {
        reward = 2;
        reward += 2 * (1 + obs[3]);
        reward += 4 * PyPow2(button_pressed);
      }
    } else {
      const double tcp_closed = 0.0 > obs[3] ? 0.0 : obs[3];  // max(obs[3], 0.0)
      reward = 2 * Hamacher(F64(tcp_closed), F64(near_button)).v;
      if (tcp_to_obj <= 0.05) reward += 8 * button_pressed;
    }
    SetInfo(info, {obj_to_target <= (kWall ? 0.03 : 0.02) ? 1.0 : 0.0,
                   tcp_to_obj <= 0.05 ? 1.0 : 0.0, obs[3] > 0 ? 1.0 : 0.0, near_button,
                   button_pressed, obj_to_target, reward});
    return reward;
  }

 private:
  double obj_to_target_init_ = 0;
};

}  // namespace envpool::metaworld
