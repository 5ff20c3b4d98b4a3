// Sokoban-v0: jumanji 1.1.2's environments/routing/sokoban (10 x 10, DenseReward, time
// limit 120), its levels drawn as HuggingFaceDeepMindGenerator draws them from a boxoban
// level file: a .npy of uint8 (n, 10, 10, 2), [..., 0] the fixed grid (0 floor, 1 wall,
// 2 target) and [..., 1] the variable grid (0 empty, 3 agent, 4 box), read once per pool.
// Which file is the hidden keyword _sokoban_levels (envpool/tasks/jumanji.py resolves
// sokoban_levels_file and sokoban_dataset to it); without one the spec is made, the env
// is not (_sokoban_missing says why).
//
// Reset: `generator_key, key = split(key)` (the env's), then the generator's `key, idx_key
// = split(generator_key)` and level randint(idx_key, (), 0, n) (or the fixed
// sokoban_level_index); the agent is where the variable grid holds 3. A step (0 up, 1
// right, 2 down, 3 left) is a no-op when the next cell is a wall or off the grid, or holds
// a box whose next cell is a box, a wall or off the grid; else the agent moves, pushing
// the box. Reward (float32): the change of the boxes on targets, + 10 when all 4 are on
// targets, - 0.1: float32(int) + float32(-0.1) as XLA adds them. The episode ends
// (termination) with 4 boxes on targets or at step_count >= the time limit
// (sokoban_time_limit, jumanji's time_limit: 120). Info: prop_correct_boxes (boxes on
// targets / 4, float32) and solved (4 on targets).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/common/keywords.h"
#include "envs/common/npy_file.h"
#include "envs/jumanji/jumanji_env.h"

namespace envpool::jumanji {

class Sokoban final : public JumanjiEnv {
 public:
  static constexpr int kRows = 10;
  static constexpr int kCols = 10;
  static constexpr int kCells = kRows * kCols;
  static constexpr int kBoxes = 4;  // N_BOXES
  // Cell codes (constants.py).
  static constexpr std::uint8_t kEmpty = 0;
  static constexpr std::uint8_t kWall = 1;
  static constexpr std::uint8_t kTarget = 2;
  static constexpr std::uint8_t kAgent = 3;
  static constexpr std::uint8_t kBox = 4;

  struct Params {
    std::string levels_file;  // sokoban_levels_file: read by envpool/tasks/jumanji.py
    std::string dataset;      // sokoban_dataset: likewise
    std::string levels_path;  // _sokoban_levels: the file the levels are read from
    std::string missing;      // _sokoban_missing: why there is no file (then no env is made)
    int level_index = -1;
    int time_limit = 120;
    std::shared_ptr<const std::vector<std::uint8_t>> levels;  // n * kCells * 2, as the file
    std::int32_t num_levels = 0;
    static Keywords<Params> Keys() {
      Keywords<Params> k;
      k.Add("sokoban_levels_file", std::string(), &Params::levels_file);
      k.Add("sokoban_dataset", std::string("unfiltered-train"), &Params::dataset);
      k.Add("_sokoban_levels", std::string(), &Params::levels_path);
      k.Add("_sokoban_missing", std::string(), &Params::missing);
      k.Add("sokoban_level_index", -1, &Params::level_index).AtLeast(-1);
      k.Add("sokoban_time_limit", 120, &Params::time_limit).AtLeast(1);
      return k;
    }
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      if (levels_path.empty()) return;  // the spec without levels: Sokoban() refuses
      levels = ReadLevels(levels_path);
      num_levels = static_cast<std::int32_t>(levels->size() / (kCells * 2));
      if (level_index >= num_levels) {
        throw std::invalid_argument("sokoban_level_index: " + std::to_string(level_index) +
                                    " is not below the " + std::to_string(num_levels) +
                                    " levels of " + levels_path);
      }
    }
  };
  static Config Defaults() { return Params::Keys().Defaults(); }

  // The levels of a boxoban .npy file (uint8 (n, 10, 10, 2)); every level's fixed cells in
  // {0, 1, 2}, its variable cells in {0, 3, 4} with one agent, else std::invalid_argument
  // naming the file and the level.
  static std::shared_ptr<const std::vector<std::uint8_t>> ReadLevels(const std::string& path) {
    npy::Array array = npy::Read(path);
    if (array.descr != "|u1" || array.shape.size() != 4 || array.shape[0] < 1 ||
        array.shape[0] > (1 << 30) || array.shape[1] != kRows || array.shape[2] != kCols ||
        array.shape[3] != 2) {
      throw std::invalid_argument(path + " does not hold boxoban levels: uint8 (n, 10, 10, 2)");
    }
    const std::size_t n = array.data.size() / (kCells * 2);
    for (std::size_t level = 0; level < n; ++level) {
      int agents = 0;
      for (int i = 0; i < kCells; ++i) {
        const std::uint8_t fixed = array.data[(level * kCells + i) * 2];
        const std::uint8_t variable = array.data[(level * kCells + i) * 2 + 1];
        agents += variable == kAgent ? 1 : 0;
        if (fixed > kTarget || (variable != kEmpty && variable != kAgent && variable != kBox)) {
          throw std::invalid_argument(path + ": level " + std::to_string(level) +
                                      " has a cell other than floor, wall, target (fixed) or "
                                      "empty, agent, box (variable)");
        }
      }
      if (agents != 1) {
        throw std::invalid_argument(path + ": level " + std::to_string(level) + " has " +
                                    std::to_string(agents) + " agents (one needed)");
      }
    }
    return std::make_shared<const std::vector<std::uint8_t>>(std::move(array.data));
  }

