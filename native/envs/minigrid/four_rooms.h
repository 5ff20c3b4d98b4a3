// MiniGrid-FourRooms-v0 (minigrid/envs/fourrooms.py): a 19x19 grid of four rooms joined
// by four gaps, the agent and the goal placed at random.
#pragma once

#include "envs/minigrid/level.h"

namespace envpool::minigrid {

class FourRoomsLevel final : public Level {
 public:
  void Generate(World& w) override {
    RoomsOfSquareGrid(
        w, 2, [&w](int x, int y_t, int y_b) { w.grid.Clear(x, w.RandInt(y_t + 1, y_b)); },
        [&w](int x_l, int x_r, int y) { w.grid.Clear(w.RandInt(x_l + 1, x_r), y); });
    w.PlaceAgent();
    w.PlaceObj(Cell::Goal());
    w.mission = "reach the goal";
  }
};

}  // namespace envpool::minigrid
