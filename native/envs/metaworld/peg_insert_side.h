// peg-insert-side-v3: metaworld/envs/sawyer_peg_insertion_side_v3.py
// (SawyerPegInsertionSideEnvV3, reward_function_version "v2").
#pragma once

#include <vector>

#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

// reward_utils.rect_prism_tolerance(curr, zero, one).
inline double RectPrismTolerance(const Vec3& curr, const Vec3& zero, const Vec3& one) {
  const auto in_range = [](double a, double b, double c) {
    return c >= b ? (b <= a && a <= c) : (c <= a && a <= b);
  };
  if (in_range(curr[0], zero[0], one[0]) && in_range(curr[1], zero[1], one[1]) &&
      in_range(curr[2], zero[2], one[2])) {
    const double x_scale = (curr[0] - zero[0]) / (one[0] - zero[0]);
    const double y_scale = (curr[1] - zero[1]) / (one[1] - zero[1]);
    const double z_scale = (curr[2] - zero[2]) / (one[2] - zero[2]);
    return x_scale * y_scale * z_scale;
  }
  return 1.0;
}

class PegInsertSide final : public SawyerTask {
 public:
  static constexpr double kTargetRadius = 0.07;  // the class's TARGET_RADIUS

  TaskConfig Config() const override {
    TaskConfig c;
    c.xml = "sawyer_xyz/sawyer_peg_insertion_side.xml";
    c.hand_low = {-0.5, 0.40, 0.05};
    c.hand_high = {0.5, 1, 0.5};
    c.hand_init_pos = {0.0, 0.6, 0.2};
    c.random_low = {0.0, 0.5, 0.02, -0.35, 0.4, -0.001};
    c.random_high = {0.2, 0.7, 0.02, -0.25, 0.7, 0.001};
    c.goal_low = {-0.35 + 0.03, 0.4 + 0.0, -0.001 + 0.13};
    c.goal_high = {-0.25 + 0.03, 0.7 + 0.0, 0.001 + 0.13};
    return c;
  }

  // Redrawn while the peg and the box are closer than 0.1 in x-y.
  std::vector<double> DrawRandVec(Sawyer& env) const override {
    std::vector<double> v = env.RandVec();
    while (env.blas().Norm2(v[0] - v[3], v[1] - v[4]) < 0.1) v = env.RandVec();
    return v;
  }
  void ModelWrites(Sawyer& env, const std::vector<double>& v) override {
    env.SetBodyPos(env.Id(mjOBJ_BODY, "box"), {v[3], v[4], v[5]});
  }

  // The box moves after _set_obj_xyz's mj_forward, as in the package.
  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    env.obj_init_pos = {v[0], v[1], v[2]};
    peg_head_pos_init_ = env.SitePos(env.Id(mjOBJ_SITE, "pegHead"));
    env.SetObjXyz(env.obj_init_pos);
    ModelWrites(env, v);
    env.target_pos = {v[3] + 0.03, v[4] + 0.0, v[5] + 0.13};
    env.SetGoalSite(env.target_pos);
  }

  int Objects(const Sawyer& env, double* out) const override {
    const int site = env.Id(mjOBJ_SITE, "pegGrasp");
    const Vec3 pos = env.SitePos(site);
    const auto quat = MatrixToQuat(env.data()->site_xmat + 9 * site);
    std::copy(pos.begin(), pos.end(), out);
    std::copy(quat.begin(), quat.end(), out + 3);
    return 7;
  }

  double Evaluate(Sawyer& env, const double* obs, const float* action, double* info) override {
    const Vec3 tcp = env.TcpCenter();
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const Vec3 obj_head = Site(env, "pegHead");
    const double tcp_opened = obs[3];
    const Vec3& target = env.target_pos;
    const double tcp_to_obj = env.Dist(obj, tcp);
    const double scale[3] = {1.0, 2.0, 2.0};
    double d[3], d_init[3];
    for (int i = 0; i < 3; ++i) {
      d[i] = (obj_head[i] - target[i]) * scale[i];
      d_init[i] = (peg_head_pos_init_[i] - target[i]) * scale[i];
    }
    const double obj_to_target = env.Norm(d, 3);
    const double in_place_margin = env.Norm(d_init, 3);
    double in_place = Tolerance(obj_to_target, 0, kTargetRadius, in_place_margin);
    const double box_1 = RectPrismTolerance(obj_head,
                                            Site(env, "bottom_right_corner_collision_box_1"),
                                            Site(env, "top_left_corner_collision_box_1"));
    const double box_2 = RectPrismTolerance(obj_head,
                                            Site(env, "bottom_right_corner_collision_box_2"),
                                            Site(env, "top_left_corner_collision_box_2"));
    const double collision_boxes = Hamacher(F64(box_2), F64(box_1)).v;
    in_place = Hamacher(F64(in_place), F64(collision_boxes)).v;
    Num object_grasped =
        env.GripperCagingReward(action, obs + 4, 0.0075, 0.03, 0.01, 0.005, 1.0, true, false);
    const bool lifted =
        tcp_to_obj < 0.08 && tcp_opened > 0 && obj[2] - 0.01 > env.obj_init_pos[2];
    if (lifted) object_grasped = F64(1.0);
    Num reward = Hamacher(object_grasped, F64(in_place));
    if (lifted) reward = Op(reward, F64(1.0 + 5 * in_place), '+');
    if (obj_to_target <= 0.07) reward = F64(10.0);
    const bool grasp_success =
        tcp_to_obj < 0.02 && tcp_opened > 0 && obj[2] - 0.01 > env.obj_init_pos[2];
    SetInfo(info, {obj_to_target <= 0.07 ? 1.0 : 0.0, tcp_to_obj <= 0.03 ? 1.0 : 0.0,
                   grasp_success ? 1.0 : 0.0, object_grasped.v, in_place, obj_to_target,
                   reward.v});
    return reward.v;
  }

 private:
  static Vec3 Site(const Sawyer& env, const char* name) {
    return env.SitePos(env.Id(mjOBJ_SITE, name));
  }
  Vec3 peg_head_pos_init_{};
};

}  // namespace envpool::metaworld
