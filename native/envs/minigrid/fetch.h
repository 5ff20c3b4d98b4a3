// MiniGrid-Fetch-* (minigrid/envs/fetch.py): num_objs keys and balls in a room, one of them
// named in one of five phrasings; picking up anything ends the episode, a success if it is
// of the named type and color.
#pragma once

#include <string>
#include <vector>

#include "envs/minigrid/level.h"

namespace envpool::minigrid {

class FetchLevel final : public Level {
 public:
  explicit FetchLevel(const LevelParams& p) : num_objs_(p.num_objs) {}

  void Generate(World& w) override {
    static constexpr ObjType kTypes[2] = {kKey, kBall};
    static constexpr const char* kPhrasings[5] = {"get a ", "go get a ", "fetch a ",
                                                  "go fetch a ", "you must fetch a "};
    w.grid.WallRect(0, 0, w.grid.Width(), w.grid.Height());
    std::vector<Cell> objs;
    while (static_cast<int>(objs.size()) < num_objs_) {
      objs.push_back(RandObject(w, kTypes));
      w.PlaceObj(objs.back());
    }
    w.PlaceAgent();
    target_ = objs[static_cast<std::size_t>(w.RandInt(0, num_objs_))];
    w.mission = std::string(kPhrasings[w.RandInt(0, 5)]) + ColorName(target_.color) + " " +
                TypeName(target_.type);
  }

  World::StepResult Step(World& w, int action) override {
    World::StepResult r = w.Step(action);
    if (!w.carrying.Empty()) {
      r.reward = 0.0;
      r.terminated = true;
      if (w.carrying.color == target_.color && w.carrying.type == target_.type) Succeed(w, r);
    }
    return r;
  }

 private:
  int num_objs_;
  Cell target_;
};

}  // namespace envpool::minigrid
