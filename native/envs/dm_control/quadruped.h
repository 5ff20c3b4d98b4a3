// Quadruped: dm_control/suite/quadruped.py (walk, run, escape, fetch). The
// models are quadruped.make_model's, built by envpool/tasks/dm_control_models.py
// (floor size, terrain, rangefinders, walls and ball per task). Escape draws a
// new terrain into its own model's height field at every reset.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/common/numpy_blas.h"
#include "envs/dm_control/dm_control_env.h"
#include "envs/dm_control/rewards.h"

namespace envpool::dm_control {

namespace quadruped_detail {

// scipy.ndimage.spline_filter1d(order=3, mode='constant') of one line in
// place: the gain, then the causal and anticausal recursions with the
// mirror-symmetric initial values scipy uses for this mode.
inline void CubicSplineFilterLine(double* c, int n, std::ptrdiff_t stride) {
  const double z = -0.267949192431122706472553658494127633;  // sqrt(3) - 2
  const double gain = (1.0 - z) * (1.0 - 1.0 / z);
  for (int i = 0; i < n; ++i) c[i * stride] *= gain;
  const double z_n_1 = std::pow(z, n - 1);
  double c0 = c[0] + z_n_1 * c[(n - 1) * stride];
  double z_i = z;
  for (int i = 1; i < n - 1; ++i) {
    c0 += z_i * (c[i * stride] + z_n_1 * c[(n - 1 - i) * stride]);
    z_i *= z;
  }
  c[0] = c0 / (1 - z_n_1 * z_n_1);
  for (int i = 1; i < n; ++i) c[i * stride] += z * c[(i - 1) * stride];
  c[(n - 1) * stride] =
      (z * c[(n - 2) * stride] + c[(n - 1) * stride]) * z / (z * z - 1);
  for (int i = n - 2; i >= 0; --i) {
    c[i * stride] = z * (c[(i + 1) * stride] - c[i * stride]);
  }
}

// The cubic B-spline weights of the four taps around x (scipy's
// get_spline_interpolation_weights, order 3).
inline void CubicWeights(double x, double w[4]) {
  x -= std::floor(x);
  const double y = x, z = 1.0 - x;
  w[1] = (y * y * (y - 2.0) * 3.0 + 4.0) / 6.0;
  w[2] = (z * z * (z - 2.0) * 3.0 + 4.0) / 6.0;
  w[0] = z * z * z / 6.0;
  w[3] = 1.0;
  for (int i = 0; i < 3; ++i) w[3] -= w[i];
}

// scipy.ndimage.zoom(a, out / n) of a row-major n x n array with the defaults
// (order 3, mode 'constant', prefilter, grid_mode False): the output's n_out
// x n_out samples at k * (n - 1) / (n_out - 1), from the prefiltered spline
// coefficients, mirrored at the edges.
inline std::vector<double> ZoomCubic(std::vector<double> a, int n, int n_out) {
  for (int j = 0; j < n; ++j) CubicSplineFilterLine(a.data() + j, n, n);  // axis 0
  for (int i = 0; i < n; ++i) CubicSplineFilterLine(a.data() + i * n, n, 1);  // axis 1
  const double zoom = static_cast<double>(n - 1) / static_cast<double>(n_out - 1);
  std::vector<int> taps(4 * static_cast<std::size_t>(n_out));
  std::vector<double> weights(4 * static_cast<std::size_t>(n_out));
  for (int k = 0; k < n_out; ++k) {
    const double cc = static_cast<double>(k) * zoom;
    const int start = static_cast<int>(std::floor(cc)) - 1;
    for (int t = 0; t < 4; ++t) {
      int idx = start + t;
      if (idx < 0) idx = -idx;
      if (idx >= n) idx = 2 * n - 2 - idx;
      taps[4 * k + t] = idx;
    }
    CubicWeights(cc, &weights[4 * k]);
  }
  std::vector<double> out(static_cast<std::size_t>(n_out) * n_out);
  for (int r = 0; r < n_out; ++r) {
    for (int c = 0; c < n_out; ++c) {
      double t = 0.0;
      for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 4; ++j) {
          t += a[taps[4 * r + i] * n + taps[4 * c + j]] * weights[4 * r + i] *
               weights[4 * c + j];
        }
      }
      out[static_cast<std::size_t>(r) * n_out + c] = t;
    }
  }
  return out;
}

}  // namespace quadruped_detail

