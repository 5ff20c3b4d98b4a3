// ViZDoom scenarios through vizdoom's own C++ controller (DoomGame, built
// from the vizdoom sdist by native/third_party/build_vizdoom.py), one engine
// process per env, with sail-sg EnvPool's interface: its keywords, its
// reward shaping on game-variable deltas, its action sets and its info keys.
//
// Each env owns a DoomGame. The engine starts in the env's first Reset, on
// the pool's worker thread, so the engines of a pool start in parallel.
// The engine process belongs to this process (see vizdoom_shim/boost/
// process.hpp: it is killed when its launching thread, and so this process,
// dies) and its shared-memory names are unlinked as soon as both sides have
// mapped them, so nothing is left in /dev/shm whatever way this process ends.
//
// A step is DoomGame::makeAction(action, frame_skip) (one call, frame_skip
// tics, as EnvPool does); the observation is the game's screen, resized per
// channel to img_height x img_width (OpenCV's INTER_AREA or INTER_LINEAR
// arithmetic, envs/common/resize.h), channel-first, stacked stack_num deep.
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ViZDoom.h"
#include "core/env.h"
#include "envs/common/resize.h"
#include "envs/vizdoom/action_set.h"
#include "envs/vizdoom/vizdoom_config.h"

namespace envpool::vizdoom_envs {

// EnvPool's info keys, in its order: game variables reported for every
// scenario (0 where the scenario does not make the game track them).
inline const std::vector<vizdoom::GameVariable>& InfoVariables() {
  static const std::vector<vizdoom::GameVariable> vars = {
      vizdoom::AMMO2,     vizdoom::AMMO3,       vizdoom::AMMO4,          vizdoom::AMMO5,
      vizdoom::AMMO6,     vizdoom::AMMO7,       vizdoom::ARMOR,          vizdoom::DAMAGECOUNT,
      vizdoom::DEATHCOUNT, vizdoom::FRAGCOUNT,  vizdoom::HEALTH,         vizdoom::HITCOUNT,
      vizdoom::KILLCOUNT, vizdoom::SELECTED_WEAPON, vizdoom::SELECTED_WEAPON_AMMO,
      vizdoom::USER2};
  return vars;
}

inline bool FileReadable(const std::string& path) { return std::ifstream(path).good(); }

class VizdoomEnv final : public Env {
 public:
  // Read once per pool: the scenario's buttons, variables and screen, by
  // loading its cfg into a DoomGame that is never started.
  struct Params {
    explicit Params(const Config& c) : keys(c) {
      const VizdoomKeywords& k = keys;
      for (const auto& [what, path] :
           {std::pair<const char*, std::string>{"cfg_path", k.cfg_path}, {"vzd_path", k.vzd_path},
            {"iwad_path", k.iwad_path}}) {
        if (path.empty() || !FileReadable(path)) {
          throw std::invalid_argument(
              std::string(what) + " " + (path.empty() ? "is empty" : "'" + path + "' not found") +
              (std::string(what) == "cfg_path"
                   ? ": pass the scenario's cfg_path= (and wad_path=); VizdoomCustom-v1 and the "
                     "D1..D4 scenarios, which the vizdoom package does not ship, need them"
                   : ": the ViZDoom engine and WADs come with the vizdoom package "
                     "(pip install vizdoom==1.3.2)"));
        }
      }
      if (!k.wad_path.empty() && !FileReadable(k.wad_path)) {
        throw std::invalid_argument("wad_path '" + k.wad_path + "' not found");
      }
      vizdoom::DoomGame probe;
      try {
        probe.loadConfig(k.cfg_path);
      } catch (const std::exception& e) {
        throw std::invalid_argument("cannot load cfg_path '" + k.cfg_path + "': " + e.what());
      }
      ApplySettings(&probe);
      buttons = probe.getAvailableButtons();
      variables = probe.getAvailableGameVariables();
      channels = probe.getScreenChannels();
      screen_height = probe.getScreenHeight();
      screen_width = probe.getScreenWidth();
      const vizdoom::ScreenFormat f = probe.getScreenFormat();
      format = f;
      planar = f == vizdoom::CRCGCB || f == vizdoom::CBCGCR || f == vizdoom::GRAY8 ||
               f == vizdoom::DOOM_256_COLORS8;
      std::array<DeltaSetting, ActionSetBuilder::kButtons> delta{};
      for (std::size_t i = 0; i < k.delta_buttons.size(); ++i) {
        delta[k.delta_buttons[i]] = k.delta_settings[i];
      }
      action_set = ActionSetBuilder(buttons, k.force_speed, delta).Build();
      pos_reward.assign(variables.size(), 0.0);
      neg_reward.assign(variables.size(), 0.0);
      for (std::size_t r = 0; r < k.reward_variables.size(); ++r) {
        auto it = std::find(variables.begin(), variables.end(), k.reward_variables[r]);
        if (it == variables.end()) continue;
        pos_reward[it - variables.begin()] = k.reward_pos[r];
        neg_reward[it - variables.begin()] = k.reward_neg[r];
      }
      for (vizdoom::GameVariable v : InfoVariables()) {
        auto it = std::find(variables.begin(), variables.end(), v);
        info_column.push_back(it == variables.end() ? -1 : static_cast<int>(it - variables.begin()));
      }
    }

