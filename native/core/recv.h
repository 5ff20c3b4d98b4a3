// The pool's last stage (pool.h): completion, and Recv's wait for it. Workers
// post here what they finish (a complete batch, a complete render job, an
// error); the calling thread waits here in Recv (and in Render), stepping
// queued envs itself meanwhile when it is asked to help, spinning a little on
// the count of completions before it sleeps on the condition variable.
//
// Sync mode: the batch Recv returns is the one the sends since the last Recv
// filled, complete once its last row is written. Async mode: complete batches
// queue up here in the order they complete.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/batch.h"
#include "core/spin.h"

namespace envpool {

// Raised by Recv when the timeout passes first.
class TimeoutError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Completion {
 public:
  // Worker side: a batch or a render job is complete; `ready` (async mode:
  // the batch) is queued for Recv.
  void Complete(std::shared_ptr<Batch> ready) {
    std::lock_guard<std::mutex> lock(mu_);
    if (ready) ready_.push_back(std::move(ready));
    completed_.fetch_add(1, std::memory_order_release);
    if (waiting_) cv_.notify_all();
  }
  // Worker side: a task threw. The first error is kept; Recv rethrows it.
  void Fail(std::exception_ptr error) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!error_) error_ = std::move(error);
    completed_.fetch_add(1, std::memory_order_release);
    cv_.notify_all();
  }

  // Recv's wait. Sync mode (`pending` set): until the batch *pending is
  // filled, which is then moved out and returned; async mode (`pending`
  // null): until a batch is queued, which is returned. `timeout_seconds` < 0
  // waits forever, stepping queued envs with `help()` (which returns false
  // when there was nothing to step) meanwhile; a timeout only waits. `poll`
  // (may be empty) is called every kPollInterval or so while waiting. Throws
  // TimeoutError, or rethrows a task's error: the pool is broken from then on.
  template <class Help>
  std::shared_ptr<Batch> Wait(std::shared_ptr<Batch>* pending, double timeout_seconds,
                              const Help& help, const std::function<void()>& poll) {
    using spin::Clock;
    const bool forever = timeout_seconds < 0;
    const Clock::time_point deadline =
        forever ? Clock::time_point::max() : Deadline(timeout_seconds);
    auto ready = [&]() -> bool {  // mu_ held
      if (error_) return true;
      if (pending != nullptr) {
        return (*pending)->filled.load(std::memory_order_acquire) == (*pending)->size.load();
      }
      return !ready_.empty();
    };
    Clock::time_point last_poll = Clock::now();
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mu_);
        if (!ready()) {
          lock.unlock();
          if (forever && help()) {
            if (poll && Clock::now() - last_poll > spin::kPollInterval) {
              last_poll = Clock::now();
              poll();
            }
            continue;
          }
          // Nothing left to step: the last envs are on workers. Watch for
          // them a little before sleeping (spin::kSpinTime).
          const int seen = completed_.load(std::memory_order_acquire);
          spin::Until([&] { return completed_.load(std::memory_order_acquire) != seen; });
          lock.lock();
          if (!ready()) {
            const Clock::time_point until =
                std::min(deadline, Clock::now() + spin::kPollInterval);
            waiting_ = true;
            cv_.wait_until(lock, until, ready);
            waiting_ = false;
          }
        }
        if (error_) RethrowError();
        if (ready()) {
          std::shared_ptr<Batch> result;
          if (pending != nullptr) {
            result = std::move(*pending);
          } else {
            result = std::move(ready_.front());
            ready_.pop_front();
          }
          return result;
        }
      }
      if (poll) {
        last_poll = Clock::now();
        poll();
      }
      if (!forever && Clock::now() >= deadline) ThrowTimeout(timeout_seconds);
    }
  }

  // Render's wait: until `finished()`, calling `help()` (true when it ran
  // something) meanwhile, then spinning and sleeping until a completion.
  template <class Finished, class Help>
  void HelpUntil(const Finished& finished, const Help& help) {
    while (!finished()) {
      if (help()) continue;
      const int seen = completed_.load(std::memory_order_acquire);
      if (spin::Until([&] {
            return finished() || completed_.load(std::memory_order_acquire) != seen;
          })) {
        continue;
      }
      std::unique_lock<std::mutex> lock(mu_);
      waiting_ = true;
      cv_.wait_for(lock, spin::kPollInterval, finished);
      waiting_ = false;
    }
  }

  // The error a Recv rethrew ("" while none): the pool refuses every later call.
  const std::string& broken() const { return broken_; }

 private:
  static spin::Clock::time_point Deadline(double timeout_seconds);
  [[noreturn]] static void ThrowTimeout(double timeout_seconds);
  // Keeps the error's message as broken() and rethrows it (mu_ held).
  [[noreturn]] void RethrowError();

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::shared_ptr<Batch>> ready_;  // async mode: complete batches
  std::exception_ptr error_;
  std::atomic<int> completed_{0};  // completions (and errors): what a spinning wait watches
  bool waiting_ = false;           // a wait sleeps on cv_
  std::string broken_;             // caller thread: set once Recv rethrew error_
};

}  // namespace envpool
