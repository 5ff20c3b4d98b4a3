// window-open-v3 and window-close-v3: metaworld/envs/sawyer_window_open_v3.py and
// sawyer_window_close_v3.py (reward_function_version "v2"), which differ only in the
// ranges, the handle's site, the target and the reach sigmoid.
#pragma once

#include <cmath>
#include <vector>

#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

template <bool kClose>
class Window final : public SawyerTask {
 public:
  TaskConfig Config() const override {
    TaskConfig c;
    c.xml = "sawyer_xyz/sawyer_window_horizontal.xml";
    c.hand_low = {-0.5, 0.40, 0.05};
    c.hand_high = {0.5, 1, 0.5};
    // np.array([0, 0.4, 0.2], dtype=np.float32)
    c.hand_init_pos = {0.0, static_cast<double>(0.4f), static_cast<double>(0.2f)};
    if (kClose) {
      c.random_low = {0.0, 0.75, 0.2};
      c.random_high = {0.0, 0.9, 0.2};
    } else {
      c.random_low = {-0.1, 0.7, 0.16};
      c.random_high = {0.1, 0.9, 0.16};
    }
    c.goal_low = c.hand_low;
    c.goal_high = c.hand_high;
    return c;
  }
  std::vector<double> DrawRandVec(Sawyer& env) const override { return env.RandVec(); }
  void ModelWrites(Sawyer& env, const std::vector<double>& v) override {
    env.SetBodyPos(env.Id(mjOBJ_BODY, "window"), {v[0], v[1], v[2]});
  }

  // The handle's initial position is read before any mj_forward (the window where
  // _reset_hand left it), and the slide's qpos is set without one, as the package does.
  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    env.obj_init_pos = {v[0], v[1], v[2]};
    env.target_pos = kClose ? env.obj_init_pos : Vec3{v[0] + 0.2, v[1] + 0.0, v[2] + 0.0};
    ModelWrites(env, v);
    handle_init_ = Handle(env);
    if (kClose) handle_init_[0] += 0.2;  // + np.array([0.2, 0.0, 0.0])
    env.SetJointQposOnly("window_slide", kClose ? 0.2 : 0.0);
    env.SetGoalSite(env.target_pos);
  }

  int Objects(const Sawyer& env, double* out) const override {
    const Vec3 pos = Handle(env);
    std::copy(pos.begin(), pos.end(), out);
    std::fill(out + 3, out + 7, 0.0);
    return 7;
  }

  double Evaluate(Sawyer& env, const double* /*obs*/, const float* /*action*/,
                  double* info) override {
    const double target_radius = 0.05;
    const Vec3 obj = Handle(env);
    const Vec3 tcp = env.TcpCenter();
    const Vec3 target = env.target_pos;
    const double dx = obj[0] - target[0];
    const double target_to_obj = env.Norm(&dx, 1);
    const double dx_init = (kClose ? handle_init_[0] : env.obj_init_pos[0]) - target[0];
    const double target_to_obj_init = env.Norm(&dx_init, 1);
    const double in_place = Tolerance(target_to_obj, 0, target_radius,
                                      std::abs(target_to_obj_init - target_radius));
    const double handle_radius = 0.02;
    const double tcp_to_obj = env.Dist(obj, tcp);
    const double tcp_to_obj_init = env.Dist(handle_init_, env.init_tcp);
    const double margin = std::abs(tcp_to_obj_init - handle_radius);
    const double reach = kClose ? ToleranceGaussian(tcp_to_obj, 0, handle_radius, margin)
                                : Tolerance(tcp_to_obj, 0, handle_radius, margin);
    const double reward = 10 * Hamacher(F64(reach), F64(in_place)).v;
    SetInfo(info, {target_to_obj <= target_radius ? 1.0 : 0.0, tcp_to_obj <= 0.05 ? 1.0 : 0.0, 1.0,
                   reach, in_place, target_to_obj, reward});
    return reward;
  }

 private:
  Vec3 Handle(const Sawyer& env) const {
    return env.SitePos(env.Id(mjOBJ_SITE, kClose ? "handleCloseStart" : "handleOpenStart"));
  }
  Vec3 handle_init_{};
};

}  // namespace envpool::metaworld
