// MiniGrid's grid world (the `minigrid` package 3.2.0: core/grid.py, core/world_object.py,
// minigrid_env.py), restated in C++: the objects, the grid, the agent, the seven actions of
// MiniGridEnv.step, the placement helpers the level generators draw with (place_obj,
// place_agent) and the agent's partial view, encoded as obs["image"].
//
// Objects are values (a Cell per grid square; kEmpty is Python's None), so the grid copies
// and moves them where the package moves references; nothing in the levels here keeps a
// reference that could tell the two apart (Dynamic-Obstacles keeps its balls' positions).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "envs/common/numpy_random.h"

namespace envpool::minigrid {

// OBJECT_TO_IDX.
enum ObjType : std::uint8_t {
  kUnseen = 0,
  kEmpty = 1,
  kWall = 2,
  kFloor = 3,
  kDoor = 4,
  kKey = 5,
  kBall = 6,
  kBox = 7,
  kGoal = 8,
  kLava = 9,
  kAgent = 10,
};

// COLOR_TO_IDX.
enum Color : std::uint8_t { kRed = 0, kGreen = 1, kBlue = 2, kPurple = 3, kYellow = 4, kGrey = 5 };

// COLOR_NAMES: sorted(COLORS), the order _rand_color and _rand_elem(COLOR_NAMES) index.
inline constexpr std::array<Color, 6> kColorNames = {kBlue, kGreen, kGrey, kPurple, kRed, kYellow};

// IDX_TO_COLOR and IDX_TO_OBJECT's names, as missions spell them.
inline const char* ColorName(Color c) {
  static constexpr const char* kNames[6] = {"red", "green", "blue", "purple", "yellow", "grey"};
  return kNames[c];
}
inline const char* TypeName(ObjType t) {
  static constexpr const char* kNames[11] = {"unseen", "empty", "wall", "floor", "door", "key",
                                             "ball",   "box",   "goal", "lava",  "agent"};
  return kNames[t];
}

// The seven actions (core/actions.py).
enum Action : std::int32_t {
  kLeft = 0,
  kRight = 1,
  kForward = 2,
  kPickup = 3,
  kDrop = 4,
  kToggle = 5,
  kDone = 6,
};

// One grid square, or one object: type kEmpty is no object.
struct Cell {
  ObjType type = kEmpty;
  Color color = kRed;
  bool is_open = false;    // doors
  bool is_locked = false;  // doors
  // A box's content (type kEmpty: none), one level deep.
  ObjType contains_type = kEmpty;
  Color contains_color = kRed;
  // Which object this is, where a level asks (the package compares objects by identity:
  // `self.carrying == self.obj`); 0 for the others. Not observed.
  std::uint8_t tag = 0;

  static Cell Make(ObjType type, Color color) {
    Cell c;
    c.type = type;
    c.color = color;
    return c;
  }
  static Cell Wall() { return Make(kWall, kGrey); }
  static Cell Goal() { return Make(kGoal, kGreen); }
  static Cell Lava() { return Make(kLava, kRed); }
  static Cell Door(Color color, bool is_open = false, bool is_locked = false) {
    Cell c = Make(kDoor, color);
    c.is_open = is_open;
    c.is_locked = is_locked;
    return c;
  }

  bool Empty() const { return type == kEmpty; }
  bool CanOverlap() const {
    return type == kGoal || type == kFloor || type == kLava || (type == kDoor && is_open);
  }
  bool CanPickup() const { return type == kKey || type == kBall || type == kBox; }
  bool SeeBehind() const { return !(type == kWall || (type == kDoor && !is_open)); }
  // WorldObj.encode (an empty square: (1, 0, 0)).
  std::array<std::uint8_t, 3> Encode() const {
    if (type == kEmpty) return {kEmpty, 0, 0};
    std::uint8_t state = 0;
    if (type == kDoor) state = is_open ? 0 : (is_locked ? 2 : 1);
    return {type, color, state};
  }
};

struct Pos {
  int x = -1;
  int y = -1;
  bool operator==(const Pos& o) const { return x == o.x && y == o.y; }
  bool operator!=(const Pos& o) const { return !(*this == o); }
};

// DIR_TO_VEC.
inline Pos DirVec(int dir) {
  static constexpr int kDx[4] = {1, 0, -1, 0};
  static constexpr int kDy[4] = {0, 1, 0, -1};
  return {kDx[dir], kDy[dir]};
}

// Grid: width x height cells, stored as the package stores them (j * width + i).
class Grid {
 public:
  Grid() = default;
  Grid(int width, int height)
      : width_(width), height_(height), cells_(static_cast<std::size_t>(width * height)) {}

