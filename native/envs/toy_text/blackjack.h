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
//
// The dealer's face-up card has a picture: after the deal, reset draws its
// suit (clubs, diamonds, hearts, spades, each 1/4) and, when it counts 10,
// whether it is a jack, queen or king (each 1/3), as gymnasium's reset does
// (in that order, after the cards, whether or not frames are drawn; gymnasium
// never shows a 10). render(): gymnasium 1.4's 376 x 384 table (draw_table),
// from the sprites of gymnasium's toy_text/img/blackjack folder (the hidden
// keyword _img_dir, set by envpool.tasks.toy_text).
//
// State (GetState/SetState): [len(player), *player, len(dealer), *dealer,
// suit, face], the cards as 1 .. 10 (ace = 1), both hands non-empty; suit
// 0 .. 3 (C, D, H, S), face 0 .. 2 (J, Q, K; drawn only for a 10, else 0).
// SetState also takes the hands alone and keeps the suit and face.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/env.h"
#include "envs/common/draw/picture.h"
#include "envs/toy_text/picture.h"

namespace envpool::toy_text {

class Blackjack final : public Env {
 public:
  struct Params {
    explicit Params(const Config& config)
        : natural(config.GetBool("natural")),
          sab(config.GetBool("sab")),
          img_dir(config.GetString("_img_dir")) {}
    bool natural;
    bool sab;
    std::string img_dir;  // gymnasium's toy_text/img folder; "": unknown
  };

  static Config Defaults() {
    Config config;
    config.Set("natural", false);
    config.Set("sab", false);
    config.Set("_img_dir", std::string());
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

  explicit Blackjack(const Params& params) : params_(params), sprites_(params.img_dir, "Blackjack") {
    player_.reserve(kReserve);
    dealer_.reserve(kReserve);
  }

  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return draw::FixedFrame("Blackjack", kScreenW, kScreenH, kToyTextFps, width, height, camera_id);
  }

  // gymnasium 1.4's draw_table: the felt, "DEALER" and the face-up card's value in small
  // digits, that card (card_<A|2..9|J|Q|K><suit>) and a card back, "PLAYER" and the player's
  // sum in big digits centred on a multiple of 4 pixels, and "USABLE ACE" when there is one.
  void Render(int /*width*/, int /*height*/, int /*camera_id*/, std::uint8_t* out) override {
    if (dealer_.empty()) throw std::runtime_error("Blackjack has no hand to draw before a reset");
    auto image = [this](const std::string& name) -> const RgbaImage& {
      return sprites_.Get("blackjack/" + name + ".png");
    };
    Canvas canvas(kScreenW, kScreenH, out);
    canvas.Fill({196, 216, 158});
    const RgbaImage& dealer_label = image("label_dealer");
    canvas.Blit(dealer_label, 40, 32);
    const int up = dealer_[0];
    DrawDigits(canvas, up, "small", 4, 40 + dealer_label.width + 12, 32);
    const char* const faces[] = {"J", "Q", "K"};
    const std::string value = up == 1 ? "A" : up == 10 ? faces[face_] : std::to_string(up);
    canvas.Blit(image("card_" + value + "CDHS"[suit_]), 96, 72);
    canvas.Blit(image("card_back"), 208, 72);
    canvas.Blit(image("label_player"), 40, 208);
    const int sum = SumHand(player_);
    const int n = static_cast<int>(std::to_string(sum).size());
    DrawDigits(canvas, sum, "big", 12, Centred(n * image("digit_big_0").width + (n - 1) * 12), 248);
    if (UsableAce(player_)) {
      const RgbaImage& ace = image("label_usable_ace");
      canvas.Blit(ace, Centred(ace.width), 328);
    }
  }

  void Reset(Rng& rng) override {
    dealer_.clear();
    player_.clear();
    dealer_.push_back(Draw(rng));
    dealer_.push_back(Draw(rng));
    player_.push_back(Draw(rng));
    player_.push_back(Draw(rng));
    suit_ = static_cast<int>(rng.Integer(0, 4));
    face_ = dealer_[0] == 10 ? static_cast<int>(rng.Integer(0, 3)) : 0;
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
    state.reserve(player_.size() + dealer_.size() + 4);
    state.push_back(static_cast<double>(player_.size()));
    for (int c : player_) state.push_back(c);
    state.push_back(static_cast<double>(dealer_.size()));
    for (int c : dealer_) state.push_back(c);
    state.push_back(suit_);
    state.push_back(face_);
    return state;
  }

  void SetState(const std::vector<double>& state) override {
    std::vector<int> player, dealer;
    std::size_t pos = 0;
    ReadHand(state, pos, player, "player");
    ReadHand(state, pos, dealer, "dealer");
    int suit = suit_, face = face_;
    if (state.size() - pos == 2) {
      suit = ReadIndex(state[pos], 4, "suit");
      face = ReadIndex(state[pos + 1], 3, "face");
    } else if (pos != state.size()) {
      throw std::invalid_argument(
          "Blackjack state is [len(player), *player, len(dealer), *dealer] or that and "
          "[suit, face]: " + std::to_string(state.size() - pos) + " extra numbers");
    }
    player_ = std::move(player);
    dealer_ = std::move(dealer);
    suit_ = suit;
    face_ = face;
  }

 private:
  static constexpr std::size_t kReserve = 32;
  static constexpr int kScreenW = 384, kScreenH = 376;  // gymnasium's SCREEN_SIZE
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

  static int ReadIndex(double v, int n, const char* what) {
    if (!(v >= 0.0 && v < n) || v != static_cast<double>(static_cast<int>(v))) {
      throw std::invalid_argument(std::string("Blackjack state: the ") + what + " must be 0 .. " +
                                  std::to_string(n - 1) + ", got " + std::to_string(v));
    }
    return static_cast<int>(v);
  }

  // (SCREEN_SIZE[0] - width) // 2 // ART_PIXEL * ART_PIXEL: centred on the 4-pixel grid.
  static int Centred(int width) { return (kScreenW - width) / 2 / 4 * 4; }

  // blit_digits: each digit's image, `gap` pixels apart, from (x, y).
  void DrawDigits(Canvas& canvas, int number, const char* size, int gap, int x, int y) {
    for (char digit : std::to_string(number)) {
      const RgbaImage& img =
          sprites_.Get(std::string("blackjack/digit_") + size + "_" + digit + ".png");
      canvas.Blit(img, x, y);
      x += img.width + gap;
    }
  }

  Params params_;
  Sprites sprites_;  // gymnasium's images, read once
  std::vector<int> player_;
  std::vector<int> dealer_;
  int suit_ = 0;  // the face-up card's suit: 0 .. 3 = C, D, H, S
  int face_ = 0;  // a 10's picture: 0 .. 2 = J, Q, K
};

}  // namespace envpool::toy_text
