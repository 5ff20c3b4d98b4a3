// Acrobot-v1: gymnasium's classic_control/acrobot.py with its defaults
// (book_or_nips = "book", torque_noise_max = 0, dt = 0.2), same arithmetic in
// the same order: one RK4 step of _dsdt, then wrap() / bound() of the state.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "core/env.h"
#include "envs/common/draw/picture.h"
#include "envs/common/draw/raster.h"
#include "envs/common/py_math.h"

namespace envpool::classic_control {

class Acrobot final : public Env {
 public:
  // AcrobotEnv takes no keyword besides render_mode.
  struct Params {
    explicit Params(const Config& /*config*/) {}
  };

  static Config Defaults() { return Config(); }

  static EnvSpec MakeSpec(const Params& /*params*/) {
    const std::vector<double> high = {1.0, 1.0, 1.0, 1.0, static_cast<float>(kMaxVel1),
                                      static_cast<float>(kMaxVel2)};
    EnvSpec spec;
    ArraySpec obs = BoxSpec("obs", DType::kFloat32, {6}, {}, high);
    for (double h : high) obs.low.push_back(-h);
    spec.obs.push_back(obs);
    spec.action = DiscreteSpec("action", 3, DType::kInt32);
    // EnvPool's extra info key: the two joint angles {theta1, theta2} as float32 (the
    // observation holds only their cosines and sines).
    spec.info.push_back(BoxSpec("state", DType::kFloat32, {2}));
    return spec;
  }

  // render(): gymnasium's 500 x 500 picture (AcrobotEnv.render, rgb_array), drawn as its
  // pygame calls draw it, anti-aliased outlines included, in double precision (gymnasium's
  // state right after a reset is a float32 array, so its first picture of an episode may be
  // a pixel off at an edge).
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return draw::FixedFrame("Acrobot", kScreenDim, kScreenDim, 15.0, width, height, camera_id);
  }
  void Render(int /*width*/, int /*height*/, int /*camera_id*/, std::uint8_t* out) override {
    draw::Canvas canvas(kScreenDim, kScreenDim, out);
    canvas.Fill({255, 255, 255});
    const double bound = kLinkLength1 + kLinkLength2 + 0.2;
    const double scale = kScreenDim / (bound * 2);
    const double offset = kScreenDim / 2.0;
    const double p1[2] = {-kLinkLength1 * std::cos(state_[0]) * scale,
                          kLinkLength1 * std::sin(state_[0]) * scale};
    const double xys[2][2] = {{0, 0}, {p1[1], p1[0]}};
    const double thetas[2] = {state_[0] - M_PI / 2, state_[0] + state_[1] - M_PI / 2};
    const double lengths[2] = {kLinkLength1 * scale, kLinkLength2 * scale};
    canvas.Line(static_cast<int>(-2.2 * scale + offset), static_cast<int>(1 * scale + offset),
                static_cast<int>(2.2 * scale + offset), static_cast<int>(1 * scale + offset),
                {0, 0, 0});
    for (int i = 0; i < 2; ++i) {
      const double x = xys[i][0] + offset, y = xys[i][1] + offset;
      const double l = 0, r = lengths[i], t = 0.1 * scale, b = -0.1 * scale;
      std::vector<std::array<int, 2>> link;
      for (const auto& [cx, cy] : {std::array<double, 2>{l, b}, std::array<double, 2>{l, t},
                                   std::array<double, 2>{r, t}, std::array<double, 2>{r, b}}) {
        const auto c = draw::RotateRad(cx, cy, thetas[i]);
        link.push_back({static_cast<int>(c[0] + x), static_cast<int>(c[1] + y)});
      }
      canvas.OutlinedPolygon(link, {0, 204, 204});
      canvas.OutlinedCircle(static_cast<int>(x), static_cast<int>(y), static_cast<int>(0.1 * scale),
                            {204, 204, 0});
    }
    canvas.FlipRows();
  }

  explicit Acrobot(const Params& /*params*/) {}

  void Reset(Rng& rng) override {
    // np_random.uniform(-0.1, 0.1, size=(4,)).astype(np.float32)
    for (double& s : state_) s = static_cast<float>(rng.Uniform(-0.1, 0.1));
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    static constexpr std::array<double, 3> kAvailTorque = {-1.0, 0.0, 1.0};
    const double torque = kAvailTorque[action.Scalar<std::int32_t>()];

    // rk4(self._dsdt, np.append(s, torque), [0, self.dt]) over the state
    // augmented with the torque (whose derivative is 0).
    const State y0 = {state_[0], state_[1], state_[2], state_[3], torque};
    const double dt = kDt - 0;
    const double dt2 = dt / 2.0;
    const State k1 = Dsdt(y0);
    const State k2 = Dsdt(Axpy(y0, dt2, k1));
    const State k3 = Dsdt(Axpy(y0, dt2, k2));
    const State k4 = Dsdt(Axpy(y0, dt, k3));
    State ns{};
    for (std::size_t i = 0; i < ns.size(); ++i) {
      ns[i] = y0[i] + dt / 6.0 * (((k1[i] + 2 * k2[i]) + 2 * k3[i]) + k4[i]);
    }

    state_[0] = Wrap(ns[0], -M_PI, M_PI);
    state_[1] = Wrap(ns[1], -M_PI, M_PI);
    state_[2] = Bound(ns[2], -kMaxVel1, kMaxVel1);
    state_[3] = Bound(ns[3], -kMaxVel2, kMaxVel2);

    StepOutcome out;
    out.terminated = -std::cos(state_[0]) - std::cos(state_[1] + state_[0]) > 1.0;
    out.reward = out.terminated ? 0.0 : -1.0;
    return out;
  }

