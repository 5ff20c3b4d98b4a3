// The Atari env of the native registry: one native env, "Atari", for every
// game; the Python side (envpool/tasks/atari.py) registers `<Game>-v5` ids
// with `game` and the ROM path of the installed ale_py package.
//
// Register is defined in register.cc, a translation unit of its own, so that
// the families of the extension compile side by side.
#pragma once

#include "core/registry.h"

namespace envpool::atari {

// Adds the Atari envs to the registry.
void Register(Registry& registry);

}  // namespace envpool::atari
