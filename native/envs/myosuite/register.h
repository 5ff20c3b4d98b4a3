// The MyoSuite envs of the native registry: one native env per task class of the package
// (MyoReach, ...), each observing pixels with from_pixels=True
// (envs/common/pixel_observation.h).
//
// Register is defined in register.cc, a translation unit of its own, so that the families
// of the extension compile side by side.
#pragma once

#include "core/registry.h"

namespace envpool::myosuite {

// Adds the MyoSuite envs to the registry.
void Register(Registry& registry);

}  // namespace envpool::myosuite