class Quadruped final : public DmcEnv {
 public:
  enum class Kind { kMove, kEscape, kFetch };

  struct Params : CommonParams {
    explicit Params(const Config& c) : CommonParams(c) {
      if (task == "walk") {
        kind = Kind::kMove;
        desired_speed = kWalkSpeed;
      } else if (task == "run") {
        kind = Kind::kMove;
        desired_speed = kRunSpeed;
      } else if (task == "escape") {
        kind = Kind::kEscape;
      } else if (task == "fetch") {
        kind = Kind::kFetch;
      } else {
        throw std::invalid_argument("quadruped has no task '" + task + "'");
      }
    }
    Kind kind = Kind::kMove;
    double desired_speed = 0.0;
  };

  static Config Defaults() { return dm_control::Defaults(4, "walk"); }

  // _common_observations, then Escape's origin and rangefinder or Fetch's
  // ball_state and target_position.
  static ObsKeys Keys(const Params& p) {
    const mjModel* m = p.model.get();
    int hinges = 0;
    for (int j = 0; j < m->njnt; ++j) hinges += m->jnt_type[j] == mjJNT_HINGE;
    ObsKeys keys = {{"egocentric_state", 2 * hinges + m->na},
                    {"torso_velocity", 3},
                    {"torso_upright", -1},
                    {"imu", SensorSize(m, {mjSENS_GYRO, mjSENS_ACCELEROMETER})},
                    {"force_torque", SensorSize(m, {mjSENS_FORCE, mjSENS_TORQUE})}};
    if (p.kind == Kind::kEscape) {
      keys.emplace_back("origin", 3);
      keys.emplace_back("rangefinder", SensorSize(m, {mjSENS_RANGEFINDER}));
    } else if (p.kind == Kind::kFetch) {
      keys.emplace_back("ball_state", 9);
      keys.emplace_back("target_position", 3);
    }
    return keys;
  }
  // Info: sail-sg EnvPool's qacc_warmstart0, act0 and hfield0 (its test build's keys) after
  // qpos0 and qvel0: the solver's warm start now (DmcEnv::WriteQaccWarmstart), the actuator
  // states at the episode's start, and escape's terrain (its task state; one zero in the
  // other tasks, as there).
  static EnvSpec MakeSpec(const Params& p) {
    const mjModel* m = p.model.get();
    const std::int64_t hfield =
        p.kind == Kind::kEscape ? std::int64_t{m->hfield_nrow[0]} * m->hfield_ncol[0] : 1;
    return DmcSpec(p, Keys(p), {{"qacc_warmstart0", m->nv}, {"act0", m->na}, {"hfield0", hfield}});
  }

  explicit Quadruped(const Params& p)
      : DmcEnv(p, Keys(p)),
        p_(p),
        torso_(Id(mjOBJ_BODY, "torso")),
        root_qpos_(QposAdr("root")),
        velocimeter_(m_->sensor_adr[Id(mjOBJ_SENSOR, "velocimeter")]),
        imu_(SensorAdrs(m_, {mjSENS_GYRO, mjSENS_ACCELEROMETER})),
        force_torque_(SensorAdrs(m_, {mjSENS_FORCE, mjSENS_TORQUE})),
        rangefinder_(SensorAdrs(m_, {mjSENS_RANGEFINDER})),
        workspace_(Id(mjOBJ_SITE, "workspace")),
        floor_(Id(mjOBJ_GEOM, "floor")) {
    for (int j = 0; j < m_->njnt; ++j) {
      if (m_->jnt_type[j] == mjJNT_HINGE) {
        hinge_qpos_.push_back(m_->jnt_qposadr[j]);
        hinge_dof_.push_back(m_->jnt_dofadr[j]);
      }
    }
    if (p_.kind == Kind::kEscape) {
      // Escape.initialize_episode: a square height field, _HEIGHTFIELD_ID 0.
      if (m_->nhfield < 1 || m_->hfield_nrow[0] != m_->hfield_ncol[0]) {
        throw std::invalid_argument("quadruped escape needs a square height field");
      }
      BowlShape();
    }
    if (p_.kind == Kind::kFetch) {
      ball_ = Id(mjOBJ_BODY, "ball");
      ball_qpos_ = QposAdr("ball_root");
      ball_dof_ = DofAdr("ball_root");
      root_dof_ = DofAdr("root");
      target_ = Id(mjOBJ_SITE, "target");
      ball_geom_ = Id(mjOBJ_GEOM, "ball");
    }
  }

