// SearchAndRescue-v0: jumanji 1.1.2's environments/swarms/search_and_rescue (2 searchers, 40
// targets in the unit square with wrapped edges; RandomGenerator(num_targets=40,
// num_searchers=2), RandomWalk(acc_std=0.0001, vel_max=0.002), IndividualRewardFn(),
// AgentAndTargetObservationFn(num_vision=128, searcher_vision_range=0.4,
// target_vision_range=0.1, view_angle=0.4, agent_radius=0.02), target_contact_range 0.02,
// searchers turning by at most 0.25 pi and accelerating by at most 0.005 a step, speeds in
// [0.005, 0.02], time_limit 400), float32 as XLA's CPU backend compiles jumanji's jitted
// reset and step (jaxlib 0.10.2, read from its optimised HLO):
//
// Reset (RandomGenerator): `key, searcher_key, target_key = split(key, 3)` (key becomes
// state.key), `k_pos, k_head, k_speed = split(searcher_key, 3)`; the searchers' positions
// uniform(k_pos, (2, 2)), headings uniform(k_head, (2,), 0, float32(2 pi)), speeds
// uniform(k_speed, (2,), 0.005, 0.02); the targets' positions uniform(target_key, (40, 2)),
// velocities 0, none found, step 0.
//
// A step (actions (2, 2): per searcher (rotation, acceleration), clipped to [-1, 1]):
// `key, target_key = split(state.key)`. Each searcher: heading = (heading + a0 * 0.25 pi) mod
// 2 pi (XLA folds 0.25 * float32(pi) into one constant), speed = clip(speed + a1 * 0.005,
// 0.005, 0.02), position = (position + speed * (cos, sin)(heading)) mod 1 (jnp.remainder:
// C's fmodf, plus the modulus where that is negative; cos / sin: the C library's cosf /
// sinf, which XLA calls). Each target (RandomWalk): vel += 0.0001 * normal(target_key, (40,
// 2)), computed as erf_inv(u) * float32(float32(sqrt 2) * 0.0001) (jax_random's
// NormalErfInvF32); where |vel| > 0.002 it becomes vel * ((1 / |vel|) * 0.002) (XLA's
// rewrite of 0.002 * vel / |vel|); position = (position + vel) mod 1. Then, with the new
// positions and headings, a searcher finds a target not found before that lies within
// 0.02 and within its view cone (|heading - the bearing of the target| <= 0.4 pi, angles
// taken the short way round). Reward per searcher: each target found this step counts 1 /
// (the number of searchers that found it), their sum times float32(400 - step) * 0.0025
// (the step before this one; XLA's product with the reciprocal of 400). The pool's reward
// is the float32 sum of the two (info "agent_rewards": jumanji's per-searcher rewards).
// The episode ends (termination) at step 400 or when every target is found.
//
// Observation: searcher_views (2, 3, 128): per searcher, 128 rays evenly over its view
// cone (jnp.linspace(-0.4 pi, 0.4 pi, 128)); channel 0 the other searcher, 1 the found
// targets, 2 the others: along each ray the distance to the nearest one whose disc (radius
// 0.02) the ray crosses, over the vision range (0.4 for searchers, 0.1 for targets), or -1.
// targets_remaining: 1 - found / 40 (a product with float32(0.025)); step; positions: the
// searchers' positions.
//
// esquilax 2.1.0's spatial transform (esquilax.transforms.spatial), which gathers those
// pairs, bins the agents into n x n cells of the unit square (n = floor(1 / range): 50 for
// finding targets, 2 for seeing searchers, 10 for seeing targets) and looks at the pairs
// within the range in a cell and its 8 neighbours (wrapped); its reductions (an or, the
// nearest distance along each ray) give the same result in any order, so only which pairs
// it visits matters: an agent b is in the cell of index cx * n + cy from jnp.floor_divide(
// position, 1 / n) (fmodf, then the product with n, rounded half away from zero; an index
// past n * n is in no cell), and pairs are within range where the squared wrapped distance
// is <= float32(range ** 2).
//
// Float32 arithmetic: where XLA may use FMA instructions (`fused`, the hidden keyword
// _xla_fma, as for TSP) LLVM fuses a product that feeds a sum: the heading's, speed's and
// position's updates, the targets' velocity update, the uniform draws' scale-and-shift,
// each sum of two squares (x0 * x0 + x1 * x1 is fma(x0, x0, x1 * x1), as XLA's CPU loop
// reduces two elements), the rays' jnp.linspace (start * (1 - s) + stop * s is fma(stop, s,
// start * (1 - s)), s = k * float32(1 / 127) rounded), targets_remaining (fma(-found,
// 0.025, 1)).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "envs/common/keywords.h"
#include "envs/common/xla_math.h"
#include "envs/jumanji/jumanji_env.h"

