// BabyAI's levels (minigrid/envs/babyai/: goto.py, open.py, pickup.py, putnext.py,
// unlock.py, other.py, synth.py of the `minigrid` package 3.2.0) on RoomGridLevel
// (babyai_level.h), each gen_mission drawing in the package's order. MakeBabyAILevel picks
// one by env_name ("babyai_goto", ...); the keywords are the package classes' arguments.
#pragma once

#include <array>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/minigrid/babyai_level.h"

namespace envpool::minigrid::babyai {

// A level's max_steps keyword, or (<= 0: None) the default its class computes, or 0 where
// the class leaves it None (RoomGridLevel computes it per episode).
inline int MaxSteps(int keyword, int class_default) {
  return keyword > 0 ? keyword : class_default;
}

// GoToRedBallGrey, GoToRedBall(NoDists), GoToObj, GoToLocal, GoToRedBlueBall: one room.
class GoToLocalLevel final : public RoomGridLevel {
 public:
  enum Variant : std::uint8_t { kRedBallGrey, kRedBall, kObj, kLocal, kRedBlueBall };
  GoToLocalLevel(Variant v, int room_size, int num_dists, int max_steps)
      : RoomGridLevel(room_size, 1, 1, max_steps), v_(v), num_dists_(num_dists) {}

 protected:
  void GenMission(World& w) override {
    rooms_.PlaceAgent(w, -1, -1);
    Cell obj;
    if (v_ == kRedBallGrey || v_ == kRedBall) {
      obj = AddObject(w, 0, 0, kBall, kRed);
      const std::vector<Cell> dists = AddDistractors(w, -1, -1, num_dists_, false);
      if (v_ == kRedBallGrey) {
        for (const Cell& dist : dists) Recolor(w, dist.tag, kGrey);
      }
      CheckObjsReachable(w);
    } else if (v_ == kObj) {
      obj = AddDistractors(w, -1, -1, 1)[0];
    } else if (v_ == kLocal) {
      const std::vector<Cell> objs = AddDistractors(w, -1, -1, num_dists_, false);
      CheckObjsReachable(w);
      obj = RandElem(w, objs);
    } else {
      const std::vector<Cell> dists = AddDistractors(w, -1, -1, num_dists_, false);
      for (const Cell& dist : dists) {
        if (dist.type == kBall && (dist.color == kBlue || dist.color == kRed)) {
          Reject("can only have one blue or red ball");
        }
      }
      const Color color = w.RandInt(0, 2) == 0 ? kRed : kBlue;
      obj = AddObject(w, 0, 0, kBall, color);
      CheckObjsReachable(w);
    }
    instrs_ = Instr::GoTo(ObjDesc(obj.type, obj.color));
  }

 private:
  // `dist.color = 'grey'`: the object in the grid and in its room's objs.
  void Recolor(World& w, std::uint8_t tag, Color color) {
    const Pos pos = CurPos(w, tag);
    w.grid.At(pos.x, pos.y).color = color;
    for (Cell& obj : rooms_.Get(0, 0).objs) {
      if (obj.tag == tag) obj.color = color;
    }
  }

  Variant v_;
  int num_dists_;
};

// GoTo (GoToOpen, GoToObjMaze*), Open, Pickup, UnblockPickup: a maze of rooms joined by
// connect_all, num_dists distractors, one of them the target.
class MazeLevel final : public RoomGridLevel {
 public:
  enum Variant : std::uint8_t { kGoTo, kOpen, kPickup, kUnblockPickup };
  MazeLevel(Variant v, int room_size, int num_rows, int num_cols, int num_dists,
            bool doors_open, int max_steps)
      : RoomGridLevel(room_size, num_rows, num_cols, max_steps),
        v_(v),
        num_dists_(num_dists),
        doors_open_(doors_open) {}

