// The toy-text envs of the native registry.
#pragma once

#include "core/registry.h"
#include "envs/toy_text/blackjack.h"
#include "envs/toy_text/catch.h"
#include "envs/toy_text/cliff_walking.h"
#include "envs/toy_text/frozen_lake.h"
#include "envs/toy_text/nchain.h"
#include "envs/toy_text/taxi.h"

namespace envpool::toy_text {

inline void Register(Registry& registry) {
  registry.push_back(MakeEntry<FrozenLake>("FrozenLake", FrozenLake::Defaults()));
  registry.push_back(MakeEntry<Taxi>("Taxi", Taxi::Defaults()));
  registry.push_back(MakeEntry<CliffWalking>("CliffWalking", CliffWalking::Defaults()));
  registry.push_back(MakeEntry<Blackjack>("Blackjack", Blackjack::Defaults()));
  registry.push_back(MakeEntry<NChain>("NChain", NChain::Defaults()));
  registry.push_back(MakeEntry<Catch>("Catch", Catch::Defaults()));
}

}  // namespace envpool::toy_text
