// procgen's bigfish (src/games/bigfish.cpp), restated: the agent, a fish, eats smaller
// fish (+1 each, and grows by (2 - start size) / 30) and dies touching a larger one; 30
// fish eaten complete the level (+10). Fish enter from either side with probability 1/10 a
// step. A 20 x 20 world on a water background; timeout 6000 steps; easy mode starts the
// agent with radius 1 instead of 0.5. center_agent is always off.
#pragma once

#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "envs/procgen/game.h"

namespace envpool::procgen {

class BigFish final : public BasicGame {
 public:
  static constexpr const char* kName = "bigfish";
  static constexpr bool kHasExtreme = false;
  static constexpr bool kHasMemory = false;

  explicit BigFish(std::shared_ptr<AssetStore> assets) : BasicGame(kName, std::move(assets)) {
    timeout_ = 6000;
    main_width_ = 20;
    main_height_ = 20;
  }

 protected:
  static constexpr float kCompletionBonus = 10.0f;
  static constexpr int kPositiveReward = 1;
  static constexpr int kFish = 2;
  static constexpr float kFishMinR = .25;
  static constexpr float kFishMaxR = 2;
  static constexpr int kFishQuota = 30;

  void LoadBackgroundImages() override {
    SetBackgrounds({"water_backgrounds/water1.png", "water_backgrounds/water2.png",
                    "water_backgrounds/water3.png", "water_backgrounds/water4.png",
                    "water_backgrounds/underwater1.png", "water_backgrounds/underwater2.png",
                    "water_backgrounds/underwater3.png"});
  }

  void AssetForType(int type, std::vector<std::string>& names) override {
    if (type == kPlayer) {
      names.push_back("misc_assets/fishTile_072.png");
    } else if (type == kFish) {
      names.push_back("misc_assets/fishTile_074.png");
      names.push_back("misc_assets/fishTile_078.png");
      names.push_back("misc_assets/fishTile_080.png");
    }
  }

  void HandleAgentCollision(const EntityPtr& obj) override {
    if (obj->type == kFish) {
      if (obj->rx > agent_->rx) {
        step_data_.done = true;
      } else {
        step_data_.reward += kPositiveReward;
        obj->will_erase = true;
        agent_->rx += r_inc_;
        agent_->ry += r_inc_;
        fish_eaten_ += 1;
      }
    }
  }

  void GameReset() override {
    BasicGame::GameReset();
    options_.center_agent = false;
    fish_eaten_ = 0;
    float start_r = .5;
    if (options_.distribution_mode == kEasyMode) start_r = 1;
    r_inc_ = (kFishMaxR - start_r) / kFishQuota;
    agent_->rx = start_r;
    agent_->ry = start_r;
    agent_->y = 1 + agent_->ry;
  }

  void GameStep() override {
    BasicGame::GameStep();
    if (rand_gen_.RandN(10) == 1) {
      // pow of a float and a double is a double
      const float ent_r =
          (kFishMaxR - kFishMinR) * std::pow(static_cast<double>(rand_gen_.Rand01()), 1.4) +
          kFishMinR;
      const float ent_y = rand_gen_.Rand01() * (main_height_ - 2 * ent_r);
      const float moves_right = rand_gen_.Rand01() < .5;
      const float ent_vx = (.15 + rand_gen_.Rand01() * .25) * (moves_right ? 1 : -1);
      const float ent_x = moves_right ? -1 * ent_r : main_width_ + ent_r;
      auto ent = AddEntity(ent_x, ent_y, ent_vx, 0, ent_r, kFish);
      ChooseRandomTheme(ent);
      MatchAspectRatio(ent);
      ent->is_reflected = !moves_right;
    }
    if (fish_eaten_ >= kFishQuota) {
      step_data_.done = true;
      step_data_.reward += kCompletionBonus;
      step_data_.level_complete = true;
    }
    if (action_vx_ > 0) agent_->is_reflected = false;
    if (action_vx_ < 0) agent_->is_reflected = true;
  }

 private:
  int fish_eaten_ = 0;
  float r_inc_ = 0.0;
};

}  // namespace envpool::procgen
