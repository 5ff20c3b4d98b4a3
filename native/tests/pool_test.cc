// Tests of the Pool: batch contents in sync and async mode, determinism,
// time limits, the three autoreset modes, Send validation, Recv errors and
// timeouts, env exceptions, Close, and batch recycling.
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

namespace {

std::int32_t ActionFor(std::int64_t env, std::size_t t) {
  return static_cast<std::int32_t>((env * 7 + static_cast<std::int64_t>(t) * 3) % 10);
}

// A different order of 0 .. n-1 for each t.
std::vector<std::int64_t> Permutation(int n, int t) {
  std::vector<std::int64_t> ids;
  for (int k = 0; k < n; ++k) ids.push_back((k + t) % n);
  if (t % 2 == 1) std::reverse(ids.begin(), ids.end());
  return ids;
}

using Trajectories = std::vector<std::vector<Row>>;  // per env: its rows, in delivery order

// Resets every env and steps each `steps` times with ActionFor(env, step), in
// sync mode in a changing order, in async mode as envs come back.
Trajectories Record(const TestParams& params, const PoolOptions& options, int steps) {
  auto pool = MakePool(params, options);
  const int n = options.num_envs;
  Trajectories traj(static_cast<std::size_t>(n));
  auto complete = [&] {
    for (const auto& t : traj) {
      if (static_cast<int>(t.size()) < steps + 1) return false;
    }
    return true;
  };
  if (pool->is_sync()) {
    for (int t = 0; t <= steps; ++t) {
      const std::vector<std::int64_t> ids = Permutation(n, t);
      if (t == 0) {
        SendReset(*pool, ids);
      } else {
        std::vector<std::int32_t> actions;
        for (std::int64_t id : ids) actions.push_back(ActionFor(id, traj[id].size()));
        Send(*pool, ids, actions);
      }
      const std::vector<Row> rows = ReadRows(*Recv(*pool));
      CHECK_EQ(rows.size(), ids.size());
      for (std::size_t k = 0; k < rows.size(); ++k) {
        CHECK_EQ(rows[k].env_id, ids[k]);
        traj[rows[k].env_id].push_back(rows[k]);
      }
    }
  } else {
    SendReset(*pool, Permutation(n, 1));
    while (!complete()) {
      const std::vector<Row> rows = ReadRows(*Recv(*pool));
      CHECK_EQ(static_cast<int>(rows.size()), options.batch_size);
      std::vector<std::int64_t> ids;
      std::vector<std::int32_t> actions;
      for (const Row& r : rows) {
        traj[r.env_id].push_back(r);
        ids.push_back(r.env_id);
        actions.push_back(ActionFor(r.env_id, traj[r.env_id].size()));
      }
      Send(*pool, ids, actions);  // keeps every env in flight, past `steps` too
    }
    for (auto& t : traj) t.resize(static_cast<std::size_t>(steps + 1));
  }
  pool->Close();
  return traj;
}

void CheckSameTrajectories(const Trajectories& a, const Trajectories& b, const std::string& what) {
  CHECK_EQ(a.size(), b.size());
  for (std::size_t env = 0; env < a.size(); ++env) {
    CHECK_EQ(a[env].size(), b[env].size());
    for (std::size_t t = 0; t < a[env].size(); ++t) {
      CHECK_MSG(a[env][t] == b[env][t], what << ": env " << env << " step " << t << ": "
                                             << a[env][t].ToString() << " vs "
                                             << b[env][t].ToString());
    }
  }
}

}  // namespace

// ---------------------------------------------------------------------------
// Construction.

