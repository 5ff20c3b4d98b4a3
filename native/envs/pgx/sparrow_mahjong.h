// SparrowMahjong-v1: pgx 2.6.0's sparrow_mahjong (pgx/sparrow_mahjong.py), three players.
//
// 44 tiles (id t: type t / 4; types 0..8 the bamboos 1..9, 9 the green dragon, 10 the red;
// red tiles: id % 4 == 0 except 36, and every id >= 40). Seats 0..2 (seat 0 the dealer);
// shuffled_players[seat] is the player of the seat. A hand holds 5 tiles, 6 after a draw,
// and is complete with two sets (a triplet, or a run of three bamboos).
//
// init(key): key, sub = split(key); deal(sub); while the deal is a tenhou (the dealer's
// six tiles complete), key, sub = split(key) again (pgx's while_loop: the new key is the
// first half). deal(rng): key1, key2 = split(rng); shuffled_players = permutation(key1, 3),
// wall = permutation(key2, 44); dora = wall[43] / 4; wall[0..15) dealt five a seat (with
// their red counts), then the dealer draws wall[15] (its red count not added: pgx's); draw
// index 16; current_player = shuffled_players[0]; mask = the dealer's types held.
// step(action) (no key): the mover (seat turn % 3) discards a tile of type `action` into
// its river (row turn / 3; red when its hand then holds fewer of the type than its red
// count). Scores (_hands_to_score, per seat): a 5-tile hand counts the last discard too;
// the nearest win hand (argmin |WIN_HANDS - base-5 code|, the first of ties) gives its base
// (1 a run, 2 a triplet) and yaku (all green 10, chinyao 15, tanyao 1); 6+ red tiles held
// make the yaku 20; a yaku < 10 adds the doras held and the red count. Ron: a seat other than
// the mover whose hand with the discard is complete, not furiten (the type in its river),
// with score >= 5 wins: the dealer's score + 2, winners' scores kept, the mover pays all.
// Else with the draw index at 43 the game ends tied (no rewards). Else the next seat draws
// wall[draw index] (turn + 1; current_player its player; mask its types held) and wins by
// tsumo when hands[turn] (pgx's index, clamped to seat 2 from turn 3 on: jax clamps
// gathers) is complete: the dealer + 2, each other seat pays ceil(score / 2), the winner
// gets twice that. Rewards: the seats' scores in player order / 26 (float32, as XLA
// divides: times the float32 reciprocal).
// An illegal action (a type not held) runs the same code (the count may go to -1) before
// pgx's penalty: -1 for the mover, +2 for each other player. Terminal states: every action
// legal (pgx's Env.step).
// Observation of player p (11, 15) bool (pgx's (15, 11) transposed), for p's seat s: its
// types held >= 1..4, red held, the dora, the types in the rivers of s, s + 1, s + 2, then the
// last three discards of s + 1 and of s + 2 (newest first).
// Info: dora, draw_ix, hands (3, 11), is_red_in_river (3, 10), last_discard,
// n_red_in_hands (3, 11), rivers (3, 10), scores (3), shuffled_players (3), turn, wall (44).
// State: pgx's fields, the same as the info arrays; frames: 220 x 160 (w x h) by default
// (pgx's picture is 800 x 550).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <vector>

#include "envs/pgx/pgx_env.h"

namespace envpool::pgx {

class SparrowMahjongEnv final : public PgxEnv {
 public:
  static constexpr int kTypes = 11;
  static constexpr int kTiles = 44;
  static constexpr int kRiver = 10;
  static constexpr int kMaxScore = 26;

