// The package's RoomGrid (minigrid/core/roomgrid.py): num_rows x num_cols rooms of
// room_size squares (walls shared), a door position drawn in each inner wall, and the
// helpers its levels build with (add_object, add_door, remove_wall, place_agent,
// connect_all), drawing in the package's order.
#pragma once

#include <array>
#include <cstdlib>
#include <vector>

#include "envs/minigrid/level.h"

namespace envpool::minigrid {

class RoomGrid {
 public:
  struct Room {
    Pos top;
    Pos size;
    std::array<int, 4> neighbor = {-1, -1, -1, -1};  // index into rooms_, -1: none
    std::array<Pos, 4> door_pos;                      // {-1, -1}: None
    std::array<bool, 4> doors = {false, false, false, false};  // a door or an opening
    bool locked = false;
  };

  RoomGrid(int room_size, int num_rows, int num_cols)
      : room_size_(room_size), num_rows_(num_rows), num_cols_(num_cols) {}

  static Pos GridSize(int room_size, int num_rows, int num_cols) {
    return {(room_size - 1) * num_cols + 1, (room_size - 1) * num_rows + 1};
  }

  Room& Get(int i, int j) { return rooms_[static_cast<std::size_t>(j * num_cols_ + i)]; }

  // RoomGrid._gen_grid: the rooms' walls, the door positions, the agent in the middle
  // room facing right.
  void Generate(World& w) {
    rooms_.assign(static_cast<std::size_t>(num_rows_ * num_cols_), Room());
    const int step = room_size_ - 1;
    for (int j = 0; j < num_rows_; ++j) {
      for (int i = 0; i < num_cols_; ++i) {
        Room& room = Get(i, j);
        room.top = {i * step, j * step};
        room.size = {room_size_, room_size_};
        w.grid.WallRect(room.top.x, room.top.y, room_size_, room_size_);
      }
    }
    for (int j = 0; j < num_rows_; ++j) {
      for (int i = 0; i < num_cols_; ++i) {
        Room& room = Get(i, j);
        const int x_l = room.top.x + 1;
        const int y_l = room.top.y + 1;
        const int x_m = room.top.x + room.size.x - 1;
        const int y_m = room.top.y + room.size.y - 1;
        if (i < num_cols_ - 1) {
          room.neighbor[0] = j * num_cols_ + i + 1;
          room.door_pos[0] = {x_m, w.RandInt(y_l, y_m)};
        }
        if (j < num_rows_ - 1) {
          room.neighbor[1] = (j + 1) * num_cols_ + i;
          room.door_pos[1] = {w.RandInt(x_l, x_m), y_m};
        }
        if (i > 0) {
          room.neighbor[2] = j * num_cols_ + i - 1;
          room.door_pos[2] = Get(i - 1, j).door_pos[0];
        }
        if (j > 0) {
          room.neighbor[3] = (j - 1) * num_cols_ + i;
          room.door_pos[3] = Get(i, j - 1).door_pos[1];
        }
      }
    }
    w.agent_pos = {(num_cols_ / 2) * step + room_size_ / 2, (num_rows_ / 2) * step + room_size_ / 2};
    w.agent_dir = 0;
  }

  // add_object(i, j, kind, color) (kEmpty: kind None, drawn from key, ball, box; a
  // negative color: None, drawn), placed by place_in_room. Returns its square.
  Pos AddObject(World& w, int i, int j, ObjType kind = kEmpty, int color = -1,
                std::uint8_t tag = 0) {
    if (kind == kEmpty) {
      static constexpr ObjType kKinds[3] = {kKey, kBall, kBox};
      kind = kKinds[w.RandInt(0, 3)];
    }
    Cell obj = Cell::Make(kind, color < 0 ? w.RandColor() : static_cast<Color>(color));
    obj.tag = tag;
    return PlaceInRoom(w, i, j, obj);
  }

  // place_in_room(i, j, obj): a random square of room (i, j), not next to the agent.
  Pos PlaceInRoom(World& w, int i, int j, const Cell& obj) {
    const Room& room = Get(i, j);
    return w.PlaceObj(obj, room.top, room.size, 1000, &RejectNextTo);
  }

