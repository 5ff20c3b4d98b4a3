// SlidingTilePuzzle-v0: jumanji 1.1.2's environments/logic/sliding_tile_puzzle (grid 5,
// RandomWalkGenerator with 200 random moves, DenseRewardFn, time_limit 500).
//
// The solved puzzle is 1 .. 24 row-major with the empty tile (0) last. Reset: `key, sub =
// split(key)`; the generator takes `key, moves_key = split(sub)` and makes 200 random moves
// of the empty tile from the solved puzzle (bottom-right), move i drawn with the i-th key
// of split(moves_key, 200) as choice(k, MOVES, p=valid moves) (jax_random::ChoiceWeighted).
// Actions move the empty tile: 0 up, 1 right, 2 down, 3 left; a move off the grid leaves
// the puzzle as it is. Reward: the tiles that became correct minus those that stopped
// being correct (float32). The episode ends (termination) when the puzzle is solved or at
// step_count >= 500. Info: prop_correctly_placed = (correct cells) / 25 in float32,
// computed as XLA does it: times the float32 reciprocal of 25.
//
// Keyword (sail-sg EnvPool's): sliding_tile_initial_puzzle ("" or the 25 tiles row-major,
// a permutation of 0 .. 24: every episode starts from it).
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/common/keywords.h"
#include "envs/jumanji/jumanji_env.h"

namespace envpool::jumanji {

class SlidingTilePuzzle final : public JumanjiEnv {
 public:
  static constexpr int kSize = 5;
  static constexpr int kCells = kSize * kSize;
  static constexpr int kRandomMoves = 200;
  static constexpr int kTimeLimit = 500;
  using Puzzle = std::array<std::int32_t, kCells>;

  struct Params {
    std::string initial_puzzle;
    std::vector<int> puzzle;  // parsed initial_puzzle
    static Keywords<Params> Keys() {
      Keywords<Params> k;
      k.Add("sliding_tile_initial_puzzle", std::string(), &Params::initial_puzzle);
      return k;
    }
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      puzzle = ParseInts("sliding_tile_initial_puzzle", initial_puzzle, kCells, 0, kCells - 1);
      std::array<bool, kCells> seen{};
      for (int v : puzzle) {
        if (seen[v]) {
          throw std::invalid_argument("sliding_tile_initial_puzzle must hold 0 .. 24 once each");
        }
        seen[v] = true;
      }
    }
  };
  static Config Defaults() { return Params::Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec;
    spec.obs_layout = ObsLayout::kDict;
    spec.obs.push_back(BoxSpec("puzzle", DType::kInt32, {kSize, kSize}, {0}, {kCells - 1}));
    spec.obs.push_back(BoxSpec("empty_tile_position", DType::kInt32, {2}, {0}, {kSize - 1}));
    spec.obs.push_back(BoxSpec("action_mask", DType::kBool, {4}));
    spec.obs.push_back(DiscreteSpec("step_count", kTimeLimit + 1, DType::kInt32));
    spec.info.push_back(BoxSpec("prop_correctly_placed", DType::kFloat32, {}));
    spec.action = DiscreteSpec("action", 4, DType::kInt32);
    return spec;
  }

