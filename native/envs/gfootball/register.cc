// The gfootball env of the native registry (see register.h).
#include "envs/gfootball/register.h"

#include <memory>
#include <stdexcept>

#include "core/registry.h"
#include "envs/gfootball/keywords.h"
#ifdef ENVPOOL_WITH_GFOOTBALL
#include "envs/gfootball/gfootball_env.h"
#endif

#ifndef ENVPOOL_GFOOTBALL_MISSING
#define ENVPOOL_GFOOTBALL_MISSING "envpool was built without the gfootball engine"
#endif

namespace envpool::gfootball {

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

}  // namespace envpool::gfootball
