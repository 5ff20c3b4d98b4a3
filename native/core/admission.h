// The pool's first stage (pool.h): admission of what Send, SendPlayers and
// SendReset are given, on the calling thread. The env ids are checked (in
// range, not in flight, listed once) and marked in flight; each env's action
// row is checked (range, finiteness) and converted to the type of the env's
// action spec, into the env's row of the action table, where the worker that
// steps the env reads it. All or nothing: on a bad id or value nothing stays
// marked and std::invalid_argument (or ResetNeeded) is thrown.
//
// Admission also keeps the caller's view of each env: in flight (sent, not
// yet delivered by Recv), ended its episode in the last delivered row, and
// started (reset, or given a state, at least once).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "core/batch.h"
#include "core/dtype.h"
#include "core/spec.h"

namespace envpool {

// Raised by Send for an env that was never reset, unless
// PoolOptions::first_step_resets.
class ResetNeeded : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// Checks row `row` of `src` (rows of `spec`'s shape, of type `dtype`: int32 or
// int64 for discrete actions, int32, int64, float32 or float64 otherwise) and
// writes it to `dst` as `spec` types it. Throws std::invalid_argument, naming
// `env_id`, for a value out of the spec's range or bounds, a float that is not
// finite, a float for a discrete action or an unsupported dtype.
void ConvertAction(const void* src, DType dtype, std::int64_t row, std::byte* dst,
                   const ArraySpec& spec, std::int64_t env_id);

class Admission {
 public:
  Admission(const EnvSpec& spec, int num_envs);

  // Marks the ids in flight after checking them (at least one, each in range,
  // not in flight, listed once); throws std::invalid_argument with none marked.
  void Admit(const std::int64_t* env_ids, int n);
  // Admit, then for each env: refuses a step to an env never started unless
  // `first_step_resets` (ResetNeeded) and to an env that ended its episode
  // when `autoreset_disabled`, and converts its action row of `actions`
  // into the table. Throws with none marked.
  void AdmitActions(const void* actions, DType dtype, const std::int64_t* env_ids, int n,
                    bool first_step_resets, bool autoreset_disabled);
  // After AdmitActions of the same ids, for a multi-player env: records the
  // envs sent without players' actions.
  void NoPlayers(const std::int64_t* env_ids, int n) {
    if (player_counts_.empty()) return;
    for (int k = 0; k < n; ++k) player_counts_[env_ids[k]] = 0;
  }
  // After AdmitActions of the same ids, for a multi-player env: the players'
  // actions (Pool::SendPlayers). Throws with the ids released.
  void AdmitPlayers(const std::int64_t* env_ids, int n, const std::int64_t* player_env_ids,
                    int num_player_actions, const std::vector<const void*>& player_arrays,
                    const std::vector<DType>& player_dtypes);
  // Marks admitted ids no longer in flight (a send refused after admission).
  void Release(const std::int64_t* env_ids, int n);
  // Marks the env started; returns whether it had never been.
  bool Start(int env_id) {
    const bool first = started_[env_id] == 0;
    started_[env_id] = 1;
    return first;
  }
  // Recv: the envs of a delivered batch are no longer in flight, and each
  // remembers whether its row ended an episode.
  void Deliver(Batch& batch);

  bool in_flight(int env_id) const { return busy_[env_id] != 0; }
  int num_in_flight() const { return in_flight_; }
  int num_envs() const { return static_cast<int>(busy_.size()); }

  // Read by the worker that steps the env: its action row, and its players'
  // actions (the number sent, and one pointer per array of
  // EnvSpec::player_actions into `arrays`).
  const std::byte* Action(int env_id) const {
    return actions_.data() + action_bytes_ * static_cast<std::size_t>(env_id);
  }
  bool has_players() const { return !player_counts_.empty(); }
  int PlayerActions(int env_id, std::vector<const std::byte*>& arrays) const {
    arrays.clear();
    const auto offset = static_cast<std::size_t>(env_id) * max_players_;
    for (std::size_t a = 0; a < player_actions_.size(); ++a) {
      arrays.push_back(player_actions_[a].data() + player_bytes_[a] * offset);
    }
    return player_counts_[env_id];
  }

 private:
  const EnvSpec& spec_;
  std::vector<std::byte> actions_;  // one action row per env
  std::size_t action_bytes_ = 0;
  // Multi-player envs: per player action array, max_num_players values per
  // env, and the number of players' actions each env was sent.
  std::vector<std::vector<std::byte>> player_actions_;
  std::vector<std::size_t> player_bytes_;  // bytes of one player's value, per array
  std::vector<int> player_counts_;
  std::size_t max_players_ = 0;

  std::vector<std::uint8_t> busy_;     // sent, not yet delivered
  std::vector<std::uint8_t> done_;     // the last delivered row ended an episode
  std::vector<std::uint8_t> started_;  // reset (or given a state) at least once
  int in_flight_ = 0;                  // envs busy
};

}  // namespace envpool