 protected:
  void GenMission(World& w) override {
    rooms_.PlaceAgent(w, -1, -1);
    ConnectAll(w);
    const std::vector<Cell> objs = AddDistractors(w, -1, -1, num_dists_, false);
    if (v_ == kUnblockPickup) {
      if (CheckObjsReachable(w, false)) Reject("all objects reachable");
    } else {
      CheckObjsReachable(w);
    }
    if (v_ == kOpen) {
      const Cell door = RandElem(w, RoomDoors(w));
      instrs_ = Instr::Open(ObjDesc(door.type, door.color));
      return;
    }
    const Cell& obj = RandElem(w, objs);
    if (v_ == kGoTo) {
      instrs_ = Instr::GoTo(ObjDesc(obj.type, obj.color));
      if (doors_open_) OpenAllDoors(w);
    } else {
      instrs_ = Instr::Pickup(ObjDesc(obj.type, obj.color));
    }
  }

 private:
  Variant v_;
  int num_dists_;
  bool doors_open_;
};

// GoToImpUnlock and Unlock: a locked room, its key elsewhere, distractors in the other
// rooms, the agent outside the locked room.
class LockedRoomLevel final : public RoomGridLevel {
 public:
  LockedRoomLevel(bool unlock, int max_steps)
      : RoomGridLevel(8, 3, 3, max_steps), unlock_(unlock) {}

 protected:
  void GenMission(World& w) override {
    const int id = w.RandInt(0, rooms_.NumCols());
    const int jd = w.RandInt(0, rooms_.NumRows());
    const Cell door = AddDoor(w, id, jd, -1, -1, 1);
    // The package compares room indices with `is` (`ik is id`, `i is not id`): numpy
    // integers from _rand_int are never the same object as another, so the key may land
    // in the locked room and every room, the locked one too, gets its distractors.
    const int ik = w.RandInt(0, rooms_.NumCols());
    const int jk = w.RandInt(0, rooms_.NumRows());
    AddObject(w, ik, jk, kKey, door.color);
    if (unlock_ && w.RandBool()) {
      std::vector<Color> colors;
      for (const Color c : kColorNames) {
        if (c != door.color) colors.push_back(c);
      }
      ConnectAll(w, colors);
    } else {
      ConnectAll(w);
    }
    for (int i = 0; i < rooms_.NumCols(); ++i) {
      for (int j = 0; j < rooms_.NumRows(); ++j) {
        AddDistractors(w, i, j, unlock_ ? 3 : 2, false);
      }
    }
    while (true) {
      rooms_.PlaceAgent(w, -1, -1);
      if (rooms_.RoomIndexFromPos(w.agent_pos) == jd * rooms_.NumCols() + id) continue;
      break;
    }
    CheckObjsReachable(w);
    if (unlock_) {
      instrs_ = Instr::Open(ObjDesc(door.type, door.color));
      return;
    }
    const Cell obj = AddDistractors(w, id, jd, 1, false)[0];
    instrs_ = Instr::GoTo(ObjDesc(obj.type, obj.color));
  }

 private:
  bool unlock_;
};

// GoToDoor, GoToObjDoor, ActionObjDoor: the middle room of 3x3 with four doors.
class DoorsLevel final : public RoomGridLevel {
 public:
  enum Variant : std::uint8_t { kGoToDoor, kGoToObjDoor, kActionObjDoor };
  DoorsLevel(Variant v, int max_steps)
      : RoomGridLevel(v == kGoToObjDoor ? 8 : 7, 3, 3, max_steps), v_(v) {}

 protected:
  void GenMission(World& w) override {
    std::vector<Cell> objs;
    if (v_ == kGoToDoor) {
      for (int n = 0; n < 4; ++n) objs.push_back(AddDoor(w, 1, 1));
      rooms_.PlaceAgent(w, 1, 1);
      const Cell& obj = RandElem(w, objs);
      instrs_ = Instr::GoTo(ObjDesc(kDoor, obj.color));
      return;
    }
    if (v_ == kGoToObjDoor) {
      rooms_.PlaceAgent(w, 1, 1);
      objs = AddDistractors(w, 1, 1, 8, false);
      for (int n = 0; n < 4; ++n) objs.push_back(AddDoor(w, 1, 1));
      CheckObjsReachable(w);
      const Cell& obj = RandElem(w, objs);
      instrs_ = Instr::GoTo(ObjDesc(obj.type, obj.color));
      return;
    }
    objs = AddDistractors(w, 1, 1, 5);
    for (int n = 0; n < 4; ++n) objs.push_back(AddDoor(w, 1, 1, -1, -1, 0));
    rooms_.PlaceAgent(w, 1, 1);
    const Cell& obj = RandElem(w, objs);
    ObjDesc desc(obj.type, obj.color);
    if (obj.type == kDoor) {
      instrs_ = w.RandBool() ? Instr::GoTo(desc) : Instr::Open(desc);
    } else {
      instrs_ = w.RandBool() ? Instr::GoTo(desc) : Instr::Pickup(desc);
    }
  }

