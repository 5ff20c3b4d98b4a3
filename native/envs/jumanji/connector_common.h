// What jumanji's Connector-v2 (connector_v2.h) and Connector-v3 (connector.h) share:
// jumanji's environments/routing/connector on a 10 x 10 grid with 10 agents, its
// observation (grid, action_mask, step_count), its action masks, DenseRewardFn and the
// extras, and jumanji's State (WriteState).
//
// Grid values: 0 empty; agent i's path 1 + 3i, head (position) 2 + 3i, target 3 + 3i.
//
// Action masks (utils.get_action_masks / Connector._get_action_mask): no-op always; a move
// into an in-grid cell that is empty or the agent's own target, for an agent not yet
// connected (its position equal to its target).
//
// Reward per agent (DenseRewardFn, float32): 1.0 when it connects this step, plus -0.03
// while it was not connected. An agent is done when it is connected or blocked (no move in
// its mask). The pool's reward is the float32 sum of the agents' rewards in agent order
// (jumanji's reward is the per-agent vector: info "agent_rewards"). info: num_connections,
// ratio_connections, total_path_length (jumanji's extras).
//
// Keyword `connector_grid` (sail-sg EnvPool's): an episode's instance, the 100 cells of
// the grid row-major, each agent's head (2 + 3i) and target (3 + 3i) once, the other cells
// empty (0) or path (1 + 3i): every episode starts from it and the generator is not drawn.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/common/keywords.h"
#include "envs/jumanji/jumanji_env.h"

namespace envpool::jumanji {

class ConnectorBase : public JumanjiEnv {
 public:
  static constexpr int kSize = 10;
  static constexpr int kCells = kSize * kSize;
  static constexpr int kAgents = 10;
  static constexpr int kTimeLimit = 50;

