// Atari 2600 games through the Arcade Learning Environment's C++ library
// (ale::ALEInterface, built from the ale-py sdist), with EnvPool's
// preprocessing: no-op starts, fire reset, frame skip with a max-pool of the
// last two frames, grayscale, area resize to 84x84 and a frame stack.
//
// The frame skip and max-pool follow gymnasium's AtariPreprocessing step for
// step (the same two buffers, the same in-place max, the same early stop on
// game over), so the observations match AtariPreprocessing +
// FrameStackObservation on the same emulator frames.
//
// The ROM (a file of the installed ale_py package, found by the Python side
// and passed as `rom_path`) and the action set are read once per pool in the
// Params; each env owns its ALEInterface, seeded as ale-py 0.12.1 seeds its
// AtariEnv (see Seed): the pool's seed for the env and every reset(seed=...)
// set the ALE seed and reload the ROM, so the emulator restarts exactly as
// ale-py's does after reset(seed=) with the same seed.
#pragma once

#include <ale/ale_interface.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/env.h"
#include "core/seed_sequence.h"
#include "envs/common/resize.h"
#include "envs/common/keywords.h"

namespace envpool::atari {

inline void QuietAle() { ale::Logger::setMode(ale::Logger::Error); }

// ale-py's AtariEnv.seed_game: SeedSequence(seed).generate_state(2) gives
// (numpy seed, ALE seed), and the ALE gets np.int32(ALE seed), the word
// reinterpreted as two's complement (negative for half the seeds; the ALE
// takes any int as a seed).
inline std::int32_t AleSeed(std::uint64_t seed) {
  const std::uint32_t word = SeedSequence(seed).GenerateState(2)[1];
  return word < 0x80000000U ? static_cast<std::int32_t>(word)
                            : static_cast<std::int32_t>(word - 0x80000000U) +
                                  std::numeric_limits<std::int32_t>::min();
}

// A mode or difficulty the ROM does not offer is refused with the ones it does
// (the ALE itself would throw without naming them); -1 keeps the ROM's default.
template <class T>
void CheckAvailable(const std::string& what, int value, const std::vector<T>& available) {
  if (value == -1) return;
  std::string list;
  for (const T& v : available) {
    if (static_cast<int>(v) == value) return;
    list += (list.empty() ? "" : ", ") + std::to_string(static_cast<int>(v));
  }
  throw std::invalid_argument(what + " " + std::to_string(value) +
                              " is not one of this game's: " + list +
                              " (or -1, the game's default)");
}

class AtariEnv final : public Env {
 public:
  static constexpr std::int64_t kRamBytes = 128;

