// procgen's jumper (src/games/jumper.cpp), restated: a bunny runs and double-jumps through
// a cave (a maze without dead ends, three cells a maze cell, roughened by RoomGenerator's
// automaton, pruned to a corridor around the path to the goal except in memory mode) to a
// carrot (+10, the level complete); a spike man on the ground ends the episode. The world
// is 20 x 20 (easy), 40 x 40 (hard) or 45 x 45 (memory) units, seen 12 (easy) or 16 units
// wide around the bunny, on one of procgen's platform or space backgrounds; outside memory
// mode a compass in the top right corner points to the carrot, with a bar for its distance.
// Memory mode has no spikes and a 2000-step limit.
#pragma once

#include <cmath>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/procgen/game.h"
#include "envs/procgen/mazegen.h"
#include "envs/procgen/roomgen.h"

namespace envpool::procgen {

class Jumper final : public BasicGame {
 public:
  static constexpr const char* kName = "jumper";
  static constexpr bool kHasExtreme = false;
  static constexpr bool kHasMemory = true;

  explicit Jumper(std::shared_ptr<AssetStore> assets)
      : BasicGame(kName, std::move(assets)),
        rooms_(grid_, grid_w_, grid_h_, out_of_bounds_object_, kSpace, kWallObj) {}

 protected:
  static constexpr float kGoalReward = 10.0f;
  static constexpr int kGoal = 1;
  static constexpr int kSpike = 2;
  static constexpr int kCaveWall = 6;
  static constexpr int kCaveWallTop = 7;
  static constexpr int kPlayerJump = 9;
  static constexpr int kPlayerLeft1 = 10;
  static constexpr int kPlayerLeft2 = 11;
  static constexpr int kPlayerRight1 = 12;
  static constexpr int kPlayerRight2 = 13;
  static constexpr int kMazeScale = 3;
  static constexpr int kJumpCooldown = 3;
  static constexpr int kNumWallThemes = 4;

  void LoadBackgroundImages() override { SetBackgrounds(PlatformBackgrounds()); }

  void AssetForType(int type, std::vector<std::string>& names) override {
    if (type == kPlayer) {
      names.push_back("misc_assets/bunny2_ready.png");
    } else if (type == kSpike) {
      names.push_back("misc_assets/spikeMan_stand.png");
    } else if (type == kGoal) {
      names.push_back("misc_assets/carrot.png");
    } else if (type == kPlayerJump) {
      names.push_back("misc_assets/bunny2_jump.png");
    } else if (type == kPlayerRight1 || type == kPlayerLeft1) {
      names.push_back("misc_assets/bunny2_walk1.png");
    } else if (type == kPlayerRight2 || type == kPlayerLeft2) {
      names.push_back("misc_assets/bunny2_walk2.png");
    } else if (type == kCaveWallTop) {
      names.push_back("platformer/tileBlue_05.png");
      names.push_back("platformer/tileGreen_05.png");
      names.push_back("platformer/tileYellow_06.png");
      names.push_back("platformer/tileBrown_06.png");
    } else if (type == kCaveWall) {
      names.push_back("platformer/tileBlue_08.png");
      names.push_back("platformer/tileGreen_08.png");
      names.push_back("platformer/tileYellow_09.png");
      names.push_back("platformer/tileBrown_09.png");
    }
  }

  void HandleAgentCollision(const EntityPtr& obj) override {
    if (obj->type == kGoal) {
      step_data_.reward += kGoalReward;
      step_data_.level_complete = true;
      step_data_.done = true;
    } else if (obj->type == kSpike) {
      step_data_.done = true;
    }
  }

  // running mixes into the velocity; a jump sets the vertical speed (gravity is GameStep's)
  void UpdateAgentVelocity() override {
    const float v_scale = GetAgentAccelerationScale();
    agent_->vx = (1 - mixrate_) * agent_->vx + mixrate_ * maxspeed_ * action_vx_ * v_scale;
    if (action_vy_ != 0) agent_->vy = maxspeed_ * action_vy_ * 2;
  }

  int ThemeForGridObj(int type) override { return IsWall(type) ? wall_theme_ : 0; }

  bool IsBlocked(const EntityPtr& src, int target, bool is_horizontal) override {
    if (BasicGame::IsBlocked(src, target, is_horizontal)) return true;
    return src->type == kPlayer && IsWall(target);
  }

