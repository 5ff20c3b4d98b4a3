// Element types of the arrays an environment reads and writes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>

namespace envpool {

// (kInt8 last: jumanji's int8 observations, added after the others kept their values;
// kInt16 after it: jumanji's int16 demands and capacities of MultiCVRP)
enum class DType : std::uint8_t { kBool, kUInt8, kInt32, kInt64, kFloat32, kFloat64, kInt8, kInt16 };

// Size in bytes of one element.
constexpr std::size_t DTypeSize(DType t) {
  switch (t) {
    case DType::kBool:
    case DType::kUInt8:
    case DType::kInt8:
      return 1;
    case DType::kInt16:
      return 2;
    case DType::kInt32:
    case DType::kFloat32:
      return 4;
    case DType::kInt64:
    case DType::kFloat64:
      return 8;
  }
  return 0;
}

// The numpy name of the type ("float32", ...).
constexpr const char* DTypeName(DType t) {
  switch (t) {
    case DType::kBool:
      return "bool";
    case DType::kUInt8:
      return "uint8";
    case DType::kInt32:
      return "int32";
    case DType::kInt64:
      return "int64";
    case DType::kFloat32:
      return "float32";
    case DType::kFloat64:
      return "float64";
    case DType::kInt8:
      return "int8";
    case DType::kInt16:
      return "int16";
  }
  return "?";
}

template <class T>
constexpr DType DTypeOf();
template <>
constexpr DType DTypeOf<bool>() { return DType::kBool; }
template <>
constexpr DType DTypeOf<std::uint8_t>() { return DType::kUInt8; }
template <>
constexpr DType DTypeOf<std::int32_t>() { return DType::kInt32; }
template <>
constexpr DType DTypeOf<std::int64_t>() { return DType::kInt64; }
template <>
constexpr DType DTypeOf<float>() { return DType::kFloat32; }
template <>
constexpr DType DTypeOf<double>() { return DType::kFloat64; }
template <>
constexpr DType DTypeOf<std::int8_t>() { return DType::kInt8; }
template <>
constexpr DType DTypeOf<std::int16_t>() { return DType::kInt16; }

}  // namespace envpool
