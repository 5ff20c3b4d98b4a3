// procgen's bossfight (src/games/bossfight.cpp), restated: a space duel with a boss ship.
// The agent's ship, at the bottom of a 20 x 20 world shown whole, fires lasers up (special
// action 1). The boss fights in rounds: it moves about the upper part with its shield up,
// firing one of four attack patterns, and after a few moves lowers the shield; a hit then
// takes one point of the round's health, and the round's last point gives +1 and starts the
// next round (the boss burns for a while). The last round's last point adds +10 and
// completes the level. A hit on the raised shield reflects the laser away. The boss, its
// lasers and the meteors (barriers that stop lasers) end the episode on contact. Easy mode
// fires slower lasers and raises the shield for fewer moves; the space backgrounds.
#pragma once

#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "envs/procgen/game.h"

namespace envpool::procgen {

class BossFight final : public BasicGame {
 public:
  static constexpr const char* kName = "bossfight";
  static constexpr bool kHasExtreme = false;
  static constexpr bool kHasMemory = false;

  explicit BossFight(std::shared_ptr<AssetStore> assets) : BasicGame(kName, std::move(assets)) {
    timeout_ = 4000;
    main_width_ = 20;
    main_height_ = 20;
    mixrate_ = .5;
    maxspeed_ = 0.85f;
  }

 protected:
  // (procgen declares both rewards int)
  static constexpr int kCompletionBonus = 10;
  static constexpr int kPositiveReward = 1;
  static constexpr int kPlayerBullet = 1;
  static constexpr int kBoss = 2;
  static constexpr int kShields = 3;
  static constexpr int kEnemyBullet = 4;
  static constexpr int kLaserTrail = 5;
  static constexpr int kReflectedBullet = 6;
  static constexpr int kBarrier = 7;
  static constexpr float kBossR = 3;
  static constexpr int kNumAttackModes = 4;
  static constexpr int kNumLaserThemes = 3;
  static constexpr int kPlayerBulletVel = 1;
  static constexpr int kBottomMargin = 6;
  static constexpr int kBossVelTimeout = 20;
  static constexpr int kBossDamagedTimeout = 40;

  void LoadBackgroundImages() override { SetBackgrounds(SpaceBackgrounds()); }

  void AssetForType(int type, std::vector<std::string>& names) override {
    auto lasers = [&] {
      names.push_back("misc_assets/laserGreen14.png");
      names.push_back("misc_assets/laserRed11.png");
      names.push_back("misc_assets/laserBlue09.png");
    };
    if (type == kPlayer) {
      names.push_back("misc_assets/playerShip1_blue.png");
      names.push_back("misc_assets/playerShip1_green.png");
      names.push_back("misc_assets/playerShip2_orange.png");
      names.push_back("misc_assets/playerShip3_red.png");
    } else if (type == kBoss) {
      names.push_back("misc_assets/enemyShipBlack1.png");
      names.push_back("misc_assets/enemyShipBlue2.png");
      names.push_back("misc_assets/enemyShipGreen3.png");
      names.push_back("misc_assets/enemyShipRed4.png");
    } else if (type == kEnemyBullet || type == kPlayerBullet) {
      lasers();
    } else if (type == kShields) {
      names.push_back("misc_assets/shield2.png");
    } else if (type == kBarrier) {
      for (int i = 1; i <= 4; i++) {
        names.push_back("misc_assets/spaceMeteors_00" + std::to_string(i) + ".png");
      }
      for (int i = 1; i <= 4; i++) {
        names.push_back("misc_assets/meteorGrey_big" + std::to_string(i) + ".png");
      }
    }
  }

  void HandleAgentCollision(const EntityPtr& obj) override {
    if (obj->type == kBoss || obj->type == kBarrier || obj->type == kEnemyBullet) {
      step_data_.done = true;
    }
  }

  bool ShouldDrawEntity(const EntityPtr& entity) override {
    if (entity->type == kShields) return shields_are_up_;
    return true;
  }

