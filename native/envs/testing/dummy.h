// _Dummy: the core's multi-player test env, with the dynamics of sail-sg
// EnvPool's dummy env (envpool/dummy, which EnvPool's core test drives). Not a
// task: envpool.dummy.dummy_envpool (envpool/envpool_paths.py) makes its pools.
//
// An env's seed is its episode length (at least 1): it terminates once `state`
// (the steps since reset) reaches it. At every step it has
// n = max_num_players <= 1 ? 1 : state % (max_num_players - 1) + 1 players, and
// for player i it writes
//   obs "raw"  (state_num int32):  [state, players' actions received last step,
//                                    the players.action received i-th (else -1), 0, ...]
//   obs "dyn"  (a container):       an (env_id + 1) x state_num int32 array of env_id
//   info "reward" (its reward):     -i;  "players.done": terminated;  "players.id": i.
// Its action is "list_action" (action_num float64 values, which must be equal)
// plus the players' "players.action" and "players.id" (int32, one per player).
// (sail-sg EnvPool's dummy leaves raw[i][2] at 0; this one echoes the players'
// actions there, so that tests see what reached the env, and in what order.)
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/env.h"

namespace envpool::testing {

class Dummy final : public Env {
 public:
  struct Params {
    explicit Params(const Config& config)
        : state_num(config.GetInt("state_num")),
          action_num(config.GetInt("action_num")),
          max_num_players(config.GetInt("max_num_players")) {
      if (state_num < 3) throw std::invalid_argument("state_num must be >= 3");
      if (action_num < 1) throw std::invalid_argument("action_num must be >= 1");
      if (max_num_players < 1 || max_num_players > 1024) {
        throw std::invalid_argument("max_num_players must be in 1 .. 1024");
      }
    }
    std::int64_t state_num, action_num, max_num_players;
  };

  static Config Defaults() {
    Config config;
    config.Set("state_num", std::int64_t{10});
    config.Set("action_num", std::int64_t{6});
    config.Set("max_num_players", std::int64_t{1});
    return config;
  }

  static EnvSpec MakeSpec(const Params& params) {
    EnvSpec spec;
    spec.max_num_players = static_cast<int>(params.max_num_players);
    spec.obs_layout = ObsLayout::kDict;
    ArraySpec raw = BoxSpec("raw", DType::kInt32, {params.state_num});
    raw.per_player = true;
    ArraySpec dyn = BoxSpec("dyn", DType::kInt32, {-1, params.state_num});
    dyn.per_player = true;
    dyn.container = true;
    spec.obs = {raw, dyn};
    ArraySpec reward = BoxSpec("reward", DType::kFloat32, {});
    reward.per_player = true;
    ArraySpec done = BoxSpec("players.done", DType::kBool, {});
    done.per_player = true;
    ArraySpec id = BoxSpec("players.id", DType::kInt32, {}, {0.0},
                           {static_cast<double>(params.max_num_players)});
    id.per_player = true;
    spec.info = {reward, done, id};
    spec.action = BoxSpec("list_action", DType::kFloat64, {params.action_num});
    spec.player_actions = {BoxSpec("players.action", DType::kInt32, {}),
                           BoxSpec("players.id", DType::kInt32, {})};
    for (ArraySpec& a : spec.player_actions) a.per_player = true;
    return spec;
  }

  explicit Dummy(const Params& params) : params_(params) {}

  void SetEnvId(int env_id) override { env_id_ = env_id; }
  void Seed(std::uint64_t seed) override {
    const auto top = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    length_ = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::min(seed, top)));
  }

  void Reset(Rng& /*rng*/) override {
    state_ = 0;
    actions_received_ = 0;
    received_.clear();
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    ++state_;
    actions_received_ = action.NumPlayers();
    received_.assign(action.Player<std::int32_t>(0), action.Player<std::int32_t>(0) +
                                                         actions_received_);
    const double* list_action = action.As<double>();
    for (std::int64_t k = 1; k < params_.action_num; ++k) {
      if (list_action[k] != list_action[0]) {
        throw std::invalid_argument("_Dummy: the values of list_action must be equal (env " +
                                    std::to_string(env_id_) + ")");
      }
    }
    const int n = NumPlayers();
    return StepOutcome{-0.5 * n * (n - 1), Done(), false};  // the players' rewards summed
  }

  void Write(const Slot& slot) const override {
    const int n = NumPlayers();
    slot.SetNumPlayers(n);
    const std::int64_t width = params_.state_num;
    std::int32_t* raw = slot.Obs<std::int32_t>(0);
    std::fill(raw, raw + n * width, 0);
    for (int i = 0; i < n; ++i) {
      raw[i * width] = static_cast<std::int32_t>(state_);
      raw[i * width + 1] = actions_received_;
      raw[i * width + 2] = i < actions_received_ ? received_[static_cast<std::size_t>(i)] : -1;
      std::int32_t* dyn = slot.Container(1, i).Assign<std::int32_t>({env_id_ + 1, width});
      std::fill(dyn, dyn + (env_id_ + 1) * width, env_id_);
      slot.Info<float>(0)[i] = static_cast<float>(-i);
      slot.Info<bool>(1)[i] = Done();
      slot.Info<std::int32_t>(2)[i] = i;
    }
  }

 private:
  int NumPlayers() const {
    const std::int64_t max = params_.max_num_players;
    return static_cast<int>(max <= 1 ? 1 : state_ % (max - 1) + 1);
  }
  bool Done() const { return state_ >= length_; }

  Params params_;
  int env_id_ = 0;
  std::int64_t length_ = 1;
  std::int64_t state_ = 0;
  int actions_received_ = 0;
  std::vector<std::int32_t> received_;  // the players.action values, in the order received
};

}  // namespace envpool::testing
