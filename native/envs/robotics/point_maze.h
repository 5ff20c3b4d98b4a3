// Gymnasium-Robotics' Point Maze (gymnasium_robotics 1.4.2: envs/maze/point_maze.py's
// PointMazeEnv over maze_v4.py's MazeEnv, with point.py's PointEnv): a force-actuated ball
// (envs/assets/point/point.xml) in a maze of box walls. One native env ("PointMaze") for
// every map: the map and the reward are keywords (envpool/tasks/robotics_maze.py).
//
// The goal-env contract: a dict observation (achieved_goal, desired_goal, observation, in
// gymnasium's sorted key order), info["success"] (bool), the reward of compute_reward
// (exp(-d) dense, d <= 0.45 sparse, d the goals' distance), terminated only where
// continuing_task is False; with continuing_task and reset_target a reached goal is drawn
// anew (update_goal) after the step's observation, which still shows the reached one.
//
// sail-sg EnvPool's info keys: qpos0, qvel0, qacc0, qacc_warmstart0 and goal0, the state
// right after the episode's reset.
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/common/mujoco_env.h"
#include "envs/robotics/maze.h"

namespace envpool::robotics {

class PointMaze final : public mujoco::MujocoEnv {
 public:
  struct Params : mujoco::ModelParams, MazeKeywords {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      blas.dot_fma = numpy_dot_fma;
      static_cast<MazeKeywords&>(task) = *this;
      // PointMazeEnv: maze_size_scaling 1, maze_height 0.4.
      task.maze = std::make_shared<const Maze>(c.GetStrings("_maze_rows"), 1.0, 0.4);
      task.blas = blas;
      model = task.maze->Compile(assets_dir, xml_file);
      target_site = mj_name2id(model.get(), mjOBJ_SITE, "target");
    }
    MazeTask::Params task;
    int target_site = -1;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k = mujoco::ModelKeywords<Params>("point/point.xml", false);
    AddMazeKeywords(k);
    return k;
  }
  // maps.U_MAZE, PointMazeEnv's default map.
  static Config Defaults() {
    Config c = Keys().Defaults();
    c.Set("_maze_rows", std::vector<std::string>{"11111", "10001", "11101", "10001", "11111"});
    return c;
  }

  static EnvSpec MakeSpec(const Params& p) {
    const mjModel* m = p.model.get();
    EnvSpec spec =
        MazeSpec(m->nq + m->nv, BoxSpec("action", DType::kFloat32, {2}, {-1, -1}, {1, 1}));
    spec.info.push_back(BoxSpec("qpos0", DType::kFloat64, {m->nq}));
    spec.info.push_back(BoxSpec("qvel0", DType::kFloat64, {m->nv}));
    spec.info.push_back(BoxSpec("qacc0", DType::kFloat64, {m->nv}));
    spec.info.push_back(BoxSpec("qacc_warmstart0", DType::kFloat64, {m->nv}));
    spec.info.push_back(BoxSpec("goal0", DType::kFloat64, {2}));
    return spec;
  }

  explicit PointMaze(const Params& p) : MujocoEnv(p, 1, 0), p_(p), task_(p.task) {}

  void Seed(std::uint64_t seed) override { task_.Seed(seed); }

  // MazeEnv.reset (the goal, its noise, the start cell, its noise), then PointEnv's reset:
  // mj_resetData and set_state(init_qpos with the start, init_qvel).
  void Reset(Rng& /*rng*/) override {
    const Xy start = task_.Reset();
    mj_resetData(m_, d_);
    std::vector<double> qpos(init_qpos_);
    qpos[0] = start[0];
    qpos[1] = start[1];
    SetQposQvel(qpos.data(), init_qvel_.data());
    task_.Started(d_->qpos);
    qacc0_.assign(d_->qacc, d_->qacc + m_->nv);
    qacc_warmstart0_.assign(d_->qacc_warmstart, d_->qacc_warmstart + m_->nv);
  }

