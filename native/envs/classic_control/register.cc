// The classic-control envs of the native registry (see register.h).
#include "envs/classic_control/register.h"

#include "core/registry.h"
#include "envs/classic_control/acrobot.h"
#include "envs/classic_control/cartpole.h"
#include "envs/classic_control/mountain_car.h"
#include "envs/classic_control/mountain_car_continuous.h"
#include "envs/classic_control/pendulum.h"
#include "envs/classic_control/phys2d_cartpole.h"
#include "envs/classic_control/phys2d_pendulum.h"

namespace envpool::classic_control {

void Register(Registry& registry) {
  registry.push_back(MakeEntry<CartPole>("CartPole"));
  registry.push_back(MakeEntry<MountainCar>("MountainCar"));
  registry.push_back(MakeEntry<MountainCarContinuous>("MountainCarContinuous"));
  registry.push_back(MakeEntry<Pendulum>("Pendulum"));
  registry.push_back(MakeEntry<Acrobot>("Acrobot"));
  registry.push_back(MakeEntry<Phys2dCartPole>("Phys2dCartPole"));
  registry.push_back(MakeEntry<Phys2dPendulum>("Phys2dPendulum"));
}

}  // namespace envpool::classic_control
