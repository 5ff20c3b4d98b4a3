// BabyAI's RoomGridLevel (minigrid/envs/babyai/core/roomgrid_level.py) and LevelGen
// (core/levelgen.py), the `minigrid` package 3.2.0: a RoomGrid level whose generation
// (gen_mission, then validate_instrs) is retried from a fresh grid until it neither raises
// RejectSampling nor RecursionError (GenerationFailed here); then the mission is the
// instruction's surface, the verifier is reset and, unless the level fixes max_steps, the
// episode gets num_navs_needed(instrs) * room_size^2 * num_rows * num_cols steps. Each step
// asks the verifier: success ends the episode with _reward(), failure with 0.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "envs/minigrid/babyai_instr.h"
#include "envs/minigrid/level.h"
#include "envs/minigrid/room_grid.h"

namespace envpool::minigrid::babyai {

// RejectSampling.
inline void Reject(const char* why) { throw GenerationFailed(why); }

// ["key", "ball", "box"], the kinds add_object and add_distractors draw.
inline constexpr ObjType kObjKinds[3] = {kKey, kBall, kBox};

class RoomGridLevel : public Level {
 public:
  // max_steps <= 0: None, computed per episode from the instruction.
  RoomGridLevel(int room_size, int num_rows, int num_cols, int max_steps)
      : rooms_(room_size, num_rows, num_cols), max_steps_(max_steps) {}

  static Pos GridSize(int room_size, int num_rows, int num_cols) {
    return RoomGrid::GridSize(room_size, num_rows, num_cols);
  }

  void Generate(World& w) override {
    const int width = w.grid.Width();
    const int height = w.grid.Height();
    while (true) {
      try {
        w.grid = Grid(width, height);
        next_tag_ = 0;
        instrs_.reset();
        rooms_.Generate(w);
        GenMission(w);
        ValidateInstrs(w, *instrs_);
      } catch (const GenerationFailed&) {
        continue;
      }
      break;
    }
    w.mission = instrs_->Surface(w, rooms_);
    // MiniGridEnv.reset, then RoomGridLevel.reset.
    w.carrying = Cell();
    instrs_->ResetVerifier(w, rooms_);
    if (max_steps_ > 0) {
      w.max_steps = max_steps_;
    } else {
      const int room = rooms_.RoomSize() * rooms_.RoomSize();
      w.max_steps = instrs_->NumNavsNeeded() * room * rooms_.NumRows() * rooms_.NumCols();
    }
    AfterReset(w);
  }

  World::StepResult Step(World& w, int action) override {
    World::StepResult r = w.Step(action);
    if (action == kDrop) instrs_->UpdateObjsPoss(w, rooms_);
    const Status status = instrs_->Verify(w, action);
    if (status == Status::kSuccess) {
      r.terminated = true;
      r.reward = w.SuccessReward();
    } else if (status == Status::kFailure) {
      r.terminated = true;
      r.reward = 0.0;
    }
    return r;
  }

 protected:
  // gen_mission(): the level's objects, the agent and instrs_.
  virtual void GenMission(World& w) = 0;
  // What the level's reset() does after RoomGridLevel.reset (PutNext's start_carrying).
  virtual void AfterReset(World& /*w*/) {}
  // LevelGen's `unblocking` (the other levels have none).
  virtual bool Unblocking() const { return false; }

  std::uint8_t NewTag() { return ++next_tag_; }

  // add_object(i, j, kind, color) (kEmpty / negative color: None, drawn), tagged.
  Cell AddObject(World& w, int i, int j, ObjType kind = kEmpty, int color = -1) {
    const std::uint8_t tag = NewTag();
    const Pos pos = rooms_.AddObject(w, i, j, kind, color, tag);
    return w.grid.Get(pos.x, pos.y);
  }

  // place_in_room(i, j, obj), tagged.
  Cell PlaceInRoom(World& w, int i, int j, Cell obj) {
    obj.tag = NewTag();
    rooms_.PlaceInRoom(w, i, j, obj);
    return obj;
  }

  // add_door(i, j, door_idx, color, locked) (negatives: None, drawn), tagged.
  Cell AddDoor(World& w, int i, int j, int door_idx = -1, int color = -1, int locked = -1) {
    const Pos pos = rooms_.AddDoor(w, i, j, door_idx, color, locked);
    Cell& door = w.grid.At(pos.x, pos.y);
    door.tag = NewTag();
    return door;
  }