  // pgx's WIN_HANDS / BASE_SCORES / YAKU_SCORES, rebuilt from the rules they tabulate: the
  // 160 two-set hands (each of 11 triplets and 7 runs, two of them, no type above 4) sorted
  // by base-5 code (type 0 the most significant digit).
  struct Params {
    explicit Params(const Config& /*config*/) {
      std::vector<std::array<std::int32_t, 3>> hands;
      for (int a = 0; a < 18; ++a) {
        for (int b = a; b < 18; ++b) {
          std::array<std::int32_t, kTypes> c{};
          std::int32_t base = 0;
          for (int k : {a, b}) {
            if (k < kTypes) {
              c[static_cast<std::size_t>(k)] += 3;
              base += 2;
            } else {
              for (int j = 0; j < 3; ++j) c[static_cast<std::size_t>(k - kTypes + j)] += 1;
              base += 1;
            }
          }
          if (*std::max_element(c.begin(), c.end()) > 4) continue;
          bool green = true;
          bool terminal = true;
          bool simple = true;
          for (int t = 0; t < kTypes; ++t) {
            if (c[static_cast<std::size_t>(t)] == 0) continue;
            green = green && (t == 1 || t == 2 || t == 3 || t == 5 || t == 7 || t == 9);
            terminal = terminal && (t == 0 || t == 8 || t == 9 || t == 10);
            simple = simple && t >= 1 && t <= 7;
          }
          const std::int32_t yaku = green ? 10 : (terminal ? 15 : (simple ? 1 : 0));
          hands.push_back({Base5(c.data()), base, yaku});
        }
      }
      std::sort(hands.begin(), hands.end());
      for (const auto& h : hands) {
        win.push_back(h[0]);
        base_score.push_back(h[1]);
        yaku_score.push_back(h[2]);
      }
    }
    std::vector<std::int32_t> win;
    std::vector<std::int32_t> base_score;
    std::vector<std::int32_t> yaku_score;
  };

  static Config Defaults() { return PgxDefaults(3); }
  static EnvSpec MakeSpec(const Params& /*params*/) {
    const double lo = std::numeric_limits<std::int32_t>::min();
    const double hi = std::numeric_limits<std::int32_t>::max();
    // rewards: scores / 26, at most a few points past +-1 (two ron winners paid by one)
    return MakePgxSpec(3, BoxSpec("obs", DType::kBool, {11, 15}, {0.0}, {1.0}), kTypes,
                       {BoxSpec("dora", DType::kInt32, {}, {0.0}, {10.0}),
                        BoxSpec("draw_ix", DType::kInt32, {}, {0.0}, {44.0}),
                        BoxSpec("hands", DType::kInt32, {3, 11}, {0.0}, {6.0}),
                        BoxSpec("is_red_in_river", DType::kBool, {3, 10}, {0.0}, {1.0}),
                        BoxSpec("last_discard", DType::kInt32, {}, {-1.0}, {10.0}),
                        BoxSpec("n_red_in_hands", DType::kInt32, {3, 11}, {0.0}, {4.0}),
                        BoxSpec("rivers", DType::kInt32, {3, 10}, {-1.0}, {10.0}),
                        BoxSpec("scores", DType::kInt32, {3}, {lo}, {hi}),
                        BoxSpec("shuffled_players", DType::kInt32, {3}, {0.0}, {2.0}),
                        BoxSpec("turn", DType::kInt32, {}, {lo}, {hi}),
                        BoxSpec("wall", DType::kInt32, {44}, {0.0}, {43.0})},
                       -3.0, 3.0);
  }
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return PgxFrameSize(width, height, camera_id, 220, 160);
  }
  explicit SparrowMahjongEnv(const Params& params)
      : PgxEnv(3, kTypes, 11 * 15), tables_(params) {}

 protected:
  using Row = std::array<std::int32_t, kTypes>;

  void Init(const Key& key) override {
    Key k = jax_random::SplitAt(key, 0);
    Deal(jax_random::SplitAt(key, 1));
    while (terminated_) {
      const Key next = jax_random::SplitAt(k, 0);
      Deal(jax_random::SplitAt(k, 1));
      k = next;
    }
  }

