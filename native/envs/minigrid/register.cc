// The MiniGrid envs of the native registry (see register.h).
#include "envs/minigrid/register.h"

#include "core/registry.h"
#include "envs/minigrid/minigrid_env.h"
#include "envs/minigrid/mission.h"

namespace envpool::minigrid {

void Register(Registry& registry) {
  registry.push_back(MakeEntry<minigrid::MiniGrid>("MiniGrid"));
}

std::vector<std::string> Vocabulary() {
  return std::vector<std::string>(kVocabulary.begin(), kVocabulary.end());
}

}  // namespace envpool::minigrid
