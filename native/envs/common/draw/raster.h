// A small RGB canvas with the drawing calls gymnasium's classic-control
// renderers make through pygame.gfxdraw (SDL_gfx) and pygame.draw: filled
// polygons (SDL_gfx's scanline rule, 16.16 fixed-point edge crossings),
// filled circles, horizontal and vertical lines, pygame.draw.line (one pixel,
// Bresenham), pygame.draw.aalines (pygame-ce's Wu-style anti-aliased
// polyline, float32 arithmetic) and the anti-aliased outlines SDL_gfx draws
// for gfxdraw.aapolygon (8-bit error-accumulator lines) and gfxdraw.aacircle
// (its anti-aliased ellipse), blended with SDL_gfx's integer alpha rule.
//
// The envs/common/draw/ headers (namespace envpool::draw) are the 2-D drawing of
// every family that draws with pygame: classic control, Box2D, toy text and
// MiniGrid.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include "envs/common/draw/sprite.h"

namespace envpool::draw {

using Rgb = std::array<std::uint8_t, 3>;

// pygame.math.Vector2((x, y)).rotate_rad(angle): the angle is first brought
// into [0, 2 pi) with fmod (which changes the rounding of cos and sin).
inline std::array<double, 2> RotateRad(double x, double y, double angle) {
  angle = std::fmod(angle, 2 * M_PI);
  if (angle < 0) angle += 2 * M_PI;
  const double c = std::cos(angle), s = std::sin(angle);
  return {x * c - y * s, x * s + y * c};
}

// Where a canvas's bytes lie: channel c of pixel (x, y) at
// origin + y * row + x * pixel + c * channel (a stride may be negative).
struct Layout {
  std::ptrdiff_t row;
  std::ptrdiff_t pixel;
  std::ptrdiff_t channel;
};

class Canvas {
 public:
  // RGB rows of width * 3 bytes, top to bottom (pygame's surface as the envs hand it out).
  Canvas(int width, int height, std::uint8_t* pixels)
      : Canvas(width, height, pixels, {std::ptrdiff_t{3} * width, 3, 1}) {}
  Canvas(int width, int height, std::uint8_t* origin, const Layout& layout)
      : w_(width), h_(height), px_(origin), layout_(layout), bottom_(height) {}

  // Writes only rows top .. bottom - 1 from now on, for a caller that paints the others over
  // later; what is drawn where stays that of the whole canvas (lines are clipped to it).
  void KeepRows(int top, int bottom) {
    top_ = std::max(top, 0);
    bottom_ = std::min(bottom, h_);
  }

  // Three planes of width x height bytes (R, then G, then B) at `planes`, rows top to bottom,
  // or bottom to top when `upside_down` (what the drawing shows after
  // pygame.transform.flip(surface, False, True)). One colour's span is then three memsets.
  static Canvas Planes(int width, int height, std::uint8_t* planes, bool upside_down) {
    const std::ptrdiff_t row = width, plane = row * height;
    return upside_down ? Canvas(width, height, planes + plane - row, {-row, 1, plane})
                       : Canvas(width, height, planes, {row, 1, plane});
  }

  void Fill(const Rgb& c) {
    if (top_ >= bottom_) return;
    if (layout_.pixel == 1 && (layout_.row == w_ || layout_.row == -w_)) {  // whole planes
      std::uint8_t* first = At(0, layout_.row > 0 ? top_ : bottom_ - 1);
      const std::size_t n = static_cast<std::size_t>(bottom_ - top_) * static_cast<std::size_t>(w_);
      for (int i = 0; i < 3; ++i) std::memset(first + i * layout_.channel, c[i], n);
      return;
    }
    for (int y = top_; y < bottom_; ++y) HLine(0, w_ - 1, y, c);
  }

  // gfxdraw.hline: x1 .. x2 inclusive, clipped.
  void HLine(int x1, int x2, int y, const Rgb& c) {
    if (y < top_ || y >= bottom_) return;
    if (x1 > x2) std::swap(x1, x2);
    x1 = std::max(x1, 0);
    x2 = std::min(x2, w_ - 1);
    if (x1 > x2) return;
    std::uint8_t* p = At(x1, y);
    if (layout_.pixel == 1) {
      for (int i = 0; i < 3; ++i) std::memset(p + i * layout_.channel, c[i], static_cast<std::size_t>(x2 - x1 + 1));
      return;
    }
    for (int x = x1; x <= x2; ++x, p += layout_.pixel) {
      p[0] = c[0];
      p[layout_.channel] = c[1];
      p[2 * layout_.channel] = c[2];
    }
  }

  // gfxdraw.vline: y1 .. y2 inclusive, clipped.
  void VLine(int x, int y1, int y2, const Rgb& c) {
    if (y1 > y2) std::swap(y1, y2);
    for (int y = std::max(y1, top_); y <= std::min(y2, bottom_ - 1); ++y) Set(x, y, c);
  }