namespace envpool::jumanji {

class SearchAndRescue final : public JumanjiEnv {
 public:
  static constexpr int kSearchers = 2;
  static constexpr int kTargets = 40;
  static constexpr int kVision = 128;
  static constexpr int kTimeLimit = 400;

  using Params = XlaFmaParams;
  static Config Defaults() { return Params::Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec;
    spec.obs_layout = ObsLayout::kDict;
    spec.obs.push_back(
        BoxSpec("searcher_views", DType::kFloat32, {kSearchers, 3, kVision}, {-1.0}, {1.0}));
    spec.obs.push_back(BoxSpec("targets_remaining", DType::kFloat32, {}, {0.0}, {1.0}));
    spec.obs.push_back(DiscreteSpec("step", kTimeLimit + 1, DType::kInt32));
    spec.obs.push_back(BoxSpec("positions", DType::kFloat32, {kSearchers, 2}, {0.0}, {1.0}));
    spec.action = BoxSpec("action", DType::kFloat32, {kSearchers, 2}, {-1.0}, {1.0});
    spec.info.push_back(BoxSpec("agent_rewards", DType::kFloat32, {kSearchers}, {0.0},
                                {static_cast<double>(kTargets)}));
    spec.reward_low = 0.0;
    spec.reward_high = kTargets;
    return spec;
  }

  explicit SearchAndRescue(const Params& params) : fused_(params.fused) {}
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return JumanjiFrame(width, height, camera_id);
  }

  void Reset(Rng& /*rng*/) override {
    const Key use = ResetKey();
    key_ = jax_random::SplitAt(use, 0);
    const Key searcher_key = jax_random::SplitAt(use, 1);
    const Key target_key = jax_random::SplitAt(use, 2);
    const Key pos_key = jax_random::SplitAt(searcher_key, 0);
    const Key head_key = jax_random::SplitAt(searcher_key, 1);
    const Key speed_key = jax_random::SplitAt(searcher_key, 2);
    for (int i = 0; i < kSearchers; ++i) {
      for (int k = 0; k < 2; ++k) {
        searcher_pos_[i][k] = Uniform(pos_key, 2 * i + k, 0.0F, 1.0F);
      }
      heading_[i] = Uniform(head_key, i, 0.0F, kTwoPi);
      speed_[i] = Uniform(speed_key, i, kMinSpeed, kMaxSpeed);
    }
    for (int j = 0; j < kTargets; ++j) {
      for (int k = 0; k < 2; ++k) {
        target_pos_[j][k] = Uniform(target_key, 2 * j + k, 0.0F, 1.0F);
        target_vel_[j][k] = 0.0F;
      }
    }
    found_.fill(false);
    step_ = 0;
    rewards_.fill(0.0F);
    Observe();
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const float* a = action.As<float>();
    const Key target_key = jax_random::SplitAt(key_, 1);
    key_ = jax_random::SplitAt(key_, 0);
    // common/updates.update_state
    for (int i = 0; i < kSearchers; ++i) {
      const float rotate = Clip(a[2 * i], -1.0F, 1.0F);
      const float accelerate = Clip(a[2 * i + 1], -1.0F, 1.0F);
      heading_[i] = Remainder(MulAdd(rotate, kRotate, heading_[i]), kTwoPi);
      speed_[i] = Clip(MulAdd(accelerate, kAccelerate, speed_[i]), kMinSpeed, kMaxSpeed);
      const float along[2] = {std::cos(heading_[i]), std::sin(heading_[i])};
      for (int k = 0; k < 2; ++k) {
        searcher_pos_[i][k] = Remainder(MulAdd(speed_[i], along[k], searcher_pos_[i][k]), 1.0F);
      }
    }
    // dynamics.RandomWalk
    for (int j = 0; j < kTargets; ++j) {
      auto& vel = target_vel_[j];
      for (int k = 0; k < 2; ++k) {
        const float e = jax_random::NormalErfInvF32(target_key, 2 * j + k, fused_);
        vel[k] = MulAdd(e, kAccScale, vel[k]);
      }
      const float norm = std::sqrt(SumOfSquares(vel[0], vel[1]));
      if (norm > kVelMax) {
        const float scale = (1.0F / norm) * kVelMax;
        vel[0] = vel[0] * scale;
        vel[1] = vel[1] * scale;
      }
      for (int k = 0; k < 2; ++k) target_pos_[j][k] = Remainder(target_pos_[j][k] + vel[k], 1.0F);
    }
    // utils.searcher_detect_targets over esquilax's pairs within the contact range
    std::array<std::array<bool, kTargets>, kSearchers> detected{};
    const Grid contact(50);
    const float view_angle = kViewAngle * kPi;
    for (int i = 0; i < kSearchers; ++i) {
      for (int j = 0; j < kTargets; ++j) {
        if (found_[j] || !Visits(contact, searcher_pos_[i], target_pos_[j], kContactRange2)) {
          continue;
        }
        const float dh = Bearing(searcher_pos_[i], target_pos_[j], heading_[i]);
        detected[i][j] = dh >= -view_angle && dh <= view_angle;
      }
    }
    // reward.IndividualRewardFn: split between the finders, scaled by the time left
    const float scale = static_cast<float>(kTimeLimit - step_) * (1.0F / kTimeLimit);
    std::array<float, kSearchers> found_by{};
    for (int j = 0; j < kTargets; ++j) {
      float finders = 0.0F;
      for (int i = 0; i < kSearchers; ++i) finders += detected[i][j] ? 1.0F : 0.0F;
      for (int i = 0; i < kSearchers; ++i) found_by[i] += detected[i][j] ? 1.0F / finders : 0.0F;
    }
    float reward = 0.0F;
    for (int i = 0; i < kSearchers; ++i) {
      rewards_[i] = scale * found_by[i];
      reward += rewards_[i];
    }
    bool all_found = true;
    for (int j = 0; j < kTargets; ++j) {
      for (int i = 0; i < kSearchers; ++i) found_[j] = found_[j] || detected[i][j];
      all_found = all_found && found_[j];
    }
    ++step_;
    Observe();
    const bool done = step_ >= kTimeLimit || all_found;
    return Outcome(reward, done ? StepType::kTermination : StepType::kMid);
  }

