// highway-env's vehicles and the road they share, restated:
//   - RoadObject and Vehicle (vehicle/objects.py, vehicle/kinematics.py): the kinematic
//     bicycle model, its action clipping, and the collisions between rectangles
//     (handle_collisions, _is_colliding, utils.are_polygons_intersecting);
//   - ControlledVehicle and MDPVehicle (vehicle/controller.py): the speed and lane-following
//     controllers, the meta-actions (lane changes, target speeds), the route (plan_route_to,
//     followed at each lane's end);
//   - IDMVehicle (vehicle/behavior.py): the IDM longitudinal model and MOBIL lane changes
//     (towards the route's lane where the route names one);
//   - Obstacle and Landmark (vehicle/objects.py): still rectangles on the road;
//   - Road (road/road.py): the vehicles and objects in the package's list order, act(),
//     step(dt) with its collision pairs, neighbour_vehicles and close_objects_to; and,
//     opt-in, road/regulation.py's RegulatedRoad (the intersection's right of way).
// Every product and sum is the package's, in its order; np.dot and np.linalg.norm of two
// numbers follow the running numpy's BLAS (envs/common/numpy_blas.h); np.power(x, 2) is
// numpy's x * x and np.power(x, delta) libm's pow, as numpy calls them.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "envs/common/numpy_blas.h"
#include "envs/common/numpy_random.h"
#include "envs/highway/lane.h"
#include "envs/highway/road_network.h"
#include "envs/highway/utils.h"

namespace envpool::highway {

class Road;

// Vehicle.action: {"steering": ..., "acceleration": ...}.
struct VehicleAction {
  double steering = 0.0;
  double acceleration = 0.0;
};

// The high-level actions of ControlledVehicle.act (DiscreteMetaAction's labels).
enum class MetaAction { kNone, kLaneLeft, kIdle, kLaneRight, kFaster, kSlower };

// What a road object is: a Vehicle (and its subclasses), an Obstacle (solid) or a Landmark
// (not solid), RoadObject's two subclasses.
enum class ObjectKind { kVehicle, kObstacle, kLandmark };

// RoadObject + Vehicle: a rectangle on the road that moves with the bicycle model.
class Vehicle {
 public:
  static constexpr double kLength = 5.0;    // Vehicle.LENGTH
  static constexpr double kWidth = 2.0;     // Vehicle.WIDTH
  static constexpr double kMaxSpeed = 40.0;   // Vehicle.MAX_SPEED
  static constexpr double kMinSpeed = -40.0;  // Vehicle.MIN_SPEED

  // RoadObject.__init__ then Vehicle.__init__: the closest lane (with heading) is the
  // vehicle's lane; impact is None.
  Vehicle(Road* road, Vec2 position, double heading, double speed);
  virtual ~Vehicle() = default;
  Vehicle(const Vehicle&) = delete;
  Vehicle& operator=(const Vehicle&) = delete;

  virtual bool IsControlled() const { return false; }  // isinstance(v, ControlledVehicle)
  bool IsVehicle() const { return kind == ObjectKind::kVehicle; }  // isinstance(v, Vehicle)

  // act(): what Road.act calls; a plain Vehicle keeps its stored action.
  virtual void Act() {}
  // Vehicle.act(action): store an action to be repeated.
  void SetAction(const VehicleAction& action) { action_ = action; }
  // step(dt): Vehicle.step (IDMVehicle adds its timer).
  virtual void Step(double dt);

  // direction, velocity (speed * direction), polygon (the rectangle's 4 corners and the
  // first again), lane_distance_to, on_road, front_distance_to.
  // (remembered with the heading it was computed for, as LocalOn)
  Vec2 Direction() const {
    if (!direction_valid_ || std::memcmp(&direction_heading_, &heading, sizeof(double)) != 0) {
      direction_ = {std::cos(heading), std::sin(heading)};
      direction_heading_ = heading;
      direction_valid_ = true;
    }
    return direction_;
  }
  Vec2 Velocity() const {
    const Vec2 d = Direction();
    return {speed * d[0], speed * d[1]};
  }
  std::array<Vec2, 5> Polygon() const;
  double LaneDistanceTo(const Vehicle& other, const Lane* lane = nullptr) const;
  bool OnRoad() const {
    const Lane& l = lane();
    const Vec2 sl = LocalOn(l);
    return l.OnLane(sl[0], sl[1]);
  }
  const Lane& lane() const;
  // lane.local_coordinates(position) of this vehicle on a lane: remembered per lane of the
  // road's network (by its serial) with the position it was computed at, and computed anew
  // once the position changes (any bit of it), so it is always the same number. Neighbour
  // searches ask it of every vehicle on a lane several times a frame; the closest-lane search
  // after each step computes it on every lane and remembers it. (A lane's address is its
  // key too: the network's lanes stay in place while its vehicles live, as every task
  // builds the network before the vehicles.)
  Vec2 LocalOn(const Lane& l) const {
    const auto k = static_cast<std::size_t>(l.serial());  // (-1: past the end)
    if (k < local_cache_.size()) {
      const LocalEntry& e = local_cache_[k];
      if (e.lane == &l && std::memcmp(e.position.data(), position.data(), sizeof(Vec2)) == 0) {
        return e.local;
      }
    }
    return LocalOnAnew(l);
  }
  // destination: the end of the route's last lane (lane 0 where its id is None), else the
  // position; destination_direction: the unit vector to it, zeros where it is the position.
  virtual Vec2 Destination() const { return position; }
  Vec2 DestinationDirection() const;
  // front_distance_to(other): direction.dot(other.position - position).
  double FrontDistanceTo(const Vehicle& other) const;
  // predict_trajectory_constant_speed(times) (prediction_type "constant_steering"): a copy
  // of the vehicle, acting {acceleration 0, its steering}, stepped by the times'
  // differences; its positions and headings. (A subclass with other dynamics overrides it.)
  virtual std::vector<std::pair<Vec2, double>> PredictTrajectoryConstantSpeed(
      const std::vector<double>& times) const;

  // handle_collisions(other, dt), with another vehicle or a road object (RoadObject).
  void HandleCollisions(Vehicle& other, double dt);

  Road* road;
  Vec2 position;
  double heading;
  double speed;
  LaneIndex lane_index;
  VehicleAction action_;
  bool crashed = false;
  bool hit = false;
  // vehicle.goal: the Landmark a goal-conditioned task (parking) gives a controlled vehicle
  const Vehicle* goal = nullptr;
  bool collidable = true;
  bool solid = true;
  bool check_collisions = true;
  // vehicle.color = VehicleGraphics.EGO_COLOR (parking's controlled vehicles): drawn green
  bool drawn_green = false;
  std::optional<Vec2> impact;
  ObjectKind kind = ObjectKind::kVehicle;
  double length = kLength;  // LENGTH, WIDTH: 2 x 2 for an Obstacle or a Landmark
  double width = kWidth;
  double diagonal;
  // MAX_SPEED / MIN_SPEED, which ContinuousAction's speed_range overrides on its vehicle.
  double max_speed = kMaxSpeed;
  double min_speed = kMinSpeed;

