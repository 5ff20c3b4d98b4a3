// Pixel observations (`from_pixels=True`) for the envs that render (the MuJoCo
// and DeepMind Control tasks): PixelObservation<E> is env E whose observation
// is the frame E::Render draws, taken on the worker right after every reset
// and step, as dm_control's pixels.Wrapper and gymnasium's
// AddRenderObservation take physics.render() / env.render() after each one.
//
// Keywords (added to E's):
//   from_pixels  (false)  observe frames;
//   pixels_only  (true)   only the frames (a single uint8 array named "pixels");
//                         false: E's observation arrays, then "pixels" (a dict;
//                         an unnamed array of E is renamed "state", gymnasium's key);
//   frame_stack  (1)      the last k frames, oldest first, stacked channel-first as
//                         (3k, height, width) (the DrQ / CURL convention, and
//                         sail-sg EnvPool's); after a reset the first frame repeated.
//                         E's own keyword where it has one (DMC, which stacks its
//                         state arrays too); otherwise this wrapper stacks E's state
//                         arrays too, when they are observed: each of shape s becomes
//                         (k, *s), the last k observations, oldest first, the first
//                         one repeated after a reset (EnvPool's MuJoCo frame_stack).
//   _pixel_width, _pixel_height, _pixel_camera_id (hidden): the frame, as
//                         E::RenderSize / E::Render take it; the Python front fills
//                         them from render_width, render_height, render_camera_id.
//
// Frames are drawn in height x width x 3 (E::Render) and written transposed into
// the env's stack; Write copies the stack into the batch row.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "core/env.h"

namespace envpool {

struct PixelOptions {
  explicit PixelOptions(const Config& c)
      : enabled(c.GetBool("from_pixels")),
        pixels_only(c.GetBool("pixels_only")),
        width(static_cast<int>(c.GetInt("_pixel_width"))),
        height(static_cast<int>(c.GetInt("_pixel_height"))),
        camera_id(static_cast<int>(c.GetInt("_pixel_camera_id"))),
        frame_stack(static_cast<int>(c.GetInt("frame_stack"))) {
    if (frame_stack < 1) throw std::invalid_argument("frame_stack must be >= 1");
  }
  bool enabled, pixels_only;
  int width, height, camera_id, frame_stack;
};

template <class E>
class PixelObservation final : public Env {
 public:
  struct Params {
    explicit Params(const Config& c) : inner(c), pixels(c) {}
    typename E::Params inner;
    PixelOptions pixels;
  };

  static Config Defaults() {
    Config c = E::Defaults();
    c.Set("from_pixels", false);
    c.Set("pixels_only", true);
    if (!c.Has("frame_stack")) c.Set("frame_stack", std::int64_t{1}).AtLeast(1);
    c.Set("_pixel_width", std::int64_t{84}).AtLeast(1);
    c.Set("_pixel_height", std::int64_t{84}).AtLeast(1);
    c.Set("_pixel_camera_id", std::int64_t{-1});
    return c;
  }

  static EnvSpec MakeSpec(const Params& p) {
    EnvSpec spec = E::MakeSpec(p.inner);
    const PixelOptions& o = p.pixels;
    if (StacksState(o)) {
      for (ArraySpec& a : spec.obs) {
        a.shape.insert(a.shape.begin(), o.frame_stack);
        for (std::vector<double>* bound : {&a.low, &a.high}) {
          if (bound->size() <= 1) continue;  // one bound for every element, or none
          const std::vector<double> one = *bound;
          for (int i = 1; i < o.frame_stack; ++i) bound->insert(bound->end(), one.begin(), one.end());
        }
      }
    }
    if (!o.enabled) return spec;
    const FrameSize f = E::RenderSize(p.inner, o.width, o.height, o.camera_id);
    ArraySpec pixels = BoxSpec("pixels", DType::kUInt8, {3 * o.frame_stack, f.height, f.width},
                               {0.0}, {255.0});
    if (o.pixels_only) {
      spec.obs = {pixels};
      spec.obs_layout = ObsLayout::kArray;
    } else {
      if (spec.obs_layout == ObsLayout::kArray) spec.obs.front().name = "state";
      spec.obs.push_back(pixels);
      spec.obs_layout = ObsLayout::kDict;
    }
    return spec;
  }

  static FrameSize RenderSize(const Params& p, int width, int height, int camera_id) {
    return E::RenderSize(p.inner, width, height, camera_id);
  }

  explicit PixelObservation(const Params& p)
      : inner_(p.inner),
        options_(p.pixels),
        inner_spec_(E::MakeSpec(p.inner)),
        stacks_state_(StacksState(p.pixels)) {
    if (stacks_state_) {
      for (const ArraySpec& a : inner_spec_.obs) {
        history_.emplace_back(a.NumBytes() * static_cast<std::size_t>(options_.frame_stack));
      }
      for (const ArraySpec& a : inner_spec_.info) info_scratch_.emplace_back(a.NumBytes());
      for (std::vector<std::byte>& s : info_scratch_) info_scratch_ptrs_.push_back(s.data());
    }
    if (options_.pixels_only || stacks_state_) {
      for (const ArraySpec& a : inner_spec_.obs) scratch_.emplace_back(a.NumBytes());
      for (std::vector<std::byte>& s : scratch_) scratch_ptrs_.push_back(s.data());
    }
    if (!options_.enabled) return;
    const FrameSize f = E::RenderSize(p.inner, options_.width, options_.height,
                                      options_.camera_id);
    width_ = f.width;
    height_ = f.height;
    plane_ = static_cast<std::size_t>(f.width) * static_cast<std::size_t>(f.height);
    drawn_.resize(3 * plane_);
    stack_.resize(3 * plane_ * static_cast<std::size_t>(options_.frame_stack));
  }

