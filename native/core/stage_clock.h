// Where a pool's threads spend their time, stage by stage: off unless
// PoolOptions::stage_times is set (Python: ENVPOOL_STAGE_TIMES=1), then one
// StageClock per thread (each worker, and the calling thread's in Pool).
//
// A clock is always in one stage; Enter(s) books the time since the last
// switch to the stage it was in and switches to s, so a thread's stages add
// up to its wall time and a nested stage (an env's preprocessing inside its
// step) is not counted twice. StageScope enters a stage for a scope and goes
// back to the previous one at its end; with a null clock it does nothing, so
// the pool and the envs pay one branch per scope when timing is off.
//
// Envs mark the parts of their step worth telling apart with
// `StageScope scope(stage_clock(), Stage::kPreprocess)` (Env::stage_clock()).
//
// Threading: each clock is written by its own thread only; Snapshot() may be
// called from any thread (relaxed loads: a snapshot taken while the pool runs
// may be a few switches behind).
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>

namespace envpool {

enum class Stage : std::uint8_t {
  kCaller,      // the calling thread between the pool's calls (Python, the user's code)
  kAdmission,   // send: ids and actions checked and converted, tasks queued
  kWake,        // waking sleeping threads (a send's workers, a waiting recv)
  kRecvWait,    // recv / render: spinning or asleep until the batch is complete
  kIdle,        // a worker without tasks: spinning, then asleep
  kQueue,       // taking tasks from the queue
  kStep,        // Env::Step, less the parts below that it marks
  kReset,       // Env::Reset (and drawing an env's ranges)
  kPreprocess,  // marked by envs: grayscale, max-pool, resize, frame stack
  kDraw,        // marked by envs: drawing a picture (pixel observations)
  kWrite,       // Env::Write: the observation and info into the batch's row
  kHandOff,     // a row claimed, the pool's own columns, the batch completed
  kRender,      // render tasks
  kCount
};

inline constexpr std::array<const char*, static_cast<std::size_t>(Stage::kCount)> kStageNames{
    "caller",     "admission", "wake", "recv_wait", "idle",  "queue",    "step",
    "reset",      "preprocess", "draw", "write",    "hand_off", "render"};

struct StageTimes {
  std::array<std::int64_t, static_cast<std::size_t>(Stage::kCount)> ns{};
  std::array<std::int64_t, static_cast<std::size_t>(Stage::kCount)> entries{};
};

class StageClock {
 public:
  using Clock = std::chrono::steady_clock;

  explicit StageClock(Stage start) : current_(start), last_(Clock::now()) {}
  StageClock(const StageClock&) = delete;
  StageClock& operator=(const StageClock&) = delete;

  // Books the time since the last switch to the current stage, switches to
  // `s` and counts an entry into it; returns the stage it left.
  Stage Enter(Stage s) {
    const Stage left = Switch(s);
    Bump(entries_[Index(s)], 1);
    return left;
  }
  // As Enter, without counting an entry (a scope going back to its stage).
  Stage Switch(Stage s) {
    const Clock::time_point now = Clock::now();
    Bump(ns_[Index(current_)],
         std::chrono::duration_cast<std::chrono::nanoseconds>(now - last_).count());
    last_ = now;
    const Stage left = current_;
    current_ = s;
    return left;
  }

  // The times booked so far (not the running stage's current stretch).
  StageTimes Snapshot() const {
    StageTimes t;
    for (std::size_t k = 0; k < t.ns.size(); ++k) {
      t.ns[k] = ns_[k].load(std::memory_order_relaxed);
      t.entries[k] = entries_[k].load(std::memory_order_relaxed);
    }
    return t;
  }

 private:
  static std::size_t Index(Stage s) { return static_cast<std::size_t>(s); }
  // Only this clock's thread writes: a relaxed load and store, no locked add.
  static void Bump(std::atomic<std::int64_t>& a, std::int64_t by) {
    a.store(a.load(std::memory_order_relaxed) + by, std::memory_order_relaxed);
  }

  Stage current_;
  Clock::time_point last_;
  std::array<std::atomic<std::int64_t>, static_cast<std::size_t>(Stage::kCount)> ns_{};
  std::array<std::atomic<std::int64_t>, static_cast<std::size_t>(Stage::kCount)> entries_{};
};

// Enters `stage` on `clock` (if any) for the scope's life, then goes back to
// the stage the clock was in.
class StageScope {
 public:
  StageScope(StageClock* clock, Stage stage) : clock_(clock) {
    if (clock_ != nullptr) previous_ = clock_->Enter(stage);
  }
  StageScope(const StageScope&) = delete;
  StageScope& operator=(const StageScope&) = delete;
  ~StageScope() {
    if (clock_ != nullptr) clock_->Switch(previous_);
  }

 private:
  StageClock* clock_;
  Stage previous_ = Stage::kCaller;
};

}  // namespace envpool