  // PointEnv.step (the clipped action, the velocity clipped to [-5, 5] and set_state, one
  // mj_step), then the task's reward, termination, success and update_goal.
  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const float* raw = action.As<float>();
    float a[2];
    for (int i = 0; i < 2; ++i) {
      a[i] = std::isnan(raw[i]) ? raw[i] : std::min(std::max(raw[i], -1.0f), 1.0f);
    }
    std::vector<double> qvel(d_->qvel, d_->qvel + m_->nv);
    for (double& v : qvel) v = mujoco::Clip(v, -5.0, 5.0);
    SetQposQvel(std::vector<double>(d_->qpos, d_->qpos + m_->nq).data(), qvel.data(),
                /*episode_start=*/false);
    DoSimulation(a);
    return task_.Step(d_->qpos);
  }

  void Write(const Slot& slot) const override {
    std::copy(d_->qpos, d_->qpos + 2, slot.Obs<double>(0));
    std::copy(task_.shown_goal().begin(), task_.shown_goal().end(), slot.Obs<double>(1));
    WriteObs(slot.Obs<double>(2));
    *slot.Info<bool>(0) = task_.success();
    std::copy(qpos0_.begin(), qpos0_.end(), slot.Info<double>(1));
    std::copy(qvel0_.begin(), qvel0_.end(), slot.Info<double>(2));
    std::copy(qacc0_.begin(), qacc0_.end(), slot.Info<double>(3));
    std::copy(qacc_warmstart0_.begin(), qacc_warmstart0_.end(), slot.Info<double>(4));
    std::copy(task_.goal0().begin(), task_.goal0().end(), slot.Info<double>(5));
  }

  // qpos, qvel, then the goal (2 numbers).
  std::vector<double> GetState() const override {
    std::vector<double> s = MujocoEnv::GetState();
    s.insert(s.end(), task_.goal().begin(), task_.goal().end());
    return s;
  }
  void SetState(const std::vector<double>& state) override {
    const std::size_t n = m_->nq + m_->nv;
    if (state.size() != n + 2) {
      throw std::invalid_argument("the state is qpos, qvel, then the goal: " +
                                  std::to_string(n + 2) + " numbers");
    }
    MujocoEnv::SetState(std::vector<double>(state.begin(), state.begin() + n));
    task_.SetGoal({state[n], state[n + 1]});
  }

  // PointMazeEnv's frames (gymnasium's MujocoRenderer, 480 x 480, its default camera's
  // distance 12.5 for maps of more than 8 rows, else 8.8); render_fps 50 (its metadata).
  static FrameSize RenderSize(const Params& p, int width, int height, int camera_id) {
    const auto [w, h] =
        mjrender::CheckFrame(p.model.get(), width, height, camera_id, 480, 480, "PointMaze");
    return FrameSize{h, w, 50.0};
  }

  // The target is drawn where the last mj_forward put it: the reference moves the target
  // site of its model (update_target_site_pos) when it draws a goal, and its site_xpos
  // follows at the next mj_forward or mj_step, so a frame after a step shows the goal of
  // that step's observation. The target is a site of the world body: site_xpos = site_pos.
  void Render(int width, int height, int camera_id, std::uint8_t* out) override {
    d_->site_xpos[3 * p_.target_site] = task_.shown_goal()[0];
    d_->site_xpos[3 * p_.target_site + 1] = task_.shown_goal()[1];
    MujocoEnv::Render(width, height, camera_id, out);
  }

 protected:
  mujoco::CameraConfig DefaultCamera() const override {
    return mujoco::DistanceCamera(p_.task.maze->length() > 8 ? 12.5 : 8.8);
  }

 private:
  // PointEnv._get_obs: qpos then qvel.
  void WriteObs(double* obs) const override { WriteQposQvel(obs, 0); }

  Params p_;
  MazeTask task_;
  std::vector<double> qacc0_, qacc_warmstart0_;
};

}  // namespace envpool::robotics
