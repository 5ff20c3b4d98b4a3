// The discrete action set of a ViZDoom env with use_combined_action=True:
// every combination of the available buttons' values that makes sense, in
// sail-sg EnvPool's enumeration order (so a policy's action indices mean the
// same buttons here and there).
//
// Buttons are visited in the order of vizdoom's Button enum (0 .. 42); the
// enumeration is depth-first, "not pressed" before "pressed":
// - opposing pairs (MOVE_RIGHT/MOVE_LEFT, MOVE_BACKWARD/MOVE_FORWARD,
//   TURN_RIGHT/TURN_LEFT, LOOK_UP/LOOK_DOWN, MOVE_UP/MOVE_DOWN,
//   SELECT_NEXT/PREV_WEAPON, SELECT_NEXT/PREV_ITEM), when both are available:
//   neither, the first, the second; never both;
// - SELECT_WEAPON1 .. SELECT_WEAPON0: none, then each available one alone;
// - SPEED with force_speed: always pressed;
// - delta buttons with a (num, min, max) setting of num >= 2: num values from
//   min in steps of (max - min) / (num - 1), accumulated in float as EnvPool
//   does; otherwise 0;
// - any other available button: released, pressed.
// Each action is a vector with one value per available button, in the
// order the game lists them.
#pragma once

#include <array>
#include <vector>

#include "ViZDoom.h"

namespace envpool::vizdoom_envs {

struct DeltaSetting {
  int num = 0;
  float min = 0;
  float max = 0;
};

using DoomAction = std::vector<double>;

class ActionSetBuilder {
 public:
  static constexpr int kButtons = static_cast<int>(vizdoom::MOVE_UP_DOWN_DELTA) + 1;

  ActionSetBuilder(const std::vector<vizdoom::Button>& buttons, bool force_speed,
                   const std::array<DeltaSetting, kButtons>& delta)
      : num_available_(buttons.size()), force_speed_(force_speed), delta_(delta) {
    column_.fill(-1);
    for (std::size_t i = 0; i < buttons.size(); ++i) column_[buttons[i]] = static_cast<int>(i);
    value_.fill(0.0);
  }

  std::vector<DoomAction> Build() {
    result_.clear();
    Visit(0);
    return result_;
  }

 private:
  static constexpr int kWeapon1 = vizdoom::SELECT_WEAPON1;
  static constexpr int kWeapon0 = vizdoom::SELECT_WEAPON0;
  static constexpr int kFirstDelta = vizdoom::LOOK_UP_DOWN_DELTA;

  static bool StartsPair(int b) {
    return b == vizdoom::MOVE_RIGHT || b == vizdoom::MOVE_BACKWARD || b == vizdoom::TURN_RIGHT ||
           b == vizdoom::LOOK_UP || b == vizdoom::MOVE_UP || b == vizdoom::SELECT_NEXT_WEAPON ||
           b == vizdoom::SELECT_NEXT_ITEM;
  }

  void Set(int button, double v) { value_[column_[button]] = v; }

  void Visit(int b) {
    if (b == kButtons) {
      result_.emplace_back(value_.begin(), value_.begin() + num_available_);
      return;
    }
    if (b >= kFirstDelta) {
      const DeltaSetting& d = delta_[b];
      if (d.num <= 1 || column_[b] < 0) return Visit(b + 1);
      const float step = (d.max - d.min) / static_cast<float>(d.num - 1);
      float a = d.min;
      for (int i = 0; i < d.num; ++i, a += step) {
        Set(b, a);
        Visit(b + 1);
      }
      Set(b, 0.0);
      return;
    }
    if (b >= kWeapon1 && b <= kWeapon0) {  // reached at kWeapon1 only
      const int next = kWeapon0 + 1;
      Visit(next);
      for (int w = kWeapon1; w <= kWeapon0; ++w) {
        if (column_[w] < 0) continue;
        Set(w, 1.0);
        Visit(next);
        Set(w, 0.0);
      }
      return;
    }
    if (StartsPair(b) && column_[b] >= 0 && column_[b + 1] >= 0) {
      Visit(b + 2);
      Set(b, 1.0);
      Visit(b + 2);
      Set(b, 0.0);
      Set(b + 1, 1.0);
      Visit(b + 2);
      Set(b + 1, 0.0);
      return;
    }
    if (column_[b] < 0) return Visit(b + 1);
    if (b == vizdoom::SPEED && force_speed_) {
      Set(b, 1.0);
      Visit(b + 1);
      Set(b, 0.0);
      return;
    }
    Visit(b + 1);
    Set(b, 1.0);
    Visit(b + 1);
    Set(b, 0.0);
  }

  std::size_t num_available_;
  bool force_speed_;
  std::array<DeltaSetting, kButtons> delta_;
  std::array<int, kButtons> column_{};
  std::array<double, kButtons> value_{};
  std::vector<DoomAction> result_;
};

}  // namespace envpool::vizdoom_envs
