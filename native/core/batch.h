// A batch of results: one preallocated array per field, `capacity` rows each.
// Workers write rows in place; Python wraps the arrays without copying and
// keeps the batch alive while it holds them (batch_recycler.h recycles them).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/dtype.h"
#include "core/spec.h"

namespace envpool {

// One value of a container array (ArraySpec::container): an array whose shape
// the env picks when it writes it. Python gets a copy of it as a numpy array.
struct Cell {
  DType dtype = DType::kInt32;
  std::vector<std::int64_t> shape;
  std::vector<std::byte> data;
  bool set = false;  // written since the row was taken (else Python gets None)

  // Makes the value a zero-filled array of T of `new_shape` and returns its elements.
  template <class T>
  T* Assign(std::vector<std::int64_t> new_shape) {
    std::size_t count = 1;
    for (std::int64_t d : new_shape) {
      if (d < 0) throw std::invalid_argument("Cell::Assign: a negative dimension");
      count *= static_cast<std::size_t>(d);
    }
    dtype = DTypeOf<T>();
    shape = std::move(new_shape);
    data.assign(count * sizeof(T), std::byte{0});
    set = true;
    return reinterpret_cast<T*>(data.data());
  }
};

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
  // A column of `spec` in a pool whose envs have up to `players` players: a
  // per-player array holds `players` values per row, a container array one
  // Cell per value (Row(i) then points at the row's first Cell).
  Column(const ArraySpec& spec, int capacity, int players)
      : Column(spec.dtype, Shape(spec, players), spec.container ? 0 : capacity) {
    capacity_ = capacity;
    if (spec.container) {
      cells_per_row_ = spec.per_player ? players : 1;
      cells_.resize(static_cast<std::size_t>(cells_per_row_) * static_cast<std::size_t>(capacity));
      row_bytes_ = 0;
    }
  }

  DType dtype() const { return dtype_; }
  const std::vector<std::int64_t>& shape() const { return shape_; }
  std::size_t row_bytes() const { return row_bytes_; }
  int capacity() const { return capacity_; }
  std::byte* data() { return data_.data(); }
  std::byte* Row(int i) {
    if (is_container()) return reinterpret_cast<std::byte*>(Cells(i));
    return data_.data() + row_bytes_ * static_cast<std::size_t>(i);
  }
  // Container columns: the Cells of row i (cells_per_row() of them).
  bool is_container() const { return cells_per_row_ > 0; }
  int cells_per_row() const { return cells_per_row_; }
  Cell* Cells(int i) {
    return cells_.data() + static_cast<std::size_t>(cells_per_row_) * static_cast<std::size_t>(i);
  }
  template <class T>
  T& At(int i) {
    return *reinterpret_cast<T*>(Row(i));
  }

 private:
  static std::vector<std::int64_t> Shape(const ArraySpec& spec, int players) {
    std::vector<std::int64_t> shape;
    if (spec.per_player) shape.push_back(players);
    if (!spec.container) shape.insert(shape.end(), spec.shape.begin(), spec.shape.end());
    return shape;
  }

  DType dtype_;
  std::vector<std::int64_t> shape_;
  int capacity_;
  std::size_t row_bytes_ = 0;
  std::vector<std::byte> data_;
  int cells_per_row_ = 0;  // > 0: a container column
  std::vector<Cell> cells_;
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
        final_elapsed_step(DType::kInt32, {}, keep_final ? capacity : 0),
        num_players(DType::kInt32, {}, spec.max_num_players > 0 ? capacity : 0) {
    for (const ArraySpec& s : spec.obs) obs.emplace_back(s, capacity, spec.max_num_players);
    for (const ArraySpec& s : spec.info) info.emplace_back(s, capacity, spec.max_num_players);
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
  Column num_players;  // multi-player envs: the players each row holds (else empty)
};

}  // namespace envpool
