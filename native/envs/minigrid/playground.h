// MiniGrid-Playground-v0 (minigrid/envs/playground.py): nine rooms on a 19x19 grid joined
// by closed doors of random colors, twelve random objects, no mission.
#pragma once

#include "envs/minigrid/level.h"

namespace envpool::minigrid {

class PlaygroundLevel final : public Level {
 public:
  void Generate(World& w) override {
    RoomsOfSquareGrid(
        w, 3,
        [&w](int x, int y_t, int y_b) {
          const int y = w.RandInt(y_t + 1, y_b - 1);
          w.grid.Set(x, y, Cell::Door(w.RandColor()));
        },
        [&w](int x_l, int x_r, int y) {
          const int x = w.RandInt(x_l + 1, x_r - 1);
          w.grid.Set(x, y, Cell::Door(w.RandColor()));
        });
    w.PlaceAgent();
    static constexpr ObjType kTypes[3] = {kKey, kBall, kBox};
    for (int i = 0; i < 12; ++i) w.PlaceObj(RandObject(w, kTypes));
    w.mission = "";
  }
};

}  // namespace envpool::minigrid
