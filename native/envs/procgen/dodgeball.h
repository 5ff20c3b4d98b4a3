// procgen's dodgeball (src/games/dodgeball.cpp), restated: a room divided by lava walls
// (touching one ends the episode) with 3 or more enemies that wander and throw balls along
// the row or column the agent is in; a ball or an enemy touching the agent ends the
// episode. The agent throws balls (action 9, at most one every 7 steps) in the direction it
// last moved: an enemy hit is destroyed (+2, a dust cloud left behind). Once every enemy is
// gone the door opens (drawn green) and reaching it completes the level (+10). The world is
// 20 cells wide (40 in memory mode, which shows 16 cells around the agent); the rooms come
// from 2 (easy), 4 (hard), 8 (extreme) or 16 (memory) random splits, and easy's agent,
// enemies, walls and balls are larger. Timeout 1000 steps.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "envs/procgen/game.h"

namespace envpool::procgen {

class Dodgeball final : public BasicGame {
 public:
  static constexpr const char* kName = "dodgeball";
  static constexpr bool kHasExtreme = true;
  static constexpr bool kHasMemory = true;

  explicit Dodgeball(std::shared_ptr<AssetStore> assets) : BasicGame(kName, std::move(assets)) {
    mixrate_ = .5;
    out_of_bounds_object_ = kOobWall;
  }

 protected:
  static constexpr float kCompletionBonus = 10.0;
  static constexpr int kLavaWall = 1;
  static constexpr int kPlayerBall = 3;
  static constexpr int kEnemy = 4;
  static constexpr int kDoor = 5;
  static constexpr int kEnemyBall = 6;
  static constexpr int kDoorOpen = 7;
  static constexpr int kDustCloud = 8;
  static constexpr int kOobWall = 10;
  // the reference declares it `const int ENEMY_REWARD = 2.0f`: an int
  static constexpr int kEnemyReward = 2;
  static constexpr int kNumEnemyThemes = 7;
  static constexpr float kEnemyVel = 0.05f;
  static constexpr float kBallVRot = kPi * 0.23f;
  static constexpr int kEnemyFireDelay = 50;

  void LoadBackgroundImages() override { SetBackgrounds(TopdownBackgrounds()); }

  void AssetForType(int type, std::vector<std::string>& names) override {
    if (type == kPlayer) {
      names.push_back("misc_assets/character12.png");
    } else if (type == kPlayerBall) {
      names.push_back("misc_assets/ball_soccer1.png");
    } else if (type == kEnemy) {
      for (int i = 1; i <= 11; i++) {
        names.push_back("misc_assets/character" + std::to_string(i) + ".png");
      }
    } else if (type == kDoor) {
      names.push_back("misc_assets/blockRed.png");
    } else if (type == kEnemyBall) {
      names.push_back("misc_assets/ball_soccer2.png");
    } else if (type == kDoorOpen) {
      names.push_back("misc_assets/blockGreen.png");
    } else if (type == kLavaWall || type == kOobWall) {
      names.push_back("misc_assets/tileStone_slope2.png");
    } else if (type == kDustCloud) {
      for (int i = 1; i <= 9; i++) {
        names.push_back("misc_assets/spaceEffect" + std::to_string(i) + ".png");
      }
    }
  }

  // the door is drawn open once no enemy is left
  int ImageForType(int type) override {
    if (type == kDoor) return num_enemies_ == 0 ? kDoorOpen : kDoor;
    return BasicGame::ImageForType(type);
  }

  // enemies bounce off the lava walls and the world's edge
  bool WillReflect(int src, int target) override {
    return BasicGame::WillReflect(src, target) ||
           (src == kEnemy && (target == kLavaWall || target == out_of_bounds_object_));
  }

