// procgen's climber (src/games/climber.cpp), restated: a platformer climbed upwards. A
// column of platforms rises over a tall, narrow world (16 units wide in easy mode, 20 in
// hard, 64 high); each platform may hold a crystal (+1), and collecting every crystal of the
// level completes it (+10). A patrolling flying enemy ends the episode on contact. The view
// (center_agent) is the world's width, following the agent up; the platform backgrounds.
#pragma once

#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "envs/procgen/game.h"

namespace envpool::procgen {

class Climber final : public BasicGame {
 public:
  static constexpr const char* kName = "climber";
  static constexpr bool kHasExtreme = false;
  static constexpr bool kHasMemory = false;

  explicit Climber(std::shared_ptr<AssetStore> assets) : BasicGame(kName, std::move(assets)) {
    out_of_bounds_object_ = kWallMid;
  }

 protected:
  static constexpr float kCoinReward = 1.0f;
  static constexpr float kCompletionBonus = 10.0f;
  static constexpr int kCoin = 1;
  static constexpr int kEnemy = 5;
  static constexpr int kEnemy1 = 6;
  static constexpr int kEnemy2 = 7;
  static constexpr int kPlayerJump = 9;
  static constexpr int kPlayerRight1 = 12;
  static constexpr int kPlayerRight2 = 13;
  static constexpr int kWallMid = 15;
  static constexpr int kWallTop = 16;
  static constexpr int kEnemyBarrier = 19;
  // an enemy turns back this far from where it was placed
  static constexpr float kPatrolRange = 4;
  static constexpr int kNumWallThemes = 4;

  // the platform backgrounds, then every space one (resources.cpp)
  void LoadBackgroundImages() override { SetBackgrounds(PlatformBackgrounds()); }

  void AssetForType(int type, std::vector<std::string>& names) override {
    // four colour themes of the player's poses and of the tiles, in procgen's order
    auto themed = [&](const char* a, const char* b, const char* c, const char* d) {
      for (const char* name : {a, b, c, d}) names.push_back(std::string("platformer/") + name);
    };
    if (type == kPlayer) {
      themed("playerBlue_stand.png", "playerGreen_stand.png", "playerGrey_stand.png",
             "playerRed_stand.png");
    } else if (type == kPlayerJump) {
      themed("playerBlue_walk4.png", "playerGreen_walk4.png", "playerGrey_walk4.png",
             "playerRed_walk4.png");
    } else if (type == kPlayerRight1) {
      themed("playerBlue_walk1.png", "playerGreen_walk1.png", "playerGrey_walk1.png",
             "playerRed_walk1.png");
    } else if (type == kPlayerRight2) {
      themed("playerBlue_walk2.png", "playerGreen_walk2.png", "playerGrey_walk2.png",
             "playerRed_walk2.png");
    } else if (type == kWallTop) {
      themed("tileBlue_05.png", "tileGreen_05.png", "tileYellow_06.png", "tileBrown_06.png");
    } else if (type == kWallMid) {
      themed("tileBlue_08.png", "tileGreen_08.png", "tileYellow_09.png", "tileBrown_09.png");
    } else if (type == kEnemy1) {
      names.push_back("platformer/enemySwimming_1.png");
    } else if (type == kEnemy2) {
      names.push_back("platformer/enemySwimming_2.png");
    } else if (type == kCoin) {
      names.push_back("platformer/yellowCrystal.png");
    }
  }

  void HandleAgentCollision(const EntityPtr& obj) override {
    if (obj->type == kEnemy) {
      step_data_.done = true;
    } else if (obj->type == kCoin) {
      step_data_.reward += kCoinReward;
      coins_collected_ += 1;
      obj->will_erase = true;
    }
  }

  int ThemeForGridObj(int type) override { return IsWall(type) ? wall_theme_ : 0; }

  bool WillReflect(int src, int target) override {
    return src == kEnemy && (IsWall(target) || target == kEnemyBarrier);
  }

  // no velocity decay; a jump sets the vertical speed, and gravity pulls down to -2 while
  // the agent has no ground below it
  void UpdateAgentVelocity() override {
    const float mixrate_x = has_support_ ? mixrate_ : (mixrate_ * air_control_);
    agent_->vx = (1 - mixrate_x) * agent_->vx + mixrate_x * maxspeed_ * action_vx_;
    if (action_vy_ > 0) agent_->vy = max_jump_;
    if (!has_support_) {
      if (agent_->vy > -2) agent_->vy -= gravity_;
    }
  }

  static bool IsWall(int type) { return type == kWallMid || type == kWallTop; }

  bool IsBlocked(const EntityPtr& src, int target, bool is_horizontal) override {
    if (BasicGame::IsBlocked(src, target, is_horizontal)) return true;
    return src->type == kPlayer && IsWall(target);
  }

  int ImageForType(int type) override {
    if (type == kPlayer) {
      if (!has_support_) return kPlayerJump;
      if (std::fabs(agent_->vx) < .01 && action_vx_ == 0) return kPlayer;
      return cur_time_ / 5 % 2 == 0 ? kPlayerRight1 : kPlayerRight2;
    }
    if (type == kEnemyBarrier) return -1;
    return BasicGame::ImageForType(type);
  }

  void InitFloorAndWalls() {
    FillElem(0, 0, main_width_, 1, kWallTop);
    FillElem(0, 0, 1, main_height_, kWallMid);
    FillElem(main_width_ - 1, 0, 1, main_height_, kWallMid);
    FillElem(0, main_height_ - 1, main_width_, 1, kWallMid);
  }

  // the rise to the next platform: 3 up to the highest jump (in float, then truncated)
  int ChooseDeltaY() {
    const int max_dy = static_cast<int>(max_jump_ * max_jump_ / (2 * gravity_));
    const int min_dy = 3;
    return rand_gen_.RandN(max_dy - min_dy + 1) + min_dy;
  }

