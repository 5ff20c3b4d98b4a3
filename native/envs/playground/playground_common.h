// What MuJoCo Playground's tasks share (playground 0.2.0, mujoco_playground/_src/): the
// model compiled from a robot's asset files as the package's get_assets() collects them, and
// the float32 arithmetic the tasks do on MJX's data, restated op by op. Each task header
// (go1_joystick.h, ...) includes this one; robot-specific code stays in its robot's header.
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
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

// ---- MJX's quaternion math (mujoco/mjx/_src/math.py) in float32, op by op ----

// jp.linalg.norm of a vector (jitted: sqrt(sum(x * x))). XLA's CPU loop starts from x[1]^2,
// adds x[0]^2, then x[2]^2, ... in order, each product contracted into a fused multiply-add
// where XLA uses FMA (`fused`; measured bit for bit against jnp.linalg.norm for 2 to 16
// entries); elsewhere the products round apart.
inline float NormF(const float* x, int n, bool fused) {
  if (n <= 0) return 0.0F;
  if (n == 1) return std::sqrt(x[0] * x[0]);
  float s = x[1] * x[1];
  s = fused ? std::fma(x[0], x[0], s) : s + x[0] * x[0];
  for (int i = 2; i < n; ++i) s = fused ? std::fma(x[i], x[i], s) : s + x[i] * x[i];
  return std::sqrt(s);
}

// math.norm: 0 where every entry is within 1e-8 of 0 (jp.allclose(x, 0)), else NormF.
inline float MjxNorm(const float* x, int n, bool fused) {
  bool zero = true;
  for (int i = 0; i < n; ++i) zero = zero && std::fabs(x[i]) <= 1e-8F;
  return zero ? 0.0F : NormF(x, n, fused);
}

// math.normalize: x / (n + 1e-6 * (n == 0)) with n = math.norm(x), in place. XLA rewrites a
// division by a broadcast scalar into a multiplication by its reciprocal (measured: the
// quotients differ in the last bit for a quarter of the inputs), so x * (1 / d).
inline float MjxNormalize(float* x, int n, bool fused) {
  const float norm = MjxNorm(x, n, fused);
  const float d = norm + 1e-6F * (norm == 0.0F ? 1.0F : 0.0F);
  const float inv = 1.0F / d;
  for (int i = 0; i < n; ++i) x[i] = x[i] * inv;
  return norm;
}

using Quat = std::array<float, 4>;

// math.quat_mul(u, v).
inline Quat QuatMul(const Quat& u, const Quat& v) {
  return {u[0] * v[0] - u[1] * v[1] - u[2] * v[2] - u[3] * v[3],
          u[0] * v[1] + u[1] * v[0] + u[2] * v[3] - u[3] * v[2],
          u[0] * v[2] - u[1] * v[3] + u[2] * v[0] + u[3] * v[1],
          u[0] * v[3] + u[1] * v[2] - u[2] * v[1] + u[3] * v[0]};
}

// math.quat_inv(q): q * (1, -1, -1, -1).
inline Quat QuatInv(const Quat& q) { return {q[0], -q[1], -q[2], -q[3]}; }

// math.quat_to_mat(q).ravel()[3:] (the matrix's last two rows, from q's outer product).
inline std::array<float, 6> QuatToMatLastRows(const Quat& q) {
  auto o = [&q](int i, int j) { return q[i] * q[j]; };
  return {2.0F * (o(1, 2) + o(0, 3)), o(0, 0) - o(1, 1) + o(2, 2) - o(3, 3),
          2.0F * (o(2, 3) - o(0, 1)), 2.0F * (o(1, 3) - o(0, 2)),
          2.0F * (o(2, 3) + o(0, 1)), o(0, 0) - o(1, 1) - o(2, 2) + o(3, 3)};
}

// The hand tasks' uniform_quat(rng): u, v, w = uniform(rng, (3,)); (sqrt(1 - u) sin(2 pi v),
// sqrt(1 - u) cos(2 pi v), sqrt(u) sin(2 pi w), sqrt(u) cos(2 pi w)). sin and cos are glibc's
// (correctly rounded); XLA's float32 sin and cos differ from them by one ulp for about 1.3%
// of the inputs, so about one quaternion in twenty differs from the package's in one ulp.
inline Quat UniformQuat(const jax_random::Key& key, bool fused) {
  const float u = jax_random::UniformF32(key, 0, 0.0F, 1.0F, fused);
  const float v = jax_random::UniformF32(key, 1, 0.0F, 1.0F, fused);
  const float w = jax_random::UniformF32(key, 2, 0.0F, 1.0F, fused);
  const float two_pi = static_cast<float>(2 * 3.141592653589793);
  const float a = two_pi * v, b = two_pi * w;
  return {std::sqrt(1.0F - u) * std::sin(a), std::sqrt(1.0F - u) * std::cos(a),
          std::sqrt(u) * std::sin(b), std::sqrt(u) * std::cos(b)};
}

