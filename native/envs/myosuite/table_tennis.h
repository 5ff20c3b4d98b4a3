// MyoSuite's MyoChallenge 2025 table tennis (envs/myo/myochallenge/tabletennis_v0.py,
// TableTennisEnvV0): the torso and two arms (the right one holding a free paddle) return a
// served ball over the net. The ids P0, P1 and P2 differ in their keywords only: what a
// reset draws.
//
// What the package does, restated:
//   - Model: the XML's spec edited by _preprocess_spec (model_edit.h, EditTableTennis: the
//     sensors but the ball's and paddle's deleted, the legs immobilized, the body's
//     collisions removed but the forearms', a mirrored left arm attached to the torso),
//     then compiled.
//   - Construction: init_qpos is the model's keyframe 0 (the whole qpos); init_qvel is zero
//     but the ball's linear velocity, (5.6, 1.6, 0.1). _setup's step with zero actions
//     leaves nothing a reset keeps (the contact trajectory is emptied by the reset) and
//     draws nothing.
//   - Reset, in this order of draws: with paddle_mass_range, the paddle body's mass (one);
//     with ball_friction_range, the ball geom's friction (three); with ball_xyz_range, the
//     ball body's body_pos and the ball's qpos (three); with qpos_noise_range, njnt
//     fractions, each joint's qpos but the last two joints' (the paddle's and the ball's
//     free joints, by their first qpos address) moved by fraction * (range high - low) and
//     clipped to the range; with ball_qvel, cal_ball_qvel: v_z = uniform(-0.1, 0.1), t the
//     time the ball falls from its z to the table (z 0.785: the root
//     (-v_z - sqrt(v_z^2 - 4 a c)) / (2 a), a = -9.81 / 2, c = z - 0.785), and the ball's
//     linear velocity uniform((lower x, lower y, v_z), (upper x, upper y, v_z)) (three
//     draws) with upper / lower = (table corner - ball position) / t for the corners
//     (1.35, 0.70) and (0.5, -0.60); stored in init_qvel (it stays for the next resets).
//     Then the base reset (the fatigue state too) from that qpos and init_qvel. The model's
//     edits (mass, friction, body_pos) are not followed by mj_setConst.
//   - Step: with normalize_act, the non-muscle actuators' actions (pelvis_x, pelvis_y) are
//     remapped from [-1, 1] to their ctrlrange, mean(range) + a (high - low) / 2, in float64
//     and stored into the float32 action (rounded); then BaseV0.step (the muscles' sigmoid;
//     the others go to ctrl as they are).
//   - Observation dict: time, pelvis_pos (site pelvis), body_qpos (the qpos of every joint
//     but the paddle's and the ball's free joints, one number a joint: the first qpos
//     address), body_qvel (the same joints' first dof, unscaled), ball_pos (site pingpong),
//     ball_vel (sensor pingpong_vel_sensor), paddle_pos (site paddle), paddle_vel (sensor
//     paddle_vel_sensor), paddle_ori (the paddle body's xquat), padde_ori_err (paddle_ori -
//     init_paddle_quat: scipy's Rotation.from_euler("xyz", (-0.3, 1.57, 0)) as (w, x, y, z)),
//     reach_err = paddle_pos - ball_pos, palm_pos (site S_grasp), palm_err = palm_pos -
//     paddle_pos, touching_info, act. touching_info: the labels of the ball's contacts (the
//     other geom of each contact with a geom of the ball body, in the data's order: the
//     geom pad PADDLE, coll_own_half OWN, coll_opponent_half OPPONENT, coll_net NET, ground
//     GROUND, any other ENV) as a set, written as (paddle, own, opponent, net, ground, env)
//     0/1 flags; each observation also appends that set to the contact trajectory (emptied
//     by each reset, before its observation appends the reset state's).
//   - Rewards: reach_dist exp(-|norm(reach_err)|), palm_dist exp(-5 |norm(palm_err)|),
//     paddle_quat exp(-5 norm(padde_ori_err)), torso_up exp(-5 |qpos of flex_extension|),
//     act_reg -norm(act) / na, sparse = the paddle flag, solved = the contact trajectory
//     evaluates to no issue (evaluate_pingpong_trajectory: see Evaluate), done = time > 3.0
//     or the ball's z < 0.3 or solved. (_get_done's test of the trajectory's issue `in [0, 2,
//     3]` compares ContactTrajIssue members, a plain Enum, with ints: never true, so it never
//     ends an episode.) The dense reward is Python's sum() of float(weight) * term in the
//     weights' order: a running float64 sum from 0 (Dense), not np.sum. Default weights
//     reach_dist 1, palm_dist 1, paddle_quat 2, act_reg 0.5, torso_up 2, sparse 100, solved
//     1000, done -10.
//   - rally_count (> 1: a solved rally relaunches the ball, relaunch_ball) is not a keyword
//     here: every id has 1, where relaunch_ball is never reached (and it could not run
//     without ball_xyz_range: its ball_pos slice has two numbers). ref_traj (an h5 file of
//     the user's) is unused by the registered ids (its reward terms are commented out).
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/myosuite/model_edit.h"
#include "envs/myosuite/myo_env.h"

