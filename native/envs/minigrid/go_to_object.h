// MiniGrid-GoToObject-* (minigrid/envs/gotoobject.py): num_objs distinct objects (keys,
// balls, boxes) in a room; `done` next to the named one is the success, `done` elsewhere or
// `toggle` ends the episode.
#pragma once

#include <cstdlib>
#include <string>
#include <vector>

#include "envs/minigrid/level.h"

namespace envpool::minigrid {

// GoToObject and PutNear: the walls, num_objs objects of distinct (type, color) placed at
// random (PutNear: none next to another, `apart`), then the agent; the objects' cells and
// squares kept in objs_ and positions_.
class DistinctObjectsLevel : public Level {
 protected:
  DistinctObjectsLevel(const LevelParams& p, bool apart) : num_objs_(p.num_objs), apart_(apart) {}

  void PlaceObjectsAndAgent(World& w) {
    static constexpr ObjType kTypes[3] = {kKey, kBall, kBox};
    w.grid.WallRect(0, 0, w.grid.Width(), w.grid.Height());
    objs_.clear();
    positions_.clear();
    while (static_cast<int>(objs_.size()) < num_objs_) {
      const Cell obj = RandObject(w, kTypes);
      bool seen = false;
      for (const Cell& o : objs_) seen = seen || (o.type == obj.type && o.color == obj.color);
      if (seen) continue;
      World::RejectFn near = nullptr;
      if (apart_) {
        near = [this](const World&, Pos p) {
          for (const Pos& q : positions_) {
            if (std::abs(p.x - q.x) <= 1 && std::abs(p.y - q.y) <= 1) return true;
          }
          return false;
        };
      }
      positions_.push_back(w.PlaceObj(obj, {0, 0}, {-1, -1}, -1, near));
      objs_.push_back(obj);
    }
    w.PlaceAgent();
  }

  int num_objs_;
  bool apart_;
  std::vector<Cell> objs_;
  std::vector<Pos> positions_;
};

class GoToObjectLevel final : public DistinctObjectsLevel {
 public:
  explicit GoToObjectLevel(const LevelParams& p) : DistinctObjectsLevel(p, false) {}

  void Generate(World& w) override {
    PlaceObjectsAndAgent(w);
    const auto target = static_cast<std::size_t>(w.RandInt(0, num_objs_));
    target_ = positions_[target];
    w.mission = std::string("go to the ") + ColorName(objs_[target].color) + " " +
                TypeName(objs_[target].type);
  }

  World::StepResult Step(World& w, int action) override { return StepGoTo(w, action, target_); }

 private:
  Pos target_;
};

}  // namespace envpool::minigrid
