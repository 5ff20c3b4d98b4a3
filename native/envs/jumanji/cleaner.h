// Cleaner-v0: jumanji 1.1.2's environments/routing/cleaner (10 x 10, 3 agents,
// RandomGenerator, time limit 100, penalty_per_timestep 0.5).
//
// Reset: `generator_key, state_key = split(key)`; the grid (int8) is
// generate_maze(10, 10, generator_key) (maze_generation.h) with empty cells dirty (0) and
// walls 2, and the top-left cell clean (1); the agents all start there. A step takes one
// move per agent (0 up, 1 right, 2 down, 3 left); each agent moves if its action mask
// allows it (inside the grid, no wall), then the agents' cells become clean. Reward: the
// cells that changed minus 0.5 (float32). The episode ends (termination) when some agent's
// action was outside the mask, when no dirty cell is left, or at step_count >= 100. Info:
// ratio_dirty_tiles (dirty / not wall, float32) and num_dirty_tiles.
//
// Keywords (sail-sg EnvPool's): cleaner_grid ("" or the 100 cells in 0 .. 2; its top-left
// cell is cleaned, as the generator's) and cleaner_agent_locations ("" or 3 (row, col)
// pairs): every episode starts from them; cleaner_penalty_per_timestep.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "envs/common/keywords.h"
#include "envs/jumanji/jumanji_env.h"
#include "envs/jumanji/maze_generation.h"

namespace envpool::jumanji {

class Cleaner final : public JumanjiEnv {
 public:
  static constexpr int kRows = 10;
  static constexpr int kCols = 10;
  static constexpr int kCells = kRows * kCols;
  static constexpr int kAgents = 3;
  static constexpr int kTimeLimit = kRows * kCols;
  static constexpr std::int8_t kDirty = 0;
  static constexpr std::int8_t kClean = 1;
  static constexpr std::int8_t kWall = 2;

  struct Params {
    std::string grid_text;
    std::string agents_text;
    double penalty = 0.5;
    std::vector<int> grid;    // parsed
    std::vector<int> agents;  // parsed
    static Keywords<Params> Keys() {
      Keywords<Params> k;
      k.Add("cleaner_grid", std::string(), &Params::grid_text);
      k.Add("cleaner_agent_locations", std::string(), &Params::agents_text);
      k.Add("cleaner_penalty_per_timestep", 0.5, &Params::penalty);
      return k;
    }
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      grid = ParseInts("cleaner_grid", grid_text, kCells, 0, 2);
      agents = ParseInts("cleaner_agent_locations", agents_text, 2 * kAgents, 0, kRows - 1);
    }
  };
  static Config Defaults() { return Params::Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec;
    spec.obs_layout = ObsLayout::kDict;
    spec.obs.push_back(BoxSpec("grid", DType::kInt8, {kRows, kCols}, {0}, {2}));
    spec.obs.push_back(BoxSpec("agents_locations", DType::kInt32, {kAgents, 2}, {0}, {kRows}));
    spec.obs.push_back(BoxSpec("action_mask", DType::kBool, {kAgents, 4}));
    spec.obs.push_back(DiscreteSpec("step_count", kTimeLimit + 1, DType::kInt32));
    spec.info.push_back(BoxSpec("ratio_dirty_tiles", DType::kFloat32, {}));
    spec.info.push_back(BoxSpec("num_dirty_tiles", DType::kInt32, {}));
    spec.action = BoxSpec("action", DType::kInt32, {kAgents}, {0}, {3});
    return spec;
  }

