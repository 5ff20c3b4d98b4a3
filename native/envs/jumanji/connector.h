// Connector-v3: jumanji 1.1.2's environments/routing/connector (10 x 10 grid, 10 agents,
// RandomWalkGenerator(10, 10), DenseRewardFn, time_limit 50). jumanji 1.1.2 registers
// this env as Connector-v3 (its v2, in jumanji 1.1.1, had another generator and step).
//
// Grid values: 0 empty; agent i's path 1 + 3i, head (position) 2 + 3i, target 3 + 3i.
//
// Reset (RandomWalkGenerator): `key, board_key = split(key)` (key becomes state.key);
// `init_key, step_key = split(board_key)`. For agent i = 0 .. 9 in turn, `start_key,
// move_key, init_key = split(init_key, 3)`: the start is choice(start_key, 100, p=cells
// empty and not surrounded (every in-grid 4-neighbour occupied)), written as a path; the
// first move choice(move_key, 100, p=empty 4-neighbours of the start), written as a head.
// Then random walks while some agent can move and the walk count (from 1) is below 15:
// `key, step_key = split(step_key)`, each agent's key split(key, 10)[i]; agent i moves
// by 1 + choice(p = softmax(d . (up, right, down, left)) * mask / sum) (d = position -
// start, the walk's displacement; no move when its mask is empty); an agent whose new
// cell is also a later agent's new cell stays; a moving agent turns its old cell into
// path and writes its head at the new cell. The walks' ends become the targets: the
// episode's grid holds only each agent's head at its start and its target at the end.
//
// A step (one action per agent: 0 no-op, 1 up, 2 right, 3 down, 4 left): an action
// outside the agent's mask is a no-op; an agent whose new cell is a later agent's new
// cell stays (its cells unchanged); a moving agent leaves path behind and its head enters
// the new cell (on its own target the cell becomes its head: connected). The mask allows
// moves into empty cells or the agent's own target, none once connected. Reward per
// agent (float32): 1.0 when it connects this step, plus -0.03 while it was not connected.
// The episode ends (termination) when every agent is connected or blocked, (truncation)
// when step_count >= 50.
//
// The pool's reward is the float32 sum of the agents' rewards in agent order (jumanji's
// reward is the per-agent vector: info "agent_rewards"). info: num_connections,
// ratio_connections, total_path_length (jumanji's extras).
//
// The walk's probabilities are float32 as written (exp, sums in order, divisions); XLA
// fuses jumanji's softmax and its renormalisation and may round them an ulp differently
// (its exp of a vectorised loop, its order of the four-term sums), so a walk's draw could
// differ from jumanji's where the uniform lands within such an ulp of a boundary of the
// running sum: never seen in the tests' episodes.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "envs/common/keywords.h"
#include "envs/jumanji/jumanji_env.h"

namespace envpool::jumanji {

class Connector final : public JumanjiEnv {
 public:
  static constexpr int kSize = 10;
  static constexpr int kCells = kSize * kSize;
  static constexpr int kAgents = 10;
  static constexpr int kTimeLimit = 50;
  static constexpr int kWalkSteps = 15;  // int(grid_size * 1.5)

  struct Params {
    static Keywords<Params> Keys() { return Keywords<Params>(); }
    explicit Params(const Config& c) { Keys().Read(c, *this); }
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

  explicit Connector(const Params& /*params*/) {}
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return JumanjiFrame(width, height, camera_id);
  }

