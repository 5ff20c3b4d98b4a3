// Tests of the pool's fourth stage (workers.h): Workers by itself, running
// tasks on the calling thread, then through a Pool: threads pinned to cores,
// render jobs, reseeding, the time limit and the three autoreset modes.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>

#include "tests/check.h"
#include "tests/test_envs.h"

using namespace envpool;
using namespace envpool::testing;

TEST(workers_run_queued_tasks_on_the_caller) {
  // No threads started: every task runs inside Help.
  std::vector<EnvSetup> setups(2);
  setups[0].factory = setups[1].factory = std::make_shared<TestFactory>(TestParams{});
  PoolOptions o = Options(2, 1, 1);
  o.seeds = {5, 6};
  const EnvSpec& spec = setups[0].factory->Spec();
  Admission admission(spec, 2);
  TaskQueue queue;
  BatchRecycler batches(spec, 1, false, 4, 1);
  Completion completion;
  Workers workers(setups, o, admission, queue, batches, completion);
  CHECK_EQ(workers.num_threads(), 0);
  CHECK(!workers.Help());
  // A reset of env 1, then a step of env 0 (async: each claims a batch of one row).
  workers.state(1).reset_requested = true;
  const std::vector<std::int64_t> ids{1, 0};
  const std::vector<std::int32_t> actions{0, 7};
  admission.AdmitActions(actions.data(), DType::kInt32, ids.data(), 2, true, false);
  queue.Push(2, [&](int k) { return Task{static_cast<int>(ids[k]), nullptr, -1}; });
  int helps = 0;
  while (workers.Help()) ++helps;
  CHECK_EQ(helps, 2);  // one task at a time: two tasks are few to share
  const auto no_help = [] { return false; };
  const Row reset = ReadRow(*completion.Wait(nullptr, 0.0, no_help, nullptr), 0);
  const Row step = ReadRow(*completion.Wait(nullptr, 0.0, no_help, nullptr), 0);
  CHECK_EQ(reset.env_id, 1);
  CHECK_EQ(reset.count(), 0);
  CHECK_EQ(reset.episode, 1);
  CHECK_EQ(step.env_id, 0);
  CHECK_EQ(step.count(), 1);
  CHECK_EQ(step.last_action(), 7);
  CHECK_EQ(step.reward, 7.0f);
  CHECK_EQ(step.elapsed, 1);
  CHECK_EQ(workers.state(0).elapsed, 1);
  CHECK_EQ(workers.state(1).elapsed, 0);
}

TEST(pinned_threads_work) {
  PoolOptions o = Options(4, 2, 2);
  o.thread_affinity_offset = 0;
  auto pool = MakePool(TestParams{}, o);
  SendReset(*pool, Range(4));
  CHECK_EQ(Recv(*pool)->size.load(), 2);
  CHECK_EQ(Recv(*pool)->size.load(), 2);
}

// ---------------------------------------------------------------------------
// Rendering.

// Frames of `ids` as (index, count) pairs, read from a Render column.
std::vector<std::pair<int, int>> Drawn(Pool& pool, const std::vector<std::int64_t>& ids) {
  std::shared_ptr<Column> frames =
      pool.Render(ids.data(), static_cast<int>(ids.size()), 0, 0, -1);
  CHECK(frames->shape() == (std::vector<std::int64_t>{2, 3, 3}));
  std::vector<std::pair<int, int>> out;
  for (std::size_t k = 0; k < ids.size(); ++k) {
    const auto* row = reinterpret_cast<const std::uint8_t*>(frames->Row(static_cast<int>(k)));
    for (int b = 2; b < 18; ++b) CHECK_EQ(static_cast<int>(row[b]), row[0] + row[1]);
    out.emplace_back(row[0], row[1]);
  }
  return out;
}

TEST(render_idle_envs_while_others_step) {
  // Async mode: the envs of each batch are drawn while the others step on the
  // workers; every frame is its env's, at the count its last row showed.
  TestParams p;
  p.max_sleep_us = 50;
  p.episode_length = 0;
  auto pool = MakePool(p, Options(6, 2, 3));
  SendReset(*pool, Range(6));
  for (int iter = 0; iter < 40; ++iter) {
    std::vector<Row> rows = ReadRows(*Recv(*pool));
    std::vector<std::int64_t> ids;
    for (const Row& r : rows) ids.push_back(r.env_id);
    std::vector<std::pair<int, int>> frames = Drawn(*pool, ids);
    for (std::size_t k = 0; k < rows.size(); ++k) {
      CHECK_EQ(frames[k].first, rows[k].env_id);
      CHECK_EQ(frames[k].second, static_cast<int>(rows[k].count()));
    }
    // An env in flight is refused, and nothing is drawn.
    std::vector<std::int64_t> all = Range(6);
    CHECK_THROWS_MSG(pool->Render(all.data(), 6, 0, 0, -1), std::invalid_argument, "in flight");
    Send(*pool, ids, std::vector<std::int32_t>(ids.size(), 1));
  }
  pool->Close();
}

