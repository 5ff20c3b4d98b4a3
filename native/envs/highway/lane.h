// highway-env's road/lane.py, restated: a lane is its central curve, in three kinds
// (StraightLane, SineLane, CircularLane), with the package's AbstractLane rules on top
// (on_lane, is_reachable_from, after_end, distance, distance_with_heading, local_angle).
//
// The package computes np.dot(delta, direction) and np.linalg.norm(delta) with numpy's BLAS
// (ddot of two numbers): the lane sums them in the order the running numpy does
// (envs/common/numpy_blas.h, the hidden keyword _numpy_dot_fma).
#pragma once

#include <cmath>

#include "envs/common/numpy_blas.h"
#include "envs/highway/utils.h"

namespace envpool::highway {

// LineType's values: the lines on a lane's sides (drawn only; kept for the road's picture).
enum class LineType : int { kNone = 0, kStriped = 1, kContinuous = 2, kContinuousLine = 3 };

class Lane {
 public:
  enum class Kind { kStraight, kSine, kCircular };

  static constexpr double kDefaultWidth = 4.0;  // AbstractLane.DEFAULT_WIDTH
  static constexpr double kVehicleLength = 5.0;  // AbstractLane.VEHICLE_LENGTH

  // StraightLane(start, end, width, line_types, forbidden, speed_limit, priority):
  // heading = arctan2(dy, dx), length = norm(end - start), direction = (end - start) / length,
  // direction_lateral = [-direction[1], direction[0]].
  static Lane Straight(Vec2 start, Vec2 end, NumpyBlas blas, double width = kDefaultWidth,
                       LineType left = LineType::kStriped, LineType right = LineType::kStriped,
                       bool forbidden = false, double speed_limit = 20.0, int priority = 0) {
    Lane l;
    l.kind_ = Kind::kStraight;
    l.blas_ = blas;
    l.start_ = start;
    l.end_ = end;
    l.width_ = width;
    l.line_types_[0] = left;
    l.line_types_[1] = right;
    l.forbidden_ = forbidden;
    l.speed_limit_ = speed_limit;
    l.priority_ = priority;
    l.heading_ = std::atan2(end[1] - start[1], end[0] - start[0]);
    l.length_ = blas.Norm2(end[0] - start[0], end[1] - start[1]);
    l.direction_ = {(end[0] - start[0]) / l.length_, (end[1] - start[1]) / l.length_};
    l.direction_lateral_ = {-l.direction_[1], l.direction_[0]};
    return l;
  }

  // SineLane(start, end, amplitude, pulsation, phase, ...): a StraightLane whose centre is
  // moved sideways by amplitude * sin(pulsation * longitudinal + phase).
  static Lane Sine(Vec2 start, Vec2 end, double amplitude, double pulsation, double phase,
                   NumpyBlas blas, double width = kDefaultWidth,
                   LineType left = LineType::kStriped, LineType right = LineType::kStriped,
                   bool forbidden = false, double speed_limit = 20.0, int priority = 0) {
    Lane l = Straight(start, end, blas, width, left, right, forbidden, speed_limit, priority);
    l.kind_ = Kind::kSine;
    l.amplitude_ = amplitude;
    l.pulsation_ = pulsation;
    l.phase_ = phase;
    return l;
  }

  // CircularLane(center, radius, start_phase, end_phase, clockwise, ...): direction is 1
  // clockwise, else -1; length = radius * (end_phase - start_phase) * direction.
  static Lane Circular(Vec2 center, double radius, double start_phase, double end_phase,
                       bool clockwise, NumpyBlas blas, double width = kDefaultWidth,
                       LineType left = LineType::kStriped, LineType right = LineType::kStriped,
                       bool forbidden = false, double speed_limit = 20.0, int priority = 0) {
    Lane l;
    l.kind_ = Kind::kCircular;
    l.blas_ = blas;
    l.center_ = center;
    l.radius_ = radius;
    l.start_phase_ = start_phase;
    l.end_phase_ = end_phase;
    l.clockwise_ = clockwise;
    l.circ_direction_ = clockwise ? 1 : -1;
    l.width_ = width;
    l.line_types_[0] = left;
    l.line_types_[1] = right;
    l.forbidden_ = forbidden;
    l.length_ = radius * (end_phase - start_phase) * l.circ_direction_;
    l.priority_ = priority;
    l.speed_limit_ = speed_limit;
    return l;
  }

