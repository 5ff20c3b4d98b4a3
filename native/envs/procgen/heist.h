// procgen's heist (src/games/heist.cpp), restated: the agent steals a gem (+10, the level
// complete) from a maze behind up to three locked doors, each opened by the key of its
// colour picked up before. The world is 9 (easy), 13 (hard) or 23 (memory) cells wide;
// memory mode shows 8 cells around the agent (center_agent). The keys held are drawn in
// the top right corner.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "envs/procgen/game.h"
#include "envs/procgen/mazegen.h"

namespace envpool::procgen {

class Heist final : public BasicGame {
 public:
  static constexpr const char* kName = "heist";
  static constexpr bool kHasExtreme = false;
  static constexpr bool kHasMemory = true;

  explicit Heist(std::shared_ptr<AssetStore> assets) : BasicGame(kName, std::move(assets)) {
    has_useful_vel_info_ = false;
    main_width_ = 20;
    main_height_ = 20;
    out_of_bounds_object_ = kWallObj;
    visibility_ = 8.0;
  }

 protected:
  static constexpr float kCompletionBonus = 10.0f;
  static constexpr int kLockedDoor = 1;
  static constexpr int kKey = 2;
  static constexpr int kExit = 9;
  static constexpr int kKeyOnRing = 11;

  void LoadBackgroundImages() override { SetBackgrounds(TopdownBackgrounds()); }

  bool ShouldPreserveTypeThemes(int type) override { return type == kKey || type == kLockedDoor; }

  void AssetForType(int type, std::vector<std::string>& names) override {
    if (type == kWallObj) {
      names.push_back("kenney/Ground/Dirt/dirtCenter.png");
    } else if (type == kExit) {
      names.push_back("misc_assets/gemYellow.png");
    } else if (type == kPlayer) {
      names.push_back("misc_assets/spaceAstronauts_008.png");
    } else if (type == kKey) {
      names.push_back("misc_assets/keyBlue.png");
      names.push_back("misc_assets/keyGreen.png");
      names.push_back("misc_assets/keyRed.png");
    } else if (type == kLockedDoor) {
      names.push_back("misc_assets/lock_blue.png");
      names.push_back("misc_assets/lock_green.png");
      names.push_back("misc_assets/lock_red.png");
    }
  }

  bool IsBlockedEnts(const EntityPtr& src, const EntityPtr& target, bool is_horizontal) override {
    if (target->type == kLockedDoor) return !has_keys_[target->image_theme];
    return BasicGame::IsBlockedEnts(src, target, is_horizontal);
  }

  bool ShouldDrawEntity(const EntityPtr& entity) override {
    if (entity->type == kKeyOnRing) return has_keys_[entity->image_theme];
    return true;
  }

  void HandleAgentCollision(const EntityPtr& obj) override {
    if (obj->type == kExit) {
      step_data_.done = true;
      step_data_.reward = kCompletionBonus;
      step_data_.level_complete = true;
    } else if (obj->type == kKey) {
      obj->will_erase = true;
      has_keys_[obj->image_theme] = true;
    } else if (obj->type == kLockedDoor) {
      if (has_keys_[obj->image_theme]) obj->will_erase = true;
    }
  }

  void ChooseWorldDim() override {
    const int dist_diff = options_.distribution_mode;
    if (dist_diff == kEasyMode) {
      world_dim_ = 9;
    } else if (dist_diff == kHardMode) {
      world_dim_ = 13;
    } else if (dist_diff == kMemoryMode) {
      world_dim_ = 23;
    }
    maxspeed_ = .75;
    main_width_ = world_dim_;
    main_height_ = world_dim_;
  }

  void GameReset() override {
    BasicGame::GameReset();
    const int min_maze_dim = 5;
    const int max_diff = (world_dim_ - min_maze_dim) / 2;
    const int difficulty = rand_gen_.RandN(max_diff + 1);
    options_.center_agent = options_.distribution_mode == kMemoryMode;
    if (options_.distribution_mode == kMemoryMode) {
      num_keys_ = rand_gen_.RandN(4);
    } else {
      num_keys_ = difficulty + rand_gen_.RandN(2);
    }
    if (num_keys_ > 3) num_keys_ = 3;
    has_keys_.assign(num_keys_, false);
    const int maze_dim = difficulty * 2 + min_maze_dim;
    const float maze_scale = main_height_ / (world_dim_ * 1.0);
    agent_->rx = .375 * maze_scale;
    agent_->ry = .375 * maze_scale;
    const float r_ent = maze_scale / 2;
    MazeGen maze_gen(&rand_gen_, maze_dim);
    maze_gen.GenerateMazeWithDoors(num_keys_);
    // the agent out of the way while the keys are placed
    agent_->x = -1;
    agent_->y = -1;
    const int off_x = rand_gen_.RandN(world_dim_ - maze_dim + 1);
    const int off_y = rand_gen_.RandN(world_dim_ - maze_dim + 1);
    for (int i = 0; i < grid_size_; i++) SetObjIdx(i, kWallObj);
    for (int i = 0; i < maze_dim; i++) {
      for (int j = 0; j < maze_dim; j++) {
        const int x = off_x + i;
        const int y = off_y + j;
        const int obj = maze_gen.Get(i + MazeGen::kMazeOffset, j + MazeGen::kMazeOffset);
        const float obj_x = (x + .5) * maze_scale;
        const float obj_y = (y + .5) * maze_scale;
        if (obj != kWallObj) SetObj(x, y, kSpace);
        if (obj >= kKeyObj) {
          auto ent = SpawnEntity(.375 * maze_scale, kKey, maze_scale * x, maze_scale * y,
                                 maze_scale, maze_scale);
          ent->image_theme = obj - kKeyObj - 1;
          MatchAspectRatio(ent);
        } else if (obj >= kDoorObj) {
          auto ent = AddEntity(obj_x, obj_y, 0, 0, r_ent, kLockedDoor);
          ent->image_theme = obj - kDoorObj - 1;
        } else if (obj == kExitObj) {
          auto ent = SpawnEntity(.375 * maze_scale, kExit, maze_scale * x, maze_scale * y,
                                 maze_scale, maze_scale);
          MatchAspectRatio(ent);
        } else if (obj == kAgentObj) {
          agent_->x = obj_x;
          agent_->y = obj_y;
        }
      }
    }
    const float ring_key_r = 0.03f;
    for (int i = 0; i < num_keys_; i++) {
      auto ent = AddEntity(1 - ring_key_r * (2 * i + 1.25), ring_key_r * .75, 0, 0, ring_key_r,
                           kKeyOnRing);
      ent->image_theme = i;
      ent->image_type = kKey;
      ent->rotation = kPi / 2;
      ent->render_z = 1;
      ent->use_abs_coords = true;
      MatchAspectRatio(ent);
    }
  }

  void GameStep() override {
    BasicGame::GameStep();
    agent_->FaceDirection(action_vx_, action_vy_);
  }

 private:
  int world_dim_ = 0;
  int num_keys_ = 0;
  std::vector<bool> has_keys_;
};

}  // namespace envpool::procgen
