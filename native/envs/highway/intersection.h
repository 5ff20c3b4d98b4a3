// highway-env's envs/intersection_env.py, restated: IntersectionEnv (intersection-v0),
// MultiAgentIntersectionEnv (intersection-multi-agent-v0 and -v1: multi_agent=True, two
// controlled vehicles) and the ConnectedLane variants (-v2: neighbour_vehicles_connected_lanes).
//
// _make_road: a 4-way intersection on a RegulatedRoad (Road::regulated); for each corner c
// (angle = radians(90 c), rotation [[cos, -sin], [sin, cos]], priority 3 for the horizontal
// corners 1 and 3, else 1), in this order: the incoming lane o_c -> ir_c, the right turn
// ir_c -> il_(c-1)%4 (radius 9, clockwise), the left turn ir_c -> il_(c+1)%4 (radius 13,
// counter-clockwise, priority - 1), the straight lane ir_c -> il_(c+2)%4 and the exit lane
// il_(c-1)%4 -> o_(c-1)%4; every lane with a speed limit of 10.
// _make_vehicles(initial_vehicle_count): IDMVehicle's DISTANCE_WANTED = 7, COMFORT_ACC_MAX = 6,
// COMFORT_ACC_MIN = -3 (class attributes the package sets); n - 1 spawns at linspace(0, 80,
// n)[t] (spawn probability 0.6); 3 s of simulation; a challenger going straight at 60
// (probability 1, position deviation 0.1, speed deviation 0); then each controlled vehicle
// on (o_(i%4), ir_(i%4), 0) at 60 + 5 normal(1) with the lane's speed limit, its route
// planned to `destination` (or to o_k, k = integers(1, 4), drawn first), its MDPVehicle
// speed index the speed limit's (a ContinuousAction's plain Vehicle plans no route); the
// other vehicles within 20 m of it removed.
// _spawn_vehicle: uniform() > probability: none; route = choice(4, 2, replace=False)
// (numpy's Floyd sampling, then its index shuffle), straight on (r0 + 2) % 4 for the
// challenger; an IDMVehicle on (o_r0, ir_r0, 0) at longitudinal + 5 + normal() x position
// deviation with speed 8 + normal() x speed deviation; dropped if within 15 m of a vehicle,
// else its route planned to o_r1, its DELTA randomized and appended.
// step: AbstractEnv.step, then _clear_vehicles (the others leaving the exits, or without a
// route) and _spawn_vehicle(0, spawn_probability).
// Rewards, per controlled vehicle: collision (crashed), high_speed (lmap of speed over
// reward_speed_range, clipped to [0, 1]), arrived (on an exit lane, 25 m along), on_road;
// its reward is their weighted sum (on_road's weight 0), arrived_reward once arrived, times
// on_road, lmapped from [collision_reward, arrived_reward] to [0, 1] if normalize_reward.
// The reward is the agents' mean, info["rewards"] each term's mean, info["agents_rewards"]
// and ["agents_terminated"] (crashed or arrived) per agent. Terminated: any agent crashed,
// all arrived, or off road (offroad_terminal). Truncated: time >= duration.
//
// The multi-agent ids are multi-player envs in sail-sg EnvPool's layout (abstract_env.h):
// one player per controlled vehicle, its reward (info "reward", float32) the env's reward
// (the agents' mean) or, with the package's MultiAgentWrapper (multi_agent_wrapper: -v1,
// -v2), its own (agents_rewards[i]), whose terminated is every agent's agents_terminated;
// per player also "players.speed" and "players.crashed" (its vehicle's), as EnvPool's.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/highway/abstract_env.h"

