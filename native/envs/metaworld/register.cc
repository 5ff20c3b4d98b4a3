// The Meta-World env of the native registry (see register.h). It observes pixels with
// from_pixels=True (envs/common/pixel_observation.h).
#include "envs/metaworld/register.h"

#include "core/registry.h"
#include "envs/common/pixel_observation.h"
#include "envs/metaworld/sawyer.h"
#include "envs/metaworld/tasks.h"

namespace envpool::metaworld {

void Register(Registry& registry) {
  registry.push_back(MakeEntry<PixelObservation<Sawyer>>("MetaWorld"));
}

}  // namespace envpool::metaworld
