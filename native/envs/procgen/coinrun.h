// procgen's coinrun (src/games/coinrun.cpp), restated: a platformer. The agent runs right
// over generated sections of ground, pits (lava, saws or walking enemies) and crates to a
// coin (+10, the level complete); lava, a saw or an enemy ends the episode. A 64 x 64 world
// seen 13 units wide around the agent (center_agent), on one of procgen's platform or space
// backgrounds; easy mode has no walking enemies on the ground and keeps the first themes.
#pragma once

#include <cctype>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "envs/procgen/game.h"

namespace envpool::procgen {

class CoinRun final : public BasicGame {
 public:
  static constexpr const char* kName = "coinrun";
  static constexpr bool kHasExtreme = false;
  static constexpr bool kHasMemory = false;

  explicit CoinRun(std::shared_ptr<AssetStore> assets) : BasicGame(kName, std::move(assets)) {
    visibility_ = 13;
    mixrate_ = 0.2f;
    main_width_ = 64;
    main_height_ = 64;
    out_of_bounds_object_ = kWallMid;
  }

 protected:
  static constexpr float kGoalReward = 10.0f;
  static constexpr int kGoal = 1;
  static constexpr int kSaw = 2;
  static constexpr int kSaw2 = 3;
  static constexpr int kEnemy = 5;
  static constexpr int kEnemy1 = 6;
  static constexpr int kEnemy2 = 7;
  static constexpr int kPlayerJump = 9;
  static constexpr int kPlayerRight1 = 12;
  static constexpr int kPlayerRight2 = 13;
  static constexpr int kWallMid = 15;
  static constexpr int kWallTop = 16;
  static constexpr int kLavaMid = 17;
  static constexpr int kLavaTop = 18;
  static constexpr int kEnemyBarrier = 19;
  static constexpr int kCrate = 20;
  static constexpr int kNumGroundThemes = 6;

  static const std::vector<std::string>& WalkingEnemies() {
    static const std::vector<std::string> names = {"slimeBlock", "slimePurple", "slimeBlue",
                                                   "slimeGreen", "mouse",       "snail",
                                                   "ladybug",    "wormGreen",   "wormPink"};
    return names;
  }
  static const std::vector<std::string>& PlayerThemeColors() {
    static const std::vector<std::string> names = {"Beige", "Blue", "Green", "Pink", "Yellow"};
    return names;
  }
  static const std::vector<std::string>& GroundThemes() {
    static const std::vector<std::string> names = {"Dirt", "Grass", "Planet",
                                                   "Sand", "Snow",  "Stone"};
    return names;
  }
  static std::string Lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }

  // platform_backgrounds, then (resources.cpp) every space background
  void LoadBackgroundImages() override { SetBackgrounds(PlatformBackgrounds()); }

  RectF GetAdjustedImageRect(int type, const RectF& rect) override {
    if (type == kPlayer || type == kPlayerJump || type == kPlayerRight1 || type == kPlayerRight2) {
      // adjust_rect(rect, QRectF(0, -.7415, 1, 1.7415))
      return RectF{rect.x + rect.w * 0.0, rect.y + rect.h * -.7415, rect.w * 1.0,
                   rect.h * 1.7415};
    }
    return rect;
  }

  void AssetForType(int type, std::vector<std::string>& names) override {
    auto players = [&](const std::string& pose) {
      for (const auto& color : PlayerThemeColors()) {
        names.push_back("kenney/Players/128x256/" + color + "/alien" + color + "_" + pose +
                        ".png");
      }
    };
    if (type == kPlayer) {
      players("stand");
    } else if (type == kPlayerJump) {
      players("jump");
    } else if (type == kPlayerRight1) {
      players("walk1");
    } else if (type == kPlayerRight2) {
      players("walk2");
    } else if (type == kEnemy1) {
      for (const auto& enemy : WalkingEnemies()) names.push_back("kenney/Enemies/" + enemy + ".png");
    } else if (type == kEnemy2) {
      for (const auto& enemy : WalkingEnemies()) {
        names.push_back("kenney/Enemies/" + enemy + "_move.png");
      }
    } else if (type == kGoal) {
      names.push_back("kenney/Items/coinGold.png");
    } else if (type == kWallTop) {
      for (const auto& ground : GroundThemes()) {
        names.push_back("kenney/Ground/" + ground + "/" + Lower(ground) + "Mid.png");
      }
    } else if (type == kWallMid) {
      for (const auto& ground : GroundThemes()) {
        names.push_back("kenney/Ground/" + ground + "/" + Lower(ground) + "Center.png");
      }
    } else if (type == kLavaTop) {
      names.push_back("kenney/Tiles/lavaTop_low.png");
    } else if (type == kLavaMid) {
      names.push_back("kenney/Tiles/lava.png");
    } else if (type == kSaw) {
      names.push_back("kenney/Enemies/sawHalf.png");
    } else if (type == kSaw2) {
      names.push_back("kenney/Enemies/sawHalf_move.png");
    } else if (type == kCrate) {
      names.push_back("kenney/Tiles/boxCrate.png");
      names.push_back("kenney/Tiles/boxCrate_double.png");
      names.push_back("kenney/Tiles/boxCrate_single.png");
      names.push_back("kenney/Tiles/boxCrate_warning.png");
    }
  }