  void GeneratePlatforms() {
    const int difficulty = rand_gen_.RandN(3);
    const int min_platforms = difficulty * difficulty + 1;
    const int max_platforms = (difficulty + 1) * (difficulty + 1) + 1;
    const int num_platforms = rand_gen_.RandN(max_platforms - min_platforms + 1) + min_platforms;
    coin_quota_ = 0;
    coins_collected_ = 0;
    int curr_x = rand_gen_.RandN(main_width_ - 4) + 2;
    int curr_y = 0;
    const int margin_x = 3;
    const float enemy_prob = options_.distribution_mode == kEasyMode ? .2 : .5;
    for (int i = 0; i < num_platforms; i++) {
      const int delta_y = ChooseDeltaY();
      // only enemies that will not be trapped in tight spaces
      const bool can_spawn_enemy = (curr_x >= margin_x) && (curr_x <= main_width_ - margin_x);
      if (can_spawn_enemy && (rand_gen_.Rand01() < enemy_prob)) {
        // add_entity's arguments are evaluated right to left by the compiler procgen's
        // library was built with: the direction is drawn before the height
        const double vx = .15 * (rand_gen_.RandN(2) * 2 - 1);
        const double y = curr_y + rand_gen_.RandN(2) + 2 + .5;
        auto ent = AddEntity(curr_x + .5, y, vx, 0, .5, kEnemy);
        ent->image_type = kEnemy1;
        ent->smart_step = true;
        ent->climber_spawn_x = curr_x + .5;
        MatchAspectRatio(ent);
      }
      curr_y += delta_y;
      const int plat_len = 2 + rand_gen_.RandN(10);
      int vx = rand_gen_.RandN(2) * 2 - 1;
      if (curr_x < margin_x) vx = 1;
      if (curr_x > main_width_ - margin_x) vx = -1;
      std::vector<int> candidates;
      for (int j = 0; j < plat_len; j++) {
        const int nx = curr_x + (j + 1) * vx;
        if (nx <= 0 || nx >= main_width_ - 1) break;
        candidates.push_back(nx);
        SetObj(nx, curr_y, kWallTop);
      }
      if (rand_gen_.Rand01() < .5 || i == num_platforms - 1) {
        const int coin_x = rand_gen_.ChooseOne(candidates);
        AddEntity(coin_x + .5, curr_y + 1.5, 0, 0, 0.3f, kCoin);
        coin_quota_ += 1;
      }
      curr_x = rand_gen_.ChooseOne(candidates);
    }
  }

  void ChooseWorldDim() override {
    main_width_ = options_.distribution_mode == kEasyMode ? 16 : 20;
    main_height_ = 64;
  }

  void GameReset() override {
    BasicGame::GameReset();
    gravity_ = 0.2f;
    max_jump_ = 1.5;
    air_control_ = 0.15f;
    maxspeed_ = .5;
    has_support_ = false;
    agent_->rx = .5;
    agent_->ry = .5;
    agent_->x = 1 + agent_->rx;
    agent_->y = 1 + agent_->ry;
    ChooseRandomTheme(agent_);
    wall_theme_ = rand_gen_.RandN(kNumWallThemes);
    InitFloorAndWalls();
    GeneratePlatforms();
  }

  bool CanSupport(int obj) const { return IsWall(obj) || obj == out_of_bounds_object_; }

  // the view is the world's width, centred across it and a little above the agent
  void ChooseCenter(float& cx, float& cy) override {
    cx = main_width_ / 2.0;
    cy = agent_->y + main_width_ / 2.0 - 5 * agent_->ry;
    visibility_ = main_width_;
  }

  // no downward action; a jump only from the ground
  void SetActionXY(int move_action) override {
    action_vx_ = move_action / 3 - 1;
    action_vy_ = (move_action % 3) - 1;
    if (action_vy_ < 0) action_vy_ = 0;
    const int obj_below_1 =
        GetObjFromFloats(agent_->x - (agent_->rx - .01), agent_->y - (agent_->ry + .01));
    const int obj_below_2 =
        GetObjFromFloats(agent_->x + (agent_->rx - .01), agent_->y - (agent_->ry + .01));
    has_support_ = CanSupport(obj_below_1) || CanSupport(obj_below_2);
    action_vy_ = (has_support_ && action_vy_ == 1) ? 1 : 0;
  }

  void GameStep() override {
    BasicGame::GameStep();
    if (action_vx_ > 0) agent_->is_reflected = false;
    if (action_vx_ < 0) agent_->is_reflected = true;
    for (int i = static_cast<int>(entities_.size()) - 1; i >= 0; i--) {
      const auto& ent = entities_[i];
      if (ent->type == kEnemy) {
        if (ent->x > ent->climber_spawn_x + kPatrolRange) {
          ent->vx = -1 * std::fabs(ent->vx);
        } else if (ent->x < ent->climber_spawn_x - kPatrolRange) {
          ent->vx = std::fabs(ent->vx);
        }
        ent->image_type = cur_time_ / 5 % 2 == 0 ? kEnemy1 : kEnemy2;
        ent->is_reflected = ent->vx < 0;
      }
    }
    if (coin_quota_ == coins_collected_) {
      step_data_.done = true;
      step_data_.reward += kCompletionBonus;
      step_data_.level_complete = true;
    }
  }

 private:
  bool has_support_ = false;
  int coin_quota_ = 0;
  int coins_collected_ = 0;
  int wall_theme_ = 0;
  float gravity_ = 0.0f;
  float air_control_ = 0.0f;
};

}  // namespace envpool::procgen
