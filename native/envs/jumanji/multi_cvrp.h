// MultiCVRP-v0: jumanji 1.1.2's environments/routing/multi_cvrp (20 customers and the
// depot 0, 2 vehicles, UniformRandomGenerator with the paper's 20-customer settings: map
// 10 x 10, capacity 60, demands below 10, windows starting below 10 and 20 long, early
// coefficients in [0, 0.2), late in [0, 1); DenseReward).
//
// Reset: `problem_key, key = split(key)`; `coord_key, demand_key, window_key, early_key,
// late_key = split(problem_key, 5)`. Coordinates uniform(coord_key, (21, 2), 0, 10);
// demands randint(demand_key, (21,), 0, 10) with the depot's 0, scaled to the fleet's
// capacity: int16(d * (120 / sum(d))) in float32 (a NaN from a zero sum casts to 0),
// capped at 10; window starts uniform(window_key, (21,), 0, 10), ends start + 20; early and
// late coefficients uniform over their ranges, the depot's 0. Vehicles start at the depot
// with capacity 60, local time, distance and time penalty 0; step_count starts at 1.
//
// Step: each vehicle's target is its action when the node has demand that fits its
// capacity, else the depot; of vehicles with the same target the first keeps it, the others
// go to the depot (jnp.unique's first indices). Each vehicle moves: the distance
// (jnp.linalg.norm of start - end, Norm2) adds to its distance and local time, the
// target's window adds (start - time) * early when early, (time - end) * late when late
// to its time penalty; its capacity refills at the depot or drops by the demand, and the
// target's demand becomes 0. step_count + 1. The episode ends (termination) when no demand
// is left and every vehicle is at the depot, or when step_count > 40. Reward (float32): the
// fleet's distance and time penalty sums before minus after; once step_count > 40 instead
// the worst case left (worst_case_remaining_reward: twice the depot distances of the nodes
// still wanting, and the penalties of arriving at mean time + that). Observation: nodes
// (coordinates, demands int16), windows, coeffs, vehicles (their coordinates, local times,
// capacities int16) and the action mask (nodes with demand that fits; the depot always).
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "envs/common/keywords.h"
#include "envs/jumanji/jumanji_env.h"

namespace envpool::jumanji {

class MultiCvrp final : public JumanjiEnv {
 public:
  static constexpr int kCustomers = 20;
  static constexpr int kNodes = kCustomers + 1;
  static constexpr int kVehicles = 2;
  static constexpr int kCapacity = 60;
  static constexpr int kDemandMax = 10;
  static constexpr float kMapMax = 10.0F;
  static constexpr float kMaxStartWindow = 10.0F;
  static constexpr float kWindowLength = 20.0F;
  static constexpr int kOrder = 2 * kCustomers;  // the State's order columns

  using Params = XlaFmaParams;
  static Config Defaults() { return Params::Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& /*params*/) {
    // max_single_vehicle_distance: 2 * 10 * sqrt(2) * 20 in float32.
    const float max_time = 2.0F * kMapMax * std::sqrt(2.0F) * static_cast<float>(kCustomers);
    EnvSpec spec;
    spec.obs_layout = ObsLayout::kDict;
    spec.obs.push_back(BoxSpec("nodes:coordinates", DType::kFloat32, {kNodes, 2}, {0.0}, {10.0}));
    spec.obs.push_back(BoxSpec("nodes:demands", DType::kInt16, {kNodes}, {0}, {kCapacity}));
    spec.obs.push_back(BoxSpec("windows:start", DType::kFloat32, {kNodes}, {0.0}, {30.0}));
    spec.obs.push_back(BoxSpec("windows:end", DType::kFloat32, {kNodes}, {0.0}, {30.0}));
    spec.obs.push_back(BoxSpec("coeffs:early", DType::kFloat32, {kNodes}, {0.0}, {1.0}));
    spec.obs.push_back(BoxSpec("coeffs:late", DType::kFloat32, {kNodes}, {0.0}, {1.0}));
    spec.obs.push_back(
        BoxSpec("vehicles:coordinates", DType::kFloat32, {kVehicles, 2}, {0.0}, {10.0}));
    spec.obs.push_back(BoxSpec("vehicles:local_times", DType::kFloat32, {kVehicles}, {0.0},
                               {static_cast<double>(max_time)}));
    spec.obs.push_back(
        BoxSpec("vehicles:capacities", DType::kInt16, {kVehicles}, {0}, {kCapacity}));
    spec.obs.push_back(BoxSpec("action_mask", DType::kBool, {kVehicles, kNodes}));
    spec.action = BoxSpec("action", DType::kInt32, {kVehicles}, {0}, {kCustomers});
    return spec;
  }

