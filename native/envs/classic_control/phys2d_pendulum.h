// phys2d/Pendulum-v0: gymnasium 1.4's envs/phys2d/pendulum.py (PendulumFunctional run
// by FunctionalJaxEnv), not the classic Pendulum: float32 state [theta, theta_dot], drawn
// at reset with jax.random (uniform in [-pi, pi) x [-1, 1)), and float32 arithmetic bit
// for bit as XLA compiles it for an x86-64 CPU (jax 0.10): a product feeding one sum is
// a fused multiply-add where XLA may use FMA instructions (MulAdd here:
// jax_random::Phys2dEnv; two roundings elsewhere), the constants are folded (3 * g / (2 * l) = 15,
// 3 / (m * l**2) = 3), sin, cos and fmod are libm's (sinf, cosf, fmodf). The reward is
// computed from the state before the step and the clipped action:
// -(angle_normalize(th)**2 + 0.1 * thdot**2 + 0.001 * u**2), with jnp's float32 floor
// remainder. Never terminates (the time limit, 200, is the pool's).
//
// State (GetState/SetState): [theta, theta_dot] (float32 values), then the jax key's two
// words (SetState also takes the two numbers alone and keeps the key).
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/env.h"
#include "envs/common/jax_random.h"

namespace envpool::classic_control {

class Phys2dPendulum final : public jax_random::Phys2dEnv {
 public:
  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec;
    spec.obs.push_back(UnboundedObs(3));
    spec.action = BoxSpec("action", DType::kFloat32, {1}, {-kMaxTorque}, {kMaxTorque});
    return spec;
  }

  explicit Phys2dPendulum(const Params& params) : Phys2dEnv(params) {}

  // initial(): jax.random.uniform(key, (2,), minval=-high, maxval=high), high = [pi, 1].
  void Reset(Rng& /*rng*/) override {
    const jax_random::Key key = NextKey();
    state_ = {Uniform(key, 0, -kPi, kPi), Uniform(key, 1, -1, 1)};
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    NextKey();  // (the step's key: transition() does not use it)
    const float th = state_[0], thdot = state_[1];
    const float u = Clip(action.As<float>()[0], kMaxTorque);
    // newthdot = thdot + (3 * g / (2 * l) * sin(th) + 3.0 / (m * l**2) * u) * dt
    const float accel = MulAdd(std::sin(th), 15.0F, u * 3.0F);
    const float newthdot = Clip(MulAdd(accel, kDt, thdot), kMaxSpeed);
    state_ = {MulAdd(newthdot, kDt, th), newthdot};

    // costs = th_normalized**2 + 0.1 * thdot**2 + 0.001 * (u**2), th_normalized =
    // ((th + pi) % (2 * pi)) - pi: fmodf, moved up by 2 pi when negative.
    float mod = std::fmod(th + kPi, kTwoPi);
    if (mod < 0) mod = mod + kTwoPi;
    const float normalized = mod + -kPi;
    const float costs =
        MulAdd(u * u, 0.001F, MulAdd(thdot * thdot, 0.1F, normalized * normalized));
    StepOutcome out;
    out.reward = static_cast<double>(-costs);
    return out;
  }

  std::vector<double> GetState() const override { return WithKey({state_[0], state_[1]}); }
  void SetState(const std::vector<double>& state) override {
    ReadKey(state, 2, "phys2d Pendulum");
    state_ = {static_cast<float>(state[0]), static_cast<float>(state[1])};
  }

  void Write(const Slot& slot) const override {
    float* obs = slot.Obs<float>();
    obs[0] = std::cos(state_[0]);
    obs[1] = std::sin(state_[0]);
    obs[2] = state_[1];
  }

 private:
  // jnp.clip(v, -limit, limit) as XLA's max then min: a NaN stays NaN.
  static float Clip(float v, float limit) {
    const float low = -limit > v ? -limit : v;
    return limit < low ? limit : low;
  }

  static constexpr float kMaxTorque = 2.0F;
  static constexpr float kMaxSpeed = 8.0F;
  static constexpr float kDt = 0.05F;
  static constexpr float kPi = static_cast<float>(M_PI);
  static constexpr float kTwoPi = static_cast<float>(2 * M_PI);

  std::array<float, 2> state_{};
};

}  // namespace envpool::classic_control
