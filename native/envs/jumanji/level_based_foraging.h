// LevelBasedForaging-v0: jumanji 1.1.2's environments/routing/lbf (8 x 8 grid, field of
// view 8, 2 agents of level 1 or 2, 2 food items, force_coop, VectorObserver, normalised
// rewards, penalty 0, time limit 100).
//
// Reset: `key_food, key_agents, key_food_level, key_agent_level, key = split(key, 5)`. The
// food (sample_food): with split(key_food, 2)[k], food k is choice(64 cells, p=mask) with
// mask the inner cells (not on the border) not yet next to or under a food (ChoiceWeighted);
// its cell and its 4 neighbours then leave the mask. The agents: choice(64 cells, (2,),
// replace=False, p=mask) where the generator's mask is all cells but the ROWS numbered by the
// food's coordinates (`mask.at[food_positions].set(False)` indexes rows with the (2, 2)
// position array: rows x0, y0, x1, y1); MaskedChoiceWithoutReplacement. Agent levels
// randint(key_agent_level, (2,), 1, 3); every food's level is the sum of the agents'.
//
// Step: moves (0 noop, 1 up, 2 down, 3 left, 4 right, 5 load) against the positions of
// before the step: a move out of the grid, onto another agent or onto uneaten food stays;
// agents that land on the same cell all stay. Loading agents next to an uneaten food add
// their levels; it is eaten when that sum reaches its level. An agent's reward (float32) is,
// per food eaten this step, its level * food level / (sum of loading levels * total food
// level) (nan_to_num: 0 for no loaders), summed over the food; the pool's reward is the sum
// over the agents (as sail-sg EnvPool reports it). The episode ends by termination when all
// food is eaten, by truncation (jumanji's own) at step 100. Info: percent_eaten (float32).
//
// Observation: agents_view, per agent 12 numbers: per food (x, y, level) or (-1, -1, 0) once
// eaten, the agent's own (x, y, level), the other agent's (x, y, level) (everything is within
// the view of 8 on an 8 x 8 grid, so the positions are the grid's); action_mask (a move
// allowed when it stays in the grid off other agents and uneaten food; load when some
// uneaten food is next to the agent); step_count.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "envs/common/keywords.h"
#include "envs/jumanji/jumanji_env.h"

namespace envpool::jumanji {

class LevelBasedForaging final : public JumanjiEnv {
 public:
  static constexpr int kGrid = 8;
  static constexpr int kAgents = 2;
  static constexpr int kFood = 2;
  static constexpr int kMaxLevel = 2;
  static constexpr int kTimeLimit = 100;
  static constexpr int kView = 3 * (kAgents + kFood);
  static constexpr int kLoad = 5;

  struct Params {
    explicit Params(const Config& /*config*/) {}
  };
  static Config Defaults() { return Config(); }

  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec;
    spec.obs_layout = ObsLayout::kDict;
    // max(max food level 4, max agent level 2, grid 8).
    spec.obs.push_back(BoxSpec("agents_view", DType::kInt32, {kAgents, kView}, {-1}, {kGrid}));
    spec.obs.push_back(BoxSpec("action_mask", DType::kBool, {kAgents, 6}));
    spec.obs.push_back(DiscreteSpec("step_count", kTimeLimit + 1, DType::kInt32));
    spec.info.push_back(BoxSpec("percent_eaten", DType::kFloat32, {}));
    spec.action = BoxSpec("action", DType::kInt32, {kAgents}, {0}, {5});
    return spec;
  }

