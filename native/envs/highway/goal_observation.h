// highway-env's envs/common/observation.py KinematicsGoalObservation, restated for the
// parking task's config: the observer's Vehicle.to_dict and its goal's (a Landmark's
// RoadObject.to_dict, whose vx and vy are 0.0) over the features x, y, vx, vy, cos_h, sin_h
// (absolute: no origin vehicle), each divided by its scale (float64 over the int scales
// array [100, 100, 5, 5, 1, 1]); not normalised. The dict observation gymnasium's GoalEnv
// wants: "observation" and "achieved_goal" (the same numbers) and "desired_goal", float64.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>

#include "envs/highway/observation.h"
#include "envs/highway/vehicle.h"

namespace envpool::highway {

struct GoalObservation {
  static constexpr int kSize = 6;
  std::array<double, kSize> achieved{};  // observation == achieved_goal
  std::array<double, kSize> desired{};

  // observe(): the observer's row and its goal's, over the scales.
  static GoalObservation Of(const Vehicle& observer, const Vehicle& goal,
                                 const std::array<double, kSize>& scales) {
    GoalObservation o;
    const Vec2 vel = observer.Velocity(), dir = observer.Direction();
    const double obs[kSize] = {observer.position[0], observer.position[1], vel[0], vel[1],
                               dir[0], dir[1]};
    const Vec2 gdir = goal.Direction();
    const double g[kSize] = {goal.position[0], goal.position[1], 0.0, 0.0, gdir[0], gdir[1]};
    for (int i = 0; i < kSize; ++i) {
      o.achieved[static_cast<std::size_t>(i)] = obs[i] / scales[static_cast<std::size_t>(i)];
      o.desired[static_cast<std::size_t>(i)] = g[i] / scales[static_cast<std::size_t>(i)];
    }
    return o;
  }
};

// KinematicsGoalObservation as the env's observation type: the observer's goal (vehicle.goal,
// set by the task) observed with the parking config's scales; the Dict's three keys from
// `key` on in the spec's (sorted) order: achieved_goal, desired_goal, observation.
class KinematicsGoalObservation : public ObservationType {
 public:
  explicit KinematicsGoalObservation(const std::array<double, GoalObservation::kSize>& scales)
      : scales_(scales) {}
  void Observe(const Road& /*road*/, const Vehicle& observer,
               NumpyGenerator& /*np_random*/) override {
    values_ = GoalObservation::Of(observer, *observer.goal, scales_);
  }
  void Write(const Slot& slot, std::size_t key) const override {
    std::copy(values_.achieved.begin(), values_.achieved.end(), slot.Obs<double>(key));
    std::copy(values_.desired.begin(), values_.desired.end(), slot.Obs<double>(key + 1));
    std::copy(values_.achieved.begin(), values_.achieved.end(), slot.Obs<double>(key + 2));
  }

 private:
  std::array<double, GoalObservation::kSize> scales_;
  GoalObservation values_;
};

}  // namespace envpool::highway
