// Stress tests, mostly for ThreadSanitizer: many envs, small batches, many
// iterations, in every mode, with every row checked against a model of what
// the env must return (so a lost, duplicated or torn row fails the test).
#include <algorithm>
#include <chrono>
#include <map>
#include <random>
#include <thread>

#include "tests/check.h"
#include "tests/test_envs.h"

using namespace envpool;
using namespace envpool::testing;

namespace {

constexpr int kEpisodeLength = 5;
constexpr int kMaxEpisodeSteps = 4;  // also on: episodes end at step 4 (truncated)

// What the pool must return for one env, given what was sent.
struct EnvModel {
  std::int64_t count = 0;
  bool last_done = false;   // the last delivered row ended an episode
  bool in_flight = false;
  bool reset_sent = false;
  std::int32_t action = 0;
  std::int32_t episode = 0;
};

void CheckRow(const Row& r, EnvModel& m, AutoresetMode mode, int max_steps) {
  CHECK_MSG(m.in_flight, "env " << r.env_id << " delivered without a send in flight");
  m.in_flight = false;
  CHECK_EQ(r.index(), r.env_id);
  const bool reset = m.reset_sent || (mode == AutoresetMode::kNextStep && m.last_done);
  if (reset) {
    ++m.episode;
    m.count = 0;
    CHECK_EQ(r.count(), 0);
    CHECK_EQ(r.elapsed, 0);
    CHECK_EQ(r.reward, 0.0f);
    CHECK(!r.done());
    CHECK_EQ(r.episode, m.episode);
    if (r.has_final) CHECK_EQ(r.final_elapsed, 0);
    m.last_done = false;
    return;
  }
  const std::int64_t c = m.count + 1;
  const bool terminated = c >= kEpisodeLength;
  const bool truncated = max_steps > 0 && c >= max_steps;
  CHECK_EQ(r.terminated, terminated);
  CHECK_EQ(r.truncated, truncated);
  CHECK_EQ(r.reward, static_cast<float>(m.action));
  m.last_done = terminated || truncated;
  if (mode == AutoresetMode::kSameStep && m.last_done) {
    CHECK_EQ(r.final_state[0], r.env_id);
    CHECK_EQ(r.final_state[2], c);
    CHECK_EQ(r.final_state[3], m.action);
    CHECK_EQ(r.final_elapsed, c);
    CHECK_EQ(r.final_episode, m.episode);
    ++m.episode;
    m.count = 0;
    m.last_done = false;  // already reset
    CHECK_EQ(r.count(), 0);
    CHECK_EQ(r.elapsed, 0);
    CHECK_EQ(r.episode, m.episode);
  } else {
    m.count = c;
    CHECK_EQ(r.count(), c);
    CHECK_EQ(r.elapsed, c);
    CHECK_EQ(r.last_action(), m.action);
    CHECK_EQ(r.episode, m.episode);
    if (r.has_final) CHECK_EQ(r.final_elapsed, 0);
  }
}

// Sends the given envs: a reset for those that need one in disabled mode
// (and now and then at random), a random action for the others.
void SendSome(Pool& pool, std::vector<EnvModel>& models, const std::vector<std::int64_t>& ids,
              AutoresetMode mode, std::mt19937& gen) {
  std::vector<std::int64_t> steps, resets;
  std::vector<std::int32_t> actions;
  for (std::int64_t id : ids) {
    EnvModel& m = models[id];
    m.in_flight = true;
    const bool must_reset = mode == AutoresetMode::kDisabled && m.last_done;
    m.reset_sent = must_reset || gen() % 50 == 0;
    if (m.reset_sent) {
      resets.push_back(id);
    } else {
      m.action = static_cast<std::int32_t>(gen() % 10);
      steps.push_back(id);
      actions.push_back(m.action);
    }
  }
  if (!resets.empty()) SendReset(pool, resets);
  if (!steps.empty()) Send(pool, steps, actions);
}

void StressAsync(int n, int batch, int threads, AutoresetMode mode, int max_steps, int iterations,
                 int sleep_us, unsigned seed) {
  TestParams p;
  p.episode_length = kEpisodeLength;
  p.max_sleep_us = sleep_us;
  PoolOptions o = Options(n, batch, threads, mode);
  o.max_episode_steps = max_steps;
  auto pool = MakePool(p, o);
  std::mt19937 gen(seed);
  std::vector<EnvModel> models(static_cast<std::size_t>(n));
  std::vector<std::int64_t> all = Range(n);
  for (EnvModel& m : models) {
    m.in_flight = true;
    m.reset_sent = true;
  }
  SendReset(*pool, all);
  std::vector<int> delivered(static_cast<std::size_t>(n), 0);
  std::vector<std::shared_ptr<Batch>> held;
  std::vector<std::vector<Row>> held_rows;
  auto one_round = [&](bool last) {
    std::shared_ptr<Batch> b = Recv(*pool);
    CHECK_EQ(b->size.load(), batch);
    std::vector<std::int64_t> ids;
    const std::vector<Row> rows = ReadRows(*b);
    for (const Row& r : rows) {
      CHECK_GE(r.env_id, 0);
      CHECK_LT(r.env_id, n);
      CheckRow(r, models[r.env_id], mode, max_steps);
      ++delivered[r.env_id];
      ids.push_back(r.env_id);
    }
    // Hold on to some batches for a while: they must not be overwritten.
    if (gen() % 8 == 0) {
      held.push_back(std::move(b));
      held_rows.push_back(rows);
    }
    if (held.size() > 3 || last) {
      for (std::size_t k = 0; k < held.size(); ++k) CHECK(ReadRows(*held[k]) == held_rows[k]);
      held.clear();
      held_rows.clear();
    }
    SendSome(*pool, models, ids, mode, gen);
  };
  for (int it = 0; it < iterations; ++it) one_round(it == iterations - 1);
  // Nobody starved: every env comes back. Not necessarily within the rounds above: a
  // worker preempted while it holds envs it took from the queue (4 workers on 2 cores)
  // keeps them until it runs again, while the others cycle (here they came back within
  // 3,000 more rounds). So step on until each env has been delivered once; an env the
  // pool lost fails the test after 30 s.
  auto starved = [&] { return std::count(delivered.begin(), delivered.end(), 0); };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (starved() > 0 && std::chrono::steady_clock::now() < deadline) one_round(false);
  if (!held.empty()) one_round(true);  // (checks the batches held in those rounds)
  CHECK_EQ(starved(), 0);
}

void StressSync(int n, int threads, AutoresetMode mode, int max_steps, int iterations,
                int sleep_us, unsigned seed) {
  TestParams p;
  p.episode_length = kEpisodeLength;
  p.max_sleep_us = sleep_us;
  PoolOptions o = Options(n, 0, threads, mode);
  o.max_episode_steps = max_steps;
  auto pool = MakePool(p, o);
  std::mt19937 gen(seed);
  std::vector<EnvModel> models(static_cast<std::size_t>(n));
  for (EnvModel& m : models) m.reset_sent = true;
  for (EnvModel& m : models) m.in_flight = true;
  SendReset(*pool, Range(n));
  std::vector<Row> rows = ReadRows(*Recv(*pool));
  for (const Row& r : rows) CheckRow(r, models[r.env_id], mode, max_steps);
  std::vector<std::shared_ptr<Batch>> held;
  std::vector<std::vector<Row>> held_rows;
  for (int it = 0; it < iterations; ++it) {
    // A random subset in a random order, sent in one to three calls.
    std::vector<std::int64_t> ids = Range(n);
    std::shuffle(ids.begin(), ids.end(), gen);
    ids.resize(1 + gen() % static_cast<unsigned>(n));
    std::vector<std::int64_t> sent_order;
    const int calls = 1 + static_cast<int>(gen() % 3);
    std::size_t start = 0;
    for (int c = 0; c < calls && start < ids.size(); ++c) {
      const std::size_t end = c == calls - 1 ? ids.size() : start + (ids.size() - start + 1) / 2;
      std::vector<std::int64_t> part(ids.begin() + start, ids.begin() + end);
      // SendSome sends resets first, then steps: that is the row order.
      std::vector<std::int64_t> resets, steps;
      SendSome(*pool, models, part, mode, gen);
      for (std::int64_t id : part) (models[id].reset_sent ? resets : steps).push_back(id);
      sent_order.insert(sent_order.end(), resets.begin(), resets.end());
      sent_order.insert(sent_order.end(), steps.begin(), steps.end());
      start = end;
    }
    std::shared_ptr<Batch> b = Recv(*pool);
    rows = ReadRows(*b);
    CHECK_EQ(rows.size(), sent_order.size());
    for (std::size_t k = 0; k < rows.size(); ++k) {
      CHECK_EQ(rows[k].env_id, sent_order[k]);
      CheckRow(rows[k], models[rows[k].env_id], mode, max_steps);
    }
    if (gen() % 8 == 0) {
      held.push_back(b);
      held_rows.push_back(rows);
    }
    if (held.size() > 3 || it == iterations - 1) {
      for (std::size_t k = 0; k < held.size(); ++k) CHECK(ReadRows(*held[k]) == held_rows[k]);
      held.clear();
      held_rows.clear();
    }
  }
}

const AutoresetMode kModes[] = {AutoresetMode::kNextStep, AutoresetMode::kSameStep,
                                AutoresetMode::kDisabled};

}  // namespace