 protected:
  void Observe(double* const* obs) const override {
    const mjtNum* frame = d_->xmat + 9 * torso_;
    const mjtNum* torso_pos = d_->xpos + 3 * torso_;
    // egocentric_state: hinge qpos, hinge qvel, act.
    double* ego = obs[0];
    for (int adr : hinge_qpos_) *ego++ = d_->qpos[adr];
    for (int adr : hinge_dof_) *ego++ = d_->qvel[adr];
    for (int i = 0; i < m_->na; ++i) *ego++ = d_->act[i];
    for (int i = 0; i < 3; ++i) obs[1][i] = d_->sensordata[velocimeter_ + i];
    obs[2][0] = frame[8];  // torso_upright: xmat zz
    double* imu = obs[3];
    for (const auto& [adr, dim] : imu_) {
      for (int i = 0; i < dim; ++i) *imu++ = d_->sensordata[adr + i];
    }
    // force_torque: np.arcsinh (numpy's SIMD arcsinh can differ by an ulp or two).
    double* ft = obs[4];
    for (const auto& [adr, dim] : force_torque_) {
      for (int i = 0; i < dim; ++i) *ft++ = std::asinh(d_->sensordata[adr + i]);
    }
    if (p_.kind == Kind::kEscape) {
      // origin: -torso_pos.dot(torso_frame).
      double origin[3];
      blas_.VecMat3(torso_pos, frame, origin);
      for (int j = 0; j < 3; ++j) obs[5][j] = -origin[j];
      // rangefinder: 1 where no intersection (-1), else tanh.
      double* rf = obs[6];
      for (const auto& [adr, dim] : rangefinder_) {
        for (int i = 0; i < dim; ++i) {
          const double r = d_->sensordata[adr + i];
          *rf++ = r == -1.0 ? 1.0 : std::tanh(r);
        }
      }
    } else if (p_.kind == Kind::kFetch) {
      // ball_state: vstack(ball_rel_pos, ball_rel_vel, ball_rot_vel).dot(torso_frame).
      const mjtNum* ball_pos = d_->xpos + 3 * ball_;
      const mjtNum* ball_vel = d_->qvel + ball_dof_;
      const mjtNum* root_vel = d_->qvel + root_dof_;
      double rows[3][3];
      for (int i = 0; i < 3; ++i) {
        rows[0][i] = ball_pos[i] - torso_pos[i];
        rows[1][i] = ball_vel[i] - root_vel[i];
        rows[2][i] = ball_vel[3 + i];
      }
      blas_.MatMat3(&rows[0][0], 3, frame, obs[5]);
      // target_position: (target - torso_pos).dot(torso_frame).
      const mjtNum* target = d_->site_xpos + 3 * target_;
      const double rel[3] = {target[0] - torso_pos[0], target[1] - torso_pos[1],
                             target[2] - torso_pos[2]};
      blas_.VecMat3(rel, frame, obs[6]);
    }
  }

  void InitializeEpisode(Rng& rng) override {
    if (p_.kind == Kind::kFetch) {
      // Fetch: random azimuth and horizontal position, then the ball.
      const double azimuth = rng.Uniform(0, 2 * kPi);
      const double orientation[4] = {std::cos(azimuth / 2), 0, 0, std::sin(azimuth / 2)};
      const double spawn_radius = 0.9 * m_->geom_size[3 * floor_];
      const double x = rng.Uniform(-spawn_radius, spawn_radius);
      const double y = rng.Uniform(-spawn_radius, spawn_radius);
      FindNonContactingHeight(orientation, x, y);
      d_->qpos[ball_qpos_] = rng.Uniform(-spawn_radius, spawn_radius);
      d_->qpos[ball_qpos_ + 1] = rng.Uniform(-spawn_radius, spawn_radius);
      d_->qpos[ball_qpos_ + 2] = 2;
      d_->qvel[ball_dof_] = 5 * rng.Normal();
      d_->qvel[ball_dof_ + 1] = 5 * rng.Normal();
      return;
    }
    if (p_.kind == Kind::kEscape) NewTerrain(rng);
    // Move / Escape: a random orientation, randn(4) normalised.
    double orientation[4];
    for (double& q : orientation) q = rng.Normal();
    const double norm = NumpyBlas::Fixed().Norm(orientation, 4);
    for (double& q : orientation) q /= norm;
    FindNonContactingHeight(orientation, 0.0, 0.0);
  }

