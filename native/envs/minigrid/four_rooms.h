// MiniGrid-FourRooms-v0 (minigrid/envs/fourrooms.py): a 19x19 grid of four rooms joined
// by four gaps, the agent and the goal placed at random.
#pragma once

#include "envs/minigrid/level.h"

namespace envpool::minigrid {

class FourRoomsLevel final : public Level {
 public:
  void Generate(World& w) override {
    const int width = w.grid.Width();
    const int height = w.grid.Height();
    w.grid.HorzWall(0, 0);
    w.grid.HorzWall(0, height - 1);
    w.grid.VertWall(0, 0);
    w.grid.VertWall(width - 1, 0);
    const int room_w = width / 2;
    const int room_h = height / 2;
    for (int j = 0; j < 2; ++j) {
      for (int i = 0; i < 2; ++i) {
        const int x_l = i * room_w;
        const int y_t = j * room_h;
        const int x_r = x_l + room_w;
        const int y_b = y_t + room_h;
        if (i + 1 < 2) {
          w.grid.VertWall(x_r, y_t, room_h);
          w.grid.Clear(x_r, w.RandInt(y_t + 1, y_b));
        }
        if (j + 1 < 2) {
          w.grid.HorzWall(x_l, y_b, room_w);
          w.grid.Clear(w.RandInt(x_l + 1, x_r), y_b);
        }
      }
    }
    w.PlaceAgent();
    w.PlaceObj(Cell::Goal());
    w.mission = "reach the goal";
  }
};

}  // namespace envpool::minigrid
