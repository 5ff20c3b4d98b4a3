// The MiniGrid envs of the native registry (see register.h).
#include "envs/minigrid/register.h"

#include "core/registry.h"
#include "envs/minigrid/minigrid_env.h"

namespace envpool::minigrid {

void Register(Registry& registry) {
  registry.push_back(MakeEntry<minigrid::MiniGrid>("MiniGrid"));
}

}  // namespace envpool::minigrid
