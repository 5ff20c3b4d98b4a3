// plate-slide-v3, plate-slide-back-v3, plate-slide-side-v3 and plate-slide-back-side-v3:
// metaworld/envs/sawyer_plate_slide_v3.py, sawyer_plate_slide_back_v3.py,
// sawyer_plate_slide_side_v3.py and sawyer_plate_slide_back_side_v3.py
// (reward_function_version "v2"): the puck slid into the goal, forward or back (kBack),
// straight or sideways (kSide, the sideways model).
//
// The package's quirks kept: plate-slide-back and plate-slide-side write the goal body's
// data.xpos, which the next mj_forward overwrites (so nothing here); plate-slide-back-side
// moves the goal body to the puck's start (obj_init_pos), not to the goal. Their
// _set_obj_xyz writes qpos[9:11] and keeps qvel.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

template <bool kBack, bool kSide>
class PlateSlide final : public SawyerTask {
 public:
  static constexpr double kTargetRadius = 0.05;

  TaskConfig Config() const override {
    // hand_init_pos: np.array((0, 0.6, 0.2), dtype=np.float32)
    TaskConfig c = SawyerConfig(kSide ? "sawyer_xyz/sawyer_plate_slide_sideway.xml"
                                      : "sawyer_xyz/sawyer_plate_slide.xml",
                                {0.0, static_cast<double>(0.6f), static_cast<double>(0.2f)});
    Vec3 obj{};
    if (kBack && kSide) {
      obj = {-0.25, 0.6, 0.0};
      c.goal_low = {-0.05, 0.6, 0.015};
      c.goal_high = {0.15, 0.6, 0.015};
    } else if (kBack) {
      obj = {0.0, 0.85, 0.0};
      c.goal_low = {-0.1, 0.6, 0.015};
      c.goal_high = {0.1, 0.6, 0.015};
    } else if (kSide) {
      obj = {0.0, 0.6, 0.0};
      c.goal_low = {-0.3, 0.54, 0.0};
      c.goal_high = {-0.25, 0.66, 0.0};
    } else {
      obj = {0.0, 0.6, 0.0};
      c.goal_low = {-0.1, 0.85, 0.0};
      c.goal_high = {0.1, 0.9, 0.0};
    }
    // np.hstack((obj_low, goal_low)), np.hstack((obj_high, goal_high))
    c.random_low = {obj[0], obj[1], obj[2], c.goal_low[0], c.goal_low[1], c.goal_low[2]};
    c.random_high = {obj[0], obj[1], obj[2], c.goal_high[0], c.goal_high[1], c.goal_high[2]};
    return c;
  }
  std::vector<double> DrawRandVec(Sawyer& env) const override { return env.RandVec(); }
  // self.model.body("puck_goal").pos: the goal (plate-slide) or the puck's start
  // (plate-slide-back-side).
  void ModelWrites(Sawyer& env, const std::vector<double>& v) override {
    if (kBack == kSide) {
      const int k = kBack ? 0 : 3;
      env.SetBodyPos(env.Id(mjOBJ_BODY, "puck_goal"), {v[k], v[k + 1], v[k + 2]});
    }
  }

  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    if (!kBack && !kSide) env.init_tcp = env.TcpCenter();
    env.obj_init_pos = {v[0], v[1], v[2]};
    env.target_pos = {v[3], v[4], v[5]};
    ModelWrites(env, v);
    // _set_obj_xyz: qpos[9:11], qvel kept.
    if (kBack && kSide) {
      env.SetQpos(9, {-0.15, 0.0}, 9, 9);
    } else if (kBack) {
      env.SetQpos(9, {0.0, 0.15}, 9, 9);
    } else {
      env.SetQpos(9, {0.0, 0.0}, 9, 9);
    }
    env.SetGoalSite(env.target_pos);
  }

  int Objects(const Sawyer& env, double* out) const override {
    const int puck = env.Id(mjOBJ_GEOM, "puck");
    return WriteObject(out, env.GeomPos(puck), env.GeomQuat(puck));
  }

  double Evaluate(Sawyer& env, const double* obs, const float* /*action*/,
                  double* info) override {
    const Vec3 tcp = env.TcpCenter();
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const Vec3& target = env.target_pos;
    const double obj_to_target = env.Dist(obj, target);
    const double in_place_margin = env.Dist(env.obj_init_pos, target);
    const double tcp_to_obj = env.Dist(tcp, obj);
    const double obj_grasped_margin = env.Dist(env.init_tcp, env.obj_init_pos);
    // Only plate-slide's margins are not less the target radius.
    const double less = (kBack || kSide) ? kTargetRadius : 0.0;
    const double in_place = Tolerance(obj_to_target, 0, kTargetRadius, in_place_margin - less);
    const double object_grasped =
        Tolerance(tcp_to_obj, 0, kTargetRadius, obj_grasped_margin - less);
    double reward = 0;
    if (kBack || kSide) {
      reward = 1.5 * object_grasped;
      if (tcp[2] <= 0.03 && tcp_to_obj < 0.07) reward = 2.0 + (7.0 * in_place);
    } else {
      reward = 8 * Hamacher(F64(object_grasped), F64(in_place)).v;
    }
    if (obj_to_target < kTargetRadius) reward = 10.0;
    SetInfo(info, {obj_to_target <= 0.07 ? 1.0 : 0.0, tcp_to_obj <= 0.03 ? 1.0 : 0.0, 0.0,
                   object_grasped, in_place, obj_to_target, reward});
    return reward;
  }
};

}  // namespace envpool::metaworld