  int Width() const { return width_; }
  int Height() const { return height_; }
  const Cell& Get(int i, int j) const { return cells_[static_cast<std::size_t>(j * width_ + i)]; }
  Cell& At(int i, int j) { return cells_[static_cast<std::size_t>(j * width_ + i)]; }
  void Set(int i, int j, const Cell& c) { At(i, j) = c; }
  void Clear(int i, int j) { At(i, j) = Cell(); }

  void HorzWall(int x, int y, int length = -1, const Cell& obj = Cell::Wall()) {
    if (length < 0) length = width_ - x;
    for (int i = 0; i < length; ++i) Set(x + i, y, obj);
  }
  void VertWall(int x, int y, int length = -1, const Cell& obj = Cell::Wall()) {
    if (length < 0) length = height_ - y;
    for (int j = 0; j < length; ++j) Set(x, y + j, obj);
  }
  void WallRect(int x, int y, int w, int h) {
    HorzWall(x, y, w);
    HorzWall(x, y + h - 1, w);
    VertWall(x, y, h);
    VertWall(x + w - 1, y, h);
  }

 private:
  int width_ = 0;
  int height_ = 0;
  std::vector<Cell> cells_;
};

// The state every level shares (MiniGridEnv's attributes) and the package's helpers.
struct World {
  Grid grid;
  Pos agent_pos;
  int agent_dir = -1;
  Cell carrying;  // kEmpty: nothing
  int step_count = 0;
  int max_steps = 100;
  int agent_view_size = 7;
  bool see_through_walls = false;
  std::string mission;
  NumpyGenerator* rng = nullptr;  // the env's self.np_random

  // _rand_int(low, high): np_random.integers(low, high).
  int RandInt(int low, int high) { return static_cast<int>(rng->Integers(low, high)); }
  // _rand_bool.
  bool RandBool() { return rng->Integers(0, 2) == 0; }
  // _rand_color.
  Color RandColor() { return kColorNames[static_cast<std::size_t>(RandInt(0, 6))]; }

  using RejectFn = std::function<bool(const World&, Pos)>;

  // place_obj(obj, top, size, reject_fn, max_tries): rejection sampling of an empty square
  // that is not the agent's (nor rejected by reject_fn), in the rectangle top + size
  // clipped to the grid. Returns the square, or {-1, -1} once more than max_tries draws
  // failed (where the package raises; a negative max_tries is math.inf).
  Pos PlaceObj(const Cell* obj, Pos top = {0, 0}, Pos size = {-1, -1}, int max_tries = -1,
               const RejectFn& reject = nullptr) {
    top = {std::max(top.x, 0), std::max(top.y, 0)};
    if (size.x < 0) size = {grid.Width(), grid.Height()};
    int num_tries = 0;
    Pos pos;
    while (true) {
      if (max_tries >= 0 && num_tries > max_tries) return {-1, -1};
      ++num_tries;
      pos.x = RandInt(top.x, std::min(top.x + size.x, grid.Width()));
      pos.y = RandInt(top.y, std::min(top.y + size.y, grid.Height()));
      if (!grid.Get(pos.x, pos.y).Empty()) continue;
      if (pos == agent_pos) continue;
      if (reject != nullptr && reject(*this, pos)) continue;
      break;
    }
    grid.Set(pos.x, pos.y, obj == nullptr ? Cell() : *obj);
    return pos;
  }
  Pos PlaceObj(const Cell& obj, Pos top = {0, 0}, Pos size = {-1, -1}, int max_tries = -1,
               const RejectFn& reject = nullptr) {
    return PlaceObj(&obj, top, size, max_tries, reject);
  }