  // pygame.draw.line(width=1) between integer points: Bresenham, both ends drawn.
  void Line(int x1, int y1, int x2, int y2, const Rgb& c) {
    const int dx = std::abs(x2 - x1), sx = x1 < x2 ? 1 : -1;
    const int dy = std::abs(y2 - y1), sy = y1 < y2 ? 1 : -1;
    int err = (dx > dy ? dx : -dy) / 2;
    while (x1 != x2 || y1 != y2) {
      Set(x1, y1, c);
      const int e2 = err;
      if (e2 > -dx) err -= dy, x1 += sx;
      if (e2 < dy) err += dx, y1 += sy;
    }
    Set(x2, y2, c);
  }

  // pygame.draw.line / lines with width > 1 between integer points (pygame-ce's
  // draw_line_width): nothing when the line's box, widened by width / 2 across the line,
  // misses the surface; else Bresenham along the longer axis, each step a run across the
  // line (a row for a steep line, or one at 45 degrees; a column for a flat one) from
  // p - width / 2 + (1 - width % 2) to p + width / 2, clipped.
  void WideLine(int x1, int y1, int x2, int y2, int width, const Rgb& c) {
    if (width < 1) return;
    if (width == 1) return Line(x1, y1, x2, y2, c);
    const int extra = 1 - width % 2;
    width /= 2;
    const bool xinc = std::abs(x1 - x2) <= std::abs(y1 - y2);  // rows across a steep line
    const int grow_x = xinc ? width : 0, grow_y = xinc ? 0 : width;
    if (0 > std::max(x1, x2) + grow_x || 0 > std::max(y1, y2) + grow_y ||
        w_ <= std::min(x1, x2) - grow_x || h_ <= std::min(y1, y2) - grow_y) {
      return;
    }
    const auto row = [&](int x, int y) {
      const int a = std::max(x - width + extra, 0), b = std::min(w_ - 1, x + width);
      if (y >= 0 && y < h_ && a <= b) HLine(a, b, y, c);
    };
    const auto column = [&](int x, int y) {
      const int a = std::max(y - width + extra, 0), b = std::min(h_ - 1, y + width);
      if (x >= 0 && x < w_ && a <= b) VLine(x, a, b, c);
    };
    if (x1 == x2 && y1 == y2) return row(x1, y1);
    const int dx = std::abs(x2 - x1), dy = std::abs(y2 - y1);
    const int sx = x2 > x1 ? 1 : -1, sy = y2 > y1 ? 1 : -1;
    int err = (dx > dy ? dx : -dy) / 2;
    const auto advance = [&] {
      const int e2 = err;
      if (e2 > -dx) err -= dy, x1 += sx;
      if (e2 < dy) err += dx, y1 += sy;
    };
    if (xinc) {
      for (; y1 != y2 + sy; advance()) row(x1, y1);
    } else {
      for (; x1 != x2 + sx; advance()) column(x1, y1);
    }
  }

  // pygame.draw.aalines: one anti-aliased segment after the other, each
  // segment's inner end points left out unless they are whole numbers, plus
  // one end pixel where a steep segment meets a flat one. closed: the first
  // and last segments leave out both ends too, and a closing segment follows.
  void AaLines(const std::vector<std::array<float, 2>>& p, const Rgb& c, bool closed = false) {
    const int n = static_cast<int>(p.size());
    if (n < 2) return;
    auto steep = [&](int i) {  // segment i -> i + 1
      return std::fabs(p[i + 1][0] - p[i][0]) < std::fabs(p[i + 1][1] - p[i][1]);
    };
    auto whole = [&](int i) {
      return std::round(p[i][0]) == p[i][0] && std::round(p[i][1]) == p[i][1];
    };
    for (int i = 0; i + 1 < n; ++i) {
      // pygame compares the first segment's steepness with a line from point 2
      // to point 1's y (its code); later ones with the previous segment.
      bool extra;
      if (i == 0) {
        const bool next = n > 2 && std::fabs(p[2][0] - p[1][0]) < std::fabs(p[2][1] - p[0][1]);
        extra = steep(0) > next;
      } else {
        extra = steep(i - 1) != steep(i);
      }
      const bool inner = !whole(i + 1);
      const bool first_off = i == 0 && !closed ? false : inner;
      const bool second_off = i + 2 == n && !closed ? false : inner;
      AaLine(p[i][0], p[i][1], p[i + 1][0], p[i + 1][1], c, first_off, second_off, extra);
    }
    if (closed && n > 2) {  // the last point back to the first
      const bool last_steep =
          std::fabs(p[0][0] - p[n - 1][0]) < std::fabs(p[0][1] - p[n - 1][1]);
      const bool off = !whole(0);
      AaLine(p[n - 1][0], p[n - 1][1], p[0][0], p[0][1], c, off, off, steep(n - 2) != last_steep);
    }
  }

