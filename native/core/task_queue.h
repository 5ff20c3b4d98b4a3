// The pool's second stage (pool.h): the task queue between the calling thread
// and the workers. A task is a step or a reset of one env (told apart by the
// env's state, workers.h) or the drawing of one frame of a render job: one
// pointer tells a render from the rest, so stepping pays nothing for render.
//
// The caller pushes a send's tasks at once, under the queue's lock, and wakes
// as many sleeping workers as it wants; workers (and the caller, while it
// waits in Recv or Render) take a share of the queue at a time. A worker that
// finds the queue empty may spin on queued() before it sleeps on the queue's
// condition variable (Sleep). Stop ends the workers' sleeps for good.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>

#include "core/batch.h"

namespace envpool {

struct RenderJob;  // workers.h

struct Task {
  int env_id;
  std::shared_ptr<Batch> batch;  // sync mode: the batch and row assigned at send time
  int row;                       // (render tasks: the frame's row)
  RenderJob* render = nullptr;   // set for a render task
};

class TaskQueue {
 public:
  // The most tasks taken at once.
  static constexpr std::size_t kMaxChunk = 8;
  using Chunk = std::array<Task, kMaxChunk>;

  // Pushes the tasks make(0), ..., make(n - 1) at once; returns the number of
  // workers asleep at that moment (the most that Wake can wake).
  template <class Make>
  int Push(int n, const Make& make) {
    std::lock_guard<std::mutex> lock(mu_);
    for (int k = 0; k < n; ++k) tasks_.push_back(make(k));
    queued_.store(static_cast<int>(tasks_.size()), std::memory_order_release);
    return sleepers_;
  }
  // Wakes `count` sleeping workers (one each); WakeAll wakes every one.
  void Wake(int count) {
    for (int k = 0; k < count; ++k) cv_.notify_one();
  }
  void WakeAll() { cv_.notify_all(); }

  // Moves a share of the queue into `chunk` and returns how many tasks it
  // took (0: the queue was empty). The share is guided by the `threads` that
  // take from the queue: a quarter of what each would get, at least one, at
  // most kMaxChunk. Consecutive tasks are consecutive rows of a sync batch,
  // so threads write apart and take the lock less often, while the last tasks
  // still spread.
  std::size_t Take(Chunk& chunk, int threads) {
    std::lock_guard<std::mutex> lock(mu_);
    if (tasks_.empty()) return 0;
    const std::size_t share = tasks_.size() / (4 * static_cast<std::size_t>(threads));
    const std::size_t taken = std::clamp<std::size_t>(share, 1, kMaxChunk);
    for (std::size_t k = 0; k < taken; ++k) {
      chunk[k] = std::move(tasks_.front());
      tasks_.pop_front();
    }
    queued_.store(static_cast<int>(tasks_.size()), std::memory_order_release);
    return taken;
  }

  // Sleeps until a task is queued or the queue is stopped; false once stopped.
  bool Sleep() {
    std::unique_lock<std::mutex> lock(mu_);
    ++sleepers_;
    cv_.wait(lock, [this] { return stop_ || !tasks_.empty(); });
    --sleepers_;
    return !stop_;
  }
  // Without the lock, for threads that spin: the tasks queued (as of the last
  // push or take) and whether the queue is stopped.
  int queued() const { return queued_.load(std::memory_order_acquire); }
  bool stopping() const { return stopping_.load(std::memory_order_acquire); }

  // Drops the queued tasks and ends every sleep, now and later.
  void Stop() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
      stopping_.store(true, std::memory_order_release);
      tasks_.clear();
      queued_.store(0, std::memory_order_release);
    }
    cv_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Task> tasks_;
  bool stop_ = false;
  int sleepers_ = 0;                   // threads waiting on cv_
  std::atomic<int> queued_{0};         // tasks_.size(), for spinning threads
  std::atomic<bool> stopping_{false};  // stop_, for spinning threads
};

}  // namespace envpool