  struct Params {
    std::string grid_text;
    std::vector<int> grid;  // parsed: empty, or the fixed instance's kCells values
    static Keywords<Params> Keys() {
      Keywords<Params> k;
      k.Add("connector_grid", std::string(), &Params::grid_text);
      return k;
    }
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      grid = ParseInts("connector_grid", grid_text, kCells, 0, 3 * kAgents);
      if (grid.empty()) return;
      for (int i = 0; i < kAgents; ++i) {
        const auto heads = std::count(grid.begin(), grid.end(), HeadOf(i));
        const auto targets = std::count(grid.begin(), grid.end(), TargetOf(i));
        if (heads != 1 || targets != 1) {
          throw std::invalid_argument(
              "connector_grid: agent " + std::to_string(i) + " needs one head (" +
              std::to_string(HeadOf(i)) + ") and one target (" + std::to_string(TargetOf(i)) +
              "), got " + std::to_string(heads) + " and " + std::to_string(targets));
        }
      }
    }
  };
  static Config Defaults() { return Params::Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec;
    spec.obs_layout = ObsLayout::kDict;
    spec.obs.push_back(
        BoxSpec("grid", DType::kInt32, {kSize, kSize}, {0.0}, {kAgents * 3.0 + 1.0}));
    spec.obs.push_back(BoxSpec("action_mask", DType::kBool, {kAgents, 5}));
    spec.obs.push_back(BoxSpec("step_count", DType::kInt32, {}, {0.0}, {kTimeLimit * 1.0}));
    spec.action = BoxSpec("action", DType::kInt32, {kAgents}, {0.0}, {4.0});
    spec.info.push_back(BoxSpec("agent_rewards", DType::kFloat32, {kAgents}));
    spec.info.push_back(DiscreteSpec("num_connections", kAgents + 1, DType::kInt32));
    spec.info.push_back(BoxSpec("ratio_connections", DType::kFloat32, {}, {0.0}, {1.0}));
    spec.info.push_back(BoxSpec("total_path_length", DType::kInt32, {}, {0.0}, {kCells}));
    spec.reward_low = -0.03 * kAgents;
    spec.reward_high = 1.0 * kAgents;
    return spec;
  }

  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return JumanjiFrame(width, height, camera_id);
  }

  explicit ConnectorBase(const Params& params) : fixed_grid_(params.grid) {}

  void Write(const Slot& slot) const override {
    std::copy(grid_.begin(), grid_.end(), slot.Obs<std::int32_t>(0));
    std::copy(mask_.begin(), mask_.end(), slot.Obs<bool>(1));
    *slot.Obs<std::int32_t>(2) = step_count_;
    std::copy(rewards_.begin(), rewards_.end(), slot.Info<float>(0));
    std::int32_t connections = 0;
    for (int i = 0; i < kAgents; ++i) connections += Connected(i) ? 1 : 0;
    *slot.Info<std::int32_t>(1) = connections;
    *slot.Info<float>(2) = static_cast<float>(connections) / static_cast<float>(kAgents);
    std::int32_t paths = kAgents;
    for (std::int32_t v : grid_) paths += v > 0 && (v - 1) % 3 == 0 ? 1 : 0;
    *slot.Info<std::int32_t>(3) = paths;
  }

 protected:
  using Pos = std::array<int, 2>;

  static constexpr std::int32_t PathOf(int i) { return 1 + 3 * i; }
  static constexpr std::int32_t HeadOf(int i) { return 2 + 3 * i; }
  static constexpr std::int32_t TargetOf(int i) { return 3 + 3 * i; }

  static int Index(const Pos& p) { return p[0] * kSize + p[1]; }
  static bool InBounds(const Pos& p) {
    return p[0] >= 0 && p[0] < kSize && p[1] >= 0 && p[1] < kSize;
  }
  static bool IsTarget(std::int32_t v) { return v > 0 && (v - 3) % 3 == 0; }
  // utils.move_position: 0 no-op, 1 up, 2 right, 3 down, 4 left (an action outside 0 .. 4
  // counts as the nearest).
  static Pos Move(const Pos& p, int a) {
    static constexpr int kMoves[5][2] = {{0, 0}, {-1, 0}, {0, 1}, {1, 0}, {0, -1}};
    a = std::clamp(a, 0, 4);
    return {p[0] + kMoves[a][0], p[1] + kMoves[a][1]};
  }
  bool Connected(int i) const { return position_[i] == target_[i]; }

  std::array<bool, kAgents * 5> ActionMasks() const {
    std::array<bool, kAgents * 5> mask{};
    for (int i = 0; i < kAgents; ++i) {
      mask[i * 5] = true;
      for (int a = 1; a < 5; ++a) {
        const Pos p = Move(position_[i], a);
        if (!InBounds(p) || Connected(i)) continue;
        const std::int32_t v = grid_[Index(p)];
        mask[i * 5 + a] = v == 0 || v == TargetOf(i);
      }
    }
    return mask;
  }

  // After the agents moved (grid_ and position_ updated, step_count_ counted): the action
  // masks, the agents' rewards (was_connected: before the move) and their float32 sum in
  // agent order; `all_done`: every agent connected or blocked.
  float Settle(const std::array<bool, kAgents>& was_connected, bool* all_done) {
    mask_ = ActionMasks();
    float reward = 0.0F;
    bool done = true;
    for (int i = 0; i < kAgents; ++i) {
      const bool connected = Connected(i);
      const float connect = !was_connected[i] && connected ? 1.0F : 0.0F;
      const float penalty = -0.03F * (was_connected[i] ? 0.0F : 1.0F);
      rewards_[i] = 1.0F * connect + penalty;
      reward += rewards_[i];
      bool blocked = true;
      for (int a = 1; a < 5; ++a) blocked = blocked && !mask_[i * 5 + a];
      done = done && (connected || blocked);
    }
    *all_done = done;
    return reward;
  }

  std::array<bool, kAgents> ConnectedNow() const {
    std::array<bool, kAgents> out{};
    for (int i = 0; i < kAgents; ++i) out[i] = Connected(i);
    return out;
  }

  // A reset: `key, board_key = split(use)` (key becomes state.key); the generator's board
  // from board_key, or the fixed instance of connector_grid.
  template <typename Generator>
  void Start(Generator&& generate) {
    const Key use = ResetKey();
    key_ = jax_random::SplitAt(use, 0);
    if (fixed_grid_.empty()) {
      generate(jax_random::SplitAt(use, 1));
    } else {
      for (int c = 0; c < kCells; ++c) {
        grid_[c] = fixed_grid_[c];
        const int agent = (fixed_grid_[c] - 1) / 3;
        if (fixed_grid_[c] == HeadOf(agent)) position_[agent] = {c / kSize, c % kSize};
        if (fixed_grid_[c] == TargetOf(agent)) target_[agent] = {c / kSize, c % kSize};
      }
    }
    Started();
  }

  // A reset's end: the agents' starts (where they stand now), step 0, no rewards, the
  // masks of the grid.
  void Started() {
    start_ = position_;
    step_count_ = 0;
    rewards_.fill(0.0F);
    mask_ = ActionMasks();
  }

  // jumanji's State (chex dataclasses: their fields sorted by name): action_mask, agents
  // (Agent: id, position, start, target; a row per agent), grid, key, step_count.
  void WriteState(StateLeaves& out) const override {
    std::array<int, kAgents> ids{};
    for (int i = 0; i < kAgents; ++i) ids[i] = i;
    out.Add(mask_, {kAgents, 5}).Add(ids, {kAgents}).AddRows(position_, {kAgents, 2});
    out.AddRows(start_, {kAgents, 2}).AddRows(target_, {kAgents, 2});
    out.Add(grid_, {kSize, kSize}).KeyLeaf(key_).Scalar(step_count_);
  }

  std::array<std::int32_t, kCells> grid_{};
  std::array<Pos, kAgents> position_{};
  std::array<Pos, kAgents> target_{};
  std::array<Pos, kAgents> start_{};  // where the agents started the episode
  std::array<bool, kAgents * 5> mask_{};
  std::array<float, kAgents> rewards_{};
  std::int32_t step_count_ = 0;
  Key key_{};

 private:
  std::vector<int> fixed_grid_;
};

}  // namespace envpool::jumanji
