// MiniGrid-RedBlueDoors-* (minigrid/envs/redbluedoors.py): a room with a red door in its
// left wall and a blue one in its right wall; success is opening the red door, then the
// blue one (opening the blue one first ends the episode with no reward).
#pragma once

#include "envs/minigrid/level.h"

namespace envpool::minigrid {

class RedBlueDoorsLevel final : public Level {
 public:
  explicit RedBlueDoorsLevel(const LevelParams& p) : size_(p.size) {}

  void Generate(World& w) override {
    w.grid.WallRect(0, 0, 2 * size_, size_);
    w.grid.WallRect(size_ / 2, 0, size_, size_);
    w.PlaceAgent({size_ / 2, 0}, {size_, size_});
    red_ = {size_ / 2, w.RandInt(1, size_ - 1)};
    w.grid.Set(red_.x, red_.y, Cell::Door(kRed));
    blue_ = {size_ / 2 + size_ - 1, w.RandInt(1, size_ - 1)};
    w.grid.Set(blue_.x, blue_.y, Cell::Door(kBlue));
    w.mission = "open the red door then the blue door";
  }

  World::StepResult Step(World& w, int action) override {
    const bool red_before = w.grid.Get(red_.x, red_.y).is_open;
    const bool blue_before = w.grid.Get(blue_.x, blue_.y).is_open;
    World::StepResult r = w.Step(action);
    const bool red_after = w.grid.Get(red_.x, red_.y).is_open;
    const bool blue_after = w.grid.Get(blue_.x, blue_.y).is_open;
    if (blue_after) {
      r.reward = 0.0;
      r.terminated = true;
      if (red_before) Succeed(w, r);
    } else if (red_after && blue_before) {
      r.reward = 0.0;
      r.terminated = true;
    }
    return r;
  }

 private:
  int size_;
  Pos red_;
  Pos blue_;
};

}  // namespace envpool::minigrid
