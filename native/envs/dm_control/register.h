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
  registry.push_back(MakeEntry<Acrobot>("DmcAcrobot", Acrobot::Defaults()));
  registry.push_back(MakeEntry<BallInCup>("DmcBallInCup", BallInCup::Defaults()));
  registry.push_back(MakeEntry<Cartpole>("DmcCartpole", Cartpole::Defaults()));
  registry.push_back(MakeEntry<Cheetah>("DmcCheetah", Cheetah::Defaults()));
  registry.push_back(MakeEntry<Dog>("DmcDog", Dog::Defaults()));
  registry.push_back(MakeEntry<Finger>("DmcFinger", Finger::Defaults()));
  registry.push_back(MakeEntry<Fish>("DmcFish", Fish::Defaults()));
  registry.push_back(MakeEntry<Hopper>("DmcHopper", Hopper::Defaults()));
  registry.push_back(MakeEntry<Humanoid>("DmcHumanoid", Humanoid::Defaults()));
  registry.push_back(MakeEntry<HumanoidCMU>("DmcHumanoidCMU", HumanoidCMU::Defaults()));
  registry.push_back(MakeEntry<Lqr>("DmcLqr", Lqr::Defaults()));
  registry.push_back(MakeEntry<Manipulator>("DmcManipulator", Manipulator::Defaults()));
  registry.push_back(MakeEntry<Pendulum>("DmcPendulum", Pendulum::Defaults()));
  registry.push_back(MakeEntry<PointMass>("DmcPointMass", PointMass::Defaults()));
  registry.push_back(MakeEntry<Quadruped>("DmcQuadruped", Quadruped::Defaults()));
  registry.push_back(MakeEntry<Reacher>("DmcReacher", Reacher::Defaults()));
  registry.push_back(MakeEntry<Stacker>("DmcStacker", Stacker::Defaults()));
  registry.push_back(MakeEntry<Swimmer>("DmcSwimmer", Swimmer::Defaults()));
  registry.push_back(MakeEntry<Walker>("DmcWalker", Walker::Defaults()));
}

}  // namespace envpool::dm_control
