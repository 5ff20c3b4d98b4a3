// MiniGrid's render() picture (the `minigrid` package 3.2.0: MiniGridEnv.get_full_render,
// Grid.render / render_tile, utils/rendering.py, each WorldObj.render), restated in C++
// with numpy's arithmetic so the frame is the package's bit for bit:
//  - a tile is drawn at 3 x tile_size pixels a side (uint8; TILE_PIXELS = 32 by default),
//    each shape filling the pixels whose centers ((x + 0.5) / (3 tile_size), (y + 0.5) /
//    (3 tile_size), float64) it contains; the triangle and line
//    tests keep the package's float32 corners (its np.float32 arrays);
//  - colors given as float64 (Floor's color / 2, the locked door's 0.45 x color) are
//    truncated into uint8, as numpy's assignment casts them;
//  - the highlight is img + 0.3 x (255 - img) in float64, truncated;
//  - the 3 x 3 supersampling is downsample's two means (over the columns' subdivisions,
//    then the rows'), float64, truncated into the frame's uint8.
// A Picture draws at one tile size. Its tiles are cached per Picture (so per env: no state
// is shared between envs), keyed as the package keys its class-wide cache (the object's
// encoding, the agent's direction, the highlight; the tile size is the Picture's): the
// same key, the same tile.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "envs/minigrid/world.h"

namespace envpool::minigrid {

class Picture {
 public:
  static constexpr int kTile = 32;     // TILE_PIXELS, the package's default tile_size
  static constexpr int kSubdivs = 3;   // render_tile's supersampling

  explicit Picture(int tile_size = kTile) : tile_(tile_size), big_(tile_size * kSubdivs) {}
  int TileSize() const { return tile_; }

  // get_full_render(highlight, tile_size) of `w` into `out`, an RGB image of
  // (height x tile_size) x (width x tile_size) x 3 bytes: the whole grid, the agent, and
  // (with `highlight`) the squares the agent sees lightened.
  void DrawFull(const World& w, bool highlight, std::uint8_t* out) {
    const int gw = w.grid.Width();
    const std::vector<char> mask = highlight ? HighlightMask(w) : std::vector<char>();
    DrawGrid(gw, w.grid.Height(), [&](int i, int j) -> const Cell& { return w.grid.Get(i, j); },
             w.agent_pos, w.agent_dir,
             [&](int i, int j) {
               return highlight && mask[static_cast<std::size_t>(j * gw + i)] != 0;
             },
             out);
  }

  // get_pov_render(tile_size): the agent's view (gen_obs_grid: rotated so that the agent,
  // at the bottom middle, faces up, the carried object on its square; process_vis empties
  // the squares the agent does not see), the squares it sees lightened, into an RGB image
  // of (agent_view_size x tile_size)^2 x 3 bytes.
  void DrawPov(const World& w, std::uint8_t* out) {
    const int sz = w.agent_view_size;
    std::vector<Cell> view;
    std::vector<char> vis;
    w.ObsView(view, vis);
    for (std::size_t k = 0; k < view.size(); ++k) {
      if (!vis[k]) view[k] = Cell();
    }
    DrawGrid(sz, sz,
             [&](int i, int j) -> const Cell& { return view[static_cast<std::size_t>(j * sz + i)]; },
             Pos{sz / 2, sz - 1}, 3,
             [&](int i, int j) { return vis[static_cast<std::size_t>(j * sz + i)] != 0; }, out);
  }

 private:
  using Tile = std::vector<std::uint8_t>;  // tile_ x tile_ x 3
  using Rgb = std::array<std::uint8_t, 3>;
  // One supersampled tile: n x n x 3 (n = 3 tile_size).
  struct Big {
    int n;
    std::vector<std::uint8_t> px;
    explicit Big(int side) : n(side), px(static_cast<std::size_t>(side * side * 3), 0) {}
  };

  // Grid.render(tile_size, agent_pos, agent_dir, highlight_mask) of a gw x gh grid whose
  // cells `cell(i, j)` gives, `lit(i, j)` its highlight mask.
  template <class CellFn, class LitFn>
  void DrawGrid(int gw, int gh, CellFn cell, Pos agent_pos, int agent_dir, LitFn lit,
                std::uint8_t* out) {
    const int row = gw * tile_ * 3;
    for (int j = 0; j < gh; ++j) {
      for (int i = 0; i < gw; ++i) {
        const bool agent_here = agent_pos.x == i && agent_pos.y == j;
        const Tile& tile = GetTile(cell(i, j), agent_here ? agent_dir : -1, lit(i, j));
        for (int y = 0; y < tile_; ++y) {
          std::uint8_t* dst =
              out + static_cast<std::size_t>((j * tile_ + y) * row + i * tile_ * 3);
          std::copy_n(tile.data() + static_cast<std::size_t>(y * tile_ * 3), tile_ * 3, dst);
        }
      }
    }
  }

