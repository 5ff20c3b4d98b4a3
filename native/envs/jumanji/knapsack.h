// Knapsack-v1: jumanji 1.1.2's environments/packing/knapsack (50 items, total budget
// 12.5, DenseReward).
//
// Reset: `key, sample_key = split(key)`; weights, values = uniform(sample_key, (2, 50))
// (element i of the weights is draw i, of the values draw 50 + i; float32 in [0, 1)). The
// action packs an item: valid when it is not packed and its weight fits the remaining
// budget (float32, reduced by the weight). Reward: the item's value when valid, else 0.
// The episode ends (termination) after an invalid action or when no item fits. The action
// mask is (not packed) & (weight <= remaining budget). No time limit of its own (EnvPool's
// is 50 steps). Info: remaining_budget (float32; EnvPool's).
//
// Keywords (sail-sg EnvPool's): knapsack_weights and knapsack_values ("" or 50 numbers,
// read as float32: every episode has them) and knapsack_total_budget.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "envs/common/keywords.h"
#include "envs/jumanji/jumanji_env.h"

namespace envpool::jumanji {

class Knapsack final : public JumanjiEnv {
 public:
  static constexpr int kItems = 50;

  struct Params {
    std::string weights_text;
    std::string values_text;
    double total_budget = 12.5;
    std::vector<double> weights;  // parsed
    std::vector<double> values;   // parsed
    static Keywords<Params> Keys() {
      Keywords<Params> k;
      k.Add("knapsack_weights", std::string(), &Params::weights_text);
      k.Add("knapsack_values", std::string(), &Params::values_text);
      k.Add("knapsack_total_budget", 12.5, &Params::total_budget).AtLeast(0.0);
      return k;
    }
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      weights = ParseNumbers("knapsack_weights", weights_text, kItems);
      values = ParseNumbers("knapsack_values", values_text, kItems);
    }
  };
  static Config Defaults() { return Params::Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec;
    spec.obs_layout = ObsLayout::kDict;
    spec.obs.push_back(BoxSpec("weights", DType::kFloat32, {kItems}, {0.0}, {1.0}));
    spec.obs.push_back(BoxSpec("values", DType::kFloat32, {kItems}, {0.0}, {1.0}));
    spec.obs.push_back(BoxSpec("packed_items", DType::kBool, {kItems}));
    spec.obs.push_back(BoxSpec("action_mask", DType::kBool, {kItems}));
    spec.info.push_back(BoxSpec("remaining_budget", DType::kFloat32, {}));
    spec.action = DiscreteSpec("action", kItems, DType::kInt32);
    spec.reward_low = 0.0;
    spec.reward_high = 1.0;
    return spec;
  }

  explicit Knapsack(const Params& params) : params_(params) {}
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return JumanjiFrame(width, height, camera_id);
  }

  void Reset(Rng& /*rng*/) override {
    const Key use = ResetKey();
    const Key sample_key = jax_random::SplitAt(use, 1);
    key_ = jax_random::SplitAt(use, 0);
    for (int i = 0; i < kItems; ++i) {
      weights_[i] = params_.weights.empty()
                        ? jax_random::UniformF32(sample_key, i, 0.0F, 1.0F, false)
                        : static_cast<float>(params_.weights[i]);
      values_[i] = params_.values.empty()
                       ? jax_random::UniformF32(sample_key, kItems + i, 0.0F, 1.0F, false)
                       : static_cast<float>(params_.values[i]);
    }
    packed_.fill(false);
    remaining_ = static_cast<float>(params_.total_budget);
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const int a = action.Scalar<std::int32_t>();
    const bool valid = remaining_ >= weights_[a] && !packed_[a];
    if (valid) {
      packed_[a] = true;
      remaining_ = remaining_ - weights_[a];
    }
    bool any = false;
    for (int i = 0; i < kItems; ++i) any = any || Available(i);
    const bool done = !any || !valid;
    return Outcome(valid ? values_[a] : 0.0F, done ? StepType::kTermination : StepType::kMid);
  }

  void Write(const Slot& slot) const override {
    float* weights = slot.Obs<float>(0);
    float* values = slot.Obs<float>(1);
    bool* packed = slot.Obs<bool>(2);
    bool* mask = slot.Obs<bool>(3);
    for (int i = 0; i < kItems; ++i) {
      weights[i] = weights_[i];
      values[i] = values_[i];
      packed[i] = packed_[i];
      mask[i] = Available(i);
    }
    *slot.Info<float>(0) = remaining_;
  }

 private:
  bool Available(int i) const { return !packed_[i] && weights_[i] <= remaining_; }

  // jumanji's State (a chex dataclass: its leaves by field name): key, packed_items,
  // remaining_budget, values, weights.
  void WriteState(StateLeaves& out) const override {
    out.KeyLeaf(key_).Add(packed_, {kItems}).Scalar(remaining_);
    out.Add(values_, {kItems}).Add(weights_, {kItems});
  }

  Params params_;
  std::array<float, kItems> weights_{};
  std::array<float, kItems> values_{};
  std::array<bool, kItems> packed_{};
  float remaining_ = 0.0F;
  Key key_{};  // the generator's state.key (steps draw nothing)
};

}  // namespace envpool::jumanji
