// Google Research Football (gfootball 2.10.2) as the package's
// `create_environment(env_name=..., representation="extracted", stacked=False,
// rewards="scoring")` gives it, one agent controlling one left-team player:
// gfootball/env/football_env_core.py (reset, step), football_env.py (the
// agent's view), scenario_builder.py (the scenario) and
// observation_preprocessing.py (the Super Mini Map), restated over the
// package's own C++ engine (built from its sdist by
// native/third_party/build_gfootball.py and linked in).
//
// Keywords: physics_steps_per_frame (the engine's physics steps per env step,
// default 10, the package's); hidden ones that envpool.tasks.gfootball fills:
// _data_dir (the engine's data folder), _game_duration (the scenario's
// duration in env steps) and the scenario as the package's scenario file
// builds it for an even and an odd episode number (scenarios.json of the
// build): _config_keys / _config_even / _config_odd (the ScenarioConfig fields
// it sets, by name, over the engine's defaults), _ball_even / _ball_odd, and
// _players_even / _players_odd (team, x, y, role, lazy, controllable per
// player, in the order added).
//
// An episode (football_env_core.py): its number n counts from 1 at the env's
// first reset, which, like the package's constructor, first plays the engine's
// reset of episode 1, so the first episode the pool returns is number 2 (the
// package's too). Each episode draws the engine's seed from the env's Rng, as
// the package draws `game_engine_random_seed` with random.randint(0, 2e9) in
// every new scenario; the teams' processing order is reversed when the seed is
// odd (the package decides it from the seed it is given). The scenario is
// built for n's parity (the 11-a-side scenarios swap their line-ups), with a
// goalkeeper added to an empty team. After the engine's reset, and after each
// action, the engine steps until the ball is in play.
//
// A step: the action (the package's default action set, 19 actions) goes to
// the agent's player, except that a game held in a set piece for 20 steps gets
// a short pass and after that idle, or a move off the ball for the ball's
// holder (the package's rule). The episode ends (terminated) on a goal, on
// the game leaving normal play, or on a change of possession, for the
// scenarios that say so; it is truncated when the engine's step count reaches
// the scenario's duration. The reward is the change in (left goals - right
// goals).
//
// Observation: the Super Mini Map, uint8 (72, 96, 4): left team, right team,
// ball, the agent's player, each a 255 dot at int((x + 1) / 2 * 96),
// int((y + 1/2.25) / (2/2.25) * 72) clamped to the map, computed in double
// from the engine's float coordinates as numpy does. Info: score (left,
// right), game_mode, ball_owned_team, ball_owned_player, steps_left (the
// package's: duration - step), engine_seed, episode_number (sail-sg EnvPool's
// names).
//
// Rendering: none (the engine draws with OpenGL through SDL; sail-sg EnvPool
// refuses render_mode for these ids too).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/env.h"
#include "envs/gfootball/keywords.h"
#include "envs/gfootball/sdl_loader.h"

// The engine's headers (its src/ folder, installed by build_gfootball.py).
#include "game_env.hpp"

