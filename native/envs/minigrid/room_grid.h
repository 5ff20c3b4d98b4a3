// The package's RoomGrid (minigrid/core/roomgrid.py): num_rows x num_cols rooms of
// room_size squares (walls shared), a door position drawn in each inner wall, and the
// helpers its levels build with (add_object, add_door, remove_wall, place_agent,
// connect_all), drawing in the package's order.
#pragma once

#include <array>
#include <cstdlib>
#include <stdexcept>
#include <vector>

#include "envs/minigrid/level.h"

namespace envpool::minigrid {

// A level generation that failed where the package raises RecursionError (place_obj past
// its max_tries, connect_all past its max_itrs) or, in BabyAI, RejectSampling: the levels
// that retry (BabyAI's RoomGridLevel) catch it and generate again.
class GenerationFailed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class RoomGrid {
 public:
  struct Room {
    Pos top;
    Pos size;
    std::array<int, 4> neighbor = {-1, -1, -1, -1};  // index into rooms_, -1: none
    std::array<Pos, 4> door_pos;                      // {-1, -1}: None
    std::array<bool, 4> doors = {false, false, false, false};  // a door or an opening
    std::array<bool, 4> opening = {false, false, false, false};  // remove_wall's True
    bool locked = false;
    std::vector<Cell> objs;  // Room.objs: the objects place_in_room put there

    // Room.pos_inside.
    bool PosInside(int x, int y) const {
      return x >= top.x && y >= top.y && x < top.x + size.x && y < top.y + size.y;
    }
  };

  RoomGrid(int room_size, int num_rows, int num_cols)
      : room_size_(room_size), num_rows_(num_rows), num_cols_(num_cols) {}

  static Pos GridSize(int room_size, int num_rows, int num_cols) {
    return {(room_size - 1) * num_cols + 1, (room_size - 1) * num_rows + 1};
  }

  Room& Get(int i, int j) { return rooms_[static_cast<std::size_t>(j * num_cols_ + i)]; }
  const Room& Get(int i, int j) const {
    return rooms_[static_cast<std::size_t>(j * num_cols_ + i)];
  }
  int RoomSize() const { return room_size_; }
  int NumRows() const { return num_rows_; }
  int NumCols() const { return num_cols_; }
  // room_from_pos(x, y): the room index (j * num_cols + i) of a square.
  int RoomIndexFromPos(Pos p) const {
    return (p.y / (room_size_ - 1)) * num_cols_ + p.x / (room_size_ - 1);
  }
  const Room& RoomFromPos(Pos p) const {
    return rooms_[static_cast<std::size_t>(RoomIndexFromPos(p))];
  }

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

  // place_in_room(i, j, obj): a random square of room (i, j), not next to the agent
  // (GenerationFailed past 1000 tries).
  Pos PlaceInRoom(World& w, int i, int j, const Cell& obj) {
    Room& room = Get(i, j);
    const Pos pos = w.PlaceObj(obj, room.top, room.size, 1000, &RejectNextTo);
    if (pos.x < 0) throw GenerationFailed("rejection sampling failed in place_obj");
    room.objs.push_back(obj);
    return pos;
  }

  // add_door(i, j, door_idx, color, locked) (negative door_idx / color / locked: None,
  // drawn). Returns the door's square.
  Pos AddDoor(World& w, int i, int j, int door_idx, int color, int locked) {
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
    if (locked < 0) locked = w.RandBool() ? 1 : 0;
    const auto k = static_cast<std::size_t>(door_idx);
    room.locked = locked != 0;
    const Pos pos = room.door_pos[k];
    w.grid.Set(pos.x, pos.y, Cell::Door(c, false, locked != 0));
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
    room.opening[k] = true;
    Room& neighbor = rooms_[static_cast<std::size_t>(room.neighbor[k])];
    neighbor.doors[(k + 2) % 4] = true;
    neighbor.opening[(k + 2) % 4] = true;
  }

  // RoomGrid.place_agent(i, j): place_agent in the room until the agent faces an empty
  // square or a wall (negative i / j: None, drawn).
  void PlaceAgent(World& w, int i, int j) {
    if (i < 0) i = w.RandInt(0, num_cols_);
    if (j < 0) j = w.RandInt(0, num_rows_);
    const Room& room = Get(i, j);
    while (true) {
      w.PlaceAgent(room.top, room.size, 1000);
      if (w.agent_pos.x < 0) throw GenerationFailed("rejection sampling failed in place_obj");
      const Pos front = w.FrontPos();
      const Cell& cell = w.grid.Get(front.x, front.y);
      if (cell.Empty() || cell.type == kWall) break;
    }
  }

  // connect_all(door_colors, max_itrs=5000): unlocked doors of random colors (drawn from
  // door_colors, COLOR_NAMES when empty) between random rooms until every room is reachable
  // from the agent's; GenerationFailed past max_itrs.
  void ConnectAll(World& w, const std::vector<Color>& door_colors = {}) {
    const int start = RoomIndexFromPos(w.agent_pos);
    int num_itrs = 0;
    while (true) {
      if (num_itrs > 5000) throw GenerationFailed("connect_all failed");
      ++num_itrs;
      if (Reach(start) == num_rows_ * num_cols_) break;
      const int i = w.RandInt(0, num_cols_);
      const int j = w.RandInt(0, num_rows_);
      const int k = w.RandInt(0, 4);
      const Room& room = Get(i, j);
      const auto kk = static_cast<std::size_t>(k);
      if (room.door_pos[kk].x < 0 || room.doors[kk]) continue;
      if (room.locked || rooms_[static_cast<std::size_t>(room.neighbor[kk])].locked) continue;
      const Color color =
          door_colors.empty()
              ? w.RandColor()
              : door_colors[static_cast<std::size_t>(
                    w.RandInt(0, static_cast<int>(door_colors.size())))];
      AddDoor(w, i, j, k, color, 0);
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
