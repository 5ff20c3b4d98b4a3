// A procgen 0.10.7 game as an env of the pool: ProcgenEnv<G> for each restated game G.
//
// Seeds: the pool's seed for env i (seed + i) is the rand_seed of procgen's
// ProcgenGym3Env(num=1, rand_seed=...): it seeds the generator that draws the levels'
// seeds (num_levels / start_level / use_sequential_levels, as in procgen).
//
// Episode ends: procgen resets a game inside the step that ends its episode and shows the
// new level's first frame with first=1. Here that step's observation is the last frame of
// the ended episode (drawn before procgen's reset), with procgen's reward, the info of the
// level it shows (level_seed and prev_level_seed: the ended level, as sail-sg EnvPool
// gives them; prev_level_complete: procgen's) and terminated (the game ended it) or
// truncated (procgen's timeout); the autoreset that follows shows procgen's first frame
// of the new level with procgen's info there (level_seed the new level, prev_level_seed
// the ended one), and prev_level_complete 0. A reset(seed=...) starts the level seeds
// anew from that seed; a reset() in mid-episode draws a new level, as procgen's forced
// reset does.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/env.h"
#include "envs/common/keywords.h"
#include "envs/procgen/assets.h"
#include "envs/procgen/game.h"

namespace envpool::procgen {

struct ProcgenParams {
  int num_levels = 0;
  int start_level = 0;
  std::string distribution_mode;
  bool use_sequential_levels = false;
  bool center_agent = false;
  bool use_backgrounds = true;
  bool restrict_themes = false;
  bool use_monochrome_assets = false;
  bool paint_vel_info = false;
  bool channel_first = true;
  std::string resource_root;
  DistributionMode mode = kHardMode;
  std::shared_ptr<AssetStore> assets;
};

// The modes a game takes (game.cpp's parse_options): easy and hard for all the restated
// games; extreme and memory for some.
inline DistributionMode ParseMode(const std::string& name, const std::string& mode,
                                  bool has_extreme, bool has_memory) {
  if (mode == "easy") return kEasyMode;
  if (mode == "hard") return kHardMode;
  if (mode == "extreme" && has_extreme) return kExtremeMode;
  if (mode == "memory" && has_memory) return kMemoryMode;
  std::string valid = "'easy', 'hard'";
  if (has_extreme) valid += ", 'extreme'";
  if (has_memory) valid += ", 'memory'";
  throw std::invalid_argument("procgen " + name + ": distribution_mode must be one of " + valid +
                              ", got '" + mode + "'");
}

// A game may refuse options it does not restate: `static void CheckOptions(const
// ProcgenParams&)`, throwing std::invalid_argument, called when the pool is made.
template <class G, class = void>
struct HasCheckOptions : std::false_type {};
template <class G>
struct HasCheckOptions<
    G, std::void_t<decltype(G::CheckOptions(std::declval<const ProcgenParams&>()))>>
    : std::true_type {};

template <class G>
class ProcgenEnv final : public Env {
 public:
  static constexpr int kSide = 64;  // procgen's observation: 64 x 64 RGB
  struct Params : ProcgenParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      mode = ParseMode(G::kName, distribution_mode, G::kHasExtreme, G::kHasMemory);
      if constexpr (HasCheckOptions<G>::value) G::CheckOptions(*this);
      assets = std::make_shared<AssetStore>(resource_root);
    }
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    // 0: every level seed (0 .. 2^31 - 2); else start_level .. start_level + num_levels - 1
    k.Add("num_levels", 0, &Params::num_levels).AtLeast(0);
    k.Add("start_level", 0, &Params::start_level).AtLeast(0);
    k.Add("distribution_mode", std::string("hard"), &Params::distribution_mode);
    k.Add("use_sequential_levels", false, &Params::use_sequential_levels);
    k.Add("center_agent", true, &Params::center_agent);
    k.Add("use_backgrounds", true, &Params::use_backgrounds);
    k.Add("restrict_themes", false, &Params::restrict_themes);
    k.Add("use_monochrome_assets", false, &Params::use_monochrome_assets);
    k.Add("paint_vel_info", false, &Params::paint_vel_info);
    // sail-sg EnvPool's layout of the observation: (3, 64, 64) by default, procgen's own
    // (64, 64, 3) with channel_first=False
    k.Add("channel_first", true, &Params::channel_first);
    // procgen's data/assets folder (envpool/tasks/procgen.py finds it)
    k.Add("_resource_root", std::string(""), &Params::resource_root);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& p) {
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("obs", DType::kUInt8,
                               p.channel_first ? std::vector<std::int64_t>{3, kSide, kSide}
                                               : std::vector<std::int64_t>{kSide, kSide, 3},
                               {0.0}, {255.0}));
    spec.action = DiscreteSpec("action", 15, DType::kInt32);
    spec.info.push_back(BoxSpec("level_seed", DType::kInt32, {}));
    spec.info.push_back(BoxSpec("prev_level_seed", DType::kInt32, {}));
    spec.info.push_back(BoxSpec("prev_level_complete", DType::kUInt8, {}, {0.0}, {1.0}));
    return spec;
  }

  // render(): the frame the agent sees (the observation, height x width x 3, whatever
  // channel_first), at procgen's 15 frames per second (its gym env's metadata), as sail-sg
  // EnvPool renders; procgen's 512 x 512 picture (its render_mode="rgb_array") is not drawn.
  static FrameSize RenderSize(const Params& /*p*/, int width, int height, int camera_id) {
    if (camera_id != -1 && camera_id != 0) {
      throw std::invalid_argument("Procgen has one view: camera_id must be -1 or 0, got " +
                                  std::to_string(camera_id));
    }
    if ((width != 0 && width != kSide) || (height != 0 && height != kSide)) {
      throw std::invalid_argument(
          "Procgen's frames are its 64 x 64 observations: render_height and render_width "
          "must be 0 or 64");
    }
    return FrameSize{kSide, kSide, 15.0};
  }

  void Render(int /*width*/, int /*height*/, int /*camera_id*/, std::uint8_t* out) override {
    if (game_ == nullptr) {  // before the first reset: a black frame
      std::fill(out, out + kSide * kSide * 3, std::uint8_t{0});
      return;
    }
    game_->painter().ToRgb(out);
  }

  explicit ProcgenEnv(const Params& p) : params_(p) {
    if (p.resource_root.empty()) {
      throw std::runtime_error(
          "procgen's images were not found: run `python -m envpool --procgen-assets` once (it "
          "downloads procgen 0.10.7's wheel with pip into the cache folder), or pass "
          "resource_root= / set ENVPOOL_PROCGEN_ASSETS to a copy of procgen's data/assets "
          "folder (docs/procgen.md)");
    }
  }

  void Seed(std::uint64_t seed) override {
    // procgen's rand_seed is an int
    rand_seed_ = static_cast<int>(static_cast<std::uint32_t>(seed));
    reseed_ = true;
  }

  void Reset(Rng& /*rng*/) override {
    if (reseed_ || game_ == nullptr) {
      game_ = std::make_unique<G>(params_.assets);
      GameOptions o;
      o.paint_vel_info = params_.paint_vel_info;
      o.use_monochrome_assets = params_.use_monochrome_assets;
      o.restrict_themes = params_.restrict_themes;
      o.use_backgrounds = params_.use_backgrounds;
      o.center_agent = params_.center_agent;
      o.distribution_mode = params_.mode;
      o.use_sequential_levels = params_.use_sequential_levels;
      game_->Init(o, rand_seed_, params_.num_levels, params_.start_level);
      reseed_ = false;
      game_->Reset();
      prev_level_seed_ = game_->prev_level_seed();
    } else if (!reset_done_) {
      // a reset in mid-episode: procgen's forced reset (action -1) ends the episode
      game_->Reset();
      prev_level_seed_ = game_->current_level_seed();
    } else {
      prev_level_seed_ = game_->prev_level_seed();
    }
    reset_done_ = false;
    level_complete_ = false;
    game_->Draw();
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const bool game_done = game_->StepBeforeReset(action.Scalar<std::int32_t>());
    const StepData data = game_->step_data();
    const bool ends = data.done && !(params_.use_sequential_levels && data.level_complete);
    if (ends) game_->Draw();  // the last frame, before procgen's reset
    game_->StepAfter();
    if (!ends) game_->Draw();
    prev_level_seed_ = game_->prev_level_seed();
    level_complete_ = data.level_complete;
    reset_done_ = ends;
    StepOutcome out;
    out.reward = data.reward;
    out.terminated = ends && game_done;
    out.truncated = ends && !game_done;
    return out;
  }

  void Write(const Slot& slot) const override {
    // the frame is the game's canvas until its next step draws (StepAfter's reset draws
    // nothing)
    std::uint8_t* out = slot.Obs<std::uint8_t>(0);
    if (params_.channel_first) {
      game_->painter().ToPlanarRgb(out);
    } else {
      game_->painter().ToRgb(out);
    }
    // level_seed: the level whose frame this is (after an ending step procgen has drawn the
    // next level already, and the frame is still the ended one's: prev_level_seed)
    *slot.Info<std::int32_t>(0) = reset_done_ ? prev_level_seed_ : game_->current_level_seed();
    *slot.Info<std::int32_t>(1) = prev_level_seed_;
    *slot.Info<std::uint8_t>(2) = level_complete_ ? 1 : 0;
  }

 private:
  Params params_;
  std::unique_ptr<G> game_;
  int rand_seed_ = 0;
  bool reseed_ = true;
  bool reset_done_ = false;  // the last step ended an episode: procgen has reset already
  bool level_complete_ = false;
  int prev_level_seed_ = 0;
};

}  // namespace envpool::procgen