    // Settings on top of the cfg, as EnvPool makes them: hidden window,
    // synchronous player mode, the extra game arguments, the scenario WAD
    // and map, its info variables added to the cfg's, and no game timeout
    // (the pool's max_episode_steps ends episodes; EnvPool sets the timeout
    // one step beyond that limit).
    void ApplySettings(vizdoom::DoomGame* g) const {
      g->setViZDoomPath(keys.vzd_path);
      g->setDoomGamePath(keys.iwad_path);
      if (!keys.doom_config_path.empty()) g->setDoomConfigPath(keys.doom_config_path);
      g->setWindowVisible(false);
      if (!keys.game_args.empty()) g->addGameArgs(keys.game_args);
      g->setMode(vizdoom::PLAYER);
      g->setEpisodeTimeout(0);
      if (!keys.wad_path.empty()) g->setDoomScenarioPath(keys.wad_path);
      g->setDoomMap(keys.map_id);
      for (vizdoom::GameVariable v : InfoVariables()) g->addAvailableGameVariable(v);
    }

    VizdoomKeywords keys;
    std::vector<vizdoom::Button> buttons;
    std::vector<vizdoom::GameVariable> variables;
    int channels = 0, screen_height = 0, screen_width = 0;
    bool planar = true;
    vizdoom::ScreenFormat format = vizdoom::CRCGCB;
    std::vector<DoomAction> action_set;
    std::vector<double> pos_reward, neg_reward;
    std::vector<int> info_column;
  };

  static EnvSpec MakeSpec(const Params& p) {
    const VizdoomKeywords& k = p.keys;
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("obs", DType::kUInt8,
                               {static_cast<std::int64_t>(p.channels) * k.stack_num, k.img_height,
                                k.img_width},
                               {0.0}, {255.0}));
    if (k.use_combined_action) {
      spec.action = DiscreteSpec("action", static_cast<std::int64_t>(p.action_set.size()),
                                 DType::kInt64);
    } else {
      std::vector<double> low, high;
      for (vizdoom::Button b : p.buttons) {
        const bool binary = vizdoom::isBinaryButton(b);
        low.push_back(binary ? 0.0 : -std::numeric_limits<double>::infinity());
        high.push_back(binary ? 1.0 : std::numeric_limits<double>::infinity());
      }
      spec.action = BoxSpec("action", DType::kFloat64,
                            {static_cast<std::int64_t>(p.buttons.size())}, low, high);
    }
    for (vizdoom::GameVariable v : InfoVariables()) {
      spec.info.push_back(BoxSpec(GameVariableName(v), DType::kFloat64, {}));
    }
    spec.info.push_back(BoxSpec("game_reward", DType::kFloat64, {}));
    return spec;
  }

