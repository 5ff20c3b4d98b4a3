// LeducHoldem-v1: pgx 2.6.0's leduc_holdem (pgx/leduc_holdem.py).
//
// init: rng1, rng2 = split(key); current_player = first_player = bernoulli(rng1); the
// cards are jax.random.permutation(rng2, [0, 0, 1, 1, 2, 2], independent=True)[:3]
// (players 0, 1, then the public card): jax's sort-based shuffle, one round here (3 *
// log(6) / log(2**32 - 1) < 1): _, sub = split(rng2), keys = bits(sub, (6,)), a stable
// sort of the cards by those keys. Chips start at 1 each.
// Actions: 0 call, 1 raise, 2 fold. Call matches the other's chips; raise sets the
// mover's chips to max(chips) + 2 (round 0) or 4 (round 1); fold keeps them. A fold, or a
// call after some action in the round, ends the round; round 0's call goes on to round 1
// (first_player moves, last_action back to -1, raise_count to 0), any other round end
// ends the game. Rewards: fold: the other wins; a final call: a pair with the public card
// wins, else the higher card, equal cards draw; times min(chips). Legal after call:
// [1, 1, 0], after raise: [1, 1, 1], after fold: none; raise only while raise_count < 2.
// Observation of player p (34,) bool: p's card, the public card in round 1 (3 + card),
// p's chips (6 + chips), the opponent's (20 + chips). Info: cards (3,), chips (2,),
// first_player, last_action, raise_count, round.
// State: pgx's _first_player, _cards, _last_action, _chips, _round, _raise_count; frames:
// 224 x 144 by default (pgx's SVG: 270 x 270).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>
#include <numeric>

#include "envs/pgx/pgx_env.h"

namespace envpool::pgx {

class LeducHoldemEnv final : public PgxEnv {
 public:
  struct Params {
    explicit Params(const Config& /*config*/) {}
  };
  static Config Defaults() { return PgxDefaults(2); }
  static EnvSpec MakeSpec(const Params& /*params*/) {
    return MakePgxSpec(2, BoxSpec("obs", DType::kBool, {34}, {0.0}, {1.0}), 3,
                       {BoxSpec("cards", DType::kInt32, {3}, {-1.0}, {2.0}),
                        BoxSpec("chips", DType::kInt32, {2}, {0.0}, {13.0}),
                        BoxSpec("first_player", DType::kInt32, {}, {0.0}, {1.0}),
                        BoxSpec("last_action", DType::kInt32, {}, {-1.0}, {2.0}),
                        BoxSpec("raise_count", DType::kInt32, {}, {0.0}, {2.0}),
                        BoxSpec("round", DType::kInt32, {}, {0.0}, {2.0})},
                       -13.0, 13.0);
  }
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return PgxFrameSize(width, height, camera_id, 224, 144);
  }
  explicit LeducHoldemEnv(const Params& /*params*/) : PgxEnv(2, 3, 34) {}

