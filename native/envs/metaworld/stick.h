// stick-pull-v3 and stick-push-v3: metaworld/envs/sawyer_stick_pull_v3.py and
// sawyer_stick_push_v3.py (reward_function_version "v2"), which share the model (the stick
// and the thermos on two slides), the observation and the reset, and differ in the ranges,
// the thermos's observed site, the target's height and the reward.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

template <bool kPush>
class Stick final : public SawyerTask {
 public:
  TaskConfig Config() const override {
    if (kPush) {
      return HandConfig("sawyer_xyz/sawyer_stick_obj.xml", {0, 0.6, 0.2},
                        {-0.08, 0.58, 0.000, 0.399, 0.55, 0.1319},
                        {-0.03, 0.62, 0.001, 0.401, 0.6, 0.1321}, {0.399, 0.55, 0.1319},
                        {0.401, 0.6, 0.1321});
    }
    TaskConfig c = HandConfig("sawyer_xyz/sawyer_stick_obj.xml", {0, 0.6, 0.2},
                              {-0.1, 0.55, 0.000, 0.35, 0.45, 0.0199},
                              {0.0, 0.65, 0.001, 0.45, 0.55, 0.0201}, {0.35, 0.45, 0.0199},
                              {0.45, 0.55, 0.0201});
    c.hand_low[1] = 0.35;
    return c;
  }

  // Redrawn while the stick and the goal are closer than 0.1 in x-y.
  std::vector<double> DrawRandVec(Sawyer& env) const override { return env.RandVecApart(0.1); }