  double GetReward() override {
    if (p_.kind == Kind::kMove) {
      const double move_reward =
          Tolerance(d_->sensordata[velocimeter_], p_.desired_speed, kInf, p_.desired_speed,
                    Sigmoid::kLinear, 0.5);
      return UprightReward(0.0) * move_reward;
    }
    if (p_.kind == Kind::kEscape) {
      const double terrain_size = m_->hfield_size[0];
      const mjtNum* workspace = d_->site_xpos + 3 * workspace_;
      const double origin_distance = blas_.Norm(workspace, 3);
      const double escape_reward = Tolerance(origin_distance, terrain_size, kInf, terrain_size,
                                             Sigmoid::kLinear, 0);
      return UprightReward(20.0) * escape_reward;
    }
    // Fetch.
    const double arena_radius = m_->geom_size[3 * floor_] * std::sqrt(2.0);
    const double workspace_radius = m_->site_size[3 * workspace_];
    const double ball_radius = m_->geom_size[3 * ball_geom_];
    const mjtNum* ball = d_->xpos + 3 * ball_;
    const mjtNum* workspace = d_->site_xpos + 3 * workspace_;
    const mjtNum* target = d_->site_xpos + 3 * target_;
    const double self_to_ball[2] = {workspace[0] - ball[0], workspace[1] - ball[1]};
    const double ball_to_target[2] = {target[0] - ball[0], target[1] - ball[1]};
    const double reach_reward =
        Tolerance(blas_.Norm(self_to_ball, 2), 0,
                  workspace_radius + ball_radius, arena_radius, Sigmoid::kLinear, 0);
    const double target_radius = m_->site_size[3 * target_];
    const double fetch_reward =
        Tolerance(blas_.Norm(ball_to_target, 2), 0,
                  target_radius, arena_radius, Sigmoid::kLinear, 0);
    const double reach_then_fetch = reach_reward * (0.5 + 0.5 * fetch_reward);
    return UprightReward(0.0) * reach_then_fetch;
  }

  void WriteTaskInfo(const Slot& slot) const override {
    WriteQaccWarmstart(slot, 2);
    WriteStartAct(slot, 3);
    if (p_.kind == Kind::kEscape) {
      WriteTaskStateInfo(slot, 4);
    } else {
      slot.Info<double>(4)[0] = 0;
    }
  }

  // Escape: the height field (hfield_data of field 0, float32 in MuJoCo).
  std::vector<double> GetTaskState() const override {
    if (p_.kind != Kind::kEscape) return {};
    const float* data = m_->hfield_data + m_->hfield_adr[0];
    return std::vector<double>(data, data + HfieldSize());
  }
  void SetTaskState(const std::vector<double>& state) override {
    if (p_.kind != Kind::kEscape) return;
    float* data = m_->hfield_data + m_->hfield_adr[0];
    for (std::size_t i = 0; i < state.size(); ++i) data[i] = static_cast<float>(state[i]);
  }

 private:
  static constexpr double kPi = 3.141592653589793;
  static constexpr double kInf = std::numeric_limits<double>::infinity();
  static constexpr double kWalkSpeed = 0.5, kRunSpeed = 5;
  static constexpr double kTerrainSmoothness = 0.15, kTerrainBumpScale = 2;

  // Physics._get_sensor_names(*types): the sensors of those types in id order.
  static std::vector<std::pair<int, int>> SensorAdrs(const mjModel* m,
                                                     std::initializer_list<int> types) {
    std::vector<std::pair<int, int>> adrs;
    for (int s = 0; s < m->nsensor; ++s) {
      for (int t : types) {
        if (m->sensor_type[s] == t) adrs.emplace_back(m->sensor_adr[s], m->sensor_dim[s]);
      }
    }
    return adrs;
  }
  static std::int64_t SensorSize(const mjModel* m, std::initializer_list<int> types) {
    std::int64_t n = 0;
    for (const auto& adr : SensorAdrs(m, types)) n += adr.second;
    return n;
  }

