// RobotWarehouse-v0: jumanji 1.1.2's environments/routing/robot_warehouse (RandomGenerator:
// 2 shelf rows, 3 shelf columns, column height 8 -> a 20 x 10 floor, 4 agents, sensor range
// 1, request queue 8; time limit 500).
//
// Layout: a cell (x, y) is highway when y % 3 == 0, x % 9 == 0, x == 19, or x > 9 with y 4
// or 5 (the queue in front of the goals); every other cell holds a shelf, numbered in
// row-major order (80 shelves). The goals are (x, y) = (19, 4) and (19, 5).
//
// Reset: `key, position_key = split(key)`: the agents' cells are the first 4 of
// permutation(position_key, 200); `key, direction_key = split(key)`: directions
// randint(direction_key, (4,), 0, 4) (0 up, 1 right, 2 down, 3 left); `key, queue_key =
// split(key)`: the request queue is the first 8 of permutation(queue_key, 80), those
// shelves requested. state.key is the key left.
//
// Step: an action outside the mask becomes a no-op. In agent order (a scan over the grid):
// forward moves one cell in the agent's direction (clamped to the floor) and carries its
// shelf along; left / right turn; toggle_load picks up the shelf under an agent not
// carrying; a no-op or a toggle while carrying puts the shelf down unless the agent stands
// on a highway. An agent no longer on its own grid cell (another moved onto it) is a
// collision. Then at each goal in order, a requested shelf standing there is delivered:
// `key, request_key = split(key)`, the replacement is the first of
// permutation(request_key) of the 72 shelves not queued (sorted), it takes the delivered
// shelf's place in the queue and the requested flags move; reward + 1 (float32). The
// episode ends (termination) on a collision or at step 500.
//
// Observation: agents_view, per agent 66 numbers written in sequence (a write past the end
// is moved back to fit, as jax's dynamic_update_slice clamps it): x, y, carrying, the
// direction one-hot, highway; for the 3 x 3 cells around it (zero padding outside) another
// agent's 1 and direction one-hot, 5 zeros for none, nothing for its own cell; then per
// cell a shelf's 1 and requested flag, or 2 zeros. action_mask: forward is refused to an
// agent carrying a shelf into another shelf's cell; step_count.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "envs/common/keywords.h"
#include "envs/jumanji/jumanji_env.h"

namespace envpool::jumanji {

class RobotWarehouse final : public JumanjiEnv {
 public:
  static constexpr int kRows = 20;  // x
  static constexpr int kCols = 10;  // y
  static constexpr int kAgents = 4;
  static constexpr int kQueue = 8;
  static constexpr int kTimeLimit = 500;
  static constexpr int kFeatures = 8 + 8 * 5 + 9 * 2;
  static constexpr int kForward = 1;
  static constexpr int kLeft = 2;
  static constexpr int kRight = 3;
  static constexpr int kToggle = 4;

  struct Params {
    explicit Params(const Config& /*config*/) {}
  };
  static Config Defaults() { return Config(); }

  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec;
    spec.obs_layout = ObsLayout::kDict;
    spec.obs.push_back(BoxSpec("agents_view", DType::kInt32, {kAgents, kFeatures}));
    spec.obs.push_back(BoxSpec("action_mask", DType::kBool, {kAgents, 5}));
    spec.obs.push_back(DiscreteSpec("step_count", kTimeLimit + 1, DType::kInt32));
    spec.action = BoxSpec("action", DType::kInt32, {kAgents}, {0}, {4});
    return spec;
  }

