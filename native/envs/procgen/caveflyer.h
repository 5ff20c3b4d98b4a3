// procgen's caveflyer (src/games/caveflyer.cpp), restated: a ship flies through a cave
// (RoomGenerator's cellular automaton, pruned to a corridor around the path to the goal
// except in memory mode) to a friendly ufo (+10, the level complete). It turns left or
// right, thrusts forward (leaving exhaust) or backward at a third of the power, and fires
// (action 9); shooting a red ufo five times destroys it (+3). Touching a meteor, a red ufo
// or a patrolling enemy ship ends the episode, and the cave walls stop the ship. The world
// is 30 x 30 (easy), 40 x 40 (hard) or 60 x 60 (memory) units, seen 10 (easy) or 16 units
// wide around the ship, on one of procgen's space backgrounds.
#pragma once

#include <cmath>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/procgen/game.h"
#include "envs/procgen/roomgen.h"

namespace envpool::procgen {

class CaveFlyer final : public BasicGame {
 public:
  static constexpr const char* kName = "caveflyer";
  static constexpr bool kHasExtreme = false;
  static constexpr bool kHasMemory = true;

  explicit CaveFlyer(std::shared_ptr<AssetStore> assets)
      : BasicGame(kName, std::move(assets)),
        rooms_(grid_, grid_w_, grid_h_, out_of_bounds_object_, kSpace, kWallObj) {
    mixrate_ = 0.9f;
  }

 protected:
  static constexpr float kGoalReward = 10.0f;
  static constexpr float kTargetReward = 3.0f;
  static constexpr int kGoal = 1;
  static constexpr int kObstacle = 2;
  static constexpr int kTarget = 3;
  static constexpr int kPlayerBullet = 4;
  static constexpr int kEnemy = 5;
  static constexpr int kCaveWall = 8;
  static constexpr int kExhaust = 9;
  static constexpr int kMarker = 1003;

  void LoadBackgroundImages() override { SetBackgrounds(SpaceBackgrounds()); }

  void AssetForType(int type, std::vector<std::string>& names) override {
    if (type == kGoal) {
      names.push_back("misc_assets/ufoGreen2.png");
    } else if (type == kObstacle) {
      names.push_back("misc_assets/meteorBrown_big1.png");
    } else if (type == kTarget) {
      names.push_back("misc_assets/ufoRed2.png");
    } else if (type == kPlayerBullet) {
      names.push_back("misc_assets/laserBlue02.png");
    } else if (type == kEnemy) {
      names.push_back("misc_assets/enemyShipBlue4.png");
    } else if (type == kPlayer) {
      names.push_back("misc_assets/playerShip1_red.png");
    } else if (type == kCaveWall) {
      names.push_back("misc_assets/groundA.png");
    } else if (type == kExhaust) {
      names.push_back("misc_assets/towerDefense_tile295.png");
    }
  }

  void HandleAgentCollision(const EntityPtr& obj) override {
    if (obj->type == kGoal) {
      step_data_.reward += kGoalReward;
      step_data_.level_complete = true;
      step_data_.done = true;
    } else if (obj->type == kObstacle || obj->type == kEnemy || obj->type == kTarget) {
      step_data_.done = true;
    }
  }

  // thrust adds to the velocity (a fifth of procgen's usual mix), which then decays by .9
  // (the sums go through volatile floats: GCC 12.2 at -O2 otherwise SLP-vectorizes the two
  // updates with the decay and carries the sums into the decay in double, dropping their
  // rounding to float, which procgen's build keeps (-fno-tree-slp-vectorize, or -O1, gives
  // the rounded value); the ship then drifts from procgen's by an ulp)
  void UpdateAgentVelocity() override {
    const float v_scale = GetAgentAccelerationScale();
    const volatile float vx = agent_->vx + mixrate_ * maxspeed_ * action_vx_ * v_scale * .2;
    const volatile float vy = agent_->vy + mixrate_ * maxspeed_ * action_vy_ * v_scale * .2;
    agent_->vx = vx;
    agent_->vy = vy;
    DecayAgentVelocity();
  }

  bool IsBlocked(const EntityPtr& src, int target, bool is_horizontal) override {
    if (BasicGame::IsBlocked(src, target, is_horizontal)) return true;
    return src->type == kPlayer && target == kCaveWall;
  }

