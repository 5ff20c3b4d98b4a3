// highway-env's picture, restated: envs/common/graphics.py's EnvViewer (display, then
// get_image), road/graphics.py's WorldSurface, LaneGraphics, RoadGraphics and
// RoadObjectGraphics, and vehicle/graphics.py's VehicleGraphics, drawn as pygame-ce 2.5 draws
// them (envs/common/draw/: pygame.draw.line's Bresenham lines and wide lines, pygame.draw.rect,
// transform.rotate, pygame's own alpha blitter).
//
// The world surface is screen_width x screen_height, its origin the observed vehicle's
// position less centering_position x the screen's size / scaling; a length is
// int(length x scaling) pixels (pix) and a position pix(x - origin) (pos2pix). The road: the
// surface filled grey (100, 100, 100), then each lane of the graph, in its order, its two
// sides' lines (striped, continuous curve or continuous line) in white, pix(0.3) (at least
// 1) wide. Then each road object, then each vehicle within 50 pixels of the surface: a
// rectangle on a transparent surface (the vehicle's colour, its headlights lighter, a black
// outline; a plain Vehicle's or BicycleVehicle's tires, the front pair turned by its
// steering), turned by the heading (0 within 2 degrees) with transform.rotate and blitted so
// that its centre lands on the vehicle's pixel (blit_rotate). Then, where the env observes
// through a LidarObservation, ObservationGraphics' outline of its last trace. The road's
// trajectories (show_trajectories) are not drawn: the package's default.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <typeinfo>
#include <vector>

#include "envs/common/draw/raster.h"
#include "envs/common/draw/sprite.h"
#include "envs/common/py_math.h"
#include "envs/highway/bicycle_vehicle.h"
#include "envs/highway/lidar_observation.h"
#include "envs/highway/vehicle.h"

