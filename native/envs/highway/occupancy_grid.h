// highway-env's envs/common/observation.py OccupancyGridObservation (relative coordinates;
// the package's absolute grid is NotImplementedError), restated: a (features, W, H) grid
// around the observer, W = floor((grid_size[0][1] - grid_size[0][0]) / grid_step[0]) and H
// likewise, filled with NaN; then
//   - each vehicle feature (a Vehicle.to_dict key): every vehicle of the road, in reverse
//     list order (the observer last), writes its value into the cell of its position
//     relative to the observer (to_dict(observer): x, y, vx, vy less the observer's),
//     after the features' normalisation (lmap of vx and vy from [-2, 2] x MAX_SPEED, or
//     features_range's, onto [-1, 1]);
//   - "on_road" (fill_road_layer_by_lanes): for each lane in the graph's order, waypoints
//     np.arange(s - 100, s + 100, min(grid_step)).clip(0, length), s the observer's
//     longitudinal coordinate on it, each lane.position(waypoint, 0)'s cell set to 1;
// a cell of a position p: with align_to_vehicle_axes, p rotated by [[c, s], [-s, c]] (the
// observer's heading), then floor((p[i] - grid_size[i][0]) / grid_step[i]); outside the grid
// nothing is written. Then np.clip to [-1, 1] (if clip), NaN to 0, float32.
//
// The rotation is numpy's 2 x 2 matrix @ 2-vector (matmul), rounded as the running numpy
// rounds it (utils.h MatVec2Row, the hidden keyword _numpy_matvec2).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/highway/observation.h"
#include "envs/highway/vehicle.h"

namespace envpool::highway {

struct OccupancyGridConfig {
  std::vector<std::string> features;  // to_dict keys or "on_road"
  double size[2][2] = {{-27.5, 27.5}, {-27.5, 27.5}};
  double step[2] = {5, 5};
  // features_range: vx and vy ([-2, 2] x MAX_SPEED by default)
  double vx_range[2] = {-2 * Vehicle::kMaxSpeed, 2 * Vehicle::kMaxSpeed};
  double vy_range[2] = {-2 * Vehicle::kMaxSpeed, 2 * Vehicle::kMaxSpeed};
  bool align_to_vehicle_axes = false;
  bool clip = true;
  MatVec2Order matvec2 = MatVec2Order::kFusedReversed;

  // The grid's shape: np.floor((size[:, 1] - size[:, 0]) / step) as intp.
  int Width() const { return static_cast<int>(std::floor((size[0][1] - size[0][0]) / step[0])); }
  int Height() const { return static_cast<int>(std::floor((size[1][1] - size[1][0]) / step[1])); }
};

class OccupancyGridObservation : public ArrayObservation {
 public:
  // The vehicle features the grid knows (Vehicle.to_dict's keys; heading-like ones as the
  // Kinematics observation computes them).
  static bool IsVehicleFeature(const std::string& f) {
    for (const char* k : {"presence", "x", "y", "vx", "vy", "heading", "cos_h", "sin_h",
                          "cos_d", "sin_d", "long_off", "lat_off", "ang_off"}) {
      if (f == k) return true;
    }
    return false;
  }

  explicit OccupancyGridObservation(const OccupancyGridConfig& config) : config_(config) {
    for (const std::string& f : config_.features) {
      if (f != "on_road" && !IsVehicleFeature(f)) {
        throw std::invalid_argument("highway: unknown OccupancyGrid feature '" + f + "'");
      }
    }
    if (config_.Width() <= 0 || config_.Height() <= 0) {
      throw std::invalid_argument("highway: the occupancy grid has no cell (grid_size, "
                                  "grid_step)");
    }
  }

  int Layers() const { return static_cast<int>(config_.features.size()); }
  int Width() const { return config_.Width(); }
  int Height() const { return config_.Height(); }

  std::size_t Size() const override {
    return static_cast<std::size_t>(Layers()) * static_cast<std::size_t>(Width()) *
           static_cast<std::size_t>(Height());
  }

