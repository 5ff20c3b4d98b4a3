// The MuJoCo Playground envs of the native registry (see register.h), each observing pixels
// with from_pixels=True (envs/common/pixel_observation.h), as the other MuJoCo families.
#include "envs/playground/register.h"

#include "core/registry.h"
#include "envs/common/pixel_observation.h"
#include "envs/playground/aero_rotate_z.h"
#include "envs/playground/aloha_handover.h"
#include "envs/playground/aloha_peg_insertion.h"
#include "envs/playground/apollo_joystick.h"
#include "envs/playground/barkour_joystick.h"
#include "envs/playground/berkeley_humanoid_joystick.h"
#include "envs/playground/g1_joystick.h"
#include "envs/playground/go1_getup.h"
#include "envs/playground/go1_handstand.h"
#include "envs/playground/go1_joystick.h"
#include "envs/playground/h1_inplace_gait_tracking.h"
#include "envs/playground/h1_joystick_gait_tracking.h"
#include "envs/playground/leap_reorient.h"
#include "envs/playground/leap_rotate_z.h"
#include "envs/playground/op3_joystick.h"
#include "envs/playground/panda_open_cabinet.h"
#include "envs/playground/panda_pick_cube.h"
#include "envs/playground/panda_pick_cube_cartesian.h"
#include "envs/playground/panda_robotiq_push_cube.h"
#include "envs/playground/spot_gait_tracking.h"
#include "envs/playground/spot_getup.h"
#include "envs/playground/spot_joystick.h"
#include "envs/playground/t1_joystick.h"

namespace envpool::playground {

namespace {
// Each task with the simulation's state in its info (PhysicsInfo), observing pixels with
// from_pixels=True.
template <class E>
using Task = PixelObservation<PhysicsInfo<E>>;
}  // namespace

void Register(Registry& registry) {
  // Go1 joystick, flat and rough terrain (go1_joystick.h).
  registry.push_back(MakeEntry<Task<Go1Joystick>>("PlaygroundGo1Joystick"));
  // Go1 handstand and footstand (go1_handstand.h).
  registry.push_back(MakeEntry<Task<Go1Handstand<false>>>("PlaygroundGo1Handstand"));
  registry.push_back(MakeEntry<Task<Go1Handstand<true>>>("PlaygroundGo1Footstand"));
  // ROBOTIS OP3 joystick (op3_joystick.h).
  registry.push_back(MakeEntry<Task<Op3Joystick>>("PlaygroundOp3Joystick"));
  // Google Barkour vB joystick (barkour_joystick.h).
  registry.push_back(MakeEntry<Task<BarkourJoystick>>("PlaygroundBarkourJoystick"));
  // Apptronik Apollo joystick (apollo_joystick.h).
  registry.push_back(MakeEntry<Task<ApolloJoystick>>("PlaygroundApolloJoystick"));
  // Berkeley Humanoid and Booster T1 joystick, flat and rough terrain
  // (berkeley_humanoid_joystick.h, t1_joystick.h over humanoid_joystick_base.h).
  registry.push_back(MakeEntry<Task<BerkeleyHumanoidJoystick>>("PlaygroundBerkeleyHumanoidJoystick"));
  registry.push_back(MakeEntry<Task<T1Joystick>>("PlaygroundT1Joystick"));
  // Franka Emika Panda pick tasks (panda_pick_cube.h).
  registry.push_back(MakeEntry<Task<PandaPickCube<false>>>("PlaygroundPandaPickCube"));
  registry.push_back(MakeEntry<Task<PandaPickCube<true>>>("PlaygroundPandaPickCubeOrientation"));
  // Franka Emika Panda cabinet (panda_open_cabinet.h).
  registry.push_back(MakeEntry<Task<PandaOpenCabinet>>("PlaygroundPandaOpenCabinet"));
  // Franka Emika Panda Cartesian pick (panda_pick_cube_cartesian.h).
  registry.push_back(MakeEntry<Task<PandaPickCubeCartesian>>("PlaygroundPandaPickCubeCartesian"));
  // Franka Emika Panda with a Robotiq gripper, pushing a box (panda_robotiq_push_cube.h).
  registry.push_back(MakeEntry<Task<PandaRobotiqPushCube>>("PlaygroundPandaRobotiqPushCube"));
  // G1 joystick, flat and rough terrain (g1_joystick.h).
  registry.push_back(MakeEntry<Task<G1Joystick>>("PlaygroundG1Joystick"));
  // H1 gait tracking, in place and to a joystick command (h1_*_gait_tracking.h).
  registry.push_back(MakeEntry<Task<H1InplaceGaitTracking>>("PlaygroundH1InplaceGaitTracking"));
  registry.push_back(MakeEntry<Task<H1JoystickGaitTracking>>("PlaygroundH1JoystickGaitTracking"));
  // LEAP hand cube reorientation and z-axis rotation (leap_reorient.h, leap_rotate_z.h).
  registry.push_back(MakeEntry<Task<LeapCubeReorient>>("PlaygroundLeapCubeReorient"));
  registry.push_back(MakeEntry<Task<LeapCubeRotateZ>>("PlaygroundLeapCubeRotateZAxis"));
  // Aero hand cube rotation (aero_rotate_z.h).
  registry.push_back(MakeEntry<Task<AeroCubeRotateZ>>("PlaygroundAeroCubeRotateZAxis"));
  // ALOHA handover and peg insertion (aloha_handover.h, aloha_peg_insertion.h).
  registry.push_back(MakeEntry<Task<AlohaHandOver>>("PlaygroundAlohaHandOver"));
  registry.push_back(MakeEntry<Task<AlohaSinglePegInsertion>>("PlaygroundAlohaSinglePegInsertion"));
  // Go1 fall recovery (go1_getup.h).
  registry.push_back(MakeEntry<Task<Go1Getup>>("PlaygroundGo1Getup"));
  // Spot fall recovery (spot_getup.h).
  registry.push_back(MakeEntry<Task<SpotGetup>>("PlaygroundSpotGetup"));
  // Spot joystick on flat terrain (spot_joystick.h).
  registry.push_back(MakeEntry<Task<SpotJoystick>>("PlaygroundSpotJoystick"));
  // Spot joystick with gait control (spot_gait_tracking.h).
  registry.push_back(MakeEntry<Task<SpotGaitTracking>>("PlaygroundSpotGaitTracking"));
}

}  // namespace envpool::playground