namespace envpool::gfootball {

inline constexpr int kMapWidth = 96, kMapHeight = 72, kMapLayers = 4;
inline constexpr int kNumActions = 19;
// football_action_set.py's action_set_v1, as the engine's Action values.
inline constexpr std::array<Action, kNumActions> kDefaultActionSet = {
    game_idle,          game_left,          game_top_left,   game_top,
    game_top_right,     game_right,         game_bottom_right, game_bottom,
    game_bottom_left,   game_long_pass,     game_high_pass,  game_short_pass,
    game_shot,          game_sprint,        game_release_direction,
    game_release_sprint, game_sliding,      game_dribble,    game_release_dribble};

// The ScenarioConfig fields a scenario file may set (scenario_builder.py's
// builder.config()), by name.
inline void SetScenarioField(ScenarioConfig& cfg, const std::string& key, double v) {
  if (key == "game_duration") {
    cfg.game_duration = static_cast<int>(v);
  } else if (key == "second_half") {
    cfg.second_half = static_cast<int>(v);
  } else if (key == "deterministic") {
    cfg.deterministic = v != 0.0;
  } else if (key == "offsides") {
    cfg.offsides = v != 0.0;
  } else if (key == "end_episode_on_score") {
    cfg.end_episode_on_score = v != 0.0;
  } else if (key == "end_episode_on_out_of_play") {
    cfg.end_episode_on_out_of_play = v != 0.0;
  } else if (key == "end_episode_on_possession_change") {
    cfg.end_episode_on_possession_change = v != 0.0;
  } else if (key == "left_team_difficulty") {
    cfg.left_team_difficulty = static_cast<float>(v);
  } else if (key == "right_team_difficulty") {
    cfg.right_team_difficulty = static_cast<float>(v);
  } else if (key == "control_all_players") {
    cfg.control_all_players = v != 0.0;
  } else if (key == "use_magnet") {
    cfg.use_magnet = v != 0.0;
  } else {
    throw std::invalid_argument("gfootball: unknown scenario field '" + key + "'");
  }
}

// One episode parity's scenario, as the package's scenario_builder.py builds it from
// what its scenario file set (recorded in the hidden keywords: the config fields by name
// over the engine's defaults, the ball, and 6 numbers per player: team, x, y, role, lazy,
// controllable), with a goalkeeper added to an empty team (_FakePlayersForEmptyTeam) and
// one agent on the left team. Built once per pool; each episode starts from a copy.
inline boost::shared_ptr<const ScenarioConfig> BuildScenario(
    const std::vector<std::string>& keys, const std::vector<double>& values,
    const std::vector<double>& ball, const std::vector<double>& players) {
  if (values.size() != keys.size() || ball.size() != 2 || players.size() % 6 != 0) {
    throw std::invalid_argument("gfootball: malformed scenario keywords");
  }
  const auto cfg = ScenarioConfig::make();
  for (std::size_t i = 0; i < keys.size(); ++i) SetScenarioField(*cfg, keys[i], values[i]);
  cfg->ball_position.coords[0] = static_cast<float>(ball[0]);
  cfg->ball_position.coords[1] = static_cast<float>(ball[1]);
  for (std::size_t i = 0; i < players.size(); i += 6) {
    (players[i] == 0.0 ? cfg->left_team : cfg->right_team)
        .push_back(FormationEntry(static_cast<float>(players[i + 1]),
                                  static_cast<float>(players[i + 2]),
                                  static_cast<e_PlayerRole>(static_cast<int>(players[i + 3])),
                                  players[i + 4] != 0.0, players[i + 5] != 0.0));
  }
  for (auto* team : {&cfg->left_team, &cfg->right_team}) {
    if (team->empty()) team->push_back(FormationEntry(-1.0f, 0.42f, e_PlayerRole_GK, true, true));
  }
  cfg->real_time = false;
  cfg->left_agents = 1;
  cfg->right_agents = 0;
  return cfg;
}

// The engine of a closed env (or oracle engine, module.cc) is kept for the next one (as the
// package keeps them in football_env_core.py's _unused_engines): the engine has no
// teardown, and a started one holds some 56 MB. Starting a game initialises SDL_ttf
// (process-wide state), so one engine starts at a time.
inline std::mutex& EngineMutex() {
  static std::mutex mutex;
  return mutex;
}
inline std::vector<std::unique_ptr<GameEnv>>& IdleEngines() {
  static std::vector<std::unique_ptr<GameEnv>> engines;
  return engines;
}

// A started engine on `data_dir`: an idle one, else a new one.
inline std::unique_ptr<GameEnv> AcquireEngine(const std::string& data_dir,
                                              int physics_steps_per_frame) {
  std::lock_guard<std::mutex> lock(EngineMutex());
  auto& idle = IdleEngines();
  for (auto it = idle.begin(); it != idle.end(); ++it) {
    if ((*it)->game_config.data_dir == data_dir) {
      std::unique_ptr<GameEnv> engine = std::move(*it);
      idle.erase(it);
      engine->game_config.physics_steps_per_frame = physics_steps_per_frame;
      return engine;
    }
  }
  // The engine opens its font with SDL_ttf when its game starts: SDL is loaded first
  // (from where envpool.tasks.gfootball found it, else the system), or this says what
  // is missing.
  LoadSdl({});
  auto engine = std::make_unique<GameEnv>();
  engine->game_config.render = false;
  engine->game_config.physics_steps_per_frame = physics_steps_per_frame;
  engine->game_config.data_dir = data_dir;
  engine->start_game();
  return engine;
}

// Gives an engine back for reuse; one that threw (a fatal engine error) is left as it is
// (it has no teardown to run).
inline void ReleaseEngine(std::unique_ptr<GameEnv> engine, bool failed) {
  if (!engine) return;
  if (failed) {
    static_cast<void>(engine.release());
    return;
  }
  std::lock_guard<std::mutex> lock(EngineMutex());
  IdleEngines().push_back(std::move(engine));
}

// football_env_core.py's reset of the engine into `scenario` (a copy) with the episode's
// engine seed: the seed and the teams' processing order unless the scenario is
// deterministic. The ball may not be in play yet: the caller steps until it is.
inline void ResetEngine(GameEnv& engine, const ScenarioConfig& scenario, unsigned int seed) {
  ScenarioConfig cfg = scenario;
  if (!cfg.deterministic) {
    cfg.game_engine_random_seed = seed;
    cfg.reverse_team_processing = seed % 2 != 0;
  }
  SetGame(&engine);
  engine.state = game_running;
  engine.reset(cfg, /*init_animation=*/false);
}

class Gfootball final : public Env {
 public:
  struct Params {
    explicit Params(const Config& config)
        : physics_steps_per_frame(static_cast<int>(config.GetInt("physics_steps_per_frame"))),
          data_dir(config.GetString("_data_dir")),
          game_duration(static_cast<int>(config.GetInt("_game_duration"))),
          even(BuildScenario(config.GetStrings("_config_keys"), config.GetDoubles("_config_even"),
                             config.GetDoubles("_ball_even"), config.GetDoubles("_players_even"))),
          odd(BuildScenario(config.GetStrings("_config_keys"), config.GetDoubles("_config_odd"),
                            config.GetDoubles("_ball_odd"), config.GetDoubles("_players_odd"))) {
      if (physics_steps_per_frame < 1) {
        throw std::invalid_argument("physics_steps_per_frame must be at least 1");
      }
      if (data_dir.empty()) {
        throw std::invalid_argument("gfootball: no engine data folder (_data_dir)");
      }
    }
    int physics_steps_per_frame;
    std::string data_dir;
    int game_duration;
    boost::shared_ptr<const ScenarioConfig> even, odd;  // by episode number's parity
  };

