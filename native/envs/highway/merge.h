// highway-env's envs/merge_env.py MergeEnv (merge-v0), restated.
//
// _make_road: a two-lane highway a -> b -> c -> d (sections 150 + 80, 80, 150 m long,
// lanes at y = 0 and 4), and an access ramp j -> k -> b -> c: a straight lane at y = 14.5
// (150 m), a sine lane converging over 80 m (amplitude 3.25, pulsation 2 pi / 160, phase
// pi / 2) and a straight merging lane b -> c (80 m) with an Obstacle at its end; the ramp's
// lanes are forbidden (no lane change onto them); every lane's speed limit is the package's
// default 20. _make_vehicles: the ego (the action type's vehicle) on ("a", "b", 1) at 30 m,
// 30 m/s; three IDM vehicles at 90, 70 and 5 m (+ uniform(-5, 5)) on a lane integers(2),
// at 29, 31, 31.5 m/s (+ uniform(-1, 1)), drawn in that order; an IDM vehicle on the ramp at
// 110 m, 20 m/s, target speed 30.
//
// _rewards: collision (crashed), right_lane (lane id / 1), high_speed (lmap of speed over
// reward_speed_range, not clipped), lane_change (action in [0, 2]), merging_speed (the sum
// of (target_speed - speed) / target_speed over the controlled vehicles on ("b", "c", 2));
// _reward: their weighted sum lmapped from [collision_reward + merging_speed_reward,
// high_speed_reward + right_lane_reward] to [0, 1] (always: the package reads no
// normalize_reward here). Terminated: crashed, or x > 370. Never truncated (the package's
// merge-v0 has no duration).
#pragma once

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/highway/abstract_env.h"

