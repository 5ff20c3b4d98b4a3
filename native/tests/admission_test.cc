// Tests of the pool's first stage (admission.h): ConvertAction and Admission
// by themselves, then Send's validation through a Pool.
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

// Converts one row of `src` for `spec` and returns the written value(s) as T.
template <class T, class Src>
std::vector<T> Converted(const std::vector<Src>& src, DType dtype, std::int64_t row,
                         const ArraySpec& spec) {
  std::vector<T> out(static_cast<std::size_t>(spec.NumElements()));
  ConvertAction(src.data(), dtype, row, reinterpret_cast<std::byte*>(out.data()), spec, 7);
  return out;
}

EnvSpec DiscreteEnvSpec(std::int64_t n, std::int64_t start) {
  EnvSpec spec;
  spec.action = DiscreteSpec("action", n, DType::kInt32, start);
  return spec;
}

}  // namespace

// ---------------------------------------------------------------------------
// ConvertAction: one row, checked and converted to the spec's type.

TEST(convert_discrete_rows_and_range) {
  const ArraySpec spec = DiscreteSpec("action", 5, DType::kInt32, -2);  // -2 .. 2
  const std::vector<std::int64_t> src = {-2, 2, 3, -3};
  CHECK(Converted<std::int32_t>(src, DType::kInt64, 0, spec) == std::vector<std::int32_t>{-2});
  CHECK(Converted<std::int32_t>(src, DType::kInt64, 1, spec) == std::vector<std::int32_t>{2});
  CHECK_THROWS_MSG(Converted<std::int32_t>(src, DType::kInt64, 2, spec), std::invalid_argument,
                   "action 3 for env 7 is out of range: valid actions are -2 .. 2");
  CHECK_THROWS_MSG(Converted<std::int32_t>(src, DType::kInt64, 3, spec), std::invalid_argument,
                   "out of range");
  const std::vector<float> floats = {1.0f};
  CHECK_THROWS_MSG(Converted<std::int32_t>(floats, DType::kFloat32, 0, spec),
                   std::invalid_argument, "must be integers");
  const std::vector<std::uint8_t> bytes = {1};
  CHECK_THROWS_MSG(Converted<std::int32_t>(bytes, DType::kUInt8, 0, spec), std::invalid_argument,
                   "unsupported action type");
}

TEST(convert_continuous_rows_to_the_spec_type) {
  const ArraySpec f32 = BoxSpec("action", DType::kFloat32, {2}, {-1}, {1});
  const ArraySpec f64 = BoxSpec("action", DType::kFloat64, {2}, {-1}, {1});
  const std::vector<double> src = {0.5, -0.25, 3.0, 4.0};  // no clipping to the bounds
  CHECK(Converted<float>(src, DType::kFloat64, 1, f32) == (std::vector<float>{3.0f, 4.0f}));
  CHECK(Converted<double>(src, DType::kFloat64, 0, f64) == (std::vector<double>{0.5, -0.25}));
  const std::vector<std::int32_t> ints = {1, -1};
  CHECK(Converted<float>(ints, DType::kInt32, 0, f32) == (std::vector<float>{1.0f, -1.0f}));
  const std::vector<float> bad = {0.0f, std::numeric_limits<float>::quiet_NaN()};
  CHECK_THROWS_MSG(Converted<float>(bad, DType::kFloat32, 0, f32), std::invalid_argument,
                   "not finite");
}

TEST(convert_integer_box_within_bounds) {
  // gymnasium's Box(low, high, (2,), int32): whole numbers within each bound.
  const ArraySpec spec = BoxSpec("action", DType::kInt32, {2}, {0, -5}, {3, 5});
  const std::vector<double> src = {3.0, -5.0, 4.0, 0.0, 1.5, 0.0};
  CHECK(Converted<std::int32_t>(src, DType::kFloat64, 0, spec) ==
        (std::vector<std::int32_t>{3, -5}));
  CHECK_THROWS_MSG(Converted<std::int32_t>(src, DType::kFloat64, 1, spec), std::invalid_argument,
                   "(element 0)");
  CHECK_THROWS_MSG(Converted<std::int32_t>(src, DType::kFloat64, 2, spec), std::invalid_argument,
                   "the integers 0 .. 3");
}

// ---------------------------------------------------------------------------
// Admission: ids in flight, all or nothing.

TEST(admission_marks_ids_in_flight_all_or_nothing) {
  const EnvSpec spec = DiscreteEnvSpec(10, 0);
  Admission a(spec, 4);
  CHECK_EQ(a.num_envs(), 4);
  const std::vector<std::int64_t> ids = {2, 0};
  a.Admit(ids.data(), 2);
  CHECK(a.in_flight(2) && a.in_flight(0) && !a.in_flight(1));
  CHECK_EQ(a.num_in_flight(), 2);
  // A bad id anywhere in a list leaves none of it marked.
  const std::vector<std::int64_t> bad = {1, 3, 0};
  CHECK_THROWS_MSG(a.Admit(bad.data(), 3), std::invalid_argument, "already in flight");
  const std::vector<std::int64_t> twice = {1, 1};
  CHECK_THROWS_MSG(a.Admit(twice.data(), 2), std::invalid_argument, "listed twice");
  const std::vector<std::int64_t> out = {3, 4};
  CHECK_THROWS_MSG(a.Admit(out.data(), 2), std::invalid_argument, "out of range 0 .. 3");
  CHECK_THROWS_MSG(a.Admit(out.data(), 0), std::invalid_argument, "no env ids");
  CHECK(!a.in_flight(1) && !a.in_flight(3));
  CHECK_EQ(a.num_in_flight(), 2);
  a.Release(ids.data(), 2);
  CHECK(!a.in_flight(2) && !a.in_flight(0));
  CHECK_EQ(a.num_in_flight(), 0);
}

