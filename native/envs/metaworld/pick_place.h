// pick-place-v3: metaworld/envs/sawyer_pick_place_v3.py (reward_function_version "v2"),
// with its own _gripper_caging_reward.
#pragma once

#include <cmath>
#include <vector>

#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

class PickPlace final : public ObjectTask {
 public:
  TaskConfig Config() const override {
    return ObjectConfig("sawyer_xyz/sawyer_pick_place_v3.xml", {-0.1, 0.8, 0.05}, {0.1, 0.9, 0.3});
  }

  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    Ids(env);
    env.target_pos = {v[3], v[4], v[5]};
    env.obj_init_pos = {v[0], v[1], v[2]};
    env.init_tcp = env.TcpCenter();
    env.SetObjXyz(env.obj_init_pos);
    env.SetGoalSite(env.target_pos);
  }

  double Evaluate(Sawyer& env, const double* obs, const float* action, double* info) override {
    Ids(env);
    const Vec3 tcp = env.TcpCenter();
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const double tcp_opened = obs[3];
    const double obj_to_target = env.Dist(obj, env.target_pos);
    const double tcp_to_obj = env.Dist(obj, tcp);
    const double in_place_margin = env.Dist(env.obj_init_pos, env.target_pos);
    const double in_place = Tolerance(obj_to_target, 0, 0.05, in_place_margin);
    const Num object_grasped = CagingReward(env, action, obj);
    Num reward = Hamacher(object_grasped, F64(in_place));
    if (tcp_to_obj < 0.02 && tcp_opened > 0 && obj[2] - 0.01 > env.obj_init_pos[2]) {
      reward = Op(reward, F64(1.0 + 5.0 * in_place), '+');
    }
    if (obj_to_target < 0.05) reward = F64(10.0);
    const bool touching = env.TouchingObject(obj_geom_);
    SetInfo(info, {obj_to_target <= 0.07 ? 1.0 : 0.0, tcp_to_obj <= 0.03 ? 1.0 : 0.0,
                   touching && tcp_opened > 0 && obj[2] - 0.02 > env.obj_init_pos[2] ? 1.0 : 0.0,
                   object_grasped.v, in_place, obj_to_target, reward.v});
    return reward.v;
  }

 private:
  // SawyerPickPlaceEnvV3._gripper_caging_reward. init_left_pad and init_right_pad are
  // views of data.xpos in the package (get_body_com returns one), so they are the pads'
  // current positions.
  Num CagingReward(const Sawyer& env, const float* action, const Vec3& obj_pos) const {
    const double pad_success_margin = 0.05, x_z_success_margin = 0.005, obj_radius = 0.015;
    const Vec3 left_pad = env.BodyPos(env.leftpad_), right_pad = env.BodyPos(env.rightpad_);
    const double delta_object_y_left_pad = left_pad[1] - obj_pos[1];
    const double delta_object_y_right_pad = obj_pos[1] - right_pad[1];
    const double right_caging_margin =
        std::abs(std::abs(obj_pos[1] - right_pad[1]) - pad_success_margin);
    const double left_caging_margin =
        std::abs(std::abs(obj_pos[1] - left_pad[1]) - pad_success_margin);
    const double right_caging = Tolerance(delta_object_y_right_pad, obj_radius,
                                          pad_success_margin, right_caging_margin);
    const double left_caging =
        Tolerance(delta_object_y_left_pad, obj_radius, pad_success_margin, left_caging_margin);
    const Num y_caging = Hamacher(F64(left_caging), F64(right_caging));
    const auto [tcp_obj_norm_x_z, init_norm_x_z] = env.XzDistances(obj_pos);
    const double tcp_obj_x_z_margin = init_norm_x_z - x_z_success_margin;
    const double x_z_caging =
        Tolerance(tcp_obj_norm_x_z, 0, x_z_success_margin, tcp_obj_x_z_margin);
    // min(max(0, action[-1]), 1): the int 0, a float32, or the int 1.
    const float a = action[3];
    Num gripper_closed = F64(0.0);
    if (a > 0) gripper_closed = 1 < a ? F64(1.0) : Num{a, true};
    const Num caging = Hamacher(y_caging, F64(x_z_caging));
    const Num gripping = caging.v > 0.97 ? gripper_closed : F64(0.0);
    const Num caging_and_gripping = Hamacher(caging, gripping);
    return Op(Op(caging_and_gripping, caging, '+'), F64(2), '/');
  }
};

}  // namespace envpool::metaworld