  void Reset(Rng& /*rng*/) override {
    const Key use = ResetKey();
    key_ = jax_random::SplitAt(use, 0);
    Generate(jax_random::SplitAt(use, 1));
    step_count_ = 0;
    rewards_.fill(0.0F);
    mask_ = ActionMasks();
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const std::int32_t* actions = action.As<std::int32_t>();
    std::array<bool, kAgents> was_connected{};
    std::array<Pos, kAgents> next{};
    for (int i = 0; i < kAgents; ++i) {
      was_connected[i] = Connected(i);
      const int a = std::clamp(actions[i], 0, 4);
      next[i] = mask_[i * 5 + a] ? Move(position_[i], a) : position_[i];
    }
    const auto collided = RepeatedLater(next);
    for (int i = 0; i < kAgents; ++i) {
      const bool noop = next[i] == position_[i];
      if (noop || collided[i]) continue;
      // the old head becomes path (PATH - POSITION = -1); the new cell gains the head
      // (an empty cell) or turns the agent's target into its head (POSITION - TARGET = -1)
      grid_[Index(position_[i])] -= 1;
      const int cell = Index(next[i]);
      grid_[cell] += IsTarget(grid_[cell]) ? -1 : 2 + 3 * i;
    }
    for (int i = 0; i < kAgents; ++i) {
      if (!collided[i]) position_[i] = next[i];
    }
    mask_ = ActionMasks();
    ++step_count_;
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
    const StepType type = done ? StepType::kTermination
                               : (step_count_ >= kTimeLimit ? StepType::kTruncation
                                                            : StepType::kMid);
    return Outcome(reward, type);
  }

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

 private:
  using Pos = std::array<int, 2>;

  static int Index(const Pos& p) { return p[0] * kSize + p[1]; }
  static bool InBounds(const Pos& p) {
    return p[0] >= 0 && p[0] < kSize && p[1] >= 0 && p[1] < kSize;
  }
  static bool IsTarget(std::int32_t v) { return v > 0 && (v - 3) % 3 == 0; }
  // utils.move_position: 0 no-op, 1 up, 2 right, 3 down, 4 left.
  static Pos Move(const Pos& p, int a) {
    static constexpr int kMoves[5][2] = {{0, 0}, {-1, 0}, {0, 1}, {1, 0}, {0, -1}};
    return {p[0] + kMoves[a][0], p[1] + kMoves[a][1]};
  }
  bool Connected(int i) const { return position_[i] == target_[i]; }

  // utils.is_repeated_later: whether a later agent has the same new cell.
  static std::array<bool, kAgents> RepeatedLater(const std::array<Pos, kAgents>& next) {
    std::array<bool, kAgents> out{};
    for (int i = 0; i < kAgents; ++i) {
      for (int j = i + 1; j < kAgents; ++j) out[i] = out[i] || next[i] == next[j];
    }
    return out;
  }

  // utils.get_action_masks: no-op always; a move into an in-grid cell that is empty or the
  // agent's own target, for an agent not yet connected.
  std::array<bool, kAgents * 5> ActionMasks() const {
    std::array<bool, kAgents * 5> mask{};
    for (int i = 0; i < kAgents; ++i) {
      mask[i * 5] = true;
      for (int a = 1; a < 5; ++a) {
        const Pos p = Move(position_[i], a);
        if (!InBounds(p) || Connected(i)) continue;
        const std::int32_t v = grid_[Index(p)];
        mask[i * 5 + a] = v == 0 || v == 3 + 3 * i;
      }
    }
    return mask;
  }

