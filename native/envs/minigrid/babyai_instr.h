// BabyAI's instruction language (minigrid/envs/babyai/core/verifier.py, the `minigrid`
// package 3.2.0): object descriptions (ObjDesc with find_matching_objs and surface), the
// action instructions (GoTo, Open, Pickup, PutNext), their sequences (Before, After, And)
// and the verifiers that decide, each step, whether the mission succeeded or failed.
//
// Object identity: the package compares objects with `is` (`front_cell is door`,
// `self.env.carrying is obj`). Here every object a BabyAI level creates carries a tag
// (Cell::tag) unique in its grid, so identity is an equal, nonzero tag. Walls carry tag 0:
// an ObjDesc without a type (PickupDist's "the grey object") matches walls, which count for
// its surface ("a" / "the") but are never picked up, opened nor moved. An object a box held
// has tag 0 too (it was no object of the grid when the mission was drawn).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "envs/minigrid/room_grid.h"
#include "envs/minigrid/world.h"

namespace envpool::minigrid::babyai {

// LOC_NAMES (None first).
enum class Loc : std::uint8_t { kNone, kLeft, kRight, kFront, kBehind };

inline const char* LocName(Loc loc) {
  switch (loc) {
    case Loc::kLeft:
      return "left";
    case Loc::kRight:
      return "right";
    case Loc::kFront:
      return "front";
    case Loc::kBehind:
      return "behind";
    default:
      return "";
  }
}

// ObjDesc(type, color, loc): kEmpty type and a negative color are None.
struct ObjDesc {
  ObjType type = kEmpty;
  int color = -1;
  Loc loc = Loc::kNone;
  std::vector<std::uint8_t> obj_set;  // the matching objects' tags
  std::vector<Pos> obj_poss;

  ObjDesc() = default;
  ObjDesc(ObjType t, int c, Loc l = Loc::kNone) : type(t), color(c), loc(l) {}

  bool Tracks(std::uint8_t tag) const {
    return tag != 0 && std::find(obj_set.begin(), obj_set.end(), tag) != obj_set.end();
  }

  // find_matching_objs(env, use_location): scans the grid column by column (x, then y).
  // Without use_location, only the positions of the objects already in obj_set.
  void FindMatchingObjs(const World& w, const RoomGrid& rooms, bool use_location = true) {
    if (use_location) obj_set.clear();
    obj_poss.clear();
    const RoomGrid::Room& agent_room = rooms.RoomFromPos(w.agent_pos);
    const Pos d1 = DirVec(w.agent_dir);
    const Pos d2 = {-d1.y, d1.x};
    for (int i = 0; i < w.grid.Width(); ++i) {
      for (int j = 0; j < w.grid.Height(); ++j) {
        const Cell& cell = w.grid.Get(i, j);
        if (cell.Empty()) continue;
        if (!use_location) {
          // walls (tag 0) are tracked when any is: they never move, so their squares are
          // those find_matching_objs found.
          const bool tracked =
              cell.tag == 0 ? std::find(obj_set.begin(), obj_set.end(), 0) != obj_set.end()
                            : Tracks(cell.tag);
          if (!tracked) continue;
        }
        if (type != kEmpty && cell.type != type) continue;
        if (color >= 0 && cell.color != color) continue;
        if (use_location && loc != Loc::kNone) {
          if (!agent_room.PosInside(i, j)) continue;
          const int vx = i - w.agent_pos.x;
          const int vy = j - w.agent_pos.y;
          const int dot1 = vx * d1.x + vy * d1.y;
          const int dot2 = vx * d2.x + vy * d2.y;
          const bool matches = (loc == Loc::kLeft && dot2 < 0) || (loc == Loc::kRight && dot2 > 0) ||
                               (loc == Loc::kFront && dot1 > 0) || (loc == Loc::kBehind && dot1 < 0);
          if (!matches) continue;
        }
        if (use_location) obj_set.push_back(cell.tag);
        obj_poss.push_back({i, j});
      }
    }
  }

