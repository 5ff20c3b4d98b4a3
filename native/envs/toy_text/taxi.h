// Taxi-v3 / Taxi-v4: gymnasium 1.4's toy_text/taxi.py (registered there as
// Taxi-v4; v3 and v4 differ only in the is_rainy / fickle_passenger
// dynamics, and both ids here follow 1.4's, i.e. v4's).
//
// Keywords (gymnasium's constructor, render_mode aside):
//   is_rainy            moves go in the intended direction with probability
//                       rainy_probability, else to either lateral side
//   rainy_probability   default 0.8
//   fickle_passenger    on reset, with probability fickle_probability, the
//                       passenger will change destination (uniformly among
//                       the other three) on the first step the taxi moves
//                       with the passenger aboard
//   fickle_probability  default 0.3
//
// The 5x5 map with walls, the four pads R(0,0) G(0,4) Y(4,0) B(4,3), actions
// 0 south, 1 north, 2 east, 3 west, 4 pickup, 5 dropoff, and the table
// P[s][a] are gymnasium's (_build_dry_transitions / _build_rainy_transitions,
// ported line by line). State s = ((row * 5 + col) * 5 + passenger) * 4 +
// destination, passenger 4 = in the taxi; the start is uniform over the 300
// states with the passenger at a pad that is not the destination.
// Observation: s (int64). Info: "prob" (float64, the probability of the
// transition taken, 1 on reset) and "action_mask" (6 x uint8: gymnasium's
// int8 mask; the core has no int8 type).
// State (GetState/SetState): [s, fickle_step] (fickle_step 0 or 1: whether the
// destination change is still pending).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/env.h"
#include "envs/toy_text/tabular.h"

namespace envpool::toy_text {

class Taxi final : public Env {
 public:
  static constexpr std::int64_t kNumStates = 500;
  static constexpr int kMaxRow = 4, kMaxCol = 4;

  struct Model {
    TransitionTable table;
    std::vector<std::int64_t> initial_states;
  };

  struct Params {
    explicit Params(const Config& config)
        : fickle_passenger(config.GetBool("fickle_passenger")),
          fickle_probability(config.GetDouble("fickle_probability")),
          model(BuildModel(config.GetBool("is_rainy"), config.GetDouble("rainy_probability"))) {
      CheckProbability(fickle_probability, "Taxi: fickle_probability");
    }
    bool fickle_passenger;
    double fickle_probability;
    std::shared_ptr<const Model> model;
  };

  static Config Defaults() {
    Config config;
    config.Set("is_rainy", false);
    config.Set("fickle_passenger", false);
    config.Set("rainy_probability", 0.8);
    config.Set("fickle_probability", 0.3);
    return config;
  }

  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec;
    spec.obs.push_back(DiscreteSpec("obs", kNumStates, DType::kInt64));
    spec.action = DiscreteSpec("action", 6, DType::kInt32);
    spec.info.push_back(BoxSpec("prob", DType::kFloat64, {}));
    spec.info.push_back(BoxSpec("action_mask", DType::kUInt8, {6}, {0.0}, {1.0}));
    spec.reward_low = -10.0;
    spec.reward_high = 20.0;
    return spec;
  }

  explicit Taxi(const Params& params) : params_(params) {}

  void Reset(Rng& rng) override {
    const auto& starts = params_.model->initial_states;
    s_ = starts[static_cast<std::size_t>(
        rng.Integer(0, static_cast<std::int64_t>(starts.size())))];
    fickle_step_ = params_.fickle_passenger && rng.Uniform01() < params_.fickle_probability;
    prob_ = 1.0;
  }

  StepOutcome Step(const ActionView& action, Rng& rng) override {
    const Transition& t = params_.model->table.Sample(
        s_, static_cast<std::int64_t>(action.Scalar<std::int32_t>()), rng);
    const Decoded before = Decode(s_);
    const Decoded after = Decode(t.next);
    std::int64_t next = t.next;
    if (params_.fickle_passenger && fickle_step_ && before.pass == 4 &&
        (after.row != before.row || after.col != before.col)) {
      fickle_step_ = false;
      std::array<int, 3> others{};
      int k = 0;
      for (int d = 0; d < 4; ++d) {
        if (d != before.dest) others[k++] = d;
      }
      next = Encode(after.row, after.col, after.pass, others[rng.Integer(0, 3)]);
    }
    s_ = next;
    prob_ = t.prob;
    StepOutcome out;
    out.reward = t.reward;
    out.terminated = t.terminated;
    return out;
  }