  void GameStep(int action, const Key& /*key*/) override {
    const auto a = static_cast<std::size_t>(action);
    const auto t = static_cast<std::size_t>(turn_ % 3);
    const auto col = static_cast<std::size_t>(turn_ / 3);
    hands_[t][a] -= 1;
    const bool red = hands_[t][a] < n_red_[t][a];
    n_red_[t][a] -= red ? 1 : 0;
    // rivers.at[t, turn // 3]: a write past the row is dropped (jax's scatter)
    if (col < static_cast<std::size_t>(kRiver)) {
      rivers_[t][col] = action;
      red_river_[t][col] = red;
    }
    last_discard_ = action;
    std::array<std::int32_t, 3> s = Scores();
    std::array<bool, 3> win{};
    bool any = false;
    for (std::size_t i = 0; i < 3; ++i) {
      Row h = hands_[i];
      h[a] += 1;
      bool furiten = false;
      for (std::int32_t r : rivers_[i]) furiten = furiten || r == action;
      // winning.at[turn].set(False): dropped from turn 3 on (the mover is furiten anyway)
      win[i] = Complete(h) && !(static_cast<std::int32_t>(i) == turn_) && !furiten && s[i] >= 5;
      any = any || win[i];
    }
    if (any) {  // _step_by_ron
      s[0] += 2;
      std::int32_t sum = 0;
      for (std::size_t i = 0; i < 3; ++i) {
        s[i] = win[i] ? s[i] : 0;
        sum += s[i];
      }
      s[t] = -sum;
      End(s);
      return;
    }
    if (kTiles - 1 <= draw_ix_) {  // _step_by_tie
      terminated_ = true;
      std::fill(mask_.begin(), mask_.end(), false);
      return;
    }
    // _draw_tile
    turn_ += 1;
    const auto nt = static_cast<std::size_t>(turn_ % 3);
    current_player_ = players_[nt];
    const std::int32_t tile = wall_[static_cast<std::size_t>(draw_ix_)];
    hands_[nt][static_cast<std::size_t>(tile / 4)] += 1;
    n_red_[nt][static_cast<std::size_t>(tile / 4)] += IsRed(tile) ? 1 : 0;
    draw_ix_ += 1;
    SetMask(nt);
    Tsumo();
  }

  void WriteObs(const Slot& slot) const override {
    bool* obs = slot.Obs<bool>(0);
    for (int p = 0; p < 3; ++p) ObservePlayer(p, obs + p * obs_size_);
  }


  void WriteObservation(StateLeaves& out) const override {
    std::array<bool, 11 * 15> obs{};
    ObservePlayer(current_player_, obs.data());
    out.Add(obs, {11, 15});
  }

  // State's own fields: _turn, _rivers, _last_discard, _hands, _n_red_in_hands,
  // _is_red_in_river, _wall, _draw_ix, _shuffled_players, _dora, _scores.
  void WriteState(StateLeaves& out) const override {
    out.Scalar(turn_).AddRows(rivers_, {3, kRiver}).Scalar(last_discard_).AddRows(hands_, {3, kTypes});
    out.AddRows(n_red_, {3, kTypes}).AddRows(red_river_, {3, kRiver}).Add(wall_, {kTiles});
    out.Scalar(draw_ix_).Add(players_, {3}).Scalar(dora_).Add(scores_, {3});
  }

  void WriteInfo(const Slot& slot, std::size_t first) const override {
    *slot.Info<std::int32_t>(first) = dora_;
    *slot.Info<std::int32_t>(first + 1) = draw_ix_;
    std::int32_t* hands = slot.Info<std::int32_t>(first + 2);
    bool* red_river = slot.Info<bool>(first + 3);
    std::int32_t* n_red = slot.Info<std::int32_t>(first + 5);
    std::int32_t* rivers = slot.Info<std::int32_t>(first + 6);
    for (std::size_t i = 0; i < 3; ++i) {
      std::copy(hands_[i].begin(), hands_[i].end(), hands + i * kTypes);
      std::copy(n_red_[i].begin(), n_red_[i].end(), n_red + i * kTypes);
      std::copy(rivers_[i].begin(), rivers_[i].end(), rivers + i * kRiver);
      std::copy(red_river_[i].begin(), red_river_[i].end(), red_river + i * kRiver);
    }
    *slot.Info<std::int32_t>(first + 4) = last_discard_;
    std::copy(scores_.begin(), scores_.end(), slot.Info<std::int32_t>(first + 7));
    std::copy(players_.begin(), players_.end(), slot.Info<std::int32_t>(first + 8));
    *slot.Info<std::int32_t>(first + 9) = turn_;
    std::copy(wall_.begin(), wall_.end(), slot.Info<std::int32_t>(first + 10));
  }

