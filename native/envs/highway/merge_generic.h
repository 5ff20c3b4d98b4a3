// highway-env's envs/merge_env.py MergeGenericEnv (merge-generic-v0; merge-generic-v1 is its
// ConnectedLaneMergeGenericEnv: neighbour_vehicles_connected_lanes), restated: MergeEnv's
// rewards and keywords with a road of lanes_count lanes and sections of chosen lengths.
//
// _make_road: straight_road_network(lanes_count, speed limit 30) a -> b (0 to before +
// converge), b -> c (parallel), c -> d (after); the ramp at y_parallel = 4 lanes_count:
// j -> k straight at y_parallel + 6.5 (0 to before), k -> b a sine lane (amplitude 3.25,
// pulsation 2 pi / (2 converge), phase pi / 2) around y_parallel + 3.25, b -> c straight at
// y_parallel (striped, continuous), all forbidden, speed limit 30; an Obstacle at the end of
// b -> c. The episode ends (terminated) on a crash or past x = before + converge + parallel
// + after - 90; never truncated.
//
// _make_vehicles: the ego on ("a", "b", lanes_count - 1) at 30 m, 30 m/s; then
// vehicles_count times up to 10 tries: a lane integers(lanes_count) and a position
// uniform(0, before + converge + parallel) on ("a", "b", lane), kept if more than 15 m from
// every vehicle put on that lane (the ego included), with speed 30 + uniform(-2, 2); last
// an IDM vehicle on the ramp ("j", "k", 0) at 60 m, 20 m/s, target speed 30.
//
// The merging_speed reward reads ("b", "c", 2) as MergeEnv's does (the ramp's lane only
// when lanes_count is 2, as in the package).
#pragma once

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/highway/merge.h"

namespace envpool::highway {

class MergeGenericEnv final : public MergeEnv {
 public:
  struct Params : MergeEnv::Params {
    explicit Params(const Config& c) : MergeEnv::Params(c) {
      Keys().Read(c, *this);
      if (!(before_merge_length > 0 && converge_merge_length > 0 && parallel_merge_length > 0)) {
        throw std::invalid_argument(
            "highway: before_merge_length, converge_merge_length and parallel_merge_length "
            "must be positive (the package asserts it)");
      }
      if (!(after_merge_length >= 90)) {
        throw std::invalid_argument(
            "highway: after_merge_length must be at least 90 (the package asserts it), got " +
            std::to_string(after_merge_length));
      }
    }
    int lanes_count;
    int vehicles_count;
    double before_merge_length;
    double converge_merge_length;
    double parallel_merge_length;
    double after_merge_length;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    AddMergeKeywords(k);
    k.Add("lanes_count", 2, &Params::lanes_count).In(1, 1000);
    k.Add("vehicles_count", 3, &Params::vehicles_count).In(0, 10000);
    k.Add("before_merge_length", 150.0, &Params::before_merge_length).In(0.0, 1e5);
    k.Add("converge_merge_length", 80.0, &Params::converge_merge_length).In(0.0, 1e5);
    k.Add("parallel_merge_length", 80.0, &Params::parallel_merge_length).In(0.0, 1e5);
    k.Add("after_merge_length", 150.0, &Params::after_merge_length).In(90.0, 1e5);
    return k;
  }
  static Config Defaults() {
    Config c = Keys().Defaults();
    AddNumericDefaults(c);
    return c;
  }
  static EnvSpec MakeSpec(const Params& p) { return MergeEnv::MakeSpec(p); }

  explicit MergeGenericEnv(const Params& p) : MergeEnv(p), generic_(p) {}

 protected:
  DebugScene Debug() const override { return {"merge_generic", generic_.lanes_count, 2}; }

