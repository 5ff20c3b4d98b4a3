// MiniGrid-ObstructedMaze-* (minigrid/envs/obstructedmaze.py, obstructedmaze_v1.py): a blue
// ball to pick up behind locked doors (RoomGrid, 6x6 rooms), their keys perhaps hidden in
// grey boxes (key_in_box), the doors perhaps blocked by green balls (blocked). 1Dl*: two
// rooms; 2D*, 1Q, 2Q, Full: the 3x3 maze with num_quarters of its corners, the v1 ids adding
// every door before the keys.
#pragma once

#include <vector>

#include "envs/minigrid/level.h"
#include "envs/minigrid/room_grid.h"

namespace envpool::minigrid {

class ObstructedMazeLevel final : public Level {
 public:
  explicit ObstructedMazeLevel(const LevelParams& p)
      : two_rooms_(p.env_name == "obstructed_maze_1dlhb"),
        v1_(p.env_name == "obstructed_maze_full_v1"),
        key_in_box_(p.key_in_box),
        blocked_(p.blocked),
        agent_room_{static_cast<int>(p.agent_room.first), static_cast<int>(p.agent_room.second)},
        num_quarters_(p.num_quarters),
        rooms_(6, two_rooms_ ? 1 : 3, two_rooms_ ? 2 : 3) {}

  static Pos GridSize(const LevelParams& p) {
    return p.env_name == "obstructed_maze_1dlhb" ? RoomGrid::GridSize(6, 1, 2)
                                                 : RoomGrid::GridSize(6, 3, 3);
  }

  void Generate(World& w) override {
    rooms_.Generate(w);
    // _rand_subset(COLOR_NAMES, 6): the door colors in a random order.
    std::vector<Color> left(kColorNames.begin(), kColorNames.end());
    door_colors_.clear();
    while (!left.empty()) {
      const auto k = static_cast<std::size_t>(w.RandInt(0, static_cast<int>(left.size())));
      door_colors_.push_back(left[k]);
      left.erase(left.begin() + static_cast<std::ptrdiff_t>(k));
    }
    if (two_rooms_) {
      AddDoor(w, 0, 0, 0, door_colors_[0], true, key_in_box_, blocked_);
      rooms_.AddObject(w, 1, 0, kBall, kBlue, kTarget);
      rooms_.PlaceAgent(w, 0, 0);
    } else {
      static constexpr Pos kSides[4] = {{2, 1}, {1, 2}, {0, 1}, {1, 0}};
      static constexpr Pos kCorners[4] = {{2, 0}, {2, 2}, {0, 2}, {0, 0}};
      for (int i = 0; i < num_quarters_; ++i) {
        const Pos side = kSides[i];
        AddDoor(w, 1, 1, i, DoorColor(i), false, false, false);
        // Python's (i + k) % 4 and (i + k) % 6: the door and its color, -1 wrapping.
        for (int k : {-1, 1}) {
          AddDoor(w, side.x, side.y, (i + k + 4) % 4, DoorColor(i + k), true, key_in_box_,
                  blocked_, /*with_key=*/!v1_);
        }
        if (v1_) {
          for (int k : {-1, 1}) PlaceKey(w, side.x, side.y, DoorColor(i + k), key_in_box_);
        }
      }
      const Pos ball_room = kCorners[w.RandInt(0, num_quarters_)];
      rooms_.AddObject(w, ball_room.x, ball_room.y, kBall, kBlue, kTarget);
      rooms_.PlaceAgent(w, agent_room_.x, agent_room_.y);
    }
    w.mission = "pick up the blue ball";
  }

  World::StepResult Step(World& w, int action) override {
    World::StepResult r = w.Step(action);
    if (PickedUpTarget(w, action)) Succeed(w, r);
    return r;
  }

 private:
  // ObstructedMazeEnv.add_door: RoomGrid's door; a green ball in front of it (blocked); its
  // key (with_key and locked), in a grey box (key_in_box), in the room.
  void AddDoor(World& w, int i, int j, int door_idx, Color color, bool locked, bool key_in_box,
               bool blocked, bool with_key = true) {
    const Pos pos = rooms_.AddDoor(w, i, j, door_idx, color, locked);
    if (blocked) {
      const Pos vec = DirVec(door_idx);
      w.grid.Set(pos.x - vec.x, pos.y - vec.y, Cell::Make(kBall, kGreen));
    }
    if (locked && with_key) PlaceKey(w, i, j, color, key_in_box);
  }

  Color DoorColor(int n) const { return door_colors_[static_cast<std::size_t>((n + 6) % 6)]; }

  // add_key: the key of `color` (in a grey box with key_in_box) in room (i, j).
  void PlaceKey(World& w, int i, int j, Color color, bool key_in_box) {
    Cell obj = Cell::Make(kKey, color);
    if (key_in_box) {
      obj = Cell::Make(kBox, kGrey);
      obj.contains_type = kKey;
      obj.contains_color = color;
    }
    rooms_.PlaceInRoom(w, i, j, obj);
  }

  bool two_rooms_;
  bool v1_;
  bool key_in_box_;
  bool blocked_;
  Pos agent_room_;
  int num_quarters_;
  RoomGrid rooms_;
  std::vector<Color> door_colors_;
};

}  // namespace envpool::minigrid