  void HandleCollision(const EntityPtr& src, const EntityPtr& target) override {
    if (src->type == kPlayerBullet) {
      bool will_erase = false;
      if (target->type == kShields) {
        if (shields_are_up_) {
          // reflected away, downwards to a side, at half speed, fading out
          src->type = kReflectedBullet;
          const float theta = kPi * (1.25 + .5 * rand_pct_);
          src->vy = kPlayerBulletVel * Sin(theta) * .5;
          src->vx = kPlayerBulletVel * Cos(theta) * .5;
          src->expire_time = 4;
          src->life_time = 0;
          src->alpha_decay = 0.8f;
        }
      } else if (target->type == kBoss) {
        if (!shields_are_up_) {
          target->health -= 1;
          will_erase = true;
          if (static_cast<int>(target->health) % round_health_ == 0) {
            step_data_.reward += kPositiveReward;
            if (target->health == 0) {
              step_data_.done = true;
              step_data_.reward += kCompletionBonus;
              step_data_.level_complete = true;
            } else {
              round_num_++;
              PrepareBoss();
              curr_vel_timeout_ = kBossDamagedTimeout;
              damaged_until_time_ = cur_time_ + kBossDamagedTimeout;
            }
          }
        }
      }
      if (will_erase && !src->will_erase) {
        src->will_erase = true;
        auto explosion = SpawnChild(src, kExplosion, .5 * src->rx);
        explosion->vx = target->vx;
        explosion->vy = target->vy;
      }
    } else if (src->type == kBarrier) {
      if (target->type == kEnemyBullet || target->type == kPlayerBullet) {
        target->will_erase = true;
        SpawnChild(target, kExplosion, .5 * target->rx);
      } else if (target->type == kLaserTrail) {
        target->will_erase = true;
      }
      if (src->health <= 0) {
        if (!src->will_erase) {
          auto explosion = SpawnChild(src, kExplosion, .5 * src->rx);
          explosion->vx = src->vx;
          explosion->vy = src->vy;
        }
        src->will_erase = true;
      }
    }
  }

  void PrepareBoss() {
    shields_are_up_ = true;
    curr_vel_timeout_ = boss_vel_timeout_;
    time_to_swap_ = invulnerable_duration_;
    attack_mode_ = attack_modes_[round_num_ % attack_modes_.size()];
    boss_->vx = 0;
    boss_->vy = 0;
  }

  void GameReset() override {
    BasicGame::GameReset();
    damaged_until_time_ = 0;
    last_fire_time_ = 0;
    boss_bullet_vel_ = options_.distribution_mode == kEasyMode ? .5 : .75;
    const int max_extra_invulnerable = options_.distribution_mode == kEasyMode ? 1 : 3;
    // the whole world is always shown (procgen turns center_agent off for good)
    options_.center_agent = false;
    boss_ = AddEntity(main_width_ / 2, main_height_ / 2, 0, 0, kBossR, kBoss);
    ChooseRandomTheme(boss_);
    MatchAspectRatio(boss_);
    shields_ = AddEntityRxy(boss_->x, boss_->y, 0, 0, 1.2 * boss_->rx, 1.2 * boss_->ry, kShields);
    boss_vel_timeout_ = kBossVelTimeout;
    base_fire_prob_ = 0.1f;
    round_health_ = rand_gen_.RandN(9) + 1;
    num_rounds_ = 1 + rand_gen_.RandN(5);
    invulnerable_duration_ = 2 + rand_gen_.RandN(max_extra_invulnerable + 1);
    vulnerable_duration_ = 500;  // essentially infinite
    boss_->health = round_health_ * num_rounds_;
    ChooseRandomTheme(agent_);
    player_laser_theme_ = rand_gen_.RandN(kNumLaserThemes);
    boss_laser_theme_ = rand_gen_.RandN(kNumLaserThemes);
    attack_modes_.clear();
    for (int i = 0; i < num_rounds_; i++) attack_modes_.push_back(rand_gen_.RandN(kNumAttackModes));
    round_num_ = 0;
    PrepareBoss();
    agent_->rx = .75;
    MatchAspectRatio(agent_);
    RepositionAgent();
    agent_->y = agent_->ry;
    // (the barriers' drift, speed 0.1 and direction drawn here, and their respawn rate are
    // set but never used by procgen: only the draw is kept)
    rand_gen_.RandBool();
    SpawnBarriers();
  }

