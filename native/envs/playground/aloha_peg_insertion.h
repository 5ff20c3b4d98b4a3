// MuJoCo Playground's AlohaSinglePegInsertion (playground 0.2.0,
// mujoco_playground/_src/manipulation/aloha/single_peg_insertion.py: SinglePegInsertion):
// the left arm lifts a socket, the right arm a peg, and the peg goes into the socket. The
// reward is the weighted mean of the reward terms. Native float64 MuJoCo under the task's
// float32 arithmetic and jax's threefry draws (aloha_base.h); the two pose terms take exp
// (XLA's float32 routine in the package, glibc's expf here).
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/common/jax_random.h"
#include "envs/common/mujoco_env.h"
#include "envs/common/xla_math.h"
#include "envs/playground/aloha_base.h"
#include "envs/playground/playground_common.h"

namespace envpool::playground {

class AlohaSinglePegInsertion final : public PlaygroundEnv {
 public:
  struct Params : mujoco::ModelParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      Compile();
    }
    std::string xml_dir, menagerie_dir;
    std::vector<std::string> asset_files;
    bool xla_fma = false;
    int frame_skip = 1, action_repeat = 2;
    double ctrl_dt, sim_dt, action_scale;
    double left_reward_scale, right_reward_scale, left_target_qpos_scale,
        right_target_qpos_scale, no_table_collision_scale, socket_entrance_reward_scale,
        peg_end2_reward_scale, socket_z_up_scale, peg_z_up_scale, peg_insertion_reward_scale;
    aloha::Model mdl;
    int socket_entrance_site = -1, socket_rear_site = -1, peg_end2_site = -1,
        socket_body = -1, peg_body = -1, socket_qadr = -1, peg_qadr = -1;

