// procgen's starpilot (src/games/starpilot.cpp), restated: a side-scrolling shooter. The
// agent's ship (fire: actions 9 forward and 10 backward) meets waves of flyers, fast
// flyers, meteors, clouds and turrets, spawned from a schedule drawn at reset up to step
// 500, when a finish line enters; +1 for each enemy destroyed, +10 for reaching the line,
// the episode ends on contact with an enemy or an enemy bullet. A 16 x 16 world on a
// scrolling space background; center_agent is always off.
#pragma once

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "envs/procgen/game.h"

namespace envpool::procgen {

class StarPilot final : public BasicGame {
 public:
  static constexpr const char* kName = "starpilot";
  static constexpr bool kHasExtreme = true;
  static constexpr bool kHasMemory = false;

  explicit StarPilot(std::shared_ptr<AssetStore> assets) : BasicGame(kName, std::move(assets)) {
    main_width_ = 16;
    main_height_ = 16;
  }

 protected:
  static constexpr float kVScale = 2.0f / 5.0f;
  static constexpr float kBgRatio = 18;
  static constexpr float kEnemyReward = 1.0;
  static constexpr float kCompletionBonus = 10.0;
  static constexpr int kBulletPlayer = 1;
  static constexpr int kBullet2 = 2;
  static constexpr int kBullet3 = 3;
  static constexpr int kFlyer = 4;
  static constexpr int kMeteor = 5;
  static constexpr int kCloud = 6;
  static constexpr int kTurret = 7;
  static constexpr int kFastFlyer = 8;
  static constexpr int kFinishLine = 9;
  static constexpr int kShooterWinTime = 500;
  static constexpr int kNumBasicObjects = 9;
  static constexpr int kNumShipThemes = 7;

  void LoadBackgroundImages() override { SetBackgrounds(SpaceBackgrounds()); }

  void AssetForType(int type, std::vector<std::string>& names) override {
    if (type == kPlayer) {
      names.push_back("misc_assets/playerShip2_blue.png");
    } else if (type == kBulletPlayer) {
      names.push_back("misc_assets/towerDefense_tile295.png");
    } else if (type == kBullet2) {
      names.push_back("misc_assets/towerDefense_tile296.png");
    } else if (type == kBullet3) {
      names.push_back("misc_assets/towerDefense_tile297.png");
    } else if (type == kFlyer || type == kFastFlyer) {
      for (int i = 1; i <= 7; ++i) {
        names.push_back("misc_assets/spaceShips_00" + std::to_string(i) + ".png");
      }
    } else if (type == kMeteor) {
      for (int i = 1; i <= 4; ++i) {
        names.push_back("misc_assets/spaceMeteors_00" + std::to_string(i) + ".png");
      }
      for (int i = 1; i <= 4; ++i) {
        names.push_back("misc_assets/meteorGrey_big" + std::to_string(i) + ".png");
      }
    } else if (type == kCloud) {
      for (int i = 1; i <= 9; ++i) {
        names.push_back("misc_assets/spaceEffect" + std::to_string(i) + ".png");
      }
    } else if (type == kTurret) {
      names.push_back("misc_assets/spaceStation_018.png");
      names.push_back("misc_assets/spaceStation_019.png");
    } else if (type == kFinishLine) {
      for (int i = 1; i <= 4; ++i) {
        names.push_back("misc_assets/spaceRockets_00" + std::to_string(i) + ".png");
      }
    }
  }

  void GameDraw(Painter& p, int rect_height) override {
    const float scale = rect_height / main_height_;  // an int division
    p.FillRect(RectF{0, 0, static_cast<double>(p.width()), static_cast<double>(p.height())}, 0, 0,
               0);
    if (options_.use_backgrounds) {
      const float bg_k = 3;
      const float t = cur_time_;
      const float x_off = -t * scale * hp_slow_v_ * 2 / char_dim_;
      const RectF r_bg{x_off, -rect_height * (bg_k - 1) / 2, rect_height * bg_k * kBgRatio,
                       rect_height * bg_k};
      TileImage(p, Background(background_index_), r_bg, 1);
    }
    DrawForeground(p, rect_height);
  }

  void HandleAgentCollision(const EntityPtr& obj) override {
    if (obj->type == kFinishLine) {
      step_data_.done = true;
      step_data_.reward += kCompletionBonus;
      step_data_.level_complete = true;
    } else if (IsLethal(obj)) {
      step_data_.done = true;
    }
  }

  void HandleCollision(const EntityPtr& src, const EntityPtr& target) override {
    if (src->type == kBulletPlayer && target->type != kCloud && IsDestructible(target->type)) {
      src->will_erase = true;
      target->health -= 1;
      AddEntity(src->x, src->y, target->vx, target->vy, .5 * src->rx, kExplosion);
    }
  }

