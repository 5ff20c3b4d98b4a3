// MiniGrid-Playground-v0 (minigrid/envs/playground.py; sail-sg EnvPool's id, which the
// package defines the class of but does not register): nine rooms on a 19x19 grid joined
// by closed doors of random colors, twelve random objects, no mission.
#pragma once

#include "envs/minigrid/level.h"

namespace envpool::minigrid {

class PlaygroundLevel final : public Level {
 public:
  void Generate(World& w) override {
    const int width = w.grid.Width();
    const int height = w.grid.Height();
    w.grid.WallRect(0, 0, width, height);
    const int room_w = width / 3;
    const int room_h = height / 3;
    for (int j = 0; j < 3; ++j) {
      for (int i = 0; i < 3; ++i) {
        const int x_l = i * room_w;
        const int y_t = j * room_h;
        const int x_r = x_l + room_w;
        const int y_b = y_t + room_h;
        if (i + 1 < 3) {
          w.grid.VertWall(x_r, y_t, room_h);
          const int y = w.RandInt(y_t + 1, y_b - 1);
          w.grid.Set(x_r, y, Cell::Door(w.RandColor()));
        }
        if (j + 1 < 3) {
          w.grid.HorzWall(x_l, y_b, room_w);
          const int x = w.RandInt(x_l + 1, x_r - 1);
          w.grid.Set(x, y_b, Cell::Door(w.RandColor()));
        }
      }
    }
    w.PlaceAgent();
    static constexpr ObjType kTypes[3] = {kKey, kBall, kBox};
    for (int i = 0; i < 12; ++i) w.PlaceObj(RandObject(w, kTypes));
    w.mission = "";
  }
};

}  // namespace envpool::minigrid