  Kind kind() const { return kind_; }
  // The lane's place in its road network's order of addition (RoadNetwork::AddLane), -1 for
  // a lane of no network: what a vehicle keys its remembered local coordinates by.
  int serial() const { return serial_; }
  void set_serial(int serial) { serial_ = serial; }
  double length() const { return length_; }
  double speed_limit() const { return speed_limit_; }
  void set_speed_limit(double v) { speed_limit_ = v; }  // a task's lane.speed_limit = ...
  bool forbidden() const { return forbidden_; }
  int priority() const { return priority_; }
  LineType line_type(int side) const { return line_types_[side]; }
  // The constructor's arguments (straight and sine: start, end; sine: amplitude, pulsation,
  // phase; circular: center, radius, start_phase, end_phase, clockwise), as kept; a kind's
  // others are 0 (clockwise: true).
  double width() const { return width_; }
  const Vec2& start() const { return start_; }
  const Vec2& end() const { return end_; }
  double amplitude() const { return amplitude_; }
  double pulsation() const { return pulsation_; }
  double phase() const { return phase_; }
  const Vec2& center() const { return center_; }
  double radius() const { return radius_; }
  double start_phase() const { return start_phase_; }
  double end_phase() const { return end_phase_; }
  bool clockwise() const { return clockwise_; }

  // position(longitudinal, lateral): local lane coordinates to a world position.
  Vec2 Position(double longitudinal, double lateral) const {
    switch (kind_) {
      case Kind::kSine:
        return StraightPosition(longitudinal,
                                lateral + amplitude_ * std::sin(pulsation_ * longitudinal + phase_));
      case Kind::kCircular: {
        // phi = direction * longitudinal / radius + start_phase;
        // center + (radius - lateral * direction) * [cos(phi), sin(phi)]
        const double phi = circ_direction_ * longitudinal / radius_ + start_phase_;
        const double r = radius_ - lateral * circ_direction_;
        return {center_[0] + r * std::cos(phi), center_[1] + r * std::sin(phi)};
      }
      default:
        return StraightPosition(longitudinal, lateral);
    }
  }

  // heading_at(longitudinal).
  double HeadingAt(double longitudinal) const {
    switch (kind_) {
      case Kind::kSine:  // heading + arctan(amplitude * pulsation * cos(pulsation * s + phase))
        return heading_ +
               std::atan(amplitude_ * pulsation_ * std::cos(pulsation_ * longitudinal + phase_));
      case Kind::kCircular: {  // phi + pi / 2 * direction
        const double phi = circ_direction_ * longitudinal / radius_ + start_phase_;
        return phi + kPi / 2 * circ_direction_;
      }
      default:
        return heading_;
    }
  }

  double WidthAt(double /*longitudinal*/) const { return width_; }

  // local_coordinates(position): (longitudinal, lateral).
  Vec2 LocalCoordinates(const Vec2& position) const {
    switch (kind_) {
      case Kind::kSine: {  // the straight lane's, lateral less amplitude * sin(...)
        const Vec2 sl = StraightLocal(position);
        return {sl[0], sl[1] - amplitude_ * std::sin(pulsation_ * sl[0] + phase_)};
      }
      case Kind::kCircular: {
        const double dx = position[0] - center_[0], dy = position[1] - center_[1];
        double phi = std::atan2(dy, dx);
        phi = start_phase_ + WrapToPi(phi - start_phase_);
        const double r = blas_.Norm2(dx, dy);
        return {circ_direction_ * (phi - start_phase_) * radius_,
                circ_direction_ * (radius_ - r)};
      }
      default:
        return StraightLocal(position);
    }
  }

