// The pool's fourth stage (pool.h): the envs, the worker threads that run the
// queued tasks on them, and render jobs. For a step or a reset a worker (or
// the caller, helping while it waits) runs Env::Step or Env::Reset, claims a
// row of a batch (async mode; sync mode: the row of the task), Write()s the
// env into it and posts the batch to Completion once its last row is written.
// A render task draws one frame of a RenderJob into its row of the job's
// column.
//
// Threading: an env is touched by one thread at a time, between the send
// that queued it and the recv that delivers it, or during a render of it
// (only idle envs are rendered).
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "core/admission.h"
#include "core/batch.h"
#include "core/batch_recycler.h"
#include "core/env.h"
#include "core/pool_options.h"
#include "core/recv.h"
#include "core/spin.h"
#include "core/stage_clock.h"
#include "core/task_queue.h"

namespace envpool {

// One Render call: where its frames go and what is left of it. Lives on the
// calling thread's stack; Render returns only once `left` is 0.
struct RenderJob {
  Column* frames;
  int width, height, camera_id;
  std::atomic<int> left{0};
  std::mutex mu;  // guards error
  std::exception_ptr error;
};

class Workers {
 public:
  struct EnvState {
    std::unique_ptr<Env> env;
    Rng rng;
    int elapsed = 0;
    bool needs_reset = false;      // next-step mode: the last step ended an episode
    bool reset_requested = false;  // the queued task is a reset
    std::optional<std::uint64_t> reseed;
    std::vector<double> drawn;  // this episode's values of the env's ranges
  };

  // Creates and seeds one env per setup. The arguments must outlive this.
  Workers(const std::vector<EnvSetup>& setups, const PoolOptions& options,
          const Admission& admission, TaskQueue& queue, BatchRecycler& batches,
          Completion& completion);
  Workers(const Workers&) = delete;
  Workers& operator=(const Workers&) = delete;
  ~Workers() {
    queue_.Stop();
    Join();
  }

  // Starts the threads (PoolOptions::num_threads, pinned from
  // thread_affinity_offset on if it is set).
  void Start();
  // Waits for the threads to end (after TaskQueue::Stop).
  void Join();
  int num_threads() const { return static_cast<int>(threads_.size()); }

  EnvState& state(int env_id) { return envs_[static_cast<std::size_t>(env_id)]; }
  const EnvState& state(int env_id) const { return envs_[static_cast<std::size_t>(env_id)]; }

  // Runs a share of the queued tasks on the calling thread; false if none was queued.
  bool Help() { return RunQueued(caller_scratch_); }

  // How many sleeping workers `n` newly queued tasks of a sync batch are worth waking, at most
  // `most`: one per spin::kWakeWorthNs of their work, costed by the running
  // average of the tasks run so far (every thread times its chunks of tasks).
  int WorthWaking(int n, int most) const;
  // The running average cost of a task, in nanoseconds.
  std::int64_t task_ns() const { return task_ns_.load(std::memory_order_relaxed); }

  // The calling thread's stage clock (null unless PoolOptions::stage_times).
  StageClock* caller_clock() { return caller_clock_.get(); }
  // Each thread's stage times: the calling thread's first, then each worker's
  // (empty unless PoolOptions::stage_times).
  std::vector<StageTimes> StageReport() const;

  // Draws the current frame of each env of `env_ids` (see Pool::Render).
  std::shared_ptr<Column> Render(const std::int64_t* env_ids, int n, int width, int height,
                                 int camera_id);

 private:
  struct Scratch {
    std::vector<std::byte*> obs, info;
    std::vector<const std::byte*> players;  // the stepped env's player action arrays
    StageClock* clock = nullptr;            // the thread's, when stages are timed
  };

  bool RunQueued(Scratch& scratch);  // runs a few queued tasks; false if none
  void Run(const Task& task, Scratch& scratch);
  void RunRender(const Task& task, StageClock* clock);
  void ResetEnv(int env_id);  // draws the env's ranges (if any), then Env::Reset
  void WriteRow(Batch& batch, int row, bool final_part, const EnvState& e, Scratch& scratch);
  void Loop(StageClock* clock);  // a worker thread

  const std::vector<EnvSetup>& setups_;
  const PoolOptions& options_;
  const EnvSpec& spec_;
  const Admission& admission_;
  TaskQueue& queue_;
  BatchRecycler& batches_;
  Completion& completion_;
  const bool sync_;
  std::vector<EnvState> envs_;
  std::vector<std::thread> threads_;
  Scratch caller_scratch_;
  std::atomic<std::int64_t> task_ns_{spin::kAssumedTaskNs};  // see WorthWaking
  // With PoolOptions::stage_times: the calling thread's clock and each worker's.
  std::unique_ptr<StageClock> caller_clock_;
  std::vector<std::unique_ptr<StageClock>> worker_clocks_;
  std::shared_ptr<Column> frames_;  // the last Render's frames, reused when free
};

}  // namespace envpool
