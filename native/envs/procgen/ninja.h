// procgen's ninja (src/games/ninja.cpp), restated: a platformer of charged jumps. The agent
// crosses generated ledges to the right to a mushroom (+10, the level complete); holding
// "up" on the ground charges the jump (the green bar on the left) and letting go jumps by
// the charge. Bombs on the ledges and the fire along the floor end the episode on contact;
// throwing stars (the special actions, in four directions) blow up bombs, and the blast ends
// the episode too. A 64 x 64 world seen 16 units wide around the agent (10 in easy mode,
// which also charges at once and jumps lower); the platform backgrounds.
#pragma once

#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "envs/procgen/game.h"

namespace envpool::procgen {

class Ninja final : public BasicGame {
 public:
  static constexpr const char* kName = "ninja";
  static constexpr bool kHasExtreme = false;
  static constexpr bool kHasMemory = false;

  explicit Ninja(std::shared_ptr<AssetStore> assets) : BasicGame(kName, std::move(assets)) {
    main_width_ = 64;
    main_height_ = 64;
    out_of_bounds_object_ = kWallMid;
  }

 protected:
  static constexpr float kGoalReward = 10.0f;
  static constexpr int kGoal = 1;
  static constexpr int kBomb = 6;
  static constexpr int kThrowingStar = 7;
  static constexpr int kPlayerJump = 9;
  static constexpr int kPlayerRight1 = 12;
  static constexpr int kPlayerRight2 = 13;
  static constexpr int kFire = 14;
  static constexpr int kWallMid = 20;
  static constexpr int kNumWallThemes = 3;

  // the platform backgrounds, then every space one (resources.cpp)
  void LoadBackgroundImages() override { SetBackgrounds(PlatformBackgrounds()); }

  void AssetForType(int type, std::vector<std::string>& names) override {
    if (type == kWallMid) {
      names.push_back("misc_assets/tile_bricksGrey.png");
      names.push_back("misc_assets/tile_bricksGrown.png");
      names.push_back("misc_assets/tile_bricksRed.png");
    } else if (type == kGoal) {
      for (int i = 1; i <= 6; i++) names.push_back("platformer/shroom" + std::to_string(i) + ".png");
    } else if (type == kPlayer) {
      names.push_back("platformer/zombie_idle.png");
    } else if (type == kPlayerJump) {
      names.push_back("platformer/zombie_jump.png");
    } else if (type == kPlayerRight1) {
      names.push_back("platformer/zombie_walk1.png");
    } else if (type == kPlayerRight2) {
      names.push_back("platformer/zombie_walk2.png");
    } else if (type == kBomb || type == kFire) {
      // procgen draws the fire with the bomb's image too
      names.push_back("misc_assets/bomb.png");
    } else if (type == kThrowingStar) {
      names.push_back("misc_assets/saw.png");
    }
  }

  void HandleAgentCollision(const EntityPtr& obj) override {
    if (obj->type == kExplosion) {
      step_data_.done = true;
    } else if (obj->type == kGoal) {
      step_data_.reward += kGoalReward;
      step_data_.level_complete = true;
      step_data_.done = true;
    }
  }

  void HandleGridCollision(const EntityPtr& obj, int type, int i, int j) override {
    if (obj->type == kPlayer) {
      if (type == kFire || type == kBomb) step_data_.done = true;
    } else if (obj->type == kThrowingStar) {
      if (type == kBomb) {
        // the star blows the bomb up
        obj->will_erase = true;
        SetObj(i, j, kSpace);
        AddEntity(i + .5, j + .5, 0, 0, .5, kExplosion);
      }
      if (IsWall(type)) obj->will_erase = true;
    }
  }

  // no velocity decay; releasing "up" jumps by the charge, and gravity pulls down to -2
  // while the agent has no ground below it
  void UpdateAgentVelocity() override {
    const float mixrate_x = has_support_ ? mixrate_ : (mixrate_ * air_control_);
    agent_->vx = (1 - mixrate_x) * agent_->vx + mixrate_x * maxspeed_ * action_vx_;
    if (action_vy_ < 1 && jump_charge_ > 0) {
      agent_->vy = jump_charge_ * max_jump_;
      jump_charge_ = 0;
    }
    if (!has_support_) {
      if (agent_->vy > -2) agent_->vy -= gravity_;
    }
  }

  static bool IsWall(int type) { return type == kWallMid; }

  int ThemeForGridObj(int type) override { return IsWall(type) ? wall_theme_ : 0; }

