// Sudoku-v0 and Sudoku-very-easy-v0: jumanji 1.1.2's environments/logic/sudoku
// (DatabaseGenerator, SparseRewardFn), the puzzles read at run time from the installed
// jumanji's data/10000_mixed_puzzles.npy (Sudoku-v0) or data/1000_very_easy_puzzles.npy
// (the very-easy id): int8 (n, 9, 9), 0 for an empty cell.
//
// Reset: `key, idx_key = split(key)`; the puzzle is database[randint(idx_key, (), 0, n)]
// minus 1 (empty cells -1, digits 0 .. 8). The action (row, col, digit) writes the digit
// into the cell, whatever the mask says. The action mask (9, 9, 9): the cell is empty and
// the digit is in neither its row, its column nor its box. Reward: 1.0 when the board is
// then solved (every row, column and box holds 0 .. 8), else 0.0. The episode ends
// (termination) after an action outside the mask or when the mask is empty. No time
// limit of its own (EnvPool's is 81 steps).
//
// Keyword (sail-sg EnvPool's): sudoku_initial_board ("" or 81 cells row-major in -1 .. 8:
// every episode starts from it). The database path is the hidden keyword _sudoku_database
// (envpool/tasks/jumanji.py); sudoku_database names it as EnvPool does ("mixed" or
// "very-easy").
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/common/keywords.h"
#include "envs/common/npy_file.h"
#include "envs/jumanji/jumanji_env.h"

namespace envpool::jumanji {

// The boards of a jumanji sudoku database (a .npy file of int8 (n, 9, 9)), read once per
// pool and shared read-only by its envs.
inline std::shared_ptr<const std::vector<std::int8_t>> ReadSudokuDatabase(
    const std::string& path) {
  const npy::Array array = npy::Read(path);
  if (array.descr != "|i1" || array.shape.size() != 3 || array.shape[0] < 1 ||
      array.shape[1] != 9 || array.shape[2] != 9) {
    throw std::invalid_argument(path + " does not hold int8 (n, 9, 9) boards");
  }
  return std::make_shared<const std::vector<std::int8_t>>(array.data.begin(), array.data.end());
}

class Sudoku final : public JumanjiEnv {
 public:
  static constexpr int kWidth = 9;
  static constexpr int kCells = kWidth * kWidth;
  using Board = std::array<std::int32_t, kCells>;

  struct Params {
    std::string initial_board;
    std::string database;
    std::string database_path;
    std::vector<int> board;  // parsed initial_board
    std::shared_ptr<const std::vector<std::int8_t>> boards;
    static Keywords<Params> Keys() {
      Keywords<Params> k;
      k.Add("sudoku_initial_board", std::string(), &Params::initial_board);
      k.Add("sudoku_database", std::string("mixed"), &Params::database);
      k.Add("_sudoku_database", std::string(), &Params::database_path);
      return k;
    }
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      if (database != "mixed" && database != "very-easy") {
        throw std::invalid_argument("sudoku_database must be 'mixed' or 'very-easy', got '" +
                                    database + "'");
      }
      board = ParseInts("sudoku_initial_board", initial_board, kCells, -1, kWidth - 1);
      if (board.empty()) {
        if (database_path.empty()) {
          throw std::invalid_argument("Sudoku needs its database (_sudoku_database)");
        }
        boards = ReadSudokuDatabase(database_path);
      }
    }
  };
  static Config Defaults() { return Params::Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec;
    spec.obs_layout = ObsLayout::kDict;
    spec.obs.push_back(BoxSpec("board", DType::kInt32, {kWidth, kWidth}, {-1}, {kWidth - 1}));
    spec.obs.push_back(BoxSpec("action_mask", DType::kBool, {kWidth, kWidth, kWidth}));
    spec.action = BoxSpec("action", DType::kInt32, {3}, {0}, {kWidth - 1});
    spec.reward_low = 0.0;
    spec.reward_high = 1.0;
    return spec;
  }