  // surface(env).
  std::string Surface(const World& w, const RoomGrid& rooms) {
    FindMatchingObjs(w, rooms);
    std::string s = type != kEmpty ? TypeName(type) : "object";
    if (color >= 0) s = std::string(ColorName(static_cast<Color>(color))) + " " + s;
    if (loc == Loc::kFront) {
      s += " in front of you";
    } else if (loc == Loc::kBehind) {
      s += " behind you";
    } else if (loc != Loc::kNone) {
      s += std::string(" on your ") + LocName(loc);
    }
    return (obj_set.size() > 1 ? "a " : "the ") + s;
  }
};

// verify()'s answers; kFalse is a SeqInstr's a_done / b_done before the first verify.
enum class Status : std::uint8_t { kFalse, kContinue, kSuccess, kFailure };

// The square of the object with this (nonzero) tag: its cur_pos, (-1, -1) once carried.
inline Pos CurPos(const World& w, std::uint8_t tag) {
  for (int j = 0; j < w.grid.Height(); ++j) {
    for (int i = 0; i < w.grid.Width(); ++i) {
      if (w.grid.Get(i, j).tag == tag) return {i, j};
    }
  }
  return {-1, -1};
}

inline bool PosNextTo(Pos a, Pos b) { return std::abs(a.x - b.x) + std::abs(a.y - b.y) == 1; }

// An instruction: one of the four actions, or a Before / After / And of two.
class Instr {
 public:
  enum Kind : std::uint8_t { kGoTo, kOpen, kPickup, kPutNext, kBefore, kAfter, kAnd };

  static std::unique_ptr<Instr> GoTo(ObjDesc desc) { return MakeAction(kGoTo, std::move(desc)); }
  static std::unique_ptr<Instr> Open(ObjDesc desc, bool strict = false) {
    return MakeAction(kOpen, std::move(desc), {}, strict);
  }
  static std::unique_ptr<Instr> Pickup(ObjDesc desc, bool strict = false) {
    return MakeAction(kPickup, std::move(desc), {}, strict);
  }
  static std::unique_ptr<Instr> PutNext(ObjDesc move, ObjDesc fixed, bool strict = false) {
    return MakeAction(kPutNext, std::move(move), std::move(fixed), strict);
  }
  static std::unique_ptr<Instr> Seq(Kind kind, std::unique_ptr<Instr> a,
                                    std::unique_ptr<Instr> b, bool strict = false) {
    auto instr = std::make_unique<Instr>();
    instr->kind = kind;
    instr->a = std::move(a);
    instr->b = std::move(b);
    instr->strict = strict;
    return instr;
  }

  Kind kind = kGoTo;
  ObjDesc desc;   // desc, or PutNext's desc_move
  ObjDesc fixed;  // PutNext's desc_fixed
  bool strict = false;
  std::unique_ptr<Instr> a;  // instr_a, instr_b of a sequence
  std::unique_ptr<Instr> b;

  bool IsSeq() const { return kind == kBefore || kind == kAfter || kind == kAnd; }

  // surface(env): the mission text.
  std::string Surface(const World& w, const RoomGrid& rooms) {
    switch (kind) {
      case kGoTo:
        return "go to " + desc.Surface(w, rooms);
      case kOpen:
        return "open " + desc.Surface(w, rooms);
      case kPickup:
        return "pick up " + desc.Surface(w, rooms);
      case kPutNext: {
        std::string s = "put " + desc.Surface(w, rooms);
        return s + " next to " + fixed.Surface(w, rooms);
      }
      case kBefore: {
        std::string s = a->Surface(w, rooms);
        return s + ", then " + b->Surface(w, rooms);
      }
      case kAfter: {
        std::string s = a->Surface(w, rooms);
        return s + " after you " + b->Surface(w, rooms);
      }
      default: {
        std::string s = a->Surface(w, rooms);
        return s + " and " + b->Surface(w, rooms);
      }
    }
  }

  // reset_verifier(env).
  void ResetVerifier(const World& w, const RoomGrid& rooms) {
    if (IsSeq()) {
      a->ResetVerifier(w, rooms);
      b->ResetVerifier(w, rooms);
      a_done_ = b_done_ = Status::kFalse;
      return;
    }
    pre_carrying_ = false;
    pre_carrying_tag_ = 0;
    desc.FindMatchingObjs(w, rooms);
    if (kind == kPutNext) fixed.FindMatchingObjs(w, rooms);
  }

  // RoomGridLevel.update_objs_poss: after a drop, the tracked objects' squares.
  void UpdateObjsPoss(const World& w, const RoomGrid& rooms) {
    if (IsSeq()) {
      a->UpdateObjsPoss(w, rooms);
      b->UpdateObjsPoss(w, rooms);
      return;
    }
    desc.FindMatchingObjs(w, rooms, false);
    if (kind == kPutNext) fixed.FindMatchingObjs(w, rooms, false);
  }

  // PutNextInstr.objs_next: a desc_move object already next to a desc_fixed square.
  bool ObjsNext(const World& w) const {
    for (const std::uint8_t tag : desc.obj_set) {
      const Pos pos_a = CurPos(w, tag);
      for (const Pos& pos_b : fixed.obj_poss) {
        if (PosNextTo(pos_a, pos_b)) return true;
      }
    }
    return false;
  }

