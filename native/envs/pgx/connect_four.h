// ConnectFour-v1: pgx 2.6.0's connect_four (pgx/connect_four.py,
// pgx/_src/games/connect_four.py).
//
// init: current_player = bernoulli(key), who plays color 0. The 6 x 7 board holds -1
// (empty) or a color; action c drops the mover's color into column c, on row
// 5 - (stones in c). A full column's drop (an illegal move) writes row -1, which jax's
// `.at[-1, c]` wraps to row 5: the bottom stone is overwritten, as pgx does, before the
// illegal-move penalty. Four in a row (the 69 lines of pgx's win cache) wins: +1 / -1 by
// color; a full board is a draw. Legal: the columns with fewer than 6 stones.
// Observation of player p (6, 7, 2) bool: plane 0 = p's color, plane 1 = the other's.
// Info: board (6, 7) int32 as pgx holds it (-1, 0, 1).
// State: pgx's _x = (color, board, winner); frames: 280 x 240 by default
// (pgx's SVG: 280 x 280).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "envs/pgx/pgx_env.h"

namespace envpool::pgx {

class ConnectFourEnv final : public PgxEnv {
 public:
  struct Params {
    explicit Params(const Config& /*config*/) {}
  };
  static Config Defaults() { return PgxDefaults(2); }
  static EnvSpec MakeSpec(const Params& /*params*/) {
    return MakePgxSpec(2, BoxSpec("obs", DType::kBool, {6, 7, 2}, {0.0}, {1.0}), 7,
                       {BoxSpec("board", DType::kInt32, {6, 7}, {-1.0}, {1.0})});
  }
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return PgxFrameSize(width, height, camera_id, 280, 240);
  }
  explicit ConnectFourEnv(const Params& /*params*/) : PgxEnv(2, 7, 84) {}

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
    int filled = 0;
    for (int r = 0; r < 6; ++r) filled += board_[static_cast<std::size_t>(r * 7 + action)] >= 0;
    int row = 5 - filled;
    if (row < 0) row += 6;  // jax's negative index
    board_[static_cast<std::size_t>(row * 7 + action)] = color_;
    bool won = false;
    for (const auto& line : Lines()) {
      bool all = true;
      for (int c : line) all = all && board_[static_cast<std::size_t>(c)] == color_;
      won = won || all;
    }
    const int winner = won ? color_ : -1;
    winner_ = winner;
    color_ = 1 - color_;
    current_player_ = 1 - current_player_;
    bool full = true;
    for (int c = 0; c < 7; ++c) {
      int n = 0;
      for (int r = 0; r < 6; ++r) n += board_[static_cast<std::size_t>(r * 7 + c)] >= 0;
      mask_[static_cast<std::size_t>(c)] = n < 6;
      full = full && n == 6;
    }
    terminated_ = winner >= 0 || full;
    if (winner >= 0) {
      for (int p = 0; p < 2; ++p) {
        rewards_[static_cast<std::size_t>(p)] = ColorOf(p) == winner ? 1.0F : -1.0F;
      }
    }
  }

  void Observe(int player, bool* out) const override {
    const int mine = ColorOf(player);
    for (std::size_t i = 0; i < 42; ++i) {
      out[2 * i] = board_[i] == mine;
      out[2 * i + 1] = board_[i] == 1 - mine;
    }
  }

  void WriteObservation(StateLeaves& out) const override {
    out.Add(BoolObservation(current_player_), {6, 7, 2});
  }

  void WriteState(StateLeaves& out) const override {
    out.Scalar(color_).Add(board_, {42}).Scalar(winner_);
  }

  void WriteInfo(const Slot& slot, std::size_t first) const override {
    std::copy(board_.begin(), board_.end(), slot.Info<std::int32_t>(first));
  }

 private:
  // pgx's _make_win_cache: vertical, horizontal, then both diagonals.
  static const std::vector<std::array<int, 4>>& Lines() {
    static const std::vector<std::array<int, 4>> lines = [] {
      std::vector<std::array<int, 4>> out;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 7; ++j) out.push_back({i * 7 + j, i * 7 + j + 7, i * 7 + j + 14, i * 7 + j + 21});
      for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 4; ++j) out.push_back({i * 7 + j, i * 7 + j + 1, i * 7 + j + 2, i * 7 + j + 3});
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j) out.push_back({i * 7 + j, i * 7 + j + 8, i * 7 + j + 16, i * 7 + j + 24});
      for (int i = 0; i < 3; ++i)
        for (int j = 3; j < 7; ++j) out.push_back({i * 7 + j, i * 7 + j + 6, i * 7 + j + 12, i * 7 + j + 18});
      return out;
    }();
    return lines;
  }
  int ColorOf(int player) const { return player == first_player_ ? 0 : 1; }

  int first_player_ = 0;
  int color_ = 0;
  int winner_ = -1;
  std::array<std::int32_t, 42> board_{};
};

}  // namespace envpool::pgx
