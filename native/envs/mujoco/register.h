// The MuJoCo envs of the native registry: one native env per gymnasium
// version ("HalfCheetahV4", "HalfCheetahV5", ...), since the versions differ
// in keywords, observations, rewards and info keys.
#pragma once

#include "core/registry.h"
#include "envs/mujoco/half_cheetah.h"

namespace envpool::mujoco {

template <template <int> class E>
void RegisterVersions(Registry& registry, const std::string& name) {
  registry.push_back(MakeEntry<E<4>>(name + "V4", E<4>::Defaults()));
  registry.push_back(MakeEntry<E<5>>(name + "V5", E<5>::Defaults()));
}

inline void Register(Registry& registry) {
  RegisterVersions<HalfCheetah>(registry, "HalfCheetah");
}

}  // namespace envpool::mujoco
