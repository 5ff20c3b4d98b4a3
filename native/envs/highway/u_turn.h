// highway-env's envs/u_turn_env.py UTurnEnv (u-turn-v0), restated.
//
// _make_road (length 128): two lanes a -> b (x from 0 to 128 at y = 44 and 48), a
// counter-clockwise half circle b -> c (centre (128, 24), radii 20 and 24, phases np.deg2rad
// of 90 and -90), and two lanes c -> d back (x from 128 to 0 at y = 4 and 0).
// _make_vehicles: the ego (the action type's vehicle) at the start of ("a", "b", 0), 16 m/s,
// heading 0, its route planned to "d" (a controlled vehicle's; the package's PURSUIT_TAU it
// sets is read by nothing); six IDM vehicles routed to "d", made on their lanes (a, b, 0) at
// 25 m, (a, b, 1) at 56, (b, c, 1) at 0.5, (b, c, 0) at 17.5, (c, d, 0) at 1, (c, d, 1) at
// 30 (each + 2 normal()), at 13.5, 14.5, 4.5, 5.5, 3.5, 5.5 m/s (each + 2 normal()); only
// the first's DELTA randomised.
//
// The observation is the TimeToCollision grid (horizon 16) by default. _rewards: collision
// (crashed), left_lane (lane id / max(lanes - 1, 1)), high_speed (lmap of speed over
// reward_speed_range, clipped to [0, 1]), on_road; _reward: their weighted sum (on_road
// weight 0), lmapped from [collision_reward, high_speed_reward + left_lane_reward] to
// [0, 1] if normalize_reward, times on_road. Terminated: crashed. Truncated: time >=
// duration.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/highway/abstract_env.h"

namespace envpool::highway {

class UTurnEnv final : public AbstractEnv {
 public:
  struct Params : CommonParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      Check(c);
    }
    double duration;
    double collision_reward;
    double left_lane_reward;
    double high_speed_reward;
    std::pair<double, double> reward_speed_range;
    bool normalize_reward;
    bool neighbour_vehicles_connected_lanes;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    CommonDefaults d;
    d.target_speeds = {8.0, 16.0, 24.0};
    d.observation_type = "TimeToCollision";
    d.observation_horizon = 16;
    d.viewer = {789, 289, 5.5, {0.3, 0.5}};
    AddCommonKeywords(k, d);
    AddZigguratKeywords(k);
    k.Add("duration", 10.0, &Params::duration);
    k.Add("collision_reward", -1.0, &Params::collision_reward);
    k.Add("left_lane_reward", 0.1, &Params::left_lane_reward);
    k.Add("high_speed_reward", 0.4, &Params::high_speed_reward);
    k.Add("reward_speed_range", std::pair<double, double>{8.0, 24.0},
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
    return CommonSpec(p, {"collision_reward", "left_lane_reward", "high_speed_reward",
                          "on_road_reward"});
  }

  // The package divides by zero (ZeroDivisionError) on an empty lmap range: refused here.
  explicit UTurnEnv(const Params& p) : AbstractEnv(p), params_(p) {
    if (p.reward_speed_range.first == p.reward_speed_range.second) {
      throw std::invalid_argument("highway: reward_speed_range must not be empty (low == high)");
    }
    if (p.normalize_reward && p.collision_reward == p.high_speed_reward + p.left_lane_reward) {
      throw std::invalid_argument(
          "highway: with normalize_reward, u-turn's reward is lmapped over [collision_reward, "
          "high_speed_reward + left_lane_reward], an empty range here");
    }
  }

