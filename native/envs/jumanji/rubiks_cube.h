// RubiksCube-v0 and RubiksCube-partly-scrambled-v0: jumanji 1.1.2's
// environments/logic/rubiks_cube (cube_size 3, ScramblingGenerator, SparseRewardFn):
// 100 scrambles and time_limit 200, or 7 scrambles and time_limit 20.
//
// The cube is int8 (6 faces, 3, 3), face f's stickers starting as f (faces UP, FRONT,
// RIGHT, BACK, LEFT, DOWN). Reset: `key, scramble_key = split(key)`; the scramble is
// randint(scramble_key, (n,), 0, 18) flattened moves applied to the solved cube. A move
// (face, depth, amount) (flattened face * 3 + depth * 3 + amount; amount 0 clockwise, 1
// anticlockwise, 2 half turn: jumanji's values 1, -1, 2) turns the face's stickers
// (jnp.rot90 with k = -value) and rolls the 12 adjacent stickers of the face's ring by 3 *
// value, in jumanji's order of faces, rows and columns (the generate_*_move tables below).
// Reward: 1.0 when every face is one colour, else 0.0. The episode ends (termination)
// when solved or at step_count >= time_limit.
//
// Keywords (sail-sg EnvPool's): rubiks_cube_initial_cube ("" or the 54 stickers in 0 .. 5,
// every episode starts from it), rubiks_cube_num_scrambles (jumanji's
// num_scrambles_on_reset) and rubiks_cube_time_limit (jumanji's time_limit).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "envs/common/keywords.h"
#include "envs/jumanji/jumanji_env.h"

namespace envpool::jumanji {

class RubiksCube final : public JumanjiEnv {
 public:
  static constexpr int kSize = 3;
  static constexpr int kFaces = 6;
  static constexpr int kStickers = kFaces * kSize * kSize;
  static constexpr int kMoves = kFaces * (kSize / 2) * 3;
  using Cube = std::array<std::int8_t, kStickers>;

  struct Params {
    std::string initial_cube;
    int time_limit = 200;
    int num_scrambles = 100;
    std::vector<int> cube;  // parsed initial_cube
    static Keywords<Params> Keys() {
      Keywords<Params> k;
      k.Add("rubiks_cube_initial_cube", std::string(), &Params::initial_cube);
      k.Add("rubiks_cube_time_limit", 200, &Params::time_limit).AtLeast(1);
      k.Add("rubiks_cube_num_scrambles", 100, &Params::num_scrambles).AtLeast(0);
      return k;
    }
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      cube = ParseInts("rubiks_cube_initial_cube", initial_cube, kStickers, 0, kFaces - 1);
    }
  };
  static Config Defaults() { return Params::Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& params) {
    EnvSpec spec;
    spec.obs_layout = ObsLayout::kDict;
    spec.obs.push_back(
        BoxSpec("cube", DType::kInt8, {kFaces, kSize, kSize}, {0}, {kFaces - 1}));
    spec.obs.push_back(DiscreteSpec("step_count", params.time_limit + 1, DType::kInt32));
    spec.action =
        BoxSpec("action", DType::kInt32, {3}, {0, 0, 0}, {kFaces - 1, kSize / 2 - 1, 2});
    spec.reward_low = 0.0;
    spec.reward_high = 1.0;
    return spec;
  }

