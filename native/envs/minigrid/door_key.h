// MiniGrid-DoorKey-* (minigrid/envs/doorkey.py): a wall splits the room; a locked yellow
// door in it, its key on the agent's side, the goal behind.
#pragma once

#include "envs/minigrid/level.h"

namespace envpool::minigrid {

class DoorKeyLevel final : public Level {
 public:
  void Generate(World& w) override {
    const int width = w.grid.Width();
    const int height = w.grid.Height();
    WallsAndGoal(w);
    const int split = w.RandInt(2, width - 2);
    w.grid.VertWall(split, 0);
    w.PlaceAgent({0, 0}, {split, height});
    const int door = w.RandInt(1, height - 2);
    w.grid.Set(split, door, Cell::Door(kYellow, false, true));
    w.PlaceObj(Cell::Make(kKey, kYellow), {0, 0}, {split, height});
    w.mission = "use the key to open the door and then get to the goal";
  }
};

}  // namespace envpool::minigrid
