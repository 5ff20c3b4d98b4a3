// The opponents of MyoChallenge 2023's chase-tag task (myosuite 2.12.2,
// envs/myo/myochallenge/chasetag_v0.py): ChallengeOpponent and RepellerChallengeOpponent, a
// mocap body ("opponent") moved each step before the physics, drawing from the env's
// np_random.
//
// What the package does, restated:
//   - Pose: (mocap_pos x, y, quat2euler(mocap_quat)[2]) of the env's mj_data; setting it
//     writes mocap_pos x, y and mocap_quat = euler2quat(0, 0, angle). The package's robot
//     simulates on its own MjData and resets that one (mj_resetData), so the env's mocap body
//     is never reset: a reset's observation shows the opponent where its last move left it
//     (the previous episode's end, or the construction step's move), and the opponent's
//     geoms (contype 0) are never in the physics. A move always reads the pose back from the quat,
//     so even a standing opponent's quat goes through quat2euler and euler2quat each step.
//   - Noise: pink.ColoredNoiseProcess(beta=2, size=(2, 2000), scale=10, rng=np_random)
//     (envs/common/pink_noise.h): a buffer of 2 x 2000 numbers drawn at once (4004 standard
//     normals from np_random, numpy's irfft), sampled one column a step (times 10) and redrawn
//     when used up.
//     ChallengeOpponent makes a new one at every reset_opponent(rng=...) (its construction
//     and each env reset); RepellerChallengeOpponent makes one at construction, then calls
//     reset_opponent() without rng (no new one), then a new one at each env reset.
//   - reset_opponent(task): opponent_vel = 0; for the player's CHASE a policy drawn
//     (uniform() against the cumulated probabilities: static_stationary, stationary, random,
//     and the repeller's fourth; a draw past their sum keeps the previous policy), for EVADE
//     chase_player; then poses (uniform(-5, 5), uniform(-5, 5), uniform(-2 pi, 2 pi)) drawn
//     until the xy is at least min_spawn_distance from body "root"'s xpos (norm: BLAS's dot);
//     static_stationary then stands at (0, -5, 0); then chase_velocity = uniform(chase range).
//   - update_opponent_state: the policy's velocity (lin, rot): zero standing; the noise's
//     sample clipped to random_vel_range (random); (chase_velocity, (cos a, sin a) . (pelvis -
//     pose)) (chase_player); the repeller's (below). move_opponent(vel): opponent_vel is vel
//     with |vel[0]| (the same array, before the clip), vel clipped to [-2, 2], then x -= dt
//     vel0 cos(a + pi / 2), y -= dt vel0 sin(a + pi / 2), a += dt vel1, x and y clipped to
//     [-5.5, 5.5].
//   - The repeller: the obstacles are the pelvis's xy and 100 wall points (x = +-8.7 against
//     linspace(-8.7, 8.7, 25) for y, then the same swapped); those nearer than 3.5. None: the
//     noise's sample (lin, rot), lin clipped to repeller_vel_range, the turn toward rot.
//     Else: the linear velocity is the mean of 10 (1 / max(d, 1e-5) - 1 / 3.5)^2 clipped to
//     repeller_vel_range, the escape vector the pose minus the obstacles' mean (a component
//     within 0.1 of 0 replaced by -sign * uniform(0.3, 0.9), in order), the turn toward its
//     arctan2 + 1.57. The turn (_calc_angular_vel): both angles brought into [0, 2 pi] by
//     steps of 2 pi, 1 when |current| + (2 pi - desired) < (2 pi - current) + desired, else -1.
#pragma once

#include <mujoco/mujoco.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/common/mujoco_env.h"
#include "envs/common/numpy_blas.h"
#include "envs/common/numpy_normal.h"
#include "envs/common/numpy_random.h"
#include "envs/common/pink_noise.h"
#include "envs/common/rotations.h"