  void HandleAgentCollision(const EntityPtr& obj) override {
    if (obj->type == kEnemy || obj->type == kSaw) step_data_.done = true;
  }

  int ThemeForGridObj(int type) override { return IsWall(type) ? wall_theme_ : 0; }

  bool WillReflect(int src, int target) override {
    return src == kEnemy && (IsWall(target) || target == kEnemyBarrier);
  }

  void HandleGridCollision(const EntityPtr& obj, int type, int /*i*/, int /*j*/) override {
    if (obj->type == kPlayer) {
      if (type == kGoal) {
        step_data_.reward += kGoalReward;
        step_data_.done = true;
        step_data_.level_complete = true;
      } else if (IsLava(type)) {
        step_data_.done = true;
      }
    }
  }

  void UpdateAgentVelocity() override {
    const float mixrate_x = has_support_ ? mixrate_ : (mixrate_ * air_control_);
    agent_->vx = (1 - mixrate_x) * agent_->vx + mixrate_x * maxspeed_ * action_vx_;
    if (std::fabs(agent_->vx) < mixrate_x * maxspeed_) agent_->vx = 0;
    if (action_vy_ > 0) {
      agent_->vy = max_jump_;
    } else if (has_support_) {
      agent_->vy += .2 * action_vy_;
    }
    if (!(has_support_ && action_vy_ > 0)) {
      agent_->vy -= gravity_;
      agent_->vy = ClipAbs(agent_->vy, max_jump_);
    }
  }

  static float ClipAbs(float x, float y) {
    if (x > y) return y;
    if (x < -y) return -y;
    return x;
  }
  static bool IsWall(int type) { return type == kWallMid || type == kWallTop; }
  static bool IsLava(int type) { return type == kLavaMid || type == kLavaTop; }

  bool IsBlockedEnts(const EntityPtr& src, const EntityPtr& target, bool is_horizontal) override {
    if (target->type == kCrate && !is_horizontal) {
      if (agent_->vy >= 0) return false;
      if (action_vy_ < 0) return false;
      if (last_agent_y_ < (target->y + target->ry + agent_->ry)) return false;
      is_on_crate_ = true;
      return true;
    }
    return BasicGame::IsBlockedEnts(src, target, is_horizontal);
  }

  bool IsBlocked(const EntityPtr& src, int target, bool is_horizontal) override {
    if (BasicGame::IsBlocked(src, target, is_horizontal)) return true;
    return src->type == kPlayer && IsWall(target);
  }

  int ImageForType(int type) override {
    if (type == kPlayer) {
      if (std::fabs(agent_->vx) < .01 && action_vx_ == 0 && has_support_) return kPlayer;
      return (cur_time_ / 5 % 2 == 0 || !has_support_) ? kPlayerRight1 : kPlayerRight2;
    }
    if (type == kEnemyBarrier) return -1;
    return BasicGame::ImageForType(type);
  }

  void FillBlockTop(int x, int y, int dx, int dy, int fill, int top) {
    if (dy <= 0) throw std::logic_error("procgen coinrun: a block of no height");
    FillElem(x, y, dx, dy - 1, fill);
    FillElem(x, y + dy - 1, dx, 1, top);
  }
  void FillGroundBlock(int x, int y, int dx, int dy) { FillBlockTop(x, y, dx, dy, kWallMid, kWallTop); }
  void FillLavaBlock(int x, int y, int dx, int dy) { FillBlockTop(x, y, dx, dy, kLavaMid, kLavaTop); }