  void HandleAgentCollision(const EntityPtr& obj) override {
    if (obj->type == kEnemy || obj->type == kEnemyBall || obj->type == kLavaWall) {
      step_data_.done = true;
    } else if (obj->type == kDoor) {
      if (num_enemies_ == 0) {
        step_data_.done = true;
        step_data_.reward += kCompletionBonus;
        step_data_.level_complete = true;
      }
    }
  }

  // lava walls and enemies collide with the other entities: a ball hitting a lava wall is
  // gone; the agent's ball hitting an enemy takes its health (1), leaving a dust cloud
  void HandleCollision(const EntityPtr& src, const EntityPtr& target) override {
    if (target->type == kPlayerBall) {
      if (src->type == kLavaWall) {
        target->will_erase = true;
      } else if (src->type == kEnemy) {
        src->health -= 1;
        target->will_erase = true;
        if (src->health <= 0 && !src->will_erase) {
          src->will_erase = true;
          step_data_.reward += kEnemyReward;
          auto ent = SpawnChild(src, kDustCloud, src->rx);
          ent->vrot = kPi / 0.3f;
          ent->grow_rate = 1.0f / 1.2f;
          ent->expire_time = 4;
          ent->alpha_decay = 0.9f;
          ChooseStepRandomTheme(ent);
        }
      }
    } else if (target->type == kEnemyBall) {
      if (src->type == kLavaWall) target->will_erase = true;
    }
  }

  // lava walls are tiled along their long side
  float GetTileAspectRatio(const EntityPtr& ent) override {
    if (ent->type == kLavaWall) return ent->rx > ent->ry ? 1 : -1;
    return 0;
  }

  void ChooseWorldDim() override {
    const int world_dim = options_.distribution_mode == kMemoryMode ? 40 : 20;
    main_width_ = world_dim;
    main_height_ = world_dim;
  }

  void GameReset() override {
    BasicGame::GameReset();
    options_.center_agent = options_.distribution_mode == kMemoryMode;
    last_fire_time_ = 0;
    rooms_.clear();
    rooms_.push_back(Room{0, 0, static_cast<double>(main_width_),
                          static_cast<double>(main_height_)});
    float thickness = 0.3f;
    float enemy_r = .5;
    float exit_r = .75;
    ball_r_ = .25;
    ball_vscale_ = .25;
    int num_iterations = 0;
    int max_extra_enemies = 3;
    const int mode = options_.distribution_mode;
    if (mode == kEasyMode) {
      num_iterations = 2;
      thickness *= 2;
      enemy_r *= 2;
      ball_r_ *= 2;
      ball_vscale_ *= 2;
      maxspeed_ = .75;
      agent_->rx = 1;
      agent_->ry = 1;
      exit_r *= 2;
    } else if (mode == kHardMode || mode == kMemoryMode) {
      num_iterations = mode == kHardMode ? 4 : 16;
      thickness *= 1.5;
      enemy_r *= 1.5;
      ball_r_ *= 1.5;
      ball_vscale_ *= 1.5;
      maxspeed_ = .5;
      agent_->rx = .75;
      agent_->ry = .75;
      if (mode == kMemoryMode) max_extra_enemies = 16;
    } else {
      num_iterations = 8;
      maxspeed_ = .25;
    }
    hard_min_dim_ = 4 * agent_->rx + 2 * thickness + .5;
    min_dim_ = agent_->rx * 8 + .5;
    for (int iteration = 0; iteration < num_iterations; iteration++) {
      if (rooms_.empty()) break;
      const int idx = rand_gen_.RandN(static_cast<int>(rooms_.size()));
      const Room room = rooms_[idx];
      rooms_.erase(rooms_.begin() + idx);
      SplitRoom(room, thickness);
    }
    // the door on one of the four edges
    const float border_r = 0;
    const float doorlen = 2 * exit_r;
    const int exit_wall_choice = rand_gen_.RandN(4);
    if (exit_wall_choice == 0) {
      SpawnEntityRxy(doorlen / 2, exit_r, kDoor, 2 * border_r, 2 * border_r,
                     main_width_ - 4 * border_r, 2 * exit_r);
    } else if (exit_wall_choice == 1) {
      SpawnEntityRxy(doorlen / 2, exit_r, kDoor, 2 * border_r,
                     main_height_ - 2 * border_r - 2 * exit_r, main_width_ - 4 * border_r,
                     2 * exit_r);
    } else if (exit_wall_choice == 2) {
      SpawnEntityRxy(exit_r, doorlen / 2, kDoor, 2 * border_r, 2 * border_r, 2 * exit_r,
                     main_height_ - 4 * border_r);
    } else {
      SpawnEntityRxy(exit_r, doorlen / 2, kDoor, main_width_ - 2 * border_r - 2 * exit_r,
                     2 * border_r, 2 * exit_r, main_height_ - 4 * border_r);
    }
    RepositionAgent();
    num_enemies_ = rand_gen_.RandN(max_extra_enemies + 1) + 3;
    for (int i = 0; i < num_enemies_; i++) {
      SpawnEntity(enemy_r, kEnemy, 0, 0, main_width_, main_height_);
    }
    const int enemy_theme = rand_gen_.RandN(kNumEnemyThemes);
    for (const auto& ent : entities_) {
      if (ent->type == kEnemy) {
        ent->image_theme = enemy_theme;
        ent->health = 1;
        ent->spawn_time = 0;
        ent->fire_time = 10;
        ent->collides_with_entities = true;
        ent->smart_step = true;
        ChooseVel(ent);
        ent->FaceDirection(ent->vx, ent->vy);
      } else if (ent->type == kLavaWall) {
        ent->collides_with_entities = true;
      }
    }
    agent_->FaceDirection(1, 0);
  }