namespace envpool::myosuite {

// np.clip(x, lo, hi) of a float64: max then min, a NaN kept.
inline double ChaseClip(double x, double lo, double hi) {
  if (std::isnan(x)) return x;
  const double t = x > lo ? x : lo;
  return t < hi ? t : hi;
}

class ChaseTagOpponent {
 public:
  enum class Policy { kNone, kStaticStationary, kStationary, kRandom, kRepeller, kChasePlayer };

  struct Settings {
    bool repeller = false;
    std::vector<double> probabilities;
    double min_spawn_distance = 2.0;
    std::pair<double, double> chase_vel{1.0, 1.0}, random_vel{1.0, 1.0}, repeller_vel{1.0, 1.0};
    double dt = 0.01;
    bool dot_fma = true;
  };

  ChaseTagOpponent() = default;
  ChaseTagOpponent(Settings s, NumpyZiggurat ziggurat) : s_(std::move(s)), z_(std::move(ziggurat)) {
    // get_wall_pos: np.linspace(-8.7, 8.7, 25) as numpy computes it.
    const double lo = -8.7, hi = 8.7;
    const int n = 25;
    const double step = (hi - lo) / (n - 1);
    std::vector<double> b(n);
    for (int i = 0; i < n; ++i) b[i] = i == n - 1 ? hi : static_cast<double>(i) * step + lo;
    for (double y : b) walls_.push_back({8.7, y});
    for (double y : b) walls_.push_back({-8.7, y});
    for (double y : b) walls_.push_back({y, 8.7});
    for (double y : b) walls_.push_back({y, -8.7});
  }

  // __init__: ChallengeOpponent's reset_opponent(rng=rng) (a new noise process);
  // RepellerChallengeOpponent's own noise process, then reset_opponent() (none new). The
  // player's task is CHASE.
  void Construct(NumpyGenerator& rng, const double root[2]) {
    policy_ = Policy::kNone;
    noise_ = ColoredNoiseProcess(2.0, 2, 2000, 10.0, 0.0, rng, z_);
    ResetOpponent(true, rng, root, false);
  }

  // reset_opponent(player_task, rng=np_random): a new noise process.
  void Reset(bool chase, NumpyGenerator& rng, const double root[2]) {
    ResetOpponent(chase, rng, root, true);
  }

  // update_opponent_state.
  void Update(NumpyGenerator& rng, const double pelvis[2]) {
    std::array<double, 2> vel{0.0, 0.0};
    switch (policy_) {
      case Policy::kStaticStationary:
      case Policy::kStationary:
        break;
      case Policy::kRandom:
        vel = RandomMovement(rng);
        break;
      case Policy::kRepeller:
        vel = Repeller(rng, pelvis);
        break;
      case Policy::kChasePlayer:
        vel = ChasePlayer(pelvis);
        break;
      case Policy::kNone:
        throw std::runtime_error(
            "MyoChallengeChaseTag: no opponent policy was drawn (the opponent probabilities "
            "sum to less than the draw)");
    }
    Move(vel);
  }

  // get_opponent_pose: (x, y, angle).
  std::array<double, 3> Pose() const {
    return {mocap_pos_[0], mocap_pos_[1], rotations::Quat2Euler(mocap_quat_)[2]};
  }

  // The env's mocap body where a new MjData has it (the model's body_pos and body_quat).
  void ResetMocap(const mjModel* m) {
    int b = 0;
    while (b < m->nbody && m->body_mocapid[b] != 0) ++b;
    for (int k = 0; k < 3; ++k) mocap_pos_[k] = m->body_pos[3 * b + k];
    for (int k = 0; k < 4; ++k) mocap_quat_[k] = m->body_quat[4 * b + k];
  }
  // The mocap body's pose into `d` (for drawing: the opponent's geoms collide with nothing).
  void WriteMocap(mjData* d) const {
    for (int k = 0; k < 3; ++k) d->mocap_pos[k] = mocap_pos_[k];
    for (int k = 0; k < 4; ++k) d->mocap_quat[k] = mocap_quat_[k];
  }