 protected:
  void Init(const Key& key) override {
    current_player_ = Bernoulli(jax_random::SplitAt(key, 0)) ? 1 : 0;
    first_player_ = current_player_;
    // permutation: one sort round keyed by bits(split(rng2)[1], (6,))
    const Key sub = jax_random::SplitAt(jax_random::SplitAt(key, 1), 1);
    std::array<int, 6> order{};
    std::iota(order.begin(), order.end(), 0);
    std::array<std::uint32_t, 6> keys{};
    for (std::uint32_t i = 0; i < 6; ++i) keys[i] = jax_random::Bits32(sub, i);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return keys[static_cast<std::size_t>(a)] < keys[static_cast<std::size_t>(b)]; });
    static constexpr std::int32_t kDeck[6] = {0, 0, 1, 1, 2, 2};
    for (std::size_t i = 0; i < 3; ++i) cards_[i] = kDeck[order[i]];
    last_action_ = -1;
    chips_ = {1, 1};
    round_ = 0;
    raise_count_ = 0;
    mask_[0] = mask_[1] = true;
    mask_[2] = false;
  }

  void GameStep(int action, const Key& /*key*/) override {
    const int me = current_player_;
    const int other = 1 - me;
    std::array<std::int32_t, 2> chips = chips_;
    if (action == kCall) {
      chips[static_cast<std::size_t>(me)] = chips_[static_cast<std::size_t>(other)];
    } else if (action == kRaise) {
      chips[static_cast<std::size_t>(me)] = std::max(chips_[0], chips_[1]) + (round_ + 1) * 2;
    }
    // _check_round_over
    const bool fold = action == kFold;
    const bool call = last_action_ != -1 && action == kCall;
    const bool go_on = round_ == 0 && call;
    const bool round_over = fold || call;
    const bool terminated = round_over && !go_on;
    std::array<float, 2> reward{0.0F, 0.0F};
    if (fold) {
      reward = {-1.0F, -1.0F};
      reward[static_cast<std::size_t>(other)] = 1.0F;
    }
    if (terminated && call) reward = UnitReward();
    const float scale = static_cast<float>(std::min(chips[0], chips[1]));
    rewards_[0] = reward[0] * scale;
    rewards_[1] = reward[1] * scale;
    last_action_ = round_over ? -1 : action;
    current_player_ = round_over ? first_player_ : other;
    raise_count_ = round_over ? 0 : raise_count_ + (action == kRaise ? 1 : 0);
    if (action == kCall) {
      mask_[0] = true;
      mask_[2] = false;
    } else if (action == kRaise) {
      mask_[0] = mask_[2] = true;
    } else {
      mask_[0] = mask_[2] = false;
    }
    mask_[1] = raise_count_ < 2;
    terminated_ = terminated;
    round_ += round_over ? 1 : 0;
    chips_ = chips;
  }

  void Observe(int player, bool* out) const override {
    std::fill(out, out + 34, false);
    out[cards_[static_cast<std::size_t>(player)]] = true;
    if (round_ == 1) out[3 + cards_[2]] = true;
    out[6 + chips_[static_cast<std::size_t>(player)]] = true;
    out[20 + chips_[static_cast<std::size_t>(1 - player)]] = true;
  }

  void WriteObservation(StateLeaves& out) const override {
    out.Add(BoolObservation(current_player_), {34});
  }

  void WriteState(StateLeaves& out) const override {
    out.Scalar(first_player_).Add(cards_, {3}).Scalar(last_action_).Add(chips_, {2});
    out.Scalar(round_).Scalar(raise_count_);
  }

  void WriteInfo(const Slot& slot, std::size_t first) const override {
    std::copy(cards_.begin(), cards_.end(), slot.Info<std::int32_t>(first));
    std::copy(chips_.begin(), chips_.end(), slot.Info<std::int32_t>(first + 1));
    *slot.Info<std::int32_t>(first + 2) = first_player_;
    *slot.Info<std::int32_t>(first + 3) = last_action_;
    *slot.Info<std::int32_t>(first + 4) = raise_count_;
    *slot.Info<std::int32_t>(first + 5) = round_;
  }

 private:
  static constexpr int kCall = 0;
  static constexpr int kRaise = 1;
  static constexpr int kFold = 2;

  // _get_unit_reward, from the mover's side (before the turn passes).
  std::array<float, 2> UnitReward() const {
    const auto me = static_cast<std::size_t>(current_player_);
    const auto other = 1 - me;
    const bool win_pair = cards_[me] == cards_[2];
    const bool lose_pair = cards_[other] == cards_[2];
    const bool win = win_pair || (!lose_pair && cards_[me] > cards_[other]);
    if (cards_[me] == cards_[other]) return {0.0F, 0.0F};
    std::array<float, 2> r{-1.0F, -1.0F};
    r[win ? me : other] = 1.0F;
    return r;
  }

  std::int32_t first_player_ = 0;
  std::array<std::int32_t, 3> cards_{-1, -1, -1};
  std::int32_t last_action_ = -1;
  std::array<std::int32_t, 2> chips_{1, 1};
  std::int32_t round_ = 0;
  std::int32_t raise_count_ = 0;
};

}  // namespace envpool::pgx