  int ImageForType(int type) override {
    if (type == kPlayer) {
      if (std::fabs(agent_->vx) < .01 && action_vx_ == 0 && has_support_) return kPlayer;
      const bool first = cur_time_ / 5 % 2 == 0 || !has_support_;
      if (facing_right_) return first ? kPlayerRight1 : kPlayerRight2;
      return first ? kPlayerLeft1 : kPlayerLeft2;
    }
    return BasicGame::ImageForType(type);
  }

  // draw_compass: a grey disc with a yellow needle toward the carrot (a cosmetic line:
  // procgen's pen width, rect width / (256 / compass_dim), truncates to 0), a yellow bar
  // for the distance under it, and, in a mid-air jump, a translucent white puff under the
  // bunny. QPainter::drawLine(int, int, int, int) is the overload procgen's four floats
  // reach, so the needle's ends are truncated to whole pixels.
  void DrawCompass(Painter& p, int rect_width) {
    const RectF compass_rect =
        GetAbsRect(view_dim_ - compass_dim_ - .25, .25, compass_dim_, compass_dim_);
    const std::uint32_t clock = Painter::SolidColour(168, 166, 158);
    p.DrawEllipse(compass_rect, true, clock, true, clock);
    const std::uint32_t highlight = Painter::SolidColour(252, 186, 3);
    const float cx = compass_rect.x + compass_rect.w / 2;
    const float cy = compass_rect.y + compass_rect.h / 2;
    const float cr = compass_rect.w / 2 * .95;
    // get_theta; cos, sin and atan2 of floats are the C library's double functions in
    // procgen's build (caveflyer's frames show it)
    const float gdx = goal_->x - agent_->x;
    const float gdy = goal_->y - agent_->y;
    const float theta = std::atan2(static_cast<double>(gdy), static_cast<double>(gdx));
    p.DrawCosmeticLine(static_cast<int>(cx), static_cast<int>(cy),
                       static_cast<int>(cx + cr * std::cos(static_cast<double>(theta))),
                       static_cast<int>(cy - cr * std::sin(static_cast<double>(theta))),
                       highlight);
    const float dx = agent_->x - goal_->x;
    const float dy = agent_->y - goal_->y;
    const float dist = std::sqrt(static_cast<double>(dx * dx + dy * dy));
    const float dist_pct = dist / (main_width_ * std::sqrt(2));
    const float bar_thickness = compass_dim_ / 8;
    const RectF dist_rect = GetAbsRect(view_dim_ - compass_dim_ - .25, .25 + compass_dim_,
                                       compass_dim_ * dist_pct, bar_thickness);
    p.FillRect(dist_rect, 252, 186, 3);
    if (jump_delta_ < 0 && !has_support_) {
      const RectF r1 = GetObjectRect(agent_);
      // QRect(int, int, int, int) of the doubles
      const RectF puff{static_cast<double>(static_cast<int>(r1.x)),
                       static_cast<double>(static_cast<int>(r1.y + r1.h * (5.0 / 6))),
                       static_cast<double>(static_cast<int>(r1.w)),
                       static_cast<double>(static_cast<int>(r1.h / 3))};
      p.DrawEllipse(puff, false, 0, true, Painter::SolidColour(255, 255, 255, 120));
    }
    (void)rect_width;
  }

  void GameDraw(Painter& p, int rect_height) override {
    BasicGame::GameDraw(p, rect_height);
    if (options_.distribution_mode != kMemoryMode) DrawCompass(p, p.width());
  }

  bool IsSpaceOnGround(int x, int y) const {
    if (GetObj(x, y) != kSpace) return false;
    if (GetObj(x, y + 1) != kSpace) return false;
    const int below_obj = GetObj(x, y - 1);
    return below_obj == kCaveWall || below_obj == out_of_bounds_object_;
  }
  bool IsTopWall(int x, int y) const { return GetObj(x, y) == kCaveWall && GetObj(x, y + 1) == kSpace; }
  bool IsLeftWall(int x, int y) const { return GetObj(x, y) == kCaveWall && GetObj(x + 1, y) == kSpace; }
  bool IsRightWall(int x, int y) const { return GetObj(x, y) == kCaveWall && GetObj(x - 1, y) == kSpace; }

