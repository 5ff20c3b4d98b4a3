// MiniGrid-LavaCrossing* / SimpleCrossing* (minigrid/envs/crossing.py): num_crossings
// rivers of lava (or walls) across the room, shuffled from the even rows and columns, and
// one opening per river on a random path from the agent (top left) to the goal.
#pragma once

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "envs/minigrid/level.h"

namespace envpool::minigrid {

class CrossingLevel final : public Level {
 public:
  explicit CrossingLevel(const LevelParams& p)
      : num_crossings_(p.num_crossings), lava_(p.obstacle_type == "lava") {}

  void Generate(World& w) override {
    CornerToCorner(w);
    const int width = w.grid.Width();
    const int height = w.grid.Height();
    // (vertical?, position) of every candidate river, shuffled; the first num_crossings.
    std::vector<std::pair<bool, int>> rivers;
    for (int i = 2; i < height - 2; i += 2) rivers.emplace_back(true, i);
    for (int j = 2; j < width - 2; j += 2) rivers.emplace_back(false, j);
    w.rng->Shuffle(rivers);
    rivers.resize(std::min(rivers.size(), static_cast<std::size_t>(num_crossings_)));
    std::vector<int> rivers_v;
    std::vector<int> rivers_h;
    for (const auto& [vertical, pos] : rivers) (vertical ? rivers_v : rivers_h).push_back(pos);
    std::sort(rivers_v.begin(), rivers_v.end());
    std::sort(rivers_h.begin(), rivers_h.end());
    const Cell obstacle = lava_ ? Cell::Lava() : Cell::Wall();
    for (int i = 1; i < width - 1; ++i) {
      for (int j : rivers_h) w.grid.Set(i, j, obstacle);
    }
    for (int i : rivers_v) {
      for (int j = 1; j < height - 1; ++j) w.grid.Set(i, j, obstacle);
    }
    // The path: one horizontal step per vertical river and one vertical step per
    // horizontal river, in a random order (true: horizontal).
    std::vector<char> path(rivers_v.size(), 1);
    path.insert(path.end(), rivers_h.size(), 0);
    w.rng->Shuffle(path);
    std::vector<int> limits_v = {0};
    limits_v.insert(limits_v.end(), rivers_v.begin(), rivers_v.end());
    limits_v.push_back(height - 1);
    std::vector<int> limits_h = {0};
    limits_h.insert(limits_h.end(), rivers_h.begin(), rivers_h.end());
    limits_h.push_back(width - 1);
    std::size_t room_i = 0;
    std::size_t room_j = 0;
    for (char horizontal : path) {
      int i = 0;
      int j = 0;
      if (horizontal) {
        i = limits_v[room_i + 1];
        j = Choice(w, limits_h[room_j] + 1, limits_h[room_j + 1]);
        ++room_i;
      } else {
        i = Choice(w, limits_v[room_i] + 1, limits_v[room_i + 1]);
        j = limits_h[room_j + 1];
        ++room_j;
      }
      w.grid.Clear(i, j);
    }
    w.mission = ObstacleMission(lava_);
  }

 private:
  // np_random.choice(range(low, high)): integers(0, len) into the range.
  static int Choice(World& w, int low, int high) {
    return low + static_cast<int>(w.rng->Integers(0, high - low));
  }

  int num_crossings_;
  bool lava_;
};

}  // namespace envpool::minigrid
