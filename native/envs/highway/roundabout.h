// highway-env's envs/roundabout_env.py RoundaboutEnv (roundabout-v0), restated.
//
// _make_road: a two-lane ring (radii 20 and 24 about the origin) of eight circular arcs,
// counter-clockwise, between the entries (se, ee, ne, we) and exits (ex, nx, wx, sx), the
// arcs' phases np.deg2rad of 90 - 24, 24, -24, -90 + 24, ... (alpha = 24 degrees); four
// access roads, each a straight lane (170 m out to 42.5 m) and a sine lane (amplitude 5,
// pulsation 2 pi / 85) into the ring, and a sine lane and a straight lane out of it.
// _make_vehicles: the ego (the action type's vehicle) on ("ser", "ses", 0) at 125 m, 8 m/s,
// heading the lane's at 140 m, its route planned to "nxs" (a controlled vehicle's); an IDM
// vehicle entering at ("we", "sx", 1), 5 m + 2 normal(), 16 + 2 normal() m/s, routed to
// exr / sxr / nxr (incoming_vehicle_destination, or np_random.choice), DELTA randomised;
// two IDM vehicles on ("we", "sx", 0) at 20 m and -20 m (+ 2 normal()), and one on
// ("eer", "ees", 0) at 50 m (+ 2 normal()), each 16 + 2 normal() m/s, routed to a choice of
// the three exits, DELTA randomised; every draw in the package's order.
//
// _rewards: collision (crashed), high_speed (MDPVehicle.get_speed_index / 2: the ego's
// speed_index, or the default target speeds' index of its speed), lane_change (action in
// [0, 2]), on_road; _reward: their weighted sum (on_road weight 0), lmapped from
// [collision_reward, high_speed_reward] to [0, 1] if normalize_reward, times on_road.
// Terminated: crashed. Truncated: time >= duration.
#pragma once

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/highway/abstract_env.h"

