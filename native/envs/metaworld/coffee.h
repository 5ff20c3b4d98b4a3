// coffee-button-v3, coffee-push-v3 and coffee-pull-v3: metaworld/envs/sawyer_coffee_button_v3.py,
// sawyer_coffee_push_v3.py and sawyer_coffee_pull_v3.py (reward_function_version "v2"), on the
// one coffee-machine model. Their _set_obj_xyz writes qpos[0:3] (the mug's free joint) and
// zeroes qvel[9:15], as the package's does.
#pragma once

#include <cmath>
#include <vector>

#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

// The coffee tasks' model and hand.
inline TaskConfig CoffeeConfig() {
  TaskConfig c;
  c.xml = "sawyer_xyz/sawyer_coffee.xml";
  c.hand_low = {-0.5, 0.40, 0.05};
  c.hand_high = {0.5, 1, 0.5};
  c.hand_init_pos = {0.0, 0.4, 0.2};
  return c;
}

// The coffee tasks' _set_obj_xyz.
inline void SetMugXyz(Sawyer& env, const Vec3& pos) {
  env.SetQpos(0, {pos[0], pos[1], pos[2]}, 9, 15);
}

class CoffeeButton final : public SawyerTask {
 public:
  static constexpr double kMaxDist = 0.03;  // self.max_dist

  TaskConfig Config() const override {
    TaskConfig c = CoffeeConfig();
    const Vec3 obj_low = {-0.1, 0.8, -0.001}, obj_high = {0.1, 0.9, +0.001};
    c.random_low = {obj_low[0], obj_low[1], obj_low[2]};
    c.random_high = {obj_high[0], obj_high[1], obj_high[2]};
    // obj_low + np.array([-0.001, -0.22 + max_dist, 0.299]), and the same for high.
    c.goal_low = {obj_low[0] + -0.001, obj_low[1] + (-0.22 + kMaxDist), obj_low[2] + 0.299};
    c.goal_high = {obj_high[0] + 0.001, obj_high[1] + (-0.22 + kMaxDist), obj_high[2] + 0.301};
    c.target_site = "coffee_goal";
    return c;
  }
  std::vector<double> DrawRandVec(Sawyer& env) const override { return env.RandVec(); }
  void ModelWrites(Sawyer& env, const std::vector<double>& v) override {
    env.SetBodyPos(env.Id(mjOBJ_BODY, "coffee_machine"), {v[0], v[1], v[2]});
  }

  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    env.obj_init_pos = {v[0], v[1], v[2]};
    ModelWrites(env, v);
    SetMugXyz(env, {v[0] + 0.0, v[1] + -0.22, v[2] + 0.0});
    const Vec3 button = {v[0] + 0.0, v[1] + -0.22, v[2] + 0.3};
    env.target_pos = {button[0] + 0.0, button[1] + kMaxDist, button[2] + 0.0};
  }

  int Objects(const Sawyer& env, double* out) const override {
    const Vec3 pos = env.SitePos(env.Id(mjOBJ_SITE, "buttonStart"));
    std::copy(pos.begin(), pos.end(), out);
    const double quat[4] = {1.0, 0.0, 0.0, 0.0};
    std::copy(quat, quat + 4, out + 3);
    return 7;
  }

  double Evaluate(Sawyer& env, const double* obs, const float* /*action*/,
                  double* info) override {
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const Vec3 tcp = env.TcpCenter();
    const double tcp_to_obj = env.Dist(obj, tcp);
    const double tcp_to_obj_init = env.Dist(obj, env.init_tcp);
    const double obj_to_target = std::abs(env.target_pos[1] - obj[1]);
    const double tcp_closed = 0.0 > obs[3] ? 0.0 : obs[3];  // max(obs[3], 0.0)
    const double near_button = Tolerance(tcp_to_obj, 0, 0.05, tcp_to_obj_init);
    const double button_pressed = Tolerance(obj_to_target, 0, 0.005, kMaxDist);
    double reward = 2 * Hamacher(F64(tcp_closed), F64(near_button)).v;
    if (tcp_to_obj <= 0.05) reward += 8 * button_pressed;
    SetInfo(info, {obj_to_target <= 0.02 ? 1.0 : 0.0, tcp_to_obj <= 0.05 ? 1.0 : 0.0,
                   obs[3] > 0 ? 1.0 : 0.0, near_button, button_pressed, obj_to_target, reward});
    return reward;
  }
};

