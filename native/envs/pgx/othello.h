// Othello-v1: pgx 2.6.0's othello (pgx/othello.py).
//
// init: current_player = bernoulli(key); the board (8 x 8, kept from the mover's side:
// 1 the mover's discs, -1 the opponent's) starts with 28, 35 = 1 and 27, 36 = -1; legal:
// 19, 26, 37, 44. Action a < 64 places a disc and flips the opponent's lines in the eight
// directions (pgx's bitboard form: _check_line with its shifts [1, -1, 8, -8, 7, -7, 9,
// -9] and edge masks, jnp.roll wrapping around the 64 cells); action 64 passes. pgx
// restates the board with XORs (my ^= pos | rev; opp ^= rev), which an illegal move
// (an occupied cell) follows too; the next board is opp -> 1, else my -> -1. Legal for
// the next mover: the empty cells that flip something, and the pass when none does. The
// game ends on a full board, when the opponent has no disc, or on a second pass in a
// row; rewards by disc count (+1 / -1, 0 on a tie).
// Observation of player p (8, 8, 2) bool: p's discs, the opponent's.
// Info: board (8, 8) int32 as pgx holds it (from the mover's side).
// State: pgx's _x = (turn: step_count % 2, board, passed); frames: 256 x 256 by default
// (pgx's SVG: 270 x 270).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "envs/pgx/pgx_env.h"

namespace envpool::pgx {

class OthelloEnv final : public PgxEnv {
 public:
  using Bits = std::array<bool, 64>;

  struct Params {
    explicit Params(const Config& /*config*/) {}
  };
  static Config Defaults() { return PgxDefaults(2); }
  static EnvSpec MakeSpec(const Params& /*params*/) {
    return MakePgxSpec(2, BoxSpec("obs", DType::kBool, {8, 8, 2}, {0.0}, {1.0}), 65,
                       {BoxSpec("board", DType::kInt32, {8, 8}, {-1.0}, {1.0})});
  }
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return PgxFrameSize(width, height, camera_id, 256, 256);
  }
  explicit OthelloEnv(const Params& /*params*/) : PgxEnv(2, 65, 128) {}

 protected:
  void Init(const Key& key) override {
    current_player_ = Bernoulli(key) ? 1 : 0;
    board_.fill(0);
    board_[28] = board_[35] = 1;
    board_[27] = board_[36] = -1;
    passed_ = false;
    std::fill(mask_.begin(), mask_.end(), false);
    mask_[19] = mask_[26] = mask_[37] = mask_[44] = true;
  }

  void GameStep(int action, const Key& /*key*/) override {
    Bits my{};
    Bits opp{};
    Bits pos{};
    for (std::size_t i = 0; i < 64; ++i) {
      my[i] = board_[i] > 0;
      opp[i] = board_[i] < 0;
    }
    if (action < 64) pos[static_cast<std::size_t>(action)] = true;  // 64: out of bounds, dropped
    Bits rev{};
    for (int d = 0; d < 8; ++d) {
      const Bits tmp = CheckLine(pos, opp, d);
      const Bits rolled = Roll(tmp, kShifts[d]);
      bool any = false;
      for (std::size_t i = 0; i < 64; ++i) any = any || (rolled[i] && my[i]);
      if (any) {
        for (std::size_t i = 0; i < 64; ++i) rev[i] = rev[i] || tmp[i];
      }
    }
    Bits emp{};
    for (std::size_t i = 0; i < 64; ++i) {
      my[i] = my[i] != (pos[i] || rev[i]);
      opp[i] = opp[i] != rev[i];
      emp[i] = !(my[i] || opp[i]);
    }
    Bits legal{};
    for (int d = 0; d < 8; ++d) {
      const Bits rolled = Roll(CheckLine(opp, my, d), kShifts[d]);
      for (std::size_t i = 0; i < 64; ++i) legal[i] = legal[i] || (rolled[i] && emp[i]);
    }
    int n_my = 0;
    int n_opp = 0;
    int n_any = 0;
    for (std::size_t i = 0; i < 64; ++i) {
      n_my += my[i];
      n_opp += opp[i];
      n_any += my[i] || opp[i];
    }
    const bool over = n_any == 64 || n_opp == 0 || (passed_ && action == 64);
    if (over && n_my != n_opp) {
      const int winner = n_my > n_opp ? current_player_ : 1 - current_player_;
      rewards_[0] = rewards_[1] = -1.0F;
      rewards_[static_cast<std::size_t>(winner)] = 1.0F;
    }
    terminated_ = over;
    current_player_ = 1 - current_player_;
    for (std::size_t i = 0; i < 64; ++i) board_[i] = opp[i] ? 1 : -static_cast<std::int32_t>(my[i]);
    passed_ = action == 64;
    bool any_legal = false;
    for (std::size_t i = 0; i < 64; ++i) {
      mask_[i] = legal[i];
      any_legal = any_legal || legal[i];
    }
    mask_[64] = !any_legal;
  }

  void Observe(int player, bool* out) const override {
    const std::int32_t sign = player == current_player_ ? 1 : -1;
    for (std::size_t i = 0; i < 64; ++i) {
      out[2 * i] = board_[i] * sign > 0;
      out[2 * i + 1] = board_[i] * sign < 0;
    }
  }

  void WriteObservation(StateLeaves& out) const override {
    out.Add(BoolObservation(current_player_), {8, 8, 2});
  }

  void WriteState(StateLeaves& out) const override {
    out.Scalar(step_count_ % 2).Add(board_, {64}).Scalar(passed_);
  }

  void WriteInfo(const Slot& slot, std::size_t first) const override {
    std::copy(board_.begin(), board_.end(), slot.Info<std::int32_t>(first));
  }

 private:
  static constexpr int kShifts[8] = {1, -1, 8, -8, 7, -7, 9, -9};

  // jnp.roll(x, shift): out[i] = x[(i - shift) mod 64].
  static Bits Roll(const Bits& x, int shift) {
    Bits out{};
    for (int i = 0; i < 64; ++i) out[static_cast<std::size_t>(i)] = x[static_cast<std::size_t>(((i - shift) % 64 + 64) % 64)];
    return out;
  }

  // The edge mask of direction d: LR for +-1, UD for +-8, both for the diagonals.
  static bool EdgeMask(int d, int i) {
    const bool lr = i % 8 != 0 && i % 8 != 7;
    const bool ud = i >= 8 && i < 56;
    if (d < 2) return lr;
    if (d < 4) return ud;
    return lr && ud;
  }

  // _check_line(pos, opp, shift, mask): five more roll-and-extend rounds after the first.
  static Bits CheckLine(const Bits& pos, const Bits& opp, int d) {
    Bits masked{};
    for (int i = 0; i < 64; ++i) masked[static_cast<std::size_t>(i)] = opp[static_cast<std::size_t>(i)] && EdgeMask(d, i);
    Bits result{};
    const Bits first = Roll(pos, kShifts[d]);
    for (std::size_t i = 0; i < 64; ++i) result[i] = masked[i] && first[i];
    for (int k = 0; k < 5; ++k) {
      const Bits rolled = Roll(result, kShifts[d]);
      for (std::size_t i = 0; i < 64; ++i) result[i] = result[i] || (masked[i] && rolled[i]);
    }
    return result;
  }

  bool passed_ = false;
  std::array<std::int32_t, 64> board_{};
};

}  // namespace envpool::pgx
