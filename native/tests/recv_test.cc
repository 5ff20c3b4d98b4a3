// Tests of the pool's last stage (recv.h): Completion by itself, then Recv's
// errors, timeouts and env exceptions through a Pool.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <thread>

#include "tests/check.h"
#include "tests/test_envs.h"

using namespace envpool;
using namespace envpool::testing;

namespace {

std::shared_ptr<Batch> EmptyBatch(int rows) {
  static const EnvSpec spec = [] {
    EnvSpec s;
    s.action = DiscreteSpec("action", 2, DType::kInt32);
    return s;
  }();
  auto batch = std::make_shared<Batch>(spec, rows, false);
  batch->size.store(rows);
  return batch;
}

const auto kNoHelp = [] { return false; };

}  // namespace

// ---------------------------------------------------------------------------
// Completion by itself.

TEST(completion_hands_out_async_batches_in_order) {
  Completion completion;
  std::shared_ptr<Batch> a = EmptyBatch(1), b = EmptyBatch(1);
  completion.Complete(a);
  completion.Complete(b);
  CHECK(completion.Wait(nullptr, -1, kNoHelp, nullptr) == a);
  CHECK(completion.Wait(nullptr, 0.0, kNoHelp, nullptr) == b);
  // Nothing queued: a timeout, after which waiting still works.
  CHECK_THROWS_MSG(completion.Wait(nullptr, 0.01, kNoHelp, nullptr), TimeoutError,
                   "recv() timed out after 0.01");
  completion.Complete(a);
  CHECK(completion.Wait(nullptr, 0.0, kNoHelp, nullptr) == a);
  CHECK(completion.broken().empty());
}

TEST(completion_waits_for_the_sync_batch_to_fill_helping) {
  Completion completion;
  std::shared_ptr<Batch> pending = EmptyBatch(3);
  const Batch* expected = pending.get();
  int helped = 0;
  // Each help writes a row; the wait ends once the last one is written.
  auto help = [&] {
    if (pending->filled.load() == 3) return false;
    ++helped;
    pending->filled.fetch_add(1);
    return true;
  };
  std::shared_ptr<Batch> got = completion.Wait(&pending, -1, help, nullptr);
  CHECK(got.get() == expected);
  CHECK(pending == nullptr);  // moved out
  CHECK_EQ(helped, 3);
  // With a timeout it only waits: a worker's completion ends the wait.
  pending = EmptyBatch(1);
  std::thread worker([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    pending->filled.store(1);
    completion.Complete(nullptr);
  });
  got = completion.Wait(&pending, kGuardSeconds, help, nullptr);
  worker.join();
  CHECK(got != nullptr);
  CHECK_EQ(helped, 3);
}

TEST(completion_rethrows_a_tasks_error_and_stays_broken) {
  Completion completion;
  try {
    throw EnvBoom("boom in a task");
  } catch (...) {
    completion.Fail(std::current_exception());
  }
  try {
    throw EnvBoom("a later error");
  } catch (...) {
    completion.Fail(std::current_exception());  // the first is kept
  }
  completion.Complete(EmptyBatch(1));
  CHECK_THROWS_MSG(completion.Wait(nullptr, -1, kNoHelp, nullptr), EnvBoom, "boom in a task");
  CHECK_EQ(completion.broken(), std::string("boom in a task"));
}

TEST(completion_help_until_a_render_job_is_done) {
  Completion completion;
  std::atomic<int> left{4};
  int helped = 0;
  // The caller runs two of the four; a worker finishes the others later.
  std::thread worker;
  completion.HelpUntil([&] { return left.load() == 0; },
                       [&] {
                         if (helped == 2) {
                           if (!worker.joinable()) {
                             worker = std::thread([&] {
                               std::this_thread::sleep_for(std::chrono::milliseconds(20));
                               left -= 2;
                               completion.Complete(nullptr);
                             });
                           }
                           return false;
                         }
                         ++helped;
                         --left;
                         return true;
                       });
  worker.join();
  CHECK_EQ(helped, 2);
  CHECK_EQ(left.load(), 0);
}

// ---------------------------------------------------------------------------
// Through a Pool.

TEST(recv_with_nothing_in_flight_throws) {
  auto sync_pool = MakePool(TestParams{}, Options(2, 0, 1));
  CHECK_THROWS_MSG(Recv(*sync_pool), std::runtime_error, "nothing in flight");
  ResetAll(*sync_pool);
  CHECK_THROWS_MSG(Recv(*sync_pool), std::runtime_error, "nothing in flight");
  StepAll(*sync_pool, {1, 1});  // still usable

  auto async_pool = MakePool(TestParams{}, Options(4, 2, 2));
  CHECK_THROWS_MSG(Recv(*async_pool), std::runtime_error, "would wait forever");
  SendReset(*async_pool, {0});
  CHECK_THROWS_MSG(Recv(*async_pool), std::runtime_error, "would wait forever");
  SendReset(*async_pool, {3});
  CHECK_EQ(Recv(*async_pool)->size.load(), 2);
  // These are not timeouts.
  try {
    Recv(*async_pool);
    CHECK(false);
  } catch (const TimeoutError&) {
    CHECK(false);
  } catch (const std::runtime_error&) {
  }
}

