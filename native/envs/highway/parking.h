// highway-env's envs/parking_env.py, restated: ParkingEnv (parking-v0) and its variants
// ParkingEnvActionRepeat (policy_frequency 1, duration 20) and ParkingEnvParkedVehicles
// (vehicles_count 10), which differ only in their defaults. A goal-conditioned task
// (gymnasium's GoalEnv): reach a parking spot's centre, heading along it, with the
// ContinuousAction (acceleration, steering) of a plain kinematic Vehicle.
//
// _create_road: 14 spots each side, lane k a 4 m wide, 8 m long StraightLane (continuous
// lines) at x = (k + 1 - 7) * 4 - 2, from "a" (y = 10) to "b" (y = 18) above, from "b"
// (y = -10) to "c" (y = -18) below, added in turn. _create_vehicles: the lanes in the
// graph's order are the empty spots; each controlled vehicle at [(i - n // 2) * 10, 0],
// heading 2 pi x np_random.uniform(), speed 0, takes its closest lane's spot; each one's goal
// is a Landmark at the centre of a spot drawn by np_random.choice (heading along the lane);
// vehicles_count parked Vehicles at 4 m into spots drawn the same way (none once the spots
// run out); with add_walls, four Obstacles: 70 x 1 at y = -21 and 21, 42 x 1 at x = -35 and
// 35 (heading pi / 2).
//
// The observation is KinematicsGoal (goal_observation.h). compute_reward(achieved, desired):
// -np.power(np.dot(|achieved - desired|, reward_weights), 0.5); _reward: that for the first
// vehicle plus collision_reward x the number of crashed controlled vehicles; info is_success:
// the goal's reward above -success_goal_reward. Terminated: a controlled vehicle crashed, or
// success. Truncated: time >= duration. info["rewards"] does not exist (no _rewards).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/highway/abstract_env.h"
#include "envs/highway/goal_observation.h"

