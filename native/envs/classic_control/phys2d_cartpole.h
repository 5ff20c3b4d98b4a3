// phys2d/CartPole-v0/v1: gymnasium 1.4's envs/phys2d/cartpole.py (CartPoleFunctional
// run by FunctionalJaxEnv), not the classic CartPole: float32 state, its own constants
// (polemass_length = masspole + length = 0.6) and a reset state drawn with jax.random
// (uniform in [-0.05, 0.05)^4), bit for bit as jax computes them.
//
// The arithmetic is XLA's, as jax 0.10 compiles transition() for an x86-64 CPU: divisions
// by the constant total_mass become products with float32(1 / 1.1) (and 0.1 times that),
// and, where XLA may use FMA instructions, LLVM contracts a product feeding one sum into a
// fused multiply-add (MulAdd here: jax_random::Phys2dEnv; two roundings elsewhere). transition() compiles to two fused
// kernels, thetaacc and the new state, and each computes `temp` itself (the same way).
// sin and cos are libm's (XLA calls sincosf). Reward 1 every step (sutton_barto_reward is
// not reachable from gymnasium.make: the functional env takes no keywords); terminated
// when |x| > 2.4 or |theta| > 12 degrees, compared in float32.
//
// State (GetState/SetState): [x, x_dot, theta, theta_dot] (float32 values), then the
// jax key's two words (SetState also takes the four numbers alone and keeps the key).
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/env.h"
#include "envs/common/jax_random.h"

namespace envpool::classic_control {

class Phys2dCartPole final : public jax_random::Phys2dEnv {
 public:
  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec;
    spec.obs.push_back(UnboundedObs(4));
    spec.action = DiscreteSpec("action", 2, DType::kInt32);
    spec.reward_low = 1.0;
    spec.reward_high = 1.0;
    return spec;
  }

  explicit Phys2dCartPole(const Params& params) : Phys2dEnv(params) {}

  // initial(): jax.random.uniform(key, (4,), minval=-0.05, maxval=0.05).
  void Reset(Rng& /*rng*/) override {
    const jax_random::Key key = NextKey();
    for (std::uint32_t i = 0; i < 4; ++i) {
      state_[i] = Uniform(key, i, -kXInit, kXInit);
    }
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    NextKey();  // (the step's key: transition() does not use it)
    const float x = state_[0], x_dot = state_[1], theta = state_[2], theta_dot = state_[3];
    // force = jnp.sign(action - 0.5) * force_mag
    const float shifted = static_cast<float>(action.Scalar<std::int32_t>()) + -0.5F;
    const float sign = shifted > 0 ? 1.0F : (shifted < 0 ? -1.0F : shifted);
    const float force = sign * kForceMag;
    const float sintheta = std::sin(theta);
    const float costheta = std::cos(theta);
    // temp = (force + polemass_length * theta_dot**2 * sintheta) / total_mass
    const float temp_sum = MulAdd(theta_dot * theta_dot * kPolemassLength, sintheta, force);
    // thetaacc = (gravity * sintheta - costheta * temp)
    //            / (length * (4.0 / 3.0 - masspole * costheta**2 / total_mass))
    const float temp = temp_sum * kInvTotalMass;
    const float numerator = MulAdd(sintheta, kGravity, -(costheta * temp));
    const float denominator =
        MulAdd(costheta * costheta, -kMasspoleOverTotalMass, kFourThirds) * kLength;
    const float thetaacc = numerator / denominator;
    // xacc = temp - polemass_length * thetaacc * costheta / total_mass
    const float xacc =
        MulAdd(temp_sum, kInvTotalMass, -(thetaacc * kPolemassLength * costheta * kInvTotalMass));
    state_ = {MulAdd(x_dot, kTau, x), MulAdd(xacc, kTau, x_dot),
              MulAdd(theta_dot, kTau, theta), MulAdd(kTau, thetaacc, theta_dot)};

    StepOutcome out;
    out.reward = 1.0;
    const float xs = state_[0], thetas = state_[2];
    out.terminated = xs < -kXThreshold || xs > kXThreshold || thetas < -kThetaThreshold ||
                     thetas > kThetaThreshold;
    return out;
  }

  std::vector<double> GetState() const override {
    return WithKey({state_[0], state_[1], state_[2], state_[3]});
  }
  void SetState(const std::vector<double>& state) override {
    ReadKey(state, 4, "phys2d CartPole");
    for (std::size_t i = 0; i < 4; ++i) state_[i] = static_cast<float>(state[i]);
  }

  void Write(const Slot& slot) const override {
    float* obs = slot.Obs<float>();
    for (std::size_t i = 0; i < 4; ++i) obs[i] = state_[i];
  }

 private:
  // CartPoleParams, as the float32 constants XLA folds them into.
  static constexpr float kGravity = 9.8F;
  static constexpr float kLength = 0.5F;
  static constexpr float kPolemassLength = static_cast<float>(0.1 + 0.5);
  static constexpr float kInvTotalMass = 1.0F / static_cast<float>(0.1 + 1.0);
  // XLA folds (cos**2 * 0.1) * (1 / 1.1) into cos**2 * (0.1 * (1 / 1.1)), in float32.
  static constexpr float kMasspoleOverTotalMass = 0.1F * kInvTotalMass;
  static constexpr float kFourThirds = static_cast<float>(4.0 / 3.0);
  static constexpr float kForceMag = 10.0F;
  static constexpr float kTau = 0.02F;
  static constexpr float kXThreshold = 2.4F;
  static constexpr float kThetaThreshold = static_cast<float>(12 * 2 * M_PI / 360);
  static constexpr float kXInit = 0.05F;

  std::array<float, 4> state_{};
};

}  // namespace envpool::classic_control