  explicit RobotWarehouse(const Params& /*params*/) {
    for (int x = 0; x < kRows; ++x) {
      for (int y = 0; y < kCols; ++y) {
        const bool highway = y % 3 == 0 || x % 9 == 0 || x == kRows - 1 ||
                             (x > kRows - 11 && (y == kCols / 2 - 1 || y == kCols / 2));
        highway_[x * kCols + y] = highway;
        if (!highway) shelf_cells_.push_back(x * kCols + y);
      }
    }
  }
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return JumanjiFrame(width, height, camera_id);
  }

  void Reset(Rng& /*rng*/) override {
    const Key key0 = ResetKey();
    const Key position_key = jax_random::SplitAt(key0, 1);
    const Key key1 = jax_random::SplitAt(key0, 0);
    const Key direction_key = jax_random::SplitAt(key1, 1);
    const Key key2 = jax_random::SplitAt(key1, 0);
    const Key queue_key = jax_random::SplitAt(key2, 1);
    key_ = jax_random::SplitAt(key2, 0);
    const auto cells = jax_random::Permutation(position_key, kRows * kCols);
    const int num_shelves = static_cast<int>(shelf_cells_.size());
    const auto queue = jax_random::Permutation(queue_key, num_shelves);
    agent_layer_.fill(0);
    shelf_layer_.fill(0);
    for (int a = 0; a < kAgents; ++a) {
      agents_[a] = {cells[a] / kCols, cells[a] % kCols, 0,
                    jax_random::RandIntAt(direction_key, a, 0, 4)};
      agent_layer_[cells[a]] = a + 1;
    }
    shelves_.assign(static_cast<std::size_t>(num_shelves), Shelf{});
    for (int s = 0; s < num_shelves; ++s) {
      shelves_[s] = {shelf_cells_[s] / kCols, shelf_cells_[s] % kCols, 0};
      shelf_layer_[shelf_cells_[s]] = s + 1;
    }
    for (int q = 0; q < kQueue; ++q) {
      queue_[q] = queue[q];
      shelves_[queue[q]].requested = 1;
    }
    step_count_ = 0;
    UpdateMask();
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const std::int32_t* act = action.As<std::int32_t>();
    std::array<int, kAgents> actions{};
    for (int a = 0; a < kAgents; ++a) actions[a] = mask_[a * 5 + act[a]] ? act[a] : 0;
    for (int a = 0; a < kAgents; ++a) Act(a, actions[a]);
    bool collision = false;
    for (int a = 0; a < kAgents; ++a) collision = collision || agent_layer_[Cell(a)] != a + 1;
    float reward = 0.0F;
    for (int goal_y : {kCols / 2 - 1, kCols / 2}) {
      const int shelf_id = shelf_layer_[(kRows - 1) * kCols + goal_y];
      bool queued = false;
      for (int q : queue_) queued = queued || q + 1 == shelf_id;
      if (shelf_id == 0 || !queued) continue;
      const Key request_key = jax_random::SplitAt(key_, 1);
      key_ = jax_random::SplitAt(key_, 0);
      std::vector<int> not_queued;  // setdiff1d: sorted
      for (int s = 0; s < static_cast<int>(shelves_.size()); ++s) {
        if (std::find(queue_.begin(), queue_.end(), s) == queue_.end()) not_queued.push_back(s);
      }
      const int replacement = not_queued[jax_random::Permutation(
          request_key, static_cast<int>(not_queued.size()))[0]];
      *std::find(queue_.begin(), queue_.end(), shelf_id - 1) = replacement;
      reward += 1.0F;
      shelves_[shelf_id - 1].requested = 0;
      shelves_[replacement].requested = 1;
    }
    ++step_count_;
    UpdateMask();
    return Outcome(reward, collision || step_count_ >= kTimeLimit ? StepType::kTermination
                                                                 : StepType::kMid);
  }

  void Write(const Slot& slot) const override {
    std::int32_t* view = slot.Obs<std::int32_t>(0);
    for (int a = 0; a < kAgents; ++a) Observe(a, view + a * kFeatures);
    bool* mask = slot.Obs<bool>(1);
    for (int i = 0; i < kAgents * 5; ++i) mask[i] = mask_[i];
    *slot.Obs<std::int32_t>(2) = step_count_;
  }

 private:
  struct AgentState {
    int x, y, carrying, direction;
  };
  struct Shelf {
    int x = 0, y = 0, requested = 0;
  };

  int Cell(int agent) const { return agents_[agent].x * kCols + agents_[agent].y; }

  // get_new_position_after_forward: one cell on, clamped to the floor.
  std::array<int, 2> Forward(const AgentState& agent) const {
    switch (agent.direction) {
      case 0:
        return {std::max(0, agent.x - 1), agent.y};
      case 1:
        return {agent.x, std::min(kCols - 1, agent.y + 1)};
      case 2:
        return {std::min(kRows - 1, agent.x + 1), agent.y};
      default:
        return {agent.x, std::max(0, agent.y - 1)};
    }
  }

  // _update_state for one agent, in scan order.
  void Act(int a, int action) {
    AgentState& agent = agents_[a];
    const bool highway = highway_[Cell(a)];
    if (action == kForward) {
      const auto next = Forward(agent);
      const int from = Cell(a);
      const int to = next[0] * kCols + next[1];
      agent.x = next[0];
      agent.y = next[1];
      agent_layer_[from] = 0;
      agent_layer_[to] = a + 1;
      if (agent.carrying != 0) {
        const int shelf_id = shelf_layer_[from];
        // shelf_id - 1 = -1 would index the last shelf, as jax wraps it.
        Shelf& shelf = shelves_[shelf_id > 0 ? shelf_id - 1 : shelves_.size() - 1];
        shelf.x = next[0];
        shelf.y = next[1];
        shelf_layer_[from] = 0;
        shelf_layer_[to] = shelf_id;
      }
    } else if (action == kLeft || action == kRight) {
      agent.direction = (agent.direction + (action == kLeft ? -1 : 1) + 4) % 4;
    } else if (action == kToggle && agent.carrying == 0) {
      if (shelf_layer_[Cell(a)] > 0) agent.carrying = 1;
    } else if (!highway) {
      agent.carrying = 0;
    }
  }

  void UpdateMask() {
    for (int a = 0; a < kAgents; ++a) {
      const auto next = Forward(agents_[a]);
      const bool moves = next[0] != agents_[a].x || next[1] != agents_[a].y;
      for (int m = 0; m < 5; ++m) {
        mask_[a * 5 + m] = !(m == kForward && agents_[a].carrying != 0 && moves &&
                             shelf_layer_[next[0] * kCols + next[1]] != 0);
      }
    }
  }

  void Observe(int a, std::int32_t* obs) const {
    std::fill(obs, obs + kFeatures, 0);
    int idx = 0;
    // write_to_observation: jax's dynamic_update_slice moves a write past the end back.
    auto write = [&](std::initializer_list<int> data) {
      const int n = static_cast<int>(data.size());
      int at = std::min(idx, kFeatures - n);
      for (int v : data) obs[at++] = v;
      idx += n;
    };
    const AgentState& agent = agents_[a];
    const int d = agent.direction;
    write({agent.x, agent.y, agent.carrying});
    write({d == 0, d == 1, d == 2, d == 3});
    write({highway_[Cell(a)] ? 1 : 0});
    for (int dx = -1; dx <= 1; ++dx) {
      for (int dy = -1; dy <= 1; ++dy) {
        const int v = Layer(agent_layer_, agent.x + dx, agent.y + dy);
        if (v == a + 1) continue;
        if (v == 0) {
          idx += 5;
          continue;
        }
        const int od = agents_[v - 1].direction;
        write({1});
        write({od == 0, od == 1, od == 2, od == 3});
      }
    }
    for (int dx = -1; dx <= 1; ++dx) {
      for (int dy = -1; dy <= 1; ++dy) {
        const int v = Layer(shelf_layer_, agent.x + dx, agent.y + dy);
        if (v == 0) {
          idx += 2;
        } else {
          write({1, shelves_[v - 1].requested});
        }
      }
    }
  }

  static int Layer(const std::array<int, kRows * kCols>& layer, int x, int y) {
    return x < 0 || x >= kRows || y < 0 || y >= kCols ? 0 : layer[x * kCols + y];
  }

  // jumanji's State (a chex dataclass: its fields sorted by name; Agent, Shelf and
  // Position are NamedTuples, in field order): action_mask, agents (position x, y,
  // direction, is_carrying), grid (shelf ids + 1, then agent ids + 1), key, request_queue,
  // shelves (position x, y, is_requested), step_count.
  void WriteState(StateLeaves& out) const override {
    std::array<int, kAgents> x{}, y{}, direction{}, carrying{};
    for (int a = 0; a < kAgents; ++a) {
      x[a] = agents_[a].x;
      y[a] = agents_[a].y;
      direction[a] = agents_[a].direction;
      carrying[a] = agents_[a].carrying;
    }
    out.Add(mask_, {kAgents, 5}).Add(x, {kAgents}).Add(y, {kAgents});
    out.Add(direction, {kAgents}).Add(carrying, {kAgents});
    std::vector<int> grid(shelf_layer_.begin(), shelf_layer_.end());
    grid.insert(grid.end(), agent_layer_.begin(), agent_layer_.end());
    out.Add(grid, {2, kRows, kCols}).KeyLeaf(key_).Add(queue_, {kQueue});
    std::vector<int> shelf_x, shelf_y, requested;
    for (const Shelf& shelf : shelves_) {
      shelf_x.push_back(shelf.x);
      shelf_y.push_back(shelf.y);
      requested.push_back(shelf.requested);
    }
    const int num_shelves = static_cast<int>(shelves_.size());
    out.Add(shelf_x, {num_shelves}).Add(shelf_y, {num_shelves});
    out.Add(requested, {num_shelves}).Scalar(step_count_);
  }

  std::array<bool, kRows * kCols> highway_{};
  std::vector<int> shelf_cells_;
  std::array<AgentState, kAgents> agents_{};
  std::vector<Shelf> shelves_;
  std::array<int, kRows * kCols> agent_layer_{};
  std::array<int, kRows * kCols> shelf_layer_{};
  std::array<int, kQueue> queue_{};
  std::array<bool, kAgents * 5> mask_{};
  Key key_{};
  std::int32_t step_count_ = 0;
};

}  // namespace envpool::jumanji
