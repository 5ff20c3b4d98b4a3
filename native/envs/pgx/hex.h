// Hex-v1: pgx 2.6.0's hex on the 11 x 11 board (pgx/hex.py, pgx/_src/games/hex.py).
//
// init: player_order = [[0, 1], [1, 0]][bernoulli(key)]; current_player =
// player_order[color], color = step_count % 2 (0 black moves first). The board is kept
// from the mover's side: > 0 the mover's stones, < 0 the opponent's, each stone holding
// its group's id (the placing cell + 1). Action a < 121 places a stone with id a + 1 and
// merges the neighbouring own groups into it (pgx's six neighbours, in its order); then
// the board is negated for the next mover and the game ends when the group just placed
// touches both of its sides (for the new color 0 the first and last columns, for 1 the
// first and last rows, as pgx tests them). Action 121 (legal only at step 1) swaps: the
// first nonzero cell (r, c) moves to (c, r), and the board is negated. Illegal moves run
// the same rules first (an occupied cell is overwritten). Rewards when terminated: the
// new color -1, the other +1, mapped to players by player_order.
// Observation of player p (11, 11, 4) bool: p's stones, the opponent's, p's color
// (all cells), whether the swap is legal (all cells). Info: board (11, 11) int32, the sign
// of pgx's board (+1 the mover's stones, -1 the other's).
// State: pgx's _player_order and _x = (step_count, board, terminated: the game's own end,
// not the illegal move's); frames: 352 x 352 by default (pgx's
// SVG: 525 x 315.789).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "envs/pgx/pgx_env.h"

namespace envpool::pgx {

class HexEnv final : public PgxEnv {
 public:
  static constexpr int kSize = 11;
  static constexpr int kCells = kSize * kSize;

  struct Params {
    explicit Params(const Config& /*config*/) {}
  };
  static Config Defaults() { return PgxDefaults(2); }
  static EnvSpec MakeSpec(const Params& /*params*/) {
    return MakePgxSpec(2, BoxSpec("obs", DType::kBool, {kSize, kSize, 4}, {0.0}, {1.0}),
                       kCells + 1,
                       {BoxSpec("board", DType::kInt32, {kSize, kSize}, {-1.0}, {1.0})});
  }
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return PgxFrameSize(width, height, camera_id, 352, 352);
  }
  explicit HexEnv(const Params& /*params*/) : PgxEnv(2, kCells + 1, kCells * 4) {}

 protected:
  void Init(const Key& key) override {
    const bool flip = Bernoulli(key);
    order_ = flip ? std::array<int, 2>{1, 0} : std::array<int, 2>{0, 1};
    game_steps_ = 0;
    game_over_ = false;
    board_.fill(0);
    current_player_ = order_[0];
    Mask();
  }

  void GameStep(int action, const Key& /*key*/) override {
    bool game_over = false;
    if (action != kCells) {
      const std::int32_t id = action + 1;
      board_[static_cast<std::size_t>(action)] = id;
      const int x = action / kSize;
      const int y = action % kSize;
      const int xs[6] = {x, x + 1, x - 1, x + 1, x - 1, x};
      const int ys[6] = {y - 1, y - 1, y, y, y + 1, y + 1};
      for (int i = 0; i < 6; ++i) {
        if (xs[i] < 0 || xs[i] >= kSize || ys[i] < 0 || ys[i] >= kSize) continue;
        const std::int32_t adj = board_[static_cast<std::size_t>(xs[i] * kSize + ys[i])];
        if (adj > 0) {
          for (auto& v : board_) v = v == adj ? id : v;
        }
      }
      ++game_steps_;
      for (auto& v : board_) v = -v;
      // _is_terminal with the new color
      const std::int32_t target = board_[static_cast<std::size_t>(action)];
      bool top = false;
      bool bottom = false;
      for (int k = 0; k < kSize; ++k) {
        if (Color() == 0) {
          top = top || board_[static_cast<std::size_t>(k * kSize)] == target;
          bottom = bottom || board_[static_cast<std::size_t>(k * kSize + kSize - 1)] == target;
        } else {
          top = top || board_[static_cast<std::size_t>(k)] == target;
          bottom = bottom || board_[static_cast<std::size_t>(kCells - kSize + k)] == target;
        }
      }
      game_over = top && bottom;
    } else {
      // _swap: jnp.nonzero(board, size=1) (0 when the board is empty)
      int ix = 0;
      for (int i = 0; i < kCells; ++i) {
        if (board_[static_cast<std::size_t>(i)] != 0) {
          ix = i;
          break;
        }
      }
      const int swapped = (ix % kSize) * kSize + ix / kSize;
      board_[static_cast<std::size_t>(ix)] = 0;
      board_[static_cast<std::size_t>(swapped)] = swapped + 1;
      ++game_steps_;
      for (auto& v : board_) v = -v;
    }
    current_player_ = order_[static_cast<std::size_t>(Color())];
    terminated_ = game_over;
    game_over_ = game_over;
    Mask();
    if (game_over) {
      // rewards by color: the new color -1, the other +1; players: rewards[order]
      for (int p = 0; p < 2; ++p) {
        rewards_[static_cast<std::size_t>(p)] = order_[static_cast<std::size_t>(p)] == Color() ? -1.0F : 1.0F;
      }
    }
  }

  void Observe(int player, bool* out) const override {
    const int color = player == current_player_ ? Color() : 1 - Color();
    const bool same = color == Color();
    for (std::size_t i = 0; i < static_cast<std::size_t>(kCells); ++i) {
      const std::int32_t v = same ? board_[i] : -board_[i];
      out[4 * i] = v > 0;
      out[4 * i + 1] = v < 0;
      out[4 * i + 2] = color != 0;
      out[4 * i + 3] = game_steps_ == 1;
    }
  }

  void WriteObservation(StateLeaves& out) const override {
    out.Add(BoolObservation(current_player_), {kSize, kSize, 4});
  }

  void WriteState(StateLeaves& out) const override {
    out.Add(order_, {2}).Scalar(game_steps_).Add(board_, {kCells}).Scalar(game_over_);
  }

  void WriteInfo(const Slot& slot, std::size_t first) const override {
    std::int32_t* board = slot.Info<std::int32_t>(first);
    for (std::size_t i = 0; i < static_cast<std::size_t>(kCells); ++i) {
      board[i] = (board_[i] > 0) - (board_[i] < 0);
    }
  }

 private:
  int Color() const { return game_steps_ % 2; }
  void Mask() {
    for (std::size_t i = 0; i < static_cast<std::size_t>(kCells); ++i) mask_[i] = board_[i] == 0;
    mask_[static_cast<std::size_t>(kCells)] = game_steps_ == 1;
  }

  std::array<int, 2> order_{0, 1};
  int game_steps_ = 0;
  bool game_over_ = false;
  std::array<std::int32_t, kCells> board_{};
};

}  // namespace envpool::pgx