namespace envpool::highway {

// The viewer's config keys: screen_width, screen_height, scaling, centering_position.
struct ViewerConfig {
  int width = 600;
  int height = 150;
  double scaling = 5.5;
  std::array<double, 2> centering{0.3, 0.5};
};

namespace graphics_detail {

using Rgb = draw::Rgb;
using Rgba = draw::Rgba;

constexpr Rgb kGrey{100, 100, 100}, kWhite{255, 255, 255};
constexpr Rgb kRed{255, 100, 100}, kGreen{50, 200, 0}, kBlue{100, 200, 255};
constexpr Rgb kYellow{200, 200, 0}, kBlack{60, 60, 60};
constexpr Rgb kLidarBlack{0, 0, 0};  // ObservationGraphics.COLOR
constexpr double kStripeSpacing = 4.33, kStripeLength = 3, kStripeWidth = 0.3;

// Python's int(x) of a float, held within int's range (pygame reads its coordinates as C
// ints; a picture's coordinates stay far inside).
inline int ToInt(double x) {
  if (!(x > -1073741824.0)) return -1073741824;
  if (x > 1073741824.0) return 1073741824;
  return static_cast<int>(x);
}

inline Rgba Opaque(const Rgb& c) { return {c[0], c[1], c[2], 255}; }

// VehicleGraphics.lighten(color, 0.68): min(int(c / 0.68), 255) each.
inline Rgb Lighten(const Rgb& c) {
  Rgb out{};
  for (int i = 0; i < 3; ++i) out[i] = static_cast<std::uint8_t>(std::min(static_cast<int>(c[i] / 0.68), 255));
  return out;
}

// pygame.math.Vector2(x, y).rotate(degrees): radians = degrees x (pi / 180), brought into
// [0, 2 pi) by fmod; within 1e-6 of a quarter turn, the coordinates swapped exactly;
// otherwise (cos x - sin y, sin x + cos y).
inline Vec2 RotateDegrees(Vec2 v, double degrees) {
  constexpr double kEpsilon = 1e-6;
  double angle = std::fmod(degrees * (kPi / 180.), 2. * kPi);
  if (angle < 0) angle += 2. * kPi;
  if (std::fmod(angle + kEpsilon, kPi / 2) < 2 * kEpsilon) {
    switch (static_cast<int>((angle + kEpsilon) / (kPi / 2))) {
      case 1:
        return {-v[1], v[0]};
      case 2:
        return {-v[0], -v[1]};
      case 3:
        return {v[1], -v[0]};
      default:  // 0 and 360 degrees
        return v;
    }
  }
  const double s = std::sin(angle), c = std::cos(angle);
  return {c * v[0] - s * v[1], s * v[0] + c * v[1]};
}

// blit_rotate(surf, image, pos, angle): where the image turned by `angle` degrees
// (transform.rotate's float32 angle) is blitted so that its centre lands on pos: pos less
// half the image, plus the turned box's least x (greatest y, y up), less the centre's move;
// each coordinate cut to an int as blit reads it.
struct Placed {
  draw::RgbaImage image;
  int x, y;
};
inline Placed BlitRotate(const draw::RgbaImage& image, int px, int py, double angle) {
  const double w = image.width, h = image.height;
  double min_x = 0, max_y = 0;
  bool first = true;
  for (const Vec2& corner : {Vec2{0, 0}, Vec2{w, 0}, Vec2{w, -h}, Vec2{0, -h}}) {
    const Vec2 r = RotateDegrees(corner, angle);
    min_x = first ? r[0] : std::min(min_x, r[0]);
    max_y = first ? r[1] : std::max(max_y, r[1]);
    first = false;
  }
  const Vec2 pivot{w / 2, -h / 2};
  const Vec2 turned = RotateDegrees(pivot, angle);
  const Vec2 move{turned[0] - pivot[0], turned[1] - pivot[1]};
  const double ox = px - w / 2 + min_x - move[0];
  const double oy = py - h / 2 - max_y + move[1];
  return {draw::RotateImage(image, static_cast<float>(angle)), ToInt(ox), ToInt(oy)};
}

// np.rad2deg(-heading) of a heading drawn turned (0 within 2 degrees).
inline double DrawnAngle(double heading) {
  const double h = std::fabs(heading) > 2 * kPi / 180 ? heading : 0.0;
  return -h * (180 / kPi);
}

}  // namespace graphics_detail

class Viewer {
 public:
  explicit Viewer(const ViewerConfig& config) : c_(config) {}

  // display() and get_image() of the viewer centred on `center` (window_position: the observer
  // vehicle's position): height x width RGB pixels, rows top to bottom, into `out`.
  void Draw(const Road& road, const Vec2& center, std::uint8_t* out) {
    using namespace graphics_detail;  // NOLINT
    origin_ = {center[0] - c_.centering[0] * c_.width / c_.scaling,
               center[1] - c_.centering[1] * c_.height / c_.scaling};
    draw::Canvas canvas(c_.width, c_.height, out);
    canvas.Fill(kGrey);
    for (const auto& [from, roads] : road.network.graph()) {
      for (const auto& [to, lanes] : roads) {
        for (const Lane& lane : lanes) DrawLane(lane, &canvas);
      }
    }
    for (const auto& o : road.objects) DrawObject(*o, &canvas);
    for (const auto& v : road.vehicles) DrawVehicle(*v, &canvas);
  }

