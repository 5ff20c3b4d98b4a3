// MiniGrid-MultiRoom-* (minigrid/envs/multiroom.py): a chain of min_num_rooms to
// max_num_rooms rooms (4 to max_room_size squares a side) on a 25x25 grid, each joined to
// the next by a closed door of a color other than the previous door's; the agent in the
// first room, the goal in the last.
#pragma once

#include <vector>

#include "envs/minigrid/level.h"

namespace envpool::minigrid {

class MultiRoomLevel final : public Level {
 public:
  explicit MultiRoomLevel(const LevelParams& p)
      : min_rooms_(p.min_num_rooms), max_rooms_(p.max_num_rooms), max_size_(p.max_room_size) {}

  void Generate(World& w) override {
    const int width = w.grid.Width();
    const int num_rooms = w.RandInt(min_rooms_, max_rooms_ + 1);
    std::vector<Room> rooms;
    while (static_cast<int>(rooms.size()) < num_rooms) {
      std::vector<Room> attempt;
      // (The package draws both coordinates below width - 2.)
      const int entry_x = w.RandInt(0, width - 2);
      const int entry_y = w.RandInt(0, width - 2);
      PlaceRoom(w, num_rooms, attempt, 2, {entry_x, entry_y});
      if (attempt.size() > rooms.size()) rooms = attempt;
    }
    Color prev_color = kRed;
    for (std::size_t idx = 0; idx < rooms.size(); ++idx) {
      const Room& room = rooms[idx];
      for (int i = 0; i < room.size.x; ++i) {
        w.grid.Set(room.top.x + i, room.top.y, Cell::Wall());
        w.grid.Set(room.top.x + i, room.top.y + room.size.y - 1, Cell::Wall());
      }
      for (int j = 0; j < room.size.y; ++j) {
        w.grid.Set(room.top.x, room.top.y + j, Cell::Wall());
        w.grid.Set(room.top.x + room.size.x - 1, room.top.y + j, Cell::Wall());
      }
      if (idx > 0) {
        // _rand_elem(sorted(COLOR_NAMES without the previous door's color)).
        std::vector<Color> colors;
        for (Color c : kColorNames) {
          if (idx == 1 || c != prev_color) colors.push_back(c);
        }
        prev_color = colors[static_cast<std::size_t>(w.RandInt(0, static_cast<int>(colors.size())))];
        w.grid.Set(room.entry.x, room.entry.y, Cell::Door(prev_color));
      }
    }
    w.PlaceAgent(rooms.front().top, rooms.front().size);
    w.PlaceObj(Cell::Goal(), rooms.back().top, rooms.back().size);
    w.mission = "traverse the rooms to get to the goal";
  }

 private:
  struct Room {
    Pos top;
    Pos size;
    Pos entry;
  };

  // _placeRoom: a room entered through `entry` on its wall `entry_wall` that fits in the
  // grid and overlaps none of the rooms before the previous one, then (up to 8 tries) the
  // next rooms through a door in one of its other walls. False if this room did not fit.
  bool PlaceRoom(World& w, int num_left, std::vector<Room>& rooms, int entry_wall, Pos entry) {
    const int size_x = w.RandInt(4, max_size_ + 1);
    const int size_y = w.RandInt(4, max_size_ + 1);
    Pos top = entry;
    if (!rooms.empty()) {
      if (entry_wall == 0) {
        top = {entry.x - size_x + 1, w.RandInt(entry.y - size_y + 2, entry.y)};
      } else if (entry_wall == 1) {
        top.x = w.RandInt(entry.x - size_x + 2, entry.x);
        top.y = entry.y - size_y + 1;
      } else if (entry_wall == 2) {
        top = {entry.x, w.RandInt(entry.y - size_y + 2, entry.y)};
      } else {
        top.x = w.RandInt(entry.x - size_x + 2, entry.x);
        top.y = entry.y;
      }
    }
    if (top.x < 0 || top.y < 0) return false;
    if (top.x + size_x > w.grid.Width() || top.y + size_y >= w.grid.Height()) return false;
    for (std::size_t k = 0; k + 1 < rooms.size(); ++k) {
      const Room& r = rooms[k];
      const bool apart = top.x + size_x < r.top.x || r.top.x + r.size.x <= top.x ||
                         top.y + size_y < r.top.y || r.top.y + r.size.y <= top.y;
      if (!apart) return false;
    }
    rooms.push_back({top, {size_x, size_y}, entry});
    if (num_left == 1) return true;
    for (int i = 0; i < 8; ++i) {
      int walls[3];
      int n = 0;
      for (int k = 0; k < 4; ++k) {
        if (k != entry_wall) walls[n++] = k;
      }
      const int exit_wall = walls[w.RandInt(0, 3)];
      Pos exit;
      if (exit_wall == 0) {
        exit = {top.x + size_x - 1, top.y + w.RandInt(1, size_y - 1)};
      } else if (exit_wall == 1) {
        exit = {top.x + w.RandInt(1, size_x - 1), top.y + size_y - 1};
      } else if (exit_wall == 2) {
        exit = {top.x, top.y + w.RandInt(1, size_y - 1)};
      } else {
        exit = {top.x + w.RandInt(1, size_x - 1), top.y};
      }
      if (PlaceRoom(w, num_left - 1, rooms, (exit_wall + 2) % 4, exit)) break;
    }
    return true;
  }

  int min_rooms_;
  int max_rooms_;
  int max_size_;
};

}  // namespace envpool::minigrid