  // pygame.draw.aaline's segment: Wu's algorithm on float32 coordinates, each
  // pixel blended as (uint8)(b * colour + (1 - b) * background).
  void AaLine(float fx, float fy, float tx, float ty, const Rgb& c, bool first_off = false,
              bool second_off = false, bool extra = false) {
    float dx = tx - fx, dy = ty - fy;
    if (std::fabs(dx) < 0.0001F && std::fabs(dy) < 0.0001F) {
      Blend(static_cast<int>(std::floor(fx + 0.5)), static_cast<int>(std::floor(fy + 0.5)), c,
            1.0F);
      return;
    }
    float clip_left = -1.0F, clip_right = static_cast<float>(w_);
    float clip_top = -1.0F, clip_bottom = static_cast<float>(h_);
    const bool steep = std::fabs(dx) < std::fabs(dy);
    if (steep) {
      std::swap(fx, fy), std::swap(tx, ty), std::swap(dx, dy);
      std::swap(clip_left, clip_top), std::swap(clip_right, clip_bottom);
    }
    if (dx < 0) {
      std::swap(fx, tx), std::swap(fy, ty);
      dx = -dx, dy = -dy;
    }
    if (tx <= clip_left || fx >= clip_right) return;
    const float gradient = dy / dx;
    if (fx < clip_left) fy += gradient * (clip_left - fx), fx = clip_left;
    if (tx > clip_right) ty += gradient * (clip_right - tx), tx = clip_right;
    if (gradient > 0.0F) {
      if (ty <= clip_top || fy >= clip_bottom) return;
      if (fy < clip_top) fx += (clip_top - fy) / gradient, fy = clip_top;
      if (ty > clip_bottom) tx += (clip_bottom - ty) / gradient, ty = clip_bottom;
    } else {
      if (fy <= clip_top || ty >= clip_bottom) return;
      if (ty < clip_top) tx += (clip_top - ty) / gradient, ty = clip_top;
      if (fy > clip_bottom) fx += (clip_bottom - fy) / gradient, fy = clip_bottom;
    }
    fy += 1.0F;  // (pygame shifts down a row so that int() floors, and draws a row up)
    ty += 1.0F;
    // (major, minor) -> a pixel of the canvas
    auto plot = [&](int major, int minor, float b) {
      if (steep) {
        Blend(minor, major, c, b);
      } else {
        Blend(major, minor, c, b);
      }
    };
    auto end_point = [&](int major, float y_end, float gap) {
      const float b = y_end - static_cast<float>(static_cast<int>(y_end));
      const int minor = static_cast<int>(y_end);
      if (static_cast<float>(minor) < y_end) plot(major, minor, b * gap);
      plot(major, minor - 1, (1 - b) * gap);
    };
    int x_start = 0;
    float intersect = 0.0F;
    if (!first_off || extra) {
      x_start = static_cast<int>(fx);
      intersect = fy + gradient * (static_cast<float>(x_start) - fx);
      if (tx > clip_left + 1.0F) {
        end_point(x_start, intersect, 1 + static_cast<float>(x_start) - fx);
        intersect += gradient;
        ++x_start;
      }
    }
    if (first_off) {
      x_start = static_cast<int>(std::ceil(fx));
      intersect = fy + gradient * (static_cast<float>(x_start) - fx);
    }
    const int x_end = static_cast<int>(std::ceil(tx));
    if ((!second_off || extra) && fx < clip_right - 1.0F) {
      end_point(x_end, ty + gradient * (static_cast<float>(x_end) - tx),
                1 - static_cast<float>(x_end) + tx);
    }
    for (int x = x_start; x < x_end; ++x) {
      const int y = static_cast<int>(intersect);
      const float b = 1 - intersect + static_cast<float>(y);
      plot(x, y - 1, b);
      if (static_cast<float>(y) < intersect) plot(x, y, 1 - b);
      intersect += gradient;
    }
  }

  // gfxdraw.aapolygon then gfxdraw.filled_polygon with the same vertices, the
  // pair gymnasium always draws. The fill's runs are worked out first, and the outline's
  // pixels within them left out: the fill paints over whatever they would have made.
  void OutlinedPolygon(const std::vector<std::array<int, 2>>& v, const Rgb& c) {
    const std::size_t n = v.size();
    if (n < 3) return;
    // The runs, row by row from row `top` (first_[r] .. last_[r]: row top + r's one run);
    // a row of several runs (a polygon that is not convex) turns the leaving out off.
    int top = 0, rows = 0;
    bool single = true;
    first_.clear(), last_.clear(), more_.clear();
    FillSpans(v, [&](int xa, int xb, int y) {
      if (xa > xb) std::swap(xa, xb);  // as HLine takes it
      if (rows == 0) top = y;
      if (y - top < rows) {  // another run of the row
        single = false;
        more_.push_back({xa, xb, y});
        return;
      }
      first_.push_back(xa), last_.push_back(xb), ++rows;
    });
    const auto filled = [&](int x, int y) {
      const int r = y - top;
      return single && r >= 0 && r < rows && first_[r] <= x && x <= last_[r];
    };
    for (std::size_t i = 0; i < n; ++i) {
      const auto& a = v[i];
      const auto& b = v[(i + 1) % n];
      GfxAaLine(a[0], a[1], b[0], b[1], c, filled);
    }
    for (int r = 0; r < rows; ++r) HLine(first_[r], last_[r], top + r, c);
    for (const auto& m : more_) HLine(m[0], m[1], m[2], c);
  }

