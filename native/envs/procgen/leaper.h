// procgen's leaper (src/games/leaper.cpp), restated: a frog crosses lanes of cars and then
// a river on logs to the finish line (+10, the level complete); a car, the water or leaving
// the world ends the episode. Each move is a 5-step hop. The world is 9 (easy), 15 (hard)
// or 20 (extreme) cells wide; the whole world is shown. Timeout 500 steps.
#pragma once

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "envs/procgen/game.h"

namespace envpool::procgen {

class Leaper final : public BasicGame {
 public:
  static constexpr const char* kName = "leaper";
  static constexpr bool kHasExtreme = true;
  static constexpr bool kHasMemory = false;

  explicit Leaper(std::shared_ptr<AssetStore> assets) : BasicGame(kName, std::move(assets)) {
    maxspeed_ = kMaxSpeed;
    timeout_ = 500;
  }

 protected:
  static constexpr int kLog = 1;
  static constexpr int kRoad = 2;
  static constexpr int kWater = 3;
  static constexpr int kCar = 4;
  static constexpr int kFinishLine = 5;
  static constexpr float kMonsterRadius = 0.25;
  static constexpr float kLogRadius = 0.45f;
  static constexpr int kGoalReward = 10;
  static constexpr int kNStep = 5;
  static constexpr int kFrogAnimationFrames = kNStep;
  static constexpr float kMaxSpeed = 2 / (kNStep - 1.0);
  static constexpr float kVelDecay = kMaxSpeed / kNStep;

  void LoadBackgroundImages() override { SetBackgrounds(TopdownBackgrounds()); }

  void AssetForType(int type, std::vector<std::string>& names) override {
    if (type == kRoad) {
      names.push_back("misc_assets/roadTile6b.png");
    } else if (type == kWater) {
      names.push_back("misc_assets/terrainTile6.png");
    } else if (type == kCar) {
      names.push_back("misc_assets/car_yellow_5.png");
      names.push_back("misc_assets/car_black_1.png");
      names.push_back("misc_assets/car_blue_2.png");
      names.push_back("misc_assets/car_green_3.png");
      names.push_back("misc_assets/car_red_4.png");
    } else if (type == kLog) {
      names.push_back("misc_assets/elementWood044.png");
    } else if (type == kPlayer) {
      names.push_back("misc_assets/frog1.png");
      names.push_back("misc_assets/frog2.png");
      names.push_back("misc_assets/frog4.png");
      names.push_back("misc_assets/frog6.png");
      names.push_back("misc_assets/frog7.png");
    } else if (type == kFinishLine) {
      names.push_back("misc_assets/finish2.png");
    }
  }

  float GetTileAspectRatio(const EntityPtr& ent) override {
    return ent->type == kFinishLine ? 1 : 0;
  }

  void HandleAgentCollision(const EntityPtr& obj) override {
    if (obj->type == kCar) {
      step_data_.done = true;
    } else if (obj->type == kFinishLine && agent_->vx == 0 && agent_->vy == 0) {
      step_data_.reward += kGoalReward;
      step_data_.done = true;
      step_data_.level_complete = true;
    }
  }

  bool ShouldPreserveTypeThemes(int type) override { return type == kPlayer; }

  float RandSign() { return rand_gen_.Rand01() < 0.5 ? 1.0 : -1.0; }

  void ChooseWorldDim() override {
    const int dist_diff = options_.distribution_mode;
    int world_dim = 20;
    if (dist_diff == kEasyMode) {
      world_dim = 9;
    } else if (dist_diff == kHardMode) {
      world_dim = 15;
    }
    main_width_ = world_dim;
    main_height_ = world_dim;
  }

  int ChooseExtraSpace() {
    return options_.distribution_mode == kEasyMode ? 0 : rand_gen_.RandN(2);
  }

  void GameReset() override {
    BasicGame::GameReset();
    options_.center_agent = false;
    agent_->y = agent_->ry;
    float min_car_speed = 0.05f;
    float max_car_speed = 0.2f;
    float min_log_speed = 0.05f;
    float max_log_speed = 0.1f;
    if (options_.distribution_mode == kEasyMode) {
      min_car_speed = 0.03f;
      max_car_speed = 0.12f;
      min_log_speed = 0.025f;
      max_log_speed = 0.075f;
    } else if (options_.distribution_mode == kExtremeMode) {
      min_car_speed = 0.1f;
      max_car_speed = 0.3f;
      min_log_speed = 0.1f;
      max_log_speed = 0.2f;
    }
    bottom_road_y_ = ChooseExtraSpace() + 1;
    const int max_diff = options_.distribution_mode == kEasyMode ? 3 : 4;
    const int difficulty = rand_gen_.RandN(max_diff + 1);
    // half the time an extra lane of road or water
    const int extra_lane_option = options_.distribution_mode == kEasyMode ? 0 : rand_gen_.RandN(4);
    const int num_road_lanes = difficulty + (extra_lane_option == 2 ? 1 : 0);
    road_lane_speeds_.clear();
    for (int lane = 0; lane < num_road_lanes; lane++) {
      road_lane_speeds_.push_back(RandSign() * rand_gen_.RandRange(min_car_speed, max_car_speed));
      FillElem(0, bottom_road_y_ + lane, main_width_, 1, kRoad);
    }
    bottom_water_y_ = bottom_road_y_ + num_road_lanes + ChooseExtraSpace() + 1;
    water_lane_speeds_.clear();
    const int num_water_lanes = difficulty + (extra_lane_option == 3 ? 1 : 0);
    int curr_sign = static_cast<int>(RandSign());
    for (int lane = 0; lane < num_water_lanes; lane++) {
      water_lane_speeds_.push_back(curr_sign *
                                   rand_gen_.RandRange(min_log_speed, max_log_speed));
      curr_sign *= -1;
      FillElem(0, bottom_water_y_ + lane, main_width_, 1, kWater);
    }
    goal_y_ = bottom_water_y_ + num_water_lanes + 1;
    // the lanes filled before the start (an int compared with a float)
    for (int i = 0; i < main_width_ / std::min(min_car_speed, min_log_speed); i++) {
      SpawnLaneEntities();
      StepEntities(entities_);
    }
    AddEntityRxy(main_width_ / 2.0, goal_y_ - .5, 0, 0, main_width_ / 2.0, .5, kFinishLine);
  }

