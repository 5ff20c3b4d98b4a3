// highway-env's envs/exit_env.py ExitEnv (exit-v0), restated (a HighwayEnv with its own
// road, vehicles, observation and rewards).
//
// _create_road: straight_road_network of lanes_count lanes "0" -> "1" (0 to 400 m), of
// lanes_count + 1 lanes "1" -> "2" (400 to 500 m: the extra lane is the exit's) and of
// lanes_count lanes "2" -> "3" (500 to 1000 m); every lane's speed limit then 26 - 3.4 x its
// id; a forbidden exit lane "2" -> "exit", a clockwise circle of radius 150 about
// (500, 4 lanes_count + 150) from phase 3 pi / 2 to 2 pi. _create_vehicles: each controlled
// vehicle from Vehicle.create_random(speed 25, lane ("0", "1", 0), spacing ego_spacing) made
// the action type's vehicle; then vehicles_count IDM vehicles, each on a lane id drawn by
// np_random.choice(lanes, p=lanes / lanes.sum()) (lane 0 never), create_random at the lane's
// speed limit with spacing 1 / vehicles_density, routed to "3", not changing lanes.
//
// The observation is ExitObservation (exit_observation.h): 15 rows of presence, x, y, vx,
// vy, cos_h, sin_h, not clipped. _rewards: collision (crashed), goal (is_success: the
// target lane, or the lane of an uncontrolled ego, is ("1", "2", lanes_count) or
// ("2", "exit", 0)), high_speed (lmap of speed over reward_speed_range, clipped to [0, 1]),
// right_lane (the lane id); _reward: their weighted sum, lmapped from [collision_reward,
// goal_reward] to [0, 1] and clipped there if normalize_reward. Terminated: crashed.
// Truncated: time >= duration. The step's info also holds is_success (the reset's too
// here; the package's reset info has none).
#pragma once

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/highway/abstract_env.h"

