// The keywords of the ViZDoom env, read from a Config. EnvPool's dict-valued
// keywords (reward_config, selected_weapon_reward_config,
// delta_button_config) arrive flattened by the Python side
// (envpool/tasks/vizdoom.py) into hidden parallel lists, since a Config holds
// no dicts; names are checked here against vizdoom's own enums.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "ViZDoom.h"
#include "core/config.h"
#include "envs/vizdoom/action_set.h"

namespace envpool::vizdoom_envs {

// Names of vizdoom's game variables (vizdoom's own gameVariableToString
// leaves out HITCOUNT, HITS_TAKEN, DAMAGECOUNT and DAMAGE_TAKEN). The table
// pairs each enum value with its name, so a misordered entry cannot
// mislabel a variable.
#define ENVPOOL_VZD_NAMED(x) {vizdoom::x, #x}
struct NamedVariable {
  vizdoom::GameVariable value;
  const char* name;
};
inline const std::vector<NamedVariable>& GameVariableNames() {
  static const std::vector<NamedVariable> names = {
      ENVPOOL_VZD_NAMED(KILLCOUNT),
      ENVPOOL_VZD_NAMED(ITEMCOUNT),
      ENVPOOL_VZD_NAMED(SECRETCOUNT),
      ENVPOOL_VZD_NAMED(FRAGCOUNT),
      ENVPOOL_VZD_NAMED(DEATHCOUNT),
      ENVPOOL_VZD_NAMED(HITCOUNT),
      ENVPOOL_VZD_NAMED(HITS_TAKEN),
      ENVPOOL_VZD_NAMED(DAMAGECOUNT),
      ENVPOOL_VZD_NAMED(DAMAGE_TAKEN),
      ENVPOOL_VZD_NAMED(HEALTH),
      ENVPOOL_VZD_NAMED(ARMOR),
      ENVPOOL_VZD_NAMED(DEAD),
      ENVPOOL_VZD_NAMED(ON_GROUND),
      ENVPOOL_VZD_NAMED(ATTACK_READY),
      ENVPOOL_VZD_NAMED(ALTATTACK_READY),
      ENVPOOL_VZD_NAMED(SELECTED_WEAPON),
      ENVPOOL_VZD_NAMED(SELECTED_WEAPON_AMMO),
      ENVPOOL_VZD_NAMED(AMMO0),
      ENVPOOL_VZD_NAMED(AMMO1),
      ENVPOOL_VZD_NAMED(AMMO2),
      ENVPOOL_VZD_NAMED(AMMO3),
      ENVPOOL_VZD_NAMED(AMMO4),
      ENVPOOL_VZD_NAMED(AMMO5),
      ENVPOOL_VZD_NAMED(AMMO6),
      ENVPOOL_VZD_NAMED(AMMO7),
      ENVPOOL_VZD_NAMED(AMMO8),
      ENVPOOL_VZD_NAMED(AMMO9),
      ENVPOOL_VZD_NAMED(WEAPON0),
      ENVPOOL_VZD_NAMED(WEAPON1),
      ENVPOOL_VZD_NAMED(WEAPON2),
      ENVPOOL_VZD_NAMED(WEAPON3),
      ENVPOOL_VZD_NAMED(WEAPON4),
      ENVPOOL_VZD_NAMED(WEAPON5),
      ENVPOOL_VZD_NAMED(WEAPON6),
      ENVPOOL_VZD_NAMED(WEAPON7),
      ENVPOOL_VZD_NAMED(WEAPON8),
      ENVPOOL_VZD_NAMED(WEAPON9),
      ENVPOOL_VZD_NAMED(POSITION_X),
      ENVPOOL_VZD_NAMED(POSITION_Y),
      ENVPOOL_VZD_NAMED(POSITION_Z),
      ENVPOOL_VZD_NAMED(ANGLE),
      ENVPOOL_VZD_NAMED(PITCH),
      ENVPOOL_VZD_NAMED(ROLL),
      ENVPOOL_VZD_NAMED(VIEW_HEIGHT),
      ENVPOOL_VZD_NAMED(VELOCITY_X),
      ENVPOOL_VZD_NAMED(VELOCITY_Y),
      ENVPOOL_VZD_NAMED(VELOCITY_Z),
      ENVPOOL_VZD_NAMED(CAMERA_POSITION_X),
      ENVPOOL_VZD_NAMED(CAMERA_POSITION_Y),
      ENVPOOL_VZD_NAMED(CAMERA_POSITION_Z),
      ENVPOOL_VZD_NAMED(CAMERA_ANGLE),
      ENVPOOL_VZD_NAMED(CAMERA_PITCH),
      ENVPOOL_VZD_NAMED(CAMERA_ROLL),
      ENVPOOL_VZD_NAMED(CAMERA_FOV),
      ENVPOOL_VZD_NAMED(PLAYER_NUMBER),
      ENVPOOL_VZD_NAMED(PLAYER_COUNT),
      ENVPOOL_VZD_NAMED(PLAYER1_FRAGCOUNT),
      ENVPOOL_VZD_NAMED(PLAYER2_FRAGCOUNT),
      ENVPOOL_VZD_NAMED(PLAYER3_FRAGCOUNT),
      ENVPOOL_VZD_NAMED(PLAYER4_FRAGCOUNT),
      ENVPOOL_VZD_NAMED(PLAYER5_FRAGCOUNT),
      ENVPOOL_VZD_NAMED(PLAYER6_FRAGCOUNT),
      ENVPOOL_VZD_NAMED(PLAYER7_FRAGCOUNT),
      ENVPOOL_VZD_NAMED(PLAYER8_FRAGCOUNT),
      ENVPOOL_VZD_NAMED(PLAYER9_FRAGCOUNT),
      ENVPOOL_VZD_NAMED(PLAYER10_FRAGCOUNT),
      ENVPOOL_VZD_NAMED(PLAYER11_FRAGCOUNT),
      ENVPOOL_VZD_NAMED(PLAYER12_FRAGCOUNT),
      ENVPOOL_VZD_NAMED(PLAYER13_FRAGCOUNT),
      ENVPOOL_VZD_NAMED(PLAYER14_FRAGCOUNT),
      ENVPOOL_VZD_NAMED(PLAYER15_FRAGCOUNT),
      ENVPOOL_VZD_NAMED(PLAYER16_FRAGCOUNT),
      ENVPOOL_VZD_NAMED(USER1),
      ENVPOOL_VZD_NAMED(USER2),
      ENVPOOL_VZD_NAMED(USER3),
      ENVPOOL_VZD_NAMED(USER4),
      ENVPOOL_VZD_NAMED(USER5),
      ENVPOOL_VZD_NAMED(USER6),
      ENVPOOL_VZD_NAMED(USER7),
      ENVPOOL_VZD_NAMED(USER8),
      ENVPOOL_VZD_NAMED(USER9),
      ENVPOOL_VZD_NAMED(USER10),
      ENVPOOL_VZD_NAMED(USER11),
      ENVPOOL_VZD_NAMED(USER12),
      ENVPOOL_VZD_NAMED(USER13),
      ENVPOOL_VZD_NAMED(USER14),
      ENVPOOL_VZD_NAMED(USER15),
      ENVPOOL_VZD_NAMED(USER16),
      ENVPOOL_VZD_NAMED(USER17),
      ENVPOOL_VZD_NAMED(USER18),
      ENVPOOL_VZD_NAMED(USER19),
      ENVPOOL_VZD_NAMED(USER20),
      ENVPOOL_VZD_NAMED(USER21),
      ENVPOOL_VZD_NAMED(USER22),
      ENVPOOL_VZD_NAMED(USER23),
      ENVPOOL_VZD_NAMED(USER24),
      ENVPOOL_VZD_NAMED(USER25),
      ENVPOOL_VZD_NAMED(USER26),
      ENVPOOL_VZD_NAMED(USER27),
      ENVPOOL_VZD_NAMED(USER28),
      ENVPOOL_VZD_NAMED(USER29),
      ENVPOOL_VZD_NAMED(USER30),
      ENVPOOL_VZD_NAMED(USER31),
      ENVPOOL_VZD_NAMED(USER32),
      ENVPOOL_VZD_NAMED(USER33),
      ENVPOOL_VZD_NAMED(USER34),
      ENVPOOL_VZD_NAMED(USER35),
      ENVPOOL_VZD_NAMED(USER36),
      ENVPOOL_VZD_NAMED(USER37),
      ENVPOOL_VZD_NAMED(USER38),
      ENVPOOL_VZD_NAMED(USER39),
      ENVPOOL_VZD_NAMED(USER40),
      ENVPOOL_VZD_NAMED(USER41),
      ENVPOOL_VZD_NAMED(USER42),
      ENVPOOL_VZD_NAMED(USER43),
      ENVPOOL_VZD_NAMED(USER44),
      ENVPOOL_VZD_NAMED(USER45),
      ENVPOOL_VZD_NAMED(USER46),
      ENVPOOL_VZD_NAMED(USER47),
      ENVPOOL_VZD_NAMED(USER48),
      ENVPOOL_VZD_NAMED(USER49),
      ENVPOOL_VZD_NAMED(USER50),
      ENVPOOL_VZD_NAMED(USER51),
      ENVPOOL_VZD_NAMED(USER52),
      ENVPOOL_VZD_NAMED(USER53),
      ENVPOOL_VZD_NAMED(USER54),
      ENVPOOL_VZD_NAMED(USER55),
      ENVPOOL_VZD_NAMED(USER56),
      ENVPOOL_VZD_NAMED(USER57),
      ENVPOOL_VZD_NAMED(USER58),
      ENVPOOL_VZD_NAMED(USER59),
      ENVPOOL_VZD_NAMED(USER60),
  };
  return names;
}

inline vizdoom::GameVariable GameVariableByName(const std::string& name) {
  for (const NamedVariable& v : GameVariableNames()) {
    if (name == v.name) return v.value;
  }
  throw std::invalid_argument("reward_config: '" + name + "' is not a ViZDoom game variable");
}

inline std::string GameVariableName(vizdoom::GameVariable var) {
  for (const NamedVariable& v : GameVariableNames()) {
    if (v.value == var) return v.name;
  }
  return "GAME_VARIABLE_" + std::to_string(static_cast<int>(var));
}

inline vizdoom::Button ButtonByName(const std::string& name) {
  for (int b = 0; b < ActionSetBuilder::kButtons; ++b) {
    const auto button = static_cast<vizdoom::Button>(b);
    if (vizdoom::buttonToString(button) == name) return button;
  }
  throw std::invalid_argument("delta_button_config: '" + name + "' is not a ViZDoom button");
}

struct VizdoomKeywords {
  explicit VizdoomKeywords(const Config& c)
      : cfg_path(c.GetString("cfg_path")),
        wad_path(c.GetString("wad_path")),
        vzd_path(c.GetString("vzd_path")),
        iwad_path(c.GetString("iwad_path")),
        game_args(c.GetString("game_args")),
        map_id(c.GetString("map_id")),
        lmp_save_dir(c.GetString("lmp_save_dir")),
        doom_config_path(c.GetString("_doom_config_path")),
        img_height(c.GetInt("img_height")),
        img_width(c.GetInt("img_width")),
        stack_num(c.GetInt("stack_num")),
        frame_skip(static_cast<int>(c.GetInt("frame_skip"))),
        weapon_duration(static_cast<int>(c.GetInt("weapon_duration"))),
        episodic_life(c.GetBool("episodic_life")),
        force_speed(c.GetBool("force_speed")),
        use_combined_action(c.GetBool("use_combined_action")),
        use_inter_area_resize(c.GetBool("use_inter_area_resize")),
        use_game_reward(c.GetBool("use_game_reward")),
        reward_pos(c.GetDoubles("_reward_pos")),
        reward_neg(c.GetDoubles("_reward_neg")),
        weapon_reward(c.GetDoubles("_weapon_reward")) {
    if (img_height < 1 || img_width < 1) {
      throw std::invalid_argument("img_height and img_width must be >= 1");
    }
    if (stack_num < 1) throw std::invalid_argument("stack_num must be >= 1");
    if (frame_skip < 1) throw std::invalid_argument("frame_skip must be >= 1");
    for (const std::string& name : c.GetStrings("_reward_variables")) {
      reward_variables.push_back(GameVariableByName(name));
    }
    if (reward_pos.size() != reward_variables.size() ||
        reward_neg.size() != reward_variables.size()) {
      throw std::invalid_argument("reward_config: one (positive, negative) pair per variable");
    }
    const std::vector<double> nums = c.GetDoubles("_delta_num");
    const std::vector<double> mins = c.GetDoubles("_delta_min");
    const std::vector<double> maxs = c.GetDoubles("_delta_max");
    for (const std::string& name : c.GetStrings("_delta_buttons")) {
      const vizdoom::Button b = ButtonByName(name);
      if (!vizdoom::isDeltaButton(b)) {
        throw std::invalid_argument("delta_button_config: '" + name + "' is not a delta button");
      }
      delta_buttons.push_back(b);
    }
    if (nums.size() != delta_buttons.size() || mins.size() != delta_buttons.size() ||
        maxs.size() != delta_buttons.size()) {
      throw std::invalid_argument("delta_button_config: one (num, min, max) per button");
    }
    for (std::size_t i = 0; i < delta_buttons.size(); ++i) {
      delta_settings.push_back(
          {static_cast<int>(nums[i]), static_cast<float>(mins[i]), static_cast<float>(maxs[i])});
    }
  }

  std::string cfg_path, wad_path, vzd_path, iwad_path, game_args, map_id, lmp_save_dir,
      doom_config_path;
  std::int64_t img_height, img_width, stack_num;
  int frame_skip, weapon_duration;
  bool episodic_life, force_speed, use_combined_action, use_inter_area_resize, use_game_reward;
  std::vector<vizdoom::GameVariable> reward_variables;
  std::vector<double> reward_pos, reward_neg, weapon_reward;
  std::vector<vizdoom::Button> delta_buttons;
  std::vector<DeltaSetting> delta_settings;
};

}  // namespace envpool::vizdoom_envs
