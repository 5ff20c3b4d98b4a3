// The Atari env of the native registry: one native env, "Atari", for every
// game; the Python side (envpool/tasks/atari.py) registers `<Game>-v5` ids
// with `game` and the ROM path of the installed ale_py package.
#pragma once

#include "core/registry.h"
#include "envs/atari/atari_env.h"

namespace envpool::atari {

inline void Register(Registry& registry) {
  registry.push_back(MakeEntry<AtariEnv>("Atari"));
}

}  // namespace envpool::atari
