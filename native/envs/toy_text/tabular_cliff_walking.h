// tabular/CliffWalking-v0: gymnasium 1.4's envs/tabular/cliffwalking.py
// (CliffWalkingFunctional run by FunctionalJaxEnv), not CliffWalking-v1: its spaces are
// gymnasium's Box declarations, the action Box(0, 3, (1,), int32) and the observation
// Box(0, 47, (1,), int32) = row * 12 + col. The player starts at (3, 0); an action moves
// it (0 up, 1 right, 2 down, 3 left; any other value stays), clamped to the 4 x 12 grid;
// entering the cliff (3, 1 .. 10) puts it back at (3, 0) with reward -100, any other move
// costs -1; the episode ends at (3, 11). Deterministic (the env's jax key is still split
// at each reset and step, as FunctionalJaxEnv does). No time limit.
//
// State (GetState/SetState): [row, col], then the jax key's two words (SetState also
// takes the two numbers alone and keeps the key).
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "core/env.h"
#include "envs/common/jax_random.h"

namespace envpool::toy_text {

class TabularCliffWalking final : public jax_random::FunctionalEnv {
 public:
  static constexpr int kRows = 4, kCols = 12;

  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("obs", DType::kInt32, {1}, {0}, {kRows * kCols - 1}));
    spec.action = BoxSpec("action", DType::kInt32, {1}, {0}, {3});
    spec.reward_low = -100.0;
    spec.reward_high = -1.0;
    return spec;
  }

  explicit TabularCliffWalking(const Params& /*params*/) {}

  void Reset(Rng& /*rng*/) override {
    NextKey();  // (initial() does not use its key)
    row_ = 3;
    col_ = 0;
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    NextKey();  // (transition() does not use its key)
    const std::int32_t a = action.As<std::int32_t>()[0];
    const int row = std::clamp(row_ + (a == 2 ? 1 : 0) - (a == 0 ? 1 : 0), 0, kRows - 1);
    const int col = std::clamp(col_ + (a == 1 ? 1 : 0) - (a == 3 ? 1 : 0), 0, kCols - 1);
    const bool fallen = row == 3 && col >= 1 && col <= 10;
    row_ = fallen ? 3 : row;
    col_ = fallen ? 0 : col;
    StepOutcome out;
    out.reward = fallen ? -100.0 : -1.0;
    out.terminated = row_ == 3 && col_ == kCols - 1;
    return out;
  }

  std::vector<double> GetState() const override { return WithKey({1.0 * row_, 1.0 * col_}); }
  void SetState(const std::vector<double>& state) override {
    ReadKey(state, 2, "tabular CliffWalking");
    if (!(state[0] >= 0 && state[0] < kRows && state[1] >= 0 && state[1] < kCols)) {
      throw std::invalid_argument("tabular CliffWalking state is [row, col] on the 4 x 12 grid");
    }
    row_ = static_cast<int>(state[0]);
    col_ = static_cast<int>(state[1]);
  }

  void Write(const Slot& slot) const override {
    slot.Obs<std::int32_t>()[0] = row_ * kCols + col_;
  }

 private:
  int row_ = 3;
  int col_ = 0;
};

}  // namespace envpool::toy_text
