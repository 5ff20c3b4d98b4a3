// The DeepMind Control Suite envs of the native registry: one native env per
// domain ("DmcCartpole", ...); the task is the `task_name` keyword, as in
// sail-sg EnvPool, and envpool/tasks/dm_control.py registers the ids. Each one
// observes pixels with from_pixels=True (envs/common/pixel_observation.h).
//
// Register is defined in register.cc, a translation unit of its own, so that
// the families of the extension compile side by side.
#pragma once

#include "core/registry.h"

namespace envpool::dm_control {

// Adds the DeepMind Control Suite envs to the registry.
void Register(Registry& registry);

}  // namespace envpool::dm_control
