// The _gripper_caging_reward of push-back-v3 and sweep-v3 (sawyer_push_back_v3.py,
// sawyer_sweep_v3.py): caging and gripping in y between the pads, caging in x-z, no
// gripper effort; the two differ in the gripping and x-z margins.
#pragma once

#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

// init_left_pad and init_right_pad are views of data.xpos in the package (the pads'
// current positions), as pick_place.h notes. Every term is a Python float.
inline double YCagingReward(const Sawyer& env, const Vec3& obj_pos, double obj_radius,
                            double grip_success_margin, double x_z_success_margin) {
  const double pad_success_margin = 0.05;
  const Vec3 left_pad = env.BodyPos(env.leftpad_), right_pad = env.BodyPos(env.rightpad_);
  const double delta_left = left_pad[1] - obj_pos[1];
  const double delta_right = obj_pos[1] - right_pad[1];
  const double right_margin = std::abs(std::abs(obj_pos[1] - right_pad[1]) - pad_success_margin);
  const double left_margin = std::abs(std::abs(obj_pos[1] - left_pad[1]) - pad_success_margin);
  const double right_caging = Tolerance(delta_right, obj_radius, pad_success_margin, right_margin);
  const double left_caging = Tolerance(delta_left, obj_radius, pad_success_margin, left_margin);
  const double right_gripping =
      Tolerance(delta_right, obj_radius, grip_success_margin, right_margin);
  const double left_gripping = Tolerance(delta_left, obj_radius, grip_success_margin, left_margin);
  const Num y_caging = Hamacher(F64(right_caging), F64(left_caging));
  const Num y_gripping = Hamacher(F64(right_gripping), F64(left_gripping));
  const auto [tcp_obj_norm_x_z, init_norm_x_z] = env.XzDistances(obj_pos);
  const double tcp_obj_x_z_margin = init_norm_x_z - x_z_success_margin;
  const double x_z_caging =
      Tolerance(tcp_obj_norm_x_z, 0, x_z_success_margin, tcp_obj_x_z_margin);
  const Num caging = Hamacher(y_caging, F64(x_z_caging));
  const Num gripping = caging.v > 0.95 ? y_gripping : F64(0.0);
  return (caging.v + gripping.v) / 2;
}

}  // namespace envpool::metaworld