// reward.tolerance(x, (lower, upper), margin, sigmoid="linear") with value_at_margin 0.1:
// 1 in the bounds, else 1 - d * 0.9 (d the distance to the bound over margin) while that
// scaled distance is below 1, else 0.
inline float ToleranceLinear(float x, float lower, float upper, float margin) {
  if (lower <= x && x <= upper) return 1.0F;
  const float d = (x < lower ? lower - x : x - upper) / margin;
  const float scaled = d * 0.9F;
  return std::fabs(scaled) < 1.0F ? 1.0F - scaled : 0.0F;
}

// reward.tolerance(x, (lower, upper), margin, sigmoid="reciprocal") with value_at_margin
// 0.1: 1 in the bounds, else 1 / (|d| * 9 + 1), d the distance to the bound over margin.
inline float ToleranceReciprocal(float x, float lower, float upper, float margin) {
  if (lower <= x && x <= upper) return 1.0F;
  const float d = (x < lower ? lower - x : x - upper) / margin;
  return 1.0F / (std::fabs(d) * 9.0F + 1.0F);
}

// The cube-in-hand tasks' reset draws (leap_hand and aero_hand's rotate_z.py and
// reorient.py): `rng, pos_rng, vel_rng = split(rng, 3)`, the hand's n joints
// clip(default_pose + 0.1 * normal(pos_rng, (n,)), lowers, uppers) (v_hand = 0 * normal:
// zero); `rng, p_rng, quat_rng = split(rng, 3)`, the cube at (0.1, 0, 0.05) +
// U(-0.01, 0.01)^3 with uniform_quat(quat_rng). Returns the qpos (the hand's n, then the
// cube's 7); rng keeps the remaining key.
inline std::vector<float> DrawHandAndCube(jax_random::Key& rng, const float* default_pose,
                                          const float* lowers, const float* uppers, int n,
                                          bool fused) {
  namespace jr = jax_random;
  std::vector<float> qpos(static_cast<std::size_t>(n + 7), 0.0F);
  const jr::Key pos_rng = jr::SplitAt(rng, 1);
  rng = jr::SplitAt(rng, 0);
  for (int i = 0; i < n; ++i) {
    const float q = default_pose[i] + 0.1F * jr::NormalF32(pos_rng, i, fused);
    qpos[i] = std::min(std::max(q, lowers[i]), uppers[i]);
  }
  const jr::Key p_rng = jr::SplitAt(rng, 1), quat_rng = jr::SplitAt(rng, 2);
  rng = jr::SplitAt(rng, 0);
  const std::array<float, 3> start = {0.1F, 0.0F, 0.05F};
  for (int i = 0; i < 3; ++i) qpos[n + i] = start[i] + jr::UniformF32(p_rng, i, -0.01F, 0.01F, fused);
  const Quat q = UniformQuat(quat_rng, fused);
  for (int i = 0; i < 4; ++i) qpos[n + 3 + i] = q[i];
  return qpos;
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
  // jnp.linalg.norm: XLA's summation order (NormF)
  const float denom = NormF(q, 4, xla_fma) + 1e-6F;
  // quat / (norm + 1e-6): XLA divides an array by a broadcast scalar as a product with the
  // scalar's rounded reciprocal.
  const float inverse = 1.0F / denom;
  for (int i = 0; i < 4; ++i) qpos[3 + i] = q[i] * inverse;
  for (int i = 0; i < nu; ++i) {
    qpos[7 + i] = jr::UniformF32(qpos_rng, static_cast<std::uint32_t>(i), lowers[i], uppers[i],
                                 xla_fma);
  }
}