  void Write(const Slot& slot) const override {
    float* views = slot.Obs<float>(0);
    for (const auto& searcher : views_) {
      for (const auto& channel : searcher) views = std::copy(channel.begin(), channel.end(), views);
    }
    int found = 0;
    for (bool f : found_) found += f ? 1 : 0;
    // 1.0 - sum(found) / 40: XLA's product with the reciprocal, fused into the difference
    *slot.Obs<float>(1) = MulAdd(-static_cast<float>(found), 1.0F / kTargets, 1.0F);
    *slot.Obs<std::int32_t>(2) = step_;
    float* positions = slot.Obs<float>(3);
    for (const auto& p : searcher_pos_) positions = std::copy(p.begin(), p.end(), positions);
    std::copy(rewards_.begin(), rewards_.end(), slot.Info<float>(0));
  }

 private:
  // jumanji's State, its fields in sorted order (chex dataclasses flatten so): key, the
  // searchers (heading, pos, speed), step, the targets (found, pos, vel).
  void WriteState(StateLeaves& out) const override {
    out.KeyLeaf(key_).Add(heading_, {kSearchers}).AddRows(searcher_pos_, {kSearchers, 2});
    out.Add(speed_, {kSearchers}).Scalar(step_).Add(found_, {kTargets});
    out.AddRows(target_pos_, {kTargets, 2}).AddRows(target_vel_, {kTargets, 2});
  }

  using Vec = std::array<float, 2>;
  using View = std::array<float, kVision>;

