// The highway-env envs of the native registry (see register.h).
#include "envs/highway/register.h"

#include "core/registry.h"
#include "envs/highway/highway.h"

namespace envpool::highway {

void Register(Registry& registry) {
  registry.push_back(MakeEntry<HighwayEnv>("Highway"));
}

}  // namespace envpool::highway
