#include "core/pool.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <sstream>
#include <stdexcept>

#ifdef __linux__
#include <pthread.h>
#include <sched.h>
#endif

namespace envpool {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kPollInterval = std::chrono::milliseconds(20);
// How long a worker that ran out of tasks, or a recv that has nothing left to
// step, keeps looking before it sleeps on its condition variable. A round of
// a fast env (send, a few microseconds of stepping, recv) then needs no thread
// wake-up at all (each costs tens of microseconds on a loaded machine), and a
// pool left alone sleeps after this long: idle, it uses no CPU.
constexpr auto kSpin = std::chrono::microseconds(50);

// One round of a spin-wait: a pause, and every few rounds a yield, so that on
// a machine with fewer cores than threads the thread being waited for runs.
inline void SpinPause(int round) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
  if (round % 16 == 15) std::this_thread::yield();
}

// Spins until `ready()` or kSpin has passed; returns ready().
template <class Ready>
bool SpinUntil(const Ready& ready) {
  const Clock::time_point until = Clock::now() + kSpin;
  for (int round = 0;; ++round) {
    if (ready()) return true;
    if ((round & 15) == 15 && Clock::now() >= until) return ready();
    SpinPause(round);
  }
}

template <class Src, class Dst>
void ConvertDiscrete(const Src* src, Dst* dst, std::int64_t count, const ArraySpec& spec,
                     std::int64_t env_id) {
  for (std::int64_t k = 0; k < count; ++k) {
    const auto v = static_cast<std::int64_t>(src[k]);
    if (v < spec.start || v >= spec.start + spec.n) {
      throw std::invalid_argument("action " + std::to_string(v) + " for env " +
                                  std::to_string(env_id) + " is out of range: valid actions are " +
                                  std::to_string(spec.start) + " .. " +
                                  std::to_string(spec.start + spec.n - 1));
    }
    dst[k] = static_cast<Dst>(v);
  }
}

template <class Src, class Dst>
void ConvertContinuous(const Src* src, Dst* dst, std::int64_t count, std::int64_t env_id) {
  for (std::int64_t k = 0; k < count; ++k) {
    if (!std::isfinite(src[k])) {
      throw std::invalid_argument("action for env " + std::to_string(env_id) +
                                  " is not finite (NaN or inf)");
    }
    dst[k] = static_cast<Dst>(src[k]);
  }
}

// An integer Box action (gymnasium's Box(low, high, shape, int32)): whole numbers within
// the bounds, element by element.
template <class Src, class Dst>
void ConvertIntegerBox(const Src* src, Dst* dst, std::int64_t count, const ArraySpec& spec,
                       std::int64_t env_id) {
  auto bound = [](const std::vector<double>& b, std::int64_t k, double none) {
    return b.empty() ? none : b[b.size() == 1 ? 0 : static_cast<std::size_t>(k)];
  };
  for (std::int64_t k = 0; k < count; ++k) {
    const double v = static_cast<double>(src[k]);
    const double low = bound(spec.low, k, -INFINITY), high = bound(spec.high, k, INFINITY);
    if (!(v >= low && v <= high) || v != std::trunc(v)) {
      std::ostringstream message;
      message << "action " << v << " (element " << k << ") for env " << env_id
              << " is out of range: valid actions are the integers " << low << " .. " << high;
      throw std::invalid_argument(message.str());
    }
    dst[k] = static_cast<Dst>(src[k]);
  }
}

