// procgen's game loop (src/game.cpp, src/basic-abstract-game.cpp, src/entity.cpp),
// restated: Game's level seeds, episode ends and step; BasicAbstractGame's entities, grid,
// collisions, agent motion from the 15 actions and drawing. Float and double arithmetic is
// kept as the reference writes it (float members, double literals), so that positions,
// and so frames, are the same bit for bit. AssetGen's generated assets and backgrounds
// (use_generated_assets, or a game without background images) are not restated.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/procgen/assets.h"
#include "envs/procgen/qt_paint.h"
#include "envs/procgen/randgen.h"

namespace envpool::procgen {

constexpr float kPi = 3.14159265358979323846264338327950288f;

// procgen's unqualified cos / sin / sqrt of a float: the C library's double functions
// (<cmath> declares only those in the global namespace), not std's float overloads; the
// result is rounded to float only where procgen stores it (an ulp of a velocity drifts an
// entity off procgen's position and, some hundred steps later, moves a sprite's sampled
// source row or column)
inline double Cos(float x) { return std::cos(static_cast<double>(x)); }
inline double Sin(float x) { return std::sin(static_cast<double>(x)); }
inline double Sqrt(float x) { return std::sqrt(static_cast<double>(x)); }

// object-ids.h
constexpr int kInvalidObj = -1;
constexpr int kInvalidIdx = -2;
constexpr int kPlayer = 0;
constexpr int kSpace = 100;
constexpr int kWallObj = 51;
constexpr int kExitObj = 52;
constexpr int kAgentObj = 53;
constexpr int kExplosion = 54;
constexpr int kExplosion2 = 55;
constexpr int kExplosion3 = 56;
constexpr int kExplosion4 = 57;
constexpr int kExplosion5 = 58;
constexpr int kTrail = 59;
constexpr int kDoorObj = 200;
constexpr int kKeyObj = 300;

// game.h's DistributionMode
enum DistributionMode { kEasyMode = 0, kHardMode = 1, kExtremeMode = 2, kMemoryMode = 10 };

struct GameOptions {
  bool paint_vel_info = false;
  bool use_monochrome_assets = false;
  bool restrict_themes = false;
  bool use_backgrounds = true;
  bool center_agent = false;
  DistributionMode distribution_mode = kHardMode;
  bool use_sequential_levels = false;
};

// entity.h / entity.cpp
struct Entity {
  float x = 0, y = 0, vx = 0, vy = 0, rx = 0, ry = 0;
  int type = 0;
  int image_type = 0;
  int image_theme = 0;
  int render_z = 0;
  bool will_erase = false;
  bool collides_with_entities = false;
  float collision_margin = 0;
  float rotation = 0;
  float vrot = 0;
  bool is_reflected = false;
  int fire_time = -1;
  int spawn_time = -1;
  int life_time = 0;
  int expire_time = -1;
  bool use_abs_coords = false;
  float friction = 1;
  bool smart_step = false;
  bool avoids_collisions = false;
  bool auto_erase = true;
  float alpha = 1;
  float health = 1;
  float theta = -100;
  float grow_rate = 1;
  float alpha_decay = 1;
  float climber_spawn_x = 0;

  Entity(float x_, float y_, float vx_, float vy_, float rx_, float ry_, int type_)
      : x(x_), y(y_), vx(vx_), vy(vy_), rx(rx_), ry(ry_), type(type_), image_type(type_) {
    if (type == kExplosion) {
      grow_rate = 1.4f;
      expire_time = 4;
    } else if (type == kTrail) {
      grow_rate = 1.05f;
      alpha_decay = 0.8f;
    }
  }

  void Step() {
    if (!smart_step) {
      x += vx;
      y += vy;
    }
    rotation += vrot;
    vx *= friction;
    vy *= friction;
    life_time += 1;
    if (expire_time > 0 && life_time > expire_time) will_erase = true;
    if (type == kExplosion && image_type < kExplosion5) image_type++;
    rx *= grow_rate;
    ry *= grow_rate;
    alpha = alpha_decay * alpha;
  }

  void FaceDirection(float dx, float dy, float rotation_offset = 0) {
    // entity.cpp includes <math.h>, whose C++ wrapper brings std's float overloads: atan2f
    if (dx != 0 || dy != 0) rotation = -1 * std::atan2(dy, dx) + rotation_offset;
  }
};

using EntityPtr = std::shared_ptr<Entity>;

// What a step reports (game.h's StepData)
struct StepData {
  float reward = 0;
  bool done = true;
  bool level_complete = false;
};

// Game + BasicAbstractGame. A game derives from it and overrides the hooks, as procgen's
// games override BasicAbstractGame's virtual functions.
class BasicGame {
 public:
  static constexpr int kUseAssetThreshold = 100;
  static constexpr int kMaxAssets = kUseAssetThreshold;
  static constexpr int kMaxImageThemes = 10;
  static constexpr int kResW = 64;
  static constexpr int kResH = 64;

  BasicGame(std::string name, std::shared_ptr<AssetStore> assets)
      : game_name_(std::move(name)), assets_(std::move(assets)) {
    basic_assets_.resize(kUseAssetThreshold * kMaxImageThemes);
    basic_reflections_.resize(kUseAssetThreshold * kMaxImageThemes);
    asset_aspect_ratios_.resize(kUseAssetThreshold * kMaxImageThemes, 0);
    asset_num_themes_.resize(kUseAssetThreshold, 0);
  }
  virtual ~BasicGame() = default;
  BasicGame(const BasicGame&) = delete;
  BasicGame& operator=(const BasicGame&) = delete;