   private:
    void Compile() {
      frame_skip = static_cast<int>(std::nearbyint(ctrl_dt / sim_dt));
      if (frame_skip < 1) throw std::invalid_argument("ctrl_dt must be at least sim_dt / 2");
      mdl = aloha::Load(asset_files, xml_dir, "mjx_single_peg_insertion.xml", sim_dt,
                        [](mjModel* /*m*/) {});
      const mjModel* m = mdl.model.get();
      auto id = [m](mjtObj type, const char* name) {
        const int i = mj_name2id(m, type, name);
        if (i < 0) throw std::invalid_argument(std::string("the ALOHA model has no ") + name);
        return i;
      };
      socket_entrance_site = id(mjOBJ_SITE, "socket_entrance");
      socket_rear_site = id(mjOBJ_SITE, "socket_rear");
      peg_end2_site = id(mjOBJ_SITE, "peg_end2");
      socket_body = id(mjOBJ_BODY, "socket");
      peg_body = id(mjOBJ_BODY, "peg");
      socket_qadr = m->jnt_qposadr[m->body_jntadr[socket_body]];
      peg_qadr = m->jnt_qposadr[m->body_jntadr[peg_body]];
      if (m->nq + m->nv + 24 != kObsSize) {
        throw std::invalid_argument("the ALOHA peg insertion scene must have 30 qpos and 28 qvel");
      }
      model = mdl.model;
    }
  };

  static Keywords<Params> Keys() {
    using P = Params;
    Keywords<P> k;
    k.Add("_xml_dir", std::string(), &P::xml_dir);
    k.Add("_menagerie_dir", std::string(), &P::menagerie_dir);
    k.Add("_asset_files", std::vector<std::string>(), &P::asset_files);
    k.Add("_xla_fma", false, &P::xla_fma);
    k.Add("ctrl_dt", 0.0025, &P::ctrl_dt).AtLeast(1e-4);
    k.Add("sim_dt", 0.0025, &P::sim_dt).AtLeast(1e-4);
    k.Add("action_scale", 0.005, &P::action_scale);
    // default_config's action_repeat (2): the package's step does not read it.
    k.Add("action_repeat", 2, &P::action_repeat).AtLeast(1);
    for (std::size_t i = 0; i < kTerms.size(); ++i) {
      k.Add(std::string(kTerms[i]) + "_scale", kScales[i], kScaleMembers[i]);
    }
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  // The observation: a float64 array of 82 float32 values; a float64 action box of 14 in
  // [-1, 1]; the info: the reward terms times their scales, peg_end2_dist_to_line and
  // out_of_bounds.
  static EnvSpec MakeSpec(const Params& /*p*/) {
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("obs", DType::kFloat64, {kObsSize}));
    spec.action = BoxSpec("action", DType::kFloat64, {aloha::kNu}, {-1.0}, {1.0});
    for (const char* name : kTerms) {
      spec.info.push_back(BoxSpec(std::string("reward_") + name, DType::kFloat64, {}));
    }
    spec.info.push_back(BoxSpec("peg_end2_dist_to_line", DType::kFloat64, {}));
    spec.info.push_back(BoxSpec("out_of_bounds", DType::kFloat64, {}));
    return spec;
  }

  explicit AlohaSinglePegInsertion(const Params& p)
      : PlaygroundEnv(p, p.frame_skip, 0),
        p_(p),
        // sqrt(-2 log(0.1)): the gaussian sigmoid's scale, with XLA's log as the package.
        gaussian_scale_(std::sqrt(-2.0F * xla_math::XlaLogF32(0.1F, p.xla_fma))) {
    // sum(reward_config.scales.values()): in default_config's order, in float64.
    const std::array<double Params::*, 10> order = {
        &Params::left_reward_scale,      &Params::right_reward_scale,
        &Params::left_target_qpos_scale, &Params::right_target_qpos_scale,
        &Params::no_table_collision_scale, &Params::socket_z_up_scale,
        &Params::peg_z_up_scale,         &Params::socket_entrance_reward_scale,
        &Params::peg_end2_reward_scale,  &Params::peg_insertion_reward_scale};
    double total = 0.0;
    for (auto member : order) total += p.*member;
    scale_sum_ = static_cast<float>(total);
  }

  void Seed(std::uint64_t seed) override { keys_.Seed(seed); }

  // SinglePegInsertion.reset: `rng, rng_peg, rng_socket = split(rng, 3)`; the peg's and the
  // socket's x and y moved by U(-0.1, 0.1)^2 each; the home keyframe's ctrl.
  void Reset(Rng& /*rng*/) override {
    namespace jr = jax_random;
    jr::Key rng = keys_.Next();
    const jr::Key rp = jr::SplitAt(rng, 1), rs = jr::SplitAt(rng, 2);
    std::vector<float> q = p_.mdl.init_q;
    for (int i = 0; i < 2; ++i) {
      q[p_.peg_qadr + i] = q[p_.peg_qadr + i] + jr::UniformF32(rp, i, -0.1F, 0.1F, p_.xla_fma);
    }
    for (int i = 0; i < 2; ++i) {
      q[p_.socket_qadr + i] =
          q[p_.socket_qadr + i] + jr::UniformF32(rs, i, -0.1F, 0.1F, p_.xla_fma);
    }
    // mjx_env.make_data: qpos, zero qvel, ctrl, without a forward pass (the first
    // observation reads zero positions and orientations, as the package's).
    mj_resetData(m_, d_);
    for (int i = 0; i < m_->nq; ++i) d_->qpos[i] = q[i];
    for (int i = 0; i < aloha::kNu; ++i) d_->ctrl[i] = p_.mdl.init_ctrl[i];
    rewards_.fill(0.0F);
    dist_to_line_ = out_of_bounds_ = 0.0F;
    Observe();
  }

  // SinglePegInsertion.step.
  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    aloha::ApplyDelta(p_.mdl, action.As<double>(), p_.action_scale, d_);
    for (int i = 0; i < frame_skip_; ++i) mj_step(m_, d_);
    const std::array<float, 3> entrance = Site(p_.socket_entrance_site);
    const std::array<float, 3> rear = Site(p_.socket_rear_site);
    const std::array<float, 3> end2 = Site(p_.peg_end2_site);
    // The peg end's distance to the socket's axis (rear + t * (entrance - rear)).
    const std::array<float, 3> ab = Sub(entrance, rear);
    float t = Dot(Sub(end2, rear), ab);
    t = t / (Dot(ab, ab) + 1e-6F);
    const std::array<float, 3> nearest = {rear[0] + t * ab[0], rear[1] + t * ab[1],
                                          rear[2] + t * ab[2]};
    const std::array<float, 3> off = Sub(end2, nearest);
    dist_to_line_ = NormF(off.data(), 3, p_.xla_fma);
    bool out = false;
    for (int i = 0; i < 3; ++i) {
      out = out || std::fabs(static_cast<float>(d_->xpos[3 * p_.socket_body + i])) > 1.0F;
    }
    for (int i = 0; i < 3; ++i) {
      out = out || std::fabs(static_cast<float>(d_->xpos[3 * p_.peg_body + i])) > 1.0F;
    }
    Rewards(dist_to_line_ < 0.005F);
    float total = 0.0F;
    for (float r : rewards_) total += r;
    const float reward = total / scale_sum_;
    const bool done = out || aloha::AnyNan(m_, d_);
    out_of_bounds_ = out ? 1.0F : 0.0F;
    Observe();
    return StepOutcome{static_cast<double>(reward), done, false};
  }

  void Write(const Slot& slot) const override {
    std::copy(obs_.begin(), obs_.end(), slot.Obs<double>(0));
    std::size_t i = 0;
    for (; i < rewards_.size(); ++i) *slot.Info<double>(i) = rewards_[i];
    *slot.Info<double>(i++) = dist_to_line_;
    *slot.Info<double>(i) = out_of_bounds_;
  }

 protected:
  void WriteObs(double* obs) const override { std::copy(obs_.begin(), obs_.end(), obs); }

 private:
  static constexpr int kObsSize = 82;
  // _get_reward's terms, in its dict's order (the order of the sum), and default_config's
  // scales.
  static constexpr std::array<const char*, 10> kTerms = {
      "left_reward",     "right_reward",           "left_target_qpos", "right_target_qpos",
      "no_table_collision", "socket_entrance_reward", "peg_end2_reward", "socket_z_up",
      "peg_z_up",        "peg_insertion_reward"};
  static constexpr std::array<double, 10> kScales = {1.0, 1.0, 0.3, 0.3, 0.3,
                                                     4.0, 4.0, 0.5, 0.5, 8.0};
  static constexpr double Params::*kScaleMembers[10] = {
      &Params::left_reward_scale,          &Params::right_reward_scale,
      &Params::left_target_qpos_scale,     &Params::right_target_qpos_scale,
      &Params::no_table_collision_scale,   &Params::socket_entrance_reward_scale,
      &Params::peg_end2_reward_scale,      &Params::socket_z_up_scale,
      &Params::peg_z_up_scale,             &Params::peg_insertion_reward_scale};

  using V3 = std::array<float, 3>;
  static V3 Sub(const V3& a, const V3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
  static float Dot(const V3& a, const V3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
  float Norm(const V3& a) const { return NormF(a.data(), 3, p_.xla_fma); }
  V3 Site(int site) const { return aloha::F3(d_->site_xpos + 3 * site); }
  V3 Body(int body) const { return aloha::F3(d_->xpos + 3 * body); }

  // reward.tolerance(x, (lower, upper), margin) with the default gaussian sigmoid:
  // exp(-0.5 (d * scale)^2), d the distance to the bound over margin.
  float ToleranceGaussian(float x, float lower, float upper, float margin) const {
    if (lower <= x && x <= upper) return 1.0F;
    const float d = (x < lower ? lower - x : x - upper) / margin;
    const float s = d * gaussian_scale_;
    return std::exp(-0.5F * (s * s));
  }

  // SinglePegInsertion._get_reward, each term times its scale (float32).
  void Rewards(bool use_peg_insertion_reward) {
    const V3 socket = Body(p_.socket_body), peg = Body(p_.peg_body);
    const float left_reward = ToleranceLinear(
        Norm(Sub(socket, Site(p_.mdl.left_gripper_site))), 0.0F, 0.001F, 0.3F);
    const float right_reward = ToleranceLinear(
        Norm(Sub(peg, Site(p_.mdl.right_gripper_site))), 0.0F, 0.001F, 0.3F);
    std::array<float, 12> diff{};
    for (int i = 0; i < 12; ++i) {
      const int adr = p_.mdl.arm_qadr[i];
      diff[i] = static_cast<float>(d_->qpos[adr]) - p_.mdl.init_q[adr];
    }
    const float left_pose =
        ToleranceGaussian(NormF(diff.data(), 6, p_.xla_fma), 0.0F, 0.01F, 2.0F);
    const float right_pose =
        ToleranceGaussian(NormF(diff.data() + 6, 6, p_.xla_fma), 0.0F, 0.01F, 2.0F);
    const float socket_lift =
        ToleranceLinear(Norm(Sub({-0.05F, 0.0F, 0.15F}, socket)), 0.0F, 0.01F, 0.15F);
    const float peg_lift =
        ToleranceLinear(Norm(Sub({0.05F, 0.0F, 0.15F}, peg)), 0.0F, 0.01F, 0.15F);
    const float table = aloha::HandTableCollision(p_.mdl, d_);
    // The bodies' z axes (the third rows of xmat) dotted with (0, 0, 1).
    auto z_up = [this](int body) {
      const double* r = d_->xmat + 9 * body + 6;
      return static_cast<float>(r[0]) * 0.0F + static_cast<float>(r[1]) * 0.0F +
             static_cast<float>(r[2]) * 1.0F;
    };
    const float socket_orientation =
        ToleranceLinear(z_up(p_.socket_body), 0.99F, 1.0F, 0.03F);
    const float peg_orientation = ToleranceLinear(z_up(p_.peg_body), 0.99F, 1.0F, 0.03F);
    const float insertion =
        ToleranceLinear(Norm(Sub(Site(p_.peg_end2_site), Site(p_.socket_rear_site))), 0.0F,
                        0.001F, 0.1F) *
        (use_peg_insertion_reward ? 1.0F : 0.0F);
    const std::array<float, 10> r = {left_reward,
                                     right_reward,
                                     left_pose * left_reward * right_reward,
                                     right_pose * left_reward * right_reward,
                                     1.0F - table,
                                     socket_lift,
                                     peg_lift,
                                     socket_orientation * socket_lift,
                                     peg_orientation * peg_lift,
                                     insertion};
    for (std::size_t i = 0; i < r.size(); ++i) {
      rewards_[i] = r[i] * static_cast<float>(p_.*kScaleMembers[i]);
    }
  }

  // SinglePegInsertion._get_obs: qpos, qvel, the left gripper, the socket, the right
  // gripper, the peg, the socket's entrance and the peg's end (positions), the socket's and
  // the peg's z axes.
  void Observe() {
    std::size_t k = 0;
    auto put_d = [this, &k](const double* x, int n) {
      for (int i = 0; i < n; ++i) obs_[k++] = static_cast<float>(x[i]);
    };
    put_d(d_->qpos, m_->nq);
    put_d(d_->qvel, m_->nv);
    put_d(d_->site_xpos + 3 * p_.mdl.left_gripper_site, 3);
    put_d(d_->xpos + 3 * p_.socket_body, 3);
    put_d(d_->site_xpos + 3 * p_.mdl.right_gripper_site, 3);
    put_d(d_->xpos + 3 * p_.peg_body, 3);
    put_d(d_->site_xpos + 3 * p_.socket_entrance_site, 3);
    put_d(d_->site_xpos + 3 * p_.peg_end2_site, 3);
    put_d(d_->xmat + 9 * p_.socket_body + 6, 3);
    put_d(d_->xmat + 9 * p_.peg_body + 6, 3);
  }

  Params p_;
  jax_random::KeyChain keys_;
  float gaussian_scale_, scale_sum_ = 1.0F;
  float dist_to_line_ = 0.0F, out_of_bounds_ = 0.0F;
  std::array<float, 10> rewards_{};
  std::array<float, kObsSize> obs_{};
};

}  // namespace envpool::playground
