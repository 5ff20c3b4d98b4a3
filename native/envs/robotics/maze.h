// Gymnasium-Robotics' maze (gymnasium_robotics 1.4.2, envs/maze/maze_v4.py): the map, its
// cells' coordinates, the goal and reset cells, the MJCF with the walls and the target site
// (Maze.make_maze), and MazeEnv's goal and start draws from numpy's default_rng
// (generate_target_goal, generate_reset_pos, add_xy_position_noise), for the Point Maze
// (point_maze.h) and Ant Maze envs.
//
// The map arrives as one string per row, one character per cell: '1' a wall, '0' an empty
// cell, 'g' a goal cell, 'r' a reset cell, 'c' both (envpool/tasks/robotics_maze.py turns
// the package's list of lists of 0, 1, "g", "r", "c" into it).
#pragma once

#include <mujoco/mujoco.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/env.h"
#include "envs/common/keywords.h"
#include "envs/common/mujoco_env.h"
#include "envs/common/numpy_blas.h"
#include "envs/common/numpy_random.h"

namespace envpool::robotics {

using Xy = std::array<double, 2>;

class Maze {
 public:
  Maze(std::vector<std::string> rows, double scaling, double height)
      : rows_(std::move(rows)), scaling_(scaling), height_(height) {
    if (rows_.empty() || rows_[0].empty()) throw std::invalid_argument("maze_map is empty");
    length_ = static_cast<int>(rows_.size());
    width_ = static_cast<int>(rows_[0].size());
    for (const std::string& row : rows_) {
      if (static_cast<int>(row.size()) != width_) {
        throw std::invalid_argument("maze_map's rows must have the same length");
      }
      for (char c : row) {
        if (c != '0' && c != '1' && c != 'g' && c != 'r' && c != 'c') {
          throw std::invalid_argument("maze_map's cells are 0, 1, 'g', 'r' or 'c'");
        }
      }
    }
    // Maze.__init__: the map's center; make_maze: the cells by kind, row by row.
    x_center_ = width_ / 2.0 * scaling_;
    y_center_ = length_ / 2.0 * scaling_;
    std::vector<Xy> combined, empty;
    for (int i = 0; i < length_; ++i) {
      for (int j = 0; j < width_; ++j) {
        const Xy xy = CellXy(i, j);
        switch (rows_[i][j]) {
          case 'r': reset_.push_back(xy); break;
          case 'g': goal_.push_back(xy); break;
          case 'c': combined.push_back(xy); break;
          case '0': empty.push_back(xy); break;
          default: break;
        }
      }
    }
    if (goal_.empty() && reset_.empty() && combined.empty()) {
      combined = empty;
    } else if (reset_.empty() && combined.empty()) {
      reset_ = empty;
    } else if (goal_.empty() && combined.empty()) {
      goal_ = empty;
    }
    goal_.insert(goal_.end(), combined.begin(), combined.end());
    reset_.insert(reset_.end(), combined.begin(), combined.end());
    if (goal_.empty() || reset_.empty()) {
      throw std::invalid_argument("maze_map has no cell for the goal or for the start");
    }
  }

  // Maze.cell_rowcol_to_xy.
  Xy CellXy(int i, int j) const {
    return {(j + 0.5) * scaling_ - x_center_, y_center_ - (i + 0.5) * scaling_};
  }

  // make_maze's MJCF: the agent's model `base_xml` (the file's text) with, at the end of its
  // worldbody, a box geom for every wall cell and the target site.
  std::string Xml(const std::string& base_xml) const {
    const std::string close = "</worldbody>";
    const std::size_t at = base_xml.rfind(close);
    if (at == std::string::npos) {
      throw std::invalid_argument("the maze's base model has no worldbody");
    }
    std::ostringstream add;
    const double half_height = height_ / 2 * scaling_;
    for (int i = 0; i < length_; ++i) {
      for (int j = 0; j < width_; ++j) {
        if (rows_[i][j] != '1') continue;
        const Xy xy = CellXy(i, j);
        add << "<geom name=\"block_" << i << "_" << j << "\" pos=\"" << Num(xy[0]) << " "
            << Num(xy[1]) << " " << Num(half_height) << "\" size=\"" << Num(0.5 * scaling_) << " "
            << Num(0.5 * scaling_) << " " << Num(half_height)
            << "\" type=\"box\" material=\"\" contype=\"1\" conaffinity=\"1\" "
               "rgba=\"0.7 0.5 0.3 1.0\" />\n";
      }
    }
    add << "<site name=\"target\" pos=\"0 0 " << Num(half_height) << "\" size=\""
        << Num(0.2 * scaling_) << "\" rgba=\"1 0 0 0.7\" type=\"sphere\" />\n";
    std::string xml = base_xml;
    xml.insert(at, add.str());
    return xml;
  }

