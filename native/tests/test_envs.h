// Small deterministic environments for the core tests, and helpers to drive a
// Pool and read its batches.
//
// CounterEnv (one per env of the pool; the factory numbers them 0, 1, ...):
//   obs[0] "state"  int64[5] = {index, base, count, last_action, noise}
//       index: the env's number (== env_id in the pool)
//       base:  drawn from the env's Rng at each reset (seed-derived)
//       count: steps since the reset; last_action: the last action (0 after a
//       reset); noise: drawn from the Rng at each step, so trajectories
//       depend on the whole Rng stream, not only on the reset draw
//   obs[1] "parity" uint8 = count % 2
//   info[0] "episode" int32 = number of resets so far
//   reward = the action (discrete) or a[0] + a[1] (continuous)
//   terminates when count reaches episode_length (0: never)
// Options: a random sleep of up to max_sleep_us per step (shuffles the order
// in which envs finish; not drawn from the env's Rng), a Step that throws
// EnvBoom for one env at one step, and a gate that blocks Step on worker
// threads until the test opens it.
// Render draws a height x width x 3 frame (2 x 3 by default) whose first
// byte is the env's index, second its count, the others index + count.
#pragma once

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/batch.h"
#include "core/env.h"
#include "core/pool.h"

namespace envpool::testing {

struct TestParams {
  int episode_length = 5;
  bool continuous = false;
  std::int64_t num_actions = 10;
  std::int64_t action_start = 0;
  int max_sleep_us = 0;
  int throw_env = -1;      // this env's Step throws EnvBoom ...
  int throw_at_step = 0;   // ... when it would reach this count
  bool gated = false;
  bool renders = true;      // the factory's RenderSize: a 2 x 3 frame (else none)
  int throw_render_env = -1;  // this env's Render throws EnvBoom
};

struct EnvBoom : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Blocks gated Steps running on any thread other than `exempt` (the test's
// own thread, which helps step inside Recv) while closed.
class Gate {
 public:
  static Gate& Get() {
    static Gate gate;
    return gate;
  }
  void Close() {
    std::lock_guard<std::mutex> lock(mu_);
    open_ = false;
    entered_ = 0;
    exempt_ = std::this_thread::get_id();
  }
  void Open() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      open_ = true;
    }
    cv_.notify_all();
  }
  // Waits until `n` worker Steps are blocked at the gate; false if that
  // does not happen within `guard_seconds` (a deadlock guard, not timing).
  bool WaitEntered(int n, double guard_seconds = 120.0) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, std::chrono::duration<double>(guard_seconds),
                        [&] { return entered_ >= n; });
  }
  void Pass() {
    std::unique_lock<std::mutex> lock(mu_);
    if (open_ || std::this_thread::get_id() == exempt_) return;
    ++entered_;
    cv_.notify_all();
    cv_.wait(lock, [&] { return open_; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool open_ = true;
  int entered_ = 0;
  std::thread::id exempt_;
};

inline void RandomSleep(int max_us) {
  static std::atomic<unsigned> next_seed{12345};
  thread_local std::minstd_rand gen(next_seed.fetch_add(1));
  const int us = static_cast<int>(gen() % static_cast<unsigned>(max_us + 1));
  if (us > 0) std::this_thread::sleep_for(std::chrono::microseconds(us));
}

class CounterEnv final : public Env {
 public:
  CounterEnv(const TestParams& params, int index) : params_(params), index_(index) {}

  void Reset(Rng& rng) override {
    base_ = rng.Integer(0, std::int64_t{1} << 40);
    count_ = 0;
    last_action_ = 0;
    noise_ = 0;
    ++episode_;
  }

  StepOutcome Step(const ActionView& action, Rng& rng) override {
    if (params_.max_sleep_us > 0) RandomSleep(params_.max_sleep_us);
    if (params_.gated) Gate::Get().Pass();
    if (index_ == params_.throw_env && count_ + 1 == params_.throw_at_step) {
      throw EnvBoom("boom in env " + std::to_string(index_));
    }
    StepOutcome out;
    if (params_.continuous) {
      const float* a = action.As<float>();
      out.reward = static_cast<double>(a[0]) + static_cast<double>(a[1]);
      last_action_ = std::llround(static_cast<double>(a[0]) * 1000.0);
    } else {
      last_action_ = action.Scalar<std::int32_t>();
      out.reward = static_cast<double>(last_action_);
    }
    ++count_;
    noise_ = rng.Integer(0, 1000000);
    out.terminated = params_.episode_length > 0 && count_ >= params_.episode_length;
    return out;
  }

  void Write(const Slot& slot) const override {
    std::int64_t* state = slot.Obs<std::int64_t>(0);
    state[0] = index_;
    state[1] = base_;
    state[2] = count_;
    state[3] = last_action_;
    state[4] = noise_;
    *slot.Obs<std::uint8_t>(1) = static_cast<std::uint8_t>(count_ % 2);
    *slot.Info<std::int32_t>(0) = episode_;
  }

  std::vector<double> GetState() const override {
    return {static_cast<double>(count_), static_cast<double>(base_)};
  }

  void Render(int width, int height, int /*camera_id*/, std::uint8_t* out) override {
    if (index_ == params_.throw_render_env) {
      throw EnvBoom("render boom in env " + std::to_string(index_));
    }
    const std::size_t bytes = static_cast<std::size_t>(height == 0 ? 2 : height) *
                              static_cast<std::size_t>(width == 0 ? 3 : width) * 3;
    for (std::size_t k = 0; k < bytes; ++k) out[k] = static_cast<std::uint8_t>(index_ + count_);
    out[0] = static_cast<std::uint8_t>(index_);
    out[1] = static_cast<std::uint8_t>(count_);
  }
  void SetState(const std::vector<double>& state) override {
    if (state.size() != 2) throw std::invalid_argument("CounterEnv state has 2 numbers");
    count_ = static_cast<std::int64_t>(state[0]);
    base_ = static_cast<std::int64_t>(state[1]);
  }

 private:
  TestParams params_;
  int index_;
  std::int64_t base_ = -1;
  std::int64_t count_ = 0;
  std::int64_t last_action_ = 0;
  std::int64_t noise_ = 0;
  std::int32_t episode_ = 0;
};

class TestFactory final : public EnvFactory {
 public:
  explicit TestFactory(const TestParams& params) : params_(params) {
    spec_.obs.push_back(BoxSpec("state", DType::kInt64, {5}));
    spec_.obs.push_back(BoxSpec("parity", DType::kUInt8, {}, {0}, {1}));
    spec_.obs_layout = ObsLayout::kTuple;
    spec_.info.push_back(BoxSpec("episode", DType::kInt32, {}));
    if (params.continuous) {
      spec_.action = BoxSpec("action", DType::kFloat32, {2}, {-1}, {1});
    } else {
      spec_.action = DiscreteSpec("action", params.num_actions, DType::kInt32, params.action_start);
    }
  }
  const EnvSpec& Spec() const override { return spec_; }
  std::unique_ptr<Env> Create() const override {
    return std::make_unique<CounterEnv>(params_, next_index_++);
  }
  std::optional<FrameSize> RenderSize(int width, int height, int camera_id) const override {
    if (!params_.renders) return std::nullopt;
    if (camera_id != -1) throw std::invalid_argument("one camera");
    return FrameSize{height == 0 ? 2 : height, width == 0 ? 3 : width, 30.0};
  }

 private:
  TestParams params_;
  EnvSpec spec_;
  mutable int next_index_ = 0;
};

// ---------------------------------------------------------------------------
// Driving a pool.

// Recv's timeout in the tests: only a guard against a deadlock hanging the
// run (a sanitized build on a busy machine is slow), never a timing check.
constexpr double kGuardSeconds = 120.0;

inline std::unique_ptr<Pool> MakePool(const TestParams& params, PoolOptions options) {
  return std::make_unique<Pool>(std::make_unique<TestFactory>(params), std::move(options));
}

inline PoolOptions Options(int num_envs, int batch_size = 0, int num_threads = 0,
                           AutoresetMode autoreset = AutoresetMode::kNextStep) {
  PoolOptions o;
  o.num_envs = num_envs;
  o.batch_size = batch_size;
  o.num_threads = num_threads;
  o.autoreset = autoreset;
  return o;
}

inline std::vector<std::int64_t> Range(int n) {
  std::vector<std::int64_t> ids(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) ids[i] = i;
  return ids;
}

inline void Send(Pool& pool, const std::vector<std::int64_t>& ids,
                 const std::vector<std::int32_t>& actions) {
  if (ids.size() != actions.size()) throw std::logic_error("test bug: ids/actions sizes differ");
  pool.Send(actions.data(), DType::kInt32, ids.data(), static_cast<int>(ids.size()));
}

inline void SendReset(Pool& pool, const std::vector<std::int64_t>& ids,
                      const std::vector<std::uint64_t>& seeds = {}) {
  pool.SendReset(ids.data(), static_cast<int>(ids.size()), seeds.empty() ? nullptr : seeds.data());
}

inline std::shared_ptr<Batch> Recv(Pool& pool) { return pool.Recv(kGuardSeconds, nullptr); }

// One row of a batch, copied out.
struct Row {
  int env_id = -1;
  std::vector<std::int64_t> state;  // obs[0]
  int parity = 0;                   // obs[1]
  int episode = 0;                  // info[0]
  float reward = 0;
  bool terminated = false;
  bool truncated = false;
  int elapsed = 0;
  // Same-step autoreset only.
  bool has_final = false;
  std::vector<std::int64_t> final_state;
  int final_parity = 0;
  int final_episode = 0;
  int final_elapsed = 0;

  std::int64_t index() const { return state[0]; }
  std::int64_t base() const { return state[1]; }
  std::int64_t count() const { return state[2]; }
  std::int64_t last_action() const { return state[3]; }
  bool done() const { return terminated || truncated; }

  bool operator==(const Row& o) const {
    return env_id == o.env_id && state == o.state && parity == o.parity && episode == o.episode &&
           reward == o.reward && terminated == o.terminated && truncated == o.truncated &&
           elapsed == o.elapsed && has_final == o.has_final && final_state == o.final_state &&
           final_parity == o.final_parity && final_episode == o.final_episode &&
           final_elapsed == o.final_elapsed;
  }
  bool operator!=(const Row& o) const { return !(*this == o); }

  std::string ToString() const {
    std::string s = "env " + std::to_string(env_id) + " state [";
    for (std::size_t i = 0; i < state.size(); ++i) s += (i ? " " : "") + std::to_string(state[i]);
    s += "] reward " + std::to_string(reward) + " term " + std::to_string(terminated) + " trunc " +
         std::to_string(truncated) + " elapsed " + std::to_string(elapsed);
    if (has_final) {
      s += " final [";
      for (std::size_t i = 0; i < final_state.size(); ++i) {
        s += (i ? " " : "") + std::to_string(final_state[i]);
      }
      s += "] final_elapsed " + std::to_string(final_elapsed);
    }
    return s;
  }
};

inline std::vector<std::int64_t> StateAt(Column& column, int row) {
  const auto* p = reinterpret_cast<const std::int64_t*>(column.Row(row));
  return std::vector<std::int64_t>(p, p + 5);
}

inline Row ReadRow(Batch& b, int r) {
  Row row;
  row.env_id = b.env_id.At<std::int32_t>(r);
  row.state = StateAt(b.obs[0], r);
  row.parity = b.obs[1].At<std::uint8_t>(r);
  row.episode = b.info[0].At<std::int32_t>(r);
  row.reward = b.reward.At<float>(r);
  row.terminated = b.terminated.At<bool>(r);
  row.truncated = b.truncated.At<bool>(r);
  row.elapsed = b.elapsed_step.At<std::int32_t>(r);
  if (b.keeps_final()) {
    row.has_final = true;
    row.final_state = StateAt(b.final_obs[0], r);
    row.final_parity = b.final_obs[1].At<std::uint8_t>(r);
    row.final_episode = b.final_info[0].At<std::int32_t>(r);
    row.final_elapsed = b.final_elapsed_step.At<std::int32_t>(r);
  }
  return row;
}

inline std::vector<Row> ReadRows(Batch& b) {
  std::vector<Row> rows;
  const int size = b.size.load();
  for (int r = 0; r < size; ++r) rows.push_back(ReadRow(b, r));
  return rows;
}

// Sends and receives one step of every env (sync pools), or a reset.
inline std::vector<Row> StepAll(Pool& pool, const std::vector<std::int32_t>& actions) {
  Send(pool, Range(static_cast<int>(actions.size())), actions);
  return ReadRows(*Recv(pool));
}
inline std::vector<Row> ResetAll(Pool& pool) {
  SendReset(pool, Range(pool.options().num_envs));
  return ReadRows(*Recv(pool));
}

}  // namespace envpool::testing