  struct Params {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      if (frame_skip < 1) throw std::invalid_argument("frame_skip must be >= 1");
      if (noop_max < 0) throw std::invalid_argument("noop_max must be >= 0");
      if (stack_num < 1) throw std::invalid_argument("stack_num must be >= 1");
      if (img_height < 1 || img_width < 1) {
        throw std::invalid_argument("img_height and img_width must be >= 1");
      }
      if (repeat_action_probability < 0 || repeat_action_probability > 1) {
        throw std::invalid_argument("repeat_action_probability must be in [0, 1]");
      }
      if (rom_path.empty() || !std::ifstream(rom_path).good()) {
        throw std::invalid_argument(
            "the ROM of '" + game + "' was not found" +
            (rom_path.empty() ? std::string() : " at " + rom_path) +
            ": the ROMs come with the ale-py package (ale_py/roms/" + game +
            ".bin); install it with `pip install ale-py==0.12.1`");
      }
      QuietAle();
      ale::ALEInterface probe;
      probe.loadROM(rom_path);
      action_set = full_action_space ? probe.getLegalActionSet() : probe.getMinimalActionSet();
      CheckAvailable("mode", mode, probe.getAvailableModes());
      CheckAvailable("difficulty", difficulty, probe.getAvailableDifficulties());
      // gymnasium's FireResetEnv condition: action 1 is FIRE and there are >= 3.
      has_fire = action_set.size() >= 3 && action_set[1] == ale::PLAYER_A_FIRE;
      // The console's screen: 210 x 160 for most games, taller for the PAL carts
      // (250 rows: Adventure, AirRaid, ...; 220: Pooyan), as ale-py's getScreenDims.
      screen_height = static_cast<int>(probe.getScreen().height());
      screen_width = static_cast<int>(probe.getScreen().width());
    }
    std::string game, rom_path;
    int frame_skip, noop_max, stack_num, img_height, img_width;
    int mode, difficulty;  // the game's mode and difficulty switch; -1: the ROM's default
    bool episodic_life, zero_discount_on_life_loss, reward_clip, gray_scale,
        use_inter_area_resize, use_fire_reset, full_action_space;
    double repeat_action_probability;
    ale::ActionVect action_set;
    bool has_fire = false;
    int screen_height = 0, screen_width = 0;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    k.Add("game", std::string("pong"), &Params::game);
    k.Add("rom_path", std::string(), &Params::rom_path);
    k.Add("frame_skip", 4, &Params::frame_skip).AtLeast(1);
    k.Add("noop_max", 30, &Params::noop_max).AtLeast(0);
    k.Add("stack_num", 4, &Params::stack_num).AtLeast(1);
    k.Add("img_height", 84, &Params::img_height).AtLeast(1);
    k.Add("img_width", 84, &Params::img_width).AtLeast(1);
    k.Add("episodic_life", false, &Params::episodic_life);
    k.Add("zero_discount_on_life_loss", false, &Params::zero_discount_on_life_loss);
    k.Add("reward_clip", false, &Params::reward_clip);
    k.Add("gray_scale", true, &Params::gray_scale);
    k.Add("use_inter_area_resize", true, &Params::use_inter_area_resize);
    k.Add("use_fire_reset", true, &Params::use_fire_reset);
    k.Add("full_action_space", false, &Params::full_action_space);
    k.Add("repeat_action_probability", 0.0, &Params::repeat_action_probability).In(0, 1);
    k.Add("mode", -1, &Params::mode).AtLeast(-1);  // -1: the ROM's default
    k.Add("difficulty", -1, &Params::difficulty).AtLeast(-1);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& p) {
    EnvSpec spec;
    const std::int64_t channels = p.gray_scale ? 1 : 3;
    spec.obs.push_back(BoxSpec("obs", DType::kUInt8,
                               {channels * p.stack_num, p.img_height, p.img_width}, {0.0},
                               {255.0}));
    spec.action = DiscreteSpec("action", static_cast<std::int64_t>(p.action_set.size()),
                               DType::kInt32);
    spec.info.push_back(BoxSpec("lives", DType::kInt32, {}));
    spec.info.push_back(BoxSpec("reward", DType::kFloat32, {}));
    spec.info.push_back(BoxSpec("terminated", DType::kBool, {}));
    spec.info.push_back(BoxSpec("discount", DType::kFloat32, {}));
    // The console's 128 bytes of RAM after the step (ale-py's getRAM(); EnvPool's
    // info["ram"]).
    spec.info.push_back(BoxSpec("ram", DType::kUInt8, {kRamBytes}, {0.0}, {255.0}));
    if (p.reward_clip) {
      spec.reward_low = -1.0;
      spec.reward_high = 1.0;
    }
    return spec;
  }

  // render(): the ALE's RGB screen as ale-py's render() returns it, 210 x 160
  // for most games and taller for some (Params::screen_height); another
  // render_height / render_width gives that screen shrunk by the area resize of
  // the observations (OpenCV's INTER_AREA). Enlarging is refused.
  // One view: camera_id -1 or 0. Videos play at the emulator's 60 frames per
  // second: 60 / frame_skip steps per second.
  static FrameSize RenderSize(const Params& p, int width, int height, int camera_id) {
    if (camera_id != -1 && camera_id != 0) {
      throw std::invalid_argument("Atari games have one view: camera_id must be -1 or 0, got " +
                                  std::to_string(camera_id));
    }
    const int h = height == 0 ? p.screen_height : height;
    const int w = width == 0 ? p.screen_width : width;
    if (h < 1 || h > p.screen_height || w < 1 || w > p.screen_width) {
      const std::string size =
          std::to_string(p.screen_height) + " x " + std::to_string(p.screen_width);
      throw std::invalid_argument(
          "Atari frames are the ALE's " + size + " screen of " + p.game +
          ", or that screen shrunk: render_height must be in 1 .. " +
          std::to_string(p.screen_height) + " and render_width in 1 .. " +
          std::to_string(p.screen_width) + " (0: the screen's own size), got render_height " +
          std::to_string(height) + ", render_width " + std::to_string(width));
    }
    return FrameSize{h, w, 60.0 / p.frame_skip};
  }