 private:
  static std::int32_t Base5(const std::int32_t* hand) {
    std::int32_t v = 0;
    for (int t = 0; t < kTypes; ++t) v = v * 5 + hand[t];
    return v;
  }
  static bool IsRed(std::int32_t tile) { return (tile % 4 == 0 && tile != 36) || tile >= 40; }

  bool Complete(const Row& hand) const {
    const std::int32_t v = Base5(hand.data());
    return std::find(tables_.win.begin(), tables_.win.end(), v) != tables_.win.end();
  }

  // _hands_to_score.
  std::array<std::int32_t, 3> Scores() const {
    std::array<std::int32_t, 3> s{};
    for (std::size_t i = 0; i < 3; ++i) {
      Row h = hands_[i];
      std::int32_t total = 0;
      for (std::int32_t n : h) total += n;
      // hand.at[last_discard].add(1): -1 (no discard yet) is the last type
      if (total == 5) h[static_cast<std::size_t>((last_discard_ + kTypes) % kTypes)] += 1;
      const std::int32_t v = Base5(h.data());
      std::size_t best = 0;
      std::int64_t best_d = std::numeric_limits<std::int64_t>::max();
      for (std::size_t k = 0; k < tables_.win.size(); ++k) {
        const std::int64_t d = std::llabs(static_cast<std::int64_t>(tables_.win[k]) - v);
        if (d < best_d) {
          best_d = d;
          best = k;
        }
      }
      const std::int32_t bs = tables_.base_score[best];
      std::int32_t ys = tables_.yaku_score[best];
      const std::int32_t doras = h[static_cast<std::size_t>(dora_)];
      std::int32_t reds = 0;
      for (std::int32_t n : n_red_[i]) reds += n;
      if (reds >= 6) ys = 20;
      s[i] = ys >= 10 ? bs + ys : bs + ys + doras + reds;
    }
    return s;
  }

  // The game's end with seat scores s: rewards in player order / 26, mask all False (the
  // base then makes it all True).
  void End(const std::array<std::int32_t, 3>& s) {
    terminated_ = true;
    std::fill(mask_.begin(), mask_.end(), false);
    scores_ = s;
    // scores.astype(float32) / 26: XLA's CPU backend divides by the constant as a multiply
    // by its float32 reciprocal (6 / 26 is 0.23076925, not numpy's 0.23076923)
    const float reciprocal = 1.0F / static_cast<float>(kMaxScore);
    for (std::size_t i = 0; i < 3; ++i) {
      rewards_[static_cast<std::size_t>(players_[i])] = static_cast<float>(s[i]) * reciprocal;
    }
  }

  // _check_tsumo / _step_by_tsumo after a draw (hands[turn] and scores[turn] clamp to seat 2).
  void Tsumo() {
    std::array<std::int32_t, 3> s = Scores();
    const auto c = static_cast<std::size_t>(std::min(std::max(turn_, 0), 2));
    if (!(Complete(hands_[c]) && s[c] >= 0)) return;
    s[0] += 2;
    const std::int32_t winner = s[c];
    // ceil(winner / 2) in float32 (jnp's true division of int32)
    const auto loser = static_cast<std::int32_t>(std::ceil(static_cast<float>(winner) / 2.0F));
    std::array<std::int32_t, 3> out{-loser, -loser, -loser};
    out[static_cast<std::size_t>(turn_ % 3)] = loser * 2;
    End(out);
  }