  // VecGame's construction of game n: its level seed generator is seeded with a draw of
  // a generator seeded with rand_seed (this is game 0 of a vector of one)
  void Init(const GameOptions& options, int rand_seed, int num_levels, int start_level) {
    options_ = options;
    RandGen game_level_seed_gen;
    game_level_seed_gen.Seed(rand_seed);
    level_seed_rand_gen_.Seed(game_level_seed_gen.RandInt());
    if (num_levels == 0) {
      level_seed_low_ = 0;
      level_seed_high_ = INT32_MAX;
    } else {
      level_seed_low_ = start_level;
      level_seed_high_ = start_level + num_levels;
    }
    step_data_ = StepData();
    episodes_remaining_ = 0;
    current_level_seed_ = 0;
    prev_level_seed_ = 0;
    GameInit();
  }

  // Game::reset
  void Reset() {
    if (episodes_remaining_ == 0) {
      if (options_.use_sequential_levels && step_data_.level_complete) {
        // prevent overflow in seed sequences
        current_level_seed_ = static_cast<std::int32_t>(
            static_cast<std::uint32_t>(current_level_seed_) + 997U);
      } else {
        current_level_seed_ = level_seed_rand_gen_.RandInt(level_seed_low_, level_seed_high_);
      }
      episodes_remaining_ = 1;
    } else {
      step_data_.reward = 0;
      step_data_.done = false;
      step_data_.level_complete = false;
    }
    rand_gen_.Seed(current_level_seed_);
    GameReset();
    cur_time_ = 0;
    total_reward_ = 0;
    episodes_remaining_ -= 1;
    action_ = default_action_;
  }

  // Game::step up to (not including) its reset after an episode's end. Returns whether
  // the game itself ended the episode (not the time limit).
  bool StepBeforeReset(int action) {
    action_ = action;
    cur_time_ += 1;
    step_data_.reward = 0;
    step_data_.done = false;
    step_data_.level_complete = false;
    GameStep();
    const bool game_done = step_data_.done;
    step_data_.done = step_data_.done || (cur_time_ >= timeout_);
    total_reward_ += step_data_.reward;
    if (step_data_.reward != 0) {
      last_reward_timer_ = 10;
      last_reward_ = step_data_.reward;
    }
    prev_level_seed_ = current_level_seed_;
    return game_done;
  }
  // The rest of Game::step: the reset after an episode's end, and use_sequential_levels
  // hiding the end of a completed level.
  void StepAfter() {
    if (step_data_.done) Reset();
    if (options_.use_sequential_levels && step_data_.level_complete) step_data_.done = false;
  }

  // Game::render_to_buf for the observation (no antialiasing), into the game's canvas,
  // which holds the frame until the next Draw (painter().ToRgb / ToPlanarRgb read it).
  // The canvas is reused: every frame begins with DrawBackground's fillRect of all of it.
  void Draw() {
    painter_.Begin();
    GameDraw(painter_, kResH);
  }
  const Painter& painter() const { return painter_; }

  const StepData& step_data() const { return step_data_; }
  int current_level_seed() const { return current_level_seed_; }
  int prev_level_seed() const { return prev_level_seed_; }
  int cur_time() const { return cur_time_; }

 protected:
  // --- the hooks a game overrides ---
  // BasicAbstractGame::game_init (without generated assets)
  virtual void GameInit() { LoadBackgroundImages(); }
  virtual void LoadBackgroundImages() {}
  virtual void AssetForType(int /*type*/, std::vector<std::string>& /*names*/) {}
  virtual void ChooseWorldDim() {}
  virtual void HandleAgentCollision(const EntityPtr& /*obj*/) {}
  virtual void HandleGridCollision(const EntityPtr& /*obj*/, int /*type*/, int /*i*/,
                                   int /*j*/) {}
  virtual void HandleCollision(const EntityPtr& /*src*/, const EntityPtr& /*target*/) {}
  virtual float GetTileAspectRatio(const EntityPtr& /*ent*/) { return 0; }
  virtual int ImageForType(int type) { return std::abs(type); }
  virtual int ThemeForGridObj(int /*type*/) { return 0; }
  virtual bool ShouldPreserveTypeThemes(int /*type*/) { return false; }
  virtual bool ShouldDrawEntity(const EntityPtr& /*entity*/) { return true; }
  virtual float GetAgentAccelerationScale() { return 1.0; }
  virtual void ChooseCenter(float& cx, float& cy) {
    cx = agent_->x;
    cy = agent_->y;
  }
  virtual RectF GetAdjustedImageRect(int /*type*/, const RectF& rect) { return rect; }
  virtual void SetActionXY(int move_act) {
    action_vx_ = move_act / 3 - 1;
    action_vy_ = move_act % 3 - 1;
    action_vrot_ = 0;
  }
  virtual void UpdateAgentVelocity() {
    const float v_scale = GetAgentAccelerationScale();
    agent_->vx = (1 - mixrate_) * agent_->vx;
    agent_->vy = (1 - mixrate_) * agent_->vy;
    agent_->vx += mixrate_ * maxspeed_ * action_vx_ * v_scale;
    agent_->vy += mixrate_ * maxspeed_ * action_vy_ * v_scale;
    DecayAgentVelocity();
  }
  virtual bool IsBlocked(const EntityPtr& /*src*/, int target, bool /*is_horizontal*/) {
    if (target == kWallObj) return true;
    if (target == out_of_bounds_object_) return true;
    return false;
  }
  virtual bool IsBlockedEnts(const EntityPtr& src, const EntityPtr& target, bool is_horizontal) {
    return IsBlocked(src, target->type, is_horizontal);
  }
  virtual bool WillReflect(int /*src*/, int /*target*/) { return false; }
  virtual void DrawGridObj(Painter& p, const RectF& rect, int type, int theme) {
    if (type == kSpace) return;
    int r, g, b;
    ColorForType(type, theme, r, g, b);
    p.FillRect(rect, r, g, b);
  }

