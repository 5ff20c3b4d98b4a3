// procgen's chaser (src/games/chaser.cpp), restated: a Ms. Pac-Man-like game. The agent
// eats the small orbs on every open cell of a maze without dead ends (MazeGen's
// generate_maze_no_dead_ends), +0.04 each, and +10 (the level complete) when all are
// eaten. Enemies hatch from eggs (50 steps) and chase the agent along the corridors; one
// touching the agent ends the episode, unless a large orb (+0.04) was eaten in the last 75
// steps: then the enemies flee at half speed and are eaten on contact, and a new egg is
// laid on a random open cell for each one missing. The maze is 11 (easy), 13 (hard) or 19
// (extreme) cells wide with 3, 3 or 5 enemies and 4 large orbs, one quadrant getting one
// more (extreme) or one fewer (hard). The whole maze is shown; no velocity information to
// paint. Timeout 1000 steps.
#pragma once

#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "envs/procgen/game.h"
#include "envs/procgen/mazegen.h"

namespace envpool::procgen {

class Chaser final : public BasicGame {
 public:
  static constexpr const char* kName = "chaser";
  static constexpr bool kHasExtreme = true;
  static constexpr bool kHasMemory = false;

  explicit Chaser(std::shared_ptr<AssetStore> assets) : BasicGame(kName, std::move(assets)) {
    mixrate_ = 1;
    maxspeed_ = .5;
    has_useful_vel_info_ = false;
  }

 protected:
  static constexpr float kOrbReward = 0.04f;
  static constexpr float kCompletionBonus = 10.0f;
  static constexpr float kOrbDim = 0.3f;
  static constexpr int kLargeOrb = 2;
  static constexpr int kEnemyWeak = 3;
  static constexpr int kEnemyEgg = 4;
  static constexpr int kMazeWall = 5;
  static constexpr int kEnemy = 6;
  static constexpr int kEnemy2 = 7;
  static constexpr int kEnemy3 = 8;
  // grid objects (drawn by DrawGridObj, not from images)
  static constexpr int kMarker = 1001;
  static constexpr int kOrb = 1002;
  static constexpr int kEatTimeout = 75;
  static constexpr int kEggTimeout = 50;

  // resources.cpp's topdown_simple_backgrounds: the floor tiles only
  void LoadBackgroundImages() override { SetBackgrounds({"topdown_backgrounds/floortiles.png"}); }

  void AssetForType(int type, std::vector<std::string>& names) override {
    if (type == kPlayer) {
      names.push_back("misc_assets/enemyFloating_1b.png");
    } else if (type == kEnemy) {
      names.push_back("misc_assets/enemyFlying_1.png");
    } else if (type == kEnemy2) {
      names.push_back("misc_assets/enemyFlying_2.png");
    } else if (type == kEnemy3) {
      names.push_back("misc_assets/enemyFlying_3.png");
    } else if (type == kLargeOrb) {
      names.push_back("misc_assets/yellowCrystal.png");
    } else if (type == kEnemyWeak) {
      names.push_back("misc_assets/enemyWalking_1b.png");
    } else if (type == kEnemyEgg) {
      names.push_back("misc_assets/enemySpikey_1b.png");
    } else if (type == kMazeWall) {
      names.push_back("misc_assets/tileStone_slope.png");
    }
  }

  // the agent keeps moving at full speed along its last direction on each axis (sign in
  // double, as cpp-utils' sign is); a velocity a collision reduced is restored
  void UpdateAgentVelocity() override {
    if (action_vx_ != 0) agent_->vx = maxspeed_ * action_vx_;
    if (action_vy_ != 0) agent_->vy = maxspeed_ * action_vy_;
    agent_->vx = Sign(agent_->vx) * maxspeed_;
    agent_->vy = Sign(agent_->vy) * maxspeed_;
  }

  bool IsBlocked(const EntityPtr& src, int target, bool is_horizontal) override {
    if (target == kMazeWall) return true;
    return BasicGame::IsBlocked(src, target, is_horizontal);
  }

  // enemies are drawn weak while they can be eaten, else flap through frames 1, 2, 3, 2
  int ImageForType(int type) override {
    if (type == kEnemy) {
      if (CanEatEnemies()) return kEnemyWeak;
      int rem = (cur_time_ / 2) % 4;
      if (rem == 3) rem = 1;
      return kEnemy + rem;
    }
    return BasicGame::ImageForType(type);
  }

  // a small orb: a green square of 0.3 of the cell in its centre (in qreal)
  void DrawGridObj(Painter& p, const RectF& rect, int type, int theme) override {
    if (type == kOrb) {
      const float gap = 1 - kOrbDim;
      p.FillRect(RectF{rect.x + rect.w * gap / 2, rect.y + rect.h * gap / 2, rect.w * kOrbDim,
                       rect.h * kOrbDim},
                 0, 255, 0);
    } else {
      BasicGame::DrawGridObj(p, rect, type, theme);
    }
  }