  // a player bullet hitting a red ufo takes one of its five health points (the last one
  // destroys it: +3); any of the solid things stops the bullet in an explosion
  void HandleCollision(const EntityPtr& src, const EntityPtr& target) override {
    if (target->type != kPlayerBullet) return;
    bool erase_bullet = false;
    if (src->type == kTarget) {
      src->health -= 1;
      erase_bullet = true;
      if (src->health <= 0 && !src->will_erase) {
        SpawnChild(src, kExplosion, .5 * src->rx);
        src->will_erase = true;
        step_data_.reward += kTargetReward;
      }
    } else if (src->type == kObstacle || src->type == kEnemy || src->type == kGoal) {
      erase_bullet = true;
    }
    if (erase_bullet && !target->will_erase) {
      target->will_erase = true;
      auto explosion = SpawnChild(target, kExplosion, .5 * target->rx);
      explosion->vx = src->vx;
      explosion->vy = src->vy;
    }
  }

  bool WillReflect(int src, int target) override {
    return src == kEnemy && (target == kCaveWall || target == out_of_bounds_object_);
  }

  void ChooseWorldDim() override {
    int world_dim = 20;
    if (options_.distribution_mode == kEasyMode) {
      world_dim = 30;
    } else if (options_.distribution_mode == kHardMode) {
      world_dim = 40;
    } else if (options_.distribution_mode == kMemoryMode) {
      world_dim = 60;
    }
    main_width_ = world_dim;
    main_height_ = world_dim;
  }

  // The cave: random walls (half the cells), four automaton steps, the largest room kept;
  // ship and goal on two of its cells; outside memory mode the cave cut down to the cells
  // within 4 (8-adjacent) steps of the shortest path between them; four more automaton
  // steps that keep the path open; then a third each of an 80th of the free cells' count
  // as meteors, red ufos and enemy ships, on free cells off the path.
  void GameReset() override {
    BasicGame::GameReset();
    out_of_bounds_object_ = kWallObj;
    for (int i = 0; i < grid_size_; i++) SetObjIdx(i, rand_gen_.Rand01() < .5 ? kWallObj : kSpace);
    for (int iteration = 0; iteration < 4; iteration++) rooms_.Update();
    std::set<int> best_room;
    rooms_.FindBestRoom(best_room);
    if (best_room.empty()) throw std::logic_error("procgen caveflyer: a level with no room");
    for (int i = 0; i < grid_size_; i++) SetObjIdx(i, kWallObj);
    std::vector<int> free_cells;
    for (const int i : best_room) {
      SetObjIdx(i, kSpace);
      free_cells.push_back(i);
    }
    const std::vector<int> selected = rand_gen_.SimpleChoose(static_cast<int>(free_cells.size()), 2);
    const int agent_cell = free_cells[selected[0]];
    const int goal_cell = free_cells[selected[1]];
    agent_->x = (agent_cell % main_width_) + .5;
    agent_->y = (agent_cell / main_width_) + .5;
    auto goal = SpawnEntityAtIdx(goal_cell, .5, kGoal);
    goal->collides_with_entities = true;

    std::vector<int> goal_path;
    rooms_.FindPath(agent_cell, goal_cell, goal_path);
    if (options_.distribution_mode != kMemoryMode) {
      std::set<int> wide_path(goal_path.begin(), goal_path.end());
      rooms_.ExpandRoom(wide_path, 4);
      for (int i = 0; i < grid_size_; i++) SetObjIdx(i, kWallObj);
      for (const int i : wide_path) SetObjIdx(i, kSpace);
    }
    for (int iteration = 0; iteration < 4; iteration++) {
      rooms_.Update();
      for (const int i : goal_path) SetObjIdx(i, kSpace);
    }
    for (const int i : goal_path) SetObjIdx(i, kMarker);

    free_cells.clear();
    for (int i = 0; i < grid_size_; i++) {
      if (GetObjIdx(i) == kSpace) {
        free_cells.push_back(i);
      } else if (GetObjIdx(i) == kWallObj) {
        SetObjIdx(i, kCaveWall);
      }
    }
    const int chunk_size = static_cast<int>(free_cells.size()) / 80;
    const int num_objs = 3 * chunk_size;
    const std::vector<int> obstacle_idxs =
        rand_gen_.SimpleChoose(static_cast<int>(free_cells.size()), num_objs);
    for (int i = 0; i < num_objs; i++) {
      const int val = free_cells[obstacle_idxs[i]];
      if (i < chunk_size) {
        auto e = SpawnEntityAtIdx(val, .5, kObstacle);
        e->collides_with_entities = true;
      } else if (i < 2 * chunk_size) {
        auto e = SpawnEntityAtIdx(val, .5, kTarget);
        e->health = 5;
        e->collides_with_entities = true;
      } else {
        auto e = SpawnEntityAtIdx(val, .5, kEnemy);
        // (the speed's draw, then the direction's: procgen's operands in that order)
        const double speed = .1 * rand_gen_.Rand01() + .1;
        const float vel = speed * (rand_gen_.RandN(2) * 2 - 1);
        if (rand_gen_.Rand01() < .5) {
          e->vx = vel;
        } else {
          e->vy = vel;
        }
        e->smart_step = true;
        e->collides_with_entities = true;
      }
    }
    for (int i = 0; i < grid_size_; i++) {
      if (GetObjIdx(i) == kMarker) SetObjIdx(i, kSpace);
    }
    out_of_bounds_object_ = kCaveWall;
    visibility_ = options_.distribution_mode == kEasyMode ? 10 : 16;
  }

