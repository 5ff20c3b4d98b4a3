// Connector-v3: jumanji 1.1.2's environments/routing/connector (10 x 10 grid, 10 agents,
// RandomWalkGenerator(10, 10), DenseRewardFn, time_limit 50). jumanji 1.1.2 registers
// this env as Connector-v3 (its v2, in jumanji 1.1.1, had another generator and step).
//
// Grid, masks, rewards and extras: connector_common.h.
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

#include "envs/jumanji/connector_common.h"

namespace envpool::jumanji {

class Connector final : public ConnectorBase {
 public:
  static constexpr int kWalkSteps = 15;  // int(grid_size * 1.5)

  explicit Connector(const Params& params) : ConnectorBase(params) {}

  void Reset(Rng& /*rng*/) override {
    Start([this](const Key& board_key) { Generate(board_key); });
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const std::int32_t* actions = action.As<std::int32_t>();
    const auto was_connected = ConnectedNow();
    std::array<Pos, kAgents> next{};
    for (int i = 0; i < kAgents; ++i) {
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
    ++step_count_;
    bool done = false;
    const float reward = Settle(was_connected, &done);
    const StepType type = done ? StepType::kTermination
                               : (step_count_ >= kTimeLimit ? StepType::kTruncation
                                                            : StepType::kMid);
    return Outcome(reward, type);
  }

 private:
  // utils.is_repeated_later: whether a later agent has the same new cell.
  static std::array<bool, kAgents> RepeatedLater(const std::array<Pos, kAgents>& next) {
    std::array<bool, kAgents> out{};
    for (int i = 0; i < kAgents; ++i) {
      for (int j = i + 1; j < kAgents; ++j) out[i] = out[i] || next[i] == next[j];
    }
    return out;
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
};

}  // namespace envpool::jumanji