  // The push target's height is the thermos's insertion site's before the stick moves.
  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    stick_init_pos_ = {v[0], v[1], 0.02};  // [goal_pos[:2], stick_init_pos[-1]]
    const double target_z = kPush ? env.SitePos(Site(env, "insertion"))[2] : 0.02;
    env.target_pos = {v[3], v[4], target_z};
    env.SetObjXyz(stick_init_pos_);  // _set_stick_xyz
    // _set_obj_xyz(obj_init_qpos): the thermos's two slides, qvel[16:18] = 0 (only 16
    // exists: nv is 17).
    env.SetQpos(16, {0.0, kPush ? 0.0 : 0.09}, 16, 18);
    env.obj_init_pos = env.BodyPos(env.Id(mjOBJ_BODY, "object"));
    env.SetGoalSite(env.target_pos);
  }

  // The stick (position, its body's xmat as a quaternion) and the thermos's insertion site
  // (moved by 0.09 in y for push) with a zero quaternion.
  int Objects(const Sawyer& env, double* out) const override {
    const int stick = env.Id(mjOBJ_BODY, "stick");
    const Vec3 pos = env.BodyPos(stick);
    const auto quat = MatrixToQuat(env.data()->xmat + 9 * stick);
    Vec3 insertion = env.SitePos(Site(env, "insertion"));
    if (kPush) insertion = {insertion[0] + 0.0, insertion[1] + 0.09, insertion[2] + 0.0};
    std::copy(pos.begin(), pos.end(), out);
    std::copy(quat.begin(), quat.end(), out + 3);
    std::copy(insertion.begin(), insertion.end(), out + 7);
    std::fill(out + 10, out + 14, 0.0);
    return 14;
  }

  double Evaluate(Sawyer& env, const double* obs, const float* action, double* info) override {
    return kPush ? EvaluatePush(env, obs, action, info) : EvaluatePull(env, obs, action, info);
  }

 private:
  static int Site(const Sawyer& env, const char* name) { return env.Id(mjOBJ_SITE, name); }

  double EvaluatePull(Sawyer& env, const double* obs, const float* action, double* info) {
    const double target_radius = 0.05;
    const Vec3 tcp = env.TcpCenter();
    const Vec3 stick = {obs[4], obs[5], obs[6]};
    const Vec3 end_of_stick = env.SitePos(Site(env, "stick_end"));
    const Vec3 handle = {obs[11], obs[12], obs[13]};
    const Vec3 container = {obs[11] + 0.05, obs[12] + 0.0, obs[13] + 0.0};
    const Vec3& init = env.obj_init_pos;
    const Vec3 container_init = {init[0] + 0.05, init[1] + 0.0, init[2] + 0.0};
    const double tcp_opened = obs[3];
    const Vec3& target = env.target_pos;
    const double tcp_to_stick = env.Dist(stick, tcp);
    const double handle_to_target = env.Dist(handle, target);
    const double yz_scaling[3] = {1.0, 1.0, 2.0};
    double d[3], d_init[3];
    for (int i = 0; i < 3; ++i) {
      d[i] = (stick[i] - container[i]) * yz_scaling[i];
      d_init[i] = (stick_init_pos_[i] - container_init[i]) * yz_scaling[i];
    }
    const double stick_in_place =
        Tolerance(env.Norm(d, 3), 0, target_radius, env.Norm(d_init, 3));
    const double stick_in_place_2 = Tolerance(env.Dist(stick, target), 0, target_radius,
                                              env.Dist(stick_init_pos_, target));
    const double container_in_place = Tolerance(env.Dist(container, target), 0, target_radius,
                                                env.Dist(env.obj_init_pos, target));
    Num object_grasped =
        env.GripperCagingReward(action, obs + 4, 0.014, 0.05, 0.01, 0.01, 1.0, true, false);
    const bool grasp_success =
        tcp_to_stick < 0.02 && tcp_opened > 0 && stick[2] - 0.01 > stick_init_pos_[2];
    if (grasp_success) object_grasped = F64(1.0);  // the int 1
    const Num in_place_and_object_grasped = Hamacher(object_grasped, F64(stick_in_place));
    const bool inserted = Inserted(handle, end_of_stick);
    Num reward = in_place_and_object_grasped;
    if (grasp_success) {
      reward = Op(Op(F64(1.0), in_place_and_object_grasped, '+'), F64(5.0 * stick_in_place), '+');
      if (inserted) {
        reward = Op(Op(Op(Op(F64(1.0), in_place_and_object_grasped, '+'), F64(5.0), '+'),
                       F64(2.0 * stick_in_place_2), '+'),
                    F64(1.0 * container_in_place), '+');
        if (handle_to_target <= 0.12) reward = F64(10.0);
      }
    }
    const bool touching = env.TouchingObject(env.Id(mjOBJ_GEOM, "objGeom"));
    SetInfo(info, {handle_to_target <= 0.12 && inserted ? 1.0 : 0.0,
                   tcp_to_stick <= 0.03 ? 1.0 : 0.0,
                   touching && tcp_opened > 0 && stick[2] - 0.02 > env.obj_init_pos[2] ? 1.0 : 0.0,
                   object_grasped.v, stick_in_place, handle_to_target, reward.v});
    return reward.v;
  }

  // _stick_is_inserted.
  static bool Inserted(const Vec3& handle, const Vec3& end_of_stick) {
    return end_of_stick[0] >= handle[0] && std::abs(end_of_stick[1] - handle[1]) <= 0.040 &&
           std::abs(end_of_stick[2] - handle[2]) <= 0.060;
  }

  double EvaluatePush(Sawyer& env, const double* obs, const float* action, double* info) {
    const double target_radius = 0.12;
    const Vec3 tcp = env.TcpCenter();
    const Vec3 stick = {obs[4] + 0.015, obs[5] + 0.0, obs[6] + 0.0};
    const Vec3 container = {obs[11], obs[12], obs[13]};
    const double tcp_opened = obs[3];
    const Vec3& target = env.target_pos;
    const double tcp_to_stick = env.Dist(stick, tcp);
    const double stick_in_place =
        Tolerance(env.Dist(stick, target), 0, target_radius,
                  env.Dist(stick_init_pos_, target) - target_radius);
    const double container_to_target = env.Dist(container, target);
    const double container_in_place =
        Tolerance(container_to_target, 0, target_radius,
                  env.Dist(env.obj_init_pos, target) - target_radius);
    // Its own _gripper_caging_reward: the base's with stick_init_pos for obj_init_pos.
    Num object_grasped = env.GripperCagingReward(action, stick.data(), 0.04, 0.05, 0.01, 0.01,
                                                 1.0, true, false, &stick_init_pos_);
    Num reward = object_grasped;
    if (tcp_to_stick < 0.02 && tcp_opened > 0 && stick[2] - 0.01 > stick_init_pos_[2]) {
      object_grasped = F64(1.0);  // the int 1
      reward = F64(2.0 + 5.0 * stick_in_place + 3.0 * container_in_place);
      if (container_to_target <= target_radius) reward = F64(10.0);
    }
    // evaluate_state's stick is the observed one, not moved by 0.015.
    const bool grasp_success = env.TouchingObject(env.Id(mjOBJ_GEOM, "objGeom")) &&
                               tcp_opened > 0 && obs[6] - 0.01 > stick_init_pos_[2];
    const bool success = container_to_target <= 0.12;
    SetInfo(info, {grasp_success && success ? 1.0 : 0.0, tcp_to_stick <= 0.03 ? 1.0 : 0.0,
                   grasp_success ? 1.0 : 0.0, object_grasped.v, stick_in_place,
                   container_to_target, reward.v});
    return reward.v;
  }

  Vec3 stick_init_pos_{};
};

}  // namespace envpool::metaworld