  explicit LevelBasedForaging(const Params& /*params*/) {}
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return JumanjiFrame(width, height, camera_id);
  }

  void Reset(Rng& /*rng*/) override {
    const Key key = ResetKey();
    const Key food_key = jax_random::SplitAt(key, 0);
    const Key agents_key = jax_random::SplitAt(key, 1);
    const Key agent_level_key = jax_random::SplitAt(key, 3);
    key_ = jax_random::SplitAt(key, 4);
    std::vector<float> free(kGrid * kGrid, 0.0F);
    for (int x = 1; x + 1 < kGrid; ++x) {
      for (int y = 1; y + 1 < kGrid; ++y) free[x * kGrid + y] = 1.0F;
    }
    for (int k = 0; k < kFood; ++k) {
      const int flat = jax_random::ChoiceWeighted(jax_random::SplitAt(food_key, k), free);
      for (int c : {flat, flat + 1, flat - 1, flat + kGrid, flat - kGrid}) free[c] = 0.0F;
      food_[k] = {flat / kGrid, flat % kGrid};
      eaten_[k] = false;
    }
    std::vector<bool> allowed(kGrid * kGrid, true);
    for (const auto& f : food_) {
      for (int row : f) {
        for (int y = 0; y < kGrid; ++y) allowed[row * kGrid + y] = false;
      }
    }
    const auto cells = jax_random::MaskedChoiceWithoutReplacement(agents_key, allowed, kAgents);
    int level_sum = 0;
    for (int a = 0; a < kAgents; ++a) {
      agents_[a] = {cells[a] / kGrid, cells[a] % kGrid};
      levels_[a] = jax_random::RandIntAt(agent_level_key, a, 1, kMaxLevel + 1);
      level_sum += levels_[a];
      loading_[a] = false;
    }
    food_level_.fill(level_sum);
    step_count_ = 0;
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const std::int32_t* act = action.As<std::int32_t>();
    // simulate_agent_movement against the positions of before, then fix_collisions.
    std::array<std::array<int, 2>, kAgents> moved{};
    for (int a = 0; a < kAgents; ++a) {
      const std::array<int, 2> next = {agents_[a][0] + kMoves[act[a]][0],
                                       agents_[a][1] + kMoves[act[a]][1]};
      moved[a] = Free(next, a) ? next : agents_[a];
    }
    for (int a = 0; a < kAgents; ++a) {
      bool duplicate = false;
      for (int b = 0; b < kAgents; ++b) duplicate = duplicate || (b != a && moved[b] == moved[a]);
      agents_[a] = duplicate ? agents_[a] : moved[a];
    }
    for (int a = 0; a < kAgents; ++a) loading_[a] = act[a] == kLoad;
    // eat_food per food, then get_reward.
    int total_food_level = 0;
    for (int level : food_level_) total_food_level += level;
    std::array<float, kAgents> rewards{};
    for (int k = 0; k < kFood; ++k) {
      std::array<int, kAgents> adjacent{};
      int sum = 0;
      for (int a = 0; a < kAgents; ++a) {
        adjacent[a] = Adjacent(agents_[a], food_[k]) && loading_[a] && !eaten_[k] ? levels_[a] : 0;
        sum += adjacent[a];
      }
      const bool eaten_now = sum >= food_level_[k];
      eaten_[k] = eaten_[k] || eaten_now;
      const float normalizer = static_cast<float>(sum * total_food_level);
      for (int a = 0; a < kAgents; ++a) {
        const float r = static_cast<float>(adjacent[a] * (eaten_now ? 1 : 0) * food_level_[k]);
        const float q = r / normalizer;
        rewards[a] += std::isnan(q) ? 0.0F : q;
      }
    }
    ++step_count_;
    bool all = true;
    for (bool e : eaten_) all = all && e;
    float reward = 0.0F;
    for (float r : rewards) reward += r;
    return Outcome(reward, all ? StepType::kTermination
                               : (step_count_ >= kTimeLimit ? StepType::kTruncation
                                                            : StepType::kMid));
  }

  void Write(const Slot& slot) const override {
    std::int32_t* view = slot.Obs<std::int32_t>(0);
    bool* mask = slot.Obs<bool>(1);
    for (int a = 0; a < kAgents; ++a) {
      std::int32_t* v = view + a * kView;
      for (int k = 0; k < kFood; ++k) {
        v[3 * k] = eaten_[k] ? -1 : food_[k][0];
        v[3 * k + 1] = eaten_[k] ? -1 : food_[k][1];
        v[3 * k + 2] = eaten_[k] ? 0 : food_level_[k];
      }
      int slot_index = kFood;
      for (int b : {a, 1 - a}) {
        v[3 * slot_index] = agents_[b][0];
        v[3 * slot_index + 1] = agents_[b][1];
        v[3 * slot_index + 2] = levels_[b];
        ++slot_index;
      }
      bool food_near = false;
      for (int k = 0; k < kFood; ++k) food_near = food_near || (!eaten_[k] && Adjacent(agents_[a], food_[k]));
      for (int m = 0; m < 6; ++m) {
        const std::array<int, 2> next = {agents_[a][0] + kMoves[m][0], agents_[a][1] + kMoves[m][1]};
        mask[a * 6 + m] = Free(next, a) && (m != kLoad || food_near);
      }
    }
    *slot.Obs<std::int32_t>(2) = step_count_;
    int eaten = 0;
    for (bool e : eaten_) eaten += e ? 1 : 0;
    *slot.Info<float>(0) = static_cast<float>(eaten) / static_cast<float>(kFood) * 100.0F;
  }

 private:
  // MOVES: noop, up, down, left, right, load as (x, y) steps.
  static constexpr int kMoves[6][2] = {{0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}, {0, 0}};

  static bool Adjacent(const std::array<int, 2>& a, const std::array<int, 2>& b) {
    return std::abs(a[0] - b[0]) + std::abs(a[1] - b[1]) == 1;
  }

  // Inside the grid, no other agent and no uneaten food there.
  bool Free(const std::array<int, 2>& cell, int agent) const {
    if (cell[0] < 0 || cell[0] >= kGrid || cell[1] < 0 || cell[1] >= kGrid) return false;
    for (int b = 0; b < kAgents; ++b) {
      if (b != agent && agents_[b] == cell) return false;
    }
    for (int k = 0; k < kFood; ++k) {
      if (!eaten_[k] && food_[k] == cell) return false;
    }
    return true;
  }

  // jumanji's State (chex dataclasses: their fields sorted by name): agents (Agent: id,
  // level, loading, position), food_items (Food: eaten, id, level, position), key (the
  // generator's, never used again), step_count.
  void WriteState(StateLeaves& out) const override {
    std::array<int, kAgents> agent_ids{};
    for (int a = 0; a < kAgents; ++a) agent_ids[a] = a;
    std::array<int, kFood> food_ids{};
    for (int k = 0; k < kFood; ++k) food_ids[k] = k;
    out.Add(agent_ids, {kAgents}).Add(levels_, {kAgents}).Add(loading_, {kAgents});
    out.AddRows(agents_, {kAgents, 2}).Add(eaten_, {kFood}).Add(food_ids, {kFood});
    out.Add(food_level_, {kFood}).AddRows(food_, {kFood, 2}).KeyLeaf(key_).Scalar(step_count_);
  }

  std::array<std::array<int, 2>, kAgents> agents_{};
  std::array<int, kAgents> levels_{};
  std::array<bool, kAgents> loading_{};
  std::array<std::array<int, 2>, kFood> food_{};
  std::array<int, kFood> food_level_{};
  std::array<bool, kFood> eaten_{};
  std::int32_t step_count_ = 0;
  Key key_{};
};

}  // namespace envpool::jumanji