  // render(): the screen at the cfg's resolution, one view, 35 / frame_skip fps (the game's
  // 35 tics per second: one frame per step plays in real time). At the observation's size
  // (img_height x img_width, when it differs from the screen's), the newest observed frame,
  // as EnvPool's render draws it: resized as observed, gray repeated in R, G and B.
  static FrameSize RenderSize(const Params& p, int width, int height, int camera_id) {
    if (camera_id != -1 && camera_id != 0) {
      throw std::invalid_argument("ViZDoom has one view: camera_id must be -1 or 0, got " +
                                  std::to_string(camera_id));
    }
    const vizdoom::ScreenFormat f = p.format;
    if (f != vizdoom::CRCGCB && f != vizdoom::CBCGCR && f != vizdoom::RGB24 &&
        f != vizdoom::BGR24 && f != vizdoom::GRAY8) {
      throw std::invalid_argument("ViZDoom frames are drawn from the screen formats CRCGCB, "
                                  "CBCGCR, RGB24, BGR24 and GRAY8; this cfg's screen_format is "
                                  "another one");
    }
    const double fps = 35.0 / p.keys.frame_skip;
    if (ObservedSize(p, width, height)) {
      return FrameSize{static_cast<int>(p.keys.img_height), static_cast<int>(p.keys.img_width),
                       fps};
    }
    if ((width != 0 && width != p.screen_width) || (height != 0 && height != p.screen_height)) {
      const std::string hs = std::to_string(p.screen_height), ws = std::to_string(p.screen_width);
      throw std::invalid_argument(
          "ViZDoom frames are the screen, " + hs + " x " + ws +
          " (the cfg's screen_resolution), or the observation's newest frame, " +
          std::to_string(p.keys.img_height) + " x " + std::to_string(p.keys.img_width) +
          " (img_height x img_width): render_height and render_width must be 0, " + hs +
          " and " + ws + ", or " + std::to_string(p.keys.img_height) + " and " +
          std::to_string(p.keys.img_width));
    }
    return FrameSize{p.screen_height, p.screen_width, fps};
  }

  void Render(int width, int height, int /*camera_id*/, std::uint8_t* out) override {
    if (!game_) throw std::runtime_error("render: the env has not been reset yet: call reset() first");
    const vizdoom::ScreenFormat f = p_.format;
    const bool reversed = f == vizdoom::CBCGCR || f == vizdoom::BGR24;
    if (ObservedSize(p_, width, height)) {
      // The newest frame of the stack: channel planes of img_height x img_width, in the
      // screen format's channel order.
      const std::uint8_t* last = stack_.data() + stack_.size() - frame_;
      for (int c = 0; c < 3; ++c) {
        const int from = p_.channels == 1 ? 0 : (reversed ? 2 - c : c);
        const std::uint8_t* src = last + static_cast<std::size_t>(from) * plane_;
        for (std::size_t i = 0; i < plane_; ++i) out[i * 3 + c] = src[i];
      }
      return;
    }
    const std::size_t pixels = static_cast<std::size_t>(p_.screen_height) * p_.screen_width;
    const vizdoom::GameStatePtr state = game_->getState();
    if (state == nullptr || state->screenBuffer == nullptr) {
      std::fill(out, out + pixels * 3, std::uint8_t{0});
      return;
    }
    const std::uint8_t* screen = state->screenBuffer->data();
    // Where channel c (R, G, B) of pixel i is: planar formats hold one plane after another,
    // packed ones interleave; BGR orders reverse the channels; GRAY8 has one.
    for (int c = 0; c < 3; ++c) {
      const int from = f == vizdoom::GRAY8 ? 0 : (reversed ? 2 - c : c);
      const std::uint8_t* src = p_.planar ? screen + from * pixels : screen + from;
      const std::size_t step = p_.planar ? 1 : static_cast<std::size_t>(p_.channels);
      for (std::size_t i = 0; i < pixels; ++i) out[i * 3 + c] = src[i * step];
    }
  }

  // Whether a render of width x height asks for the observed frame: the observation's size,
  // when it is not the screen's.
  static bool ObservedSize(const Params& p, int width, int height) {
    const bool resized = p.keys.img_height != p.screen_height || p.keys.img_width != p.screen_width;
    return resized && width == p.keys.img_width && height == p.keys.img_height;
  }

  VizdoomEnv(const Params& p, int env_id)
      : p_(p),
        env_id_(env_id),
        plane_(static_cast<std::size_t>(p.keys.img_height) * p.keys.img_width),
        frame_(plane_ * p.channels),
        area_(p.screen_height, p.screen_width, p.keys.img_height, p.keys.img_width),
        linear_(p.screen_height, p.screen_width, p.keys.img_height, p.keys.img_width),
        stack_(frame_ * p.keys.stack_num, 0),
        gvs_(p.variables.size(), 0.0),
        last_gvs_(p.variables.size(), 0.0) {}

  ~VizdoomEnv() override {
    if (game_) {
      try {
        game_->close();
      } catch (...) {  // the engine is gone already; nothing to release
      }
    }
  }

  // vizdoom seeds take 32 bits: the low word of the pool's seed.
  void Seed(std::uint64_t seed) override {
    seed_ = static_cast<unsigned int>(seed & 0xffffffffULL);
    reseed_ = true;
  }