  // BasicAbstractGame::game_reset
  virtual void GameReset() {
    ChooseWorldDim();
    if (main_width_ <= 0 || main_height_ <= 0) throw std::logic_error("procgen: no world size");
    bg_pct_x_ = rand_gen_.Rand01();
    grid_size_ = main_width_ * main_height_;
    grid_w_ = main_width_;
    grid_h_ = main_height_;
    grid_.assign(static_cast<std::size_t>(grid_size_), 0);
    if (bg_paths_.empty()) {
      throw std::runtime_error("procgen: " + game_name_ +
                               " draws a generated background (AssetGen is not restated)");
    }
    background_index_ = rand_gen_.RandN(static_cast<int>(bg_paths_.size()));
    entities_.clear();
    float ax, ay;
    const float a_r = 0.4f;
    if (random_agent_start_) {
      ax = rand_gen_.Rand01() * (main_width_ - 2 * a_r) + a_r;
      ay = rand_gen_.Rand01() * (main_height_ - 2 * a_r) + a_r;
    } else {
      ax = a_r;
      ay = a_r;
    }
    agent_ = std::make_shared<Entity>(ax, ay, 0, 0, a_r, a_r, kPlayer);
    agent_->smart_step = true;
    agent_->render_z = 1;
    entities_.push_back(agent_);
    EraseIfNeeded();
    FillElem(0, 0, main_width_, main_height_, kSpace);
  }

  // BasicAbstractGame::game_step
  virtual void GameStep() {
    step_rand_int_ = rand_gen_.RandInt(0, 1000000);
    move_action_ = action_ % 9;
    special_action_ = 0;
    if (action_ >= 9) {
      special_action_ = action_ - 8;
      move_action_ = 4;  // stand still when taking a special action
    }
    if (move_action_ != 4) last_move_action_ = move_action_;
    action_vrot_ = 0;
    action_vx_ = 0;
    action_vy_ = 0;
    SetActionXY(move_action_);
    if (grid_step_) {
      agent_->vx = action_vx_;
      agent_->vy = action_vy_;
    } else {
      UpdateAgentVelocity();
      agent_->vrot = kMixRateRot * agent_->vrot;
      agent_->vrot += kMixRateRot * kMaxVTheta * action_vrot_;
    }
    StepEntities(entities_);
    for (int i = static_cast<int>(entities_.size()) - 1; i >= 0; i--) {
      auto ent = entities_[i];
      if (HasAgentCollision(ent)) HandleAgentCollision(ent);
      if (ent->collides_with_entities) {
        for (int j = static_cast<int>(entities_.size()) - 1; j >= 0; j--) {
          if (i == j) continue;
          auto ent2 = entities_[j];
          if (HasCollision(ent, ent2, ent->collision_margin) && !ent->will_erase &&
              !ent2->will_erase) {
            HandleCollision(ent, ent2);
          }
        }
      }
      if (ent->smart_step) CheckGridCollisions(ent);
    }
    EraseIfNeeded();
    step_data_.done = step_data_.done || IsOutOfBounds(agent_);
  }

  // --- helpers of BasicAbstractGame ---
  void DecayAgentVelocity() {
    agent_->vx = .9 * agent_->vx;
    agent_->vy = .9 * agent_->vy;
  }

  void FillElem(int x, int y, int dx, int dy, int elem) {
    for (int j = 0; j < dx; j++) {
      for (int k = 0; k < dy; k++) SetObj(x + j, y + k, elem);
    }
  }
  bool GridContains(int x, int y) const { return 0 <= y && y < grid_h_ && 0 <= x && x < grid_w_; }
  int GetObj(int x, int y) const {
    if (!GridContains(x, y)) return out_of_bounds_object_;
    return grid_[static_cast<std::size_t>(y) * grid_w_ + x];
  }
  int GetObjIdx(int idx) const {
    if (!(0 <= idx && idx < grid_w_ * grid_h_)) return out_of_bounds_object_;
    return grid_[idx];
  }
  void SetObj(int x, int y, int elem) {
    if (!GridContains(x, y)) throw std::logic_error("procgen: grid set out of range");
    grid_[static_cast<std::size_t>(y) * grid_w_ + x] = elem;
  }
  void SetObjIdx(int idx, int elem) { grid_.at(idx) = elem; }
  int GetObjFromFloats(float i, float j) const {
    if (i < 0) return out_of_bounds_object_;
    if (j < 0) return out_of_bounds_object_;
    return GetObj(static_cast<int>(std::floor(i)), static_cast<int>(std::floor(j)));
  }

  float RandPos(float r, float min, float max) {
    if (!(min <= max)) throw std::logic_error("procgen: rand_pos with min > max");
    if (max - min <= 2 * r) return (max + min) / 2;
    const float range = max - min;
    return (range - 2 * r) * rand_gen_.Rand01() + r + min;
  }

  bool HasCollision(const EntityPtr& e1, const EntityPtr& e2, float margin = 0) const {
    const float threshold_x = (e1->rx + e2->rx) + margin;
    const float threshold_y = (e1->ry + e2->ry) + margin;
    return (std::fabs(e1->x - e2->x) < threshold_x) && (std::fabs(e1->y - e2->y) < threshold_y);
  }
  bool HasAnyCollision(const EntityPtr& e1, float margin = 0) const {
    for (int i = static_cast<int>(entities_.size()) - 1; i >= 0; i--) {
      const auto& ent = entities_[i];
      if (!ent->avoids_collisions && HasCollision(e1, ent, margin)) return true;
    }
    return false;
  }
  bool HasAgentCollision(const EntityPtr& e1) const {
    if (e1->type == kPlayer) return false;
    return HasCollision(e1, agent_, e1->collision_margin);
  }
  bool IsOutOfBounds(const EntityPtr& e1) const {
    if (e1->x + e1->rx < 0) return true;
    if (e1->y + e1->ry < 0) return true;
    if (e1->x - e1->rx > main_width_) return true;
    if (e1->y - e1->ry > main_height_) return true;
    return false;
  }

