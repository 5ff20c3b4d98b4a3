// Backgammon-v1: pgx 2.6.0's backgammon (pgx/backgammon.py), a two-player dice game.
//
// Board (28 int32), always from the mover's side (its checkers positive, the opponent's
// negative): points 0..23 (the mover runs from 0 towards 23, home board 18..23), bars 24
// (the mover's) and 25 (the opponent's), off 26 (the mover's) and 27 (the opponent's). At a
// turn change the board is flipped: each of [0, 24), [24, 26), [26, 28) reversed, then
// negated. Dice hold 0..5 (faces 1..6); playable_dice (4) the dice still to play (-1 for
// none; a double gives four).
//
// Action (156) = 6 * src + die: src 0 is the no-op, 1 the bar (board index 24), 2..25 the
// points 0..23; die + 1 the face. Its target: from the bar die (face - 1), from a point
// p the point p + face when <= 23, else off (26). Legal (pgx's _is_action_legal):
//   to a point: the source holds a mover's checker, the target at most one opponent's
//     checker, and (from a point) the mover's bar is empty;
//   off: the source holds a mover's checker, every mover's checker not off is on
//     18..23, and the distance 24 - src equals the face, or the face is at least the
//     rear distance (24 - the lowest point holding a mover's checker; pgx's float
//     nonzero fill makes it -76 when there is none) and src is that rear point.
// The mask is the union over the playable dice; when it is empty, only the no-ops (0..5)
// are legal.
//
// init(key): rng1, rng2 = split(key); current_player = bernoulli(rng1); the dice
// choice(rng2, the 30 ordered pairs of different faces) (randint(rng2, (), 0, 30)); turn
// = (dice[1] > dice[0]) (pgx's, unrelated to current_player).
// step(action, key) (_step): a no-op leaves the state as it is; any other action moves (a
// hit checker goes to the opponent's bar 25), counts a played die and removes it from
// playable_dice (a double: the entry 3 - played, else every entry equal to the die), and
// recomputes the mask. Then, if the mover has 15 off, it wins 1 point, 2 (gammon: the
// opponent has none off) or 3 (backgammon: also some checker on the mover's home board),
// the opponent losing as much, and the game ends. Otherwise, when the action was a no-op
// or no die is left, the turn changes: flip, current_player and turn toggle, new dice
// randint(key, (1, 2), 0, 6) from the step's own key, mask from the dice.
// An illegal action runs the same code (its move is kept) before pgx's penalty: -3 for
// the mover, +3 for the other, terminated.
// Observation of player p (34 int32): the board, then for the current player the count of
// each face among playable_dice (zeros for the other player).
// Info: board (28), dice (2), playable_dice (4), played_dice_num, turn.
// State: pgx's _board, _dice, _playable_dice, _played_dice_num, _turn; frames: 360 x 180 by
// default (pgx's SVG: 450 x 375).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <vector>

#include "envs/pgx/pgx_env.h"

namespace envpool::pgx {

class BackgammonEnv final : public PgxEnv {
 public:
  static constexpr int kActions = 6 * 26;
  using Board = std::array<std::int32_t, 28>;

  struct Params {
    explicit Params(const Config& /*config*/) {}
  };
  static Config Defaults() { return PgxDefaults(2); }
  static EnvSpec MakeSpec(const Params& /*params*/) {
    const double lo = std::numeric_limits<std::int32_t>::min();
    const double hi = std::numeric_limits<std::int32_t>::max();
    return MakePgxSpec(2, BoxSpec("obs", DType::kInt32, {34}, {lo}, {hi}), kActions,
                       {BoxSpec("board", DType::kInt32, {28}, {-15.0}, {15.0}),
                        BoxSpec("dice", DType::kInt32, {2}, {0.0}, {5.0}),
                        BoxSpec("playable_dice", DType::kInt32, {4}, {-1.0}, {5.0}),
                        BoxSpec("played_dice_num", DType::kInt32, {}, {0.0}, {4.0}),
                        BoxSpec("turn", DType::kInt32, {}, {0.0}, {1.0})},
                       -3.0, 3.0);
  }
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return PgxFrameSize(width, height, camera_id, 360, 180);
  }
  explicit BackgammonEnv(const Params& /*params*/) : PgxEnv(2, kActions, 34, -3.0F) {}

