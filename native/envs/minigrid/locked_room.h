// MiniGrid-LockedRoom-v0 (minigrid/envs/lockedroom.py): a 19x19 grid, a hallway between
// six rooms with doors of distinct colors; one room is locked and holds the goal, another
// holds its key.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "envs/minigrid/level.h"

namespace envpool::minigrid {

class LockedRoomLevel final : public Level {
 public:
  void Generate(World& w) override {
    const int width = w.grid.Width();
    const int height = w.grid.Height();
    w.grid.WallRect(0, 0, width, height);
    const int l_wall = width / 2 - 2;
    const int r_wall = width / 2 + 2;
    w.grid.VertWall(l_wall, 0);
    w.grid.VertWall(r_wall, 0);
    std::array<Room, 6> rooms;
    for (int n = 0; n < 3; ++n) {
      const int j = n * (height / 3);
      w.grid.HorzWall(0, j, l_wall);
      w.grid.HorzWall(r_wall, j, width - r_wall);
      const Pos size = {l_wall + 1, height / 3 + 1};
      rooms[static_cast<std::size_t>(2 * n)] = {{0, j}, size, {l_wall, j + 3}, kRed};
      rooms[static_cast<std::size_t>(2 * n + 1)] = {{r_wall, j}, size, {r_wall, j + 3}, kRed};
    }
    const int locked = w.RandInt(0, 6);
    const Pos goal = RandPos(w, rooms[static_cast<std::size_t>(locked)]);
    w.grid.Set(goal.x, goal.y, Cell::Goal());
    // Each room's door color: _rand_elem(sorted(the colors left)).
    std::vector<Color> colors(kColorNames.begin(), kColorNames.end());
    for (std::size_t r = 0; r < rooms.size(); ++r) {
      const auto pick = static_cast<std::size_t>(w.RandInt(0, static_cast<int>(colors.size())));
      rooms[r].color = colors[pick];
      colors.erase(colors.begin() + static_cast<std::ptrdiff_t>(pick));
      w.grid.Set(rooms[r].door.x, rooms[r].door.y,
                 Cell::Door(rooms[r].color, false, static_cast<int>(r) == locked));
    }
    int key_room = 0;
    do {
      key_room = w.RandInt(0, 6);
    } while (key_room == locked);
    const Pos key = RandPos(w, rooms[static_cast<std::size_t>(key_room)]);
    const Color locked_color = rooms[static_cast<std::size_t>(locked)].color;
    w.grid.Set(key.x, key.y, Cell::Make(kKey, locked_color));
    w.PlaceAgent({l_wall, 0}, {r_wall - l_wall, height});
    w.mission = std::string("get the ") + ColorName(locked_color) + " key from the " +
                ColorName(rooms[static_cast<std::size_t>(key_room)].color) + " room, unlock the " +
                ColorName(locked_color) + " door and go to the goal";
  }

 private:
  struct Room {
    Pos top;
    Pos size;
    Pos door;
    Color color;
  };

  // LockedRoom.rand_pos: a square inside the room's walls (_rand_pos: x, then y).
  static Pos RandPos(World& w, const Room& room) {
    const int x = w.RandInt(room.top.x + 1, room.top.x + room.size.x - 1);
    const int y = w.RandInt(room.top.y + 1, room.top.y + room.size.y - 1);
    return {x, y};
  }
};

}  // namespace envpool::minigrid