// Checks one action row of type Src and writes it as the spec's type.
template <class Src>
void ConvertRow(const Src* src, std::byte* dst, const ArraySpec& spec, std::int64_t env_id) {
  const std::int64_t count = spec.NumElements();
  if (spec.IsDiscrete()) {
    switch (spec.dtype) {
      case DType::kInt32:
        return ConvertDiscrete(src, reinterpret_cast<std::int32_t*>(dst), count, spec, env_id);
      case DType::kInt64:
        return ConvertDiscrete(src, reinterpret_cast<std::int64_t*>(dst), count, spec, env_id);
      default:
        break;
    }
  } else {
    switch (spec.dtype) {
      case DType::kFloat32:
        return ConvertContinuous(src, reinterpret_cast<float*>(dst), count, env_id);
      case DType::kFloat64:
        return ConvertContinuous(src, reinterpret_cast<double*>(dst), count, env_id);
      case DType::kInt32:
        return ConvertIntegerBox(src, reinterpret_cast<std::int32_t*>(dst), count, spec, env_id);
      case DType::kInt64:
        return ConvertIntegerBox(src, reinterpret_cast<std::int64_t*>(dst), count, spec, env_id);
      default:
        break;
    }
  }
  throw std::logic_error("unsupported action spec type");
}

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

std::vector<EnvSetup> UniformSetups(std::unique_ptr<EnvFactory> factory, int num_envs) {
  const std::shared_ptr<const EnvFactory> shared(std::move(factory));
  std::vector<EnvSetup> setups(static_cast<std::size_t>(std::max(num_envs, 1)));
  for (EnvSetup& s : setups) s.factory = shared;
  return setups;
}

}  // namespace

Pool::Pool(std::unique_ptr<EnvFactory> factory, PoolOptions options)
    : Pool(UniformSetups(std::move(factory), options.num_envs), options) {}

Pool::Pool(std::vector<EnvSetup> setups, PoolOptions options)
    : setups_(std::move(setups)), options_(std::move(options)) {
  PoolOptions& o = options_;
  if (o.num_envs < 1) throw std::invalid_argument("num_envs must be >= 1");
  if (setups_.size() != static_cast<std::size_t>(o.num_envs)) {
    throw std::invalid_argument("need one env setup per env: got " +
                                std::to_string(setups_.size()) + " for " +
                                std::to_string(o.num_envs) + " envs");
  }
  for (std::size_t i = 0; i < setups_.size(); ++i) {
    if (!setups_[i].factory) throw std::invalid_argument("env setup without a factory");
    const std::string diff =
        setups_[i].factory == setups_[0].factory
            ? std::string()
            : SpaceDifference(setups_[0].factory->Spec(), setups_[i].factory->Spec());
    if (!diff.empty()) {
      throw std::invalid_argument("env " + std::to_string(i) + " has other spaces than env 0 (" +
                                  diff + "): the envs of a pool must share their spaces");
    }
    for (const ParamRange& r : setups_[i].ranges) {
      if (!std::isfinite(r.low) || !std::isfinite(r.high) || r.low > r.high) {
        throw std::invalid_argument("range of '" + r.key + "' must be finite with low <= high");
      }
    }
  }
  if (o.batch_size == 0) o.batch_size = o.num_envs;
  if (o.batch_size < 1 || o.batch_size > o.num_envs) {
    throw std::invalid_argument("batch_size must be in 1 .. num_envs (" +
                                std::to_string(o.num_envs) + "), got " +
                                std::to_string(o.batch_size));
  }
  if (o.num_threads < 0) throw std::invalid_argument("num_threads must be >= 0");
  if (o.num_threads == 0) {
    // The calling thread steps envs too while it waits in recv (and computes
    // the next actions meanwhile), so leave it a core.
    const int cores = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
    o.num_threads = std::max(1, std::min(o.batch_size, cores - 1));
  }
  o.num_threads = std::min(o.num_threads, o.num_envs);
  if (o.max_episode_steps < 0) throw std::invalid_argument("max_episode_steps must be >= 0");
  if (o.seeds.empty()) {
    for (int i = 0; i < o.num_envs; ++i) o.seeds.push_back(static_cast<std::uint64_t>(i));
  }
  if (static_cast<int>(o.seeds.size()) != o.num_envs) {
    throw std::invalid_argument("need one seed per env: got " + std::to_string(o.seeds.size()) +
                                " for " + std::to_string(o.num_envs) + " envs");
  }

  const EnvSpec& spec = setups_.front().factory->Spec();
  action_bytes_ = spec.action.NumBytes();
  actions_.resize(action_bytes_ * static_cast<std::size_t>(o.num_envs));
  bool containers = false;
  for (const std::vector<ArraySpec>* arrays : {&spec.obs, &spec.info}) {
    for (const ArraySpec& a : *arrays) {
      if (a.per_player && spec.max_num_players < 1) {
        throw std::logic_error("array '" + a.name + "' is per player in an env without players");
      }
      if (a.container && arrays == &spec.info) {
        throw std::logic_error("info array '" + a.name + "': only observations are containers");
      }
      containers = containers || a.container;
    }
  }
  if ((spec.max_num_players > 0 || containers) && o.autoreset != AutoresetMode::kNextStep) {
    throw std::invalid_argument(
        "this env has players or container observations: its pools autoreset on the next "
        "step (autoreset_mode='next_step')");
  }
  if (spec.max_num_players > 0) {
    const auto players = static_cast<std::size_t>(spec.max_num_players);
    for (const ArraySpec& a : spec.player_actions) {
      player_bytes_.push_back(a.NumBytes());
      player_actions_.emplace_back(a.NumBytes() * players * static_cast<std::size_t>(o.num_envs));
    }
    player_counts_.assign(static_cast<std::size_t>(o.num_envs), 0);
  }
  envs_.resize(static_cast<std::size_t>(o.num_envs));
  for (int i = 0; i < o.num_envs; ++i) {
    envs_[i].env = setups_[i].factory->Create();
    envs_[i].env->SetEnvId(i);
    envs_[i].rng.Seed(o.seeds[i]);
    envs_[i].env->Seed(o.seeds[i]);
    envs_[i].drawn.assign(setups_[i].ranges.size(), 0.0);
  }
  busy_.assign(o.num_envs, 0);
  done_.assign(o.num_envs, 0);
  started_.assign(o.num_envs, 0);

  workers_.reserve(o.num_threads);
  for (int t = 0; t < o.num_threads; ++t) {
    workers_.emplace_back([this, t] { WorkerLoop(t); });
    if (o.thread_affinity_offset >= 0) PinThread(workers_.back(), o.thread_affinity_offset + t);
  }
}