  // connect_all(door_colors), its doors tagged.
  void ConnectAll(World& w, const std::vector<Color>& door_colors = {}) {
    rooms_.ConnectAll(w, door_colors);
    TagUntagged(w);
  }

  // add_distractors(i, j, num_distractors, all_unique) (negative i / j: None, drawn).
  std::vector<Cell> AddDistractors(World& w, int i, int j, int num_distractors,
                                   bool all_unique = true) {
    std::vector<std::pair<ObjType, Color>> objs;
    for (int rj = 0; rj < rooms_.NumRows(); ++rj) {
      for (int ri = 0; ri < rooms_.NumCols(); ++ri) {
        for (const Cell& obj : rooms_.Get(ri, rj).objs) objs.emplace_back(obj.type, obj.color);
      }
    }
    std::vector<Cell> dists;
    while (static_cast<int>(dists.size()) < num_distractors) {
      const Color color = w.RandColor();
      const ObjType type = kObjKinds[w.RandInt(0, 3)];
      const std::pair<ObjType, Color> obj(type, color);
      if (all_unique && std::find(objs.begin(), objs.end(), obj) != objs.end()) continue;
      const int room_i = i < 0 ? w.RandInt(0, rooms_.NumCols()) : i;
      const int room_j = j < 0 ? w.RandInt(0, rooms_.NumRows()) : j;
      dists.push_back(AddObject(w, room_i, room_j, type, color));
      objs.push_back(obj);
    }
    return dists;
  }

  // The doors of every room (column by column, each room's right, down, left, up), as the
  // levels that loop over room.doors see them: a door between two rooms twice.
  std::vector<Cell> RoomDoors(const World& w) const {
    std::vector<Cell> doors;
    for (int i = 0; i < rooms_.NumCols(); ++i) {
      for (int j = 0; j < rooms_.NumRows(); ++j) {
        const RoomGrid::Room& room = rooms_.Get(i, j);
        for (std::size_t k = 0; k < 4; ++k) {
          if (!room.doors[k] || room.opening[k]) continue;
          doors.push_back(w.grid.Get(room.door_pos[k].x, room.door_pos[k].y));
        }
      }
    }
    return doors;
  }

  // open_all_doors().
  void OpenAllDoors(World& w) {
    for (int i = 0; i < rooms_.NumCols(); ++i) {
      for (int j = 0; j < rooms_.NumRows(); ++j) {
        const RoomGrid::Room& room = rooms_.Get(i, j);
        for (std::size_t k = 0; k < 4; ++k) {
          if (room.doors[k] && !room.opening[k]) {
            w.grid.At(room.door_pos[k].x, room.door_pos[k].y).is_open = true;
          }
        }
      }
    }
  }

  // check_objs_reachable(raise_exc): every object reachable from the agent through empty
  // squares and doors.
  bool CheckObjsReachable(const World& w, bool raise_exc = true) const {
    const int width = w.grid.Width();
    const int height = w.grid.Height();
    std::vector<char> reachable(static_cast<std::size_t>(width * height), 0);
    std::vector<Pos> stack = {w.agent_pos};
    while (!stack.empty()) {
      const Pos p = stack.back();
      stack.pop_back();
      if (p.x < 0 || p.x >= width || p.y < 0 || p.y >= height) continue;
      char& seen = reachable[static_cast<std::size_t>(p.y * width + p.x)];
      if (seen) continue;
      seen = 1;
      const Cell& cell = w.grid.Get(p.x, p.y);
      if (!cell.Empty() && cell.type != kDoor) continue;
      stack.push_back({p.x + 1, p.y});
      stack.push_back({p.x - 1, p.y});
      stack.push_back({p.x, p.y + 1});
      stack.push_back({p.x, p.y - 1});
    }
    for (int i = 0; i < width; ++i) {
      for (int j = 0; j < height; ++j) {
        const Cell& cell = w.grid.Get(i, j);
        if (cell.Empty() || cell.type == kWall) continue;
        if (!reachable[static_cast<std::size_t>(j * width + i)]) {
          if (!raise_exc) return false;
          Reject("unreachable object");
        }
      }
    }
    return true;
  }