  EntityPtr AddEntity(float x, float y, float vx, float vy, float r, int type) {
    auto ent = std::make_shared<Entity>(x, y, vx, vy, r, r, type);
    entities_.push_back(ent);
    return ent;
  }
  EntityPtr AddEntityRxy(float x, float y, float vx, float vy, float rx, float ry, int type) {
    auto ent = std::make_shared<Entity>(x, y, vx, vy, rx, ry, type);
    entities_.push_back(ent);
    return ent;
  }
  void Reposition(const EntityPtr& ent, float x, float y, float w, float h,
                  bool check_collisions) {
    const float rx = ent->rx;
    const float ry = ent->ry;
    ent->x = RandPos(rx, x, x + w);
    ent->y = RandPos(ry, y, y + h);
    int count = 0;
    while ((HasAgentCollision(ent) || (check_collisions && HasAnyCollision(ent))) &&
           (count < 100)) {
      ent->x = RandPos(rx, x, x + w);
      ent->y = RandPos(ry, y, y + h);
      count++;
    }
  }
  bool AgentHasCollision() const {
    for (const auto& ent : entities_) {
      if (HasAgentCollision(ent)) return true;
    }
    return false;
  }
  void RepositionAgent() {
    int count = 0;
    do {
      agent_->x = rand_gen_.Rand01() * (main_width_ - 2 * agent_->rx) + agent_->rx;
      agent_->y = rand_gen_.Rand01() * (main_height_ - 2 * agent_->ry) + agent_->ry;
      count++;
    } while (AgentHasCollision() && (count < 100));
  }
  EntityPtr SpawnEntityRxy(float rx, float ry, int type, float x, float y, float w, float h,
                           bool check_collisions = true) {
    auto ent = std::make_shared<Entity>(0, 0, 0, 0, rx, ry, type);
    Reposition(ent, x, y, w, h, check_collisions);
    entities_.push_back(ent);
    return ent;
  }
  EntityPtr SpawnEntity(float r, int type, float x, float y, float w, float h,
                        bool check_collisions = true) {
    return SpawnEntityRxy(r, r, type, x, y, w, h, check_collisions);
  }
  EntityPtr SpawnChild(const EntityPtr& src, int type, float obj_r, bool match_vel = false) {
    const float vx = match_vel ? src->vx : 0;
    const float vy = match_vel ? src->vy : 0;
    auto child = std::make_shared<Entity>(src->x, src->y, vx, vy, obj_r, obj_r, type);
    entities_.push_back(child);
    return child;
  }

  void EraseIfNeeded() {
    for (int i = static_cast<int>(entities_.size()) - 1; i >= 0; i--) {
      const auto& e = entities_[i];
      if (e->will_erase || (e->auto_erase && IsOutOfBounds(e))) {
        entities_.erase(entities_.begin() + i);
      }
    }
  }

  void StepEntities(const std::vector<EntityPtr>& given) {
    const int count = static_cast<int>(given.size());
    for (int i = count - 1; i >= 0; i--) {
      // a reference, not a copy of the shared_ptr (an atomic count each): stepping adds
      // and removes no entity
      const EntityPtr& ent = given.at(i);
      if (ent->smart_step) BasicStepObject(ent);
      ent->Step();
    }
  }

  void CheckGridCollisions(const EntityPtr& ent) {
    const float ax = ent->x, ay = ent->y, arx = ent->rx, ary = ent->ry;
    const int min_x = static_cast<int>(ax - (arx + kPosEps));
    const int max_x = static_cast<int>(ax + (arx + kPosEps));
    const int min_y = static_cast<int>(ay - (ary + kPosEps));
    const int max_y = static_cast<int>(ay + (ary + kPosEps));
    for (int x = min_x; x <= max_x; x++) {
      for (int y = min_y; y <= max_y; y++) {
        const int grid_type = GetObjFromFloats(x, y);
        if (grid_type != kSpace) HandleGridCollision(ent, grid_type, x, y);
      }
    }
  }

  bool PushObj(const EntityPtr& src, const EntityPtr& target, bool is_horizontal, int depth) {
    const float rsum = is_horizontal ? (src->rx + target->rx) : (src->ry + target->ry);
    const float delx = target->x - src->x;
    const float dely = target->y - src->y;
    float t_vx = 0, t_vy = 0;
    if (is_horizontal) {
      t_vx = src->x + Sign(delx) * rsum - target->x;
    } else {
      t_vy = src->y + Sign(dely) * rsum - target->y;
    }
    bool block = false;
    if (depth < 5) block = SubStep(target, t_vx, t_vy, depth + 1);
    if (is_horizontal) {
      target->vx = 0;
    } else {
      target->vy = 0;
    }
    return block;
  }