  void HandleAgentCollision(const EntityPtr& obj) override {
    if (obj->type == kLargeOrb) {
      eat_time_ = cur_time_;
      step_data_.reward += kOrbReward;
      obj->will_erase = true;
    } else if (obj->type == kEnemy) {
      if (CanEatEnemies()) {
        obj->will_erase = true;
      } else {
        step_data_.done = true;
      }
    }
  }

  void ChooseWorldDim() override {
    main_width_ = maze_dim_;
    main_height_ = maze_dim_;
  }

  void GameReset() override {
    int extra_orb_sign = 1;
    if (options_.distribution_mode == kEasyMode) {
      maze_dim_ = 11;
      total_enemies_ = 3;
      extra_orb_sign = 0;
    } else if (options_.distribution_mode == kHardMode) {
      maze_dim_ = 13;
      total_enemies_ = 3;
      extra_orb_sign = -1;
    } else {
      maze_dim_ = 19;
      total_enemies_ = 5;
      extra_orb_sign = 1;
    }
    BasicGame::GameReset();
    options_.center_agent = false;
    agent_->rx = .5;
    agent_->ry = .5;
    eat_time_ = -1 * kEatTimeout;
    FillElem(0, 0, main_width_, main_height_, kMazeWall);

    MazeGen maze_gen(&rand_gen_, maze_dim_);
    maze_gen.GenerateMazeNoDeadEnds();

    // the open cells by quadrant (x half, then y half); each quadrant gets one large orb,
    // the quadrant extra_quad one more or one fewer
    constexpr int kNumQuadrants = 4;
    const int extra_quad = rand_gen_.RandN(kNumQuadrants);
    std::vector<int> orbs_for_quadrant;
    std::vector<std::vector<int>> quadrants(kNumQuadrants);
    for (int i = 0; i < kNumQuadrants; i++) {
      orbs_for_quadrant.push_back(1 + (i == extra_quad ? extra_orb_sign : 0));
    }
    for (int i = 0; i < maze_dim_; i++) {
      for (int j = 0; j < maze_dim_; j++) {
        const int obj = maze_gen.Get(i + MazeGen::kMazeOffset, j + MazeGen::kMazeOffset);
        SetObj(i, j, obj == kWallObj ? kMazeWall : obj);
        if (obj == kSpace) {
          const int idx = j * maze_dim_ + i;
          const int quad_idx =
              (i >= maze_dim_ / 2.0 ? 1 : 0) * 2 + (j >= maze_dim_ / 2.0 ? 1 : 0);
          quadrants[quad_idx].push_back(idx);
        }
      }
    }
    for (int i = 0; i < kNumQuadrants; i++) {
      const std::vector<int>& quadrant = quadrants[i];
      for (int j :
           rand_gen_.SimpleChoose(static_cast<int>(quadrant.size()), orbs_for_quadrant[i])) {
        const int cell = quadrant[j];
        SpawnEntityAtIdx(cell, 0.4f, kLargeOrb);
        SetObjIdx(cell, kMarker);
      }
    }

    // the agent and the eggs on distinct open cells (not the large orbs'); every open cell
    // but the large orbs' gets a small orb, the agent's and the eggs' included
    std::vector<int> space_cells = GetCellsWithType(kSpace);
    const std::vector<int> selected =
        rand_gen_.SimpleChoose(static_cast<int>(space_cells.size()), 1 + total_enemies_);
    const int start = space_cells[selected[0]];
    agent_->x = (start % maze_dim_) + .5;
    agent_->y = (start / maze_dim_) + .5;
    for (int i = 0; i < total_enemies_; i++) {
      const int cell = space_cells[selected[i + 1]];
      SetObjIdx(cell, kMarker);
      SpawnEgg(cell);
    }
    for (int cell : space_cells) SetObjIdx(cell, kOrb);
    total_orbs_ = static_cast<int>(space_cells.size());
    orbs_collected_ = 0;
    for (int cell : GetCellsWithType(kMarker)) SetObjIdx(cell, kSpace);

    free_cells_.clear();
    is_space_.clear();
    for (int i = 0; i < grid_size_; i++) {
      const bool is_space = GetObjIdx(i) != kMazeWall;
      if (is_space) free_cells_.push_back(i);
      is_space_.push_back(is_space);
    }
  }

