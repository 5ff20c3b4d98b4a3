// An RGBA image and what pygame does to one before blitting it:
// pygame.transform.smoothscale (shrinking, as pygame-ce's SSE2 filter computes
// it on x86 and ARM: area averaging in 14-bit fixed point with 16-bit lanes),
// pygame.transform.scale (SDL's nearest-pixel stretch) and
// pygame.transform.flip. Canvas::Blit (raster.h) draws it.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
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

// The rectangle drawing and the rotation pygame does on an RGBA surface (pygame-ce 2.5's
// draw.rect without border radius, transform.rotate, and its own alpha blitter, as the
// highway-env vehicles are drawn: surfaces of per-pixel alpha drawn on, turned, and blitted).

// A pixel's four bytes, R G B A.
using Rgba = std::array<std::uint8_t, 4>;

// A width x height image of transparent black (pygame.Surface(size, pygame.SRCALPHA)).
inline RgbaImage TransparentImage(int width, int height) {
  width = std::max(width, 0), height = std::max(height, 0);
  return RgbaImage{width, height, std::vector<std::uint8_t>(std::size_t{4} * width * height, 0)};
}

namespace sprite_detail {
// Row y's pixels x1 .. x2 (inclusive, any order) set to c, clipped to the image
// (draw.c's drawhorzlineclip).
inline void HLine(RgbaImage* image, int x1, int x2, int y, const Rgba& c) {
  if (y < 0 || y >= image->height) return;
  if (x1 > x2) std::swap(x1, x2);
  x1 = std::max(x1, 0), x2 = std::min(x2, image->width - 1);
  for (int x = x1; x <= x2; ++x) {
    std::copy(c.begin(), c.end(), image->pixels.begin() + (std::ptrdiff_t{y} * image->width + x) * 4);
  }
}
}  // namespace sprite_detail

// pygame.draw.rect(image, c, (x, y, w, h), width) with no border radius: nothing for a
// negative width or a rectangle that misses the image (SDL_IntersectRect: empty for w or h
// <= 0); an outline (draw.c's draw_rect: `width` rows at the top and bottom, `width` columns
// at the sides, clipped) where 0 < 2 width < the clipped rectangle's width and height;
// otherwise the clipped rectangle filled.
inline void DrawRect(RgbaImage* image, int x, int y, int w, int h, const Rgba& c, int width) {
  if (width < 0 || w <= 0 || h <= 0) return;
  const int cx1 = std::max(x, 0), cy1 = std::max(y, 0);
  const int cx2 = std::min(x + w, image->width), cy2 = std::min(y + h, image->height);
  if (cx1 >= cx2 || cy1 >= cy2) return;
  if (width > 0 && width * 2 < cx2 - cx1 && width * 2 < cy2 - cy1) {
    const int x1 = x, y1 = y, x2 = x + w - 1, y2 = y + h - 1;
    for (int i = 0; i < width; ++i) {
      sprite_detail::HLine(image, x1, x2, y1 + i, c);
      sprite_detail::HLine(image, x1, x2, y2 - i, c);
    }
    for (int i = 0; i < (y2 - y1) - 2 * width + 1; ++i) {
      sprite_detail::HLine(image, x1, x1 + width - 1, y1 + width + i, c);
      sprite_detail::HLine(image, x2 - width + 1, x2, y1 + width + i, c);
    }
    return;
  }
  for (int row = cy1; row < cy2; ++row) sprite_detail::HLine(image, cx1, cx2 - 1, row, c);
}