TEST(recv_timeout_then_pool_still_works) {
  TestParams p;
  p.gated = true;
  Gate& gate = Gate::Get();
  for (int batch : {0, 1}) {
    // Sync: two envs and one worker; the worker blocks in one Step at the
    // gate, the test thread (exempt) steps the other inside Recv.
    // Async: batch_size 1, one env sent; the worker blocks in its Step.
    auto pool = MakePool(p, Options(2, batch, 1));
    // Declared after the pool: if a check fails, the gate opens before the
    // pool joins its workers.
    struct OpenAtExit {
      ~OpenAtExit() { Gate::Get().Open(); }
    } open_at_exit;
    ResetAll(*pool);
    if (batch == 1) Recv(*pool);
    gate.Close();
    if (batch == 0) {
      Send(*pool, {0, 1}, {3, 4});
    } else {
      Send(*pool, {0}, {3});
    }
    if (!gate.WaitEntered(1)) {
      gate.Open();
      CHECK_MSG(false, "no worker thread picked up the gated step");
    }
    CHECK_THROWS_MSG(pool->Recv(0.02, nullptr), TimeoutError, "timed out");
    CHECK_THROWS(pool->Recv(0.0, nullptr), TimeoutError);
    // The ids are still in flight.
    CHECK_THROWS_MSG(Send(*pool, {0}, {1}), std::invalid_argument, "in flight");
    // A poll callback that throws (e.g. Ctrl-C) aborts the wait the same way.
    struct Interrupted {};
    int polls = 0;
    bool interrupted = false;
    try {
      pool->Recv(kGuardSeconds, [&] {
        if (++polls == 2) throw Interrupted{};
      });
    } catch (const Interrupted&) {
      interrupted = true;
    }
    CHECK(interrupted);
    gate.Open();
    std::vector<Row> rows = ReadRows(*Recv(*pool));
    if (batch == 0) {
      CHECK_EQ(rows.size(), 2u);
      CHECK_EQ(rows[0].env_id, 0);
      CHECK_EQ(rows[0].reward, 3.0f);
      CHECK_EQ(rows[1].env_id, 1);
      CHECK_EQ(rows[1].reward, 4.0f);
    } else {
      CHECK_EQ(rows.size(), 1u);
      CHECK_EQ(rows[0].env_id, 0);
      CHECK_EQ(rows[0].reward, 3.0f);
    }
    for (const Row& r : rows) CHECK_EQ(r.count(), 1);
    // And it goes on normally.
    Send(*pool, {1, 0}, {5, 6});
    rows.clear();
    while (rows.size() < 2) {
      for (const Row& r : ReadRows(*Recv(*pool))) rows.push_back(r);
    }
    for (const Row& r : rows) {
      CHECK_EQ(r.count(), r.env_id == 0 ? 2 : (batch == 0 ? 2 : 1));
      CHECK_EQ(r.reward, r.env_id == 1 ? 5.0f : 6.0f);
    }
  }
}

// ---------------------------------------------------------------------------
// An exception inside an env.

TEST(env_exception_comes_out_of_recv_and_breaks_pool) {
  TestParams p;
  p.throw_env = 2;
  p.throw_at_step = 2;
  for (int batch : {0, 2}) {
    for (int threads : {1, 3}) {
      const int n = 4;
      auto pool = MakePool(p, Options(n, batch, threads));
      SendReset(*pool, Range(n));
      for (int k = 0; k < (batch == 0 ? 1 : 2); ++k) Recv(*pool);
      Send(*pool, Range(n), {1, 1, 1, 1});
      for (int k = 0; k < (batch == 0 ? 1 : 2); ++k) Recv(*pool);
      Send(*pool, Range(n), {1, 1, 1, 1});
      bool thrown = false;
      for (int k = 0; k < 2 && !thrown; ++k) {
        try {
          Recv(*pool);
        } catch (const EnvBoom& e) {
          thrown = true;
          CHECK(std::string(e.what()) == "boom in env 2");
        }
      }
      CHECK(thrown);
      // From now on the pool refuses to work, naming the error.
      CHECK_THROWS_MSG(Recv(*pool), std::runtime_error, "boom in env 2");
      CHECK_THROWS_MSG(Send(*pool, {0}, {1}), std::runtime_error, "boom in env 2");
      CHECK_THROWS_MSG(SendReset(*pool, {0}), std::runtime_error, "boom in env 2");
      CHECK_THROWS_MSG(pool->GetState(0), std::runtime_error, "boom in env 2");
      CHECK(!pool->closed());
      pool->Close();
      CHECK(pool->closed());
      CHECK_THROWS_MSG(Recv(*pool), std::runtime_error, "closed");
    }
  }
}

TEST(env_exception_on_the_caller_thread) {
  // The caller thread itself runs the failing Step (sync, one env sent).
  TestParams p;
  p.throw_env = 0;
  p.throw_at_step = 1;
  auto pool = MakePool(p, Options(2, 0, 1));
  ResetAll(*pool);
  Send(*pool, {0}, {1});
  CHECK_THROWS_MSG(Recv(*pool), EnvBoom, "boom in env 0");
  CHECK_THROWS(Send(*pool, {1}, {1}), std::runtime_error);
}

int main(int argc, char** argv) { return check::RunAll(argc, argv); }