  // add_door(i, j, door_idx, color, locked) (negative door_idx / color: None, drawn).
  // Returns the door's square.
  Pos AddDoor(World& w, int i, int j, int door_idx, int color, bool locked) {
    Room& room = Get(i, j);
    if (door_idx < 0) {
      while (true) {
        door_idx = w.RandInt(0, 4);
        if (room.neighbor[static_cast<std::size_t>(door_idx)] >= 0 &&
            !room.doors[static_cast<std::size_t>(door_idx)]) {
          break;
        }
      }
    }
    const Color c = color < 0 ? w.RandColor() : static_cast<Color>(color);
    const auto k = static_cast<std::size_t>(door_idx);
    room.locked = locked;
    const Pos pos = room.door_pos[k];
    w.grid.Set(pos.x, pos.y, Cell::Door(c, false, locked));
    room.doors[k] = true;
    rooms_[static_cast<std::size_t>(room.neighbor[k])].doors[(k + 2) % 4] = true;
    return pos;
  }

  // remove_wall(i, j, wall_idx): an opening to the neighbor.
  void RemoveWall(World& w, int i, int j, int wall_idx) {
    Room& room = Get(i, j);
    const int tx = room.top.x;
    const int ty = room.top.y;
    const int sw = room.size.x;
    const int sh = room.size.y;
    if (wall_idx == 0) {
      for (int k = 1; k < sh - 1; ++k) w.grid.Clear(tx + sw - 1, ty + k);
    } else if (wall_idx == 1) {
      for (int k = 1; k < sw - 1; ++k) w.grid.Clear(tx + k, ty + sh - 1);
    } else if (wall_idx == 2) {
      for (int k = 1; k < sh - 1; ++k) w.grid.Clear(tx, ty + k);
    } else {
      for (int k = 1; k < sw - 1; ++k) w.grid.Clear(tx + k, ty);
    }
    const auto k = static_cast<std::size_t>(wall_idx);
    room.doors[k] = true;
    rooms_[static_cast<std::size_t>(room.neighbor[k])].doors[(k + 2) % 4] = true;
  }

  // RoomGrid.place_agent(i, j): place_agent in the room until the agent faces an empty
  // square or a wall.
  void PlaceAgent(World& w, int i, int j) {
    const Room& room = Get(i, j);
    while (true) {
      w.PlaceAgent(room.top, room.size, 1000);
      const Pos front = w.FrontPos();
      const Cell& cell = w.grid.Get(front.x, front.y);
      if (cell.Empty() || cell.type == kWall) break;
    }
  }

  // connect_all(): unlocked doors of random colors between random rooms until every room
  // is reachable from the agent's.
  void ConnectAll(World& w) {
    const int start = (w.agent_pos.y / (room_size_ - 1)) * num_cols_ +
                      w.agent_pos.x / (room_size_ - 1);
    while (Reach(start) < num_rows_ * num_cols_) {
      const int i = w.RandInt(0, num_cols_);
      const int j = w.RandInt(0, num_rows_);
      const int k = w.RandInt(0, 4);
      const Room& room = Get(i, j);
      const auto kk = static_cast<std::size_t>(k);
      if (room.door_pos[kk].x < 0 || room.doors[kk]) continue;
      if (room.locked || rooms_[static_cast<std::size_t>(room.neighbor[kk])].locked) continue;
      const Color color = w.RandColor();
      AddDoor(w, i, j, k, color, false);
    }
  }

 private:
  // reject_next_to: a square next to (or at) the agent's.
  static bool RejectNextTo(const World& w, Pos pos) {
    return std::abs(w.agent_pos.x - pos.x) + std::abs(w.agent_pos.y - pos.y) < 2;
  }

  // How many rooms the doors and openings join to room `start`.
  int Reach(int start) const {
    std::vector<bool> seen(rooms_.size(), false);
    std::vector<int> stack = {start};
    int count = 0;
    while (!stack.empty()) {
      const int r = stack.back();
      stack.pop_back();
      if (seen[static_cast<std::size_t>(r)]) continue;
      seen[static_cast<std::size_t>(r)] = true;
      ++count;
      const Room& room = rooms_[static_cast<std::size_t>(r)];
      for (std::size_t k = 0; k < 4; ++k) {
        if (room.doors[k]) stack.push_back(room.neighbor[k]);
      }
    }
    return count;
  }

  int room_size_;
  int num_rows_;
  int num_cols_;
  std::vector<Room> rooms_;
};

}  // namespace envpool::minigrid
