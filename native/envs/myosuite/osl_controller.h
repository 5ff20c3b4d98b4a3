// MyoSuite's Open Source Leg controller (envs/myo/assets/leg/myoosl_control.py:
// MyoOSLController, State, StateMachine of myosuite 2.12.2), the prosthesis's impedance
// controller that MyoChallenge's RunTrack (osl_run.h) steps before each of its steps.
//
// What the package does, restated:
//   - Four phases in a cycle: early stance -> late stance -> early swing -> late swing ->
//     early stance. Each has gains (knee and ankle stiffness, damping, target angle) and
//     thresholds, checked in their order: the first one crossed moves the machine to the
//     next phase (one phase per update at most).
//   - The defaults (initDefaults; the angles np.deg2rad(x) = x * (pi / 180); the body
//     weight np.sum(body_mass) * 9.81):
//       e_stance: knee 99.372, 3.180, 5 deg; ankle 19.874, 0, -2 deg;
//                 load above 0.25 weight, then ankle angle above 6 deg;
//       l_stance: knee 99.372, 1.272, 8 deg; ankle 79.498, 0.063, -20 deg;
//                 load below 0.15 weight;
//       e_swing:  knee 39.749, 0.063, 60 deg; ankle 7.949, 0, 25 deg;
//                 knee angle above 50 deg, then knee velocity below 3 deg;
//       l_swing:  knee 15.899, 3.816, 5 deg; ankle 7.949, 0, 15 deg;
//                 load above 0.4 weight, then knee angle below 30 deg.
//     The n_sets parameter sets are copies of these; the machine's states hold set 0's
//     (the package's accessors that upload or switch sets are not part of its step).
//   - update(sensors): the transition check ("above": sensor > threshold, "below":
//     sensor < threshold). The machine runs from the package's _setup on (start(); nothing
//     stops it).
//   - The torque of a joint: np.clip(K (theta - angle) - B velocity, -peak, peak) in the
//     current phase, peak 142.272 (knee) and 168.192 (ankle).
#pragma once

#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

namespace envpool::myosuite {

class OslController {
 public:
  enum Phase { kEarlyStance = 0, kLateStance = 1, kEarlySwing = 2, kLateSwing = 3 };
  enum Sensor { kLoad, kKneeAngle, kKneeVel, kAnkleAngle };

  // The sensors the controller reads (get_osl_sens).
  struct Sensors {
    double knee_angle = 0, knee_vel = 0, ankle_angle = 0, ankle_vel = 0, load = 0;
    double Get(Sensor s) const {
      switch (s) {
        case kLoad: return load;
        case kKneeAngle: return knee_angle;
        case kKneeVel: return knee_vel;
        case kAnkleAngle: return ankle_angle;
      }
      return 0.0;
    }
  };

  // The phase named as the package names it.
  static Phase PhaseNamed(const std::string& name) {
    if (name == "e_stance") return kEarlyStance;
    if (name == "l_stance") return kLateStance;
    if (name == "e_swing") return kEarlySwing;
    if (name == "l_swing") return kLateSwing;
    throw std::invalid_argument("an OSL phase is e_stance, l_stance, e_swing or l_swing, got '" +
                                name + "'");
  }

  explicit OslController(double body_mass = 0.0) {
    const double weight = body_mass * kGravity;
    const double deg = kPi / 180.0;  // np.deg2rad's factor
    phases_[kEarlyStance] = {{99.372, 3.180, 5 * deg}, {19.874, 0, -2 * deg},
                             {{{kLoad, 0.25 * weight, true}, {kAnkleAngle, 6 * deg, true}}},
                             2};
    phases_[kLateStance] = {{99.372, 1.272, 8 * deg}, {79.498, 0.063, -20 * deg},
                            {{{kLoad, 0.15 * weight, false}}}, 1};
    phases_[kEarlySwing] = {{39.749, 0.063, 60 * deg}, {7.949, 0, 25 * deg},
                            {{{kKneeAngle, 50 * deg, true}, {kKneeVel, 3 * deg, false}}}, 2};
    phases_[kLateSwing] = {{15.899, 3.816, 5 * deg}, {7.949, 0, 15 * deg},
                           {{{kLoad, 0.4 * weight, true}, {kKneeAngle, 30 * deg, false}}}, 2};
  }

  // reset(init_state): the machine at that phase.
  void Reset(Phase phase) { phase_ = phase; }
  Phase Current() const { return phase_; }

  // update(sens_data): the sensors kept for the torques, and the transition check.
  void Update(const Sensors& s) {
    sensors_ = s;
    const PhaseParams& p = phases_[phase_];
    for (int i = 0; i < p.n_thresholds; ++i) {
      const Threshold& t = p.thresholds[i];
      const double v = s.Get(t.sensor);
      if ((t.above && v > t.value) || (!t.above && v < t.value)) {
        phase_ = static_cast<Phase>((phase_ + 1) % 4);
        return;
      }
    }
  }

  // _get_joint_torque("knee") and ("ankle"), in the current phase.
  double KneeTorque() const {
    return Torque(phases_[phase_].knee, sensors_.knee_angle, sensors_.knee_vel, kKneePeak);
  }
  double AnkleTorque() const {
    return Torque(phases_[phase_].ankle, sensors_.ankle_angle, sensors_.ankle_vel, kAnklePeak);
  }

 private:
  struct Gains {
    double stiffness, damping, target_angle;
  };
  struct Threshold {
    Sensor sensor;
    double value;
    bool above;
  };
  struct PhaseParams {
    Gains knee, ankle;
    std::array<Threshold, 2> thresholds;
    int n_thresholds;
  };

  static constexpr double kGravity = 9.81;
  static constexpr double kPi = 3.141592653589793;
  static constexpr double kKneePeak = 142.272, kAnklePeak = 168.192;

  // np.clip(K * (theta - angle) - B * vel, -peak, peak): max then min, a NaN kept.
  static double Torque(const Gains& g, double angle, double vel, double peak) {
    const double t = g.stiffness * (g.target_angle - angle) - g.damping * vel;
    if (std::isnan(t)) return t;
    const double lo = t > -peak ? t : -peak;
    return lo < peak ? lo : peak;
  }

  std::array<PhaseParams, 4> phases_{};
  Phase phase_ = kEarlyStance;
  Sensors sensors_;
};

}  // namespace envpool::myosuite