  void Write(const Slot& slot) const override {
    *slot.Obs<std::int64_t>() = s_;
    *slot.Info<double>(0) = prob_;
    std::uint8_t* mask = slot.Info<std::uint8_t>(1);
    const Decoded d = Decode(s_);
    const auto at = [&d](int pad) { return d.row == kLocs[pad][0] && d.col == kLocs[pad][1]; };
    bool at_any_pad = false;
    for (int pad = 0; pad < 4; ++pad) at_any_pad = at_any_pad || at(pad);
    mask[0] = d.row < kMaxRow;
    mask[1] = d.row > 0;
    mask[2] = d.col < kMaxCol && kMap[d.row + 1][2 * d.col + 2] == ':';
    mask[3] = d.col > 0 && kMap[d.row + 1][2 * d.col] == ':';
    mask[4] = d.pass < 4 && at(d.pass);
    mask[5] = d.pass == 4 && (at(d.dest) || at_any_pad);
  }

  std::vector<double> GetState() const override {
    return {static_cast<double>(s_), fickle_step_ ? 1.0 : 0.0};
  }
  void SetState(const std::vector<double>& state) override {
    if (state.size() != 2) throw std::invalid_argument("Taxi state is [s, fickle_step]");
    if (state[1] != 0.0 && state[1] != 1.0) {
      throw std::invalid_argument("Taxi: fickle_step must be 0 or 1");
    }
    s_ = StateIndexFrom(state[0], kNumStates, "Taxi");
    fickle_step_ = state[1] != 0.0;
    prob_ = 1.0;
  }

 private:
  struct Decoded {
    int row, col, pass, dest;
  };

  static constexpr const char* kMap[7] = {
      "+---------+", "|R: | : :G|", "| : | : : |", "| : : : : |",
      "| | : | : |", "|Y| : |B: |", "+---------+",
  };
  static constexpr int kLocs[4][2] = {{0, 0}, {0, 4}, {4, 0}, {4, 3}};

  static std::int64_t Encode(int row, int col, int pass, int dest) {
    return ((static_cast<std::int64_t>(row) * 5 + col) * 5 + pass) * 4 + dest;
  }
  static Decoded Decode(std::int64_t s) {
    Decoded d{};
    d.dest = static_cast<int>(s % 4);
    s /= 4;
    d.pass = static_cast<int>(s % 5);
    s /= 5;
    d.col = static_cast<int>(s % 5);
    d.row = static_cast<int>(s / 5);
    return d;
  }
  static int PadAt(int row, int col) {
    for (int pad = 0; pad < 4; ++pad) {
      if (kLocs[pad][0] == row && kLocs[pad][1] == col) return pad;
    }
    return -1;
  }
  static bool Open(int map_row, int map_col) { return kMap[map_row][map_col] == ':'; }

  // gymnasium's _pickup / _dropoff.
  static void Pickup(int row, int col, int& pass, double& reward) {
    if (pass < 4 && PadAt(row, col) == pass) {
      pass = 4;
    } else {
      reward = -10.0;
    }
  }
  static void Dropoff(int row, int col, int dest, int& pass, double& reward, bool& terminated) {
    const int pad = PadAt(row, col);
    if (pad == dest && pass == 4) {
      pass = dest;
      terminated = true;
      reward = 20.0;
    } else if (pad >= 0 && pass == 4) {
      pass = pad;
    } else {
      reward = -10.0;
    }
  }

  // gymnasium's _calc_new_position (lateral moves when rainy).
  static std::pair<int, int> NewPosition(int row, int col, int dr, int dc) {
    const int new_row = std::clamp(row + dr, 0, kMaxRow);
    const int new_col = std::clamp(col + dc, 0, kMaxCol);
    if (dc == 1 && !Open(1 + new_row, 2 * new_col)) return {row, col};
    if (dc == -1 && !Open(1 + new_row, 2 * new_col + 2)) return {row, col};
    return {new_row, new_col};
  }

