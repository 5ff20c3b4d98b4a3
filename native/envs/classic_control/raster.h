// A small RGB canvas with the drawing calls gymnasium's classic-control
// renderers make through pygame.gfxdraw (SDL_gfx): filled polygons (SDL_gfx's
// scanline rule, 16.16 fixed-point edge crossings), filled circles and
// horizontal lines. Anti-aliased outlines (aapolygon, aacircle) are not
// drawn: their blended edge pixels are the only expected difference from
// pygame's picture.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace envpool::classic_control {

using Rgb = std::array<std::uint8_t, 3>;

class Canvas {
 public:
  Canvas(int width, int height, std::uint8_t* pixels) : w_(width), h_(height), px_(pixels) {}

  void Fill(const Rgb& c) {
    for (int y = 0; y < h_; ++y) HLine(0, w_ - 1, y, c);
  }

  // gfxdraw.hline: x1 .. x2 inclusive, clipped.
  void HLine(int x1, int x2, int y, const Rgb& c) {
    if (y < 0 || y >= h_) return;
    if (x1 > x2) std::swap(x1, x2);
    x1 = std::max(x1, 0);
    x2 = std::min(x2, w_ - 1);
    for (int x = x1; x <= x2; ++x) {
      std::uint8_t* p = px_ + (static_cast<std::size_t>(y) * w_ + x) * 3;
      p[0] = c[0];
      p[1] = c[1];
      p[2] = c[2];
    }
  }

  // gfxdraw.filled_polygon on integer vertices (pygame truncates the floats).
  void FillPolygon(const std::vector<std::array<int, 2>>& v, const Rgb& c) {
    const int n = static_cast<int>(v.size());
    if (n < 3) return;
    int miny = v[0][1], maxy = v[0][1];
    for (const auto& p : v) {
      miny = std::min(miny, p[1]);
      maxy = std::max(maxy, p[1]);
    }
    std::vector<std::int64_t> ints;
    for (int y = miny; y <= maxy; ++y) {
      ints.clear();
      for (int i = 0; i < n; ++i) {
        const auto& a = v[i == 0 ? n - 1 : i - 1];
        const auto& b = v[i];
        int y1, y2, x1, x2;
        if (a[1] < b[1]) {
          y1 = a[1], y2 = b[1], x1 = a[0], x2 = b[0];
        } else if (a[1] > b[1]) {
          y1 = b[1], y2 = a[1], x1 = b[0], x2 = a[0];
        } else {
          continue;
        }
        if ((y >= y1 && y < y2) || (y == maxy && y > y1 && y <= y2)) {
          ints.push_back((std::int64_t{65536} * (y - y1)) / (y2 - y1) * (x2 - x1) +
                         std::int64_t{65536} * x1);
        }
      }
      std::sort(ints.begin(), ints.end());
      for (std::size_t i = 0; i + 1 < ints.size(); i += 2) {
        std::int64_t xa = ints[i] + 1;
        xa = (xa >> 16) + ((xa & 32768) >> 15);
        std::int64_t xb = ints[i + 1] - 1;
        xb = (xb >> 16) + ((xb & 32768) >> 15);
        HLine(static_cast<int>(xa), static_cast<int>(xb), y, c);
      }
    }
  }

  // gfxdraw.filled_circle: the rows of a disc of radius r around (cx, cy).
  void FillCircle(int cx, int cy, int r, const Rgb& c) {
    for (int dy = -r; dy <= r; ++dy) {
      int dx = 0;
      while ((dx + 1) * (dx + 1) + dy * dy <= r * r + r) ++dx;
      HLine(cx - dx, cx + dx, cy + dy, c);
    }
  }

  // pygame.transform.flip(surface, False, True): rows upside down.
  void FlipRows() {
    const std::size_t row = static_cast<std::size_t>(w_) * 3;
    for (int y = 0; y < h_ / 2; ++y) {
      std::swap_ranges(px_ + y * row, px_ + (y + 1) * row, px_ + (h_ - 1 - y) * row);
    }
  }

 private:
  int w_, h_;
  std::uint8_t* px_;
};

}  // namespace envpool::classic_control
