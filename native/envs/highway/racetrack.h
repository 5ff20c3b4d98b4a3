// highway-env's envs/racetrack_env.py, restated: RacetrackEnv (racetrack-v0), its larger
// three-lane track RacetrackEnvLarge (racetrack-large-v0) and the oval RacetrackEnvOval
// (racetrack-oval-v0), chosen by the keyword `track` (0, 1, 2). A lane-keeping task
// on a closed circuit of straight and circular lanes: the ContinuousAction steers only
// (longitudinal False: the vehicle keeps its lane's speed limit), the observation is an
// OccupancyGrid (occupancy_grid.h: presence, on_road; 12 x 12 cells of 3 m, aligned with
// the vehicle) and IDMVehicles drive the track.
//
// _make_vehicles (rng = np_random): the first controlled vehicle on ("a", "b",
// rng.integers(2)) (the oval: integers(no_lanes)), the others on random_lane_index, each
// Vehicle.make_on_lane at longitudinal rng.uniform(20, 50), at its lane's speed limit; if
// other_vehicles > 0, an IDMVehicle on ("b", "c", the last controlled vehicle's lane id) at
// uniform(0, length of ("b", "c", 0)), speed 6 + uniform(0, 3); then rng.integers(
// other_vehicles) IDMVehicles on random_lane_index (choice of the graph's origins, of its
// destinations, integers of its lanes) at uniform(0, length), speed 6 + uniform(0, 3), each
// kept only if 20 m or more from every vehicle so far (np.linalg.norm).
//
// _rewards: lane_centering 1 / (1 + lane_centering_cost * lateral ** 2) (the vehicle's lane),
// action np.linalg.norm(action) (the float32 action as the step received it: float32
// arithmetic), collision (crashed), on_road; _reward: sum of config.get(name, 0) x each
// (on_road_reward: 0), with action_reward x the float32 norm rounded to float32 (numpy keeps
// a float32 with a Python float), lmapped from [collision_reward, 1] to [0, 1], times on_road.
// Terminated: crashed, or off road with terminate_off_road. Truncated: time >= duration.
//
// Not restated: the oval's random length and lane count (length 0, no_lanes 0: drawn from
// an unseeded np.random.default_rng(), not reproducible) and its obstacles (block_lane,
// force_decision: the IDM vehicles would see obstacles as leaders); the ConnectedLane*
// racetrack-*-v1 envs (neighbour_vehicles_connected_lanes is a keyword here).
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/highway/abstract_env.h"
#include "envs/highway/occupancy_grid.h"

