// procgen's fruitbot (src/games/fruitbot.cpp), restated: a robot drives up a 60-cell
// corridor (10 cells wide in easy mode, 20 otherwise) collecting fruit (+1) and avoiding
// other food (-4) between walls with gaps, some closed by a door whose lock a key (action
// 9) opens; hitting a wall or a door ends the episode, the presents at the top complete
// the level (+10). The view follows the agent up the corridor.
#pragma once

#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "envs/procgen/game.h"

namespace envpool::procgen {

class FruitBot final : public BasicGame {
 public:
  static constexpr const char* kName = "fruitbot";
  static constexpr bool kHasExtreme = false;
  static constexpr bool kHasMemory = false;

  explicit FruitBot(std::shared_ptr<AssetStore> assets) : BasicGame(kName, std::move(assets)) {
    mixrate_ = .5;
    maxspeed_ = 0.85f;
    min_dim_ = 5;
    bullet_vscale_ = .5;
    bg_tile_ratio_ = -1;
    out_of_bounds_object_ = kOutOfBoundsWall;
  }

 protected:
  static constexpr float kCompletionBonus = 10.0;
  static constexpr int kPositiveReward = 1;
  static constexpr int kPenalty = -4;
  static constexpr int kBarrier = 1;
  static constexpr int kOutOfBoundsWall = 2;
  static constexpr int kPlayerBullet = 3;
  static constexpr int kBadObj = 4;
  static constexpr int kGoodObj = 7;
  static constexpr int kLockedDoor = 10;
  static constexpr int kLock = 11;
  static constexpr int kPresent = 12;
  static constexpr int kKeyDuration = 8;
  static constexpr float kDoorAspectRatio = 3.25;

  void LoadBackgroundImages() override { SetBackgrounds(TopdownBackgrounds()); }

  void AssetForType(int type, std::vector<std::string>& names) override {
    if (type == kPlayer) {
      names.push_back("misc_assets/robot_3Dblue.png");
    } else if (type == kBarrier || type == kOutOfBoundsWall) {
      names.push_back("misc_assets/tileStone_slope.png");
    } else if (type == kPlayerBullet) {
      names.push_back("misc_assets/keyRed2.png");
    } else if (type == kBadObj) {
      for (int i = 1; i <= 6; ++i) names.push_back("misc_assets/food" + std::to_string(i) + ".png");
    } else if (type == kGoodObj) {
      for (int i = 1; i <= 6; ++i) names.push_back("misc_assets/fruit" + std::to_string(i) + ".png");
    } else if (type == kLockedDoor) {
      names.push_back("misc_assets/fenceYellow.png");
    } else if (type == kLock) {
      names.push_back("misc_assets/lockRed2.png");
    } else if (type == kPresent) {
      for (int i = 1; i <= 3; ++i) {
        names.push_back("misc_assets/present" + std::to_string(i) + ".png");
      }
    }
  }

  bool WillReflect(int src, int target) override {
    return src == kBadObj && (target == kBarrier || target == kWallObj);
  }
  bool IsBlocked(const EntityPtr& src, int target, bool is_horizontal) override {
    return BasicGame::IsBlocked(src, target, is_horizontal) ||
           (src->type == kPlayer && target == kOutOfBoundsWall);
  }
  float GetTileAspectRatio(const EntityPtr& ent) override {
    if (ent->type == kBarrier) return 1;
    if (ent->type == kLockedDoor) return kDoorAspectRatio;
    return 0;
  }

  void HandleAgentCollision(const EntityPtr& obj) override {
    if (obj->type == kBarrier) {
      step_data_.done = true;
    } else if (obj->type == kBadObj) {
      step_data_.reward += kPenalty;
      obj->will_erase = true;
    } else if (obj->type == kLockedDoor) {
      step_data_.done = true;
    } else if (obj->type == kGoodObj) {
      step_data_.reward += kPositiveReward;
      obj->will_erase = true;
    } else if (obj->type == kPresent) {
      step_data_.reward += kCompletionBonus;
      step_data_.done = true;
      step_data_.level_complete = true;
    }
  }

  void HandleCollision(const EntityPtr& src, const EntityPtr& target) override {
    if (src->type == kPlayerBullet) {
      if (target->type == kBarrier) {
        src->will_erase = true;
      } else if (target->type == kLock) {
        src->will_erase = true;
        target->will_erase = true;
        // the door of the lock's wall
        for (const auto& ent : entities_) {
          if (ent->type == kLockedDoor && std::fabs(ent->y - target->y) < 1) {
            ent->will_erase = true;
            break;
          }
        }
      }
    }
  }

