// highway-env's road/road.py RoadNetwork, restated: a graph of roads, each road a list of
// lanes from one node to another. Python's dicts keep their insertion order, and the package
// iterates them in it (get_closest_lane_index's argmin takes the first closest lane): the
// graph here is vectors in the same order. Node names are interned; a LaneIndex is
// (origin node, destination node, lane id), as the package's tuple.
//
// Routes (a list of lane indexes whose id may be None: kAnyLane here) are planned by
// shortest_path (bfs_paths: breadth first, each node's successors in sorted name order),
// followed by next_lane and tested by is_connected_road, as the package does.
#pragma once

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/common/numpy_blas.h"
#include "envs/highway/lane.h"
#include "envs/highway/utils.h"

namespace envpool::highway {

struct LaneIndex {
  int from = -1;
  int to = -1;
  int id = 0;
  bool operator==(const LaneIndex& o) const { return from == o.from && to == o.to && id == o.id; }
  bool operator!=(const LaneIndex& o) const { return !(*this == o); }
  // lane_index[:2] == other[:2]
  bool SameRoad(const LaneIndex& o) const { return from == o.from && to == o.to; }
};

// A route step's lane id None: the lane is chosen when the road is reached.
inline constexpr int kAnyLane = -1;
// Route: list[LaneIndex]; an empty route is the package's None (both are falsy there).
using Route = std::vector<LaneIndex>;

class RoadNetwork {
 public:
  RoadNetwork() : lane_total_(0) {}

  // The node's id, added at first use.
  int Node(const std::string& name) {
    for (std::size_t i = 0; i < names_.size(); ++i) {
      if (names_[i] == name) return static_cast<int>(i);
    }
    names_.push_back(name);
    return static_cast<int>(names_.size()) - 1;
  }
  const std::string& NodeName(int node) const { return names_[static_cast<std::size_t>(node)]; }
  int NodeCount() const { return static_cast<int>(names_.size()); }
  // The node's id, -1 where no lane names it.
  int FindNode(const std::string& name) const {
    for (std::size_t i = 0; i < names_.size(); ++i) {
      if (names_[i] == name) return static_cast<int>(i);
    }
    return -1;
  }

  // add_lane(_from, _to, lane): appended to graph[_from][_to], both made at first use.
  // (Each lane gets its serial, the count of lanes before it.)
  void AddLane(const std::string& from, const std::string& to, const Lane& lane) {
    const int f = Node(from), t = Node(to);
    std::vector<Lane>* lanes = Lanes(f, t, /*create=*/true);
    lanes->push_back(lane);
    lanes->back().set_serial(lane_total_++);
  }
  // How many lanes the network holds (the serials are 0 to LaneTotal() - 1).
  int LaneTotal() const { return lane_total_; }

  // get_lane(index) (an id past the road's lanes is the package's IndexError).
  const Lane& GetLane(const LaneIndex& index) const {
    const std::vector<Lane>* lanes = Road(index.from, index.to);
    if (lanes == nullptr || index.id < 0 || index.id >= static_cast<int>(lanes->size())) {
      throw std::out_of_range("highway: no lane (" + NodeName(index.from) + ", " +
                              NodeName(index.to) + ", " + std::to_string(index.id) + ")");
    }
    return (*lanes)[static_cast<std::size_t>(index.id)];
  }

  Lane& MutableLane(const LaneIndex& index) {
    return const_cast<Lane&>(static_cast<const RoadNetwork&>(*this).GetLane(index));
  }

  // len(graph[_from][_to]) (0 where the road does not exist).
  int LaneCount(int from, int to) const {
    const std::vector<Lane>* lanes = Road(from, to);
    return lanes == nullptr ? 0 : static_cast<int>(lanes->size());
  }

  // get_closest_lane_index(position, heading): the first lane, in the graph's order, of the
  // least distance_with_heading (np.argmin).
  // `visit(lane, local)` sees each lane with the position's local coordinates on it.
  LaneIndex GetClosestLaneIndex(const Vec2& position, double heading) const {
    return GetClosestLaneIndex(position, heading, [](const Lane&, const Vec2&) {});
  }
  template <class Visit>
  LaneIndex GetClosestLaneIndex(const Vec2& position, double heading, Visit&& visit) const {
    LaneIndex best;
    double best_distance = 0.0;
    bool first = true;
    for (const auto& [from, roads] : graph_) {
      for (const auto& [to, lanes] : roads) {
        for (std::size_t i = 0; i < lanes.size(); ++i) {
          const Vec2 sl = lanes[i].LocalCoordinates(position);
          visit(lanes[i], sl);
          const double d = lanes[i].DistanceWithHeadingLocal(sl, heading);
          if (first || d < best_distance || (std::isnan(d) && !std::isnan(best_distance))) {
            best = {from, to, static_cast<int>(i)};
            best_distance = d;
            first = false;
          }
        }
      }
    }
    return best;
  }

