// MiniGrid-Empty-* (minigrid/envs/empty.py): a walled room, the goal in the bottom-right
// corner, the agent at agent_start_pos (or placed at random).
#pragma once

#include "envs/minigrid/level.h"

namespace envpool::minigrid {

class EmptyLevel final : public StartLevel {
 public:
  explicit EmptyLevel(const LevelParams& p) : StartLevel(p) {}

  void Generate(World& w) override {
    WallsAndGoal(w);
    PlaceStart(w);
    w.mission = "get to the green goal square";
  }
};

}  // namespace envpool::minigrid
