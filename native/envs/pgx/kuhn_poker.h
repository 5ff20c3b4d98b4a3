// KuhnPoker-v1: pgx 2.6.0's kuhn_poker (pgx/kuhn_poker.py).
//
// init: rng1, rng2 = split(key); current_player = bernoulli(rng1); the cards (J=0, Q=1,
// K=2) of players 0 and 1 are jax.random.choice(rng2, the six ordered pairs) (randint
// over 6). Actions: 0 bet, 1 pass; a bet adds one chip to the mover's pot. Bet then pass:
// the bettor wins 1; bet, bet: the higher card wins 2; pass, pass: the higher card wins 1
// (the mover's card against the other's). Legal: both actions until the end, then none
// (pgx's step then sets all True). Both actions are always legal before the end.
// Observation of player p (7,) bool: p's card (0..2), p's chips in the pot (3 + pot),
// the opponent's (5 + pot). Info: cards (2,), last_action (-1 none, 0, 1), pot (2,).
// State: pgx's _cards, _last_action, _pot; frames: 192 x 128 by default (pgx's
// SVG: 270 x 270).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "envs/pgx/pgx_env.h"

namespace envpool::pgx {

class KuhnPokerEnv final : public PgxEnv {
 public:
  struct Params {
    explicit Params(const Config& /*config*/) {}
  };
  static Config Defaults() { return PgxDefaults(2); }
  static EnvSpec MakeSpec(const Params& /*params*/) {
    return MakePgxSpec(2, BoxSpec("obs", DType::kBool, {7}, {0.0}, {1.0}), 2,
                       {BoxSpec("cards", DType::kInt32, {2}, {-1.0}, {2.0}),
                        BoxSpec("last_action", DType::kInt32, {}, {-1.0}, {1.0}),
                        BoxSpec("pot", DType::kInt32, {2}, {0.0}, {1.0})},
                       -2.0, 2.0);
  }
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return PgxFrameSize(width, height, camera_id, 192, 128);
  }
  explicit KuhnPokerEnv(const Params& /*params*/) : PgxEnv(2, 2, 7) {}

 protected:
  void Init(const Key& key) override {
    static constexpr std::int32_t kPairs[6][2] = {{0, 1}, {0, 2}, {1, 0}, {1, 2}, {2, 0}, {2, 1}};
    current_player_ = Bernoulli(jax_random::SplitAt(key, 0)) ? 1 : 0;
    const int deal = jax_random::RandInt(jax_random::SplitAt(key, 1), 6);
    cards_ = {kPairs[deal][0], kPairs[deal][1]};
    last_action_ = -1;
    pot_ = {0, 0};
    std::fill(mask_.begin(), mask_.end(), true);
  }

  void GameStep(int action, const Key& /*key*/) override {
    const int me = current_player_;
    const int other = 1 - me;
    if (action == kBet) ++pot_[static_cast<std::size_t>(me)];
    bool terminated = false;
    if (last_action_ == kBet && action == kPass) {
      terminated = true;
      SetWinner(other, 1.0F);
    }
    if (last_action_ == kBet && action == kBet) {
      terminated = true;
      SetWinner(HigherCard(), 2.0F);
    }
    if (last_action_ == kPass && action == kPass) {
      terminated = true;
      SetWinner(HigherCard(), 1.0F);
    }
    mask_[0] = mask_[1] = !terminated;
    current_player_ = other;
    last_action_ = action;
    terminated_ = terminated;
  }

  void Observe(int player, bool* out) const override {
    std::fill(out, out + 7, false);
    out[cards_[static_cast<std::size_t>(player)]] = true;
    out[3 + pot_[static_cast<std::size_t>(player)]] = true;
    out[5 + pot_[static_cast<std::size_t>(1 - player)]] = true;
  }

  void WriteObservation(StateLeaves& out) const override {
    out.Add(BoolObservation(current_player_), {7});
  }

  void WriteState(StateLeaves& out) const override {
    out.Add(cards_, {2}).Scalar(last_action_).Add(pot_, {2});
  }

  void WriteInfo(const Slot& slot, std::size_t first) const override {
    std::copy(cards_.begin(), cards_.end(), slot.Info<std::int32_t>(first));
    *slot.Info<std::int32_t>(first + 1) = last_action_;
    std::copy(pot_.begin(), pot_.end(), slot.Info<std::int32_t>(first + 2));
  }

 private:
  static constexpr int kBet = 0;
  static constexpr int kPass = 1;

  // _get_unit_reward's winner: the mover if its card is higher, else the other.
  int HigherCard() const {
    const int me = current_player_;
    return cards_[static_cast<std::size_t>(me)] > cards_[static_cast<std::size_t>(1 - me)] ? me : 1 - me;
  }
  void SetWinner(int winner, float amount) {
    rewards_[0] = rewards_[1] = -amount;
    rewards_[static_cast<std::size_t>(winner)] = amount;
  }

  std::array<std::int32_t, 2> cards_{-1, -1};
  std::int32_t last_action_ = -1;
  std::array<std::int32_t, 2> pot_{0, 0};
};

}  // namespace envpool::pgx
