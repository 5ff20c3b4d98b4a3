// procgen's plunder (src/games/plunder.cpp), restated: a ship at the bottom fires
// cannonballs (action 9) at ships sailing across five lanes: a ship of the target colour
// (shown in the top left corner) gives +1 and juice, another costs juice; juice also drains
// with time and each shot, and the episode ends when it runs out; 20 targets complete the
// level (+10). Two bars at the top show the juice and the targets hit. Timeout 4000 steps.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "envs/procgen/game.h"

namespace envpool::procgen {

class Plunder final : public BasicGame {
 public:
  static constexpr const char* kName = "plunder";
  static constexpr bool kHasExtreme = false;
  static constexpr bool kHasMemory = false;

  explicit Plunder(std::shared_ptr<AssetStore> assets) : BasicGame(kName, std::move(assets)) {
    timeout_ = 4000;
    main_width_ = 20;
    main_height_ = 20;
    mixrate_ = .5;
    maxspeed_ = 0.85f;
    has_useful_vel_info_ = false;
  }

 protected:
  static constexpr float kCompletionBonus = 10.0f;
  static constexpr float kPositiveReward = 1.0f;
  static constexpr int kPlayerBullet = 1;
  static constexpr int kTargetLegend = 2;
  static constexpr int kTargetBackground = 3;
  static constexpr int kPanel = 6;
  static constexpr int kShip = 7;

  void LoadBackgroundImages() override {
    SetBackgrounds({"water_backgrounds/water1.png", "water_backgrounds/water2.png",
                    "water_backgrounds/water3.png", "water_backgrounds/water4.png"});
  }

  void AssetForType(int type, std::vector<std::string>& names) override {
    if (type == kShip) {
      for (int i = 1; i <= 6; ++i) names.push_back("misc_assets/ship_" + std::to_string(i) + ".png");
    } else if (type == kPlayerBullet) {
      names.push_back("misc_assets/cannonBall.png");
    } else if (type == kPanel) {
      names.push_back("misc_assets/panel_wood.png");
    } else if (type == kTargetBackground) {
      names.push_back("misc_assets/target_red2.png");
    }
  }

  void GameDraw(Painter& p, int rect_height) override {
    BasicGame::GameDraw(p, rect_height);
    // the juice and progress bars (get_abs_rect, in the units of the last drawing)
    const RectF dist_rect1 = GetAbsRect(.25, .25, main_width_ * juice_left_, .5);
    p.FillRect(dist_rect1, 66, 245, 135);
    const RectF dist_rect2 =
        GetAbsRect(.25, .75, main_width_ * (targets_hit_ * 1.0 / target_quota_), .5);
    p.FillRect(dist_rect2, 245, 66, 144);
  }

  bool ShouldPreserveTypeThemes(int type) override { return type == kShip; }

  void HandleCollision(const EntityPtr& src, const EntityPtr& target) override {
    if (src->type == kPlayerBullet) {
      if (target->type == kShip) {
        target->will_erase = true;
        src->will_erase = true;
        if (target_bools_[target->image_theme]) {
          targets_hit_ += 1;
          step_data_.reward += kPositiveReward;
          juice_left_ += 0.1f;
        } else {
          juice_left_ -= 0.1f;
        }
      } else if (target->type == kPanel) {
        src->will_erase = true;
      }
      if (target->will_erase) {
        AddEntity(target->x, target->y, target->vx / 2, target->vy / 2, .5 * target->rx,
                  kExplosion);
      }
    }
  }

  void SetActionXY(int move_action) override {
    action_vx_ = move_action / 3 - 1;
    action_vy_ = 0;
    action_vrot_ = 0;
  }

