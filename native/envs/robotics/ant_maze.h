// Gymnasium-Robotics' Ant Maze, v3, v4 and v5 (gymnasium_robotics 1.4.2: envs/maze/
// ant_maze_v{3,4,5}.py's AntMazeEnv over maze.py's (v3) or maze_v4.py's MazeEnv):
// gymnasium's Ant (v4, or v5 for v5; envs/mujoco/ant.h) in a maze of box walls
// (maze_size_scaling 4, maze_height 0.5), built on gymnasium's ant.xml; AntEnv with
// exclude_current_positions_from_observation=False and reset_noise_scale=0. One native env
// per version ("AntMazeV3", "AntMazeV4", "AntMazeV5") for every map
// (envpool/tasks/robotics_maze.py).
//
// The goal dict: achieved_goal is the torso's x, y (the Ant's observation's first two
// numbers), observation the rest of it; the Ant's own reward and termination are not used
// (the maze task's are, maze.h's MazeTask), as in the reference. Info: success (bool), and
// qpos0, qvel0, goal0 (the state right after the episode's reset). Frames as the reference
// draws them (Render).
#pragma once

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/mujoco/ant.h"
#include "envs/robotics/maze.h"

namespace envpool::robotics {

template <int V>
class AntMaze final : public Env {
  using Ant = mujoco::Ant<V == 3 ? 4 : V>;  // v3 and v4: gymnasium's Ant-v4

 public:
  struct Params : MazeKeywords {
    explicit Params(const Config& c) : ant(AntConfig(c)) {
      Keys().Read(c, *this);
      static_cast<MazeKeywords&>(task) = *this;
      task.legacy = V == 3;
      task.maze = std::make_shared<const Maze>(c.GetStrings("_maze_rows"), 4.0, 0.5);
      task.blas = ant.blas;
      ant.model = task.maze->Compile(ant.assets_dir, "ant.xml");
    }
    typename Ant::Params ant;
    MazeTask::Params task;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    AddMazeKeywords(k);
    return k;
  }
  // maps.U_MAZE, AntMazeEnv's default map; `assets_dir` and `_numpy_dot_fma` the Ant's.
  static Config Defaults() {
    Config c = Keys().Defaults();
    c.Set("assets_dir", std::string());
    c.Set("_numpy_dot_fma", true);
    c.Set("_maze_rows", std::vector<std::string>{"11111", "10001", "11101", "10001", "11111"});
    return c;
  }

  static EnvSpec MakeSpec(const Params& p) {
    const EnvSpec ant = Ant::MakeSpec(p.ant);
    const mjModel* m = p.ant.model.get();
    EnvSpec spec = MazeSpec(ant.obs[0].shape[0] - 2, ant.action);
    spec.info.push_back(BoxSpec("qpos0", DType::kFloat64, {m->nq}));
    spec.info.push_back(BoxSpec("qvel0", DType::kFloat64, {m->nv}));
    spec.info.push_back(BoxSpec("goal0", DType::kFloat64, {2}));
    return spec;
  }

  explicit AntMaze(const Params& p)
      : ant_(p.ant),
        ant_spec_(Ant::MakeSpec(p.ant)),
        task_(p.task),
        nq_(p.ant.model->nq),
        target_site_(mj_name2id(p.ant.model.get(), mjOBJ_SITE, "target")),
        target_z_(p.ant.model->site_pos[3 * target_site_ + 2]) {
    for (const ArraySpec& a : ant_spec_.obs) scratch_.emplace_back(a.NumBytes());
    for (const ArraySpec& a : ant_spec_.info) scratch_.emplace_back(a.NumBytes());
    for (std::vector<std::byte>& s : scratch_) ptrs_.push_back(s.data());
  }

  void Seed(std::uint64_t seed) override { task_.Seed(seed); }

