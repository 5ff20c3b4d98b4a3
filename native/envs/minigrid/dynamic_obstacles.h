// MiniGrid-Dynamic-Obstacles-* (minigrid/envs/dynamicobstacles.py): the Empty room with
// blue balls that each step move to a random free square next to them (up to 101 draws
// each, else they stay); walking into a ball or a wall ends the episode with reward -1.
// Three actions: left, right, forward.
#pragma once

#include <vector>

#include "envs/minigrid/level.h"

namespace envpool::minigrid {

class DynamicObstaclesLevel final : public StartLevel {
 public:
  explicit DynamicObstaclesLevel(const LevelParams& p)
      : StartLevel(p),
        // "Reduce obstacles if there are too many", as the package does.
        n_obstacles_(p.n_obstacles <= p.size / 2.0 + 1 ? p.n_obstacles : p.size / 2) {}

  void Generate(World& w) override {
    WallsAndGoal(w);
    PlaceStart(w);
    obstacles_.clear();
    for (int i = 0; i < n_obstacles_; ++i) {
      obstacles_.push_back(w.PlaceObj(Ball(), {0, 0}, {-1, -1}, 100));
    }
    w.mission = "get to the green goal square";
  }

  World::StepResult Step(World& w, int action) override {
    const Pos front = w.FrontPos();
    const Cell& front_cell = w.grid.Get(front.x, front.y);
    const bool not_clear = !front_cell.Empty() && front_cell.type != kGoal;
    for (Pos& old_pos : obstacles_) {
      const Pos moved = w.PlaceObj(Ball(), {old_pos.x - 1, old_pos.y - 1}, {3, 3}, 100);
      if (moved.x >= 0) {
        w.grid.Clear(old_pos.x, old_pos.y);
        old_pos = moved;
      }
    }
    World::StepResult r = w.Step(action);
    if (action == kForward && not_clear) {
      r.reward = -1.0;
      r.terminated = true;
    }
    return r;
  }

 private:
  static Cell Ball() { return Cell::Make(kBall, kBlue); }

  int n_obstacles_;
  std::vector<Pos> obstacles_;
};

}  // namespace envpool::minigrid
