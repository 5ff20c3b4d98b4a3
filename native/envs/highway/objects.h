// highway-env's vehicle/objects.py road objects, restated: Obstacle and Landmark, the
// RoadObjects that stand on the road (Road.objects) without moving. A Vehicle is a RoadObject
// in the package too; here it is its own class (vehicle.h), and the collisions between a
// vehicle and an object (Road.step: each vehicle's handle_collisions with each object) are
// Vehicle::HandleCollisions(RoadObject&) there.
//
//   - RoadObject.__init__: the position as float64, the closest lane (with heading) fixed as
//     the object's lane, collidable, solid and check_collisions true, diagonal =
//     sqrt(LENGTH ** 2 + WIDTH ** 2) with the class's LENGTH = WIDTH = 2 (a task may set
//     other dimensions on the instance and its diagonal anew, as the parking walls do);
//   - Obstacle: solid; a vehicle that will hit one takes the whole translation as its
//     impact (the obstacle does not move: the package never steps road.objects);
//   - Landmark: not solid (a goal): a vehicle crossing it marks it hit, nothing crashes.
#pragma once

#include <array>
#include <cmath>

#include "envs/highway/lane.h"
#include "envs/highway/road_network.h"
#include "envs/highway/utils.h"

namespace envpool::highway {

class RoadObject {
 public:
  enum class Kind { kObstacle, kLandmark };

  static constexpr double kLength = 2.0;  // RoadObject.LENGTH
  static constexpr double kWidth = 2.0;   // RoadObject.WIDTH

  RoadObject(Kind kind_, const RoadNetwork& network, Vec2 position_, double heading_ = 0.0,
             double speed_ = 0.0)
      : kind(kind_),
        position(position_),
        heading(heading_),
        speed(speed_),
        solid(kind_ == Kind::kObstacle),
        diagonal(std::sqrt(kLength * kLength + kWidth * kWidth)) {
    lane_index = network.GetClosestLaneIndex(position, heading);
    lane = &network.GetLane(lane_index);
  }

  // obstacle.LENGTH, obstacle.WIDTH = (length, width); obstacle.diagonal = np.sqrt(L**2 + W**2).
  void SetSize(double length_, double width_) {
    length = length_;
    width = width_;
    diagonal = std::sqrt(length * length + width * width);
  }

  bool IsObstacle() const { return kind == Kind::kObstacle; }

  // direction, velocity (speed * direction).
  Vec2 Direction() const { return {std::cos(heading), std::sin(heading)}; }
  Vec2 Velocity() const {
    const Vec2 d = Direction();
    return {speed * d[0], speed * d[1]};
  }

  // polygon(): rotation [[c, -s], [s, c]] @ the corners [(-L/2, -W/2), (-L/2, W/2),
  // (L/2, W/2), (L/2, -W/2)], plus the position; the first corner again at the end. (One of
  // the two products of each sum is by W / 2 = 0.5 or 1, exact, so numpy's fused and plain
  // 2-term sums agree.)
  std::array<Vec2, 5> Polygon() const {
    const double hl = length / 2, hw = width / 2;
    const double px[4] = {-hl, -hl, +hl, +hl};
    const double py[4] = {-hw, +hw, +hw, -hw};
    const double c = std::cos(heading), s = std::sin(heading);
    std::array<Vec2, 5> out{};
    for (int j = 0; j < 4; ++j) {
      out[j] = {c * px[j] + (-s) * py[j] + position[0], s * px[j] + c * py[j] + position[1]};
    }
    out[4] = out[0];
    return out;
  }

  Kind kind;
  Vec2 position;
  double heading;
  double speed;
  double length = kLength;
  double width = kWidth;
  bool collidable = true;
  bool solid;
  bool check_collisions = true;
  bool crashed = false;
  bool hit = false;
  double diagonal;
  LaneIndex lane_index;
  const Lane* lane = nullptr;  // the network's, fixed at creation (self.lane)
};

}  // namespace envpool::highway