  void GameStep() override {
    BasicGame::GameStep();
    int num_enemies = 0;
    const float default_enemy_speed = .5;
    const float vscale = CanEatEnemies() ? (default_enemy_speed * .5) : default_enemy_speed;
    for (int j = static_cast<int>(entities_.size()) - 1; j >= 0; j--) {
      auto ent = entities_[j];
      if (ent->type == kEnemyEgg) {
        num_enemies++;
        ent->health -= 1;
        if (ent->health == 0) {
          ent->will_erase = true;
          auto enemy = SpawnChild(ent, kEnemy, .5);
          enemy->smart_step = true;
        }
      } else if (ent->type == kEnemy) {
        num_enemies++;
        // the enemy's cell corner; at a cell centre (or standing) it picks its next cell
        const float x = ent->x - .5;
        const float y = ent->y - .5;
        const int dist_scale = CanEatEnemies() ? -1 : 1;
        const int enemy_idx = ToGridIdx(static_cast<int>(x), static_cast<int>(y));
        const int agent_idx = ToGridIdx(static_cast<int>(agent_->x), static_cast<int>(agent_->y));
        const bool is_at_junction =
            std::fabs(x - std::round(x)) + std::fabs(y - std::round(y)) < .01;
        // aggressive: only the open neighbours nearest the agent (farthest while weak);
        // else any open neighbour but the one it came from
        const bool be_aggressive = step_rand_int_ % 2 == 0;
        if ((ent->vx == 0 && ent->vy == 0) || is_at_junction) {
          std::vector<int> adj_elems;
          std::vector<int> space_neighbors;
          const int prev_idx = ToGridIdx(static_cast<int>(x - Sign(ent->vx)),
                                         static_cast<int>(y - Sign(ent->vy)));
          GetAdjacent(enemy_idx, adj_elems);
          int min_dist = 2 * main_width_;
          for (int adj : adj_elems) {
            if (!is_space_[adj] || adj == prev_idx) continue;
            const int md = ManhattanDist(adj, agent_idx) * dist_scale;
            if (be_aggressive) {
              if (md < min_dist) {
                min_dist = md;
                space_neighbors.clear();
                space_neighbors.push_back(adj);
              } else if (md == min_dist) {
                space_neighbors.push_back(adj);
              }
            } else {
              space_neighbors.push_back(adj);
            }
          }
          // size_t modulo, as the reference's
          const int neighbor = space_neighbors.at(static_cast<std::size_t>(step_rand_int_) %
                                                  space_neighbors.size());
          const int nx = neighbor % main_width_;
          const int ny = neighbor / main_width_;
          ent->vx = (nx - x) * vscale;
          ent->vy = (ny - y) * vscale;
        }
      }
    }
    if (num_enemies < total_enemies_) {
      SpawnEgg(free_cells_.at(static_cast<std::size_t>(step_rand_int_) % free_cells_.size()));
    }
    const int agent_idx = static_cast<int>(agent_->y) * main_width_ + static_cast<int>(agent_->x);
    if (GetObjIdx(agent_idx) == kOrb) {
      SetObjIdx(agent_idx, kSpace);
      step_data_.reward += kOrbReward;
      orbs_collected_ += 1;
    }
    if (orbs_collected_ == total_orbs_) {
      step_data_.reward += kCompletionBonus;
      step_data_.level_complete = true;
      step_data_.done = true;
    }
  }

 private:
  bool CanEatEnemies() const { return cur_time_ - eat_time_ < kEatTimeout; }

  void SpawnEgg(int cell) {
    auto egg = AddEntity((cell % maze_dim_) + .5, (cell / maze_dim_) + .5, 0, 0, .5, kEnemyEgg);
    egg->health = kEggTimeout;
  }

  // spawn_entity_at_idx
  void SpawnEntityAtIdx(int idx, float r, int type) {
    const float x = (idx % main_width_) + .5;
    const float y = (idx / main_width_) + .5;
    AddEntity(x, y, 0, 0, r, type);
  }

  std::vector<int> GetCellsWithType(int type) const {
    std::vector<int> cells;
    for (int i = 0; i < grid_size_; i++) {
      if (grid_[i] == type) cells.push_back(i);
    }
    return cells;
  }

  int ToGridIdx(int x, int y) const {
    if (!GridContains(x, y)) return kInvalidIdx;
    return y * grid_w_ + x;
  }

  int ManhattanDist(int a, int b) const {
    return std::abs((a % main_width_) - (b % main_width_)) +
           std::abs((a / main_width_) - (b / main_width_));
  }

  // the four neighbours in the grid
  void GetAdjacent(int idx, std::vector<int>& neighbors) const {
    const int x = idx % main_width_;
    const int y = idx / main_width_;
    for (int i = -1; i <= 1; i++) {
      for (int j = -1; j <= 1; j++) {
        if (i == 0 && j == 0) continue;
        if (i != 0 && j != 0) continue;
        const int neighbor = ToGridIdx(x + i, y + j);
        if (neighbor != kInvalidIdx) neighbors.push_back(neighbor);
      }
    }
  }

  std::vector<int> free_cells_;
  std::vector<bool> is_space_;
  int eat_time_ = 0;
  int total_enemies_ = 0;
  int total_orbs_ = 0;
  int orbs_collected_ = 0;
  int maze_dim_ = 0;
};

}  // namespace envpool::procgen
