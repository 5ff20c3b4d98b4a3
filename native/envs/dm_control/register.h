// The DeepMind Control Suite envs of the native registry: one native env per
// domain ("DmcCartpole", ...); the task is the `task_name` keyword, as in
// sail-sg EnvPool, and envpool/tasks/dm_control.py registers the ids.
#pragma once

#include "core/registry.h"
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

inline void Register(Registry& registry) {
  registry.push_back(MakeEntry<Acrobot>("DmcAcrobot"));
  registry.push_back(MakeEntry<BallInCup>("DmcBallInCup"));
  registry.push_back(MakeEntry<Cartpole>("DmcCartpole"));
  registry.push_back(MakeEntry<Cheetah>("DmcCheetah"));
  registry.push_back(MakeEntry<Dog>("DmcDog"));
  registry.push_back(MakeEntry<Finger>("DmcFinger"));
  registry.push_back(MakeEntry<Fish>("DmcFish"));
  registry.push_back(MakeEntry<Hopper>("DmcHopper"));
  registry.push_back(MakeEntry<Humanoid>("DmcHumanoid"));
  registry.push_back(MakeEntry<HumanoidCMU>("DmcHumanoidCMU"));
  registry.push_back(MakeEntry<Lqr>("DmcLqr"));
  registry.push_back(MakeEntry<Manipulator>("DmcManipulator"));
  registry.push_back(MakeEntry<Pendulum>("DmcPendulum"));
  registry.push_back(MakeEntry<PointMass>("DmcPointMass"));
  registry.push_back(MakeEntry<Quadruped>("DmcQuadruped"));
  registry.push_back(MakeEntry<Reacher>("DmcReacher"));
  registry.push_back(MakeEntry<Stacker>("DmcStacker"));
  registry.push_back(MakeEntry<Swimmer>("DmcSwimmer"));
  registry.push_back(MakeEntry<Walker>("DmcWalker"));
}

}  // namespace envpool::dm_control
