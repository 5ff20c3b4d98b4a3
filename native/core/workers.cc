#include "core/workers.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#ifdef __linux__
#include <pthread.h>
#include <sched.h>
#endif

#include "core/spin.h"

namespace envpool {
namespace {

void PinThread(std::thread& thread, int core) {
#ifdef __linux__
  const unsigned cores = std::max(1U, std::thread::hardware_concurrency());
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(static_cast<unsigned>(core) % cores, &set);
  pthread_setaffinity_np(thread.native_handle(), sizeof(set), &set);
#else
  (void)thread;
  (void)core;
#endif
}

}  // namespace

Workers::Workers(const std::vector<EnvSetup>& setups, const PoolOptions& options,
                 const Admission& admission, TaskQueue& queue, BatchRecycler& batches,
                 Completion& completion)
    : setups_(setups),
      options_(options),
      spec_(setups.front().factory->Spec()),
      admission_(admission),
      queue_(queue),
      batches_(batches),
      completion_(completion),
      sync_(options.batch_size == options.num_envs) {
  envs_.resize(static_cast<std::size_t>(options.num_envs));
  for (int i = 0; i < options.num_envs; ++i) {
    envs_[i].env = setups_[i].factory->Create();
    envs_[i].env->SetEnvId(i);
    envs_[i].rng.Seed(options.seeds[i]);
    envs_[i].env->Seed(options.seeds[i]);
    envs_[i].drawn.assign(setups_[i].ranges.size(), 0.0);
  }
  if (options.stage_times) {
    caller_clock_ = std::make_unique<StageClock>(Stage::kCaller);
    caller_scratch_.clock = caller_clock_.get();
  }
}

void Workers::Start() {
  threads_.reserve(options_.num_threads);
  for (int t = 0; t < options_.num_threads; ++t) {
    StageClock* clock = nullptr;
    if (options_.stage_times) {
      worker_clocks_.push_back(std::make_unique<StageClock>(Stage::kIdle));
      clock = worker_clocks_.back().get();
    }
    threads_.emplace_back([this, clock] { Loop(clock); });
    if (options_.thread_affinity_offset >= 0) {
      PinThread(threads_.back(), options_.thread_affinity_offset + t);
    }
  }
}

void Workers::Join() {
  for (std::thread& w : threads_) {
    if (w.joinable()) w.join();
  }
}

std::vector<StageTimes> Workers::StageReport() const {
  std::vector<StageTimes> report;
  if (!caller_clock_) return report;
  report.push_back(caller_clock_->Snapshot());
  for (const std::unique_ptr<StageClock>& c : worker_clocks_) report.push_back(c->Snapshot());
  return report;
}

void Workers::WriteRow(Batch& batch, int row, bool final_part, const EnvState& e,
                       Scratch& scratch) {
  const StageScope write(scratch.clock, Stage::kWrite);
  std::vector<Column>& obs = final_part ? batch.final_obs : batch.obs;
  std::vector<Column>& info = final_part ? batch.final_info : batch.info;
  scratch.obs.clear();
  scratch.info.clear();
  for (Column& c : obs) {
    if (c.is_container()) {
      for (int k = 0; k < c.cells_per_row(); ++k) c.Cells(row)[k].set = false;
    }
    scratch.obs.push_back(c.Row(row));
  }
  for (Column& c : info) scratch.info.push_back(c.Row(row));
  std::int32_t* players = nullptr;
  if (batch.num_players.capacity() > 0) {
    players = &batch.num_players.At<std::int32_t>(row);
    *players = 0;
  }
  e.env->Write(Slot(scratch.obs.data(), scratch.info.data(), &spec_, players));
}

void Workers::ResetEnv(int env_id) {
  EnvState& e = envs_[env_id];
  const EnvSetup& setup = setups_[env_id];
  if (!setup.ranges.empty()) {
    // Only envs with ranges draw here, so the others' random streams stay as
    // they are without randomisation. Draws come from the env's own Rng, in
    // the order of its ranges: the same seed gives the same settings.
    Config config = setup.config;
    for (std::size_t k = 0; k < setup.ranges.size(); ++k) {
      const ParamRange& r = setup.ranges[k];
      e.drawn[k] = e.rng.Uniform(r.low, r.high);
      config.Set(r.key, e.drawn[k]);
    }
    StageClock* clock = e.env->stage_clock();
    e.env = setup.factory->CreateWith(config);
    e.env->SetEnvId(env_id);
    e.env->SetStageClock(clock);
  }
  e.env->Reset(e.rng);
  e.elapsed = 0;
}

void Workers::Run(const Task& task, Scratch& scratch) {
  if (task.render != nullptr) return RunRender(task, scratch.clock);
  EnvState& e = envs_[task.env_id];
  e.env->SetStageClock(scratch.clock);
  StepOutcome out;
  if (e.reset_requested || (options_.autoreset == AutoresetMode::kNextStep && e.needs_reset)) {
    const StageScope reset(scratch.clock, Stage::kReset);
    if (e.reseed) {
      e.rng.Seed(*e.reseed);
      e.env->Seed(*e.reseed);
      e.reseed.reset();
    }
    ResetEnv(task.env_id);
  } else {
    const int players =
        admission_.has_players() ? admission_.PlayerActions(task.env_id, scratch.players) : 0;
    const StageScope step(scratch.clock, Stage::kStep);
    out = e.env->Step(ActionView(admission_.Action(task.env_id), scratch.players.data(), players),
                      e.rng);
    ++e.elapsed;
    if (options_.max_episode_steps > 0 && e.elapsed >= options_.max_episode_steps) {
      out.truncated = true;
    }
  }
  const bool done = out.terminated || out.truncated;
  e.needs_reset = done && options_.autoreset == AutoresetMode::kNextStep;

  // Holding the batch keeps it alive until this row is committed, even if
  // Recv hands it out and the caller drops it right after the last row.
  const StageScope hand_off(scratch.clock, Stage::kHandOff);
  std::shared_ptr<Batch> batch = task.batch;
  int row = task.row;
  const bool async = batch == nullptr;
  if (async) std::tie(batch, row) = batches_.ClaimRow();
  if (batch->keeps_final()) {
    if (done) {
      WriteRow(*batch, row, /*final_part=*/true, e, scratch);
      batch->final_elapsed_step.At<std::int32_t>(row) = e.elapsed;
      const StageScope reset(scratch.clock, Stage::kReset);
      ResetEnv(task.env_id);
    } else {
      for (Column& c : batch->final_obs) std::memset(c.Row(row), 0, c.row_bytes());
      for (Column& c : batch->final_info) std::memset(c.Row(row), 0, c.row_bytes());
      batch->final_elapsed_step.At<std::int32_t>(row) = 0;
    }
  }
  WriteRow(*batch, row, /*final_part=*/false, e, scratch);
  batch->env_id.At<std::int32_t>(row) = task.env_id;
  batch->reward.At<float>(row) = static_cast<float>(out.reward);
  batch->terminated.At<bool>(row) = out.terminated;
  batch->truncated.At<bool>(row) = out.truncated;
  batch->elapsed_step.At<std::int32_t>(row) = e.elapsed;

  // The last row written completes the batch. Sync batches are watched by
  // Recv through `filled`; async ones are queued as ready.
  const int filled = batch->filled.fetch_add(1, std::memory_order_acq_rel) + 1;
  if (filled == batch->size.load(std::memory_order_acquire)) {
    completion_.Complete(async ? std::move(batch) : nullptr);
  }
}

void Workers::RunRender(const Task& task, StageClock* clock) {
  const StageScope render(clock, Stage::kRender);
  RenderJob& job = *task.render;
  try {
    envs_[task.env_id].env->Render(job.width, job.height, job.camera_id,
                                   reinterpret_cast<std::uint8_t*>(job.frames->Row(task.row)));
  } catch (...) {
    std::lock_guard<std::mutex> lock(job.mu);
    if (!job.error) job.error = std::current_exception();
  }
  if (job.left.fetch_sub(1, std::memory_order_acq_rel) == 1) completion_.Complete(nullptr);
}

int Workers::WorthWaking(int n, int most) const {
  if (most <= 0) return 0;
  const std::int64_t work = static_cast<std::int64_t>(n) * task_ns();
  return static_cast<int>(std::min<std::int64_t>(most, work / spin::kWakeWorthNs));
}

bool Workers::RunQueued(Scratch& scratch) {
  // The caller helps too: the queue is shared by the workers and one more.
  TaskQueue::Chunk chunk;
  std::size_t taken = 0;
  {
    const StageScope queue(scratch.clock, Stage::kQueue);
    taken = queue_.Take(chunk, options_.num_threads + 1);
  }
  if (taken == 0) return false;
  const spin::Clock::time_point start = spin::Clock::now();
  for (std::size_t k = 0; k < taken; ++k) {
    try {
      Run(chunk[k], scratch);
    } catch (...) {
      completion_.Fail(std::current_exception());
    }
    chunk[k].batch.reset();
  }
  // The running average of a task's cost (1/8 of each chunk's): threads may
  // race on it, and any of their values is a fair estimate.
  const std::int64_t ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(spin::Clock::now() - start).count() /
      static_cast<std::int64_t>(taken);
  const std::int64_t avg = task_ns();
  task_ns_.store(avg + (ns - avg) / 8, std::memory_order_relaxed);
  return true;
}

void Workers::Loop(StageClock* clock) {
  Scratch scratch;
  scratch.clock = clock;  // in Stage::kIdle between tasks
  for (;;) {
    if (RunQueued(scratch)) continue;
    // Out of tasks. In async mode look a little longer before sleeping (see
    // spin::kSpinTime): the next send usually comes within microseconds. In
    // sync mode the caller steps the next batch itself as soon as it sends,
    // so a worker that wakes on the send's notify only joins batches long
    // enough to need it; a spinning one would split even a batch of a few
    // tiny steps and slow it down with the cache traffic (CartPole, 8 envs:
    // -20%).
    if (!sync_ && spin::Until([this] { return queue_.queued() > 0 || queue_.stopping(); })) {
      if (queue_.stopping()) return;
      continue;
    }
    if (!queue_.Sleep()) return;
  }
}

std::shared_ptr<Column> Workers::Render(const std::int64_t* env_ids, int n, int width,
                                        int height, int camera_id) {
  if (n < 1) throw std::invalid_argument("render: no env ids given");
  const int num_envs = options_.num_envs;
  std::vector<std::uint8_t> listed(static_cast<std::size_t>(num_envs), 0);
  for (int k = 0; k < n; ++k) {
    const std::int64_t id = env_ids[k];
    if (id < 0 || id >= num_envs) {
      throw std::invalid_argument("render: env_id " + std::to_string(id) +
                                  " is out of range 0 .. " + std::to_string(num_envs - 1));
    }
    if (admission_.in_flight(static_cast<int>(id))) {
      throw std::invalid_argument("render: env_id " + std::to_string(id) +
                                  " is in flight (sent, not yet returned by recv()); render it "
                                  "once recv() has returned it");
    }
    if (listed[id]) {
      throw std::invalid_argument("render: env_id " + std::to_string(id) + " is listed twice");
    }
    listed[id] = 1;
  }
  // Every env must draw the same frame size (envs of one pool may come from
  // factories with other keywords).
  std::optional<FrameSize> size;
  const EnvFactory* checked = nullptr;
  for (int k = 0; k < n; ++k) {
    const EnvFactory* f = setups_[env_ids[k]].factory.get();
    if (f == checked) continue;
    const std::optional<FrameSize> s = f->RenderSize(width, height, camera_id);
    if (!s) throw std::invalid_argument("render: this environment does not render");
    if (size && (s->height != size->height || s->width != size->width)) {
      throw std::invalid_argument("render: the envs draw frames of different sizes");
    }
    size = s;
    checked = f;
  }
  const std::vector<std::int64_t> shape{size->height, size->width, 3};
  if (!frames_ || frames_.use_count() != 1 || frames_->shape() != shape ||
      frames_->capacity() < n) {
    frames_ = std::make_shared<Column>(DType::kUInt8, shape, std::max(n, num_envs));
  }
  std::atomic_thread_fence(std::memory_order_acquire);

  RenderJob job;
  job.frames = frames_.get();
  job.width = width;
  job.height = height;
  job.camera_id = camera_id;
  job.left.store(n, std::memory_order_relaxed);
  const int sleeping = queue_.Push(
      n, [&](int k) { return Task{static_cast<int>(env_ids[k]), nullptr, k, &job}; });
  queue_.Wake(std::min(n - 1, sleeping));
  // Help with the queue, then wait for the frames on workers. No early exit:
  // the tasks point at `job`, so this returns only once all of them ran.
  completion_.HelpUntil([&] { return job.left.load(std::memory_order_acquire) == 0; },
                        [&] { return RunQueued(caller_scratch_); });
  if (job.error) std::rethrow_exception(job.error);
  // A view of the first n rows is what Python gets; the column stays shared.
  return frames_;
}

}  // namespace envpool