 private:
  Variant v_;
};

// OpenRedDoor, OpenDoor (Debug, Color, Loc), OpenTwoDoors (OpenRedBlueDoors*),
// OpenDoorsOrderN* (Debug).
class OpenLevel final : public RoomGridLevel {
 public:
  enum Variant : std::uint8_t { kOpenRedDoor, kOpenDoor, kOpenTwoDoors, kOpenDoorsOrder };
  struct Options {
    Variant variant = kOpenDoor;
    bool strict = false;  // debug / strict
    int select_by = -1;   // OpenDoor: -1 None, 0 color, 1 loc
    int first_color = -1;
    int second_color = -1;
    int num_doors = 2;
  };
  OpenLevel(const Options& o, int max_steps)
      : RoomGridLevel(RoomSize(o.variant), o.variant == kOpenRedDoor ? 1 : 3,
                      o.variant == kOpenRedDoor ? 2 : 3,
                      o.variant == kOpenTwoDoors || o.variant == kOpenDoorsOrder
                          ? MaxSteps(max_steps, 20 * 6 * 6)
                          : max_steps),
        o_(o) {}

  static int RoomSize(Variant v) { return v == kOpenRedDoor ? 5 : v == kOpenDoor ? 8 : 6; }

 protected:
  void GenMission(World& w) override {
    if (o_.variant == kOpenRedDoor) {
      AddDoor(w, 0, 0, 0, kRed, 0);
      rooms_.PlaceAgent(w, 0, 0);
      instrs_ = Instr::Open(ObjDesc(kDoor, kRed));
    } else if (o_.variant == kOpenDoor) {
      const std::vector<Color> colors = RandSubset(w, ColorNames(), 4);
      std::vector<Cell> objs;
      for (int i = 0; i < 4; ++i) {
        objs.push_back(AddDoor(w, 1, 1, i, colors[static_cast<std::size_t>(i)], 0));
      }
      const int select_by = o_.select_by >= 0 ? o_.select_by : w.RandInt(0, 2);
      ObjDesc desc;
      if (select_by == 0) {
        desc = ObjDesc(kDoor, objs[0].color);
      } else {
        static constexpr Loc kLocs[4] = {Loc::kLeft, Loc::kRight, Loc::kFront, Loc::kBehind};
        desc = ObjDesc(kDoor, -1, kLocs[w.RandInt(0, 4)]);
      }
      rooms_.PlaceAgent(w, 1, 1);
      instrs_ = Instr::Open(std::move(desc), o_.strict);
    } else if (o_.variant == kOpenTwoDoors) {
      const std::vector<Color> colors = RandSubset(w, ColorNames(), 2);
      const int first = o_.first_color >= 0 ? o_.first_color : colors[0];
      const int second = o_.second_color >= 0 ? o_.second_color : colors[1];
      const Cell door1 = AddDoor(w, 1, 1, 2, first, 0);
      const Cell door2 = AddDoor(w, 1, 1, 0, second, 0);
      rooms_.PlaceAgent(w, 1, 1);
      instrs_ = Instr::Seq(Instr::kBefore, Instr::Open(ObjDesc(kDoor, door1.color), o_.strict),
                           Instr::Open(ObjDesc(kDoor, door2.color)));
    } else {
      const std::vector<Color> colors = RandSubset(w, ColorNames(), o_.num_doors);
      std::vector<Cell> doors;
      for (int i = 0; i < o_.num_doors; ++i) {
        doors.push_back(AddDoor(w, 1, 1, -1, colors[static_cast<std::size_t>(i)], 0));
      }
      rooms_.PlaceAgent(w, 1, 1);
      const std::vector<Cell> pair = RandSubset(w, doors, 2);
      const ObjDesc desc1(kDoor, pair[0].color);
      const ObjDesc desc2(kDoor, pair[1].color);
      const int mode = w.RandInt(0, 3);
      if (mode == 0) {
        instrs_ = Instr::Open(desc1, o_.strict);
      } else {
        instrs_ = Instr::Seq(mode == 1 ? Instr::kBefore : Instr::kAfter,
                             Instr::Open(desc1, o_.strict), Instr::Open(desc2, o_.strict));
      }
    }
  }