TEST(stress_async_small_batches) {
  unsigned seed = 1;
  for (AutoresetMode mode : kModes) {
    for (int batch : {1, 3, 8}) {
      StressAsync(/*n=*/24, batch, /*threads=*/4, mode, seed % 2 ? kMaxEpisodeSteps : 0,
                  /*iterations=*/1200 / batch, /*sleep_us=*/0, seed);
      ++seed;
    }
  }
}

TEST(stress_async_shuffled_completion) {
  unsigned seed = 100;
  for (AutoresetMode mode : kModes) {
    StressAsync(/*n=*/16, /*batch=*/2, /*threads=*/3, mode, kMaxEpisodeSteps,
                /*iterations=*/300, /*sleep_us=*/20, seed++);
  }
}

TEST(stress_sync_random_subsets) {
  unsigned seed = 200;
  for (AutoresetMode mode : kModes) {
    for (int threads : {1, 4}) {
      StressSync(/*n=*/24, threads, mode, seed % 2 ? kMaxEpisodeSteps : 0,
                 /*iterations=*/250, /*sleep_us=*/0, seed);
      ++seed;
    }
  }
}

TEST(stress_two_pools_on_two_threads) {
  // Each pool is driven by one thread, as the threading contract asks; the
  // pools share nothing.
  std::vector<std::string> errors(2);
  auto drive = [&](int k) {
    try {
      if (k == 0) {
        StressAsync(16, 4, 2, AutoresetMode::kSameStep, kMaxEpisodeSteps, 200, 5, 300);
      } else {
        StressSync(12, 2, AutoresetMode::kNextStep, 0, 150, 5, 301);
      }
    } catch (const std::exception& e) {
      errors[k] = e.what();
    }
  };
  std::thread t0(drive, 0), t1(drive, 1);
  t0.join();
  t1.join();
  CHECK_MSG(errors[0].empty(), errors[0]);
  CHECK_MSG(errors[1].empty(), errors[1]);
}

TEST(stress_create_and_destroy_pools) {
  // Pools closed or destroyed at any point of their work.
  std::mt19937 gen(7);
  for (int k = 0; k < 40; ++k) {
    TestParams p;
    p.episode_length = 3;
    const int n = 2 + static_cast<int>(gen() % 7);
    const int batch = gen() % 2 ? 0 : 1 + static_cast<int>(gen() % static_cast<unsigned>(n));
    auto pool = MakePool(p, Options(n, batch, 1 + static_cast<int>(gen() % 4)));
    SendReset(*pool, Range(n));
    const int rounds = static_cast<int>(gen() % 4);
    for (int r = 0; r < rounds; ++r) {
      std::shared_ptr<Batch> b = Recv(*pool);
      std::vector<std::int64_t> ids;
      for (const Row& row : ReadRows(*b)) ids.push_back(row.env_id);
      Send(*pool, ids, std::vector<std::int32_t>(ids.size(), 1));
    }
    if (gen() % 2) pool->Close();
  }
}

int main(int argc, char** argv) { return check::RunAll(argc, argv); }
