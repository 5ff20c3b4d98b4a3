// The MiniGrid envs of the native registry, and their mission vocabulary.
//
// Register is defined in register.cc, a translation unit of its own, so that
// the families of the extension compile side by side.
#pragma once

#include <string>
#include <vector>

#include "core/registry.h"

namespace envpool::minigrid {

// Adds the MiniGrid env to the registry.
void Register(Registry& registry);

// The words of obs["mission_tokens"], by token id (mission.h's kVocabulary): the one
// vocabulary, which envpool._native exports as `minigrid_vocabulary` for Python to
// decode the tokens with.
std::vector<std::string> Vocabulary();

}  // namespace envpool::minigrid