  void InitFloorAndWalls() {
    FillElem(0, 0, main_width_, 1, kWallTop);
    FillElem(0, 0, 1, main_height_, kWallMid);
    FillElem(main_width_ - 1, 0, 1, main_height_, kWallMid);
    FillElem(0, main_height_ - 1, main_width_, 1, kWallMid);
  }

  void CreateSawEnemy(int x, int y) { AddEntity(x + .5, y + .5, 0, 0, .5, kSaw); }
  void CreateEnemy(int x, int y) {
    auto ent = AddEntity(x + .5, y + .5, .15 * (rand_gen_.RandN(2) * 2 - 1), 0, .5, kEnemy);
    ent->smart_step = true;
    ent->image_type = kEnemy1;
    ent->render_z = 1;
    ChooseRandomTheme(ent);
  }
  void CreateCrate(int x, int y) {
    auto ent = AddEntity(x + .5, y + .5, 0, 0, .5, kCrate);
    ChooseRandomTheme(ent);
  }

  void GenerateCoinToTheRight() {
    const int max_difficulty = 3;
    const int dif = rand_gen_.RandN(max_difficulty) + 1;
    const int num_sections = rand_gen_.RandN(dif) + dif;
    int curr_x = 5;
    int curr_y = 1;
    const int pit_threshold = dif;
    const int danger_type = rand_gen_.RandN(3);
    const int w = main_width_;
    const float max_dy_f = max_jump_ * max_jump_ / (2 * gravity_);
    const float max_dx_f = maxspeed_ * 2 * max_jump_ / gravity_;
    const int max_dy = static_cast<int>(max_dy_f - .5);
    const int max_dx = static_cast<int>(max_dx_f - .5);
    const bool allow_monsters = options_.distribution_mode != kEasyMode;
    for (int section_idx = 0; section_idx < num_sections; section_idx++) {
      if (curr_x + 15 >= w) break;
      int dy = rand_gen_.RandN(4) + 1 + dif / 3;
      if (dy > max_dy) dy = max_dy;
      if (curr_y >= 20) {
        dy *= -1;
      } else if (curr_y >= 5 && rand_gen_.RandN(2) == 1) {
        dy *= -1;
      }
      const int dx = rand_gen_.RandN(2 * dif) + 3 + dif / 3;
      curr_y += dy;
      if (curr_y < 1) curr_y = 1;
      const bool use_pit = (dx > 7) && (curr_y > 3) && (rand_gen_.RandN(20) >= pit_threshold);
      if (use_pit) {
        const int x1 = rand_gen_.RandN(3) + 1;
        int x2 = rand_gen_.RandN(3) + 1;
        int pit_width = dx - x1 - x2;
        if (pit_width > max_dx) {
          pit_width = max_dx;
          x2 = dx - x1 - pit_width;
        }
        FillGroundBlock(curr_x, 0, x1, curr_y);
        FillGroundBlock(curr_x + dx - x2, 0, x2, curr_y);
        const int lava_height = rand_gen_.RandN(curr_y - 3) + 1;
        if (danger_type == 0) {
          FillLavaBlock(curr_x + x1, 1, pit_width, lava_height);
        } else if (danger_type == 1) {
          for (int ei = 0; ei < pit_width; ei++) CreateSawEnemy(curr_x + x1 + ei, 1);
        } else if (danger_type == 2) {
          for (int ei = 0; ei < pit_width; ei++) CreateEnemy(curr_x + x1 + ei, 1);
        }
        if (pit_width > 4) {
          int x3, w1;
          if (pit_width == 5) {
            x3 = 1 + rand_gen_.RandN(2);
            w1 = 1 + rand_gen_.RandN(2);
          } else if (pit_width == 6) {
            x3 = 2 + rand_gen_.RandN(2);
            w1 = 1 + rand_gen_.RandN(2);
          } else {
            x3 = 2 + rand_gen_.RandN(2);
            const int x4 = 2 + rand_gen_.RandN(2);
            w1 = pit_width - x3 - x4;
          }
          FillGroundBlock(curr_x + x1 + x3, curr_y - 1, w1, 1);
        }
      } else {
        FillGroundBlock(curr_x, 0, dx, curr_y);
        int ob1_x = -1;
        int ob2_x = -1;
        if (rand_gen_.RandN(10) < (2 * dif) && dx > 3) {
          ob1_x = curr_x + rand_gen_.RandN(dx - 2) + 1;
          CreateSawEnemy(ob1_x, curr_y);
        }
        if (rand_gen_.RandN(10) < dif && dx > 3 && (max_dx >= 4) && allow_monsters) {
          ob2_x = curr_x + rand_gen_.RandN(dx - 2) + 1;
          CreateEnemy(ob2_x, curr_y);
        }
        for (int i = 0; i < 2; i++) {
          const int crate_x = curr_x + rand_gen_.RandN(dx - 2) + 1;
          if (rand_gen_.RandN(2) == 1 && ob1_x != crate_x && ob2_x != crate_x) {
            const int pile_height = rand_gen_.RandN(3) + 1;
            for (int j = 0; j < pile_height; j++) CreateCrate(crate_x, curr_y + j);
          }
        }
      }
      if (!IsWall(GetObj(curr_x - 1, curr_y))) SetObj(curr_x - 1, curr_y, kEnemyBarrier);
      curr_x += dx;
      SetObj(curr_x, curr_y, kEnemyBarrier);
    }
    SetObj(curr_x, curr_y, kGoal);
    FillGroundBlock(curr_x, 0, 1, curr_y);
    FillElem(curr_x + 1, 0, main_width_ - curr_x - 1, main_height_, kWallMid);
  }