  void SetMask(std::size_t seat) {
    for (std::size_t j = 0; j < static_cast<std::size_t>(kTypes); ++j) mask_[j] = hands_[seat][j] > 0;
  }

  void Deal(const Key& rng) {
    const std::vector<std::int32_t> players = jax_random::Permutation(jax_random::SplitAt(rng, 0), 3);
    const std::vector<std::int32_t> wall = jax_random::Permutation(jax_random::SplitAt(rng, 1), kTiles);
    std::copy(players.begin(), players.end(), players_.begin());
    std::copy(wall.begin(), wall.end(), wall_.begin());
    current_player_ = players_[0];
    dora_ = wall_[kTiles - 1] / 4;
    for (auto& h : hands_) h.fill(0);
    for (auto& h : n_red_) h.fill(0);
    for (int i = 0; i < 15; ++i) {
      const std::int32_t tile = wall_[static_cast<std::size_t>(i)];
      hands_[static_cast<std::size_t>(i / 5)][static_cast<std::size_t>(tile / 4)] += 1;
      n_red_[static_cast<std::size_t>(i / 5)][static_cast<std::size_t>(tile / 4)] += IsRed(tile) ? 1 : 0;
    }
    hands_[0][static_cast<std::size_t>(wall_[15] / 4)] += 1;
    draw_ix_ = 16;
    turn_ = 0;
    last_discard_ = -1;
    for (auto& r : rivers_) r.fill(-1);
    for (auto& r : red_river_) r.fill(false);
    scores_.fill(0);
    terminated_ = false;
    std::fill(rewards_.begin(), rewards_.end(), 0.0F);
    SetMask(0);
    Tsumo();
  }

  void ObservePlayer(int p, bool* out) const {
    // obs[f][type] of pgx, written transposed: out[type * 15 + f]
    std::fill(out, out + 11 * 15, false);
    auto set = [out](int f, std::int32_t type) { out[type * 15 + f] = true; };
    std::size_t s = 0;
    while (s < 2 && players_[s] != p) ++s;  // argmin |shuffled_players - p|
    for (std::int32_t t = 0; t < kTypes; ++t) {
      const std::int32_t n = hands_[s][static_cast<std::size_t>(t)];
      for (int f = 0; f < 4; ++f) {
        if (n >= f + 1) set(f, t);
      }
      if (n_red_[s][static_cast<std::size_t>(t)] >= 1) set(4, t);
    }
    set(5, dora_);
    for (std::size_t k = 0; k < 3; ++k) {
      for (std::int32_t r : rivers_[(s + k) % 3]) {
        if (r >= 0) set(6 + static_cast<int>(k), r);
      }
    }
    for (std::size_t k = 1; k < 3; ++k) {
      const auto& river = rivers_[(s + k) % 3];
      int n = 0;
      for (std::int32_t r : river) n += r >= 0 ? 1 : 0;
      for (int j = 1; j <= 3; ++j) {
        if (n - j >= 0) set(9 + 3 * static_cast<int>(k - 1) + j - 1, river[static_cast<std::size_t>(n - j)]);
      }
    }
  }

  Params tables_;
  std::array<std::int32_t, 3> players_{};
  std::array<std::int32_t, kTiles> wall_{};
  std::array<Row, 3> hands_{};
  std::array<Row, 3> n_red_{};
  std::array<std::array<std::int32_t, kRiver>, 3> rivers_{};
  std::array<std::array<bool, kRiver>, 3> red_river_{};
  std::array<std::int32_t, 3> scores_{};
  std::int32_t dora_ = 0;
  std::int32_t draw_ix_ = 16;
  std::int32_t turn_ = 0;
  std::int32_t last_discard_ = -1;
};

}  // namespace envpool::pgx
