// The shared base of the PGX games (pgx 2.6.0, pgx/core.py's Env), which every
// game header (tic_tac_toe.h, connect_four.h, ...) derives from.
//
// pgx's Env.step(state, action, key), as restated here:
//   is_illegal = ~state.legal_action_mask[action]; loser = state.current_player
//   state = _step(state with _step_count + 1, action, key)   (the game's rule,
//            run on the illegal action too: its board changes stay)
//   if is_illegal: rewards = (num_players - 1) * -penalty for everyone, penalty for
//            the loser (penalty -1, Backgammon's -3); terminated = True
//   if terminated: legal_action_mask = all True
// pgx never truncates (truncated stays False); the pool's max_episode_steps does.
// A terminal state is never stepped: the pool resets the env first (autoreset).
//
// Keys: each env keeps a jax key chain as gymnasium's FunctionalJaxEnv does
// (envs/common/jax_random.h's KeyChain): the env's seed s (the pool's seed + the
// env's index) sets key = PRNGKey(s); every reset takes `use, key = split(key)` and
// runs init(use), every step takes the next `use` and passes it to step(state,
// action, use) (the deterministic games ignore it). So env i of a pool made with
// seed=s starts its first episode at pgx's init(split(PRNGKey(s + i))[0]).
//
// Two-player games (max_num_players = 2) write, per player p (0 and 1, in that
// order): the observation _observe(state, p), its reward rewards[p] (info
// "reward", which the pool returns as the players' rewards), and players.id = p;
// per env: current_player and legal_action_mask, then the game's own info arrays.
// One-player games (2048) are plain envs: one observation, the scalar reward.
//
// State and frames: GetState gives pgx's State of the env as its pytree leaves (envs/common/
// state_leaves.h's StateLeaves: current_player, observation (pgx's observe(state), the
// current player's), rewards, terminated, truncated, legal_action_mask, _step_count, then
// the game's own fields, WriteState), from which envpool/tasks/pgx_frames.py rebuilds pgx's
// own State and draws it with pgx's own SVG (state.to_svg()), rasterised by resvg. The
// frame size (PgxFrameSize): render_width x render_height, each side defaulting to sail-sg
// EnvPool 1.2.5's for the game; pgx's picture fitted inside it undistorted, centred on
// white (at pgx's own SVG size: pgx's picture itself).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/env.h"
#include "envs/common/jax_random.h"
#include "envs/common/state_leaves.h"

namespace envpool::pgx {

using jax_random::Key;

// jax.random.bernoulli(key) (p = 0.5): uniform(key, (), float32) < 0.5.
inline bool Bernoulli(const Key& key) {
  return jax_random::UniformF32(key, 0, 0.0F, 1.0F, false) < 0.5F;
}

class PgxEnv : public Env {
 public:
  // The fields every game's info starts with (two-player games; a one-player game
  // has only kInfoMask, at index 0).
  static constexpr std::size_t kInfoReward = 0;
  static constexpr std::size_t kInfoPlayerId = 1;
  static constexpr std::size_t kInfoCurrentPlayer = 2;
  static constexpr std::size_t kInfoMask = 3;
  static constexpr std::size_t kInfoFirstExtra = 4;

  // The spec of a game: `obs` is one player's observation, `extra_info` the game's
  // own info arrays (after the common ones).
  static EnvSpec MakePgxSpec(int num_players, ArraySpec obs, std::int64_t num_actions,
                             std::vector<ArraySpec> extra_info, double reward_low = -1.0,
                             double reward_high = 1.0) {
    EnvSpec spec;
    spec.action = DiscreteSpec("action", num_actions, DType::kInt32);
    spec.reward_low = reward_low;
    spec.reward_high = reward_high;
    ArraySpec mask = BoxSpec("legal_action_mask", DType::kBool, {num_actions}, {0.0}, {1.0});
    if (num_players > 1) {
      spec.max_num_players = num_players;
      obs.per_player = true;
      ArraySpec reward = BoxSpec("reward", DType::kFloat32, {}, {reward_low}, {reward_high});
      reward.per_player = true;
      ArraySpec id = BoxSpec("players.id", DType::kInt32, {}, {0.0},
                             {static_cast<double>(num_players - 1)});
      id.per_player = true;
      spec.info = {reward, id,
                   BoxSpec("current_player", DType::kInt32, {}, {0.0},
                           {static_cast<double>(num_players - 1)}),
                   mask};
    } else {
      spec.info = {mask};
    }
    spec.obs = {std::move(obs)};
    for (ArraySpec& a : extra_info) spec.info.push_back(std::move(a));
    return spec;
  }

  PgxEnv(int num_players, std::int64_t num_actions, std::int64_t obs_size,
         float illegal_penalty = -1.0F)
      : num_players_(num_players),
        obs_size_(obs_size),
        illegal_penalty_(illegal_penalty),
        rewards_(static_cast<std::size_t>(num_players), 0.0F),
        mask_(static_cast<std::size_t>(num_actions), true) {}

  void Seed(std::uint64_t seed) override { keys_.Seed(seed); }

