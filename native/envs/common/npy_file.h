// A numpy .npy file (format versions 1 to 3, C order) read whole: its dtype descriptor,
// shape and raw bytes. The envs that read a data file a package installs (jumanji's sudoku
// puzzles, boxoban levels) check the descriptor and shape they need and share the bytes
// read-only across a pool.
#pragma once

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace envpool::npy {

struct Array {
  std::string descr;                // numpy's dtype descriptor, such as "|u1" or "<f4"
  std::vector<std::int64_t> shape;  // C order
  std::vector<std::uint8_t> data;   // the elements' bytes, prod(shape) * item size
};

namespace detail {

// The text of `key`'s value in the header dict ("{'descr': '|u1', 'fortran_order': False,
// 'shape': (3, 4), }"), up to the next ", '" or the closing brace.
inline std::string HeaderValue(const std::string& header, const std::string& key,
                               const std::string& path) {
  const std::size_t at = header.find("'" + key + "':");
  if (at == std::string::npos) {
    throw std::invalid_argument(path + ": no '" + key + "' in its header");
  }
  std::size_t begin = at + key.size() + 3;
  while (begin < header.size() && header[begin] == ' ') ++begin;
  if (header.compare(begin, 1, "(") == 0) {
    const std::size_t end = header.find(')', begin);
    if (end == std::string::npos) throw std::invalid_argument(path + ": a bad shape in its header");
    return header.substr(begin, end - begin + 1);
  }
  std::size_t end = begin;
  while (end < header.size() && header[end] != ',' && header[end] != '}') ++end;
  return header.substr(begin, end - begin);
}

// "(1000, 10, 10, 2)", "(5,)", "()" as numbers.
inline std::vector<std::int64_t> ParseShape(const std::string& text, const std::string& path) {
  std::vector<std::int64_t> shape;
  std::string digits;
  for (std::size_t i = 1; i < text.size(); ++i) {
    const char c = text[i];
    if (c >= '0' && c <= '9') {
      digits.push_back(c);
    } else if (c == ',' || c == ')') {
      if (!digits.empty()) {
        if (digits.size() > 15) throw std::invalid_argument(path + ": a shape too large");
        shape.push_back(std::stoll(digits));
        digits.clear();
      }
    } else if (c != ' ' && c != 'L') {
      throw std::invalid_argument(path + ": a bad shape in its header: " + text);
    }
  }
  return shape;
}

}  // namespace detail

// Reads `path`; throws std::runtime_error naming the file when it cannot be opened, and
// std::invalid_argument when it is not an .npy file, is in Fortran order, or holds fewer or
// more bytes than its shape says.
inline Array Read(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error("cannot open " + path);
  char magic[8] = {};
  file.read(magic, 8);
  if (!file || std::memcmp(magic, "\x93NUMPY", 6) != 0 || magic[6] < 1 || magic[6] > 3) {
    throw std::invalid_argument(path + " is not an .npy file (format version 1 to 3)");
  }
  unsigned char len[4] = {};
  const int len_bytes = magic[6] == 1 ? 2 : 4;
  file.read(reinterpret_cast<char*>(len), len_bytes);
  const std::size_t header_size =
      static_cast<std::size_t>(len[0]) | (static_cast<std::size_t>(len[1]) << 8) |
      (static_cast<std::size_t>(len[2]) << 16) | (static_cast<std::size_t>(len[3]) << 24);
  if (!file || header_size > (1u << 20)) throw std::invalid_argument(path + ": a bad .npy header");
  std::string header(header_size, ' ');
  file.read(header.data(), static_cast<std::streamsize>(header.size()));
  if (!file) throw std::invalid_argument(path + ": a truncated .npy header");
  Array out;
  std::string descr = detail::HeaderValue(header, "descr", path);
  if (descr.size() < 2 || descr.front() != '\'' || descr.back() != '\'') {
    throw std::invalid_argument(path + ": a bad dtype in its header: " + descr);
  }
  out.descr = descr.substr(1, descr.size() - 2);
  if (detail::HeaderValue(header, "fortran_order", path) != "False") {
    throw std::invalid_argument(path + " is in Fortran order (C order needed)");
  }
  out.shape = detail::ParseShape(detail::HeaderValue(header, "shape", path), path);
  std::size_t item = 0;
  for (char c : out.descr) {
    if (c >= '0' && c <= '9') item = item * 10 + static_cast<std::size_t>(c - '0');
  }
  std::size_t count = 1;
  for (std::int64_t n : out.shape) count *= static_cast<std::size_t>(n);
  out.data.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  if (item == 0 || out.data.size() != count * item) {
    throw std::invalid_argument(path + " holds " + std::to_string(out.data.size()) +
                             " bytes of data where its header says " +
                             std::to_string(count * item));
  }
  return out;
}

}  // namespace envpool::npy
