// procgen's maze (src/games/maze.cpp), restated: a mouse finds the cheese (+10, the level
// complete) in a maze carved by MazeGen, moving one cell a step (grid_step). The world is
// 15 (easy), 25 (hard) or 31 (memory) cells wide, the maze a random odd size in it; memory
// mode shows 8 cells around the agent (center_agent), the others the whole world. Timeout
// 500 steps; no velocity information to paint.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "envs/procgen/game.h"
#include "envs/procgen/mazegen.h"

namespace envpool::procgen {

class Maze final : public BasicGame {
 public:
  static constexpr const char* kName = "maze";
  static constexpr bool kHasExtreme = false;
  static constexpr bool kHasMemory = true;

  explicit Maze(std::shared_ptr<AssetStore> assets) : BasicGame(kName, std::move(assets)) {
    timeout_ = 500;
    random_agent_start_ = false;
    has_useful_vel_info_ = false;
    out_of_bounds_object_ = kWallObj;
    visibility_ = 8.0;
  }

 protected:
  static constexpr float kReward = 10.0;
  static constexpr int kGoal = 2;

  void LoadBackgroundImages() override { SetBackgrounds(TopdownBackgrounds()); }

  void AssetForType(int type, std::vector<std::string>& names) override {
    if (type == kWallObj) {
      names.push_back("kenney/Ground/Sand/sandCenter.png");
    } else if (type == kGoal) {
      names.push_back("misc_assets/cheese.png");
    } else if (type == kPlayer) {
      names.push_back("kenney/Enemies/mouse_move.png");
    }
  }

  void ChooseWorldDim() override {
    const int dist_diff = options_.distribution_mode;
    if (dist_diff == kEasyMode) {
      world_dim_ = 15;
    } else if (dist_diff == kHardMode) {
      world_dim_ = 25;
    } else if (dist_diff == kMemoryMode) {
      world_dim_ = 31;
    }
    main_width_ = world_dim_;
    main_height_ = world_dim_;
  }

  void GameReset() override {
    BasicGame::GameReset();
    grid_step_ = true;
    maze_dim_ = rand_gen_.RandN((world_dim_ - 1) / 2) * 2 + 3;
    const int margin = (world_dim_ - maze_dim_) / 2;
    MazeGen maze_gen(&rand_gen_, maze_dim_);
    options_.center_agent = options_.distribution_mode == kMemoryMode;
    agent_->rx = .5;
    agent_->ry = .5;
    agent_->x = margin + .5;
    agent_->y = margin + .5;
    maze_gen.GenerateMaze();
    maze_gen.PlaceObjects(kGoal, 1);
    for (int i = 0; i < grid_size_; i++) SetObjIdx(i, kWallObj);
    for (int i = 0; i < maze_dim_; i++) {
      for (int j = 0; j < maze_dim_; j++) {
        SetObj(margin + i, margin + j,
               maze_gen.Get(i + MazeGen::kMazeOffset, j + MazeGen::kMazeOffset));
      }
    }
    if (margin > 0) {
      for (int i = 0; i < maze_dim_ + 2; i++) {
        SetObj(margin - 1, margin + i - 1, kWallObj);
        SetObj(margin + maze_dim_, margin + i - 1, kWallObj);
        SetObj(margin + i - 1, margin - 1, kWallObj);
        SetObj(margin + i - 1, margin + maze_dim_, kWallObj);
      }
    }
  }

  void SetActionXY(int move_action) override {
    BasicGame::SetActionXY(move_action);
    if (action_vx_ != 0) action_vy_ = 0;
  }

  void GameStep() override {
    BasicGame::GameStep();
    if (action_vx_ > 0) agent_->is_reflected = true;
    if (action_vx_ < 0) agent_->is_reflected = false;
    const int ix = static_cast<int>(agent_->x);
    const int iy = static_cast<int>(agent_->y);
    if (GetObj(ix, iy) == kGoal) {
      SetObj(ix, iy, kSpace);
      step_data_.reward += kReward;
      step_data_.level_complete = true;
    }
    step_data_.done = step_data_.reward > 0;
  }

 private:
  int maze_dim_ = 0;
  int world_dim_ = 0;
};

}  // namespace envpool::procgen
