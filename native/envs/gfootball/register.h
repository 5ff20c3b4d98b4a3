// The gfootball env of the native registry: one native env, "Gfootball", for
// every scenario; envpool/tasks/gfootball.py registers sail-sg EnvPool's
// `gfootball/<scenario>-v1` ids with the scenario and the engine's data.
//
// The engine is built from the gfootball sdist against system libraries
// (native/third_party/build_gfootball.py); where they are missing the package
// builds without it, the env's keywords stay (so the ids stay registered),
// and making one raises an error that says what is missing.
#pragma once

#include "core/registry.h"

namespace envpool::gfootball {

// Adds the gfootball env to the registry.
void Register(Registry& registry);

// Why the gfootball envs cannot be made ("" when they can).
const char* MissingReason();

// The build's folder of the engine (its data/, fonts/ and scenarios.json), which a
// build used in place reads; an installed package has its own copy (envpool/gfootball_data).
const char* BuildDir();

}  // namespace envpool::gfootball