  std::size_t HfieldSize() const {
    return static_cast<std::size_t>(m_->hfield_nrow[0]) * m_->hfield_ncol[0];
  }

  // _upright_reward(physics, deviation_angle).
  double UprightReward(double deviation_angle) const {
    const double deviation = std::cos(deviation_angle * (kPi / 180.0));
    return Tolerance(d_->xmat[9 * torso_ + 8], deviation, kInf, 1 + deviation,
                     Sigmoid::kLinear, 0);
  }

  // _find_non_contacting_height: from z = 0 up in 1 cm steps, each try a fresh
  // reset_context (mj_resetData, the root pose, after_reset), until no contacts.
  // Of each try's after_reset (a full mj_forward) only the contact count is
  // read, and Reset's after_reset recomputes everything from the final pose, so
  // each try runs only what the count depends on, mj_kinematics and
  // mj_collision: the same ncon (checked against mj_forward on thousands of
  // poses of all four models), ten times faster with Escape's terrain and
  // rangefinders.
  void FindNonContactingHeight(const double orientation[4], double x, double y) {
    double z = 0.0;
    int num_contacts = 1, num_attempts = 0;
    while (num_contacts > 0) {
      mj_resetData(m_, d_);
      mjtNum* root = d_->qpos + root_qpos_;
      root[0] = x;
      root[1] = y;
      root[2] = z;
      for (int i = 0; i < 4; ++i) root[3 + i] = orientation[i];
      mj_kinematics(m_, d_);
      mj_collision(m_, d_);
      num_contacts = d_->ncon;
      z += 0.01;
      ++num_attempts;
      if (num_attempts > 10000) {
        throw std::runtime_error("Failed to find a non-contacting configuration.");
      }
    }
  }

  // Escape's sinusoidal bowl: .5 - cos(2 pi clip(radius, .04, 1)) / 2 on the
  // np.ogrid[-1:1:res*1j, -1:1:res*1j] grid.
  void BowlShape() {
    const int res = m_->hfield_nrow[0];
    const double step = 2.0 / static_cast<double>(res - 1);
    bowl_.resize(static_cast<std::size_t>(res) * res);
    for (int r = 0; r < res; ++r) {
      const double row = r * step + -1.0;
      for (int c = 0; c < res; ++c) {
        const double col = c * step + -1.0;
        const double radius = std::fmin(std::fmax(std::sqrt(col * col + row * row), .04), 1.0);
        bowl_[static_cast<std::size_t>(r) * res + c] = .5 - std::cos(2 * kPi * radius) / 2;
      }
    }
  }

  // Escape.initialize_episode's terrain: the bowl times smooth random bumps
  // (uniform(smoothness, 1) on a bump_res^2 grid, zoomed to res^2 by cubic
  // splines as ndimage.zoom does), written into this env's model.
  void NewTerrain(Rng& rng) {
    const int res = m_->hfield_nrow[0];
    const double terrain_size = 2 * m_->hfield_size[0];
    const int bump_res = static_cast<int>(terrain_size / kTerrainBumpScale);
    std::vector<double> bumps(static_cast<std::size_t>(bump_res) * bump_res);
    for (double& b : bumps) b = rng.Uniform(kTerrainSmoothness, 1);
    const double zoom = res / static_cast<double>(bump_res);
    const int zoomed = static_cast<int>(std::round(bump_res * zoom));
    if (zoomed != res) throw std::runtime_error("quadruped escape: the zoomed bumps do not fit");
    const std::vector<double> smooth = quadruped_detail::ZoomCubic(std::move(bumps), bump_res, res);
    float* data = m_->hfield_data + m_->hfield_adr[0];
    for (std::size_t i = 0; i < smooth.size(); ++i) {
      data[i] = static_cast<float>(bowl_[i] * smooth[i]);
    }
  }

  Params p_;
  int torso_, root_qpos_, velocimeter_;
  std::vector<std::pair<int, int>> imu_, force_torque_, rangefinder_;  // (adr, dim)
  int workspace_, floor_;
  std::vector<int> hinge_qpos_, hinge_dof_;
  std::vector<double> bowl_;  // Escape
  int ball_ = -1, ball_qpos_ = -1, ball_dof_ = -1, root_dof_ = -1, target_ = -1,
      ball_geom_ = -1;  // Fetch
};

}  // namespace envpool::dm_control
