// The MuJoCo envs of the native registry: one native env per gymnasium
// version ("HalfCheetahV4", "HalfCheetahV5", ...), since the versions differ
// in keywords, observations, rewards and info keys. Each one observes pixels
// with from_pixels=True (envs/common/pixel_observation.h).
//
// Register is defined in register.cc, a translation unit of its own, so that
// the families of the extension compile side by side.
#pragma once

#include "core/registry.h"

namespace envpool::mujoco {

// Adds the MuJoCo envs to the registry.
void Register(Registry& registry);

}  // namespace envpool::mujoco