  // observe(): Layers() x Width() x Height() float32s.
  void ObserveInto(const Road& road, const Vehicle& observer, NumpyGenerator& /*np_random*/,
                   float* out) override {
    const int w = Width(), h = Height();
    const std::size_t cells = static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
    std::vector<double> grid(cells * static_cast<std::size_t>(Layers()),
                             std::numeric_limits<double>::quiet_NaN());
    const double c = std::cos(observer.heading), s = std::sin(observer.heading);
    for (int layer = 0; layer < Layers(); ++layer) {
      const std::string& feature = config_.features[static_cast<std::size_t>(layer)];
      double* g = grid.data() + static_cast<std::size_t>(layer) * cells;
      if (feature == "on_road") {
        FillRoadLayer(road, observer, c, s, g);
        continue;
      }
      for (auto it = road.vehicles.rbegin(); it != road.vehicles.rend(); ++it) {
        const Vehicle& v = **it;
        int i, j;
        CellOf(v.position[0] - observer.position[0], v.position[1] - observer.position[1], c,
               s, &i, &j);
        if (0 <= i && i < w && 0 <= j && j < h) {
          g[static_cast<std::size_t>(i) * static_cast<std::size_t>(h) +
            static_cast<std::size_t>(j)] = Value(v, observer, feature);
        }
      }
    }
    for (std::size_t k = 0; k < grid.size(); ++k) {
      double v = grid[k];
      if (config_.clip) v = Clip(v, -1, 1);
      if (std::isnan(v)) v = 0.0;  // np.nan_to_num
      out[k] = static_cast<float>(v);
    }
  }

 private:
  // Vehicle.to_dict(origin=observer)[feature], normalised (df[feature] = lmap(...)).
  double Value(const Vehicle& v, const Vehicle& observer, const std::string& f) const {
    const Vec2 vel = v.Velocity(), ovel = observer.Velocity(), dir = v.Direction();
    if (f == "presence") return 1;
    if (f == "x") return v.position[0] - observer.position[0];
    if (f == "y") return v.position[1] - observer.position[1];
    if (f == "vx") return Lmap(vel[0] - ovel[0], config_.vx_range[0], config_.vx_range[1], -1, 1);
    if (f == "vy") return Lmap(vel[1] - ovel[1], config_.vy_range[0], config_.vy_range[1], -1, 1);
    if (f == "heading") return v.heading;
    if (f == "cos_h") return dir[0];
    if (f == "sin_h") return dir[1];
    if (f == "cos_d" || f == "sin_d") return 0.0;  // no route: the destination is the position
    const Vec2 sl = v.lane().LocalCoordinates(v.position);
    if (f == "long_off") return sl[0];
    if (f == "lat_off") return sl[1];
    return v.lane().LocalAngle(v.heading, sl[0]);  // ang_off
  }

  // M @ p, M = [[c, s], [-s, c]], as the running numpy's matmul rounds it.
  Vec2 Rotate(double c, double s, double x, double y) const {
    return {MatVec2Row(config_.matvec2, c, s, x, y), MatVec2Row(config_.matvec2, -s, c, x, y)};
  }

  // pos_to_index(position, relative=True).
  void CellOf(double x, double y, double c, double s, int* i, int* j) const {
    if (config_.align_to_vehicle_axes) {
      const Vec2 p = Rotate(c, s, x, y);
      x = p[0];
      y = p[1];
    }
    *i = FloorToInt((x - config_.size[0][0]) / config_.step[0]);
    *j = FloorToInt((y - config_.size[1][0]) / config_.step[1]);
  }
  static int FloorToInt(double v) {
    const double f = std::floor(v);
    if (!(f > -2e9 && f < 2e9)) return f > 0 ? 2000000000 : -2000000000;  // off the grid
    return static_cast<int>(f);
  }

  // fill_road_layer_by_lanes(layer, lane_perception_distance=100).
  void FillRoadLayer(const Road& road, const Vehicle& observer, double c, double s,
                     double* g) const {
    const double spacing = config_.step[0] < config_.step[1] ? config_.step[0] : config_.step[1];
    const int w = Width(), h = Height();
    for (const auto& [from, roads] : road.network.graph()) {
      for (const auto& [to, lanes] : roads) {
        for (const Lane& lane : lanes) {
          const double origin = lane.LocalCoordinates(observer.position)[0];
          const double start = origin - 100, stop = origin + 100;
          // np.arange(start, stop, spacing): ceil((stop - start) / spacing) values, the
          // first start, the second start + spacing, the i-th start + i * (second - first)
          const double len = std::ceil((stop - start) / spacing);
          const std::int64_t n = len > 0 ? static_cast<std::int64_t>(len) : 0;
          const double second = start + spacing;
          const double delta = second - start;
          for (std::int64_t k = 0; k < n; ++k) {
            double wp = k == 0 ? start : (k == 1 ? second : start + static_cast<double>(k) * delta);
            wp = Clip(wp, 0, lane.length());
            const Vec2 p = lane.Position(wp, 0);
            int i, j;
            CellOf(p[0] - observer.position[0], p[1] - observer.position[1], c, s, &i, &j);
            if (0 <= i && i < w && 0 <= j && j < h) {
              g[static_cast<std::size_t>(i) * static_cast<std::size_t>(h) +
                static_cast<std::size_t>(j)] = 1;
            }
          }
        }
      }
    }
  }

  OccupancyGridConfig config_;
};

}  // namespace envpool::highway