  bool SubStep(const EntityPtr& obj, float _vx, float _vy, int depth) {
    if (obj->will_erase) return false;
    float ny = obj->y + _vy;
    float nx = obj->x + _vx;
    const float margin = 0.98f;
    const bool is_horizontal = _vx != 0;
    bool block = false;
    bool reflect = false;
    for (int i = 0; i < 2; i++) {
      for (int j = 0; j < 2; j++) {
        const int type2 = GetObjFromFloats(nx + obj->rx * margin * (2 * i - 1),
                                           ny + obj->ry * margin * (2 * j - 1));
        block = block || IsBlocked(obj, type2, is_horizontal);
        reflect = reflect || WillReflect(obj->type, type2);
      }
    }
    if (reflect) {
      if (is_horizontal) {
        float delta;
        if (_vx < 0) {
          delta = std::ceil(nx - obj->rx) - (nx - obj->rx);
        } else {
          delta = std::floor(nx + obj->rx) - (nx + obj->rx);
        }
        obj->vx = -1 * obj->vx;
        nx = nx + 2 * delta;
      } else {
        float delta;
        if (_vy < 0) {
          delta = std::ceil(ny - obj->ry) - (ny - obj->ry);
        } else {
          delta = std::floor(ny + obj->ry) - (ny + obj->ry);
        }
        obj->vy = -1 * obj->vy;
        ny = ny + 2 * delta;
      }
    } else if (block) {
      if (is_horizontal) {
        if (grid_step_) {
          nx = obj->x;
        } else {
          nx = _vx > 0 ? (std::floor(nx + obj->rx) - obj->rx) : (std::ceil(nx - obj->rx) + obj->rx);
        }
      } else {
        if (grid_step_) {
          ny = obj->y;
        } else {
          ny = _vy > 0 ? (std::floor(ny + obj->ry) - obj->ry) : (std::ceil(ny - obj->ry) + obj->ry);
        }
      }
    }
    obj->x = nx;
    obj->y = ny;
    bool block2 = false;
    for (int i = static_cast<int>(entities_.size()) - 1; i >= 0; i--) {
      const EntityPtr& m = entities_[i];  // the collision tests add and remove no entity
      if (m == obj || m->will_erase) continue;
      bool curr_block = false;
      if (HasCollision(obj, m, kPosEps)) {
        if (IsBlockedEnts(obj, m, is_horizontal)) {
          curr_block = true;
        } else if (WillReflect(obj->type, m->type)) {
          if (is_horizontal) {
            const float delx = m->x - obj->x;
            const float rsum = m->rx + obj->rx;
            obj->x += _vx > 0 ? -2 * (rsum - delx) : 2 * (rsum + delx);
            obj->vx = -1 * obj->vx;
          } else {
            const float dely = m->y - obj->y;
            const float rsum = m->ry + obj->ry;
            obj->y += _vy > 0 ? -2 * (rsum - dely) : 2 * (rsum + dely);
            obj->vy = -1 * obj->vy;
          }
        }
        if (curr_block) PushObj(m, obj, is_horizontal, depth);
      }
      block2 = block2 || curr_block;
    }
    return block || block2;
  }

  void BasicStepObject(const EntityPtr& obj) {
    if (obj->will_erase) return;
    int num_sub_steps;
    if (grid_step_) {
      num_sub_steps = 1;
    } else {
      num_sub_steps = static_cast<int>(4 * Sqrt(obj->vx * obj->vx + obj->vy * obj->vy));
      if (num_sub_steps < 4) num_sub_steps = 4;
    }
    const float pct = 1.0 / num_sub_steps;
    const float cmp = std::fabs(obj->vx) - std::fabs(obj->vy);
    // ties resolved by the step's random draw
    bool step_x_first = cmp == 0 ? step_rand_int_ % 2 == 0 : (cmp > 0);
    if (obj->type == kPlayer) {
      if (action_vx_ != 0) step_x_first = true;
      if (action_vy_ != 0) step_x_first = false;
    }
    float vx_pct = 0, vy_pct = 0;
    for (int s = 0; s < num_sub_steps; s++) {
      bool block_x = false, block_y = false;
      if (step_x_first) {
        block_x = SubStep(obj, obj->vx * pct, 0, 0);
        block_y = SubStep(obj, 0, obj->vy * pct, 0);
      } else {
        block_y = SubStep(obj, 0, obj->vy * pct, 0);
        block_x = SubStep(obj, obj->vx * pct, 0, 0);
      }
      if (!block_x) vx_pct += 1;
      if (!block_y) vy_pct += 1;
      if (block_x && block_y) break;
    }
    vx_pct = vx_pct / num_sub_steps;
    vy_pct = vy_pct / num_sub_steps;
    obj->vx *= vx_pct;
    obj->vy *= vy_pct;
  }

  // --- assets ---
  int MaskThemeIfNecessary(int theme, int type) {
    if (options_.restrict_themes && !ShouldPreserveTypeThemes(type)) return 0;
    return theme;
  }
  void ReservedAssetForType(int type, std::vector<std::string>& names) {
    if (type == kExplosion) {
      names.push_back("misc_assets/explosion1.png");
    } else if (type == kExplosion2) {
      names.push_back("misc_assets/explosion2.png");
    } else if (type == kExplosion3) {
      names.push_back("misc_assets/explosion3.png");
    } else if (type == kExplosion4) {
      names.push_back("misc_assets/explosion4.png");
    } else if (type == kExplosion5) {
      names.push_back("misc_assets/explosion5.png");
    } else if (type == kTrail) {
      names.push_back("misc_assets/iconCircle_white.png");
    }
  }
  void InitializeAssetIfNecessary(int img_idx) {
    if (basic_assets_.at(img_idx) != nullptr) return;
    const int type = img_idx % kMaxAssets;
    const int theme = MaskThemeIfNecessary(img_idx / kMaxAssets, type);
    std::vector<std::string> names;
    AssetForType(type, names);
    if (names.empty()) ReservedAssetForType(type, names);
    if (names.empty()) {
      throw std::runtime_error("procgen: " + game_name_ + " has no image for type " +
                               std::to_string(type) +
                               " (procgen generates one: AssetGen is not restated)");
    }
    auto asset = assets_->Get(names.at(theme), ImageKind::kSprite);
    basic_assets_[img_idx] = asset;
    basic_reflections_[img_idx] = assets_->Get(names.at(theme), ImageKind::kSprite, true);
    asset_aspect_ratios_[img_idx] = asset->width * 1.0 / asset->height;
    asset_num_themes_[type] = static_cast<int>(names.size());
  }
  void MatchAspectRatio(const EntityPtr& ent, bool match_width = true) {
    const int img_idx = ent->image_type + ent->image_theme * kMaxAssets;
    InitializeAssetIfNecessary(img_idx);
    if (match_width) {
      ent->ry = ent->rx / asset_aspect_ratios_[img_idx];
    } else {
      ent->rx = ent->ry * asset_aspect_ratios_[img_idx];
    }
  }
  void FitAspectRatio(const EntityPtr& ent) {
    const int img_idx = ent->image_type + ent->image_theme * kMaxAssets;
    InitializeAssetIfNecessary(img_idx);
    const float ar = asset_aspect_ratios_[img_idx];
    if (ar > 1) {
      ent->ry = ent->rx / ar;
    } else {
      ent->rx = ent->ry * ar;
    }
  }
  void ChooseRandomTheme(const EntityPtr& ent) {
    InitializeAssetIfNecessary(ent->image_type);
    ent->image_theme = rand_gen_.RandN(asset_num_themes_[ent->image_type]);
  }
  void ChooseStepRandomTheme(const EntityPtr& ent) {
    InitializeAssetIfNecessary(ent->image_type);
    ent->image_theme = step_rand_int_ % asset_num_themes_[ent->image_type];
  }
  // the background images (read when first drawn)
  void SetBackgrounds(const std::vector<std::string>& paths) { bg_paths_ = paths; }