  const std::array<double, 2>& Velocity() const { return vel_; }
  void SetDt(double dt) { s_.dt = dt; }
  Policy CurrentPolicy() const { return policy_; }

 private:
  void ResetOpponent(bool chase, NumpyGenerator& rng, const double root[2], bool new_noise) {
    if (new_noise) noise_.Reset(rng, z_);
    vel_ = {0.0, 0.0};
    if (chase) {
      SamplePolicy(rng);
    } else {
      policy_ = Policy::kChasePlayer;
    }
    std::array<double, 3> pose{};
    double dist = 0.0;
    while (dist < s_.min_spawn_distance) {
      pose[0] = rng.Uniform(-5.0, 5.0);
      pose[1] = rng.Uniform(-5.0, 5.0);
      pose[2] = rng.Uniform(-2 * M_PI, 2 * M_PI);
      const double diff[2] = {pose[0] - root[0], pose[1] - root[1]};
      dist = std::sqrt(NumpyBlas::Sum(diff, diff, 2, s_.dot_fma));
    }
    if (policy_ == Policy::kStaticStationary) pose = {0.0, -5.0, 0.0};
    SetPose(pose);
    vel_ = {0.0, 0.0};
    chase_velocity_ = rng.Uniform(s_.chase_vel.first, s_.chase_vel.second);
  }

  void SamplePolicy(NumpyGenerator& rng) {
    const std::vector<double>& p = s_.probabilities;
    const double r = rng.NextDouble();
    if (r < p[0]) {
      policy_ = Policy::kStaticStationary;
    } else if (r < p[0] + p[1]) {
      policy_ = Policy::kStationary;
    } else if (r < p[0] + p[1] + p[2]) {
      policy_ = Policy::kRandom;
    } else if (s_.repeller) {
      policy_ = Policy::kRepeller;
    }
  }

  // set_opponent_pose.
  void SetPose(const std::array<double, 3>& pose) {
    mocap_pos_[0] = pose[0];
    mocap_pos_[1] = pose[1];
    mocap_quat_ = rotations::Euler2Quat({0.0, 0.0, pose[2]});
  }

  // move_opponent.
  void Move(std::array<double, 2> vel) {
    vel[0] = std::fabs(vel[0]);
    vel_ = vel;
    for (double& v : vel) v = ChaseClip(v, -2.0, 2.0);
    std::array<double, 3> pose = Pose();
    const double x_vel = vel[0] * std::cos(pose[2] + 0.5 * M_PI);
    const double y_vel = vel[0] * std::sin(pose[2] + 0.5 * M_PI);
    pose[0] -= s_.dt * x_vel;
    pose[1] -= s_.dt * y_vel;
    pose[2] += s_.dt * vel[1];
    pose[0] = ChaseClip(pose[0], -5.5, 5.5);
    pose[1] = ChaseClip(pose[1], -5.5, 5.5);
    SetPose(pose);
  }

  // random_movement: the noise's sample clipped to random_vel_range.
  std::array<double, 2> RandomMovement(NumpyGenerator& rng) {
    const std::vector<double> s = noise_.Sample(rng, z_);
    const auto [lo, hi] = s_.random_vel;
    return {ChaseClip(s[0], lo, hi), ChaseClip(s[1], lo, hi)};
  }

  // chase_player.
  std::array<double, 2> ChasePlayer(const double pelvis[2]) const {
    const std::array<double, 3> pose = Pose();
    const double heading[2] = {std::cos(pose[2]), std::sin(pose[2])};
    const double to_player[2] = {pelvis[0] - pose[0], pelvis[1] - pose[1]};
    return {chase_velocity_, NumpyBlas::Sum(heading, to_player, 2, s_.dot_fma)};
  }

