// The MuJoCo envs of the native registry (see register.h).
#include "envs/mujoco/register.h"

#include <string>

#include "core/registry.h"
#include "envs/common/pixel_observation.h"
#include "envs/mujoco/ant.h"
#include "envs/mujoco/half_cheetah.h"
#include "envs/mujoco/hopper.h"
#include "envs/mujoco/humanoid.h"
#include "envs/mujoco/humanoid_standup.h"
#include "envs/mujoco/inverted_double_pendulum.h"
#include "envs/mujoco/inverted_pendulum.h"
#include "envs/mujoco/pusher.h"
#include "envs/mujoco/reacher.h"
#include "envs/mujoco/swimmer.h"
#include "envs/mujoco/walker2d.h"

namespace envpool::mujoco {

namespace {

template <template <int> class E>
void RegisterVersions(Registry& registry, const std::string& name) {
  registry.push_back(MakeEntry<PixelObservation<E<4>>>(name + "V4"));
  registry.push_back(MakeEntry<PixelObservation<E<5>>>(name + "V5"));
}

}  // namespace

void Register(Registry& registry) {
  RegisterVersions<HalfCheetah>(registry, "HalfCheetah");
  RegisterVersions<Hopper>(registry, "Hopper");
  RegisterVersions<Walker2d>(registry, "Walker2d");
  RegisterVersions<Ant>(registry, "Ant");
  RegisterVersions<Swimmer>(registry, "Swimmer");
  RegisterVersions<Humanoid>(registry, "Humanoid");
  RegisterVersions<HumanoidStandup>(registry, "HumanoidStandup");
  RegisterVersions<InvertedPendulum>(registry, "InvertedPendulum");
  RegisterVersions<InvertedDoublePendulum>(registry, "InvertedDoublePendulum");
  RegisterVersions<Reacher>(registry, "Reacher");
  RegisterVersions<Pusher>(registry, "Pusher");
}

}  // namespace envpool::mujoco