  // place_agent(top, size, rand_dir=True, max_tries).
  Pos PlaceAgent(Pos top = {0, 0}, Pos size = {-1, -1}, int max_tries = -1) {
    agent_pos = {-1, -1};
    agent_pos = PlaceObj(nullptr, top, size, max_tries);
    agent_dir = RandInt(0, 4);
    return agent_pos;
  }

  Pos FrontPos() const {
    const Pos d = DirVec(agent_dir);
    return {agent_pos.x + d.x, agent_pos.y + d.y};
  }

  // _reward(): 1 - 0.9 * (step_count / max_steps), in float64 as Python computes it.
  double SuccessReward() const {
    return 1.0 - 0.9 * (static_cast<double>(step_count) / static_cast<double>(max_steps));
  }

  struct StepResult {
    double reward = 0.0;
    bool terminated = false;
    bool truncated = false;
  };

  // MiniGridEnv.step (without gen_obs).
  StepResult Step(int action) {
    ++step_count;
    StepResult r;
    const Pos fwd = FrontPos();
    Cell& fwd_cell = grid.At(fwd.x, fwd.y);
    switch (action) {
      case kLeft:
        agent_dir -= 1;
        if (agent_dir < 0) agent_dir += 4;
        break;
      case kRight:
        agent_dir = (agent_dir + 1) % 4;
        break;
      case kForward: {
        const ObjType type = fwd_cell.type;
        if (fwd_cell.Empty() || fwd_cell.CanOverlap()) agent_pos = fwd;
        if (type == kGoal) {
          r.terminated = true;
          r.reward = SuccessReward();
        }
        if (type == kLava) r.terminated = true;
        break;
      }
      case kPickup:
        if (fwd_cell.CanPickup() && carrying.Empty()) {
          carrying = fwd_cell;
          fwd_cell = Cell();
        }
        break;
      case kDrop:
        if (fwd_cell.Empty() && !carrying.Empty()) {
          fwd_cell = carrying;
          carrying = Cell();
        }
        break;
      case kToggle:
        Toggle(fwd_cell);
        break;
      default:  // kDone
        break;
    }
    if (step_count >= max_steps) r.truncated = true;
    return r;
  }

  // WorldObj.toggle for the object in front of the agent.
  void Toggle(Cell& cell) {
    if (cell.type == kDoor) {
      if (cell.is_locked) {
        if (carrying.type == kKey && carrying.color == cell.color) {
          cell.is_locked = false;
          cell.is_open = true;
        }
        return;
      }
      cell.is_open = !cell.is_open;
    } else if (cell.type == kBox) {
      cell = Cell::Make(cell.contains_type, cell.contains_color);
      if (cell.type == kEmpty) cell = Cell();
    }
  }

  // gen_obs()["image"]: the agent's view (gen_obs_grid, the carried object at the agent's
  // square, encode), written as the package's (width, height, 3) uint8 array.
  void Observe(std::uint8_t* image) const {
    const int sz = agent_view_size;
    std::vector<Cell> view;
    std::vector<char> mask;
    ObsView(view, mask);
    for (int i = 0; i < sz; ++i) {
      for (int j = 0; j < sz; ++j) {
        std::uint8_t* px = image + (i * sz + j) * 3;
        const std::size_t k = static_cast<std::size_t>(j * sz + i);
        if (mask[k]) {
          const auto e = view[k].Encode();
          px[0] = e[0];
          px[1] = e[1];
          px[2] = e[2];
        } else {
          px[0] = px[1] = px[2] = 0;
        }
      }
    }
  }

  // FullyObsWrapper's image: grid.encode() of the whole grid, the agent's square
  // (agent, red, agent_dir), written as the package's (width, height, 3) uint8 array.
  void ObserveFull(std::uint8_t* image) const {
    const int gw = grid.Width();
    const int gh = grid.Height();
    for (int i = 0; i < gw; ++i) {
      for (int j = 0; j < gh; ++j) {
        std::uint8_t* px = image + (i * gh + j) * 3;
        const auto e = agent_pos.x == i && agent_pos.y == j
                           ? std::array<std::uint8_t, 3>{kAgent, kRed,
                                                         static_cast<std::uint8_t>(agent_dir)}
                           : grid.Get(i, j).Encode();
        px[0] = e[0];
        px[1] = e[1];
        px[2] = e[2];
      }
    }
  }