  // gfxdraw.aacircle then gfxdraw.filled_circle.
  void OutlinedCircle(int cx, int cy, int r, const Rgb& c) {
    AaCircle(cx, cy, r, c);
    FillCircle(cx, cy, r, c);
  }

  // gfxdraw.aapolygon on integer vertices: each edge, the closing one last,
  // drawn as an SDL_gfx anti-aliased line without its end pixel.
  void AaPolygon(const std::vector<std::array<int, 2>>& v, const Rgb& c) {
    const std::size_t n = v.size();
    if (n < 3) return;
    for (std::size_t i = 0; i < n; ++i) {
      const auto& a = v[i];
      const auto& b = v[(i + 1) % n];
      GfxAaLine(a[0], a[1], b[0], b[1], c);
    }
  }

  // SDL_gfx's anti-aliased line without its end pixel (_aalineColor with
  // draw_endpoint 0): clipped to the canvas, straight lines drawn solid,
  // otherwise the first pixel solid and, along the major axis, each pixel
  // but the first and last split between two neighbours by the top 8 bits
  // of a 32-bit error accumulator (16.16 slope).
  void GfxAaLine(int x1, int y1, int x2, int y2, const Rgb& c) {
    GfxAaLine(x1, y1, x2, y2, c, [](int, int) { return false; });
  }

  // The same, leaving out the blended pixels (x, y) for which skip(x, y) holds (pixels that
  // are painted over next).
  template <class Skip>
  void GfxAaLine(int x1, int y1, int x2, int y2, const Rgb& c, const Skip& skip) {
    if (!ClipLine(&x1, &y1, &x2, &y2)) return;
    int x0 = x1, y0 = y1, xe = x2, ye = y2;
    if (y0 > ye) std::swap(x0, xe), std::swap(y0, ye);
    const int dy = ye - y0;
    const int xdir = xe >= x0 ? 1 : -1;
    const int dx = std::abs(xe - x0);
    if (dx == 0) return VLine(x0, y0, ye, c);
    if (dy == 0) return HLine(x0, xe, y0, c);
    if (!skip(x1, y1)) Set(x1, y1, c);
    const bool y_major = dy > dx;
    const int major = y_major ? dy : dx, minor = y_major ? dx : dy;
    const std::uint32_t step = static_cast<std::uint32_t>((minor << 16) / major) << 16;
    std::uint32_t acc = 0;
    int near = y_major ? x0 : y0;  // the minor coordinate of the heavier pixel
    int along = y_major ? y0 : x0;
    const int major_dir = y_major ? 1 : xdir, minor_dir = y_major ? xdir : 1;
    for (int i = 1; i < major; ++i) {
      const std::uint32_t before = acc;
      acc += step;
      if (acc <= before) near += minor_dir;  // the accumulator wrapped
      along += major_dir;
      const int weight = static_cast<int>(acc >> 24);
      const int x = y_major ? near : along, y = y_major ? along : near;
      const int x2nd = y_major ? near + minor_dir : along, y2nd = y_major ? along : near + minor_dir;
      if (!skip(x, y)) WeightedPixel(x, y, c, 255 - weight);
      if (!skip(x2nd, y2nd)) WeightedPixel(x2nd, y2nd, c, weight);
    }
  }

  // gfxdraw.aacircle: SDL_gfx's anti-aliased ellipse with both radii r. It
  // walks one octant pair from the top and one from the side, splitting each
  // step between two pixels by |error| / |slope term| (float, cut to 0..255),
  // and mirrors every pixel into the four quadrants.
  void AaCircle(int cx, int cy, int r, const Rgb& c) {
    if (r < 0) return;
    if (r == 0) return Set(cx, cy, c);
    const int r2 = r * r;
    const double diagonal = std::sqrt(static_cast<double>(r2 + r2));
    const int xc2 = 2 * cx, yc2 = 2 * cy;
    int t = 0, s = -2 * r2 * r, d = 0;
    int xp = cx, yp = cy - r;
    Set(xp, yp, c);
    Set(xc2 - xp, yp, c);
    Set(xp, yc2 - yp, c);
    Set(xc2 - xp, yc2 - yp, c);
    // Each walk covers one octant: r^2 / sqrt(2 r^2) steps (SDL_gfx's ellipse
    // computes it per radius; a circle's two radii are equal).
    const long octant = std::lrint(static_cast<double>(r2) / diagonal);
    for (long i = 1; i <= octant; ++i) {
      --xp;
      d += t - r2;
      int ys;
      if (d >= 0) {
        ys = yp - 1;
      } else if (d - s - r2 > 0) {
        if (2 * d - s - r2 >= 0) {
          ys = yp + 1;
        } else {
          ys = yp++;
          d -= s + r2, s += 2 * r2;
        }
      } else {
        ys = ++yp + 1;
        d -= s + r2, s += 2 * r2;
      }
      t -= 2 * r2;
      const int w = EllipseWeight(d, s), iw = 255 - w;
      const int xx = xc2 - xp;
      MirroredPair(xp, xx, yp, c, iw);
      MirroredPair(xp, xx, ys, c, w);
      MirroredPair(xp, xx, yc2 - yp, c, iw);
      MirroredPair(xp, xx, yc2 - ys, c, w);
    }
    for (long i = 1; i <= octant; ++i) {
      ++yp;
      d -= s + r2;
      int xs;
      if (d <= 0) {
        xs = xp + 1;
      } else if (d + t - r2 < 0) {
        if (2 * d + t - r2 <= 0) {
          xs = xp - 1;
        } else {
          xs = xp--;
          d += t - r2, t -= 2 * r2;
        }
      } else {
        xs = --xp - 1;
        d += t - r2, t -= 2 * r2;
      }
      s += 2 * r2;
      const int w = EllipseWeight(d, t), iw = 255 - w;
      const int yy = yc2 - yp;
      MirroredPair(xp, xc2 - xp, yp, c, iw);
      MirroredPair(xp, xc2 - xp, yy, c, iw);
      MirroredPair(xs, xc2 - xs, yp, c, w);
      MirroredPair(xs, xc2 - xs, yy, c, w);
    }
  }