namespace envpool::myosuite {

class TableTennis final : public MyoEnv {
 public:
  struct Params : MyoParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      auto check = [](const std::vector<double>& low, const std::vector<double>& high,
                      std::size_t n, const char* name) {
        if ((low.empty() && high.empty()) || (low.size() == n && high.size() == n)) return;
        throw std::invalid_argument(std::string(name) + ": low and high need " +
                                    std::to_string(n) + " numbers each (or none)");
      };
      check(ball_xyz_low, ball_xyz_high, 3, "ball_xyz");
      check(ball_friction_low, ball_friction_high, 3, "ball_friction");
      check(qpos_noise_low, qpos_noise_high, 1, "qpos_noise");
      if (!paddle_mass_range.empty() && paddle_mass_range.size() != 2) {
        throw std::invalid_argument("paddle_mass_range: two numbers (low, high) or none");
      }
      if (ball_qvel && ball_xyz_low.empty()) {
        throw std::invalid_argument("ball_qvel needs ball_xyz_low and ball_xyz_high (the "
                                    "package's cal_ball_qvel starts from the drawn position)");
      }
      const bool collisions = remove_body_collisions, left_arm = add_left_arm;
      Load([collisions, left_arm](const std::string& path) {
        return LoadTableTennisModel(path, collisions, left_arm);
      });
    }
    bool remove_body_collisions = true, add_left_arm = true, ball_qvel = false;
    std::vector<double> ball_xyz_low, ball_xyz_high, ball_friction_low, ball_friction_high;
    std::vector<double> qpos_noise_low, qpos_noise_high, paddle_mass_range;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    AddMyoKeywords(k, "envs/myo/assets/arm/myoarm_tabletennis.xml", 10);
    k.Add("remove_body_collisions", true, &Params::remove_body_collisions);
    k.Add("add_left_arm", true, &Params::add_left_arm);
    k.Add("ball_xyz_low", std::vector<double>{}, &Params::ball_xyz_low);
    k.Add("ball_xyz_high", std::vector<double>{}, &Params::ball_xyz_high);
    k.Add("ball_qvel", false, &Params::ball_qvel);
    k.Add("paddle_mass_range", std::vector<double>{}, &Params::paddle_mass_range).AtLeast(0);
    k.Add("ball_friction_low", std::vector<double>{}, &Params::ball_friction_low).AtLeast(0);
    k.Add("ball_friction_high", std::vector<double>{}, &Params::ball_friction_high).AtLeast(0);
    k.Add("qpos_noise_low", std::vector<double>{}, &Params::qpos_noise_low);
    k.Add("qpos_noise_high", std::vector<double>{}, &Params::qpos_noise_high);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& p) {
    TableTennis env(p);
    return Spec(env.m_, env.ObsSize(), p.normalize_act);
  }

  explicit TableTennis(const Params& p)
      : MyoEnv(p,
               {"pelvis_pos", "body_qpos", "body_qvel", "ball_pos", "ball_vel", "paddle_pos",
                "paddle_vel", "paddle_ori", "reach_err", "touching_info"},
               {{"reach_dist", 1.0},
                {"palm_dist", 1.0},
                {"paddle_quat", 2.0},
                {"act_reg", 0.5},
                {"torso_up", 2.0},
                {"sparse", 100.0},
                {"solved", 1000.0},
                {"done", -10.0}}),
        p_(p),
        pelvis_(SiteId("pelvis")),
        palm_(SiteId("S_grasp")),
        paddle_site_(SiteId("paddle")),
        ball_site_(SiteId("pingpong")),
        paddle_body_(BodyId("paddle")),
        ball_body_(BodyId("pingpong")),
        ball_geom_(GeomId("pingpong")),
        paddle_geom_(GeomId("pad")),
        own_half_(GeomId("coll_own_half")),
        opponent_half_(GeomId("coll_opponent_half")),
        net_(GeomId("coll_net")),
        ground_(GeomId("ground")),
        ball_vel_(SensorAdr("pingpong_vel_sensor")),
        paddle_vel_(SensorAdr("paddle_vel_sensor")) {
    const int ball_joint = mj_name2id(m_, mjOBJ_JOINT, "pingpong_freejoint");
    const int torso = mj_name2id(m_, mjOBJ_JOINT, "flex_extension");
    if (ball_joint < 0 || torso < 0 || m_->nkey < 1 || m_->njnt < 2) {
      throw std::invalid_argument("the table tennis model lacks its ball joint, its joint "
                                  "flex_extension or its keyframe 0");
    }
    ball_posadr_ = m_->jnt_qposadr[ball_joint];
    ball_dofadr_ = m_->body_dofadr[ball_body_];
    torso_qposadr_ = m_->jnt_qposadr[torso];
    // IdInfo's myo_joint_range / myo_dof_range: each joint's first qpos / dof address, the
    // free joints of the paddle and the ball (names from "ping", paddle_freejoint) left out.
    for (int j = 0; j < m_->njnt; ++j) {
      const std::string name = mj_id2name(m_, mjOBJ_JOINT, j) ? mj_id2name(m_, mjOBJ_JOINT, j)
                                                               : "";
      if (name.rfind("ping", 0) == 0 || name == "paddle_freejoint") continue;
      body_qposadr_.push_back(m_->jnt_qposadr[j]);
      body_dofadr_.push_back(m_->jnt_dofadr[j]);
    }
    std::copy(m_->key_qpos, m_->key_qpos + m_->nq, init_qpos_.begin());
    const double start_vel[3] = {5.6, 1.6, 0.1};
    for (int k = 0; k < 3; ++k) init_qvel_[ball_dofadr_ + k] = start_vel[k];
    // scipy's from_euler("xyz", (-0.3, 1.57, 0)): the elementary quaternions (x, y, z, w) of
    // the half angles composed extrinsically (qz * (qy * qx); qz is the identity, which
    // leaves the product's numbers as they are), as (w, x, y, z).
    const double sx = std::sin(-0.3 / 2.0), cx = std::cos(-0.3 / 2.0);
    const double sy = std::sin(1.57 / 2.0), cy = std::cos(1.57 / 2.0);
    init_paddle_quat_[0] = cy * cx;
    init_paddle_quat_[1] = cy * sx;
    init_paddle_quat_[2] = cx * sy;
    init_paddle_quat_[3] = -(sy * sx);
  }

 protected:
  void ResetTask() override {
    contacts_.clear();
    std::copy(m_->key_qpos, m_->key_qpos + m_->nq, init_qpos_.begin());
    if (!p_.paddle_mass_range.empty()) {
      mw_->body_mass[paddle_body_] =
          np_random_.Uniform(p_.paddle_mass_range[0], p_.paddle_mass_range[1]);
    }
    if (!p_.ball_friction_low.empty()) {
      for (int k = 0; k < 3; ++k) {
        mw_->geom_friction[3 * ball_geom_ + k] =
            np_random_.Uniform(p_.ball_friction_low[k], p_.ball_friction_high[k]);
      }
    }
    double ball_pos[3] = {0, 0, 0};
    if (!p_.ball_xyz_low.empty()) {
      for (int k = 0; k < 3; ++k) ball_pos[k] = np_random_.Uniform(p_.ball_xyz_low[k],
                                                                   p_.ball_xyz_high[k]);
      for (int k = 0; k < 3; ++k) {
        mw_->body_pos[3 * ball_body_ + k] = ball_pos[k];
        init_qpos_[ball_posadr_ + k] = ball_pos[k];
      }
    }
    std::vector<double> qpos(init_qpos_);
    if (!p_.qpos_noise_low.empty()) {
      std::vector<double> fraction(m_->njnt);
      for (double& f : fraction) f = np_random_.Uniform(p_.qpos_noise_low[0],
                                                        p_.qpos_noise_high[0]);
      for (int j = 0; j < m_->njnt - 2; ++j) {
        const double lo = m_->jnt_range[2 * j], hi = m_->jnt_range[2 * j + 1];
        const int adr = m_->jnt_qposadr[j];
        qpos[adr] += fraction[j] * (hi - lo);
        qpos[adr] = std::min(std::max(qpos[adr], lo), hi);  // np.clip
      }
    }
    if (p_.ball_qvel) {
      // cal_ball_qvel(ball_pos).
      const double upper[3] = {1.35, 0.70, 0.785}, lower[3] = {0.5, -0.60, 0.785};
      const double v_z = np_random_.Uniform(-0.1, 0.1);
      const double a = -0.5 * 9.81, b = v_z, c = ball_pos[2] - upper[2];
      const double discriminant = b * b - 4 * a * c;
      if (discriminant < 0) {
        throw std::runtime_error("table tennis: the ball cannot reach the table (z0 " +
                                 std::to_string(ball_pos[2]) + ")");
      }
      // numpy's float64 ** 0.5: C's pow.
      const double t = (-b - std::pow(discriminant, 0.5)) / (2 * a);
      double v_low[3], v_high[3];
      for (int k = 0; k < 2; ++k) {
        v_high[k] = (upper[k] - ball_pos[k]) / t;
        v_low[k] = (lower[k] - ball_pos[k]) / t;
      }
      v_low[2] = v_high[2] = v_z;
      for (int k = 0; k < 3; ++k) init_qvel_[ball_dofadr_ + k] = np_random_.Uniform(v_low[k],
                                                                                    v_high[k]);
    }
    SetResetQpos(std::move(qpos));
  }

  // TableTennisEnvV0.step: the non-muscle actuators' actions remapped into the action array
  // (float32 from a step, float64 in the construction step).
  void TaskAction(std::vector<double>& a, bool& float64) override {
    if (!p_.normalize_act) return;
    for (int i = 0; i < m_->nu; ++i) {
      if (m_->actuator_dyntype[i] == mjDYN_MUSCLE) continue;
      const double lo = m_->actuator_ctrlrange[2 * i], hi = m_->actuator_ctrlrange[2 * i + 1];
      const double v = (lo + hi) / 2.0 + a[i] * (hi - lo) / 2.0;
      a[i] = float64 ? v : static_cast<double>(static_cast<float>(v));
    }
  }

  void ObsDict(TermDict& obs) override {
    auto put = [](std::vector<double>& v, const double* x, int n) { v.assign(x, x + n); };
    obs["time"].assign(1, d_->time);
    put(obs["pelvis_pos"], d_->site_xpos + 3 * pelvis_, 3);
    std::vector<double>& qpos = obs["body_qpos"];
    std::vector<double>& qvel = obs["body_qvel"];
    qpos.clear();
    qvel.clear();
    for (int adr : body_qposadr_) qpos.push_back(d_->qpos[adr]);
    for (int adr : body_dofadr_) qvel.push_back(d_->qvel[adr]);
    std::vector<double>& ball = obs["ball_pos"];
    put(ball, d_->site_xpos + 3 * ball_site_, 3);
    put(obs["ball_vel"], d_->sensordata + ball_vel_, 3);
    std::vector<double>& paddle = obs["paddle_pos"];
    put(paddle, d_->site_xpos + 3 * paddle_site_, 3);
    put(obs["paddle_vel"], d_->sensordata + paddle_vel_, 3);
    std::vector<double>& ori = obs["paddle_ori"];
    put(ori, d_->xquat + 4 * paddle_body_, 4);
    std::vector<double>& ori_err = obs["padde_ori_err"];
    ori_err.resize(4);
    for (int k = 0; k < 4; ++k) ori_err[k] = ori[k] - init_paddle_quat_[k];
    std::vector<double>& reach = obs["reach_err"];
    reach.resize(3);
    for (int k = 0; k < 3; ++k) reach[k] = paddle[k] - ball[k];
    std::vector<double>& palm = obs["palm_pos"];
    put(palm, d_->site_xpos + 3 * palm_, 3);
    std::vector<double>& palm_err = obs["palm_err"];
    palm_err.resize(3);
    for (int k = 0; k < 3; ++k) palm_err[k] = palm[k] - paddle[k];
    const unsigned touching = BallContacts();
    contacts_.push_back(touching);
    std::vector<double>& info = obs["touching_info"];
    info.resize(kLabels);
    for (int k = 0; k < kLabels; ++k) info[k] = (touching >> k) & 1U;
    if (m_->na > 0) put(obs["act"], d_->act, m_->na);
  }

  void RewardDict(const TermDict& obs, TermDict& rwd) override {
    const double reach_dist = std::abs(NormLastAxis(obs.At("reach_err")));
    const double palm_dist = std::abs(NormLastAxis(obs.At("palm_err")));
    const double act_mag = m_->na != 0 ? NormLastAxis(obs.At("act")) / m_->na : 0.0;
    const double z = obs.At("ball_pos")[2];
    const bool solved = Evaluate() == Issue::kNone;
    const double paddle_quat_err = NormLastAxis(obs.At("padde_ori_err"));
    const double torso_err = std::abs(d_->qpos[torso_qposadr_]);
    rwd.Set("reach_dist", NumpyExp(-1.0 * reach_dist));
    rwd.Set("palm_dist", NumpyExp(-5.0 * palm_dist));
    rwd.Set("paddle_quat", NumpyExp(-5.0 * paddle_quat_err));
    rwd.Set("torso_up", NumpyExp(-5.0 * torso_err));
    rwd.Set("act_reg", -1.0 * act_mag);
    rwd.Set("sparse", obs.At("touching_info")[0] == 1);
    rwd.Set("solved", solved);
    rwd.Set("done", obs.Scalar("time") > kMaxTime || z < 0.3 || solved);
  }

  // rwd_dict["dense"]: Python's sum() over the weighted terms, float(wt) * float(term),
  // left to right from 0.
  double Dense() const override {
    double dense = 0.0;
    for (const auto& [key, wt] : Weights()) dense += wt * rwd_.Scalar(key);
    return dense;
  }

 private:
  // PingpongContactLabels, as bits in touching_info's order.
  enum Label : unsigned { kPaddle = 0, kOwn = 1, kOpponent = 2, kNet = 3, kGround = 4, kEnv = 5 };
  static constexpr int kLabels = 6;
  static constexpr double kMaxTime = 3.0;
  // ContactTrajIssue, and kNone: evaluate_pingpong_trajectory's None (a good return).
  enum class Issue { kNone, kOwnHalf, kMiss, kNoPaddle, kDoubleTouch };

  int GeomId(const char* name) const {
    const int id = mj_name2id(m_, mjOBJ_GEOM, name);
    if (id < 0) throw std::invalid_argument(std::string("the model has no geom '") + name + "'");
    return id;
  }
  int SensorAdr(const char* name) const {
    const int id = mj_name2id(m_, mjOBJ_SENSOR, name);
    if (id < 0 || m_->sensor_dim[id] != 3) {
      throw std::invalid_argument(std::string("the model has no 3-number sensor '") + name +
                                  "'");
    }
    return m_->sensor_adr[id];
  }

  // get_ball_contact_labels as a set: the labels of the geoms the ball touches.
  unsigned BallContacts() const {
    unsigned set = 0;
    for (int i = 0; i < d_->ncon; ++i) {
      const int g1 = d_->contact[i].geom[0], g2 = d_->contact[i].geom[1];
      int other = -1;
      if (m_->geom_bodyid[g1] == ball_body_) {
        other = g2;
      } else if (m_->geom_bodyid[g2] == ball_body_) {
        other = g1;
      } else {
        continue;
      }
      Label label = kEnv;
      if (other == paddle_geom_) {
        label = kPaddle;
      } else if (other == own_half_) {
        label = kOwn;
      } else if (other == opponent_half_) {
        label = kOpponent;
      } else if (other == net_) {
        label = kNet;
      } else if (other == ground_) {
        label = kGround;
      }
      set |= 1U << label;
    }
    return set;
  }

  // evaluate_pingpong_trajectory over the contact trajectory.
  Issue Evaluate() const {
    bool has_hit_paddle = false, has_bounced_from_paddle = false;
    bool has_bounced_from_table = false, own_contact_phase_done = false;
    int own_contact_count = 0;
    for (unsigned s : contacts_) {
      const bool paddle = (s >> kPaddle) & 1U, own = (s >> kOwn) & 1U;
      if (!paddle && has_hit_paddle) has_bounced_from_paddle = true;
      if (paddle && has_bounced_from_paddle) return Issue::kDoubleTouch;
      if (paddle) has_hit_paddle = true;
      if (own) {
        if (!has_bounced_from_table) {
          // The serve's first bounce.
          has_bounced_from_table = true;
          own_contact_count = 1;
        } else if (!own_contact_phase_done) {
          own_contact_count += 1;
          if (own_contact_count > 2) return Issue::kOwnHalf;
        } else {
          return Issue::kOwnHalf;
        }
      } else if (has_bounced_from_table) {
        own_contact_phase_done = true;
      }
      if ((s >> kOpponent) & 1U) return has_hit_paddle ? Issue::kNone : Issue::kNoPaddle;
    }
    return Issue::kMiss;
  }

  Params p_;
  int pelvis_, palm_, paddle_site_, ball_site_, paddle_body_, ball_body_, ball_geom_;
  int paddle_geom_, own_half_, opponent_half_, net_, ground_, ball_vel_, paddle_vel_;
  int ball_posadr_ = 0, ball_dofadr_ = 0, torso_qposadr_ = 0;
  std::vector<int> body_qposadr_, body_dofadr_;
  double init_paddle_quat_[4] = {0, 0, 0, 0};
  // The package's contact_trajectory: each observation's label set.
  std::vector<unsigned> contacts_;
};

}  // namespace envpool::myosuite