  void InitHps() {
    const float scale = 1;
    for (int i = 0; i < kNumBasicObjects; i++) {
      hp_vs_[i] = 1;
      hp_healths_[i] = 0;
      hp_object_prob_weight_[i] = 1;
      hp_object_r_[i] = scale / 2;
    }
    float default_bullet_r = scale / 2.5;
    if (options_.distribution_mode == kEasyMode) {
      hp_object_prob_weight_[kMeteor] = 0;
      hp_object_prob_weight_[kCloud] = 0;
      hp_object_prob_weight_[kTurret] = 0;
      hp_object_prob_weight_[kFastFlyer] = 0;
      hp_vs_[kFlyer] = .75;
      hp_vs_[kBullet2] = 1.25;
      hp_healths_[kTurret] = 5;
      hp_healths_[kFlyer] = 2;
      hp_healths_[kFastFlyer] = 1;
      maxspeed_ = 0.75;
    } else if (options_.distribution_mode == kHardMode) {
      hp_vs_[kBullet2] = 2;
      hp_healths_[kTurret] = 5;
      hp_healths_[kFlyer] = 2;
      hp_healths_[kFastFlyer] = 1;
      maxspeed_ = 0.75;
    } else {  // extreme
      hp_vs_[kBullet2] = 2;
      hp_healths_[kTurret] = 10;
      hp_healths_[kFlyer] = 5;
      hp_healths_[kFastFlyer] = 2;
      maxspeed_ = 0.5;
      default_bullet_r = scale / 5;
    }
    for (int i = 0; i < kNumBasicObjects; i++) hp_bullet_r_[i] = default_bullet_r;
    hp_healths_[kMeteor] = 500;
    hp_vs_[kFastFlyer] = 1.5;
    hp_vs_[kBulletPlayer] = 2;
    hp_vs_[kBullet3] = 2;
    hp_object_r_[kTurret] = scale * 2;
    hp_object_r_[kMeteor] = scale * 2;
    hp_object_r_[kCloud] = scale * 2;
    hp_object_prob_weight_[kFlyer] = 3;
    hp_slow_v_ = .5;
    hp_max_group_size_ = 5;
    hp_weapon_bullet_dist_ = 3;
    hp_min_enemy_delta_t_ = 10;
    hp_max_enemy_delta_t_ = hp_min_enemy_delta_t_ + 20;
    hp_spawn_right_threshold_ = 0.9f;
    hp_object_prob_weight_[kBulletPlayer] = 0;
    hp_object_prob_weight_[kBullet2] = 0;
    hp_object_prob_weight_[kBullet3] = 0;
    total_prob_weight_ = 0;
    for (int i = 2; i < kNumBasicObjects; i++) total_prob_weight_ += hp_object_prob_weight_[i];
  }

  void AddSpawners() {
    int t = 1 + rand_gen_.RandInt(hp_min_enemy_delta_t_, hp_max_enemy_delta_t_);
    const bool can_spawn_left = options_.distribution_mode != kEasyMode;
    for (int i = 0; t <= kShooterWinTime; i++) {
      int group_size = 1;
      const float start_weight = rand_gen_.Rand01() * total_prob_weight_;
      float curr_weight = start_weight;
      int type;
      for (type = 2; type < kNumBasicObjects; type++) {
        curr_weight -= hp_object_prob_weight_[type];
        if (curr_weight <= 0) break;
      }
      if (type >= kNumBasicObjects) type = kNumBasicObjects - 1;
      const float r = hp_object_r_[type];
      int flyer_theme = 0;
      if (type == kFlyer || type == kFastFlyer) {
        group_size = rand_gen_.RandInt(0, hp_max_group_size_) + 1;
        flyer_theme = rand_gen_.RandN(kNumShipThemes);
      }
      const float y_pos = RandPos(r, 0, main_height_);
      for (int j = 0; j < group_size; j++) {
        const int spawn_time = t + j * 5;
        int fire_time = rand_gen_.RandInt(10, 100);
        const float k = 2 * kPi / 4;
        float theta = (rand_gen_.Rand01() - .5) * k;
        float v_scale = hp_vs_[type];
        if (rand_gen_.RandInt(0, 2) == 1) theta = 0;
        const float health = hp_healths_[type];
        if (type == kMeteor || type == kCloud) {
          theta = 0;
          v_scale = hp_slow_v_;
          fire_time = -1;
        } else if (type == kTurret) {
          theta = 0;
          v_scale = hp_slow_v_;
          fire_time = rand_gen_.RandInt(20, 30);
        }
        v_scale *= kVScale;
        float vx = -1 * Cos(theta) * v_scale;
        const float vy = Sin(theta) * v_scale;
        bool spawn_right = true;
        float x_pos;
        if (type == kFlyer || type == kFastFlyer) {
          if (rand_gen_.Rand01() > hp_spawn_right_threshold_ && can_spawn_left) {
            spawn_right = false;
          }
        }
        if (spawn_right) {
          x_pos = main_width_ + r;
        } else {
          x_pos = -r;
          vx *= -1;
        }
        auto spawner = std::make_shared<Entity>(x_pos, y_pos, vx, vy, r, r, type);
        spawner->fire_time = fire_time;
        spawner->spawn_time = spawn_time;
        spawner->health = health;
        if (type == kCloud) {
          spawner->render_z = 1;
          ChooseRandomTheme(spawner);
        } else if (type == kMeteor) {
          ChooseRandomTheme(spawner);
        } else if (type == kFlyer || type == kFastFlyer) {
          spawner->image_theme = flyer_theme;
          spawner->rotation = ((vx > 0) ? -1 : 1) * kPi / 2;
        } else if (type == kTurret) {
          ChooseRandomTheme(spawner);
          MatchAspectRatio(spawner);
        }
        spawners_.push_back(spawner);
      }
      t += rand_gen_.RandInt(hp_min_enemy_delta_t_, hp_max_enemy_delta_t_);
    }
  }

