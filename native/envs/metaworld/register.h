// The Meta-World envs of the native registry: one native env, "MetaWorld", whose
// `task_name` keyword picks the v3 task (envs/metaworld/tasks.h).
//
// Register is defined in register.cc, a translation unit of its own, so that the families
// of the extension compile side by side.
#pragma once

#include "core/registry.h"

namespace envpool::metaworld {

// Adds the Meta-World env to the registry.
void Register(Registry& registry);

}  // namespace envpool::metaworld