  // gfxdraw.filled_polygon on integer vertices (pygame truncates the floats).
  void FillPolygon(const std::vector<std::array<int, 2>>& v, const Rgb& c) {
    FillSpans(v, [&](int xa, int xb, int y) { HLine(xa, xb, y, c); });
  }

  // Whether FillPolygon(v, ...) paints every pixel of the canvas (of its rows kept; what was
  // there before, an outline drawn first included, is then all overwritten).
  bool FillCovers(const std::vector<std::array<int, 2>>& v) {
    int rows = 0, row = -1, next = 0;  // next: the first pixel of row `row` not yet covered
    bool gap = false;
    FillSpans(v, [&](int xa, int xb, int y) {
      if (y != row) {
        gap = gap || (row >= 0 && next < w_);
        row = y, next = 0, ++rows;
      }
      if (xa > xb) std::swap(xa, xb);  // as HLine takes it
      if (xa > next) gap = true;
      next = std::max(next, xb + 1);
    });
    return !gap && rows == bottom_ - top_ && next >= w_;
  }

  // gfxdraw.filled_circle: SDL_gfx's midpoint circle, each row's span drawn once.
  void FillCircle(int cx, int cy, int r, const Rgb& c) {
    if (r < 0) return;
    if (r == 0) return Set(cx, cy, c);
    int x = 0, y = r, last_x = -1, last_y = -1;
    int df = 1 - r, d_e = 3, d_se = 5 - 2 * r;
    do {
      if (last_y != y) {  // rows cy +- y, half width x
        HLine(cx - x, cx + x, cy + y, c);
        if (y > 0) HLine(cx - x, cx + x, cy - y, c);
        last_y = y;
      }
      if (last_x != x && x != y) {  // rows cy +- x, half width y
        HLine(cx - y, cx + y, cy - x, c);
        if (x > 0) HLine(cx - y, cx + y, cy + x, c);
        last_x = x;
      }
      if (df < 0) {
        df += d_e, d_e += 2, d_se += 2;
      } else {
        df += d_se, d_e += 2, d_se += 4, --y;
      }
      ++x;
    } while (x <= y);
  }

  // The vertices' bounding box: {min x, min y, max x, max y} (v not empty).
  static std::array<int, 4> Bounds(const std::vector<std::array<int, 2>>& v) {
    std::array<int, 4> b{v[0][0], v[0][1], v[0][0], v[0][1]};
    for (const auto& p : v) {
      b[0] = std::min(b[0], p[0]);
      b[1] = std::min(b[1], p[1]);
      b[2] = std::max(b[2], p[0]);
      b[3] = std::max(b[3], p[1]);
    }
    return b;
  }

  // pygame.draw.polygon (filled) on integer vertices (pygame truncates the
  // floats): pygame-ce's own scanline fill, not SDL_gfx's; three vertices
  // take its triangle routine.
  void DrawPolygon(const std::vector<std::array<int, 2>>& v, const Rgb& c) {
    const int n = static_cast<int>(v.size());
    if (n < 3) return;
    if (n == 3) return DrawTriangle(v, c);
    const auto [minx, miny, maxx, maxy] = Bounds(v);
    if (miny == maxy) return HLine(minx, maxx, miny, c);  // one pixel high
    std::vector<int> ints;
    ints.reserve(static_cast<std::size_t>(n));
    for (int y = std::max(miny, top_); y <= std::min(maxy, bottom_ - 1); ++y) {
      ints.clear();
      for (int i = 0; i < n; ++i) {
        int y1, y2, x1, x2;
        if (!Edge(v, i, &x1, &y1, &x2, &y2)) continue;
        if ((y >= y1 && y < y2) || (y == maxy && y2 == maxy)) {
          float cut = static_cast<float>((y - y1) * (x2 - x1)) / static_cast<float>(y2 - y1);
          cut = ints.size() % 2 == 0 ? std::floor(cut) : std::ceil(cut);
          ints.push_back(static_cast<int>(cut) + x1);
        }
      }
      std::sort(ints.begin(), ints.end());
      for (std::size_t i = 0; i + 1 < ints.size(); i += 2) HLine(ints[i], ints[i + 1], y, c);
    }
    // Horizontal edges strictly between the top and bottom rows.
    for (int i = 0; i < n; ++i) {
      const auto& a = v[i == 0 ? n - 1 : i - 1];
      const int y = v[i][1];
      if (miny < y && a[1] == y && y < maxy) HLine(v[i][0], a[0], y, c);
    }
  }

