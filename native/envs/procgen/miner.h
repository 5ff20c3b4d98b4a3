// procgen's miner (src/games/miner.cpp), restated: a digging robot collects every diamond
// (+1 each) and then reaches the exit (+10, the level complete) under boulders and diamonds
// that fall and roll (Boulder Dash rules on the grid, one cell a step); a falling one on
// the agent ends the episode. The world is 10 (easy), 20 (hard) or 35 (memory) cells wide;
// memory mode shows 8 cells around the agent (center_agent).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "envs/procgen/game.h"

namespace envpool::procgen {

class Miner final : public BasicGame {
 public:
  static constexpr const char* kName = "miner";
  static constexpr bool kHasExtreme = false;
  static constexpr bool kHasMemory = true;

  explicit Miner(std::shared_ptr<AssetStore> assets) : BasicGame(kName, std::move(assets)) {
    main_width_ = 20;
    main_height_ = 20;
    mixrate_ = .5;
    maxspeed_ = .5;
    has_useful_vel_info_ = false;
    out_of_bounds_object_ = kOobWall;
    visibility_ = 8.0;
  }

 protected:
  static constexpr float kCompletionBonus = 10.0;
  static constexpr int kDiamondReward = 1;
  static constexpr int kBoulder = 1;
  static constexpr int kDiamond = 2;
  static constexpr int kMovingBoulder = 3;
  static constexpr int kMovingDiamond = 4;
  static constexpr int kEnemy = 5;
  static constexpr int kExit = 6;
  static constexpr int kDirt = 9;
  static constexpr int kOobWall = 10;

  void LoadBackgroundImages() override { SetBackgrounds(PlatformBackgrounds()); }

  void AssetForType(int type, std::vector<std::string>& names) override {
    if (type == kPlayer) {
      names.push_back("misc_assets/robot_greenDrive1.png");
    } else if (type == kBoulder) {
      names.push_back("misc_assets/elementStone007.png");
    } else if (type == kDiamond) {
      names.push_back("misc_assets/gemBlue.png");
    } else if (type == kExit) {
      names.push_back("misc_assets/window.png");
    } else if (type == kDirt) {
      names.push_back("misc_assets/dirt.png");
    } else if (type == kOobWall) {
      names.push_back("misc_assets/tile_bricksGrey.png");
    }
  }

  bool IsBlocked(const EntityPtr& src, int target, bool is_horizontal) override {
    if (BasicGame::IsBlocked(src, target, is_horizontal)) return true;
    return src->type == kPlayer &&
           (target == kBoulder || target == kMovingBoulder || target == kOobWall);
  }

  bool WillReflect(int src, int target) override {
    return src == kEnemy && (target == kBoulder || target == kDiamond ||
                             target == kMovingBoulder || target == kMovingDiamond ||
                             target == out_of_bounds_object_);
  }

  void HandleAgentCollision(const EntityPtr& obj) override {
    if (obj->type == kEnemy) {
      step_data_.done = true;
    } else if (obj->type == kExit && diamonds_remaining_ == 0) {
      step_data_.reward += kCompletionBonus;
      step_data_.level_complete = true;
      step_data_.done = true;
    }
  }

  int ImageForType(int type) override {
    if (type == kMovingBoulder) return kBoulder;
    if (type == kMovingDiamond) return kDiamond;
    return BasicGame::ImageForType(type);
  }

  int GetAgentIndex() const {
    return static_cast<int>(agent_->y) * main_width_ + static_cast<int>(agent_->x);
  }

  void SetActionXY(int move_action) override {
    BasicGame::SetActionXY(move_action);
    if (action_vx_ != 0) action_vy_ = 0;
  }

  void ChooseNewVel(const EntityPtr& ent) {
    const int is_horizontal = rand_gen_.RandBool();
    const int vel = rand_gen_.RandN(2) * 2 - 1;
    if (is_horizontal) {
      ent->vx = vel;
      ent->vy = 0;
    } else {
      ent->vx = 0;
      ent->vy = vel;
    }
  }

  void ChooseWorldDim() override {
    const int dist_diff = options_.distribution_mode;
    if (dist_diff == kEasyMode) {
      main_width_ = 10;
      main_height_ = 10;
    } else if (dist_diff == kHardMode) {
      main_width_ = 20;
      main_height_ = 20;
    } else if (dist_diff == kMemoryMode) {
      main_width_ = 35;
      main_height_ = 35;
    }
  }