  // get_full_render's highlight_mask (indexed j * width + i): the squares of the agent's
  // view that it sees (gen_obs_grid's vis_mask) inside the grid.
  static std::vector<char> HighlightMask(const World& w) {
    const int gw = w.grid.Width();
    const int gh = w.grid.Height();
    std::vector<char> mask(static_cast<std::size_t>(gw * gh), 0);
    const int sz = w.agent_view_size;
    const std::vector<char> vis = w.VisMask();
    const Pos f = DirVec(w.agent_dir);
    const Pos r{-f.y, f.x};
    const int top_x = w.agent_pos.x + f.x * (sz - 1) - r.x * (sz / 2);
    const int top_y = w.agent_pos.y + f.y * (sz - 1) - r.y * (sz / 2);
    for (int vj = 0; vj < sz; ++vj) {
      for (int vi = 0; vi < sz; ++vi) {
        if (!vis[static_cast<std::size_t>(vj * sz + vi)]) continue;
        const int x = top_x - f.x * vj + r.x * vi;
        const int y = top_y - f.y * vj + r.y * vi;
        if (x < 0 || x >= gw || y < 0 || y >= gh) continue;
        mask[static_cast<std::size_t>(y * gw + x)] = 1;
      }
    }
    return mask;
  }

  const Tile& GetTile(const Cell& cell, int agent_dir, bool highlight) {
    const auto e = cell.Encode();
    // render_tile's key: the encoding (none for an empty square), agent_dir, highlight.
    const std::uint32_t key = (cell.Empty() ? 0xFFFFFFu
                                            : (static_cast<std::uint32_t>(e[0]) << 16) |
                                                  (static_cast<std::uint32_t>(e[1]) << 8) | e[2]) |
                              (static_cast<std::uint32_t>(agent_dir + 1) << 24) |
                              (highlight ? 1u << 28 : 0u);
    auto it = cache_.find(key);
    if (it != cache_.end()) return it->second;
    return cache_.emplace(key, RenderTile(cell, agent_dir, highlight)).first->second;
  }