TEST(constructor_validates_options) {
  TestParams p;
  CHECK_THROWS(MakePool(p, Options(0)), std::invalid_argument);
  CHECK_THROWS(MakePool(p, Options(4, 5)), std::invalid_argument);
  CHECK_THROWS(MakePool(p, Options(4, -1)), std::invalid_argument);
  CHECK_THROWS(MakePool(p, Options(4, 0, -1)), std::invalid_argument);
  PoolOptions o = Options(4);
  o.max_episode_steps = -1;
  CHECK_THROWS(MakePool(p, o), std::invalid_argument);
  o = Options(4);
  o.seeds = {1, 2, 3};
  CHECK_THROWS_MSG(MakePool(p, o), std::invalid_argument, "seed");

  auto pool = MakePool(p, Options(4));
  CHECK(pool->is_sync());
  CHECK_EQ(pool->options().batch_size, 4);
  CHECK_GE(pool->num_threads(), 1);
  CHECK_LE(pool->num_threads(), 4);
  auto async_pool = MakePool(p, Options(4, 2, 8));
  CHECK(!async_pool->is_sync());
  CHECK_EQ(async_pool->num_threads(), 4);  // never more threads than envs
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
// Sync mode.

TEST(sync_rows_in_send_order) {
  for (int threads : {1, 2, 4}) {
    auto pool = MakePool(TestParams{}, Options(6, 0, threads));
    const std::vector<std::int64_t> order = {5, 3, 1, 0, 2, 4};
    SendReset(*pool, order);
    std::vector<Row> rows = ReadRows(*Recv(*pool));
    CHECK_EQ(rows.size(), 6u);
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const Row& r = rows[k];
      CHECK_EQ(r.env_id, order[k]);
      CHECK_EQ(r.index(), order[k]);
      CHECK_EQ(r.count(), 0);
      CHECK_EQ(r.elapsed, 0);
      CHECK_EQ(r.reward, 0.0f);
      CHECK(!r.terminated);
      CHECK(!r.truncated);
      CHECK_EQ(r.episode, 1);
      CHECK_EQ(r.parity, 0);
    }

    // A step in another order, with a different action per env.
    const std::vector<std::int64_t> order2 = {2, 0, 4, 5, 1, 3};
    const std::vector<std::int32_t> actions = {9, 1, 4, 7, 0, 3};
    Send(*pool, order2, actions);
    rows = ReadRows(*Recv(*pool));
    CHECK_EQ(rows.size(), 6u);
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const Row& r = rows[k];
      CHECK_EQ(r.env_id, order2[k]);
      CHECK_EQ(r.index(), order2[k]);
      CHECK_EQ(r.count(), 1);
      CHECK_EQ(r.last_action(), actions[k]);
      CHECK_EQ(r.reward, static_cast<float>(actions[k]));
      CHECK_EQ(r.elapsed, 1);
      CHECK_EQ(r.parity, 1);
      CHECK(!r.terminated);
      CHECK(!r.truncated);
    }
  }
}

TEST(sync_partial_and_split_sends) {
  auto pool = MakePool(TestParams{}, Options(5, 0, 2));
  ResetAll(*pool);
  // Two sends before one recv: one batch, rows in the order sent.
  Send(*pool, {3, 1}, {5, 6});
  Send(*pool, {0}, {7});
  std::shared_ptr<Batch> b = Recv(*pool);
  CHECK_EQ(b->size.load(), 3);
  std::vector<Row> rows = ReadRows(*b);
  CHECK_EQ(rows[0].env_id, 3);
  CHECK_EQ(rows[1].env_id, 1);
  CHECK_EQ(rows[2].env_id, 0);
  CHECK_EQ(rows[0].reward, 5.0f);
  CHECK_EQ(rows[1].reward, 6.0f);
  CHECK_EQ(rows[2].reward, 7.0f);
  for (const Row& r : rows) CHECK_EQ(r.count(), 1);
  // A single env: stepped by the caller inside Recv.
  Send(*pool, {4}, {2});
  rows = ReadRows(*Recv(*pool));
  CHECK_EQ(rows.size(), 1u);
  CHECK_EQ(rows[0].env_id, 4);
  CHECK_EQ(rows[0].count(), 1);
  CHECK_EQ(rows[0].reward, 2.0f);
  // Resets and steps mixed in one batch.
  SendReset(*pool, {3});
  Send(*pool, {1}, {8});
  rows = ReadRows(*Recv(*pool));
  CHECK_EQ(rows.size(), 2u);
  CHECK_EQ(rows[0].env_id, 3);
  CHECK_EQ(rows[0].count(), 0);
  CHECK_EQ(rows[0].episode, 2);
  CHECK_EQ(rows[1].env_id, 1);
  CHECK_EQ(rows[1].count(), 2);
  CHECK_EQ(rows[1].reward, 8.0f);
}