  // The agent's model file under `assets_dir` with the maze, compiled.
  mujoco::ModelPtr Compile(const std::string& assets_dir, const std::string& agent_xml) const {
    const std::string path = mujoco::ExpandModelPath(agent_xml, assets_dir);
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    const std::string xml = Xml(text.str());
    char error[1000] = "";
    std::unique_ptr<mjSpec, SpecDeleter> spec(
        mj_parseXMLString(xml.c_str(), nullptr, error, sizeof(error)));
    if (!spec) {
      throw std::runtime_error("MuJoCo could not parse the maze of " + path + ": " + error);
    }
    mjModel* model = mj_compile(spec.get(), nullptr);
    if (model == nullptr) {
      throw std::runtime_error("MuJoCo could not compile the maze of " + path + ": " +
                               mjs_getError(spec.get()));
    }
    return mujoco::ModelPtr(model, mujoco::ModelDeleter());
  }

  // MazeEnv.generate_target_goal.
  Xy GenerateTargetGoal(NumpyGenerator& rng) const {
    const std::int64_t n = static_cast<std::int64_t>(goal_.size());
    return goal_[static_cast<std::size_t>(rng.Integers(0, n))];
  }

  // MazeEnv.generate_reset_pos: a reset cell farther than `limit` from the goal (one draw at
  // least; maze_v4.py's limit is 0.5 * maze_size_scaling, maze.py's 0.5). The reference
  // loops forever where none is; this throws.
  Xy GenerateResetPos(NumpyGenerator& rng, const Xy& goal, double limit) const {
    const NumpyBlas blas = NumpyBlas::Fixed();
    bool any = false;
    for (const Xy& r : reset_) any = any || !(blas.Norm2(r[0] - goal[0], r[1] - goal[1]) <= limit);
    if (!any) {
      throw std::runtime_error("maze_map has no reset cell away from the goal's cell");
    }
    Xy pos = goal;
    while (blas.Norm2(pos[0] - goal[0], pos[1] - goal[1]) <= limit) {
      pos = reset_[static_cast<std::size_t>(
          rng.Integers(0, static_cast<std::int64_t>(reset_.size())))];
    }
    return pos;
  }

  // MazeEnv.add_xy_position_noise.
  Xy AddNoise(NumpyGenerator& rng, Xy xy, double noise_range) const {
    const double nx = rng.Uniform(-noise_range, noise_range) * scaling_;
    const double ny = rng.Uniform(-noise_range, noise_range) * scaling_;
    xy[0] += nx;
    xy[1] += ny;
    return xy;
  }

  int length() const { return length_; }
  double scaling() const { return scaling_; }
  double height() const { return height_; }
  std::size_t num_goals() const { return goal_.size(); }

 private:
  struct SpecDeleter {
    void operator()(mjSpec* s) const { mj_deleteSpec(s); }
  };
  // A number as text that reads back as the same double.
  static std::string Num(double x) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.17g", x);
    return buf;
  }

  std::vector<std::string> rows_;
  double scaling_, height_;
  int length_ = 0, width_ = 0;
  double x_center_ = 0, y_center_ = 0;
  std::vector<Xy> goal_, reset_;
};

// The task's keywords of a maze env (its Params derives from MazeKeywords).
struct MazeKeywords {
  std::string reward_type;
  bool continuing_task = true, reset_target = false;
};
template <class P>
void AddMazeKeywords(Keywords<P>& k) {
  k.Add("reward_type", std::string("sparse"), &P::reward_type);
  k.Add("continuing_task", true, &P::continuing_task);
  k.Add("reset_target", false, &P::reset_target);
}

// The goal dict of a maze env (achieved_goal, desired_goal, observation of `obs_size`, in
// gymnasium's sorted key order), `action`, and info["success"] (bool) first.
inline EnvSpec MazeSpec(std::int64_t obs_size, ArraySpec action) {
  EnvSpec spec;
  spec.obs.push_back(BoxSpec("achieved_goal", DType::kFloat64, {2}));
  spec.obs.push_back(BoxSpec("desired_goal", DType::kFloat64, {2}));
  spec.obs.push_back(BoxSpec("observation", DType::kFloat64, {obs_size}));
  spec.obs_layout = ObsLayout::kDict;
  spec.action = std::move(action);
  spec.info.push_back(BoxSpec("success", DType::kBool, {}));
  return spec;
}

