// highway-env's envs/common/observation.py AttributesObservation, restated for the
// lane-keeping task's attributes ["state", "derivative", "reference_state"] (each the
// env's property, a 4 x 1 float64 array): the observer's (a BicycleVehicle's) state
// [y, heading, lateral speed, yaw rate] plus np_random.uniform(-state_noise, state_noise,
// 4), its derivative's [vy, yaw rate, d lateral speed, d yaw rate] plus
// uniform(-derivative_noise, derivative_noise, 4), in that order of draws, and the reference
// state [y - lat, the lane's heading at long, 0, 0] (long, lat: the vehicle on the env's
// lane, which the env gives through `lane`). The Dict's keys in the spec's (sorted) order:
// derivative, reference_state, state.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <functional>
#include <utility>

#include "envs/highway/bicycle_vehicle.h"
#include "envs/highway/observation.h"

namespace envpool::highway {

class AttributesObservation : public ObservationType {
 public:
  AttributesObservation(double state_noise, double derivative_noise,
                        std::function<const Lane&()> lane)
      : state_noise_(state_noise), derivative_noise_(derivative_noise), lane_(std::move(lane)) {}

  void Observe(const Road& /*road*/, const Vehicle& observer,
               NumpyGenerator& np_random) override {
    const auto& v = static_cast<const BicycleVehicle&>(observer);
    const BicycleVehicle::State s = v.state();
    const BicycleVehicle::State d = v.Derivative();
    const double state[4] = {s[1], s[2], s[4], s[5]};
    const double deriv[4] = {d[1], d[2], d[4], d[5]};
    for (int i = 0; i < 4; ++i) {
      state_[static_cast<std::size_t>(i)] =
          state[i] + np_random.Uniform(-state_noise_, state_noise_);
    }
    for (int i = 0; i < 4; ++i) {
      derivative_[static_cast<std::size_t>(i)] =
          deriv[i] + np_random.Uniform(-derivative_noise_, derivative_noise_);
    }
    const Lane& lane = lane_();
    const Vec2 sl = lane.LocalCoordinates(v.position);
    reference_ = {s[1] - sl[1], lane.HeadingAt(sl[0]), 0.0, 0.0};
  }

  void Write(const Slot& slot, std::size_t key) const override {
    std::copy(derivative_.begin(), derivative_.end(), slot.Obs<double>(key));
    std::copy(reference_.begin(), reference_.end(), slot.Obs<double>(key + 1));
    std::copy(state_.begin(), state_.end(), slot.Obs<double>(key + 2));
  }

 private:
  double state_noise_;
  double derivative_noise_;
  std::function<const Lane&()> lane_;
  std::array<double, 4> state_{}, derivative_{}, reference_{};
};

}  // namespace envpool::highway