  // jumanji's constants as float32 (XLA folds 0.25 * pi into the rotation's factor and
  // sqrt(2) * 0.0001 into the acceleration's).
  static constexpr float kPi = static_cast<float>(3.141592653589793);
  static constexpr float kTwoPi = static_cast<float>(2.0 * 3.141592653589793);
  static constexpr float kRotate = 0.25F * kPi;
  static constexpr float kAccelerate = 0.005F;
  static constexpr float kMinSpeed = 0.005F;
  static constexpr float kMaxSpeed = 0.02F;
  static constexpr float kAccScale = static_cast<float>(1.4142135623730951) * 0.0001F;
  static constexpr float kVelMax = 0.002F;
  static constexpr float kViewAngle = 0.4F;      // a fraction of pi
  static constexpr float kAgentRadius = 0.02F;   // = target_contact_range
  static constexpr float kContactRange2 = static_cast<float>(0.02 * 0.02);
  static constexpr float kSearcherRange2 = static_cast<float>(0.4 * 0.4);
  static constexpr float kTargetRange2 = static_cast<float>(0.1 * 0.1);

  float MulAdd(float a, float b, float c) const { return xla_math::XlaMulAdd(a, b, c, fused_); }
  // x0 * x0 + x1 * x1 as XLA's CPU loop reduces the two squares.
  float SumOfSquares(float x0, float x1) const { return MulAdd(x0, x0, x1 * x1); }
  float Uniform(const Key& key, int i, float minval, float maxval) const {
    return jax_random::UniformF32(key, static_cast<std::uint32_t>(i), minval, maxval, fused_);
  }

  // XLA's clamp (NaN stays NaN).
  static float Clip(float x, float lo, float hi) {
    return std::isnan(x) ? x : std::min(std::max(x, lo), hi);
  }
  // jnp.remainder(x, m) for m > 0: fmodf, plus m where that is negative.
  static float Remainder(float x, float m) {
    const float r = std::fmod(x, m);
    return r < 0.0F ? r + m : r;
  }
  // jnp.sign: -1, 1, or x itself (+-0, NaN).
  static float Sign(float x) { return x > 0.0F ? 1.0F : (x < 0.0F ? -1.0F : x); }
  // esquilax.utils.shortest_vector(a, b, length), one coordinate: b - a, or the way round.
  static float Shortest(float a, float b, float length) {
    const float x = b - a;
    const float around = Sign(x) * (std::fabs(x) + -length);
    return std::fabs(x) < std::fabs(around) ? x : around;
  }
  // XLA's conversion of a float32 to int32: NaN is 0, out-of-range values saturate.
  static std::int32_t ToInt32(float x) {
    if (std::isnan(x)) return 0;
    if (x >= 2147483648.0F) return std::numeric_limits<std::int32_t>::max();
    if (x < -2147483648.0F) return std::numeric_limits<std::int32_t>::min();
    return static_cast<std::int32_t>(x);
  }

  // esquilax's cells: n x n of width 1 / n (the float32 of the Python float); the cell
  // co-ordinate of x is jnp.floor_divide(x, width) as XLA computes it: (x - fmodf(x, width))
  // times float32(1 / width), less 1 where fmodf is negative, rounded half away from zero.
  struct Grid {
    explicit Grid(int cells)
        : n(cells),
          width(static_cast<float>(1.0 / cells)),
          inverse(1.0F / static_cast<float>(1.0 / cells)) {}
    std::int32_t Coord(float x) const {
      const float mod = std::fmod(x, width);
      float div = (x - mod) * inverse;
      if (mod != 0.0F && !(mod > 0.0F)) div = div + -1.0F;
      return ToInt32(std::round(div));
    }
    // jnp.remainder of an int32 by n.
    std::int32_t Wrap(std::int32_t c) const {
      const std::int32_t r = c % n;
      return r < 0 ? r + n : r;
    }
    int n;
    float width;
    float inverse;
  };

  // Whether esquilax's spatial transform visits the pair (a, b): b's cell (its index cx * n +
  // cy as computed, clipped below at 0; none past n * n - 1) is a's cell or one of its 8
  // neighbours, wrapped, and the squared wrapped distance is within range2.
  bool Visits(const Grid& grid, const Vec& a, const Vec& b, float range2) const {
    std::int64_t index = static_cast<std::int64_t>(grid.Coord(b[0])) * grid.n + grid.Coord(b[1]);
    index = std::max<std::int64_t>(index, 0);
    if (index >= static_cast<std::int64_t>(grid.n) * grid.n) return false;
    const std::int32_t ax = grid.Coord(a[0]);
    const std::int32_t ay = grid.Coord(a[1]);
    bool near = false;
    for (int dx = -1; dx <= 1 && !near; ++dx) {
      for (int dy = -1; dy <= 1 && !near; ++dy) {
        near = static_cast<std::int64_t>(grid.Wrap(ax + dx)) * grid.n + grid.Wrap(ay + dy) ==
               index;
      }
    }
    if (!near) return false;
    // esquilax.utils.shortest_distance(a, b, norm=False)
    std::array<float, 2> d{};
    for (int k = 0; k < 2; ++k) {
      const float x = std::fabs(a[k] - b[k]);
      d[k] = x > 0.5F ? 1.0F - x : x;
    }
    return SumOfSquares(d[0], d[1]) <= range2;
  }

