// The keywords of the gfootball env (gfootball_env.h), apart from the env, so that
// a build without the engine (register.cc) still knows them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/config.h"

namespace envpool::gfootball {

inline Config GfootballDefaults() {
  Config c;
  c.Set("physics_steps_per_frame", std::int64_t{10}).AtLeast(1);
  // Filled by envpool.tasks.gfootball: the engine's data folder and the scenario.
  c.Set("_data_dir", std::string());
  c.Set("_game_duration", std::int64_t{3000});
  c.Set("_config_keys", std::vector<std::string>());
  c.Set("_config_even", std::vector<double>());
  c.Set("_config_odd", std::vector<double>());
  c.Set("_ball_even", std::vector<double>{0.0, 0.0});
  c.Set("_ball_odd", std::vector<double>{0.0, 0.0});
  c.Set("_players_even", std::vector<double>());
  c.Set("_players_odd", std::vector<double>());
  return c;
}

}  // namespace envpool::gfootball
