// The highway-env envs of the native registry (see register.h).
#include "envs/highway/register.h"

#include "core/registry.h"
#include "envs/highway/highway.h"
#include "envs/highway/lane_keeping.h"
#include "envs/highway/parking.h"
#include "envs/highway/racetrack.h"

namespace envpool::highway {

void Register(Registry& registry) {
  registry.push_back(MakeEntry<HighwayEnv>("Highway"));
  registry.push_back(MakeEntry<ParkingEnv>("Parking"));
  registry.push_back(MakeEntry<RacetrackEnv>("Racetrack"));
  registry.push_back(MakeEntry<LaneKeepingEnv>("LaneKeeping"));
}

}  // namespace envpool::highway