TEST(int64_and_offset_discrete_actions) {
  TestParams p;
  p.num_actions = 5;
  p.action_start = -2;  // valid actions -2 .. 2
  auto pool = MakePool(p, Options(3, 0, 2));
  ResetAll(*pool);
  const std::vector<std::int64_t> ids = {0, 1, 2};
  const std::vector<std::int64_t> actions = {-2, 0, 2};
  pool->Send(actions.data(), DType::kInt64, ids.data(), 3);
  std::vector<Row> rows = ReadRows(*Recv(*pool));
  for (int k = 0; k < 3; ++k) {
    CHECK_EQ(rows[k].last_action(), actions[k]);
    CHECK_EQ(rows[k].reward, static_cast<float>(actions[k]));
  }
  const std::vector<std::int64_t> low = {-3};
  const std::vector<std::int64_t> high = {3};
  CHECK_THROWS_MSG(pool->Send(low.data(), DType::kInt64, ids.data(), 1), std::invalid_argument,
                   "out of range");
  CHECK_THROWS_MSG(pool->Send(high.data(), DType::kInt64, ids.data(), 1), std::invalid_argument,
                   "out of range");
  // Floats are refused for discrete actions; so is an unsupported type.
  const std::vector<float> f = {1.0f};
  CHECK_THROWS(pool->Send(f.data(), DType::kFloat32, ids.data(), 1), std::invalid_argument);
  const std::vector<std::uint8_t> u = {1};
  CHECK_THROWS(pool->Send(u.data(), DType::kUInt8, ids.data(), 1), std::invalid_argument);
  Send(*pool, {0}, {1});
  CHECK_EQ(ReadRows(*Recv(*pool))[0].reward, 1.0f);
}

TEST(continuous_actions) {
  TestParams p;
  p.continuous = true;
  auto pool = MakePool(p, Options(2, 0, 2));
  ResetAll(*pool);
  const std::vector<std::int64_t> ids = {1, 0};
  const std::vector<float> a32 = {0.5f, 0.25f, -0.125f, 1.0f};
  pool->Send(a32.data(), DType::kFloat32, ids.data(), 2);
  std::vector<Row> rows = ReadRows(*Recv(*pool));
  CHECK_EQ(rows[0].env_id, 1);
  CHECK_EQ(rows[0].reward, 0.75f);
  CHECK_EQ(rows[0].last_action(), 500);
  CHECK_EQ(rows[1].env_id, 0);
  CHECK_EQ(rows[1].reward, 0.875f);
  CHECK_EQ(rows[1].last_action(), -125);
  const std::vector<double> a64 = {0.25, 0.5, 0.0, 0.0};
  pool->Send(a64.data(), DType::kFloat64, ids.data(), 2);
  rows = ReadRows(*Recv(*pool));
  CHECK_EQ(rows[0].reward, 0.75f);
  CHECK_EQ(rows[0].last_action(), 250);
  CHECK_EQ(rows[1].reward, 0.0f);
}

// ---------------------------------------------------------------------------
// Async mode.