  // pygame.draw.circle (filled) with an integer centre and radius (pygame
  // truncates the floats): pygame-ce's midpoint circle, nothing for r < 1.
  void DrawCircle(int x0, int y0, int r, const Rgb& c) {
    if (r < 1 || x0 > w_ + r || x0 < -r || y0 > h_ + r || y0 < -r) return;
    int f = 1 - r, ddf_x = 0, ddf_y = -2 * r, x = 0, y = r;
    while (x < y) {
      if (f >= 0) {
        --y;
        ddf_y += 2;
        f += ddf_y;
      }
      ++x;
      ddf_x += 2;
      f += ddf_x + 1;
      if (f >= 0) {  // rows y0 + y - 1 and y0 - y, before y steps down
        HLine(x0 - x, x0 + x - 1, y0 + y - 1, c);
        HLine(x0 - x, x0 + x - 1, y0 - y, c);
      }
      HLine(x0 - y, x0 + y - 1, y0 + x - 1, c);
      HLine(x0 - y, x0 + y - 1, y0 - x, c);
    }
  }

  // surface.blit(image, (x, y)) of an RGBA image onto this opaque canvas: each
  // channel d becomes (((s - d) * a + s) >> 8) + d (pygame's alpha blend).
  void Blit(const RgbaImage& image, int x0, int y0) {
    for (int y = 0; y < image.height; ++y) {
      for (int x = 0; x < image.width; ++x) {
        const int cx = x0 + x, cy = y0 + y;
        if (cx < 0 || cx >= w_ || cy < top_ || cy >= bottom_) continue;
        const std::uint8_t* s = image.pixels.data() + (static_cast<std::size_t>(y) * image.width + x) * 4;
        std::uint8_t* d = At(cx, cy);
        for (int c = 0; c < 3; ++c) {
          std::uint8_t& dc = d[c * layout_.channel];
          const int diff = (static_cast<int>(s[c]) - dc) * s[3] + s[c];
          dc = static_cast<std::uint8_t>(FloorDiv256(diff) + dc);
        }
      }
    }
  }

  // A grey picture (w x h bytes, rows top to bottom) copied with its top left at (x0, y0),
  // each byte v the pixel (v, v, v); clipped.
  void BlitGrey(const std::uint8_t* grey, int w, int h, int x0, int y0) {
    const int xa = std::max(x0, 0), xb = std::min(x0 + w, w_);
    for (int y = std::max(y0, top_); y < std::min(y0 + h, bottom_); ++y) {
      const std::uint8_t* row = grey + static_cast<std::ptrdiff_t>(y - y0) * w;
      std::uint8_t* p = At(0, y);
      for (int i = 0; i < 3; ++i) {
        std::uint8_t* q = p + i * layout_.channel;
        if (layout_.pixel == 1 && xa < xb) {
          std::memcpy(q + xa, row + (xa - x0), static_cast<std::size_t>(xb - xa));
          continue;
        }
        for (int x = xa; x < xb; ++x) q[x * layout_.pixel] = row[x - x0];
      }
    }
  }

  // One pixel, clipped.
  void Set(int x, int y, const Rgb& c) {
    if (x < 0 || x >= w_ || y < top_ || y >= bottom_) return;
    std::uint8_t* p = At(x, y);
    p[0] = c[0];
    p[layout_.channel] = c[1];
    p[2 * layout_.channel] = c[2];
  }

  // pygame-ce's anti-aliased pixel: b of the colour over 1 - b of what is there.
  void Blend(int x, int y, const Rgb& c, float b) {
    if (x < 0 || x >= w_ || y < top_ || y >= bottom_) return;
    std::uint8_t* p = At(x, y);
    for (int i = 0; i < 3; ++i) {
      std::uint8_t& pi = p[i * layout_.channel];
      pi = static_cast<std::uint8_t>(b * static_cast<float>(c[i]) + (1 - b) * static_cast<float>(pi));
    }
  }

  // SDL_gfx's pixel with alpha on a 32-bit surface: alpha 255 writes the
  // colour, otherwise each channel d becomes d + floor((c - d) * alpha / 256).
  void PutAlpha(int x, int y, const Rgb& c, int alpha) {
    if (alpha == 255) return Set(x, y, c);
    if (x < 0 || x >= w_ || y < top_ || y >= bottom_) return;
    std::uint8_t* p = At(x, y);
    for (int i = 0; i < 3; ++i) {
      std::uint8_t& pi = p[i * layout_.channel];
      // floor((c - d) * alpha / 256), the product being above -65536
      const int diff = (static_cast<int>(c[i]) - pi) * alpha;
      pi = static_cast<std::uint8_t>(pi + ((diff + 65536) >> 8) - 256);
    }
  }

