// tabular/Blackjack-v0: gymnasium 1.4's envs/tabular/blackjack.py (BlackjackFunctional
// run by FunctionalJaxEnv), with its cards drawn as jax.random draws them, so that the
// same seed deals the same hands.
//
// Its rules are its own, not Blackjack-v1's: the functional env takes no keywords and
// uses its default parameters, sutton_and_barto = True (natural ignored): sticking with
// a natural (ace and ten) against a dealer without one wins 1. A hand is 21 slots
// (0 = empty); a card is deck[choice] with deck = [1 .. 9, 10, 10, 10, 10], each drawn
// with the key split(key)[0] of the previous one (jax.random.choice: randint(0, 13)).
// Reset deals the player two cards, then the dealer two. Hit (1) adds a card, and ends
// the episode with -1 if the player busts; stick (0) lets the dealer draw while its sum
// is below 17 and ends with cmp(score(player), score(dealer)). The observation is
// gymnasium's Box([1, 1, 0], [32, 11, 1], (3,), int32): [player sum (with a usable
// ace), the dealer's first card, usable ace]. No time limit.
//
// State (GetState/SetState): [player_cards, dealer_cards, *player (21 slots),
// *dealer (21 slots)], then the jax key's two words (SetState also takes the hands
// alone and keeps the key).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/env.h"
#include "envs/common/jax_random.h"

namespace envpool::toy_text {

class TabularBlackjack final : public jax_random::FunctionalEnv {
 public:
  static constexpr int kSlots = 21;
  using Hand = std::array<int, kSlots>;

  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("obs", DType::kInt32, {3}, {1, 1, 0}, {32, 11, 1}));
    spec.action = DiscreteSpec("action", 2, DType::kInt32);
    spec.reward_low = -1.0;
    spec.reward_high = 1.0;
    return spec;
  }

  explicit TabularBlackjack(const Params& /*params*/) {}

  void Reset(Rng& /*rng*/) override {
    jax_random::Key key = NextKey();
    player_ = {};
    dealer_ = {};
    Draw(key, player_, 0);  // draw_hand(player), then draw_hand(dealer)
    Draw(key, player_, 1);
    Draw(key, dealer_, 0);
    Draw(key, dealer_, 1);
    player_cards_ = 2;
    dealer_cards_ = 2;
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    jax_random::Key key = NextKey();
    const bool hit = action.Scalar<std::int32_t>() != 0;
    StepOutcome out;
    if (hit) {
      Draw(key, player_, player_cards_);
      ++player_cards_;
      const bool bust = IsBust(player_);
      out.reward = bust ? -1.0 : 0.0;
      out.terminated = bust;
    } else {
      while (SumHand(dealer_) < 17) {
        Draw(key, dealer_, dealer_cards_);
        ++dealer_cards_;
      }
      const int player = Score(player_), dealer = Score(dealer_);
      out.reward = static_cast<double>((player > dealer) - (player < dealer));
      out.terminated = true;
    }
    // sutton_and_barto: a natural against a dealer without one wins 1.
    if (IsNatural(player_) && !IsNatural(dealer_)) out.reward = 1.0;
    return out;
  }

  std::vector<double> GetState() const override {
    std::vector<double> state = {static_cast<double>(player_cards_),
                                 static_cast<double>(dealer_cards_)};
    for (const Hand* hand : {&player_, &dealer_}) {
      for (int card : *hand) state.push_back(card);
    }
    return WithKey(state);
  }
  void SetState(const std::vector<double>& state) override {
    ReadKey(state, 2 + 2 * kSlots, "tabular Blackjack");
    player_cards_ = static_cast<int>(state[0]);
    dealer_cards_ = static_cast<int>(state[1]);
    for (int i = 0; i < kSlots; ++i) {
      player_[i] = static_cast<int>(state[2 + static_cast<std::size_t>(i)]);
      dealer_[i] = static_cast<int>(state[2 + kSlots + static_cast<std::size_t>(i)]);
    }
  }

  void Write(const Slot& slot) const override {
    std::int32_t* obs = slot.Obs<std::int32_t>();
    obs[0] = SumHand(player_);
    obs[1] = dealer_[0];
    obs[2] = UsableAce(player_) ? 1 : 0;
  }

 private:
  // random_card: key = split(key)[0]; deck[choice(key, 13)]; the card goes to slot
  // `index` (jax drops a write past the last slot).
  static void Draw(jax_random::Key& key, Hand& hand, int index) {
    static constexpr int kDeck[13] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10};
    key = jax_random::SplitAt(key, 0);
    const int card = kDeck[jax_random::RandInt(key, 13)];
    if (index >= 0 && index < kSlots) hand[static_cast<std::size_t>(index)] = card;
  }
  static int Sum(const Hand& hand) {
    int sum = 0;
    for (int card : hand) sum += card;
    return sum;
  }
  static int Count(const Hand& hand, int card) {
    int n = 0;
    for (int c : hand) n += c == card ? 1 : 0;
    return n;
  }
  static bool UsableAce(const Hand& hand) { return Count(hand, 1) > 0 && Sum(hand) + 10 <= 21; }
  static int SumHand(const Hand& hand) { return Sum(hand) + (UsableAce(hand) ? 10 : 0); }
  static bool IsBust(const Hand& hand) { return SumHand(hand) > 21; }
  static int Score(const Hand& hand) { return IsBust(hand) ? 0 : SumHand(hand); }
  static bool IsNatural(const Hand& hand) {
    return kSlots - Count(hand, 0) == 2 && Count(hand, 1) > 0 && Count(hand, 10) > 0;
  }

  Hand player_{};
  Hand dealer_{};
  int player_cards_ = 0;
  int dealer_cards_ = 0;
};

}  // namespace envpool::toy_text