Pool::~Pool() { Close(); }

void Pool::Close() {
  if (closed_) return;
  closed_ = true;
  {
    std::lock_guard<std::mutex> lock(task_mu_);
    stop_ = true;
    stopping_.store(true, std::memory_order_release);
    tasks_.clear();
    queued_.store(0, std::memory_order_release);
  }
  task_cv_.notify_all();
  for (std::thread& w : workers_) {
    if (w.joinable()) w.join();
  }
}

void Pool::CheckUsable() const {
  if (closed_) throw std::runtime_error("the pool is closed");
  if (!broken_.empty()) {
    throw std::runtime_error("the pool stopped after an error in an environment: " + broken_ +
                             "; close it and make a new one");
  }
}

const Pool::EnvState& Pool::IdleEnv(int env_id) const {
  CheckUsable();
  if (env_id < 0 || env_id >= options_.num_envs) {
    throw std::invalid_argument("env_id " + std::to_string(env_id) + " is out of range");
  }
  if (busy_[env_id]) {
    throw std::invalid_argument("env_id " + std::to_string(env_id) + " is in flight");
  }
  return envs_[env_id];
}

std::vector<double> Pool::GetState(int env_id) const { return IdleEnv(env_id).env->GetState(); }

void Pool::SetState(int env_id, const std::vector<double>& state) {
  IdleEnv(env_id).env->SetState(state);
  started_[env_id] = 1;  // a state set is a start: the next step steps from it
}

void Pool::Admit(const std::int64_t* env_ids, int n) {
  int marked = 0;
  auto fail = [&](const std::string& message) {
    for (int k = 0; k < marked; ++k) busy_[env_ids[k]] = 0;
    throw std::invalid_argument(message);
  };
  if (n < 1) fail("no env ids given");
  for (; marked < n; ++marked) {
    const std::int64_t id = env_ids[marked];
    if (id < 0 || id >= options_.num_envs) {
      fail("env_id " + std::to_string(id) + " is out of range 0 .. " +
           std::to_string(options_.num_envs - 1));
    }
    if (busy_[id]) {
      fail("env_id " + std::to_string(id) +
           " is already in flight or listed twice: it can be sent again once recv() has "
           "returned it");
    }
    busy_[id] = 1;
  }
}