  void SpawnLaneEntities() {
    for (int lane = 0; lane < static_cast<int>(road_lane_speeds_.size()); lane++) {
      const float speed = road_lane_speeds_[lane];
      const float spawn_prob = std::fabs(speed) / 6.0;
      if (rand_gen_.Rand01() < spawn_prob) {
        const float x = speed > 0 ? (-1 * kMonsterRadius) : (main_width_ + kMonsterRadius);
        auto m = std::make_shared<Entity>(x, bottom_road_y_ + lane + 0.5, speed, 0,
                                          2 * kMonsterRadius, kMonsterRadius, kCar);
        ChooseRandomTheme(m);
        if (speed < 0) m->rotation = kPi;
        if (!HasAnyCollision(m)) entities_.push_back(m);
      }
    }
    for (int lane = 0; lane < static_cast<int>(water_lane_speeds_.size()); lane++) {
      const float speed = water_lane_speeds_[lane];
      const float spawn_prob = std::fabs(speed) / 2.0;
      if (rand_gen_.Rand01() < spawn_prob) {
        const float x = speed > 0 ? (-1 * kLogRadius) : (main_width_ + kLogRadius);
        auto m = std::make_shared<Entity>(x, bottom_water_y_ + lane + 0.5, speed, 0, kLogRadius,
                                          kLogRadius, kLog);
        if (!HasAnyCollision(m)) entities_.push_back(m);
      }
    }
  }

  static void DecayVel(float& vel) {
    const float vel_sign = Sign(1.0 * vel);
    vel = (std::fabs(vel) - kVelDecay);
    if (vel < 0) vel = 0;
    vel = vel * vel_sign;
  }

  void UpdateAgentVelocity() override {
    if (agent_->vx == 0 && agent_->vy == 0) {
      if (action_vx_ != 0) {
        agent_->vx = maxspeed_ * action_vx_;
        agent_->image_theme = 1;
        agent_->rotation = (agent_->vx > 0 ? 1 : -1) * kPi / 2;
      } else if (action_vy_ != 0) {
        agent_->vy = maxspeed_ * action_vy_;
        agent_->image_theme = 1;
        agent_->rotation = agent_->vy > 0 ? 0 : kPi;
      }
    }
    DecayVel(agent_->vx);
    DecayVel(agent_->vy);
  }

  RectF GetAdjustedImageRect(int type, const RectF& rect) override {
    if (type == kPlayer) {
      // adjust_rect(rect, QRectF(0, -.275, 1, 1.55))
      return RectF{rect.x + rect.w * 0.0, rect.y + rect.h * -.275, rect.w * 1.0, rect.h * 1.55};
    }
    return rect;
  }

  void GameStep() override {
    if (agent_->image_theme >= 1) {
      agent_->image_theme = (agent_->image_theme + 1) % kFrogAnimationFrames;
    }
    BasicGame::GameStep();
    SpawnLaneEntities();
    bool standing_on_log = false;
    float log_vx = 0.0;
    const float margin = -1 * agent_->rx;
    for (const auto& m : entities_) {
      if (m->type == kLog && HasCollision(agent_, m, margin)) {
        standing_on_log = true;
        log_vx = m->vx;
      }
    }
    if (GetObj(static_cast<int>(agent_->x), static_cast<int>(agent_->y)) == kWater) {
      if (!standing_on_log && agent_->vx == 0 && agent_->vy == 0) step_data_.done = true;
    }
    if (standing_on_log) agent_->x += log_vx;
    if (IsOutOfBounds(agent_)) step_data_.done = true;
  }

 private:
  int bottom_road_y_ = 0;
  std::vector<float> road_lane_speeds_;
  int bottom_water_y_ = 0;
  std::vector<float> water_lane_speeds_;
  int goal_y_ = 0;
};

}  // namespace envpool::procgen