  // on_lane(position, longitudinal, lateral, margin): |lateral| <= width / 2 + margin and
  // -VEHICLE_LENGTH <= longitudinal < length + VEHICLE_LENGTH.
  bool OnLane(double longitudinal, double lateral, double margin = 0.0) const {
    return std::abs(lateral) <= WidthAt(longitudinal) / 2 + margin &&
           -kVehicleLength <= longitudinal && longitudinal < length_ + kVehicleLength;
  }
  bool OnLane(const Vec2& position, double margin = 0.0) const {
    const Vec2 sl = LocalCoordinates(position);
    return OnLane(sl[0], sl[1], margin);
  }

  // is_reachable_from(position): not forbidden, |lateral| <= 2 * width and
  // 0 <= longitudinal < length + VEHICLE_LENGTH. (...Local: of the position's local
  // coordinates on this lane, sl.)
  bool IsReachableFrom(const Vec2& position) const {
    return !forbidden_ && IsReachableLocal(LocalCoordinates(position));
  }
  bool IsReachableLocal(const Vec2& sl) const {
    return !forbidden_ && std::abs(sl[1]) <= 2 * WidthAt(sl[0]) && 0 <= sl[0] &&
           sl[0] < length_ + kVehicleLength;
  }

  // after_end(position): longitudinal > length - VEHICLE_LENGTH / 2.
  bool AfterEnd(const Vec2& position) const { return AfterEndLocal(LocalCoordinates(position)); }
  bool AfterEndLocal(const Vec2& sl) const { return sl[0] > length_ - kVehicleLength / 2; }

  // distance(position): abs(r) + max(s - length, 0) + max(0 - s, 0).
  double Distance(const Vec2& position) const {
    const Vec2 sl = LocalCoordinates(position);
    return std::abs(sl[1]) + PyMax(sl[0] - length_, 0) + PyMax(0 - sl[0], 0);
  }

  // distance_with_heading(position, heading, heading_weight=1.0): distance plus the weighted
  // |local_angle(heading, s)|.
  double DistanceWithHeading(const Vec2& position, double heading,
                             double heading_weight = 1.0) const {
    return DistanceWithHeadingLocal(LocalCoordinates(position), heading, heading_weight);
  }
  double DistanceWithHeadingLocal(const Vec2& sl, double heading,
                                  double heading_weight = 1.0) const {
    const double angle = std::abs(LocalAngle(heading, sl[0]));
    return std::abs(sl[1]) + PyMax(sl[0] - length_, 0) + PyMax(0 - sl[0], 0) +
           heading_weight * angle;
  }

  // local_angle(heading, long_offset): wrap_to_pi(heading - heading_at(long_offset)).
  double LocalAngle(double heading, double long_offset) const {
    return WrapToPi(heading - HeadingAt(long_offset));
  }

 private:
  Vec2 StraightPosition(double longitudinal, double lateral) const {
    // start + longitudinal * direction + lateral * direction_lateral
    return {start_[0] + longitudinal * direction_[0] + lateral * direction_lateral_[0],
            start_[1] + longitudinal * direction_[1] + lateral * direction_lateral_[1]};
  }
  Vec2 StraightLocal(const Vec2& position) const {
    // delta = position - start; (np.dot(delta, direction), np.dot(delta, direction_lateral))
    const double delta[2] = {position[0] - start_[0], position[1] - start_[1]};
    return {blas_.Dot(delta, direction_.data(), 2), blas_.Dot(delta, direction_lateral_.data(), 2)};
  }

  Kind kind_ = Kind::kStraight;
  int serial_ = -1;
  NumpyBlas blas_;
  double width_ = kDefaultWidth;
  LineType line_types_[2] = {LineType::kStriped, LineType::kStriped};
  bool forbidden_ = false;
  double speed_limit_ = 20.0;
  int priority_ = 0;
  double length_ = 0.0;
  // straight and sine
  Vec2 start_{}, end_{}, direction_{}, direction_lateral_{};
  double heading_ = 0.0;
  double amplitude_ = 0.0, pulsation_ = 0.0, phase_ = 0.0;
  // circular
  Vec2 center_{};
  double radius_ = 0.0, start_phase_ = 0.0, end_phase_ = 0.0;
  bool clockwise_ = true;
  int circ_direction_ = 1;
};

}  // namespace envpool::highway
