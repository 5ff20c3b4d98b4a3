// The Python extension `envpool._gfootball`: Google Research Football's env,
// in a module of its own because the engine needs libraries that no other
// family does: it links Boost.Filesystem, and loads SDL 2 (with SDL_ttf and
// SDL_gfx, sdl_loader.cc) and EGL (egl_loader.cc) at run time. An envpool whose
// gfootball module cannot load still makes every other env. Built without the engine (the system lacked its
// libraries at build time), the module still registers the env, and making one
// says what is missing.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bindings/pool_module.h"
#include "core/registry.h"
#include "envs/gfootball/keywords.h"
#ifdef ENVPOOL_WITH_GFOOTBALL
#include "envs/gfootball/gfootball_env.h"
#include "envs/gfootball/sdl_loader.h"
#endif

#ifndef ENVPOOL_GFOOTBALL_MISSING
#define ENVPOOL_GFOOTBALL_MISSING "envpool was built without the gfootball engine"
#endif

namespace envpool::gfootball {
namespace {

const char* MissingReason() {
#ifdef ENVPOOL_WITH_GFOOTBALL
  return "";
#else
  return ENVPOOL_GFOOTBALL_MISSING;
#endif
}

const char* BuildDir() {
#ifdef ENVPOOL_GFOOTBALL_BUILD
  return ENVPOOL_GFOOTBALL_BUILD;
#else
  return "";
#endif
}

void Register(Registry& registry) {
#ifdef ENVPOOL_WITH_GFOOTBALL
  registry.push_back(MakeEntry<Gfootball>("Gfootball"));
#else
  registry.push_back(EnvEntry{"Gfootball", GfootballDefaults(),
                              [](const Config&) -> std::unique_ptr<EnvFactory> {
                                throw std::runtime_error(ENVPOOL_GFOOTBALL_MISSING);
                              }});
#endif
}

}  // namespace
}  // namespace envpool::gfootball

PYBIND11_MODULE(_gfootball, m) {
  using namespace envpool;
  m.doc() = "envpool's Google Research Football env over the gfootball engine";
  Registry registry;
  gfootball::Register(registry);
  bindings::DefinePoolModule(m, std::move(registry));
  // "" when the engine is built in, else why it is not (envpool/tasks/gfootball.py).
  m.attr("missing") = gfootball::MissingReason();
  // The engine's build folder (its data, for a build used in place).
  m.attr("build_dir") = gfootball::BuildDir();
  // Loads SDL 2, SDL_ttf and SDL_gfx for the engine from the first of `dirs` that holds
  // them, else the system's; a RuntimeError says what is missing. Returns where they
  // were loaded from.
  m.def(
      "load_sdl",
      [](const std::vector<std::string>& dirs) {
#ifdef ENVPOOL_WITH_GFOOTBALL
        gfootball::LoadSdl(dirs);
        return gfootball::SdlSource();
#else
        (void)dirs;
        throw std::runtime_error(ENVPOOL_GFOOTBALL_MISSING);
        return std::string();
#endif
      },
      pybind11::arg("dirs"));
}