  void GameReset() override {
    BasicGame::GameReset();
    options_.center_agent = false;
    InitHps();
    spawners_.clear();
    AddSpawners();
    // std::sort, as the reference: equal spawn times keep libstdc++'s introsort order
    std::sort(spawners_.begin(), spawners_.end(), [](const EntityPtr& x, const EntityPtr& y) {
      return x->spawn_time > y->spawn_time;
    });
    agent_->rotation = kPi / 2;
    ChooseRandomTheme(agent_);
  }

  static bool IsLethal(const EntityPtr& e1) {
    const int type = e1->type;
    return type == kFlyer || type == kFastFlyer || type == kBullet2 || type == kBullet3 ||
           type == kTurret || type == kMeteor;
  }
  static bool IsDestructible(int type) {
    return type == kFlyer || type == kFastFlyer || type == kTurret || type == kMeteor;
  }
  static bool ShouldFire(const EntityPtr& e1, int cur_time) {
    if (e1->fire_time <= 0) return false;
    if (e1->type == kTurret) return (cur_time - e1->spawn_time) % e1->fire_time == 0;
    return cur_time - e1->spawn_time == e1->fire_time;
  }

  void GameStep() override {
    BasicGame::GameStep();
    const bool is_firing = special_action_ != 0;
    for (int i = static_cast<int>(entities_.size()) - 1; i >= 0; i--) {
      auto m = entities_[i];
      if (m->type == kPlayer) continue;
      if (ShouldFire(m, cur_time_)) {
        const int bullet_type = m->type == kTurret ? kBullet3 : kBullet2;
        const float bullet_r = hp_bullet_r_[m->type];
        float b_vx = agent_->x - m->x;
        float b_vy = agent_->y - m->y;
        const float bv_scale = hp_vs_[bullet_type] * kVScale / Sqrt(b_vx * b_vx + b_vy * b_vy);
        b_vx = b_vx * bv_scale;
        b_vy = b_vy * bv_scale;
        auto bullet = std::make_shared<Entity>(m->x, m->y, b_vx, b_vy, bullet_r, bullet_r,
                                               bullet_type);
        bullet->FaceDirection(b_vx, b_vy, -1 * kPi / 2);
        entities_.push_back(bullet);
      }
      if (m->health <= 0 && IsDestructible(m->type) && !m->will_erase) {
        SpawnChild(m, kExplosion, .5 * m->rx, true);
        step_data_.reward += kEnemyReward;
        m->will_erase = true;
      }
    }
    while (!spawners_.empty() && cur_time_ == spawners_.back()->spawn_time) {
      entities_.push_back(spawners_.back());
      spawners_.pop_back();
    }
    const float bullet_r = hp_bullet_r_[kPlayer];
    if (is_firing) {
      const float theta = special_action_ == 2 ? kPi : 0;
      const float v_scale = hp_vs_[kBulletPlayer] * kVScale;
      const float vx = Cos(theta) * v_scale;
      const float vy = Sin(theta) * v_scale;
      const float x_off = agent_->rx * Cos(theta);
      auto bullet = std::make_shared<Entity>(agent_->x + x_off, agent_->y, vx, vy, bullet_r,
                                             bullet_r, kBulletPlayer);
      bullet->collides_with_entities = true;
      bullet->FaceDirection(vx, vy);
      bullet->rotation -= kPi / 2;
      entities_.push_back(bullet);
    }
    if (cur_time_ == kShooterWinTime) {
      auto finish = std::make_shared<Entity>(main_width_, main_height_ / 2,
                                             -1 * hp_slow_v_ * kVScale, 0, 2, main_height_ / 2,
                                             kFinishLine);
      ChooseRandomTheme(finish);
      MatchAspectRatio(finish, false);
      finish->x = main_width_ + finish->rx;
      entities_.push_back(finish);
    }
  }

 private:
  std::vector<EntityPtr> spawners_;
  float hp_vs_[kNumBasicObjects] = {};
  float hp_healths_[kNumBasicObjects] = {};
  float hp_bullet_r_[kNumBasicObjects] = {};
  float hp_object_r_[kNumBasicObjects] = {};
  float hp_object_prob_weight_[kNumBasicObjects] = {};
  float total_prob_weight_ = 0.0f;
  float hp_slow_v_ = 0.0f;
  float hp_weapon_bullet_dist_ = 0.0f;
  float hp_spawn_right_threshold_ = 0.0f;
  int hp_min_enemy_delta_t_ = 0;
  int hp_max_group_size_ = 0;
  int hp_max_enemy_delta_t_ = 0;
};

}  // namespace envpool::procgen
