// CartPole-v0/v1: gymnasium's classic_control/cartpole.py, same arithmetic in
// the same order (double precision state, float32 observation).
#pragma once

#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/env.h"
#include "envs/common/draw/picture.h"
#include "envs/common/draw/raster.h"

namespace envpool::classic_control {

class CartPole final : public Env {
 public:
  struct Params {
    explicit Params(const Config& config)
        : sutton_barto_reward(config.GetBool("sutton_barto_reward")) {}
    bool sutton_barto_reward;
  };

  static Config Defaults() {
    Config config;
    config.Set("sutton_barto_reward", false);
    return config;
  }

  static EnvSpec MakeSpec(const Params& /*params*/) {
    const double theta_threshold = 12 * 2 * M_PI / 360;
    const double inf = INFINITY;
    const auto high = {static_cast<double>(static_cast<float>(2 * kXThreshold)), inf,
                       static_cast<double>(static_cast<float>(theta_threshold * 2)), inf};
    EnvSpec spec;
    ArraySpec obs = BoxSpec("obs", DType::kFloat32, {4}, {}, high);
    for (double h : high) obs.low.push_back(-h);
    spec.obs.push_back(obs);
    spec.action = DiscreteSpec("action", 2, DType::kInt32);
    return spec;
  }

  // render(): gymnasium's 600 x 400 picture (CartPoleEnv.render, rgb_array), drawn as
  // its pygame.gfxdraw calls draw it, anti-aliased outlines included. One size, one view.
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return draw::FixedFrame("CartPole", kScreenWidth, kScreenHeight, 50.0, width, height,
                            camera_id);
  }

  void Render(int /*width*/, int /*height*/, int /*camera_id*/, std::uint8_t* out) override {
    draw::Canvas canvas(kScreenWidth, kScreenHeight, out);
    canvas.Fill({255, 255, 255});
    const double scale = kScreenWidth / (kXThreshold * 2);
    const double polewidth = 10.0, polelen = scale * (2 * kLength);
    const double cartwidth = 50.0, cartheight = 30.0, axleoffset = cartheight / 4.0;
    const double cartx = state_[0] * scale + kScreenWidth / 2.0;
    const double carty = 100;
    auto point = [](double x, double y) {
      return std::array<int, 2>{static_cast<int>(x), static_cast<int>(y)};
    };
    const double l = -cartwidth / 2, r = cartwidth / 2, t = cartheight / 2, b = -cartheight / 2;
    canvas.OutlinedPolygon({point(l + cartx, b + carty), point(l + cartx, t + carty),
                            point(r + cartx, t + carty), point(r + cartx, b + carty)},
                           {0, 0, 0});
    // pygame's Vector2.rotate_rad(-theta), then moved to the axle.
    const double pl = -polewidth / 2, pr = polewidth / 2, pt = polelen - polewidth / 2,
                 pb = -polewidth / 2;
    std::vector<std::array<int, 2>> pole;
    for (const auto& [px, py] : {std::array<double, 2>{pl, pb}, std::array<double, 2>{pl, pt},
                                 std::array<double, 2>{pr, pt}, std::array<double, 2>{pr, pb}}) {
      const auto c = draw::RotateRad(px, py, -state_[2]);
      pole.push_back(point(c[0] + cartx, c[1] + carty + axleoffset));
    }
    canvas.OutlinedPolygon(pole, {202, 152, 101});
    canvas.OutlinedCircle(static_cast<int>(cartx), static_cast<int>(carty + axleoffset),
                          static_cast<int>(polewidth / 2), {129, 132, 203});
    canvas.HLine(0, kScreenWidth, static_cast<int>(carty), {0, 0, 0});
    canvas.FlipRows();
  }

  explicit CartPole(const Params& params) : params_(params) {}

  void Reset(Rng& rng) override {
    for (double& s : state_) s = rng.Uniform(-0.05, 0.05);
    terminated_before_ = false;
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    double x = state_[0], x_dot = state_[1], theta = state_[2], theta_dot = state_[3];
    const double force = action.Scalar<std::int32_t>() == 1 ? kForceMag : -kForceMag;
    const double costheta = std::cos(theta);
    const double sintheta = std::sin(theta);
    const double temp = (force + kPoleMassLength * (theta_dot * theta_dot) * sintheta) / kTotalMass;
    const double thetaacc =
        (kGravity * sintheta - costheta * temp) /
        (kLength * (4.0 / 3.0 - kMassPole * (costheta * costheta) / kTotalMass));
    const double xacc = temp - kPoleMassLength * thetaacc * costheta / kTotalMass;
    x = x + kTau * x_dot;
    x_dot = x_dot + kTau * xacc;
    theta = theta + kTau * theta_dot;
    theta_dot = theta_dot + kTau * thetaacc;
    state_ = {x, x_dot, theta, theta_dot};

    const double theta_threshold = 12 * 2 * M_PI / 360;
    StepOutcome out;
    out.terminated = x < -kXThreshold || x > kXThreshold || theta < -theta_threshold ||
                     theta > theta_threshold;
    if (!out.terminated) {
      out.reward = params_.sutton_barto_reward ? 0.0 : 1.0;
    } else if (!terminated_before_) {
      terminated_before_ = true;
      out.reward = params_.sutton_barto_reward ? -1.0 : 1.0;
    } else {
      out.reward = params_.sutton_barto_reward ? -1.0 : 0.0;
    }
    return out;
  }

  std::vector<double> GetState() const override {
    return {state_[0], state_[1], state_[2], state_[3]};
  }
  void SetState(const std::vector<double>& state) override {
    if (state.size() != 4) throw std::invalid_argument("CartPole state has 4 numbers");
    for (int i = 0; i < 4; ++i) state_[i] = state[i];
    terminated_before_ = false;
  }

  void Write(const Slot& slot) const override {
    float* obs = slot.Obs<float>();
    for (int i = 0; i < 4; ++i) obs[i] = static_cast<float>(state_[i]);
  }

 private:
  static constexpr double kGravity = 9.8;
  static constexpr double kMassCart = 1.0;
  static constexpr double kMassPole = 0.1;
  static constexpr double kTotalMass = kMassPole + kMassCart;
  static constexpr double kLength = 0.5;
  static constexpr double kPoleMassLength = kMassPole * kLength;
  static constexpr double kForceMag = 10.0;
  static constexpr double kTau = 0.02;
  static constexpr double kXThreshold = 2.4;
  static constexpr int kScreenWidth = 600;
  static constexpr int kScreenHeight = 400;

  Params params_;
  std::array<double, 4> state_{};
  bool terminated_before_ = false;
};

}  // namespace envpool::classic_control