  // SDL_gfx's weighted pixel: the colour's alpha (255) scaled by weight / 256.
  void WeightedPixel(int x, int y, const Rgb& c, int weight) {
    PutAlpha(x, y, c, (255 * weight) >> 8);
  }

  // pygame.transform.flip(surface, False, True): rows upside down.
  void FlipRows() {
    for (int y = 0; y < h_ / 2; ++y) {
      std::uint8_t *a = At(0, y), *b = At(0, h_ - 1 - y);
      if (layout_.pixel == 3 && layout_.channel == 1) {
        std::swap_ranges(a, a + std::ptrdiff_t{3} * w_, b);
        continue;
      }
      for (int x = 0; x < w_; ++x, a += layout_.pixel, b += layout_.pixel) {
        for (int i = 0; i < 3; ++i) std::swap(a[i * layout_.channel], b[i * layout_.channel]);
      }
    }
  }

 private:
  // v >> 8 as SDL and pygame shift: floor division by 256, also of a negative v.
  static int FloorDiv256(int v) { return v >= 0 ? v / 256 : -((-v + 255) / 256); }

  // pygame.draw.polygon's three-vertex case (pygame-ce's draw_filltri): the
  // vertices sorted by y, each row spanned between two edges whose x steps
  // are float32 slopes, cut toward zero.
  void DrawTriangle(std::vector<std::array<int, 2>> v, const Rgb& c) {
    if (v[1][1] < v[0][1]) std::swap(v[0], v[1]);
    if (v[2][1] < v[1][1]) {
      std::swap(v[1], v[2]);
      if (v[1][1] < v[0][1]) std::swap(v[0], v[1]);
    }
    if (v[0][1] == v[1][1] && v[1][1] == v[2][1] && v[0][0] == v[1][0] && v[1][0] != v[2][0]) {
      std::swap(v[1], v[2]);
    }
    const auto slope = [](int dx, int dy) { return static_cast<float>(dx / (dy + 1e-17)); };
    const float d1 = slope(v[2][0] - v[0][0], v[2][1] - v[0][1]);
    const float d2 = slope(v[1][0] - v[0][0], v[1][1] - v[0][1]);
    const float d3 = slope(v[2][0] - v[1][0], v[2][1] - v[1][1]);
    for (int y = v[0][1]; y <= v[2][1]; ++y) {
      const int x1 = v[0][0] + static_cast<int>(static_cast<float>(y - v[0][1]) * d1);
      const int x2 = y < v[1][1] ? v[0][0] + static_cast<int>(static_cast<float>(y - v[0][1]) * d2)
                                 : v[1][0] + static_cast<int>(static_cast<float>(y - v[1][1]) * d3);
      HLine(x1, x2, y, c);
    }
  }

  // A polygon's edge from vertex i - 1 to vertex i (vertex 0: from the last one), as
  // both scanline fills take it: its upper end (x1, y1) first; false if it is horizontal.
  static bool Edge(const std::vector<std::array<int, 2>>& v, int i, int* x1, int* y1, int* x2,
                   int* y2) {
    const auto& a = v[i == 0 ? v.size() - 1 : static_cast<std::size_t>(i - 1)];
    const auto& b = v[static_cast<std::size_t>(i)];
    if (a[1] == b[1]) return false;
    const auto& top = a[1] < b[1] ? a : b;
    const auto& bottom = a[1] < b[1] ? b : a;
    *x1 = top[0], *y1 = top[1], *x2 = bottom[0], *y2 = bottom[1];
    return true;
  }

  // gfxdraw.filled_polygon's spans: span(xa, xb, y) for each run of row y (xa > xb: the
  // run xb .. xa, as HLine draws it), rows top to bottom, runs left to right, rows off the
  // canvas (or not kept) left out.
  template <class Span>
  void FillSpans(const std::vector<std::array<int, 2>>& v, Span&& span) {
    const int n = static_cast<int>(v.size());
    if (n < 3) return;
    const auto [minx, miny, maxx, maxy] = Bounds(v);
    // Every run lies within the vertices' columns: nothing to draw when they miss the canvas.
    if (maxx < 0 || minx >= w_ || maxy < top_ || miny >= bottom_) return;
    // The crossing of an edge with row y: 65536 * (y - y1) / (y2 - y1) (floored) times
    // (x2 - x1), plus 65536 * x1; the quotient stepped from row to row, one division per edge.
    // An edge crosses rows y1 .. y2 - 1, and y2 too when y2 is the polygon's last row.
    edges_.clear();
    for (int i = 0; i < n; ++i) {
      int y1, y2, x1, x2;
      if (!Edge(v, i, &x1, &y1, &x2, &y2)) continue;
      Crossing e;
      e.x1 = x1, e.y1 = y1, e.end = y2 == maxy ? y2 : y2 - 1, e.dx = x2 - x1, e.dy = y2 - y1;
      e.qs = 65536 / e.dy, e.rs = 65536 % e.dy;
      edges_.push_back(e);
    }
    std::array<std::int64_t, 2> pair{};
    std::vector<std::int64_t>& ints = ints_;
    for (int y = std::max(miny, top_); y <= std::min(maxy, bottom_ - 1); ++y) {
      int count = 0;
      ints.clear();
      for (Crossing& e : edges_) {
        if (y < e.y1 || y > e.end) continue;
        if (e.k < 0) {
          const std::int64_t num = std::int64_t{65536} * (y - e.y1);
          e.q = num / e.dy, e.r = num % e.dy, e.k = y - e.y1;
        } else {  // the row after the last one
          e.q += e.qs, e.r += e.rs, ++e.k;
          if (e.r >= e.dy) e.r -= e.dy, ++e.q;
        }
        const std::int64_t at = e.q * e.dx + std::int64_t{65536} * e.x1;
        if (count < 2) pair[count] = at;
        ++count;
        ints.push_back(at);
      }
      if (count == 2) {
        if (pair[1] < pair[0]) std::swap(pair[0], pair[1]);
        Run(pair[0], pair[1], y, span);
        continue;
      }
      std::sort(ints.begin(), ints.end());
      for (std::size_t i = 0; i + 1 < ints.size(); i += 2) Run(ints[i], ints[i + 1], y, span);
    }
  }