namespace envpool::highway {

class RoundaboutEnv final : public AbstractEnv {
 public:
  struct Params : CommonParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      Check(c);
    }
    int incoming_vehicle_destination;  // -1: None (a choice)
    double collision_reward;
    double high_speed_reward;
    double right_lane_reward;
    double lane_change_reward;
    double duration;
    bool normalize_reward;
    bool neighbour_vehicles_connected_lanes;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    CommonDefaults d;
    d.target_speeds = {0.0, 8.0, 16.0};
    d.observation_absolute = true;
    d.viewer = {600, 600, 5.5, {0.5, 0.6}};
    d.observation_features_range = {-100.0, 100.0, -100.0, 100.0, -15.0, 15.0, -15.0, 15.0};
    AddCommonKeywords(k, d);
    AddZigguratKeywords(k);
    k.Add("incoming_vehicle_destination", -1, &Params::incoming_vehicle_destination).In(-1, 2);
    k.Add("collision_reward", -1.0, &Params::collision_reward);
    k.Add("high_speed_reward", 0.2, &Params::high_speed_reward);
    // in the package's config, read by no reward term
    k.Add("right_lane_reward", 0.0, &Params::right_lane_reward);
    k.Add("lane_change_reward", -0.05, &Params::lane_change_reward);
    k.Add("duration", 11.0, &Params::duration);
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
    return CommonSpec(p, {"collision_reward", "high_speed_reward", "lane_change_reward",
                          "on_road_reward"});
  }

  // The package divides by zero (ZeroDivisionError) on an empty lmap range: refused here.
  explicit RoundaboutEnv(const Params& p) : AbstractEnv(p), params_(p) {
    if (p.normalize_reward && p.collision_reward == p.high_speed_reward) {
      throw std::invalid_argument(
          "highway: with normalize_reward, roundabout's reward is lmapped over "
          "[collision_reward, high_speed_reward], an empty range here");
    }
  }

 protected:
  DebugScene Debug() const override {
    return {"roundabout", 0, 2};
  }
  void CreateScene() override {
    const NumpyBlas& blas = params_.blas;
    RoadNetwork net;
    const Vec2 center = {0, 0};
    const double radius = 20;
    const double alpha = 24;
    const double radii[2] = {radius, radius + 4};
    const LineType n = LineType::kNone, c = LineType::kContinuous, s = LineType::kStriped;
    const LineType line[2][2] = {{c, s}, {n, c}};
    auto deg = [](double d) { return d * (kPi / 180.0); };  // np.deg2rad
    // (from, to, start phase, end phase) of the ring's arcs, in degrees
    struct Arc {
      const char* from;
      const char* to;
      double start, end;
    };
    const Arc arcs[8] = {{"se", "ex", 90 - alpha, alpha},
                         {"ex", "ee", alpha, -alpha},
                         {"ee", "nx", -alpha, -90 + alpha},
                         {"nx", "ne", -90 + alpha, -90 - alpha},
                         {"ne", "wx", -90 - alpha, -180 + alpha},
                         {"wx", "we", -180 + alpha, -180 - alpha},
                         {"we", "sx", 180 - alpha, 90 + alpha},
                         {"sx", "se", 90 + alpha, 90 - alpha}};
    for (int lane = 0; lane < 2; ++lane) {
      for (const Arc& arc : arcs) {
        net.AddLane(arc.from, arc.to,
                    Lane::Circular(center, radii[lane], deg(arc.start), deg(arc.end),
                                   /*clockwise=*/false, blas, Lane::kDefaultWidth,
                                   line[lane][0], line[lane][1]));
      }
    }
    const double access = 170, dev = 85, a = 5, delta_st = 0.2 * dev;
    const double delta_en = dev - delta_st;
    const double w = 2 * kPi / dev;
    auto straight = [&](const char* from, const char* to, Vec2 start, Vec2 end, LineType l,
                        LineType r) {
      net.AddLane(from, to, Lane::Straight(start, end, blas, Lane::kDefaultWidth, l, r));
    };
    auto sine = [&](const char* from, const char* to, Vec2 start, Vec2 end, double phase) {
      net.AddLane(from, to, Lane::Sine(start, end, a, w, phase, blas, Lane::kDefaultWidth, c, c));
    };
    const double in_phase = -kPi / 2, out_phase = -kPi / 2 + w * delta_en;
    straight("ser", "ses", {2, access}, {2, dev / 2}, s, c);
    sine("ses", "se", {2 + a, dev / 2}, {2 + a, dev / 2 - delta_st}, in_phase);
    sine("sx", "sxs", {-2 - a, -dev / 2 + delta_en}, {-2 - a, dev / 2}, out_phase);
    straight("sxs", "sxr", {-2, dev / 2}, {-2, access}, n, c);

    straight("eer", "ees", {access, -2}, {dev / 2, -2}, s, c);
    sine("ees", "ee", {dev / 2, -2 - a}, {dev / 2 - delta_st, -2 - a}, in_phase);
    sine("ex", "exs", {-dev / 2 + delta_en, 2 + a}, {dev / 2, 2 + a}, out_phase);
    straight("exs", "exr", {dev / 2, 2}, {access, 2}, n, c);

    straight("ner", "nes", {-2, -access}, {-2, -dev / 2}, s, c);
    sine("nes", "ne", {-2 - a, -dev / 2}, {-2 - a, -dev / 2 + delta_st}, in_phase);
    sine("nx", "nxs", {2 + a, dev / 2 - delta_en}, {2 + a, -dev / 2}, out_phase);
    straight("nxs", "nxr", {2, -dev / 2}, {2, -access}, n, c);

    straight("wer", "wes", {-access, 2}, {-dev / 2, 2}, s, c);
    sine("wes", "we", {-dev / 2, 2 + a}, {-dev / 2 + delta_st, 2 + a}, in_phase);
    sine("wx", "wxs", {dev / 2 - delta_en, -2 - a}, {-dev / 2, -2 - a}, out_phase);
    straight("wxs", "wxr", {-dev / 2, -2}, {-access, -2}, n, c);
    road_.network = std::move(net);
    road_.neighbour_vehicles_connected_lanes = params_.neighbour_vehicles_connected_lanes;

    const double position_deviation = 2.0, speed_deviation = 2.0;
    const Lane& ego_lane = road_.network.GetLane(Index("ser", "ses", 0));
    std::unique_ptr<Vehicle> ego =
        MakeControlled(ego_lane.Position(125.0, 0.0), ego_lane.HeadingAt(140.0), 8.0);
    if (ego->IsControlled()) static_cast<ControlledVehicle&>(*ego).PlanRouteTo("nxs");
    controlled_.push_back(ego.get());
    road_.vehicles.push_back(std::move(ego));

    const char* const destinations[3] = {"exr", "sxr", "nxr"};
    auto choice = [&]() {
      return destinations[static_cast<std::size_t>(np_random_.Integers(0, 3))];
    };
    // the incoming vehicle
    {
      const double longitudinal = 5.0 + Normal() * position_deviation;
      const double speed = 16 + Normal() * speed_deviation;
      IDMVehicle* v = MakeIdmOnLane(Index("we", "sx", 1), longitudinal, speed);
      v->PlanRouteTo(params_.incoming_vehicle_destination >= 0
                         ? destinations[params_.incoming_vehicle_destination]
                         : choice());
      v->RandomizeBehavior(np_random_);
    }
    // the other vehicles, at 20 m and -20 m
    for (const int i : {1, -1}) {
      const double longitudinal = 20.0 * i + Normal() * position_deviation;
      const double speed = 16.0 + Normal() * speed_deviation;
      IDMVehicle* v = MakeIdmOnLane(Index("we", "sx", 0), longitudinal, speed);
      v->PlanRouteTo(choice());
      v->RandomizeBehavior(np_random_);
    }
    // the entering vehicle
    {
      const double longitudinal = 50.0 + Normal() * position_deviation;
      const double speed = 16.0 + Normal() * speed_deviation;
      IDMVehicle* v = MakeIdmOnLane(Index("eer", "ees", 0), longitudinal, speed);
      v->PlanRouteTo(choice());
      v->RandomizeBehavior(np_random_);
    }
  }

  std::vector<RewardTerm> Rewards() const override {
    const Vehicle& v = vehicle();
    // MDPVehicle.get_speed_index: speed_index, else speed_to_index_default(speed)
    double index;
    if (!common_.continuous) {
      index = static_cast<const MDPVehicle&>(v).speed_index;
    } else {
      const double x = (v.speed - 20.0) / (30.0 - 20.0);
      index = Clip(std::nearbyint(x * 2), 0, 2);
    }
    return {{"collision_reward", v.crashed ? 1.0 : 0.0},
            {"high_speed_reward", index / 2},
            {"lane_change_reward", LaneChanged() ? 1.0 : 0.0},
            {"on_road_reward", v.OnRoad() ? 1.0 : 0.0}};
  }

  double Reward(const std::vector<RewardTerm>& t) const override {
    double reward = WeightedSum(t, {params_.collision_reward, params_.high_speed_reward,
                                    params_.lane_change_reward, 0});
    if (params_.normalize_reward) {
      reward = Lmap(reward, params_.collision_reward, params_.high_speed_reward, 0, 1);
    }
    return reward * t[3].value;
  }

  bool IsTerminated() const override { return vehicle().crashed; }
  bool IsTruncated() const override { return time_ >= params_.duration; }

 private:
  Params params_;
};

}  // namespace envpool::highway