// coffee-push-v3 (kPull false) and coffee-pull-v3, which differ in the ranges, where the
// machine stands (behind the goal, or behind the mug) and the target site.
template <bool kPull>
class CoffeeMug final : public SawyerTask {
 public:
  TaskConfig Config() const override {
    TaskConfig c = CoffeeConfig();
    if (kPull) {
      c.random_low = {-0.05, 0.7, -0.001, -0.1, 0.55, -0.001};
      c.random_high = {0.05, 0.75, +0.001, 0.1, 0.65, +0.001};
    } else {
      c.random_low = {-0.1, 0.55, -0.001, -0.05, 0.7, -0.001};
      c.random_high = {0.1, 0.65, +0.001, 0.05, 0.75, +0.001};
    }
    c.goal_low = {c.random_low[3], c.random_low[4], c.random_low[5]};
    c.goal_high = {c.random_high[3], c.random_high[4], c.random_high[5]};
    c.target_site = kPull ? "mug_goal" : "coffee_goal";
    return c;
  }

  // Redrawn while the mug and its goal are closer than 0.15 in x-y.
  std::vector<double> DrawRandVec(Sawyer& env) const override {
    std::vector<double> v = env.RandVec();
    while (env.blas().Norm2(v[0] - v[3], v[1] - v[4]) < 0.15) v = env.RandVec();
    return v;
  }
  void ModelWrites(Sawyer& env, const std::vector<double>& v) override {
    const int i = kPull ? 0 : 3;  // pos_mug_init or pos_mug_goal, + (0, 0.22, 0)
    env.SetBodyPos(env.Id(mjOBJ_BODY, "coffee_machine"),
                   {v[i] + 0.0, v[i + 1] + 0.22, v[i + 2] + 0.0});
  }

  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    SetMugXyz(env, {v[0], v[1], v[2]});
    env.obj_init_pos = {v[0], v[1], v[2]};
    ModelWrites(env, v);
    env.target_pos = {v[3], v[4], v[5]};
    env.SetSitePos("mug_goal", env.target_pos);
  }

  int Objects(const Sawyer& env, double* out) const override {
    const Vec3 pos = env.BodyPos(env.Id(mjOBJ_BODY, "obj"));
    const auto quat = env.GeomQuat(env.Id(mjOBJ_GEOM, "mug"));
    std::copy(pos.begin(), pos.end(), out);
    std::copy(quat.begin(), quat.end(), out + 3);
    return 7;
  }

  double Evaluate(Sawyer& env, const double* obs, const float* action, double* info) override {
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const Vec3& target = env.target_pos;
    const double scale[3] = {2.0, 2.0, 1.0};
    double d[3], d_init[3];
    for (int i = 0; i < 3; ++i) {
      d[i] = (obj[i] - target[i]) * scale[i];
      d_init[i] = (env.obj_init_pos[i] - target[i]) * scale[i];
    }
    const double target_to_obj = env.Norm(d, 3);
    const double target_to_obj_init = env.Norm(d_init, 3);
    const double in_place = Tolerance(target_to_obj, 0, 0.05, target_to_obj_init);
    const double tcp_opened = obs[3];
    const double tcp_to_obj = env.Dist(obj, env.TcpCenter());
    const Num object_grasped =
        env.GripperCagingReward(action, obs + 4, 0.02, 0.05, 0.04, 0.05, 0.7, false, true);
    Num reward = Hamacher(object_grasped, F64(in_place));
    if (tcp_to_obj < 0.04 && tcp_opened > 0) reward = Op(reward, F64(1.0 + 5.0 * in_place), '+');
    if (target_to_obj < 0.05) reward = F64(10.0);
    const double obj_to_target = env.Dist(obj, target);
    const bool touching = env.TouchingObject(env.Id(mjOBJ_GEOM, "mug"));
    SetInfo(info, {obj_to_target <= 0.07 ? 1.0 : 0.0, tcp_to_obj <= 0.03 ? 1.0 : 0.0,
                   touching && tcp_opened > 0 ? 1.0 : 0.0, object_grasped.v, in_place,
                   obj_to_target, reward.v});
    return reward.v;
  }
};

}  // namespace envpool::metaworld