  void ChooseWorldDim() override {
    int world_dim = 20;
    if (options_.distribution_mode == kEasyMode) {
      world_dim = 20;
    } else if (options_.distribution_mode == kHardMode) {
      world_dim = 40;
    } else if (options_.distribution_mode == kMemoryMode) {
      world_dim = 45;
    }
    main_width_ = world_dim;
    main_height_ = world_dim;
  }

  // The cave: each cell a wall with probability .8 where its maze cell is a wall, else .2;
  // two automaton steps; a wall border; the largest room kept; the carrot on one of its
  // cells, the bunny on one of the cells with ground under it and room over it; outside
  // memory mode the cave cut down to the cells within 4 steps of the path between them;
  // spikes (probability .2, none in memory mode) on ground cells between two other ground
  // cells; one cell opened in each wall face three cells high; wall tops marked.
  void GameReset() override {
    if (options_.distribution_mode == kEasyMode) {
      visibility_ = 12;
      compass_dim_ = 3;
    } else {
      visibility_ = 16;
      compass_dim_ = 2;
    }
    if (options_.distribution_mode == kMemoryMode) timeout_ = 2000;
    BasicGame::GameReset();
    out_of_bounds_object_ = kWallObj;
    wall_theme_ = rand_gen_.RandN(kNumWallThemes);
    jump_count_ = 0;
    jump_delta_ = 0;
    jump_time_ = 0;
    has_support_ = false;
    facing_right_ = true;

    const int maze_dim = main_width_ / kMazeScale;
    MazeGen maze_gen(&rand_gen_, maze_dim);
    maze_gen.GenerateMazeNoDeadEnds();
    for (int i = 0; i < grid_size_; i++) {
      const int obj = maze_gen.Get((i % main_width_) / kMazeScale + 1,
                                   (i / main_width_) / kMazeScale + 1);
      const float prob = obj == kWallObj ? .8 : .2;
      SetObjIdx(i, rand_gen_.Rand01() < prob ? kWallObj : kSpace);
    }
    for (int iteration = 0; iteration < 2; iteration++) rooms_.Update();
    for (int i = 0; i < main_width_; i++) {
      SetObj(i, 0, kCaveWall);
      SetObj(i, main_height_ - 1, kCaveWall);
    }
    for (int i = 0; i < main_height_; i++) {
      SetObj(0, i, kCaveWall);
      SetObj(main_width_ - 1, i, kCaveWall);
    }
    std::set<int> best_room;
    rooms_.FindBestRoom(best_room);
    if (best_room.empty()) throw std::logic_error("procgen jumper: a level with no room");
    for (int i = 0; i < grid_size_; i++) SetObjIdx(i, kCaveWall);
    std::vector<int> free_cells;
    for (const int i : best_room) {
      SetObjIdx(i, kSpace);
      free_cells.push_back(i);
    }
    const int goal_cell = rand_gen_.ChooseOne(free_cells);
    std::vector<int> agent_candidates;
    for (int i = 0; i < grid_size_; i++) {
      if (IsSpaceOnGround(i % main_width_, i / main_width_)) agent_candidates.push_back(i);
    }
    if (agent_candidates.empty()) throw std::logic_error("procgen jumper: no ground to start");
    const int agent_cell = rand_gen_.ChooseOne(agent_candidates);

    std::vector<int> goal_path;
    rooms_.FindPath(agent_cell, goal_cell, goal_path);
    if (options_.distribution_mode != kMemoryMode) {
      std::set<int> wide_path(goal_path.begin(), goal_path.end());
      rooms_.ExpandRoom(wide_path, 4);
      for (int i = 0; i < grid_size_; i++) SetObjIdx(i, kCaveWall);
      for (const int i : wide_path) SetObjIdx(i, kSpace);
    }
    goal_ = SpawnEntityAtIdx(goal_cell, .5, kGoal);
    const float spike_prob = options_.distribution_mode == kMemoryMode ? 0 : .2;
    for (int i = 0; i < grid_size_; i++) {
      const int x = i % main_width_;
      const int y = i / main_width_;
      if (IsSpaceOnGround(x, y) && IsSpaceOnGround(x - 1, y) && IsSpaceOnGround(x + 1, y)) {
        if (rand_gen_.Rand01() < spike_prob) SetObj(x, y, kSpike);
      }
    }
    // no wall faces three cells high (solvability)
    for (int i = 0; i < grid_size_; i++) {
      const int x = i % main_width_;
      const int y = i / main_width_;
      if (IsLeftWall(x, y) && IsLeftWall(x, y + 1) && IsLeftWall(x, y + 2)) {
        SetObj(x, y + rand_gen_.RandN(3), kSpace);
      }
      if (IsRightWall(x, y) && IsRightWall(x, y + 1) && IsRightWall(x, y + 2)) {
        SetObj(x, y + rand_gen_.RandN(3), kSpace);
      }
    }
    agent_->x = (agent_cell % main_width_) + .5;
    agent_->y = (agent_cell / main_width_) + agent_->ry;
    for (int spike_cell = 0; spike_cell < grid_size_; spike_cell++) {
      if (GetObjIdx(spike_cell) != kSpike) continue;
      SetObjIdx(spike_cell, kSpace);
      const float spike_ry = 0.4f;
      const float spike_rx = 0.23f;
      AddEntityRxy((spike_cell % main_width_) + .5, (spike_cell / main_width_) + spike_ry, 0, 0,
                   spike_rx, spike_ry, kSpike);
    }
    for (int i = 0; i < grid_size_; i++) {
      const int x = i % main_width_;
      const int y = i / main_width_;
      if (IsTopWall(x, y)) SetObj(x, y, kCaveWallTop);
    }
    agent_->rx = 0.254f;
    agent_->ry = 0.4f;
    out_of_bounds_object_ = kCaveWall;
  }

