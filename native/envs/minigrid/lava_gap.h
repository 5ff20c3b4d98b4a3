// MiniGrid-LavaGapS* (minigrid/envs/lavagap.py): a vertical strip of lava (or wall) with
// one gap between the agent (top left) and the goal (bottom right).
#pragma once

#include <string>

#include "envs/minigrid/level.h"

namespace envpool::minigrid {

class LavaGapLevel final : public Level {
 public:
  explicit LavaGapLevel(const LevelParams& p) : lava_(p.obstacle_type == "lava") {}

  void Generate(World& w) override {
    CornerToCorner(w);
    const int width = w.grid.Width();
    const int height = w.grid.Height();
    const int gap_x = w.RandInt(2, width - 2);
    const int gap_y = w.RandInt(1, height - 1);
    w.grid.VertWall(gap_x, 1, height - 2, lava_ ? Cell::Lava() : Cell::Wall());
    w.grid.Clear(gap_x, gap_y);
    w.mission = ObstacleMission(lava_);
  }

 private:
  bool lava_;
};

}  // namespace envpool::minigrid
