// MiniGrid-PutNear-* (minigrid/envs/putnear.py): num_objs distinct objects, none next to
// another; the mission names one to move and one to put it near. Picking up another object
// ends the episode; dropping the carried one ends it, a success if it lands within one
// square (diagonals included) of the target's first square.
#pragma once

#include <cstdlib>
#include <string>
#include <vector>

#include "envs/minigrid/go_to_object.h"
#include "envs/minigrid/level.h"

namespace envpool::minigrid {

class PutNearLevel final : public DistinctObjectsLevel {
 public:
  explicit PutNearLevel(const LevelParams& p) : DistinctObjectsLevel(p, true) {}

  void Generate(World& w) override {
    PlaceObjectsAndAgent(w);
    const int move = w.RandInt(0, num_objs_);
    int target = 0;
    do {
      target = w.RandInt(0, num_objs_);
    } while (target == move);
    move_ = objs_[static_cast<std::size_t>(move)];
    const Cell& t = objs_[static_cast<std::size_t>(target)];
    target_pos_ = positions_[static_cast<std::size_t>(target)];
    w.mission = std::string("put the ") + ColorName(move_.color) + " " + TypeName(move_.type) +
                " near the " + ColorName(t.color) + " " + TypeName(t.type);
  }

  World::StepResult Step(World& w, int action) override {
    const bool was_carrying = !w.carrying.Empty();
    World::StepResult r = w.Step(action);
    const Pos front = w.FrontPos();
    if (action == kPickup && !w.carrying.Empty() &&
        (w.carrying.type != move_.type || w.carrying.color != move_.color)) {
      r.terminated = true;
    }
    if (action == kDrop && was_carrying) {
      // Dropped (the carried object is now in front) near the target's first square.
      if (w.carrying.Empty() && std::abs(front.x - target_pos_.x) <= 1 &&
          std::abs(front.y - target_pos_.y) <= 1) {
        Succeed(w, r);
      }
      r.terminated = true;
    }
    return r;
  }

 private:
  Cell move_;
  Pos target_pos_;
};

}  // namespace envpool::minigrid
