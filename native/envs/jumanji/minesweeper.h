// Minesweeper-v0: jumanji 1.1.2's environments/logic/minesweeper (10 x 10, 10 mines,
// DefaultRewardFn(1, 0, 0), DefaultDoneFn).
//
// Reset: `key, sample_key = split(key)`; the mines are choice(sample_key, 100, (10,),
// replace=False), the first 10 of permutation(sample_key, 100) (jax_random::Permutation),
// as flat indices row * 10 + col. The board starts all -1 (unexplored). The action (row,
// col) writes the number of mines among the 8 neighbours into that cell. Reward 1.0 for
// an unexplored cell without a mine, 0.0 for a mine or an explored cell. The episode ends
// (termination) on an explored cell, a mine, or when every cell without a mine is
// explored. No time limit of its own (EnvPool's is 90 steps). The action mask is
// board == -1.
//
// Keyword (sail-sg EnvPool's): minesweeper_mine_locations ("" or flat indices of the
// mines, distinct: every episode has them, and num_mines is their count).
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/common/keywords.h"
#include "envs/jumanji/jumanji_env.h"

namespace envpool::jumanji {

class Minesweeper final : public JumanjiEnv {
 public:
  static constexpr int kRows = 10;
  static constexpr int kCols = 10;
  static constexpr int kCells = kRows * kCols;
  static constexpr int kMines = 10;

  struct Params {
    std::string mine_locations;
    std::vector<int> mines;  // parsed
    static Keywords<Params> Keys() {
      Keywords<Params> k;
      k.Add("minesweeper_mine_locations", std::string(), &Params::mine_locations);
      return k;
    }
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      mines = ParseInts("minesweeper_mine_locations", mine_locations, -1, 0, kCells - 1);
      std::array<bool, kCells> seen{};
      for (int m : mines) {
        if (seen[m]) throw std::invalid_argument("minesweeper_mine_locations repeats " +
                                                 std::to_string(m));
        seen[m] = true;
      }
      if (static_cast<int>(mines.size()) >= kCells) {
        throw std::invalid_argument("minesweeper_mine_locations leaves no cell without a mine");
      }
    }
  };
  static Config Defaults() { return Params::Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec;
    spec.obs_layout = ObsLayout::kDict;
    spec.obs.push_back(BoxSpec("board", DType::kInt32, {kRows, kCols}, {-1}, {8}));
    spec.obs.push_back(BoxSpec("action_mask", DType::kBool, {kRows, kCols}));
    spec.obs.push_back(DiscreteSpec("num_mines", kCells, DType::kInt32));
    spec.obs.push_back(DiscreteSpec("step_count", kCells - kMines + 1, DType::kInt32));
    spec.action = BoxSpec("action", DType::kInt32, {2}, {0}, {kRows - 1});
    spec.reward_low = 0.0;
    spec.reward_high = 1.0;
    return spec;
  }

  explicit Minesweeper(const Params& params) : params_(params) {}
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return JumanjiFrame(width, height, camera_id);
  }

  void Reset(Rng& /*rng*/) override {
    const Key use = ResetKey();
    const Key sample_key = jax_random::SplitAt(use, 1);
    key_ = jax_random::SplitAt(use, 0);
    mined_.fill(false);
    if (!params_.mines.empty()) {
      mine_list_ = params_.mines;
    } else {
      const std::vector<std::int32_t> order = jax_random::Permutation(sample_key, kCells);
      mine_list_.assign(order.begin(), order.begin() + kMines);
    }
    num_mines_ = static_cast<int>(mine_list_.size());
    for (int m : mine_list_) mined_[m] = true;
    board_.fill(-1);
    step_count_ = 0;
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const std::int32_t* rc = action.As<std::int32_t>();
    const int row = rc[0];
    const int col = rc[1];
    const int cell = row * kCols + col;
    const bool valid = board_[cell] == -1;
    const bool mine = mined_[cell];
    int count = 0;
    for (int r = row - 1; r <= row + 1; ++r) {
      for (int c = col - 1; c <= col + 1; ++c) {
        if ((r != row || c != col) && r >= 0 && r < kRows && c >= 0 && c < kCols) {
          count += mined_[r * kCols + c] ? 1 : 0;
        }
      }
    }
    board_[cell] = count;
    ++step_count_;
    int explored = 0;
    for (auto v : board_) explored += v >= 0 ? 1 : 0;
    const bool solved = explored == kCells - num_mines_;
    const float reward = valid && !mine ? 1.0F : 0.0F;
    const bool done = !valid || mine || solved;
    return Outcome(reward, done ? StepType::kTermination : StepType::kMid);
  }

  void Write(const Slot& slot) const override {
    std::int32_t* board = slot.Obs<std::int32_t>(0);
    bool* mask = slot.Obs<bool>(1);
    for (int i = 0; i < kCells; ++i) {
      board[i] = board_[i];
      mask[i] = board_[i] == -1;
    }
    *slot.Obs<std::int32_t>(2) = num_mines_;
    *slot.Obs<std::int32_t>(3) = step_count_;
  }

 private:
  // jumanji's State (a chex dataclass: its leaves by field name): board,
  // flat_mine_locations (in the generator's order), key, step_count.
  void WriteState(StateLeaves& out) const override {
    out.Add(board_, {kRows, kCols}).Add(mine_list_, {num_mines_}).KeyLeaf(key_);
    out.Scalar(step_count_);
  }

  Params params_;
  std::array<bool, kCells> mined_{};
  std::vector<int> mine_list_;  // the flat mine locations in jumanji's order
  std::array<std::int32_t, kCells> board_{};
  int num_mines_ = kMines;
  std::int32_t step_count_ = 0;
  Key key_{};  // the generator's state.key (steps draw nothing)
};

}  // namespace envpool::jumanji
