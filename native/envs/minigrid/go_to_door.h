// MiniGrid-GoToDoor-* (minigrid/envs/gotodoor.py): a room of random size (5 to size) in the
// grid, a door of a distinct color in each wall; `done` next to the named door is the
// success, `done` elsewhere or `toggle` ends the episode.
#pragma once

#include <algorithm>
#include <array>
#include <string>

#include "envs/minigrid/level.h"

namespace envpool::minigrid {

class GoToDoorLevel final : public Level {
 public:
  void Generate(World& w) override {
    const int width = w.RandInt(5, w.grid.Width() + 1);
    const int height = w.RandInt(5, w.grid.Height() + 1);
    w.grid.WallRect(0, 0, width, height);
    std::array<Pos, 4> doors;
    doors[0] = {w.RandInt(2, width - 2), 0};
    doors[1] = {w.RandInt(2, width - 2), height - 1};
    doors[2] = {0, w.RandInt(2, height - 2)};
    doors[3] = {width - 1, w.RandInt(2, height - 2)};
    std::array<Color, 4> colors{};
    for (std::size_t n = 0; n < colors.size();) {
      const Color c = w.RandColor();
      if (std::find(colors.begin(), colors.begin() + static_cast<std::ptrdiff_t>(n), c) !=
          colors.begin() + static_cast<std::ptrdiff_t>(n)) {
        continue;
      }
      colors[n++] = c;
    }
    for (std::size_t i = 0; i < doors.size(); ++i) {
      w.grid.Set(doors[i].x, doors[i].y, Cell::Door(colors[i]));
    }
    w.PlaceAgent({0, 0}, {width, height});
    const auto target = static_cast<std::size_t>(w.RandInt(0, 4));
    target_ = doors[target];
    w.mission = std::string("go to the ") + ColorName(colors[target]) + " door";
  }

  World::StepResult Step(World& w, int action) override { return StepGoTo(w, action, target_); }

 private:
  Pos target_;
};

}  // namespace envpool::minigrid
