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
#include <ale/emucore/MediaSrc.hxx>

#include <algorithm>
#include <array>
#include <cstdint>
#include <fstream>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/env.h"
#include "core/seed_sequence.h"
#include "envs/atari/resize.h"
#include "envs/common/keywords.h"

namespace envpool::atari {

constexpr int kRawHeight = 210;
constexpr int kRawWidth = 160;
// More scanlines than a frame that ended on VSYNC can have (see KeepScreen).
constexpr std::uint32_t kCompleteFrameScanlines = 600;

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
    }
    std::string game, rom_path;
    int frame_skip, noop_max, stack_num, img_height, img_width;
    int mode, difficulty;  // the game's mode and difficulty switch; -1: the ROM's default
    bool episodic_life, zero_discount_on_life_loss, reward_clip, gray_scale,
        use_inter_area_resize, use_fire_reset, full_action_space;
    double repeat_action_probability;
    ale::ActionVect action_set;
    bool has_fire = false;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    k.Add("game", std::string("pong"), &Params::game);
    k.Add("rom_path", std::string(), &Params::rom_path);
    k.Add("frame_skip", 4, &Params::frame_skip);
    k.Add("noop_max", 30, &Params::noop_max);
    k.Add("stack_num", 4, &Params::stack_num);
    k.Add("img_height", 84, &Params::img_height);
    k.Add("img_width", 84, &Params::img_width);
    k.Add("episodic_life", false, &Params::episodic_life);
    k.Add("zero_discount_on_life_loss", false, &Params::zero_discount_on_life_loss);
    k.Add("reward_clip", false, &Params::reward_clip);
    k.Add("gray_scale", true, &Params::gray_scale);
    k.Add("use_inter_area_resize", true, &Params::use_inter_area_resize);
    k.Add("use_fire_reset", true, &Params::use_fire_reset);
    k.Add("full_action_space", false, &Params::full_action_space);
    k.Add("repeat_action_probability", 0.0, &Params::repeat_action_probability);
    k.Add("mode", -1, &Params::mode);
    k.Add("difficulty", -1, &Params::difficulty);
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
    if (p.reward_clip) {
      spec.reward_low = -1.0;
      spec.reward_high = 1.0;
    }
    return spec;
  }

  // render(): the ALE's RGB screen, 210 x 160, as ale-py's render() returns it;
  // another render_height / render_width gives that screen shrunk by the area
  // resize of the observations (OpenCV's INTER_AREA). Enlarging is refused.
  // One view: camera_id -1 or 0. Videos play at the emulator's 60 frames per
  // second: 60 / frame_skip steps per second.
  static FrameSize RenderSize(const Params& p, int width, int height, int camera_id) {
    if (camera_id != -1 && camera_id != 0) {
      throw std::invalid_argument("Atari games have one view: camera_id must be -1 or 0, got " +
                                  std::to_string(camera_id));
    }
    const int h = height == 0 ? kRawHeight : height;
    const int w = width == 0 ? kRawWidth : width;
    if (h < 1 || h > kRawHeight || w < 1 || w > kRawWidth) {
      throw std::invalid_argument(
          "Atari frames are the ALE's 210 x 160 screen, or that screen shrunk: render_height "
          "must be in 1 .. 210 and render_width in 1 .. 160 (0: the screen's own size), got "
          "render_height " +
          std::to_string(height) + ", render_width " + std::to_string(width));
    }
    return FrameSize{h, w, 60.0 / p.frame_skip};
  }

  void Render(int width, int height, int /*camera_id*/, std::uint8_t* out) override {
    if (!ale_) throw std::runtime_error("render: the env has not been reset yet: call reset() first");
    ale_->getScreenRGB(rgb_);
    const int h = height == 0 ? kRawHeight : height;
    const int w = width == 0 ? kRawWidth : width;
    if (h == kRawHeight && w == kRawWidth) {
      std::copy(rgb_.begin(), rgb_.end(), out);
      return;
    }
    const std::size_t plane = static_cast<std::size_t>(h) * w;
    std::vector<std::uint8_t> channel(plane);
    AreaResizer resize(kRawHeight, kRawWidth, h, w);
    for (int c = 0; c < 3; ++c) {
      resize.Resize(rgb_.data() + c, 3, channel.data());
      for (std::size_t i = 0; i < plane; ++i) out[3 * i + c] = channel[i];
    }
  }

  explicit AtariEnv(const Params& p)
      : p_(p),
        channels_(p.gray_scale ? 1 : 3),
        raw_size_(static_cast<std::size_t>(kRawHeight) * kRawWidth * channels_),
        frame_size_(static_cast<std::size_t>(p.img_height) * p.img_width),
        area_(kRawHeight, kRawWidth, p.img_height, p.img_width),
        linear_(kRawHeight, kRawWidth, p.img_height, p.img_width) {
    for (auto& b : buf_) b.assign(raw_size_, 0);
    raw1_.assign(raw_size_, 0);
    stack_size_ = static_cast<std::size_t>(p.stack_num) * channels_ * frame_size_;
    ring_.assign(2 * stack_size_, 0);
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
    // gymnasium's reset zeroes buf1, so max(buf0, buf1) is buf0.
    std::fill(buf_[1].begin(), buf_[1].end(), 0);
    PushFrame(full);
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
    bool pooled = false;             // buf_[0] already holds this step's max-pool
    const std::uint8_t* n2 = nullptr;  // palette indices of frame n-2 (grayscale)
    for (int t = 0; t < p_.frame_skip; ++t) {
      reward += ale_->act(a);
      game_over = ale_->game_over(false);
      if (game_over) break;
      if (t == p_.frame_skip - 2) {
        if (p_.gray_scale) {
          n2 = KeepScreen();  // their grays are pooled at the next frame
        } else {
          Grab(&buf_[1]);
        }
      } else if (t == p_.frame_skip - 1) {
        if (p_.gray_scale && p_.frame_skip > 1) {
          GrayMax(buf_[0].data(), KeptScreen(n2), Screen(), gray_.data(),
                  raw_size_);
          pooled = true;
        } else {
          Grab(&buf_[0]);
        }
      }
    }
    // gymnasium's _get_obs: buf0 = max(buf0, buf1) in place when frame_skip > 1.
    if (p_.frame_skip > 1 && !pooled) {
      if (!p_.gray_scale) {
        MaxInto(buf_[0].data(), buf_[1].data(), raw_size_);
      } else if (n2 != nullptr) {
        // Game over on the last frame: buf1 is the gray of frame n-2, buf0 the
        // last step's. A game over before frame n-2 leaves buf0 as it is: buf0
        // already holds max(buf0, buf1) for the buf1 gymnasium has then (the
        // gray of an earlier frame n-2, or zeros after a reset).
        GrayOf(buf_[1].data(), KeptScreen(n2), gray_.data(), raw_size_);
        MaxInto(buf_[0].data(), buf_[1].data(), raw_size_);
      }
    }
    PushFrame(false);
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
    const std::uint8_t* stack = Stack();
    std::copy(stack, stack + stack_size_, slot.Obs<std::uint8_t>());
    *slot.Info<std::int32_t>(0) = lives_;
    *slot.Info<float>(1) = reward_;
    *slot.Info<bool>(2) = terminated_;
    *slot.Info<float>(3) = discount_;
  }

  // For alignment with ale-py: [ALE seed, no-ops of the last reset (the fire
  // press not counted), lives, game over, frame number, episode frame
  // number], then the current RGB screen (210 x 160 x 3).
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
  void Grab(std::vector<std::uint8_t>* out) const {
    if (p_.gray_scale) {
      // getScreenGrayscale's work: the palette's gray of each screen byte (gray_).
      GrayOf(out->data(), Screen(), gray_.data(), raw_size_);
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
    colour_averaging_ = ale_->getBool("color_averaging");
    // The gray of every palette index, by the ALE's own call (a ROM picks its palette).
    std::array<std::uint8_t, 256> index;
    for (std::size_t v = 0; v < index.size(); ++v) index[v] = static_cast<std::uint8_t>(v);
    ale_->theOSystem->colourPalette().applyPaletteGrayscale(gray_.data(), index.data(),
                                                            index.size());
  }

  // The screen of the last frame as palette indices: the console's frame
  // buffer, which is what getScreen() copies (only when read, see
  // native/third_party/build_ale.py), unless colour averaging blends frames.
  const std::uint8_t* Screen() const {
    if (colour_averaging_) return ale_->getScreen().getArray();
    return ale_->theOSystem->console().mediaSource().currentFrameBuffer();
  }

  // The screen of frame n-2 as palette indices, read back by KeptScreen after
  // the next frame. The ALE's console (the TIA) draws each frame into one of
  // two buffers and swaps them when the next frame starts, so after frame n-1
  // its previous buffer still holds frame n-2: no copy is needed when frame
  // n-2 ended complete. A frame cut short (25000 CPU
  // instructions without VSYNC, at least 50000 cycles, so more than 650
  // scanlines) is continued in the same buffer, as is a screen made by
  // colour averaging: those are copied.
  const std::uint8_t* KeepScreen() {
    const auto& tia = ale_->theOSystem->console().mediaSource();
    if (!colour_averaging_ && tia.scanlines() < kCompleteFrameScanlines) {
      return tia.currentFrameBuffer();
    }
    const std::uint8_t* screen = Screen();
    std::copy(screen, screen + raw_size_, raw1_.data());
    return raw1_.data();
  }
  const std::uint8_t* KeptScreen(const std::uint8_t* kept) const {
    if (kept != raw1_.data() &&
        kept != ale_->theOSystem->console().mediaSource().previousFrameBuffer()) {
      throw std::logic_error("Atari: the screen of frame n-2 was overwritten by frame n-1");
    }
    return kept;
  }

  // The pooled frame (buf0), resized, pushed on the stack (or filling it
  // after a full reset). The stack is a ring of stack_num frames kept twice
  // over (frame k at k and k + stack_num), so the last stack_num frames are
  // always one contiguous run, oldest first, from ring_[next_]: a push writes
  // one frame twice instead of shifting the others.
  void PushFrame(bool fill) {
    const std::size_t per = static_cast<std::size_t>(channels_) * frame_size_;
    const std::size_t stack = static_cast<std::size_t>(p_.stack_num);
    std::uint8_t* newest = ring_.data() + (next_ + stack) * per;
    for (int c = 0; c < channels_; ++c) {
      std::uint8_t* dst = newest + c * frame_size_;
      if (p_.use_inter_area_resize) {
        area_.Resize(buf_[0].data() + c, channels_, dst);
      } else {
        linear_.Resize(buf_[0].data() + c, channels_, dst);
      }
    }
    std::copy(newest, newest + per, ring_.data() + next_ * per);
    next_ = (next_ + 1) % stack;
    if (fill) {
      for (std::size_t k = 0; k < 2 * stack; ++k) {
        if (ring_.data() + k * per != newest) std::copy(newest, newest + per, ring_.data() + k * per);
      }
    }
  }
  const std::uint8_t* Stack() const {
    return ring_.data() + next_ * static_cast<std::size_t>(channels_) * frame_size_;
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
  std::vector<std::uint8_t> raw1_;  // a copy of frame n-2's palette indices (see KeepScreen)
  bool colour_averaging_ = false;   // the ALE's color_averaging setting
  std::array<std::uint8_t, 256> gray_{};  // the ALE palette's gray of each index
  std::size_t stack_size_ = 0;      // bytes of one observation (stack_num frames)
  std::vector<std::uint8_t> ring_;  // the frame stack, twice over (see PushFrame)
  std::size_t next_ = 0;            // ring_'s oldest frame of the stack
  std::vector<unsigned char> rgb_;  // Render's copy of the RGB screen
  int lives_ = 0;
  bool life_lost_ = false;
  float reward_ = 0;
  bool terminated_ = false;
  float discount_ = 1;
};

}  // namespace envpool::atari