 private:
  Options o_;
};

// PickupDist (Debug), PickupAbove, OneRoomS*, FindObjS*.
class PickupLevel final : public RoomGridLevel {
 public:
  enum Variant : std::uint8_t { kDist, kAbove, kOneRoom, kFindObj };
  PickupLevel(Variant v, int room_size, bool strict, int max_steps)
      : RoomGridLevel(room_size, v == kDist || v == kOneRoom ? 1 : 3,
                      v == kDist || v == kOneRoom ? 1 : 3,
                      v == kAbove     ? MaxSteps(max_steps, 8 * room_size * room_size)
                      : v == kFindObj ? MaxSteps(max_steps, 20 * room_size * room_size)
                                      : max_steps),
        v_(v),
        strict_(strict) {}

 protected:
  void GenMission(World& w) override {
    if (v_ == kDist) {
      const std::vector<Cell> objs = AddDistractors(w, -1, -1, 5);
      rooms_.PlaceAgent(w, 0, 0);
      const Cell& obj = RandElem(w, objs);
      int type = obj.type;
      int color = obj.color;
      const int select_by = w.RandInt(0, 3);  // type, color, both
      if (select_by == 1) type = kEmpty;
      if (select_by == 0) color = -1;
      instrs_ = Instr::Pickup(ObjDesc(static_cast<ObjType>(type), color), strict_);
    } else if (v_ == kAbove) {
      const Cell obj = AddObject(w, 1, 0);
      AddDoor(w, 1, 1, 3, -1, 0);
      rooms_.PlaceAgent(w, 1, 1);
      ConnectAll(w);
      instrs_ = Instr::Pickup(ObjDesc(obj.type, obj.color));
    } else if (v_ == kOneRoom) {
      const Cell obj = AddObject(w, 0, 0, kBall);
      rooms_.PlaceAgent(w, -1, -1);
      instrs_ = Instr::Pickup(ObjDesc(obj.type, -1));
    } else {
      const int i = w.RandInt(0, rooms_.NumRows());
      const int j = w.RandInt(0, rooms_.NumCols());
      const Cell obj = AddObject(w, i, j);
      rooms_.PlaceAgent(w, 1, 1);
      ConnectAll(w);
      instrs_ = Instr::Pickup(ObjDesc(obj.type, -1));
    }
  }

 private:
  Variant v_;
  bool strict_;
};

// PutNextLocal*, PutNextS*N* (Carrying), MoveTwoAcross*.
class PutNextLevel final : public RoomGridLevel {
 public:
  enum Variant : std::uint8_t { kLocal, kPutNext, kMoveTwoAcross };
  PutNextLevel(Variant v, int room_size, int num_objs, bool start_carrying, int max_steps)
      : RoomGridLevel(room_size, 1, v == kLocal ? 1 : 2,
                      v == kPutNext         ? MaxSteps(max_steps, 8 * room_size * room_size)
                      : v == kMoveTwoAcross ? MaxSteps(max_steps, 16 * room_size * room_size)
                                            : max_steps),
        v_(v),
        num_objs_(num_objs),
        start_carrying_(start_carrying) {}

