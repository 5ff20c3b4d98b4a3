// FlatPack-v0: jumanji 1.1.2's environments/packing/flat_pack (RandomFlatPackGenerator(5,
// 5): 25 blocks of 3 x 3 cells on an 11 x 11 grid, CellDenseReward).
//
// Reset (RandomFlatPackGenerator): the solved grid is cut into 5 x 5 blocks numbered 1 ..
// 25 row by row, neighbours sharing the grid's rows and columns 2, 4, 6, 8 (the
// interlocks). Column interlocks c = 2, 4, 6, 8 in turn: `key, k_0 .. k_10 = split(key,
// 12)`, and cell (r, c) takes its left neighbour's block when uniform(k_r) > 0.5, else its
// right neighbour's; then row interlocks r = 2, 4, 6, 8 likewise with the cell above
// (uniform > 0.5) or below, per column. Each block b = 1 .. 25 in turn is cropped to the
// 3 x 3 box at its cells' top row and left column (cells hold b) and rotated by
// randint(rot_key, (), 0, 4) with `key, rot_key = split(key)` (a key chain of its own,
// from the interlocks' key: jumanji drops it afterwards). Then `key, shuffle_key =
// split(key)` from the interlocks' key, and the blocks are permuted by
// permutation(shuffle_key, 25) (jax_random::Permutation). The grid starts empty, and the
// first action mask is all true (jumanji's generator writes ones).
//
// Rotation r of a 3 x 3 block (utils.rotate_block): 0 as is, 1 a quarter turn clockwise,
// 2 a half turn, 3 a quarter turn anticlockwise.
//
// A step (block, rotation, row, col): the rotated block's 3 x 3 box at (row, col). An
// action in the current mask adds the block's cells to the grid and marks the block
// placed; reward (float32) = its nonzero cells * float32(1 / 121); otherwise nothing
// changes and the reward is 0. The new mask: unplaced blocks at every rotation and
// position whose cells meet no filled cell. The step ends (termination) when step_count >= 25.
//
// Observation: grid (11, 11) int32 (the placed blocks' numbers), blocks (25, 3, 3) int32,
// action_mask (25, 4, 9, 9) bool.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "envs/common/keywords.h"
#include "envs/jumanji/jumanji_env.h"

namespace envpool::jumanji {

class FlatPack final : public JumanjiEnv {
 public:
  static constexpr int kBlockRows = 5;
  static constexpr int kBlocks = kBlockRows * kBlockRows;
  static constexpr int kSize = 3 * kBlockRows - (kBlockRows - 1);  // 11
  static constexpr int kPlaces = kSize - 2;                         // 9
  static constexpr int kMaskSize = kBlocks * 4 * kPlaces * kPlaces;

  struct Params {
    static Keywords<Params> Keys() { return Keywords<Params>(); }
    explicit Params(const Config& c) { Keys().Read(c, *this); }
  };
  static Config Defaults() { return Params::Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec;
    spec.obs_layout = ObsLayout::kDict;
    spec.obs.push_back(BoxSpec("grid", DType::kInt32, {kSize, kSize}, {0.0}, {kBlocks * 1.0}));
    spec.obs.push_back(BoxSpec("blocks", DType::kInt32, {kBlocks, 3, 3}, {0.0}, {kBlocks * 1.0}));
    spec.obs.push_back(BoxSpec("action_mask", DType::kBool, {kBlocks, 4, kPlaces, kPlaces}));
    spec.action = BoxSpec("action", DType::kInt32, {4}, {0.0},
                          {kBlocks - 1.0, 3.0, kPlaces - 1.0, kPlaces - 1.0});
    spec.reward_low = 0.0;
    spec.reward_high = 1.0;
    return spec;
  }

  explicit FlatPack(const Params& /*params*/) {}
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return JumanjiFrame(width, height, camera_id);
  }

