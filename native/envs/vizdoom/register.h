// The ViZDoom env of the native registry: one native env, "ViZDoom", for
// every scenario; the Python side (envpool/tasks/vizdoom.py) registers
// EnvPool's `<Scenario>-v1` ids with the scenario's cfg and WAD and the
// engine of the installed vizdoom package.
//
// Its keywords exist even in a build without the controller (see
// CMakeLists.txt), so the ids stay registered; making one then raises an
// error that says what is missing.
//
// Register and MissingReason are defined in register.cc, a translation unit of
// its own, so that the families of the extension compile side by side.
#pragma once

#include "core/registry.h"

namespace envpool::vizdoom_envs {

// Adds the ViZDoom env to the registry.
void Register(Registry& registry);

// Why the ViZDoom envs cannot be made ("" when they can).
const char* MissingReason();

}  // namespace envpool::vizdoom_envs