// The joystick tasks' command ranges (command_config's lin_vel_x, lin_vel_y and ang_vel_yaw:
// [min, max] each), with sail-sg EnvPool's names: lin_vel_x_min, lin_vel_x_max, ...,
// ang_vel_yaw_max; `defaults` in that order.
template <class P>
void AddCommandRangeKeys(Keywords<P>& k, const std::array<double, 6>& defaults) {
  k.Add("lin_vel_x_min", defaults[0], &P::lin_vel_x_min);
  k.Add("lin_vel_x_max", defaults[1], &P::lin_vel_x_max);
  k.Add("lin_vel_y_min", defaults[2], &P::lin_vel_y_min);
  k.Add("lin_vel_y_max", defaults[3], &P::lin_vel_y_max);
  k.Add("ang_vel_yaw_min", defaults[4], &P::ang_vel_yaw_min);
  k.Add("ang_vel_yaw_max", defaults[5], &P::ang_vel_yaw_max);
}

// `pert_enable` (pert_config.enable), off by default as in the package: a flag on every task
// that takes it (P has a `bool pert_enable`; sail-sg EnvPool's configs carry it as a number,
// whose 0.0 and 1.0 are taken as False and True). The Go1 and Spot kicks and the LEAP
// reorientation read it. The cube rotations (LEAP and Aero) take it unused, as sail-sg EnvPool
// 1.2.5 does: its three hand tasks share one config, whose pert_enable only its reorientation
// reads, and the package's rotate_z.py has no pert_config.
template <class P>
void AddPertEnable(Keywords<P>& k) {
  k.Add("pert_enable", false, &P::pert_enable);
}

// ---- The joystick tasks' kicks (go1/joystick.py and spot/joystick.py, pert_config) ----

// pert_config with sail-sg EnvPool's keyword names (a task's Params derives from it):
// `pert_enable`, the wait before a kick (kick_wait_times, seconds), its duration
// (kick_durations, seconds) and its speed (velocity_kick, m/s), each range [min, max).
struct KickSettings {
  bool pert_enable = false;
  double kick_wait_time_min = 1.0, kick_wait_time_max = 3.0, kick_duration_min = 0.05,
         kick_duration_max = 0.2, kick_velocity_min = 0.0, kick_velocity_max = 3.0;
};

template <class P>
void AddKickKeywords(Keywords<P>& k) {
  AddPertEnable(k);
  k.Add("kick_wait_time_min", 1.0, &P::kick_wait_time_min).AtLeast(0);
  k.Add("kick_wait_time_max", 3.0, &P::kick_wait_time_max).AtLeast(0);
  // A kick's force is divided by its duration: a positive number of seconds.
  k.Add("kick_duration_min", 0.05, &P::kick_duration_min).Above(0);
  k.Add("kick_duration_max", 0.2, &P::kick_duration_max).Above(0);
  k.Add("kick_velocity_min", 0.0, &P::kick_velocity_min).AtLeast(0);
  k.Add("kick_velocity_max", 3.0, &P::kick_velocity_max).AtLeast(0);
}

inline void CheckKickSettings(const KickSettings& s) {
  if (s.kick_wait_time_min > s.kick_wait_time_max || s.kick_duration_min > s.kick_duration_max ||
      s.kick_velocity_min > s.kick_velocity_max) {
    throw std::invalid_argument(
        "the kick's ranges need kick_wait_time_min <= kick_wait_time_max, kick_duration_min <= "
        "kick_duration_max and kick_velocity_min <= kick_velocity_max");
  }
}

// Joystick._maybe_apply_perturbation's state (the info's pert_* entries) and step, in
// float32 as the package computes it op by op. Its `jax.lax.cond` runs one of two branches:
// `wait` (the steps since the last kick count up; where they reach steps_until_next, the
// kick's step count restarts and its direction becomes (cos a, sin a, 0) for a = U(0, 2 pi)
// from the branch's key) or `apply_pert` (the torso gets the force 0.5 sin(pi t / T) * m *
// v / T along that direction, t = pert_steps * dt, T the duration in seconds, m the torso's
// subtree mass, v the speed; after `duration` steps the count since the last kick restarts).
// The force, float32, is the simulation's xfrc_applied (the torso's first three entries,
// every other zero) for the step's physics and in the observation.
struct TorsoKick {
  std::int32_t steps_until_next = 0, duration = 0, since_last = 0, steps = 0;
  float duration_seconds = 0.0F, mag = 0.0F;
  std::array<float, 3> dir{};