  void Render(int width, int height, int /*camera_id*/, std::uint8_t* out) override {
    if (!ale_) throw std::runtime_error("render: the env has not been reset yet: call reset() first");
    ale_->getScreenRGB(rgb_);
    if (rgb_.size() != 3 * screen_pixels_) {
      throw std::runtime_error("the ALE's screen changed its size");
    }
    const int h = height == 0 ? p_.screen_height : height;
    const int w = width == 0 ? p_.screen_width : width;
    if (h == p_.screen_height && w == p_.screen_width) {
      std::copy(rgb_.begin(), rgb_.end(), out);
      return;
    }
    const std::size_t plane = static_cast<std::size_t>(h) * w;
    std::vector<std::uint8_t> channel(plane);
    AreaResizer resize(p_.screen_height, p_.screen_width, h, w);
    for (int c = 0; c < 3; ++c) {
      resize.Resize(rgb_.data() + c, 3, channel.data());
      for (std::size_t i = 0; i < plane; ++i) out[3 * i + c] = channel[i];
    }
  }

  explicit AtariEnv(const Params& p)
      : p_(p),
        channels_(p.gray_scale ? 1 : 3),
        screen_pixels_(static_cast<std::size_t>(p.screen_height) * p.screen_width),
        raw_size_(screen_pixels_ * channels_),
        frame_size_(static_cast<std::size_t>(p.img_height) * p.img_width),
        area_(p.screen_height, p.screen_width, p.img_height, p.img_width),
        linear_(p.screen_height, p.screen_width, p.img_height, p.img_width) {
    for (auto& b : buf_) b.assign(raw_size_, 0);
    raw1_.assign(raw_size_, 0);
    last_b_.assign(raw_size_, 0);
    stack_.assign(static_cast<std::size_t>(p.stack_num) * channels_ * frame_size_, 0);
  }

  // Records the ALE seed only: the ROM reload it calls for is costly, so it
  // runs in the next Reset, on the worker thread that resets the env, not on
  // the thread that builds the pool.
  void Seed(std::uint64_t seed) override {
    seed_ = AleSeed(seed);
    reload_ = true;
  }