  explicit MultiCvrp(const Params& params) : fused_(params.fused) {}
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return JumanjiFrame(width, height, camera_id);
  }

  void Reset(Rng& /*rng*/) override {
    const Key use = ResetKey();
    const Key problem_key = jax_random::SplitAt(use, 0);
    key_ = jax_random::SplitAt(use, 1);
    const Key coord_key = jax_random::SplitAt(problem_key, 0);
    const Key demand_key = jax_random::SplitAt(problem_key, 1);
    const Key window_key = jax_random::SplitAt(problem_key, 2);
    const Key early_key = jax_random::SplitAt(problem_key, 3);
    const Key late_key = jax_random::SplitAt(problem_key, 4);
    for (int i = 0; i < 2 * kNodes; ++i) {
      coordinates_[i] = jax_random::UniformF32(coord_key, i, 0.0F, kMapMax, false);
    }
    std::array<std::int32_t, kNodes> drawn{};
    std::int32_t sum = 0;
    for (int i = 1; i < kNodes; ++i) {
      drawn[i] = jax_random::RandIntAt(demand_key, i, 0, kDemandMax);
      sum += drawn[i];
    }
    const float scale = static_cast<float>(kCapacity * kVehicles) / static_cast<float>(sum);
    for (int i = 0; i < kNodes; ++i) {
      const float scaled = static_cast<float>(drawn[i]) * scale;
      const int d = std::isnan(scaled) ? 0 : static_cast<std::int16_t>(scaled);
      demands_[i] = static_cast<std::int16_t>(d < kDemandMax ? d : kDemandMax);
      start_[i] = jax_random::UniformF32(window_key, i, 0.0F, kMaxStartWindow, false);
      end_[i] = start_[i] + kWindowLength;
      early_[i] = i == 0 ? 0.0F : jax_random::UniformF32(early_key, i, 0.0F, 0.2F, false);
      late_[i] = i == 0 ? 0.0F : jax_random::UniformF32(late_key, i, 0.0F, 1.0F, false);
    }
    positions_.fill(0);
    local_times_.fill(0.0F);
    capacities_.fill(kCapacity);
    distances_.fill(0.0F);
    penalties_.fill(0.0F);
    for (auto& row : order_) row.fill(0);
    step_count_ = 1;
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const std::int32_t* act = action.As<std::int32_t>();
    std::array<int, kVehicles> next{};
    for (int v = 0; v < kVehicles; ++v) {
      const int a = act[v];
      next[v] = capacities_[v] >= demands_[a] && demands_[a] > 0 ? a : 0;
      for (int u = 0; u < v; ++u) next[v] = next[u] == next[v] ? 0 : next[v];
    }
    const float distance_before = distances_[0] + distances_[1];
    const float penalty_before = penalties_[0] + penalties_[1];
    for (int v = 0; v < kVehicles; ++v) {
      const int from = positions_[v];
      const int to = next[v];
      const float d = Norm2(coordinates_[2 * from] - coordinates_[2 * to],
                            coordinates_[2 * from + 1] - coordinates_[2 * to + 1], fused_);
      distances_[v] = distances_[v] + d;
      local_times_[v] = local_times_[v] + d;
      penalties_[v] = penalties_[v] + Penalty(local_times_[v], to);
      capacities_[v] = static_cast<std::int16_t>(to == 0 ? kCapacity
                                                         : capacities_[v] - demands_[to]);
      demands_[to] = 0;
      positions_[v] = to;
      // order.at[:, step_count].set(next_nodes): a write past the end is dropped
      if (step_count_ < kOrder) order_[v][step_count_] = static_cast<std::int16_t>(to);
    }
    ++step_count_;
    bool served = true;
    for (int i = 0; i < kNodes; ++i) served = served && demands_[i] == 0;
    for (int p : positions_) served = served && p == 0;
    const bool over = step_count_ > 2 * kCustomers;
    float reward = 0.0F;
    if (over) {
      reward = WorstCaseRemaining();
    } else {
      reward = (distance_before - (distances_[0] + distances_[1])) +
               (penalty_before - (penalties_[0] + penalties_[1]));
    }
    return Outcome(reward, served || over ? StepType::kTermination : StepType::kMid);
  }

