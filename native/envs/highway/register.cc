// The highway-env envs of the native registry (see register.h).
#include "envs/highway/register.h"

#include <utility>

#include "core/registry.h"
#include "envs/highway/exit.h"
#include "envs/highway/highway.h"
#include "envs/highway/intersection.h"
#include "envs/highway/lane_keeping.h"
#include "envs/highway/merge.h"
#include "envs/highway/merge_generic.h"
#include "envs/highway/parking.h"
#include "envs/highway/racetrack.h"
#include "envs/highway/roundabout.h"
#include "envs/highway/two_way.h"
#include "envs/highway/u_turn.h"

namespace envpool::highway {

void Register(Registry& registry) {
  registry.push_back(MakeEntry<HighwayEnv>("Highway"));
  registry.push_back(MakeEntry<IntersectionEnv>("Intersection"));
  // the multi-agent ids: a multi-player env (max_num_players among its keywords)
  EnvEntry multi_agent = MakeEntry<IntersectionEnv>("IntersectionMultiAgent");
  multi_agent.defaults = IntersectionEnv::MultiAgentDefaults();
  registry.push_back(std::move(multi_agent));
  registry.push_back(MakeEntry<MergeEnv>("Merge"));
  registry.push_back(MakeEntry<MergeGenericEnv>("MergeGeneric"));
  registry.push_back(MakeEntry<RoundaboutEnv>("Roundabout"));
  registry.push_back(MakeEntry<TwoWayEnv>("TwoWay"));
  registry.push_back(MakeEntry<ExitEnv>("Exit"));
  registry.push_back(MakeEntry<UTurnEnv>("UTurn"));
  registry.push_back(MakeEntry<ParkingEnv>("Parking"));
  registry.push_back(MakeEntry<RacetrackEnv>("Racetrack"));
  registry.push_back(MakeEntry<LaneKeepingEnv>("LaneKeeping"));
}

}  // namespace envpool::highway
