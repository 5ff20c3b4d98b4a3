// MuJoCo Playground's Panda Cartesian pick task (playground 0.2.0,
// mujoco_playground/_src/manipulation/franka_emika_panda/pick_cartesian.py:
// PandaPickCubeCartesian, state observations): lift the box to a fixed point 0.2 m above it,
// the action moving the gripper's tip in y and z and opening or closing the gripper; the arm's
// joint targets come from the analytic inverse kinematics of panda_kinematics.py. On
// mjx_single_cube_camera.xml from the "low_home" keyframe. Float32 task arithmetic on the
// float64 native simulation, as panda_base.h explains; jax's threefry draws in the package's
// order.
//
// The kinematics (4x4 products, sin, cos, arccos, arcsin, arctan2, cross products) are
// float32 in the package's order; XLA's own routines for some of them (and its fusions) can
// differ from glibc's by ulps, which move the joint targets by ulps: the observations then
// agree to float32 rounding, not bit for bit. The rewards take tanh (XLA's vs glibc's).
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "envs/common/jax_random.h"
#include "envs/common/mujoco_env.h"
#include "envs/playground/panda_base.h"
#include "envs/playground/playground_common.h"

namespace envpool::playground {

namespace panda {

using Mat4 = std::array<std::array<float, 4>, 4>;
using Vec3 = std::array<float, 3>;

// jp.matmul of 4x4 float32 matrices (index-order sums).
inline Mat4 MatMul4(const Mat4& a, const Mat4& b) {
  Mat4 c{};
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      float s = a[i][0] * b[0][j];
      for (int k = 1; k < 4; ++k) s = s + a[i][k] * b[k][j];
      c[i][j] = s;
    }
  }
  return c;
}

inline Vec3 Cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

// v / |v| as XLA computes it: jp.linalg.norm (NormF3), then the product with its reciprocal.
inline Vec3 Normalized(const Vec3& v, bool fused) {
  const float inv = 1.0F / NormF3(v.data(), fused);
  return {v[0] * inv, v[1] * inv, v[2] * inv};
}

// 3x3 (row-major) times a vector.
inline Vec3 MatVec3(const std::array<Vec3, 3>& m, const Vec3& v) {
  Vec3 out{};
  for (int i = 0; i < 3; ++i) out[i] = m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2];
  return out;
}

inline std::array<Vec3, 3> Transpose3(const std::array<Vec3, 3>& m) {
  std::array<Vec3, 3> t{};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) t[i][j] = m[j][i];
  }
  return t;
}

inline std::array<Vec3, 3> MatMul3(const std::array<Vec3, 3>& a, const std::array<Vec3, 3>& b) {
  std::array<Vec3, 3> c{};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) c[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
  }
  return c;
}

// panda_kinematics.mat_from_dh_revolute.
inline Mat4 DhRevolute(float theta, float alpha, float a, float d) {
  const float ca = std::cos(alpha), sa = std::sin(alpha);
  const float ct = std::cos(theta), st = std::sin(theta);
  return Mat4{{{ct, -st, 0.0F, a},
               {st * ca, ct * ca, -sa, -d * sa},
               {st * sa, ct * sa, ca, d * ca},
               {0.0F, 0.0F, 0.0F, 1.0F}}};
}

// panda_kinematics.compute_franka_fk: the tip's transform for the arm's 7 joint angles.
inline Mat4 FrankaFk(const std::array<float, 7>& q) {
  const float pi2 = static_cast<float>(M_PI / 2);
  const std::array<Mat4, 8> t = {
      DhRevolute(q[0], 0.0F, 0.0F, 0.333F),     DhRevolute(q[1], -pi2, 0.0F, 0.0F),
      DhRevolute(q[2], pi2, 0.0F, 0.316F),      DhRevolute(q[3], pi2, 0.0825F, 0.0F),
      DhRevolute(q[4], -pi2, -0.0825F, 0.384F), DhRevolute(q[5], pi2, 0.0F, 0.0F),
      DhRevolute(q[6], pi2, 0.088F, 0.0F),
      DhRevolute(-static_cast<float>(M_PI) / 4.0F, 0.0F, 0.0F, 0.2104F)};
  Mat4 out{};
  for (int i = 0; i < 4; ++i) out[i][i] = 1.0F;
  for (const Mat4& m : t) out = MatMul4(out, m);
  return out;
}