TEST(render_refusals_and_errors) {
  TestParams p;
  p.throw_render_env = 2;
  auto pool = MakePool(p, Options(4, 0, 2));
  SendReset(*pool, Range(4));
  Recv(*pool);
  std::vector<std::int64_t> ids{3, 0, 1};
  std::vector<std::pair<int, int>> frames = Drawn(*pool, ids);
  CHECK_EQ(frames[0].first, 3);
  CHECK_EQ(frames[2].first, 1);
  std::vector<std::int64_t> twice{1, 1}, out_of_range{4}, failing{0, 2, 3};
  CHECK_THROWS_MSG(pool->Render(twice.data(), 2, 0, 0, -1), std::invalid_argument, "twice");
  CHECK_THROWS_MSG(pool->Render(out_of_range.data(), 1, 0, 0, -1), std::invalid_argument,
                   "out of range");
  CHECK_THROWS_MSG(pool->Render(ids.data(), 3, 0, 0, 5), std::invalid_argument, "one camera");
  // An env's exception reaches the caller once every frame is done; the pool goes on.
  CHECK_THROWS_MSG(pool->Render(failing.data(), 3, 0, 0, -1), EnvBoom, "render boom in env 2");
  Send(*pool, Range(4), {1, 1, 1, 1});
  CHECK_EQ(ReadRows(*Recv(*pool)).size(), 4u);
  CHECK_EQ(Drawn(*pool, ids)[1].second, 1);
  // A frame buffer that is held is not drawn over.
  std::shared_ptr<Column> held = pool->Render(ids.data(), 3, 0, 0, -1);
  Send(*pool, Range(4), {1, 1, 1, 1});
  Recv(*pool);
  std::shared_ptr<Column> next = pool->Render(ids.data(), 3, 0, 0, -1);
  CHECK(held.get() != next.get());
  CHECK_EQ(static_cast<int>(reinterpret_cast<const std::uint8_t*>(held->Row(0))[1]), 1);
  CHECK_EQ(static_cast<int>(reinterpret_cast<const std::uint8_t*>(next->Row(0))[1]), 2);

  TestParams silent;
  silent.renders = false;
  auto plain = MakePool(silent, Options(2));
  CHECK(!plain->RenderSize(0, 0, -1).has_value());
  SendReset(*plain, Range(2));
  Recv(*plain);
  std::vector<std::int64_t> zero{0};
  CHECK_THROWS_MSG(plain->Render(zero.data(), 1, 0, 0, -1), std::invalid_argument,
                   "does not render");
}

TEST(reset_with_seed_reseeds) {
  PoolOptions o = Options(2, 0, 2);
  o.seeds = {42, 43};
  auto reference = MakePool(TestParams{}, o);
  const std::vector<Row> ref = ResetAll(*reference);

  auto pool = MakePool(TestParams{}, Options(2, 0, 2));
  const std::vector<Row> first = ResetAll(*pool);
  CHECK_NE(first[0].base(), ref[0].base());
  SendReset(*pool, {1, 0}, {43, 42});
  std::vector<Row> rows = ReadRows(*Recv(*pool));
  CHECK_EQ(rows[0].env_id, 1);
  CHECK_EQ(rows[0].base(), ref[1].base());
  CHECK_EQ(rows[1].base(), ref[0].base());
  // The steps after follow the new seed's stream too.
  const std::vector<Row> a = StepAll(*pool, {3, 4});
  const std::vector<Row> b = StepAll(*reference, {3, 4});
  for (int k = 0; k < 2; ++k) {
    CHECK(a[k].state == b[k].state);  // the episode counters differ: two resets vs one
    CHECK_EQ(a[k].episode, 2);
  }
  // A reset without seeds continues the stream instead of reseeding.
  SendReset(*pool, {0});
  rows = ReadRows(*Recv(*pool));
  CHECK_NE(rows[0].base(), ref[0].base());
}

