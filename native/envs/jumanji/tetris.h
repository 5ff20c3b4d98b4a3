// Tetris-v0: jumanji 1.1.2's environments/packing/tetris (10 x 10, time_limit 400).
//
// The board is jumanji's grid_padded, 13 x 13 (three padding rows below and three padding
// columns to the right, never filled); a placed piece's cells hold its colour, the grid's
// maximum + 1 at placement, and the observation shows the board clipped to 1.
//
// Reset: the tetromino index is randint(key, (), 0, 7) with the reset key itself, which
// also becomes state.key; the piece is TETROMINOES_LIST[index][0]. A step (rotation, x):
// `key, sample_key = split(state.key)`; the rotated piece drops in column x: for every y
// in 0 .. 9, whether its 4 x 4 crop at (y, x) overlaps nothing (the last three y also need
// the piece's rows 3, 2, 1 empty), and y is the first position that fails minus one (-1
// when none fails, which lax.dynamic_update_slice wraps to 12 and clamps to 9: the
// bottom row, where a flat I piece then lands). The piece is written as max(grid, the
// crop replaced by piece * colour). Full rows (over the 10 columns) are removed, the
// others keep their order below zero rows.
// The next piece is randint(sample_key, (), 0, 7). Reward REWARD_LIST[cleared lines]
// (0, 40, 100, 300, 1200) in float32 when the action was in the previous mask, else 0.
// The step ends (termination) when the new mask is all false, the action was outside the
// mask, or step_count >= 400.
//
// The action mask of rotation r at column x: the piece with rows 0 .. 2 folded upwards
// (row 0 = clip(r0 + r1 + r2), row 1 = clip(r1 + r2)), its crop at (0, x) overlapping
// nothing; columns 7, 8, 9 also need the piece's columns 3, 2, 1 empty.
//
// Observation: grid (10, 10) int32 in {0, 1}, tetromino (4, 4) int32, action_mask (4, 10)
// bool, step_count int32 as jumanji writes it: 0 at reset and after every step (jumanji's
// step puts jnp.array(0) in the observation; the state's own count drives the limit).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "envs/common/keywords.h"
#include "envs/jumanji/jumanji_env.h"

namespace envpool::jumanji {

class Tetris final : public JumanjiEnv {
 public:
  static constexpr int kRows = 10;
  static constexpr int kCols = 10;
  static constexpr int kPadded = 13;
  static constexpr int kTimeLimit = 400;
  static constexpr int kNumTetrominoes = 7;

  struct Params {
    static Keywords<Params> Keys() { return Keywords<Params>(); }
    explicit Params(const Config& c) { Keys().Read(c, *this); }
  };
  static Config Defaults() { return Params::Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec;
    spec.obs_layout = ObsLayout::kDict;
    spec.obs.push_back(BoxSpec("grid", DType::kInt32, {kRows, kCols}, {0.0}, {1.0}));
    spec.obs.push_back(BoxSpec("tetromino", DType::kInt32, {4, 4}, {0.0}, {1.0}));
    spec.obs.push_back(BoxSpec("action_mask", DType::kBool, {4, kCols}));
    spec.obs.push_back(DiscreteSpec("step_count", kTimeLimit, DType::kInt32));
    spec.action = BoxSpec("action", DType::kInt32, {2}, {0.0}, {3.0, kCols - 1.0});
    spec.reward_low = 0.0;
    spec.reward_high = 1200.0;
    return spec;
  }

  explicit Tetris(const Params& /*params*/) {}
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return JumanjiFrame(width, height, camera_id);
  }

  void Reset(Rng& /*rng*/) override {
    key_ = ResetKey();
    grid_.fill(0);
    index_ = jax_random::RandIntAt(key_, 0, 0, kNumTetrominoes);
    step_count_ = 0;
    mask_ = ActionMask();
    grid_old_.fill(0);
    old_piece_ = ToInts(kTetrominoes[index_][0], 1);
    x_position_ = 0;
    y_position_ = 0;
    full_lines_.fill(false);
    score_ = 0.0F;
    reward_ = 0.0F;
    is_reset_ = true;
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const std::int32_t* a = action.As<std::int32_t>();
    const int rotation = std::clamp(a[0], 0, 3);
    const int x = std::clamp(a[1], 0, kCols - 1);
    const bool valid = mask_[rotation * kCols + x];
    const Key sample_key = jax_random::SplitAt(key_, 1);
    key_ = jax_random::SplitAt(key_, 0);
    grid_old_ = grid_;
    const Piece& piece = kTetrominoes[index_][rotation];
    y_position_ = Place(piece, x);
    x_position_ = a[1];
    const int lines = ClearLines();
    // the placed piece in the colour max(1, the grid's maximum after the lines went)
    old_piece_ = ToInts(piece, std::max(1, *std::max_element(grid_.begin(), grid_.end())));
    index_ = jax_random::RandIntAt(sample_key, 0, 0, kNumTetrominoes);
    mask_ = ActionMask();
    ++step_count_;
    static constexpr float kRewards[5] = {0.0F, 40.0F, 100.0F, 300.0F, 1200.0F};
    const float reward = valid ? kRewards[lines] : 0.0F;
    reward_ = reward;
    score_ += reward;
    is_reset_ = false;
    const bool stuck = std::none_of(mask_.begin(), mask_.end(), [](bool m) { return m; });
    const bool done = stuck || !valid || step_count_ >= kTimeLimit;
    return Outcome(reward, done ? StepType::kTermination : StepType::kMid);
  }