  static Config Defaults() { return GfootballDefaults(); }

  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec;
    spec.obs.push_back(
        BoxSpec("obs", DType::kUInt8, {kMapHeight, kMapWidth, kMapLayers}, {0.0}, {255.0}));
    spec.action = DiscreteSpec("action", kNumActions, DType::kInt32);
    spec.info.push_back(BoxSpec("score", DType::kInt32, {2}));
    spec.info.push_back(BoxSpec("game_mode", DType::kInt32, {}));
    spec.info.push_back(BoxSpec("ball_owned_team", DType::kInt32, {}));
    spec.info.push_back(BoxSpec("ball_owned_player", DType::kInt32, {}));
    spec.info.push_back(BoxSpec("steps_left", DType::kInt32, {}));
    spec.info.push_back(BoxSpec("engine_seed", DType::kInt64, {}));
    spec.info.push_back(BoxSpec("episode_number", DType::kInt32, {}));
    spec.reward_low = -1.0;
    spec.reward_high = 1.0;
    return spec;
  }

  explicit Gfootball(const Params& params) : params_(params) {}

  Gfootball(const Gfootball&) = delete;
  Gfootball& operator=(const Gfootball&) = delete;

  ~Gfootball() override { ReleaseEngine(std::move(engine_), failed_); }

  void Reset(Rng& rng) override {
    failed_ = true;
    if (!engine_) {
      Start();
      episode_number_ = 1;  // the package's constructor resets into episode 1
      NewEpisode(rng);
    }
    ++episode_number_;
    NewEpisode(rng);
    failed_ = false;
  }

  StepOutcome Step(const ActionView& action, Rng& rng) override {
    failed_ = true;
    StepOutcome out = Play(action, rng);
    failed_ = false;
    return out;
  }

  void Write(const Slot& slot) const override {
    std::uint8_t* map = slot.Obs<std::uint8_t>(0);
    std::memset(map, 0, static_cast<std::size_t>(kMapHeight) * kMapWidth * kMapLayers);
    for (const PlayerInfo& p : info_.left_team) Mark(map, 0, p.player_position);
    for (const PlayerInfo& p : info_.right_team) Mark(map, 1, p.player_position);
    Mark(map, 2, info_.ball_position);
    const int active = ControlledPlayer();
    if (active >= 0 && active < static_cast<int>(info_.left_team.size())) {
      Mark(map, 3, info_.left_team[static_cast<std::size_t>(active)].player_position);
    }
    std::int32_t* score = slot.Info<std::int32_t>(0);
    score[0] = info_.left_goals;
    score[1] = info_.right_goals;
    *slot.Info<std::int32_t>(1) = static_cast<std::int32_t>(info_.game_mode);
    *slot.Info<std::int32_t>(2) = info_.ball_owned_team;
    *slot.Info<std::int32_t>(3) = info_.ball_owned_player;
    *slot.Info<std::int32_t>(4) = params_.game_duration - info_.step;
    *slot.Info<std::int64_t>(5) = static_cast<std::int64_t>(engine_seed_);
    *slot.Info<std::int32_t>(6) = episode_number_;
  }

