// Stacker: dm_control/suite/stacker.py (stack_2, stack_4). The model keeps
// the first n boxes of stacker.xml (make_model(n_boxes), done by
// envpool/tasks/dm_control_models.py). The target is moved in the model at
// every reset, so its position is task state.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/common/numpy_blas.h"
#include "envs/dm_control/dm_control_env.h"
#include "envs/dm_control/rewards.h"

namespace envpool::dm_control {

class Stacker final : public DmcEnv {
 public:
  struct Params : CommonParams {
    explicit Params(const Config& c) : CommonParams(c) {
      if (task == "stack_2") {
        n_boxes = 2;
      } else if (task == "stack_4") {
        n_boxes = 4;
      } else {
        throw std::invalid_argument("stacker has no task '" + task + "'");
      }
    }
    int n_boxes = 2;
  };

  // n_sub_steps: _CONTROL_TIMESTEP .01 / timestep .001.
  static Config Defaults() { return dm_control::Defaults(10, "stack_2"); }

  // Stack.get_observation (fully observable); arm_pos is (8, 2) and box_pos
  // (n_boxes, 4) in dm_control, flat here and shaped in MakeSpec.
  static ObsKeys Keys(const Params& p) {
    const mjModel* m = p.model.get();
    return {{"arm_pos", 16},          {"arm_vel", 8},
            {"touch", m->nsensordata}, {"hand_pos", 4},
            {"box_pos", 4 * p.n_boxes}, {"box_vel", 3 * p.n_boxes},
            {"target_pos", 2}};
  }
  static EnvSpec MakeSpec(const Params& p) {
    // Info: sail-sg EnvPool's qacc_warmstart0 and target0 (its test build's keys) after qpos0
    // and qvel0: the solver's warm start now (DmcEnv::WriteQaccWarmstart) and the target's x
    // and z (the task state).
    EnvSpec spec = DmcSpec(p, Keys(p), {{"qacc_warmstart0", p.model->nv}, {"target0", 2}});
    const std::vector<std::int64_t> lead =
        p.frame_stack > 1 ? std::vector<std::int64_t>{p.frame_stack} : std::vector<std::int64_t>{};
    auto shape = [&lead](std::int64_t rows, std::int64_t cols) {
      std::vector<std::int64_t> s = lead;
      s.push_back(rows);
      s.push_back(cols);
      return s;
    };
    spec.obs[0].shape = shape(8, 2);
    spec.obs[4].shape = shape(p.n_boxes, 4);
    return spec;
  }

  explicit Stacker(const Params& p)
      : DmcEnv(p, Keys(p)),
        n_boxes_(p.n_boxes),
        hand_(Id(mjOBJ_BODY, "hand")),
        target_(Id(mjOBJ_BODY, "target")),
        target_site_(Id(mjOBJ_SITE, "target")),
        grasp_site_(Id(mjOBJ_SITE, "grasp")),
        box_size_(m_->geom_size[3 * Id(mjOBJ_GEOM, "target")]) {
    const char* arm_joints[8] = {"arm_root", "arm_shoulder", "arm_elbow", "arm_wrist",
                                 "finger",   "fingertip",    "thumb",     "thumbtip"};
    for (int k = 0; k < 8; ++k) arm_joints_[k] = Id(mjOBJ_JOINT, arm_joints[k]);
    finger_ = QposAdr("finger");
    thumb_ = QposAdr("thumb");
    for (int b = 0; b < n_boxes_; ++b) {
      const std::string name = "box" + std::to_string(b);
      boxes_.push_back(Id(mjOBJ_BODY, name.c_str()));
      box_sites_.push_back(Id(mjOBJ_SITE, name.c_str()));
      for (const char* dim : {"_x", "_y", "_z"}) {
        box_joints_.push_back(Id(mjOBJ_JOINT, (name + dim).c_str()));
      }
    }
  }