  // next_lane(current_index, route, position): with a route, its first step is dropped if
  // it is the current road, and the next step is followed if it starts at the current
  // road's end (next_lane_given_next_road: its lane id, or the current id where None and
  // both roads have as many lanes, else the lane closest to the projected position).
  // Without a route to follow, the road out of the end node whose lane is closest to the
  // projected position; the current index where the end node leads nowhere.
  LaneIndex NextLane(const LaneIndex& current, Route* route, const Vec2& position) const {
    int next_to = -1, next_id = kAnyLane;
    if (route != nullptr && !route->empty()) {
      if (route->front().SameRoad(current)) route->erase(route->begin());
      if (!route->empty() && route->front().from == current.to) {
        next_to = route->front().to;
        next_id = route->front().id;
      }
      // (else the package logs a warning that the route does not continue here)
    }
    const Lane& lane = GetLane(current);
    const Vec2 sl = lane.LocalCoordinates(position);
    const Vec2 projected = lane.Position(sl[0], 0);
    if (next_to >= 0) {
      return {current.to, next_to,
              NextLaneGivenNextRoad(current, next_to, next_id, projected).first};
    }
    const auto* roads = Out(current.to);
    if (roads == nullptr) return current;  // graph[_to]: KeyError
    bool found = false;
    LaneIndex best;
    double best_distance = 0.0;
    for (const auto& road : *roads) {
      const auto [id, d] = NextLaneGivenNextRoad(current, road.first, kAnyLane, projected);
      if (!found || d < best_distance) {  // min(..., key=distance): the first least
        best = {current.to, road.first, id};
        best_distance = d;
        found = true;
      }
    }
    return found ? best : current;
  }
  LaneIndex NextLane(const LaneIndex& current, const Vec2& position) const {
    return NextLane(current, nullptr, position);
  }

  // next_lane_given_next_road: (the lane id, its distance to position).
  std::pair<int, double> NextLaneGivenNextRoad(const LaneIndex& current, int next_to,
                                               int next_id, const Vec2& position) const {
    const int n = LaneCount(current.to, next_to);
    if (LaneCount(current.from, current.to) == n) {
      if (next_id == kAnyLane) next_id = current.id;
    } else {  // min(range(n), key=distance): the first closest
      next_id = 0;
      double d_min = 0.0;
      for (int l = 0; l < n; ++l) {
        const double d = GetLane({current.to, next_to, l}).Distance(position);
        if (l == 0 || d < d_min) {
          d_min = d;
          next_id = l;
        }
      }
    }
    return {next_id, GetLane({current.to, next_to, next_id}).Distance(position)};
  }

  // shortest_path(start, goal): the first path of bfs_paths, [] if none (or if start
  // leads nowhere).
  std::vector<int> ShortestPath(int start, int goal) const {
    std::vector<std::pair<int, std::vector<int>>> queue = {{start, {start}}};
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const int node = queue[head].first;
      const std::vector<int> path = queue[head].second;
      const Roads* roads = Out(node);
      if (roads == nullptr) return {};  // `yield []`
      std::vector<int> next;
      for (const auto& road : *roads) {
        if (std::find(path.begin(), path.end(), road.first) == path.end()) {
          next.push_back(road.first);
        }
      }
      std::sort(next.begin(), next.end(),
                [this](int a, int b) { return NodeName(a) < NodeName(b); });
      for (const int n : next) {
        std::vector<int> longer = path;
        longer.push_back(n);
        if (n == goal) return longer;
        if (Out(n) != nullptr) queue.emplace_back(n, std::move(longer));
      }
    }
    return {};
  }

  // is_connected_road(lane_index_1, lane_index_2, route, same_lane, depth): lane 2 on lane
  // 1's road or leading to it; else, within depth roads, along the route where it goes on
  // from lane 1's road, or along every road out of lane 1's end.
  bool IsConnectedRoad(const LaneIndex& l1, const LaneIndex& l2, const Route& route,
                       std::size_t route_begin, bool same_lane, int depth) const {
    const bool lane_ok = !same_lane || l1.id == l2.id;
    if ((l2.SameRoad(l1) || l2.to == l1.from) && lane_ok) return true;
    if (depth <= 0) return false;
    const bool has_route = route_begin < route.size();
    if (has_route && route[route_begin].SameRoad(l1)) {
      return IsConnectedRoad(l1, l2, route, route_begin + 1, same_lane, depth);
    }
    if (has_route && route[route_begin].from == l1.to) {
      return IsConnectedRoad(route[route_begin], l2, route, route_begin + 1, same_lane,
                             depth - 1);
    }
    bool any = false;
    for (const int next_to : Destinations(l1.to)) {
      any = IsConnectedRoad({l1.to, next_to, l1.id}, l2, route, route_begin, same_lane,
                            depth - 1) || any;
    }
    return any;
  }