  static void AddDry(TransitionTable& table, int row, int col, int pass, int dest, int action) {
    int new_row = row, new_col = col, new_pass = pass;
    double reward = -1.0;
    bool terminated = false;
    if (action == 0) {
      new_row = std::min(row + 1, kMaxRow);
    } else if (action == 1) {
      new_row = std::max(row - 1, 0);
    }
    if (action == 2 && Open(1 + row, 2 * col + 2)) {
      new_col = std::min(col + 1, kMaxCol);
    } else if (action == 3 && Open(1 + row, 2 * col)) {
      new_col = std::max(col - 1, 0);
    } else if (action == 4) {
      Pickup(row, col, new_pass, reward);
    } else if (action == 5) {
      Dropoff(row, col, dest, new_pass, reward, terminated);
    }
    table.Add(Encode(row, col, pass, dest), action,
              Transition{1.0, Encode(new_row, new_col, new_pass, dest), reward, terminated});
  }

  static void AddRainy(TransitionTable& table, int row, int col, int pass, int dest, int action,
                       double rainy_probability) {
    // (forward, left, right) (drow, dcol) of south, north, east, west.
    static constexpr int kMoves[4][3][2] = {
        {{1, 0}, {0, 1}, {0, -1}},
        {{-1, 0}, {0, -1}, {0, 1}},
        {{0, 1}, {-1, 0}, {1, 0}},
        {{0, -1}, {1, 0}, {-1, 0}},
    };
    const double lateral = (1.0 - rainy_probability) / 2.0;
    int new_row = row, new_col = col, new_pass = pass;
    std::pair<int, int> left{row, col}, right{row, col};
    double reward = -1.0;
    bool terminated = false;
    if ((action == 0 && row < kMaxRow) || (action == 1 && row > 0) ||
        (action == 2 && Open(1 + row, 2 * col + 2)) || (action == 3 && Open(1 + row, 2 * col))) {
      new_row = std::clamp(row + kMoves[action][0][0], 0, kMaxRow);
      new_col = std::clamp(col + kMoves[action][0][1], 0, kMaxCol);
      left = NewPosition(row, col, kMoves[action][1][0], kMoves[action][1][1]);
      right = NewPosition(row, col, kMoves[action][2][0], kMoves[action][2][1]);
    } else if (action == 4) {
      Pickup(row, col, new_pass, reward);
    } else if (action == 5) {
      Dropoff(row, col, dest, new_pass, reward, terminated);
    }
    const std::int64_t state = Encode(row, col, pass, dest);
    const std::int64_t intended = Encode(new_row, new_col, new_pass, dest);
    if (action <= 3) {
      table.Add(state, action, Transition{rainy_probability, intended, -1.0, terminated});
      table.Add(state, action,
                Transition{lateral, Encode(left.first, left.second, new_pass, dest), -1.0,
                           terminated});
      table.Add(state, action,
                Transition{lateral, Encode(right.first, right.second, new_pass, dest), -1.0,
                           terminated});
    } else {
      table.Add(state, action, Transition{1.0, intended, reward, terminated});
    }
  }

  static std::shared_ptr<const Model> BuildModel(bool is_rainy, double rainy_probability) {
    CheckProbability(rainy_probability, "Taxi: rainy_probability");
    auto m = std::make_shared<Model>();
    m->table = TransitionTable(kNumStates, 6);
    for (int row = 0; row <= kMaxRow; ++row) {
      for (int col = 0; col <= kMaxCol; ++col) {
        for (int pass = 0; pass < 5; ++pass) {
          for (int dest = 0; dest < 4; ++dest) {
            if (pass < 4 && pass != dest) m->initial_states.push_back(Encode(row, col, pass, dest));
            for (int action = 0; action < 6; ++action) {
              if (is_rainy) {
                AddRainy(m->table, row, col, pass, dest, action, rainy_probability);
              } else {
                AddDry(m->table, row, col, pass, dest, action);
              }
            }
          }
        }
      }
    }
    return m;
  }

  Params params_;
  std::int64_t s_ = 0;
  bool fickle_step_ = false;
  double prob_ = 1.0;
};

}  // namespace envpool::toy_text