  void Write(const Slot& slot) const override {
    std::int32_t* grid = slot.Obs<std::int32_t>(0);
    for (int r = 0; r < kRows; ++r) {
      for (int c = 0; c < kCols; ++c) grid[r * kCols + c] = Cell(r, c) != 0 ? 1 : 0;
    }
    std::int32_t* piece = slot.Obs<std::int32_t>(1);
    for (int i = 0; i < 16; ++i) piece[i] = kTetrominoes[index_][0][i / 4][i % 4];
    bool* mask = slot.Obs<bool>(2);
    std::copy(mask_.begin(), mask_.end(), mask);
    *slot.Obs<std::int32_t>(3) = 0;
  }

 private:
  using Piece = std::array<std::array<std::int8_t, 4>, 4>;
  // constants.TETROMINOES_LIST: 7 pieces x 4 rotations.
  static constexpr Piece kTetrominoes[kNumTetrominoes][4] = {
      {{{{1, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}}},
       {{{1, 1, 1, 1}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}},
       {{{1, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}}},
       {{{1, 1, 1, 1}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}}},
      {{{{0, 1, 1, 0}, {1, 1, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}},
       {{{1, 0, 0, 0}, {1, 1, 0, 0}, {0, 1, 0, 0}, {0, 0, 0, 0}}},
       {{{0, 1, 1, 0}, {1, 1, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}},
       {{{1, 0, 0, 0}, {1, 1, 0, 0}, {0, 1, 0, 0}, {0, 0, 0, 0}}}},
      {{{{1, 1, 0, 0}, {0, 1, 1, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}},
       {{{0, 1, 0, 0}, {1, 1, 0, 0}, {1, 0, 0, 0}, {0, 0, 0, 0}}},
       {{{1, 1, 0, 0}, {0, 1, 1, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}},
       {{{0, 1, 0, 0}, {1, 1, 0, 0}, {1, 0, 0, 0}, {0, 0, 0, 0}}}},
      {{{{1, 1, 0, 0}, {1, 1, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}},
       {{{1, 1, 0, 0}, {1, 1, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}},
       {{{1, 1, 0, 0}, {1, 1, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}},
       {{{1, 1, 0, 0}, {1, 1, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}}},
      {{{{1, 1, 1, 0}, {0, 1, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}},
       {{{0, 1, 0, 0}, {1, 1, 0, 0}, {0, 1, 0, 0}, {0, 0, 0, 0}}},
       {{{0, 1, 0, 0}, {1, 1, 1, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}},
       {{{1, 0, 0, 0}, {1, 1, 0, 0}, {1, 0, 0, 0}, {0, 0, 0, 0}}}},
      {{{{1, 0, 0, 0}, {1, 0, 0, 0}, {1, 1, 0, 0}, {0, 0, 0, 0}}},
       {{{1, 1, 1, 0}, {1, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}},
       {{{1, 1, 0, 0}, {0, 1, 0, 0}, {0, 1, 0, 0}, {0, 0, 0, 0}}},
       {{{0, 0, 1, 0}, {1, 1, 1, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}}},
      {{{{0, 1, 0, 0}, {0, 1, 0, 0}, {1, 1, 0, 0}, {0, 0, 0, 0}}},
       {{{1, 0, 0, 0}, {1, 1, 1, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}},
       {{{1, 1, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}, {0, 0, 0, 0}}},
       {{{1, 1, 1, 0}, {0, 0, 1, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}}},
  };

  std::int32_t& Cell(int r, int c) { return grid_[r * kPadded + c]; }
  std::int32_t Cell(int r, int c) const { return grid_[r * kPadded + c]; }

  // utils.check_valid_tetromino_placement on the grid clipped to 1: no cell of the 4 x 4
  // crop at (y, x) is filled under a filled cell of `piece`.
  bool Fits(const Piece& piece, int y, int x) const {
    for (int i = 0; i < 4; ++i) {
      for (int j = 0; j < 4; ++j) {
        if (piece[i][j] != 0 && Cell(y + i, x + j) != 0) return false;
      }
    }
    return true;
  }

  // utils.tetromino_action_mask for every rotation of the current piece.
  std::array<bool, 4 * kCols> ActionMask() const {
    std::array<bool, 4 * kCols> mask{};
    for (int r = 0; r < 4; ++r) {
      const Piece& piece = kTetrominoes[index_][r];
      Piece folded = piece;
      for (int j = 0; j < 4; ++j) {
        folded[1][j] = static_cast<std::int8_t>(piece[1][j] + piece[2][j] > 0);
        folded[0][j] = static_cast<std::int8_t>(piece[0][j] + folded[1][j] > 0);
      }
      for (int x = 0; x < kCols; ++x) {
        bool ok = Fits(folded, 0, x);
        if (x >= kCols - 3) {  // the piece's column 3 - (x - 7) must be empty
          const int col = kCols - x;
          for (int i = 0; i < 4; ++i) ok = ok && piece[i][col] == 0;
        }
        mask[r * kCols + x] = ok;
      }
    }
    return mask;
  }

  // utils.place_tetromino; returns its y_position (-1 where no position fails).
  int Place(const Piece& piece, int x) {
    int y = -1;
    for (int p = 0; p < kRows; ++p) {
      bool ok = Fits(piece, p, x);
      if (p >= kRows - 3) {  // the piece's row 3 - (p - 7) must be empty
        const int row = kRows - p;
        for (int j = 0; j < 4; ++j) ok = ok && piece[row][j] == 0;
      }
      if (!ok) {
        y = p - 1;
        break;
      }
    }
    const int y_position = y;
    if (y < 0) y += kPadded;            // lax.dynamic_update_slice wraps a negative index
    y = std::clamp(y, 0, kPadded - 4);  // then clamps the start to fit the piece
    const std::int32_t color = *std::max_element(grid_.begin(), grid_.end()) + 1;
    for (int i = 0; i < 4; ++i) {
      for (int j = 0; j < 4; ++j) {
        std::int32_t& cell = Cell(y + i, x + j);
        cell = std::max(cell, static_cast<std::int32_t>(piece[i][j] * color));
      }
    }
    return y_position;
  }

  // The full rows (of all 13, over the 10 columns) removed: utils.clean_lines's stable
  // argsort puts them on top and zeroes them. Returns their number.
  int ClearLines() {
    std::array<std::int32_t, kPadded * kPadded> out{};
    int write = kPadded;
    int full = 0;
    for (int r = kPadded - 1; r >= 0; --r) {
      bool is_full = true;
      for (int c = 0; c < kCols; ++c) is_full = is_full && Cell(r, c) != 0;
      full_lines_[r] = is_full;
      if (is_full) {
        ++full;
        continue;
      }
      --write;
      std::copy_n(grid_.begin() + r * kPadded, kPadded, out.begin() + write * kPadded);
    }
    grid_ = out;
    return full;
  }

  // A piece times `color`, as int32 values.
  static std::array<std::int32_t, 16> ToInts(const Piece& piece, std::int32_t color) {
    std::array<std::int32_t, 16> out{};
    for (int i = 0; i < 16; ++i) out[i] = piece[i / 4][i % 4] * color;
    return out;
  }

  // jumanji's State, its fields in sorted order (chex dataclasses flatten so): the last
  // step's placement (the grid before it, the placed piece in its colour, x as the action
  // gave it, y as place_tetromino found it: -1 where no position failed), the full rows
  // of the 13, the last reward and its sum.
  void WriteState(StateLeaves& out) const override {
    out.Add(mask_, {4, kCols}).Add(full_lines_, {kPadded});
    out.Add(grid_, {kPadded, kPadded}).Add(grid_old_, {kPadded, kPadded});
    out.Scalar(is_reset_).KeyLeaf(key_).Add(ToInts(kTetrominoes[index_][0], 1), {4, 4});
    out.Add(old_piece_, {4, 4}).Scalar(reward_).Scalar(score_).Scalar(step_count_);
    out.Scalar(index_).Scalar(x_position_).Scalar(y_position_);
  }

  std::array<std::int32_t, kPadded * kPadded> grid_{};
  std::int32_t index_ = 0;
  std::int32_t step_count_ = 0;
  std::array<bool, 4 * kCols> mask_{};
  Key key_{};
  // The last step's, for the State.
  std::array<std::int32_t, kPadded * kPadded> grid_old_{};
  std::array<std::int32_t, 16> old_piece_{};
  std::array<bool, kPadded> full_lines_{};
  std::int32_t x_position_ = 0;
  std::int32_t y_position_ = 0;
  float reward_ = 0.0F;
  float score_ = 0.0F;
  bool is_reset_ = true;
};

}  // namespace envpool::jumanji
