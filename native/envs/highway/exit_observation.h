// highway-env's envs/common/observation.py ExitObservation, restated: a KinematicObservation
// (observation.h) whose observer row's x is the observer's longitudinal coordinate on the
// exit lane (the last lane of the road "1" -> "2": exit_lane.local_coordinates(position)[0],
// before normalisation), and whose other rows are close_vehicles_to (vehicles only, sorted
// by |lane distance| whatever the order; a "shuffled" order still shuffles the rows after).
#pragma once

#include <vector>

#include "envs/highway/observation.h"

namespace envpool::highway {

class ExitObservation : public KinematicObservation {
 public:
  using KinematicObservation::KinematicObservation;

 protected:
  void AdjustObserverRow(const Road& road, const Vehicle& observer,
                         std::vector<double>* rows) const override {
    const int x = Column(Feature::kX);
    if (x < 0) return;
    const RoadNetwork& net = road.network;
    const int from = net.FindNode("1"), to = net.FindNode("2");
    const LaneIndex exit_lane{from, to, net.LaneCount(from, to) - 1};  // ("1", "2", -1)
    (*rows)[static_cast<std::size_t>(x)] =
        net.GetLane(exit_lane).LocalCoordinates(observer.position)[0];
  }
  std::vector<const Vehicle*> CloseObjects(const Road& road,
                                           const Vehicle& observer) const override {
    return road.CloseVehiclesTo(observer, kPerceptionDistance, config().vehicles_count - 1,
                                config().see_behind, /*sort=*/true);
  }
};

}  // namespace envpool::highway