  void BossFire(float bullet_r, float vel, float theta) {
    auto bullet = AddEntity(boss_->x, boss_->y, vel * Cos(theta), vel * Sin(theta),
                            bullet_r, kEnemyBullet);
    bullet->image_theme = boss_laser_theme_;
    bullet->expire_time = 50;
    bullet->vrot = kPi / 8;
  }

  // the attack patterns (the arguments' arithmetic as procgen's: double where it mixes
  // double literals in, the angle then passed as a float)
  void PassiveAttackMode() {
    if (rand_fire_pct_ < base_fire_prob_) BossFire(.5, boss_bullet_vel_, kPi * (1 + rand_pct_));
  }
  void AttackMode0() {  // a fan of five downwards, every 8 steps
    if (cur_time_ % 8 == 0) {
      for (int i = 0; i < 5; i++) BossFire(.5, boss_bullet_vel_, kPi * 1.5 + (i - 2) * kPi / 8);
    }
  }
  void AttackMode1() {  // a sweeping cross, every 5 steps
    const int dt = 5;
    if (cur_time_ % dt == 0) {
      int k = cur_time_ / dt;
      k = std::abs(8 - (k % 16));
      for (int i = 0; i < 4; i++) {
        BossFire(.5, boss_bullet_vel_, kPi * (1.25 + .5 * k / 8.0) + i * kPi / 2);
      }
    }
  }
  void AttackMode2() {  // a ring of eight, every 10 steps
    if (cur_time_ % 10 == 0) {
      const int num_bullets = 8;
      const float offset = rand_pct_ * 2 * kPi;
      for (int i = 0; i < num_bullets; i++) {
        const float vel = boss_bullet_vel_;
        const float theta = 2 * kPi / num_bullets * i + offset;
        BossFire(.5, vel, theta);
      }
    }
  }
  void AttackMode3() {  // one at a random angle downwards, every 4 steps
    if (cur_time_ % 4 == 0) BossFire(.5, boss_bullet_vel_, kPi * (1 + rand_pct_));
  }
  void DamagedMode() {  // explosions over the boss, every 3 steps
    if (cur_time_ % 3 == 0) {
      const float pos_x = boss_->x + (2 * rand_pct_x_ - 1) * boss_->rx;
      const float pos_y = boss_->y + (2 * rand_pct_y_ - 1) * boss_->ry;
      AddEntity(pos_x, pos_y, 0, 0, .75, kExplosion);
    }
  }
  void ActiveAttack() {
    if (attack_mode_ == 0) {
      AttackMode0();
    } else if (attack_mode_ == 1) {
      AttackMode1();
    } else if (attack_mode_ == 2) {
      AttackMode2();
    } else if (attack_mode_ == 3) {
      AttackMode3();
    }
  }

  // one to three meteors low in the world, each kept where it touches nothing
  void SpawnBarriers() {
    const int num_barriers = rand_gen_.RandN(3) + 1;
    for (int i = 0; i < num_barriers; i++) {
      const float barrier_r = 0.6f;
      const float min_barrier_y = 2 * agent_->ry + barrier_r + .5;
      const float ent_y =
          rand_gen_.Rand01() * (kBottomMargin - min_barrier_y - barrier_r) + min_barrier_y;
      const float ent_x = rand_gen_.Rand01() * (main_width_ - 2 * barrier_r) + barrier_r;
      auto ent = std::make_shared<Entity>(ent_x, ent_y, 0, 0, barrier_r, barrier_r, kBarrier);
      ChooseRandomTheme(ent);
      MatchAspectRatio(ent);
      ent->health = 3;
      ent->collides_with_entities = true;
      if (!HasAnyCollision(ent)) entities_.push_back(ent);
    }
  }

