// Pendulum-v1: gymnasium's classic_control/pendulum.py, same arithmetic in
// the same order (double precision state, float32 observation). The action
// is a float32 array, so under NumPy 2's promotion rules the terms that only
// involve it (`u ** 2`, `0.001 * u**2`, `3.0 / (m * l**2) * u`) are float32.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <stdexcept>
#include <vector>

#include "core/env.h"
#include "envs/common/draw/picture.h"
#include "envs/common/draw/png.h"
#include "envs/common/draw/raster.h"
#include "envs/common/py_math.h"

namespace envpool::classic_control {

class Pendulum final : public Env {
 public:
  struct Params {
    explicit Params(const Config& config)
        : g(config.GetDouble("g")), arrow_png(config.GetString("_arrow_png")) {}
    double g;
    // gymnasium's assets/clockwise.png (set by envpool.tasks.classic_control); "": no arrow.
    std::string arrow_png;
  };

  static Config Defaults() {
    Config config;
    config.Set("g", 10.0);
    config.Set("_arrow_png", std::string());
    return config;
  }

  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("obs", DType::kFloat32, {3}, {-1.0, -1.0, -kMaxSpeed},
                               {1.0, 1.0, kMaxSpeed}));
    spec.action = BoxSpec("action", DType::kFloat32, {1}, {-kMaxTorque}, {kMaxTorque});
    return spec;
  }

  // render(): gymnasium's 500 x 500 picture (PendulumEnv.render, rgb_array): the rod, its two
  // round ends, after a step the arrow image (gymnasium's assets/clockwise.png, read on the
  // first render that needs it, smooth-scaled to |last action|, flipped to its sign and
  // alpha-blended as pygame does) and the axle, each shape with its anti-aliased outline.
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return draw::FixedFrame("Pendulum", kScreenDim, kScreenDim, 30.0, width, height, camera_id);
  }
  void Render(int /*width*/, int /*height*/, int /*camera_id*/, std::uint8_t* out) override {
    draw::Canvas canvas(kScreenDim, kScreenDim, out);
    canvas.Fill({255, 255, 255});
    const double scale = kScreenDim / (2.2 * 2);
    const int offset = kScreenDim / 2;
    const double rod_length = 1 * scale, rod_width = 0.2 * scale;
    const double l = 0, r = rod_length, t = rod_width / 2, b = -rod_width / 2;
    const double angle = state_[0] + M_PI / 2;
    const draw::Rgb red = {204, 77, 77};
    std::vector<std::array<int, 2>> rod;
    for (const auto& [cx, cy] : {std::array<double, 2>{l, b}, std::array<double, 2>{l, t},
                                 std::array<double, 2>{r, t}, std::array<double, 2>{r, b}}) {
      const auto c = draw::RotateRad(cx, cy, angle);
      rod.push_back({static_cast<int>(c[0] + offset), static_cast<int>(c[1] + offset)});
    }
    canvas.OutlinedPolygon(rod, red);
    canvas.OutlinedCircle(offset, offset, static_cast<int>(rod_width / 2), red);
    const auto end = draw::RotateRad(rod_length, 0, angle);
    canvas.OutlinedCircle(static_cast<int>(end[0] + offset), static_cast<int>(end[1] + offset),
                          static_cast<int>(rod_width / 2), red);
    if (last_u_ && !params_.arrow_png.empty()) {
      if (!arrow_) {
        arrow_ = std::make_shared<const draw::RgbaImage>(draw::ReadRgbaPng(params_.arrow_png));
      }
      // float(scale * np.abs(last_u) / 2), all float32 (last_u is a float32), then truncated
      const int size = static_cast<int>(static_cast<float>(scale) * std::fabs(*last_u_) / 2.0F);
      draw::RgbaImage arrow = draw::SmoothShrink(*arrow_, std::min(size, arrow_->width),
                                                 std::min(size, arrow_->height));
      draw::FlipImage(&arrow, *last_u_ > 0, true);
      canvas.Blit(arrow, offset - arrow.width / 2, offset - arrow.height / 2);
    }
    canvas.OutlinedCircle(offset, offset, static_cast<int>(0.05 * scale), {0, 0, 0});
    canvas.FlipRows();
  }

  explicit Pendulum(const Params& params) : params_(params) {}

  void Reset(Rng& rng) override {
    // np_random.uniform(low=-[pi, 1], high=[pi, 1])
    const double theta = rng.Uniform(-M_PI, M_PI);
    const double theta_dot = rng.Uniform(-1.0, 1.0);
    state_ = {theta, theta_dot};
    last_u_.reset();
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const double th = state_[0];
    const double thdot = state_[1];
    const double g = params_.g;
    // u = np.clip(u, -max_torque, max_torque)[0], a float32.
    float u = action.As<float>()[0];
    const auto max_torque = static_cast<float>(kMaxTorque);
    u = u < -max_torque ? -max_torque : u;
    u = u > max_torque ? max_torque : u;
    last_u_ = u;  // (gymnasium keeps it for render's arrow)

    // costs = angle_normalize(th) ** 2 + 0.1 * thdot**2 + 0.001 * (u**2)
    const float u_cost = static_cast<float>(0.001) * PyPow2(u);
    const double costs =
        PyPow2(AngleNormalize(th)) + 0.1 * PyPow2(thdot) + static_cast<double>(u_cost);

    // newthdot = thdot + (3 * g / (2 * l) * np.sin(th) + 3.0 / (m * l**2) * u) * dt
    const double torque_coef = 3.0 / (kM * PyPow2(kL));
    const float torque_term = static_cast<float>(torque_coef) * u;
    double newthdot =
        thdot + (3 * g / (2 * kL) * std::sin(th) + static_cast<double>(torque_term)) * kDt;
    // np.clip(newthdot, -max_speed, max_speed)
    newthdot = newthdot < -kMaxSpeed ? -kMaxSpeed : newthdot;
    newthdot = newthdot > kMaxSpeed ? kMaxSpeed : newthdot;
    const double newth = th + newthdot * kDt;
    state_ = {newth, newthdot};

    StepOutcome out;
    out.reward = -costs;
    return out;
  }

  // {theta, theta_dot}.
  std::vector<double> GetState() const override { return {state_[0], state_[1]}; }
  void SetState(const std::vector<double>& state) override {
    if (state.size() != 2) throw std::invalid_argument("Pendulum state has 2 numbers");
    state_ = {state[0], state[1]};
  }

  void Write(const Slot& slot) const override {
    float* obs = slot.Obs<float>();
    obs[0] = static_cast<float>(std::cos(state_[0]));
    obs[1] = static_cast<float>(std::sin(state_[0]));
    obs[2] = static_cast<float>(state_[1]);
  }

 private:
  // ((x + np.pi) % (2 * np.pi)) - np.pi, with NumPy's float64 remainder
  // (fmod, then moved to the divisor's sign).
  static double AngleNormalize(double x) {
    const double a = x + M_PI;
    const double b = 2 * M_PI;
    double mod = std::fmod(a, b);
    if (mod != 0) {
      if ((b < 0) != (mod < 0)) mod += b;
    } else {
      mod = std::copysign(0.0, b);
    }
    return mod - M_PI;
  }

  static constexpr double kMaxSpeed = 8;
  static constexpr double kMaxTorque = 2.0;
  static constexpr double kDt = 0.05;
  static constexpr double kM = 1.0;
  static constexpr double kL = 1.0;
  static constexpr int kScreenDim = 500;

  Params params_;
  std::array<double, 2> state_{};
  std::optional<float> last_u_;                   // the last clipped action, none after a reset
  std::shared_ptr<const draw::RgbaImage> arrow_;  // the arrow image, once read
};

}  // namespace envpool::classic_control
