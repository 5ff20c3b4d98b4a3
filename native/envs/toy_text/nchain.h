// NChain-v0: the n-chain of the old gym (gym/envs/toy_text/nchain.py, gym
// <= 0.20; Strens, "A Bayesian Framework for Reinforcement Learning", 2000,
// section 6.1). No gymnasium reference exists.
//
// Keywords: n (5), slip (0.2), small (2), large (10).
//
// States 0 .. n-1, start 0. Each step, with probability slip the action is
// reversed. Then action 1 ("backward") returns to state 0 with reward small;
// action 0 ("forward") moves to state + 1 with reward 0, or, at state n-1,
// stays there with reward large. The env never terminates; the NChain-v0 id
// truncates after 1000 steps (the old gym registration).
// Observation: the state (int64, Discrete(n)). No info.
// State (GetState/SetState): [state].
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/env.h"
#include "envs/toy_text/tabular.h"

namespace envpool::toy_text {

class NChain final : public Env {
 public:
  struct Params {
    explicit Params(const Config& config)
        : n(config.GetInt("n")),
          slip(config.GetDouble("slip")),
          small(config.GetDouble("small")),
          large(config.GetDouble("large")) {
      if (n < 1) throw std::invalid_argument("NChain: n must be >= 1, got " + std::to_string(n));
      CheckProbability(slip, "NChain: slip");
    }
    std::int64_t n;
    double slip, small, large;
  };

  static Config Defaults() {
    Config config;
    config.Set("n", std::int64_t{5}).AtLeast(1);
    config.Set("slip", 0.2).In(0, 1);
    config.Set("small", 2.0);
    config.Set("large", 10.0);
    return config;
  }

  static EnvSpec MakeSpec(const Params& params) {
    EnvSpec spec;
    spec.obs.push_back(DiscreteSpec("obs", params.n, DType::kInt64));
    spec.action = DiscreteSpec("action", 2, DType::kInt32);
    spec.reward_low = std::min({0.0, params.small, params.large});
    spec.reward_high = std::max({0.0, params.small, params.large});
    return spec;
  }

  explicit NChain(const Params& params) : params_(params) {}

  void Reset(Rng& /*rng*/) override { state_ = 0; }

  StepOutcome Step(const ActionView& action, Rng& rng) override {
    bool backward = action.Scalar<std::int32_t>() != 0;
    if (rng.Uniform01() < params_.slip) backward = !backward;
    StepOutcome out;
    if (backward) {
      out.reward = params_.small;
      state_ = 0;
    } else if (state_ < params_.n - 1) {
      ++state_;
    } else {
      out.reward = params_.large;
    }
    return out;
  }

  void Write(const Slot& slot) const override { *slot.Obs<std::int64_t>() = state_; }

  std::vector<double> GetState() const override { return {static_cast<double>(state_)}; }
  void SetState(const std::vector<double>& state) override {
    if (state.size() != 1) throw std::invalid_argument("NChain state is [state]");
    state_ = StateIndexFrom(state[0], params_.n, "NChain");
  }

 private:
  Params params_;
  std::int64_t state_ = 0;
};

}  // namespace envpool::toy_text