// Logs the calls the pool makes to it: Seed(s) as s, Reset as -1, and the
// first draw of its Rng at each Reset as a second entry (so the log also
// shows that the Rng was reseeded before Seed/Reset).
class SeedLogEnv final : public Env {
 public:
  void Seed(std::uint64_t seed) override { log_.push_back(static_cast<double>(seed)); }
  void Reset(Rng& rng) override {
    log_.push_back(-1);
    log_.push_back(static_cast<double>(rng.Integer(0, 1000000)));
  }
  StepOutcome Step(const ActionView& /*action*/, Rng& /*rng*/) override { return {}; }
  void Write(const Slot& /*slot*/) const override {}
  std::vector<double> GetState() const override { return log_; }

 private:
  std::vector<double> log_;
};

class SeedLogFactory final : public EnvFactory {
 public:
  SeedLogFactory() { spec_.action = DiscreteSpec("action", 2, DType::kInt32); }
  const EnvSpec& Spec() const override { return spec_; }
  std::unique_ptr<Env> Create() const override { return std::make_unique<SeedLogEnv>(); }

 private:
  EnvSpec spec_;
};

double FirstDraw(std::uint64_t seed) {
  Rng rng(seed);
  return static_cast<double>(rng.Integer(0, 1000000));
}

TEST(env_seed_hook_at_construction_and_on_reseed) {
  PoolOptions o = Options(2, 0, 2);
  o.seeds = {7, 8};
  Pool pool(std::make_unique<SeedLogFactory>(), o);
  // At construction, before any reset: each env gets its own seed.
  CHECK(pool.GetState(0) == std::vector<double>{7});
  CHECK(pool.GetState(1) == std::vector<double>{8});
  SendReset(pool, {0, 1});
  Recv(pool);
  CHECK(pool.GetState(0) == (std::vector<double>{7, -1, FirstDraw(7)}));
  // A reset with a seed: Seed(seed), then Reset with the Rng reseeded too;
  // only the envs reset with a seed are reseeded.
  SendReset(pool, {1}, {99});
  Recv(pool);
  CHECK(pool.GetState(1) == (std::vector<double>{8, -1, FirstDraw(8), 99, -1, FirstDraw(99)}));
  CHECK(pool.GetState(0) == (std::vector<double>{7, -1, FirstDraw(7)}));
  // A reset without a seed does not call Seed.
  SendReset(pool, {0});
  Recv(pool);
  const std::vector<double> log = pool.GetState(0);
  CHECK_EQ(log.size(), std::size_t{5});
  CHECK_EQ(log[3], -1.0);
}

// ---------------------------------------------------------------------------
// Time limit and autoreset modes.

TEST(max_episode_steps_truncation) {
  struct Case {
    int episode_length, max_steps, done_at;
    bool terminated, truncated;
  };
  for (const Case& c : {Case{5, 5, 5, true, true}, Case{5, 3, 3, false, true},
                        Case{3, 5, 3, true, false}, Case{0, 4, 4, false, true}}) {
    TestParams p;
    p.episode_length = c.episode_length;
    PoolOptions o = Options(2, 0, 2, AutoresetMode::kNextStep);
    o.max_episode_steps = c.max_steps;
    auto pool = MakePool(p, o);
    ResetAll(*pool);
    for (int t = 1; t <= c.done_at; ++t) {
      for (const Row& r : StepAll(*pool, {1, 2})) {
        CHECK_EQ(r.elapsed, t);
        CHECK_EQ(r.count(), t);
        const bool last = t == c.done_at;
        CHECK_EQ(r.terminated, last && c.terminated);
        CHECK_EQ(r.truncated, last && c.truncated);
      }
    }
    // Then the autoreset, and a fresh episode with a fresh time limit.
    for (const Row& r : StepAll(*pool, {1, 2})) {
      CHECK_EQ(r.elapsed, 0);
      CHECK(!r.done());
    }
    for (int t = 1; t <= c.done_at; ++t) {
      for (const Row& r : StepAll(*pool, {1, 2})) CHECK_EQ(r.done(), t == c.done_at);
    }
  }
}