  bool IsBlocked(const EntityPtr& src, int target, bool is_horizontal) override {
    if (IsWall(target)) {
      if (src->type == kPlayer) return true;
      if (src->type == kThrowingStar) {
        // throwing stars stick to walls
        src->vx = 0;
        src->vy = 0;
        return true;
      }
    }
    return BasicGame::IsBlocked(src, target, is_horizontal);
  }

  int ImageForType(int type) override {
    if (type == kPlayer) {
      if (std::fabs(agent_->vx) < .01 && action_vx_ == 0 && has_support_) return kPlayer;
      return (cur_time_ / 5 % 2 == 0 || !has_support_) ? kPlayerRight1 : kPlayerRight2;
    }
    return BasicGame::ImageForType(type);
  }

  // the jump's charge: a bar 3 units high when full, at the left of the view
  void GameDraw(Painter& p, int rect_height) override {
    BasicGame::GameDraw(p, rect_height);
    const float bar_height = 3 * jump_charge_;
    p.FillRect(GetAbsRect(.25, visibility_ - .5 - bar_height, .5, bar_height), 66, 245, 135);
  }

  void FillBlockTop(int x, int y, int dx, int dy, int fill, int top) {
    if (dy <= 0) return;
    FillElem(x, y, dx, dy - 1, fill);
    FillElem(x, y + dy - 1, dx, 1, top);
  }
  void FillGroundBlock(int x, int y, int dx, int dy) {
    FillBlockTop(x, y, dx, dy, kWallMid, kWallMid);
  }

  void InitFloorAndWalls() {
    FillElem(0, 0, main_width_, 1, kWallMid);
    FillElem(0, 0, 1, main_height_, kWallMid);
    FillElem(main_width_ - 1, 0, 1, main_height_, kWallMid);
    FillElem(0, main_height_ - 1, main_width_, 1, kWallMid);
  }

  void GenerateCoinToTheRight(int difficulty) {
    int min_gap = difficulty - 1;
    int min_plat_w = 1;
    int inc_dy = 4;
    if (options_.distribution_mode == kEasyMode) {
      min_gap -= 1;
      if (min_gap < 0) min_gap = 0;
      min_plat_w = 3;
      inc_dy = 2;
    }
    const float bomb_prob = .25 * (difficulty - 1);
    const int max_gap_inc = difficulty == 1 ? 1 : 2;
    const int num_sections = rand_gen_.RandN(difficulty) + difficulty;
    const int start_x = 5;
    int curr_x = start_x;
    int curr_y = main_height_ / 2;
    int min_y = curr_y;
    const int w = main_width_;
    const float max_dy_f = max_jump_ * max_jump_ / (2 * gravity_);
    const int max_dy = static_cast<int>(max_dy_f - .5);
    FillGroundBlock(0, 0, start_x, curr_y);
    FillElem(0, curr_y + 8, start_x, main_height_ - curr_y - 8, kWallMid);
    for (int i = 0; i < num_sections; i++) {
      const int prev_x = curr_x;
      const int prev_y = curr_y;
      const int num_edges = rand_gen_.RandN(2) + 1;
      int max_y = -1;
      int last_edge_y = -1;
      for (int j = 0; j < num_edges; j++) {
        curr_x = prev_x + j;
        if (curr_x + 15 >= w) break;
        curr_y = prev_y;
        int dy = rand_gen_.RandN(inc_dy) + 1 + difficulty / 3;
        if (dy > max_dy) dy = max_dy;
        if (curr_y >= main_height_ - 15) {
          dy *= -1;
        } else if (curr_y >= 5 && rand_gen_.Rand01() < .4) {
          dy *= -1;
        }
        curr_y += dy;
        if (curr_y < 3) curr_y = 3;
        if (std::abs(curr_y - last_edge_y) <= 1) curr_y = last_edge_y + 2;
        const int dx = min_plat_w + rand_gen_.RandN(3);
        FillGroundBlock(curr_x, curr_y - 1, dx, 1);
        curr_x += dx;
        curr_x += min_gap + rand_gen_.RandN(max_gap_inc + 1);
        if (curr_y > max_y) max_y = curr_y;
        if (curr_y < min_y) min_y = curr_y;
        last_edge_y = curr_y;
      }
      if (rand_gen_.Rand01() < bomb_prob) {
        // (the column is drawn before the row is known: one argument, one draw)
        SetObj(rand_gen_.RandN(curr_x - prev_x + 1) + prev_x, max_y + 2, kBomb);
      }
      const int ceiling_height = 11;
      const int ceiling_start = max_y - 1 + ceiling_height;
      FillGroundBlock(prev_x, ceiling_start, curr_x - prev_x, main_height_ - ceiling_start);
    }
    auto ent = AddEntity(curr_x + .5, curr_y + .5, 0, 0, .5, kGoal);
    ChooseRandomTheme(ent);
    FillGroundBlock(curr_x, curr_y - 1, 1, 1);
    FillElem(curr_x, curr_y + 6, 1, main_height_ - curr_y - 6, kWallMid);
    int fire_y = min_y - 2;
    if (fire_y < 1) fire_y = 1;
    FillGroundBlock(start_x, 0, main_width_ - start_x, fire_y);
    FillElem(start_x, fire_y, main_width_ - start_x, 1, kFire);
    FillElem(curr_x + 1, 0, main_width_ - curr_x - 1, main_height_, kWallMid);
  }