  // _rand_elem(lst).
  template <class T>
  static const T& RandElem(World& w, const std::vector<T>& lst) {
    return lst[static_cast<std::size_t>(w.RandInt(0, static_cast<int>(lst.size())))];
  }

  // _rand_subset(lst, num_elems).
  template <class T>
  static std::vector<T> RandSubset(World& w, std::vector<T> lst, int num_elems) {
    std::vector<T> out;
    while (static_cast<int>(out.size()) < num_elems) {
      const auto idx = static_cast<std::size_t>(w.RandInt(0, static_cast<int>(lst.size())));
      out.push_back(lst[idx]);
      lst.erase(lst.begin() + static_cast<std::ptrdiff_t>(idx));
    }
    return out;
  }

  static std::vector<Color> ColorNames() {
    return std::vector<Color>(kColorNames.begin(), kColorNames.end());
  }

  RoomGrid rooms_;
  std::unique_ptr<Instr> instrs_;

 private:
  // Tags the doors connect_all added.
  void TagUntagged(World& w) {
    for (int j = 0; j < w.grid.Height(); ++j) {
      for (int i = 0; i < w.grid.Width(); ++i) {
        Cell& cell = w.grid.At(i, j);
        if (cell.type == kDoor && cell.tag == 0) cell.tag = NewTag();
      }
    }
  }

  // validate_instrs(instr).
  void ValidateInstrs(World& w, Instr& instr) {
    if (instr.IsSeq()) {
      ValidateInstrs(w, *instr.a);
      ValidateInstrs(w, *instr.b);
      return;
    }
    std::vector<Color> locked_colors;
    if (Unblocking()) {
      for (int i = 0; i < rooms_.NumCols(); ++i) {
        for (int j = 0; j < rooms_.NumRows(); ++j) {
          const RoomGrid::Room& room = rooms_.Get(i, j);
          for (std::size_t k = 0; k < 4; ++k) {
            if (!room.doors[k] || room.opening[k]) continue;
            const Cell& door = w.grid.Get(room.door_pos[k].x, room.door_pos[k].y);
            if (door.is_locked) locked_colors.push_back(door.color);
          }
        }
      }
    }
    if (instr.kind == Instr::kPutNext) {
      instr.ResetVerifier(w, rooms_);
      for (const std::uint8_t tag : instr.desc.obj_set) {
        const auto& fixed = instr.fixed.obj_set;
        const bool shared = tag == 0 ? std::find(fixed.begin(), fixed.end(), 0) != fixed.end()
                                     : instr.fixed.Tracks(tag);
        if (shared) Reject("there are objects that match both lhs and rhs of PutNext");
      }
      if (instr.ObjsNext(w)) Reject("objs already next to each other");
    }
    if (!Unblocking()) return;
    auto check = [&](const ObjDesc& desc) {
      if (desc.type == kKey && desc.color >= 0 &&
          std::find(locked_colors.begin(), locked_colors.end(), desc.color) !=
              locked_colors.end()) {
        Reject("cannot do anything with/to a key that can be used to open a door");
      }
    };
    check(instr.desc);
    if (instr.kind == Instr::kPutNext) check(instr.fixed);
  }

  int max_steps_;  // <= 0: None
  std::uint8_t next_tag_ = 0;
};

// LevelGen: random instructions of the whole language (or the kinds a level allows).
class LevelGen : public RoomGridLevel {
 public:
  enum ActionKind : std::uint8_t { kGoTo, kPickup, kOpen, kPutNext };
  enum InstrKind : std::uint8_t { kAction, kAnd, kSeq };

  struct Options {
    int room_size = 8;
    int num_rows = 3;
    int num_cols = 3;
    int num_dists = 18;
    double locked_room_prob = 0.5;
    bool locations = true;
    bool unblocking = true;
    bool implicit_unlock = true;
    std::vector<ActionKind> action_kinds = {kGoTo, kPickup, kOpen, kPutNext};
    std::vector<InstrKind> instr_kinds = {kAction, kAnd, kSeq};
  };

  LevelGen(const Options& o, int max_steps)
      : RoomGridLevel(o.room_size, o.num_rows, o.num_cols, max_steps), o_(o) {}

 protected:
  bool Unblocking() const override { return o_.unblocking; }