  static Rgb ColorRgb(Color c) {
    static constexpr Rgb kColors[6] = {{255, 0, 0},   {0, 255, 0},    {0, 0, 255},
                                       {112, 39, 195}, {255, 255, 0}, {100, 100, 100}};
    return kColors[c];
  }
  // A float64 color assigned into uint8 (numpy truncates toward zero).
  static Rgb Scaled(Rgb c, double s) {
    return {static_cast<std::uint8_t>(s * c[0]), static_cast<std::uint8_t>(s * c[1]),
            static_cast<std::uint8_t>(s * c[2])};
  }
  // fill_coords: every pixel whose center passes `inside` takes `color`.
  template <class Fn>
  static void Fill(Big& img, Fn inside, Rgb color) {
    const int n = img.n;
    for (int y = 0; y < n; ++y) {
      const double yf = (y + 0.5) / n;
      for (int x = 0; x < n; ++x) {
        const double xf = (x + 0.5) / n;
        if (inside(xf, yf)) {
          std::uint8_t* px = &img.px[static_cast<std::size_t>((y * n + x) * 3)];
          px[0] = color[0];
          px[1] = color[1];
          px[2] = color[2];
        }
      }
    }
  }
  static void Rect(Big& img, double xmin, double xmax, double ymin, double ymax, Rgb color) {
    Fill(img, [=](double x, double y) { return x >= xmin && x <= xmax && y >= ymin && y <= ymax; },
         color);
  }
  static void Circle(Big& img, double cx, double cy, double r, Rgb color) {
    Fill(img, [=](double x, double y) { return (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r; },
         color);
  }
  // point_in_line(x0, y0, x1, y1, r): p0, p1 and the unit direction in float32, the
  // projection and the distance in float64.
  static void Line(Big& img, double x0, double y0, double x1, double y1, double r, Rgb color) {
    const float p0x = static_cast<float>(x0), p0y = static_cast<float>(y0);
    const float dx32 = static_cast<float>(x1) - p0x, dy32 = static_cast<float>(y1) - p0y;
    const float dist = std::sqrt(dx32 * dx32 + dy32 * dy32);
    const float ux = dx32 / dist, uy = dy32 / dist;
    const double xmin = std::min(x0, x1) - r, xmax = std::max(x0, x1) + r;
    const double ymin = std::min(y0, y1) - r, ymax = std::max(y0, y1) + r;
    Fill(img,
         [=](double x, double y) {
           if (x < xmin || x > xmax || y < ymin || y > ymax) return false;
           const double pqx = x - p0x, pqy = y - p0y;
           double a = pqx * ux + pqy * uy;
           a = a < 0.0 ? 0.0 : (a > dist ? static_cast<double>(dist) : a);
           const double px = p0x + a * ux, py = p0y + a * uy;
           const double qx = x - px, qy = y - py;
           return std::sqrt(qx * qx + qy * qy) <= r;
         },
         color);
  }

  // The agent: point_in_triangle((0.12, 0.19), (0.87, 0.50), (0.12, 0.81)) (float32
  // corners, float32 v0 / v1 products, float64 for the point's), turned by rotate_fn
  // about the center by agent_dir quarter turns.
  static void Agent(Big& img, int agent_dir) {
    const float ax = 0.12f, ay = 0.19f, bx = 0.87f, by = 0.50f, cx = 0.12f, cy = 0.81f;
    const float v0x = cx - ax, v0y = cy - ay, v1x = bx - ax, v1y = by - ay;
    const float dot00 = v0x * v0x + v0y * v0y;
    const float dot01 = v0x * v1x + v0y * v1y;
    const float dot11 = v1x * v1x + v1y * v1y;
    const float inv_denom = 1.0f / (dot00 * dot11 - dot01 * dot01);
    const double theta = 0.5 * M_PI * agent_dir;
    const double c = std::cos(-theta), s = std::sin(-theta);
    Fill(img,
         [=](double x, double y) {
           x -= 0.5;
           y -= 0.5;
           const double x2 = 0.5 + x * c - y * s;
           const double y2 = 0.5 + y * c + x * s;
           const double v2x = x2 - ax, v2y = y2 - ay;
           const double dot02 = v0x * v2x + v0y * v2y;
           const double dot12 = v1x * v2x + v1y * v2y;
           const double u = (dot11 * dot02 - dot01 * dot12) * inv_denom;
           const double v = (dot00 * dot12 - dot01 * dot02) * inv_denom;
           return u >= 0 && v >= 0 && (u + v) < 1;
         },
         {255, 0, 0});
  }

  // One fill_coords call of a WorldObj.render: a point_in_rect (xmin, xmax, ymin, ymax)
  // or a point_in_circle (cx, cy, r), in the object's color, black, or (the locked
  // door's inside) 0.45 x the color.
  enum class Paint : std::uint8_t { kColor, kBlack, kDark };
  struct Shape {
    bool circle;
    double a, b, c, d;
    Paint paint;
  };
  using Shapes = std::vector<Shape>;

  // The shapes WorldObj.render draws for `cell` (Lava's waves aside), in its order.
  static const Shapes& ObjectShapes(const Cell& cell) {
    static const Shapes kFull = {{false, 0, 1, 0, 1, Paint::kColor}};  // Goal, Wall
    static const Shapes kOpenDoor = {{false, 0.88, 1.00, 0.00, 1.00, Paint::kColor},
                                     {false, 0.92, 0.96, 0.04, 0.96, Paint::kBlack}};
    static const Shapes kLockedDoor = {{false, 0.00, 1.00, 0.00, 1.00, Paint::kColor},
                                       {false, 0.06, 0.94, 0.06, 0.94, Paint::kDark},
                                       {false, 0.52, 0.75, 0.50, 0.56, Paint::kColor}};
    static const Shapes kClosedDoor = {{false, 0.00, 1.00, 0.00, 1.00, Paint::kColor},
                                       {false, 0.04, 0.96, 0.04, 0.96, Paint::kBlack},
                                       {false, 0.08, 0.92, 0.08, 0.92, Paint::kColor},
                                       {false, 0.12, 0.88, 0.12, 0.88, Paint::kBlack},
                                       {true, 0.75, 0.50, 0.08, 0, Paint::kColor}};
    static const Shapes kKeyShapes = {{false, 0.50, 0.63, 0.31, 0.88, Paint::kColor},
                                      {false, 0.38, 0.50, 0.59, 0.66, Paint::kColor},
                                      {false, 0.38, 0.50, 0.81, 0.88, Paint::kColor},
                                      {true, 0.56, 0.28, 0.190, 0, Paint::kColor},
                                      {true, 0.56, 0.28, 0.064, 0, Paint::kBlack}};
    static const Shapes kBallShapes = {{true, 0.5, 0.5, 0.31, 0, Paint::kColor}};
    static const Shapes kBoxShapes = {{false, 0.12, 0.88, 0.12, 0.88, Paint::kColor},
                                      {false, 0.18, 0.82, 0.18, 0.82, Paint::kBlack},
                                      {false, 0.16, 0.84, 0.47, 0.53, Paint::kColor}};
    static const Shapes kNone;
    switch (cell.type) {
      case kGoal:
      case kWall:
        return kFull;
      case kDoor:
        return cell.is_open ? kOpenDoor : (cell.is_locked ? kLockedDoor : kClosedDoor);
      case kKey:
        return kKeyShapes;
      case kBall:
        return kBallShapes;
      case kBox:
        return kBoxShapes;
      default:
        return kNone;
    }
  }

  // WorldObj.render.
  static void DrawObject(Big& img, const Cell& cell) {
    const Rgb c = ColorRgb(cell.color);
    const Rgb black{0, 0, 0};
    if (cell.type == kFloor) {  // COLORS[color] / 2
      Rect(img, 0.031, 1, 0.031, 1, Scaled(c, 0.5));
      return;
    }
    if (cell.type == kLava) {
      Rect(img, 0, 1, 0, 1, {255, 128, 0});
      for (int i = 0; i < 3; ++i) {  // the waves
        const double ylo = 0.3 + 0.2 * i, yhi = 0.4 + 0.2 * i;
        Line(img, 0.1, ylo, 0.3, yhi, 0.03, black);
        Line(img, 0.3, yhi, 0.5, ylo, 0.03, black);
        Line(img, 0.5, ylo, 0.7, yhi, 0.03, black);
        Line(img, 0.7, yhi, 0.9, ylo, 0.03, black);
      }
      return;
    }
    for (const Shape& sh : ObjectShapes(cell)) {
      const Rgb color = sh.paint == Paint::kColor ? c
                        : sh.paint == Paint::kBlack ? black
                                                    : Scaled(c, 0.45);
      if (sh.circle) {
        Circle(img, sh.a, sh.b, sh.c, color);
      } else {
        Rect(img, sh.a, sh.b, sh.c, sh.d, color);
      }
    }
  }

  // render_tile: grid lines, the object, the agent, the highlight, downsample.
  Tile RenderTile(const Cell& cell, int agent_dir, bool highlight) const {
    Big img(big_);
    Rect(img, 0, 0.031, 0, 1, {100, 100, 100});
    Rect(img, 0, 1, 0, 0.031, {100, 100, 100});
    if (!cell.Empty()) DrawObject(img, cell);
    if (agent_dir >= 0) Agent(img, agent_dir);
    if (highlight) {  // highlight_img: img + 0.30 * (255 - img), clipped, truncated
      for (std::uint8_t& v : img.px) {
        v = static_cast<std::uint8_t>(v + 0.30 * static_cast<double>(255 - v));
      }
    }
    Tile tile(static_cast<std::size_t>(tile_ * tile_ * 3));
    for (int ty = 0; ty < tile_; ++ty) {
      for (int tx = 0; tx < tile_; ++tx) {
        for (int ch = 0; ch < 3; ++ch) {
          // img.mean(axis=3) (the columns' subdivisions), then .mean(axis=1) (the rows').
          double rows[kSubdivs];
          for (int sy = 0; sy < kSubdivs; ++sy) {
            double sum = 0.0;
            for (int sx = 0; sx < kSubdivs; ++sx) {
              const int y = ty * kSubdivs + sy, x = tx * kSubdivs + sx;
              sum += img.px[static_cast<std::size_t>((y * big_ + x) * 3 + ch)];
            }
            rows[sy] = sum / kSubdivs;
          }
          double sum = 0.0;
          for (double r : rows) sum += r;
          tile[static_cast<std::size_t>((ty * tile_ + tx) * 3 + ch)] =
              static_cast<std::uint8_t>(sum / kSubdivs);
        }
      }
    }
    return tile;
  }

  int tile_;  // tile_size
  int big_;   // 3 tile_size, the supersampled tile's side
  std::unordered_map<std::uint32_t, Tile> cache_;
};

}  // namespace envpool::minigrid