  void Write(const Slot& slot) const override {
    float* coordinates = slot.Obs<float>(0);
    for (int i = 0; i < 2 * kNodes; ++i) coordinates[i] = coordinates_[i];
    std::int16_t* demands = slot.Obs<std::int16_t>(1);
    float* start = slot.Obs<float>(2);
    float* end = slot.Obs<float>(3);
    float* early = slot.Obs<float>(4);
    float* late = slot.Obs<float>(5);
    for (int i = 0; i < kNodes; ++i) {
      demands[i] = demands_[i];
      start[i] = start_[i];
      end[i] = end_[i];
      early[i] = early_[i];
      late[i] = late_[i];
    }
    float* vehicle_coordinates = slot.Obs<float>(6);
    float* local_times = slot.Obs<float>(7);
    std::int16_t* capacities = slot.Obs<std::int16_t>(8);
    bool* mask = slot.Obs<bool>(9);
    for (int v = 0; v < kVehicles; ++v) {
      vehicle_coordinates[2 * v] = coordinates_[2 * positions_[v]];
      vehicle_coordinates[2 * v + 1] = coordinates_[2 * positions_[v] + 1];
      local_times[v] = local_times_[v];
      capacities[v] = capacities_[v];
      for (int i = 0; i < kNodes; ++i) {
        mask[v * kNodes + i] = Allowed(v, i);
      }
    }
  }

 private:
  // create_action_mask: the depot always, a node whose demand is left and fits.
  bool Allowed(int v, int i) const {
    return i == 0 || (capacities_[v] >= demands_[i] && demands_[i] > 0);
  }

  // compute_time_penalties at node i for arrival time t: early and late parts (one of them
  // 0) summed.
  float Penalty(float t, int i) const {
    const float early = t < start_[i] ? (start_[i] - t) * early_[i] : 0.0F;
    const float late = t > end_[i] ? (t - end_[i]) * late_[i] : 0.0F;
    return early + late;
  }

  // worst_case_remaining_reward over the nodes still wanting (float32 sums in node order).
  float WorstCaseRemaining() const {
    float distance = 0.0F;
    for (int i = 0; i < kNodes; ++i) {
      const float d = Norm2(coordinates_[0] - coordinates_[2 * i],
                            coordinates_[1] - coordinates_[2 * i + 1], fused_);
      distance += demands_[i] > 0 ? d : 0.0F;
    }
    distance = 2.0F * distance;
    const float now = (local_times_[0] + local_times_[1]) / 2.0F + distance;
    float penalty = 0.0F;
    for (int i = 0; i < kNodes; ++i) penalty += demands_[i] > 0 ? Penalty(now, i) : 0.0F;
    return -distance - penalty;
  }

  // jumanji's State (chex dataclasses: their fields sorted by name): action_mask, coeffs
  // (early, late), key, nodes (coordinates, demands), order (the nodes each vehicle went
  // to, by step; used by the viewer), step_count, vehicles (capacities, distances,
  // local_times, positions, time_penalties), windows (end, start).
  void WriteState(StateLeaves& out) const override {
    std::array<std::array<bool, kNodes>, kVehicles> mask{};
    for (int v = 0; v < kVehicles; ++v) {
      for (int i = 0; i < kNodes; ++i) mask[v][i] = Allowed(v, i);
    }
    out.AddRows(mask, {kVehicles, kNodes}).Add(early_, {kNodes}).Add(late_, {kNodes});
    out.KeyLeaf(key_).Add(coordinates_, {kNodes, 2}).Add(demands_, {kNodes});
    out.AddRows(order_, {kVehicles, kOrder}).Scalar(step_count_);
    out.Add(capacities_, {kVehicles}).Add(distances_, {kVehicles});
    out.Add(local_times_, {kVehicles}).Add(positions_, {kVehicles});
    out.Add(penalties_, {kVehicles}).Add(end_, {kNodes}).Add(start_, {kNodes});
  }

  bool fused_;
  std::array<float, 2 * kNodes> coordinates_{};
  std::array<std::int16_t, kNodes> demands_{};
  std::array<float, kNodes> start_{};
  std::array<float, kNodes> end_{};
  std::array<float, kNodes> early_{};
  std::array<float, kNodes> late_{};
  std::array<int, kVehicles> positions_{};
  std::array<float, kVehicles> local_times_{};
  std::array<std::int16_t, kVehicles> capacities_{};
  std::array<float, kVehicles> distances_{};
  std::array<float, kVehicles> penalties_{};
  std::array<std::array<std::int16_t, kOrder>, kVehicles> order_{};
  std::int32_t step_count_ = 1;
  Key key_{};
};

}  // namespace envpool::jumanji
