// dial-turn-v3: metaworld/envs/sawyer_dial_turn_v3.py (reward_function_version "v2").
#pragma once

#include <cmath>
#include <vector>

#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

class DialTurn final : public SawyerTask {
 public:
  static constexpr double kTargetRadius = 0.07;  // the class's TARGET_RADIUS

  TaskConfig Config() const override {
    TaskConfig c;
    c.xml = "sawyer_xyz/sawyer_dial.xml";
    c.hand_low = {-0.5, 0.40, 0.05};
    c.hand_high = {0.5, 1, 0.5};
    // np.array([0, 0.6, 0.2], dtype=np.float32)
    c.hand_init_pos = {0.0, static_cast<double>(0.6f), static_cast<double>(0.2f)};
    c.random_low = {-0.1, 0.7, 0.0};
    c.random_high = {0.1, 0.8, 0.0};
    c.goal_low = {-0.1, 0.73, 0.0299};
    c.goal_high = {0.1, 0.83, 0.0301};
    return c;
  }
  std::vector<double> DrawRandVec(Sawyer& env) const override { return env.RandVec(); }
  void ModelWrites(Sawyer& env, const std::vector<double>& v) override {
    env.SetBodyPos(env.Id(mjOBJ_BODY, "dial"), {v[0], v[1], v[2]});
  }

  // The push position is read before any mj_forward: the dial where _reset_hand left it.
  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    env.obj_init_pos = {v[0], v[1], v[2]};
    env.target_pos = {v[0] + 0, v[1] + 0.03, v[2] + 0.03};
    ModelWrites(env, v);
    dial_push_position_ = PushPosition(env);
    env.SetGoalSite(env.target_pos);
  }

  int Objects(const Sawyer& env, double* out) const override {
    const Vec3 pos = Dial(env);
    const auto quat = env.BodyQuat(env.Id(mjOBJ_BODY, "dial"));
    std::copy(pos.begin(), pos.end(), out);
    std::copy(quat.begin(), quat.end(), out + 3);
    return 7;
  }

  double Evaluate(Sawyer& env, const double* /*obs*/, const float* action,
                  double* info) override {
    const Vec3 obj = Dial(env);
    const Vec3 push = PushPosition(env);
    const Vec3 tcp = env.TcpCenter();
    const Vec3& target = env.target_pos;
    const double target_to_obj = env.Dist(obj, target);
    const double target_to_obj_init = env.Dist(dial_push_position_, target);
    const double in_place = Tolerance(target_to_obj, 0, kTargetRadius,
                                      std::abs(target_to_obj_init - kTargetRadius));
    const double dial_reach_radius = 0.005;
    const double tcp_to_obj = env.Dist(push, tcp);
    const double tcp_to_obj_init = env.Dist(dial_push_position_, env.init_tcp);
    const double reach_tol = ToleranceGaussian(tcp_to_obj, 0, dial_reach_radius,
                                               std::abs(tcp_to_obj_init - dial_reach_radius));
    // min(max(0, action[-1]), 1): the int 0, a float32, or the int 1.
    const float a = action[3];
    Num gripper_closed = F64(0.0);
    if (a > 0) gripper_closed = 1 < a ? F64(1.0) : Num{a, true};
    const Num reach = Hamacher(F64(reach_tol), gripper_closed);
    const Num reward = Op(F64(10), Hamacher(reach, F64(in_place)), '*');
    SetInfo(info, {target_to_obj <= kTargetRadius ? 1.0 : 0.0, tcp_to_obj <= 0.01 ? 1.0 : 0.0, 1.0,
                   reach.v, in_place, target_to_obj, reward.v});
    return reward.v;
  }

 private:
  // _get_pos_objects: the dial's center + 0.05 (sin, -cos, 0) of the knob's angle.
  static Vec3 Dial(const Sawyer& env) {
    const Vec3 center = env.BodyPos(env.Id(mjOBJ_BODY, "dial"));
    const double angle = env.JointQpos("knob_Joint_1");
    const double dial_radius = 0.05;
    const double offset[3] = {std::sin(angle) * dial_radius, -std::cos(angle) * dial_radius,
                              0.0 * dial_radius};
    return {center[0] + offset[0], center[1] + offset[1], center[2] + offset[2]};
  }
  static Vec3 PushPosition(const Sawyer& env) {
    const Vec3 p = Dial(env);
    return {p[0] + 0.05, p[1] + 0.02, p[2] + 0.09};
  }
  Vec3 dial_push_position_{};
};

}  // namespace envpool::metaworld
