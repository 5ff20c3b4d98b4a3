// The classic-control envs of the native registry.
#pragma once

#include "core/registry.h"
#include "envs/classic_control/acrobot.h"
#include "envs/classic_control/cartpole.h"
#include "envs/classic_control/mountain_car.h"
#include "envs/classic_control/mountain_car_continuous.h"
#include "envs/classic_control/pendulum.h"

namespace envpool::classic_control {

inline void Register(Registry& registry) {
  registry.push_back(MakeEntry<CartPole>("CartPole", CartPole::Defaults()));
  registry.push_back(MakeEntry<MountainCar>("MountainCar", MountainCar::Defaults()));
  registry.push_back(MakeEntry<MountainCarContinuous>("MountainCarContinuous",
                                                      MountainCarContinuous::Defaults()));
  registry.push_back(MakeEntry<Pendulum>("Pendulum", Pendulum::Defaults()));
  registry.push_back(MakeEntry<Acrobot>("Acrobot", Acrobot::Defaults()));
}

}  // namespace envpool::classic_control