  explicit RubiksCube(const Params& params) : params_(params) {}
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return JumanjiFrame(width, height, camera_id);
  }

  void Reset(Rng& /*rng*/) override {
    const Key use = ResetKey();
    const Key scramble_key = jax_random::SplitAt(use, 1);
    key_ = jax_random::SplitAt(use, 0);
    if (!params_.cube.empty()) {
      for (int i = 0; i < kStickers; ++i) cube_[i] = static_cast<std::int8_t>(params_.cube[i]);
    } else {
      for (int i = 0; i < kStickers; ++i) {
        cube_[i] = static_cast<std::int8_t>(i / (kSize * kSize));
      }
      for (int i = 0; i < params_.num_scrambles; ++i) {
        Rotate(jax_random::RandIntAt(scramble_key, static_cast<std::uint32_t>(i), 0, kMoves));
      }
    }
    step_count_ = 0;
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const std::int32_t* a = action.As<std::int32_t>();
    Rotate(a[0] * 3 * (kSize / 2) + a[1] * 3 + a[2]);
    ++step_count_;
    const bool solved = Solved();
    const bool done = step_count_ >= params_.time_limit || solved;
    return Outcome(solved ? 1.0F : 0.0F, done ? StepType::kTermination : StepType::kMid);
  }

  void Write(const Slot& slot) const override {
    std::int8_t* cube = slot.Obs<std::int8_t>(0);
    for (int i = 0; i < kStickers; ++i) cube[i] = cube_[i];
    *slot.Obs<std::int32_t>(1) = step_count_;
  }

 private:
  enum Face { kUp = 0, kFront, kRight, kBack, kLeft, kDown };

  static int At(int face, int row, int col) { return (face * kSize + row) * kSize + col; }

  // The 12 stickers around `face` at `depth`, in jumanji's order (generate_<face>_move:
  // adjacent faces each repeated 3 times, with their rows and columns).
  static std::array<int, 12> Ring(int face, int depth) {
    const int n = kSize;
    const int d = depth;
    const int e = n - 1 - depth;
    std::array<int, 12> ring{};
    auto set = [&](int side, int f, auto row, auto col) {
      for (int k = 0; k < n; ++k) ring[side * n + k] = At(f, row(k), col(k));
    };
    auto idx = [](int k) { return k; };
    auto flip = [n](int k) { return n - 1 - k; };
    auto fixed = [](int v) { return [v](int) { return v; }; };
    switch (face) {
      case kUp:
        set(0, kFront, fixed(d), idx);
        set(1, kLeft, fixed(d), idx);
        set(2, kBack, fixed(d), idx);
        set(3, kRight, fixed(d), idx);
        break;
      case kFront:
        set(0, kUp, fixed(e), idx);
        set(1, kRight, idx, fixed(d));
        set(2, kDown, fixed(d), flip);
        set(3, kLeft, flip, fixed(e));
        break;
      case kRight:
        set(0, kUp, flip, fixed(e));
        set(1, kBack, idx, fixed(d));
        set(2, kDown, flip, fixed(e));
        set(3, kFront, flip, fixed(e));
        break;
      case kBack:
        set(0, kUp, fixed(d), flip);
        set(1, kLeft, idx, fixed(d));
        set(2, kDown, fixed(e), idx);
        set(3, kRight, flip, fixed(e));
        break;
      case kLeft:
        set(0, kUp, idx, fixed(d));
        set(1, kFront, idx, fixed(d));
        set(2, kDown, idx, fixed(d));
        set(3, kBack, flip, fixed(e));
        break;
      default:  // kDown
        set(0, kFront, fixed(e), idx);
        set(1, kRight, fixed(e), idx);
        set(2, kBack, fixed(e), idx);
        set(3, kLeft, fixed(e), idx);
        break;
    }
    return ring;
  }

  // rotate_cube(cube, flattened move) (jumanji's do_rotation).
  void Rotate(int move) {
    static constexpr int kAmount[3] = {1, -1, 2};
    const int face = move / (3 * (kSize / 2));
    const int depth = (move / 3) % (kSize / 2);
    const int amount = kAmount[move % 3];
    if (depth == 0) {
      // jnp.rot90(m, k=-amount): k quarter turns anticlockwise (k < 0: clockwise).
      const int turns = ((-amount) % 4 + 4) % 4;
      for (int t = 0; t < turns; ++t) {
        Cube before = cube_;
        for (int i = 0; i < kSize; ++i) {
          for (int j = 0; j < kSize; ++j) {
            cube_[At(face, i, j)] = before[At(face, j, kSize - 1 - i)];
          }
        }
      }
    }
    const std::array<int, 12> ring = Ring(face, depth);
    std::array<std::int8_t, 12> values{};
    for (int k = 0; k < 12; ++k) values[k] = cube_[ring[k]];
    const int shift = ((kSize * amount) % 12 + 12) % 12;  // jnp.roll: out[k] = in[k - shift]
    for (int k = 0; k < 12; ++k) cube_[ring[(k + shift) % 12]] = values[k];
  }

  bool Solved() const {
    for (int f = 0; f < kFaces; ++f) {
      for (int i = 1; i < kSize * kSize; ++i) {
        if (cube_[f * kSize * kSize + i] != cube_[f * kSize * kSize]) return false;
      }
    }
    return true;
  }

  // jumanji's State (a chex dataclass: its leaves by field name): cube, key, step_count.
  void WriteState(StateLeaves& out) const override {
    out.Add(cube_, {kFaces, kSize, kSize}).KeyLeaf(key_).Scalar(step_count_);
  }

  Params params_;
  Cube cube_{};
  std::int32_t step_count_ = 0;
  Key key_{};  // the generator's state.key (steps draw nothing)
};

}  // namespace envpool::jumanji