 protected:
  void Init(const Key& key) override {
    current_player_ = Bernoulli(jax_random::SplitAt(key, 0)) ? 1 : 0;
    board_ = {2, 0, 0, 0, 0, -5, 0, -3, 0, 0, 0, 5, -5, 0, 0, 0, 3, 0, 5, 0, 0, 0, 0, -2,
              0, 0, 0, 0};
    // The 30 ordered pairs (a, b), a != b, in pgx's order (a major).
    const std::int32_t k = jax_random::RandIntAt(jax_random::SplitAt(key, 1), 0, 0, 30);
    const std::int32_t a = k / 5;
    std::int32_t b = k % 5;
    if (b >= a) ++b;
    dice_ = {a, b};
    SetPlayable();
    played_ = 0;
    turn_ = dice_[1] - dice_[0] > 0 ? 1 : 0;
    LegalMask(playable_.data(), 4);
  }

  void GameStep(int action, const Key& key) override {
    const bool no_op = action / 6 == 0;
    if (!no_op) {
      Move(action);
      // _update_playable_dice (with the count before this move)
      if (dice_[0] == dice_[1]) {
        playable_[static_cast<std::size_t>(((3 - played_) % 4 + 4) % 4)] = -1;
      } else {
        for (std::int32_t& d : playable_) d = d == action % 6 ? -1 : d;
      }
      ++played_;
      LegalMask(playable_.data(), 4);
    }
    if (board_[26] == 15) {  // _winning_step
      const bool gammon = board_[27] == 0;
      std::int32_t inner = 0;
      for (int i = 18; i < 24; ++i) inner += board_[static_cast<std::size_t>(i)];
      const float score = 1.0F + (gammon ? 1.0F : 0.0F) + (gammon && inner != 0 ? 1.0F : 0.0F);
      rewards_[static_cast<std::size_t>(current_player_)] = score;
      rewards_[static_cast<std::size_t>(1 - current_player_)] = -score;
      terminated_ = true;
      return;
    }
    const bool turn_end = playable_[0] + playable_[1] + playable_[2] + playable_[3] == -4;
    if (turn_end || no_op) {  // _change_turn
      Board flipped{};
      for (int i = 0; i < 24; ++i) flipped[static_cast<std::size_t>(i)] = -board_[static_cast<std::size_t>(23 - i)];
      flipped[24] = -board_[25];
      flipped[25] = -board_[24];
      flipped[26] = -board_[27];
      flipped[27] = -board_[26];
      board_ = flipped;
      turn_ = (turn_ + 1) % 2;
      current_player_ = (current_player_ + 1) % 2;
      dice_ = {jax_random::RandIntAt(key, 0, 0, 6), jax_random::RandIntAt(key, 1, 0, 6)};
      SetPlayable();
      played_ = 0;
      LegalMask(dice_.data(), 2);
    }
  }

  void WriteObs(const Slot& slot) const override {
    std::int32_t* obs = slot.Obs<std::int32_t>(0);
    for (int p = 0; p < 2; ++p) {
      const std::array<std::int32_t, 34> o = Observation(p);
      std::copy(o.begin(), o.end(), obs + p * 34);
    }
  }

  void WriteObservation(StateLeaves& out) const override {
    out.Add(Observation(current_player_), {34});
  }

  void WriteState(StateLeaves& out) const override {
    out.Add(board_, {28}).Add(dice_, {2}).Add(playable_, {4}).Scalar(played_).Scalar(turn_);
  }