  void Reset(Rng& /*rng*/) override {
    if (!game_) {
      Start();  // init() starts the first episode
    } else if (reseed_) {
      game_->setSeed(seed_);
      NewEpisode();
    } else {
      // Every later reset starts a new episode, as in EnvPool 1.2.5, also
      // after an episodic_life death in a game that would go on.
      NewEpisode();
    }
    reseed_ = false;
    game_reward_ = 0.0;
    Observe(/*reset=*/true);
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    if (p_.keys.use_combined_action) {
      game_reward_ = game_->makeAction(p_.action_set[static_cast<std::size_t>(
                                           action.Scalar<std::int64_t>())],
                                       p_.keys.frame_skip);
    } else {
      const double* a = action.As<double>();
      game_reward_ = game_->makeAction(DoomAction(a, a + p_.buttons.size()), p_.keys.frame_skip);
    }
    StepOutcome out;
    out.terminated = game_->isEpisodeFinished();
    if (p_.keys.episodic_life && game_->isPlayerDead()) out.terminated = true;
    const float shaped = Observe(/*reset=*/false);
    out.reward = p_.keys.use_game_reward ? game_reward_ : static_cast<double>(shaped);
    return out;
  }

  void Write(const Slot& slot) const override {
    std::copy(stack_.begin(), stack_.end(), slot.Obs<std::uint8_t>());
    for (std::size_t i = 0; i < p_.info_column.size(); ++i) {
      const int col = p_.info_column[i];
      *slot.Info<double>(i) = col < 0 ? 0.0 : gvs_[static_cast<std::size_t>(col)];
    }
    *slot.Info<double>(p_.info_column.size()) = game_reward_;
  }

 private:
  void Start() {
    game_ = std::make_unique<vizdoom::DoomGame>();
    game_->loadConfig(p_.keys.cfg_path);
    p_.ApplySettings(game_.get());
    game_->setSeed(seed_);
    game_->init();
    UnlinkSharedMemory(game_->getInstanceId());
    episodes_ = 1;
  }

  void NewEpisode() {
    if (p_.keys.lmp_save_dir.empty()) {
      game_->newEpisode();
    } else {
      game_->newEpisode(p_.keys.lmp_save_dir + "/env_" + std::to_string(env_id_) + "_" +
                        std::to_string(episodes_) + ".lmp");
    }
    ++episodes_;
  }

  // The controller's two message queues and the engine's shared memory are
  // POSIX shared memory named after the instance id. Both processes have
  // them mapped once init() returns, and neither opens them by name again,
  // so their names can go: the memory lives while mapped and is freed when
  // both processes end, however they end.
  static void UnlinkSharedMemory(const std::string& id) {
    for (const char* base : {"ViZDoomMQDoom", "ViZDoomMQCtr", "ViZDoomSM"}) {
      shm_unlink((std::string("/") + base + id).c_str());
    }
  }

  // EnvPool's GetState: game variables (with its fixes), shaped reward,
  // then the screen pushed on the stack. Returns the shaped reward.
  float Observe(bool reset) {
    vizdoom::GameStatePtr state = game_->getState();
    if (state == nullptr) return 0.0f;  // episode over: EnvPool keeps the last frame
    if (!reset) last_gvs_ = gvs_;
    gvs_ = state->gameVariables;
    if (reset) {
      last_gvs_ = gvs_;
      selected_weapon_ = -1;
      selected_weapon_count_ = 0;
    }
    // HITCOUNT, DAMAGECOUNT and DEATHCOUNT are not zeroed by newEpisode
    // (ViZDoom issue 399): they count from their value at reset.
    for (std::size_t i = 0; i < gvs_.size(); ++i) {
      const vizdoom::GameVariable v = p_.variables[i];
      if (v != vizdoom::HITCOUNT && v != vizdoom::DAMAGECOUNT && v != vizdoom::DEATHCOUNT) {
        continue;
      }
      if (reset) {
        counter_base_[v] = gvs_[i];
        last_gvs_[i] = 0;
      }
      gvs_[i] -= counter_base_[v];
    }
    int weapon = -1;
    int weapon_ammo = 0;
    float reward = 0.0f;
    for (std::size_t i = 0; i < gvs_.size(); ++i) {
      double delta = gvs_[i] - last_gvs_[i];
      const vizdoom::GameVariable v = p_.variables[i];
      if (v == vizdoom::DAMAGECOUNT && delta >= 200) {
        delta = 200;  // EnvPool: do not reward BFG and shotguns too much
      } else if (v == vizdoom::HITCOUNT && delta >= 5) {
        delta = 5;
      } else if (v == vizdoom::SELECTED_WEAPON) {
        weapon = static_cast<int>(gvs_[i]);
      } else if (v == vizdoom::SELECTED_WEAPON_AMMO) {
        weapon_ammo = static_cast<int>(gvs_[i]);
      } else if (v == vizdoom::HEALTH) {
        // HEALTH reads -999900 in some states (ViZDoom issue 202).
        if (last_gvs_[i] < 0 && gvs_[i] < 0) {
          last_gvs_[i] = gvs_[i] = 100;
        } else if (gvs_[i] < 0) {
          gvs_[i] = last_gvs_[i];
        } else if (last_gvs_[i] < 0) {
          last_gvs_[i] = gvs_[i];
        }
        delta = gvs_[i] - last_gvs_[i];
      }
      if (delta >= 0) {
        reward += static_cast<float>(delta * p_.pos_reward[i]);
      } else {
        reward -= static_cast<float>(delta * p_.neg_reward[i]);
      }
    }
    if (weapon == selected_weapon_) {
      ++selected_weapon_count_;
    } else {
      selected_weapon_ = weapon;
      selected_weapon_count_ = 1;
    }
    if (weapon >= 0 && selected_weapon_count_ >= p_.keys.weapon_duration && weapon_ammo > 0 &&
        static_cast<std::size_t>(weapon) < p_.keys.weapon_reward.size()) {
      reward += static_cast<float>(p_.keys.weapon_reward[static_cast<std::size_t>(weapon)]);
    }
    const StageScope push(stage_clock(), Stage::kPreprocess);
    PushScreen(state->screenBuffer->data(), reset);
    return reward;
  }