  void GameStep() override {
    BasicGame::GameStep();
    // the agent faces, and throws, in the direction it last moved
    const float vx = last_move_action_ / 3 - 1;
    const float vy = last_move_action_ % 3 - 1;
    agent_->FaceDirection(vx, vy);
    if (special_action_ == 1 && (cur_time_ - last_fire_time_) >= 7) {
      auto new_ball = AddEntity(agent_->x, agent_->y, vx * ball_vscale_, vy * ball_vscale_,
                                ball_r_, kPlayerBall);
      new_ball->collides_with_entities = true;
      new_ball->expire_time = 50;
      new_ball->vrot = kBallVRot;
      last_fire_time_ = cur_time_;
    }
    num_enemies_ = 0;
    for (int i = static_cast<int>(entities_.size()) - 1; i >= 0; i--) {
      auto ent = entities_[i];
      if (ent->type == kEnemy) {
        num_enemies_++;
        // a new random direction every 25 .. 74 steps
        if (ent->spawn_time == 0) {
          ChooseVel(ent);
        } else {
          ent->spawn_time -= 1;
        }
        // every 50 steps at most, an enemy within a cell of the agent's column (row)
        // throws a ball at it and walks that way
        const bool can_fire = (cur_time_ - ent->fire_time) >= kEnemyFireDelay;
        if (can_fire) {
          const float dx = ent->x - agent_->x;
          const float dy = ent->y - agent_->y;
          const float bvelx = (ent->x < agent_->x ? 1 : -1);
          const float bvely = (ent->y < agent_->y ? 1 : -1);
          if (std::fabs(dx) < 1) {
            FireBall(ent, 0, bvely);
            ent->vx = 0;
            ent->vy = bvely * kEnemyVel;
          } else if (std::fabs(dy) < 1) {
            FireBall(ent, bvelx, 0);
            ent->vx = bvelx * kEnemyVel;
            ent->vy = 0;
          }
        }
        ent->FaceDirection(ent->vx, ent->vy);
      } else if (ent->type == kPlayerBall || ent->type == kEnemyBall) {
        // balls are gone at the world's edge
        if (ent->x < ent->rx || ent->x > (main_width_ - ent->rx)) {
          ent->will_erase = true;
        } else if (ent->y < ent->ry || ent->y > (main_height_ - ent->ry)) {
          ent->will_erase = true;
        }
      }
    }
    EraseIfNeeded();
  }

