// The MuJoCo Playground envs of the native registry (see register.h).
#include "envs/playground/register.h"

#include "core/registry.h"
#include "envs/playground/aero_rotate_z.h"
#include "envs/playground/aloha_handover.h"
#include "envs/playground/aloha_peg_insertion.h"
#include "envs/playground/go1_handstand.h"
#include "envs/playground/go1_joystick.h"
#include "envs/playground/leap_reorient.h"
#include "envs/playground/leap_rotate_z.h"

namespace envpool::playground {

void Register(Registry& registry) {
  // Go1 joystick, flat and rough terrain (go1_joystick.h).
  registry.push_back(MakeEntry<Go1Joystick>("PlaygroundGo1Joystick"));
  // Go1 handstand and footstand (go1_handstand.h).
  registry.push_back(MakeEntry<Go1Handstand<false>>("PlaygroundGo1Handstand"));
  registry.push_back(MakeEntry<Go1Handstand<true>>("PlaygroundGo1Footstand"));
  // LEAP hand cube reorientation and z-axis rotation (leap_reorient.h, leap_rotate_z.h).
  registry.push_back(MakeEntry<LeapCubeReorient>("PlaygroundLeapCubeReorient"));
  registry.push_back(MakeEntry<LeapCubeRotateZ>("PlaygroundLeapCubeRotateZAxis"));
  // Aero hand cube rotation (aero_rotate_z.h).
  registry.push_back(MakeEntry<AeroCubeRotateZ>("PlaygroundAeroCubeRotateZAxis"));
  // ALOHA handover and peg insertion (aloha_handover.h, aloha_peg_insertion.h).
  registry.push_back(MakeEntry<AlohaHandOver>("PlaygroundAlohaHandOver"));
  registry.push_back(MakeEntry<AlohaSinglePegInsertion>("PlaygroundAlohaSinglePegInsertion"));
}

}  // namespace envpool::playground
