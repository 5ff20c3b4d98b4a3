// highway-env's envs/highway_env.py, restated: HighwayEnv (highway-v0) and HighwayEnvFast
// (highway-fast-v0, the same env with other defaults and its other vehicles not checking
// their collisions: other_vehicles_check_collisions=False).
//
// _create_road: RoadNetwork.straight_road_network(lanes_count, speed_limit=30), nodes "0" to
// "1", 10 km long. _create_vehicles: for each controlled vehicle, Vehicle.create_random(road,
// speed=25, lane_id=initial_lane_id, spacing=ego_spacing) made the action type's vehicle,
// then its share (near_split) of vehicles_count IDMVehicles, each create_random(road,
// spacing=1 / vehicles_density) with randomize_behavior (DELTA uniform in [3.5, 4.5]).
// _rewards: collision (crashed), right_lane (target lane id / max(lanes - 1, 1)),
// high_speed (lmap of speed * cos(heading) over reward_speed_range, clipped to [0, 1]),
// on_road; _reward: their weighted sum (weights collision_reward, right_lane_reward,
// high_speed_reward; on_road_reward is no config key: weight 0), lmapped from
// [collision_reward, high_speed_reward + right_lane_reward] to [0, 1] if normalize_reward,
// times on_road. Terminated: crashed, or off road with offroad_terminal. Truncated: time >=
// duration.
#pragma once

#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "envs/highway/abstract_env.h"

namespace envpool::highway {

class HighwayEnv final : public AbstractEnv {
 public:
  struct Params : CommonParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      Check(c);
    }
    int lanes_count;
    int vehicles_count;
    int controlled_vehicles;
    int initial_lane_id;  // -1: None (a random lane)
    double duration;
    double ego_spacing;
    double vehicles_density;
    double collision_reward;
    double right_lane_reward;
    double high_speed_reward;
    double lane_change_reward;
    std::pair<double, double> reward_speed_range;
    bool normalize_reward;
    bool other_vehicles_check_collisions;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    AddCommonKeywords(k, 15);
    k.Add("lanes_count", 4, &Params::lanes_count).In(1, 1000);
    k.Add("vehicles_count", 50, &Params::vehicles_count).In(0, 10000);
    k.Add("controlled_vehicles", 1, &Params::controlled_vehicles).In(1, 100);
    k.Add("initial_lane_id", -1, &Params::initial_lane_id).AtLeast(-1);
    k.Add("duration", 40.0, &Params::duration);
    k.Add("ego_spacing", 2.0, &Params::ego_spacing);
    // spacing = 1 / vehicles_density: a density near 0 spaces the vehicles by an infinite
    // offset (inf positions, NaN observations in the package)
    k.Add("vehicles_density", 1.0, &Params::vehicles_density).In(1e-3, 1e3);
    k.Add("collision_reward", -1.0, &Params::collision_reward);
    k.Add("right_lane_reward", 0.1, &Params::right_lane_reward);
    k.Add("high_speed_reward", 0.4, &Params::high_speed_reward);
    // the package's config has it, and no reward term reads it
    k.Add("lane_change_reward", 0.0, &Params::lane_change_reward);
    k.Add("reward_speed_range", std::pair<double, double>{20.0, 30.0},
          &Params::reward_speed_range);
    k.Add("normalize_reward", true, &Params::normalize_reward);
    k.Add("other_vehicles_check_collisions", true, &Params::other_vehicles_check_collisions);
    return k;
  }
  static Config Defaults() {
    Config c = Keys().Defaults();
    AddNumericDefaults(c);
    return c;
  }
  static EnvSpec MakeSpec(const Params& p) {
    // (no reward range: the package declares none, and with other weights the normalised
    // reward leaves [0, 1])
    return CommonSpec(p, {"collision_reward", "right_lane_reward", "high_speed_reward",
                          "on_road_reward"});
  }

  explicit HighwayEnv(const Params& p) : AbstractEnv(p), params_(p) {
    if (p.initial_lane_id >= p.lanes_count) {
      throw std::invalid_argument("highway: initial_lane_id must be below lanes_count (" +
                                  std::to_string(p.lanes_count) + "), got " +
                                  std::to_string(p.initial_lane_id));
    }
  }

 protected:
  DebugScene Debug() const override {
    return {"highway", params_.lanes_count, 0};
  }
  void CreateScene() override {
    road_.network = RoadNetwork::StraightRoad(params_.lanes_count, 0.0, 10000.0, 0.0, 30.0, "0",
                                              "1", params_.blas);
    // utils.near_split(vehicles_count, num_bins=controlled_vehicles)
    const int q = params_.vehicles_count / params_.controlled_vehicles;
    const int r = params_.vehicles_count % params_.controlled_vehicles;
    for (int c = 0; c < params_.controlled_vehicles; ++c) {
      const int others = q + (c < r ? 1 : 0);
      const Spawn s = CreateRandom(25.0, true, params_.initial_lane_id, params_.ego_spacing);
      std::unique_ptr<Vehicle> ego = MakeControlled(s.position, s.heading, s.speed);
      controlled_.push_back(ego.get());
      road_.vehicles.push_back(std::move(ego));
      for (int i = 0; i < others; ++i) {
        const Spawn o = CreateRandom(0.0, false, -1, 1 / params_.vehicles_density);
        auto v = std::make_unique<IDMVehicle>(&road_, o.position, o.heading, o.speed);
        v->RandomizeBehavior(np_random_);
        // HighwayEnvFast: the other vehicles do not check their collisions
        v->check_collisions = params_.other_vehicles_check_collisions;
        road_.vehicles.push_back(std::move(v));
      }
    }
  }

  std::vector<RewardTerm> Rewards() const override {
    const Vehicle& v = vehicle();
    const int neighbours = road_.network.LaneCount(v.lane_index.from, v.lane_index.to);
    const int lane = v.IsControlled() ? static_cast<const ControlledVehicle&>(v).target_lane_index.id
                                      : v.lane_index.id;
    const double forward_speed = v.speed * std::cos(v.heading);
    const double scaled_speed = Lmap(forward_speed, params_.reward_speed_range.first,
                                     params_.reward_speed_range.second, 0, 1);
    const int denom = neighbours - 1 > 1 ? neighbours - 1 : 1;
    return {{"collision_reward", v.crashed ? 1.0 : 0.0},
            {"right_lane_reward", static_cast<double>(lane) / denom},
            {"high_speed_reward", Clip(scaled_speed, 0, 1)},
            {"on_road_reward", v.OnRoad() ? 1.0 : 0.0}};
  }

  double Reward(const std::vector<RewardTerm>& t) const override {
    double reward = WeightedSum(t, {params_.collision_reward, params_.right_lane_reward,
                                    params_.high_speed_reward, 0});
    if (params_.normalize_reward) {
      reward = Lmap(reward, params_.collision_reward,
                    params_.high_speed_reward + params_.right_lane_reward, 0, 1);
    }
    return reward * t[3].value;
  }

  bool IsTerminated() const override {
    return vehicle().crashed || (params_.offroad_terminal && !vehicle().OnRoad());
  }
  bool IsTruncated() const override { return time_ >= params_.duration; }

 private:
  Params params_;
};

}  // namespace envpool::highway