  // MazeEnv.reset, then AntEnv's reset with init_qpos[:2] the start (reset_noise_scale 0:
  // init_qpos and init_qvel exactly): the Ant's reset, then its state with the start (one
  // mj_forward from the same state, as the reference's set_state).
  void Reset(Rng& rng) override {
    const Xy start = task_.Reset();
    ant_.Reset(rng);
    std::vector<double> state = ant_.GetState();
    state[0] = start[0];
    state[1] = start[1];
    ant_.SetState(state);
    qpos0_.assign(state.begin(), state.begin() + nq_);
    qvel0_.assign(state.begin() + nq_, state.end());
    Capture();
    task_.Started(AntObs());
  }

  // AntEnv.step, then the task's reward, termination, success and update_goal.
  StepOutcome Step(const ActionView& action, Rng& rng) override {
    ant_.Step(action, rng);
    Capture();
    return task_.Step(AntObs());
  }

  void Write(const Slot& slot) const override {
    const double* obs = AntObs();
    const std::int64_t n = ant_spec_.obs[0].shape[0];
    std::copy(obs, obs + 2, slot.Obs<double>(0));
    std::copy(task_.shown_goal().begin(), task_.shown_goal().end(), slot.Obs<double>(1));
    std::copy(obs + 2, obs + n, slot.Obs<double>(2));
    *slot.Info<bool>(0) = task_.success();
    std::copy(qpos0_.begin(), qpos0_.end(), slot.Info<double>(1));
    std::copy(qvel0_.begin(), qvel0_.end(), slot.Info<double>(2));
    std::copy(task_.goal0().begin(), task_.goal0().end(), slot.Info<double>(3));
  }

  // AntMazeEnv's frames: the Ant's (gymnasium's MujocoRenderer, 480 x 480, its camera's
  // distance 4), render_fps 50 (AntMazeEnv's metadata).
  static FrameSize RenderSize(const Params& p, int width, int height, int camera_id) {
    const auto [w, h] =
        mjrender::CheckFrame(p.ant.model.get(), width, height, camera_id, 480, 480, "AntMaze");
    return FrameSize{h, w, 50.0};
  }

  // The target where the reference's last mj_forward put it (point_maze.h's Render says
  // why): the goal of the last observation.
  void Render(int width, int height, int camera_id, std::uint8_t* out) override {
    const double xyz[3] = {task_.shown_goal()[0], task_.shown_goal()[1], target_z_};
    ant_.SetSiteXpos(target_site_, xyz);
    ant_.Render(width, height, camera_id, out);
  }

  // qpos, qvel, then the goal (2 numbers).
  std::vector<double> GetState() const override {
    std::vector<double> s = ant_.GetState();
    s.insert(s.end(), task_.goal().begin(), task_.goal().end());
    return s;
  }
  void SetState(const std::vector<double>& state) override {
    if (state.size() < 2) throw std::invalid_argument("the state is qpos, qvel, then the goal");
    ant_.SetState(std::vector<double>(state.begin(), state.end() - 2));
    task_.SetGoal({state[state.size() - 2], state.back()});
    Capture();
  }

 private:
  // The Ant's observation (and infos) of its current state, into the scratch arrays.
  void Capture() {
    ant_.Write(Slot(ptrs_.data(), ptrs_.data() + ant_spec_.obs.size(), &ant_spec_));
  }
  const double* AntObs() const { return reinterpret_cast<const double*>(scratch_[0].data()); }

  static Config AntConfig(const Config& c) {
    Config a = Ant::Defaults();
    a.Set("assets_dir", c.GetString("assets_dir"));
    a.Set("_numpy_dot_fma", c.GetBool("_numpy_dot_fma"));
    a.Set("exclude_current_positions_from_observation", false);
    a.Set("reset_noise_scale", 0.0);
    return a;
  }

  Ant ant_;
  EnvSpec ant_spec_;
  MazeTask task_;
  std::vector<std::vector<std::byte>> scratch_;  // the Ant's observation, then its infos
  std::vector<std::byte*> ptrs_;
  std::ptrdiff_t nq_;
  int target_site_;
  double target_z_;  // the target's height (maze_height / 2 * maze_size_scaling)
  std::vector<double> qpos0_, qvel0_;
};

}  // namespace envpool::robotics
