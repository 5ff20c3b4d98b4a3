// basketball-v3: metaworld/envs/sawyer_basketball_v3.py (SawyerBasketballEnvV3,
// reward_function_version "v2").
//
// Its _target_pos is a view of data.site("goal").xpos: it follows every mj_forward. The
// reset also writes that world position into the goal site's local pos (the site sits in
// the hoop, 0.25 above the basket), so the target moves with each reset, as the package's
// does.
#pragma once

#include <vector>

#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

class Basketball final : public SawyerTask {
 public:
  TaskConfig Config() const override {
    return HandConfig("sawyer_xyz/sawyer_basketball.xml", Float32Vec(0, 0.6f, 0.2f),
                      {-0.1, 0.6, 0.0299, -0.1, 0.85, 0.0},
                      {0.1, 0.7, 0.0301, 0.1, 0.9 + 1e-7, 0.0},
                      {-0.1 + 0, 0.85 + -0.083, 0.0 + 0.2499},
                      {0.1 + 0, (0.9 + 1e-7) + -0.083, 0.0 + 0.2501});
  }

  // Redrawn while the ball and the basket are closer than 0.15 in x-y.
  std::vector<double> DrawRandVec(Sawyer& env) const override {
    return env.RandVecApart(0.15);
  }
  // The basket moved, and the goal site's local pos set to its world position after an
  // mj_forward (the hoop has no joint: the site's position does not depend on the state).
  void ModelWrites(Sawyer& env, const std::vector<double>& v) override {
    env.SetBodyPos(env.Id(mjOBJ_BODY, "basket_goal"), {v[3], v[4], v[5]});
    env.Forward();
    env.SetGoalSite(env.SitePos(Goal(env)));
  }

  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    // [goal_pos[:2], obj_init_pos[-1]]: the float32 0.03 of init_config.
    env.obj_init_pos = {v[0], v[1], static_cast<double>(0.03f)};
    env.SetBodyPos(env.Id(mjOBJ_BODY, "basket_goal"), {v[3], v[4], v[5]});
    env.SetObjXyz(env.obj_init_pos);  // its mj_forward moves the view
    env.target_pos = env.SitePos(Goal(env));
    env.SetGoalSite(env.target_pos);
  }
  void AfterForward(Sawyer& env) override { env.target_pos = env.SitePos(Goal(env)); }

  int Objects(const Sawyer& env, double* out) const override {
    return env.BodyPosQuat(env.Id(mjOBJ_BODY, "bsktball"), out);
  }

  double Evaluate(Sawyer& env, const double* obs, const float* action, double* info) override {
    const double target_radius = 0.08;
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    Vec3 target = env.target_pos;
    target[2] = 0.3;
    const double scale[3] = {1.0, 1.0, 2.0};
    double d[3], d_init[3];
    for (int i = 0; i < 3; ++i) {
      d[i] = (obj[i] - target[i]) * scale[i];
      d_init[i] = (env.obj_init_pos[i] - target[i]) * scale[i];
    }
    const double target_to_obj = env.Norm(d, 3);
    const double target_to_obj_init = env.Norm(d_init, 3);
    const double in_place = Tolerance(target_to_obj, 0, target_radius, target_to_obj_init);
    const double tcp_opened = obs[3];
    const double tcp_to_obj = env.Dist(obj, env.TcpCenter());
    Num object_grasped =
        env.GripperCagingReward(action, obs + 4, 0.025, 0.06, 0.01, 0.005, 1.0, true, false);
    const bool lifted =
        tcp_to_obj < 0.035 && tcp_opened > 0 && obj[2] - 0.01 > env.obj_init_pos[2];
    if (lifted) object_grasped = F64(1.0);
    Num reward = Hamacher(object_grasped, F64(in_place));
    if (lifted) reward = Op(reward, F64(1.0 + 5.0 * in_place), '+');
    if (target_to_obj < target_radius) reward = F64(10.0);
    SetInfo(info, {target_to_obj <= target_radius ? 1.0 : 0.0, tcp_to_obj <= 0.05 ? 1.0 : 0.0,
                   tcp_opened > 0 && obj[2] - 0.03 > env.obj_init_pos[2] ? 1.0 : 0.0,
                   object_grasped.v, in_place, target_to_obj, reward.v});
    return reward.v;
  }

 private:
  static int Goal(const Sawyer& env) { return env.Id(mjOBJ_SITE, "goal"); }
};

}  // namespace envpool::metaworld