  // _calc_angular_vel.
  static double Turn(double current, double desired) {
    constexpr double kTwoPi = 2 * M_PI;
    for (double* a : {&current, &desired}) {
      if (*a > kTwoPi) {
        while (*a > kTwoPi) *a = *a - kTwoPi;
      } else if (*a < 0) {
        while (*a < 0) *a = *a + kTwoPi;
      }
    }
    const double clock = std::fabs(0 - current) + (kTwoPi - desired);
    const double anticlock = (kTwoPi - current) + (0 + desired);
    return clock < anticlock ? 1.0 : -1.0;
  }

  // repeller_stochastic.
  std::array<double, 2> Repeller(NumpyGenerator& rng, const double pelvis[2]) {
    constexpr double kInfluence = 3.5, kEta = 20.0;
    const std::array<double, 3> pose = Pose();
    std::vector<std::array<double, 2>> near;
    std::vector<double> force;
    auto consider = [&](const std::array<double, 2>& o) {
      const double diff[2] = {o[0] - pose[0], o[1] - pose[1]};
      const double dist = std::sqrt(NumpyBlas::Sum(diff, diff, 2, s_.dot_fma));
      if (dist < kInfluence) {
        near.push_back(o);
        // np.maximum keeps a NaN.
        const double m = std::isnan(dist) ? dist : (dist > 0.00001 ? dist : 0.00001);
        const double t = 1 / m - 1 / kInfluence;
        force.push_back(0.5 * kEta * (t * t));
      }
    };
    consider({pelvis[0], pelvis[1]});
    for (const auto& w : walls_) consider(w);
    const auto [lo, hi] = s_.repeller_vel;
    if (near.empty()) {
      const std::vector<double> s = noise_.Sample(rng, z_);
      return {ChaseClip(s[0], lo, hi), Turn(pose[2], s[1])};
    }
    // np.mean over axis 0 (the rows added in order) and over the forces (add.reduce).
    const double k = static_cast<double>(near.size());
    double com[2] = {near[0][0], near[0][1]};
    for (std::size_t i = 1; i < near.size(); ++i) {
      com[0] += near[i][0];
      com[1] += near[i][1];
    }
    com[0] /= k;
    com[1] /= k;
    const double linear =
        ChaseClip(mujoco::NumpySum(force.data(), static_cast<std::int64_t>(force.size())) / k,
                  lo, hi);
    double escape[2] = {pose[0] - com[0], pose[1] - com[1]};
    const bool equil[2] = {std::fabs(escape[0]) <= 0.1, std::fabs(escape[1]) <= 0.1};
    for (int i = 0; i < 2; ++i) {
      if (!equil[i]) continue;
      // -1 * np.sign(x) * uniform(0.3, 0.9).
      const double sign = escape[i] > 0 ? 1.0 : (escape[i] < 0 ? -1.0 : 0.0);
      const double neg = -1 * sign;
      escape[i] = neg * rng.Uniform(0.3, 0.9);
    }
    const double direction = std::atan2(escape[1], escape[0]) + 1.57;
    return {linear, Turn(pose[2], direction)};
  }

  Settings s_;
  NumpyZiggurat z_;  // numpy's ziggurat tables (the normal draws)
  std::vector<std::array<double, 2>> walls_;
  ColoredNoiseProcess noise_;  // pink.ColoredNoiseProcess(beta=2, size=(2, 2000), scale=10)
  Policy policy_ = Policy::kNone;
  std::array<double, 2> vel_{0.0, 0.0};
  double chase_velocity_ = 0.0;
  // The env's mjData's mocap body (the package's env data, which its robot never resets: the
  // physics runs on the robot's own data, whose mocap body stays where the model puts it).
  std::array<double, 3> mocap_pos_{0.0, 0.0, 0.0};
  rotations::Quat mocap_quat_{1.0, 0.0, 0.0, 0.0};
};

}  // namespace envpool::myosuite