  // Joystick.reset: `rng, key1, key2, key3 = split(rng, 4)`: the wait round(U / dt), the
  // duration and its steps round(U / dt), the speed; `rng` is the key split four ways.
  void Draw(const jax_random::Key& rng, const KickSettings& s, float dt, bool fused) {
    namespace jr = jax_random;
    auto uniform = [fused](const jr::Key& key, double lo, double hi) {
      return jr::UniformF32(key, 0, static_cast<float>(lo), static_cast<float>(hi), fused);
    };
    const float wait = uniform(jr::SplitAt(rng, 1), s.kick_wait_time_min, s.kick_wait_time_max);
    steps_until_next = static_cast<std::int32_t>(std::nearbyint(wait / dt));
    duration_seconds =
        uniform(jr::SplitAt(rng, 2), s.kick_duration_min, s.kick_duration_max);
    duration = static_cast<std::int32_t>(std::nearbyint(duration_seconds / dt));
    mag = uniform(jr::SplitAt(rng, 3), s.kick_velocity_min, s.kick_velocity_max);
    since_last = 0;
    steps = 0;
    dir.fill(0.0F);
  }

  // The privileged observation's flag: steps_since_last_pert >= steps_until_next_pert.
  bool Active() const { return since_last >= steps_until_next; }

  // One step's _maybe_apply_perturbation on d's xfrc_applied; `wait_key()` gives the wait
  // branch's key (Go1 splits it from the state's rng there; Spot passes its step's pert_rng).
  template <class WaitKey>
  void Step(WaitKey&& wait_key, float torso_mass, float dt, int torso_body, int nbody,
            mjData* d, bool fused) {
    std::fill(d->xfrc_applied, d->xfrc_applied + 6 * nbody, 0.0);
    if (Active()) {  // apply_pert
      const float t = static_cast<float>(steps) * dt;
      const float u_t =
          0.5F * std::sin(static_cast<float>(M_PI) * t / duration_seconds);
      const float force = u_t * torso_mass * mag / duration_seconds;
      for (int j = 0; j < 3; ++j) d->xfrc_applied[6 * torso_body + j] = force * dir[j];
      if (steps >= duration) since_last = 0;
      steps += 1;
      return;
    }
    const jax_random::Key key = wait_key();  // wait
    since_last += 1;
    if (Active()) {
      steps = 0;
      const float angle = jax_random::UniformF32(key, 0, 0.0F,
                                                 static_cast<float>(M_PI * 2), fused);
      dir = {std::cos(angle), std::sin(angle), 0.0F};
    }
  }
};

// ---- The base of every task's env ----

// mujoco::MujocoEnv as the package's tasks use it: frames drawn as its render_array draws a
// State (mujoco.Renderer's camera -1, MuJoCo's default free camera, on a fresh copy of the
// state, forwarded), and a state (get_state / set_state) holding what render_array reads of
// one: qpos, qvel, then the mocap bodies' mocap_pos (3 numbers each) and mocap_quat (4
// each), nothing more where the model has no mocap body. render_array also copies
// xfrc_applied, which changes no pixel under MuJoCo's default visual options (forces are not
// drawn; positions depend on qpos and the mocap poses alone), so the state leaves it out (the
// tasks that push a body set it anew every step). set_state takes the whole state, or qpos
// and qvel alone (the mocap poses kept), then runs mj_forward.
class PlaygroundEnv : public mujoco::MujocoEnv {
 public:
  using mujoco::MujocoEnv::MujocoEnv;

  std::vector<double> GetState() const override {
    std::vector<double> state = MujocoEnv::GetState();
    state.insert(state.end(), d_->mocap_pos, d_->mocap_pos + 3 * m_->nmocap);
    state.insert(state.end(), d_->mocap_quat, d_->mocap_quat + 4 * m_->nmocap);
    return state;
  }

  void SetState(const std::vector<double>& state) override {
    const std::size_t n = static_cast<std::size_t>(m_->nq + m_->nv);
    const std::size_t mocap = static_cast<std::size_t>(7 * m_->nmocap);
    if (state.size() != n && state.size() != n + mocap) {
      throw std::invalid_argument("the state is qpos, qvel, then mocap_pos and mocap_quat: " +
                                  std::to_string(n + mocap) + " numbers (or qpos and qvel "
                                  "alone: " + std::to_string(n) + ")");
    }
    for (const double x : state) {
      if (!std::isfinite(x)) {
        throw std::invalid_argument("the state has a NaN or infinite number");
      }
    }
    const auto qvel_end = state.begin() + static_cast<std::ptrdiff_t>(n);
    if (state.size() == n + mocap) {
      std::copy(qvel_end, qvel_end + 3 * m_->nmocap, d_->mocap_pos);
      std::copy(qvel_end + 3 * m_->nmocap, state.end(), d_->mocap_quat);
    }
    MujocoEnv::SetState(std::vector<double>(state.begin(), qvel_end));
  }