 private:
  StepOutcome Play(const ActionView& action, Rng& /*rng*/) {
    SetGame(engine_.get());
    Action backend = kDefaultActionSet[static_cast<std::size_t>(action.Scalar<std::int32_t>())];
    // football_env_core.py: a game held in a set piece for 20 steps gets a short pass,
    // then idle, or, for the agent's player holding the ball, a move off it (right for
    // 10 steps, then left).
    const int waiting = engine_->waiting_for_game_count;
    if (waiting == 20) {
      backend = game_short_pass;
    } else if (waiting > 20) {
      backend = game_idle;
      if (info_.ball_owned_team != -1 && (info_.ball_owned_team ^ 1) != 0 &&
          ControlledPlayer() == info_.ball_owned_player) {
        backend = waiting < 30 ? game_right : game_left;
      }
    }
    engine_->action(backend, /*left_team=*/true, /*player=*/0);
    do {
      SetGame(engine_.get());
      engine_->step();
    } while (!Observe());

    SetGame(engine_.get());
    const ScenarioConfig& cfg = engine_->scenario_config;
    bool done = false;
    if (cfg.end_episode_on_score && (info_.left_goals > 0 || info_.right_goals > 0)) {
      done = true;
    }
    const int mode = static_cast<int>(info_.game_mode);
    if (cfg.end_episode_on_out_of_play && mode != e_GameMode_Normal &&
        previous_game_mode_ == e_GameMode_Normal) {
      done = true;
    }
    previous_game_mode_ = mode;
    if (cfg.end_episode_on_possession_change && info_.ball_owned_team != -1 &&
        previous_ball_owned_team_ != -1 && info_.ball_owned_team != previous_ball_owned_team_) {
      done = true;
    }
    if (info_.ball_owned_team != -1) previous_ball_owned_team_ = info_.ball_owned_team;

    const int score_diff = info_.left_goals - info_.right_goals;
    StepOutcome out;
    out.reward = static_cast<double>(score_diff - previous_score_diff_);
    previous_score_diff_ = score_diff;
    if (mode != e_GameMode_Normal) {
      engine_->waiting_for_game_count += 1;
    } else {
      engine_->waiting_for_game_count = 0;
    }
    // The package ends the episode at the duration with the same `done`; here that end is
    // the time limit (truncated), the others terminate it.
    out.truncated = info_.step >= params_.game_duration;
    out.terminated = done && !out.truncated;
    return out;
  }

  // football_env_core.py's _retrieve_observation: the engine's state, and whether the
  // ball is in play.
  bool Observe() {
    SetGame(engine_.get());
    info_ = engine_->get_info();
    return info_.is_in_play;
  }

  int ControlledPlayer() const {
    return info_.left_controllers.empty() ? -1 : info_.left_controllers[0].controlled_player;
  }

  // observation_preprocessing.py's mark_points: numpy computes in double from the
  // engine's float coordinates; int() truncates towards zero.
  static void Mark(std::uint8_t* map, int layer, const Position& pos) {
    constexpr double kXMin = -1.0, kXMax = 1.0, kYMin = -1.0 / 2.25, kYMax = 1.0 / 2.25;
    const double px = static_cast<double>(pos.env_coord(0));
    const double py = static_cast<double>(pos.env_coord(1));
    int x = static_cast<int>((px - kXMin) / (kXMax - kXMin) * kMapWidth);
    int y = static_cast<int>((py - kYMin) / (kYMax - kYMin) * kMapHeight);
    x = std::max(0, std::min(kMapWidth - 1, x));
    y = std::max(0, std::min(kMapHeight - 1, y));
    map[(static_cast<std::size_t>(y) * kMapWidth + x) * kMapLayers + layer] = 255;
  }

  void Start() { engine_ = AcquireEngine(params_.data_dir, params_.physics_steps_per_frame); }

  // football_env_core.py's reset for the current episode number.
  void NewEpisode(Rng& rng) {
    engine_seed_ = static_cast<unsigned int>(rng.Integer(0, 2000000001));
    previous_score_diff_ = 0;
    previous_game_mode_ = -1;
    previous_ball_owned_team_ = -1;
    ResetEngine(*engine_, *(episode_number_ % 2 == 0 ? params_.even : params_.odd), engine_seed_);
    while (!Observe()) {
      SetGame(engine_.get());
      engine_->step();
    }
  }

  const Params params_;
  std::unique_ptr<GameEnv> engine_;
  SharedInfo info_;
  unsigned int engine_seed_ = 0;
  int episode_number_ = 0;
  int previous_score_diff_ = 0;
  int previous_game_mode_ = -1;
  int previous_ball_owned_team_ = -1;
  bool failed_ = false;  // a Reset or Step threw: the engine is not reused
};

}  // namespace envpool::gfootball
