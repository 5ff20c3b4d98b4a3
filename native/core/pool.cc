#include "core/pool.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

namespace envpool {
namespace {

std::vector<EnvSetup> UniformSetups(std::unique_ptr<EnvFactory> factory, int num_envs) {
  const std::shared_ptr<const EnvFactory> shared(std::move(factory));
  std::vector<EnvSetup> setups(static_cast<std::size_t>(std::max(num_envs, 1)));
  for (EnvSetup& s : setups) s.factory = shared;
  return setups;
}

}  // namespace

PoolOptions Pool::Checked(const std::vector<EnvSetup>& setups, PoolOptions o) {
  if (o.num_envs < 1) throw std::invalid_argument("num_envs must be >= 1");
  if (setups.size() != static_cast<std::size_t>(o.num_envs)) {
    throw std::invalid_argument("need one env setup per env: got " +
                                std::to_string(setups.size()) + " for " +
                                std::to_string(o.num_envs) + " envs");
  }
  for (std::size_t i = 0; i < setups.size(); ++i) {
    if (!setups[i].factory) throw std::invalid_argument("env setup without a factory");
    const std::string diff =
        setups[i].factory == setups[0].factory
            ? std::string()
            : SpaceDifference(setups[0].factory->Spec(), setups[i].factory->Spec());
    if (!diff.empty()) {
      throw std::invalid_argument("env " + std::to_string(i) + " has other spaces than env 0 (" +
                                  diff + "): the envs of a pool must share their spaces");
    }
    for (const ParamRange& r : setups[i].ranges) {
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

  const EnvSpec& spec = setups.front().factory->Spec();
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
  return o;
}

Pool::Pool(std::unique_ptr<EnvFactory> factory, PoolOptions options)
    : Pool(UniformSetups(std::move(factory), options.num_envs), options) {}

Pool::Pool(std::vector<EnvSetup> setups, PoolOptions options)
    : setups_(std::move(setups)),
      options_(Checked(setups_, std::move(options))),
      admission_(spec(), options_.num_envs),
      // Sync batches hold every env a send may queue; async ones a batch.
      batches_(spec(), is_sync() ? options_.num_envs : options_.batch_size,
               options_.autoreset == AutoresetMode::kSameStep,
               static_cast<std::size_t>(options_.num_envs / options_.batch_size + 3),
               options_.batch_size),
      workers_(setups_, options_, admission_, queue_, batches_, completion_) {
  workers_.Start();
}

Pool::~Pool() { Close(); }

void Pool::Close() {
  if (closed_) return;
  closed_ = true;
  queue_.Stop();
  workers_.Join();
}

void Pool::CheckUsable() const {
  if (closed_) throw std::runtime_error("the pool is closed");
  if (!completion_.broken().empty()) {
    throw std::runtime_error("the pool stopped after an error in an environment: " +
                             completion_.broken() + "; close it and make a new one");
  }
}

const Workers::EnvState& Pool::IdleEnv(int env_id) const {
  CheckUsable();
  if (env_id < 0 || env_id >= options_.num_envs) {
    throw std::invalid_argument("env_id " + std::to_string(env_id) + " is out of range");
  }
  if (admission_.in_flight(env_id)) {
    throw std::invalid_argument("env_id " + std::to_string(env_id) + " is in flight");
  }
  return workers_.state(env_id);
}

std::vector<double> Pool::GetState(int env_id) const { return IdleEnv(env_id).env->GetState(); }

void Pool::SetState(int env_id, const std::vector<double>& state) {
  IdleEnv(env_id).env->SetState(state);
  admission_.Start(env_id);  // a state set is a start: the next step steps from it
}

const std::vector<double>& Pool::Drawn(int env_id) const { return IdleEnv(env_id).drawn; }

void Pool::Enqueue(const std::int64_t* env_ids, int n) {
  int sleeping = 0;
  if (is_sync()) {
    if (!pending_) pending_ = batches_.Acquire(0);
    Batch& batch = *pending_;
    sleeping = queue_.Push(n, [&](int k) {
      const int row = batch.size.load(std::memory_order_relaxed);
      batch.size.store(row + 1, std::memory_order_release);
      return Task{static_cast<int>(env_ids[k]), pending_, row};
    });
  } else {
    sleeping =
        queue_.Push(n, [&](int k) { return Task{static_cast<int>(env_ids[k]), nullptr, -1}; });
  }
  // Workers still spinning take tasks without a wake-up. In sync mode the
  // caller steps too while it waits in Recv, so one task needs no worker,
  // and a worker is woken only for work worth a wake-up (WorthWaking): the
  // caller steps a batch of tiny steps alone. In async mode every sent env
  // wakes a sleeping worker: the caller asked for the steps to run while it
  // does something else (CartPole 8 envs, batches of 4: 0.6x with the sync
  // rule, where the caller steps them in recv).
  const StageScope wake(workers_.caller_clock(), Stage::kWake);
  queue_.Wake(is_sync() ? workers_.WorthWaking(n, std::min(n - 1, sleeping))
                        : std::min(n, sleeping));
}

void Pool::Commit(const std::int64_t* env_ids, int n) {
  for (int k = 0; k < n; ++k) {
    // An env never reset takes its first reset instead of this step.
    const int id = static_cast<int>(env_ids[k]);
    workers_.state(id).reset_requested = admission_.Start(id);
  }
  Enqueue(env_ids, n);
}

void Pool::Send(const void* actions, DType dtype, const std::int64_t* env_ids, int n) {
  const StageScope admission(workers_.caller_clock(), Stage::kAdmission);
  CheckUsable();
  admission_.AdmitActions(actions, dtype, env_ids, n, options_.first_step_resets,
                          options_.autoreset == AutoresetMode::kDisabled);
  admission_.NoPlayers(env_ids, n);
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
  const StageScope admission(workers_.caller_clock(), Stage::kAdmission);
  CheckUsable();
  admission_.AdmitActions(actions, dtype, env_ids, n, options_.first_step_resets,
                          options_.autoreset == AutoresetMode::kDisabled);
  admission_.AdmitPlayers(env_ids, n, player_env_ids, num_player_actions, player_arrays,
                          player_dtypes);
  Commit(env_ids, n);
}

void Pool::SendReset(const std::int64_t* env_ids, int n, const std::uint64_t* seeds) {
  const StageScope admission(workers_.caller_clock(), Stage::kAdmission);
  CheckUsable();
  admission_.Admit(env_ids, n);
  for (int k = 0; k < n; ++k) {
    Workers::EnvState& e = workers_.state(static_cast<int>(env_ids[k]));
    e.reset_requested = true;
    admission_.Start(static_cast<int>(env_ids[k]));
    if (seeds != nullptr) e.reseed = seeds[k];
  }
  Enqueue(env_ids, n);
}

std::shared_ptr<Batch> Pool::Recv(double timeout_seconds, const std::function<void()>& poll) {
  const StageScope wait(workers_.caller_clock(), Stage::kRecvWait);
  CheckUsable();
  const int in_flight = admission_.num_in_flight();
  if (is_sync() ? !pending_ : in_flight < options_.batch_size) {
    throw std::runtime_error(
        is_sync() ? "recv() with nothing in flight: call send() or async_reset() first"
                  : "recv() would wait forever: " + std::to_string(in_flight) +
                        " envs in flight, fewer than batch_size " +
                        std::to_string(options_.batch_size) + "; send() more actions first");
  }
  // Without a timeout the caller steps queued envs itself rather than sleep,
  // in both modes: a round that a worker would need two thread wake-ups for
  // (the send's, then the recv's) costs none. In async mode a row is claimed
  // when its env finishes, whoever ran it, so the first batch_size envs to
  // finish still make the batch. With a timeout it only waits (a step it ran
  // could outlast the timeout), so every queued env needs a worker.
  if (timeout_seconds >= 0) {
    const StageScope wake(workers_.caller_clock(), Stage::kWake);
    queue_.WakeAll();
  }
  std::shared_ptr<Batch> result =
      completion_.Wait(is_sync() ? &pending_ : nullptr, timeout_seconds,
                       [this] { return workers_.Help(); }, poll);
  admission_.Deliver(*result);
  return result;
}

std::optional<FrameSize> Pool::RenderSize(int width, int height, int camera_id) const {
  return setups_.front().factory->RenderSize(width, height, camera_id);
}

std::shared_ptr<Column> Pool::Render(const std::int64_t* env_ids, int n, int width, int height,
                                     int camera_id) {
  const StageScope wait(workers_.caller_clock(), Stage::kRecvWait);
  CheckUsable();
  return workers_.Render(env_ids, n, width, height, camera_id);
}

}  // namespace envpool
