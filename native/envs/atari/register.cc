// The Atari envs of the native registry (see register.h).
#include "envs/atari/register.h"

#include "core/registry.h"
#include "envs/atari/atari_env.h"

namespace envpool::atari {

void Register(Registry& registry) {
  registry.push_back(MakeEntry<AtariEnv>("Atari"));
}

}  // namespace envpool::atari
