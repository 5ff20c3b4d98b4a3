// Tests of the Pool as a whole (pool.h): construction, batch contents in sync
// and async mode, determinism, Close, state access and per-env setups. Each
// stage has its tests beside it: admission_test.cc, task_queue_test.cc,
// batch_recycler_test.cc, workers_test.cc and recv_test.cc.
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

int main(int argc, char** argv) { return check::RunAll(argc, argv); }
