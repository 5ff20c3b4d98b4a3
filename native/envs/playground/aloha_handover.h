// MuJoCo Playground's AlohaHandOver (playground 0.2.0,
// mujoco_playground/_src/manipulation/aloha/handover.py: HandOver): the left arm picks up a
// box and hands it to the right arm, which brings it to a random target (the mocap body
// "mocap_target"). The reward is the progress of a potential (the reward terms' weighted
// mean) over its best so far, plus a small bias for holding the end state. Native float64
// MuJoCo under the task's float32 arithmetic and jax's threefry draws (aloha_base.h); the
// terms take exp (XLA's float32 routine in the package, glibc's expf here).
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
#include "envs/playground/aloha_base.h"
#include "envs/playground/playground_common.h"

namespace envpool::playground {

class AlohaHandOver final : public PlaygroundEnv {
 public:
  struct Params : mujoco::ModelParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      Compile();
    }
    std::string xml_dir, menagerie_dir;
    std::vector<std::string> asset_files;
    bool xla_fma = false;
    int frame_skip = 4, action_repeat = 1;
    double ctrl_dt, sim_dt, action_scale;
    double gripper_box_scale, box_handover_scale, handover_target_scale,
        no_table_collision_scale;
    aloha::Model mdl;
    int mocap_target = -1, box_body = -1, box_top_site = -1, box_bottom_site = -1,
        box_qadr = -1;
    float box_width = 0.0F;

