// CVRP-v1: jumanji 1.1.2's environments/routing/cvrp (20 nodes and the depot 0,
// UniformGenerator with max_capacity 30 and max_demand 10, DenseReward).
//
// Reset: `key, coordinates_key, demands_key = split(key, 3)`; the coordinates are
// uniform(coordinates_key, (21, 2)) (float32), the demands randint(demands_key, (21,), 1,
// 10) with the depot's 0. The vehicle starts at the depot with capacity 30; the depot
// counts as visited and the trajectory (40 slots) holds zeros. The action goes to a node:
// valid when not visited and its demand fits the capacity. Going to the depot refills the
// capacity; every valid move marks the depot unvisited, then the node visited, and writes
// the node into the trajectory (a write past its end is dropped, as jax drops it). Reward
// (float32): minus the distance moved (Norm2), -40 * sqrt(2) for an invalid action, and
// the step that visits the last node also subtracts the distance back to the depot. The
// episode ends (termination) when every node is visited or after an invalid action. No
// time limit of its own (EnvPool's is 40 steps). Observation: demands and capacity divided
// by 30 (float32), unvisited_nodes, position, trajectory and the action mask (not visited,
// demand within capacity; the depot unless the vehicle is there).
//
// Keywords (sail-sg EnvPool's): cvrp_coordinates ("" or 42 numbers) and cvrp_demands (""
// or 21 demands as fractions of 30, as the observation shows them): every episode has them.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "envs/common/keywords.h"
#include "envs/jumanji/jumanji_env.h"

namespace envpool::jumanji {

class Cvrp final : public JumanjiEnv {
 public:
  static constexpr int kNodes = 21;  // the depot and 20 customers
  static constexpr int kMaxCapacity = 30;
  static constexpr int kMaxDemand = 10;
  static constexpr int kTrajectory = 2 * (kNodes - 1);

  struct Params {
    std::string coordinates_text;
    std::string demands_text;
    bool fused = true;
    std::vector<double> coordinates;  // parsed
    std::vector<double> demands;      // parsed
    static Keywords<Params> Keys() {
      Keywords<Params> k;
      k.Add("cvrp_coordinates", std::string(), &Params::coordinates_text);
      k.Add("cvrp_demands", std::string(), &Params::demands_text);
      k.Add("_xla_fma", true, &Params::fused);
      return k;
    }
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      coordinates = ParseNumbers("cvrp_coordinates", coordinates_text, 2 * kNodes);
      demands = ParseNumbers("cvrp_demands", demands_text, kNodes);
    }
  };
  static Config Defaults() { return Params::Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec;
    spec.obs_layout = ObsLayout::kDict;
    spec.obs.push_back(BoxSpec("coordinates", DType::kFloat32, {kNodes, 2}, {0.0}, {1.0}));
    spec.obs.push_back(BoxSpec("demands", DType::kFloat32, {kNodes}, {0.0}, {1.0}));
    spec.obs.push_back(BoxSpec("unvisited_nodes", DType::kBool, {kNodes}));
    spec.obs.push_back(DiscreteSpec("position", kNodes, DType::kInt32));
    spec.obs.push_back(BoxSpec("trajectory", DType::kInt32, {kTrajectory}, {0}, {kNodes}));
    spec.obs.push_back(BoxSpec("capacity", DType::kFloat32, {}, {0.0}, {1.0}));
    spec.obs.push_back(BoxSpec("action_mask", DType::kBool, {kNodes}));
    spec.action = DiscreteSpec("action", kNodes, DType::kInt32);
    return spec;
  }

