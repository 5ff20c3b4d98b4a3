// The pool: `num_envs` environments stepped by a set of worker threads.
//
//   send(actions, env_ids)  -> one task per env on the task queue
//   worker: Step()/Reset() the env, claim a row of a batch, Write() into it
//   recv()                  -> the next complete batch, wrapped by numpy as is
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

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/batch.h"
#include "core/env.h"

namespace envpool {

enum class AutoresetMode : std::uint8_t {
  kNextStep,  // the step after a done one resets (action ignored, reward 0)
  kSameStep,  // the done step returns the reset obs; final obs/info kept aside
  kDisabled,  // the user resets done envs; stepping one raises
};

struct PoolOptions {
  int num_envs = 1;
  int batch_size = 0;            // 0: num_envs
  int num_threads = 0;           // 0: min(batch_size, cores - 1), at least 1
  int max_episode_steps = 0;     // 0: no time limit from the pool
  AutoresetMode autoreset = AutoresetMode::kNextStep;
  std::vector<std::uint64_t> seeds;  // one per env (its Rng and Env::Seed); empty: 0, 1, 2, ...
  int thread_affinity_offset = -1;   // >= 0: pin worker i to core offset + i
  // A step sent to an env that was never reset (nor given a state with
  // SetState): true turns it into the env's first reset, its action ignored,
  // as sail-sg EnvPool does; false refuses it with ResetNeeded (gymnasium's
  // rule). Never a step from an unset state.
  bool first_step_resets = true;
};

// A keyword drawn uniformly from [low, high) out of the env's Rng before each
// of its resets (domain randomisation).
struct ParamRange {
  std::string key;
  double low = 0.0;
  double high = 0.0;
};

// How one env of a pool is built. Envs with equal configurations share one
// factory (and what it holds); every factory must give the same spaces.
struct EnvSetup {
  std::shared_ptr<const EnvFactory> factory;
  // With ranges only: the env's configuration, into which the drawn values
  // go before EnvFactory::CreateWith rebuilds the env for the next episode.
  Config config;
  std::vector<ParamRange> ranges;
};

// Raised by Recv when the timeout passes first.
class TimeoutError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Raised by Send for an env that was never reset, unless
// PoolOptions::first_step_resets.
class ResetNeeded : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

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
  int num_threads() const { return static_cast<int>(workers_.size()); }
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
  // Stops the workers; idempotent. Every later call throws.
  void Close();

 private:
  struct EnvState {
    std::unique_ptr<Env> env;
    Rng rng;
    int elapsed = 0;
    bool needs_reset = false;     // next-step mode: the last step ended an episode
    bool reset_requested = false;  // the queued task is a reset
    std::optional<std::uint64_t> reseed;
    std::vector<double> drawn;  // this episode's values of the env's ranges
  };
  // One Render call: where its frames go and what is left of it. Lives on the
  // calling thread's stack; Render returns only once `left` is 0.
  struct RenderJob {
    Column* frames;
    int width, height, camera_id;
    std::atomic<int> left{0};
    std::mutex mu;  // guards error
    std::exception_ptr error;
  };
  struct Task {
    int env_id;
    std::shared_ptr<Batch> batch;  // sync mode: the batch and row assigned at send time
    int row;                       // (render tasks: the frame's row)
    RenderJob* render = nullptr;   // set for a render task
  };
  struct Scratch {
    std::vector<std::byte*> obs, info;
    std::vector<const std::byte*> players;  // the stepped env's player action arrays
  };

  void CheckUsable() const;
  // Checks the sent ids and converts their actions (Send's first part); throws
  // with every id admitted rolled back.
  void AdmitActions(const void* actions, DType dtype, const std::int64_t* env_ids, int n);
  void Commit(const std::int64_t* env_ids, int n);  // Send's last part
  const EnvState& IdleEnv(int env_id) const;
  // Marks ids busy after checking them; rolls back and throws on a bad one.
  void Admit(const std::int64_t* env_ids, int n);
  void Enqueue(const std::int64_t* env_ids, int n);
  std::shared_ptr<Batch> AcquireBatch(int size);
  std::shared_ptr<Batch> AcquireBatchLocked(int size);  // batch_mu_ held
  std::pair<std::shared_ptr<Batch>, int> ClaimRow();
  bool RunQueued(Scratch& scratch);  // runs a few queued tasks; false if none
  void Run(const Task& task, Scratch& scratch);
  void RunRender(const Task& task);
  void ResetEnv(int env_id);  // draws the env's ranges (if any), then Env::Reset
  void WriteRow(Batch& batch, int row, bool final_part, const EnvState& e, Scratch& scratch);
  void WorkerLoop(int index);

  std::vector<EnvSetup> setups_;  // one per env
  PoolOptions options_;
  std::vector<EnvState> envs_;
  std::vector<std::byte> actions_;  // one action row per env
  std::size_t action_bytes_ = 0;
  // Multi-player envs: per player action array, max_num_players values per env,
  // and the number of players' actions each env was sent.
  std::vector<std::vector<std::byte>> player_actions_;
  std::vector<std::size_t> player_bytes_;  // bytes of one player's value, per array
  std::vector<int> player_counts_;

  // Caller-thread bookkeeping.
  std::vector<std::uint8_t> busy_;  // sent, not yet delivered
  std::vector<std::uint8_t> done_;  // the last delivered row ended an episode
  std::vector<std::uint8_t> started_;  // reset (or given a state) at least once
  int outstanding_ = 0;             // envs busy
  std::shared_ptr<Batch> pending_;  // sync mode: the batch being filled
  std::string broken_;              // set once a worker failed
  bool closed_ = false;

  // Task queue.
  std::mutex task_mu_;
  std::condition_variable task_cv_;
  std::deque<Task> tasks_;
  bool stop_ = false;
  int sleepers_ = 0;                  // workers waiting on task_cv_
  std::atomic<int> queued_{0};        // tasks_.size(), for spinning workers
  std::atomic<bool> stopping_{false};  // stop_, for spinning workers

  // Batches: recycled once nothing outside the pool holds them.
  std::mutex batch_mu_;
  std::vector<std::shared_ptr<Batch>> batches_;
  std::shared_ptr<Batch> current_;  // async mode: the batch rows are claimed from

  // Completion.
  std::mutex done_mu_;
  std::condition_variable done_cv_;
  std::deque<std::shared_ptr<Batch>> ready_;  // async mode: complete batches
  std::exception_ptr error_;
  std::atomic<int> completed_{0};  // batches completed (and errors): what a spinning recv watches
  bool recv_waiting_ = false;      // Recv sleeps on done_cv_

  std::vector<std::thread> workers_;
  Scratch caller_scratch_;
  std::shared_ptr<Column> frames_;  // the last Render's frames, reused when free
};

}  // namespace envpool
