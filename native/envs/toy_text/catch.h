// Catch-v0: bsuite's Catch (bsuite/environments/catch.py). No gymnasium
// reference exists.
//
// Keywords: rows (10), columns (5).
//
// A ball starts in row 0 at a uniformly random column; the paddle starts in
// the bottom row (rows - 1) at column columns / 2. Actions: 0 left, 1 stay,
// 2 right (the paddle moves by -1 / 0 / +1, clamped to the board). Each step
// the paddle moves, then the ball falls one row; when the ball reaches the
// bottom row (after rows - 1 steps) the episode terminates with reward +1 if
// the paddle is in the ball's column, else -1; every other step gives 0.
// Observation: the rows x columns board as float32, 1 at the ball and at the
// paddle, 0 elsewhere. No info.
// State (GetState/SetState): [ball_row, ball_col, paddle_col].
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/env.h"
#include "envs/toy_text/tabular.h"

namespace envpool::toy_text {

class Catch final : public Env {
 public:
  struct Params {
    explicit Params(const Config& config)
        : rows(config.GetInt("rows")), columns(config.GetInt("columns")) {
      if (rows < 2 || columns < 1) {
        throw std::invalid_argument("Catch: need rows >= 2 and columns >= 1, got rows=" +
                                    std::to_string(rows) + ", columns=" + std::to_string(columns));
      }
    }
    std::int64_t rows, columns;
  };

  static Config Defaults() {
    Config config;
    config.Set("rows", std::int64_t{10}).AtLeast(2);
    config.Set("columns", std::int64_t{5}).AtLeast(1);
    return config;
  }

  static EnvSpec MakeSpec(const Params& params) {
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("obs", DType::kFloat32, {params.rows, params.columns}, {0.0}, {1.0}));
    spec.action = DiscreteSpec("action", 3, DType::kInt32);
    spec.reward_low = -1.0;
    spec.reward_high = 1.0;
    return spec;
  }

  explicit Catch(const Params& params) : params_(params) {}

  void Reset(Rng& rng) override {
    ball_row_ = 0;
    ball_col_ = rng.Integer(0, params_.columns);
    paddle_col_ = params_.columns / 2;
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const std::int64_t dx = action.Scalar<std::int32_t>() - 1;
    paddle_col_ = std::clamp<std::int64_t>(paddle_col_ + dx, 0, params_.columns - 1);
    ++ball_row_;
    StepOutcome out;
    if (ball_row_ >= params_.rows - 1) {
      out.terminated = true;
      out.reward = paddle_col_ == ball_col_ ? 1.0 : -1.0;
    }
    return out;
  }

  void Write(const Slot& slot) const override {
    float* board = slot.Obs<float>();
    std::fill(board, board + params_.rows * params_.columns, 0.0F);
    board[std::min(ball_row_, params_.rows - 1) * params_.columns + ball_col_] = 1.0F;
    board[(params_.rows - 1) * params_.columns + paddle_col_] = 1.0F;
  }

  std::vector<double> GetState() const override {
    return {static_cast<double>(ball_row_), static_cast<double>(ball_col_),
            static_cast<double>(paddle_col_)};
  }
  void SetState(const std::vector<double>& state) override {
    if (state.size() != 3) {
      throw std::invalid_argument("Catch state is [ball_row, ball_col, paddle_col]");
    }
    ball_row_ = StateIndexFrom(state[0], params_.rows, "Catch ball_row");
    ball_col_ = StateIndexFrom(state[1], params_.columns, "Catch ball_col");
    paddle_col_ = StateIndexFrom(state[2], params_.columns, "Catch paddle_col");
  }

 private:
  Params params_;
  std::int64_t ball_row_ = 0;
  std::int64_t ball_col_ = 0;
  std::int64_t paddle_col_ = 0;
};

}  // namespace envpool::toy_text
