// highway-env's envs/two_way_env.py TwoWayEnv (two-way-v0), restated.
//
// _make_road: a two-way road 800 m long: lanes a -> b at y = 0 and y = 4, and one lane
// b -> a at y = 0 (the oncoming traffic's). _make_vehicles: the ego (the action type's
// vehicle) on ("a", "b", 1) at 30 m, 30 m/s; three IDM vehicles ahead on ("a", "b", 1) at
// 70 + 40 i + 10 normal() m, heading the lane's at 70 + 40 i, 24 + 2 normal() m/s; two
// oncoming IDM vehicles on ("b", "a", 0) at 200 + 100 i + 10 normal() m, 20 + 5 normal() m/s,
// their target lane ("b", "a", 0); none changes lanes.
//
// The observation is the TimeToCollision grid (horizon 5) by default. _rewards:
// high_speed (the ego's speed_index / (target speeds - 1)), left_lane ((lanes - 1 - target
// lane id) / (lanes - 1), lanes those of the ego's road: NaN here on the one-lane oncoming
// road, where the package divides by zero); _reward: their weighted sum (high_speed_reward,
// left_lane_reward). collision_reward and left_lane_constraint are config keys read by no
// term. Terminated: crashed. Never truncated (the package's two-way-v0 has no duration).
// The ego is an MDPVehicle (DiscreteMetaAction): the package reads its speed_index.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/highway/abstract_env.h"

namespace envpool::highway {

class TwoWayEnv final : public AbstractEnv {
 public:
  struct Params : CommonParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      Check(c);
    }
    double collision_reward;
    double left_lane_constraint;
    double left_lane_reward;
    double high_speed_reward;
    bool neighbour_vehicles_connected_lanes;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    CommonDefaults d;
    d.observation_type = "TimeToCollision";
    d.observation_horizon = 5;
    AddCommonKeywords(k, d);
    AddZigguratKeywords(k);
    k.Add("collision_reward", 0.0, &Params::collision_reward);
    k.Add("left_lane_constraint", 1.0, &Params::left_lane_constraint);
    k.Add("left_lane_reward", 0.2, &Params::left_lane_reward);
    k.Add("high_speed_reward", 0.8, &Params::high_speed_reward);
    k.Add("neighbour_vehicles_connected_lanes", false,
          &Params::neighbour_vehicles_connected_lanes);
    return k;
  }
  static Config Defaults() {
    Config c = Keys().Defaults();
    AddNumericDefaults(c);
    return c;
  }
  static EnvSpec MakeSpec(const Params& p) {
    return CommonSpec(p, {"high_speed_reward", "left_lane_reward"});
  }

  explicit TwoWayEnv(const Params& p) : AbstractEnv(p), params_(p) {
    if (p.continuous) {
      throw std::invalid_argument(
          "highway: two-way needs action_type 'DiscreteMetaAction' (its reward reads the "
          "ego's speed_index)");
    }
  }

 protected:
  DebugScene Debug() const override {
    return {"two_way", 0, 2};
  }
  void CreateScene() override {
    const NumpyBlas& blas = params_.blas;
    const double length = 800;
    RoadNetwork net;
    net.AddLane("a", "b", Lane::Straight({0, 0}, {length, 0}, blas, Lane::kDefaultWidth,
                                         LineType::kContinuousLine, LineType::kStriped));
    net.AddLane("a", "b", Lane::Straight({0, Lane::kDefaultWidth}, {length, Lane::kDefaultWidth},
                                         blas, Lane::kDefaultWidth, LineType::kNone,
                                         LineType::kContinuousLine));
    net.AddLane("b", "a", Lane::Straight({length, 0}, {0, 0}, blas, Lane::kDefaultWidth,
                                         LineType::kNone, LineType::kNone));
    road_.network = std::move(net);
    road_.neighbour_vehicles_connected_lanes = params_.neighbour_vehicles_connected_lanes;

    const LaneIndex ab1 = Index("a", "b", 1), ba0 = Index("b", "a", 0);
    const Lane& lane_ab = road_.network.GetLane(ab1);
    const Lane& lane_ba = road_.network.GetLane(ba0);
    std::unique_ptr<Vehicle> ego = MakeControlled(lane_ab.Position(30.0, 0.0), 0.0, 30.0);
    controlled_.push_back(ego.get());
    road_.vehicles.push_back(std::move(ego));
    for (int i = 0; i < 3; ++i) {
      const Vec2 position = lane_ab.Position(70.0 + 40.0 * i + 10.0 * Normal(), 0.00);
      const double heading = lane_ab.HeadingAt(70.0 + 40.0 * i);
      const double speed = 24.0 + 2.0 * Normal();
      auto v = std::make_unique<IDMVehicle>(&road_, position, heading, speed);
      v->enable_lane_change = false;
      road_.vehicles.push_back(std::move(v));
    }
    for (int i = 0; i < 2; ++i) {
      const Vec2 position = lane_ba.Position(200.0 + 100.0 * i + 10.0 * Normal(), 0);
      const double heading = lane_ba.HeadingAt(200.0 + 100.0 * i);
      const double speed = 20.0 + 5.0 * Normal();
      auto v = std::make_unique<IDMVehicle>(&road_, position, heading, speed);
      v->enable_lane_change = false;
      v->target_lane_index = ba0;
      road_.vehicles.push_back(std::move(v));
    }
  }

  std::vector<RewardTerm> Rewards() const override {
    const auto& v = static_cast<const MDPVehicle&>(vehicle());
    const int lanes = road_.network.LaneCount(v.lane_index.from, v.lane_index.to);
    const double speeds = static_cast<double>(v.target_speeds.size() - 1);
    return {{"high_speed_reward", v.speed_index / speeds},
            {"left_lane_reward", static_cast<double>(lanes - 1 - v.target_lane_index.id) /
                                     static_cast<double>(lanes - 1)}};
  }

  double Reward(const std::vector<RewardTerm>& t) const override {
    double reward = WeightedSum(t, {params_.high_speed_reward, params_.left_lane_reward});
    return reward;
  }

  bool IsTerminated() const override { return vehicle().crashed; }
  bool IsTruncated() const override { return false; }

 private:
  Params params_;
};

}  // namespace envpool::highway