  // PutNext.reset with start_carrying moves obj_a from the grid to the agent's hands after
  // making the observation it returns (which still shows obj_a in the grid); the env keeps
  // that observation and then calls FinishReset (render() and the wrappers' observations
  // after the reset see obj_a carried, as the package's).
  bool ChangesAfterObservation() const override { return carry_pending_; }
  void FinishReset(World& w) override {
    if (carry_pending_) {
      carry_pending_ = false;
      w.grid.Clear(obj_a_pos_.x, obj_a_pos_.y);
      w.carrying = obj_a_;
    }
  }

 protected:
  void AfterReset(World& /*w*/) override { carry_pending_ = v_ == kPutNext && start_carrying_; }

  void GenMission(World& w) override {
    if (v_ == kLocal) {
      rooms_.PlaceAgent(w, -1, -1);
      const std::vector<Cell> objs = AddDistractors(w, -1, -1, num_objs_, true);
      CheckObjsReachable(w);
      const std::vector<Cell> pair = RandSubset(w, objs, 2);
      instrs_ = Instr::PutNext(ObjDesc(pair[0].type, pair[0].color),
                               ObjDesc(pair[1].type, pair[1].color));
      return;
    }
    rooms_.PlaceAgent(w, 0, 0);
    std::vector<Cell> objs_l = AddDistractors(w, 0, 0, num_objs_);
    std::vector<Cell> objs_r = AddDistractors(w, 1, 0, num_objs_);
    rooms_.RemoveWall(w, 0, 0, 0);
    if (v_ == kPutNext) {
      Cell a = RandElem(w, objs_l);
      Cell b = RandElem(w, objs_r);
      if (w.RandBool()) std::swap(a, b);
      obj_a_ = a;
      obj_a_pos_ = CurPos(w, a.tag);
      instrs_ = Instr::PutNext(ObjDesc(a.type, a.color), ObjDesc(b.type, b.color));
      return;
    }
    objs_l = RandSubset(w, objs_l, 2);
    objs_r = RandSubset(w, objs_r, 2);
    const Cell& a = objs_l[0];
    const Cell& b = objs_r[0];
    const Cell& c = objs_r[1];
    const Cell& d = objs_l[1];
    instrs_ = Instr::Seq(Instr::kBefore,
                         Instr::PutNext(ObjDesc(a.type, a.color), ObjDesc(b.type, b.color)),
                         Instr::PutNext(ObjDesc(c.type, c.color), ObjDesc(d.type, d.color)));
  }

 private:
  Variant v_;
  int num_objs_;
  bool start_carrying_;
  bool carry_pending_ = false;
  Cell obj_a_;
  Pos obj_a_pos_;
};

// UnlockLocal (Dist), KeyInBox, UnlockPickup (Dist), BlockedUnlockPickup, UnlockToUnlock.
class UnlockLevel final : public RoomGridLevel {
 public:
  enum Variant : std::uint8_t { kLocal, kKeyInBox, kPickup, kBlockedPickup, kToUnlock };
  UnlockLevel(Variant v, bool distractors, int max_steps)
      : RoomGridLevel(v == kLocal || v == kKeyInBox ? 8 : 6, v == kLocal || v == kKeyInBox ? 3 : 1,
                      v == kLocal || v == kKeyInBox ? 3
                      : v == kToUnlock             ? 3
                                                   : 2,
                      v == kBlockedPickup ? MaxSteps(max_steps, 16 * 6 * 6)
                      : v == kToUnlock    ? MaxSteps(max_steps, 30 * 6 * 6)
                                          : max_steps),
        v_(v),
        distractors_(distractors) {}

