// highway-env's envs/common/observation.py LidarObservation, restated: `cells` angular
// sectors of 2 pi / cells around the observer, sector k centred on the angle k * 2 pi / cells
// (0: along the x axis), each holding the distance to the nearest solid road object
// (vehicles, then obstacles; the observer and landmarks aside) and that object's velocity
// relative to the observer, projected on the sector's direction. trace():
//   - the grid starts at maximum_range in both columns (float32, as the package's array);
//   - an object whose centre is farther than maximum_range (np.linalg.norm) is skipped;
//   - the sector of its centre (arctan2 of the centre, + half a sector, floor-divided by
//     the sector, modulo cells) takes (centre distance - WIDTH / 2, relative velocity) if
//     that distance is at most the sector's;
//   - the sectors between its corners' smallest and largest angles (rect_corners; wrapped
//     around +pi where the corners straddle it; the whole circle where both fall in one
//     sector) take (distance along the sector's ray to the rectangle, relative velocity)
//     where the ray (origin to origin + maximum_range * direction) meets it
//     (utils.distance_to_rect) at most as far as the sector's distance;
// each (distance, velocity) pair is rounded to float32 when stored, and compared as such.
// observe() divides the grid by maximum_range in float32 where normalize.
//
// np.dot, `@` of two 2-vectors and np.linalg.norm follow the running numpy's ddot, the
// corners its dgemm (envs/common/numpy_blas.h); arctan2, cos and sin are the C library's.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "envs/common/numpy_blas.h"
#include "envs/highway/observation.h"
#include "envs/highway/utils.h"
#include "envs/highway/vehicle.h"

namespace envpool::highway {

struct LidarConfig {
  int cells = 16;
  double maximum_range = 60.0;
  bool normalize = true;
  NumpyBlas blas;
};

class LidarObservation : public ArrayObservation {
 public:
  static constexpr int kDistance = 0, kSpeed = 1;

  explicit LidarObservation(const LidarConfig& config)
      : config_(config), angle_(2 * kPi / config.cells) {}

  std::size_t Size() const override { return 2 * static_cast<std::size_t>(config_.cells); }

  // The last trace's grid (cells x (distance, velocity), float32, not normalised) and its
  // origin: what the package's ObservationGraphics draws.
  const std::vector<float>& grid() const { return grid_; }
  const Vec2& origin() const { return origin_; }
  double angle() const { return angle_; }
  const LidarConfig& config() const { return config_; }

  void ObserveInto(const Road& road, const Vehicle& observer, NumpyGenerator& /*np_random*/,
                   float* out) override {
    Trace(road, observer);
    const float range = static_cast<float>(config_.maximum_range);
    for (std::size_t k = 0; k < grid_.size(); ++k) {
      out[k] = config_.normalize ? grid_[k] / range : grid_[k];  // obs /= maximum_range
    }
  }

 private:
  // trace(origin, origin_velocity) over road.vehicles + road.objects.
  void Trace(const Road& road, const Vehicle& observer) {
    origin_ = observer.position;
    const Vec2 origin_velocity = observer.Velocity();
    // np.ones((cells, 2), dtype=np.float32) * maximum_range
    grid_.assign(Size(), 1.0F * static_cast<float>(config_.maximum_range));
    for (const auto* list : {&road.vehicles, &road.objects}) {
      for (const auto& object : *list) {
        if (object.get() == &observer || !object->solid) continue;
        TraceObject(*object, origin_velocity);
      }
    }
  }

  void TraceObject(const Vehicle& obstacle, const Vec2& origin_velocity) {
    const NumpyBlas& blas = config_.blas;
    const Vec2 origin = origin_;
    const double center_distance =
        blas.Norm2(obstacle.position[0] - origin[0], obstacle.position[1] - origin[1]);
    if (center_distance > config_.maximum_range) return;
    const Vec2 velocity = obstacle.Velocity();
    const double relative[2] = {velocity[0] - origin_velocity[0],
                                velocity[1] - origin_velocity[1]};
    const int center_index = AngleToIndex(PositionToAngle(obstacle.position));
    const double distance = center_distance - obstacle.width / 2;
    Update(center_index, distance, relative);

    // the angular sector covered by the obstacle
    const std::array<Vec2, 4> corners = detail::RectCorners(
        obstacle.position, obstacle.length, obstacle.width, obstacle.heading, blas);
    double min_angle = 0.0, max_angle = 0.0;
    for (std::size_t k = 0; k < 4; ++k) {  // Python's min() and max() of the 4 angles
      const double a = PositionToAngle(corners[k]);
      min_angle = k == 0 ? a : PyMin(min_angle, a);
      max_angle = k == 0 ? a : PyMax(max_angle, a);
    }
    if (min_angle < -kPi / 2 && kPi / 2 < max_angle) {  // the corners wrap around +pi
      const double low = max_angle;
      max_angle = min_angle + 2 * kPi;
      min_angle = low;
    }
    const int start = AngleToIndex(min_angle), end = AngleToIndex(max_angle);
    // np.arange(start, end + 1), or, wrapping around 0 (start >= end: the whole circle
    // where they are equal), np.hstack([np.arange(start, cells), np.arange(0, end + 1)])
    const int first_stop = start < end ? end + 1 : config_.cells;
    for (int index = start; index < first_stop; ++index) Ray(index, corners, relative);
    if (start >= end) {
      for (int index = 0; index <= end; ++index) Ray(index, corners, relative);
    }
  }