TEST(async_each_send_delivered_exactly_once) {
  TestParams p;
  p.max_sleep_us = 50;
  p.episode_length = 0;  // count == number of steps delivered since the reset
  for (int threads : {1, 2, 4}) {
    const int n = 8, batch = 3;
    auto pool = MakePool(p, Options(n, batch, threads));
    std::vector<int> in_flight(n, 0);   // sends not yet delivered
    std::vector<int> delivered(n, 0);   // rows delivered
    std::vector<std::int32_t> last_action(n, 0);
    SendReset(*pool, Range(n));
    for (int i = 0; i < n; ++i) in_flight[i] = 1;
    for (int iter = 0; iter < 60; ++iter) {
      std::shared_ptr<Batch> b = Recv(*pool);
      CHECK_EQ(b->size.load(), batch);
      std::vector<std::int64_t> ids;
      std::vector<std::int32_t> actions;
      for (const Row& r : ReadRows(*b)) {
        CHECK_GE(r.env_id, 0);
        CHECK_LT(r.env_id, n);
        CHECK_EQ(r.index(), r.env_id);
        CHECK_EQ(in_flight[r.env_id], 1);
        in_flight[r.env_id] = 0;
        // The row is the answer to the one send in flight for this env.
        CHECK_EQ(r.count(), delivered[r.env_id]);
        CHECK_EQ(r.elapsed, delivered[r.env_id]);
        if (delivered[r.env_id] > 0) {
          CHECK_EQ(r.reward, static_cast<float>(last_action[r.env_id]));
          CHECK_EQ(r.last_action(), last_action[r.env_id]);
        } else {
          CHECK_EQ(r.reward, 0.0f);
        }
        ++delivered[r.env_id];
        ids.push_back(r.env_id);
        last_action[r.env_id] = ActionFor(r.env_id, static_cast<std::size_t>(iter));
        actions.push_back(last_action[r.env_id]);
      }
      std::set<std::int64_t> unique(ids.begin(), ids.end());
      CHECK_EQ(unique.size(), ids.size());
      Send(*pool, ids, actions);
      for (std::int64_t id : ids) in_flight[id] = 1;
    }
    int total = 0;
    for (int d : delivered) total += d;
    CHECK_EQ(total, 60 * batch);
    // Drain what can be received: fewer than batch_size envs stay in flight.
    int left = n;
    while (left >= batch) {
      std::vector<Row> rows = ReadRows(*Recv(*pool));
      for (const Row& r : rows) {
        CHECK_EQ(in_flight[r.env_id], 1);
        in_flight[r.env_id] = 0;
      }
      left -= batch;
    }
    CHECK_THROWS_MSG(Recv(*pool), std::runtime_error, "would wait forever");
    pool->Close();  // with envs still in flight
  }
}

