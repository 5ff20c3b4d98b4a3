// An RGBA image and what pygame does to one before blitting it:
// pygame.transform.smoothscale (shrinking, as pygame-ce's SSE2 filter computes
// it on x86 and ARM: area averaging in 14-bit fixed point with 16-bit lanes),
// pygame.transform.scale (SDL's nearest-pixel stretch) and
// pygame.transform.flip. Canvas::Blit (raster.h) draws it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

namespace envpool::draw {

// width x height pixels, 4 bytes each (R, G, B, A), rows top to bottom.
struct RgbaImage {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> pixels;
};

namespace sprite_detail {

// _mm_mulhi_epu16: the high 16 bits of a 16 x 16-bit product.
inline std::uint32_t MulHi(std::uint32_t a, std::uint32_t b) {
  return ((a & 0xffffU) * (b & 0xffffU)) >> 16;
}
// _mm_packus_epi16 of one lane: a signed 16-bit value saturated to 0 .. 255.
inline std::uint8_t PackUs(std::uint32_t v) {
  const auto s = static_cast<std::int16_t>(static_cast<std::uint16_t>(v));
  return static_cast<std::uint8_t>(std::clamp<int>(s, 0, 255));
}

// Shrinks `count` lines of `n` pixels to `m` pixels each. Pixel i of line l is
// at src[l * line + i * step] (4 bytes); the result goes the same way into dst.
inline void ShrinkLines(const std::uint8_t* src, std::size_t src_line, std::size_t src_step,
                        std::uint8_t* dst, std::size_t dst_line, std::size_t dst_step, int count,
                        int n, int m) {
  const std::uint32_t space = 0x4000U * static_cast<std::uint32_t>(n) / static_cast<std::uint32_t>(m);
  const std::uint32_t recip = (0x40000000U / space) & 0xffffU;
  for (int l = 0; l < count; ++l) {
    std::uint32_t acc[4] = {0, 0, 0, 0};
    std::uint32_t counter = space;
    int out = 0;
    for (int i = 0; i < n; ++i) {
      const std::uint8_t* p = src + l * src_line + i * src_step;
      if (counter > 0x4000U) {
        for (int c = 0; c < 4; ++c) acc[c] = (acc[c] + p[c]) & 0xffffU;
        counter -= 0x4000U;
      } else {
        const std::uint32_t frac = 0x4000U - counter;
        std::uint8_t* q = dst + l * dst_line + out * dst_step;
        for (int c = 0; c < 4; ++c) {
          const std::uint32_t v = (std::uint32_t{p[c]} << 2) & 0xffffU;
          q[c] = PackUs(MulHi((MulHi(v, counter) + acc[c]) & 0xffffU, recip));
          acc[c] = MulHi(v, frac);
        }
        ++out;
        counter = space - frac;
      }
    }
  }
}

}  // namespace sprite_detail

// pygame.transform.smoothscale(image, (width, height)) for a size no larger
// than the image's (first the rows are shrunk, then the columns).
inline RgbaImage SmoothShrink(const RgbaImage& src, int width, int height) {
  if (width > src.width || height > src.height || width < 0 || height < 0) {
    throw std::invalid_argument("SmoothShrink only shrinks");
  }
  RgbaImage out{width, height, std::vector<std::uint8_t>(std::size_t{4} * width * height)};
  if (width == 0 || height == 0) return out;
  std::vector<std::uint8_t> rows = src.pixels;  // width changed first (a temporary)
  int tmp_width = src.width;
  if (width != src.width) {
    rows.assign(std::size_t{4} * width * src.height, 0);
    sprite_detail::ShrinkLines(src.pixels.data(), std::size_t{4} * src.width, 4, rows.data(),
                               std::size_t{4} * width, 4, src.height, src.width, width);
    tmp_width = width;
  }
  if (height != src.height) {
    // columns as lines: pixel i of column l is row i
    sprite_detail::ShrinkLines(rows.data(), 4, std::size_t{4} * tmp_width, out.pixels.data(), 4,
                               std::size_t{4} * width, width, src.height, height);
  } else {
    out.pixels = rows;
  }
  return out;
}

// pygame.transform.scale(image, (width, height)): SDL2's nearest-pixel stretch
// (SDL_SoftStretch), which samples pixel i of a line of m from n at
// (n * 65536 / m * i + n * 65536 / m / 2) >> 16, rows and columns alike.
inline RgbaImage NearestScale(const RgbaImage& src, int width, int height) {
  if (width < 0 || height < 0) throw std::invalid_argument("NearestScale: a negative size");
  RgbaImage out{width, height, std::vector<std::uint8_t>(std::size_t{4} * width * height)};
  if (width == 0 || height == 0 || src.width == 0 || src.height == 0) return out;
  auto sample = [](int n, int m) {
    const std::uint32_t step = (static_cast<std::uint32_t>(n) << 16) / static_cast<std::uint32_t>(m);
    std::vector<int> at(static_cast<std::size_t>(m));
    for (int i = 0; i < m; ++i) {
      at[i] = static_cast<int>((step / 2 + static_cast<std::uint32_t>(i) * step) >> 16);
    }
    return at;
  };
  const std::vector<int> xs = sample(src.width, width), ys = sample(src.height, height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const std::uint8_t* p =
          src.pixels.data() + (static_cast<std::size_t>(ys[y]) * src.width + xs[x]) * 4;
      std::copy(p, p + 4, out.pixels.data() + (static_cast<std::size_t>(y) * width + x) * 4);
    }
  }
  return out;
}

// pygame.transform.flip(image, flip_x, flip_y).
inline void FlipImage(RgbaImage* image, bool flip_x, bool flip_y) {
  const std::size_t row = std::size_t{4} * image->width;
  std::uint8_t* px = image->pixels.data();
  if (flip_y) {
    for (int y = 0; y < image->height / 2; ++y) {
      std::swap_ranges(px + y * row, px + (y + 1) * row, px + (image->height - 1 - y) * row);
    }
  }
  if (flip_x) {
    for (int y = 0; y < image->height; ++y) {
      for (int x = 0; x < image->width / 2; ++x) {
        std::swap_ranges(px + y * row + 4 * x, px + y * row + 4 * x + 4,
                         px + y * row + 4 * (image->width - 1 - x));
      }
    }
  }
}

}  // namespace envpool::draw
