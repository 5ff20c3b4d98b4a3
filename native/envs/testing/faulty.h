// _Faulty: an env for testing the pool from Python, not a task. It counts
// steps, can sleep in every step (slow envs: timeouts, Ctrl-C, async order)
// and can throw at a given step (errors raised inside worker threads).
//   obs = [steps since reset, a number drawn from the env's rng at reset]
//   reward = the action; terminates after `episode_length` steps.
// It renders a 2 x 3 frame (or render_height x render_width) whose every byte
// is the steps since reset; a render can sleep (`render_sleep_us`: are frames
// drawn in parallel?) or throw while the env is at step `fail_render_at`.
#pragma once

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include "core/env.h"

namespace envpool::testing {

class Faulty final : public Env {
 public:
  struct Params {
    explicit Params(const Config& config)
        : episode_length(config.GetInt("episode_length")),
          fail_at_step(config.GetInt("fail_at_step")),
          step_sleep_us(config.GetInt("step_sleep_us")),
          render_sleep_us(config.GetInt("render_sleep_us")),
          fail_render_at(config.GetInt("fail_render_at")) {
      if (episode_length < 1) throw std::invalid_argument("episode_length must be >= 1");
    }
    std::int64_t episode_length, fail_at_step, step_sleep_us, render_sleep_us, fail_render_at;
  };

  static Config Defaults() {
    Config config;
    config.Set("episode_length", std::int64_t{10});
    config.Set("fail_at_step", std::int64_t{0});  // 0: never
    config.Set("step_sleep_us", std::int64_t{0});
    config.Set("render_sleep_us", std::int64_t{0});
    config.Set("fail_render_at", std::int64_t{-1});  // -1: never
    return config;
  }

  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("obs", DType::kFloat64, {2}));
    spec.action = DiscreteSpec("action", 3, DType::kInt32);
    spec.info.push_back(BoxSpec("total_steps", DType::kInt64, {}));
    return spec;
  }

  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    if (camera_id != -1) throw std::invalid_argument("camera_id must be -1");
    return FrameSize{height == 0 ? 2 : height, width == 0 ? 3 : width, 30.0};
  }

  void Render(int width, int height, int /*camera_id*/, std::uint8_t* out) override {
    if (params_.render_sleep_us > 0) {
      std::this_thread::sleep_for(std::chrono::microseconds(params_.render_sleep_us));
    }
    if (steps_ == params_.fail_render_at) {
      throw std::runtime_error("faulty env failed to render at step " + std::to_string(steps_));
    }
    const FrameSize size = RenderSize(params_, width, height, -1);
    std::fill(out, out + static_cast<std::size_t>(size.height) * size.width * 3,
              static_cast<std::uint8_t>(steps_));
  }

  explicit Faulty(const Params& params) : params_(params) {}

  void Reset(Rng& rng) override {
    steps_ = 0;
    draw_ = rng.Uniform01();
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    if (params_.step_sleep_us > 0) {
      std::this_thread::sleep_for(std::chrono::microseconds(params_.step_sleep_us));
    }
    ++steps_;
    ++total_steps_;
    if (params_.fail_at_step > 0 && total_steps_ == params_.fail_at_step) {
      throw std::runtime_error("faulty env failed at step " + std::to_string(total_steps_));
    }
    StepOutcome out;
    out.reward = action.Scalar<std::int32_t>();
    out.terminated = steps_ >= params_.episode_length;
    return out;
  }

  void Write(const Slot& slot) const override {
    slot.Obs<double>()[0] = static_cast<double>(steps_);
    slot.Obs<double>()[1] = draw_;
    *slot.Info<std::int64_t>(0) = total_steps_;
  }

 private:
  Params params_;
  std::int64_t steps_ = 0;
  std::int64_t total_steps_ = 0;
  double draw_ = 0.0;
};

}  // namespace envpool::testing