TEST(async_batch_size_one_and_resend_subset) {
  auto pool = MakePool(TestParams{}, Options(4, 1, 2));
  SendReset(*pool, Range(4));
  std::set<int> seen;
  for (int k = 0; k < 4; ++k) {
    std::vector<Row> rows = ReadRows(*Recv(*pool));
    CHECK_EQ(rows.size(), 1u);
    CHECK(seen.insert(rows[0].env_id).second);
  }
  CHECK_THROWS(Recv(*pool), std::runtime_error);
  Send(*pool, {2}, {6});
  std::vector<Row> rows = ReadRows(*Recv(*pool));
  CHECK_EQ(rows[0].env_id, 2);
  CHECK_EQ(rows[0].reward, 6.0f);
  CHECK_EQ(rows[0].count(), 1);
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

// ---------------------------------------------------------------------------
// Determinism.

TEST(same_seeds_same_trajectories_across_threads_and_modes) {
  for (AutoresetMode mode : {AutoresetMode::kNextStep, AutoresetMode::kSameStep}) {
    TestParams p;
    p.episode_length = 7;  // several episodes, so autoresets draw from the Rng too
    const int n = 6, steps = 20;
    PoolOptions base = Options(n, 0, 1, mode);
    base.seeds = {11, 22, 33, 44, 55, 66};
    base.max_episode_steps = 5;  // and some episodes truncated early
    const Trajectories reference = Record(p, base, steps);
    // Trajectories are not trivial: they see both ends of episodes.
    int dones = 0;
    for (const auto& t : reference) {
      for (const Row& r : t) dones += r.done();
    }
    CHECK_GT(dones, 0);
    TestParams slow = p;
    slow.max_sleep_us = 30;
    for (int threads : {1, 2, 4}) {
      PoolOptions o = base;
      o.num_threads = threads;
      CheckSameTrajectories(reference, Record(p, o, steps), "sync " + std::to_string(threads));
      CheckSameTrajectories(reference, Record(slow, o, steps),
                            "sync slow " + std::to_string(threads));
      for (int batch : {1, 2, 4}) {
        o.batch_size = batch;
        CheckSameTrajectories(
            reference, Record(slow, o, steps),
            "async batch " + std::to_string(batch) + " threads " + std::to_string(threads));
        o.batch_size = 0;
      }
    }
  }
}

TEST(different_seeds_differ) {
  TestParams p;
  p.episode_length = 4;
  PoolOptions a = Options(4, 0, 2);
  a.seeds = {1, 2, 3, 4};
  PoolOptions b = a;
  b.seeds = {5, 6, 7, 8};
  const Trajectories ta = Record(p, a, 6);
  const Trajectories tb = Record(p, b, 6);
  for (int env = 0; env < 4; ++env) {
    CHECK_NE(ta[env][0].base(), tb[env][0].base());
    CHECK(ta[env] != tb[env]);
    // Within one pool, different seeds give different envs.
    if (env > 0) CHECK_NE(ta[env][0].base(), ta[env - 1][0].base());
  }
  // The same seed for every env: the same draws (only the index differs).
  PoolOptions same = a;
  same.seeds = {9, 9, 9, 9};
  const Trajectories ts = Record(p, same, 6);
  for (int env = 1; env < 4; ++env) {
    for (std::size_t t = 0; t < ts[env].size(); ++t) {
      CHECK_EQ(ts[env][t].base(), ts[0][t].base());
      CHECK_EQ(ts[env][t].state[4], ts[0][t].state[4]);
    }
  }
  // Default seeds are 0, 1, 2, ...
  PoolOptions defaults = Options(4, 0, 2);
  PoolOptions explicit_seeds = defaults;
  explicit_seeds.seeds = {0, 1, 2, 3};
  CheckSameTrajectories(Record(p, defaults, 3), Record(p, explicit_seeds, 3), "default seeds");
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

// ---------------------------------------------------------------------------
// Send validation: std::invalid_argument, nothing queued, the pool usable.

TEST(send_validation_all_or_nothing) {
  for (int batch : {0, 2}) {
    const int n = 4;
    auto pool = MakePool(TestParams{}, Options(n, batch, 2));
    SendReset(*pool, Range(n));
    for (int k = 0; k < (batch == 0 ? 1 : 2); ++k) Recv(*pool);

    CHECK_THROWS_MSG(Send(*pool, {-1}, {0}), std::invalid_argument, "out of range");
    CHECK_THROWS_MSG(Send(*pool, {0, 4}, {0, 0}), std::invalid_argument, "out of range");
    CHECK_THROWS_MSG(Send(*pool, {1, 2, 1}, {0, 0, 0}), std::invalid_argument, "twice");
    CHECK_THROWS_MSG(Send(*pool, {0, 1}, {3, 10}), std::invalid_argument, "out of range");
    CHECK_THROWS_MSG(Send(*pool, {2, 3}, {-1, 3}), std::invalid_argument, "out of range");
    CHECK_THROWS(Send(*pool, {}, {}), std::invalid_argument);
    CHECK_THROWS_MSG(SendReset(*pool, {3, 3}), std::invalid_argument, "twice");
    CHECK_THROWS_MSG(SendReset(*pool, {0, 7}), std::invalid_argument, "out of range");
    CHECK_THROWS(SendReset(*pool, {}), std::invalid_argument);

    // Ids in flight.
    Send(*pool, {0, 1}, {1, 2});
    CHECK_THROWS_MSG(Send(*pool, {2, 1}, {0, 0}), std::invalid_argument, "in flight");
    CHECK_THROWS_MSG(SendReset(*pool, {0}), std::invalid_argument, "in flight");
    CHECK_THROWS_MSG(pool->GetState(0), std::invalid_argument, "in flight");
    std::shared_ptr<Batch> b = Recv(*pool);
    // Only the valid send came back: rows 0 and 1, stepped once.
    CHECK_EQ(b->size.load(), 2);
    std::vector<Row> rows = ReadRows(*b);
    std::sort(rows.begin(), rows.end(),
              [](const Row& a, const Row& c) { return a.env_id < c.env_id; });
    CHECK_EQ(rows[0].env_id, 0);
    CHECK_EQ(rows[0].count(), 1);
    CHECK_EQ(rows[0].reward, 1.0f);
    CHECK_EQ(rows[1].env_id, 1);
    CHECK_EQ(rows[1].reward, 2.0f);
    if (batch == 0) {
      CHECK_THROWS(Recv(*pool), std::runtime_error);  // nothing was queued by the failures
    }
    // Every env is free again: all can be sent, and each is stepped once more.
    Send(*pool, Range(n), {1, 1, 1, 1});
    std::map<int, Row> by_id;
    for (int k = 0; k < (batch == 0 ? 1 : 2); ++k) {
      for (const Row& r : ReadRows(*Recv(*pool))) by_id[r.env_id] = r;
    }
    CHECK_EQ(by_id.size(), 4u);
    CHECK_EQ(by_id[0].count(), 2);
    CHECK_EQ(by_id[1].count(), 2);
    CHECK_EQ(by_id[2].count(), 1);
    CHECK_EQ(by_id[3].count(), 1);
  }
}

TEST(send_rejects_non_finite_continuous_actions) {
  TestParams p;
  p.continuous = true;
  auto pool = MakePool(p, Options(3, 0, 2));
  ResetAll(*pool);
  const std::vector<std::int64_t> ids = {0, 1, 2};
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  for (const std::vector<float>& a : {std::vector<float>{0, 0, 0, nan, 0, 0},
                                      std::vector<float>{inf, 0, 0, 0, 0, 0},
                                      std::vector<float>{0, 0, 0, 0, 0, -inf}}) {
    CHECK_THROWS_MSG(pool->Send(a.data(), DType::kFloat32, ids.data(), 3), std::invalid_argument,
                     "not finite");
  }
  const std::vector<double> d = {0, 0, std::numeric_limits<double>::quiet_NaN(), 0, 0, 0};
  CHECK_THROWS(pool->Send(d.data(), DType::kFloat64, ids.data(), 3), std::invalid_argument);
  // Integers into a continuous action are converted.
  const std::vector<std::int32_t> ints = {1, 0, 0, 1, 1, 1};
  pool->Send(ints.data(), DType::kInt32, ids.data(), 3);
  std::vector<Row> rows = ReadRows(*Recv(*pool));
  CHECK_EQ(rows.size(), 3u);
  CHECK_EQ(rows[0].reward, 1.0f);
  CHECK_EQ(rows[1].reward, 1.0f);
  CHECK_EQ(rows[2].reward, 2.0f);
  for (const Row& r : rows) CHECK_EQ(r.count(), 1);  // stepped once: the failures queued nothing
}

// ---------------------------------------------------------------------------
// Recv errors and timeouts.

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

// ---------------------------------------------------------------------------
// Close.

TEST(close_is_idempotent_and_final) {
  for (int batch : {0, 2}) {
    auto pool = MakePool(TestParams{}, Options(4, batch, 2));
    SendReset(*pool, Range(4));
    Recv(*pool);
    // Close with envs in flight (async) or an empty queue (sync).
    pool->Close();
    CHECK(pool->closed());
    pool->Close();
    CHECK(pool->closed());
    CHECK_THROWS_MSG(Send(*pool, {0}, {1}), std::runtime_error, "closed");
    CHECK_THROWS_MSG(SendReset(*pool, {0}), std::runtime_error, "closed");
    CHECK_THROWS_MSG(Recv(*pool), std::runtime_error, "closed");
    CHECK_THROWS_MSG(pool->GetState(0), std::runtime_error, "closed");
    CHECK_THROWS_MSG(pool->SetState(0, {0, 0}), std::runtime_error, "closed");
  }
  // Closing with a sync batch in flight, and destroying without Close.
  TestParams slow;
  slow.max_sleep_us = 200;
  for (int k = 0; k < 5; ++k) {
    auto pool = MakePool(slow, Options(6, 0, 3));
    SendReset(*pool, Range(6));
    if (k % 2 == 0) pool->Close();
  }
}

// ---------------------------------------------------------------------------
// State access.

TEST(get_and_set_state) {
  auto pool = MakePool(TestParams{}, Options(2, 0, 1));
  ResetAll(*pool);
  StepAll(*pool, {1, 1});
  const std::vector<double> s = pool->GetState(1);
  CHECK_EQ(s.size(), 2u);
  CHECK_EQ(s[0], 1.0);
  pool->SetState(1, {3, 12345});
  CHECK_THROWS(pool->SetState(1, {1}), std::invalid_argument);
  CHECK_THROWS(pool->GetState(2), std::invalid_argument);
  CHECK_THROWS(pool->GetState(-1), std::invalid_argument);
  std::vector<Row> rows = StepAll(*pool, {1, 1});
  CHECK_EQ(rows[1].count(), 4);  // episode_length 5: not done yet
  CHECK_EQ(rows[1].base(), 12345);
  rows = StepAll(*pool, {1, 1});
  CHECK(rows[1].terminated);
  CHECK(!rows[0].done());
}

// ---------------------------------------------------------------------------
// Per-env setups: envs built from different configurations, ranges drawn at
// reset.

// Writes its config's "x" and the first draw of its Rng at the last reset;
// its observation has "size" elements (so a config can change the spec).
class DrawEnv final : public Env {
 public:
  struct Params {
    explicit Params(const Config& c) : x(c.GetDouble("x")), size(c.GetInt("size")) {}
    double x;
    std::int64_t size;
  };
  static EnvSpec MakeSpec(const Params& p) {
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("obs", DType::kFloat64, {p.size}));
    spec.action = DiscreteSpec("action", 2, DType::kInt32);
    return spec;
  }
  explicit DrawEnv(const Params& p) : x_(p.x) {}
  void Reset(Rng& rng) override { draw_ = rng.Uniform01(); }
  StepOutcome Step(const ActionView& /*action*/, Rng& /*rng*/) override { return {}; }
  void Write(const Slot& slot) const override {
    slot.Obs<double>()[0] = x_;
    slot.Obs<double>()[1] = draw_;
  }

 private:
  double x_;
  double draw_ = -1.0;
};

std::shared_ptr<const EnvFactory> DrawFactory(double x, std::int64_t size = 2) {
  return std::make_shared<BasicFactory<DrawEnv>>(
      Config({{"x", ConfigValue(x)}, {"size", ConfigValue(size)}}));
}

TEST(per_env_setups_and_ranges_drawn_from_the_env_rng) {
  std::vector<EnvSetup> setups(3);
  setups[0].factory = DrawFactory(1.0);
  setups[1].factory = DrawFactory(2.0);
  setups[2].factory = setups[0].factory;
  setups[2].config = Config({{"x", ConfigValue(1.0)}, {"size", ConfigValue(std::int64_t{2})}});
  setups[2].ranges = {{"x", 5.0, 6.0}};
  PoolOptions o = Options(3, 0, 2);
  o.seeds = {7, 8, 9};
  Pool pool(std::move(setups), o);
  for (int episode = 0; episode < 2; ++episode) {
    const std::vector<std::int64_t> ids{0, 1, 2};
    pool.SendReset(ids.data(), 3, nullptr);
    std::shared_ptr<Batch> batch = pool.Recv(kGuardSeconds, [] {});
    // Envs without ranges draw nothing more than their Reset: their streams
    // are those of a uniform pool. Env 2 draws x first, then resets.
    std::vector<Rng> rngs{Rng(7), Rng(8), Rng(9)};
    std::vector<double> x{1.0, 2.0, 0.0}, draws(3);
    for (int e = 0; e < 3; ++e) {
      for (int k = 0; k <= episode; ++k) {
        if (e == 2) x[2] = rngs[2].Uniform(5.0, 6.0);
        draws[e] = rngs[e].Uniform01();
      }
    }
    for (int row = 0; row < 3; ++row) {
      const int e = batch->env_id.At<std::int32_t>(row);
      const auto* obs = reinterpret_cast<const double*>(batch->obs[0].Row(row));
      CHECK_EQ(obs[0], x[e]);
      CHECK_EQ(obs[1], draws[e]);
    }
    CHECK(pool.Drawn(0).empty());
    CHECK_EQ(pool.Drawn(2).size(), 1u);
    CHECK_EQ(pool.Drawn(2)[0], x[2]);
  }
}

TEST(per_env_setups_must_share_spaces) {
  std::vector<EnvSetup> setups(2);
  setups[0].factory = DrawFactory(1.0);
  setups[1].factory = DrawFactory(1.0, 3);
  CHECK_THROWS_MSG(Pool(setups, Options(2)), std::invalid_argument,
                   "env 1 has other spaces than env 0 (obs 'obs')");
  setups[1].factory = DrawFactory(1.0);
  setups[1].ranges = {{"x", 2.0, 1.0}};
  CHECK_THROWS_MSG(Pool(setups, Options(2)), std::invalid_argument, "low <= high");
  CHECK_THROWS_MSG(Pool(setups, Options(3)), std::invalid_argument, "one env setup per env");
}

// ---------------------------------------------------------------------------
// Batch recycling.

TEST(sync_batches_recycled_unless_held) {
  auto pool = MakePool(TestParams{}, Options(3, 0, 2));
  ResetAll(*pool);
  std::set<const Batch*> seen;
  // Dropped before the next send: reused.
  for (int k = 0; k < 20; ++k) {
    std::shared_ptr<Batch> b = (Send(*pool, Range(3), {1, 2, 3}), Recv(*pool));
    seen.insert(b.get());
  }
  // At most two: a worker may still hold the previous batch for an instant after
  // its last row (tasks keep their batch alive); every older one is free again.
  CHECK_LE(seen.size(), 2u);

  // A held batch keeps its contents and is never handed out again.
  Send(*pool, Range(3), {4, 5, 6});
  std::shared_ptr<Batch> held = Recv(*pool);
  const std::vector<Row> snapshot = ReadRows(*held);
  std::set<const Batch*> later;
  for (int k = 0; k < 20; ++k) {
    Send(*pool, Range(3), {static_cast<std::int32_t>(k % 10), 0, 9});
    std::shared_ptr<Batch> b = Recv(*pool);
    CHECK(b.get() != held.get());
    later.insert(b.get());
    CHECK_EQ(ReadRows(*held).size(), 3u);
    CHECK(ReadRows(*held) == snapshot);
  }
  // At most two: a worker may still hold the previous batch for an instant after
  // its last row (tasks keep their batch alive); every older one is free again.
  CHECK_LE(later.size(), 2u);
  // Several held at once: all distinct and intact; dropped, they are reused.
  std::vector<std::shared_ptr<Batch>> keep;
  std::vector<std::vector<Row>> snapshots;
  for (int k = 0; k < 6; ++k) {
    Send(*pool, Range(3), {static_cast<std::int32_t>(k), 1, 1});
    keep.push_back(Recv(*pool));
    snapshots.push_back(ReadRows(*keep.back()));
    CHECK(keep.back().get() != held.get());
    for (int j = 0; j < k; ++j) CHECK(keep[j].get() != keep.back().get());
  }
  for (int k = 0; k < 6; ++k) CHECK(ReadRows(*keep[k]) == snapshots[k]);
  CHECK(ReadRows(*held) == snapshot);
  keep.clear();
  held.reset();
  seen.clear();
  for (int k = 0; k < 20; ++k) {
    Send(*pool, Range(3), {1, 1, 1});
    seen.insert(Recv(*pool).get());
  }
  // At most two: a worker may still hold the previous batch for an instant after
  // its last row (tasks keep their batch alive); every older one is free again.
  CHECK_LE(seen.size(), 2u);
}

TEST(async_batches_recycled_unless_held) {
  TestParams p;
  p.max_sleep_us = 20;
  p.episode_length = 0;
  const int n = 8, batch = 2;
  auto pool = MakePool(p, Options(n, batch, 3));
  SendReset(*pool, Range(n));
  auto step = [&](std::shared_ptr<Batch> b) {
    std::vector<std::int64_t> ids;
    for (const Row& r : ReadRows(*b)) ids.push_back(r.env_id);
    Send(*pool, ids, std::vector<std::int32_t>(ids.size(), 1));
  };
  std::shared_ptr<Batch> held = Recv(*pool);
  const std::vector<Row> snapshot = ReadRows(*held);
  step(held);
  std::set<const Batch*> seen;
  for (int k = 0; k < 200; ++k) {
    std::shared_ptr<Batch> b = Recv(*pool);
    CHECK(b.get() != held.get());
    seen.insert(b.get());
    CHECK(ReadRows(*held) == snapshot);
    step(b);
  }
  // Dropped batches are reused: a handful of buffers, not one per recv.
  const std::size_t keep = static_cast<std::size_t>(n / batch + 3);
  CHECK_LE(seen.size(), 2 * keep);
  CHECK(ReadRows(*held) == snapshot);
}

int main(int argc, char** argv) { return check::RunAll(argc, argv); }
