// The DeepMind Control Suite envs of the native registry (see register.h).
#include "envs/dm_control/register.h"

#include "core/registry.h"
#include "envs/common/pixel_observation.h"
#include "envs/dm_control/acrobot.h"
#include "envs/dm_control/ball_in_cup.h"
#include "envs/dm_control/cartpole.h"
#include "envs/dm_control/cheetah.h"
#include "envs/dm_control/dog.h"
#include "envs/dm_control/finger.h"
#include "envs/dm_control/fish.h"
#include "envs/dm_control/hopper.h"
#include "envs/dm_control/humanoid.h"
#include "envs/dm_control/humanoid_CMU.h"
#include "envs/dm_control/lqr.h"
#include "envs/dm_control/manipulator.h"
#include "envs/dm_control/pendulum.h"
#include "envs/dm_control/point_mass.h"
#include "envs/dm_control/quadruped.h"
#include "envs/dm_control/reacher.h"
#include "envs/dm_control/stacker.h"
#include "envs/dm_control/swimmer.h"
#include "envs/dm_control/walker.h"

namespace envpool::dm_control {

void Register(Registry& registry) {
  registry.push_back(MakeEntry<PixelObservation<Acrobot>>("DmcAcrobot"));
  registry.push_back(MakeEntry<PixelObservation<BallInCup>>("DmcBallInCup"));
  registry.push_back(MakeEntry<PixelObservation<Cartpole>>("DmcCartpole"));
  registry.push_back(MakeEntry<PixelObservation<Cheetah>>("DmcCheetah"));
  registry.push_back(MakeEntry<PixelObservation<Dog>>("DmcDog"));
  registry.push_back(MakeEntry<PixelObservation<Finger>>("DmcFinger"));
  registry.push_back(MakeEntry<PixelObservation<Fish>>("DmcFish"));
  registry.push_back(MakeEntry<PixelObservation<Hopper>>("DmcHopper"));
  registry.push_back(MakeEntry<PixelObservation<Humanoid>>("DmcHumanoid"));
  registry.push_back(MakeEntry<PixelObservation<HumanoidCMU>>("DmcHumanoidCMU"));
  registry.push_back(MakeEntry<PixelObservation<Lqr>>("DmcLqr"));
  registry.push_back(MakeEntry<PixelObservation<Manipulator>>("DmcManipulator"));
  registry.push_back(MakeEntry<PixelObservation<Pendulum>>("DmcPendulum"));
  registry.push_back(MakeEntry<PixelObservation<PointMass>>("DmcPointMass"));
  registry.push_back(MakeEntry<PixelObservation<Quadruped>>("DmcQuadruped"));
  registry.push_back(MakeEntry<PixelObservation<Reacher>>("DmcReacher"));
  registry.push_back(MakeEntry<PixelObservation<Stacker>>("DmcStacker"));
  registry.push_back(MakeEntry<PixelObservation<Swimmer>>("DmcSwimmer"));
  registry.push_back(MakeEntry<PixelObservation<Walker>>("DmcWalker"));
}

}  // namespace envpool::dm_control
