// The highway-env envs of the native registry (see register.h).
#include "envs/highway/register.h"

#include "core/registry.h"
#include "envs/highway/highway.h"
#include "envs/highway/intersection.h"

namespace envpool::highway {

void Register(Registry& registry) {
  registry.push_back(MakeEntry<HighwayEnv>("Highway"));
  registry.push_back(MakeEntry<IntersectionEnv>("Intersection"));
}

}  // namespace envpool::highway