  // The actual distance along sector `index`'s ray.
  void Ray(int index, const std::array<Vec2, 4>& corners, const double relative[2]) {
    const Vec2 direction = IndexToDirection(index);
    const Vec2 q = {origin_[0] + config_.maximum_range * direction[0],
                    origin_[1] + config_.maximum_range * direction[1]};
    Update(index, DistanceToRect(origin_, q, corners), relative);
  }

  // if distance <= grid[index, DISTANCE]: grid[index, :] = [distance, velocity], velocity
  // (obstacle.velocity - origin_velocity).dot(direction).
  void Update(int index, double distance, const double relative[2]) {
    float* cell = grid_.data() + 2 * static_cast<std::size_t>(index);
    if (!(distance <= static_cast<double>(cell[kDistance]))) return;
    const Vec2 direction = IndexToDirection(index);
    const double velocity = config_.blas.Dot(relative, direction.data(), 2);
    cell[kDistance] = static_cast<float>(distance);
    cell[kSpeed] = static_cast<float>(velocity);
  }

  // position_to_angle: arctan2 of the position from the origin, plus half a sector.
  double PositionToAngle(const Vec2& position) const {
    return std::atan2(position[1] - origin_[1], position[0] - origin_[0]) + angle_ / 2;
  }
  // angle_to_index: int(np.floor(angle / self.angle)) % cells (Python's modulo).
  int AngleToIndex(double angle) const {
    const auto k = static_cast<std::int64_t>(std::floor(angle / angle_));
    const std::int64_t m = k % config_.cells;
    return static_cast<int>(m < 0 ? m + config_.cells : m);
  }
  // index_to_direction: [cos(index * angle), sin(index * angle)].
  Vec2 IndexToDirection(int index) const {
    const double a = index * angle_;
    return {std::cos(a), std::sin(a)};
  }

  // utils.distance_to_rect([r, q], [a, b, c, d]): the distance from r to where the segment
  // r q enters the rectangle, inf where it does not meet it.
  double DistanceToRect(const Vec2& r, const Vec2& q, const std::array<Vec2, 4>& rect) const {
    const NumpyBlas& blas = config_.blas;
    const Vec2& a = rect[0];
    const Vec2& b = rect[1];
    const Vec2& d = rect[3];
    double u[2] = {b[0] - a[0], b[1] - a[1]};
    double v[2] = {d[0] - a[0], d[1] - a[1]};
    const double nu = blas.Norm(u, 2), nv = blas.Norm(v, 2);
    u[0] /= nu;
    u[1] /= nu;
    v[0] /= nv;
    v[1] /= nv;
    const double qr[2] = {q[0] - r[0], q[1] - r[1]};
    const double ar[2] = {a[0] - r[0], a[1] - r[1]};
    const double br[2] = {b[0] - r[0], b[1] - r[1]};
    const double dr[2] = {d[0] - r[0], d[1] - r[1]};
    const double rqu = blas.Dot(qr, u, 2), rqv = blas.Dot(qr, v, 2);
    // divisions by 0 give inf or NaN, as numpy's under np.errstate(divide="ignore")
    double i1[2] = {blas.Dot(ar, u, 2) / rqu, blas.Dot(br, u, 2) / rqu};
    double i2[2] = {blas.Dot(ar, v, 2) / rqv, blas.Dot(dr, v, 2) / rqv};
    if (!(rqu >= 0)) std::swap(i1[0], i1[1]);
    if (!(rqv >= 0)) std::swap(i2[0], i2[1]);
    if (IntervalDistance(i1[0], i1[1], i2[0], i2[1]) <= 0 &&
        IntervalDistance(0, 1, i1[0], i1[1]) <= 0 && IntervalDistance(0, 1, i2[0], i2[1]) <= 0) {
      return PyMax(i1[0], i2[0]) * blas.Norm(qr, 2);
    }
    return std::numeric_limits<double>::infinity();
  }
  // utils.interval_distance: negative where [min_a, max_a] and [min_b, max_b] overlap.
  static double IntervalDistance(double min_a, double max_a, double min_b, double max_b) {
    return min_a < min_b ? min_b - max_a : min_a - max_b;
  }

  LidarConfig config_;
  double angle_;
  std::vector<float> grid_;
  Vec2 origin_{};
};

}  // namespace envpool::highway