  void Reset(Rng& rng) override {
    const bool reloaded = reload_;
    if (reload_) Reload();
    const bool fire = p_.use_fire_reset && p_.has_fire;
    // EnvPool: 1..noop_max no-ops in all, the fire press counting as one.
    // Drawn after a reseed of rng, so they too follow the seed.
    noops_ = p_.noop_max > 0 ? static_cast<int>(rng.Integer(0, p_.noop_max)) + 1 : 0;
    if (fire && noops_ > 0) --noops_;
    // A reloaded ROM is a new game, even with episodic_life after a life loss.
    const bool full = reloaded || !(p_.episodic_life && life_lost_) || ale_->game_over(false);
    if (full) ale_->reset_game();
    for (int i = 0; i < noops_; ++i) {
      ale_->act(ale::PLAYER_A_NOOP);
      if (ale_->game_over(false)) ale_->reset_game();
    }
    if (fire) {
      ale_->act(ale::PLAYER_A_FIRE);
      if (ale_->game_over(false)) ale_->reset_game();
    }
    Grab(&buf_[0]);
    std::fill(buf_[1].begin(), buf_[1].end(), 0);
    buf1_pending_ = false;
    PushFrame(full, false);
    lives_ = ale_->lives();
    life_lost_ = false;
    reward_ = 0;
    terminated_ = false;
    discount_ = 1;
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const auto a = p_.action_set[static_cast<std::size_t>(action.Scalar<std::int32_t>())];
    double reward = 0;
    bool game_over = false;
    bool pooled = false;  // buf_[0] already holds this step's max-pool
    for (int t = 0; t < p_.frame_skip; ++t) {
      reward += ale_->act(a);
      game_over = ale_->game_over(false);
      if (game_over) break;
      if (t == p_.frame_skip - 2) {
        const StageScope grab(stage_clock(), Stage::kPreprocess);
        if (p_.gray_scale) {
          // Only the palette indices now; their grays are pooled at the next frame.
          KeepIndices(ale_->getScreen().getArray());
          buf1_pending_ = true;
        } else {
          Grab(&buf_[1]);
        }
      } else if (t == p_.frame_skip - 1) {
        const StageScope grab(stage_clock(), Stage::kPreprocess);
        if (p_.gray_scale && p_.frame_skip > 1) {
          PoolChanged(ale_->getScreen().getArray());
          pooled = true;
        } else {
          Grab(&buf_[0]);
        }
      }
    }
    {
      const StageScope stack(stage_clock(), Stage::kPreprocess);
      PushFrame(false, pooled);
    }
    const int lives = ale_->lives();
    const bool life_loss = lives < lives_ && lives > 0;
    StepOutcome out;
    out.terminated = game_over || (p_.episodic_life && life_loss);
    out.reward = p_.reward_clip ? static_cast<double>((reward > 0) - (reward < 0)) : reward;
    discount_ = p_.zero_discount_on_life_loss ? static_cast<float>(!life_loss && !out.terminated)
                                              : static_cast<float>(!out.terminated);
    life_lost_ = life_loss && !game_over;
    lives_ = lives;
    reward_ = static_cast<float>(reward);
    terminated_ = game_over;
    return out;
  }

  void Write(const Slot& slot) const override {
    std::copy(stack_.begin(), stack_.end(), slot.Obs<std::uint8_t>());
    *slot.Info<std::int32_t>(0) = lives_;
    *slot.Info<float>(1) = reward_;
    *slot.Info<bool>(2) = terminated_;
    *slot.Info<float>(3) = discount_;
    const ale::ALERAM& ram = ale_->getRAM();
    std::copy(ram.array(), ram.array() + kRamBytes, slot.Info<std::uint8_t>(4));
  }

  // For alignment with ale-py: [ALE seed, no-ops of the last reset (the fire
  // press not counted), lives, game over, frame number, episode frame
  // number], then the current RGB screen (Params::screen_height x screen_width
  // x 3).
  std::vector<double> GetState() const override {
    std::vector<double> s;
    if (!ale_) return s;
    s = {static_cast<double>(seed_), static_cast<double>(noops_),
         static_cast<double>(ale_->lives()), static_cast<double>(ale_->game_over(false)),
         static_cast<double>(ale_->getFrameNumber()),
         static_cast<double>(ale_->getEpisodeFrameNumber())};
    std::vector<unsigned char> rgb;
    ale_->getScreenRGB(rgb);
    s.insert(s.end(), rgb.begin(), rgb.end());
    return s;
  }

 private:
  void Grab(std::vector<std::uint8_t>* out) {
    if (out == &buf_[0]) pooled_valid_ = false;
    if (p_.gray_scale) {
      // getScreenGrayscale's work: the palette's gray of each screen byte (gray_).
      GrayOf(out->data(), ale_->getScreen().getArray(), gray_.data(), raw_size_);
    } else {
      ale_->getScreenRGB(*out);
    }
  }

