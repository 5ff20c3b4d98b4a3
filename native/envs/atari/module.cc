// The Python extension `envpool._atari`: the Atari envs, in a module of their
// own because they link the Arcade Learning Environment (libale.a, GPL-2.0-only).
// This module is a combined work distributed under GPL-2.0-only (LICENSE,
// licenses/); the rest of envpool (envpool._native) links nothing of the ALE
// and stays Apache-2.0. It is built like any env SDK module
// (bindings/pool_module.h), so the Python side registers its ids with
// `module=envpool._atari` as it would a third-party module's.
#include <pybind11/pybind11.h>

#include "bindings/pool_module.h"
#include "core/registry.h"
#include "envs/atari/atari_env.h"

PYBIND11_MODULE(_atari, m) {
  using namespace envpool;
  m.doc() = "envpool's Atari envs over the Arcade Learning Environment (GPL-2.0-only)";
  Registry registry;
  // One native env for every game: envpool/tasks/atari.py registers `<Game>-v5` ids
  // with `game` and the ROM path of the installed ale_py package.
  registry.push_back(MakeEntry<atari::AtariEnv>("Atari"));
  bindings::DefinePoolModule(m, std::move(registry));
}