 private:
  // a QRectF (qreal members); its sides are read back as floats
  struct Room {
    double x, y, w, h;
  };

  void AddRoom(const Room& room) {
    const float rw = room.w;
    const float rh = room.h;
    if ((rw >= min_dim_ || rh >= min_dim_) && (rw >= hard_min_dim_) && (rh >= hard_min_dim_)) {
      rooms_.push_back(room);
    }
  }

  // a lava wall across the room (split_width: a horizontal wall, else a vertical one),
  // covering 1/4, 1/2 or 3/4 of it from one side; the parts either side of the wall and
  // the part past its end are rooms again if large enough
  void SplitRoom(const Room& room, float thickness) {
    bool will_split_width = rand_gen_.Rand01() < .5;
    const bool choice2 = rand_gen_.Rand01() < .5;
    if (room.w < min_dim_) will_split_width = false;
    if (room.h < min_dim_) will_split_width = true;
    const float rx = room.x;
    const float ry = room.y;
    const float rw = room.w;
    const float rh = room.h;
    const float gap = .25 * (rand_gen_.RandN(3) + 1);
    const float pct = 1 - gap;
    if (!will_split_width) {
      float wy, wh, remy;
      if (choice2) {
        wy = ry;
        remy = ry + pct * rh;
        wh = pct * rh;
      } else {
        wy = ry + (1 - pct) * rh;
        remy = ry;
        wh = pct * rh;
      }
      AddEntityRxy(rx + rw / 2, wy + wh / 2, 0, 0, thickness, wh / 2, kLavaWall);
      const float nextw = rw / 2 - thickness;
      AddRoom(Room{rx, wy, nextw, wh});
      AddRoom(Room{rx + rw / 2 + thickness, wy, nextw, wh});
      AddRoom(Room{rx, remy, rw, rh - wh});
    } else {
      float wx, ww, remx;
      if (choice2) {
        wx = rx;
        remx = rx + pct * rw;
        ww = pct * rw;
      } else {
        wx = rx + (1 - pct) * rw;
        remx = rx;
        ww = pct * rw;
      }
      AddEntityRxy(wx + ww / 2, ry + rh / 2, 0, 0, ww / 2, thickness, kLavaWall);
      const float nexth = rh / 2 - thickness;
      AddRoom(Room{wx, ry, ww, nexth});
      AddRoom(Room{wx, ry + rh / 2 + thickness, ww, nexth});
      AddRoom(Room{remx, ry, rw - ww, rh});
    }
  }

  // a random axis and sign at ENEMY_VEL, kept for 25 .. 74 steps
  void ChooseVel(const EntityPtr& ent) {
    const float vel = kEnemyVel * (rand_gen_.RandN(2) * 2 - 1);
    if (rand_gen_.RandN(2) == 0) {
      ent->vx = vel;
      ent->vy = 0;
    } else {
      ent->vy = vel;
      ent->vx = 0;
    }
    ent->spawn_time = rand_gen_.RandN(50) + 25;
  }

  void FireBall(const EntityPtr& ent, float vx, float vy) {
    auto new_ball =
        AddEntity(ent->x, ent->y, vx * ball_vscale_, vy * ball_vscale_, ball_r_, kEnemyBall);
    ent->fire_time = cur_time_ + rand_gen_.RandN(4);
    new_ball->vrot = kBallVRot;
    new_ball->expire_time = 50;
  }

  std::vector<Room> rooms_;
  float min_dim_ = 0.0f;
  float hard_min_dim_ = 0.0f;
  float ball_vscale_ = 0.0f;
  float ball_r_ = 0.0f;
  int last_fire_time_ = 0;
  int num_enemies_ = 0;
};

}  // namespace envpool::procgen