 protected:
  void Observe(double* const* obs) const override {
    for (int k = 0; k < 8; ++k) {  // bounded_joint_pos: rows (sin, cos)
      const double q = d_->qpos[m_->jnt_qposadr[arm_joints_[k]]];
      obs[0][2 * k] = std::sin(q);
      obs[0][2 * k + 1] = std::cos(q);
      obs[1][k] = d_->qvel[m_->jnt_dofadr[arm_joints_[k]]];
    }
    // touch: np.log1p(sensordata). numpy's float64 log1p is SVML's (AVX-512
    // machines), which differs from libm's by 1 ulp now and then.
    for (int i = 0; i < m_->nsensordata; ++i) obs[2][i] = std::log1p(d_->sensordata[i]);
    BodyPose(hand_, obs[3]);
    for (int b = 0; b < n_boxes_; ++b) BodyPose(boxes_[b], obs[4] + 4 * b);
    // box_vel: the joints box<b>_x, _y, _z in that order.
    for (std::size_t j = 0; j < box_joints_.size(); ++j) {
      obs[5][j] = d_->qvel[m_->jnt_dofadr[box_joints_[j]]];
    }
    obs[6][0] = d_->xpos[3 * target_];
    obs[6][1] = d_->xpos[3 * target_ + 2];
  }

  // Stack.initialize_episode: random arm, target and boxes until nothing
  // penetrates.
  void InitializeEpisode(Rng& rng) override {
    constexpr double kPi = 3.141592653589793;
    do {
      for (int j : arm_joints_) {
        const bool limited = m_->jnt_limited[j] != 0;
        const double lo = limited ? m_->jnt_range[2 * j] : -kPi;
        const double hi = limited ? m_->jnt_range[2 * j + 1] : kPi;
        d_->qpos[m_->jnt_qposadr[j]] = rng.Uniform(lo, hi);
      }
      d_->qpos[finger_] = d_->qpos[thumb_];  // symmetrize the hand
      const double target_height = 2 * static_cast<double>(rng.Integer(0, n_boxes_)) + 1;
      m_->body_pos[3 * target_ + 2] = box_size_ * target_height;
      m_->body_pos[3 * target_] = rng.Uniform(-.37, .37);
      for (std::size_t b = 0; b < boxes_.size(); ++b) {
        d_->qpos[m_->jnt_qposadr[box_joints_[3 * b]]] = rng.Uniform(.1, .3);       // x
        d_->qpos[m_->jnt_qposadr[box_joints_[3 * b + 2]]] = rng.Uniform(0, .7);    // z
        d_->qpos[m_->jnt_qposadr[box_joints_[3 * b + 1]]] = rng.Uniform(0, 2 * kPi);  // y
      }
      AfterReset();
    } while (d_->ncon > 0);
  }

  // Stack.get_reward: the box nearest the target close to it, the hand away.
  double GetReward() override {
    double min_box_to_target = std::numeric_limits<double>::infinity();
    for (int site : box_sites_) {
      min_box_to_target = std::fmin(min_box_to_target, SiteDistance(site));
    }
    const double box_is_close = Tolerance(min_box_to_target, 0, 0, 2 * box_size_);
    const double hand_is_far = Tolerance(SiteDistance(grasp_site_), .1,
                                         std::numeric_limits<double>::infinity(), .01);
    return box_is_close * hand_is_far;
  }

  void WriteTaskInfo(const Slot& slot) const override {
    WriteQaccWarmstart(slot, 2);
    WriteTaskStateInfo(slot, 3);
  }

  // The target's x and z in the model (body_pos).
  std::vector<double> GetTaskState() const override {
    return {m_->body_pos[3 * target_], m_->body_pos[3 * target_ + 2]};
  }
  void SetTaskState(const std::vector<double>& state) override {
    m_->body_pos[3 * target_] = state[0];
    m_->body_pos[3 * target_ + 2] = state[1];
  }

 private:
  // body_2d_pose: x, z, qw, qy.
  void BodyPose(int body, double* out) const {
    out[0] = d_->xpos[3 * body];
    out[1] = d_->xpos[3 * body + 2];
    out[2] = d_->xquat[4 * body];
    out[3] = d_->xquat[4 * body + 2];
  }
  // site_distance(site, 'target'): np.linalg.norm(site - target).
  double SiteDistance(int site) const {
    const mjtNum* a = d_->site_xpos + 3 * site;
    const mjtNum* t = d_->site_xpos + 3 * target_site_;
    const double v[3] = {a[0] - t[0], a[1] - t[1], a[2] - t[2]};
    return blas_.Norm(v, 3);
  }

  int n_boxes_;
  int hand_, target_, target_site_, grasp_site_;
  double box_size_;
  int arm_joints_[8];
  int finger_, thumb_;
  std::vector<int> boxes_, box_sites_, box_joints_;
};

}  // namespace envpool::dm_control