  void GameReset() override {
    BasicGame::GameReset();
    gravity_ = 0.2f;
    max_jump_ = 1.5;
    air_control_ = 0.15f;
    maxspeed_ = .5;
    has_support_ = false;
    facing_right_ = true;
    if (options_.distribution_mode == kEasyMode) {
      agent_->image_theme = 0;
      wall_theme_ = 0;
      background_index_ = 0;
    } else {
      ChooseRandomTheme(agent_);
      wall_theme_ = rand_gen_.RandN(kNumGroundThemes);
    }
    agent_->rx = .5;
    agent_->ry = 0.5787f;
    agent_->x = 1 + agent_->rx;
    agent_->y = 1 + agent_->ry;
    last_agent_y_ = agent_->y;
    is_on_crate_ = false;
    InitFloorAndWalls();
    GenerateCoinToTheRight();
  }

  bool CanSupport(int obj) const { return IsWall(obj) || obj == out_of_bounds_object_; }

  void SetActionXY(int move_action) override {
    action_vx_ = move_action / 3 - 1;
    action_vy_ = (move_action % 3) - 1;
    if (action_vx_ > 0) facing_right_ = true;
    if (action_vx_ < 0) facing_right_ = false;
    // (the probe points are double expressions, converted to float)
    const int obj_below_1 =
        GetObjFromFloats(agent_->x - (agent_->rx - .01), agent_->y - (agent_->ry + .01));
    const int obj_below_2 =
        GetObjFromFloats(agent_->x + (agent_->rx - .01), agent_->y - (agent_->ry + .01));
    has_support_ = (is_on_crate_ || CanSupport(obj_below_1) || CanSupport(obj_below_2)) &&
                   agent_->vy == 0;
    is_on_crate_ = false;
    if (action_vy_ == 1 && !has_support_) action_vy_ = 0;
  }

  void GameStep() override {
    BasicGame::GameStep();
    if (action_vx_ > 0) agent_->is_reflected = false;
    if (action_vx_ < 0) agent_->is_reflected = true;
    for (int i = static_cast<int>(entities_.size()) - 1; i >= 0; i--) {
      auto ent = entities_[i];
      if (ent->type == kEnemy) {
        auto trail = AddEntityRxy(ent->x, ent->y - ent->ry * .5, 0, 0.01f, 0.3f, 0.2f, kTrail);
        trail->expire_time = 8;
        trail->alpha = .5;
        ent->image_type = cur_time_ / 5 % 2 == 0 ? kEnemy1 : kEnemy2;
        ent->is_reflected = ent->vx > 0;
      } else if (ent->type == kSaw) {
        ent->image_type = cur_time_ % 2 == 0 ? kSaw : kSaw2;
      }
    }
    last_agent_y_ = agent_->y;
  }

 private:
  float last_agent_y_ = 0.0f;
  int wall_theme_ = 0;
  bool has_support_ = false;
  bool facing_right_ = false;
  bool is_on_crate_ = false;
  float gravity_ = 0.0f;
  float air_control_ = 0.0f;
};

}  // namespace envpool::procgen