  void Seed(std::uint64_t seed) override { inner_.Seed(seed); }

  void Reset(Rng& rng) override {
    inner_.Reset(rng);
    if (stacks_state_) {
      CaptureNewest();
      for (std::size_t i = 0; i < history_.size(); ++i) {
        const std::size_t row = scratch_[i].size();
        for (std::size_t off = 0; off + row < history_[i].size(); off += row) {
          std::copy(history_[i].end() - static_cast<std::ptrdiff_t>(row), history_[i].end(),
                    history_[i].begin() + static_cast<std::ptrdiff_t>(off));
        }
      }
    }
    if (!options_.enabled) return;
    DrawNewest();
    const std::size_t frame = 3 * plane_;
    auto newest = stack_.end() - static_cast<std::ptrdiff_t>(frame);
    for (auto it = stack_.begin(); it != newest; it += static_cast<std::ptrdiff_t>(frame)) {
      std::copy(newest, stack_.end(), it);
    }
  }

  StepOutcome Step(const ActionView& action, Rng& rng) override {
    const StepOutcome out = inner_.Step(action, rng);
    if (stacks_state_) {
      for (std::size_t i = 0; i < history_.size(); ++i) {
        std::copy(history_[i].begin() + static_cast<std::ptrdiff_t>(scratch_[i].size()),
                  history_[i].end(), history_[i].begin());
      }
      CaptureNewest();
    }
    if (options_.enabled) {
      std::copy(stack_.begin() + static_cast<std::ptrdiff_t>(3 * plane_), stack_.end(),
                stack_.begin());
      DrawNewest();
    }
    return out;
  }

  void Write(const Slot& slot) const override {
    if (!options_.enabled && !stacks_state_) {
      inner_.Write(slot);
      return;
    }
    const bool frames_only = options_.enabled && options_.pixels_only;
    if (frames_only || stacks_state_) {
      // E writes the row's infos; its observation goes to the scratch arrays (not observed,
      // or observed through the history).
      inner_.Write(slot.WithObs(scratch_ptrs_.data(), &inner_spec_));
    } else {
      inner_.Write(slot);
    }
    for (std::size_t i = 0; i < history_.size(); ++i) {
      std::copy(history_[i].begin(), history_[i].end(), slot.ObsBytes(i));
    }
    if (options_.enabled) {
      const std::size_t field = frames_only ? 0 : inner_spec_.obs.size();
      std::copy(stack_.begin(), stack_.end(), slot.Obs<std::uint8_t>(field));
    }
  }

  std::vector<double> GetState() const override { return inner_.GetState(); }
  // The state set, the newest frame is drawn from it (the older ones stay).
  void SetState(const std::vector<double>& state) override {
    inner_.SetState(state);
    if (stacks_state_) CaptureNewest();
    if (options_.enabled) DrawNewest();
  }

  void Render(int width, int height, int camera_id, std::uint8_t* out) override {
    inner_.Render(width, height, camera_id, out);
  }

 private:
  static bool InnerStacks() { return E::Defaults().Has("frame_stack"); }
  // Whether this wrapper stacks E's state arrays: frame_stack > 1, E does not stack them
  // itself, and they are observed.
  static bool StacksState(const PixelOptions& o) {
    return o.frame_stack > 1 && !InnerStacks() && !(o.enabled && o.pixels_only);
  }

  // E's observation of its current state into the last row of each array's history.
  void CaptureNewest() {
    inner_.Write(Slot(scratch_ptrs_.data(), info_scratch_ptrs_.data(), &inner_spec_));
    for (std::size_t i = 0; i < history_.size(); ++i) {
      std::copy(scratch_[i].begin(), scratch_[i].end(),
                history_[i].end() - static_cast<std::ptrdiff_t>(scratch_[i].size()));
    }
  }

  // Draws the current state into the last frame of the stack, channel-first.
  void DrawNewest() {
    const StageScope draw(stage_clock(), Stage::kDraw);
    inner_.Render(width_, height_, options_.camera_id, drawn_.data());
    std::uint8_t* r = stack_.data() + stack_.size() - 3 * plane_;
    std::uint8_t* g = r + plane_;
    std::uint8_t* b = g + plane_;
    const std::uint8_t* src = drawn_.data();
    for (std::size_t i = 0; i < plane_; ++i, src += 3) {
      r[i] = src[0];
      g[i] = src[1];
      b[i] = src[2];
    }
  }

  E inner_;
  PixelOptions options_;
  EnvSpec inner_spec_;
  int width_ = 0, height_ = 0;
  std::size_t plane_ = 0;              // pixels in one frame
  std::vector<std::uint8_t> drawn_;    // the last frame drawn, height x width x 3
  std::vector<std::uint8_t> stack_;    // frame_stack frames, (3k, height, width)
  bool stacks_state_;
  // stacks_state_: each state array's last frame_stack observations, oldest first
  std::vector<std::vector<std::byte>> history_;
  // pixels_only or stacks_state_: where E writes the observation arrays (not observed, or
  // copied into the history), and with stacks_state_ its infos outside a batch row
  std::vector<std::vector<std::byte>> scratch_;
  std::vector<std::byte*> scratch_ptrs_;
  std::vector<std::vector<std::byte>> info_scratch_;
  std::vector<std::byte*> info_scratch_ptrs_;
};

}  // namespace envpool
