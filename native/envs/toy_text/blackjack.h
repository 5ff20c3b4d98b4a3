// Blackjack-v1: gymnasium 1.4's toy_text/blackjack.py.
//
// Keywords: natural (default false: a winning natural pays 1.5 when sab is
// false), sab (default false; the Blackjack-v1 id sets it true: Sutton &
// Barto rules, a natural beats any non-natural dealer hand, overrides
// natural). Defaults are the constructor's; the task id carries the
// registry's sab=True.
//
// Cards are drawn from an infinite deck: 1 (ace), 2 .. 9, and 10 four times
// (10, J, Q, K), each of the 13 equally likely. Reset deals the dealer two
// cards, then the player two. Action 1 (hit) adds a card to the player's
// hand: bust (> 21) terminates with -1, else reward 0. Action 0 (stick)
// terminates: the dealer draws while its sum is < 17 (an ace counts 11 when
// that keeps the sum <= 21), then reward = sign(score(player) -
// score(dealer)) (score 0 when bust), with the sab / natural rules above.
// Observation: gymnasium's Tuple(Discrete(32), Discrete(11), Discrete(2)) =
// (player sum, dealer's first card, player has a usable ace), three int64
// arrays with a tuple layout. No info.
// State (GetState/SetState): [len(player), *player, len(dealer), *dealer],
// the cards as 1 .. 10 (ace = 1), both hands non-empty.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/env.h"

namespace envpool::toy_text {

class Blackjack final : public Env {
 public:
  struct Params {
    explicit Params(const Config& config)
        : natural(config.GetBool("natural")), sab(config.GetBool("sab")) {}
    bool natural;
    bool sab;
  };

  static Config Defaults() {
    Config config;
    config.Set("natural", false);
    config.Set("sab", false);
    return config;
  }

  static EnvSpec MakeSpec(const Params& params) {
    EnvSpec spec;
    spec.obs.push_back(DiscreteSpec("player_sum", 32, DType::kInt64));
    spec.obs.push_back(DiscreteSpec("dealer_card", 11, DType::kInt64));
    spec.obs.push_back(DiscreteSpec("usable_ace", 2, DType::kInt64));
    spec.obs_layout = ObsLayout::kTuple;
    spec.action = DiscreteSpec("action", 2, DType::kInt32);
    spec.reward_low = -1.0;
    spec.reward_high = params.natural && !params.sab ? 1.5 : 1.0;
    return spec;
  }

  explicit Blackjack(const Params& params) : params_(params) {
    player_.reserve(kReserve);
    dealer_.reserve(kReserve);
  }

  void Reset(Rng& rng) override {
    dealer_.clear();
    player_.clear();
    dealer_.push_back(Draw(rng));
    dealer_.push_back(Draw(rng));
    player_.push_back(Draw(rng));
    player_.push_back(Draw(rng));
  }

  StepOutcome Step(const ActionView& action, Rng& rng) override {
    StepOutcome out;
    if (action.Scalar<std::int32_t>() != 0) {  // hit
      player_.push_back(Draw(rng));
      if (SumHand(player_) > 21) {
        out.terminated = true;
        out.reward = -1.0;
      }
      return out;
    }
    // stick: the dealer plays out its hand.
    out.terminated = true;
    while (SumHand(dealer_) < 17) dealer_.push_back(Draw(rng));
    const int player_score = Score(player_), dealer_score = Score(dealer_);
    out.reward = static_cast<double>((player_score > dealer_score) - (player_score < dealer_score));
    if (params_.sab && IsNatural(player_) && !IsNatural(dealer_)) {
      out.reward = 1.0;
    } else if (!params_.sab && params_.natural && IsNatural(player_) && out.reward == 1.0) {
      out.reward = 1.5;
    }
    return out;
  }

  void Write(const Slot& slot) const override {
    *slot.Obs<std::int64_t>(0) = SumHand(player_);
    *slot.Obs<std::int64_t>(1) = dealer_.empty() ? 0 : dealer_[0];  // empty: never reset
    *slot.Obs<std::int64_t>(2) = UsableAce(player_) ? 1 : 0;
  }

  std::vector<double> GetState() const override {
    std::vector<double> state;
    state.reserve(player_.size() + dealer_.size() + 2);
    state.push_back(static_cast<double>(player_.size()));
    for (int c : player_) state.push_back(c);
    state.push_back(static_cast<double>(dealer_.size()));
    for (int c : dealer_) state.push_back(c);
    return state;
  }

  void SetState(const std::vector<double>& state) override {
    std::vector<int> player, dealer;
    std::size_t pos = 0;
    ReadHand(state, pos, player, "player");
    ReadHand(state, pos, dealer, "dealer");
    if (pos != state.size()) {
      throw std::invalid_argument(
          "Blackjack state is [len(player), *player, len(dealer), *dealer]: " +
          std::to_string(state.size() - pos) + " extra numbers");
    }
    player_ = std::move(player);
    dealer_ = std::move(dealer);
  }

 private:
  static constexpr std::size_t kReserve = 32;
  static constexpr int kDeck[13] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10};

  static int Draw(Rng& rng) { return kDeck[rng.Integer(0, 13)]; }
  static bool UsableAce(const std::vector<int>& hand) {
    int sum = 0;
    bool ace = false;
    for (int c : hand) {
      sum += c;
      ace = ace || c == 1;
    }
    return ace && sum + 10 <= 21;
  }
  static int SumHand(const std::vector<int>& hand) {
    int sum = 0;
    for (int c : hand) sum += c;
    return UsableAce(hand) ? sum + 10 : sum;
  }
  static int Score(const std::vector<int>& hand) {
    const int sum = SumHand(hand);
    return sum > 21 ? 0 : sum;
  }
  static bool IsNatural(const std::vector<int>& hand) {
    return hand.size() == 2 && std::min(hand[0], hand[1]) == 1 && std::max(hand[0], hand[1]) == 10;
  }

  static void ReadHand(const std::vector<double>& state, std::size_t& pos, std::vector<int>& hand,
                       const char* who) {
    const std::string layout = "Blackjack state is [len(player), *player, len(dealer), *dealer]";
    if (pos >= state.size()) throw std::invalid_argument(layout + ": missing " + who + " hand");
    const double n = state[pos++];
    if (!(n >= 1.0 && n <= static_cast<double>(state.size() - pos)) ||
        n != static_cast<double>(static_cast<std::size_t>(n))) {
      throw std::invalid_argument(layout + ": bad " + who + " hand length " + std::to_string(n));
    }
    const auto count = static_cast<std::size_t>(n);
    hand.reserve(std::max(count, kReserve));
    for (std::size_t k = 0; k < count; ++k) {
      const double c = state[pos++];
      if (!(c >= 1.0 && c <= 10.0) || c != static_cast<double>(static_cast<int>(c))) {
        throw std::invalid_argument(layout + ": " + who + " cards must be 1 .. 10, got " +
                                    std::to_string(c));
      }
      hand.push_back(static_cast<int>(c));
    }
  }

  Params params_;
  std::vector<int> player_;
  std::vector<int> dealer_;
};

}  // namespace envpool::toy_text
