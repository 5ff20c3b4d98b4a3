// A highway scene as numbers: what AbstractEnv::GetState returns, and
// envpool/tasks/highway.py's debug_states decodes into sail-sg EnvPool's debug hook (each
// env's scenario, clock, road network, vehicles and road objects; its tests rebuild the
// highway-env package's env from it). Read only: nothing of the scene changes.
//
// The numbers, in order (a string is its length, then its bytes; a bool 0 or 1; a node its
// place in the node list; a lane index (from node, to node, id)):
//   time, elapsed_step (the package's steps // (simulation_frequency // policy_frequency)),
//   simulation_frequency, policy_frequency, lanes_count, the scenario's name;
//   the node names: their count, then each;
//   the lanes, in the network's order: their count, then kLaneFields each (LaneFields);
//   the vehicles, in the road's order (the package's: the order its road acts, steps and
//   regulates them in, which the intersection's right of way depends on; there the
//   controlled vehicles come after the others): their count, then kVehicleFields each
//   (VehicleFields), then the route's length and its lane indexes (id -1: None);
//   the road objects: their count, then kObjectFields each (ObjectFields).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "envs/highway/lane.h"
#include "envs/highway/road_network.h"
#include "envs/highway/vehicle.h"

namespace envpool::highway {

// What a task says of itself in its debug state: its scenario's name (sail-sg EnvPool's:
// "highway", "merge", "parking_parked", ...), the lanes_count keyword (0 where the task has
// none) and the code of a vehicle that is no IDMVehicle (0 on the highway and where every
// vehicle is a plain one: parking, racetrack, lane keeping; 2 elsewhere), an IDMVehicle's
// being one more.
struct DebugScene {
  std::string scenario;
  int lanes_count = 0;
  int kind_base = 2;
};

inline constexpr int kLaneFields = 23;
inline constexpr int kVehicleFields = 28;
inline constexpr int kObjectFields = 12;

class DebugStateWriter {
 public:
  explicit DebugStateWriter(std::vector<double>* out) : out_(*out) {}

  void Number(double v) { out_.push_back(v); }
  void Flag(bool v) { out_.push_back(v ? 1.0 : 0.0); }
  void Text(const std::string& s) {
    Number(static_cast<double>(s.size()));
    for (const char c : s) Number(static_cast<unsigned char>(c));
  }
  void Index(const LaneIndex& i) {
    Number(i.from);
    Number(i.to);
    Number(i.id);
  }

  // The network's node names, then its lanes: from, to, index, kind (0 straight, 1 sine,
  // 2 circular), line types (0 none, 1 striped, 2 continuous, 3 continuous line), width,
  // forbidden, speed_limit, priority, start x y, end x y, amplitude, pulsation, phase,
  // center x y, radius, start_phase, end_phase, clockwise.
  void Network(const RoadNetwork& net) {
    const int nodes = net.NodeCount();
    Number(nodes);
    for (int n = 0; n < nodes; ++n) Text(net.NodeName(n));
    Number(net.LaneTotal());
    for (const auto& [from, roads] : net.graph()) {
      for (const auto& [to, lanes] : roads) {
        for (std::size_t i = 0; i < lanes.size(); ++i) LaneFields(from, to, i, lanes[i]);
      }
    }
  }

  // kind, x, y, heading, speed, lane index, target lane index, target_speed, speed_index,
  // target_speeds[0..2], timer, DELTA, enable_lane_change, crashed, check_collisions,
  // on_road, has_goal, goal x y heading speed; then the route. (A vehicle that is no
  // ControlledVehicle: its lane and speed as targets; no MDPVehicle: speed_index 0 and
  // MDPVehicle.DEFAULT_TARGET_SPEEDS; no IDMVehicle: timer 0, IDM's DELTA, lane changes on.)
  void VehicleFields(const Vehicle& v, int kind_base) {
    const auto* controlled = v.IsControlled() ? static_cast<const ControlledVehicle*>(&v) : nullptr;
    const auto* mdp = controlled != nullptr && controlled->IsMDP()
                          ? static_cast<const MDPVehicle*>(controlled)
                          : nullptr;
    const auto* idm = dynamic_cast<const IDMVehicle*>(&v);
    Number(kind_base + (idm != nullptr ? 1 : 0));
    Number(v.position[0]);
    Number(v.position[1]);
    Number(v.heading);
    Number(v.speed);
    Index(v.lane_index);
    Index(controlled != nullptr ? controlled->target_lane_index : v.lane_index);
    Number(controlled != nullptr ? controlled->target_speed : v.speed);
    Number(mdp != nullptr ? mdp->speed_index : 0);
    static const std::vector<double> kDefaultTargetSpeeds = {20.0, 25.0, 30.0};
    const std::vector<double>& speeds = mdp != nullptr ? mdp->target_speeds : kDefaultTargetSpeeds;
    for (std::size_t i = 0; i < 3; ++i) Number(i < speeds.size() ? speeds[i] : 0.0);
    Number(idm != nullptr ? idm->timer : 0.0);
    Number(idm != nullptr ? idm->delta : IDMVehicle::kDelta);
    Flag(idm == nullptr || idm->enable_lane_change);
    Flag(v.crashed);
    Flag(v.check_collisions);
    Flag(v.OnRoad());
    Flag(v.goal != nullptr);
    Number(v.goal != nullptr ? v.goal->position[0] : 0.0);
    Number(v.goal != nullptr ? v.goal->position[1] : 0.0);
    Number(v.goal != nullptr ? v.goal->heading : 0.0);
    Number(v.goal != nullptr ? v.goal->speed : 0.0);
    const Route empty;
    const Route& route = controlled != nullptr ? controlled->route : empty;
    Number(static_cast<double>(route.size()));
    for (const LaneIndex& step : route) Index(step);
  }

  // kind (0 obstacle, 1 landmark), x, y, heading, speed, length, width, collidable, solid,
  // check_collisions, crashed, hit.
  void ObjectFields(const Vehicle& o) {
    Number(o.kind == ObjectKind::kLandmark ? 1 : 0);
    Number(o.position[0]);
    Number(o.position[1]);
    Number(o.heading);
    Number(o.speed);
    Number(o.length);
    Number(o.width);
    Flag(o.collidable);
    Flag(o.solid);
    Flag(o.check_collisions);
    Flag(o.crashed);
    Flag(o.hit);
  }

 private:
  void LaneFields(int from, int to, std::size_t index, const Lane& l) {
    Number(from);
    Number(to);
    Number(static_cast<double>(index));
    Number(static_cast<int>(l.kind()));
    Number(static_cast<int>(l.line_type(0)));
    Number(static_cast<int>(l.line_type(1)));
    Number(l.width());
    Flag(l.forbidden());
    Number(l.speed_limit());
    Number(l.priority());
    const bool circular = l.kind() == Lane::Kind::kCircular;
    Number(circular ? 0.0 : l.start()[0]);
    Number(circular ? 0.0 : l.start()[1]);
    Number(circular ? 0.0 : l.end()[0]);
    Number(circular ? 0.0 : l.end()[1]);
    Number(l.amplitude());
    Number(l.pulsation());
    Number(l.phase());
    Number(circular ? l.center()[0] : 0.0);
    Number(circular ? l.center()[1] : 0.0);
    Number(circular ? l.radius() : 0.0);
    Number(circular ? l.start_phase() : 0.0);
    Number(circular ? l.end_phase() : 0.0);
    Flag(!circular || l.clockwise());
  }

  std::vector<double>& out_;
};

}  // namespace envpool::highway