  // ale-py's reset(seed=): seed_game, then load_game (loadROM reseeds the
  // ALE's generator from random_seed and restarts the console), then the
  // reset_game that Reset does. The ALEInterface itself is kept, as ale-py
  // keeps its own; the first call creates it.
  void Reload() {
    if (!ale_) {
      QuietAle();
      ale_ = std::make_unique<ale::ALEInterface>();
      ale_->setFloat("repeat_action_probability",
                     static_cast<float>(p_.repeat_action_probability));
    }
    ale_->setInt("random_seed", seed_);
    ale_->loadROM(p_.rom_path);
    // ale-py's load_game: the mode, then the difficulty, after the ROM (reset_game follows).
    if (p_.mode >= 0) ale_->setMode(static_cast<ale::game_mode_t>(p_.mode));
    if (p_.difficulty >= 0) ale_->setDifficulty(static_cast<ale::difficulty_t>(p_.difficulty));
    reload_ = false;
    pooled_valid_ = false;  // the palette may have changed
    // The gray of every palette index, by the ALE's own call (a ROM picks its palette).
    std::array<std::uint8_t, 256> index;
    for (std::size_t v = 0; v < index.size(); ++v) index[v] = static_cast<std::uint8_t>(v);
    ale_->theOSystem->colourPalette().applyPaletteGrayscale(gray_.data(), index.data(),
                                                            index.size());
  }

  // gymnasium's _get_obs: buf0 = max(buf0, buf1) in place (when frame_skip
  // > 1; `pooled`: the step wrote that max already), resized, pushed on the
  // stack (or filling it after a full reset).
  //
  // A grayscale step that reaches its last two frames writes buf0 = max(gray
  // of frame n-2, gray of frame n-1) in one pass over the two screens' palette
  // indices (GrayMax), which is what the two grabs and the in-place max give.
  // buf1 (the gray of frame n-2) is then written only if a later step needs
  // it: one that ends on game over before its own last frame maxes the old
  // buf0 with it, as gymnasium's step does.
  void PushFrame(bool fill, bool pooled) {
    if (p_.frame_skip > 1 && !pooled) {
      if (buf1_pending_) {
        GrayOf(buf_[1].data(), raw1_.data(), gray_.data(), raw_size_);
        buf1_pending_ = false;
      }
      MaxInto(buf_[0].data(), buf_[1].data(), raw_size_);
      pooled_valid_ = false;
    }
    const std::size_t per = static_cast<std::size_t>(channels_) * frame_size_;
    std::copy(stack_.begin() + per, stack_.end(), stack_.begin());
    std::uint8_t* last = stack_.data() + stack_.size() - per;
    for (int c = 0; c < channels_; ++c) {
      std::uint8_t* dst = last + c * frame_size_;
      if (p_.use_inter_area_resize) {
        area_.Resize(buf_[0].data() + c, channels_, dst);
      } else {
        linear_.Resize(buf_[0].data() + c, channels_, dst);
      }
    }
    if (fill) {
      for (std::size_t k = 0; k + per < stack_.size(); k += per) {
        std::copy(last, last + per, stack_.begin() + k);
      }
    }
  }

  // The max-pool of a grayscale step's last two frames, worked out only where
  // the screen changed. raw1_ and last_b_ hold the palette indices of frames
  // n-2 and n-1 of the last pooled step, and buf_[0] their max-pooled grays
  // while pooled_valid_ (anything else that writes buf_[0] clears it). Frame
  // n-2's indices are merged into raw1_ block by block (KeepIndices), marking
  // the blocks that changed; then every block where either frame changed gets
  // its grays and max again (PoolChanged), and the others keep theirs. The
  // result is GrayMax over the whole screen, byte for byte: the two screens'
  // table lookups were a tenth of a step, and most of a screen stays as it was
  // from one step to the next.
  static constexpr std::size_t kBlock = 64;

  static bool SameBlock(const std::uint8_t* a, const std::uint8_t* b, std::size_t n) {
    if (n == kBlock) {
      std::uint64_t x[kBlock / 8], y[kBlock / 8];
      std::memcpy(x, a, kBlock);
      std::memcpy(y, b, kBlock);
      std::uint64_t diff = 0;
      for (std::size_t k = 0; k < kBlock / 8; ++k) diff |= x[k] ^ y[k];
      return diff == 0;
    }
    return std::memcmp(a, b, n) == 0;
  }