 protected:
  // LocalOn's memory: one entry per lane serial.
  struct LocalEntry {
    const Lane* lane = nullptr;
    Vec2 position{};
    Vec2 local{};
  };
  Vec2 LocalOnAnew(const Lane& lane) const;
  void Remember(const Lane& lane, const Vec2& local) const;
  mutable std::vector<LocalEntry> local_cache_;
  // Direction's memory
  mutable bool direction_valid_ = false;
  mutable double direction_heading_ = 0.0;
  mutable Vec2 direction_{};
  // lane()'s memory: the lane of lane_index
  mutable LaneIndex lane_key_;
  mutable const Lane* lane_ = nullptr;

  void ClipActions();
  // clip_actions on an action `a` of a vehicle at speed v, crashed or not: a crashed vehicle
  // brakes straight (steering 0, acceleration -v); the speed limits bound the acceleration
  void ClipAction(VehicleAction& a, double v, bool is_crashed) const;
  void OnStateUpdate();
};

// Obstacle / Landmark (RoadObject): a 2 m x 2 m rectangle (RoadObject.LENGTH, WIDTH; a task
// may set other dimensions on the instance, as the parking walls do: SetSize), still (never
// stepped: Road.step steps its vehicles only), on the closest lane (with heading) at its
// creation; an Obstacle is solid, a Landmark is not (it is hit, not crashed into).
class RoadObject : public Vehicle {
 public:
  static constexpr double kObjectLength = 2.0, kObjectWidth = 2.0;  // RoadObject.LENGTH, WIDTH
  RoadObject(Road* road, Vec2 position, ObjectKind object_kind, double heading = 0,
             double speed = 0)
      : Vehicle(road, position, heading, speed) {
    kind = object_kind;
    length = kObjectLength;
    width = kObjectWidth;
    diagonal = std::sqrt(length * length + width * width);
    solid = object_kind != ObjectKind::kLandmark;
  }
  // obstacle.LENGTH, obstacle.WIDTH = (length, width); obstacle.diagonal = np.sqrt(L**2 + W**2).
  void SetSize(double length_, double width_) {
    length = length_;
    width = width_;
    diagonal = std::sqrt(length * length + width * width);
  }
  void Step(double /*dt*/) override {}
};

// ControlledVehicle: a speed controller and a lane-following heading controller.
class ControlledVehicle : public Vehicle {
 public:
  static constexpr double kTauAcc = 0.6;
  static constexpr double kTauHeading = 0.2;
  static constexpr double kTauLateral = 0.6;
  static constexpr double kTauPursuit = 0.5 * kTauHeading;
  static constexpr double kKpA = 1 / kTauAcc;
  static constexpr double kKpHeading = 1 / kTauHeading;
  static constexpr double kKpLateral = 1 / kTauLateral;
  static constexpr double kMaxSteeringAngle = kPi / 3;
  static constexpr double kDeltaSpeed = 5;

  // target_lane_index or lane_index; target_speed or speed (Python's `or`: 0 is unset).
  ControlledVehicle(Road* road, Vec2 position, double heading, double speed,
                    std::optional<LaneIndex> target_lane_index = std::nullopt,
                    double target_speed = 0.0);

  bool IsControlled() const override { return true; }
  virtual bool IsMDP() const { return false; }  // isinstance(v, MDPVehicle)
  void Act() override { ActMeta(MetaAction::kNone); }
  // ControlledVehicle.act(action): follow_road, the meta-action, then the two controllers.
  virtual void ActMeta(MetaAction action);
  void FollowRoad();
  double SteeringControl(const LaneIndex& target) const;
  double SpeedControl(double target) const { return kKpA * (target - speed); }
  // plan_route_to(destination): the current lane, then the roads of the shortest path from
  // its end node (lane ids None); the current lane alone where there is no path.
  void PlanRouteTo(const std::string& destination);
  Vec2 Destination() const override;
  // predict_trajectory_constant_speed(times): the positions and headings along the route
  // (or the vehicle's lane) at the lane's longitudinal + speed * t.
  std::vector<std::pair<Vec2, double>> PredictTrajectoryConstantSpeed(
      const std::vector<double>& times) const override;

  LaneIndex target_lane_index;
  double target_speed;
  Route route;  // empty: None
  // RegulatedRoad's marks: yielding (target speed 0) since yield_timer enforcements.
  bool is_yielding = false;
  int yield_timer = 0;
};

// MDPVehicle: a ControlledVehicle whose target speed is one of target_speeds.
class MDPVehicle : public ControlledVehicle {
 public:
  MDPVehicle(Road* road, Vec2 position, double heading, double speed,
             std::vector<double> target_speeds);
  bool IsMDP() const override { return true; }
  void ActMeta(MetaAction action) override;
  // speed_to_index: round((speed - s[0]) / (s[-1] - s[0]) * (n - 1)), clipped to [0, n - 1].
  int SpeedToIndex(double s) const;

  std::vector<double> target_speeds;
  int speed_index;
};

// IDMVehicle: IDM longitudinal acceleration, MOBIL lane changes.
class IDMVehicle : public ControlledVehicle {
 public:
  static constexpr double kAccMax = 6.0;
  static constexpr double kComfortAccMax = 3.0;
  static constexpr double kComfortAccMin = -5.0;
  static constexpr double kDistanceWanted = 5.0 + ControlledVehicle::kLength;
  static constexpr double kTimeWanted = 1.5;
  static constexpr double kDelta = 4.0;
  static constexpr double kDeltaLow = 3.5, kDeltaHigh = 4.5;  // DELTA_RANGE
  static constexpr double kPoliteness = 0.0;
  static constexpr double kLaneChangeMinAccGain = 0.2;
  static constexpr double kLaneChangeMaxBrakingImposed = 2.0;
  static constexpr double kLaneChangeDelay = 1.0;

  // timer or (np.sum(position) * np.pi) % LANE_CHANGE_DELAY.
  IDMVehicle(Road* road, Vec2 position, double heading, double speed);

  void Act() override;
  void ActMeta(MetaAction /*action*/) override { Act(); }
  void Step(double dt) override {
    timer += dt;
    Vehicle::Step(dt);
  }
  // randomize_behavior: DELTA = uniform(DELTA_RANGE).
  void RandomizeBehavior(NumpyGenerator& rng) { delta = rng.Uniform(kDeltaLow, kDeltaHigh); }
  // acceleration(ego_vehicle, front_vehicle) with this vehicle's parameters.
  double Acceleration(const Vehicle* ego, const Vehicle* front) const;
  double DesiredGap(const Vehicle& ego, const Vehicle& front) const;
  void ChangeLanePolicy();
  bool Mobil(const LaneIndex& lane_index);

  double delta = kDelta;
  double timer;
  bool enable_lane_change = true;
  // DISTANCE_WANTED, COMFORT_ACC_MAX, COMFORT_ACC_MIN: class attributes in the package,
  // which a task may set for its vehicles (the intersection's: 7, 6, -3).
  double distance_wanted = kDistanceWanted;
  double comfort_acc_max = kComfortAccMax;
  double comfort_acc_min = kComfortAccMin;

