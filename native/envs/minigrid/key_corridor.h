// MiniGrid-KeyCorridorS*R* (minigrid/envs/keycorridor.py): a corridor of num_rows rooms
// (the middle column of a 3-column RoomGrid), a locked room on its right holding the
// object to pick up, the key in a room on its left, the other rooms joined by random doors.
#pragma once

#include <string>

#include "envs/minigrid/level.h"
#include "envs/minigrid/room_grid.h"

namespace envpool::minigrid {

class KeyCorridorLevel final : public Level {
 public:
  explicit KeyCorridorLevel(const LevelParams& p)
      : num_rows_(p.num_rows),
        obj_type_(p.obj_type == "key" ? kKey : p.obj_type == "box" ? kBox : kBall),
        rooms_(p.room_size, p.num_rows, 3) {}

  static Pos GridSize(const LevelParams& p) {
    return RoomGrid::GridSize(p.room_size, p.num_rows, 3);
  }

  void Generate(World& w) override {
    rooms_.Generate(w);
    for (int j = 1; j < num_rows_; ++j) rooms_.RemoveWall(w, 1, j, 3);
    const int room = w.RandInt(0, num_rows_);
    const Pos door = rooms_.AddDoor(w, 2, room, 2, -1, true);
    const Pos obj = rooms_.AddObject(w, 2, room, obj_type_, -1, kTarget);
    const Color obj_color = w.grid.Get(obj.x, obj.y).color;
    rooms_.AddObject(w, 0, w.RandInt(0, num_rows_), kKey, w.grid.Get(door.x, door.y).color);
    rooms_.PlaceAgent(w, 1, num_rows_ / 2);
    rooms_.ConnectAll(w);
    w.mission = std::string("pick up the ") + ColorName(obj_color) + " " + TypeName(obj_type_);
  }

  World::StepResult Step(World& w, int action) override {
    World::StepResult r = w.Step(action);
    if (PickedUpTarget(w, action)) Succeed(w, r);
    return r;
  }

 private:
  int num_rows_;
  ObjType obj_type_;
  RoomGrid rooms_;
};

}  // namespace envpool::minigrid