  static bool IsWall(int obj) { return obj == kCaveWall || obj == kCaveWallTop; }
  bool CanSupport(int obj) const { return IsWall(obj) || obj == out_of_bounds_object_; }

  // up jumps (twice before landing again, three steps apart at least); down does nothing
  void SetActionXY(int move_action) override {
    action_vx_ = move_action / 3 - 1;
    action_vy_ = (move_action % 3) - 1;
    if (action_vy_ < 0) action_vy_ = 0;
    if (action_vx_ > 0) facing_right_ = true;
    if (action_vx_ < 0) facing_right_ = false;
    const int obj_below_1 =
        GetObjFromFloats(agent_->x - (agent_->rx - .01), agent_->y - (agent_->ry + .01));
    const int obj_below_2 =
        GetObjFromFloats(agent_->x + (agent_->rx - .01), agent_->y - (agent_->ry + .01));
    jump_delta_ = 0;
    has_support_ = CanSupport(obj_below_1) || CanSupport(obj_below_2);
    if (has_support_) jump_count_ = 2;
    if (action_vy_ == 1 && jump_count_ > 0 && (cur_time_ - jump_time_ > kJumpCooldown)) {
      jump_count_ -= 1;
      jump_delta_ = -1;
    } else {
      action_vy_ = 0;
    }
    if (action_vy_ > 0) jump_time_ = cur_time_;
    action_vrot_ = 0;
  }

  void GameStep() override {
    BasicGame::GameStep();
    if (action_vx_ > 0) agent_->is_reflected = false;
    if (action_vx_ < 0) agent_->is_reflected = true;
    if (std::fabs(agent_->vx) + std::fabs(agent_->vy) > .05) {
      auto trail = AddEntityRxy(agent_->x, agent_->y - agent_->ry * .5, 0, 0.01f, 0.3f, 0.2f, kTrail);
      trail->expire_time = 8;
      trail->alpha = .5;
    }
    if (agent_->vy > -2) agent_->vy -= 0.15f;
  }

 private:
  // spawn_entity_at_idx: an entity of radius r at the centre of cell idx
  EntityPtr SpawnEntityAtIdx(int idx, float r, int type) {
    const float x = (idx % main_width_) + .5;
    const float y = (idx / main_width_) + .5;
    return AddEntity(x, y, 0, 0, r, type);
  }

  RoomGenerator rooms_;
  EntityPtr goal_;
  int jump_count_ = 0;
  int jump_delta_ = 0;
  int jump_time_ = 0;
  bool has_support_ = false;
  bool facing_right_ = false;
  int wall_theme_ = 0;
  float compass_dim_ = 0.0f;
};

}  // namespace envpool::procgen
