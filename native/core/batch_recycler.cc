#include "core/batch_recycler.h"

#include <atomic>

namespace envpool {

std::shared_ptr<Batch> BatchRecycler::AcquireLocked(int size) {
  std::shared_ptr<Batch> batch;
  for (const auto& b : batches_) {
    if (b.use_count() == 1) {  // nobody else holds it: not in flight, not in Python
      std::atomic_thread_fence(std::memory_order_acquire);
      batch = b;
      break;
    }
  }
  if (!batch) {
    batch = std::make_shared<Batch>(spec_, capacity_, keep_final_);
    // Keep a bounded number for reuse; past that, forget the oldest (Python
    // may still hold it, and frees it when done).
    if (batches_.size() >= keep_) batches_.erase(batches_.begin());
    batches_.push_back(batch);
  }
  batch->size.store(size, std::memory_order_relaxed);
  batch->claimed = 0;
  batch->filled.store(0, std::memory_order_relaxed);
  return batch;
}

std::shared_ptr<Batch> BatchRecycler::Acquire(int size) {
  std::lock_guard<std::mutex> lock(mu_);
  return AcquireLocked(size);
}

std::pair<std::shared_ptr<Batch>, int> BatchRecycler::ClaimRow() {
  std::lock_guard<std::mutex> lock(mu_);
  if (!current_ || current_->claimed == batch_size_) current_ = AcquireLocked(batch_size_);
  return {current_, current_->claimed++};
}

}  // namespace envpool