namespace envpool::highway {

class ParkingEnv final : public AbstractEnv {
 public:
  struct Params : CommonParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      Check(c, {"KinematicsGoal"});
      if (reward_weights.size() != GoalObservation::kSize) {
        throw std::invalid_argument("highway: reward_weights must have 6 numbers (x, y, vx, "
                                    "vy, cos_h, sin_h), got " +
                                    std::to_string(reward_weights.size()));
      }
    }
    int vehicles_count;
    int controlled_vehicles;
    double duration;
    double collision_reward;
    double success_goal_reward;
    std::vector<double> reward_weights;
    bool add_walls;
    bool neighbour_vehicles_connected_lanes;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    // the action is ContinuousAction (config["action"]["type"]), 15 Hz, 5 decisions a second
    CommonDefaults d;
    d.simulation_frequency = 15;
    d.policy_frequency = 5;
    d.action_type = "ContinuousAction";
    d.action_type_fixed = true;
    d.observation_type = "KinematicsGoal";
    d.viewer = {600, 300, 7, {0.5, 0.5}};
    AddActionKeywords(k, d);
    AddObservationKeywords(k, d, /*is_keyword=*/false);  // not observation_factory's types
    k.Add("vehicles_count", 0, &Params::vehicles_count).In(0, 1000);
    // the controlled vehicles stand 10 m apart on y = 0, each on its own spot's closest lane
    k.Add("controlled_vehicles", 1, &Params::controlled_vehicles).In(1, 4);
    k.Add("duration", 100.0, &Params::duration);
    k.Add("collision_reward", -5.0, &Params::collision_reward);
    k.Add("success_goal_reward", 0.12, &Params::success_goal_reward);
    // (np.power(x, 0.5) of a negative weighted sum is NaN)
    k.Add("reward_weights", std::vector<double>{1.0, 0.3, 0.0, 0.0, 0.02, 0.02},
          &Params::reward_weights)
        .AtLeast(0.0);
    k.Add("add_walls", true, &Params::add_walls);
    k.Add("neighbour_vehicles_connected_lanes", false,
          &Params::neighbour_vehicles_connected_lanes);
    return k;
  }
  static Config Defaults() {
    Config c = Keys().Defaults();
    AddNumericDefaults(c);
    return c;
  }
  // The Dict observation in gymnasium's order (sorted keys), float64; the info's action,
  // speed, crashed, then is_success.
  static EnvSpec MakeSpec(const Params& p) {
    EnvSpec spec;
    const double inf = INFINITY;
    for (const char* name : {"achieved_goal", "desired_goal", "observation"}) {
      spec.obs.push_back(BoxSpec(name, DType::kFloat64, {GoalObservation::kSize}, {-inf}, {inf}));
    }
    spec.obs_layout = ObsLayout::kDict;
    AddActionAndInfoSpec(p, {}, &spec);
    spec.info.push_back(BoxSpec("is_success", DType::kBool, {}));
    return spec;
  }

  explicit ParkingEnv(const Params& p)
      : AbstractEnv(p, std::make_unique<KinematicsGoalObservation>(kScales)), params_(p) {
    std::copy(p.reward_weights.begin(), p.reward_weights.end(), weights_.begin());
  }

  void Write(const Slot& slot) const override {
    AbstractEnv::Write(slot);
    *slot.Info<bool>(3) = IsSuccess();
  }

 protected:
  DebugScene Debug() const override {
    // ParkingEnvParkedVehicles, ParkingEnvActionRepeat, ParkingEnv
    const char* name = params_.vehicles_count > 0      ? "parking_parked"
                       : common_.policy_frequency == 1 ? "parking_action_repeat"
                                                       : "parking";
    return {name, 0, 0};
  }
  void CreateScene() override {
    RoadNetwork net;
    const int spots = 14;
    const double width = 4.0, x_offset = 0, y_offset = 10, length = 8;
    for (int k = 0; k < spots; ++k) {
      const double x = (k + 1 - spots / 2) * (width + x_offset) - width / 2;
      net.AddLane("a", "b",
                  Lane::Straight({x, y_offset}, {x, y_offset + length}, params_.blas, width,
                                 LineType::kContinuous, LineType::kContinuous));
      net.AddLane("b", "c",
                  Lane::Straight({x, -y_offset}, {x, -y_offset - length}, params_.blas, width,
                                 LineType::kContinuous, LineType::kContinuous));
    }
    road_.network = std::move(net);
    road_.neighbour_vehicles_connected_lanes = params_.neighbour_vehicles_connected_lanes;

    // lanes_dict().keys(): the graph's order
    std::vector<LaneIndex> empty_spots;
    for (const auto& [from, roads] : road_.network.graph()) {
      for (const auto& [to, lanes] : roads) {
        for (std::size_t i = 0; i < lanes.size(); ++i) {
          empty_spots.push_back({from, to, static_cast<int>(i)});
        }
      }
    }
    auto remove = [&empty_spots](const LaneIndex& index) {  // list.remove: the first equal
      const auto it = std::find(empty_spots.begin(), empty_spots.end(), index);
      if (it != empty_spots.end()) empty_spots.erase(it);
    };
    auto draw = [&]() {  // empty_spots[np_random.choice(np.arange(len(empty_spots)))]
      return empty_spots[static_cast<std::size_t>(
          np_random_.Integers(0, static_cast<std::int64_t>(empty_spots.size())))];
    };

    const int n = params_.controlled_vehicles;
    for (int i = 0; i < n; ++i) {
      // float(i - n // 2) * 10.0 (Python's floor division)
      const int q = (i - (n / 2));
      const double x0 = static_cast<double>(q) * 10.0;
      const double heading = 2.0 * kPi * np_random_.Uniform(0.0, 1.0);
      std::unique_ptr<Vehicle> v = MakeControlled({x0, 0.0}, heading, 0.0);
      v->drawn_green = true;  // vehicle.color = VehicleGraphics.EGO_COLOR
      controlled_.push_back(v.get());
      remove(v->lane_index);
      road_.vehicles.push_back(std::move(v));
    }
    for (std::size_t c = 0; c < controlled_.size(); ++c) {
      const LaneIndex index = draw();
      const Lane& lane = road_.network.GetLane(index);
      auto goal = std::make_unique<RoadObject>(&road_, lane.Position(lane.length() / 2, 0),
                                               ObjectKind::kLandmark, lane.HeadingAt(0));
      controlled_[c]->goal = goal.get();
      road_.objects.push_back(std::move(goal));
      remove(index);
    }
    for (int i = 0; i < params_.vehicles_count; ++i) {
      if (empty_spots.empty()) continue;
      const LaneIndex index = draw();
      // Vehicle.make_on_lane(road, lane_index, longitudinal=4.0, speed=0.0)
      const Lane& lane = road_.network.GetLane(index);
      road_.vehicles.push_back(
          std::make_unique<Vehicle>(&road_, lane.Position(4.0, 0), lane.HeadingAt(4.0), 0.0));
      remove(index);
    }
    if (params_.add_walls) {
      const double w = 70, h = 42;
      for (const double y : {-h / 2, h / 2}) {
        auto o = std::make_unique<RoadObject>(&road_, Vec2{0, y}, ObjectKind::kObstacle);
        o->SetSize(w, 1);
        road_.objects.push_back(std::move(o));
      }
      for (const double x : {-w / 2, w / 2}) {
        auto o = std::make_unique<RoadObject>(&road_, Vec2{x, 0}, ObjectKind::kObstacle,
                                              kPi / 2);
        o->SetSize(h, 1);
        road_.objects.push_back(std::move(o));
      }
    }
  }

  std::vector<RewardTerm> Rewards() const override { return {}; }

  double Reward(const std::vector<RewardTerm>& /*terms*/) const override {
    // sum(compute_reward ...) from 0, then += collision_reward * (crashed controlled vehicles)
    double reward = 0 + GoalReward();
    int crashed = 0;
    for (const Vehicle* v : controlled_) crashed += v->crashed ? 1 : 0;
    return reward + params_.collision_reward * crashed;
  }

  bool IsTerminated() const override {
    for (const Vehicle* v : controlled_) {
      if (v->crashed) return true;
    }
    return IsSuccess();
  }
  bool IsTruncated() const override { return time_ >= params_.duration; }

 private:
  static constexpr std::array<double, GoalObservation::kSize> kScales = {100, 100, 5, 5, 1, 1};

  // The first controlled vehicle's goal reward (the package's observation_type_parking
  // observes it alone), and _is_success: that reward above -success_goal_reward.
  double GoalReward() const {
    return ComputeReward(GoalObservation::Of(vehicle(), *vehicle().goal, kScales));
  }
  bool IsSuccess() const { return GoalReward() > -params_.success_goal_reward; }

  // compute_reward(achieved, desired, info, p=0.5): -np.power(np.dot(np.abs(a - d), w), p),
  // the dot summed as the running numpy's ddot sums 6 numbers, np.power libm's pow.
  double ComputeReward(const GoalObservation& o) const {
    double diff[GoalObservation::kSize];
    for (int i = 0; i < GoalObservation::kSize; ++i) {
      diff[i] = std::abs(o.achieved[static_cast<std::size_t>(i)] -
                         o.desired[static_cast<std::size_t>(i)]);
    }
    return -std::pow(params_.blas.Dot(diff, weights_.data(), GoalObservation::kSize), 0.5);
  }

  Params params_;
  std::array<double, GoalObservation::kSize> weights_{};
};

}  // namespace envpool::highway