  // {theta1, theta2, dtheta1, dtheta2}.
  std::vector<double> GetState() const override {
    return {state_[0], state_[1], state_[2], state_[3]};
  }
  void SetState(const std::vector<double>& state) override {
    if (state.size() != 4) throw std::invalid_argument("Acrobot state has 4 numbers");
    for (std::size_t i = 0; i < 4; ++i) state_[i] = state[i];
  }

  void Write(const Slot& slot) const override {
    float* obs = slot.Obs<float>();
    obs[0] = static_cast<float>(std::cos(state_[0]));
    obs[1] = static_cast<float>(std::sin(state_[0]));
    obs[2] = static_cast<float>(std::cos(state_[1]));
    obs[3] = static_cast<float>(std::sin(state_[1]));
    obs[4] = static_cast<float>(state_[2]);
    obs[5] = static_cast<float>(state_[3]);
    float* angles = slot.Info<float>(0);
    angles[0] = static_cast<float>(state_[0]);
    angles[1] = static_cast<float>(state_[1]);
  }

 private:
  using State = std::array<double, 5>;

  // y + a * k, elementwise.
  static State Axpy(const State& y, double a, const State& k) {
    State out{};
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = y[i] + a * k[i];
    return out;
  }

  // _dsdt for book_or_nips == "book".
  static State Dsdt(const State& s_augmented) {
    const double m1 = kLinkMass1;
    const double m2 = kLinkMass2;
    const double l1 = kLinkLength1;
    const double lc1 = kLinkComPos1;
    const double lc2 = kLinkComPos2;
    const double I1 = kLinkMoi;
    const double I2 = kLinkMoi;
    const double g = 9.8;
    const double a = s_augmented[4];
    const double theta1 = s_augmented[0];
    const double theta2 = s_augmented[1];
    const double dtheta1 = s_augmented[2];
    const double dtheta2 = s_augmented[3];
    const double d1 =
        m1 * PyPow2(lc1) + m2 * (PyPow2(l1) + PyPow2(lc2) + 2 * l1 * lc2 * std::cos(theta2)) + I1 + I2;
    const double d2 = m2 * (PyPow2(lc2) + l1 * lc2 * std::cos(theta2)) + I2;
    const double phi2 = m2 * lc2 * g * std::cos(theta1 + theta2 - M_PI / 2.0);
    const double phi1 = -m2 * l1 * lc2 * PyPow2(dtheta2) * std::sin(theta2) -
                        2 * m2 * l1 * lc2 * dtheta2 * dtheta1 * std::sin(theta2) +
                        (m1 * lc1 + m2 * l1) * g * std::cos(theta1 - M_PI / 2) + phi2;
    const double ddtheta2 =
        (a + d2 / d1 * phi1 - m2 * l1 * lc2 * PyPow2(dtheta1) * std::sin(theta2) - phi2) /
        (m2 * PyPow2(lc2) + I2 - PyPow2(d2) / d1);
    const double ddtheta1 = -(d2 * ddtheta2 + phi1) / d1;
    return {dtheta1, dtheta2, ddtheta1, ddtheta2, 0.0};
  }

  // wrap(x, m, M): shifts x by M - m until m <= x <= M.
  static double Wrap(double x, double m, double M) {
    const double diff = M - m;
    while (x > M) x = x - diff;
    while (x < m) x = x + diff;
    return x;
  }
  // bound(x, m, M) = min(max(x, m), M) with Python's min / max.
  static double Bound(double x, double m, double M) {
    const double y = m > x ? m : x;
    return M < y ? M : y;
  }

  static constexpr double kDt = 0.2;
  static constexpr double kLinkLength1 = 1.0;
  static constexpr double kLinkLength2 = 1.0;
  static constexpr int kScreenDim = 500;
  static constexpr double kLinkMass1 = 1.0;
  static constexpr double kLinkMass2 = 1.0;
  static constexpr double kLinkComPos1 = 0.5;
  static constexpr double kLinkComPos2 = 0.5;
  static constexpr double kLinkMoi = 1.0;
  static constexpr double kMaxVel1 = 4 * M_PI;
  static constexpr double kMaxVel2 = 9 * M_PI;

  std::array<double, 4> state_{};
};

}  // namespace envpool::classic_control