   private:
    void Compile() {
      frame_skip = static_cast<int>(std::nearbyint(ctrl_dt / sim_dt));
      if (frame_skip < 1) throw std::invalid_argument("ctrl_dt must be at least sim_dt / 2");
      // _post_init: "Aid finger exploration": the left gripper's lower control bound is
      // 0.01 (the package writes it into the model's actuator_ctrlrange).
      mdl = aloha::Load(asset_files, xml_dir, "mjx_hand_over.xml", sim_dt,
                        [](mjModel* m) { m->actuator_ctrlrange[2 * 6] = 0.01; });
      const mjModel* m = mdl.model.get();
      auto id = [m](mjtObj type, const char* name) {
        const int i = mj_name2id(m, type, name);
        if (i < 0) throw std::invalid_argument(std::string("the ALOHA model has no ") + name);
        return i;
      };
      mocap_target = m->body_mocapid[id(mjOBJ_BODY, "mocap_target")];
      box_body = id(mjOBJ_BODY, "box");
      box_top_site = id(mjOBJ_SITE, "box_top");
      box_bottom_site = id(mjOBJ_SITE, "box_bottom");
      box_qadr = m->jnt_qposadr[m->body_jntadr[box_body]];
      box_width = static_cast<float>(m->geom_size[3 * id(mjOBJ_GEOM, "box") + 1]);
      if (m->nq + m->nv + 38 != kObsSize) {
        throw std::invalid_argument("the ALOHA handover scene must have 23 qpos and 22 qvel");
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
    k.Add("ctrl_dt", 0.02, &P::ctrl_dt).AtLeast(1e-4);
    k.Add("sim_dt", 0.005, &P::sim_dt).AtLeast(1e-4);
    k.Add("action_scale", 0.015, &P::action_scale);
    k.Add("action_repeat", 1, &P::action_repeat).AtLeast(1);
    for (std::size_t i = 0; i < kTerms.size(); ++i) {
      k.Add(std::string(kTerms[i]) + "_scale", kScales[i], kScaleMembers[i]);
    }
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  // The observation: a float64 array of 83 float32 values; a float64 action box of 14 in
  // [-1, 1]; the info: the reward terms times their scales and out_of_bounds.
  static EnvSpec MakeSpec(const Params& /*p*/) {
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("obs", DType::kFloat64, {kObsSize}));
    spec.action = BoxSpec("action", DType::kFloat64, {aloha::kNu}, {-1.0}, {1.0});
    for (const char* name : kTerms) {
      spec.info.push_back(BoxSpec(std::string("reward_") + name, DType::kFloat64, {}));
    }
    spec.info.push_back(BoxSpec("out_of_bounds", DType::kFloat64, {}));
    return spec;
  }

  explicit AlohaHandOver(const Params& p)
      : PlaygroundEnv(p, p.frame_skip, 0), p_(p) {}

  void Seed(std::uint64_t seed) override { keys_.Seed(seed); }

  // HandOver.reset: `rng, rng_box_x, rng_box_y = split(rng, 3)`, the box's x and y moved by
  // U(-0.05, 0.05) and U(-0.1, 0.1); the home keyframe's ctrl; `rng, rng_target =
  // split(rng)`, the target (0.2, 0, 0.25) + U(-0.15, 0.15)^3 with x at least 0.15.
  void Reset(Rng& /*rng*/) override {
    namespace jr = jax_random;
    jr::Key rng = keys_.Next();
    const jr::Key rx = jr::SplitAt(rng, 1), ry = jr::SplitAt(rng, 2);
    rng = jr::SplitAt(rng, 0);
    std::vector<float> q = p_.mdl.init_q;
    q[p_.box_qadr] = q[p_.box_qadr] + jr::UniformF32(rx, 0, -0.05F, 0.05F, p_.xla_fma);
    q[p_.box_qadr + 1] = q[p_.box_qadr + 1] + jr::UniformF32(ry, 0, -0.1F, 0.1F, p_.xla_fma);
    const jr::Key rt = jr::SplitAt(rng, 1);
    const std::array<float, 3> base = {0.20F, 0.0F, 0.25F};
    for (int i = 0; i < 3; ++i) target_[i] = base[i] + jr::UniformF32(rt, i, -0.15F, 0.15F, p_.xla_fma);
    target_[0] = std::max(target_[0], 0.15F);
    // mjx_env.make_data: qpos, zero qvel, ctrl, without a forward pass (the first
    // observation reads zero positions and orientations, as the package's).
    mj_resetData(m_, d_);
    for (int i = 0; i < m_->nq; ++i) d_->qpos[i] = q[i];
    for (int i = 0; i < aloha::kNu; ++i) d_->ctrl[i] = p_.mdl.init_ctrl[i];
    for (int i = 0; i < 3; ++i) d_->mocap_pos[3 * p_.mocap_target + i] = target_[i];
    prev_potential_ = 0.0F;
    steps_ = 0;
    episode_picked_ = false;
    rewards_.fill(0.0F);
    out_of_bounds_ = 0.0F;
    Observe();
  }

  // HandOver.step.
  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const bool newly_reset = steps_ == 0;
    if (newly_reset) {
      episode_picked_ = false;
      prev_potential_ = 0.0F;
    }
    aloha::ApplyDelta(p_.mdl, action.As<double>(), p_.action_scale, d_);
    for (int i = 0; i < frame_skip_; ++i) mj_step(m_, d_);
    Rewards();
    const float denominator = static_cast<float>(p_.gripper_box_scale + p_.box_handover_scale +
                                                 p_.handover_target_scale +
                                                 p_.no_table_collision_scale);
    const float potential =
        (((0.0F + rewards_[0]) + rewards_[1]) + rewards_[2] + rewards_[3]) / denominator;
    // Progress over the best potential so far, clipped at 0; a bias for holding the end
    // state (the left gripper back left, the box right of x = 0.1).
    float reward = std::max(potential - prev_potential_, 0.0F);
    const std::array<float, 3> box = aloha::F3(d_->xpos + 3 * p_.box_body);
    const std::array<float, 3> l_gripper =
        aloha::F3(d_->site_xpos + 3 * p_.mdl.left_gripper_site);
    const float condition = Barrier(l_gripper[0], 0.0F, -1.0F) * Barrier(box[0], 0.10F, 1.0F);
    reward = reward + 0.02F * potential * condition;
    prev_potential_ = std::max(potential, prev_potential_);
    if (newly_reset) reward = 0.0F;
    // Dropped after picked up (above 0.15): below 0.05; a small penalty and the end.
    episode_picked_ = episode_picked_ || box[2] > 0.15F;
    const bool dropped = box[2] < 0.05F && episode_picked_;
    reward = reward + (dropped ? 1.0F : 0.0F) * -0.1F;
    bool out = box[2] < 0.0F;
    for (float x : box) out = out || std::fabs(x) > 1.0F;
    const bool done = out || aloha::AnyNan(m_, d_) || dropped;
    steps_ += p_.action_repeat;
    if (done || steps_ >= kEpisodeLength) steps_ = 0;
    out_of_bounds_ = out ? 1.0F : 0.0F;
    Observe();
    return StepOutcome{static_cast<double>(reward), done, false};
  }

  void Write(const Slot& slot) const override {
    std::copy(obs_.begin(), obs_.end(), slot.Obs<double>(0));
    std::size_t i = 0;
    for (; i < rewards_.size(); ++i) *slot.Info<double>(i) = rewards_[i];
    *slot.Info<double>(i) = out_of_bounds_;
  }

 protected:
  void WriteObs(double* obs) const override { std::copy(obs_.begin(), obs_.end(), obs); }

 private:
  static constexpr int kObsSize = 83;
  static constexpr int kEpisodeLength = 250;  // default_config's episode_length (info _steps)
  // _get_reward's terms, in its dict's order (the order of the sum), and default_config's
  // scales.
  static constexpr std::array<const char*, 4> kTerms = {
      "gripper_box", "box_handover", "handover_target", "no_table_collision"};
  static constexpr std::array<double, 4> kScales = {1.0, 4.0, 8.0, 0.3};
  static constexpr double Params::*kScaleMembers[4] = {
      &Params::gripper_box_scale, &Params::box_handover_scale, &Params::handover_target_scale,
      &Params::no_table_collision_scale};

