// The Gymnasium-Robotics envs of the native registry (see register.h).
#include "envs/robotics/register.h"

#include "core/registry.h"
#include "envs/common/pixel_observation.h"
#include "envs/robotics/hand_manipulate.h"
#include "envs/robotics/hand_reach.h"

namespace envpool::robotics {

void Register(Registry& registry) {
  // One block per family, each in its own headers of this folder.
  (void)registry;
  // Shadow Dexterous Hand (envpool/tasks/robotics_hand.py).
  registry.push_back(MakeEntry<PixelObservation<HandReach>>("HandReach"));
  registry.push_back(MakeEntry<PixelObservation<HandManipulate>>("HandManipulate"));
}

}  // namespace envpool::robotics
