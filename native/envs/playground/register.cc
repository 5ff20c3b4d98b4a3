// The MuJoCo Playground envs of the native registry (see register.h).
#include "envs/playground/register.h"

#include "core/registry.h"
#include "envs/playground/go1_handstand.h"
#include "envs/playground/go1_joystick.h"
#include "envs/playground/g1_joystick.h"
#include "envs/playground/h1_inplace_gait_tracking.h"
#include "envs/playground/h1_joystick_gait_tracking.h"

namespace envpool::playground {

void Register(Registry& registry) {
  // Go1 joystick, flat and rough terrain (go1_joystick.h).
  registry.push_back(MakeEntry<Go1Joystick>("PlaygroundGo1Joystick"));
  // Go1 handstand and footstand (go1_handstand.h).
  registry.push_back(MakeEntry<Go1Handstand<false>>("PlaygroundGo1Handstand"));
  registry.push_back(MakeEntry<Go1Handstand<true>>("PlaygroundGo1Footstand"));
  // G1 joystick, flat and rough terrain (g1_joystick.h).
  registry.push_back(MakeEntry<G1Joystick>("PlaygroundG1Joystick"));
  // H1 gait tracking, in place and to a joystick command (h1_*_gait_tracking.h).
  registry.push_back(MakeEntry<H1InplaceGaitTracking>("PlaygroundH1InplaceGaitTracking"));
  registry.push_back(MakeEntry<H1JoystickGaitTracking>("PlaygroundH1JoystickGaitTracking"));
}

}  // namespace envpool::playground