  void GameReset() override {
    BasicGame::GameReset();
    agent_->image_type = kShip;
    juice_left_ = 1;
    targets_hit_ = 0;
    target_quota_ = 20;
    spawn_prob_ = 0.06f;
    r_scale_ = options_.distribution_mode == kEasyMode ? 1.5f : 1.0f;
    const int num_total_ship_types = 6;
    num_lanes_ = 5;
    lane_directions_.clear();
    lane_vels_.clear();
    target_bools_.clear();
    std::vector<int> image_idxs;
    for (int i = 0; i < num_total_ship_types; i++) image_idxs.push_back(i);
    image_permutation_ = rand_gen_.ChooseN(image_idxs, num_total_ship_types);
    num_current_ship_types_ = 2;
    target_bools_.assign(num_total_ship_types, false);
    for (int i = 0; i < num_current_ship_types_ / 2; i++) {
      target_bools_[image_permutation_[i]] = true;
    }
    for (int i = 0; i < num_lanes_; i++) {
      lane_directions_.push_back(rand_gen_.Rand01() < .5);
      lane_vels_.push_back(.15 + .1 * rand_gen_.Rand01());
    }
    const int num_panels = options_.distribution_mode == kEasyMode ? 0 : rand_gen_.RandN(4);
    const float panel_width = 1.2f;
    for (int i = 0; i < num_panels; i++) {
      SpawnEntityRxy(panel_width, .5, kPanel, 0, .25 * main_height_, main_width_,
                     .25 * main_height_);
    }
    const float key_scale = 1.5;
    legend_r_ = 2;
    AddEntity(legend_r_, legend_r_, 0, 0, legend_r_, kTargetBackground);
    auto ent = AddEntity(legend_r_, legend_r_, 0, 0, r_scale_ * key_scale, kTargetLegend);
    ent->image_theme = image_permutation_[0];
    ent->image_type = kShip;
    MatchAspectRatio(ent);
    ent->rotation = kPi / 2;
    last_fire_time_ = 0;
    options_.center_agent = false;
    agent_->rx = r_scale_;
    agent_->rotation = -1 * kPi / 2;
    agent_->image_theme =
        image_permutation_[rand_gen_.RandN(num_current_ship_types_ / 2) +
                           num_current_ship_types_ / 2];
    MatchAspectRatio(agent_);
    RepositionAgent();
    agent_->y = 1 + agent_->ry;
    min_agent_x_ = 2 * legend_r_ + agent_->rx;
    if (agent_->x < min_agent_x_) agent_->x = min_agent_x_;
  }

  void GameStep() override {
    BasicGame::GameStep();
    juice_left_ -= 0.0015f;
    if (rand_gen_.Rand01() < spawn_prob_) {
      const float ent_r = r_scale_;
      const int lane = rand_gen_.RandN(num_lanes_);
      const float ent_y = (lane * .11 + .4) * (main_height_ / 2 - ent_r) + main_height_ / 2;
      const float moves_right = lane_directions_[lane];
      const float ent_vx = lane_vels_[lane] * (moves_right ? 1 : -1);
      auto ent = std::make_shared<Entity>(0, ent_y, ent_vx, 0, ent_r, ent_r, kShip);
      ent->image_type = kShip;
      ent->image_theme = image_permutation_[rand_gen_.RandN(num_current_ship_types_)];
      MatchAspectRatio(ent);
      ent->x = moves_right ? -1 * ent_r : (main_width_ + ent_r);
      ent->is_reflected = !moves_right;
      if (!HasAnyCollision(ent)) entities_.push_back(ent);
    }
    if (special_action_ == 1 && (cur_time_ - last_fire_time_) >= 3) {
      auto bullet = AddEntity(agent_->x, agent_->y, 0, 1, .25, kPlayerBullet);
      bullet->collides_with_entities = true;
      bullet->expire_time = 50;
      last_fire_time_ = cur_time_;
      juice_left_ -= 0.02f;
    }
    if (juice_left_ <= 0) {
      step_data_.done = true;
    } else if (juice_left_ >= 1) {
      juice_left_ = 1;
    }
    if (targets_hit_ >= target_quota_) {
      step_data_.done = true;
      step_data_.reward += kCompletionBonus;
      step_data_.level_complete = true;
    }
    // not on the legend
    if (agent_->x < min_agent_x_) agent_->x = min_agent_x_;
  }

 private:
  int last_fire_time_ = 0;
  std::vector<bool> lane_directions_, target_bools_;
  std::vector<int> image_permutation_;
  std::vector<float> lane_vels_;
  int num_lanes_ = 0;
  int num_current_ship_types_ = 0;
  int targets_hit_ = 0;
  int target_quota_ = 0;
  float juice_left_ = 0.0f;
  float r_scale_ = 0.0f;
  float spawn_prob_ = 0.0f;
  float legend_r_ = 0.0f;
  float min_agent_x_ = 0.0f;
};

}  // namespace envpool::procgen
