// Tests of the pool's third stage (batch_recycler.h): BatchRecycler by
// itself, then batch recycling through a Pool.
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

EnvSpec SmallSpec() {
  EnvSpec spec;
  spec.obs.push_back(BoxSpec("obs", DType::kFloat32, {3}));
  spec.info.push_back(BoxSpec("info", DType::kInt32, {}));
  spec.action = DiscreteSpec("action", 2, DType::kInt32);
  return spec;
}

}  // namespace

// ---------------------------------------------------------------------------
// BatchRecycler by itself.

TEST(recycler_reuses_only_batches_nobody_holds) {
  const EnvSpec spec = SmallSpec();
  BatchRecycler recycler(spec, 4, /*keep_final=*/false, /*keep=*/3, /*batch_size=*/4);
  std::shared_ptr<Batch> a = recycler.Acquire(2);
  CHECK_EQ(a->capacity, 4);
  CHECK_EQ(a->size.load(), 2);
  CHECK_EQ(a->filled.load(), 0);
  CHECK(!a->keeps_final());
  CHECK_EQ(a->obs.size(), 1u);
  a->filled.store(2);
  const Batch* first = a.get();
  a.reset();
  // Free again: the same batch, its counters reset.
  std::shared_ptr<Batch> b = recycler.Acquire(3);
  CHECK(b.get() == first);
  CHECK_EQ(b->size.load(), 3);
  CHECK_EQ(b->filled.load(), 0);
  // Held: another one.
  std::shared_ptr<Batch> c = recycler.Acquire(1);
  CHECK(c.get() != first);
  BatchRecycler final_rows(spec, 2, /*keep_final=*/true, 3, 2);
  CHECK(final_rows.Acquire(0)->keeps_final());
}

TEST(recycler_keeps_a_bounded_number) {
  const EnvSpec spec = SmallSpec();
  BatchRecycler recycler(spec, 2, false, /*keep=*/2, 2);
  // Three held at once: the oldest is forgotten (its holder frees it).
  std::shared_ptr<Batch> a = recycler.Acquire(0), b = recycler.Acquire(0),
                         c = recycler.Acquire(0);
  CHECK_EQ(a.use_count(), 1);
  CHECK_EQ(b.use_count(), 2);
  CHECK_EQ(c.use_count(), 2);
  // Freed, the one kept is reused; the forgotten one is not kept.
  const Batch* kept = b.get();
  a.reset();
  b.reset();
  CHECK(recycler.Acquire(0).get() == kept);
}

TEST(recycler_claims_rows_batch_after_batch) {
  const EnvSpec spec = SmallSpec();
  BatchRecycler recycler(spec, 3, false, 4, /*batch_size=*/3);
  std::vector<std::shared_ptr<Batch>> batches;
  std::vector<int> rows;
  for (int k = 0; k < 7; ++k) {
    auto [batch, row] = recycler.ClaimRow();
    batches.push_back(batch);
    rows.push_back(row);
    CHECK_EQ(batch->size.load(), 3);
  }
  CHECK(rows == (std::vector<int>{0, 1, 2, 0, 1, 2, 0}));
  CHECK(batches[0] == batches[2]);
  CHECK(batches[3] != batches[2]);
  CHECK(batches[3] == batches[5]);
  CHECK(batches[6] != batches[5] && batches[6] != batches[0]);
}

// ---------------------------------------------------------------------------
// Through a Pool.

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
