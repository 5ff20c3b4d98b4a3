// The MuJoCo Playground envs of the native registry (see register.h).
#include "envs/playground/register.h"

#include "core/registry.h"
#include "envs/playground/go1_getup.h"
#include "envs/playground/go1_handstand.h"
#include "envs/playground/go1_joystick.h"
#include "envs/playground/spot_gait_tracking.h"
#include "envs/playground/spot_getup.h"
#include "envs/playground/spot_joystick.h"

namespace envpool::playground {

void Register(Registry& registry) {
  // Go1 joystick, flat and rough terrain (go1_joystick.h).
  registry.push_back(MakeEntry<Go1Joystick>("PlaygroundGo1Joystick"));
  // Go1 handstand and footstand (go1_handstand.h).
  registry.push_back(MakeEntry<Go1Handstand<false>>("PlaygroundGo1Handstand"));
  registry.push_back(MakeEntry<Go1Handstand<true>>("PlaygroundGo1Footstand"));
  // Go1 fall recovery (go1_getup.h).
  registry.push_back(MakeEntry<Go1Getup>("PlaygroundGo1Getup"));
  // Spot fall recovery (spot_getup.h).
  registry.push_back(MakeEntry<SpotGetup>("PlaygroundSpotGetup"));
  // Spot joystick on flat terrain (spot_joystick.h).
  registry.push_back(MakeEntry<SpotJoystick>("PlaygroundSpotJoystick"));
  // Spot joystick with gait control (spot_gait_tracking.h).
  registry.push_back(MakeEntry<SpotGaitTracking>("PlaygroundSpotGaitTracking"));
}

}  // namespace envpool::playground
