// The pool: `num_envs` environments stepped by a set of worker threads.
//
//   send(actions, env_ids)  -> one task per env on the task queue
//   worker: Step()/Reset() the env, claim a row of a batch, Write() into it
//   recv()                  -> the next complete batch, wrapped by numpy as is
//
// Its stages, one file each (a header, and a .cc where it needs one):
//
//   admission.h       Send's ids and actions checked, each action converted into
//                     the env's row of the action table (the calling thread)
//   task_queue.h      the queue of tasks (a step, a reset or a render of one env)
//   batch_recycler.h  the batches rows are written into, recycled once free
//   workers.h         the envs, the threads that run the tasks, render jobs
//   recv.h            completion (batches, render jobs, errors) and Recv's wait
//
// and this file, which ties them together: the options, the envs' setups and
// the calls of the public interface.
//
// Sync mode (batch_size == num_envs): rows are assigned at send time, so recv
// returns exactly the envs sent since the last recv, in the order sent. A
// recv without timeout steps queued envs on the calling thread while it
// waits, so a send of one env wakes no worker at all (Ctrl-C is then seen
// between steps, not during one).
// Async mode (batch_size < num_envs): a row is claimed when an env finishes,
// so recv returns the first batch_size envs to finish, with their env_id.
// A recv without timeout steps queued envs on the calling thread here too.
//
// Render(env_ids) queues one render task per env on the same task queue; the
// workers draw each frame into its row of a (n, H, W, 3) array while the
// caller helps and waits. Stepping pays nothing for it: a task is a step, a
// reset or a render, told apart by one pointer.
//
// Threading contract: Send/Recv/Render/Close are called from one thread at a
// time (the Python binding holds the GIL for them). Workers only touch an env
// between the send that queued it and the recv that delivers it, or during a
// render of it (only idle envs are rendered).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "core/admission.h"
#include "core/batch.h"
#include "core/batch_recycler.h"
#include "core/env.h"
#include "core/pool_options.h"
#include "core/recv.h"
#include "core/task_queue.h"
#include "core/workers.h"

namespace envpool {

class Pool {
 public:
  // One setup per env (options.num_envs of them); see EnvSetup.
  Pool(std::vector<EnvSetup> setups, PoolOptions options);
  // Every env from one factory: the uniform pool.
  Pool(std::unique_ptr<EnvFactory> factory, PoolOptions options);
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;
  ~Pool();

  const EnvSpec& spec() const { return setups_.front().factory->Spec(); }
  const PoolOptions& options() const { return options_; }
  bool is_sync() const { return options_.batch_size == options_.num_envs; }
  int num_threads() const { return workers_.num_threads(); }
  bool closed() const { return closed_; }

  // Queues one step per env. `actions` holds n rows of the action, of type
  // `dtype` (int32/int64 for discrete actions, float32/float64 otherwise);
  // each is checked (range, finiteness) and converted. All or nothing: on a
  // bad id or action nothing is queued and std::invalid_argument is thrown.
  // An env never reset is reset instead, or refused (first_step_resets).
  void Send(const void* actions, DType dtype, const std::int64_t* env_ids, int n);
  // Multi-player envs (EnvSpec::max_num_players > 0): Send, plus `num_player_actions`
  // players' actions: player p acts in env player_env_ids[p] (one of env_ids), and
  // array k of EnvSpec::player_actions holds its value at row p of player_arrays[k]
  // (of type player_dtypes[k]). An env's players keep the order they were sent in.
  // All or nothing, as Send: a player of an env not sent, more players for an env
  // than max_num_players or a bad value throws std::invalid_argument.
  void SendPlayers(const void* actions, DType dtype, const std::int64_t* env_ids, int n,
                   const std::int64_t* player_env_ids, int num_player_actions,
                   const std::vector<const void*>& player_arrays,
                   const std::vector<DType>& player_dtypes);
  // Queues a reset of each env; `seeds` (nullable) reseeds them first: the
  // env's Rng, then Env::Seed, then Reset, on the thread that runs the reset.
  void SendReset(const std::int64_t* env_ids, int n, const std::uint64_t* seeds);
  // Waits for the next batch. `timeout_seconds` < 0 waits forever; `poll` is
  // called every few milliseconds while waiting (it may throw, e.g. on
  // Ctrl-C). Throws TimeoutError, or whatever a worker threw.
  std::shared_ptr<Batch> Recv(double timeout_seconds, const std::function<void()>& poll);
  // The frame Render draws for these arguments (EnvFactory::RenderSize of env
  // 0's factory), or std::nullopt when the envs do not render.
  std::optional<FrameSize> RenderSize(int width, int height, int camera_id) const;
  // Draws the current frame of each env of `env_ids` (idle envs, each listed
  // once) on the worker threads, the calling thread helping: a uint8 column of
  // n rows of (H, W, 3). All or nothing: a bad id, an env in flight or envs
  // that do not render throw std::invalid_argument before anything is queued;
  // an exception from an env's Render is rethrown once every task is done (the
  // pool stays usable). The column is reused by a later call once nothing
  // else holds it.
  std::shared_ptr<Column> Render(const std::int64_t* env_ids, int n, int width, int height,
                                 int camera_id);
  // The internal state of an env that is not in flight (Env::GetState).
  std::vector<double> GetState(int env_id) const;
  void SetState(int env_id, const std::vector<double>& state);
  // The values drawn for an idle env's current episode, in the order of its
  // ranges (empty for an env without ranges).
  const std::vector<double>& Drawn(int env_id) const;
  // Each thread's stage times so far, the calling thread's first, then each
  // worker's; empty unless PoolOptions::stage_times (stage_clock.h).
  std::vector<StageTimes> StageReport() const { return workers_.StageReport(); }
  // How many of `most` sleeping workers a send of `n` envs would wake now
  // (Workers::WorthWaking).
  int WorthWaking(int n, int most) const { return workers_.WorthWaking(n, most); }
  // Stops the workers; idempotent. Every later call throws.
  void Close();

 private:
  // The options completed (defaults filled in) and checked against the setups.
  static PoolOptions Checked(const std::vector<EnvSetup>& setups, PoolOptions options);
  void CheckUsable() const;
  const Workers::EnvState& IdleEnv(int env_id) const;
  // Queues the admitted ids (Send's and SendReset's last part).
  void Enqueue(const std::int64_t* env_ids, int n);
  void Commit(const std::int64_t* env_ids, int n);  // Send's: first starts reset

  std::vector<EnvSetup> setups_;  // one per env
  PoolOptions options_;
  Admission admission_;
  TaskQueue queue_;
  BatchRecycler batches_;
  Completion completion_;
  Workers workers_;
  std::shared_ptr<Batch> pending_;  // sync mode: the batch being filled (caller thread)
  bool closed_ = false;
};

}  // namespace envpool