namespace envpool::highway {

class IntersectionEnv final : public AbstractEnv {
 public:
  struct Params : CommonParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      agents = multi_agent ? controlled_vehicles : 0;
      // the multi-agent native env's (MultiAgentDefaults): the players a row holds
      if (c.Has("max_num_players")) {
        max_num_players = static_cast<int>(c.GetInt("max_num_players"));
      }
      if (agents > max_num_players && max_num_players > 0) {
        throw std::invalid_argument(
            "highway: controlled_vehicles (" + std::to_string(controlled_vehicles) +
            ") is more than max_num_players (" + std::to_string(max_num_players) +
            "), the players a batch row holds: pass max_num_players=" +
            std::to_string(controlled_vehicles) + " too");
      }
      if (multi_agent_wrapper && !multi_agent) {
        throw std::invalid_argument("highway: multi_agent_wrapper needs multi_agent=True");
      }
      Check(c);
    }
    double duration;
    std::string destination;  // "": None (a random exit)
    int controlled_vehicles;
    int initial_vehicle_count;
    double spawn_probability;
    double collision_reward;
    double high_speed_reward;
    double arrived_reward;
    std::pair<double, double> reward_speed_range;
    bool normalize_reward;
    bool neighbour_vehicles_connected_lanes;
    bool multi_agent;
    bool multi_agent_wrapper;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    CommonDefaults d;
    d.simulation_frequency = 15;
    // RegulatedRoad enforces its rules every int(1 / dt / 2) steps: at least one
    d.min_simulation_frequency = 2;
    d.action_lateral = false;
    d.target_speeds = {0.0, 4.5, 9.0};
    d.observation_features = {"presence", "x", "y", "vx", "vy", "cos_h", "sin_h"};
    d.observation_vehicles_count = 15;
    d.viewer = {600, 600, 5.5 * 1.3, {0.5, 0.6}};
    d.observation_absolute = true;
    d.observation_features_range = {-100.0, 100.0, -100.0, 100.0, -20.0, 20.0, -20.0, 20.0};
    AddCommonKeywords(k, d);
    k.Add("duration", 13.0, &Params::duration);
    k.Add("destination", std::string("o1"), &Params::destination);
    k.Add("controlled_vehicles", 1, &Params::controlled_vehicles).In(1, 100);
    k.Add("initial_vehicle_count", 10, &Params::initial_vehicle_count).In(0, 1000);
    k.Add("spawn_probability", 0.6, &Params::spawn_probability);
    k.Add("collision_reward", -5.0, &Params::collision_reward);
    k.Add("high_speed_reward", 1.0, &Params::high_speed_reward);
    k.Add("arrived_reward", 1.0, &Params::arrived_reward);
    k.Add("reward_speed_range", std::pair<double, double>{7.0, 9.0},
          &Params::reward_speed_range);
    k.Add("normalize_reward", false, &Params::normalize_reward);
    k.Add("neighbour_vehicles_connected_lanes", false,
          &Params::neighbour_vehicles_connected_lanes);
    // MultiAgentAction and MultiAgentObservation over the controlled vehicles
    k.Add("multi_agent", false, &Params::multi_agent);
    // the package's MultiAgentWrapper (intersection-multi-agent-v1, -v2): each player's own
    // reward, and terminated once every agent is
    k.Add("multi_agent_wrapper", false, &Params::multi_agent_wrapper);
    // numpy's ziggurat tables (the spawns draw normals), passed by envpool.make
    AddZigguratKeywords(k);
    return k;
  }
  static Config Defaults() {
    Config c = Keys().Defaults();
    AddNumericDefaults(c);
    return c;
  }
  // The multi-agent ids' native env (IntersectionMultiAgent): MultiAgentIntersectionEnv's
  // two controlled vehicles, multi-agent, and the pool's max_num_players.
  static Config MultiAgentDefaults() {
    Config c = Defaults();
    c.Set("multi_agent", true);
    c.Set("controlled_vehicles", std::int64_t{2});
    c.Set("max_num_players", std::int64_t{2}).In(1, 100);
    return c;
  }
  static EnvSpec MakeSpec(const Params& p) {
    EnvSpec spec = CommonSpec(
        p, {"collision_reward", "high_speed_reward", "arrived_reward", "on_road_reward"});
    spec.info.push_back(BoxSpec("agents_rewards", DType::kFloat64, {p.controlled_vehicles}));
    spec.info.push_back(BoxSpec("agents_terminated", DType::kBool, {p.controlled_vehicles}));
    if (p.agents > 0) {  // per player: its reward, its vehicle's speed and crashed
      for (ArraySpec a : {BoxSpec("reward", DType::kFloat32, {}),
                          BoxSpec("players.speed", DType::kFloat32, {}),
                          BoxSpec("players.crashed", DType::kBool, {})}) {
        a.per_player = true;
        spec.info.push_back(a);
      }
    }
    return spec;
  }

  explicit IntersectionEnv(const Params& p) : AbstractEnv(p), params_(p) {
    if (!p.ziggurat.loaded) {
      throw std::invalid_argument(
          "highway: the intersection draws normals: it needs numpy's ziggurat tables (the "
          "_ziggurat_* keywords, which envpool.make passes)");
    }
  }

  void Write(const Slot& slot) const override {
    AbstractEnv::Write(slot);
    const std::size_t k = CommonInfoCount();
    double* rewards = slot.Info<double>(k);
    bool* terminated = slot.Info<bool>(k + 1);
    for (std::size_t i = 0; i < controlled_.size(); ++i) {
      rewards[i] = AgentReward(*controlled_[i]);
      terminated[i] = controlled_[i]->crashed || HasArrived(*controlled_[i]);
    }
    if (common_.agents == 0) return;
    float* reward = slot.Info<float>(k + 2);
    float* speed = slot.Info<float>(k + 3);  // float32, as the env's info["speed"]
    bool* crashed = slot.Info<bool>(k + 4);
    const double mean = Reward(terms_);
    for (std::size_t i = 0; i < controlled_.size(); ++i) {
      reward[i] = static_cast<float>(params_.multi_agent_wrapper ? rewards[i] : mean);
      speed[i] = static_cast<float>(controlled_[i]->speed);
      crashed[i] = controlled_[i]->crashed;
    }
  }

 protected:
  DebugScene Debug() const override {
    const char* name = params_.multi_agent ? "intersection_multi"
                       : common_.continuous ? "intersection_continuous"
                                            : "intersection";
    return {name, 0, 2};
  }
  void CreateScene() override {
    MakeRoad();
    MakeVehicles(params_.initial_vehicle_count);
  }

  std::vector<RewardTerm> Rewards() const override {
    // each term's sum over the agents (from 0, in order) / their number
    double sums[4] = {0, 0, 0, 0};
    for (const Vehicle* v : controlled_) {
      const AgentTerms t = Terms(*v);
      sums[0] = sums[0] + (t.crashed ? 1 : 0);
      sums[1] = sums[1] + t.high_speed;
      sums[2] = sums[2] + (t.arrived ? 1 : 0);
      sums[3] = sums[3] + (t.on_road ? 1 : 0);
    }
    const double n = static_cast<double>(controlled_.size());
    return {{"collision_reward", sums[0] / n},
            {"high_speed_reward", sums[1] / n},
            {"arrived_reward", sums[2] / n},
            {"on_road_reward", sums[3] / n}};
  }

  double Reward(const std::vector<RewardTerm>& /*terms*/) const override {
    double sum = 0;
    for (const Vehicle* v : controlled_) sum = sum + AgentReward(*v);
    return sum / static_cast<double>(controlled_.size());
  }

  bool IsTerminated() const override {
    if (params_.multi_agent_wrapper) {  // every agent's agents_terminated
      return std::all_of(controlled_.begin(), controlled_.end(), [this](const Vehicle* v) {
        return v->crashed || HasArrived(*v);
      });
    }
    bool any_crashed = false, all_arrived = true;
    for (const Vehicle* v : controlled_) {
      any_crashed = any_crashed || v->crashed;
      all_arrived = all_arrived && HasArrived(*v);
    }
    return any_crashed || all_arrived || (common_.offroad_terminal && !vehicle().OnRoad());
  }
  bool IsTruncated() const override { return time_ >= params_.duration; }

  void AfterStep() override {
    ClearVehicles();
    SpawnVehicle(0, 1.0, 1.0, params_.spawn_probability, false);
  }

 private:
  struct AgentTerms {
    bool crashed;
    double high_speed;
    bool arrived;
    bool on_road;
  };

  AgentTerms Terms(const Vehicle& v) const {
    const double scaled_speed =
        Lmap(v.speed, params_.reward_speed_range.first, params_.reward_speed_range.second, 0, 1);
    return {v.crashed, Clip(scaled_speed, 0, 1), HasArrived(v), v.OnRoad()};
  }

  // _agent_reward(action, vehicle).
  double AgentReward(const Vehicle& v) const {
    const AgentTerms t = Terms(v);
    double reward = 0;
    reward = reward + params_.collision_reward * (t.crashed ? 1 : 0);
    reward = reward + params_.high_speed_reward * t.high_speed;
    reward = reward + params_.arrived_reward * (t.arrived ? 1 : 0);
    reward = reward + 0 * (t.on_road ? 1 : 0);
    if (t.arrived) reward = params_.arrived_reward;
    reward *= t.on_road ? 1 : 0;
    if (params_.normalize_reward) {
      reward = Lmap(reward, params_.collision_reward, params_.arrived_reward, 0, 1);
    }
    return reward;
  }

  // "il" in lane_index[0] and "o" in lane_index[1]: on an exit lane.
  bool OnExit(const Vehicle& v) const {
    const RoadNetwork& net = road_.network;
    return net.NodeName(v.lane_index.from).find("il") != std::string::npos &&
           net.NodeName(v.lane_index.to).find('o') != std::string::npos;
  }

  // has_arrived(vehicle, exit_distance=25).
  bool HasArrived(const Vehicle& v) const {
    return OnExit(v) && v.lane().LocalCoordinates(v.position)[0] >= 25;
  }

  static std::string Name(const char* prefix, long k) { return prefix + std::to_string(k); }

  void MakeRoad() {
    const NumpyBlas& blas = common_.blas;
    const double lane_width = Lane::kDefaultWidth;
    const double right_turn_radius = lane_width + 5;
    const double left_turn_radius = right_turn_radius + lane_width;
    const double outer_distance = right_turn_radius + lane_width / 2;
    const double access_length = 50 + 50;
    const LineType n = LineType::kNone, c = LineType::kContinuous, s = LineType::kStriped;
    RoadNetwork net;
    auto radians = [](double degrees) { return degrees * (kPi / 180.0); };  // np.radians
    for (int corner = 0; corner < 4; ++corner) {
      const double angle = radians(90 * corner);
      const bool is_horizontal = corner % 2 != 0;
      const int priority = is_horizontal ? 3 : 1;
      const double r0[2] = {std::cos(angle), -std::sin(angle)};
      const double r1[2] = {std::sin(angle), std::cos(angle)};
      // rotation @ v: numpy's dgemv, summed as the running numpy sums it
      auto rotate = [&](double x, double y) {
        const double v[2] = {x, y};
        return Vec2{NumpyBlas::Sum(r0, v, 2, blas.gemv_fma), NumpyBlas::Sum(r1, v, 2, blas.gemv_fma)};
      };
      const long prev = (corner + 3) % 4, next = (corner + 1) % 4, opposite = (corner + 2) % 4;
      // incoming
      net.AddLane(Name("o", corner), Name("ir", corner),
                  Lane::Straight(rotate(lane_width / 2, access_length + outer_distance),
                                 rotate(lane_width / 2, outer_distance), blas, lane_width, s, c,
                                 false, 10.0, priority));
      // right turn
      net.AddLane(Name("ir", corner), Name("il", prev),
                  Lane::Circular(rotate(outer_distance, outer_distance), right_turn_radius,
                                 angle + radians(180), angle + radians(270), true, blas,
                                 lane_width, n, c, false, 10.0, priority));
      // left turn
      net.AddLane(Name("ir", corner), Name("il", next),
                  Lane::Circular(rotate(-left_turn_radius + lane_width / 2,
                                        left_turn_radius - lane_width / 2),
                                 left_turn_radius, angle + radians(0), angle + radians(-90),
                                 false, blas, lane_width, n, n, false, 10.0, priority - 1));
      // straight
      net.AddLane(Name("ir", corner), Name("il", opposite),
                  Lane::Straight(rotate(lane_width / 2, outer_distance),
                                 rotate(lane_width / 2, -outer_distance), blas, lane_width, s, n,
                                 false, 10.0, priority));
      // exit: from rotation @ flip([w / 2, outer]) to rotation @ flip([w / 2, access + outer])
      net.AddLane(Name("il", prev), Name("o", prev),
                  Lane::Straight(rotate(outer_distance, lane_width / 2),
                                 rotate(access_length + outer_distance, lane_width / 2), blas,
                                 lane_width, n, c, false, 10.0, priority));
    }
    road_.network = std::move(net);
    road_.regulated = true;
    road_.regulation_steps = 0;
    road_.neighbour_vehicles_connected_lanes = params_.neighbour_vehicles_connected_lanes;
  }

  void MakeVehicles(int n_vehicles) {
    for (int t = 0; t < n_vehicles - 1; ++t) {
      // np.linspace(0, 80, n)[t]: t * (80 / (n - 1)) + 0 (t < n - 1: never the endpoint)
      const double longitudinal = static_cast<double>(t) * (80.0 / (n_vehicles - 1)) + 0.0;
      SpawnVehicle(longitudinal, 1.0, 1.0, 0.6, false);
    }
    const double dt = 1.0 / common_.simulation_frequency;
    for (int i = 0; i < 3 * common_.simulation_frequency; ++i) {
      road_.Act();
      road_.Step(dt);
    }
    // the challenger
    SpawnVehicle(60, 0.1, 0.0, 1.0, true);
    for (int ego_id = 0; ego_id < params_.controlled_vehicles; ++ego_id) {
      const LaneIndex ego_index = {road_.network.FindNode(Name("o", ego_id % 4)),
                                   road_.network.FindNode(Name("ir", ego_id % 4)), 0};
      const Lane& ego_lane = road_.network.GetLane(ego_index);
      const std::string destination =
          !params_.destination.empty()
              ? params_.destination
              : Name("o", static_cast<long>(np_random_.Integers(1, 4)));
      const double x = 60.0 + 5.0 * common_.ziggurat.Normal(np_random_, 1.0, 1.0);
      std::unique_ptr<Vehicle> ego =
          MakeControlled(ego_lane.Position(x, 0.0), ego_lane.HeadingAt(60.0),
                         ego_lane.speed_limit());
      if (auto* mdp = dynamic_cast<MDPVehicle*>(ego.get())) {
        mdp->PlanRouteTo(destination);
        mdp->speed_index = mdp->SpeedToIndex(ego_lane.speed_limit());
        mdp->target_speed = mdp->target_speeds[static_cast<std::size_t>(mdp->speed_index)];
      }
      Vehicle* placed = ego.get();
      road_.vehicles.push_back(std::move(ego));
      controlled_.push_back(placed);
      // prevent early collisions: the others within 20 m go
      std::vector<std::unique_ptr<Vehicle>> kept;
      for (auto& v : road_.vehicles) {
        const bool controlled =
            std::find(controlled_.begin(), controlled_.end(), v.get()) != controlled_.end();
        if (!controlled && road_.blas.Norm2(v->position[0] - placed->position[0],
                                            v->position[1] - placed->position[1]) < 20) {
          continue;
        }
        kept.push_back(std::move(v));
      }
      road_.vehicles = std::move(kept);
    }
  }

  // numpy's Generator.choice(4, size=2, replace=False): Floyd's sampling (j = 2, 3: a
  // bounded draw in [0, j], j itself where it is taken), then its index shuffle (i = 1:
  // swap with a bounded draw in [0, 1]).
  std::pair<int, int> ChooseTwoOfFour() {
    int idx[2];
    idx[0] = static_cast<int>(np_random_.Integers(0, 3));
    const int val = static_cast<int>(np_random_.Integers(0, 4));
    idx[1] = val == idx[0] ? 3 : val;
    const int j = static_cast<int>(np_random_.Integers(0, 2));
    std::swap(idx[j], idx[1]);
    return {idx[0], idx[1]};
  }

  void SpawnVehicle(double longitudinal, double position_deviation, double speed_deviation,
                    double spawn_probability, bool go_straight) {
    if (np_random_.Uniform(0.0, 1.0) > spawn_probability) return;
    auto [r0, r1] = ChooseTwoOfFour();
    if (go_straight) r1 = (r0 + 2) % 4;
    const double x =
        longitudinal + 5.0 + common_.ziggurat.StandardNormal(np_random_) * position_deviation;
    const double speed = 8.0 + common_.ziggurat.StandardNormal(np_random_) * speed_deviation;
    // IDMVehicle.make_on_lane
    const Lane& lane = road_.network.GetLane(
        {road_.network.FindNode(Name("o", r0)), road_.network.FindNode(Name("ir", r0)), 0});
    auto v = std::make_unique<IDMVehicle>(&road_, lane.Position(x, 0), lane.HeadingAt(x), speed);
    v->distance_wanted = 7;
    v->comfort_acc_max = 6;
    v->comfort_acc_min = -3;
    for (const auto& other : road_.vehicles) {
      if (road_.blas.Norm2(other->position[0] - v->position[0],
                           other->position[1] - v->position[1]) < 15) {
        return;
      }
    }
    v->PlanRouteTo(Name("o", r1));
    v->RandomizeBehavior(np_random_);
    road_.vehicles.push_back(std::move(v));
  }

  // _clear_vehicles: the controlled vehicles stay; the others go when leaving (on an exit
  // lane, within 4 LENGTH of its end) or without a route.
  void ClearVehicles() {
    std::vector<std::unique_ptr<Vehicle>> kept;
    for (auto& v : road_.vehicles) {
      const bool controlled =
          std::find(controlled_.begin(), controlled_.end(), v.get()) != controlled_.end();
      bool leaves = false;
      if (!controlled) {
        const bool leaving = OnExit(*v) && v->lane().LocalCoordinates(v->position)[0] >=
                                               v->lane().length() - 4 * Vehicle::kLength;
        // (route is None: an empty route here; a spawned vehicle's route empties only at
        // its exit's end, where it is leaving anyway)
        const bool no_route =
            !v->IsControlled() || static_cast<const ControlledVehicle&>(*v).route.empty();
        leaves = leaving || no_route;
      }
      if (!leaves) kept.push_back(std::move(v));
    }
    road_.vehicles = std::move(kept);
  }

  Params params_;
};

}  // namespace envpool::highway
