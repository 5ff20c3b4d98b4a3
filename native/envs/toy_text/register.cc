// The toy-text envs of the native registry (see register.h).
#include "envs/toy_text/register.h"

#include "core/registry.h"
#include "envs/toy_text/blackjack.h"
#include "envs/toy_text/catch.h"
#include "envs/toy_text/cliff_walking.h"
#include "envs/toy_text/frozen_lake.h"
#include "envs/toy_text/nchain.h"
#include "envs/toy_text/tabular_blackjack.h"
#include "envs/toy_text/tabular_cliff_walking.h"
#include "envs/toy_text/taxi.h"

namespace envpool::toy_text {

void Register(Registry& registry) {
  registry.push_back(MakeEntry<FrozenLake>("FrozenLake"));
  registry.push_back(MakeEntry<Taxi>("Taxi"));
  registry.push_back(MakeEntry<CliffWalking>("CliffWalking"));
  registry.push_back(MakeEntry<Blackjack>("Blackjack"));
  registry.push_back(MakeEntry<NChain>("NChain"));
  registry.push_back(MakeEntry<Catch>("Catch"));
  registry.push_back(MakeEntry<TabularBlackjack>("TabularBlackjack"));
  registry.push_back(MakeEntry<TabularCliffWalking>("TabularCliffWalking"));
}

}  // namespace envpool::toy_text
