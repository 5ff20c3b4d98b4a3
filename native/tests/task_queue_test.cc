// Tests of the pool's second stage (task_queue.h): pushes and the shares taken,
// sleeping workers woken by pushes and by Stop.
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "core/task_queue.h"
#include "tests/check.h"

using namespace envpool;

namespace {

// Pushes tasks for the envs first .. first + n - 1.
int PushEnvs(TaskQueue& queue, int first, int n) {
  return queue.Push(n, [&](int k) { return Task{first + k, nullptr, k}; });
}

// Waits (a deadlock guard, not timing) until `ready()`.
template <class Ready>
bool Eventually(const Ready& ready) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!ready()) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

}  // namespace

TEST(tasks_come_out_in_order_in_guided_shares) {
  TaskQueue queue;
  TaskQueue::Chunk chunk;
  CHECK_EQ(queue.Take(chunk, 2), 0u);
  CHECK_EQ(PushEnvs(queue, 0, 100), 0);  // nobody asleep
  CHECK_EQ(queue.queued(), 100);
  // A quarter of each thread's share, at most kMaxChunk, at least one.
  CHECK_EQ(queue.Take(chunk, 2), TaskQueue::kMaxChunk);
  for (std::size_t k = 0; k < TaskQueue::kMaxChunk; ++k) {
    CHECK_EQ(chunk[k].env_id, static_cast<int>(k));
    CHECK_EQ(chunk[k].row, static_cast<int>(k));
    CHECK(chunk[k].render == nullptr);
  }
  CHECK_EQ(queue.queued(), 92);
  CHECK_EQ(queue.Take(chunk, 23), 1u);  // 92 / (4 * 23)
  CHECK_EQ(chunk[0].env_id, 8);
  CHECK_EQ(queue.Take(chunk, 4), 5u);  // 91 / 16
  CHECK_EQ(chunk[0].env_id, 9);
  CHECK_EQ(chunk[4].env_id, 13);
  int taken = 14;
  std::size_t n = 0;
  while ((n = queue.Take(chunk, 1)) > 0) {
    for (std::size_t k = 0; k < n; ++k) CHECK_EQ(chunk[k].env_id, taken++);
  }
  CHECK_EQ(taken, 100);
  CHECK_EQ(queue.queued(), 0);
}

TEST(tasks_keep_their_batch_alive) {
  TaskQueue queue;
  EnvSpec spec;
  spec.action = DiscreteSpec("action", 2, DType::kInt32);
  auto batch = std::make_shared<Batch>(spec, 2, false);
  queue.Push(2, [&](int k) { return Task{k, batch, k}; });
  CHECK_EQ(batch.use_count(), 3);
  TaskQueue::Chunk chunk;
  CHECK_EQ(queue.Take(chunk, 1), 1u);
  CHECK(chunk[0].batch == batch);
  queue.Stop();  // drops the one still queued
  CHECK_EQ(batch.use_count(), 2);
}

TEST(sleepers_wake_for_tasks_and_for_stop) {
  TaskQueue queue;
  std::atomic<int> woke{0}, stopped{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&] {
      for (;;) {
        if (!queue.Sleep()) {
          ++stopped;
          return;
        }
        TaskQueue::Chunk chunk;
        woke += static_cast<int>(queue.Take(chunk, 1));
      }
    });
  }
  // Both asleep: a push says so, and a wake-up sends one to the task.
  CHECK(Eventually([&] { return PushEnvs(queue, 0, 0) == 2; }));
  CHECK_EQ(PushEnvs(queue, 0, 1), 2);
  queue.Wake(1);
  CHECK(Eventually([&] { return woke.load() == 1; }));
  CHECK(Eventually([&] { return PushEnvs(queue, 0, 0) == 2; }));
  queue.Stop();
  for (std::thread& t : threads) t.join();
  CHECK_EQ(stopped.load(), 2);
  CHECK(queue.stopping());
  CHECK(!queue.Sleep());  // never sleeps once stopped
}

int main(int argc, char** argv) { return check::RunAll(argc, argv); }