  // The bearing of b from a (atan2 mod 2 pi) against a's heading, the short way round:
  // shortest_vector(phi, heading, 2 pi).
  static float Bearing(const Vec& a, const Vec& b, float heading) {
    const float dx = Shortest(a[0], b[0], 1.0F);
    const float dy = Shortest(a[1], b[1], 1.0F);
    const float phi = Remainder(std::atan2(dy, dx), kTwoPi);
    return Shortest(phi, heading, kTwoPi);
  }

  // common/updates.view / search_and_rescue's _target_view: a's view of b (as
  // angular_width), folded into `view` with view_reduction_fn (the nearest distance along
  // each ray, -1 where none).
  void See(const Vec& a, float heading, const Vec& b, float inverse_range, View& view) const {
    const float dx = Shortest(a[0], b[0], 1.0F);
    const float dy = Shortest(a[1], b[1], 1.0F);
    const float dist = std::sqrt(SumOfSquares(dx, dy));
    const float phi = Remainder(std::atan2(dy, dx), kTwoPi);
    const float dh = Shortest(phi, heading, kTwoPi);
    const float width = std::atan2(kAgentRadius, dist);
    const float norm = dist * inverse_range;
    const float left = dh - width;
    const float right = dh + width;
    for (int k = 0; k < kVision; ++k) {
      const float value = left < rays_[k] && rays_[k] < right ? norm : -1.0F;
      view[k] = view[k] < 0.0F || value < 0.0F ? std::max(view[k], value)
                                               : std::min(view[k], value);
    }
  }

  // AgentAndTargetObservationFn over the current state.
  void Observe() {
    for (auto& searcher : views_) {
      for (auto& channel : searcher) channel.fill(-1.0F);
    }
    const Grid searchers(2);
    const Grid targets(10);
    for (int i = 0; i < kSearchers; ++i) {
      for (int j = 0; j < kSearchers; ++j) {
        if (j != i && Visits(searchers, searcher_pos_[i], searcher_pos_[j], kSearcherRange2)) {
          See(searcher_pos_[i], heading_[i], searcher_pos_[j], 1.0F / 0.4F, views_[i][0]);
        }
      }
      for (int j = 0; j < kTargets; ++j) {
        if (Visits(targets, searcher_pos_[i], target_pos_[j], kTargetRange2)) {
          See(searcher_pos_[i], heading_[i], target_pos_[j], 1.0F / 0.1F,
              views_[i][found_[j] ? 1 : 2]);
        }
      }
    }
  }

  // jnp.linspace(-0.4 pi, 0.4 pi, 128): start * (1 - s) + stop * s with s = k * float32(1 /
  // 127) (1 - s rounded: LLVM folds these constants without fusing), the last ray stop.
  std::array<float, kVision> Rays() const {
    std::array<float, kVision> rays{};
    const float stop = kViewAngle * kPi;
    const float start = -kViewAngle * kPi;
    const float step = 1.0F / static_cast<float>(kVision - 1);
    for (int k = 0; k + 1 < kVision; ++k) {
      const float s = static_cast<float>(k) * step;
      rays[k] = MulAdd(stop, s, start * (1.0F - s));
    }
    rays[kVision - 1] = stop;
    return rays;
  }

  bool fused_;
  std::array<float, kVision> rays_ = Rays();
  Key key_{};
  std::array<Vec, kSearchers> searcher_pos_{};
  std::array<float, kSearchers> heading_{};
  std::array<float, kSearchers> speed_{};
  std::array<Vec, kTargets> target_pos_{};
  std::array<Vec, kTargets> target_vel_{};
  std::array<bool, kTargets> found_{};
  std::int32_t step_ = 0;
  std::array<float, kSearchers> rewards_{};
  std::array<std::array<View, 3>, kSearchers> views_{};
};

}  // namespace envpool::jumanji
