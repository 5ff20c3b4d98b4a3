// Tests of the stage clock (stage_clock.h) and of what the pool books on it
// (PoolOptions::stage_times), and of the workers' wake-up rule
// (Workers::WorthWaking).
#include <chrono>
#include <thread>
#include <vector>

#include "core/pool.h"
#include "core/stage_clock.h"
#include "tests/check.h"
#include "tests/test_envs.h"

using namespace envpool;
using namespace envpool::testing;

namespace {

std::int64_t Ns(const StageTimes& t, Stage s) { return t.ns[static_cast<std::size_t>(s)]; }
std::int64_t Entries(const StageTimes& t, Stage s) {
  return t.entries[static_cast<std::size_t>(s)];
}

void Steps(Pool& pool, int n, int rounds) {
  const std::vector<std::int64_t> ids = Range(n);
  const std::vector<std::int32_t> actions(static_cast<std::size_t>(n), 1);
  for (int r = 0; r < rounds; ++r) {
    pool.Send(actions.data(), DType::kInt32, ids.data(), n);
    pool.Recv(kGuardSeconds, nullptr);
  }
}

}  // namespace

TEST(a_nested_stage_is_not_booked_to_the_outer_one) {
  StageClock clock(Stage::kIdle);
  {
    const StageScope step(&clock, Stage::kStep);
    {
      const StageScope pre(&clock, Stage::kPreprocess);
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
    }
  }
  const StageTimes t = clock.Snapshot();
  CHECK(Ns(t, Stage::kPreprocess) >= 30'000'000);
  // The step itself did nothing but enter and leave: far less than its child's sleep.
  CHECK(Ns(t, Stage::kStep) < 15'000'000);
  CHECK_EQ(Entries(t, Stage::kStep), 1);
  CHECK_EQ(Entries(t, Stage::kPreprocess), 1);  // going back to kStep is not an entry
  CHECK_EQ(Entries(t, Stage::kIdle), 0);
}

TEST(a_null_clock_books_nothing) {
  const StageScope scope(nullptr, Stage::kStep);  // must not crash
  CHECK(true);
}

TEST(the_pool_books_every_step_and_reset_with_stage_times) {
  TestParams params;
  params.episode_length = 1000;  // no autoreset among the 25 steps
  PoolOptions o = Options(4, 0, 2);
  o.stage_times = true;
  std::unique_ptr<Pool> pool = MakePool(params, o);
  const std::vector<std::int64_t> ids = Range(4);
  pool->SendReset(ids.data(), 4, nullptr);
  pool->Recv(kGuardSeconds, nullptr);
  Steps(*pool, 4, 25);
  const std::vector<StageTimes> report = pool->StageReport();
  CHECK_EQ(report.size(), 3u);  // the caller and two workers
  std::int64_t steps = 0, resets = 0;
  for (const StageTimes& t : report) {
    steps += Entries(t, Stage::kStep);
    resets += Entries(t, Stage::kReset);
  }
  CHECK_EQ(steps, 100);
  CHECK_EQ(resets, 4);
  CHECK_EQ(Entries(report[0], Stage::kAdmission), 26);  // one per send and send_reset
  CHECK_EQ(Entries(report[0], Stage::kRecvWait), 26);
  CHECK_EQ(Entries(report[1], Stage::kAdmission), 0);  // workers never admit
}

TEST(without_stage_times_there_is_no_report) {
  TestParams params;
  std::unique_ptr<Pool> pool = MakePool(params, Options(2));
  Steps(*pool, 2, 3);
  CHECK(pool->StageReport().empty());
}

TEST(tiny_steps_wake_no_worker_costly_ones_do) {
  TestParams params;  // the counter env: a step of a few hundred nanoseconds
  std::unique_ptr<Pool> pool = MakePool(params, Options(8, 0, 3));
  const std::vector<std::int64_t> ids = Range(8);
  Steps(*pool, 8, 200);
  // spin::kWakeWorthNs of work per woken worker: a tiny step is not worth one
  // (one step: a sanitized build's steps are ten times slower).
  CHECK_EQ(pool->WorthWaking(1, 3), 0);
  TestParams slow;
  slow.max_sleep_us = 2000;  // about a millisecond per step on average
  std::unique_ptr<Pool> slow_pool = MakePool(slow, Options(8, 0, 3));
  Steps(*slow_pool, 8, 5);
  CHECK_EQ(slow_pool->WorthWaking(8, 3), 3);
  CHECK_EQ(slow_pool->WorthWaking(8, 0), 0);
}

int main(int argc, char** argv) { return check::RunAll(argc, argv); }
