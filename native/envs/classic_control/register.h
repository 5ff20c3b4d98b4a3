// The classic-control envs of the native registry.
#pragma once

#include "core/registry.h"
#include "envs/classic_control/cartpole.h"

namespace envpool::classic_control {

inline void Register(Registry& registry) {
  registry.push_back(MakeEntry<CartPole>("CartPole", CartPole::Defaults()));
}

}  // namespace envpool::classic_control
