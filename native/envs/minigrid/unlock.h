// MiniGrid-Unlock-v0, MiniGrid-UnlockPickup-v0 and MiniGrid-BlockedUnlockPickup-v0
// (minigrid/envs/unlock.py, unlockpickup.py, blockedunlockpickup.py): two 6x6 rooms
// (RoomGrid) joined by a locked door whose key lies in the agent's room. Unlock: opening
// the door is the success; (Blocked)UnlockPickup: picking up the box behind it (a ball
// blocks the door in BlockedUnlockPickup).
#pragma once

#include <string>

#include "envs/minigrid/level.h"
#include "envs/minigrid/room_grid.h"

namespace envpool::minigrid {

class UnlockLevel final : public Level {
 public:
  // Which of the three: "unlock", "unlock_pickup" or "blocked_unlock_pickup".
  explicit UnlockLevel(const LevelParams& p)
      : pickup_(p.env_name != "unlock"), blocked_(p.env_name == "blocked_unlock_pickup") {}

  static Pos GridSize() { return RoomGrid::GridSize(6, 1, 2); }

  void Generate(World& w) override {
    rooms_.Generate(w);
    Cell box;
    if (pickup_) {
      const Pos pos = rooms_.AddObject(w, 1, 0, kBox, -1, kTarget);
      box = w.grid.Get(pos.x, pos.y);
    }
    door_ = rooms_.AddDoor(w, 0, 0, 0, -1, true);
    const Color door_color = w.grid.Get(door_.x, door_.y).color;
    if (blocked_) w.grid.Set(door_.x - 1, door_.y, Cell::Make(kBall, w.RandColor()));
    rooms_.AddObject(w, 0, 0, kKey, door_color);
    rooms_.PlaceAgent(w, 0, 0);
    w.mission = pickup_ ? std::string("pick up the ") + ColorName(box.color) + " box"
                        : std::string("open the door");
  }

  World::StepResult Step(World& w, int action) override {
    World::StepResult r = w.Step(action);
    if (pickup_ ? PickedUpTarget(w, action)
                : action == kToggle && w.grid.Get(door_.x, door_.y).is_open) {
      Succeed(w, r);
    }
    return r;
  }

 private:
  bool pickup_;
  bool blocked_;
  RoomGrid rooms_{6, 1, 2};
  Pos door_;
};

}  // namespace envpool::minigrid