namespace envpool::highway {

// np.deg2rad(x): x * (pi / 180).
inline double Deg2Rad(double degrees) { return degrees * (kPi / 180.0); }

class RacetrackEnv final : public AbstractEnv {
 public:
  struct Params : CommonParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      // (the Kinematics members, which CommonParams checks, are unused: an OccupancyGrid;
      // observation_features is the grid's keyword, read into grid_features)
      observation_type = "OccupancyGrid";
      observation_features = {"presence"};
      observation_order = "sorted";
      Check(c, {"OccupancyGrid"});
      if (observation_grid_size.size() != 4 || observation_grid_step.size() != 2) {
        throw std::invalid_argument("highway: observation_grid_size must be [x_min, x_max, "
                                    "y_min, y_max] and observation_grid_step [x, y]");
      }
      grid.features = grid_features;
      grid.size[0][0] = observation_grid_size[0];
      grid.size[0][1] = observation_grid_size[1];
      grid.size[1][0] = observation_grid_size[2];
      grid.size[1][1] = observation_grid_size[3];
      grid.step[0] = observation_grid_step[0];
      grid.step[1] = observation_grid_step[1];
      if (!(grid.step[0] > 0 && grid.step[1] > 0)) {
        throw std::invalid_argument("highway: observation_grid_step must be positive");
      }
      for (int axis = 0; axis < 2; ++axis) {  // floor((max - min) / step) cells, 1 to 10^4
        const double cells = std::floor((grid.size[axis][1] - grid.size[axis][0]) / grid.step[axis]);
        if (!(cells >= 1 && cells <= 10000)) {
          throw std::invalid_argument(
              "highway: observation_grid_size over observation_grid_step must give 1 to 10000 "
              "cells an axis");
        }
      }
      grid.align_to_vehicle_axes = observation_align_to_vehicle_axes;
      grid.matvec2 = matvec2;  // read by CommonParams::Check
    }
    int track;  // 0 racetrack, 1 large, 2 oval
    std::vector<std::string> grid_features;
    std::vector<double> observation_grid_size;
    std::vector<double> observation_grid_step;
    bool observation_align_to_vehicle_axes;
    double duration;
    double collision_reward;
    double lane_centering_cost;
    double lane_centering_reward;
    double action_reward;
    int controlled_vehicles;
    int other_vehicles;
    double speed_limit;
    bool terminate_off_road;
    bool neighbour_vehicles_connected_lanes;
    int length;
    int no_lanes;
    OccupancyGridConfig grid;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    // ContinuousAction, lateral only; 15 Hz, 5 decisions a second
    CommonDefaults d;
    d.simulation_frequency = 15;
    d.policy_frequency = 5;
    d.action_type = "ContinuousAction";
    d.action_type_fixed = true;
    d.action_longitudinal = false;
    d.viewer = {600, 600, 5.5, {0.5, 0.5}};
    AddActionKeywords(k, d);
    k.Add("track", 0, &Params::track).In(0, 2);
    k.Add("observation_features", std::vector<std::string>{"presence", "on_road"},
          &Params::grid_features);
    k.Add("observation_grid_size", std::vector<double>{-18.0, 18.0, -18.0, 18.0},
          &Params::observation_grid_size);
    k.Add("observation_grid_step", std::vector<double>{3.0, 3.0},
          &Params::observation_grid_step);
    k.Add("observation_align_to_vehicle_axes", true,
          &Params::observation_align_to_vehicle_axes);
    k.Add("duration", 300.0, &Params::duration);
    k.Add("collision_reward", -1.0, &Params::collision_reward);
    k.Add("lane_centering_cost", 4.0, &Params::lane_centering_cost).AtLeast(0.0);
    k.Add("lane_centering_reward", 1.0, &Params::lane_centering_reward);
    k.Add("action_reward", -0.3, &Params::action_reward);
    k.Add("controlled_vehicles", 1, &Params::controlled_vehicles).In(1, 10);
    k.Add("other_vehicles", 1, &Params::other_vehicles).In(0, 1000);
    // read by the large track only, as in the package (the others' limits are 10)
    k.Add("speed_limit", 10.0, &Params::speed_limit);
    k.Add("terminate_off_road", true, &Params::terminate_off_road);
    k.Add("neighbour_vehicles_connected_lanes", false,
          &Params::neighbour_vehicles_connected_lanes);
    // the oval's: the straights' length and the lanes (the package's 0, random, refused)
    k.Add("length", 100, &Params::length).In(1, 100000);
    k.Add("no_lanes", 3, &Params::no_lanes).In(2, 100);
    return k;
  }
  static Config Defaults() {
    Config c = Keys().Defaults();
    AddNumericDefaults(c);
    return c;
  }
  static EnvSpec MakeSpec(const Params& p) {
    EnvSpec spec;
    const double inf = INFINITY;
    spec.obs.push_back(BoxSpec("obs", DType::kFloat32,
                               {static_cast<std::int64_t>(p.grid.features.size()),
                                p.grid.Width(), p.grid.Height()},
                               {-inf}, {inf}));
    AddActionAndInfoSpec(p, {"lane_centering_reward", "action_reward", "collision_reward",
                             "on_road_reward"},
                         &spec);
    return spec;
  }

  explicit RacetrackEnv(const Params& p)
      : AbstractEnv(p, std::make_unique<OccupancyGridObservation>(p.grid)), params_(p) {}

 protected:
  DebugScene Debug() const override {
    static const char* const kNames[] = {"racetrack", "racetrack_large", "racetrack_oval"};
    return {kNames[params_.track], 0, 0};
  }
  void CreateScene() override {
    switch (params_.track) {
      case 1: MakeLargeRoad(); break;
      case 2: MakeOvalRoad(); break;
      default: MakeRoad(); break;
    }
    road_.neighbour_vehicles_connected_lanes = params_.neighbour_vehicles_connected_lanes;
    MakeVehicles();
  }

  std::vector<RewardTerm> Rewards() const override {
    const Vehicle& v = vehicle();
    const double lateral = v.lane().LocalCoordinates(v.position)[1];
    // np.linalg.norm(action): sqrt(action.dot(action)) in float32
    float sq = 0.0F;
    for (const float a : last_action_) sq = sq + a * a;
    const float norm = std::sqrt(sq);
    return {{"lane_centering_reward",
             1 / (1 + params_.lane_centering_cost * (lateral * lateral))},
            {"action_reward", static_cast<double>(norm)},
            {"collision_reward", v.crashed ? 1.0 : 0.0},
            {"on_road_reward", v.OnRoad() ? 1.0 : 0.0}};
  }

  // The sum follows numpy's types: the action term is a float32 (the weight, a Python
  // float, times the float32 norm); on a straight lane the lateral coordinate, so the
  // lane-centering term, is a Python float (StraightLane.local_coordinates returns floats),
  // and a Python float plus a float32 is a float32: the running sum is rounded to float32
  // there and after adding the collision term (a Python int); on a circular or sine lane
  // they are numpy float64s and the sum stays float64. The on-road term, 0 x a numpy bool,
  // is a numpy int64, which makes the sum float64 again. (Where on_road is Python's False,
  // the reward is 0 either way.)
  double Reward(const std::vector<RewardTerm>& t) const override {
    const float action =
        static_cast<float>(params_.action_reward) * static_cast<float>(t[1].value);
    double reward;
    if (vehicle().lane().kind() == Lane::Kind::kStraight) {
      float sum = static_cast<float>(0 + params_.lane_centering_reward * t[0].value);
      sum = sum + action;
      sum = sum + static_cast<float>(params_.collision_reward * t[2].value);
      reward = static_cast<double>(sum);
    } else {
      reward = 0 + params_.lane_centering_reward * t[0].value;
      reward = reward + static_cast<double>(action);
      reward = reward + params_.collision_reward * t[2].value;
    }
    reward = reward + 0 * t[3].value;
    reward = Lmap(reward, params_.collision_reward, 1, 0, 1);
    return reward * t[3].value;
  }

  bool IsTerminated() const override {
    if (params_.terminate_off_road) return vehicle().crashed || !vehicle().OnRoad();
    return vehicle().crashed;
  }
  bool IsTruncated() const override { return time_ >= params_.duration; }

 private:
  using LT = LineType;

  void S(RoadNetwork& net, const char* from, const char* to, Vec2 start, Vec2 end, LT left,
         LT right, double speed_limit) const {
    net.AddLane(from, to,
                Lane::Straight(start, end, params_.blas, 5, left, right, false, speed_limit));
  }
  void C(RoadNetwork& net, const char* from, const char* to, Vec2 center, double radius,
         double start_deg, double end_deg, bool clockwise, LT left, LT right,
         double speed_limit) const {
    net.AddLane(from, to,
                Lane::Circular(center, radius, Deg2Rad(start_deg), Deg2Rad(end_deg), clockwise,
                               params_.blas, 5, left, right, false, speed_limit));
  }

  // RacetrackEnv._make_road: 2 lanes, 5 m wide, speed limit 10.
  void MakeRoad() {
    RoadNetwork net;
    const double sl = 10.0;
    const LT c = LT::kContinuous, s = LT::kStriped, n = LT::kNone;
    S(net, "a", "b", {42, 0}, {100, 0}, c, s, sl);
    S(net, "a", "b", {42, 5}, {100, 5}, s, c, sl);
    C(net, "b", "c", {100, -20}, 20, 90, -1, false, c, n, sl);
    C(net, "b", "c", {100, -20}, 20 + 5, 90, -1, false, s, c, sl);
    S(net, "c", "d", {120, -20}, {120, -30}, c, n, sl);
    S(net, "c", "d", {125, -20}, {125, -30}, s, c, sl);
    C(net, "d", "e", {105, -30}, 15, 0, -181, false, c, n, sl);
    C(net, "d", "e", {105, -30}, 15 + 5, 0, -181, false, s, c, sl);
    C(net, "e", "f", {70, -30}, 15 + 5, 0, 136, true, c, s, sl);
    C(net, "e", "f", {70, -30}, 15, 0, 137, true, n, c, sl);
    S(net, "f", "g", {55.7, -15.7}, {35.7, -35.7}, c, n, sl);
    S(net, "f", "g", {59.3934, -19.2}, {39.3934, -39.2}, s, c, sl);
    C(net, "g", "h", {18.1, -18.1}, 25, 315, 170, false, c, n, sl);
    C(net, "g", "h", {18.1, -18.1}, 25 + 5, 315, 165, false, s, c, sl);
    C(net, "h", "i", {18.1, -18.1}, 25, 170, 56, false, c, n, sl);
    C(net, "h", "i", {18.1, -18.1}, 25 + 5, 170, 58, false, s, c, sl);
    C(net, "i", "a", {43.2, 23.4}, 18.5 + 5, 240, 270, true, c, s, sl);
    C(net, "i", "a", {43.2, 23.4}, 18.5, 238, 268, true, n, c, sl);
    road_.network = std::move(net);
  }

  // RacetrackEnvLarge._make_road: 3 lanes (w = 5, w2 = 10), speed limit config
  // ["speed_limit"]; the slants' ends computed as the package computes them.
  void MakeLargeRoad() {
    RoadNetwork net;
    const double sl = params_.speed_limit;
    const double w = 5, w2 = 2 * w;
    const LT c = LT::kContinuous, s = LT::kStriped, n = LT::kNone;
    S(net, "a", "b", {42, 0}, {200, 0}, c, s, sl);
    S(net, "a", "b", {42, w}, {200, w}, s, s, sl);
    S(net, "a", "b", {42, w2}, {200, w2}, n, c, sl);
    C(net, "b", "c", {200, -20}, 20, 90, -1, false, c, n, sl);
    C(net, "b", "c", {200, -20}, 20 + w, 90, -1, false, s, s, sl);
    C(net, "b", "c", {200, -20}, 20 + w2, 90, -1, false, n, c, sl);
    const double delta_extension = -1.0;
    S(net, "c", "d", {220, -20}, {220, -60 + delta_extension}, c, n, sl);
    S(net, "c", "d", {220 + w, -20}, {220 + w, -60 + delta_extension}, s, s, sl);
    S(net, "c", "d", {220 + w2, -20}, {220 + w2, -60 + delta_extension}, n, c, sl);
    C(net, "d", "e", {205, -60}, 15, 0, -181, false, c, n, sl);
    C(net, "d", "e", {205, -60}, 15 + w, 0, -181, false, s, s, sl);
    C(net, "d", "e", {205, -60}, 15 + w2, 0, -181, false, n, c, sl);
    C(net, "e", "f", {170, -60}, 15 + 5, 0, 136, true, c, n, sl);
    C(net, "e", "f", {170, -60}, 15, 0, 137, true, s, s, sl);
    C(net, "e", "f", {170, -60}, 15 - w, 0, 137, true, n, c, sl);
    // 6: the slant, extended by [-30, -30]; the third lane twice the second's offset
    const Vec2 extend = {-30, -30};
    const Vec2 start6 = {155.7, -45.7};
    const Vec2 end6 = {135.7 + extend[0], -65.7 + extend[1]};
    const Vec2 start6_2 = {159.3934, -49.2};
    const Vec2 end6_2 = {139.3934 + extend[0], -69.2 + extend[1]};
    const Vec2 start6_3 = {start6[0] + 2 * (start6_2[0] - start6[0]),
                           start6[1] + 2 * (start6_2[1] - start6[1])};
    const Vec2 end6_3 = {end6[0] + 2 * (end6_2[0] - end6[0]), end6[1] + 2 * (end6_2[1] - end6[1])};
    S(net, "f", "g", start6, end6, c, n, sl);
    S(net, "f", "g", start6_2, end6_2, s, s, sl);
    S(net, "f", "g", start6_3, end6_3, n, c, sl);
    // 7: the arc reflecting the slant
    const Vec2 center7 = {118.1 + extend[0], -48.1 + extend[1]};
    const double radii7 = 25, theta7 = 317, theta7_end = 205;
    C(net, "g", "h", center7, radii7, theta7, theta7_end - 3, false, c, n, sl);
    C(net, "g", "h", center7, radii7 + 5, theta7, theta7_end, false, s, s, sl);
    C(net, "g", "h", center7, radii7 + w2, theta7, theta7_end, false, n, c, sl);
    // 8: the next slant, from the arc's end to section 9's start
    const double te = Deg2Rad(theta7_end);
    auto start8 = [&](double r) {
      return Vec2{center7[0] + r * std::cos(te), center7[1] + r * std::sin(te)};
    };
    const double radii9 = 15, rad = Deg2Rad(30);
    auto end8 = [&](double r) { return Vec2{42 - r * std::cos(rad), -radii9 - r * std::sin(rad)}; };
    S(net, "h", "i", start8(radii7), end8(radii9), c, n, sl);
    S(net, "h", "i", start8(radii7 + w), end8(radii9 + w), s, s, sl);
    S(net, "h", "i", start8(radii7 + w2), end8(radii9 + w2), n, c, sl);
    // 9: the arc back to the start
    const Vec2 center9 = {42, -radii9};
    C(net, "i", "a", center9, radii9, 210, 88, false, c, n, sl);
    C(net, "i", "a", center9, radii9 + w, 210, 90, false, s, s, sl);
    C(net, "i", "a", center9, radii9 + w2, 212, 88, false, n, c, sl);
    road_.network = std::move(net);
  }

  // RacetrackEnvOval._make_road: no_lanes lanes 5 m apart on each of 8 sections (the first
  // lane continuous left, the middle ones striped, the last continuous right), straights of
  // `length`, speed limit 10.
  void MakeOvalRoad() {
    RoadNetwork net;
    const double sl = 10;
    const double length = params_.length;
    const int lanes = params_.no_lanes;
    const LT c = LT::kContinuous, s = LT::kStriped, n = LT::kNone;
    // each section: the first lane, lanes 1 .. no_lanes - 2, the last (at no_lanes - 1)
    auto section = [&](auto&& add, LT mid_right) {
      add(0, c, n);
      for (int i = 1; i < lanes - 1; ++i) add(i, s, mid_right);
      add(lanes - 1, s, c);
    };
    section([&](int i, LT l, LT r) {
      S(net, "a", "b", {0, i * 5.0}, {length + 1, i * 5.0}, l,
        i == 0 ? s : r, sl);
    }, n);
    section([&](int i, LT l, LT r) {
      C(net, "b", "c", {length, -20}, 20 + i * 5, 90, 0, false, l, r, sl);
    }, n);
    section([&](int i, LT l, LT r) {
      S(net, "c", "d", {length + 20 + i * 5, -20}, {length + 20 + i * 5, -50}, l, r, sl);
    }, n);
    section([&](int i, LT l, LT r) {
      C(net, "d", "e", {length + 5, -50}, 15 + i * 5, 0, -90, false, l, r, sl);
    }, n);
    section([&](int i, LT l, LT r) {
      const double y = -(65 + i * 5);
      S(net, "e", "f", {length + 5, y}, {-5, y}, l, r, sl);
    }, n);
    section([&](int i, LT l, LT r) {
      C(net, "f", "g", {-5, -50}, 15 + i * 5, -90, -180, false, l, r, sl);
    }, n);
    section([&](int i, LT l, LT r) {
      S(net, "g", "h", {-20.0 - i * 5, -50}, {-20.0 - i * 5, -20}, l, r, sl);
    }, n);
    section([&](int i, LT l, LT r) {
      C(net, "h", "a", {0, -20}, 20 + i * 5, 180, 90, false, l, r, sl);
    }, c);
    road_.network = std::move(net);
  }

  // _make_vehicles (both versions: the oval draws the first lane among no_lanes).
  void MakeVehicles() {
    NumpyGenerator& rng = np_random_;
    RoadNetwork& net = road_.network;  // (Node: the nodes exist)
    const int ab_lanes = params_.track == 2 ? params_.no_lanes : 2;
    LaneIndex lane_index;
    for (int i = 0; i < params_.controlled_vehicles; ++i) {
      lane_index = i == 0 ? LaneIndex{net.Node("a"), net.Node("b"),
                                      static_cast<int>(rng.Integers(0, ab_lanes))}
                          : RandomLaneIndex();
      const Lane& lane = net.GetLane(lane_index);
      const double longitudinal = rng.Uniform(20, 50);
      std::unique_ptr<Vehicle> v = MakeControlled(lane.Position(longitudinal, 0),
                                                  lane.HeadingAt(longitudinal),
                                                  lane.speed_limit());
      controlled_.push_back(v.get());
      road_.vehicles.push_back(std::move(v));
    }
    if (params_.other_vehicles <= 0) return;
    {
      const LaneIndex front = {net.Node("b"), net.Node("c"), lane_index.id};
      const double longitudinal =
          rng.Uniform(0.0, net.GetLane({net.Node("b"), net.Node("c"), 0}).length());
      const double speed = 6.0 + rng.Uniform(0.0, 3.0);
      const Lane& lane = net.GetLane(front);
      road_.vehicles.push_back(std::make_unique<IDMVehicle>(
          &road_, lane.Position(longitudinal, 0), lane.HeadingAt(longitudinal), speed));
    }
    const std::int64_t count = rng.Integers(0, params_.other_vehicles);
    for (std::int64_t k = 0; k < count; ++k) {
      const LaneIndex index = RandomLaneIndex();
      const Lane& lane = net.GetLane(index);
      const double longitudinal = rng.Uniform(0.0, lane.length());
      const double speed = 6.0 + rng.Uniform(0.0, 3.0);
      auto v = std::make_unique<IDMVehicle>(&road_, lane.Position(longitudinal, 0),
                                            lane.HeadingAt(longitudinal), speed);
      bool clear = true;  // prevent early collisions
      for (const auto& o : road_.vehicles) {
        if (params_.blas.Norm2(v->position[0] - o->position[0],
                               v->position[1] - o->position[1]) < 20) {
          clear = false;
          break;
        }
      }
      if (clear) road_.vehicles.push_back(std::move(v));
    }
  }

  // RoadNetwork.random_lane_index(np_random): choice of the origins, of the origin's
  // destinations, integers of the road's lanes.
  LaneIndex RandomLaneIndex() {
    const RoadNetwork& net = road_.network;
    const std::vector<int> origins = net.Origins();
    const int from = origins[static_cast<std::size_t>(
        np_random_.Integers(0, static_cast<std::int64_t>(origins.size())))];
    const std::vector<int> dests = net.Destinations(from);
    const int to = dests[static_cast<std::size_t>(
        np_random_.Integers(0, static_cast<std::int64_t>(dests.size())))];
    return {from, to, static_cast<int>(np_random_.Integers(0, net.LaneCount(from, to)))};
  }

  Params params_;
};

}  // namespace envpool::highway