  explicit Cvrp(const Params& params) : params_(params) {}
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return JumanjiFrame(width, height, camera_id);
  }

  void Reset(Rng& /*rng*/) override {
    const Key use = ResetKey();
    const Key coordinates_key = jax_random::SplitAt(use, 1);
    const Key demands_key = jax_random::SplitAt(use, 2);
    key_ = jax_random::SplitAt(use, 0);
    for (int i = 0; i < 2 * kNodes; ++i) {
      coordinates_[i] = params_.coordinates.empty()
                            ? jax_random::UniformF32(coordinates_key, i, 0.0F, 1.0F, false)
                            : static_cast<float>(params_.coordinates[i]);
    }
    for (int i = 0; i < kNodes; ++i) {
      demands_[i] = params_.demands.empty()
                        ? jax_random::RandIntAt(demands_key, i, 1, kMaxDemand)
                        : static_cast<std::int32_t>(std::lround(params_.demands[i] * kMaxCapacity));
    }
    demands_[0] = 0;
    position_ = 0;
    capacity_ = kMaxCapacity;
    visited_.fill(false);
    visited_[0] = true;
    trajectory_.fill(0);
    num_total_visits_ = 1;
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const int a = action.Scalar<std::int32_t>();
    const bool valid = !visited_[a] && capacity_ >= demands_[a];
    const int previous = position_;
    if (valid) {
      capacity_ = a == 0 ? kMaxCapacity : capacity_ - demands_[a];
      visited_[0] = false;
      visited_[a] = true;
      if (num_total_visits_ < kTrajectory) trajectory_[num_total_visits_] = a;
      ++num_total_visits_;
      position_ = a;
    }
    float reward = valid ? -Distance(previous, position_)
                         : -static_cast<float>(kTrajectory) * std::sqrt(2.0F);
    bool all = true;
    for (bool v : visited_) all = all && v;
    if (all) reward = reward - Distance(position_, 0);
    return Outcome(reward, all || !valid ? StepType::kTermination : StepType::kMid);
  }

  void Write(const Slot& slot) const override {
    float* coordinates = slot.Obs<float>(0);
    for (int i = 0; i < 2 * kNodes; ++i) coordinates[i] = coordinates_[i];
    float* demands = slot.Obs<float>(1);
    bool* unvisited = slot.Obs<bool>(2);
    bool* mask = slot.Obs<bool>(6);
    for (int i = 0; i < kNodes; ++i) {
      demands[i] = static_cast<float>(demands_[i]) * kInverseCapacity;
      unvisited[i] = !visited_[i];
      mask[i] = !visited_[i] && capacity_ >= demands_[i];
    }
    mask[0] = position_ != 0;
    *slot.Obs<std::int32_t>(3) = position_;
    std::int32_t* trajectory = slot.Obs<std::int32_t>(4);
    for (int i = 0; i < kTrajectory; ++i) trajectory[i] = trajectory_[i];
    *slot.Obs<float>(5) = static_cast<float>(capacity_) * kInverseCapacity;
  }

 private:
  // XLA divides by the constant 30 as a product with its float32 reciprocal.
  static constexpr float kInverseCapacity = 1.0F / static_cast<float>(kMaxCapacity);

  float Distance(int i, int j) const {
    return Norm2(coordinates_[2 * i] - coordinates_[2 * j],
                 coordinates_[2 * i + 1] - coordinates_[2 * j + 1], params_.fused);
  }

  // jumanji's State (a chex dataclass: its leaves by field name): capacity (in units, not
  // divided by 30), coordinates, demands, key, num_total_visits, position, trajectory,
  // visited_mask.
  void WriteState(StateLeaves& out) const override {
    out.Scalar(capacity_).Add(coordinates_, {kNodes, 2}).Add(demands_, {kNodes}).KeyLeaf(key_);
    out.Scalar(num_total_visits_).Scalar(position_).Add(trajectory_, {kTrajectory});
    out.Add(visited_, {kNodes});
  }

  Params params_;
  std::array<float, 2 * kNodes> coordinates_{};
  std::array<std::int32_t, kNodes> demands_{};
  std::int32_t position_ = 0;
  std::int32_t capacity_ = kMaxCapacity;
  std::array<bool, kNodes> visited_{};
  std::array<std::int32_t, kTrajectory> trajectory_{};
  std::int32_t num_total_visits_ = 1;
  Key key_{};  // the generator's state.key (steps draw nothing)
};

}  // namespace envpool::jumanji