  // resources.cpp's background groups, which several games load (load_background_images):
  // the space backgrounds; the platform games' (every platform background, then every space
  // one); the top-down games' tiles.
  static std::vector<std::string> SpaceBackgrounds() {
    return {
        "space_backgrounds/deep_space_01.png",
        "space_backgrounds/spacegen_01.png",
        "space_backgrounds/milky_way_01.png",
        "space_backgrounds/ez_space_lite_01.png",
        "space_backgrounds/meyespace_v1_01.png",
        "space_backgrounds/eye_nebula_01.png",
        "space_backgrounds/deep_sky_01.png",
        "space_backgrounds/space_nebula_01.png",
        "space_backgrounds/Background-1.png",
        "space_backgrounds/Background-2.png",
        "space_backgrounds/Background-3.png",
        "space_backgrounds/Background-4.png",
        "space_backgrounds/parallax-space-backgound.png",
    };
  }
  static std::vector<std::string> PlatformBackgrounds() {
    std::vector<std::string> paths = {
        "platform_backgrounds/alien_bg.png",
        "platform_backgrounds/another_world_bg.png",
        "platform_backgrounds/back_cave.png",
        "platform_backgrounds/caverns.png",
        "platform_backgrounds/cyberpunk_bg.png",
        "platform_backgrounds/parallax_forest.png",
        "platform_backgrounds/scifi_bg.png",
        "platform_backgrounds/scifi2_bg.png",
        "platform_backgrounds/living_tissue_bg.png",
        "platform_backgrounds/airadventurelevel1.png",
        "platform_backgrounds/airadventurelevel2.png",
        "platform_backgrounds/airadventurelevel3.png",
        "platform_backgrounds/airadventurelevel4.png",
        "platform_backgrounds/cave_background.png",
        "platform_backgrounds/blue_desert.png",
        "platform_backgrounds/blue_grass.png",
        "platform_backgrounds/blue_land.png",
        "platform_backgrounds/blue_shroom.png",
        "platform_backgrounds/colored_desert.png",
        "platform_backgrounds/colored_grass.png",
        "platform_backgrounds/colored_land.png",
        "platform_backgrounds/colored_shroom.png",
        "platform_backgrounds/landscape1.png",
        "platform_backgrounds/landscape2.png",
        "platform_backgrounds/landscape3.png",
        "platform_backgrounds/landscape4.png",
        "platform_backgrounds/battleback1.png",
        "platform_backgrounds/battleback2.png",
        "platform_backgrounds/battleback3.png",
        "platform_backgrounds/battleback4.png",
        "platform_backgrounds/battleback5.png",
        "platform_backgrounds/battleback6.png",
        "platform_backgrounds/battleback7.png",
        "platform_backgrounds/battleback8.png",
        "platform_backgrounds/battleback9.png",
        "platform_backgrounds/battleback10.png",
        "platform_backgrounds/sunrise.png",
        "platform_backgrounds_2/beach1.png",
        "platform_backgrounds_2/beach2.png",
        "platform_backgrounds_2/beach3.png",
        "platform_backgrounds_2/beach4.png",
        "platform_backgrounds_2/fantasy1.png",
        "platform_backgrounds_2/fantasy2.png",
        "platform_backgrounds_2/fantasy3.png",
        "platform_backgrounds_2/fantasy4.png",
        "platform_backgrounds_2/candy1.png",
        "platform_backgrounds_2/candy2.png",
        "platform_backgrounds_2/candy3.png",
        "platform_backgrounds_2/candy4.png",
    };
    for (std::string& path : SpaceBackgrounds()) paths.push_back(std::move(path));
    return paths;
  }
  static std::vector<std::string> TopdownBackgrounds() {
    return {
        "topdown_backgrounds/floortiles.png",
        "topdown_backgrounds/backgrounddetailed1.png",
        "topdown_backgrounds/backgrounddetailed2.png",
        "topdown_backgrounds/backgrounddetailed3.png",
        "topdown_backgrounds/backgrounddetailed4.png",
        "topdown_backgrounds/backgrounddetailed5.png",
        "topdown_backgrounds/backgrounddetailed6.png",
        "topdown_backgrounds/backgrounddetailed7.png",
        "topdown_backgrounds/backgrounddetailed8.png",
    };
  }
  const Image& Background(int index) {
    return *assets_->Get(bg_paths_.at(index), ImageKind::kBackground);
  }

