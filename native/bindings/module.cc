// The Python extension `envpool._native`: envpool's own native envs behind
// the same module surface as every env SDK module (bindings/pool_module.h),
// plus what only envpool needs (ViZDoom's build status, a test hook).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstddef>
#include <cstdint>

#include "bindings/pool_module.h"
#include "core/registry.h"
#include "core/seed_sequence.h"
#include "envs/atari/register.h"
#include "envs/box2d/register.h"
#include "envs/classic_control/register.h"
#include "envs/dm_control/register.h"
#include "envs/mujoco/register.h"
#include "envs/testing/faulty.h"
#include "envs/toy_text/register.h"
#include "envs/vizdoom/register.h"

namespace py = pybind11;

namespace envpool {
namespace {

Registry BuildRegistry() {
  Registry registry;
  atari::Register(registry);
  box2d::Register(registry);
  classic_control::Register(registry);
  dm_control::Register(registry);
  mujoco::Register(registry);
  toy_text::Register(registry);
  vizdoom_envs::Register(registry);
  // For the test suite; not registered as a task id.
  registry.push_back(MakeEntry<testing::Faulty>("_Faulty"));
  return registry;
}

}  // namespace
}  // namespace envpool

PYBIND11_MODULE(_native, m) {
  using namespace envpool;
  m.doc() = "envpool native core: the thread pool and the C++ environments";
  bindings::DefinePoolModule(m, BuildRegistry());

  m.attr("vizdoom_missing") = vizdoom_envs::MissingReason();

  // For the tests only (compared with numpy.random.SeedSequence): the words
  // of SeedSequence(seed).generate_state(n_words) that the Atari envs derive
  // their ALE seeds from.
  m.def(
      "_seed_sequence_state",
      [](std::uint64_t seed, std::size_t n_words) {
        return SeedSequence(seed).GenerateState(n_words);
      },
      py::arg("seed"), py::arg("n_words"));
}
