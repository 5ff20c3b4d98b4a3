// The toy-text envs of the native registry.
#pragma once

#include "core/registry.h"

namespace envpool::toy_text {

inline void Register(Registry& registry) { (void)registry; }

}  // namespace envpool::toy_text