  void PushScreen(const std::uint8_t* screen, bool fill) {
    std::copy(stack_.begin() + static_cast<std::ptrdiff_t>(frame_), stack_.end(), stack_.begin());
    std::uint8_t* last = stack_.data() + stack_.size() - frame_;
    const std::size_t raw_plane = static_cast<std::size_t>(p_.screen_height) * p_.screen_width;
    const bool same_size =
        p_.screen_height == p_.keys.img_height && p_.screen_width == p_.keys.img_width;
    for (int c = 0; c < p_.channels; ++c) {
      // Planar formats hold one channel after another; packed ones
      // interleave them (step = channels).
      const std::uint8_t* src = p_.planar ? screen + c * raw_plane : screen + c;
      const int step = p_.planar ? 1 : p_.channels;
      std::uint8_t* dst = last + c * plane_;
      if (same_size) {
        for (std::size_t i = 0; i < plane_; ++i) dst[i] = src[i * step];
      } else if (p_.keys.use_inter_area_resize) {
        area_.Resize(src, step, dst);
      } else {
        linear_.Resize(src, step, dst);
      }
    }
    if (fill) {
      for (std::size_t k = 0; k + frame_ < stack_.size(); k += frame_) {
        std::copy(last, last + frame_, stack_.begin() + static_cast<std::ptrdiff_t>(k));
      }
    }
  }

  const Params& p_;
  int env_id_;
  std::size_t plane_, frame_;
  AreaResizer area_;
  LinearResizer linear_;
  std::unique_ptr<vizdoom::DoomGame> game_;
  unsigned int seed_ = 0;
  bool reseed_ = false;
  int episodes_ = 0;
  std::vector<std::uint8_t> stack_;
  std::vector<double> gvs_, last_gvs_;
  std::array<double, vizdoom::DAMAGECOUNT + 1> counter_base_{};  // by variable
  int selected_weapon_ = -1;
  int selected_weapon_count_ = 0;
  double game_reward_ = 0.0;
};

// Numbers each env as the pool creates them (in env_id order), for the
// per-env demo file names of lmp_save_dir.
class VizdoomFactory final : public EnvFactory {
 public:
  explicit VizdoomFactory(const Config& config) : params_(config), spec_(VizdoomEnv::MakeSpec(params_)) {}
  const EnvSpec& Spec() const override { return spec_; }
  std::unique_ptr<Env> Create() const override {
    return std::make_unique<VizdoomEnv>(params_, next_id_.fetch_add(1));
  }
  std::optional<FrameSize> RenderSize(int width, int height, int camera_id) const override {
    return VizdoomEnv::RenderSize(params_, width, height, camera_id);
  }

 private:
  VizdoomEnv::Params params_;
  EnvSpec spec_;
  mutable std::atomic<int> next_id_{0};
};

}  // namespace envpool::vizdoom_envs