TEST(next_step_autoreset) {
  TestParams p;
  p.episode_length = 3;
  auto pool = MakePool(p, Options(2, 0, 2, AutoresetMode::kNextStep));
  std::vector<Row> rows = ResetAll(*pool);
  const std::int64_t first_base = rows[0].base();
  StepAll(*pool, {1, 1});
  // Env 1 lags one step behind env 0.
  Send(*pool, {0}, {2});
  rows = ReadRows(*Recv(*pool));
  CHECK(!rows[0].done());
  rows = StepAll(*pool, {3, 4});
  CHECK_EQ(rows[0].count(), 3);
  CHECK(rows[0].terminated);
  CHECK(!rows[0].truncated);
  CHECK_EQ(rows[0].reward, 3.0f);
  CHECK_EQ(rows[0].elapsed, 3);
  CHECK_EQ(rows[0].episode, 1);
  CHECK_EQ(rows[1].count(), 2);
  CHECK(!rows[1].done());
  // The step after the done one resets env 0: its action (9) is ignored.
  rows = StepAll(*pool, {9, 5});
  CHECK_EQ(rows[0].count(), 0);
  CHECK_EQ(rows[0].last_action(), 0);
  CHECK_EQ(rows[0].reward, 0.0f);
  CHECK(!rows[0].terminated);
  CHECK(!rows[0].truncated);
  CHECK_EQ(rows[0].elapsed, 0);
  CHECK_EQ(rows[0].episode, 2);
  CHECK_NE(rows[0].base(), first_base);  // the reset drew from the Rng again
  CHECK_EQ(rows[1].count(), 3);           // env 1 ends now
  CHECK(rows[1].terminated);
  CHECK_EQ(rows[1].reward, 5.0f);
  rows = StepAll(*pool, {6, 7});
  CHECK_EQ(rows[0].count(), 1);
  CHECK_EQ(rows[0].elapsed, 1);
  CHECK_EQ(rows[0].reward, 6.0f);
  CHECK_EQ(rows[1].count(), 0);
  CHECK_EQ(rows[1].reward, 0.0f);
  CHECK_EQ(rows[1].episode, 2);
  // A user reset right after a done step also clears the pending autoreset.
  StepAll(*pool, {1, 1});
  rows = StepAll(*pool, {1, 1});  // env 0 ends
  CHECK(rows[0].terminated);
  SendReset(*pool, {0});
  rows = ReadRows(*Recv(*pool));
  CHECK_EQ(rows[0].episode, 3);
  Send(*pool, {0}, {4});
  rows = ReadRows(*Recv(*pool));
  CHECK_EQ(rows[0].count(), 1);
  CHECK_EQ(rows[0].reward, 4.0f);
  CHECK_EQ(rows[0].episode, 3);
}

TEST(same_step_autoreset) {
  TestParams p;
  p.episode_length = 3;
  for (int batch : {0, 1}) {  // sync, then async with batch_size 1
    auto pool = MakePool(p, Options(2, batch, 2, AutoresetMode::kSameStep));
    std::vector<Row> rows = ResetAll(*pool);
    if (batch == 1) rows.push_back(ReadRows(*Recv(*pool))[0]);
    for (const Row& r : rows) {
      CHECK(r.has_final);
      CHECK_EQ(r.final_elapsed, 0);
      CHECK(r.final_state == std::vector<std::int64_t>(5, 0));
    }
    std::vector<std::int64_t> last_obs;
    std::vector<std::int32_t> episode(2, 1);
    std::vector<int> count(2, 0);
    // Env 0 is stepped every round, env 1 every other round, so done and
    // not-done rows share batches and recycled batches carry stale finals.
    for (int round = 0; round < 24; ++round) {
      std::vector<std::int64_t> ids = {0};
      if (round % 2 == 0) ids.push_back(1);
      std::vector<std::int32_t> actions;
      for (std::int64_t id : ids) actions.push_back(static_cast<std::int32_t>((round + id) % 10));
      Send(*pool, ids, actions);
      rows.clear();
      for (std::size_t k = 0; k < ids.size(); k += (batch == 0 ? ids.size() : 1)) {
        for (const Row& r : ReadRows(*Recv(*pool))) rows.push_back(r);
      }
      CHECK_EQ(rows.size(), ids.size());
      for (const Row& r : rows) {
        const int id = r.env_id;
        const std::int32_t action = static_cast<std::int32_t>((round + id) % 10);
        ++count[id];
        CHECK_EQ(r.reward, static_cast<float>(action));  // the done step's reward
        if (count[id] == 3) {
          CHECK(r.terminated);
          CHECK(!r.truncated);
          // The row shows the new episode ...
          CHECK_EQ(r.count(), 0);
          CHECK_EQ(r.last_action(), 0);
          CHECK_EQ(r.elapsed, 0);
          CHECK_EQ(r.episode, episode[id] + 1);
          // ... and the final columns the end of the old one.
          CHECK_EQ(r.final_state[0], id);
          CHECK_EQ(r.final_state[2], 3);
          CHECK_EQ(r.final_state[3], action);
          CHECK_EQ(r.final_parity, 1);
          CHECK_EQ(r.final_episode, episode[id]);
          CHECK_EQ(r.final_elapsed, 3);
          CHECK_NE(r.final_state[1], r.base());
          ++episode[id];
          count[id] = 0;
        } else {
          CHECK(!r.done());
          CHECK_EQ(r.count(), count[id]);
          CHECK_EQ(r.elapsed, count[id]);
          CHECK_EQ(r.episode, episode[id]);
          CHECK(r.final_state == std::vector<std::int64_t>(5, 0));
          CHECK_EQ(r.final_parity, 0);
          CHECK_EQ(r.final_episode, 0);
          CHECK_EQ(r.final_elapsed, 0);
        }
      }
    }
    CHECK_GE(episode[0], 8);
    CHECK_GE(episode[1], 4);
  }
}

