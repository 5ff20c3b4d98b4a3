// TSP-v1: jumanji 1.1.2's environments/routing/tsp (20 cities, DenseReward).
//
// Reset: `key, sample_key = split(key)`; the coordinates are uniform(sample_key, (20, 2))
// (city i's x is draw 2i, its y draw 2i + 1; float32 in [0, 1)). The position starts at
// -1 and the trajectory all -1. The action visits a city: valid when not visited yet.
// Reward (float32): 0 for the first city; else minus the distance from the previous city
// (an invalid action: -20 * sqrt(2)); the step that visits the last city also subtracts
// the distance back to the first. The episode ends (termination) after an invalid action
// or when every city is visited. The action mask is the unvisited cities.
//
// Distances are jnp.linalg.norm of a 2-vector as XLA computes it (Norm2).
//
// Keyword (sail-sg EnvPool's): tsp_coordinates ("" or 40 numbers, x0, y0, x1, ..., read
// as float32: every episode has them).
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "envs/common/keywords.h"
#include "envs/jumanji/jumanji_env.h"

namespace envpool::jumanji {

class Tsp final : public JumanjiEnv {
 public:
  static constexpr int kCities = 20;

  struct Params {
    std::string coordinates_text;
    bool fused = true;
    std::vector<double> coordinates;  // parsed
    static Keywords<Params> Keys() {
      Keywords<Params> k;
      k.Add("tsp_coordinates", std::string(), &Params::coordinates_text);
      k.Add("_xla_fma", true, &Params::fused);
      return k;
    }
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      coordinates = ParseNumbers("tsp_coordinates", coordinates_text, 2 * kCities);
    }
  };
  static Config Defaults() { return Params::Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec;
    spec.obs_layout = ObsLayout::kDict;
    spec.obs.push_back(BoxSpec("coordinates", DType::kFloat32, {kCities, 2}, {0.0}, {1.0}));
    spec.obs.push_back(DiscreteSpec("position", kCities + 1, DType::kInt32, -1));
    spec.obs.push_back(BoxSpec("trajectory", DType::kInt32, {kCities}, {-1}, {kCities - 1}));
    spec.obs.push_back(BoxSpec("action_mask", DType::kBool, {kCities}));
    spec.action = DiscreteSpec("action", kCities, DType::kInt32);
    return spec;
  }

  explicit Tsp(const Params& params) : params_(params) {}
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return JumanjiFrame(width, height, camera_id);
  }

  void Reset(Rng& /*rng*/) override {
    const Key use = ResetKey();
    const Key sample_key = jax_random::SplitAt(use, 1);
    key_ = jax_random::SplitAt(use, 0);
    for (int i = 0; i < 2 * kCities; ++i) {
      coordinates_[i] = params_.coordinates.empty()
                            ? jax_random::UniformF32(sample_key, i, 0.0F, 1.0F, false)
                            : static_cast<float>(params_.coordinates[i]);
    }
    position_ = -1;
    visited_.fill(false);
    trajectory_.fill(-1);
    num_visited_ = 0;
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const int a = action.Scalar<std::int32_t>();
    const bool valid = !visited_[a];
    const int previous = position_;
    const int visited_before = num_visited_;
    const int first = trajectory_[0];
    if (valid) {
      position_ = a;
      visited_[a] = true;
      trajectory_[num_visited_] = a;
      ++num_visited_;
    }
    // coordinates[-1] is the last city in jnp (a negative index counts from the end).
    float reward = valid ? -Distance(Wrap(previous), position_)
                         : -static_cast<float>(kCities) * std::sqrt(2.0F);
    if (visited_before == 0) reward = 0.0F;
    if (num_visited_ == kCities) reward = reward - Distance(position_, Wrap(first));
    const bool done = num_visited_ == kCities || !valid;
    return Outcome(reward, done ? StepType::kTermination : StepType::kMid);
  }

  void Write(const Slot& slot) const override {
    float* coordinates = slot.Obs<float>(0);
    for (int i = 0; i < 2 * kCities; ++i) coordinates[i] = coordinates_[i];
    *slot.Obs<std::int32_t>(1) = position_;
    std::int32_t* trajectory = slot.Obs<std::int32_t>(2);
    bool* mask = slot.Obs<bool>(3);
    for (int i = 0; i < kCities; ++i) {
      trajectory[i] = trajectory_[i];
      mask[i] = !visited_[i];
    }
  }

 private:
  static int Wrap(int city) { return city < 0 ? city + kCities : city; }

  // jnp.linalg.norm(c_i - c_j): the two squares summed as XLA does (see above).
  float Distance(int i, int j) const {
    const float dx = coordinates_[2 * i] - coordinates_[2 * j];
    const float dy = coordinates_[2 * i + 1] - coordinates_[2 * j + 1];
    return Norm2(dx, dy, params_.fused);
  }

  // jumanji's State (a chex dataclass: its leaves by field name): coordinates, key,
  // num_visited, position, trajectory, visited_mask.
  void WriteState(StateLeaves& out) const override {
    out.Add(coordinates_, {kCities, 2}).KeyLeaf(key_).Scalar(num_visited_).Scalar(position_);
    out.Add(trajectory_, {kCities}).Add(visited_, {kCities});
  }

  Params params_;
  std::array<float, 2 * kCities> coordinates_{};
  std::int32_t position_ = -1;
  std::array<bool, kCities> visited_{};
  std::array<std::int32_t, kCities> trajectory_{};
  std::int32_t num_visited_ = 0;
  Key key_{};  // the generator's state.key (steps draw nothing)
};

}  // namespace envpool::jumanji