void Pool::Enqueue(const std::int64_t* env_ids, int n) {
  if (is_sync() && !pending_) pending_ = AcquireBatch(0);
  int sleeping = 0;
  {
    std::lock_guard<std::mutex> lock(task_mu_);
    for (int k = 0; k < n; ++k) {
      const int id = static_cast<int>(env_ids[k]);
      if (is_sync()) {
        const int row = pending_->size.load(std::memory_order_relaxed);
        pending_->size.store(row + 1, std::memory_order_release);
        tasks_.push_back(Task{id, pending_, row});
      } else {
        tasks_.push_back(Task{id, nullptr, -1});
      }
    }
    queued_.store(static_cast<int>(tasks_.size()), std::memory_order_release);
    sleeping = sleepers_;
  }
  outstanding_ += n;
  // Workers still spinning take tasks without a wake-up. In sync mode the
  // caller steps too while it waits in Recv, so one task needs no worker.
  const int wake = std::min(is_sync() ? n - 1 : n, sleeping);
  for (int k = 0; k < wake; ++k) task_cv_.notify_one();
}

// Checks one action row (row `k` of `src`, of type `dtype`) and writes it to
// `dst` as `spec` types it.
static void ConvertAction(const void* src, DType dtype, std::int64_t k, std::byte* dst,
                   const ArraySpec& spec, std::int64_t env_id) {
  const std::int64_t count = spec.NumElements();
  switch (dtype) {
    case DType::kInt32:
      return ConvertRow(static_cast<const std::int32_t*>(src) + k * count, dst, spec, env_id);
    case DType::kInt64:
      return ConvertRow(static_cast<const std::int64_t*>(src) + k * count, dst, spec, env_id);
    case DType::kFloat32:
      if (spec.IsDiscrete()) throw std::invalid_argument("discrete actions must be integers");
      return ConvertRow(static_cast<const float*>(src) + k * count, dst, spec, env_id);
    case DType::kFloat64:
      if (spec.IsDiscrete()) throw std::invalid_argument("discrete actions must be integers");
      return ConvertRow(static_cast<const double*>(src) + k * count, dst, spec, env_id);
    default:
      throw std::invalid_argument(std::string("unsupported action type ") + DTypeName(dtype));
  }
}

void Pool::AdmitActions(const void* actions, DType dtype, const std::int64_t* env_ids, int n) {
  CheckUsable();
  Admit(env_ids, n);
  const ArraySpec& aspec = spec().action;
  try {
    for (int k = 0; k < n; ++k) {
      const std::int64_t id = env_ids[k];
      if (!started_[id] && !options_.first_step_resets) {
        throw ResetNeeded("env " + std::to_string(id) +
                          " has not been reset: call reset() before step()");
      }
      if (options_.autoreset == AutoresetMode::kDisabled && done_[id]) {
        throw std::invalid_argument("env " + std::to_string(id) +
                                    " ended its episode and autoreset is disabled: reset it "
                                    "first (reset(options={'reset_mask': ...}))");
      }
      std::byte* dst = actions_.data() + action_bytes_ * static_cast<std::size_t>(id);
      ConvertAction(actions, dtype, k, dst, aspec, id);
    }
  } catch (...) {
    for (int k = 0; k < n; ++k) busy_[env_ids[k]] = 0;
    throw;
  }
}

void Pool::Commit(const std::int64_t* env_ids, int n) {
  for (int k = 0; k < n; ++k) {
    // An env never reset takes its first reset instead of this step.
    envs_[env_ids[k]].reset_requested = !started_[env_ids[k]];
    started_[env_ids[k]] = 1;
  }
  Enqueue(env_ids, n);
}

void Pool::Send(const void* actions, DType dtype, const std::int64_t* env_ids, int n) {
  AdmitActions(actions, dtype, env_ids, n);
  if (!player_counts_.empty()) {
    for (int k = 0; k < n; ++k) player_counts_[env_ids[k]] = 0;  // no players' actions
  }
  Commit(env_ids, n);
}