  void KeepIndices(const std::uint8_t* screen) {
    const std::size_t blocks = (raw_size_ + kBlock - 1) / kBlock;
    changed_.resize(blocks);
    for (std::size_t k = 0, at = 0; k < blocks; ++k, at += kBlock) {
      const std::size_t n = std::min(kBlock, raw_size_ - at);
      const bool same = pooled_valid_ && SameBlock(screen + at, raw1_.data() + at, n);
      changed_[k] = !same;
      if (!same) std::memcpy(raw1_.data() + at, screen + at, n);
    }
    a_kept_ = true;
  }

  void PoolChanged(const std::uint8_t* screen) {
    if (!a_kept_) KeepIndices(screen);  // no frame n-2 (cannot happen with frame_skip > 1)
    const std::size_t blocks = changed_.size();
    for (std::size_t k = 0, at = 0; k < blocks; ++k, at += kBlock) {
      const std::size_t n = std::min(kBlock, raw_size_ - at);
      if (!changed_[k] && SameBlock(screen + at, last_b_.data() + at, n)) continue;
      std::memcpy(last_b_.data() + at, screen + at, n);
      GrayMax(buf_[0].data() + at, raw1_.data() + at, screen + at, gray_.data(), n);
    }
    pooled_valid_ = true;
    a_kept_ = false;
  }

  // dst = max(dst, src) byte by byte. Through restrict pointers: on the
  // vectors' own bytes the compiler must assume each store may move the
  // vectors, reloads their pointers per byte and cannot vectorise (that loop
  // took about 7% of a Pong step's CPU samples).
  static void MaxInto(std::uint8_t* __restrict dst, const std::uint8_t* __restrict src,
                      std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) dst[i] = std::max(dst[i], src[i]);
  }
  // dst = max(gray[a], gray[b]) and dst = gray[a], index by index (restrict: a
  // store to dst cannot change the table, so it is not reloaded per byte).
  static void GrayMax(std::uint8_t* __restrict dst, const std::uint8_t* __restrict a,
                      const std::uint8_t* __restrict b, const std::uint8_t* __restrict gray,
                      std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) dst[i] = std::max(gray[a[i]], gray[b[i]]);
  }
  static void GrayOf(std::uint8_t* __restrict dst, const std::uint8_t* __restrict a,
                     const std::uint8_t* __restrict gray, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) dst[i] = gray[a[i]];
  }

  Params p_;
  int channels_;
  std::size_t screen_pixels_;  // the ALE screen's (Params::screen_height x screen_width)
  std::size_t raw_size_, frame_size_;
  AreaResizer area_;
  LinearResizer linear_;
  std::unique_ptr<ale::ALEInterface> ale_;
  // The ALE seed, and whether the next Reset must (re)load the ROM with it.
  // An env that is never given a seed (the pool always gives one) runs as
  // if seeded with 0.
  std::int32_t seed_ = AleSeed(0);
  bool reload_ = true;
  int noops_ = 0;
  std::vector<std::uint8_t> buf_[2];
  std::vector<std::uint8_t> raw1_;      // palette indices of frame n-2 (grayscale)
  bool buf1_pending_ = false;           // buf_[1] is the gray of raw1_, not yet written
  std::vector<std::uint8_t> last_b_;    // palette indices of frame n-1 of the last pooled step
  std::vector<std::uint8_t> changed_;   // the blocks of raw1_ that KeepIndices changed
  bool pooled_valid_ = false;           // buf_[0] is the max-pool of raw1_ and last_b_
  bool a_kept_ = false;                 // KeepIndices ran in this step
  std::array<std::uint8_t, 256> gray_{};  // the ALE palette's gray of each index
  std::vector<std::uint8_t> stack_;
  std::vector<unsigned char> rgb_;  // Render's copy of the RGB screen
  int lives_ = 0;
  bool life_lost_ = false;
  float reward_ = 0;
  bool terminated_ = false;
  float discount_ = 1;
};

}  // namespace envpool::atari