  void CreateScene() override {
    const NumpyBlas& blas = params_.blas;
    const Params& g = generic_;
    const int lanes = g.lanes_count;
    const double pre = g.before_merge_length, converge = g.converge_merge_length,
                 parallel = g.parallel_merge_length, after = g.after_merge_length;
    end_position_ = pre + converge + parallel + after - 90;
    RoadNetwork net = RoadNetwork::StraightRoad(lanes, 0, pre + converge, 0.0, 30, "a", "b", blas);
    net = RoadNetwork::StraightRoad(lanes, pre + converge, parallel, 0.0, 30, "b", "c", blas,
                                    std::move(net));
    net = RoadNetwork::StraightRoad(lanes, pre + converge + parallel, after, 0.0, 30, "c", "d",
                                    blas, std::move(net));
    const double amplitude = 3.25;
    const double y_parallel = lanes * Lane::kDefaultWidth;
    const double y_approach = y_parallel + 2 * amplitude;
    const LineType cl = LineType::kContinuousLine, s = LineType::kStriped;
    const Lane ljk = Lane::Straight({0, y_approach}, {pre, y_approach}, blas, Lane::kDefaultWidth,
                                    cl, cl, /*forbidden=*/true, 30);
    const Lane lkb = Lane::Sine({pre, y_parallel + amplitude},
                                {pre + converge, y_parallel + amplitude}, amplitude,
                                2 * kPi / (2 * converge), kPi / 2, blas, Lane::kDefaultWidth, cl,
                                cl, /*forbidden=*/true, 30);
    const Lane lbc = Lane::Straight({pre + converge, y_parallel},
                                    {pre + converge + parallel, y_parallel}, blas,
                                    Lane::kDefaultWidth, s, cl, /*forbidden=*/true, 30);
    net.AddLane("j", "k", ljk);
    net.AddLane("k", "b", lkb);
    net.AddLane("b", "c", lbc);
    road_.network = std::move(net);
    road_.neighbour_vehicles_connected_lanes = params_.neighbour_vehicles_connected_lanes;
    road_.objects.push_back(std::make_unique<RoadObject>(&road_, lbc.Position(parallel, 0),
                                                         ObjectKind::kObstacle));

    const RoadNetwork& rn = road_.network;
    const int a = rn.FindNode("a"), b = rn.FindNode("b");
    merge_lane_ = {b, rn.FindNode("c"), 2};
    const double ego_longitudinal = 30.0;
    std::unique_ptr<Vehicle> ego =
        MakeControlled(rn.GetLane({a, b, lanes - 1}).Position(ego_longitudinal, 0.0), 0.0, 30.0);
    controlled_.push_back(ego.get());
    road_.vehicles.push_back(std::move(ego));
    // spawned_positions: the longitudinal positions put on each lane so far
    std::vector<std::vector<double>> spawned(static_cast<std::size_t>(lanes));
    spawned.back().push_back(ego_longitudinal);
    const double safe_distance = 15.0, max_pos = pre + converge + parallel;
    for (int v = 0; v < g.vehicles_count; ++v) {
      for (int attempt = 0; attempt < 10; ++attempt) {
        const int lane_id = static_cast<int>(np_random_.Integers(0, lanes));
        const double longitudinal = np_random_.Uniform(0.0, max_pos);
        std::vector<double>& on_lane = spawned[static_cast<std::size_t>(lane_id)];
        bool clear = true;
        for (const double x : on_lane) clear = clear && std::abs(longitudinal - x) > safe_distance;
        if (!clear) continue;
        const Vec2 position = rn.GetLane({a, b, lane_id}).Position(longitudinal, 0.0);
        const double speed = 30.0 + np_random_.Uniform(-2.0, 2.0);
        road_.vehicles.push_back(std::make_unique<IDMVehicle>(&road_, position, 0.0, speed));
        on_lane.push_back(longitudinal);
        break;
      }
    }
    auto merging = std::make_unique<IDMVehicle>(
        &road_, rn.GetLane({rn.FindNode("j"), rn.FindNode("k"), 0}).Position(ego_longitudinal + 30,
                                                                               0.0),
        0.0, 20.0);
    merging->target_speed = 30.0;
    road_.vehicles.push_back(std::move(merging));
  }

  bool IsTerminated() const override {
    return vehicle().crashed || vehicle().position[0] > end_position_;
  }

 private:
  Params generic_;
  double end_position_ = 0;
};

}  // namespace envpool::highway