  // gen_obs_grid(): the agent's view with the carried object on the agent's square (none:
  // an empty square) and its vis_mask, both indexed j * agent_view_size + i.
  void ObsView(std::vector<Cell>& view, std::vector<char>& mask) const {
    const int sz = agent_view_size;
    ObsGrid(view, mask);
    view[static_cast<std::size_t>((sz - 1) * sz + sz / 2)] = carrying;
  }

  // gen_obs_grid's vis_mask (indexed vis_j * agent_view_size + vis_i): the squares of the
  // agent's view that it sees.
  std::vector<char> VisMask() const {
    std::vector<Cell> view;
    std::vector<char> mask;
    ObsGrid(view, mask);
    return mask;
  }

 private:
  // gen_obs_grid without the carried object: the agent's view (get_view_exts, Grid.slice,
  // rotate_left agent_dir + 1 times) and which of its squares the agent sees (process_vis
  // unless see_through_walls), both indexed j * agent_view_size + i.
  void ObsGrid(std::vector<Cell>& view, std::vector<char>& mask) const {
    const int sz = agent_view_size;
    const int half = sz / 2;
    int top_x = 0;
    int top_y = 0;
    switch (agent_dir) {
      case 0:
        top_x = agent_pos.x;
        top_y = agent_pos.y - half;
        break;
      case 1:
        top_x = agent_pos.x - half;
        top_y = agent_pos.y;
        break;
      case 2:
        top_x = agent_pos.x - sz + 1;
        top_y = agent_pos.y - half;
        break;
      default:
        top_x = agent_pos.x - half;
        top_y = agent_pos.y - sz + 1;
        break;
    }
    // The slice, then agent_dir + 1 left rotations: rotate_left maps (i, j) to
    // (j, size - 1 - i), so four of them are the identity.
    view.assign(static_cast<std::size_t>(sz * sz), Cell());
    auto at = [&](std::vector<Cell>& v, int i, int j) -> Cell& {
      return v[static_cast<std::size_t>(j * sz + i)];
    };
    for (int j = 0; j < sz; ++j) {
      for (int i = 0; i < sz; ++i) {
        const int x = top_x + i;
        const int y = top_y + j;
        const bool inside = x >= 0 && x < grid.Width() && y >= 0 && y < grid.Height();
        at(view, i, j) = inside ? grid.Get(x, y) : Cell::Wall();
      }
    }
    const int rotations = (agent_dir + 1) % 4;
    for (int r = 0; r < rotations; ++r) {
      std::vector<Cell> rotated(view.size());
      for (int i = 0; i < sz; ++i) {
        for (int j = 0; j < sz; ++j) at(rotated, j, sz - 1 - i) = at(view, i, j);
      }
      view.swap(rotated);
    }
    mask.assign(view.size(), 1);
    if (!see_through_walls) ProcessVis(view, mask, sz);
  }

  // Grid.process_vis with the agent at (sz / 2, sz - 1): which squares it sees, walls and
  // closed doors hiding what is behind them.
  static void ProcessVis(const std::vector<Cell>& view, std::vector<char>& mask, int sz) {
    auto idx = [sz](int i, int j) { return static_cast<std::size_t>(j * sz + i); };
    std::fill(mask.begin(), mask.end(), 0);
    mask[idx(sz / 2, sz - 1)] = 1;
    for (int j = sz - 1; j >= 0; --j) {
      for (int i = 0; i < sz - 1; ++i) {
        if (!mask[idx(i, j)]) continue;
        if (!view[idx(i, j)].SeeBehind()) continue;
        mask[idx(i + 1, j)] = 1;
        if (j > 0) {
          mask[idx(i + 1, j - 1)] = 1;
          mask[idx(i, j - 1)] = 1;
        }
      }
      for (int i = sz - 1; i >= 1; --i) {
        if (!mask[idx(i, j)]) continue;
        if (!view[idx(i, j)].SeeBehind()) continue;
        mask[idx(i - 1, j)] = 1;
        if (j > 0) {
          mask[idx(i - 1, j - 1)] = 1;
          mask[idx(i, j - 1)] = 1;
        }
      }
    }
  }
};

}  // namespace envpool::minigrid