  void GenMission(World& w) override {
    locked_room_ = -1;
    if (w.rng->Uniform(0.0, 1.0) < o_.locked_room_prob) AddLockedRoom(w);
    ConnectAll(w);
    AddDistractors(w, -1, -1, o_.num_dists, false);
    while (true) {
      rooms_.PlaceAgent(w, -1, -1);
      if (rooms_.RoomIndexFromPos(w.agent_pos) == locked_room_) continue;
      break;
    }
    if (!o_.unblocking) CheckObjsReachable(w);
    instrs_ = RandInstr(w, o_.action_kinds, o_.instr_kinds);
  }

 private:
  void AddLockedRoom(World& w) {
    Cell door;
    while (true) {
      const int i = w.RandInt(0, rooms_.NumCols());
      const int j = w.RandInt(0, rooms_.NumRows());
      const int door_idx = w.RandInt(0, 4);
      locked_room_ = j * rooms_.NumCols() + i;
      if (rooms_.Get(i, j).neighbor[static_cast<std::size_t>(door_idx)] < 0) continue;
      door = AddDoor(w, i, j, door_idx, -1, 1);
      break;
    }
    while (true) {
      const int i = w.RandInt(0, rooms_.NumCols());
      const int j = w.RandInt(0, rooms_.NumRows());
      if (j * rooms_.NumCols() + i == locked_room_) continue;
      AddObject(w, i, j, kKey, door.color);
      break;
    }
  }

  // rand_obj(types, COLOR_NAMES, max_tries=100).
  ObjDesc RandObj(World& w, const std::vector<ObjType>& types) {
    static constexpr Loc kLocs[4] = {Loc::kLeft, Loc::kRight, Loc::kFront, Loc::kBehind};
    int num_tries = 0;
    while (true) {
      if (num_tries > 100) throw GenerationFailed("failed to find suitable object");
      ++num_tries;
      const int c = w.RandInt(0, 7);
      const int color = c == 0 ? -1 : kColorNames[static_cast<std::size_t>(c - 1)];
      const ObjType type = RandElem(w, types);
      Loc loc = Loc::kNone;
      if (o_.locations && w.RandBool()) loc = kLocs[w.RandInt(0, 4)];
      ObjDesc desc(type, color, loc);
      desc.FindMatchingObjs(w, rooms_);
      if (desc.obj_set.empty()) continue;
      if (!o_.implicit_unlock && locked_room_ >= 0) {
        const RoomGrid::Room& room = rooms_.Get(locked_room_ % rooms_.NumCols(),
                                                locked_room_ / rooms_.NumCols());
        bool outside = false;
        for (const Pos& p : desc.obj_poss) outside = outside || !room.PosInside(p.x, p.y);
        if (!outside) continue;
      }
      return desc;
    }
  }

  std::unique_ptr<Instr> RandInstr(World& w, const std::vector<ActionKind>& action_kinds,
                                   const std::vector<InstrKind>& instr_kinds) {
    static const std::vector<ObjType> kTypes = {kBox, kBall, kKey, kDoor};
    static const std::vector<ObjType> kNotDoor = {kBox, kBall, kKey};
    static const std::vector<ObjType> kDoorOnly = {kDoor};
    const InstrKind kind = RandElem(w, instr_kinds);
    if (kind == kAction) {
      switch (RandElem(w, action_kinds)) {
        case kGoTo:
          return Instr::GoTo(RandObj(w, kTypes));
        case kPickup:
          return Instr::Pickup(RandObj(w, kNotDoor));
        case kOpen:
          return Instr::Open(RandObj(w, kDoorOnly));
        default: {
          ObjDesc move = RandObj(w, kNotDoor);
          return Instr::PutNext(std::move(move), RandObj(w, kTypes));
        }
      }
    }
    if (kind == kAnd) {
      auto a = RandInstr(w, action_kinds, {kAction});
      auto b = RandInstr(w, action_kinds, {kAction});
      return Instr::Seq(Instr::kAnd, std::move(a), std::move(b));
    }
    auto a = RandInstr(w, action_kinds, {kAction, kAnd});
    auto b = RandInstr(w, action_kinds, {kAction, kAnd});
    const Instr::Kind seq = w.RandInt(0, 2) == 0 ? Instr::kBefore : Instr::kAfter;
    return Instr::Seq(seq, std::move(a), std::move(b));
  }

  Options o_;
  int locked_room_ = -1;
};

}  // namespace envpool::minigrid::babyai