  // RandomWalkGenerator.generate_board.
  void Generate(const Key& board_key) {
    Key init_key = jax_random::SplitAt(board_key, 0);
    Key step_key = jax_random::SplitAt(board_key, 1);
    grid_.fill(0);
    std::array<Pos, kAgents> start{};
    for (int i = 0; i < kAgents; ++i) {
      const Key start_key = jax_random::SplitAt(init_key, 0);
      const Key move_key = jax_random::SplitAt(init_key, 1);
      init_key = jax_random::SplitAt(init_key, 2);
      std::vector<float> p(kCells);
      for (int c = 0; c < kCells; ++c) p[c] = grid_[c] == 0 && !Surrounded(c) ? 1.0F : 0.0F;
      const int s = jax_random::ChoiceWeighted(start_key, p);
      grid_[s] = 1 + 3 * i;
      start[i] = {s / kSize, s % kSize};
      std::fill(p.begin(), p.end(), 0.0F);
      for (int a = 1; a < 5; ++a) {
        const Pos q = Move(start[i], a);
        if (InBounds(q) && grid_[Index(q)] == 0) p[Index(q)] = 1.0F;
      }
      const int m = jax_random::ChoiceWeighted(move_key, p);
      grid_[m] = 2 + 3 * i;
      position_[i] = {m / kSize, m % kSize};
      target_[i] = {-1, -1};
    }
    auto mask = ActionMasks();
    auto any_move = [&mask] {
      for (int i = 0; i < kAgents; ++i) {
        for (int a = 1; a < 5; ++a) {
          if (mask[i * 5 + a]) return true;
        }
      }
      return false;
    };
    for (int walk = 1; any_move() && walk < kWalkSteps; ++walk) {
      const Key key = jax_random::SplitAt(step_key, 0);
      step_key = jax_random::SplitAt(step_key, 1);
      std::array<Pos, kAgents> next{};
      for (int i = 0; i < kAgents; ++i) {
        next[i] = Move(position_[i], WalkAction(jax_random::SplitAt(key, i), &mask[i * 5],
                                                start[i], position_[i]));
      }
      const auto collided = RepeatedLater(next);
      for (int i = 0; i < kAgents; ++i) {
        if (collided[i]) next[i] = position_[i];
        if (next[i] == position_[i]) continue;
        grid_[Index(position_[i])] -= 1;
        grid_[Index(next[i])] += 2 + 3 * i;
      }
      position_ = next;
      mask = ActionMasks();
    }
    // the walks' ends are the targets; the agents start again at their starts
    grid_.fill(0);
    for (int i = 0; i < kAgents; ++i) {
      target_[i] = position_[i];
      position_[i] = start[i];
      grid_[Index(start[i])] = 2 + 3 * i;
    }
    for (int i = 0; i < kAgents; ++i) grid_[Index(target_[i])] = 3 + 3 * i;
  }

  // utils.get_surrounded_mask: every in-grid 4-neighbour of cell c is occupied.
  bool Surrounded(int c) const {
    const Pos p{c / kSize, c % kSize};
    for (int a = 1; a < 5; ++a) {
      const Pos q = Move(p, a);
      if (InBounds(q) && grid_[Index(q)] <= 0) return false;
    }
    return true;
  }

  // RandomWalkGenerator._select_action (temperature 1).
  static int WalkAction(const Key& key, const bool* mask, const Pos& start, const Pos& pos) {
    const int d0 = pos[0] - start[0];
    const int d1 = pos[1] - start[1];
    const int dots[4] = {-d0, d1, d0, -d1};
    const int top = *std::max_element(dots, dots + 4);
    float e[4];
    for (int a = 0; a < 4; ++a) e[a] = std::exp(static_cast<float>(dots[a] - top));
    const float total = ((e[0] + e[1]) + e[2]) + e[3];
    std::vector<float> p(4);
    bool can_move = false;
    for (int a = 0; a < 4; ++a) {
      p[a] = e[a] / total * (mask[a + 1] ? 1.0F : 0.0F);
      can_move = can_move || mask[a + 1];
    }
    if (!can_move) return 0;
    const float norm = ((p[0] + p[1]) + p[2]) + p[3];
    for (auto& v : p) v /= norm;
    return 1 + jax_random::ChoiceWeighted(key, p);
  }

  Picture Draw() const override {
    Picture pic = MakePicture(kSize, kSize);
    for (int c = 0; c < kCells; ++c) {
      const std::int32_t v = grid_[c];
      pic.cells[c] = v == 0 ? -1 : (v - 1) / 3;
    }
    return pic;
  }

  std::array<std::int32_t, kCells> grid_{};
  std::array<Pos, kAgents> position_{};
  std::array<Pos, kAgents> target_{};
  std::array<bool, kAgents * 5> mask_{};
  std::array<float, kAgents> rewards_{};
  std::int32_t step_count_ = 0;
  Key key_{};
};

}  // namespace envpool::jumanji
