// What MuJoCo Playground's tasks share (playground 0.2.0, mujoco_playground/_src/): the
// model compiled from a robot's asset files as the package's get_assets() collects them, and
// the float32 arithmetic the tasks do on MJX's data, restated op by op. Each task header
// (go1_joystick.h, ...) includes this one; robot-specific code stays in its robot's header.
#pragma once

#include <mujoco/mujoco.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/common/jax_random.h"
#include "envs/common/mujoco_env.h"

namespace envpool::playground {

// The sum of a float32 array in index order (jnp.sum of a short 1-D array, op by op).
inline float SumF(const float* a, int n) {
  float s = 0.0F;
  for (int i = 0; i < n; ++i) s += a[i];
  return s;
}

// An mjVFS deleted with its owner (the package's model_assets dict: files by base name).
class Vfs {
 public:
  Vfs() : vfs_(std::make_unique<mjVFS>()) { mj_defaultVFS(vfs_.get()); }
  Vfs(const Vfs&) = delete;
  Vfs& operator=(const Vfs&) = delete;
  ~Vfs() { mj_deleteVFS(vfs_.get()); }
  void AddBuffer(const std::string& name, const std::string& content) {
    const int rc = mj_addBufferVFS(vfs_.get(), name.c_str(), content.data(),
                                   static_cast<int>(content.size()));
    // 2: a file of that name is there already (the package's dict keeps the last one read; the
    // names of the task's folders do not repeat).
    if (rc != 0 && rc != 2) {
      throw std::runtime_error("MuJoCo could not add " + name + " to its virtual file system");
    }
  }
  const mjVFS* get() const { return vfs_.get(); }

