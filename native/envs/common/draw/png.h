// Reads a PNG file into memory as 8-bit RGBA (straight, not premultiplied alpha).
//
// ReadRgbaPng takes only 8-bit RGBA files (colour type 6): the images of the classic-control
// and toy-text pictures (gymnasium's assets). ReadPng also takes 8-bit RGB (colour type 2)
// and palette images of 1, 2, 4 or 8 bits (colour type 3, with a tRNS chunk's alphas), as
// procgen's assets are: it expands them as libpng does for Qt's PNG reader (palette entries
// looked up, a missing tRNS alpha is 255, RGB gets alpha 255). No gamma, colour profile or
// sBIT chunk changes a value (Qt 5.13 applies none of them unless asked). Interlaced files,
// 16-bit samples and grey images are refused. zlib inflates the image data (the package
// links zlib for the ALE already); the five PNG scanline filters are undone here.
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

namespace png_detail {

inline RgbaImage Decode(const std::string& path, bool rgba_only) {
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
  int depth = 0;
  int colour = -1;
  std::vector<std::uint8_t> palette;  // RGB triples
  std::vector<std::uint8_t> alphas;   // tRNS of a palette image
  std::vector<std::uint8_t> compressed;
  for (std::size_t at = 8; at + 12 <= data.size();) {
    const std::size_t n = be32(at);
    const std::string kind(data.begin() + at + 4, data.begin() + at + 8);
    if (at + 12 + n > data.size()) throw fail("is cut short");
    const std::size_t body = at + 8;
    if (kind == "IHDR") {
      image.width = static_cast<int>(be32(body));
      image.height = static_cast<int>(be32(body + 4));
      depth = data[body + 8];
      colour = data[body + 9];
      const bool known = (colour == 6 && depth == 8) || (colour == 2 && depth == 8) ||
                         (colour == 3 && (depth == 1 || depth == 2 || depth == 4 || depth == 8));
      if (data[body + 12] != 0 || !known || (rgba_only && colour != 6)) {
        throw fail(rgba_only ? "is not an 8-bit RGBA PNG without interlacing"
                             : "is not an 8-bit RGB(A) or palette PNG without interlacing");
      }
    } else if (kind == "PLTE") {
      palette.assign(data.begin() + body, data.begin() + body + n);
    } else if (kind == "tRNS" && colour == 3) {
      alphas.assign(data.begin() + body, data.begin() + body + n);
    } else if (kind == "IDAT") {
      compressed.insert(compressed.end(), data.begin() + body, data.begin() + body + n);
    }
    at += 12 + n;
  }
  if (image.width <= 0 || image.height <= 0) throw fail("has no image header");
  const int channels = colour == 6 ? 4 : (colour == 2 ? 3 : 1);
  const std::size_t bpp = std::max(1, channels * depth / 8);  // the filters' byte distance
  const std::size_t stride = (static_cast<std::size_t>(image.width) * channels * depth + 7) / 8;
  std::vector<std::uint8_t> raw((stride + 1) * image.height);
  uLongf raw_size = raw.size();
  if (uncompress(raw.data(), &raw_size, compressed.data(), compressed.size()) != Z_OK ||
      raw_size != raw.size()) {
    throw fail("has image data that does not inflate to its size");
  }
  std::vector<std::uint8_t> rows(stride * image.height);
  for (int y = 0; y < image.height; ++y) {
    const std::uint8_t filter = raw[y * (stride + 1)];
    const std::uint8_t* in = raw.data() + y * (stride + 1) + 1;
    std::uint8_t* out = rows.data() + y * stride;
    const std::uint8_t* up = y > 0 ? out - stride : nullptr;
    for (std::size_t i = 0; i < stride; ++i) {
      const int a = i >= bpp ? out[i - bpp] : 0;  // left
      const int b = up != nullptr ? up[i] : 0;  // above
      const int c = (i >= bpp && up != nullptr) ? up[i - bpp] : 0;  // above left
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
  if (colour == 6) {
    image.pixels = std::move(rows);
    return image;
  }
  image.pixels.resize(static_cast<std::size_t>(image.width) * image.height * 4);
  for (int y = 0; y < image.height; ++y) {
    const std::uint8_t* row = rows.data() + y * stride;
    std::uint8_t* out = image.pixels.data() + static_cast<std::size_t>(y) * image.width * 4;
    for (int x = 0; x < image.width; ++x, out += 4) {
      if (colour == 2) {
        out[0] = row[3 * x];
        out[1] = row[3 * x + 1];
        out[2] = row[3 * x + 2];
        out[3] = 255;
        continue;
      }
      // palette samples are packed from the high bits of each byte
      const int per_byte = 8 / depth;
      const int shift = 8 - depth * (x % per_byte + 1);
      const std::size_t index = (row[x / per_byte] >> shift) & ((1 << depth) - 1);
      if (3 * index + 2 >= palette.size()) throw fail("has a pixel outside its palette");
      out[0] = palette[3 * index];
      out[1] = palette[3 * index + 1];
      out[2] = palette[3 * index + 2];
      out[3] = index < alphas.size() ? alphas[index] : 255;
    }
  }
  return image;
}

}  // namespace png_detail

// An 8-bit RGBA PNG (colour type 6, not interlaced); other kinds are refused.
inline RgbaImage ReadRgbaPng(const std::string& path) { return png_detail::Decode(path, true); }

// An 8-bit RGBA, 8-bit RGB or 1/2/4/8-bit palette PNG, expanded to RGBA.
inline RgbaImage ReadPng(const std::string& path) { return png_detail::Decode(path, false); }

}  // namespace envpool::draw
