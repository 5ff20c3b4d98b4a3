// The pool's third stage (pool.h): the batches the workers write rows into.
// A batch is recycled once nothing outside the pool holds it (not in flight,
// not held by Python through its arrays); a bounded number are kept for reuse.
//
// Sync mode: the caller acquires the batch of a send (Acquire), and assigns
// its rows when it queues the tasks. Async mode: a worker claims the next row
// of the current batch when its env finishes (ClaimRow), so a batch holds the
// first envs to finish.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "core/batch.h"
#include "core/spec.h"

namespace envpool {

class BatchRecycler {
 public:
  // Batches of `capacity` rows of `spec` (with the final obs and info of
  // same-step autoreset when `keep_final`); `keep` of them kept for reuse;
  // ClaimRow fills batches of `batch_size` rows. `spec` must outlive this.
  BatchRecycler(const EnvSpec& spec, int capacity, bool keep_final, std::size_t keep,
                int batch_size)
      : spec_(spec),
        capacity_(capacity),
        keep_final_(keep_final),
        keep_(keep),
        batch_size_(batch_size) {}

  // A free batch (a new one if none is), expecting `size` rows, none written.
  std::shared_ptr<Batch> Acquire(int size);
  // Async mode: the next row of the current batch, which a full one
  // replaces. Holding the returned batch keeps it alive until the row is
  // written.
  std::pair<std::shared_ptr<Batch>, int> ClaimRow();

 private:
  std::shared_ptr<Batch> AcquireLocked(int size);  // mu_ held

  const EnvSpec& spec_;
  const int capacity_;
  const bool keep_final_;
  const std::size_t keep_;
  const int batch_size_;
  std::mutex mu_;
  std::vector<std::shared_ptr<Batch>> batches_;
  std::shared_ptr<Batch> current_;  // async mode: the batch rows are claimed from
};

}  // namespace envpool
