// A batch of results: one preallocated array per field, `capacity` rows each.
// Workers write rows in place; Python wraps the arrays without copying and
// keeps the batch alive while it holds them (see pool.cc for recycling).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/dtype.h"
#include "core/spec.h"

namespace envpool {

class Column {
 public:
  Column(DType dtype, std::vector<std::int64_t> shape, int capacity)
      : dtype_(dtype), shape_(std::move(shape)), capacity_(capacity) {
    std::size_t count = 1;
    for (std::int64_t d : shape_) count *= static_cast<std::size_t>(d);
    row_bytes_ = count * DTypeSize(dtype_);
    data_.resize(row_bytes_ * static_cast<std::size_t>(capacity));
  }
  explicit Column(const ArraySpec& spec, int capacity) : Column(spec.dtype, spec.shape, capacity) {}

  DType dtype() const { return dtype_; }
  const std::vector<std::int64_t>& shape() const { return shape_; }
  std::size_t row_bytes() const { return row_bytes_; }
  int capacity() const { return capacity_; }
  std::byte* data() { return data_.data(); }
  std::byte* Row(int i) { return data_.data() + row_bytes_ * static_cast<std::size_t>(i); }
  template <class T>
  T& At(int i) {
    return *reinterpret_cast<T*>(Row(i));
  }

 private:
  DType dtype_;
  std::vector<std::int64_t> shape_;
  int capacity_;
  std::size_t row_bytes_ = 0;
  std::vector<std::byte> data_;
};

class Batch {
 public:
  Batch(const EnvSpec& spec, int capacity, bool keep_final)
      : capacity(capacity),
        env_id(DType::kInt32, {}, capacity),
        reward(DType::kFloat32, {}, capacity),
        terminated(DType::kBool, {}, capacity),
        truncated(DType::kBool, {}, capacity),
        elapsed_step(DType::kInt32, {}, capacity),
        final_elapsed_step(DType::kInt32, {}, keep_final ? capacity : 0) {
    for (const ArraySpec& s : spec.obs) obs.emplace_back(s, capacity);
    for (const ArraySpec& s : spec.info) info.emplace_back(s, capacity);
    if (keep_final) {
      for (const ArraySpec& s : spec.obs) final_obs.emplace_back(s, capacity);
      for (const ArraySpec& s : spec.info) final_info.emplace_back(s, capacity);
    }
  }
  Batch(const Batch&) = delete;
  Batch& operator=(const Batch&) = delete;

  bool keeps_final() const { return !final_obs.empty() || !final_info.empty(); }

  const int capacity;
  // Rows expected before the batch is complete, and rows written so far.
  std::atomic<int> size{0};
  std::atomic<int> filled{0};
  // Async mode: rows handed out to workers.
  int claimed = 0;

  std::vector<Column> obs;
  std::vector<Column> info;
  std::vector<Column> final_obs;   // same-step autoreset: the last obs of a done episode
  std::vector<Column> final_info;  // ... and its info
  Column env_id;
  Column reward;
  Column terminated;
  Column truncated;
  Column elapsed_step;
  Column final_elapsed_step;
};

}  // namespace envpool
