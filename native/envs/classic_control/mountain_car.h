// MountainCar-v0: gymnasium's classic_control/mountain_car.py, same arithmetic
// in the same order (double precision state, float32 observation).
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "core/env.h"
#include "envs/classic_control/mountain_car_picture.h"
#include "envs/common/draw/picture.h"

namespace envpool::classic_control {

class MountainCar final : public Env {
 public:
  struct Params {
    explicit Params(const Config& config) : goal_velocity(config.GetDouble("goal_velocity")) {}
    double goal_velocity;
  };

  static Config Defaults() {
    Config config;
    config.Set("goal_velocity", 0.0);
    return config;
  }

  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("obs", DType::kFloat32, {2},
                               {static_cast<float>(kMinPosition), static_cast<float>(-kMaxSpeed)},
                               {static_cast<float>(kMaxPosition), static_cast<float>(kMaxSpeed)}));
    spec.action = DiscreteSpec("action", 3, DType::kInt32);
    return spec;
  }

  // render(): gymnasium's 600 x 400 picture (MountainCarEnv.render, rgb_array), see
  // mountain_car_picture.h.
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return draw::FixedFrame("MountainCar", kMountainCarWidth, kMountainCarHeight, 30.0, width,
                            height, camera_id);
  }
  void Render(int /*width*/, int /*height*/, int /*camera_id*/, std::uint8_t* out) override {
    DrawMountainCar(state_[0], kGoalPosition, out);
  }

  explicit MountainCar(const Params& params) : params_(params) {}

  void Reset(Rng& rng) override { state_ = {rng.Uniform(-0.6, -0.4), 0.0}; }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    double position = state_[0];
    double velocity = state_[1];
    const auto a = static_cast<double>(action.Scalar<std::int32_t>());
    velocity += (a - 1) * kForce + std::cos(3 * position) * (-kGravity);
    velocity = Clip(velocity, -kMaxSpeed, kMaxSpeed);
    position += velocity;
    position = Clip(position, kMinPosition, kMaxPosition);
    if (position == kMinPosition && velocity < 0) velocity = 0;
    StepOutcome out;
    out.terminated = position >= kGoalPosition && velocity >= params_.goal_velocity;
    out.reward = -1.0;
    state_ = {position, velocity};
    return out;
  }

  // {position, velocity}.
  std::vector<double> GetState() const override { return {state_[0], state_[1]}; }
  void SetState(const std::vector<double>& state) override {
    if (state.size() != 2) throw std::invalid_argument("MountainCar state has 2 numbers");
    state_ = {state[0], state[1]};
  }

  void Write(const Slot& slot) const override {
    float* obs = slot.Obs<float>();
    obs[0] = static_cast<float>(state_[0]);
    obs[1] = static_cast<float>(state_[1]);
  }

 private:
  // np.clip on a scalar: max with the low bound, then min with the high one.
  static double Clip(double x, double low, double high) {
    const double y = x < low ? low : x;
    return y > high ? high : y;
  }

  static constexpr double kMinPosition = -1.2;
  static constexpr double kMaxPosition = 0.6;
  static constexpr double kMaxSpeed = 0.07;
  static constexpr double kGoalPosition = 0.5;
  static constexpr double kForce = 0.001;
  static constexpr double kGravity = 0.0025;

  Params params_;
  std::array<double, 2> state_{};
};

}  // namespace envpool::classic_control
