// Play2048-v1: pgx 2.6.0's 2048 (pgx/play2048.py), a one-player game.
//
// The 4 x 4 board holds exponents (0 empty, k for the tile 2**k). init(key):
// rng1, rng2 = split(key), then two _add_random_num draws. _add_random_num(board, key):
// key, sub = split(key); the cell is jax.random.choice(key, 16, p=(board == 0)) and the
// tile jax.random.choice(sub, [1, 2], p=[0.9, 0.1]) (choice with p: c = cumsum(p) in
// float32, r = c[-1] * (1 - uniform(key)), the first index with c[i] >= r).
// step(action, key): rotate the board by rot90(board, action) (0 left, 1 up, 2 right,
// 3 down), slide and merge each row to the left (reward: the merged tiles' values), rotate
// back, add one random tile with the step's key, legal = the directions in which a slide
// moves something, terminated when none does. An illegal move (nothing slides) still adds
// a tile before pgx's penalty (-1, terminated).
// Observation (4, 4, 31) bool: one-hot of each cell's exponent. Info: board (4, 4) int32.
// State: pgx's _board; frames: 256 x 256 by default (pgx's
// SVG: 250 x 250).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "envs/pgx/pgx_env.h"

namespace envpool::pgx {

class Play2048Env final : public PgxEnv {
 public:
  struct Params {
    explicit Params(const Config& /*config*/) {}
  };
  static Config Defaults() { return Config(); }
  static EnvSpec MakeSpec(const Params& /*params*/) {
    return MakePgxSpec(1, BoxSpec("obs", DType::kBool, {4, 4, 31}, {0.0}, {1.0}), 4,
                       {BoxSpec("board", DType::kInt32, {4, 4}, {0.0}, {30.0})}, -1.0,
                       1e300);
  }
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return PgxFrameSize(width, height, camera_id, 256, 256);
  }
  explicit Play2048Env(const Params& /*params*/) : PgxEnv(1, 4, 16 * 31) {}

 protected:
  using Board = std::array<std::int32_t, 16>;

  void Init(const Key& key) override {
    current_player_ = 0;
    board_.fill(0);
    AddRandomNum(&board_, jax_random::SplitAt(key, 0));
    AddRandomNum(&board_, jax_random::SplitAt(key, 1));
    LegalMask();
  }

  void GameStep(int action, const Key& key) override {
    Board b = Rot90(board_, action);
    std::int32_t reward = 0;
    for (int r = 0; r < 4; ++r) reward += SlideAndMerge(&b[static_cast<std::size_t>(4 * r)]);
    b = Rot90(b, (4 - action) % 4);
    AddRandomNum(&b, key);
    board_ = b;
    LegalMask();
    rewards_[0] = static_cast<float>(reward);
    bool any = false;
    for (bool m : mask_) any = any || m;
    terminated_ = !any;
  }

  void Observe(int /*player*/, bool* out) const override {
    std::fill(out, out + 16 * 31, false);
    for (std::size_t i = 0; i < 16; ++i) out[i * 31 + static_cast<std::size_t>(board_[i])] = true;
  }

  void WriteObservation(StateLeaves& out) const override {
    out.Add(BoolObservation(0), {4, 4, 31});
  }

  void WriteState(StateLeaves& out) const override { out.Add(board_, {16}); }

  void WriteInfo(const Slot& slot, std::size_t first) const override {
    std::copy(board_.begin(), board_.end(), slot.Info<std::int32_t>(first));
  }

 private:
  // jnp.rot90(board, k): k quarter turns counter-clockwise; out[i][j] = in[j][3 - i] once.
  static Board Rot90(const Board& in, int k) {
    Board out = in;
    for (int t = 0; t < k; ++t) {
      Board next{};
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) next[static_cast<std::size_t>(4 * i + j)] = out[static_cast<std::size_t>(4 * j + 3 - i)];
      out = next;
    }
    return out;
  }

  // _slide_left: pgx's three conditional rolls, in its order.
  static void SlideLeft(std::int32_t* line) {
    if (line[2] == 0) std::rotate(line + 2, line + 3, line + 4);
    if (line[1] == 0) std::rotate(line + 1, line + 2, line + 4);
    if (line[0] == 0) std::rotate(line, line + 1, line + 4);
  }

  // _slide_and_merge: slide, merge equal neighbours left to right, slide; the reward is the
  // sum of 2 ** (merged exponent).
  static std::int32_t SlideAndMerge(std::int32_t* line) {
    SlideLeft(line);
    std::int32_t reward = 0;
    for (int i = 0; i < 3; ++i) {
      if (line[i] != 0 && line[i] == line[i + 1]) {
        line[i] += 1;
        line[i + 1] = 0;
        reward += std::int32_t{1} << line[i];
      }
    }
    SlideLeft(line);
    return reward;
  }

  static bool CanSlideLeft(const Board& b) {
    for (int r = 0; r < 4; ++r) {
      const std::int32_t* l = &b[static_cast<std::size_t>(4 * r)];
      bool can = (l[0] == 0 && l[1] > 0) || (l[1] == 0 && l[2] > 0) || (l[2] == 0 && l[3] > 0) ||
                 (l[0] > 0 && l[0] == l[1]) || (l[1] > 0 && l[1] == l[2]) ||
                 (l[2] > 0 && l[2] == l[3]);
      can = can && !(l[0] == 0 && l[1] == 0 && l[2] == 0 && l[3] == 0);
      if (can) return true;
    }
    return false;
  }

  void LegalMask() {
    for (int k = 0; k < 4; ++k) mask_[static_cast<std::size_t>(k)] = CanSlideLeft(Rot90(board_, k));
  }

  // jax.random.choice(key, n, p=weights) with replacement, shape (): see the header.
  static int ChoiceP(const Key& key, const float* weights, int n) {
    std::array<float, 16> cum{};
    float acc = 0.0F;
    for (int i = 0; i < n; ++i) {
      acc += weights[i];
      cum[static_cast<std::size_t>(i)] = acc;
    }
    const float u = jax_random::UniformF32(key, 0, 0.0F, 1.0F, false);
    const float r = cum[static_cast<std::size_t>(n - 1)] * (1.0F - u);
    for (int i = 0; i < n; ++i) {
      if (cum[static_cast<std::size_t>(i)] >= r) return i;
    }
    return n;  // searchsorted past the end (cannot happen: r <= c[-1])
  }

  static void AddRandomNum(Board* board, const Key& key) {
    const Key pos_key = jax_random::SplitAt(key, 0);
    const Key num_key = jax_random::SplitAt(key, 1);
    std::array<float, 16> empty{};
    for (std::size_t i = 0; i < 16; ++i) empty[i] = (*board)[i] == 0 ? 1.0F : 0.0F;
    const int pos = ChoiceP(pos_key, empty.data(), 16);
    static constexpr float kTileP[2] = {0.9F, 0.1F};
    const int num = ChoiceP(num_key, kTileP, 2) + 1;
    if (pos < 16) (*board)[static_cast<std::size_t>(pos)] = num;
  }

  Board board_{};
};

}  // namespace envpool::pgx
