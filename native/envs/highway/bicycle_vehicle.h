// highway-env's vehicle/dynamics.py BicycleVehicle, restated: a dynamical bicycle model
// with tire friction and slipping (Rajamani, Vehicle Dynamics and Control, ch. 2), the
// vehicle class of a ContinuousAction with dynamical=True. Its state is [x, y, heading,
// speed, lateral_speed, yaw_rate], integrated by rk4 (one fourth-order Runge-Kutta step of
// derivative_func per frame):
//   theta_vf = arctan2(v + LENGTH_A r, speed), theta_vr = arctan2(v - LENGTH_B r, speed),
//   f_yf = 2 FRICTION_FRONT (steering - theta_vf), f_yr = 2 FRICTION_REAR (0 - theta_vr)
//   (below 1 m/s: -MASS v -+ INERTIA_Z / LENGTH_A r, damping), dv = (f_yf + f_yr) / MASS -
//   r speed, dr = (LENGTH_A f_yf - LENGTH_B f_yr) / INERTIA_Z, and the position's derivative
//   R(heading) @ [speed, v] (numpy's 2 x 2 matmul, rounded as the running numpy rounds it).
// clip_actions adds to Vehicle's: the steering clipped to [-pi/2, pi/2], the yaw rate to
// [-MAX_ANGULAR_SPEED, MAX_ANGULAR_SPEED]. (The linearised LPV dynamics, which only the
// package's interval observer reads, are not restated.)
#pragma once

#include <array>
#include <cmath>
#include <utility>
#include <vector>

#include "envs/highway/utils.h"
#include "envs/highway/vehicle.h"

namespace envpool::highway {

class BicycleVehicle : public Vehicle {
 public:
  static constexpr double kMass = 1;
  static constexpr double kLengthA = Vehicle::kLength / 2;
  static constexpr double kLengthB = Vehicle::kLength / 2;
  // 1 / 12 * MASS * (LENGTH ** 2 + WIDTH ** 2)
  static constexpr double kInertiaZ =
      1.0 / 12 * kMass * (Vehicle::kLength * Vehicle::kLength + Vehicle::kWidth * Vehicle::kWidth);
  static constexpr double kFrictionFront = 15.0 * kMass;
  static constexpr double kFrictionRear = 15.0 * kMass;
  static constexpr double kMaxAngularSpeed = 2 * kPi;

  using State = std::array<double, 6>;

  BicycleVehicle(Road* road, Vec2 position, double heading, double speed,
                 MatVec2Order matvec2)
      : Vehicle(road, position, heading, speed), matvec2_(matvec2) {}

  State state() const { return {position[0], position[1], heading, speed, lateral_speed, yaw_rate}; }
  // derivative: derivative_func of the current state.
  State Derivative() const { return DerivativeFunc(state(), action_); }

  // step(dt): clip_actions, one rk4 step, on_state_update. (No pending impact is applied:
  // BicycleVehicle.step replaces Vehicle.step, which applies it.)
  void Step(double dt) override {
    ClipActions();
    action_.steering = Clip(action_.steering, -kPi / 2, kPi / 2);
    yaw_rate = Clip(yaw_rate, -kMaxAngularSpeed, kMaxAngularSpeed);
    const State next = Rk4(state(), action_, dt);
    position = {next[0], next[1]};
    heading = next[2];
    speed = next[3];
    lateral_speed = next[4];
    yaw_rate = next[5];
    OnStateUpdate();
  }

  // predict_trajectory_constant_speed(times), Vehicle's with prediction_type
  // "constant_steering" (the regulated intersection's conflict test reads it): a deep copy
  // acting {acceleration 0, its current steering}, stepped by this class's step over the
  // times' differences (clip_actions: braking where crashed, the speed limits, the steering
  // and yaw-rate clips; then rk4); its positions and headings. (The copy's lane, which
  // on_state_update sets, is read by nothing.)
  std::vector<std::pair<Vec2, double>> PredictTrajectoryConstantSpeed(
      const std::vector<double>& times) const override {
    State s = state();
    VehicleAction a{action_.steering, 0.0};
    std::vector<std::pair<Vec2, double>> out;
    out.reserve(times.size());
    double previous = 0.0;
    for (const double t : times) {
      const double dt = t - previous;  // np.diff(np.concatenate(([0.0], times)))
      previous = t;
      ClipAction(a, s[3], crashed);
      a.steering = Clip(a.steering, -kPi / 2, kPi / 2);
      s[5] = Clip(s[5], -kMaxAngularSpeed, kMaxAngularSpeed);
      s = Rk4(s, a, dt);
      out.emplace_back(Vec2{s[0], s[1]}, s[2]);
    }
    return out;
  }

  double lateral_speed = 0;
  double yaw_rate = 0;

 private:
  static State Add(const State& s, const State& f, double h) {
    State out;
    for (std::size_t i = 0; i < 6; ++i) out[i] = s[i] + f[i] * h;
    return out;
  }

  // rk4: f1 = f(s); f2 = f(s + f1 * (dt / 2)); f3 = f(s + f2 * (dt / 2)); f4 = f(s + f3 * dt);
  // s + (dt / 6) * (f1 + 2 f2 + 2 f3 + f4)
  State Rk4(const State& s, const VehicleAction& a, double dt) const {
    const State f1 = DerivativeFunc(s, a);
    const State f2 = DerivativeFunc(Add(s, f1, dt / 2), a);
    const State f3 = DerivativeFunc(Add(s, f2, dt / 2), a);
    const State f4 = DerivativeFunc(Add(s, f3, dt), a);
    State next;
    for (std::size_t i = 0; i < 6; ++i) {
      next[i] = s[i] + (dt / 6) * (((f1[i] + 2 * f2[i]) + 2 * f3[i]) + f4[i]);
    }
    return next;
  }

  State DerivativeFunc(const State& s, const VehicleAction& a) const {
    const double heading_ = s[2], speed_ = s[3], lateral = s[4], yaw = s[5];
    const double delta_f = a.steering;
    const double delta_r = 0;
    const double theta_vf = std::atan2(lateral + kLengthA * yaw, speed_);
    const double theta_vr = std::atan2(lateral - kLengthB * yaw, speed_);
    double f_yf = 2 * kFrictionFront * (delta_f - theta_vf);
    double f_yr = 2 * kFrictionRear * (delta_r - theta_vr);
    if (std::abs(speed_) < 1) {  // low speed: damping of the lateral speed and yaw rate
      f_yf = -kMass * lateral - kInertiaZ / kLengthA * yaw;
      f_yr = -kMass * lateral + kInertiaZ / kLengthA * yaw;
    }
    const double d_lateral = 1 / kMass * (f_yf + f_yr) - yaw * speed_;
    const double d_yaw = 1 / kInertiaZ * (kLengthA * f_yf - kLengthB * f_yr);
    const double c = std::cos(heading_), sn = std::sin(heading_);
    // R @ [speed, lateral], R = ((c, -s), (s, c))
    return {MatVec2Row(matvec2_, c, -sn, speed_, lateral),
            MatVec2Row(matvec2_, sn, c, speed_, lateral),
            yaw,
            a.acceleration,
            d_lateral,
            d_yaw};
  }

  MatVec2Order matvec2_;
};

}  // namespace envpool::highway