  // logistic_barrier(x, x0, k=100, direction): 1 / (1 + exp(-k * direction * (x - x0))).
  static float Barrier(float x, float x0, float direction) {
    const float k = -100.0F * direction;
    return 1.0F / (1.0F + std::exp(k * (x - x0)));
  }

  // distance(x, y) = exp(-10 |x - y|).
  float Distance(const std::array<float, 3>& x, const std::array<float, 3>& y) const {
    const std::array<float, 3> e = {x[0] - y[0], x[1] - y[1], x[2] - y[2]};
    return std::exp(-10.0F * NormF(e.data(), 3, p_.xla_fma));
  }

  // HandOver._get_reward, each term times its scale (float32).
  void Rewards() {
    const std::array<float, 3> box_top = aloha::F3(d_->site_xpos + 3 * p_.box_top_site);
    const std::array<float, 3> box_bottom = aloha::F3(d_->site_xpos + 3 * p_.box_bottom_site);
    const std::array<float, 3> box = aloha::F3(d_->xpos + 3 * p_.box_body);
    const std::array<float, 3> l_gripper =
        aloha::F3(d_->site_xpos + 3 * p_.mdl.left_gripper_site);
    const std::array<float, 3> r_gripper =
        aloha::F3(d_->site_xpos + 3 * p_.mdl.right_gripper_site);
    const std::array<float, 3> handover = {0.0F, 0.0F, 0.24F};
    // Before (box x < -0.1), past (x >= 0) and between the hands' zones.
    const float pre = box[0] < -0.1F ? 1.0F : 0.0F;
    const float past = box[0] >= 0.0F ? 1.0F : 0.0F;
    const float btwn = (1.0F - pre) * (1.0F - past);
    const float r_lg = Distance(box_top, l_gripper) * (pre + btwn);
    const float r_rg = Distance(box_bottom, r_gripper) * (btwn + past);
    const float r_rg_bias = Distance(box_bottom, r_gripper) * past;
    const float box_handover =
        std::max(Distance(box, handover), Distance(l_gripper, handover) * past);
    float box_target = Distance(target_, box) * (r_rg + r_rg_bias);
    box_target = box_target * Barrier(l_gripper[0], 0.0F, -1.0F);
    const float table = aloha::HandTableCollision(p_.mdl, d_);
    const std::array<float, 4> r = {r_lg + r_rg + r_rg_bias, box_handover, box_target,
                                    1.0F - table};
    for (std::size_t i = 0; i < r.size(); ++i) {
      rewards_[i] = r[i] * static_cast<float>(p_.*kScaleMembers[i]);
    }
  }

  // HandOver._get_obs: qpos, qvel, the fingers' joints minus the box's half width, the box's
  // top and bottom sites, each gripper's position and the last two rows of its orientation,
  // those of the box, the box's offset to the target and the episode's progress.
  void Observe() {
    std::size_t k = 0;
    auto put = [this, &k](float x) { obs_[k++] = x; };
    auto put_d = [&put](const double* x, int n) {
      for (int i = 0; i < n; ++i) put(static_cast<float>(x[i]));
    };
    put_d(d_->qpos, m_->nq);
    put_d(d_->qvel, m_->nv);
    for (int adr : p_.mdl.finger_qadr) put(static_cast<float>(d_->qpos[adr]) - p_.box_width);
    put_d(d_->site_xpos + 3 * p_.box_top_site, 3);
    put_d(d_->site_xpos + 3 * p_.box_bottom_site, 3);
    put_d(d_->site_xpos + 3 * p_.mdl.left_gripper_site, 3);
    put_d(d_->site_xmat + 9 * p_.mdl.left_gripper_site + 3, 6);
    put_d(d_->site_xpos + 3 * p_.mdl.right_gripper_site, 3);
    put_d(d_->site_xmat + 9 * p_.mdl.right_gripper_site + 3, 6);
    put_d(d_->xmat + 9 * p_.box_body + 3, 6);
    const std::array<float, 3> box = aloha::F3(d_->xpos + 3 * p_.box_body);
    for (int i = 0; i < 3; ++i) put(box[i] - target_[i]);
    put(static_cast<float>(steps_) / static_cast<float>(kEpisodeLength));
  }

  Params p_;
  jax_random::KeyChain keys_;
  std::array<float, 3> target_{};
  float prev_potential_ = 0.0F, out_of_bounds_ = 0.0F;
  std::int32_t steps_ = 0;
  bool episode_picked_ = false;
  std::array<float, 4> rewards_{};
  std::array<float, kObsSize> obs_{};
};

}  // namespace envpool::playground
