// Maze-v0: jumanji 1.1.2's environments/routing/maze (10 x 10, RandomGenerator, time
// limit 100).
//
// Reset: `key, maze_key, agent_key = split(key, 3)`. The walls are
// generate_maze(10, 10, maze_key) (maze_generation.h). The agent and the target are
// choice(agent_key, 100, (2,), replace=False, p=open cells): jax adds Gumbel noise
// -log(-log(u)) to log(p) and takes the top 2; the noise rises with u (its 23 random bits),
// so the agent is the open cell of the largest bits and the target the second (ties: the
// lower index, as top_k), whatever XLA's log rounds to. A step moves the agent (0 up, 1
// right, 2 down, 3 left) when the action mask (in the grid, no wall) allows it, else
// stays. Reward 1.0 on the target. The episode ends (termination) on the target, with no
// move left, or at step_count >= 100.
//
// Observation: agent_position and target_position as dicts of row and col, walls (bool),
// step_count, action_mask. Keywords (sail-sg EnvPool's): maze_walls ("" or the 100 cells,
// 1 a wall), maze_agent_position and maze_target_position ("row,col"): every episode has
// them (all three together).
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/common/keywords.h"
#include "envs/jumanji/jumanji_env.h"
#include "envs/jumanji/maze_generation.h"

namespace envpool::jumanji {

class Maze final : public JumanjiEnv {
 public:
  static constexpr int kRows = 10;
  static constexpr int kCols = 10;
  static constexpr int kCells = kRows * kCols;
  static constexpr int kTimeLimit = kRows * kCols;

  struct Params {
    std::string walls_text;
    std::string agent_text;
    std::string target_text;
    std::vector<int> walls;   // parsed
    std::vector<int> agent;   // parsed
    std::vector<int> target;  // parsed
    static Keywords<Params> Keys() {
      Keywords<Params> k;
      k.Add("maze_walls", std::string(), &Params::walls_text);
      k.Add("maze_agent_position", std::string(), &Params::agent_text);
      k.Add("maze_target_position", std::string(), &Params::target_text);
      return k;
    }
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      walls = ParseInts("maze_walls", walls_text, kCells, 0, 1);
      agent = ParseInts("maze_agent_position", agent_text, 2, 0, kRows - 1);
      target = ParseInts("maze_target_position", target_text, 2, 0, kRows - 1);
      if ((walls.empty() != agent.empty()) || (walls.empty() != target.empty())) {
        throw std::invalid_argument(
            "maze_walls, maze_agent_position and maze_target_position go together");
      }
    }
  };
  static Config Defaults() { return Params::Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec;
    spec.obs_layout = ObsLayout::kDict;
    spec.obs.push_back(DiscreteSpec("agent_position:row", kRows, DType::kInt32));
    spec.obs.push_back(DiscreteSpec("agent_position:col", kCols, DType::kInt32));
    spec.obs.push_back(DiscreteSpec("target_position:row", kRows, DType::kInt32));
    spec.obs.push_back(DiscreteSpec("target_position:col", kCols, DType::kInt32));
    spec.obs.push_back(BoxSpec("walls", DType::kBool, {kRows, kCols}));
    spec.obs.push_back(DiscreteSpec("step_count", kTimeLimit + 1, DType::kInt32));
    spec.obs.push_back(BoxSpec("action_mask", DType::kBool, {4}));
    spec.action = DiscreteSpec("action", 4, DType::kInt32);
    spec.reward_low = 0.0;
    spec.reward_high = 1.0;
    return spec;
  }

  explicit Maze(const Params& params) : params_(params) {}
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return JumanjiFrame(width, height, camera_id);
  }

  void Reset(Rng& /*rng*/) override {
    const Key use = ResetKey();
    const Key maze_key = jax_random::SplitAt(use, 1);
    const Key agent_key = jax_random::SplitAt(use, 2);
    key_ = jax_random::SplitAt(use, 0);
    step_count_ = 0;
    if (!params_.walls.empty()) {
      for (int i = 0; i < kCells; ++i) walls_[i] = params_.walls[i] != 0;
      agent_ = {params_.agent[0], params_.agent[1]};
      target_ = {params_.target[0], params_.target[1]};
      return;
    }
    const std::vector<std::int8_t> maze = GenerateMaze(kCols, kRows, maze_key);
    for (int i = 0; i < kCells; ++i) walls_[i] = maze[i] != 0;
    // The top two of -log(-log(u)) + log(p): the open cells of the largest bits of u.
    int first = -1;
    int second = -1;
    std::uint32_t first_bits = 0;
    std::uint32_t second_bits = 0;
    for (int i = 0; i < kCells; ++i) {
      if (walls_[i]) continue;
      const auto bits = jax_random::Bits32(agent_key, static_cast<std::uint32_t>(i)) >> 9;
      if (first < 0 || bits > first_bits) {
        second = first;
        second_bits = first_bits;
        first = i;
        first_bits = bits;
      } else if (second < 0 || bits > second_bits) {
        second = i;
        second_bits = bits;
      }
    }
    agent_ = {first / kCols, first % kCols};
    target_ = {second / kCols, second % kCols};
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const int a = action.Scalar<std::int32_t>();
    const auto mask = ActionMask();
    if (mask[a]) agent_ = {agent_[0] + kMoves[a][0], agent_[1] + kMoves[a][1]};
    ++step_count_;
    const auto next = ActionMask();
    const bool any = next[0] || next[1] || next[2] || next[3];
    const bool reached = agent_ == target_;
    const bool done = !any || reached || step_count_ >= kTimeLimit;
    return Outcome(reached ? 1.0F : 0.0F, done ? StepType::kTermination : StepType::kMid);
  }

  void Write(const Slot& slot) const override {
    *slot.Obs<std::int32_t>(0) = agent_[0];
    *slot.Obs<std::int32_t>(1) = agent_[1];
    *slot.Obs<std::int32_t>(2) = target_[0];
    *slot.Obs<std::int32_t>(3) = target_[1];
    bool* walls = slot.Obs<bool>(4);
    for (int i = 0; i < kCells; ++i) walls[i] = walls_[i];
    *slot.Obs<std::int32_t>(5) = step_count_;
    const auto mask = ActionMask();
    bool* out = slot.Obs<bool>(6);
    for (int m = 0; m < 4; ++m) out[m] = mask[m];
  }

 private:
  // MOVES: up, right, down, left as (row, col) steps.
  static constexpr int kMoves[4][2] = {{-1, 0}, {0, 1}, {1, 0}, {0, -1}};

  std::array<bool, 4> ActionMask() const {
    std::array<bool, 4> mask{};
    for (int m = 0; m < 4; ++m) {
      const int row = agent_[0] + kMoves[m][0];
      const int col = agent_[1] + kMoves[m][1];
      mask[m] = row >= 0 && row < kRows && col >= 0 && col < kCols && !walls_[row * kCols + col];
    }
    return mask;
  }

  // jumanji's State (a chex dataclass: its fields sorted by name): action_mask,
  // agent_position (Position(row, col)), key (the generator's, never used again),
  // step_count, target_position, walls.
  void WriteState(StateLeaves& out) const override {
    out.Add(ActionMask(), {4}).Scalar(agent_[0]).Scalar(agent_[1]).KeyLeaf(key_);
    out.Scalar(step_count_).Scalar(target_[0]).Scalar(target_[1]).Add(walls_, {kRows, kCols});
  }

  Params params_;
  std::array<bool, kCells> walls_{};
  std::array<int, 2> agent_{};
  std::array<int, 2> target_{};
  std::int32_t step_count_ = 0;
  Key key_{};
};

}  // namespace envpool::jumanji
