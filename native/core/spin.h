// The short spin-waits of the pool's threads: a worker that ran out of tasks
// (workers.h) and a recv or render waiting for the last envs (recv.h) keep
// looking for a little while before they sleep on a condition variable.
#pragma once

#include <chrono>
#include <cstdint>
#include <thread>

namespace envpool::spin {

using Clock = std::chrono::steady_clock;

// How often a sleeping recv or render wakes up (to call its poll function, to
// look at the clock); a bound on the sleeps, not a delay.
inline constexpr auto kPollInterval = std::chrono::milliseconds(20);

// How long a worker that ran out of tasks, or a recv that has nothing left to
// step, keeps looking before it sleeps on its condition variable. A round of
// a fast env (send, a few microseconds of stepping, recv) then needs no thread
// wake-up at all (each costs tens of microseconds on a loaded machine), and a
// pool left alone sleeps after this long: idle, it uses no CPU.
inline constexpr auto kSpinTime = std::chrono::microseconds(50);

// A sleeping worker is woken for queued tasks only when they hold at least
// this much work for it (the tasks' count times their measured cost, see
// Workers::WorthWaking): a wake-up costs the sender a system call and the
// woken thread microseconds before it runs, and a worker that takes a share
// of a few tiny steps slows the caller down with cache traffic more than it
// helps. Sync CartPole on 2 cores (docs/design-notes.md): never waking gains
// 1.5x at 8 envs and 2x at 32, always waking 1.7x at 128 (about 10 us of
// work), so the bar is 8 us. Sync mode only (see Pool::Enqueue).
inline constexpr std::int64_t kWakeWorthNs = 8000;
// What a task is assumed to cost until one is timed: enough to wake every worker.
inline constexpr std::int64_t kAssumedTaskNs = 1000000;

// One round of a spin-wait: a pause, and every few rounds a yield, so that on
// a machine with fewer cores than threads the thread being waited for runs.
inline void Pause(int round) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
  if (round % 16 == 15) std::this_thread::yield();
}

// Spins until `ready()` or kSpinTime has passed; returns ready().
template <class Ready>
bool Until(const Ready& ready) {
  const Clock::time_point until = Clock::now() + kSpinTime;
  for (int round = 0;; ++round) {
    if (ready()) return true;
    if ((round & 15) == 15 && Clock::now() >= until) return ready();
    Pause(round);
  }
}

}  // namespace envpool::spin