  void Reset(Rng& /*rng*/) override {
    Generate(ResetKey());
    grid_.fill(0);
    placed_.fill(false);
    mask_.fill(true);
    step_count_ = 0;
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const std::int32_t* a = action.As<std::int32_t>();
    const int b = std::clamp(a[0], 0, kBlocks - 1);
    const int rot = std::clamp(a[1], 0, 3);
    const int row = std::clamp(a[2], 0, kPlaces - 1);
    const int col = std::clamp(a[3], 0, kPlaces - 1);
    const bool legal = mask_[((b * 4 + rot) * kPlaces + row) * kPlaces + col];
    float reward = 0.0F;
    if (legal) {
      const Block block = Rotate(blocks_[b], rot);
      int cells = 0;
      for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
          grid_[(row + i) * kSize + col + j] += block[i * 3 + j];
          cells += block[i * 3 + j] != 0 ? 1 : 0;
        }
      }
      placed_[b] = true;
      // jumanji's count / 121: XLA folds a division by a constant into a product with
      // the float32 reciprocal
      reward = static_cast<float>(cells) * (1.0F / static_cast<float>(kSize * kSize));
    }
    UpdateMask();
    ++step_count_;
    return Outcome(reward, step_count_ >= kBlocks ? StepType::kTermination : StepType::kMid);
  }

  void Write(const Slot& slot) const override {
    std::copy(grid_.begin(), grid_.end(), slot.Obs<std::int32_t>(0));
    std::int32_t* blocks = slot.Obs<std::int32_t>(1);
    for (int b = 0; b < kBlocks; ++b) {
      std::copy(blocks_[b].begin(), blocks_[b].end(), blocks + 9 * b);
    }
    std::copy(mask_.begin(), mask_.end(), slot.Obs<bool>(2));
  }

 private:
  using Block = std::array<std::int32_t, 9>;

  // utils.rotate_block.
  static Block Rotate(const Block& in, int rotation) {
    Block out{};
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) {
        int si = i;
        int sj = j;
        if (rotation == 1) {
          si = 2 - j;
          sj = i;
        } else if (rotation == 2) {
          si = 2 - i;
          sj = 2 - j;
        } else if (rotation == 3) {
          si = j;
          sj = 2 - i;
        }
        out[i * 3 + j] = in[si * 3 + sj];
      }
    }
    return out;
  }

  // RandomFlatPackGenerator.__call__.
  void Generate(Key key) {
    std::array<std::int32_t, kSize * kSize> solved{};
    auto at = [&solved](int r, int c) -> std::int32_t& { return solved[r * kSize + c]; };
    // the blocks' numbers before the interlocks are drawn: block (r / 2, c / 2), the
    // interlock rows and columns given to the block after them (drawn over below)
    for (int r = 0; r < kSize; ++r) {
      for (int c = 0; c < kSize; ++c) {
        const int br = std::min(r / 2, kBlockRows - 1);
        const int bc = std::min(c / 2, kBlockRows - 1);
        at(r, c) = br * kBlockRows + bc + 1;
      }
    }
    for (int c = 2; c < kSize - 1; c += 2) {
      const Key next = jax_random::SplitAt(key, 0);
      for (int r = 0; r < kSize; ++r) {
        const Key k = jax_random::SplitAt(key, static_cast<std::uint32_t>(r + 1));
        const float u = jax_random::UniformF32(k, 0, 0.0F, 1.0F, false);
        at(r, c) = u > 0.5F ? at(r, c - 1) : at(r, c + 1);
      }
      key = next;
    }
    for (int r = 2; r < kSize - 1; r += 2) {
      const Key next = jax_random::SplitAt(key, 0);
      for (int c = 0; c < kSize; ++c) {
        const Key k = jax_random::SplitAt(key, static_cast<std::uint32_t>(c + 1));
        const float u = jax_random::UniformF32(k, 0, 0.0F, 1.0F, false);
        at(r, c) = u > 0.5F ? at(r - 1, c) : at(r + 1, c);
      }
      key = next;
    }
    std::array<Block, kBlocks> blocks{};
    Key rot_chain = key;
    for (int b = 1; b <= kBlocks; ++b) {
      int top = kSize;
      int left = kSize;
      for (int r = 0; r < kSize; ++r) {
        for (int c = 0; c < kSize; ++c) {
          if (at(r, c) == b) {
            top = std::min(top, r);
            left = std::min(left, c);
          }
        }
      }
      Block block{};
      for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
          const int r = top + i;
          const int c = left + j;
          if (r < kSize && c < kSize && at(r, c) == b) block[i * 3 + j] = b;
        }
      }
      const Key rot_key = jax_random::SplitAt(rot_chain, 1);
      rot_chain = jax_random::SplitAt(rot_chain, 0);
      blocks[b - 1] = Rotate(block, jax_random::RandIntAt(rot_key, 0, 0, 4));
    }
    key_ = jax_random::SplitAt(key, 0);  // `key, shuffle_key = split(key)`: state.key
    const auto order = jax_random::Permutation(jax_random::SplitAt(key, 1), kBlocks);
    for (int i = 0; i < kBlocks; ++i) blocks_[i] = blocks[order[i]];
  }

  // FlatPack._make_action_mask.
  void UpdateMask() {
    for (int b = 0; b < kBlocks; ++b) {
      for (int rot = 0; rot < 4; ++rot) {
        const Block block = Rotate(blocks_[b], rot);
        for (int row = 0; row < kPlaces; ++row) {
          for (int col = 0; col < kPlaces; ++col) {
            bool ok = !placed_[b];
            for (int k = 0; ok && k < 9; ++k) {
              ok = block[k] == 0 || grid_[(row + k / 3) * kSize + col + k % 3] <= 0;
            }
            mask_[((b * 4 + rot) * kPlaces + row) * kPlaces + col] = ok;
          }
        }
      }
    }
  }

  // jumanji's State, its fields in sorted order (chex dataclasses flatten so).
  void WriteState(StateLeaves& out) const override {
    out.Add(mask_, {kBlocks, 4, kPlaces, kPlaces}).AddRows(blocks_, {kBlocks, 3, 3});
    out.Add(grid_, {kSize, kSize}).KeyLeaf(key_).Scalar(kBlocks).Add(placed_, {kBlocks});
    out.Scalar(step_count_);
  }

  std::array<Block, kBlocks> blocks_{};
  std::array<std::int32_t, kSize * kSize> grid_{};
  std::array<bool, kBlocks> placed_{};
  std::array<bool, kMaskSize> mask_{};
  std::int32_t step_count_ = 0;
  Key key_{};  // the generator's last key (the env draws nothing with it)
};

}  // namespace envpool::jumanji