  explicit Cleaner(const Params& params) : params_(params) {}
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return JumanjiFrame(width, height, camera_id);
  }

  void Reset(Rng& /*rng*/) override {
    const Key use = ResetKey();
    const Key generator_key = jax_random::SplitAt(use, 0);
    key_ = jax_random::SplitAt(use, 1);
    if (!params_.grid.empty()) {
      for (int i = 0; i < kCells; ++i) grid_[i] = static_cast<std::int8_t>(params_.grid[i]);
    } else {
      const std::vector<std::int8_t> maze = GenerateMaze(kCols, kRows, generator_key);
      for (int i = 0; i < kCells; ++i) grid_[i] = maze[i] == 0 ? kDirty : kWall;
    }
    grid_[0] = kClean;  // the generator's clean top-left cell (a given grid's too)
    for (int a = 0; a < kAgents; ++a) {
      agents_[a] = params_.agents.empty()
                       ? std::array<int, 2>{0, 0}
                       : std::array<int, 2>{params_.agents[2 * a], params_.agents[2 * a + 1]};
    }
    step_count_ = 0;
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const std::int32_t* moves = action.As<std::int32_t>();
    const auto before = grid_;
    bool all_valid = true;
    for (int a = 0; a < kAgents; ++a) {
      const int m = moves[a];
      const bool valid = Valid(a, m);
      all_valid = all_valid && valid;
      if (valid) agents_[a] = {agents_[a][0] + kMoves[m][0], agents_[a][1] + kMoves[m][1]};
    }
    for (const auto& p : agents_) grid_[p[0] * kCols + p[1]] = kClean;
    ++step_count_;
    float changed = 0.0F;
    for (int i = 0; i < kCells; ++i) changed += before[i] != grid_[i] ? 1.0F : 0.0F;
    const bool done = !all_valid || DirtyCount() == 0 || step_count_ >= kTimeLimit;
    return Outcome(changed - static_cast<float>(params_.penalty),
                   done ? StepType::kTermination : StepType::kMid);
  }

  void Write(const Slot& slot) const override {
    std::int8_t* grid = slot.Obs<std::int8_t>(0);
    for (int i = 0; i < kCells; ++i) grid[i] = grid_[i];
    std::int32_t* agents = slot.Obs<std::int32_t>(1);
    bool* mask = slot.Obs<bool>(2);
    for (int a = 0; a < kAgents; ++a) {
      agents[2 * a] = agents_[a][0];
      agents[2 * a + 1] = agents_[a][1];
      for (int m = 0; m < 4; ++m) mask[4 * a + m] = Valid(a, m);
    }
    *slot.Obs<std::int32_t>(3) = step_count_;
    int open = 0;
    for (auto v : grid_) open += v != kWall ? 1 : 0;
    const int dirty = DirtyCount();
    *slot.Info<float>(0) = static_cast<float>(dirty) / static_cast<float>(open);
    *slot.Info<std::int32_t>(1) = dirty;
  }

 private:
  // MOVES: up, right, down, left as (row, col) steps.
  static constexpr int kMoves[4][2] = {{-1, 0}, {0, 1}, {1, 0}, {0, -1}};

  bool Valid(int agent, int move) const {
    const int row = agents_[agent][0] + kMoves[move][0];
    const int col = agents_[agent][1] + kMoves[move][1];
    return row >= 0 && row < kRows && col >= 0 && col < kCols && grid_[row * kCols + col] != kWall;
  }
  int DirtyCount() const {
    int dirty = 0;
    for (auto v : grid_) dirty += v == kDirty ? 1 : 0;
    return dirty;
  }

  // jumanji's State (a chex dataclass: its fields sorted by name): action_mask,
  // agents_locations, grid, key (the generator's state_key, never used again), step_count.
  void WriteState(StateLeaves& out) const override {
    std::array<std::array<bool, 4>, kAgents> mask{};
    for (int a = 0; a < kAgents; ++a) {
      for (int m = 0; m < 4; ++m) mask[a][m] = Valid(a, m);
    }
    out.AddRows(mask, {kAgents, 4}).AddRows(agents_, {kAgents, 2}).Add(grid_, {kRows, kCols});
    out.KeyLeaf(key_).Scalar(step_count_);
  }

  Params params_;
  std::array<std::int8_t, kCells> grid_{};
  std::array<std::array<int, 2>, kAgents> agents_{};
  std::int32_t step_count_ = 0;
  Key key_{};
};

}  // namespace envpool::jumanji
