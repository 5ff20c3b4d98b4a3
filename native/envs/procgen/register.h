// The procgen envs of the native registry.
//
// Register is defined in register.cc, a translation unit of its own, so that the families
// of the extension compile side by side.
#pragma once

#include "core/registry.h"

namespace envpool::procgen {

// Adds the restated procgen games to the registry.
void Register(Registry& registry);

}  // namespace envpool::procgen