 protected:
  void GenMission(World& w) override {
    if (v_ == kLocal || v_ == kKeyInBox) {
      const Cell door = AddDoor(w, 1, 1, -1, -1, 1);
      if (v_ == kLocal) {
        AddObject(w, 1, 1, kKey, door.color);
        if (distractors_) AddDistractors(w, 1, 1, 3);
      } else {
        Cell box = Cell::Make(kBox, w.RandColor());
        box.contains_type = kKey;
        box.contains_color = door.color;
        PlaceInRoom(w, 1, 1, box);
      }
      rooms_.PlaceAgent(w, 1, 1);
      instrs_ = Instr::Open(ObjDesc(kDoor, -1));
    } else if (v_ == kPickup || v_ == kBlockedPickup) {
      const Cell obj = AddObject(w, 1, 0, kBox);
      const Cell door = AddDoor(w, 0, 0, 0, -1, 1);
      if (v_ == kBlockedPickup) {
        const Pos pos = CurPos(w, door.tag);
        Cell ball = Cell::Make(kBall, w.RandColor());
        ball.tag = NewTag();
        w.grid.Set(pos.x - 1, pos.y, ball);
      }
      AddObject(w, 0, 0, kKey, door.color);
      if (v_ == kPickup && distractors_) AddDistractors(w, -1, -1, 4);
      rooms_.PlaceAgent(w, 0, 0);
      instrs_ = Instr::Pickup(ObjDesc(obj.type, v_ == kPickup ? obj.color : -1));
    } else {
      const std::vector<Color> colors = RandSubset(w, ColorNames(), 2);
      AddDoor(w, 0, 0, 0, colors[0], 1);
      AddObject(w, 2, 0, kKey, colors[0]);
      AddDoor(w, 1, 0, 0, colors[1], 1);
      AddObject(w, 1, 0, kKey, colors[1]);
      const Cell obj = AddObject(w, 0, 0, kBall);
      rooms_.PlaceAgent(w, 1, 0);
      instrs_ = Instr::Pickup(ObjDesc(obj.type, -1));
    }
  }

 private:
  Variant v_;
  bool distractors_;
};

// KeyCorridor*: the object behind a locked door on the right of a corridor of rooms.
class BabyKeyCorridorLevel final : public RoomGridLevel {
 public:
  BabyKeyCorridorLevel(int room_size, int num_rows, ObjType obj_type, int max_steps)
      : RoomGridLevel(room_size, num_rows, 3, MaxSteps(max_steps, 30 * room_size * room_size)),
        obj_type_(obj_type) {}

 protected:
  void GenMission(World& w) override {
    for (int j = 1; j < rooms_.NumRows(); ++j) rooms_.RemoveWall(w, 1, j, 3);
    const int room_idx = w.RandInt(0, rooms_.NumRows());
    const Cell door = AddDoor(w, 2, room_idx, 2, -1, 1);
    const Cell obj = AddObject(w, 2, room_idx, obj_type_);
    AddObject(w, 0, w.RandInt(0, rooms_.NumRows()), kKey, door.color);
    rooms_.PlaceAgent(w, 1, rooms_.NumRows() / 2);
    ConnectAll(w);
    instrs_ = Instr::Pickup(ObjDesc(obj.type, -1));
  }