  // BasicAbstractGame::color_for_type (monochrome assets only)
  void ColorForType(int type, int theme, int& r, int& g, int& b) {
    if (!options_.use_monochrome_assets) {
      throw std::logic_error("procgen: a grid object has no colour without monochrome assets");
    }
    theme = MaskThemeIfNecessary(theme, type);
    const int k = 4;
    const int kcubed = k * k * k;
    const int chunk = 256 / k;
    const int p1 = 29;
    const int p2 = 19;
    int new_type = (p1 * (type + 1)) % kcubed;
    new_type = (new_type + p2 * theme) % kcubed;
    r = chunk * (new_type / (k * k) + 1) - 1;
    g = chunk * ((new_type / k) % k + 1) - 1;
    b = chunk * (new_type % k + 1) - 1;
  }

  // --- drawing ---
  RectF GetScreenRect(float x, float y, float dx, float dy, float render_eps = 0) const {
    return RectF{(x - render_eps) * unit_ - x_off_, (view_dim_ - y - render_eps) * unit_ + y_off_,
                 (dx + 2 * render_eps) * unit_, (dy + 2 * render_eps) * unit_};
  }
  RectF GetAbsRect(float x, float y, float dx, float dy) const {
    return RectF{x * unit_, y * unit_, dx * unit_, dy * unit_};
  }
  RectF GetObjectRect(const EntityPtr& obj) const {
    if (obj->use_abs_coords) {
      return GetAbsRect(view_dim_ * (obj->x - obj->rx), view_dim_ * (obj->y + obj->ry),
                        2 * view_dim_ * obj->rx, 2 * view_dim_ * obj->ry);
    }
    return GetScreenRect(obj->x - obj->rx, obj->y + obj->ry, 2 * obj->rx, 2 * obj->ry);
  }

  void PrepareForDrawing(float rect_height) {
    center_x_ = main_width_ * .5;
    center_y_ = main_height_ * .5;
    if (options_.center_agent) {
      ChooseCenter(center_x_, center_y_);
    } else {
      visibility_ = main_width_ > main_height_ ? main_width_ : main_height_;
      if (visibility_ < min_visibility_) visibility_ = min_visibility_;
    }
    const float raw_unit = 64 / visibility_;
    unit_ = raw_unit * (rect_height / 64.0);
    view_dim_ = 64.0 / raw_unit;
    x_off_ = unit_ * (center_x_ - view_dim_ / 2);
    y_off_ = unit_ * (center_y_ - view_dim_ / 2);
  }

  void TileImage(Painter& p, const Image& image, const RectF& rect, float tile_ratio) {
    if (tile_ratio != 0) {
      if (tile_ratio < 0) {
        tile_ratio = -1 * tile_ratio;
        int num_tiles = static_cast<int>(rect.h / (rect.w * tile_ratio));
        if (num_tiles < 1) num_tiles = 1;
        const float tile_height = rect.h / num_tiles;
        const float tile_width = rect.w;
        for (int i = 0; i < num_tiles; i++) {
          p.DrawImage(RectF{rect.x, rect.y + tile_height * i, tile_width, tile_height}, image);
        }
      } else {
        int num_tiles = static_cast<int>(rect.w / (rect.h * tile_ratio));
        if (num_tiles < 1) num_tiles = 1;
        const float tile_width = rect.w / num_tiles;
        const float tile_height = rect.h;
        for (int i = 0; i < num_tiles; i++) {
          p.DrawImage(RectF{rect.x + tile_width * i, rect.y, tile_width, tile_height}, image);
        }
      }
    } else {
      p.DrawImage(rect, image);
    }
  }

  void DrawImage(Painter& p, const RectF& base_rect, float rotation, bool is_reflected,
                 int base_type, int theme, float alpha, float tile_ratio) {
    const int img_type = ImageForType(base_type);
    if (img_type < 0) return;
    if (options_.use_monochrome_assets || img_type >= kUseAssetThreshold) {
      DrawGridObj(p, base_rect, img_type, theme);
      return;
    }
    const int img_idx = img_type + theme * kMaxAssets;
    const RectF adjusted = GetAdjustedImageRect(img_type, base_rect);
    InitializeAssetIfNecessary(img_idx);
    const Image& asset = is_reflected ? *basic_reflections_[img_idx] : *basic_assets_[img_idx];
    const double saved_opacity = p.opacity();
    if (alpha != 1) p.SetOpacity(alpha);
    if (rotation == 0) {
      TileImage(p, asset, adjusted, tile_ratio);
    } else {
      // the image turned about the rect's centre: translate, rotate (degrees), drawImage
      p.Save();
      p.Translate(adjusted.x + adjusted.w / 2, adjusted.y + adjusted.h / 2);
      p.Rotate(rotation * 180 / kPi);
      p.DrawImage(RectF{-adjusted.w / 2, -adjusted.h / 2, adjusted.w, adjusted.h}, asset);
      p.Restore();
    }
    if (alpha != 1) p.SetOpacity(saved_opacity);
  }

  void DrawEntity(Painter& p, const EntityPtr& ent) {
    if (ShouldDrawEntity(ent)) {
      const RectF r1 = GetObjectRect(ent);
      const float tile_ratio = GetTileAspectRatio(ent);
      DrawImage(p, r1, ent->rotation, ent->is_reflected, ent->image_type, ent->image_theme,
                ent->alpha, tile_ratio);
    }
  }
  void DrawEntities(Painter& p, int render_z) {
    for (const auto& m : entities_) {
      if (m->render_z == render_z) DrawEntity(p, m);
    }
  }

