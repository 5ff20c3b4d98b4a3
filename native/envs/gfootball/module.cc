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

#ifdef ENVPOOL_WITH_GFOOTBALL
// One engine driven step by step from Python, for tests that replay football_env_core.py's
// loop themselves (sail-sg EnvPool's tests' oracle, envpool/tasks/gfootball.py's
// OracleEngine): the engine the envs use, taken from and given back to the same pool of
// started engines. Every call selects the engine first (the engine keeps its current game
// per thread).
class OracleEngine {
 public:
  OracleEngine(const std::string& data_dir, int physics_steps_per_frame)
      : engine_(AcquireEngine(data_dir, physics_steps_per_frame)) {}
  OracleEngine(const OracleEngine&) = delete;
  OracleEngine& operator=(const OracleEngine&) = delete;
  ~OracleEngine() { ReleaseEngine(std::move(engine_), failed_); }

  // The engine's reset into the scenario (the native env's hidden keywords of one episode
  // parity) with the episode's engine seed; waiting_for_game_count is the caller's.
  void Reset(const std::vector<std::string>& keys, const std::vector<double>& values,
             const std::vector<double>& ball, const std::vector<double>& players,
             unsigned int seed) {
    const auto scenario = BuildScenario(keys, values, ball, players);
    Guard([&] { ResetEngine(*engine_, *scenario, seed); });
  }
  void Step() {
    Guard([&] {
      SetGame(engine_.get());
      engine_->step();
    });
  }
  void Act(int action, bool left_team, int player) {
    Guard([&] {
      SetGame(engine_.get());
      engine_->action(action, left_team, player);
    });
  }
  // The engine's SharedInfo, as the package's Python binding gives it (the fields its
  // football_env_core.py reads).
  pybind11::dict Info() {
    SharedInfo info;
    Guard([&] {
      SetGame(engine_.get());
      info = engine_->get_info();
    });
    const auto xyz = [](const Position& p) {
      return pybind11::make_tuple(p.env_coord(0), p.env_coord(1), p.env_coord(2));
    };
    const auto team = [&](const std::vector<PlayerInfo>& players) {
      pybind11::list out;
      for (const PlayerInfo& p : players) {
        pybind11::dict d;
        d["position"] = pybind11::make_tuple(p.player_position.env_coord(0),
                                             p.player_position.env_coord(1));
        d["direction"] = pybind11::make_tuple(p.player_direction.env_coord(0),
                                              p.player_direction.env_coord(1));
        d["tired_factor"] = p.tired_factor;
        d["has_card"] = p.has_card;
        d["is_active"] = p.is_active;
        d["role"] = static_cast<int>(p.role);
        out.append(d);
      }
      return out;
    };
    const auto controllers = [](const std::vector<ControllerInfo>& cs) {
      pybind11::list out;
      for (const ControllerInfo& c : cs) out.append(c.controlled_player);
      return out;
    };
    pybind11::dict d;
    d["ball_position"] = xyz(info.ball_position);
    d["ball_direction"] = xyz(info.ball_direction);
    d["ball_rotation"] = xyz(info.ball_rotation);
    d["left_team"] = team(info.left_team);
    d["right_team"] = team(info.right_team);
    d["left_controllers"] = controllers(info.left_controllers);
    d["right_controllers"] = controllers(info.right_controllers);
    d["left_goals"] = info.left_goals;
    d["right_goals"] = info.right_goals;
    d["game_mode"] = static_cast<int>(info.game_mode);
    d["is_in_play"] = info.is_in_play;
    d["ball_owned_team"] = info.ball_owned_team;
    d["ball_owned_player"] = info.ball_owned_player;
    d["step"] = info.step;
    return d;
  }
  int Waiting() const { return engine_->waiting_for_game_count; }
  void SetWaiting(int count) { engine_->waiting_for_game_count = count; }

 private:
  // A call that throws (a fatal engine error) leaves the engine unfit for reuse.
  template <class F>
  void Guard(F&& f) {
    failed_ = true;
    f();
    failed_ = false;
  }

  std::unique_ptr<GameEnv> engine_;
  bool failed_ = false;
};
#endif

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
#ifdef ENVPOOL_WITH_GFOOTBALL
  pybind11::class_<gfootball::OracleEngine>(
      m, "OracleEngine",
      "One engine driven step by step (tests' oracles): OracleEngine(data_dir, "
      "physics_steps_per_frame); reset(keys, values, ball, players, seed), step(), "
      "action(action, left_team, player), get_info(), waiting_for_game_count.")
      .def(pybind11::init<const std::string&, int>(), pybind11::arg("data_dir"),
           pybind11::arg("physics_steps_per_frame"))
      .def("reset", &gfootball::OracleEngine::Reset, pybind11::arg("keys"),
           pybind11::arg("values"), pybind11::arg("ball"), pybind11::arg("players"),
           pybind11::arg("seed"))
      .def("step", &gfootball::OracleEngine::Step)
      .def("action", &gfootball::OracleEngine::Act, pybind11::arg("action"),
           pybind11::arg("left_team"), pybind11::arg("player"))
      .def("get_info", &gfootball::OracleEngine::Info)
      .def_property("waiting_for_game_count", &gfootball::OracleEngine::Waiting,
                    &gfootball::OracleEngine::SetWaiting);
#endif
}
