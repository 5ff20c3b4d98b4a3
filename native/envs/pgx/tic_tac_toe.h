// TicTacToe-v1: pgx 2.6.0's tic_tac_toe (pgx/tic_tac_toe.py, pgx/_src/games/tic_tac_toe.py).
//
// init: current_player = bernoulli(key); that player has color 0 (X), the other 1 (O).
// The board holds -1 (empty) or a color; an action (0..8, row-major) writes the mover's
// color there (also on an occupied cell: an illegal move overwrites it, as pgx's
// `board.at[action].set(color)` does, before the illegal-move penalty ends the game).
// A line of three of the mover's color wins: rewards +1 / -1 by color, mapped to the
// players; a full board without a line is a draw (0, 0). Legal: the empty cells.
// Observation of player p (3, 3, 2) bool: plane 0 = p's color, plane 1 = the other's.
// Info: board (3, 3) int32 as pgx holds it (-1, 0, 1).
// State: pgx's _x = (color, board, winner); frames: 192 x 192 by default
// (pgx's SVG: 240 x 240).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "envs/pgx/pgx_env.h"

namespace envpool::pgx {

class TicTacToeEnv final : public PgxEnv {
 public:
  struct Params {
    explicit Params(const Config& /*config*/) {}
  };
  static Config Defaults() { return PgxDefaults(2); }
  static EnvSpec MakeSpec(const Params& /*params*/) {
    return MakePgxSpec(2, BoxSpec("obs", DType::kBool, {3, 3, 2}, {0.0}, {1.0}), 9,
                       {BoxSpec("board", DType::kInt32, {3, 3}, {-1.0}, {1.0})});
  }
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return PgxFrameSize(width, height, camera_id, 192, 192);
  }
  explicit TicTacToeEnv(const Params& /*params*/) : PgxEnv(2, 9, 18) {}

 protected:
  void Init(const Key& key) override {
    current_player_ = Bernoulli(key) ? 1 : 0;
    first_player_ = current_player_;
    color_ = 0;
    winner_ = -1;
    board_.fill(-1);
    std::fill(mask_.begin(), mask_.end(), true);
  }

  void GameStep(int action, const Key& /*key*/) override {
    static constexpr int kLines[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                         {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};
    board_[static_cast<std::size_t>(action)] = color_;
    bool won = false;
    for (const auto& line : kLines) {
      bool all = true;
      for (int c : line) all = all && board_[static_cast<std::size_t>(c)] == color_;
      won = won || all;
    }
    const int winner = won ? color_ : -1;
    winner_ = winner;
    color_ = 1 - color_;
    current_player_ = 1 - current_player_;
    bool full = true;
    for (std::size_t i = 0; i < 9; ++i) {
      mask_[i] = board_[i] < 0;
      full = full && board_[i] != -1;
    }
    terminated_ = winner >= 0 || full;
    if (winner >= 0) {
      // rewards by color, given to the player of that color
      for (int p = 0; p < 2; ++p) {
        rewards_[static_cast<std::size_t>(p)] = ColorOf(p) == winner ? 1.0F : -1.0F;
      }
    }
  }

  void Observe(int player, bool* out) const override {
    const int mine = ColorOf(player);
    for (std::size_t i = 0; i < 9; ++i) {
      out[2 * i] = board_[i] == mine;
      out[2 * i + 1] = board_[i] == 1 - mine;
    }
  }

  void WriteObservation(StateLeaves& out) const override {
    out.Add(BoolObservation(current_player_), {3, 3, 2});
  }

  void WriteState(StateLeaves& out) const override {
    out.Scalar(color_).Add(board_, {9}).Scalar(winner_);
  }

  void WriteInfo(const Slot& slot, std::size_t first) const override {
    std::copy(board_.begin(), board_.end(), slot.Info<std::int32_t>(first));
  }

 private:
  int ColorOf(int player) const { return player == first_player_ ? 0 : 1; }

  int first_player_ = 0;
  int color_ = 0;
  int winner_ = -1;
  std::array<std::int32_t, 9> board_{};
};

}  // namespace envpool::pgx