TEST(admission_converts_actions_into_each_envs_row) {
  const EnvSpec spec = DiscreteEnvSpec(10, 0);
  Admission a(spec, 3);
  for (int id = 0; id < 3; ++id) CHECK(a.Start(id));
  CHECK(!a.Start(1));  // started once is started
  const std::vector<std::int64_t> ids = {2, 0};
  const std::vector<std::int32_t> actions = {9, 4};
  a.AdmitActions(actions.data(), DType::kInt32, ids.data(), 2, true, false);
  CHECK_EQ(*reinterpret_cast<const std::int32_t*>(a.Action(2)), 9);
  CHECK_EQ(*reinterpret_cast<const std::int32_t*>(a.Action(0)), 4);
  // A bad action rolls the whole send back, and leaves the table as it was.
  const std::vector<std::int64_t> next = {1, 0};
  a.Release(ids.data(), 2);
  const std::vector<std::int32_t> bad = {5, 10};
  CHECK_THROWS_MSG(a.AdmitActions(bad.data(), DType::kInt32, next.data(), 2, true, false),
                   std::invalid_argument, "for env 0 is out of range");
  CHECK(!a.in_flight(1) && !a.in_flight(0));
  CHECK_EQ(a.num_in_flight(), 0);
}

TEST(admission_refuses_steps_of_envs_not_started_or_done) {
  const EnvSpec spec = DiscreteEnvSpec(10, 0);
  Admission a(spec, 2);
  const std::vector<std::int64_t> ids = {0, 1};
  const std::vector<std::int32_t> actions = {1, 1};
  // Never started: refused unless first steps reset.
  CHECK_THROWS_MSG(a.AdmitActions(actions.data(), DType::kInt32, ids.data(), 2, false, false),
                   ResetNeeded, "env 0 has not been reset");
  CHECK_EQ(a.num_in_flight(), 0);
  a.AdmitActions(actions.data(), DType::kInt32, ids.data(), 2, true, false);
  // Delivered with env 1 done: with autoreset disabled its next step is refused.
  Batch batch(spec, 2, false);
  batch.size.store(2);
  batch.env_id.At<std::int32_t>(0) = 1;
  batch.env_id.At<std::int32_t>(1) = 0;
  batch.terminated.At<bool>(0) = true;
  batch.terminated.At<bool>(1) = false;
  batch.truncated.At<bool>(0) = false;
  batch.truncated.At<bool>(1) = false;
  a.Deliver(batch);
  CHECK_EQ(a.num_in_flight(), 0);
  CHECK(!a.in_flight(0) && !a.in_flight(1));
  a.Start(0);
  a.Start(1);
  CHECK_THROWS_MSG(a.AdmitActions(actions.data(), DType::kInt32, ids.data(), 2, true, true),
                   std::invalid_argument, "env 1 ended its episode and autoreset is disabled");
  a.AdmitActions(actions.data(), DType::kInt32, ids.data(), 2, true, false);
  CHECK_EQ(a.num_in_flight(), 2);
}

TEST(admission_of_players_actions) {
  EnvSpec spec = DiscreteEnvSpec(4, 0);
  spec.max_num_players = 2;
  spec.player_actions.push_back(DiscreteSpec("move", 3, DType::kInt32));
  Admission a(spec, 3);
  CHECK(a.has_players());
  const std::vector<std::int64_t> ids = {2, 1};
  const std::vector<std::int32_t> actions = {0, 0};
  const std::vector<std::int64_t> player_envs = {1, 2, 1};
  const std::vector<std::int32_t> moves = {2, 1, 0};
  const std::vector<const void*> arrays = {moves.data()};
  const std::vector<DType> dtypes = {DType::kInt32};
  a.AdmitActions(actions.data(), DType::kInt32, ids.data(), 2, true, false);
  a.AdmitPlayers(ids.data(), 2, player_envs.data(), 3, arrays, dtypes);
  std::vector<const std::byte*> rows;
  CHECK_EQ(a.PlayerActions(1, rows), 2);
  CHECK_EQ(reinterpret_cast<const std::int32_t*>(rows[0])[0], 2);
  CHECK_EQ(reinterpret_cast<const std::int32_t*>(rows[0])[1], 0);
  CHECK_EQ(a.PlayerActions(2, rows), 1);
  CHECK_EQ(reinterpret_cast<const std::int32_t*>(rows[0])[0], 1);
  a.NoPlayers(ids.data(), 2);
  CHECK_EQ(a.PlayerActions(1, rows), 0);
  a.Release(ids.data(), 2);
  // A player of an env not sent, or one player too many: the send is released.
  a.AdmitActions(actions.data(), DType::kInt32, ids.data(), 2, true, false);
  const std::vector<std::int64_t> stray = {0};
  CHECK_THROWS_MSG(a.AdmitPlayers(ids.data(), 2, stray.data(), 1, arrays, dtypes),
                   std::invalid_argument, "not one of the env ids sent");
  CHECK_EQ(a.num_in_flight(), 0);
  a.AdmitActions(actions.data(), DType::kInt32, ids.data(), 2, true, false);
  const std::vector<std::int64_t> crowd = {1, 1, 1};
  CHECK_THROWS_MSG(a.AdmitPlayers(ids.data(), 2, crowd.data(), 3, arrays, dtypes),
                   std::invalid_argument, "more than max_num_players (2)");
  CHECK(!a.in_flight(1) && !a.in_flight(2));
}

// ---------------------------------------------------------------------------
// Through a Pool.

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

int main(int argc, char** argv) { return check::RunAll(argc, argv); }