namespace envpool::highway {

class ExitEnv final : public AbstractEnv {
 public:
  struct Params : CommonParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      Check(c, {"Kinematics", "TimeToCollision", "ExitObservation", "GrayscaleObservation",
                "LidarObservation"});
    }
    int lanes_count;
    int vehicles_count;
    int controlled_vehicles;
    double duration;
    double ego_spacing;
    double vehicles_density;
    double collision_reward;
    double goal_reward;
    double high_speed_reward;
    double right_lane_reward;
    double lane_change_reward;
    std::pair<double, double> reward_speed_range;
    bool normalize_reward;
    bool neighbour_vehicles_connected_lanes;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    CommonDefaults d;
    d.simulation_frequency = 5;
    d.target_speeds = {18.0, 24.0, 30.0};
    d.observation_type = "ExitObservation";
    d.observation_vehicles_count = 15;
    d.observation_features = {"presence", "x", "y", "vx", "vy", "cos_h", "sin_h"};
    d.observation_clip = false;
    d.viewer.scaling = 5;
    AddCommonKeywords(k, d);
    // at least 2: lane 0 is never drawn (p = lanes / lanes.sum())
    k.Add("lanes_count", 6, &Params::lanes_count).In(2, 1000);
    k.Add("vehicles_count", 20, &Params::vehicles_count).In(0, 10000);
    k.Add("controlled_vehicles", 1, &Params::controlled_vehicles).In(1, 100);
    k.Add("duration", 18.0, &Params::duration);
    k.Add("ego_spacing", 2.0, &Params::ego_spacing);
    k.Add("vehicles_density", 1.5, &Params::vehicles_density).In(1e-3, 1e3);
    k.Add("collision_reward", 0.0, &Params::collision_reward);
    k.Add("goal_reward", 1.0, &Params::goal_reward);
    k.Add("high_speed_reward", 0.1, &Params::high_speed_reward);
    k.Add("right_lane_reward", 0.0, &Params::right_lane_reward);
    // in the package's config, read by no reward term
    k.Add("lane_change_reward", 0.0, &Params::lane_change_reward);
    k.Add("reward_speed_range", std::pair<double, double>{20.0, 30.0},
          &Params::reward_speed_range);
    k.Add("normalize_reward", true, &Params::normalize_reward);
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
    EnvSpec spec = CommonSpec(p, {"collision_reward", "goal_reward", "high_speed_reward",
                                  "right_lane_reward"});
    spec.info.push_back(BoxSpec("is_success", DType::kBool, {}));
    return spec;
  }

  // The package divides by zero (ZeroDivisionError) on an empty lmap range: refused here.
  explicit ExitEnv(const Params& p) : AbstractEnv(p), params_(p) {
    if (p.reward_speed_range.first == p.reward_speed_range.second) {
      throw std::invalid_argument("highway: reward_speed_range must not be empty (low == high)");
    }
    if (p.normalize_reward && p.collision_reward == p.goal_reward) {
      throw std::invalid_argument(
          "highway: with normalize_reward, exit's reward is lmapped over [collision_reward, "
          "goal_reward], an empty range here");
    }
  }

  void Write(const Slot& slot) const override {
    AbstractEnv::Write(slot);
    *slot.Info<bool>(3 + 4) = IsSuccess();
  }

 protected:
  DebugScene Debug() const override {
    return {"exit", params_.lanes_count, 2};
  }
  void CreateScene() override {
    const NumpyBlas& blas = params_.blas;
    const int lanes = params_.lanes_count;
    const double road_length = 1000, exit_position = 400, exit_length = 100;
    RoadNetwork net =
        RoadNetwork::StraightRoad(lanes, 0, exit_position, 0.0, 30.0, "0", "1", blas);
    net = RoadNetwork::StraightRoad(lanes + 1, exit_position, exit_length, 0.0, 30.0, "1", "2",
                                    blas, std::move(net));
    net = RoadNetwork::StraightRoad(lanes, exit_position + exit_length,
                                    road_length - exit_position - exit_length, 0.0, 30.0, "2",
                                    "3", blas, std::move(net));
    for (const int from : net.Origins()) {
      for (const int to : net.Destinations(from)) {
        for (int id = 0; id < net.LaneCount(from, to); ++id) {
          net.MutableLane({from, to, id}).set_speed_limit(26 - 3.4 * id);
        }
      }
    }
    const Vec2 exit_end = {exit_position + exit_length, lanes * Lane::kDefaultWidth};
    const double radius = 150;
    const Vec2 exit_center = {exit_end[0] + 0, exit_end[1] + radius};
    net.AddLane("2", "exit",
                Lane::Circular(exit_center, radius, 3 * kPi / 2, 2 * kPi, /*clockwise=*/true,
                               blas, Lane::kDefaultWidth, LineType::kStriped,
                               LineType::kStriped, /*forbidden=*/true));
    road_.network = std::move(net);
    road_.neighbour_vehicles_connected_lanes = params_.neighbour_vehicles_connected_lanes;

    const RoadNetwork& rn = road_.network;
    const int n0 = rn.FindNode("0"), n1 = rn.FindNode("1");
    goal_lanes_[0] = Index("1", "2", lanes);
    goal_lanes_[1] = Index("2", "exit", 0);
    for (int c = 0; c < params_.controlled_vehicles; ++c) {
      const Spawn s = CreateRandom(25.0, true, 0, params_.ego_spacing, n0, n1);
      std::unique_ptr<Vehicle> ego = MakeControlled(s.position, s.heading, s.speed);
      controlled_.push_back(ego.get());
      road_.vehicles.push_back(std::move(ego));
    }
    // p = lanes / lanes.sum()
    std::vector<double> p(static_cast<std::size_t>(lanes));
    const double sum = lanes * (lanes - 1) / 2;
    for (int i = 0; i < lanes; ++i) p[static_cast<std::size_t>(i)] = i / sum;
    for (int i = 0; i < params_.vehicles_count; ++i) {
      const int lane_id = static_cast<int>(np_random_.ChoiceIndex(p));
      const double speed = rn.GetLane({n0, n1, lane_id}).speed_limit();
      const Spawn s =
          CreateRandom(speed, true, lane_id, 1 / params_.vehicles_density, n0, n1);
      auto v = std::make_unique<IDMVehicle>(&road_, s.position, s.heading, s.speed);
      v->PlanRouteTo("3");
      v->enable_lane_change = false;
      road_.vehicles.push_back(std::move(v));
    }
  }

  // The target lane of a controlled ego, else its lane.
  LaneIndex EgoLane() const {
    const Vehicle& v = vehicle();
    return v.IsControlled() ? static_cast<const ControlledVehicle&>(v).target_lane_index
                            : v.lane_index;
  }
  bool IsSuccess() const {
    const LaneIndex lane = EgoLane();
    return lane == goal_lanes_[0] || lane == goal_lanes_[1];
  }

  std::vector<RewardTerm> Rewards() const override {
    const Vehicle& v = vehicle();
    const double scaled_speed = Lmap(v.speed, params_.reward_speed_range.first,
                                     params_.reward_speed_range.second, 0, 1);
    return {{"collision_reward", v.crashed ? 1.0 : 0.0},
            {"goal_reward", IsSuccess() ? 1.0 : 0.0},
            {"high_speed_reward", Clip(scaled_speed, 0, 1)},
            {"right_lane_reward", static_cast<double>(EgoLane().id)}};
  }

  double Reward(const std::vector<RewardTerm>& t) const override {
    double reward = WeightedSum(t, {params_.collision_reward, params_.goal_reward,
                                    params_.high_speed_reward, params_.right_lane_reward});
    if (params_.normalize_reward) {
      reward = Lmap(reward, params_.collision_reward, params_.goal_reward, 0, 1);
      reward = Clip(reward, 0, 1);
    }
    return reward;
  }

  bool IsTerminated() const override { return vehicle().crashed; }
  bool IsTruncated() const override { return time_ >= params_.duration; }

 private:
  Params params_;
  LaneIndex goal_lanes_[2];
};

}  // namespace envpool::highway
