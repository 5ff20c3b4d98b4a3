// Gymnasium-Robotics' Shadow Hand, Adroit, Point Maze and Franka Kitchen envs of the native
// registry (the Fetch tasks are MuJoCo's: envs/mujoco/fetch.h). Each family has its own
// headers in this folder and its task ids in envpool/tasks/robotics_<family>.py.
//
// Register is defined in register.cc, a translation unit of its own, so that the families
// of the extension compile side by side.
#pragma once

#include "core/registry.h"

namespace envpool::robotics {

// Adds the Gymnasium-Robotics envs (but Fetch) to the registry.
void Register(Registry& registry);

}  // namespace envpool::robotics