namespace envpool::highway {

class MergeEnv : public AbstractEnv {
 public:
  struct Params : CommonParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      Check(c);
    }
    double collision_reward;
    double right_lane_reward;
    double high_speed_reward;
    std::pair<double, double> reward_speed_range;
    double merging_speed_reward;
    double lane_change_reward;
    bool neighbour_vehicles_connected_lanes;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    AddMergeKeywords(k);
    return k;
  }
  // MergeEnv.default_config()'s keys (MergeGenericEnv's too).
  template <class P>
  static void AddMergeKeywords(Keywords<P>& k) {
    AddCommonKeywords(k, 15);
    k.Add("collision_reward", -1.0, &Params::collision_reward);
    k.Add("right_lane_reward", 0.1, &Params::right_lane_reward);
    k.Add("high_speed_reward", 0.2, &Params::high_speed_reward);
    k.Add("reward_speed_range", std::pair<double, double>{20.0, 30.0},
          &Params::reward_speed_range);
    k.Add("merging_speed_reward", -0.5, &Params::merging_speed_reward);
    k.Add("lane_change_reward", -0.05, &Params::lane_change_reward);
    k.Add("neighbour_vehicles_connected_lanes", false,
          &Params::neighbour_vehicles_connected_lanes);
  }
  static Config Defaults() {
    Config c = Keys().Defaults();
    AddNumericDefaults(c);
    return c;
  }
  static EnvSpec MakeSpec(const Params& p) {
    return CommonSpec(p, {"collision_reward", "right_lane_reward", "high_speed_reward",
                          "lane_change_reward", "merging_speed_reward"});
  }

  // The package divides by zero (ZeroDivisionError) on an empty lmap range: refused here.
  explicit MergeEnv(const Params& p) : AbstractEnv(p), params_(p) {
    if (p.reward_speed_range.first == p.reward_speed_range.second) {
      throw std::invalid_argument("highway: reward_speed_range must not be empty (low == high)");
    }
    if (p.collision_reward + p.merging_speed_reward == p.high_speed_reward + p.right_lane_reward) {
      throw std::invalid_argument(
          "highway: merge normalises its reward over [collision_reward + merging_speed_reward, "
          "high_speed_reward + right_lane_reward], an empty range here");
    }
  }

 protected:
  DebugScene Debug() const override {
    return {"merge", 0, 2};
  }
  void CreateScene() override {
    const NumpyBlas& blas = params_.blas;
    RoadNetwork net;
    const double ends[4] = {150, 80, 80, 150};  // before, converging, merge, after
    const double y[2] = {0, Lane::kDefaultWidth};
    const LineType c = LineType::kContinuousLine, s = LineType::kStriped, n = LineType::kNone;
    const LineType line_type[2][2] = {{c, s}, {n, c}};
    const LineType line_type_merge[2][2] = {{c, s}, {n, s}};
    const double x1 = ends[0] + ends[1], x2 = x1 + ends[2], x3 = x2 + ends[3];  // sum(ends[:k])
    for (int i = 0; i < 2; ++i) {
      net.AddLane("a", "b", Lane::Straight({0, y[i]}, {x1, y[i]}, blas, Lane::kDefaultWidth,
                                           line_type[i][0], line_type[i][1]));
      net.AddLane("b", "c", Lane::Straight({x1, y[i]}, {x2, y[i]}, blas, Lane::kDefaultWidth,
                                           line_type_merge[i][0], line_type_merge[i][1]));
      net.AddLane("c", "d", Lane::Straight({x2, y[i]}, {x3, y[i]}, blas, Lane::kDefaultWidth,
                                           line_type[i][0], line_type[i][1]));
    }
    const double amplitude = 3.25;
    const Lane ljk = Lane::Straight({0, 6.5 + 4 + 4}, {ends[0], 6.5 + 4 + 4}, blas,
                                    Lane::kDefaultWidth, c, c, /*forbidden=*/true);
    const Lane lkb = Lane::Sine(ljk.Position(ends[0], -amplitude), ljk.Position(x1, -amplitude),
                                amplitude, 2 * kPi / (2 * ends[1]), kPi / 2, blas,
                                Lane::kDefaultWidth, c, c, /*forbidden=*/true);
    const Vec2 lbc_start = lkb.Position(ends[1], 0);
    const Lane lbc = Lane::Straight(lbc_start, {lbc_start[0] + ends[2], lbc_start[1] + 0}, blas,
                                    Lane::kDefaultWidth, n, c, /*forbidden=*/true);
    net.AddLane("j", "k", ljk);
    net.AddLane("k", "b", lkb);
    net.AddLane("b", "c", lbc);
    road_.network = std::move(net);
    road_.neighbour_vehicles_connected_lanes = params_.neighbour_vehicles_connected_lanes;
    road_.objects.push_back(std::make_unique<RoadObject>(&road_, lbc.Position(ends[2], 0),
                                                         ObjectKind::kObstacle));

    const RoadNetwork& rn = road_.network;
    const int a = rn.FindNode("a"), b = rn.FindNode("b"), j = rn.FindNode("j"),
              k = rn.FindNode("k");
    merge_lane_ = {b, rn.FindNode("c"), 2};
    std::unique_ptr<Vehicle> ego =
        MakeControlled(rn.GetLane({a, b, 1}).Position(30.0, 0.0), 0.0, 30.0);
    controlled_.push_back(ego.get());
    road_.vehicles.push_back(std::move(ego));
    const double spawn[3][2] = {{90.0, 29.0}, {70.0, 31.0}, {5.0, 31.5}};
    for (const auto& ps : spawn) {
      const Lane& lane = rn.GetLane({a, b, static_cast<int>(np_random_.Integers(0, 2))});
      const Vec2 position = lane.Position(ps[0] + np_random_.Uniform(-5.0, 5.0), 0.0);
      const double speed = ps[1] + np_random_.Uniform(-1.0, 1.0);
      road_.vehicles.push_back(std::make_unique<IDMVehicle>(&road_, position, 0.0, speed));
    }
    auto merging = std::make_unique<IDMVehicle>(&road_, rn.GetLane({j, k, 0}).Position(110.0, 0.0),
                                                0.0, 20.0);
    merging->target_speed = 30.0;
    road_.vehicles.push_back(std::move(merging));
  }

  std::vector<RewardTerm> Rewards() const override {
    const Vehicle& v = vehicle();
    const double scaled_speed = Lmap(v.speed, params_.reward_speed_range.first,
                                     params_.reward_speed_range.second, 0, 1);
    double merging = 0;  // sum(...): 0 + each term, in the road's order
    for (const auto& o : road_.vehicles) {
      if (o->lane_index == merge_lane_ && o->IsControlled()) {
        const auto& cv = static_cast<const ControlledVehicle&>(*o);
        merging += (cv.target_speed - cv.speed) / cv.target_speed;
      }
    }
    return {{"collision_reward", v.crashed ? 1.0 : 0.0},
            {"right_lane_reward", v.lane_index.id / 1.0},
            {"high_speed_reward", scaled_speed},
            {"lane_change_reward", LaneChanged() ? 1.0 : 0.0},
            {"merging_speed_reward", merging}};
  }

  double Reward(const std::vector<RewardTerm>& t) const override {
    double reward = WeightedSum(t, {params_.collision_reward, params_.right_lane_reward,
                                    params_.high_speed_reward, params_.lane_change_reward,
                                    params_.merging_speed_reward});
    return Lmap(reward, params_.collision_reward + params_.merging_speed_reward,
                params_.high_speed_reward + params_.right_lane_reward, 0, 1);
  }

  bool IsTerminated() const override { return vehicle().crashed || vehicle().position[0] > 370; }
  bool IsTruncated() const override { return false; }

  Params params_;
  // ("b", "c", 2), whose controlled vehicles the merging_speed term reads
  LaneIndex merge_lane_;
};

}  // namespace envpool::highway