  // The simulation as the last reset or step left it (PhysicsInfo reads it).
  const mjData* Data() const { return d_; }

 protected:
  bool MujocoFreeCamera() const override { return true; }
  bool RenderForwardedCopy() const override { return true; }
};

// Task E (a PlaygroundEnv) with, after E's own info keys, `terminated` (bool: the last step
// ended the episode; false after a reset), as sail-sg EnvPool's Playground tasks have it,
// then the simulation's state: the arrays of MuJoCo's mjData that sail-sg EnvPool's test
// build puts in its Playground tasks' info (its oracle test reads them to put the package's
// env in the pool's state), each flat, float64, as the reset or step left the data (after
// its last mj_step or mj_forward): qpos (nq), qvel (nv), ctrl (nu), qacc (nv),
// qacc_warmstart (nv), actuator_force (nu), sensordata (nsensordata, where the model has
// sensors), xfrc_applied (6 per body), and mocap_pos (3 per mocap body) and mocap_quat (4
// each) where the model has mocap bodies. A row of the batch is written once per reset or
// step (plain copies, no computation).
template <class E>
class PhysicsInfo final : public Env {
 public:
  using Params = typename E::Params;

  static Config Defaults() { return E::Defaults(); }

  static EnvSpec MakeSpec(const Params& p) {
    EnvSpec spec = E::MakeSpec(p);
    spec.info.push_back(BoxSpec("terminated", DType::kBool, {}));
    for (const Field& f : Fields(p.model.get())) {
      spec.info.push_back(BoxSpec(f.name, DType::kFloat64, {f.size}));
    }
    return spec;
  }

  static FrameSize RenderSize(const Params& p, int width, int height, int camera_id) {
    return E::RenderSize(p, width, height, camera_id);
  }

  explicit PhysicsInfo(const Params& p)
      : inner_(p), first_(E::MakeSpec(p).info.size()), fields_(Fields(p.model.get())) {}

  void Seed(std::uint64_t seed) override { inner_.Seed(seed); }
  void SetEnvId(int env_id) override { inner_.SetEnvId(env_id); }
  void Reset(Rng& rng) override {
    inner_.Reset(rng);
    terminated_ = false;
  }
  StepOutcome Step(const ActionView& action, Rng& rng) override {
    const StepOutcome out = inner_.Step(action, rng);
    terminated_ = out.terminated;
    return out;
  }

  void Write(const Slot& slot) const override {
    inner_.Write(slot);
    *slot.Info<bool>(first_) = terminated_;
    const mjData* d = inner_.Data();
    for (std::size_t i = 0; i < fields_.size(); ++i) {
      const double* src = d->*(fields_[i].array);
      std::copy(src, src + fields_[i].size, slot.Info<double>(first_ + 1 + i));
    }
  }

  std::vector<double> GetState() const override { return inner_.GetState(); }
  void SetState(const std::vector<double>& state) override { inner_.SetState(state); }
  void Render(int width, int height, int camera_id, std::uint8_t* out) override {
    inner_.Render(width, height, camera_id, out);
  }

 private:
  struct Field {
    const char* name;
    mjtNum* mjData::*array;
    std::int64_t size;
  };

  // The info's arrays for model m, in order (the empty ones left out).
  static std::vector<Field> Fields(const mjModel* m) {
    const std::vector<Field> all = {
        {"qpos", &mjData::qpos, m->nq},
        {"qvel", &mjData::qvel, m->nv},
        {"ctrl", &mjData::ctrl, m->nu},
        {"qacc", &mjData::qacc, m->nv},
        {"qacc_warmstart", &mjData::qacc_warmstart, m->nv},
        {"actuator_force", &mjData::actuator_force, m->nu},
        {"sensordata", &mjData::sensordata, m->nsensordata},
        {"xfrc_applied", &mjData::xfrc_applied, 6 * m->nbody},
        {"mocap_pos", &mjData::mocap_pos, 3 * m->nmocap},
        {"mocap_quat", &mjData::mocap_quat, 4 * m->nmocap}};
    std::vector<Field> fields;
    for (const Field& f : all) {
      if (f.size > 0) fields.push_back(f);
    }
    return fields;
  }

  E inner_;
  std::size_t first_;  // E's info keys: `terminated` is the next
  std::vector<Field> fields_;
  bool terminated_ = false;
};

}  // namespace envpool::playground
