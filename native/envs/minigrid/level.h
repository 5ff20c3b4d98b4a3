// A MiniGrid level: its keywords, its grid generator (the package's _gen_grid) and, for the
// levels that override MiniGridEnv.step, its step.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "envs/minigrid/world.h"

namespace envpool::minigrid {

// The keywords of the native env "MiniGrid" (sail-sg EnvPool's names); each level reads
// the ones its package class takes.
struct LevelParams {
  std::string env_name;      // the level: "empty", "doorkey", ...
  int size;                  // grid_size (RedBlueDoors: the room's size)
  int width;                 // DistShift's width and height
  int height;
  int max_steps;
  int agent_view_size;
  bool see_through_walls;
  std::pair<double, double> agent_start_pos;  // (-1, -1): None, a random start
  int agent_start_dir;
  int num_crossings;         // Crossing
  std::string obstacle_type;  // Crossing, LavaGap: "lava" or "wall"
  int strip2_row;            // DistShift
  int n_obstacles;           // Dynamic-Obstacles
  int room_size;             // KeyCorridor
  int num_rows;              // KeyCorridor
  std::string obj_type;      // KeyCorridor: "ball", "key" or "box"
  int num_objs;              // Fetch, GoToObject, PutNear
  int min_num_rooms;         // MultiRoom
  int max_num_rooms;         // MultiRoom
  int max_room_size;         // MultiRoom
  bool random_length;        // Memory
  bool key_in_box;           // ObstructedMaze
  bool blocked;              // ObstructedMaze
  std::pair<double, double> agent_room;  // ObstructedMaze
  int num_quarters;          // ObstructedMaze
  int num_rooms_visited;     // ObstructedMaze (its max_steps only)
  // BabyAI (babyai_levels.h): the package classes' arguments of the same names.
  int num_cols;
  int num_dists;
  bool doors_open;
  bool debug;
  std::string select_by;     // "", "color" or "loc" (OpenDoor)
  std::string first_color;   // "": None (OpenTwoDoors)
  std::string second_color;
  int num_doors;             // OpenDoorsOrder
  int objs_per_room;         // PutNext, MoveTwoAcross
  bool start_carrying;       // PutNext
  bool distractors;          // UnlockLocal, UnlockPickup
  // WFC (wfc.h): the preset's name, whether to keep only the largest navigable area, and
  // the pattern set envpool/tasks/minigrid.py cuts from the preset's template.
  std::string wfc_config;
  bool ensure_connected;
  std::vector<double> wfc_patterns;
};

class Level {
 public:
  Level() = default;
  Level(const Level&) = delete;
  Level& operator=(const Level&) = delete;
  virtual ~Level() = default;

  // _gen_grid(width, height): the grid, the agent and the mission, drawing from w.rng.
  virtual void Generate(World& w) = 0;
  // step(action), for the levels whose package class overrides it.
  virtual World::StepResult Step(World& w, int action) { return w.Step(action); }
  // Whether the level's reset() changes the world after making the observation it returns
  // (PutNext's start_carrying), and that change (FinishReset).
  virtual bool ChangesAfterObservation() const { return false; }
  virtual void FinishReset(World& /*w*/) {}
};

// The tag (Cell::tag) of the object a level asks the agent to pick up.
inline constexpr std::uint8_t kTarget = 1;

// A step that reached the level's goal: the package's _reward(), and the episode ends.
inline void Succeed(const World& w, World::StepResult& r) {
  r.reward = w.SuccessReward();
  r.terminated = true;
}

// Whether `action` picked up the target (`action == pickup and self.carrying == self.obj`).
inline bool PickedUpTarget(const World& w, int action) {
  return action == kPickup && w.carrying.tag == kTarget;
}

// _rand_elem(types) then _rand_elem(COLOR_NAMES): a random object of one of the types.
template <std::size_t N>
inline Cell RandObject(World& w, const ObjType (&types)[N]) {
  const ObjType type = types[w.RandInt(0, static_cast<int>(N))];
  return Cell::Make(type, w.RandColor());
}

// GoToDoor's and GoToObject's step: `done` ends the episode, a success next to (side by
// side with) the target's square; `toggle` ends it too.
inline World::StepResult StepGoTo(World& w, int action, Pos target) {
  World::StepResult r = w.Step(action);
  if (action == kToggle) r.terminated = true;
  if (action == kDone) {
    const Pos a = w.agent_pos;
    if ((a.x == target.x && std::abs(a.y - target.y) == 1) ||
        (a.y == target.y && std::abs(a.x - target.x) == 1)) {
      Succeed(w, r);
    }
    r.terminated = true;
  }
  return r;
}

// FourRooms' and Playground's rooms: the outer walls and an n x n grid of rooms, each wall
// between two rooms drawn then given its passage by `vertical(x, y_top, y_bottom)` or
// `horizontal(x_left, x_right, y)` (which draw its square), in the package's order.
template <class Vertical, class Horizontal>
inline void RoomsOfSquareGrid(World& w, int n, Vertical vertical, Horizontal horizontal) {
  const int width = w.grid.Width();
  const int height = w.grid.Height();
  w.grid.WallRect(0, 0, width, height);
  const int room_w = width / n;
  const int room_h = height / n;
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      const int x_l = i * room_w;
      const int y_t = j * room_h;
      if (i + 1 < n) {
        w.grid.VertWall(x_l + room_w, y_t, room_h);
        vertical(x_l + room_w, y_t, y_t + room_h);
      }
      if (j + 1 < n) {
        w.grid.HorzWall(x_l, y_t + room_h, room_w);
        horizontal(x_l, x_l + room_w, y_t + room_h);
      }
    }
  }
}

// A level whose agent starts at agent_start_pos facing agent_start_dir, or at a random
// square and direction (place_agent) when agent_start_pos is None ((-1, -1) here).
class StartLevel : public Level {
 protected:
  explicit StartLevel(const LevelParams& p)
      : start_{static_cast<int>(p.agent_start_pos.first),
               static_cast<int>(p.agent_start_pos.second)},
        start_dir_(p.agent_start_dir) {}

  void PlaceStart(World& w) const {
    if (start_.x >= 0) {
      w.agent_pos = start_;
      w.agent_dir = start_dir_;
    } else {
      w.PlaceAgent();
    }
  }

 private:
  Pos start_;
  int start_dir_;
};

// The outer walls and the goal in the bottom right corner (Empty, DoorKey, ...).
inline void WallsAndGoal(World& w) {
  const int width = w.grid.Width();
  const int height = w.grid.Height();
  w.grid.WallRect(0, 0, width, height);
  w.grid.Set(width - 2, height - 2, Cell::Goal());
}

// The start of LavaGap's and Crossing's _gen_grid: WallsAndGoal, the agent in the top left
// corner facing right.
inline void CornerToCorner(World& w) {
  WallsAndGoal(w);
  w.agent_pos = {1, 1};
  w.agent_dir = 0;
}

// LavaGap's and Crossing's mission for a lava or a wall obstacle.
inline const char* ObstacleMission(bool lava) {
  return lava ? "avoid the lava and get to the green goal square"
              : "find the opening and get to the green goal square";
}

}  // namespace envpool::minigrid