  virtual void DrawBackground(Painter& p, int rect_height) {
    p.FillRect(RectF{0, 0, static_cast<double>(p.width()), static_cast<double>(p.height())}, 0, 0,
               0);
    PrepareForDrawing(rect_height);
    if (!options_.use_backgrounds) return;
    const RectF main_rect = GetScreenRect(0, main_height_, main_width_, main_height_);
    const Image& bg = Background(background_index_);
    if (bg_tile_ratio_ < 0) {
      TileImage(p, bg, main_rect, bg_tile_ratio_);
    } else {
      const float bgw = bg.width;
      const float bgh = bg.height;
      const float bg_ar = bgw / bgh;
      const float world_ar = main_width_ * 1.0 / main_height_;
      const float extra_w = bg_ar - world_ar;
      const float offset_x = bg_pct_x_ * extra_w;
      // adjust_rect(main_rect, QRectF(-offset_x, 0, bg_ar / world_ar, 1)), in qreal
      const double ax = -offset_x, aw = bg_ar / world_ar;
      p.DrawImage(RectF{main_rect.x + main_rect.w * ax, main_rect.y + main_rect.h * 0.0,
                        main_rect.w * aw, main_rect.h * 1.0},
                  bg);
    }
  }

  virtual void DrawForeground(Painter& p, int rect_height) {
    PrepareForDrawing(rect_height);
    DrawEntities(p, -1);
    int low_x, high_x, low_y, high_y;
    if (options_.center_agent) {
      const float margin = (visibility_ / 2.0 + 1);
      low_x = static_cast<int>(center_x_ - margin);
      high_x = static_cast<int>(center_x_ + margin);
      low_y = static_cast<int>(center_y_ - margin);
      high_y = static_cast<int>(center_y_ + margin);
    } else {
      low_x = 0;
      high_x = main_width_ - 1;
      low_y = 0;
      high_y = main_height_ - 1;
    }
    for (int x = low_x; x <= high_x; x++) {
      for (int y = low_y; y <= high_y; y++) {
        const int type = GetObj(x, y);
        if (type == kInvalidObj) continue;
        const int theme = ThemeForGridObj(type);
        const RectF r2 = GetScreenRect(x, y + 1, 1, 1, kRenderEps);
        DrawImage(p, r2, 0, false, type, theme, 1.0, 0.0);
      }
    }
    DrawEntities(p, 0);
    DrawEntities(p, 1);
    if (has_useful_vel_info_ && options_.paint_vel_info) {
      const float infodim = rect_height * .2;
      const int s1 = ToShade(.5 * agent_->vx / maxspeed_ + .5);
      const int s2 = ToShade(.5 * agent_->vy / max_jump_ + .5);
      p.FillRect(RectF{0, 0, infodim, infodim}, s1, s1, s1);
      p.FillRect(RectF{infodim, 0, infodim, infodim}, s2, s2, s2);
    }
  }

  virtual void GameDraw(Painter& p, int rect_height) {
    DrawBackground(p, rect_height);
    DrawForeground(p, rect_height);
  }

  static int ToShade(float f) {
    int shade = static_cast<int>(f * 255);
    if (shade < 0) shade = 0;
    if (shade > 255) shade = 255;
    return shade;
  }
  // cpp-utils.h's sign: a double, so that push_obj's arithmetic is in double
  static double Sign(double x) { return x > 0 ? +1 : (x == 0 ? 0 : -1); }

  static constexpr float kMaxVTheta = 15 * kPi / 180;
  static constexpr float kMixRateRot = 0.5f;
  static constexpr float kPosEps = -0.001f;
  static constexpr float kRenderEps = 0.02f;

  // Game's state
  std::string game_name_;
  GameOptions options_;
  bool grid_step_ = false;
  int level_seed_low_ = 0;
  int level_seed_high_ = 1;
  RandGen level_seed_rand_gen_;
  RandGen rand_gen_;
  StepData step_data_;
  int action_ = 0;
  int timeout_ = 1000;
  int current_level_seed_ = 0;
  int prev_level_seed_ = 0;
  int episodes_remaining_ = 0;
  int last_reward_timer_ = 0;
  float last_reward_ = -1;
  int default_action_ = 4;
  int cur_time_ = 0;
  float total_reward_ = 0;

  // BasicAbstractGame's state
  std::shared_ptr<AssetStore> assets_;
  Painter painter_{kResW, kResH};
  int grid_size_ = 0;
  int grid_w_ = 0;
  int grid_h_ = 0;
  std::vector<int> grid_;
  EntityPtr agent_;
  std::vector<EntityPtr> entities_;
  std::vector<std::shared_ptr<const Image>> basic_assets_;
  std::vector<std::shared_ptr<const Image>> basic_reflections_;
  std::vector<std::string> bg_paths_;
  std::vector<float> asset_aspect_ratios_;
  std::vector<int> asset_num_themes_;
  int background_index_ = 0;
  float bg_tile_ratio_ = 0;
  float bg_pct_x_ = 0;
  float char_dim_ = 5;
  int last_move_action_ = 7;
  int move_action_ = 0;
  int special_action_ = 0;
  float mixrate_ = 0.5;
  float maxspeed_ = 0.5;
  float max_jump_ = 0.5;
  float action_vx_ = 0;
  float action_vy_ = 0;
  float action_vrot_ = 0;
  float center_x_ = 0;
  float center_y_ = 0;
  bool random_agent_start_ = true;
  bool has_useful_vel_info_ = true;
  int step_rand_int_ = 0;
  int main_width_ = 0;
  int main_height_ = 0;
  int out_of_bounds_object_ = kInvalidObj;
  float unit_ = 0;
  float view_dim_ = 0;
  float x_off_ = 0;
  float y_off_ = 0;
  float visibility_ = 16;
  float min_visibility_ = 0;
};

}  // namespace envpool::procgen
