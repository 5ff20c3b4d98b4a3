// A JAX reference package's env state as its pytree leaves: what an env that restates a
// JAX package (jumanji's, pgx's) gives as GetState, so that Python can rebuild the
// package's own State object from it (envpool/tasks/_state_leaves.py) and hand it to the
// package's own drawing code; tests compare the rebuilt State leaf by leaf with the
// package's.
//
// The leaves come in the order of jax.tree_util.tree_leaves (a dataclass's fields in their
// order, a NamedTuple's in theirs, a dict's by sorted key, a chex dataclass's by sorted
// field name), each as its rank, its shape and its values in row-major order (bools as
// 0 / 1). Every value of the packages' int8 .. int32, uint32 and float32 leaves is a double
// exactly.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <stdexcept>
#include <utility>
#include <vector>

#include "envs/common/jax_random.h"

namespace envpool {

class StateLeaves {
 public:
  // A leaf of `shape` from the flat `values` (as many as the shape's product).
  template <typename Range>
  StateLeaves& Add(const Range& values, std::initializer_list<int> shape) {
    const std::size_t start = Begin(shape);
    for (const auto& v : values) out_.push_back(static_cast<double>(v));
    return End(start, shape);
  }
  // A leaf of `shape` from rows of values (a std::vector of std::arrays, say), row-major.
  template <typename Rows>
  StateLeaves& AddRows(const Rows& rows, std::initializer_list<int> shape) {
    const std::size_t start = Begin(shape);
    for (const auto& row : rows) {
      for (const auto& v : row) out_.push_back(static_cast<double>(v));
    }
    return End(start, shape);
  }
  // A rank-0 leaf.
  template <typename T>
  StateLeaves& Scalar(T value) {
    out_.push_back(0.0);
    out_.push_back(static_cast<double>(value));
    return *this;
  }
  // A jax key (uint32[2]).
  StateLeaves& KeyLeaf(const jax_random::Key& key) { return Add(key, {2}); }
  std::vector<double> Take() { return std::move(out_); }

 private:
  std::size_t Begin(std::initializer_list<int> shape) {
    out_.push_back(static_cast<double>(shape.size()));
    for (int d : shape) out_.push_back(static_cast<double>(d));
    return out_.size();
  }
  StateLeaves& End(std::size_t start, std::initializer_list<int> shape) {
    std::size_t size = 1;
    for (int d : shape) size *= static_cast<std::size_t>(d);
    if (out_.size() - start != size) {
      throw std::logic_error("StateLeaves: a leaf's values do not fill its shape");
    }
    return *this;
  }
  std::vector<double> out_;
};

}  // namespace envpool