  static EnvSpec MakeSpec(const Params& params) {
    EnvSpec spec;
    spec.obs_layout = ObsLayout::kDict;
    spec.obs.push_back(BoxSpec("grid", DType::kUInt8, {kRows, kCols, 2}, {0}, {kBox}));
    spec.obs.push_back(DiscreteSpec("step_count", params.time_limit + 1, DType::kInt32));
    spec.info.push_back(BoxSpec("prop_correct_boxes", DType::kFloat32, {}));
    spec.info.push_back(BoxSpec("solved", DType::kBool, {}));
    spec.action = DiscreteSpec("action", 4, DType::kInt32);
    spec.reward_low = -1.1;
    spec.reward_high = 10.9;
    return spec;
  }

  explicit Sokoban(const Params& params) : params_(params) {
    if (!params_.levels) {
      throw std::invalid_argument(params_.missing.empty()
                                      ? "Sokoban needs its level file (_sokoban_levels)"
                                      : params_.missing);
    }
  }
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return JumanjiFrame(width, height, camera_id);
  }

  void Reset(Rng& /*rng*/) override {
    const Key generator_key = jax_random::SplitAt(ResetKey(), 0);
    key_ = jax_random::SplitAt(generator_key, 0);  // the generator's `key`: state.key
    const Key idx_key = jax_random::SplitAt(generator_key, 1);
    const std::int32_t index = params_.level_index >= 0
                                   ? params_.level_index
                                   : jax_random::RandIntAt(idx_key, 0, 0, params_.num_levels);
    const std::uint8_t* level =
        params_.levels->data() + static_cast<std::size_t>(index) * kCells * 2;
    for (int i = 0; i < kCells; ++i) {
      fixed_[i] = level[i * 2];
      variable_[i] = level[i * 2 + 1];
      if (variable_[i] == kAgent) agent_ = {i / kCols, i % kCols};
    }
    step_count_ = 0;
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const int a = action.Scalar<std::int32_t>();
    const int before = BoxesOnTargets();
    if (!IsNoop(a)) {
      const int row = agent_[0] + kMoves[a][0];
      const int col = agent_[1] + kMoves[a][1];
      variable_[agent_[0] * kCols + agent_[1]] = kEmpty;
      if (variable_[row * kCols + col] == kBox) {
        variable_[(row + kMoves[a][0]) * kCols + col + kMoves[a][1]] = kBox;
      }
      variable_[row * kCols + col] = kAgent;
      agent_ = {row, col};
    }
    ++step_count_;
    const int after = BoxesOnTargets();
    const bool complete = after == kBoxes;
    const int count = (after - before) + (complete ? 10 : 0);
    const float reward = static_cast<float>(count) + -0.1F;
    const bool done = complete || step_count_ >= params_.time_limit;
    return Outcome(reward, done ? StepType::kTermination : StepType::kMid);
  }

  void Write(const Slot& slot) const override {
    std::uint8_t* grid = slot.Obs<std::uint8_t>(0);
    for (int i = 0; i < kCells; ++i) {
      grid[i * 2] = variable_[i];
      grid[i * 2 + 1] = fixed_[i];
    }
    *slot.Obs<std::int32_t>(1) = step_count_;
    const int on_targets = BoxesOnTargets();
    *slot.Info<float>(0) = static_cast<float>(on_targets) / static_cast<float>(kBoxes);
    *slot.Info<bool>(1) = on_targets == kBoxes;
  }

 private:
  // MOVES: up, right, down, left as (row, col) steps.
  static constexpr int kMoves[4][2] = {{-1, 0}, {0, 1}, {1, 0}, {0, -1}};

  static bool InGrid(int row, int col) {
    return row >= 0 && row < kRows && col >= 0 && col < kCols;
  }

  // detect_noop_action: the next cell is a wall or off the grid; or it holds a box whose
  // next cell is a box, off the grid or a wall.
  bool IsNoop(int a) const {
    const int row = agent_[0] + kMoves[a][0];
    const int col = agent_[1] + kMoves[a][1];
    if (!InGrid(row, col) || fixed_[row * kCols + col] == kWall) return true;
    if (variable_[row * kCols + col] != kBox) return false;
    const int box_row = row + kMoves[a][0];
    const int box_col = col + kMoves[a][1];
    return !InGrid(box_row, box_col) || variable_[box_row * kCols + box_col] == kBox ||
           fixed_[box_row * kCols + box_col] == kWall;
  }

  // count_targets: the cells with a box (variable) on a target (fixed).
  int BoxesOnTargets() const {
    int n = 0;
    for (int i = 0; i < kCells; ++i) n += variable_[i] == kBox && fixed_[i] == kTarget ? 1 : 0;
    return n;
  }

  // jumanji's State, its fields in sorted order (chex dataclasses flatten so).
  void WriteState(StateLeaves& out) const override {
    out.Add(agent_, {2}).Add(fixed_, {kRows, kCols}).KeyLeaf(key_).Scalar(step_count_);
    out.Add(variable_, {kRows, kCols});
  }

  Params params_;
  std::array<std::uint8_t, kCells> fixed_{};
  std::array<std::uint8_t, kCells> variable_{};
  std::array<int, 2> agent_{};
  std::int32_t step_count_ = 0;
  Key key_{};  // the generator's key left over (the env draws nothing with it)
};

}  // namespace envpool::jumanji
