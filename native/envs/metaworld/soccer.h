// soccer-v3: metaworld/envs/sawyer_soccer_v3.py (SawyerSoccerEnvV3, reward_function_version
// "v2").
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

class Soccer final : public SawyerTask {
 public:
  TaskConfig Config() const override {
    return HandConfig("sawyer_xyz/sawyer_soccer.xml", {0.0, 0.6, 0.2},
                      {-0.1, 0.6, 0.03, -0.1, 0.8, 0.0}, {0.1, 0.7, 0.03, 0.1, 0.9, 0.0},
                      {-0.1, 0.8, 0.0}, {0.1, 0.9, 0.0});
  }

  // Redrawn while the ball and the goal are closer than 0.15 in x-y.
  std::vector<double> DrawRandVec(Sawyer& env) const override {
    return env.RandVecApart(0.15);
  }
  void ModelWrites(Sawyer& env, const std::vector<double>& v) override {
    env.SetBodyPos(env.Id(mjOBJ_BODY, "goal_whole"), {v[3], v[4], v[5]});
  }

  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    env.target_pos = {v[3], v[4], v[5]};
    env.obj_init_pos = {v[0], v[1], 0.03};  // [goal_pos[:2], obj_init_pos[-1]]
    ModelWrites(env, v);
    env.SetObjXyz(env.obj_init_pos);
    env.SetGoalSite(env.target_pos);
  }

  // The ball's position, and the quaternion of its body's xmat.
  int Objects(const Sawyer& env, double* out) const override {
    const int ball = env.Id(mjOBJ_BODY, "soccer_ball");
    const Vec3 pos = env.BodyPos(ball);
    const auto quat = MatrixToQuat(env.data()->xmat + 9 * ball);
    std::copy(pos.begin(), pos.end(), out);
    std::copy(quat.begin(), quat.end(), out + 3);
    return 7;
  }

  double Evaluate(Sawyer& env, const double* obs, const float* /*action*/,
                  double* info) override {
    const double target_radius = 0.07, obj_radius = 0.013;
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const double tcp_opened = obs[3];
    const Vec3& target = env.target_pos;
    const double x_scaling[3] = {3.0, 1.0, 1.0};
    const double tcp_to_obj = env.Dist(obj, env.TcpCenter());
    double d[3], d_init[3];
    for (int i = 0; i < 3; ++i) {
      d[i] = (obj[i] - target[i]) * x_scaling[i];
      d_init[i] = (obj[i] - env.obj_init_pos[i]) * x_scaling[i];
    }
    const double target_to_obj = env.Norm(d, 3);
    const double target_to_obj_init = env.Norm(d_init, 3);
    double in_place = Tolerance(target_to_obj, 0, target_radius, target_to_obj_init);
    const double goal_line = target[1] - 0.1;
    if (obj[1] > goal_line && std::abs(obj[0] - target[0]) > 0.10) {
      in_place = std::min(
          std::max(in_place - 2 * ((obj[1] - goal_line) / (1 - goal_line)), 0.0), 1.0);
    }
    const double object_grasped = env.GrippingCagingReward(obs + 4, obj_radius, 0.01, 0.005);
    double reward = (3 * object_grasped) + (6.5 * in_place);
    if (target_to_obj < target_radius) reward = 10.0;
    const bool grasp_success = env.TouchingObject(env.Id(mjOBJ_GEOM, "objGeom")) &&
                               tcp_opened > 0 && obj[2] - 0.02 > env.obj_init_pos[2];
    // The info's distance (and its success) is the unscaled one compute_reward returns.
    const double obj_to_target = env.Dist(obj, target);
    SetInfo(info, {obj_to_target <= 0.07 ? 1.0 : 0.0, tcp_to_obj <= 0.03 ? 1.0 : 0.0,
                   grasp_success ? 1.0 : 0.0, object_grasped, in_place, obj_to_target, reward});
    return reward;
  }
};

}  // namespace envpool::metaworld