// panda_kinematics.compute_franka_ik (He's analytic solution): joint angles for the tip's
// transform, joint 7 at q7, the branch chosen by the current angles q_actual. NaN where no
// solution exists.
inline std::array<float, 7> FrankaIk(const Mat4& t_ee, float q7, const std::array<float, 7>& qa,
                                     bool fused) {
  const float pi = static_cast<float>(M_PI);
  const float d1 = 0.3330F, d3 = 0.3160F, d5 = 0.3840F, d7e = 0.2104F, a4 = 0.0825F,
              a7 = 0.0880F;
  const float ll24 = 0.10666225F, ll46 = 0.15426225F, l24 = 0.326591870689F,
              l46 = 0.392762332715F, theta_h46 = 1.35916951803F, theta342 = 1.31542071191F,
              theta46h = 0.211626808766F;
  const std::array<float, 7> q_min = {-2.8973F, -1.7628F, -2.8973F, -3.0718F,
                                      -2.8973F, -0.0175F, -2.8973F};
  const std::array<float, 7> q_max = {2.8973F, 1.7628F, 2.8973F, -0.0698F,
                                      2.8973F, 3.7525F,  2.8973F};
  std::array<float, 7> q{};
  q[6] = q7;
  std::array<float, 6> c{}, s{};
  for (int i = 0; i < 6; ++i) {
    c[i] = std::cos(qa[i]);
    s[i] = std::sin(qa[i]);
  }
  const std::array<Mat4, 7> as = {
      Mat4{{{c[0], -s[0], 0, 0}, {s[0], c[0], 0, 0}, {0, 0, 1, d1}, {0, 0, 0, 1}}},
      Mat4{{{c[1], -s[1], 0, 0}, {0, 0, 1, 0}, {-s[1], -c[1], 0, 0}, {0, 0, 0, 1}}},
      Mat4{{{c[2], -s[2], 0, 0}, {0, 0, -1, -d3}, {s[2], c[2], 0, 0}, {0, 0, 0, 1}}},
      Mat4{{{c[3], -s[3], 0, a4}, {0, 0, -1, 0}, {s[3], c[3], 0, 0}, {0, 0, 0, 1}}},
      Mat4{{{1, 0, 0, -a4}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}},
      Mat4{{{c[4], -s[4], 0, 0}, {0, 0, 1, d5}, {-s[4], -c[4], 0, 0}, {0, 0, 0, 1}}},
      Mat4{{{c[5], -s[5], 0, 0}, {0, 0, -1, 0}, {s[5], c[5], 0, 0}, {0, 0, 0, 1}}}};
  std::array<Mat4, 7> ts{};
  ts[0] = as[0];
  for (int j = 1; j < 7; ++j) ts[j] = MatMul4(ts[j - 1], as[j]);
  Vec3 v62a{}, v6ha{}, z6a{};
  for (int i = 0; i < 3; ++i) {
    v62a[i] = ts[1][i][3] - ts[6][i][3];
    v6ha[i] = ts[4][i][3] - ts[6][i][3];
    z6a[i] = ts[6][i][2];
  }
  const Vec3 cr = Cross(v6ha, v62a);
  const bool case6_0 = cr[0] * z6a[0] + cr[1] * z6a[1] + cr[2] * z6a[2] <= 0.0F;
  const bool case1_1 = qa[1] < 0.0F;
  std::array<Vec3, 3> r_ee{};
  Vec3 z_ee{}, p_ee{};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) r_ee[i][j] = t_ee[i][j];
    z_ee[i] = t_ee[i][2];
    p_ee[i] = t_ee[i][3];
  }
  Vec3 p7{};
  for (int i = 0; i < 3; ++i) p7[i] = p_ee[i] - d7e * z_ee[i];
  const float pi4 = static_cast<float>(M_PI / 4);
  const Vec3 x_ee6 = {std::cos(q7 - pi4), -std::sin(q7 - pi4), 0.0F};
  const Vec3 x6 = Normalized(MatVec3(r_ee, x_ee6), fused);
  Vec3 p6{}, v26{};
  const Vec3 p2 = {0.0F, 0.0F, d1};
  for (int i = 0; i < 3; ++i) {
    p6[i] = p7[i] - a7 * x6[i];
    v26[i] = p6[i] - p2[i];
  }
  const float ll26 = (v26[1] * v26[1] + v26[0] * v26[0]) + v26[2] * v26[2];
  const float l26 = std::sqrt(ll26);
  // LL24 + LL46: two Python floats, added in float64.
  const float ll24_46 = static_cast<float>(0.10666225 + 0.15426225);
  const float theta246 = std::acos((ll24_46 - ll26) / 2.0F / l24 / l46);
  q[3] = theta246 + theta_h46 + theta342 - 2.0F * pi;
  const float theta462 = std::acos((ll26 + ll46 - ll24) / 2.0F / l26 / l46);
  const float theta26h = theta46h + theta462;
  const float d26 = -l26 * std::cos(theta26h);
  const Vec3 z6 = Cross(z_ee, x6);
  const Vec3 y6 = Cross(z6, x6);
  const Vec3 y6n = Normalized(y6, fused), z6n = Normalized(z6, fused);
  // R_6's columns: x_6, Y_6 / |Y_6|, Z_6 / |Z_6|.
  std::array<Vec3, 3> r6{};
  for (int i = 0; i < 3; ++i) r6[i] = {x6[i], y6n[i], z6n[i]};
  Vec3 neg_v26{};
  for (int i = 0; i < 3; ++i) neg_v26[i] = -v26[i];
  const Vec3 v6_62 = MatVec3(Transpose3(r6), neg_v26);
  const float phi6 = std::atan2(v6_62[1], v6_62[0]);
  const float theta6 =
      std::asin(d26 / std::sqrt(v6_62[0] * v6_62[0] + v6_62[1] * v6_62[1]));
  q[5] = case6_0 ? pi - theta6 - phi6 : theta6 - phi6;
  if (q[5] <= q_min[5]) q[5] = q[5] + 2.0F * pi;
  if (q[5] >= q_max[5]) q[5] = q[5] - 2.0F * pi;
  const float theta_p26 = static_cast<float>(3.0 * M_PI / 2) - theta462 - theta246 - theta342;
  const float theta_p = pi - theta_p26 - theta26h;
  const float lp6 = l26 * std::sin(theta_p26) / std::sin(theta_p);
  const Vec3 z65 = {std::sin(q[5]), std::cos(q[5]), 0.0F};
  const Vec3 z5 = MatVec3(r6, z65);
  Vec3 v2p{};
  for (int i = 0; i < 3; ++i) v2p[i] = p6[i] - lp6 * z5[i] - p2[i];
  const float l2p = NormF3(v2p.data(), fused);
  const bool gt1 = std::fabs(v2p[2] / l2p) > 0.999F;
  if (gt1) {
    q[0] = qa[0];
    q[1] = 0.0F;
  } else {
    q[0] = std::atan2(v2p[1], v2p[0]);
    q[1] = std::acos(v2p[2] / l2p);
  }
  if (case1_1) q[0] = q[0] < 0.0F ? q[0] + pi : q[0] - pi;
  if (!gt1 && case1_1) q[1] = -q[1];
  const float inv_l2p = 1.0F / l2p;
  const Vec3 z3 = {v2p[0] * inv_l2p, v2p[1] * inv_l2p, v2p[2] * inv_l2p};
  Vec3 y3 = Cross(v26, v2p);
  for (float& v : y3) v = -v;
  y3 = Normalized(y3, fused);
  const Vec3 x3 = Cross(y3, z3);
  const float c1 = std::cos(q[0]), s1 = std::sin(q[0]);
  const std::array<Vec3, 3> r1 = {Vec3{c1, -s1, 0.0F}, Vec3{s1, c1, 0.0F}, Vec3{0, 0, 1.0F}};
  const float c2 = std::cos(q[1]), s2 = std::sin(q[1]);
  const std::array<Vec3, 3> r12 = {Vec3{c2, -s2, 0.0F}, Vec3{0, 0, 1.0F}, Vec3{-s2, -c2, 0}};
  const std::array<Vec3, 3> r2 = MatMul3(r1, r12);
  const Vec3 x23 = MatVec3(Transpose3(r2), x3);
  q[2] = std::atan2(x23[2], x23[0]);
  Vec3 vh4{};
  for (int i = 0; i < 3; ++i) {
    vh4[i] = p2[i] + d3 * z3[i] + a4 * x3[i] - p6[i] + d5 * z5[i];
  }
  const float c6 = std::cos(q[5]), s6 = std::sin(q[5]);
  const std::array<Vec3, 3> r56 = {Vec3{c6, -s6, 0.0F}, Vec3{0, 0, -1.0F}, Vec3{s6, c6, 0}};
  const std::array<Vec3, 3> r5 = MatMul3(r6, Transpose3(r56));
  const Vec3 v5h4 = MatVec3(Transpose3(r5), vh4);
  q[4] = -std::atan2(v5h4[1], v5h4[0]);
  return q;
}

}  // namespace panda