  // ObservationGraphics.display_grid, after Draw: pygame.draw.lines(closed, width 1) in black
  // through each sector's two edges (psi = np.arange(-angle / 2, 2 pi - angle / 2, 2 pi /
  // cells), each repeated twice and turned by one) at its distance (the last trace's
  // float32 grid), from the trace's origin. (Where numpy's arange gives cells + 1 angles,
  // cells = 61, 122, ..., the package's drawing fails on an index; here the cells' own.)
  void DrawLidar(const LidarObservation& lidar, std::uint8_t* out) const {
    using namespace graphics_detail;  // NOLINT
    draw::Canvas canvas(c_.width, c_.height, out);
    const int n = lidar.config().cells;
    const double start = -lidar.angle() / 2, second = start + 2 * kPi / n;
    const auto psi = [&](int k) {  // np.arange's k-th value: start + k * (second - start)
      return k == 0 ? start : (k == 1 ? second : start + k * (second - start));
    };
    const std::vector<float>& grid = lidar.grid();
    const Vec2& o = lidar.origin();
    std::vector<std::array<int, 2>> points;
    for (int k = 0; k < n; ++k) {
      const double r = grid[2 * static_cast<std::size_t>(k)];
      for (const double a : {psi(k), psi(k + 1 == n ? 0 : k + 1)}) {
        points.push_back(PosToPix({o[0] + r * std::cos(a), o[1] + r * std::sin(a)}));
      }
    }
    for (std::size_t k = 1; k < points.size(); ++k) {
      canvas.Line(points[k - 1][0], points[k - 1][1], points[k][0], points[k][1], kLidarBlack);
    }
    if (points.size() > 2) {
      canvas.Line(points.back()[0], points.back()[1], points[0][0], points[0][1], kLidarBlack);
    }
  }

 private:
  int Pix(double length) const { return graphics_detail::ToInt(length * c_.scaling); }
  std::array<int, 2> PosToPix(const Vec2& p) const {
    return {Pix(p[0] - origin_[0]), Pix(p[1] - origin_[1])};
  }

  // LaneGraphics.display: the stripes from s0, stripes_count of them, on each side.
  void DrawLane(const Lane& lane, draw::Canvas* canvas) const {
    using namespace graphics_detail;  // NOLINT
    const int count = static_cast<int>(2 * (c_.height + c_.width) / (kStripeSpacing * c_.scaling));
    const double s_origin = lane.LocalCoordinates(origin_)[0];
    const double s0 =
        (PyFloorDiv(std::trunc(s_origin), kStripeSpacing) - count / 2) * kStripeSpacing;
    for (int side = 0; side < 2; ++side) {
      std::vector<double> starts, ends;
      const LineType type = lane.line_type(side);
      if (type == LineType::kStriped || type == LineType::kContinuous) {
        const double extent = type == LineType::kStriped ? kStripeLength : kStripeSpacing;
        for (int k = 0; k < count; ++k) {
          starts.push_back(s0 + k * kStripeSpacing);
          ends.push_back(s0 + k * kStripeSpacing + extent);
        }
      } else if (type == LineType::kContinuousLine) {
        starts.push_back(s0 + 0 * kStripeSpacing);
        ends.push_back(s0 + count * kStripeSpacing + kStripeLength);
      }
      // draw_stripes: each clipped to the lane, drawn where longer than half a stripe
      const int width = std::max(Pix(kStripeWidth), 1);
      for (std::size_t k = 0; k < starts.size(); ++k) {
        const double lat = (side - 0.5) * lane.WidthAt(starts[k]);
        const double a = std::min(std::max(starts[k], 0.0), lane.length());
        const double b = std::min(std::max(ends[k], 0.0), lane.length());
        if (!(std::fabs(a - b) > 0.5 * kStripeLength)) continue;
        const auto p = PosToPix(lane.Position(a, lat)), q = PosToPix(lane.Position(b, lat));
        canvas->WideLine(p[0], p[1], q[0], q[1], width, kWhite);
      }
    }
  }

  // RoadObjectGraphics.display: the object's rectangle on a LENGTH x LENGTH surface.
  void DrawObject(const Vehicle& o, draw::Canvas* canvas) const {
    using namespace graphics_detail;  // NOLINT
    Rgb color = kYellow;
    if (o.kind == ObjectKind::kObstacle) color = o.crashed ? kRed : kYellow;
    if (o.kind == ObjectKind::kLandmark) color = o.hit ? kGreen : kBlue;
    const int side = Pix(o.length);
    draw::RgbaImage s = draw::TransparentImage(side, side);
    const int ry = Pix(o.length / 2 - o.width / 2), rw = Pix(o.length), rh = Pix(o.width);
    draw::DrawRect(&s, 0, ry, rw, rh, Opaque(color), 0);
    draw::DrawRect(&s, 0, ry, rw, rh, Opaque(kBlack), 1);
    const auto pos = PosToPix(o.position);
    const Placed placed = BlitRotate(s, pos[0], pos[1], DrawnAngle(o.heading));
    canvas->Blit(placed.image, placed.x, placed.y);
  }