  void GameReset() override {
    BasicGame::GameReset();
    gravity_ = 0.2f;
    max_jump_ = 1.5;
    air_control_ = 0.15f;
    maxspeed_ = .5;
    has_support_ = false;
    jump_charge_ = 0;
    jump_charge_inc_ = .25;
    visibility_ = 16;
    agent_->rx = .5;
    agent_->ry = .5;
    agent_->x = 1 + agent_->rx;
    agent_->y = main_height_ / 2 + agent_->ry;
    if (options_.distribution_mode == kEasyMode) {
      max_jump_ = 1.25;
      jump_charge_inc_ = 1;
      visibility_ = 10;
    }
    const int max_difficulty = 3;
    const int difficulty = rand_gen_.RandN(max_difficulty) + 1;
    last_fire_time_ = 0;
    wall_theme_ = rand_gen_.RandN(kNumWallThemes);
    InitFloorAndWalls();
    GenerateCoinToTheRight(difficulty);
  }

  bool CanSupport(int obj) const { return IsWall(obj) || obj == out_of_bounds_object_; }

  // no downward action; "up" on the ground charges the jump (the charge is lost in the air)
  void SetActionXY(int move_action) override {
    action_vx_ = move_action / 3 - 1;
    action_vy_ = (move_action % 3) - 1;
    if (action_vy_ < 0) action_vy_ = 0;
    const int obj_below_1 =
        GetObjFromFloats(agent_->x - (agent_->rx - .01), agent_->y - (agent_->ry + .01));
    const int obj_below_2 =
        GetObjFromFloats(agent_->x + (agent_->rx - .01), agent_->y - (agent_->ry + .01));
    has_support_ = CanSupport(obj_below_1) || CanSupport(obj_below_2);
    if (has_support_ && action_vy_ == 1) {
      action_vy_ = 1;
      jump_charge_ += jump_charge_inc_;
      if (jump_charge_ > 1) jump_charge_ = 1;
    } else {
      action_vy_ = 0;
    }
    if (!has_support_) jump_charge_ = 0;
  }

  void GameStep() override {
    BasicGame::GameStep();
    if (action_vx_ > 0) agent_->is_reflected = false;
    if (action_vx_ < 0) agent_->is_reflected = true;
    if (special_action_ > 0 && (cur_time_ - last_fire_time_) >= 3) {
      // a throwing star: right, up-right, up or down-right (mirrored when facing left);
      // special actions 5 and 6 throw it straight ahead
      float theta = 0;
      const float bullet_vel = 1;
      if (special_action_ == 2) {
        theta = kPi / 4;
      } else if (special_action_ == 3) {
        theta = kPi / 2;
      } else if (special_action_ == 4) {
        theta = -1 * kPi / 4;
      }
      if (agent_->is_reflected) theta = kPi - theta;
      auto star = AddEntity(agent_->x, agent_->y, bullet_vel * Cos(theta),
                            bullet_vel * Sin(theta), .25, kThrowingStar);
      star->collides_with_entities = true;
      star->expire_time = 15;
      star->smart_step = true;
      last_fire_time_ = cur_time_;
    }
  }

 private:
  bool has_support_ = false;
  int last_fire_time_ = 0;
  int wall_theme_ = 0;
  float gravity_ = 0.0f;
  float air_control_ = 0.0f;
  float jump_charge_ = 0.0f;
  float jump_charge_inc_ = 0.0f;
};

}  // namespace envpool::procgen
