// The DeepMind Control Suite envs of the native registry: one native env per
// domain ("DmcCartpole", ...); the task is the `task_name` keyword, as in
// sail-sg EnvPool, and envpool/tasks/dm_control.py registers the ids.
#pragma once

#include "core/registry.h"
#include "envs/dm_control/cartpole.h"
#include "envs/dm_control/manipulator.h"
#include "envs/dm_control/quadruped.h"

namespace envpool::dm_control {

inline void Register(Registry& registry) {
  registry.push_back(MakeEntry<Cartpole>("DmcCartpole", Cartpole::Defaults()));
  registry.push_back(MakeEntry<Manipulator>("DmcManipulator", Manipulator::Defaults()));
  registry.push_back(MakeEntry<Quadruped>("DmcQuadruped", Quadruped::Defaults()));
}

}  // namespace envpool::dm_control