class PandaPickCubeCartesian final : public PlaygroundEnv {
 public:
  struct Params : mujoco::ModelParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      frame_skip = panda::Substeps(ctrl_dt, sim_dt);
      auto m = panda::CompileModel(asset_files, xml_dir, "mjx_single_cube_camera.xml", sim_dt);
      // modify_model: the finger pads' meshes take the off_white material (rendering only).
      const int mesh = mj_name2id(m.get(), mjOBJ_MESH, "finger_1");
      const int mat = mj_name2id(m.get(), mjOBJ_MATERIAL, "off_white");
      if (mesh >= 0 && mat >= 0) {
        for (int g = 0; g < m->ngeom; ++g) {
          if (m->geom_dataid[g] == mesh) m->geom_matid[g] = mat;
        }
      }
      ids = std::make_shared<panda::PandaIds>(m.get(), "box", "low_home");
      const mjModel* mm = m.get();
      auto sensor = [mm](const std::string& name) {
        const int s = mj_name2id(mm, mjOBJ_SENSOR, name.c_str());
        if (s < 0) throw std::invalid_argument("the Panda model has no " + name);
        return mm->sensor_adr[s];
      };
      for (const char* geom : {"left_finger_pad", "right_finger_pad", "hand_capsule"}) {
        floor_found_adr.push_back(sensor(std::string(geom) + "_floor_found"));
      }
      box_hand_adr = sensor("box_hand_found");
      const int picked = mj_name2id(mm, mjOBJ_KEY, "picked");
      if (picked < 0) throw std::invalid_argument("the Panda model has no picked keyframe");
      guide_q.assign(mm->key_qpos + mm->nq * picked, mm->key_qpos + mm->nq * (picked + 1));
      guide_ctrl.assign(mm->key_ctrl + mm->nu * picked, mm->key_ctrl + mm->nu * (picked + 1));
      std::array<float, 7> q{};
      for (int i = 0; i < 7; ++i) q[i] = static_cast<float>(ids->init_ctrl[i]);
      start_tip = panda::FrankaFk(q);
      model = mujoco::ModelPtr(m.release(), mujoco::ModelDeleter());
    }
    std::string xml_dir, menagerie_dir;
    std::vector<std::string> asset_files;
    bool xla_fma = false;
    int frame_skip = 10;
    double ctrl_dt, sim_dt, action_scale;
    double gripper_box_scale, box_target_scale, no_floor_collision_scale, no_box_collision_scale,
        robot_target_qpos_scale;
    double action_rate, no_soln_reward, lifted_reward, success_reward, box_init_range,
        success_threshold, guide_sample_prob;
    std::shared_ptr<const panda::PandaIds> ids;
    std::vector<int> floor_found_adr;
    int box_hand_adr = -1;
    std::vector<double> guide_q, guide_ctrl;
    panda::Mat4 start_tip{};
  };

  static Keywords<Params> Keys() {
    using P = Params;
    Keywords<P> k;
    k.Add("_xml_dir", std::string(), &P::xml_dir);
    k.Add("_menagerie_dir", std::string(), &P::menagerie_dir);
    k.Add("_asset_files", std::vector<std::string>(), &P::asset_files);
    k.Add("_xla_fma", false, &P::xla_fma);
    k.Add("ctrl_dt", 0.05, &P::ctrl_dt).AtLeast(1e-4);
    k.Add("sim_dt", 0.005, &P::sim_dt).AtLeast(1e-4);
    k.Add("action_scale", 0.005, &P::action_scale);
    k.Add("gripper_box_scale", 4.0, &P::gripper_box_scale);
    k.Add("box_target_scale", 8.0, &P::box_target_scale);
    k.Add("no_floor_collision_scale", 0.25, &P::no_floor_collision_scale);
    k.Add("no_box_collision_scale", 0.05, &P::no_box_collision_scale);
    k.Add("robot_target_qpos_scale", 0.0, &P::robot_target_qpos_scale);
    k.Add("action_rate", -0.0005, &P::action_rate);
    k.Add("no_soln_reward", -0.01, &P::no_soln_reward);
    k.Add("lifted_reward", 0.5, &P::lifted_reward);
    k.Add("success_reward", 2.0, &P::success_reward);
    k.Add("box_init_range", 0.05, &P::box_init_range).AtLeast(0.0);
    k.Add("success_threshold", 0.05, &P::success_threshold).AtLeast(0.0);
    // sail-sg EnvPool's name for the chance of the "picked" start (step's bernoulli(key_swap,
    // 0.05), a constant in the package): a probability.
    k.Add("guide_sample_prob", 0.05, &P::guide_sample_prob).In(0.0, 1.0);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  // A flat float64 observation of float32 values (70: the pick observation, no_soln and the
  // action), a float64 action box of 3 in [-1, 1] (tip y, tip z, gripper); the info has the
  // package's metrics reward/<term> as reward_<term> and out_of_bounds.
  static EnvSpec MakeSpec(const Params& p) {
    EnvSpec spec;
    spec.obs.push_back(
        BoxSpec("obs", DType::kFloat64, {panda::PandaObsSize(p.model.get()) + 4}));
    spec.action = BoxSpec("action", DType::kFloat64, {3}, {-1.0}, {1.0});
    for (const char* name : kInfo) {
      spec.info.push_back(BoxSpec(std::string("reward_") + name, DType::kFloat64, {}));
    }
    spec.info.push_back(BoxSpec("out_of_bounds", DType::kFloat64, {}));
    return spec;
  }

  explicit PandaPickCubeCartesian(const Params& p)
      : PlaygroundEnv(p, p.frame_skip, 0),
        p_(p),
        ids_(*p_.ids),
        obs_(panda::PandaObsSize(m_) + 4) {}

  void Seed(std::uint64_t seed) override { keys_.Seed(seed); }

  // PandaPickCubeCartesian.reset: the box on the tip's x plane at y ~ U(-r, r), the target
  // 0.2 m above the plane's centre.
  void Reset(Rng& /*rng*/) override {
    namespace jr = jax_random;
    const jr::Key key = keys_.Next();
    const jr::Key rng_box = jr::SplitAt(key, 1);
    rng_ = jr::SplitAt(key, 0);
    const float x_plane = p_.start_tip[0][3] - 0.03F;
    const float r = static_cast<float>(p_.box_init_range);
    const std::array<float, 3> box = {x_plane, Uniform(rng_box, 0, -r, r), 0.0F};
    target_ = {x_plane, 0.0F, 0.2F};
    std::vector<float> qpos(m_->nq), ctrl(m_->nu);
    for (int i = 0; i < m_->nq; ++i) qpos[i] = static_cast<float>(ids_.init_q[i]);
    for (int i = 0; i < 3; ++i) qpos[ids_.obj_qposadr + i] = box[i];
    for (int i = 0; i < m_->nu; ++i) ctrl[i] = static_cast<float>(ids_.init_ctrl[i]);
    mj_resetData(m_, d_);
    for (int i = 0; i < m_->nq; ++i) d_->qpos[i] = qpos[i];
    for (int i = 0; i < m_->nu; ++i) d_->ctrl[i] = ids_.init_ctrl[i];
    const std::array<float, 4> quat = {1.0F, 0.0F, 0.0F, 0.0F};
    for (int i = 0; i < 3; ++i) d_->mocap_pos[3 * ids_.mocap + i] = target_[i];
    for (int i = 0; i < 4; ++i) d_->mocap_quat[4 * ids_.mocap + i] = quat[i];
    frame_.Fresh(m_, qpos, ctrl, quat);
    for (int i = 0; i < 3; ++i) current_pos_[i] = p_.start_tip[i][3];
    prev_reward_ = 0.0F;
    reached_box_ = 0.0F;
    prev_action_.fill(0.0F);
    steps_ = 0;
    info_terms_.fill(0.0F);
    out_of_bounds_ = false;
    const int k = panda::PandaObs(frame_, ids_, target_, obs_.data());
    for (int i = 0; i < 4; ++i) obs_[k + i] = 0.0;
  }

  // PandaPickCubeCartesian.step.
  StepOutcome Step(const ActionView& action_view, Rng& /*rng*/) override {
    namespace jr = jax_random;
    const double* a = action_view.As<double>();
    std::array<float, 3> action = {static_cast<float>(a[0]), static_cast<float>(a[1]),
                                   static_cast<float>(a[2])};
    // The action delay over a history of action_history_length (1): randint(0, 1) is 0,
    // the gripper command itself; its key is drawn all the same.
    rng_ = jr::SplitAt(rng_, 0);
    const bool newly_reset = steps_ == 0;
    if (newly_reset) {
      prev_reward_ = 0.0F;
      for (int i = 0; i < 3; ++i) current_pos_[i] = p_.start_tip[i][3];
      reached_box_ = 0.0F;
      prev_action_.fill(0.0F);
    }
    // Occasionally (guide_sample_prob, 5%, of episodes' first steps) start from the "picked"
    // keyframe: bernoulli(key_swap, p) is uniform(key_swap) < float32(p).
    const jr::Key key_swap = jr::SplitAt(rng_, 1);
    rng_ = jr::SplitAt(rng_, 0);
    const bool swap = newly_reset && Uniform(key_swap, 0, 0.0F, 1.0F) <
                                            static_cast<float>(p_.guide_sample_prob);
    if (swap) {
      for (int i = 0; i < m_->nq; ++i) {
        frame_.qpos[i] = static_cast<float>(p_.guide_q[i]);
        d_->qpos[i] = frame_.qpos[i];
      }
      for (int i = 0; i < m_->nu; ++i) frame_.ctrl[i] = static_cast<float>(p_.guide_ctrl[i]);
    }
    // _move_tip with the increment (0, action[0], action[1], action[2]).
    const std::array<float, 4> inc = {0.0F, action[0], action[1], action[2]};
    const float scale = static_cast<float>(p_.action_scale);
    std::array<float, 3> tip{};
    for (int i = 0; i < 3; ++i) tip[i] = current_pos_[i] + inc[i] * scale;
    tip[0] = std::clamp(tip[0], 0.25F, 0.77F);
    tip[1] = std::clamp(tip[1], -0.32F, 0.32F);
    tip[2] = std::clamp(tip[2], 0.02F, 0.5F);
    panda::Mat4 t = p_.start_tip;
    for (int i = 0; i < 3; ++i) t[i][3] = tip[i];
    t[3] = {0.0F, 0.0F, 0.0F, 1.0F};
    std::array<float, 7> qa{};
    for (int i = 0; i < 7; ++i) qa[i] = frame_.ctrl[i];
    std::array<float, 7> out = panda::FrankaIk(t, frame_.ctrl[6], qa, p_.xla_fma);
    bool no_soln = false;
    for (float x : out) no_soln = no_soln || std::isnan(x);
    // No solution: the current targets (the tip's target moves on all the same, as the
    // package's check for NaN comes after the replacement).
    if (no_soln) out = qa;
    std::vector<float> ctrl = frame_.ctrl;
    for (int i = 0; i < 7; ++i) ctrl[i] = out[i];
    const float jaw = inc[3] < 0.0F ? -1.0F : 1.0F;
    ctrl[7] = ctrl[7] + jaw * 0.02F;
    for (int i = 0; i < m_->nu; ++i) {
      ctrl[i] = std::min(std::max(ctrl[i], ids_.lowers[i]), ids_.uppers[i]);
      d_->ctrl[i] = ctrl[i];
    }
    current_pos_ = tip;
    for (int i = 0; i < frame_skip_; ++i) mj_step(m_, d_);
    frame_.Read(m_, d_, ids_);
    // The pick task's dense terms times reward_scales; no_box_collision is a metric only.
    const std::array<float, 4> raw = PickTerms();
    const std::array<double, 4> scales = {p_.gripper_box_scale, p_.box_target_scale,
                                          p_.no_floor_collision_scale,
                                          p_.robot_target_qpos_scale};
    float total = 0.0F;
    for (int i = 0; i < 4; ++i) total = total + raw[i] * static_cast<float>(scales[i]);
    total = std::clamp(total, -1e4F, 1e4F);
    const bool hand_box = frame_.sensordata[p_.box_hand_adr] > 0.0F;
    std::array<float, 3> da{};
    for (int i = 0; i < 3; ++i) da[i] = action[i] - prev_action_[i];
    prev_action_ = action;
    total = total + static_cast<float>(p_.action_rate) * panda::NormF3(da.data(), p_.xla_fma);
    total = total + (no_soln ? 1.0F : 0.0F) * static_cast<float>(p_.no_soln_reward);
    const float lifted =
        (frame_.obj_pos[2] > 0.05F ? 1.0F : 0.0F) * static_cast<float>(p_.lifted_reward);
    total = total + lifted;
    std::array<float, 3> e3{};
    for (int i = 0; i < 3; ++i) e3[i] = frame_.obj_pos[i] - target_[i];
    const bool success =
        panda::NormF3(e3.data(), p_.xla_fma) < static_cast<float>(p_.success_threshold);
    total = total + (success ? 1.0F : 0.0F) * static_cast<float>(p_.success_reward);
    float reward = std::max(total - prev_reward_, 0.0F);
    prev_reward_ = std::max(total, prev_reward_);
    if (newly_reset) reward = 0.0F;
    out_of_bounds_ = panda::OutOfBounds(frame_.obj_pos);
    info_terms_ = {raw[0], raw[1], raw[2], hand_box ? 0.0F : 1.0F,
                   raw[3], lifted, success ? 1.0F : 0.0F};
    const bool done = out_of_bounds_ || panda::HasNan(frame_) || success;
    steps_ += 1;
    if (done || steps_ >= kEpisodeLength) steps_ = 0;
    const int k = panda::PandaObs(frame_, ids_, target_, obs_.data());
    obs_[k] = no_soln ? 1.0 : 0.0;
    for (int i = 0; i < 3; ++i) obs_[k + 1 + i] = action[i];
    return StepOutcome{static_cast<double>(reward), done, false};
  }

  void Write(const Slot& slot) const override {
    std::copy(obs_.begin(), obs_.end(), slot.Obs<double>(0));
    for (std::size_t i = 0; i < info_terms_.size(); ++i) *slot.Info<double>(i) = info_terms_[i];
    *slot.Info<double>(info_terms_.size()) = out_of_bounds_ ? 1.0 : 0.0;
  }

 protected:
  void WriteObs(double* obs) const override { std::copy(obs_.begin(), obs_.end(), obs); }

 private:
  // The package's episode_length (200): its step counter wraps there (newly_reset).
  static constexpr int kEpisodeLength = 200;
  // The metrics reward/<name>, in sail-sg EnvPool's order.
  static constexpr std::array<const char*, 7> kInfo = {
      "gripper_box",       "box_target", "no_floor_collision", "no_box_collision",
      "robot_target_qpos", "lifted",     "success"};

  float Uniform(const jax_random::Key& key, std::uint32_t i, float lo, float hi) const {
    return jax_random::UniformF32(key, i, lo, hi, p_.xla_fma);
  }

  // PandaPickCube._get_reward's raw terms (gripper_box, box_target, no_floor_collision,
  // robot_target_qpos), the target unrotated.
  std::array<float, 4> PickTerms() {
    const panda::PandaFrame& f = frame_;
    std::array<float, 6> e6{};
    std::array<float, 3> e3{};
    for (int i = 0; i < 3; ++i) e3[i] = target_[i] - f.obj_pos[i];
    const float pos_err = panda::NormF3(e3.data(), p_.xla_fma);
    const std::array<float, 6> target_mat = panda::QuatToMatRows01(f.mocap_quat.data());
    for (int i = 0; i < 6; ++i) e6[i] = target_mat[i] - f.obj_mat[i];
    const float rot_err = panda::NormF(e6.data(), 6);
    const float box_target = panda::OneMinusTanh(5.0F * (0.9F * pos_err + 0.1F * rot_err));
    for (int i = 0; i < 3; ++i) e3[i] = f.obj_pos[i] - f.gripper_pos[i];
    const float gripper_dist = panda::NormF3(e3.data(), p_.xla_fma);
    const float gripper_box = panda::OneMinusTanh(5.0F * gripper_dist);
    std::array<float, 7> e7{};
    for (int i = 0; i < 7; ++i) {
      const int adr = ids_.arm_qposadr[i];
      e7[i] = f.qpos[adr] - static_cast<float>(ids_.init_q[adr]);
    }
    const float robot_target_qpos = panda::OneMinusTanh(panda::NormF(e7.data(), 7));
    bool floor = false;
    for (int adr : p_.floor_found_adr) floor = floor || f.sensordata[adr] > 0.0F;
    reached_box_ = std::max(reached_box_, gripper_dist < 0.012F ? 1.0F : 0.0F);
    return {gripper_box, box_target * reached_box_, floor ? 0.0F : 1.0F, robot_target_qpos};
  }

  Params p_;
  const panda::PandaIds& ids_;
  jax_random::KeyChain keys_;
  jax_random::Key rng_{};
  panda::PandaFrame frame_;
  std::array<float, 3> target_{}, current_pos_{}, prev_action_{};
  float prev_reward_ = 0.0F, reached_box_ = 0.0F;
  int steps_ = 0;
  bool out_of_bounds_ = false;
  std::array<float, 7> info_terms_{};
  std::vector<double> obs_;
};

}  // namespace envpool::playground