void Pool::SendPlayers(const void* actions, DType dtype, const std::int64_t* env_ids, int n,
                       const std::int64_t* player_env_ids, int num_player_actions,
                       const std::vector<const void*>& player_arrays,
                       const std::vector<DType>& player_dtypes) {
  const EnvSpec& s = spec();
  if (s.max_num_players == 0) {
    throw std::invalid_argument("this env has no players: send its actions without players'");
  }
  if (player_arrays.size() != s.player_actions.size() ||
      player_dtypes.size() != s.player_actions.size()) {
    throw std::invalid_argument("need " + std::to_string(s.player_actions.size()) +
                                " player action arrays, got " +
                                std::to_string(player_arrays.size()));
  }
  AdmitActions(actions, dtype, env_ids, n);
  const auto players = static_cast<std::size_t>(s.max_num_players);
  try {
    // Only the ids of this send are busy_ and not yet counted: count them from 0.
    std::vector<std::uint8_t> sent(static_cast<std::size_t>(options_.num_envs), 0);
    for (int k = 0; k < n; ++k) {
      sent[env_ids[k]] = 1;
      player_counts_[env_ids[k]] = 0;
    }
    for (int p = 0; p < num_player_actions; ++p) {
      const std::int64_t id = player_env_ids[p];
      if (id < 0 || id >= options_.num_envs || !sent[id]) {
        throw std::invalid_argument("players.env_id " + std::to_string(id) + " (player action " +
                                    std::to_string(p) + ") is not one of the env ids sent");
      }
      const int slot = player_counts_[id]++;
      if (slot >= s.max_num_players) {
        throw std::invalid_argument("env " + std::to_string(id) + " was sent more than " +
                                    "max_num_players (" + std::to_string(s.max_num_players) +
                                    ") players' actions");
      }
      for (std::size_t a = 0; a < s.player_actions.size(); ++a) {
        std::byte* dst = player_actions_[a].data() +
                         player_bytes_[a] * (static_cast<std::size_t>(id) * players +
                                             static_cast<std::size_t>(slot));
        ConvertAction(player_arrays[a], player_dtypes[a], p, dst, s.player_actions[a], id);
      }
    }
  } catch (...) {
    for (int k = 0; k < n; ++k) busy_[env_ids[k]] = 0;
    throw;
  }
  Commit(env_ids, n);
}

void Pool::SendReset(const std::int64_t* env_ids, int n, const std::uint64_t* seeds) {
  CheckUsable();
  Admit(env_ids, n);
  for (int k = 0; k < n; ++k) {
    EnvState& e = envs_[env_ids[k]];
    e.reset_requested = true;
    started_[env_ids[k]] = 1;
    if (seeds != nullptr) e.reseed = seeds[k];
  }
  Enqueue(env_ids, n);
}

std::shared_ptr<Batch> Pool::AcquireBatchLocked(int size) {
  std::shared_ptr<Batch> batch;
  for (const auto& b : batches_) {
    if (b.use_count() == 1) {  // nobody else holds it: not in flight, not in Python
      std::atomic_thread_fence(std::memory_order_acquire);
      batch = b;
      break;
    }
  }
  if (!batch) {
    const int capacity = is_sync() ? options_.num_envs : options_.batch_size;
    batch = std::make_shared<Batch>(spec(), capacity,
                                    options_.autoreset == AutoresetMode::kSameStep);
    // Keep a bounded number for reuse; past that, forget the oldest (Python
    // may still hold it, and frees it when done).
    const auto keep = static_cast<std::size_t>(options_.num_envs / options_.batch_size + 3);
    if (batches_.size() >= keep) batches_.erase(batches_.begin());
    batches_.push_back(batch);
  }
  batch->size.store(size, std::memory_order_relaxed);
  batch->claimed = 0;
  batch->filled.store(0, std::memory_order_relaxed);
  return batch;
}