 private:
  // Acceleration's last power: pow_value_ = pow_base_ ** pow_exponent_
  mutable bool pow_valid_ = false;
  mutable double pow_base_ = 0.0, pow_exponent_ = 0.0, pow_value_ = 0.0;
};

// Road: the network, the vehicles in their list order, and the generator the package's
// Road carries (the env's np_random).
class Road {
 public:
  RoadNetwork network;
  std::vector<std::unique_ptr<Vehicle>> vehicles;
  std::vector<std::unique_ptr<Vehicle>> objects;  // Road.objects: obstacles, landmarks
  NumpyGenerator* np_random = nullptr;
  NumpyBlas blas;
  bool neighbour_vehicles_connected_lanes = false;

  // act(): every vehicle's act(), in order. (Acting moves no vehicle: while they act,
  // NeighbourVehicles reads each lane's vehicles from a table made once for the pass.)
  void Act() {
    ++act_pass_;
    acting_ = true;
    struct Done {
      bool* acting;
      ~Done() { *acting = false; }
    } done{&acting_};
    for (auto& v : vehicles) v->Act();
  }
  // RegulatedRoad: REGULATION_FREQUENCY, YIELD_DURATION, and its step counter.
  static constexpr int kRegulationFrequency = 2;
  static constexpr double kYieldDuration = 0.0;
  bool regulated = false;
  std::int64_t regulation_steps = 0;

  // step(dt): (RegulatedRoad: count the step, and every int(1 / dt / REGULATION_FREQUENCY)
  // steps enforce_road_rules), every vehicle's step, then for each vehicle i,
  // handle_collisions with each later vehicle, then with each object.
  void Step(double dt) {
    if (regulated) {
      ++regulation_steps;
      const auto every = static_cast<std::int64_t>(1 / dt / kRegulationFrequency);
      if (regulation_steps % every == 0) EnforceRoadRules();
    }
    for (auto& v : vehicles) v->Step(dt);
    // The pairs where handle_collisions returns at once are skipped: neither checks its
    // collisions, one is not collidable, or the centres' gap is beyond the spherical
    // pre-check's reach in x or y (then np.linalg.norm of the gap is too: it is at least
    // (1 - 2 eps) times the larger coordinate, however numpy sums it). Handling collisions
    // moves no vehicle, so their states are read once, into bodies_.
    bodies_.resize(vehicles.size());
    for (std::size_t i = 0; i < vehicles.size(); ++i) {
      const Vehicle& v = *vehicles[i];
      bodies_[i] = {v.position, v.diagonal, v.speed, v.check_collisions, v.collidable};
    }
    for (std::size_t i = 0; i < vehicles.size(); ++i) {
      const Body& a = bodies_[i];
      for (std::size_t j = i + 1; j < vehicles.size(); ++j) {
        const Body& b = bodies_[j];
        if (!(a.checks || b.checks) || !(a.collidable && b.collidable)) continue;
        const double dx = b.position[0] - a.position[0], dy = b.position[1] - a.position[1];
        const double reach = (a.diagonal + b.diagonal) / 2 + a.speed * dt;
        if (!std::isnan(dx) && !std::isnan(dy) &&
            PyMax(std::abs(dx), std::abs(dy)) * (1 - 1e-12) > reach) {
          continue;
        }
        vehicles[i]->HandleCollisions(*vehicles[j], dt);
      }
      for (auto& o : objects) vehicles[i]->HandleCollisions(*o, dt);
    }
  }

  // neighbour_vehicles(vehicle, lane_index): the closest vehicles or obstacles (landmarks
  // aside) ahead (s <= s_v) and behind (s_v < s) on that lane, each seen on the lane within
  // a margin of 1 m; with
  // neighbour_vehicles_connected_lanes, also on the lanes that continue it and lead to it.
  std::pair<const Vehicle*, const Vehicle*> NeighbourVehicles(const Vehicle& vehicle,
                                                              const LaneIndex& index) const {
    const Lane& lane = network.GetLane(index);
    const double s = vehicle.LocalOn(lane)[0];
    bool has_front = false, has_rear = false;
    double s_front = 0.0, s_rear = 0.0;
    const Vehicle* v_front = nullptr;
    const Vehicle* v_rear = nullptr;
    std::vector<std::pair<const Lane*, double>>& lanes_offsets = lanes_offsets_;
    lanes_offsets.assign(1, {&lane, 0.0});
    if (neighbour_vehicles_connected_lanes) {
      for (const int next_to : network.Destinations(index.to)) {
        const int n = network.LaneCount(index.to, next_to);
        if (index.id < n) {
          lanes_offsets.emplace_back(&network.GetLane({index.to, next_to, index.id}),
                                     lane.length());
        } else if (n > 0) {
          lanes_offsets.emplace_back(&network.GetLane({index.to, next_to, 0}), lane.length());
        }
      }
      for (const auto& [from, roads] : network.graph()) {
        for (const auto& [to, lanes] : roads) {
          if (to != index.from || lanes.empty()) continue;
          const Lane& prev = index.id < static_cast<int>(lanes.size())
                                 ? lanes[static_cast<std::size_t>(index.id)]
                                 : lanes[0];
          lanes_offsets.emplace_back(&prev, -prev.length());
        }
      }
    }
    auto consider = [&](const Vehicle* v, double s_v) {
      if (s <= s_v && (!has_front || s_v <= s_front)) {
        s_front = s_v;
        has_front = true;
        v_front = v;
      }
      if (s_v < s && (!has_rear || s_v > s_rear)) {
        s_rear = s_v;
        has_rear = true;
        v_rear = v;
      }
    };
    if (acting_ && lanes_offsets.size() == 1 && lane.serial() >= 0) {
      for (const LaneEntry& e : LaneTable(lane)) {
        if (e.vehicle != &vehicle) consider(e.vehicle, e.s);
      }
      return {v_front, v_rear};
    }
    auto search = [&](const std::unique_ptr<Vehicle>& v) {
      if (v.get() == &vehicle || v->kind == ObjectKind::kLandmark) return;
      for (const auto& [search_lane, offset] : lanes_offsets) {
        const Vec2 sl = v->LocalOn(*search_lane);
        if (!search_lane->OnLane(sl[0], sl[1], 1.0)) continue;
        consider(v.get(), sl[0] + offset);
        break;
      }
    };
    for (const auto& v : vehicles) search(v);  // self.vehicles + self.objects
    for (const auto& o : objects) search(o);
    return {v_front, v_rear};
  }