 private:
  ObjType obj_type_;
};

// ColorName's inverse ("": None, -1).
inline int ColorFromName(const std::string& name) {
  for (int c = 0; c < 6; ++c) {
    if (name == ColorName(static_cast<Color>(c))) return c;
  }
  if (name.empty()) return -1;
  throw std::invalid_argument("unknown color '" + name + "'");
}

// Whether env_name is a BabyAI level.
inline bool IsBabyAI(const std::string& env_name) { return env_name.rfind("babyai_", 0) == 0; }

// The one-room GoTo levels.
inline bool IsGoToLocal(const std::string& n) {
  return n == "babyai_goto_local" || n == "babyai_goto_red_ball_grey" ||
         n == "babyai_goto_red_ball" || n == "babyai_goto_obj" ||
         n == "babyai_goto_red_blue_ball";
}

// The level's (room_size, num_rows, num_cols), which fix its grid.
inline std::array<int, 3> BabyAIRooms(const LevelParams& p) {
  const std::string& n = p.env_name;
  if (IsGoToLocal(n) || n == "babyai_put_next_local" || n == "babyai_one_room") {
    return {p.room_size, 1, 1};
  }
  if (n == "babyai_pickup_dist") return {7, 1, 1};
  if (n == "babyai_open_red_door") return {5, 1, 2};
  if (n == "babyai_put_next" || n == "babyai_move_two_across") return {p.room_size, 1, 2};
  if (n == "babyai_unlock_pickup" || n == "babyai_blocked_unlock_pickup") return {6, 1, 2};
  if (n == "babyai_unlock_to_unlock") return {6, 1, 3};
  if (n == "babyai_open_two_doors" || n == "babyai_open_doors_order" ||
      n == "babyai_pickup_above") {
    return {6, 3, 3};
  }
  if (n == "babyai_goto_door" || n == "babyai_action_obj_door") return {7, 3, 3};
  if (n == "babyai_goto" || n == "babyai_goto_seq" || n == "babyai_synth" ||
      n == "babyai_synth_loc" || n == "babyai_synth_seq" || n == "babyai_boss_level" ||
      n == "babyai_boss_level_no_unlock" || n == "babyai_find_obj" ||
      n == "babyai_pickup" || n == "babyai_unblock_pickup" || n == "babyai_open") {
    return {p.room_size, p.num_rows, p.num_cols};
  }
  if (n == "babyai_mini_boss_level") return {5, 2, 2};
  if (n == "babyai_pickup_loc") return {8, 1, 1};
  if (n == "babyai_key_corridor") return {p.room_size, p.num_rows, 3};
  if (n == "babyai_goto_imp_unlock" || n == "babyai_unlock" || n == "babyai_goto_obj_door" ||
      n == "babyai_open_door" || n == "babyai_unlock_local" || n == "babyai_key_in_box") {
    return {8, 3, 3};
  }
  throw std::invalid_argument("unknown MiniGrid env_name '" + n + "'");
}

inline Pos BabyAIGridSize(const LevelParams& p) {
  const auto r = BabyAIRooms(p);
  return RoomGrid::GridSize(r[0], r[1], r[2]);
}

// The level env_name names, with the keywords of its package class.
inline std::unique_ptr<Level> MakeBabyAILevel(const LevelParams& p) {
  const std::string& n = p.env_name;
  const int max_steps = p.max_steps;
  const auto r = BabyAIRooms(p);
  if (IsGoToLocal(n)) {
    const auto variant = n == "babyai_goto_red_ball_grey" ? GoToLocalLevel::kRedBallGrey
                         : n == "babyai_goto_red_ball"    ? GoToLocalLevel::kRedBall
                         : n == "babyai_goto_obj"         ? GoToLocalLevel::kObj
                         : n == "babyai_goto_red_blue_ball" ? GoToLocalLevel::kRedBlueBall
                                                            : GoToLocalLevel::kLocal;
    return std::make_unique<GoToLocalLevel>(variant, r[0], p.num_dists, max_steps);
  }
  if (n == "babyai_goto" || n == "babyai_open" || n == "babyai_pickup" ||
      n == "babyai_unblock_pickup") {
    const auto variant = n == "babyai_goto"     ? MazeLevel::kGoTo
                         : n == "babyai_open"   ? MazeLevel::kOpen
                         : n == "babyai_pickup" ? MazeLevel::kPickup
                                                : MazeLevel::kUnblockPickup;
    const int num_dists = n == "babyai_goto" ? p.num_dists : n == "babyai_unblock_pickup" ? 20 : 18;
    return std::make_unique<MazeLevel>(variant, r[0], r[1], r[2], num_dists, p.doors_open,
                                       max_steps);
  }
  if (n == "babyai_goto_imp_unlock" || n == "babyai_unlock") {
    return std::make_unique<LockedRoomLevel>(n == "babyai_unlock", max_steps);
  }
  if (n == "babyai_goto_door" || n == "babyai_goto_obj_door" || n == "babyai_action_obj_door") {
    const auto variant = n == "babyai_goto_door"       ? DoorsLevel::kGoToDoor
                         : n == "babyai_goto_obj_door" ? DoorsLevel::kGoToObjDoor
                                                       : DoorsLevel::kActionObjDoor;
    return std::make_unique<DoorsLevel>(variant, max_steps);
  }
  if (n == "babyai_open_red_door" || n == "babyai_open_door" || n == "babyai_open_two_doors" ||
      n == "babyai_open_doors_order") {
    OpenLevel::Options o;
    o.variant = n == "babyai_open_red_door"    ? OpenLevel::kOpenRedDoor
                : n == "babyai_open_door"      ? OpenLevel::kOpenDoor
                : n == "babyai_open_two_doors" ? OpenLevel::kOpenTwoDoors
                                               : OpenLevel::kOpenDoorsOrder;
    o.strict = p.debug;
    o.select_by = p.select_by == "color" ? 0 : p.select_by == "loc" ? 1 : -1;
    o.first_color = ColorFromName(p.first_color);
    o.second_color = ColorFromName(p.second_color);
    o.num_doors = p.num_doors;
    return std::make_unique<OpenLevel>(o, max_steps);
  }
  if (n == "babyai_pickup_dist" || n == "babyai_pickup_above" || n == "babyai_one_room" ||
      n == "babyai_find_obj") {
    const auto variant = n == "babyai_pickup_dist"    ? PickupLevel::kDist
                         : n == "babyai_pickup_above" ? PickupLevel::kAbove
                         : n == "babyai_one_room"     ? PickupLevel::kOneRoom
                                                      : PickupLevel::kFindObj;
    return std::make_unique<PickupLevel>(variant, r[0], p.debug, max_steps);
  }
  if (n == "babyai_put_next_local" || n == "babyai_put_next" || n == "babyai_move_two_across") {
    const auto variant = n == "babyai_put_next_local" ? PutNextLevel::kLocal
                         : n == "babyai_put_next"     ? PutNextLevel::kPutNext
                                                      : PutNextLevel::kMoveTwoAcross;
    const int num_objs = variant == PutNextLevel::kLocal ? p.num_objs : p.objs_per_room;
    return std::make_unique<PutNextLevel>(variant, r[0], num_objs, p.start_carrying, max_steps);
  }
  if (n == "babyai_unlock_local" || n == "babyai_key_in_box" || n == "babyai_unlock_pickup" ||
      n == "babyai_blocked_unlock_pickup" || n == "babyai_unlock_to_unlock") {
    const auto variant = n == "babyai_unlock_local"       ? UnlockLevel::kLocal
                         : n == "babyai_key_in_box"      ? UnlockLevel::kKeyInBox
                         : n == "babyai_unlock_pickup"   ? UnlockLevel::kPickup
                         : n == "babyai_unlock_to_unlock" ? UnlockLevel::kToUnlock
                                                          : UnlockLevel::kBlockedPickup;
    return std::make_unique<UnlockLevel>(variant, p.distractors, max_steps);
  }
  if (n == "babyai_key_corridor") {
    const ObjType type = p.obj_type == "key" ? kKey : p.obj_type == "box" ? kBox : kBall;
    return std::make_unique<BabyKeyCorridorLevel>(r[0], r[1], type, max_steps);
  }
  LevelGen::Options o;
  o.room_size = r[0];
  o.num_rows = r[1];
  o.num_cols = r[2];
  o.num_dists = p.num_dists;
  if (n == "babyai_goto_seq") {
    o.action_kinds = {LevelGen::kGoTo};
    o.locked_room_prob = 0.0;
    o.locations = false;
    o.unblocking = false;
  } else if (n == "babyai_pickup_loc") {
    o.action_kinds = {LevelGen::kPickup};
    o.instr_kinds = {LevelGen::kAction};
    o.num_dists = 8;
    o.locked_room_prob = 0.0;
    o.unblocking = false;
  } else if (n == "babyai_synth" || n == "babyai_synth_loc" || n == "babyai_synth_seq") {
    if (n != "babyai_synth_seq") o.instr_kinds = {LevelGen::kAction};
    o.locations = n != "babyai_synth";
    o.implicit_unlock = false;
  } else if (n == "babyai_mini_boss_level") {
    o.num_dists = 7;
    o.locked_room_prob = 0.25;
  } else if (n == "babyai_boss_level_no_unlock") {
    o.locked_room_prob = 0.0;
    o.implicit_unlock = false;
  }
  return std::make_unique<LevelGen>(o, max_steps);
}

}  // namespace envpool::minigrid::babyai