std::shared_ptr<Batch> Pool::AcquireBatch(int size) {
  std::lock_guard<std::mutex> lock(batch_mu_);
  return AcquireBatchLocked(size);
}

std::pair<std::shared_ptr<Batch>, int> Pool::ClaimRow() {
  std::lock_guard<std::mutex> lock(batch_mu_);
  if (!current_ || current_->claimed == options_.batch_size) {
    current_ = AcquireBatchLocked(options_.batch_size);
  }
  return {current_, current_->claimed++};
}

void Pool::WriteRow(Batch& batch, int row, bool final_part, const EnvState& e, Scratch& scratch) {
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
  e.env->Write(Slot(scratch.obs.data(), scratch.info.data(), &spec(), players));
}

void Pool::ResetEnv(int env_id) {
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
    e.env = setup.factory->CreateWith(config);
    e.env->SetEnvId(env_id);
  }
  e.env->Reset(e.rng);
  e.elapsed = 0;
}

const std::vector<double>& Pool::Drawn(int env_id) const { return IdleEnv(env_id).drawn; }

void Pool::Run(const Task& task, Scratch& scratch) {
  if (task.render != nullptr) return RunRender(task);
  EnvState& e = envs_[task.env_id];
  StepOutcome out;
  if (e.reset_requested || (options_.autoreset == AutoresetMode::kNextStep && e.needs_reset)) {
    if (e.reseed) {
      e.rng.Seed(*e.reseed);
      e.env->Seed(*e.reseed);
      e.reseed.reset();
    }
    ResetEnv(task.env_id);
  } else {
    const std::byte* action = actions_.data() + action_bytes_ * static_cast<std::size_t>(task.env_id);
    int players = 0;
    if (!player_counts_.empty()) {
      players = player_counts_[task.env_id];
      scratch.players.clear();
      const auto offset = static_cast<std::size_t>(task.env_id) *
                          static_cast<std::size_t>(spec().max_num_players);
      for (std::size_t a = 0; a < player_actions_.size(); ++a) {
        scratch.players.push_back(player_actions_[a].data() + player_bytes_[a] * offset);
      }
    }
    out = e.env->Step(ActionView(action, scratch.players.data(), players), e.rng);
    ++e.elapsed;
    if (options_.max_episode_steps > 0 && e.elapsed >= options_.max_episode_steps) {
      out.truncated = true;
    }
  }
  const bool done = out.terminated || out.truncated;
  e.needs_reset = done && options_.autoreset == AutoresetMode::kNextStep;

  // Holding the batch keeps it alive until this row is committed, even if
  // Recv hands it out and the caller drops it right after the last row.
  std::shared_ptr<Batch> batch = task.batch;
  int row = task.row;
  const bool async = batch == nullptr;
  if (async) std::tie(batch, row) = ClaimRow();
  if (batch->keeps_final()) {
    if (done) {
      WriteRow(*batch, row, /*final_part=*/true, e, scratch);
      batch->final_elapsed_step.At<std::int32_t>(row) = e.elapsed;
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
    std::lock_guard<std::mutex> lock(done_mu_);
    if (async) ready_.push_back(std::move(batch));
    completed_.fetch_add(1, std::memory_order_release);
    if (recv_waiting_) done_cv_.notify_all();
  }
}

void Pool::RunRender(const Task& task) {
  RenderJob& job = *task.render;
  try {
    envs_[task.env_id].env->Render(job.width, job.height, job.camera_id,
                                   reinterpret_cast<std::uint8_t*>(job.frames->Row(task.row)));
  } catch (...) {
    std::lock_guard<std::mutex> lock(job.mu);
    if (!job.error) job.error = std::current_exception();
  }
  if (job.left.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    std::lock_guard<std::mutex> lock(done_mu_);
    completed_.fetch_add(1, std::memory_order_release);
    if (recv_waiting_) done_cv_.notify_all();
  }
}

std::optional<FrameSize> Pool::RenderSize(int width, int height, int camera_id) const {
  return setups_.front().factory->RenderSize(width, height, camera_id);
}

std::shared_ptr<Column> Pool::Render(const std::int64_t* env_ids, int n, int width, int height,
                                     int camera_id) {
  CheckUsable();
  if (n < 1) throw std::invalid_argument("render: no env ids given");
  std::vector<std::uint8_t> listed(static_cast<std::size_t>(options_.num_envs), 0);
  for (int k = 0; k < n; ++k) {
    const std::int64_t id = env_ids[k];
    if (id < 0 || id >= options_.num_envs) {
      throw std::invalid_argument("render: env_id " + std::to_string(id) +
                                  " is out of range 0 .. " +
                                  std::to_string(options_.num_envs - 1));
    }
    if (busy_[id]) {
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
    frames_ = std::make_shared<Column>(DType::kUInt8, shape, std::max(n, options_.num_envs));
  }
  std::atomic_thread_fence(std::memory_order_acquire);

  RenderJob job;
  job.frames = frames_.get();
  job.width = width;
  job.height = height;
  job.camera_id = camera_id;
  job.left.store(n, std::memory_order_relaxed);
  int sleeping = 0;
  {
    std::lock_guard<std::mutex> lock(task_mu_);
    for (int k = 0; k < n; ++k) {
      tasks_.push_back(Task{static_cast<int>(env_ids[k]), nullptr, k, &job});
    }
    queued_.store(static_cast<int>(tasks_.size()), std::memory_order_release);
    sleeping = sleepers_;
  }
  const int wake = std::min(n - 1, sleeping);
  for (int k = 0; k < wake; ++k) task_cv_.notify_one();
  // Help with the queue, then wait for the frames on workers. No early exit:
  // the tasks point at `job`, so this returns only once all of them ran.
  auto finished = [&] { return job.left.load(std::memory_order_acquire) == 0; };
  while (!finished()) {
    if (RunQueued(caller_scratch_)) continue;
    const int seen = completed_.load(std::memory_order_acquire);
    if (SpinUntil([&] {
          return finished() || completed_.load(std::memory_order_acquire) != seen;
        })) {
      continue;
    }
    std::unique_lock<std::mutex> lock(done_mu_);
    recv_waiting_ = true;
    done_cv_.wait_for(lock, kPollInterval, finished);
    recv_waiting_ = false;
  }
  if (job.error) std::rethrow_exception(job.error);
  // A view of the first n rows is what Python gets; the column stays shared.
  return frames_;
}

bool Pool::RunQueued(Scratch& scratch) {
  // Takes a share of the queue at once (guided scheduling: a quarter of what
  // each thread would get, at least one, at most kMaxChunk): consecutive
  // tasks are consecutive rows of a sync batch, so threads write apart and
  // take the queue's lock less often, while the last tasks still spread.
  constexpr std::size_t kMaxChunk = 8;
  std::array<Task, kMaxChunk> chunk;
  std::size_t taken = 0;
  {
    std::lock_guard<std::mutex> lock(task_mu_);
    if (tasks_.empty()) return false;
    const std::size_t share = tasks_.size() / (4 * static_cast<std::size_t>(num_threads() + 1));
    taken = std::clamp<std::size_t>(share, 1, kMaxChunk);
    for (std::size_t k = 0; k < taken; ++k) {
      chunk[k] = std::move(tasks_.front());
      tasks_.pop_front();
    }
    queued_.store(static_cast<int>(tasks_.size()), std::memory_order_release);
  }
  for (std::size_t k = 0; k < taken; ++k) {
    try {
      Run(chunk[k], scratch);
    } catch (...) {
      std::lock_guard<std::mutex> lock(done_mu_);
      if (!error_) error_ = std::current_exception();
      completed_.fetch_add(1, std::memory_order_release);
      done_cv_.notify_all();
    }
    chunk[k].batch.reset();
  }
  return true;
}

void Pool::WorkerLoop(int /*index*/) {
  Scratch scratch;
  for (;;) {
    if (RunQueued(scratch)) continue;
    // Out of tasks. In async mode look a little longer before sleeping (see
    // kSpin): the next send usually comes within microseconds. In sync mode
    // the caller steps the next batch itself as soon as it sends, so a worker
    // that wakes on the send's notify only joins batches long enough to need
    // it; a spinning one would split even a batch of a few tiny steps and
    // slow it down with the cache traffic (CartPole, 8 envs: -20%).
    if (!is_sync() && SpinUntil([this] {
          return queued_.load(std::memory_order_acquire) > 0 ||
                 stopping_.load(std::memory_order_acquire);
        })) {
      if (stopping_.load(std::memory_order_acquire)) return;
      continue;
    }
    std::unique_lock<std::mutex> lock(task_mu_);
    ++sleepers_;
    task_cv_.wait(lock, [this] { return stop_ || !tasks_.empty(); });
    --sleepers_;
    if (stop_) return;
  }
}

std::shared_ptr<Batch> Pool::Recv(double timeout_seconds, const std::function<void()>& poll) {
  CheckUsable();
  if (is_sync() ? !pending_ : outstanding_ < options_.batch_size) {
    throw std::runtime_error(
        is_sync() ? "recv() with nothing in flight: call send() or async_reset() first"
                  : "recv() would wait forever: " + std::to_string(outstanding_) +
                        " envs in flight, fewer than batch_size " +
                        std::to_string(options_.batch_size) + "; send() more actions first");
  }
  const bool forever = timeout_seconds < 0;
  const Clock::time_point deadline =
      forever ? Clock::time_point::max()
              : Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                   std::chrono::duration<double>(timeout_seconds));
  // Without a timeout the caller steps queued envs itself rather than sleep,
  // in both modes: a round that a worker would need two thread wake-ups for
  // (the send's, then the recv's) costs none. In async mode a row is claimed
  // when its env finishes, whoever ran it, so the first batch_size envs to
  // finish still make the batch. With a timeout it only waits (a step it ran
  // could outlast the timeout), so every queued env needs a worker.
  const bool help = forever;
  if (!help) task_cv_.notify_all();
  std::shared_ptr<Batch> result;
  auto ready = [&]() -> bool {  // done_mu_ held
    if (error_) return true;
    if (is_sync()) return pending_->filled.load(std::memory_order_acquire) == pending_->size.load();
    return !ready_.empty();
  };
  Clock::time_point last_poll = Clock::now();
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(done_mu_);
      if (!ready()) {
        lock.unlock();
        if (help && RunQueued(caller_scratch_)) {
          if (poll && Clock::now() - last_poll > kPollInterval) {
            last_poll = Clock::now();
            poll();
          }
          continue;
        }
        // Nothing left to step: the last envs are on workers. Watch for
        // them a little before sleeping (see kSpin).
        const int seen = completed_.load(std::memory_order_acquire);
        SpinUntil([&] { return completed_.load(std::memory_order_acquire) != seen; });
        lock.lock();
        if (!ready()) {
          const Clock::time_point until = std::min(deadline, Clock::now() + kPollInterval);
          recv_waiting_ = true;
          done_cv_.wait_until(lock, until, ready);
          recv_waiting_ = false;
        }
      }
      if (error_) {
        try {
          std::rethrow_exception(error_);
        } catch (const std::exception& ex) {
          broken_ = ex.what();
        } catch (...) {
          broken_ = "unknown error";
        }
        std::rethrow_exception(error_);
      }
      if (ready()) {
        if (is_sync()) {
          result = std::move(pending_);
        } else {
          result = std::move(ready_.front());
          ready_.pop_front();
        }
        break;
      }
    }
    if (poll) {
      last_poll = Clock::now();
      poll();
    }
    if (!forever && Clock::now() >= deadline) {
      throw TimeoutError("recv() timed out after " + std::to_string(timeout_seconds) + " s");
    }
  }
  const int size = result->size.load();
  for (int r = 0; r < size; ++r) {
    const int id = result->env_id.At<std::int32_t>(r);
    busy_[id] = 0;
    done_[id] = result->terminated.At<bool>(r) || result->truncated.At<bool>(r);
  }
  outstanding_ -= size;
  return result;
}

}  // namespace envpool
