// MiniGrid-DistShift1/2 (minigrid/envs/distshift.py): two strips of lava (rows 1 and
// strip2_row) between the agent and the goal in the top-right corner.
#pragma once

#include "envs/minigrid/level.h"

namespace envpool::minigrid {

class DistShiftLevel final : public StartLevel {
 public:
  explicit DistShiftLevel(const LevelParams& p) : StartLevel(p), strip2_row_(p.strip2_row) {}

  void Generate(World& w) override {
    const int width = w.grid.Width();
    const int height = w.grid.Height();
    w.grid.WallRect(0, 0, width, height);
    w.grid.Set(width - 2, 1, Cell::Goal());
    for (int i = 0; i < width - 6; ++i) {
      w.grid.Set(3 + i, 1, Cell::Lava());
      w.grid.Set(3 + i, strip2_row_, Cell::Lava());
    }
    PlaceStart(w);
    w.mission = "get to the green goal square";
  }

 private:
  int strip2_row_;
};

}  // namespace envpool::minigrid
