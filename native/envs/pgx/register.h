// The PGX games of the native registry.
//
// Register is defined in register.cc, a translation unit of its own, so that the families
// of the extension compile side by side.
#pragma once

#include "core/registry.h"

namespace envpool::pgx {

// Adds the PGX games to the registry.
void Register(Registry& registry);

}  // namespace envpool::pgx
