// MiniGrid-Memory* (minigrid/envs/memory.py): a green key or ball in the start room, a
// hallway (of random length with random_length) ending in a split with a key and a ball;
// reaching the square by the object that matches the first one is the success, the other
// one the failure. `pickup` acts as `toggle`.
#pragma once

#include "envs/minigrid/level.h"

namespace envpool::minigrid {

class MemoryLevel final : public Level {
 public:
  explicit MemoryLevel(const LevelParams& p) : random_length_(p.random_length) {}

  void Generate(World& w) override {
    const int width = w.grid.Width();
    const int height = w.grid.Height();
    w.grid.WallRect(0, 0, width, height);
    const int mid = height / 2;
    const int upper = mid - 2;
    const int lower = mid + 2;
    const int end = random_length_ ? w.RandInt(4, width - 2) : width - 3;
    for (int i = 1; i < 5; ++i) {
      w.grid.Set(i, upper, Cell::Wall());
      w.grid.Set(i, lower, Cell::Wall());
    }
    w.grid.Set(4, upper + 1, Cell::Wall());
    w.grid.Set(4, lower - 1, Cell::Wall());
    for (int i = 5; i < end; ++i) {
      w.grid.Set(i, upper + 1, Cell::Wall());
      w.grid.Set(i, lower - 1, Cell::Wall());
    }
    for (int j = 0; j < height; ++j) {
      if (j != mid) w.grid.Set(end, j, Cell::Wall());
      w.grid.Set(end + 2, j, Cell::Wall());
    }
    w.agent_pos = {w.RandInt(1, end + 1), mid};
    w.agent_dir = 0;
    static constexpr ObjType kKeyBall[2] = {kKey, kBall};
    const ObjType start_obj = kKeyBall[w.RandInt(0, 2)];
    w.grid.Set(1, mid - 1, Cell::Make(start_obj, kGreen));
    // _rand_elem([[Ball, Key], [Key, Ball]]): the object above the split first.
    const ObjType above = w.RandInt(0, 2) == 0 ? kBall : kKey;
    const ObjType below = above == kBall ? kKey : kBall;
    w.grid.Set(end + 1, mid - 2, Cell::Make(above, kGreen));
    w.grid.Set(end + 1, mid + 2, Cell::Make(below, kGreen));
    const Pos by_above = {end + 1, mid - 1};
    const Pos by_below = {end + 1, mid + 1};
    success_ = start_obj == above ? by_above : by_below;
    failure_ = start_obj == above ? by_below : by_above;
    w.mission = "go to the matching object at the end of the hallway";
  }

  World::StepResult Step(World& w, int action) override {
    World::StepResult r = w.Step(action == kPickup ? kToggle : action);
    if (w.agent_pos == success_) Succeed(w, r);
    if (w.agent_pos == failure_) {
      r.reward = 0.0;
      r.terminated = true;
    }
    return r;
  }

 private:
  bool random_length_;
  Pos success_;
  Pos failure_;
};

}  // namespace envpool::minigrid