 private:
  std::unique_ptr<mjVFS> vfs_;
};

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument("cannot read " + path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A scene compiled from the files of the package's model_assets dict (`asset_files`, each
// under its base name: the robots' get_assets()), as mujoco.MjModel.from_xml_string(xml,
// assets) compiles it; the caller then makes the edits its task's __init__ makes.
inline std::unique_ptr<mjModel, mujoco::ModelDeleter> CompileScene(
    const std::vector<std::string>& asset_files, const std::string& scene) {
  Vfs vfs;
  for (const std::string& path : asset_files) {
    const std::size_t slash = path.find_last_of('/');
    vfs.AddBuffer(slash == std::string::npos ? path : path.substr(slash + 1), ReadFile(path));
  }
  char error[1000] = "";
  mjModel* compiled = nullptr;
  {
    mjSpec* spec = mj_parseXMLString(ReadFile(scene).c_str(), vfs.get(), error,
                                     sizeof(error));
    if (spec == nullptr) {
      throw std::runtime_error("MuJoCo could not parse " + scene + ": " + error);
    }
    compiled = mj_compile(spec, vfs.get());
    const std::string spec_error = compiled == nullptr ? mjs_getError(spec) : "";
    mj_deleteSpec(spec);
    if (compiled == nullptr) {
      throw std::runtime_error("MuJoCo could not compile " + scene + ": " + spec_error);
    }
  }
  return std::unique_ptr<mjModel, mujoco::ModelDeleter>(compiled);
}

// mujoco.MjSpec.from_file(scene, assets) (the scene read from its path, its includes and
// meshes from the assets, each file of `asset_files` under its base name), then `edit` on the
// spec (a task that adds sensors, as barkour/joystick.py does), then spec.compile().
inline std::unique_ptr<mjModel, mujoco::ModelDeleter> CompileSpecFile(
    const std::vector<std::string>& asset_files, const std::string& scene,
    const std::function<void(mjSpec*)>& edit) {
  Vfs vfs;
  for (const std::string& path : asset_files) {
    const std::size_t slash = path.find_last_of('/');
    vfs.AddBuffer(slash == std::string::npos ? path : path.substr(slash + 1), ReadFile(path));
  }
  char error[1000] = "";
  mjSpec* spec = mj_parseXML(scene.c_str(), vfs.get(), error, sizeof(error));
  if (spec == nullptr) {
    throw std::runtime_error("MuJoCo could not parse " + scene + ": " + error);
  }
  const std::unique_ptr<mjSpec, void (*)(mjSpec*)> owner(spec, mj_deleteSpec);
  edit(spec);
  mjModel* compiled = mj_compile(spec, vfs.get());
  if (compiled == nullptr) {
    throw std::runtime_error("MuJoCo could not compile " + scene + ": " + mjs_getError(spec));
  }
  return std::unique_ptr<mjModel, mujoco::ModelDeleter>(compiled);
}

// mjx's math.quat_mul(u, axis_angle_to_quat((0, 0, 1), yaw)) in float32, op by op: the
// tasks' reset turns the keyframe's quaternion u by a random yaw. The yaw quaternion is
// (cos(yaw / 2), 0 * s, 0 * s, 1 * s) with s = sin(yaw / 2) (glibc's sinf and cosf, which
// XLA's CPU backend calls too), and the product's terms add left to right.
inline std::array<float, 4> QuatMulYawF(const std::array<float, 4>& u, float yaw) {
  const float half = yaw * 0.5F;
  const float s = std::sin(half), c = std::cos(half);
  const std::array<float, 4> v = {c, 0.0F * s, 0.0F * s, 1.0F * s};
  return {u[0] * v[0] - u[1] * v[1] - u[2] * v[2] - u[3] * v[3],
          u[0] * v[1] + u[1] * v[0] + u[2] * v[3] - u[3] * v[2],
          u[0] * v[2] - u[1] * v[3] + u[2] * v[0] + u[3] * v[1],
          u[0] * v[3] + u[1] * v[2] - u[2] * v[1] + u[3] * v[0]};
}

// x + (2 * U[0, 1) - 1) * level * scale for each of n numbers (the tasks' noisy
// observation), drawn with a noise key split from rng, which keeps the other half.
inline void AddUniformNoise(jax_random::Key& rng, double noise_level, double scale,
                            bool xla_fma, const float* x, int n, float* out) {
  const jax_random::Key noise = jax_random::SplitAt(rng, 1);
  rng = jax_random::SplitAt(rng, 0);
  const float level = static_cast<float>(noise_level), s = static_cast<float>(scale);
  for (int i = 0; i < n; ++i) {
    const float u = jax_random::UniformF32(noise, static_cast<std::uint32_t>(i), 0.0F, 1.0F,
                                           xla_fma);
    out[i] = x[i] + (2.0F * u - 1.0F) * level * s;
  }
}

// The same on arrays of four floats (q, out).
inline void QuatMulYawF(const float* q, float yaw, float* out) {
  const std::array<float, 4> r = QuatMulYawF({q[0], q[1], q[2], q[3]}, yaw);
  for (int i = 0; i < 4; ++i) out[i] = r[i];
}

// An array divided by a scalar as XLA's CPU backend computes it (jnp's `a / c` for an array
// `a` of more than one element and a scalar c): a times c's float32 reciprocal, 1 / c
// rounded once (a scalar divided by a scalar is a true division).
inline float DivByBroadcastF(float a, float c) { return a * (1.0F / c); }

// gait.get_rz(phi, swing_height) in float32 (the gait module the tasks share) for the
// feet's phases (an array of 2): x = (phi + pi) / (2 pi) (an array divided by a scalar), a
// cubic Bezier rise from 0 to h over the first half of the cycle (x <= 0.5) and a fall back
// to 0 over the second; x**3 is jax's integer_pow, x * (x * x), and the fall's y_diff is
// 0 - h.
inline float GaitRz(float phi, float h) {
  const float x =
      DivByBroadcastF(phi + static_cast<float>(M_PI), static_cast<float>(2.0 * M_PI));
  auto bezier = [](float t) {
    const float t3 = t * (t * t), t2 = t * t;
    return t3 + 3.0F * (t2 * (1.0F - t));
  };
  if (x <= 0.5F) return 0.0F + h * bezier(2.0F * x);
  return h + (0.0F - h) * bezier(2.0F * x - 1.0F);
}

// The gait phase's step: fmod(phase + phase_dt + pi, 2 pi) - pi in float32 (XLA's rem is
// fmodf, exact).
inline float NextPhase(float phase, float phase_dt) {
  const float pi = static_cast<float>(M_PI);
  const float next = phase + phase_dt;
  return std::fmod(next + pi, static_cast<float>(2.0 * M_PI)) - pi;
}

}  // namespace envpool::playground
