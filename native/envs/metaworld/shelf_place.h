// shelf-place-v3: metaworld/envs/sawyer_shelf_place_v3.py (SawyerShelfPlaceEnvV3,
// reward_function_version "v2").
#pragma once

#include <algorithm>
#include <vector>

#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

class ShelfPlace final : public SawyerTask {
 public:
  TaskConfig Config() const override {
    return HandConfig("sawyer_xyz/sawyer_shelf_placing.xml", Float32Vec(0, 0.6f, 0.2f),
                      {-0.1, 0.5, 0.019, -0.1, 0.8, 0.299}, {0.1, 0.6, 0.021, 0.1, 0.9, 0.301},
                      {-0.1, 0.8, 0.299}, {0.1, 0.9, 0.301});
  }

  // Redrawn while the object and the shelf are closer than 0.1 in x-y.
  std::vector<double> DrawRandVec(Sawyer& env) const override {
    return env.RandVecApart(0.1);
  }
  void ModelWrites(Sawyer& env, const std::vector<double>& v) override {
    env.SetBodyPos(env.Id(mjOBJ_BODY, "shelf"), {v[3] - 0, v[4] - 0, v[5] - 0.3});
  }

  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    // adjust_initObjPos: only its z survives, the object's height after _reset_hand.
    const double obj_z = env.BodyPos(env.Id(mjOBJ_BODY, "obj"))[2];
    env.obj_init_pos = {v[0] - 0, v[1] - 0, obj_z};
    ModelWrites(env, v);
    env.Forward();
    const mjModel* m = env.model();
    const int goal = env.Id(mjOBJ_SITE, "goal"), shelf = env.Id(mjOBJ_BODY, "shelf");
    for (int i = 0; i < 3; ++i) {
      env.target_pos[i] = m->site_pos[3 * goal + i] + m->body_pos[3 * shelf + i];
    }
    env.SetObjXyz(env.obj_init_pos);
  }

  int Objects(const Sawyer& env, double* out) const override {
    return env.BodyPosGeomQuat(env.Id(mjOBJ_BODY, "obj"), env.Id(mjOBJ_GEOM, "objGeom"), out);
  }

  double Evaluate(Sawyer& env, const double* obs, const float* action, double* info) override {
    const double target_radius = 0.05;
    const Vec3 tcp = env.TcpCenter();
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const double tcp_opened = obs[3];
    const Vec3& target = env.target_pos;
    const double obj_to_target = env.Dist(obj, target);
    const double tcp_to_obj = env.Dist(obj, tcp);
    const double in_place_margin = env.Dist(env.obj_init_pos, target);
    Num in_place = F64(Tolerance(obj_to_target, 0, target_radius, in_place_margin));
    const Num object_grasped =
        env.GripperCagingReward(action, obs + 4, 0.02, 0.05, 0.01, 0.01, 1.0, false, false);
    Num reward = Hamacher(object_grasped, in_place);
    const bool in_x = target[0] - 0.15 < obj[0] && obj[0] < target[0] + 0.15;
    const bool low = 0.0 < obj[2] && obj[2] < 0.24;
    if (low && in_x && target[1] - 3 * target_radius < obj[1] && obj[1] < target[1]) {
      // obs's elements are np.float64: so are the scalings, the loss and np.clip's result.
      const Num z_scaling = NpF64((0.24 - obj[2]) / 0.24);
      const Num y_scaling =
          NpF64((obj[1] - (target[1] - 3 * target_radius)) / (3 * target_radius));
      const Num bound_loss = Hamacher(y_scaling, z_scaling);
      in_place = NpF64(std::min(std::max(Op(in_place, bound_loss, '-').v, 0.0), 1.0));
    }
    if (low && in_x && obj[1] > target[1]) in_place = F64(0.0);
    if (tcp_to_obj < 0.025 && tcp_opened > 0 && obj[2] - 0.01 > env.obj_init_pos[2]) {
      reward = Op(reward, Op(F64(1.0), Op(F64(5.0), in_place, '*'), '+'), '+');
    }
    if (obj_to_target < target_radius) reward = F64(10.0);
    const bool grasp_success = env.TouchingObject(env.Id(mjOBJ_GEOM, "objGeom")) &&
                               tcp_opened > 0 && obj[2] - 0.02 > env.obj_init_pos[2];
    SetInfo(info, {obj_to_target <= 0.07 ? 1.0 : 0.0, tcp_to_obj <= 0.03 ? 1.0 : 0.0,
                   grasp_success ? 1.0 : 0.0, object_grasped.v, in_place.v, obj_to_target,
                   reward.v});
    return reward.v;
  }
};

}  // namespace envpool::metaworld