  // verify(action) (BABYAI_DONE_ACTIONS unset: the action instructions' verify_action).
  // (Kind's kPickup shadows the action's here: the action is minigrid::kPickup.)
  Status Verify(const World& w, int action) {
    switch (kind) {
      case kGoTo: {
        const Pos front = w.FrontPos();
        for (const Pos& pos : desc.obj_poss) {
          if (pos == front) return Status::kSuccess;
        }
        return Status::kContinue;
      }
      case kOpen: {
        if (action != kToggle) return Status::kContinue;
        const Pos front = w.FrontPos();
        const Cell& cell = w.grid.Get(front.x, front.y);
        if (!cell.Empty() && desc.Tracks(cell.tag) && cell.is_open) return Status::kSuccess;
        if (strict && cell.type == kDoor) return Status::kFailure;
        return Status::kContinue;
      }
      case kPickup: {
        const bool pre = pre_carrying_;
        SetPreCarrying(w);
        if (action != minigrid::kPickup) return Status::kContinue;
        if (!pre && !w.carrying.Empty() && desc.Tracks(w.carrying.tag)) return Status::kSuccess;
        if (strict && !w.carrying.Empty()) return Status::kFailure;
        SetPreCarrying(w);
        return Status::kContinue;
      }
      case kPutNext: {
        const bool pre = pre_carrying_;
        const std::uint8_t pre_tag = pre_carrying_tag_;
        SetPreCarrying(w);
        if (strict && action == minigrid::kPickup && !w.carrying.Empty()) return Status::kFailure;
        if (action != kDrop) return Status::kContinue;
        for (const std::uint8_t tag : desc.obj_set) {
          if (!pre || tag == 0 || pre_tag != tag) continue;
          const Pos pos_a = CurPos(w, tag);
          for (const Pos& pos_b : fixed.obj_poss) {
            if (PosNextTo(pos_a, pos_b)) return Status::kSuccess;
          }
        }
        return Status::kContinue;
      }
      case kBefore:
        if (a_done_ == Status::kSuccess) {
          b_done_ = b->Verify(w, action);
          if (b_done_ == Status::kFailure) return Status::kFailure;
          if (b_done_ == Status::kSuccess) return Status::kSuccess;
        } else {
          a_done_ = a->Verify(w, action);
          if (a_done_ == Status::kFailure) return Status::kFailure;
          if (a_done_ == Status::kSuccess) return Verify(w, action);
          if (strict && b->Verify(w, action) == Status::kSuccess) return Status::kFailure;
        }
        return Status::kContinue;
      case kAfter:
        if (b_done_ == Status::kSuccess) {
          a_done_ = a->Verify(w, action);
          if (a_done_ == Status::kSuccess) return Status::kSuccess;
          if (a_done_ == Status::kFailure) return Status::kFailure;
        } else {
          b_done_ = b->Verify(w, action);
          if (b_done_ == Status::kFailure) return Status::kFailure;
          if (b_done_ == Status::kSuccess) return Verify(w, action);
          if (strict && a->Verify(w, action) == Status::kSuccess) return Status::kFailure;
        }
        return Status::kContinue;
      default:  // kAnd
        if (a_done_ != Status::kSuccess) a_done_ = a->Verify(w, action);
        if (b_done_ != Status::kSuccess) b_done_ = b->Verify(w, action);
        if (a_done_ == Status::kSuccess && b_done_ == Status::kSuccess) return Status::kSuccess;
        return Status::kContinue;
    }
  }

  // RoomGridLevel.num_navs_needed.
  int NumNavsNeeded() const {
    if (kind == kPutNext) return 2;
    if (IsSeq()) return a->NumNavsNeeded() + b->NumNavsNeeded();
    return 1;
  }

 private:
  static std::unique_ptr<Instr> MakeAction(Kind kind, ObjDesc desc, ObjDesc fixed = {},
                                       bool strict = false) {
    auto instr = std::make_unique<Instr>();
    instr->kind = kind;
    instr->desc = std::move(desc);
    instr->fixed = std::move(fixed);
    instr->strict = strict;
    return instr;
  }

  void SetPreCarrying(const World& w) {
    pre_carrying_ = !w.carrying.Empty();
    pre_carrying_tag_ = w.carrying.tag;
  }

  // PickupInstr's / PutNextInstr's preCarrying (None: false).
  bool pre_carrying_ = false;
  std::uint8_t pre_carrying_tag_ = 0;
  Status a_done_ = Status::kFalse;
  Status b_done_ = Status::kFalse;
};

}  // namespace envpool::minigrid::babyai