  void ChooseCenter(float& cx, float& cy) override {
    cx = main_width_ / 2.0;
    cy = agent_->y + main_width_ / 2.0 - 2 * agent_->ry;
    visibility_ = main_width_;
  }

  void ChooseWorldDim() override {
    main_width_ = options_.distribution_mode == kEasyMode ? 10 : 20;
    main_height_ = 60;
  }

  void SetActionXY(int move_action) override {
    action_vx_ = move_action / 3 - 1;
    action_vy_ = 0.2f;
    action_vrot_ = 0;
  }

  void AddWalls(float ry, bool use_door, float min_pct) {
    const float rw = main_width_;
    const float wall_ry = 0.3f;
    const float lock_rx = .25;
    const float lock_ry = 0.45f;
    float pct = min_pct + .2 * rand_gen_.Rand01();
    if (use_door) {
      pct += 0.1f;
      const float lock_pct_w = 2 * lock_rx / main_width_;
      const float door_pct_w = (wall_ry * 2 * kDoorAspectRatio) / main_width_;
      const int num_doors = static_cast<int>(std::ceil((pct - 2 * lock_pct_w) / door_pct_w));
      pct = 2 * lock_pct_w + door_pct_w * num_doors;
    }
    const float gapw = pct * rw;
    const float w1 = rand_gen_.Rand01() * (rw - gapw);
    const float w2 = rw - w1 - gapw;
    AddEntityRxy(w1 / 2, ry, 0, 0, w1 / 2, wall_ry, kBarrier);
    AddEntityRxy(rw - w2 / 2, ry, 0, 0, w2 / 2, wall_ry, kBarrier);
    if (use_door) {
      const int is_on_right = rand_gen_.RandN(2);
      const float lock_x = w1 + lock_rx + is_on_right * (gapw - 2 * lock_rx);
      const float door_x = w1 + gapw / 2 - (is_on_right * 2 - 1) * lock_rx;
      AddEntityRxy(door_x, ry, 0, 0, gapw / 2 - lock_rx, wall_ry, kLockedDoor);
      AddEntityRxy(lock_x, ry - lock_ry + wall_ry, 0, 0, lock_rx, lock_ry, kLock);
    }
  }

  void GameReset() override {
    BasicGame::GameReset();
    last_fire_time_ = 0;
    const int min_sep = 4;
    int num_walls = 10;
    int object_group_size = 6;
    const int buf_h = 4;
    float door_prob = .125;
    float min_pct = .1;
    if (options_.distribution_mode == kEasyMode) {
      num_walls = 5;
      object_group_size = 2;
      door_prob = 0;
      min_pct = .2;
    }
    const std::vector<int> partition =
        rand_gen_.Partition(main_height_ - min_sep * num_walls - buf_h, num_walls);
    int curr_h = 0;
    for (int part : partition) {
      const int dy = min_sep + part;
      curr_h += dy;
      const bool use_door = (dy > 5) && rand_gen_.Rand01() < door_prob;
      AddWalls(curr_h, use_door, min_pct);
    }
    agent_->y = agent_->ry;
    const int num_good = rand_gen_.RandN(10) + 10;
    const int num_bad = rand_gen_.RandN(10) + 10;
    for (int i = 0; i < main_width_; i++) {
      auto present = AddEntityRxy(i + .5, main_height_ - .5, 0, 0, .5, .5, kPresent);
      ChooseRandomTheme(present);
    }
    for (int i = 0; i < num_good; i++) SpawnEntity(.5, kGoodObj, 0, 0, main_width_, main_height_);
    for (int i = 0; i < num_bad; i++) SpawnEntity(.5, kBadObj, 0, 0, main_width_, main_height_);
    for (const auto& ent : entities_) {
      if (ent->type == kGoodObj || ent->type == kBadObj) {
        ent->image_theme = rand_gen_.RandN(object_group_size);
        FitAspectRatio(ent);
      }
    }
    agent_->rotation = -1 * kPi / 2;
  }

  void GameStep() override {
    BasicGame::GameStep();
    if (special_action_ == 1 && (cur_time_ - last_fire_time_) >= kKeyDuration) {
      const float vx = 0;
      const float vy = 1;
      auto bullet = AddEntity(agent_->x, agent_->y, vx * bullet_vscale_, vy * bullet_vscale_, .25,
                              kPlayerBullet);
      bullet->expire_time = kKeyDuration;
      bullet->collides_with_entities = true;
      last_fire_time_ = cur_time_;
    }
  }

 private:
  float min_dim_ = 0.0f;
  float bullet_vscale_ = 0.0f;
  int last_fire_time_ = 0;
};

}  // namespace envpool::procgen
