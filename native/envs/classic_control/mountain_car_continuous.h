// MountainCarContinuous-v0: gymnasium's classic_control/continuous_mountain_car.py,
// same arithmetic in the same order, including NumPy 2's promotion rules.
//
// gymnasium stores the state as float64 after reset but as a float32 array
// after every step, and mixes it with a float32 action and Python floats
// (which NumPy casts to the float32 operand's type). So a step does float64
// or float32 arithmetic depending on where the state came from; this class
// keeps the state in doubles plus `f32_state_`, which says the state is a
// float32 array in gymnasium's terms. SetState() mirrors
// `env.unwrapped.state = np.array(state)`, a float64 array.
#pragma once

#include <array>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "core/env.h"
#include "envs/classic_control/mountain_car_picture.h"
#include "envs/common/draw/picture.h"
#include "envs/common/py_math.h"

namespace envpool::classic_control {

class MountainCarContinuous final : public Env {
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
    spec.action = BoxSpec("action", DType::kFloat32, {1}, {kMinAction}, {kMaxAction});
    return spec;
  }

  // render(): gymnasium's 600 x 400 picture (Continuous_MountainCarEnv.render), in float32
  // arithmetic when gymnasium's state is a float32 array (after a step).
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return draw::FixedFrame("MountainCarContinuous", kMountainCarWidth, kMountainCarHeight, 30.0,
                            width, height, camera_id);
  }
  void Render(int /*width*/, int /*height*/, int /*camera_id*/, std::uint8_t* out) override {
    if (f32_state_) {
      DrawMountainCar(static_cast<float>(state_[0]), kGoalPosition, out);
    } else {
      DrawMountainCar(state_[0], kGoalPosition, out);
    }
  }

  explicit MountainCarContinuous(const Params& params) : params_(params) {}

  void Reset(Rng& rng) override {
    state_ = {rng.Uniform(-0.6, -0.4), 0.0};
    f32_state_ = false;
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const float act = action.As<float>()[0];
    // `force = min(max(action[0], min_action), max_action)`: the float32
    // action itself, or a Python float bound.
    Num force{static_cast<double>(act), true};
    if (static_cast<float>(kMinAction) > act) force = {kMinAction, false};
    if (static_cast<float>(kMaxAction) < static_cast<float>(force.v)) force = {kMaxAction, false};

    Num position{state_[0], f32_state_};
    Num velocity{state_[1], f32_state_};

    // velocity += force * power - 0.0025 * math.cos(3 * position)
    const double three_pos =
        position.f32 ? static_cast<double>(3.0F * static_cast<float>(position.v)) : 3 * position.v;
    const double gravity_term = 0.0025 * std::cos(three_pos);
    Num increment{};
    if (force.f32) {
      const float pushed = static_cast<float>(force.v) * static_cast<float>(kPower);
      increment = {static_cast<double>(pushed - static_cast<float>(gravity_term)), true};
    } else {
      increment = {force.v * kPower - gravity_term, false};
    }
    velocity = Add(velocity, increment);
    if (Greater(velocity, kMaxSpeed)) velocity = {kMaxSpeed, false};
    if (Less(velocity, -kMaxSpeed)) velocity = {-kMaxSpeed, false};

    position = Add(position, velocity);
    if (Greater(position, kMaxPosition)) position = {kMaxPosition, false};
    if (Less(position, kMinPosition)) position = {kMinPosition, false};
    if (Equal(position, kMinPosition) && velocity.v < 0) velocity = {0.0, false};

    StepOutcome out;
    out.terminated =
        GreaterEqual(position, kGoalPosition) && GreaterEqual(velocity, params_.goal_velocity);
    // reward = 0 (or 100.0); reward -= math.pow(action[0], 2) * 0.1
    out.reward = out.terminated ? 100.0 : 0.0;
    out.reward -= PyPow2(static_cast<double>(act)) * 0.1;

    // self.state = np.array([position, velocity], dtype=np.float32)
    state_ = {RoundToFloat(position.v), RoundToFloat(velocity.v)};
    f32_state_ = true;
    return out;
  }

  // {position, velocity}.
  std::vector<double> GetState() const override { return {state_[0], state_[1]}; }
  void SetState(const std::vector<double>& state) override {
    if (state.size() != 2) {
      throw std::invalid_argument("MountainCarContinuous state has 2 numbers");
    }
    state_ = {state[0], state[1]};
    f32_state_ = false;
  }

  void Write(const Slot& slot) const override {
    float* obs = slot.Obs<float>();
    obs[0] = static_cast<float>(state_[0]);
    obs[1] = static_cast<float>(state_[1]);
  }

 private:
  // A number with the NumPy type it has in gymnasium: a float32 scalar, or a
  // float64 scalar / Python float / int (all of which do double arithmetic).
  struct Num {
    double v;
    bool f32;
  };

  // `a + b` where a is a NumPy scalar: float32 + float32 or + Python float
  // (cast to float32) is float32; float64 + anything is float64. (b is never
  // a float64 scalar when a is a float32 one.)
  static Num Add(const Num& a, const Num& b) {
    if (!a.f32) return {a.v + b.v, false};
    return {static_cast<double>(static_cast<float>(a.v) + static_cast<float>(b.v)), true};
  }
  // Comparisons of a float32 scalar with a Python float are done in float32.
  static bool Greater(const Num& a, double b) {
    return a.f32 ? static_cast<float>(a.v) > static_cast<float>(b) : a.v > b;
  }
  static bool Less(const Num& a, double b) {
    return a.f32 ? static_cast<float>(a.v) < static_cast<float>(b) : a.v < b;
  }
  static bool Equal(const Num& a, double b) {
    return a.f32 ? static_cast<float>(a.v) == static_cast<float>(b) : a.v == b;
  }
  static bool GreaterEqual(const Num& a, double b) {
    return a.f32 ? static_cast<float>(a.v) >= static_cast<float>(b) : a.v >= b;
  }
  // static_cast<float>, kept out of the optimizer's reach: GCC 12.2's SLP
  // vectorizer drops `(double)(float)x` here at -O2/-O3 when x merges a
  // float32 and a float64 branch (reproduced; -fno-tree-slp-vectorize or
  // -O1 keep it), leaving the state unrounded.
  static double RoundToFloat(double x) {
    volatile float rounded = static_cast<float>(x);
    return rounded;
  }

  static constexpr double kMinAction = -1.0;
  static constexpr double kMaxAction = 1.0;
  static constexpr double kMinPosition = -1.2;
  static constexpr double kMaxPosition = 0.6;
  static constexpr double kMaxSpeed = 0.07;
  static constexpr double kGoalPosition = 0.45;
  static constexpr double kPower = 0.0015;

  Params params_;
  std::array<double, 2> state_{};
  bool f32_state_ = false;
};

}  // namespace envpool::classic_control
