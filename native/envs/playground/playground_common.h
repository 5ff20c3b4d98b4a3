// What MuJoCo Playground's tasks share (playground 0.2.0, mujoco_playground/_src/): the
// model compiled from a robot's asset files as the package's get_assets() collects them, and
// the float32 arithmetic the tasks do on MJX's data, restated op by op. Each task header
// (go1_joystick.h, ...) includes this one; robot-specific code stays in its robot's header.
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
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

// The getup tasks' random start (go1/getup.py and spot/getup.py, _get_random_qpos):
// `_, orientation_rng, qpos_rng = split(rng, 3)`; qpos = 0 but for the base height `height`,
// the base quaternion q / (|q| + 1e-6) with q = normal(orientation_rng, (4,)), and the joints
// U(lowers, uppers) from qpos_rng, all float32. `qpos` holds 7 + nu numbers.
inline void RandomFallQpos(const jax_random::Key& rng, float height, const float* lowers,
                           const float* uppers, int nu, bool xla_fma, float* qpos) {
  namespace jr = jax_random;
  const jr::Key orientation_rng = jr::SplitAt(rng, 1), qpos_rng = jr::SplitAt(rng, 2);
  std::fill(qpos, qpos + 7 + nu, 0.0F);
  qpos[2] = height;
  float q[4] = {};
  for (int i = 0; i < 4; ++i) {
    q[i] = jr::NormalF32(orientation_rng, static_cast<std::uint32_t>(i), xla_fma);
  }
  // jnp.linalg.norm (one jitted computation: XLA fuses the squares into its reduction): with
  // FMA, q1**2, then + q0**2, q2**2, q3**2 each as a fused multiply-add (the order XLA's CPU
  // reduction of 4 numbers takes: matched bit for bit on thousands of draws); without, the
  // rounded squares added in index order.
  float sum = 0.0F;
  if (xla_fma) {
    sum = std::fma(q[3], q[3], std::fma(q[2], q[2], std::fma(q[0], q[0], q[1] * q[1])));
  } else {
    sum = ((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]) + q[3] * q[3];
  }
  const float denom = std::sqrt(sum) + 1e-6F;
  // quat / (norm + 1e-6): XLA divides an array by a broadcast scalar as a product with the
  // scalar's rounded reciprocal.
  const float inverse = 1.0F / denom;
  for (int i = 0; i < 4; ++i) qpos[3 + i] = q[i] * inverse;
  for (int i = 0; i < nu; ++i) {
    qpos[7 + i] = jr::UniformF32(qpos_rng, static_cast<std::uint32_t>(i), lowers[i], uppers[i],
                                 xla_fma);
  }
}

}  // namespace envpool::playground
