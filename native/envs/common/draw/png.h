// Reads an 8-bit RGBA PNG (colour type 6, not interlaced) into memory: the
// one image a classic-control picture uses (gymnasium's Pendulum arrow,
// assets/clockwise.png of the installed gymnasium package). zlib inflates the
// image data (the package links zlib for the ALE already); the five PNG
// scanline filters are undone here. Other PNG kinds are refused.
#pragma once

#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/common/draw/sprite.h"

namespace envpool::draw {

inline RgbaImage ReadRgbaPng(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error("cannot read the image '" + path + "'");
  const std::vector<std::uint8_t> data((std::istreambuf_iterator<char>(file)),
                                       std::istreambuf_iterator<char>());
  auto fail = [&](const std::string& why) {
    return std::runtime_error("the image '" + path + "' " + why);
  };
  static const std::uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (data.size() < 8 || !std::equal(kSignature, kSignature + 8, data.begin())) {
    throw fail("is not a PNG file");
  }
  auto be32 = [&](std::size_t at) {
    return (std::uint32_t{data[at]} << 24) | (std::uint32_t{data[at + 1]} << 16) |
           (std::uint32_t{data[at + 2]} << 8) | std::uint32_t{data[at + 3]};
  };
  RgbaImage image;
  std::vector<std::uint8_t> compressed;
  for (std::size_t at = 8; at + 12 <= data.size();) {
    const std::size_t n = be32(at);
    const std::string kind(data.begin() + at + 4, data.begin() + at + 8);
    if (at + 12 + n > data.size()) throw fail("is cut short");
    const std::size_t body = at + 8;
    if (kind == "IHDR") {
      image.width = static_cast<int>(be32(body));
      image.height = static_cast<int>(be32(body + 4));
      // bit depth 8, colour type 6 (RGBA), compression 0, filter 0, no interlace
      if (data[body + 8] != 8 || data[body + 9] != 6 || data[body + 12] != 0) {
        throw fail("is not an 8-bit RGBA PNG without interlacing");
      }
    } else if (kind == "IDAT") {
      compressed.insert(compressed.end(), data.begin() + body, data.begin() + body + n);
    }
    at += 12 + n;
  }
  if (image.width <= 0 || image.height <= 0) throw fail("has no image header");
  const std::size_t stride = static_cast<std::size_t>(image.width) * 4;
  std::vector<std::uint8_t> raw((stride + 1) * image.height);
  uLongf raw_size = raw.size();
  if (uncompress(raw.data(), &raw_size, compressed.data(), compressed.size()) != Z_OK ||
      raw_size != raw.size()) {
    throw fail("has image data that does not inflate to its size");
  }
  image.pixels.resize(stride * image.height);
  for (int y = 0; y < image.height; ++y) {
    const std::uint8_t filter = raw[y * (stride + 1)];
    const std::uint8_t* in = raw.data() + y * (stride + 1) + 1;
    std::uint8_t* out = image.pixels.data() + y * stride;
    const std::uint8_t* up = y > 0 ? out - stride : nullptr;
    for (std::size_t i = 0; i < stride; ++i) {
      const int a = i >= 4 ? out[i - 4] : 0;  // left
      const int b = up != nullptr ? up[i] : 0;  // above
      const int c = (i >= 4 && up != nullptr) ? up[i - 4] : 0;  // above left
      int predicted = 0;
      switch (filter) {
        case 0: break;
        case 1: predicted = a; break;
        case 2: predicted = b; break;
        case 3: predicted = (a + b) / 2; break;
        case 4: {
          const int pa = std::abs(b - c), pb = std::abs(a - c), pc = std::abs(a + b - 2 * c);
          predicted = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
          break;
        }
        default: throw fail("has an unknown scanline filter");
      }
      out[i] = static_cast<std::uint8_t>(in[i] + predicted);
    }
  }
  return image;
}

}  // namespace envpool::draw