  // VehicleGraphics.display (not transparent, no label, no roof).
  void DrawVehicle(const Vehicle& v, draw::Canvas* canvas) const {
    using namespace graphics_detail;  // NOLINT
    const auto pos = PosToPix(v.position);
    constexpr int kMargin = 50;  // is_visible
    if (!(-kMargin < pos[0] && pos[0] < c_.width + kMargin && -kMargin < pos[1] &&
          pos[1] < c_.height + kMargin)) {
      return;
    }
    constexpr double kTireLength = 1, kTireWidth = 0.3;
    constexpr double kHeadlightLength = 0.72, kHeadlightWidth = 0.6;
    const double length = v.length + 2 * kTireLength;
    draw::RgbaImage s = draw::TransparentImage(Pix(length), Pix(length));
    const std::array<int, 4> rect{Pix(kTireLength), Pix(length / 2 - v.width / 2), Pix(v.length),
                                  Pix(v.width)};
    const int light_x = Pix(kTireLength + v.length - kHeadlightLength);
    const int light_w = Pix(kHeadlightLength), light_h = Pix(kHeadlightWidth);
    const Rgb color = Color(v);
    const Rgba light = Opaque(Lighten(color));
    draw::DrawRect(&s, rect[0], rect[1], rect[2], rect[3], Opaque(color), 0);
    draw::DrawRect(&s, light_x, Pix(length / 2 - (1.4 * v.width) / 3), light_w, light_h, light, 0);
    draw::DrawRect(&s, light_x, Pix(length / 2 + (0.6 * v.width) / 5), light_w, light_h, light, 0);
    draw::DrawRect(&s, rect[0], rect[1], rect[2], rect[3], Opaque(kBlack), 1);
    if (typeid(v) == typeid(Vehicle) || typeid(v) == typeid(BicycleVehicle)) {
      const int near = Pix(kTireLength), far = Pix(length - kTireLength);
      const int top = Pix(length / 2 - v.width / 2), bottom = Pix(length / 2 + v.width / 2);
      const std::array<std::array<int, 2>, 4> tires{{{near, top}, {near, bottom}, {far, top},
                                                     {far, bottom}}};
      draw::RgbaImage tire = draw::TransparentImage(Pix(kTireLength), Pix(kTireLength));
      draw::DrawRect(&tire, 0, Pix(kTireLength / 2 - kTireWidth / 2), Pix(kTireLength),
                     Pix(kTireWidth), Opaque(kBlack), 0);
      for (int i = 0; i < 4; ++i) {
        // np.rad2deg(-angle): the rear tires' angle is the int 0
        const double angle = i < 2 ? 0.0 : -v.action_.steering * (180 / kPi);
        const Placed placed = BlitRotate(tire, tires[i][0], tires[i][1], angle);
        draw::BlitOnto(placed.image, &s, placed.x, placed.y);
      }
    }
    const Placed placed = BlitRotate(s, pos[0], pos[1], DrawnAngle(v.heading));
    canvas->Blit(placed.image, placed.x, placed.y);
  }

  // VehicleGraphics.get_color: its own colour (parking's controlled vehicles: green), red
  // when crashed, blue an IDMVehicle, green an MDPVehicle, else yellow.
  static graphics_detail::Rgb Color(const Vehicle& v) {
    using namespace graphics_detail;  // NOLINT
    if (v.drawn_green) return kGreen;
    if (v.crashed) return kRed;
    if (dynamic_cast<const IDMVehicle*>(&v) != nullptr) return kBlue;
    if (dynamic_cast<const MDPVehicle*>(&v) != nullptr) return kGreen;
    return kYellow;
  }

  ViewerConfig c_;
  Vec2 origin_{0, 0};
};

}  // namespace envpool::highway