  // actions: move_action / 3 turns (left, none, right), move_action % 3 thrusts (backward
  // at 0.33, none, forward) along the ship's heading theta = pi / 2 - rotation
  void SetActionXY(int move_action) override {
    float acceleration = move_action % 3 - 1;
    if (acceleration < 0) acceleration *= 0.33f;
    const float theta = -1 * agent_->rotation + kPi / 2;
    if (acceleration > 0) {
      auto exhaust = AddEntity(agent_->x - agent_->rx * Cos(theta),
                               agent_->y - agent_->ry * Sin(theta), 0, 0, .5 * agent_->rx,
                               kExhaust);
      exhaust->expire_time = 4;
      exhaust->rotation = -1 * theta - kPi / 2;
      exhaust->grow_rate = 1.25;
      exhaust->alpha_decay = 0.8f;
    }
    action_vy_ = acceleration * Sin(theta);
    action_vx_ = acceleration * Cos(theta);
    action_vrot_ = move_action / 3 - 1;
  }

  void GameStep() override {
    BasicGame::GameStep();
    if (special_action_ == 1) {
      const float theta = -1 * agent_->rotation + kPi / 2;
      const float vx = Cos(theta);
      const float vy = Sin(theta);
      auto bullet = AddEntityRxy(agent_->x, agent_->y, vx, vy, 0.1f, 0.25f, kPlayerBullet);
      bullet->expire_time = 10;
      bullet->rotation = agent_->rotation;
    }
    for (int ent_idx = static_cast<int>(entities_.size()) - 1; ent_idx >= 0; ent_idx--) {
      auto ent = entities_[ent_idx];
      if (ent->type == kEnemy) ent->FaceDirection(ent->vx, ent->vy, -1 * kPi / 2);
      if (ent->type != kPlayerBullet) continue;
      // a bullet with a corner in a cave wall explodes
      bool found_wall = false;
      for (int i = 0; i < 2; i++) {
        for (int j = 0; j < 2; j++) {
          const int type2 =
              GetObjFromFloats(ent->x + ent->rx * (2 * i - 1), ent->y + ent->ry * (2 * j - 1));
          found_wall = found_wall || type2 == kCaveWall;
        }
      }
      if (found_wall) {
        ent->will_erase = true;
        SpawnChild(ent, kExplosion, .5 * ent->rx);
      }
    }
    EraseIfNeeded();
  }

 private:
  // spawn_entity_at_idx: an entity of radius r at the centre of cell idx
  EntityPtr SpawnEntityAtIdx(int idx, float r, int type) {
    const float x = (idx % main_width_) + .5;
    const float y = (idx / main_width_) + .5;
    return AddEntity(x, y, 0, 0, r, type);
  }

  RoomGenerator rooms_;
};

}  // namespace envpool::procgen