  void WriteInfo(const Slot& slot, std::size_t first) const override {
    std::copy(board_.begin(), board_.end(), slot.Info<std::int32_t>(first));
    std::copy(dice_.begin(), dice_.end(), slot.Info<std::int32_t>(first + 1));
    std::copy(playable_.begin(), playable_.end(), slot.Info<std::int32_t>(first + 2));
    *slot.Info<std::int32_t>(first + 3) = played_;
    *slot.Info<std::int32_t>(first + 4) = turn_;
  }

 private:
  // The observation of player p: the board, then (the current player's) the count of each
  // face among playable_dice.
  std::array<std::int32_t, 34> Observation(int p) const {
    std::array<std::int32_t, 34> o{};
    std::copy(board_.begin(), board_.end(), o.begin());
    if (p == current_player_) {
      for (std::int32_t d : playable_) {
        if (d != -1) ++o[static_cast<std::size_t>(28 + d)];
      }
    }
    return o;
  }
  // _set_playable_dice: a double four times, else the two dice and two -1.
  void SetPlayable() {
    if (dice_[0] == dice_[1]) {
      playable_.fill(dice_[0]);
    } else {
      playable_ = {dice_[0], dice_[1], -1, -1};
    }
  }

  // The source and target board indices of an action (src -2 for the no-ops).
  static void Decompose(int action, int* src, int* die, int* tgt) {
    const int s = action / 6;
    *src = s == 1 ? 24 : s - 2;
    *die = action % 6 + 1;
    if (*src >= 24) {
      *tgt = *die - 1;
    } else {
      const int to = *src + *die;
      *tgt = to >= 0 && to <= 23 ? to : 26;
    }
  }

  bool IsLegal(int action) const {
    int src = 0;
    int die = 0;
    int tgt = 0;
    Decompose(action, &src, &die, &tgt);
    if (src < 0) return false;
    const bool exists = board_[static_cast<std::size_t>(src)] >= 1;
    if (tgt >= 0 && tgt <= 23) {
      const bool open = board_[static_cast<std::size_t>(tgt)] >= -1;
      return exists && open && (src >= 24 || board_[24] == 0);
    }
    // off: every checker not off on the home board, exact distance or the rear checker
    std::int32_t home = 0;
    for (int i = 18; i < 24; ++i) home += std::min(std::max(board_[static_cast<std::size_t>(i)], 0), 15);
    const bool all_home = 15 - board_[26] == home;
    int rear = -76;  // 24 - pgx's fill 100 when no point holds a mover's checker
    for (int i = 0; i < 24; ++i) {
      if (board_[static_cast<std::size_t>(i)] > 0) {
        rear = 24 - i;
        break;
      }
    }
    const int d = 24 - src;
    return exists && all_home && (d == die || (rear <= die && rear == d));
  }

  // _legal_action_mask(board, dice): the union over the dice (-1 none), else the no-ops.
  void LegalMask(const std::int32_t* dice, int n) {
    std::fill(mask_.begin(), mask_.end(), false);
    bool any = false;
    for (int k = 0; k < n; ++k) {
      if (dice[k] == -1) continue;
      for (int idx = 0; idx < 26; ++idx) {
        const int a = idx * 6 + dice[k];
        if (IsLegal(a)) {
          mask_[static_cast<std::size_t>(a)] = true;
          any = true;
        }
      }
    }
    if (!any) std::fill(mask_.begin(), mask_.begin() + 6, true);
  }

  // _move: a hit (one opponent's checker on the target) goes to the opponent's bar.
  void Move(int action) {
    int src = 0;
    int die = 0;
    int tgt = 0;
    Decompose(action, &src, &die, &tgt);
    const auto t = static_cast<std::size_t>(tgt);
    const bool hit = board_[t] == -1;
    board_[25] -= hit ? 1 : 0;
    board_[static_cast<std::size_t>(src)] -= 1;
    board_[t] += 1 + (board_[t] == -1 ? 1 : 0);
  }

  Board board_{};
  std::array<std::int32_t, 2> dice_{};
  std::array<std::int32_t, 4> playable_{};
  std::int32_t played_ = 0;
  std::int32_t turn_ = 0;
};

}  // namespace envpool::pgx
