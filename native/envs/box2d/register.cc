// The Box2D envs of the native registry (see register.h).
#include "envs/box2d/register.h"

#include "core/registry.h"
#include "envs/box2d/bipedal_walker.h"
#include "envs/box2d/car_racing.h"
#include "envs/box2d/lunar_lander.h"

namespace envpool::box2d {

void Register(Registry& registry) {
  registry.push_back(MakeEntry<LunarLander>("LunarLander"));
  registry.push_back(MakeEntry<BipedalWalker>("BipedalWalker"));
  registry.push_back(MakeEntry<CarRacing>("CarRacing"));
}

}  // namespace envpool::box2d