  void GameStep() override {
    BasicGame::GameStep();
    shields_->x = boss_->x;
    shields_->y = boss_->y;
    rand_pct_ = rand_gen_.Rand01();
    rand_fire_pct_ = rand_gen_.Rand01();
    rand_pct_x_ = rand_gen_.Rand01();
    rand_pct_y_ = rand_gen_.Rand01();
    if (curr_vel_timeout_ <= 0) {
      // the boss heads for a random point of the upper part; each move counts down the
      // shield's time
      const float dest_x = rand_pct_x_ * (main_width_ - 2 * kBossR) + kBossR;
      const float dest_y =
          rand_pct_y_ * (main_height_ - 2 * kBossR - kBottomMargin) + kBossR + kBottomMargin;
      boss_->vx = (dest_x - boss_->x) / boss_vel_timeout_;
      boss_->vy = (dest_y - boss_->y) / boss_vel_timeout_;
      curr_vel_timeout_ = boss_vel_timeout_;
      if (time_to_swap_ > 0) {
        time_to_swap_ -= 1;
      } else {
        time_to_swap_ = shields_are_up_ ? vulnerable_duration_ : invulnerable_duration_;
        shields_are_up_ = !shields_are_up_;
      }
    } else {
      curr_vel_timeout_ -= 1;
    }
    if (special_action_ == 1 && (cur_time_ - last_fire_time_) >= 3) {
      auto bullet = AddEntity(agent_->x, agent_->y, 0, kPlayerBulletVel, .25, kPlayerBullet);
      bullet->image_theme = player_laser_theme_;
      bullet->collides_with_entities = true;
      bullet->expire_time = 25;
      last_fire_time_ = cur_time_;
    }
    if (damaged_until_time_ >= cur_time_) {
      DamagedMode();
    } else if (shields_are_up_) {
      ActiveAttack();
    } else {
      PassiveAttackMode();
    }
    for (int i = static_cast<int>(entities_.size()) - 1; i >= 0; i--) {
      const EntityPtr ent = entities_[i];
      if (ent->type == kEnemyBullet) {
        // a fading copy of the laser, at half its speed
        const float v_trail = .5;
        auto trail = AddEntityRxy(ent->x, ent->y, ent->vx * v_trail, ent->vy * v_trail, ent->rx,
                                  ent->ry, kLaserTrail);
        trail->alpha_decay = 0.7f;
        trail->image_type = kEnemyBullet;
        trail->image_theme = boss_laser_theme_;
        trail->vrot = ent->vrot;
        trail->rotation = ent->rotation;
        trail->expire_time = 8;
      }
    }
  }

 private:
  EntityPtr boss_;
  EntityPtr shields_;
  std::vector<int> attack_modes_;
  int last_fire_time_ = 0;
  int time_to_swap_ = 0;
  int invulnerable_duration_ = 0;
  int vulnerable_duration_ = 0;
  int num_rounds_ = 0;
  int round_num_ = 0;
  int round_health_ = 0;
  int boss_vel_timeout_ = 0;
  int curr_vel_timeout_ = 0;
  int attack_mode_ = 0;
  int player_laser_theme_ = 0;
  int boss_laser_theme_ = 0;
  int damaged_until_time_ = 0;
  bool shields_are_up_ = false;
  float base_fire_prob_ = 0.0f;
  float boss_bullet_vel_ = 0.0f;
  float rand_pct_ = 0.0f;
  float rand_fire_pct_ = 0.0f;
  float rand_pct_x_ = 0.0f;
  float rand_pct_y_ = 0.0f;
};

}  // namespace envpool::procgen