  // The run between two crossings (16.16), rounded inwards as SDL_gfx does.
  template <class Span>
  static void Run(std::int64_t a, std::int64_t b, int y, Span& span) {
    std::int64_t xa = a + 1;
    xa = (xa >> 16) + ((xa & 32768) >> 15);
    std::int64_t xb = b - 1;
    xb = (xb >> 16) + ((xb & 32768) >> 15);
    span(static_cast<int>(xa), static_cast<int>(xb), y);
  }

  struct Crossing {
    int x1, y1, end, dx, dy;
    int k = -1;  // the row (from y1) that q and r are for; -1: not yet
    std::int64_t q = 0, r = 0;    // 65536 * k = q * dy + r
    std::int64_t qs = 0, rs = 0;  // 65536 = qs * dy + rs
  };

  // The anti-aliased ellipse's weight of the outer pixel: |d| / |slope| in
  // float, at most 1, times 255, truncated.
  static int EllipseWeight(int d, int slope) {
    float cp = 1.0F;
    if (slope != 0) {
      cp = std::min(static_cast<float>(std::abs(d)) / static_cast<float>(std::abs(slope)), 1.0F);
    }
    return static_cast<int>(cp * 255);
  }

  // (x_left, y) and (x_right, y), in that order, at the same weight.
  void MirroredPair(int x_left, int x_right, int y, const Rgb& c, int weight) {
    WeightedPixel(x_left, y, c, weight);
    WeightedPixel(x_right, y, c, weight);
  }

  // SDL_gfx's Cohen-Sutherland clip of a line to the canvas (float slope,
  // offsets truncated); false when nothing of it is left. Clipping may swap
  // the two ends, which moves the line's solid first pixel.
  bool ClipLine(int* x1, int* y1, int* x2, int* y2) const {
    const int right = w_ - 1, bottom = h_ - 1;
    auto code = [&](int x, int y) {
      return (x < 0 ? 1 : x > right ? 2 : 0) | (y < 0 ? 8 : y > bottom ? 4 : 0);
    };
    while (true) {
      int c1 = code(*x1, *y1), c2 = code(*x2, *y2);
      if ((c1 | c2) == 0) return true;
      if ((c1 & c2) != 0) return false;
      if (c1 == 0) {
        std::swap(*x1, *x2), std::swap(*y1, *y2), std::swap(c1, c2);
      }
      const float m = *x2 != *x1 ? static_cast<float>(*y2 - *y1) / static_cast<float>(*x2 - *x1)
                                 : 1.0F;
      if (c1 & 1) {
        *y1 += static_cast<int>(static_cast<float>(0 - *x1) * m), *x1 = 0;
      } else if (c1 & 2) {
        *y1 += static_cast<int>(static_cast<float>(right - *x1) * m), *x1 = right;
      } else if (c1 & 4) {
        if (*x2 != *x1) *x1 += static_cast<int>(static_cast<float>(bottom - *y1) / m);
        *y1 = bottom;
      } else {
        if (*x2 != *x1) *x1 += static_cast<int>(static_cast<float>(0 - *y1) / m);
        *y1 = 0;
      }
    }
  }

  std::uint8_t* At(int x, int y) const { return px_ + y * layout_.row + x * layout_.pixel; }

  int w_, h_;
  std::uint8_t* px_;  // channel 0 of pixel (0, 0)
  Layout layout_;
  int top_ = 0, bottom_;  // the rows written (KeepRows)
  // scratch of FillSpans and OutlinedPolygon, kept from one polygon to the next
  std::vector<Crossing> edges_;
  std::vector<std::int64_t> ints_;
  std::vector<int> first_, last_;
  std::vector<std::array<int, 3>> more_;
};

}  // namespace envpool::draw
