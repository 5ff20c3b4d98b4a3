// push-wall-v3 and pick-place-wall-v3: metaworld/envs/sawyer_push_wall_v3.py and
// sawyer_pick_place_wall_v3.py (reward_function_version "v2"): an object to bring around
// the wall, by a midpoint, observed at its geom.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

// The wall tasks' object: geom "objGeom"'s position and quaternion.
class WallObjectTask : public ObjectTask {
 public:
  int Objects(const Sawyer& env, double* out) const override {
    Ids(env);
    const Vec3 pos = env.GeomPos(obj_geom_);
    const auto quat = env.GeomQuat(obj_geom_);
    std::copy(pos.begin(), pos.end(), out);
    std::copy(quat.begin(), quat.end(), out + 3);
    return 7;
  }

  // compute_reward's distances and in-place terms: by the midpoint (scaled), then to the
  // target, both with _TARGET_RADIUS 0.05.
  struct Terms {
    double tcp_to_obj, obj_to_target, in_place_part1, in_place_part2;
  };
  static Terms WallTerms(const Sawyer& env, const Vec3& obj, const Vec3& midpoint,
                         const std::array<double, 3>& scaling) {
    const double target_radius = 0.05;
    double d_mid[3], d_mid_init[3];
    for (int i = 0; i < 3; ++i) {
      d_mid[i] = (obj[i] - midpoint[i]) * scaling[i];
      d_mid_init[i] = (env.obj_init_pos[i] - midpoint[i]) * scaling[i];
    }
    const double obj_to_midpoint = env.Norm(d_mid, 3);
    const double obj_to_midpoint_init = env.Norm(d_mid_init, 3);
    const double obj_to_target = env.Dist(obj, env.target_pos);
    const double obj_to_target_init = env.Dist(env.obj_init_pos, env.target_pos);
    return {env.Dist(obj, env.TcpCenter()), obj_to_target,
            Tolerance(obj_to_midpoint, 0, target_radius, obj_to_midpoint_init),
            Tolerance(obj_to_target, 0, target_radius, obj_to_target_init)};
  }

  // evaluate_state's info, the reward given.
  void WallInfo(Sawyer& env, const Vec3& obj, double tcp_opened, const Terms& t,
                const Num& object_grasped, const Num& reward, double* info) const {
    const bool touching = env.TouchingObject(obj_geom_);
    SetInfo(info, {t.obj_to_target <= 0.07 ? 1.0 : 0.0, t.tcp_to_obj <= 0.03 ? 1.0 : 0.0,
                   touching && tcp_opened > 0 && obj[2] - 0.02 > env.obj_init_pos[2] ? 1.0 : 0.0,
                   object_grasped.v, t.in_place_part2, t.obj_to_target, reward.v});
  }

 protected:
  static TaskConfig WallConfig(const std::string& xml, const Vec3& goal_low,
                               const Vec3& goal_high) {
    return HandConfig(xml, {0, 0.6, 0.2},
                      {-0.05, 0.6, 0.015, goal_low[0], goal_low[1], goal_low[2]},
                      {0.05, 0.65, 0.015, goal_high[0], goal_high[1], goal_high[2]}, goal_low,
                      goal_high);
  }
};

class PushWall final : public WallObjectTask {
 public:
  TaskConfig Config() const override {
    return WallConfig("sawyer_xyz/sawyer_push_wall_v3.xml", {-0.05, 0.85, 0.01},
                      {0.05, 0.9, 0.02});
  }

  // The object and the goal take the height of the object's geom after _reset_hand
  // (adjust_initObjPos); the object is placed last.
  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    Ids(env);
    const double z = env.GeomPos(obj_geom_)[2];
    env.target_pos = {v[3], v[4], z};
    env.obj_init_pos = {v[0], v[1], z};
    env.SetGoalSite(env.target_pos);
    env.SetObjXyz(env.obj_init_pos);
  }

  double Evaluate(Sawyer& env, const double* obs, const float* action, double* info) override {
    Ids(env);
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const double tcp_opened = obs[3];
    const Terms t = WallTerms(env, obj, {-0.05, 0.77, obj[2]}, {3.0, 1.0, 1.0});
    const Num object_grasped =
        env.GripperCagingReward(action, obs + 4, 0.015, 0.05, 0.01, 0.005, 1.0, true, false);
    Num reward = Op(F64(2), object_grasped, '*');
    if (t.tcp_to_obj < 0.02 && tcp_opened > 0) {
      // 2.0 * object_grasped + 1.0 + 4.0 * in_place_part1
      reward = Op(Op(Op(F64(2.0), object_grasped, '*'), F64(1.0), '+'),
                  F64(4.0 * t.in_place_part1), '+');
      if (obj[1] > 0.75) {
        // 2 * object_grasped + 1.0 + 4.0 + 3.0 * in_place_part2
        reward = Op(Op(Op(Op(F64(2), object_grasped, '*'), F64(1.0), '+'), F64(4.0), '+'),
                    F64(3.0 * t.in_place_part2), '+');
      }
    }
    if (t.obj_to_target < 0.05) reward = F64(10.0);
    WallInfo(env, obj, tcp_opened, t, object_grasped, reward, info);
    return reward.v;
  }
};

class PickPlaceWall final : public WallObjectTask {
 public:
  TaskConfig Config() const override {
    return WallConfig("sawyer_xyz/sawyer_pick_place_wall_v3.xml", {-0.05, 0.85, 0.05},
                      {0.05, 0.9, 0.3});
  }

  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    env.target_pos = {v[3], v[4], v[5]};
    env.obj_init_pos = {v[0], v[1], v[2]};
    env.SetObjXyz(env.obj_init_pos);
    env.SetGoalSite(env.target_pos);
  }

  double Evaluate(Sawyer& env, const double* obs, const float* action, double* info) override {
    Ids(env);
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const double tcp_opened = obs[3];
    const Terms t = WallTerms(env, obj, {env.target_pos[0], 0.77, 0.25}, {1.0, 1.0, 3.0});
    const Num object_grasped =
        env.GripperCagingReward(action, obs + 4, 0.015, 0.05, 0.01, 0.005, 1.0, false, false);
    const Num grasped_in_place = Hamacher(object_grasped, F64(t.in_place_part1));
    Num reward = grasped_in_place;
    if (t.tcp_to_obj < 0.02 && tcp_opened > 0 && obj[2] - 0.015 > env.obj_init_pos[2]) {
      reward = Op(Op(grasped_in_place, F64(1.0), '+'), F64(4.0 * t.in_place_part1), '+');
      if (obj[1] > 0.75) {
        reward = Op(Op(Op(grasped_in_place, F64(1.0), '+'), F64(4.0), '+'),
                    F64(3.0 * t.in_place_part2), '+');
      }
    }
    if (t.obj_to_target < 0.05) reward = F64(10.0);
    WallInfo(env, obj, tcp_opened, t, object_grasped, reward, info);
    return reward.v;
  }
};

}  // namespace envpool::metaworld