 protected:
  DebugScene Debug() const override {
    return {"u_turn", 0, 2};
  }
  void CreateScene() override {
    const NumpyBlas& blas = params_.blas;
    const double length = 128, w = Lane::kDefaultWidth;
    RoadNetwork net;
    net.AddLane("c", "d", Lane::Straight({length, w}, {0, w}, blas, w,
                                         LineType::kContinuousLine, LineType::kStriped));
    net.AddLane("c", "d", Lane::Straight({length, 0}, {0, 0}, blas, w, LineType::kNone,
                                         LineType::kContinuousLine));
    const Vec2 center = {length, w + 20};
    const double radius = 20, alpha = 0;
    const double radii[2] = {radius, radius + w};
    const LineType n = LineType::kNone, c = LineType::kContinuous, s = LineType::kStriped;
    const LineType line[2][2] = {{c, s}, {n, c}};
    auto deg = [](double d) { return d * (kPi / 180.0); };  // np.deg2rad
    for (int lane = 0; lane < 2; ++lane) {
      net.AddLane("b", "c",
                  Lane::Circular(center, radii[lane], deg(90 - alpha), deg(-90 + alpha),
                                 /*clockwise=*/false, blas, w, line[lane][0], line[lane][1]));
    }
    const double offset = 2 * radius;
    const double y0 = (2 * w + offset) - w, y1 = 2 * w + offset;
    net.AddLane("a", "b", Lane::Straight({0, y0}, {length, y0}, blas, w,
                                         LineType::kContinuousLine, LineType::kStriped));
    net.AddLane("a", "b", Lane::Straight({0, y1}, {length, y1}, blas, w, LineType::kNone,
                                         LineType::kContinuousLine));
    road_.network = std::move(net);
    road_.neighbour_vehicles_connected_lanes = params_.neighbour_vehicles_connected_lanes;

    const double position_deviation = 2.0, speed_deviation = 2.0;
    const Lane& ego_lane = road_.network.GetLane(Index("a", "b", 0));
    std::unique_ptr<Vehicle> ego = MakeControlled(ego_lane.Position(0, 0), 0.0, 16.0);
    if (ego->IsControlled()) static_cast<ControlledVehicle&>(*ego).PlanRouteTo("d");
    controlled_.push_back(ego.get());
    road_.vehicles.push_back(std::move(ego));

    struct Spawn {
      const char* from;
      const char* to;
      int id;
      double longitudinal, speed;
      bool randomize;
    };
    const Spawn spawns[6] = {{"a", "b", 0, 25.0, 13.5, true}, {"a", "b", 1, 56.0, 14.5, false},
                             {"b", "c", 1, 0.5, 4.5, false},  {"b", "c", 0, 17.5, 5.5, false},
                             {"c", "d", 0, 1.0, 3.5, false},  {"c", "d", 1, 30.0, 5.5, false}};
    for (const Spawn& sp : spawns) {
      const double longitudinal = sp.longitudinal + Normal() * position_deviation;
      const double speed = sp.speed + Normal() * speed_deviation;
      IDMVehicle* v = MakeIdmOnLane(Index(sp.from, sp.to, sp.id), longitudinal, speed);
      v->PlanRouteTo("d");
      if (sp.randomize) v->RandomizeBehavior(np_random_);
    }
  }

  std::vector<RewardTerm> Rewards() const override {
    const Vehicle& v = vehicle();
    const int lanes = road_.network.LaneCount(v.lane_index.from, v.lane_index.to);
    const double scaled_speed = Lmap(v.speed, params_.reward_speed_range.first,
                                     params_.reward_speed_range.second, 0, 1);
    const int denom = lanes - 1 > 1 ? lanes - 1 : 1;
    return {{"collision_reward", v.crashed ? 1.0 : 0.0},
            {"left_lane_reward", static_cast<double>(v.lane_index.id) / denom},
            {"high_speed_reward", Clip(scaled_speed, 0, 1)},
            {"on_road_reward", v.OnRoad() ? 1.0 : 0.0}};
  }

  double Reward(const std::vector<RewardTerm>& t) const override {
    double reward = WeightedSum(t, {params_.collision_reward, params_.left_lane_reward,
                                    params_.high_speed_reward, 0});
    if (params_.normalize_reward) {
      reward = Lmap(reward, params_.collision_reward,
                    params_.high_speed_reward + params_.left_lane_reward, 0, 1);
    }
    return reward * t[3].value;
  }

  bool IsTerminated() const override { return vehicle().crashed; }
  bool IsTruncated() const override { return time_ >= params_.duration; }

 private:
  Params params_;
};

}  // namespace envpool::highway
