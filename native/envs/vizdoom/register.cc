// The ViZDoom env of the native registry (see register.h).
#include "envs/vizdoom/register.h"

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/registry.h"
#ifdef ENVPOOL_WITH_VIZDOOM
#include "envs/vizdoom/vizdoom_env.h"
#endif

#ifndef ENVPOOL_VIZDOOM_MISSING
#define ENVPOOL_VIZDOOM_MISSING "envpool was built without the ViZDoom controller"
#endif

namespace envpool::vizdoom_envs {

namespace {

Config Defaults() {
  Config c;
  c.Set("cfg_path", std::string());
  c.Set("wad_path", std::string());
  c.Set("vzd_path", std::string());
  c.Set("iwad_path", std::string());
  c.Set("game_args", std::string());
  c.Set("map_id", std::string("map01"));
  c.Set("lmp_save_dir", std::string());
  c.Set("img_height", std::int64_t{84}).AtLeast(1);
  c.Set("img_width", std::int64_t{84}).AtLeast(1);
  c.Set("stack_num", std::int64_t{4}).AtLeast(1);
  c.Set("frame_skip", std::int64_t{4}).AtLeast(1);
  c.Set("weapon_duration", std::int64_t{5}).AtLeast(0);
  c.Set("episodic_life", false);
  c.Set("force_speed", false);
  c.Set("use_combined_action", false);
  c.Set("use_inter_area_resize", true);
  c.Set("use_game_reward", false);
  // Filled by the Python side: where the engine keeps its ini file, and the
  // dict keywords flattened.
  c.Set("_doom_config_path", std::string());
  c.Set("_reward_variables", std::vector<std::string>());
  c.Set("_reward_pos", std::vector<double>());
  c.Set("_reward_neg", std::vector<double>());
  c.Set("_weapon_reward", std::vector<double>());
  c.Set("_delta_buttons", std::vector<std::string>());
  c.Set("_delta_num", std::vector<double>());
  c.Set("_delta_min", std::vector<double>());
  c.Set("_delta_max", std::vector<double>());
  return c;
}

bool Available() {
#ifdef ENVPOOL_WITH_VIZDOOM
  return true;
#else
  return false;
#endif
}

}  // namespace

const char* MissingReason() { return Available() ? "" : ENVPOOL_VIZDOOM_MISSING; }

void Register(Registry& registry) {
  registry.push_back(EnvEntry{"ViZDoom", Defaults(),
                              [](const Config& config) -> std::unique_ptr<EnvFactory> {
#ifdef ENVPOOL_WITH_VIZDOOM
                                return std::make_unique<VizdoomFactory>(config);
#else
                                (void)config;
                                throw std::runtime_error(ENVPOOL_VIZDOOM_MISSING);
#endif
                              }});
}

}  // namespace envpool::vizdoom_envs