  void Reset(Rng& /*rng*/) override {
    step_count_ = 0;
    terminated_ = false;
    current_player_ = 0;
    std::fill(rewards_.begin(), rewards_.end(), 0.0F);
    Init(keys_.Next());
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const Key key = keys_.Next();
    const int a = action.Scalar<std::int32_t>();
    const bool illegal = !mask_[static_cast<std::size_t>(a)];
    const int loser = current_player_;
    ++step_count_;
    std::fill(rewards_.begin(), rewards_.end(), 0.0F);
    GameStep(a, key);
    if (illegal) {
      // _step_with_illegal_action: ones * (-1 * penalty) * (num_players - 1), the
      // loser's set to the penalty.
      const float others = -illegal_penalty_ * static_cast<float>(num_players_ - 1);
      std::fill(rewards_.begin(), rewards_.end(), others);
      rewards_[static_cast<std::size_t>(loser)] = illegal_penalty_;
      terminated_ = true;
    }
    if (terminated_) std::fill(mask_.begin(), mask_.end(), true);
    StepOutcome out;
    out.terminated = terminated_;
    double sum = 0.0;
    for (float r : rewards_) sum += r;
    out.reward = num_players_ == 1 ? static_cast<double>(rewards_[0]) : sum;
    return out;
  }

  // The frame of render_width x render_height, each 0 replaced by the id's default size
  // (default_width x default_height: sail-sg EnvPool 1.2.5's frame of the id); pgx's picture
  // is fitted inside it (envpool/tasks/pgx_frames.py). Camera -1 or 0 (one view).
  static FrameSize PgxFrameSize(int width, int height, int camera_id, int default_width,
                                int default_height) {
    if (camera_id != -1 && camera_id != 0) {
      throw std::invalid_argument("the PGX games have one view: camera_id must be -1 or 0, got " +
                                  std::to_string(camera_id));
    }
    const int w = width == 0 ? default_width : width;
    const int h = height == 0 ? default_height : height;
    if (w < 1 || h < 1 || w > 4096 || h > 4096) {
      throw std::invalid_argument("the PGX games draw frames of 1 .. 4096 pixels a side (0: the "
                                  "game's own size), got " + std::to_string(h) + " x " +
                                  std::to_string(w));
    }
    return FrameSize{h, w, 4.0};
  }

  // pgx's State of the env (see above).
  std::vector<double> GetState() const override {
    StateLeaves out;
    out.Scalar(current_player_);
    WriteObservation(out);
    out.Add(rewards_, {num_players_});
    out.Scalar(terminated_);
    out.Scalar(false);  // truncated: pgx never truncates
    out.Add(mask_, {static_cast<int>(mask_.size())});
    out.Scalar(step_count_);
    WriteState(out);
    return out.Take();
  }

  void Write(const Slot& slot) const override {
    WriteObs(slot);
    if (num_players_ > 1) {
      slot.SetNumPlayers(num_players_);
      for (int p = 0; p < num_players_; ++p) {
        slot.Info<float>(kInfoReward)[p] = rewards_[static_cast<std::size_t>(p)];
        slot.Info<std::int32_t>(kInfoPlayerId)[p] = p;
      }
      *slot.Info<std::int32_t>(kInfoCurrentPlayer) = current_player_;
      std::copy(mask_.begin(), mask_.end(), slot.Info<bool>(kInfoMask));
      WriteInfo(slot, kInfoFirstExtra);
    } else {
      std::copy(mask_.begin(), mask_.end(), slot.Info<bool>(0));
      WriteInfo(slot, 1);
    }
  }

 protected:
  // init(key): the game's initial state; sets current_player_, mask_ and its own.
  virtual void Init(const Key& key) = 0;
  // _step(state, action, key): the game's rule; sets rewards_ (zero on entry),
  // terminated_, mask_, current_player_ and its own state.
  virtual void GameStep(int action, const Key& key) = 0;
  // _observe(state, player) as bools (the bool games; others override WriteObs).
  virtual void Observe(int /*player*/, bool* /*out*/) const {}
  // pgx's State.observation: _observe(state, current_player), its leaf.
  virtual void WriteObservation(StateLeaves& out) const = 0;
  // The game's own fields of pgx's State, after _step_count, in tree_leaves order.
  virtual void WriteState(StateLeaves& out) const = 0;
  // The observation of `player` as a bool leaf (the bool games' WriteObservation).
  std::vector<bool> BoolObservation(int player) const {
    auto buffer = std::make_unique<bool[]>(static_cast<std::size_t>(obs_size_));
    Observe(player, buffer.get());
    return std::vector<bool>(buffer.get(), buffer.get() + obs_size_);
  }
  // The game's own info arrays, from index `first` on.
  virtual void WriteInfo(const Slot& slot, std::size_t first) const = 0;
  // Every player's observation, one after the other.
  virtual void WriteObs(const Slot& slot) const {
    bool* obs = slot.Obs<bool>(0);
    for (int p = 0; p < num_players_; ++p) Observe(p, obs + p * obs_size_);
  }

  int num_players_;
  std::int64_t obs_size_;
  float illegal_penalty_;
  std::int32_t step_count_ = 0;
  bool terminated_ = false;
  int current_player_ = 0;
  std::vector<float> rewards_;
  std::vector<bool> mask_;

 private:
  jax_random::KeyChain keys_;
};

// A game's Defaults(): the players (a fixed keyword, as sail-sg EnvPool's config shows
// it) and nothing else.
inline Config PgxDefaults(int num_players) {
  Config config;
  config.Set("max_num_players", std::int64_t{num_players}).In(num_players, num_players);
  return config;
}

}  // namespace envpool::pgx
