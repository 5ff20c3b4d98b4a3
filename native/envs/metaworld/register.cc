// The Meta-World env of the native registry (see register.h).
#include "envs/metaworld/register.h"

#include "core/registry.h"
#include "envs/metaworld/sawyer.h"
#include "envs/metaworld/tasks.h"

namespace envpool::metaworld {

void Register(Registry& registry) { registry.push_back(MakeEntry<Sawyer>("MetaWorld")); }

}  // namespace envpool::metaworld