  // enforce_road_rules: the yielding vehicles resume (target speed: their lane's limit)
  // after YIELD_DURATION; then for each pair (i, j > i) whose trajectories may conflict,
  // the one of lower lane priority (or, on a par, the one behind) yields: target speed 0,
  // if it is a ControlledVehicle but no MDPVehicle (the controlled ones never yield).
  void EnforceRoadRules();
  // is_conflict_possible(v1, v2, horizon=3, step=0.25), on the two predicted trajectories
  // (predict_trajectory_constant_speed, a ControlledVehicle's along its route):
  // a pair of positions within v1's LENGTH whose rectangles (1.5 LENGTH x 0.9 WIDTH)
  // intersect (utils.rotated_rectangles_intersect).
  bool IsConflictPossible(const std::vector<std::pair<Vec2, double>>& t1,
                          const std::vector<std::pair<Vec2, double>>& t2) const;

  // close_vehicles_to / close_objects_to(vehicle, distance, count, see_behind, sort,
  // vehicles_only): the vehicles within distance (np.linalg.norm), ahead of -2 LENGTH along
  // the vehicle's lane unless see_behind, then (unless vehicles_only) the objects within
  // distance and ahead of -2 LENGTH; sorted (stably) by |lane_distance_to|, the first count
  // (0: all).
  std::vector<const Vehicle*> CloseObjectsTo(const Vehicle& vehicle, double distance, int count,
                                             bool see_behind, bool sort,
                                             bool vehicles_only) const {
    std::vector<const Vehicle*> out;
    auto near = [&](const Vehicle& v) {
      return blas.Norm2(v.position[0] - vehicle.position[0],
                        v.position[1] - vehicle.position[1]) < distance;
    };
    for (const auto& v : vehicles) {
      if (!near(*v)) continue;
      if (v.get() == &vehicle) continue;
      if (!see_behind && !(-2 * vehicle.length < vehicle.LaneDistanceTo(*v))) continue;
      out.push_back(v.get());
    }
    if (!vehicles_only) {
      for (const auto& o : objects) {
        if (near(*o) && -2 * vehicle.length < vehicle.LaneDistanceTo(*o)) out.push_back(o.get());
      }
    }
    if (sort) {
      std::vector<std::pair<double, const Vehicle*>> keyed;
      keyed.reserve(out.size());
      for (const Vehicle* v : out) keyed.emplace_back(std::abs(vehicle.LaneDistanceTo(*v)), v);
      std::stable_sort(keyed.begin(), keyed.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      for (std::size_t i = 0; i < keyed.size(); ++i) out[i] = keyed[i].second;
    }
    if (count > 0 && static_cast<int>(out.size()) > count) out.resize(static_cast<std::size_t>(count));
    return out;
  }
  std::vector<const Vehicle*> CloseVehiclesTo(const Vehicle& vehicle, double distance, int count,
                                              bool see_behind, bool sort) const {
    return CloseObjectsTo(vehicle, distance, count, see_behind, sort, /*vehicles_only=*/true);
  }

 private:
  // A lane's vehicles and obstacles (landmarks aside, in the road's order) within its
  // margin of 1 m, with their longitudinal coordinate on it (+ 0.0, as NeighbourVehicles
  // adds the lane's offset): made at the first NeighbourVehicles of an act pass.
  struct LaneEntry {
    double s;
    const Vehicle* vehicle;
  };
  struct LaneTableEntries {
    std::uint64_t pass = 0;
    std::vector<LaneEntry> entries;
  };
  const std::vector<LaneEntry>& LaneTable(const Lane& lane) const {
    const auto k = static_cast<std::size_t>(lane.serial());
    if (k >= lane_tables_.size()) lane_tables_.resize(k + 1);
    LaneTableEntries& t = lane_tables_[k];
    if (t.pass != act_pass_) {
      t.entries.clear();
      auto add = [&](const std::unique_ptr<Vehicle>& v) {
        if (v->kind == ObjectKind::kLandmark) return;
        const Vec2 sl = v->LocalOn(lane);
        if (lane.OnLane(sl[0], sl[1], 1.0)) t.entries.push_back({sl[0] + 0.0, v.get()});
      };
      for (const auto& v : vehicles) add(v);
      for (const auto& o : objects) add(o);
      t.pass = act_pass_;
    }
    return t.entries;
  }

  // scratch, kept between calls so that the steps allocate nothing: NeighbourVehicles'
  // lanes and offsets, Step's vehicle states
  mutable std::vector<std::pair<const Lane*, double>> lanes_offsets_;
  struct Body {
    Vec2 position;
    double diagonal, speed;
    bool checks, collidable;
  };
  std::vector<Body> bodies_;
  // Act's passes (counted from 1) and whether one is under way; the lane tables
  mutable std::vector<LaneTableEntries> lane_tables_;
  std::uint64_t act_pass_ = 0;
  bool acting_ = false;
};

// ---- Vehicle ----

inline Vehicle::Vehicle(Road* road_, Vec2 position_, double heading_, double speed_)
    : road(road_),
      position(position_),
      heading(heading_),
      speed(speed_),
      diagonal(std::sqrt(kLength * kLength + kWidth * kWidth)) {
  OnStateUpdate();
}

inline const Lane& Vehicle::lane() const {
  if (lane_ == nullptr || lane_key_ != lane_index) {
    lane_ = &road->network.GetLane(lane_index);
    lane_key_ = lane_index;
  }
  return *lane_;
}

// destination_direction: (destination - position) / np.linalg.norm(destination - position)
// where they differ.
inline Vec2 Vehicle::DestinationDirection() const {
  const Vec2 d = Destination();
  if (d[0] == position[0] && d[1] == position[1]) return {0.0, 0.0};
  const double dx = d[0] - position[0], dy = d[1] - position[1];
  const double norm = road->blas.Norm2(dx, dy);
  return {dx / norm, dy / norm};
}

// clip_actions: a crashed vehicle steers straight and brakes by its speed; beyond
// MAX_SPEED (MIN_SPEED) the acceleration is at most (least) the gap to it.
inline void Vehicle::ClipActions() { ClipAction(action_, speed, crashed); }

inline void Vehicle::ClipAction(VehicleAction& a, double v, bool is_crashed) const {
  if (is_crashed) {
    a.steering = 0;
    a.acceleration = -1.0 * v;
  }
  if (v > max_speed) {
    a.acceleration = PyMin(a.acceleration, 1.0 * (max_speed - v));
  } else if (v < min_speed) {
    a.acceleration = PyMax(a.acceleration, 1.0 * (min_speed - v));
  }
}

// Vehicle.step(dt): beta = arctan(tan(steering) / 2); position += speed * [cos(heading +
// beta), sin(heading + beta)] * dt; a pending impact is added and crashes the vehicle;
// heading += speed * sin(beta) / (LENGTH / 2) * dt; speed += acceleration * dt.
inline void Vehicle::Step(double dt) {
  ClipActions();
  const double delta_f = action_.steering;
  const double beta = std::atan(1.0 / 2 * std::tan(delta_f));
  const double v0 = speed * std::cos(heading + beta);
  const double v1 = speed * std::sin(heading + beta);
  position[0] += v0 * dt;
  position[1] += v1 * dt;
  if (impact) {
    position[0] += (*impact)[0];
    position[1] += (*impact)[1];
    crashed = true;
    impact.reset();
  }
  heading += speed * std::sin(beta) / (kLength / 2) * dt;
  speed += action_.acceleration * dt;
  OnStateUpdate();
}

// on_state_update: the closest lane (with heading) is the vehicle's lane.
inline void Vehicle::OnStateUpdate() {
  lane_index = road->network.GetClosestLaneIndex(
      position, heading, [this](const Lane& l, const Vec2& sl) { Remember(l, sl); });
}

inline Vec2 Vehicle::LocalOnAnew(const Lane& l) const {
  const Vec2 local = l.LocalCoordinates(position);
  Remember(l, local);
  return local;
}

inline void Vehicle::Remember(const Lane& l, const Vec2& local) const {
  const int k = l.serial();
  if (k < 0) return;
  if (static_cast<std::size_t>(k) >= local_cache_.size()) {
    local_cache_.resize(static_cast<std::size_t>(std::max(k + 1, road->network.LaneTotal())));
  }
  local_cache_[static_cast<std::size_t>(k)] = {&l, position, local};
}

// polygon(): rotation [[c, -s], [s, c]] @ the corners [(-L/2, -W/2), (-L/2, W/2), (L/2, W/2),
// (L/2, -W/2)], plus the position; the first corner again at the end. (The half widths are
// powers of two (a vehicle's 1, an object's 1, a parking wall's 0.5), so one product of each
// 2-term sum is exact and numpy's fused and plain sums agree: one rounding either way.)
inline std::array<Vec2, 5> Vehicle::Polygon() const {
  const double hl = length / 2, hw = width / 2;
  const double px[4] = {-hl, -hl, +hl, +hl};
  const double py[4] = {-hw, +hw, +hw, -hw};
  const Vec2 direction = Direction();
  const double c = direction[0], s = direction[1];
  std::array<Vec2, 5> out{};
  for (int j = 0; j < 4; ++j) {
    out[j] = {c * px[j] + (-s) * py[j] + position[0], s * px[j] + c * py[j] + position[1]};
  }
  out[4] = out[0];
  return out;
}

// lane_distance_to(other, lane): lane.local_coordinates(other)[0] - ...(self)[0].
inline double Vehicle::LaneDistanceTo(const Vehicle& other, const Lane* l) const {
  const Lane& ln = l != nullptr ? *l : lane();
  return other.LocalOn(ln)[0] - LocalOn(ln)[0];
}

namespace detail {

// utils.project_polygon(polygon, axis): min and max of p.dot(axis) over the 5 points.
inline std::pair<double, double> ProjectPolygon(const std::array<Vec2, 5>& polygon,
                                                const Vec2& axis, const NumpyBlas& blas) {
  double min_p = 0.0, max_p = 0.0;
  bool first = true;
  for (const Vec2& p : polygon) {
    const double projected = blas.Dot(p.data(), axis.data(), 2);
    if (first || projected < min_p) min_p = projected;
    if (first || projected > max_p) max_p = projected;
    first = false;
  }
  return {min_p, max_p};
}

// utils.interval_distance: min_b - max_a if min_a < min_b else min_a - max_b.
inline double IntervalDistance(double min_a, double max_a, double min_b, double max_b) {
  return min_a < min_b ? min_b - max_a : min_a - max_b;
}

struct Intersection {
  bool intersecting;
  bool will_intersect;
  Vec2 translation;
};

// utils.are_polygons_intersecting(a, b, displacement_a, displacement_b): the separating
// axis test on each polygon's 4 edge normals, the velocity projection widening a's
// interval, the translation along the axis of least overlap (towards a, by the centres).
// The `break` leaves only the edges of the polygon at hand; b's edges are still tried.
inline Intersection ArePolygonsIntersecting(const std::array<Vec2, 5>& a,
                                            const std::array<Vec2, 5>& b, const Vec2& disp_a,
                                            const Vec2& disp_b, const NumpyBlas& blas) {
  bool intersecting = true, will_intersect = true;
  double min_distance = std::numeric_limits<double>::infinity();
  Vec2 translation_axis{};
  const Vec2 disp = {disp_a[0] - disp_b[0], disp_a[1] - disp_b[1]};
  for (const auto* polygon : {&a, &b}) {
    for (int k = 0; k < 4; ++k) {
      const Vec2& p1 = (*polygon)[k];
      const Vec2& p2 = (*polygon)[k + 1];
      Vec2 normal = {-p2[1] + p1[1], p2[0] - p1[0]};
      const double norm = blas.Norm(normal.data(), 2);
      normal[0] /= norm;
      normal[1] /= norm;
      auto [min_a, max_a] = ProjectPolygon(a, normal, blas);
      const auto [min_b, max_b] = ProjectPolygon(b, normal, blas);
      if (IntervalDistance(min_a, max_a, min_b, max_b) > 0) intersecting = false;
      const double velocity_projection = blas.Dot(normal.data(), disp.data(), 2);
      if (velocity_projection < 0) {
        min_a += velocity_projection;
      } else {
        max_a += velocity_projection;
      }
      const double distance = IntervalDistance(min_a, max_a, min_b, max_b);
      if (distance > 0) will_intersect = false;
      if (!intersecting && !will_intersect) break;
      if (std::abs(distance) < min_distance) {
        min_distance = std::abs(distance);
        // d = a[:-1].mean(axis=0) - b[:-1].mean(axis=0): each column summed in row order
        Vec2 d;
        for (int c = 0; c < 2; ++c) {
          const double ma = (((a[0][c] + a[1][c]) + a[2][c]) + a[3][c]) / 4;
          const double mb = (((b[0][c] + b[1][c]) + b[2][c]) + b[3][c]) / 4;
          d[c] = ma - mb;
        }
        translation_axis = blas.Dot(d.data(), normal.data(), 2) > 0
                               ? normal
                               : Vec2{-normal[0], -normal[1]};
      }
    }
  }
  Vec2 translation{};
  if (will_intersect) {
    translation = {min_distance * translation_axis[0], min_distance * translation_axis[1]};
  }
  return {intersecting, will_intersect, translation};
}

}  // namespace detail

// handle_collisions(other, dt): skipped where neither checks collisions or either is not
// collidable; the spherical pre-check (norm of the centres' gap > mean diagonal + speed *
// dt); a future intersection splits the translation between two solid vehicles as
// impacts (+-translation / 2; the whole translation to a vehicle meeting an Obstacle); an
// intersection crashes both solid ones, and hits one not solid.
inline void Vehicle::HandleCollisions(Vehicle& other, double dt) {
  if (&other == this || !(check_collisions || other.check_collisions)) return;
  if (!(collidable && other.collidable)) return;
  const NumpyBlas& blas = road->blas;
  if (blas.Norm2(other.position[0] - position[0], other.position[1] - position[1]) >
      (diagonal + other.diagonal) / 2 + speed * dt) {
    return;
  }
  const Vec2 va = Velocity(), vb = other.Velocity();
  const detail::Intersection r = detail::ArePolygonsIntersecting(
      Polygon(), other.Polygon(), {va[0] * dt, va[1] * dt}, {vb[0] * dt, vb[1] * dt}, blas);
  if (r.will_intersect && solid && other.solid) {
    if (other.kind == ObjectKind::kObstacle) {
      impact = r.translation;
    } else if (kind == ObjectKind::kObstacle) {
      other.impact = r.translation;
    } else {
      impact = Vec2{r.translation[0] / 2, r.translation[1] / 2};
      other.impact = Vec2{-r.translation[0] / 2, -r.translation[1] / 2};
    }
  }
  if (r.intersecting) {
    if (solid && other.solid) {
      crashed = true;
      other.crashed = true;
    }
    if (!solid) hit = true;
    if (!other.solid) other.hit = true;
  }
}

// ---- ControlledVehicle ----

inline ControlledVehicle::ControlledVehicle(Road* road_, Vec2 position_, double heading_,
                                            double speed_,
                                            std::optional<LaneIndex> target_lane_index_,
                                            double target_speed_)
    : Vehicle(road_, position_, heading_, speed_) {
  target_lane_index = target_lane_index_ ? *target_lane_index_ : lane_index;
  target_speed = target_speed_ != 0.0 ? target_speed_ : speed;
}

// follow_road: at the end of the target lane, the next lane (next_lane along the route).
inline void ControlledVehicle::FollowRoad() {
  const Lane& target = road->network.GetLane(target_lane_index);
  if (target.AfterEndLocal(LocalOn(target))) {
    target_lane_index = road->network.NextLane(target_lane_index, &route, position);
  }
}

inline void ControlledVehicle::PlanRouteTo(const std::string& destination) {
  const RoadNetwork& net = road->network;
  const int goal = net.FindNode(destination);
  const std::vector<int> path =
      goal < 0 ? std::vector<int>() : net.ShortestPath(lane_index.to, goal);
  route.assign(1, lane_index);
  for (std::size_t i = 0; i + 1 < path.size(); ++i) route.push_back({path[i], path[i + 1], kAnyLane});
}

inline Vec2 ControlledVehicle::Destination() const {
  if (route.empty()) return position;
  LaneIndex last = route.back();
  if (last.id == kAnyLane) last.id = 0;
  const Lane& l = road->network.GetLane(last);
  return l.Position(l.length(), 0);
}

inline void ControlledVehicle::ActMeta(MetaAction action) {
  FollowRoad();
  if (action == MetaAction::kFaster) {
    target_speed += kDeltaSpeed;
  } else if (action == MetaAction::kSlower) {
    target_speed -= kDeltaSpeed;
  } else if (action == MetaAction::kLaneRight || action == MetaAction::kLaneLeft) {
    // the neighbouring lane id, clipped to the road's lanes, if reachable
    const int n = road->network.LaneCount(target_lane_index.from, target_lane_index.to);
    const int step = action == MetaAction::kLaneRight ? 1 : -1;
    const int id = std::clamp(target_lane_index.id + step, 0, n - 1);
    const LaneIndex target = {target_lane_index.from, target_lane_index.to, id};
    const Lane& reached = road->network.GetLane(target);
    if (reached.IsReachableLocal(LocalOn(reached))) target_lane_index = target;
  }
  VehicleAction a;
  a.steering = SteeringControl(target_lane_index);
  a.acceleration = SpeedControl(target_speed);
  a.steering = Clip(a.steering, -kMaxSteeringAngle, kMaxSteeringAngle);
  SetAction(a);
}

// steering_control(target_lane_index): lateral position -> lateral speed -> heading
// reference (lane heading TAU_PURSUIT ahead + arcsin, within +-pi/4) -> heading rate ->
// steering angle arctan(2 tan(arcsin(L / 2 / speed * rate))), within +-MAX_STEERING_ANGLE.
inline double ControlledVehicle::SteeringControl(const LaneIndex& target) const {
  const Lane& target_lane = road->network.GetLane(target);
  const Vec2 lane_coords = LocalOn(target_lane);
  const double lane_next_coords = lane_coords[0] + speed * kTauPursuit;
  const double lane_future_heading = target_lane.HeadingAt(lane_next_coords);
  const double lateral_speed_command = -kKpLateral * lane_coords[1];
  const double heading_command =
      std::asin(Clip(lateral_speed_command / NotZero(speed), -1, 1));
  const double heading_ref = lane_future_heading + Clip(heading_command, -kPi / 4, kPi / 4);
  const double heading_rate_command = kKpHeading * WrapToPi(heading_ref - heading);
  const double slip_angle =
      std::asin(Clip(kLength / 2 / NotZero(speed) * heading_rate_command, -1, 1));
  const double steering_angle = std::atan(2 * std::tan(slip_angle));
  return Clip(steering_angle, -kMaxSteeringAngle, kMaxSteeringAngle);
}

// ---- MDPVehicle ----

inline MDPVehicle::MDPVehicle(Road* road_, Vec2 position_, double heading_, double speed_,
                              std::vector<double> target_speeds_)
    : ControlledVehicle(road_, position_, heading_, speed_),
      target_speeds(std::move(target_speeds_)) {
  speed_index = SpeedToIndex(target_speed);
  target_speed = target_speeds[static_cast<std::size_t>(speed_index)];
}

inline int MDPVehicle::SpeedToIndex(double s) const {
  const double n1 = static_cast<double>(target_speeds.size() - 1);
  const double x = (s - target_speeds.front()) / (target_speeds.back() - target_speeds.front());
  return static_cast<int>(Clip(std::nearbyint(x * n1), 0, n1));  // np.round: half to even
}

// MDPVehicle.act: FASTER / SLOWER move the speed index from the current speed's, clipped;
// the target speed is its speed; any other action is ControlledVehicle's.
inline void MDPVehicle::ActMeta(MetaAction action) {
  if (action == MetaAction::kFaster) {
    speed_index = SpeedToIndex(speed) + 1;
  } else if (action == MetaAction::kSlower) {
    speed_index = SpeedToIndex(speed) - 1;
  } else {
    ControlledVehicle::ActMeta(action);
    return;
  }
  speed_index = std::clamp(speed_index, 0, static_cast<int>(target_speeds.size()) - 1);
  target_speed = target_speeds[static_cast<std::size_t>(speed_index)];
  ControlledVehicle::ActMeta(MetaAction::kNone);
}

// ---- IDMVehicle ----

inline IDMVehicle::IDMVehicle(Road* road_, Vec2 position_, double heading_, double speed_)
    : ControlledVehicle(road_, position_, heading_, speed_) {
  timer = PyMod((position[0] + position[1]) * kPi, kLaneChangeDelay);
}

// IDMVehicle.act: nothing when crashed; follow_road, MOBIL, steering to the target lane;
// IDM acceleration behind the lane's front vehicle (and the target lane's, the lesser,
// while changing lanes), within +-ACC_MAX.
inline void IDMVehicle::Act() {
  if (crashed) return;
  FollowRoad();
  if (enable_lane_change) ChangeLanePolicy();
  VehicleAction a;
  a.steering = SteeringControl(target_lane_index);
  a.steering = Clip(a.steering, -kMaxSteeringAngle, kMaxSteeringAngle);
  const auto [front, rear] = road->NeighbourVehicles(*this, lane_index);
  (void)rear;
  a.acceleration = Acceleration(this, front);
  if (lane_index != target_lane_index) {
    const auto [t_front, t_rear] = road->NeighbourVehicles(*this, target_lane_index);
    (void)t_rear;
    const double target_idm_acceleration = Acceleration(this, t_front);
    a.acceleration = PyMin(a.acceleration, target_idm_acceleration);
  }
  a.acceleration = Clip(a.acceleration, -kAccMax, kAccMax);
  SetAction(a);
}

// acceleration(ego_vehicle, front_vehicle): 0 without an ego; COMFORT_ACC_MAX * (1 -
// (max(speed, 0) / |not_zero(target speed within [0, speed limit])|) ** DELTA), less
// COMFORT_ACC_MAX * (desired_gap / not_zero(d)) ** 2 behind a front vehicle.
inline double IDMVehicle::Acceleration(const Vehicle* ego, const Vehicle* front) const {
  if (ego == nullptr || !ego->IsVehicle()) return 0;  // not a Vehicle: an obstacle
  double ego_target_speed = 0;
  if (ego->IsControlled()) ego_target_speed = static_cast<const ControlledVehicle*>(ego)->target_speed;
  ego_target_speed = Clip(ego_target_speed, 0, ego->lane().speed_limit());
  const double ratio_of_speeds = PyMax(ego->speed, 0) / std::abs(NotZero(ego_target_speed));
  // (the last power remembered: MOBIL asks it of the same vehicle twice in a row)
  if (!pow_valid_ || std::memcmp(&pow_base_, &ratio_of_speeds, sizeof(double)) != 0 ||
      std::memcmp(&pow_exponent_, &delta, sizeof(double)) != 0) {
    pow_value_ = std::pow(ratio_of_speeds, delta);
    pow_base_ = ratio_of_speeds;
    pow_exponent_ = delta;
    pow_valid_ = true;
  }
  double acceleration = comfort_acc_max * (1 - pow_value_);
  if (front != nullptr) {
    const double d = ego->LaneDistanceTo(*front);
    const double ratio = DesiredGap(*ego, *front) / NotZero(d);
    acceleration -= comfort_acc_max * (ratio * ratio);  // np.power(x, 2): numpy's x * x
  }
  return acceleration;
}

// desired_gap(ego, front, projected=True): d0 + v tau + v dv / (2 sqrt(ab)), dv the
// velocities' difference along ego's direction (np.dot).
inline double IDMVehicle::DesiredGap(const Vehicle& ego, const Vehicle& front) const {
  const double d0 = distance_wanted;
  const double tau = kTimeWanted;
  const double ab = -comfort_acc_max * comfort_acc_min;
  const Vec2 ve = ego.Velocity(), vf = front.Velocity(), dir = ego.Direction();
  const double diff[2] = {ve[0] - vf[0], ve[1] - vf[1]};
  const double dv = road->blas.Dot(diff, dir.data(), 2);
  return d0 + ego.speed * tau + ego.speed * dv / (2 * std::sqrt(ab));
}

// change_lane_policy: while changing lanes, abort if another vehicle heads for the same
// lane within the desired gap ahead; else every LANE_CHANGE_DELAY, try the side lanes
// (reachable, moving) and take each that MOBIL approves (the last one wins).
inline void IDMVehicle::ChangeLanePolicy() {
  if (lane_index != target_lane_index) {
    if (lane_index.SameRoad(target_lane_index)) {
      for (const auto& vp : road->vehicles) {
        const Vehicle* v = vp.get();
        if (v != this && v->lane_index != target_lane_index && v->IsControlled() &&
            static_cast<const ControlledVehicle*>(v)->target_lane_index == target_lane_index) {
          const double d = LaneDistanceTo(*v);
          const double d_star = DesiredGap(*this, *v);
          if (0 < d && d < d_star) {
            target_lane_index = lane_index;
            break;
          }
        }
      }
    }
    return;
  }
  if (!(kLaneChangeDelay < timer)) return;  // utils.do_every
  timer = 0;
  for (const LaneIndex& side : road->network.SideLanes(lane_index)) {
    const Lane& side_lane = road->network.GetLane(side);
    if (!side_lane.IsReachableLocal(LocalOn(side_lane))) continue;
    if (std::abs(speed) < 1) continue;
    if (Mobil(side)) target_lane_index = side;
  }
}

// mobil(lane_index): not if the new follower would brake harder than
// LANE_CHANGE_MAX_BRAKING_IMPOSED; where the route's first step names a lane, only towards
// it (the signs of the id changes agree) and without braking harder than that itself;
// else only for an acceleration gain (own, plus POLITENESS times the followers') of at
// least LANE_CHANGE_MIN_ACC_GAIN.
inline bool IDMVehicle::Mobil(const LaneIndex& index) {
  const auto [new_preceding, new_following] = road->NeighbourVehicles(*this, index);
  const double new_following_a = Acceleration(new_following, new_preceding);
  const double new_following_pred_a = Acceleration(new_following, this);
  if (new_following_pred_a < -kLaneChangeMaxBrakingImposed) return false;
  const auto [old_preceding, old_following] = road->NeighbourVehicles(*this, lane_index);
  const double self_pred_a = Acceleration(this, new_preceding);
  if (!route.empty() && route.front().id != kAnyLane) {
    auto sign = [](int x) { return (x > 0) - (x < 0); };  // np.sign
    if (sign(index.id - target_lane_index.id) != sign(route.front().id - target_lane_index.id)) {
      return false;
    }
    return !(self_pred_a < -kLaneChangeMaxBrakingImposed);
  }
  const double self_a = Acceleration(this, old_preceding);
  const double old_following_a = Acceleration(old_following, this);
  const double old_following_pred_a = Acceleration(old_following, old_preceding);
  const double jerk = self_pred_a - self_a +
                      kPoliteness * (new_following_pred_a - new_following_a +
                                     old_following_pred_a - old_following_a);
  return !(jerk < kLaneChangeMinAccGain);
}

// ---- routes ----

inline double Vehicle::FrontDistanceTo(const Vehicle& other) const {
  const Vec2 d = Direction();
  const double gap[2] = {other.position[0] - position[0], other.position[1] - position[1]};
  return road->blas.Dot(d.data(), gap, 2);
}

inline std::vector<std::pair<Vec2, double>> Vehicle::PredictTrajectoryConstantSpeed(
    const std::vector<double>& times) const {
  // the copy's state, through Vehicle.step (clip_actions, the kinematic bicycle, a pending
  // impact); its lane (on_state_update) is read by nothing here
  Vec2 p = position;
  double h = heading, v = speed;
  bool is_crashed = crashed;
  std::optional<Vec2> pending = impact;
  VehicleAction a{action_.steering, 0.0};
  std::vector<std::pair<Vec2, double>> out;
  out.reserve(times.size());
  double previous = 0.0;
  for (const double t : times) {
    const double dt = t - previous;  // np.diff(np.concatenate(([0.0], times)))
    previous = t;
    ClipAction(a, v, is_crashed);
    const double beta = std::atan(1.0 / 2 * std::tan(a.steering));
    const double v0 = v * std::cos(h + beta), v1 = v * std::sin(h + beta);
    p[0] += v0 * dt;
    p[1] += v1 * dt;
    if (pending) {
      p[0] += (*pending)[0];
      p[1] += (*pending)[1];
      is_crashed = true;
      pending.reset();
    }
    h += v * std::sin(beta) / (kLength / 2) * dt;
    v += a.acceleration * dt;
    out.emplace_back(p, h);
  }
  return out;
}

inline std::vector<std::pair<Vec2, double>> ControlledVehicle::PredictTrajectoryConstantSpeed(
    const std::vector<double>& times) const {
  const Vec2 coordinates = LocalOn(lane());
  const Route own = !route.empty() ? route : Route{lane_index};
  std::vector<std::pair<Vec2, double>> out;
  out.reserve(times.size());
  for (const double t : times) {
    out.push_back(
        road->network.PositionHeadingAlongRoute(own, coordinates[0] + speed * t, 0, lane_index));
  }
  return out;
}

namespace detail {

// utils.point_in_rotated_rectangle(point, center, length, width, angle): r = [[c, -s],
// [s, c]] (as the package writes it), ru = r.dot(point - center) (dgemv), inside
// [-length / 2, length / 2] x [-width / 2, width / 2], bounds included.
inline bool PointInRotatedRectangle(const Vec2& point, const Vec2& center, double length,
                                    double width, double angle, const NumpyBlas& blas) {
  const double c = std::cos(angle), s = std::sin(angle);
  const double r0[2] = {c, -s}, r1[2] = {s, c};
  const double d[2] = {point[0] - center[0], point[1] - center[1]};
  const double u = NumpyBlas::Sum(r0, d, 2, blas.gemv_fma);
  const double v = NumpyBlas::Sum(r1, d, 2, blas.gemv_fma);
  return -length / 2 <= u && u <= length / 2 && -width / 2 <= v && v <= width / 2;
}

// One point of utils.rect_corners(center, length, width, angle): the point p of the
// rectangle's frame, rotated by [[c, -s], [s, c]] (c, s: the angle's cosine and sine;
// rotation @ corners.T, numpy's dgemm) plus the center.
inline Vec2 RectPoint(const Vec2& center, double c, double s, const double p[2],
                      const NumpyBlas& blas) {
  const double r0[2] = {c, -s}, r1[2] = {s, c};
  return {NumpyBlas::Sum(r0, p, 2, blas.gemm_fma) + center[0],
          NumpyBlas::Sum(r1, p, 2, blas.gemm_fma) + center[1]};
}

// utils.rect_corners(center, length, width, angle): the 4 corners, rear right first
// (-half_l - half_w, -half_l + half_w, half_l + half_w, half_l - half_w).
inline std::array<Vec2, 4> RectCorners(const Vec2& center, double length, double width,
                                       double angle, const NumpyBlas& blas) {
  const double hl = length / 2, hw = width / 2;
  const double corners[4][2] = {{-hl, -hw}, {-hl, hw}, {hl, hw}, {hl, -hw}};
  const double c = std::cos(angle), s = std::sin(angle);
  std::array<Vec2, 4> out;
  for (std::size_t k = 0; k < 4; ++k) out[k] = RectPoint(center, c, s, corners[k], blas);
  return out;
}

// utils.has_corner_inside(rect1, rect2): a point of rect_corners(*rect1, include_midpoints,
// include_center) inside rect2.
inline bool HasCornerInside(const Vec2& c1, double l1, double w1, double a1, const Vec2& c2,
                            double l2, double w2, double a2, const NumpyBlas& blas) {
  const double hl = l1 / 2, hw = w1 / 2;
  const double corners[9][2] = {{-hl, -hw}, {-hl, hw}, {hl, hw},  {hl, -hw}, {0, 0},
                                {-hl, -0.0}, {hl, 0},  {-0.0, -hw}, {0, hw}};
  const double c = std::cos(a1), s = std::sin(a1);
  for (const auto& p : corners) {
    if (PointInRotatedRectangle(RectPoint(c1, c, s, p, blas), c2, l2, w2, a2, blas)) {
      return true;
    }
  }
  return false;
}

}  // namespace detail

inline bool Road::IsConflictPossible(const std::vector<std::pair<Vec2, double>>& t1,
                                     const std::vector<std::pair<Vec2, double>>& t2) const {
  const double length = 1.5 * Vehicle::kLength, width = 0.9 * Vehicle::kWidth;
  for (std::size_t k = 0; k < t1.size() && k < t2.size(); ++k) {
    const auto& [p1, h1] = t1[k];
    const auto& [p2, h2] = t2[k];
    if (blas.Norm2(p2[0] - p1[0], p2[1] - p1[1]) > Vehicle::kLength) continue;
    if (detail::HasCornerInside(p1, length, width, h1, p2, length, width, h2, blas) ||
        detail::HasCornerInside(p2, length, width, h2, p1, length, width, h1, blas)) {
      return true;
    }
  }
  return false;
}

inline void Road::EnforceRoadRules() {
  for (auto& vp : vehicles) {
    if (!vp->IsControlled()) continue;
    auto* v = static_cast<ControlledVehicle*>(vp.get());
    if (!v->is_yielding) continue;
    if (v->yield_timer >= kYieldDuration * kRegulationFrequency) {
      v->target_speed = v->lane().speed_limit();
      v->is_yielding = false;
    } else {
      v->yield_timer += 1;
    }
  }
  // times = np.arange(step, horizon, step): 0.25, 0.5, ..., 2.75
  std::vector<double> times;
  for (int i = 1; i < 12; ++i) times.push_back(0.25 * i);
  std::vector<std::vector<std::pair<Vec2, double>>> predicted;
  predicted.reserve(vehicles.size());
  for (const auto& vp : vehicles) predicted.push_back(vp->PredictTrajectoryConstantSpeed(times));
  for (std::size_t i = 0; i + 1 < vehicles.size(); ++i) {
    for (std::size_t j = i + 1; j < vehicles.size(); ++j) {
      if (!IsConflictPossible(predicted[i], predicted[j])) continue;
      Vehicle* v1 = vehicles[i].get();
      Vehicle* v2 = vehicles[j].get();
      // respect_priorities(v1, v2)
      Vehicle* yielding;
      const int p1 = v1->lane().priority(), p2 = v2->lane().priority();
      if (p1 > p2) {
        yielding = v2;
      } else if (p1 < p2) {
        yielding = v1;
      } else {
        yielding = v1->FrontDistanceTo(*v2) > v2->FrontDistanceTo(*v1) ? v1 : v2;
      }
      if (!yielding->IsControlled()) continue;
      auto* y = static_cast<ControlledVehicle*>(yielding);
      if (y->IsMDP()) continue;
      y->target_speed = 0;
      y->is_yielding = true;
      y->yield_timer = 0;
    }
  }
}

}  // namespace envpool::highway