// The task of a maze env (MazeEnv with the agent's position as its achieved goal): the goal,
// its draws, the reward, the termination, success and the goal drawn anew (update_goal).
// `maze`, `reward_type`, `continuing_task`, `reset_target` and `blas` (the running numpy's
// order of np.linalg.norm) come from the env's Params.
class MazeTask {
 public:
  struct Params : MazeKeywords {
    std::shared_ptr<const Maze> maze;
    NumpyBlas blas;
    double position_noise_range = 0.25;
    // maze.py's MazeEnv (the Ant Maze v3 ids) instead of maze_v4.py's: the start's limit
    // 0.5 unscaled, and a reached goal of a continuing task drawn anew once, inside
    // compute_terminated (whatever reset_target), before the reward, which is the new goal's.
    bool legacy = false;
  };

  explicit MazeTask(const Params& p) : p_(p) {
    if (p_.reward_type != "sparse" && p_.reward_type != "dense") {
      throw std::invalid_argument("reward_type must be 'sparse' or 'dense', got '" +
                                  p_.reward_type + "'");
    }
  }

  void Seed(std::uint64_t seed) { np_random_.Seed(seed); }

  // MazeEnv.reset: the goal, its noise, the start cell and its noise; returns the start.
  Xy Reset() {
    const Maze& maze = *p_.maze;
    goal_ = maze.AddNoise(np_random_, maze.GenerateTargetGoal(np_random_), p_.position_noise_range);
    shown_goal_ = goal0_ = goal_;
    const double limit = p_.legacy ? 0.5 : 0.5 * maze.scaling();
    return maze.AddNoise(np_random_, maze.GenerateResetPos(np_random_, goal_, limit),
                         p_.position_noise_range);
  }
  // The reset's info["success"], the agent at `xy`.
  void Started(const double* xy) { success_ = Distance(xy) <= kThreshold; }

  // After the agent's step, the agent at `xy`: compute_reward, compute_terminated, success,
  // then update_goal (the step's observation keeps the goal it was computed with).
  StepOutcome Step(const double* xy) {
    shown_goal_ = goal_;
    StepOutcome out;
    const bool reached = Distance(xy) <= kThreshold;  // np.linalg.norm: sqrt(x.dot(x))
    out.terminated = !p_.continuing_task && reached;
    success_ = reached;
    if (p_.legacy && p_.continuing_task && reached && p_.maze->num_goals() > 1) {
      goal_ = p_.maze->AddNoise(np_random_, p_.maze->GenerateTargetGoal(np_random_),
                                p_.position_noise_range);
    }
    // compute_reward: np.linalg.norm(..., axis=-1), sqrt of the squares summed in order.
    const double dx = xy[0] - goal_[0], dy = xy[1] - goal_[1];
    const double d = std::sqrt(dx * dx + dy * dy);
    out.reward = p_.reward_type == "dense" ? std::exp(-d) : (d <= kThreshold ? 1.0 : 0.0);
    if (!p_.legacy && p_.continuing_task && p_.reset_target && reached &&
        p_.maze->num_goals() > 1) {
      while (Distance(xy) <= kThreshold) {  // update_goal
        goal_ = p_.maze->AddNoise(np_random_, p_.maze->GenerateTargetGoal(np_random_),
                                  p_.position_noise_range);
      }
    }
    return out;
  }

  const Xy& goal() const { return goal_; }           // MazeEnv.goal
  const Xy& shown_goal() const { return shown_goal_; }  // the last observation's goal
  const Xy& goal0() const { return goal0_; }         // the episode's first goal
  bool success() const { return success_; }
  void SetGoal(const Xy& goal) { goal_ = shown_goal_ = goal; }

 private:
  static constexpr double kThreshold = 0.45;
  double Distance(const double* xy) const {
    return p_.blas.Norm2(xy[0] - goal_[0], xy[1] - goal_[1]);
  }

  Params p_;
  NumpyGenerator np_random_;
  Xy goal_{0, 0}, shown_goal_{0, 0}, goal0_{0, 0};
  bool success_ = false;
};

}  // namespace envpool::robotics
