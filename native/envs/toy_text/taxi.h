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
// State (GetState/SetState): [s, fickle_step, orientation] (fickle_step 0 or 1:
// whether the destination change is still pending; orientation 0 .. 3: the way
// the taxi's picture faces, the last move action since the reset, 0 after it).
// SetState also takes [s, fickle_step], which keeps the orientation (as setting
// gymnasium's env.s keeps its taxi_orientation).
//
// render(): gymnasium's 536 x 456 picture (_render_gui("rgb_array"), see Render
// below); the hidden keyword _img_dir is gymnasium's toy_text/img folder (set by
// envpool.tasks.toy_text).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/env.h"
#include "envs/common/draw/picture.h"
#include "envs/toy_text/picture.h"
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
          model(BuildModel(config.GetBool("is_rainy"), config.GetDouble("rainy_probability"))),
          img_dir(config.GetString("_img_dir")) {
      CheckProbability(fickle_probability, "Taxi: fickle_probability");
    }
    bool fickle_passenger;
    double fickle_probability;
    std::shared_ptr<const Model> model;
    std::string img_dir;  // gymnasium's toy_text/img folder; "": unknown
  };

  static Config Defaults() {
    Config config;
    config.Set("is_rainy", false);
    config.Set("fickle_passenger", false);
    config.Set("rainy_probability", 0.8).In(0, 1);
    config.Set("fickle_probability", 0.3).In(0, 1);
    config.Set("_img_dir", std::string());
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

  explicit Taxi(const Params& params) : params_(params), sprites_(params.img_dir, "Taxi") {}

  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return draw::FixedFrame("Taxi", kWindowW, kWindowH, kToyTextFps, width, height, camera_id);
  }

  // gymnasium 1.4's picture: the canvas colour, img/taxi/background.png and house.png,
  // marker_destination.png on the destination pad, passenger.png on the passenger's pad
  // (not when aboard), and the taxi (taxi_v / taxi_h, the _full ones with the passenger
  // aboard) facing the last move: south is taxi_v flipped upside down, north taxi_v, east
  // taxi_h, west taxi_h mirrored. (gymnasium takes the orientation from the last action
  // when it draws a frame; after every step drawn, as in a video, that is the last move.)
  void Render(int /*width*/, int /*height*/, int /*camera_id*/, std::uint8_t* out) override {
    auto image = [this](const char* name) -> const RgbaImage& {
      return sprites_.Get(std::string("taxi/") + name);
    };
    auto cell = [](int row, int col) {  // get_surf_loc: the cell's top left corner
      return std::array<int, 2>{kGridX + col * kCellW, kGridY + row * kCellH};
    };
    if (!taxis_) taxis_ = LoadTaxis();
    Canvas canvas(kWindowW, kWindowH, out);
    canvas.Fill({250, 250, 246});
    canvas.Blit(image("background.png"), 0, 80);
    canvas.Blit(image("house.png"), 403, 36);
    const Decoded d = Decode(s_);
    const auto dest = cell(kLocs[d.dest][0], kLocs[d.dest][1]);
    canvas.Blit(image("marker_destination.png"), dest[0], dest[1]);
    if (d.pass < 4) {
      const auto at = cell(kLocs[d.pass][0], kLocs[d.pass][1]);
      canvas.Blit(image("passenger.png"), at[0] + 35, at[1] + 19);
    }
    const auto at = cell(d.row, d.col);
    const bool vertical = orientation_ < 2;
    canvas.Blit((*taxis_)[(d.pass == 4 ? 4 : 0) + orientation_], at[0] + (vertical ? 25 : 15),
                at[1] + (vertical ? 0 : 9));
  }

  void Reset(Rng& rng) override {
    const auto& starts = params_.model->initial_states;
    s_ = starts[static_cast<std::size_t>(
        rng.Integer(0, static_cast<std::int64_t>(starts.size())))];
    fickle_step_ = params_.fickle_passenger && rng.Uniform01() < params_.fickle_probability;
    prob_ = 1.0;
    orientation_ = 0;
  }

  StepOutcome Step(const ActionView& action, Rng& rng) override {
    const std::int32_t a = action.Scalar<std::int32_t>();
    const Transition& t = params_.model->table.Sample(s_, static_cast<std::int64_t>(a), rng);
    if (a >= 0 && a < 4) orientation_ = a;  // (the picture's taxi faces its last move)
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
    return {static_cast<double>(s_), fickle_step_ ? 1.0 : 0.0, static_cast<double>(orientation_)};
  }
  void SetState(const std::vector<double>& state) override {
    if (state.size() != 2 && state.size() != 3) {
      throw std::invalid_argument("Taxi state is [s, fickle_step] or [s, fickle_step, "
                                  "orientation], got " + std::to_string(state.size()) +
                                  " numbers");
    }
    if (state[1] != 0.0 && state[1] != 1.0) {
      throw std::invalid_argument("Taxi: fickle_step must be 0 or 1");
    }
    if (state.size() == 3 && state[2] != 0.0 && state[2] != 1.0 && state[2] != 2.0 &&
        state[2] != 3.0) {
      throw std::invalid_argument("Taxi: orientation must be 0, 1, 2 or 3 (south, north, "
                                  "east, west), got " + std::to_string(state[2]));
    }
    s_ = StateIndexFrom(state[0], kNumStates, "Taxi");
    fickle_step_ = state[1] != 0.0;
    if (state.size() == 3) orientation_ = static_cast<int>(state[2]);
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
  // gymnasium's WINDOW_SIZE, GRID_ORIGIN and CELL_SIZE.
  static constexpr int kWindowW = 536, kWindowH = 456;
  static constexpr int kGridX = 48, kGridY = 128, kCellW = 88, kCellH = 56;

  // The taxi facing south, north, east, west, empty (0 .. 3) then full (4 .. 7).
  std::unique_ptr<const std::array<RgbaImage, 8>> LoadTaxis() {
    auto taxis = std::make_unique<std::array<RgbaImage, 8>>();
    for (int full = 0; full < 2; ++full) {
      const std::string suffix = full ? "_full.png" : ".png";
      RgbaImage* four = taxis->data() + 4 * full;
      four[1] = sprites_.Get("taxi/taxi_v" + suffix);
      four[0] = four[1];
      draw::FlipImage(&four[0], false, true);
      four[2] = sprites_.Get("taxi/taxi_h" + suffix);
      four[3] = four[2];
      draw::FlipImage(&four[3], true, false);
    }
    return taxis;
  }

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
  int orientation_ = 0;  // the last move action since the reset (the picture's taxi)
  Sprites sprites_;      // gymnasium's images, read once
  std::unique_ptr<const std::array<RgbaImage, 8>> taxis_;  // the eight taxis, once read
};

}  // namespace envpool::toy_text
