// highway-env's road/road.py RoadNetwork, restated: a graph of roads, each road a list of
// lanes from one node to another. Python's dicts keep their insertion order, and the package
// iterates them in it (get_closest_lane_index's argmin takes the first closest lane): the
// graph here is vectors in the same order. Node names are interned; a LaneIndex is
// (origin node, destination node, lane id), as the package's tuple.
#pragma once

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

class RoadNetwork {
 public:
  // The node's id, added at first use.
  int Node(const std::string& name) {
    for (std::size_t i = 0; i < names_.size(); ++i) {
      if (names_[i] == name) return static_cast<int>(i);
    }
    names_.push_back(name);
    return static_cast<int>(names_.size()) - 1;
  }
  const std::string& NodeName(int node) const { return names_[static_cast<std::size_t>(node)]; }

  // add_lane(_from, _to, lane): appended to graph[_from][_to], both made at first use.
  void AddLane(const std::string& from, const std::string& to, const Lane& lane) {
    const int f = Node(from), t = Node(to);
    Lanes(f, t, /*create=*/true)->push_back(lane);
  }

  // get_lane(index) (an id past the road's lanes is the package's IndexError).
  const Lane& GetLane(const LaneIndex& index) const {
    const std::vector<Lane>* lanes = Road(index.from, index.to);
    if (lanes == nullptr || index.id < 0 || index.id >= static_cast<int>(lanes->size())) {
      throw std::out_of_range("highway: no lane (" + NodeName(index.from) + ", " +
                              NodeName(index.to) + ", " + std::to_string(index.id) + ")");
    }
    return (*lanes)[static_cast<std::size_t>(index.id)];
  }

  // len(graph[_from][_to]) (0 where the road does not exist).
  int LaneCount(int from, int to) const {
    const std::vector<Lane>* lanes = Road(from, to);
    return lanes == nullptr ? 0 : static_cast<int>(lanes->size());
  }

  // get_closest_lane_index(position, heading): the first lane, in the graph's order, of the
  // least distance_with_heading (np.argmin).
  LaneIndex GetClosestLaneIndex(const Vec2& position, double heading) const {
    LaneIndex best;
    double best_distance = 0.0;
    bool first = true;
    for (const auto& [from, roads] : graph_) {
      for (const auto& [to, lanes] : roads) {
        for (std::size_t i = 0; i < lanes.size(); ++i) {
          const double d = lanes[i].DistanceWithHeading(position, heading);
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

  // next_lane(current_index, route=None, position): at the end of a lane without a route,
  // the road out of its end node whose lane is closest to the projected position
  // (next_lane_given_next_road: the same lane id where both roads have as many lanes, else
  // the closest lane by distance); the current index where the end node leads nowhere.
  // (Routes, which the intersection and roundabout tasks plan, are not restated yet.)
  LaneIndex NextLane(const LaneIndex& current, const Vec2& position) const {
    const Lane& lane = GetLane(current);
    const Vec2 sl = lane.LocalCoordinates(position);
    const Vec2 projected = lane.Position(sl[0], 0);
    const auto* roads = Out(current.to);
    if (roads == nullptr) return current;
    bool found = false;
    LaneIndex best;
    double best_distance = 0.0;
    for (const auto& [next_to, lanes] : *roads) {
      int next_id;
      if (LaneCount(current.from, current.to) == static_cast<int>(lanes.size())) {
        next_id = current.id;
      } else {
        next_id = 0;
        double d_min = lanes[0].Distance(projected);
        for (std::size_t l = 1; l < lanes.size(); ++l) {
          const double d = lanes[l].Distance(projected);
          if (d < d_min) {
            d_min = d;
            next_id = static_cast<int>(l);
          }
        }
      }
      const double d = GetLane({current.to, next_to, next_id}).Distance(projected);
      if (!found || d < best_distance) {  // min(..., key=distance): the first least
        best = {current.to, next_to, next_id};
        best_distance = d;
        found = true;
      }
    }
    return found ? best : current;
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
};

}  // namespace envpool::highway
