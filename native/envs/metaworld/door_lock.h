// door-lock-v3 and door-unlock-v3: metaworld/envs/sawyer_door_lock_v3.py and
// sawyer_door_unlock_v3.py (reward_function_version "v2"), on the same model: the lock is
// pressed down (lock) or pushed aside (unlock).
//
// The package's quirks kept: door-lock's reset_model runs frame_skip mj_steps after moving
// the door; its init_left_pad is a view of MuJoCo's live data (the left pad's current
// position, so the reach margin is the reach distance itself); door-unlock's obj_init_pos
// is a view of the lock link's live position too (read when the reward is computed).
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

template <bool kUnlock>
class DoorLock final : public BodyTask {
 public:
  DoorLock() : BodyTask("door") {}

  TaskConfig Config() const override {
    // hand_init_pos: np.array([0, 0.6, 0.2], dtype=np.float32)
    TaskConfig c = SawyerConfig("sawyer_xyz/sawyer_door_lock.xml",
                                {0.0, static_cast<double>(0.6f), static_cast<double>(0.2f)});
    c.hand_low = {-0.5, 0.40, -0.15};
    c.random_low = {-0.1, 0.8, 0.15};
    c.random_high = {0.1, 0.85, 0.15};
    if (kUnlock) {
      c.goal_low = {0.0, 0.64, 0.2100};
      c.goal_high = {0.2, 0.7, 0.2111};
    } else {
      c.goal_low = c.hand_low;
      c.goal_high = c.hand_high;
    }
    return c;
  }
  void ResetModel(Sawyer& env, const std::vector<double>& v) override {
    ModelWrites(env, v);
    const int lock_link = env.Id(mjOBJ_BODY, "lock_link");
    Vec3 offset{};
    if (kUnlock) {
      env.SetQpos(9, {1.5708}, 9, 10);  // _set_obj_xyz(np.array(1.5708))
      offset = {0.1, -0.04, 0.0};
    } else {
      env.MjStep(env.frame_skip());
      offset = {0.0, -0.04, -0.1};
    }
    env.obj_init_pos = env.BodyPos(lock_link);
    for (int i = 0; i < 3; ++i) env.target_pos[i] = env.obj_init_pos[i] + offset[i];
  }

  int Objects(const Sawyer& env, double* out) const override {
    const int site = env.Id(mjOBJ_SITE, kUnlock ? "lockStartUnlock" : "lockStartLock");
    return WriteObject(out, env.SitePos(site), env.BodyQuat(env.Id(mjOBJ_BODY, "door_link")));
  }

  double Evaluate(Sawyer& env, const double* obs, const float* /*action*/,
                  double* info) override {
    const double scale[3] = {0.25, 1.0, 0.5};
    const double lock_length = 0.1;
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    double tcp_to_obj = 0, obj_to_target = 0, near = 0, pressed = 0, reward = 0;
    if (kUnlock) {
      const double offset[3] = {0.0, 0.055, 0.07};
      // obj_init_pos: the lock link's live position.
      const Vec3 lock_now = env.BodyPos(env.Id(mjOBJ_BODY, "lock_link"));
      double shoulder[3], shoulder_init[3];
      for (int i = 0; i < 3; ++i) {
        shoulder[i] = ((obs[i] + offset[i]) - obj[i]) * scale[i];
        shoulder_init[i] = ((env.init_tcp[i] + offset[i]) - lock_now[i]) * scale[i];
      }
      tcp_to_obj = env.Norm(shoulder, 3);
      near = Tolerance(tcp_to_obj, 0, 0.02, env.Norm(shoulder_init, 3));
      obj_to_target = std::abs(env.target_pos[0] - obj[0]);
      pressed = Tolerance(obj_to_target, 0, 0.005, lock_length);
      reward = 2 * near + 8 * pressed;
    } else {
      // tcp: the left pad; init_left_pad: its live position too.
      const Vec3 pad = env.BodyPos(env.leftpad_);
      double d[3];
      for (int i = 0; i < 3; ++i) d[i] = (obj[i] - pad[i]) * scale[i];
      tcp_to_obj = env.Norm(d, 3);
      const double tcp_to_obj_init = env.Norm(d, 3);
      obj_to_target = std::abs(env.target_pos[2] - obj[2]);
      const double tcp_opened = 0.0 > obs[3] ? 0.0 : obs[3];  // max(obs[3], 0.0)
      near = Tolerance(tcp_to_obj, 0, 0.01, tcp_to_obj_init);
      pressed = Tolerance(obj_to_target, 0, 0.005, lock_length);
      reward = 2 * Hamacher(F64(tcp_opened), F64(near)).v;
      reward += 8 * pressed;
    }
    SetInfo(info, {obj_to_target <= 0.02 ? 1.0 : 0.0, tcp_to_obj <= 0.05 ? 1.0 : 0.0,
                   obs[3] > 0 ? 1.0 : 0.0, near, pressed, obj_to_target, reward});
    return reward;
  }
};

}  // namespace envpool::metaworld