  explicit SlidingTilePuzzle(const Params& params) : params_(params) {}
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return JumanjiFrame(width, height, camera_id);
  }

  void Reset(Rng& /*rng*/) override {
    const Key sub = jax_random::SplitAt(ResetKey(), 1);
    const Key moves_key = jax_random::SplitAt(sub, 1);
    key_ = jax_random::SplitAt(sub, 0);
    step_count_ = 0;
    if (!params_.puzzle.empty()) {
      for (int i = 0; i < kCells; ++i) {
        puzzle_[i] = params_.puzzle[i];
        if (puzzle_[i] == 0) empty_ = {i / kSize, i % kSize};
      }
      return;
    }
    puzzle_ = Solved();
    empty_ = {kSize - 1, kSize - 1};
    for (int i = 0; i < kRandomMoves; ++i) {
      const auto valid = ValidMoves(empty_);
      std::vector<float> p(4);
      for (int m = 0; m < 4; ++m) p[m] = valid[m] ? 1.0F : 0.0F;
      const int m = jax_random::ChoiceWeighted(jax_random::SplitAt(moves_key, i), p);
      const std::array<int, 2> next = {empty_[0] + kMoves[m][0], empty_[1] + kMoves[m][1]};
      std::swap(puzzle_[empty_[0] * kSize + empty_[1]], puzzle_[next[0] * kSize + next[1]]);
      empty_ = next;
    }
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const int a = action.Scalar<std::int32_t>();
    const Puzzle before = puzzle_;
    const std::array<int, 2> next = {empty_[0] + kMoves[a][0], empty_[1] + kMoves[a][1]};
    if (Inside(next)) {
      puzzle_[empty_[0] * kSize + empty_[1]] = puzzle_[next[0] * kSize + next[1]];
      puzzle_[next[0] * kSize + next[1]] = 0;
      empty_ = next;
    }
    ++step_count_;
    const Puzzle solved = Solved();
    int gained = 0;
    int lost = 0;
    for (int i = 0; i < kCells; ++i) {
      gained += (puzzle_[i] == solved[i]) && (before[i] != solved[i]);
      lost += (puzzle_[i] != solved[i]) && (before[i] == solved[i]);
    }
    const bool done = puzzle_ == solved || step_count_ >= kTimeLimit;
    return Outcome(static_cast<float>(gained - lost),
                   done ? StepType::kTermination : StepType::kMid);
  }

  void Write(const Slot& slot) const override {
    std::int32_t* puzzle = slot.Obs<std::int32_t>(0);
    const Puzzle solved = Solved();
    int correct = 0;
    for (int i = 0; i < kCells; ++i) {
      puzzle[i] = puzzle_[i];
      correct += puzzle_[i] == solved[i];
    }
    std::int32_t* empty = slot.Obs<std::int32_t>(1);
    empty[0] = empty_[0];
    empty[1] = empty_[1];
    const auto valid = ValidMoves(empty_);
    bool* mask = slot.Obs<bool>(2);
    for (int m = 0; m < 4; ++m) mask[m] = valid[m];
    *slot.Obs<std::int32_t>(3) = step_count_;
    // XLA divides by the constant 25 as a product with its float32 reciprocal.
    *slot.Info<float>(0) = static_cast<float>(correct) * (1.0F / static_cast<float>(kCells));
  }

 private:
  // jumanji's MOVES: up, right, down, left as (row, col) steps.
  static constexpr int kMoves[4][2] = {{-1, 0}, {0, 1}, {1, 0}, {0, -1}};

  static Puzzle Solved() {
    Puzzle p{};
    for (int i = 0; i < kCells - 1; ++i) p[i] = i + 1;
    p[kCells - 1] = 0;
    return p;
  }
  static bool Inside(const std::array<int, 2>& pos) {
    return pos[0] >= 0 && pos[0] < kSize && pos[1] >= 0 && pos[1] < kSize;
  }
  static std::array<bool, 4> ValidMoves(const std::array<int, 2>& empty) {
    std::array<bool, 4> valid{};
    for (int m = 0; m < 4; ++m) {
      valid[m] = Inside({empty[0] + kMoves[m][0], empty[1] + kMoves[m][1]});
    }
    return valid;
  }

  // jumanji's State (a chex dataclass: its leaves by field name): empty_tile_position,
  // key, puzzle, step_count.
  void WriteState(StateLeaves& out) const override {
    out.Add(empty_, {2}).KeyLeaf(key_).Add(puzzle_, {kSize, kSize}).Scalar(step_count_);
  }

  Params params_;
  Puzzle puzzle_{};
  std::array<int, 2> empty_{};
  std::int32_t step_count_ = 0;
  Key key_{};  // the generator's state.key (steps draw nothing)
};

}  // namespace envpool::jumanji