TEST(same_step_with_time_limit) {
  TestParams p;
  p.episode_length = 0;
  PoolOptions o = Options(1, 0, 1, AutoresetMode::kSameStep);
  o.max_episode_steps = 2;
  auto pool = MakePool(p, o);
  ResetAll(*pool);
  CHECK(!StepAll(*pool, {1})[0].done());
  const Row r = StepAll(*pool, {2})[0];
  CHECK(r.truncated);
  CHECK(!r.terminated);
  CHECK_EQ(r.final_elapsed, 2);
  CHECK_EQ(r.final_state[2], 2);
  CHECK_EQ(r.elapsed, 0);
  CHECK_EQ(r.count(), 0);
  const Row next = StepAll(*pool, {3})[0];
  CHECK(!next.done());
  CHECK_EQ(next.elapsed, 1);
}

TEST(disabled_autoreset) {
  TestParams p;
  p.episode_length = 2;
  for (int batch : {0, 1}) {
    auto pool = MakePool(p, Options(3, batch, 2, AutoresetMode::kDisabled));
    auto recv_all = [&](std::size_t n) {
      std::vector<Row> rows;
      while (rows.size() < n) {
        for (const Row& r : ReadRows(*Recv(*pool))) rows.push_back(r);
      }
      std::sort(rows.begin(), rows.end(),
                [](const Row& a, const Row& b) { return a.env_id < b.env_id; });
      return rows;
    };
    SendReset(*pool, Range(3));
    recv_all(3);
    Send(*pool, {0, 1}, {1, 1});
    recv_all(2);
    Send(*pool, {0}, {1});
    std::vector<Row> rows = recv_all(1);
    CHECK(rows[0].terminated);
    CHECK(!rows[0].has_final);
    // Env 0 ended: stepping it throws until it is reset, and nothing else
    // of the failed send is queued.
    CHECK_THROWS_MSG(Send(*pool, {0}, {1}), std::invalid_argument, "autoreset is disabled");
    CHECK_THROWS_MSG(Send(*pool, {2, 0}, {1, 1}), std::invalid_argument, "autoreset is disabled");
    CHECK_THROWS_MSG(Send(*pool, {0}, {1}), std::invalid_argument, "autoreset is disabled");
    Send(*pool, {2, 1}, {3, 4});  // 2 was not left in flight by the failed send
    rows = recv_all(2);
    CHECK_EQ(rows[0].env_id, 1);
    CHECK(rows[0].terminated);
    CHECK_EQ(rows[1].env_id, 2);
    CHECK_EQ(rows[1].count(), 1);
    CHECK_THROWS(Send(*pool, {1}, {1}), std::invalid_argument);
    // A reset makes them steppable again.
    SendReset(*pool, {0, 1});
    rows = recv_all(2);
    CHECK_EQ(rows[0].count(), 0);
    CHECK_EQ(rows[0].episode, 2);
    CHECK(!rows[0].done());
    Send(*pool, {0, 1, 2}, {5, 6, 7});
    rows = recv_all(3);
    CHECK_EQ(rows[0].count(), 1);
    CHECK_EQ(rows[0].reward, 5.0f);
    CHECK_EQ(rows[1].count(), 1);
    CHECK_EQ(rows[2].count(), 2);
    CHECK(rows[2].terminated);
  }
}

int main(int argc, char** argv) { return check::RunAll(argc, argv); }
