// MuJoCo Playground's tasks (playground 0.2.0) on native MuJoCo, of the native registry. Each
// task has its own header in this folder; their ids are in envpool/tasks/playground.py.
//
// Register is defined in register.cc, a translation unit of its own, so that the families
// of the extension compile side by side.
#pragma once

#include "core/registry.h"

namespace envpool::playground {

// Adds the MuJoCo Playground envs to the registry.
void Register(Registry& registry);

}  // namespace envpool::playground
