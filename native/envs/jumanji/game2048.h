// Game2048-v1: jumanji 1.1.2's environments/logic/game_2048 (board_size 4).
//
// The board holds exponents (0 empty, k the tile 2**k). Reset: `key, board_key =
// split(key)` and one random cell on the empty board from board_key. A random cell:
// `key, subkey = split(key)`; its place is choice(key, 16, p=empty cells), its value
// choice(subkey, [1, 2], p=[0.9, 0.1]) (jax_random::ChoiceWeighted). Actions 0 up, 1 right,
// 2 down, 3 left slide every line to that side, merging equal neighbours once each from
// that side (a merge into exponent k + 1 scores 2.0 ** (k + 1), float32). A step: `cell_key,
// key = split(state.key)`, the move, then a random cell from cell_key if the action was in
// the action mask before the move (a move that changes the board). The action mask says
// which moves change the board; none left ends the episode (termination). No time limit
// of its own (EnvPool's is 1000 steps). Info: highest_tile = 2 ** max(board).
//
// Keywords (sail-sg EnvPool's): game2048_initial_board ("" or 16 exponents, row-major:
// every episode starts from it instead of the random cell) and game2048_add_random_cell
// (false: no random cell after a move).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "envs/common/keywords.h"
#include "envs/jumanji/jumanji_env.h"

namespace envpool::jumanji {

class Game2048 final : public JumanjiEnv {
 public:
  static constexpr int kSize = 4;
  using Board = std::array<std::int32_t, kSize * kSize>;

  struct Params {
    std::string initial_board;
    bool add_random_cell = true;
    std::vector<int> board;  // parsed initial_board
    static Keywords<Params> Keys() {
      Keywords<Params> k;
      k.Add("game2048_initial_board", std::string(), &Params::initial_board);
      k.Add("game2048_add_random_cell", true, &Params::add_random_cell);
      return k;
    }
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      board = ParseInts("game2048_initial_board", initial_board, kSize * kSize, 0, 30);
    }
  };
  static Config Defaults() { return Params::Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec;
    spec.obs_layout = ObsLayout::kDict;
    spec.obs.push_back(BoxSpec("board", DType::kInt32, {kSize, kSize}));
    spec.obs.push_back(BoxSpec("action_mask", DType::kBool, {4}));
    spec.info.push_back(BoxSpec("highest_tile", DType::kInt32, {}));
    spec.action = DiscreteSpec("action", 4, DType::kInt32);
    spec.reward_low = 0.0;
    return spec;
  }

  explicit Game2048(const Params& params) : params_(params) {}
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return JumanjiFrame(width, height, camera_id);
  }

  void Reset(Rng& /*rng*/) override {
    const Key use = ResetKey();
    key_ = jax_random::SplitAt(use, 0);
    const Key board_key = jax_random::SplitAt(use, 1);
    board_.fill(0);
    if (!params_.board.empty()) {
      for (int i = 0; i < kSize * kSize; ++i) board_[i] = params_.board[i];
    } else {
      AddRandomCell(board_key);
    }
    mask_ = ActionMask(board_);
    step_count_ = 0;
    score_ = 0.0F;
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const int a = action.Scalar<std::int32_t>();
    float reward = 0.0F;
    Board moved = Move(board_, a, &reward);
    const Key cell_key = jax_random::SplitAt(key_, 0);
    key_ = jax_random::SplitAt(key_, 1);
    board_ = moved;
    if (mask_[a] && params_.add_random_cell) AddRandomCell(cell_key);
    mask_ = ActionMask(board_);
    ++step_count_;
    score_ += reward;  // float32, as jumanji's state.score + reward
    const bool done = !(mask_[0] || mask_[1] || mask_[2] || mask_[3]);
    return Outcome(reward, done ? StepType::kTermination : StepType::kMid);
  }

  void Write(const Slot& slot) const override {
    std::int32_t* board = slot.Obs<std::int32_t>(0);
    std::int32_t highest = 0;
    for (int i = 0; i < kSize * kSize; ++i) {
      board[i] = board_[i];
      highest = board_[i] > highest ? board_[i] : highest;
    }
    bool* mask = slot.Obs<bool>(1);
    for (int i = 0; i < 4; ++i) mask[i] = mask_[i];
    *slot.Info<std::int32_t>(0) = std::int32_t{1} << highest;
  }

 private:
  // The board cell of position j of line i, seen from the side the action slides to (the
  // lines of jumanji's transform_board, each read from the side they move to).
  static int Cell(int action, int line, int j) {
    switch (action) {
      case 0:  // up: column `line`, top first
        return j * kSize + line;
      case 1:  // right: row `line`, right end first
        return line * kSize + (kSize - 1 - j);
      case 2:  // down: column `line`, bottom first
        return (kSize - 1 - j) * kSize + line;
      default:  // left: row `line`, left end first
        return line * kSize + j;
    }
  }

  // jumanji's move: each line slides to its front; equal tiles merge once, front first.
  static Board Move(const Board& board, int action, float* reward) {
    Board out = board;
    float total = 0.0F;
    for (int line = 0; line < kSize; ++line) {
      std::array<std::int32_t, kSize> tiles{};
      int n = 0;
      for (int j = 0; j < kSize; ++j) {
        const std::int32_t v = board[Cell(action, line, j)];
        if (v != 0) tiles[n++] = v;
      }
      std::array<std::int32_t, kSize> result{};
      int m = 0;
      float line_reward = 0.0F;
      for (int j = 0; j < n; ++j) {
        if (j + 1 < n && tiles[j] == tiles[j + 1]) {
          result[m++] = tiles[j] + 1;
          line_reward += static_cast<float>(std::int64_t{1} << (tiles[j] + 1));
          ++j;
        } else {
          result[m++] = tiles[j];
        }
      }
      for (int j = 0; j < kSize; ++j) out[Cell(action, line, j)] = result[j];
      total += line_reward;
    }
    if (reward != nullptr) *reward = total;
    return out;
  }

  static std::array<bool, 4> ActionMask(const Board& board) {
    std::array<bool, 4> mask{};
    for (int a = 0; a < 4; ++a) mask[a] = Move(board, a, nullptr) != board;
    return mask;
  }

  void AddRandomCell(const Key& key) {
    const Key place_key = jax_random::SplitAt(key, 0);
    const Key value_key = jax_random::SplitAt(key, 1);
    std::vector<float> empty(kSize * kSize);
    for (int i = 0; i < kSize * kSize; ++i) empty[i] = board_[i] == 0 ? 1.0F : 0.0F;
    const int index = jax_random::ChoiceWeighted(place_key, empty);
    const int value = jax_random::ChoiceWeighted(value_key, {0.9F, 0.1F}) == 0 ? 1 : 2;
    board_[index] = value;
  }

  // jumanji's State (a chex dataclass: its leaves by field name): action_mask, board, key,
  // score, step_count.
  void WriteState(StateLeaves& out) const override {
    out.Add(mask_, {4}).Add(board_, {kSize, kSize}).KeyLeaf(key_).Scalar(score_);
    out.Scalar(step_count_);
  }

  Params params_;
  Board board_{};
  std::array<bool, 4> mask_{};
  std::int32_t step_count_ = 0;
  float score_ = 0.0F;
  Key key_{};
};

}  // namespace envpool::jumanji
