// Gymnasium-Robotics' Fetch, Shadow Hand, Adroit, Point Maze, Ant Maze and Franka Kitchen
// envs of the native registry. Each family has its own headers in this folder and its task
// ids in envpool/tasks/robotics_<family>.py (Fetch's in envpool/tasks/robotics.py).
//
// Register is defined in register.cc, a translation unit of its own, so that the families
// of the extension compile side by side.
#pragma once

#include "core/registry.h"

namespace envpool::robotics {

// Adds the Gymnasium-Robotics envs to the registry.
void Register(Registry& registry);

}  // namespace envpool::robotics