  // position_heading_along_route(route, longitudinal, lateral, current_lane_index): along
  // the route's lanes (a kAnyLane step: the current lane id where its road has that many
  // lanes, else 0), the longitudinal carried past each lane's length while steps remain.
  std::pair<Vec2, double> PositionHeadingAlongRoute(const Route& route, double longitudinal,
                                                    double lateral,
                                                    const LaneIndex& current) const {
    auto head = [&](std::size_t k) {
      LaneIndex index = route[k];
      if (index.id == kAnyLane) {
        index.id = current.id < LaneCount(current.from, current.to) ? current.id : 0;
      }
      return index;
    };
    std::size_t k = 0;
    LaneIndex index = head(k);
    while (route.size() - k > 1 && longitudinal > GetLane(index).length()) {
      longitudinal -= GetLane(index).length();
      ++k;
      index = head(k);
    }
    const Lane& lane = GetLane(index);
    return {lane.Position(longitudinal, lateral), lane.HeadingAt(longitudinal)};
  }

  // side_lanes(lane_index): the lane to the left (id - 1), then to the right (id + 1).
  std::vector<LaneIndex> SideLanes(const LaneIndex& index) const {
    std::vector<LaneIndex> lanes;
    if (index.id > 0) lanes.push_back({index.from, index.to, index.id - 1});
    if (index.id < LaneCount(index.from, index.to) - 1) {
      lanes.push_back({index.from, index.to, index.id + 1});
    }
    return lanes;
  }

  // RoadNetwork.straight_road_network(lanes, start, length, angle, speed_limit, nodes_str):
  // lane i from rotation @ [start, 4 i] to rotation @ [start + length, 4 i], rotation
  // [[cos, sin], [-sin, cos]]; a continuous line left of lane 0 and right of the last,
  // striped between.
  static RoadNetwork StraightRoad(int lanes, double start, double length, double angle,
                                  double speed_limit, const std::string& from,
                                  const std::string& to, NumpyBlas blas,
                                  RoadNetwork net = RoadNetwork()) {
    const double c = std::cos(angle), s = std::sin(angle);
    const double rot[4] = {c, s, -s, c};
    for (int lane = 0; lane < lanes; ++lane) {
      const double origin[2] = {start, lane * Lane::kDefaultWidth};
      const double end[2] = {start + length, lane * Lane::kDefaultWidth};
      // rotation @ v: numpy's dgemv, summed as the running numpy sums it
      auto rotate = [&](const double* v) {
        return Vec2{NumpyBlas::Sum(rot, v, 2, blas.gemv_fma),
                    NumpyBlas::Sum(rot + 2, v, 2, blas.gemv_fma)};
      };
      const LineType left = lane == 0 ? LineType::kContinuousLine : LineType::kStriped;
      const LineType right = lane == lanes - 1 ? LineType::kContinuousLine : LineType::kNone;
      net.AddLane(from, to,
                  Lane::Straight(rotate(origin), rotate(end), blas, Lane::kDefaultWidth, left,
                                 right, false, speed_limit));
    }
    return net;
  }

  // graph.keys(), graph[_from].keys(): in insertion order.
  std::vector<int> Origins() const {
    std::vector<int> out;
    for (const auto& road : graph_) out.push_back(road.first);
    return out;
  }
  std::vector<int> Destinations(int from) const {
    std::vector<int> out;
    if (const auto* roads = Out(from)) {
      for (const auto& road : *roads) out.push_back(road.first);
    }
    return out;
  }

  using Roads = std::vector<std::pair<int, std::vector<Lane>>>;
  const std::vector<std::pair<int, Roads>>& graph() const { return graph_; }

 private:
  const Roads* Out(int from) const {
    for (const auto& road : graph_) {
      if (road.first == from) return &road.second;
    }
    return nullptr;
  }
  const std::vector<Lane>* Road(int from, int to) const {
    if (const Roads* roads = Out(from)) {
      for (const auto& road : *roads) {
        if (road.first == to) return &road.second;
      }
    }
    return nullptr;
  }
  std::vector<Lane>* Lanes(int from, int to, bool create) {
    for (auto& road : graph_) {
      if (road.first != from) continue;
      for (auto& lanes : road.second) {
        if (lanes.first == to) return &lanes.second;
      }
      if (!create) return nullptr;
      road.second.emplace_back(to, std::vector<Lane>());
      return &road.second.back().second;
    }
    if (!create) return nullptr;
    graph_.emplace_back(from, Roads());
    graph_.back().second.emplace_back(to, std::vector<Lane>());
    return &graph_.back().second.back().second;
  }

  std::vector<std::string> names_;
  std::vector<std::pair<int, Roads>> graph_;
  int lane_total_;
};

}  // namespace envpool::highway