  void GameReset() override {
    BasicGame::GameReset();
    agent_->rx = .5;
    agent_->ry = .5;
    const int main_area = main_height_ * main_width_;
    options_.center_agent = options_.distribution_mode == kMemoryMode;
    grid_step_ = true;
    const float diamond_pct = 12 / 400.0f;
    const float boulder_pct = 80 / 400.0f;
    const int num_diamonds = static_cast<int>(diamond_pct * grid_size_);
    const int num_boulders = static_cast<int>(boulder_pct * grid_size_);
    const std::vector<int> obj_idxs =
        rand_gen_.SimpleChoose(main_area, num_diamonds + num_boulders + 1);
    const int agent_x = obj_idxs[0] % main_width_;
    const int agent_y = obj_idxs[0] / main_width_;
    agent_->x = agent_x + .5;
    agent_->y = agent_y + .5;
    for (int i = 0; i < main_area; i++) SetObjIdx(i, kDirt);
    for (int i = 0; i < num_diamonds; i++) SetObjIdx(obj_idxs[i + 1], kDiamond);
    for (int i = 0; i < num_boulders; i++) SetObjIdx(obj_idxs[i + 1 + num_diamonds], kBoulder);
    std::vector<int> dirt_cells;  // get_cells_with_type
    for (int i = 0; i < grid_size_; i++) {
      if (GetObjIdx(i) == kDirt) dirt_cells.push_back(i);
    }
    SetObj(static_cast<int>(agent_->x), static_cast<int>(agent_->y), kSpace);
    for (int i = -1; i <= 1; i++) {
      for (int j = -1; j <= 1; j++) {
        const int ox = agent_x + i;
        const int oy = agent_y + j;
        if (GetObj(ox, oy) == kBoulder) SetObj(ox, oy, kDirt);
      }
    }
    std::vector<int> exit_candidates;
    for (int cell : dirt_cells) {
      const int above_obj = GetObjIdx(cell + main_width_);
      if (above_obj == kDirt || above_obj == out_of_bounds_object_) exit_candidates.push_back(cell);
    }
    if (exit_candidates.empty()) throw std::logic_error("procgen miner: no exit cell");
    const int exit_cell = exit_candidates[rand_gen_.RandN(static_cast<int>(exit_candidates.size()))];
    SetObjIdx(exit_cell, kSpace);
    auto exit = AddEntity((exit_cell % main_width_) + .5, (exit_cell / main_width_) + .5, 0, 0, .5,
                          kExit);
    exit->render_z = -1;
  }

  static int GetMovingType(int type) {
    if (type == kDiamond) return kMovingDiamond;
    if (type == kBoulder) return kMovingBoulder;
    return type;
  }
  static bool IsMoving(int type) { return type == kMovingBoulder || type == kMovingDiamond; }
  static int GetStationaryType(int type) {
    if (type == kMovingDiamond) return kDiamond;
    if (type == kMovingBoulder) return kBoulder;
    return type;
  }
  bool IsFree(int idx) const { return GetObjIdx(idx) == kSpace && (GetAgentIndex() != idx); }
  static bool IsRound(int type) {
    return type == kBoulder || type == kMovingBoulder || type == kDiamond || type == kMovingDiamond;
  }

  void HandlePush() {
    const int agent_idx = GetAgentIndex();
    const int agentx = agent_idx % main_width_;
    if (action_vx_ == 1 && (agent_->vx == 0) && (agentx < main_width_ - 2) &&
        GetObjIdx(agent_idx + 1) == kBoulder && GetObjIdx(agent_idx + 2) == kSpace) {
      SetObjIdx(agent_idx + 1, kSpace);
      SetObjIdx(agent_idx + 2, kBoulder);
      agent_->x += 1;
    } else if (action_vx_ == -1 && (agent_->vx == 0) && (agentx > 1) &&
               GetObjIdx(agent_idx - 1) == kBoulder && GetObjIdx(agent_idx - 2) == kSpace) {
      SetObjIdx(agent_idx - 1, kSpace);
      SetObjIdx(agent_idx - 2, kBoulder);
      agent_->x -= 1;
    }
  }

  void GameStep() override {
    BasicGame::GameStep();
    if (action_vx_ > 0) agent_->is_reflected = false;
    if (action_vx_ < 0) agent_->is_reflected = true;
    HandlePush();
    const int agent_obj = GetObj(static_cast<int>(agent_->x), static_cast<int>(agent_->y));
    if (agent_obj == kDiamond) step_data_.reward += kDiamondReward;
    if (agent_obj == kDirt || agent_obj == kDiamond) {
      SetObj(static_cast<int>(agent_->x), static_cast<int>(agent_->y), kSpace);
    }
    const int main_area = main_width_ * main_height_;
    int diamonds_count = 0;
    for (int idx = 0; idx < main_area; idx++) {
      const int obj = GetObjIdx(idx);
      const int obj_x = idx % main_width_;
      // a double expression converted to int
      const int agent_idx = static_cast<int>((agent_->y - .5) * main_width_ + (agent_->x - .5));
      const int stat_type = GetStationaryType(obj);
      if (stat_type == kDiamond) diamonds_count++;
      if (obj == kBoulder || obj == kMovingBoulder || obj == kDiamond || obj == kMovingDiamond) {
        const int below_idx = idx - main_width_;
        const int obj2 = GetObjIdx(below_idx);
        const bool agent_is_below = agent_idx == below_idx;
        if (obj2 == kSpace && !agent_is_below) {
          SetObjIdx(idx, kSpace);
          SetObjIdx(below_idx, GetMovingType(obj));
        } else if (agent_is_below && IsMoving(obj)) {
          step_data_.done = true;
        } else if (IsRound(obj2) && obj_x > 0 && IsFree(idx - 1) && IsFree(idx - main_width_ - 1)) {
          SetObjIdx(idx, kSpace);
          SetObjIdx(idx - 1, GetStationaryType(obj));
        } else if (IsRound(obj2) && obj_x < main_width_ - 1 && IsFree(idx + 1) &&
                   IsFree(idx - main_width_ + 1)) {
          SetObjIdx(idx, kSpace);
          SetObjIdx(idx + 1, stat_type);
        } else {
          SetObjIdx(idx, stat_type);
        }
      }
    }
    diamonds_remaining_ = diamonds_count;
    for (const auto& ent : entities_) {
      if (ent->type == kEnemy && rand_gen_.RandN(6) == 0) ChooseNewVel(ent);
    }
  }

 private:
  int diamonds_remaining_ = 0;
};

}  // namespace envpool::procgen