// pygame.transform.rotate(image, angle) (pygame-ce 2.5's transform.c): the angle, in degrees,
// arrives as a float32. A multiple of 90 (fmod(angle, 90) == 0) turns the pixels
// ((int) angle / 90 quarter turns anticlockwise, exactly). Any other angle: the result is
// (int) of the largest |+-cos w +- sin h| wide and (int) of the largest |+-sin w +- cos h|
// high; each of its pixels takes the source pixel whose 16.16 fixed-point coordinates, stepped
// by (int) (cos * 65536) and (int) (sin * 65536) from the row's start, it lands on, or, off the
// source, the source's top-left pixel's colour with alpha 0. An empty image comes back as it
// is.
inline RgbaImage RotateImage(const RgbaImage& src, float angle) {
  if (src.width < 1 || src.height < 1) return src;
  const auto at = [&](int x, int y) {
    return src.pixels.data() + (std::ptrdiff_t{y} * src.width + x) * 4;
  };
  if (std::fmod(static_cast<double>(angle), 90.0) == 0.0) {  // rotate90
    int turns = (static_cast<int>(angle) / 90) % 4;
    if (turns < 0) turns += 4;
    const int w = src.width, h = src.height;
    RgbaImage out = turns % 2 == 0 ? TransparentImage(w, h) : TransparentImage(h, w);
    for (int y = 0; y < out.height; ++y) {
      for (int x = 0; x < out.width; ++x) {
        const std::uint8_t* p = turns == 0   ? at(x, y)
                                : turns == 1 ? at(w - 1 - y, x)
                                : turns == 2 ? at(w - 1 - x, h - 1 - y)
                                             : at(y, h - 1 - x);
        std::copy(p, p + 4, out.pixels.begin() + (std::ptrdiff_t{y} * out.width + x) * 4);
      }
    }
    return out;
  }
  const double rad = static_cast<double>(angle) * .01745329251994329;
  const double s = std::sin(rad), c = std::cos(rad);
  const double fw = src.width, fh = src.height;
  const double cx = c * fw, cy = c * fh, sx = s * fw, sy = s * fh;
  const int nx = static_cast<int>(std::max(std::max(std::max(std::fabs(cx + sy), std::fabs(cx - sy)),
                                                    std::fabs(-cx + sy)),
                                           std::fabs(-cx - sy)));
  const int ny = static_cast<int>(std::max(std::max(std::max(std::fabs(sx + cy), std::fabs(sx - cy)),
                                                    std::fabs(-sx + cy)),
                                           std::fabs(-sx - cy)));
  RgbaImage out = TransparentImage(nx, ny);
  const Rgba bg{src.pixels[0], src.pixels[1], src.pixels[2], 0};
  const int half = out.height / 2;
  const int xd = (src.width - out.width) * 32768, yd = (src.height - out.height) * 32768;
  const int isin = static_cast<int>(s * 65536), icos = static_cast<int>(c * 65536);
  const double span = static_cast<double>((static_cast<long long>(out.width) - 1) * 32768);
  const int ax = out.width * 32768 - static_cast<int>(c * span);
  const int ay = out.height * 32768 - static_cast<int>(s * span);
  const int xmax = src.width * 65536 - 1, ymax = src.height * 65536 - 1;
  for (int y = 0; y < out.height; ++y) {
    int dx = (ax + isin * (half - y)) + xd;
    int dy = (ay - icos * (half - y)) + yd;
    std::uint8_t* q = out.pixels.data() + std::ptrdiff_t{y} * out.width * 4;
    for (int x = 0; x < out.width; ++x, q += 4) {
      if (dx < 0 || dy < 0 || dx > xmax || dy > ymax) {
        std::copy(bg.begin(), bg.end(), q);
      } else {
        const std::uint8_t* p = at(dx >> 16, dy >> 16);
        std::copy(p, p + 4, q);
      }
      dx += icos;
      dy += isin;
    }
  }
  return out;
}

// dst.blit(src, (x, y)) of two per-pixel-alpha surfaces (pygame's own blitter, the SDL 1
// equation): where the destination's alpha is 0 the source pixel is copied; elsewhere each
// colour d becomes (((s - d) * a + s) >> 8) + d and the alpha a + da - a * da / 255.
inline void BlitOnto(const RgbaImage& src, RgbaImage* dst, int x0, int y0) {
  for (int y = std::max(0, -y0); y < src.height && y0 + y < dst->height; ++y) {
    for (int x = std::max(0, -x0); x < src.width && x0 + x < dst->width; ++x) {
      const std::uint8_t* s = src.pixels.data() + (std::ptrdiff_t{y} * src.width + x) * 4;
      std::uint8_t* d = dst->pixels.data() + (std::ptrdiff_t{y0 + y} * dst->width + x0 + x) * 4;
      if (d[3] == 0) {
        std::copy(s, s + 4, d);
        continue;
      }
      const int a = s[3];
      for (int i = 0; i < 3; ++i) {
        const int v = (static_cast<int>(s[i]) - d[i]) * a + s[i];
        d[i] = static_cast<std::uint8_t>((v >= 0 ? v >> 8 : -((-v + 255) >> 8)) + d[i]);
      }
      d[3] = static_cast<std::uint8_t>(a + d[3] - (a * d[3]) / 255);
    }
  }
}

}  // namespace envpool::draw
