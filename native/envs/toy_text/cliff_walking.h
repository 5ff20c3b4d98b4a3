// CliffWalking-v1 (and CliffWalkingSlippery-v1): gymnasium 1.4's
// toy_text/cliffwalking.py.
//
// Keyword: is_slippery (default false).
//
// A 4 x 12 grid; the start is (3, 0) = state 36, the goal (3, 11) = 47, the
// cliff (3, 1 .. 10). Actions: 0 up, 1 right, 2 down, 3 left. Same table
// P[s][a] as gymnasium: for each move in [a] (probability 1) or, slippery,
// [(a - 1) % 4, a, (a + 1) % 4] (probability 1/3 each), the position moved
// and clamped to the grid; entering the cliff gives (start, -100, not
// terminated), any other cell (cell, -1, terminated iff it is the goal).
// Observation: row * 12 + col (int64); info "prob" is the probability of the
// transition taken (1 on reset).
// State (GetState/SetState): [s].
//
// render(): gymnasium's 768 x 256 picture (_render_gui("rgb_array"), see Render
// below); the hidden keyword _img_dir is gymnasium's toy_text/img folder (set by
// envpool.tasks.toy_text).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/env.h"
#include "envs/common/draw/picture.h"
#include "envs/toy_text/picture.h"
#include "envs/toy_text/tabular.h"

namespace envpool::toy_text {

class CliffWalking final : public TabularWalk {
 public:
  static constexpr std::int64_t kRows = 4, kCols = 12;
  static constexpr int kCell = 64;  // pixels
  static constexpr std::int64_t kNumStates = kRows * kCols;
  static constexpr std::int64_t kStart = 3 * kCols + 0;

  struct Params {
    explicit Params(const Config& config)
        : table(BuildTable(config.GetBool("is_slippery"))),
          img_dir(config.GetString("_img_dir")) {}
    std::shared_ptr<const TransitionTable> table;
    std::string img_dir;  // gymnasium's toy_text/img folder; "": unknown
  };

  static Config Defaults() {
    Config config;
    config.Set("is_slippery", false);
    config.Set("_img_dir", std::string());
    return config;
  }

  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec;
    spec.obs.push_back(DiscreteSpec("obs", kNumStates, DType::kInt64));
    spec.action = DiscreteSpec("action", 4, DType::kInt32);
    spec.info.push_back(BoxSpec("prob", DType::kFloat64, {}));
    spec.reward_low = -100.0;
    spec.reward_high = -1.0;
    return spec;
  }

  explicit CliffWalking(const Params& params)
      : TabularWalk(params.table, "CliffWalking"), sprites_(params.img_dir, "CliffWalking") {}

  void Reset(Rng& /*rng*/) override { Start(kStart); }

  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return draw::FixedFrame("CliffWalking", kCell * kCols, kCell * kRows, kToyTextFps, width,
                            height, camera_id);
  }

  // gymnasium 1.4's picture, cell by cell (64 pixels, the art's own size, so no image
  // is scaled): img/cliff_walking/tile_ground.png, on the cliff tile_cliff_left /
  // _right at its ends and tile_cliff_mid_a / _b on even / odd columns between, then
  // letter_s.png on the start and letter_g.png and goal_flag.png on the goal, and
  // agent.png on the agent's cell, each at gymnasium's offset within the cell.
  void Render(int /*width*/, int /*height*/, int /*camera_id*/, std::uint8_t* out) override {
    auto image = [this](const char* name) -> const RgbaImage& {
      return sprites_.Get(std::string("cliff_walking/") + name);
    };
    Canvas canvas(kCell * kCols, kCell * kRows, out);
    for (std::int64_t i = 0; i < kNumStates; ++i) {
      const int row = static_cast<int>(i / kCols), col = static_cast<int>(i % kCols);
      const int x = col * kCell, y = row * kCell;
      canvas.Blit(image("tile_ground.png"), x, y);
      if (row == kRows - 1 && col >= 1 && col <= kCols - 2) {  // the cliff
        canvas.Blit(image(col == 1              ? "tile_cliff_left.png"
                          : col == kCols - 2    ? "tile_cliff_right.png"
                          : col % 2 == 0        ? "tile_cliff_mid_a.png"
                                                : "tile_cliff_mid_b.png"),
                    x, y);
      }
      if (i == kStart) canvas.Blit(image("letter_s.png"), x + 8, y + 8);
      if (i == kNumStates - 1) {
        canvas.Blit(image("letter_g.png"), x + 8, y + 8);
        canvas.Blit(image("goal_flag.png"), x + 28, y + 16);
      }
      if (i == s()) canvas.Blit(image("agent.png"), x + 20, y + 20);
    }
  }

 private:
  static std::shared_ptr<const TransitionTable> BuildTable(bool is_slippery) {
    // (drow, dcol) of up, right, down, left.
    static constexpr std::int64_t kDelta[4][2] = {{-1, 0}, {0, 1}, {1, 0}, {0, -1}};
    auto table = std::make_shared<TransitionTable>(kNumStates, 4);
    for (std::int64_t s = 0; s < kNumStates; ++s) {
      const std::int64_t row = s / kCols, col = s % kCols;
      for (int a = 0; a < 4; ++a) {
        std::vector<int> moves;
        if (is_slippery) {
          moves = {(a + 3) % 4, a, (a + 1) % 4};
        } else {
          moves = {a};
        }
        const double prob = 1.0 / static_cast<double>(moves.size());
        for (int m : moves) {
          const std::int64_t r = std::clamp<std::int64_t>(row + kDelta[m][0], 0, kRows - 1);
          const std::int64_t c = std::clamp<std::int64_t>(col + kDelta[m][1], 0, kCols - 1);
          const bool cliff = r == kRows - 1 && c >= 1 && c <= kCols - 2;
          if (cliff) {
            table->Add(s, a, Transition{prob, kStart, -100.0, false});
          } else {
            const bool goal = r == kRows - 1 && c == kCols - 1;
            table->Add(s, a, Transition{prob, r * kCols + c, -1.0, goal});
          }
        }
      }
    }
    return table;
  }

  Sprites sprites_;  // gymnasium's images, read once
};

}  // namespace envpool::toy_text
