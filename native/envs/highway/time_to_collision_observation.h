// highway-env's envs/common/observation.py TimeToCollisionObservation and
// envs/common/finite_mdp.py compute_ttc_grid, restated.
//
// compute_ttc_grid(env, time_quantization = 1 / policy_frequency, horizon, vehicle): a grid
// SPEED x LANES x TIME (target_speeds x the lanes of the observer's road x
// int(horizon / time_quantization)) of zeros; for each target speed, each other vehicle of
// the road (not the objects) whose speed differs from it, and each of three collision points
// (0 with cost 1, -+(LENGTH / 2 + LENGTH / 2) with cost 0.5): distance = lane_distance_to +
// the point's offset, time_to_collision = distance / not_zero(target speed - the other's
// speed projected on the observer's direction (np.dot)); a non-negative one on a road
// connected to the observer's (is_connected_road along its route, depth 3) marks, at
// int(ttc / q) and int(ceil(ttc / q)) within the horizon, the other's lane (or every lane
// where its road has another number of lanes) with the greater of the cost and the mark.
//
// observe(): the grid padded with ones on both sides of the lanes axis, its first and last
// speed rows repeated (1 + speeds) times, then the 3 lanes around the observer's lane id and
// the 3 speeds around its speed_index: a 3 x 3 x TIME float32 array in [0, 1]. The observer
// is an MDPVehicle (target_speeds, speed_index), as the package needs.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

#include "envs/highway/observation.h"
#include "envs/highway/vehicle.h"

namespace envpool::highway {

class TimeToCollisionObservation : public ArrayObservation {
 public:
  // int(horizon / (1 / policy_frequency)): the grid's time cells.
  static int TimeCells(int horizon, int policy_frequency) {
    return static_cast<int>(horizon / (1.0 / policy_frequency));
  }

  TimeToCollisionObservation(int horizon, int policy_frequency)
      : quantization_(1.0 / policy_frequency), cells_(TimeCells(horizon, policy_frequency)) {}

  std::size_t Size() const override { return static_cast<std::size_t>(9 * cells_); }

  void ObserveInto(const Road& road, const Vehicle& observer, NumpyGenerator& /*np_random*/,
                   float* out) override {
    const auto& ego = static_cast<const MDPVehicle&>(observer);
    const RoadNetwork& net = road.network;
    const int speeds = static_cast<int>(ego.target_speeds.size());
    const int lanes = net.LaneCount(ego.lane_index.from, ego.lane_index.to);
    const int cells = cells_;
    std::vector<double> grid(static_cast<std::size_t>(speeds * lanes * cells), 0.0);
    auto at = [&](int s, int l, int t) -> double& {
      return grid[static_cast<std::size_t>((s * lanes + l) * cells + t)];
    };
    const Vec2 ego_dir = ego.Direction();
    for (int s = 0; s < speeds; ++s) {
      const double ego_speed = ego.target_speeds[static_cast<std::size_t>(s)];
      for (const auto& op : road.vehicles) {
        const Vehicle& other = *op;
        if (&other == &observer || ego_speed == other.speed) continue;
        const double margin = other.length / 2 + ego.length / 2;
        const double points[3][2] = {{0, 1}, {-margin, 0.5}, {margin, 0.5}};
        for (const auto& point : points) {
          const double distance = ego.LaneDistanceTo(other) + point[0];
          const Vec2 other_dir = other.Direction();
          const double other_projected_speed =
              other.speed * road.blas.Dot(other_dir.data(), ego_dir.data(), 2);
          const double ttc = distance / NotZero(ego_speed - other_projected_speed);
          if (ttc < 0) continue;
          if (!net.IsConnectedRoad(ego.lane_index, other.lane_index, ego.route, 0, false, 3)) {
            continue;
          }
          const int other_lanes = net.LaneCount(other.lane_index.from, other.lane_index.to);
          const double q = ttc / quantization_;
          for (const double time : {std::trunc(q), std::ceil(q)}) {  // int(), int(np.ceil())
            if (!(0 <= time && time < cells)) continue;
            const int t = static_cast<int>(time);
            auto mark = [&](int l) { at(s, l, t) = PyMax(at(s, l, t), point[1]); };
            if (other_lanes == lanes) {
              mark(other.lane_index.id);
            } else {
              for (int l = 0; l < lanes; ++l) mark(l);
            }
          }
        }
      }
    }
    // The padded grid's rows: speed row r is grid row clamp(r - speeds, 0, speeds - 1), lane
    // column c is grid lane c - lanes within [0, lanes), else a padding one.
    for (int i = 0; i < 3; ++i) {
      const int r = speeds + ego.speed_index - 1 + i;
      const int s = r - speeds < 0 ? 0 : (r - speeds > speeds - 1 ? speeds - 1 : r - speeds);
      for (int j = 0; j < 3; ++j) {
        const int c = lanes + ego.lane_index.id - 1 + j;
        const int l = c - lanes;
        for (int t = 0; t < cells; ++t) {
          const double v = (l < 0 || l >= lanes) ? 1.0 : at(s, l, t);
          out[(i * 3 + j) * cells + t] = static_cast<float>(v);
        }
      }
    }
  }

 private:
  double quantization_;
  int cells_;
};

}  // namespace envpool::highway