  explicit Sudoku(const Params& params) : params_(params) {}
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return JumanjiFrame(width, height, camera_id);
  }

  void Reset(Rng& /*rng*/) override {
    const Key use = ResetKey();
    const Key idx_key = jax_random::SplitAt(use, 1);
    key_ = jax_random::SplitAt(use, 0);
    if (!params_.board.empty()) {
      for (int i = 0; i < kCells; ++i) board_[i] = params_.board[i];
    } else {
      const auto n = static_cast<std::int32_t>(params_.boards->size() / kCells);
      const std::int32_t index = jax_random::RandIntAt(idx_key, 0, 0, n);
      const std::int8_t* puzzle =
          params_.boards->data() + static_cast<std::size_t>(index) * kCells;
      for (int i = 0; i < kCells; ++i) board_[i] = static_cast<std::int32_t>(puzzle[i]) - 1;
    }
    UpdateMask();
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const std::int32_t* a = action.As<std::int32_t>();
    const bool invalid = !mask_[(a[0] * kWidth + a[1]) * kWidth + a[2]];
    board_[a[0] * kWidth + a[1]] = a[2];
    UpdateMask();
    bool any = false;
    for (bool m : mask_) any = any || m;
    const bool done = invalid || !any;
    return Outcome(Solved() ? 1.0F : 0.0F, done ? StepType::kTermination : StepType::kMid);
  }

  void Write(const Slot& slot) const override {
    std::int32_t* board = slot.Obs<std::int32_t>(0);
    for (int i = 0; i < kCells; ++i) board[i] = board_[i];
    bool* mask = slot.Obs<bool>(1);
    for (int i = 0; i < kCells * kWidth; ++i) mask[i] = mask_[i];
  }

 private:
  static int Box(int row, int col) { return (row / 3) * 3 + col / 3; }

  // get_action_mask: an empty cell takes the digits absent from its row, column and box.
  void UpdateMask() {
    std::array<std::array<bool, kWidth>, kWidth> in_row{}, in_col{}, in_box{};
    for (int r = 0; r < kWidth; ++r) {
      for (int c = 0; c < kWidth; ++c) {
        const int d = board_[r * kWidth + c];
        if (d < 0) continue;
        in_row[r][d] = in_col[c][d] = in_box[Box(r, c)][d] = true;
      }
    }
    for (int r = 0; r < kWidth; ++r) {
      for (int c = 0; c < kWidth; ++c) {
        for (int d = 0; d < kWidth; ++d) {
          mask_[(r * kWidth + c) * kWidth + d] = board_[r * kWidth + c] == -1 && !in_row[r][d] &&
                                                 !in_col[c][d] && !in_box[Box(r, c)][d];
        }
      }
    }
  }

  // is_puzzle_solved: every row, column and box sorts to 0 .. 8.
  bool Solved() const {
    for (int g = 0; g < kWidth; ++g) {
      std::array<int, kWidth> row{}, col{}, box{};
      for (int k = 0; k < kWidth; ++k) {
        const int rv = board_[g * kWidth + k];
        const int cv = board_[k * kWidth + g];
        const int bv = board_[((g / 3) * 3 + k / 3) * kWidth + (g % 3) * 3 + k % 3];
        for (int v : {rv, cv, bv}) {
          if (v < 0 || v >= kWidth) return false;
        }
        ++row[rv];
        ++col[cv];
        ++box[bv];
      }
      for (int d = 0; d < kWidth; ++d) {
        if (row[d] != 1 || col[d] != 1 || box[d] != 1) return false;
      }
    }
    return true;
  }

  // jumanji's State (a chex dataclass: its leaves by field name): action_mask, board, key.
  void WriteState(StateLeaves& out) const override {
    out.Add(mask_, {kWidth, kWidth, kWidth}).Add(board_, {kWidth, kWidth}).KeyLeaf(key_);
  }

  Params params_;
  Board board_{};
  std::array<bool, kCells * kWidth> mask_{};
  Key key_{};  // the generator's state.key (steps draw nothing)
};

}  // namespace envpool::jumanji
