// Snake-v1: jumanji 1.1.2's environments/routing/snake (12 x 12, time_limit 4000).
//
// Reset: `key, snake_key, fruit_key = split(key, 3)`; the head is randint(snake_key, (2,),
// 0, (12, 12)) (jax_random::RandIntAt), the body that one cell, and the fruit
// choice(fruit_key, 144, p=cells off the body) (jax_random::ChoiceWeighted). body_state
// holds each body cell's age (the head = length, the tail = 1). A step: `key, fruit_key =
// split(state.key)`; the head moves by the action (0 up, 1 right, 2 down, 3 left); eating
// the fruit grows the snake (body_state kept, the head set to length + 1) and draws a new
// fruit from fruit_key, else every age drops by one (clipped at 0) and the head takes the
// length. The action mask forbids moves off the board or into the body (the tail's cell,
// which moves away, is allowed). The episode ends (termination) after a move outside the
// mask, when the body fills the board, or at step_count >= 4000. Reward: 1.0 for a fruit.
//
// A move off the board keeps jax's indexing, which the observation of that last step
// shows: the new head's row or column -1 wraps to 11 (jnp's negative index), 12 drops the
// write (an out-of-bounds scatter is dropped).
//
// Observation: grid (12, 12, 5) float32 = [body, head, tail, fruit, body_state /
// max(1, max(body_state))], step_count, action_mask. Keywords (sail-sg EnvPool's):
// snake_head_position and snake_fruit_position ("" or "row,col": where every episode
// starts; a head without a fruit draws the fruit as above).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "envs/common/keywords.h"
#include "envs/jumanji/jumanji_env.h"

namespace envpool::jumanji {

class Snake final : public JumanjiEnv {
 public:
  static constexpr int kRows = 12;
  static constexpr int kCols = 12;
  static constexpr int kCells = kRows * kCols;
  static constexpr int kTimeLimit = 4000;

  struct Params {
    std::string head_position;
    std::string fruit_position;
    std::vector<int> head;   // parsed
    std::vector<int> fruit;  // parsed
    static Keywords<Params> Keys() {
      Keywords<Params> k;
      k.Add("snake_head_position", std::string(), &Params::head_position);
      k.Add("snake_fruit_position", std::string(), &Params::fruit_position);
      return k;
    }
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      head = ParseInts("snake_head_position", head_position, 2, 0, kRows - 1);
      fruit = ParseInts("snake_fruit_position", fruit_position, 2, 0, kRows - 1);
    }
  };
  static Config Defaults() { return Params::Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec;
    spec.obs_layout = ObsLayout::kDict;
    spec.obs.push_back(BoxSpec("grid", DType::kFloat32, {kRows, kCols, 5}, {0.0}, {1.0}));
    spec.obs.push_back(DiscreteSpec("step_count", kTimeLimit, DType::kInt32));
    spec.obs.push_back(BoxSpec("action_mask", DType::kBool, {4}));
    spec.action = DiscreteSpec("action", 4, DType::kInt32);
    spec.reward_low = 0.0;
    spec.reward_high = 1.0;
    return spec;
  }

  explicit Snake(const Params& params) : params_(params) {}
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return JumanjiFrame(width, height, camera_id);
  }

  void Reset(Rng& /*rng*/) override {
    const Key use = ResetKey();
    key_ = jax_random::SplitAt(use, 0);
    const Key snake_key = jax_random::SplitAt(use, 1);
    const Key fruit_key = jax_random::SplitAt(use, 2);
    if (!params_.head.empty()) {
      head_ = {params_.head[0], params_.head[1]};
    } else {
      head_ = {jax_random::RandIntAt(snake_key, 0, 0, kRows),
               jax_random::RandIntAt(snake_key, 1, 0, kCols)};
    }
    body_state_.fill(0);
    body_state_[head_[0] * kCols + head_[1]] = 1;
    if (!params_.fruit.empty()) {
      fruit_ = {params_.fruit[0], params_.fruit[1]};
    } else {
      SampleFruit(fruit_key);
    }
    length_ = 1;
    step_count_ = 0;
    mask_ = ActionMask();
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const int a = action.Scalar<std::int32_t>();
    const bool valid = mask_[a];
    const Key fruit_key = jax_random::SplitAt(key_, 1);
    key_ = jax_random::SplitAt(key_, 0);
    head_ = {head_[0] + kMoves[a][0], head_[1] + kMoves[a][1]};
    const bool eaten = head_ == fruit_;
    length_ += eaten ? 1 : 0;
    if (!eaten) {
      for (auto& age : body_state_) age = age > 1 ? age - 1 : 0;
    }
    const int head_cell = ScatterCell(head_);
    if (head_cell >= 0) body_state_[head_cell] = length_;
    if (eaten) SampleFruit(fruit_key);
    ++step_count_;
    mask_ = ActionMask();
    bool full = true;
    for (auto age : body_state_) full = full && age > 0;
    const bool done = !valid || full || step_count_ >= kTimeLimit;
    return Outcome(eaten ? 1.0F : 0.0F, done ? StepType::kTermination : StepType::kMid);
  }

  void Write(const Slot& slot) const override {
    float* grid = slot.Obs<float>(0);
    std::int32_t longest = 1;
    for (auto age : body_state_) longest = age > longest ? age : longest;
    const int head_cell = ScatterCell(head_);
    const int fruit_cell = fruit_[0] * kCols + fruit_[1];
    for (int i = 0; i < kCells; ++i) {
      const std::int32_t age = body_state_[i];
      float* cell = grid + i * 5;
      cell[0] = age > 0 ? 1.0F : 0.0F;
      cell[1] = i == head_cell ? 1.0F : 0.0F;
      cell[2] = age == 1 ? 1.0F : 0.0F;
      cell[3] = i == fruit_cell ? 1.0F : 0.0F;
      cell[4] = static_cast<float>(age) / static_cast<float>(longest);
    }
    *slot.Obs<std::int32_t>(1) = step_count_;
    bool* mask = slot.Obs<bool>(2);
    for (int m = 0; m < 4; ++m) mask[m] = mask_[m];
  }

 private:
  // Snake.MOVES: up, right, down, left as (row, col) steps.
  static constexpr int kMoves[4][2] = {{-1, 0}, {0, 1}, {1, 0}, {0, -1}};

  // The cell `x.at[row, col].set(...)` writes: a negative index counts from the end, one
  // still outside drops the write (-1).
  static int ScatterCell(const std::array<int, 2>& pos) {
    const int row = pos[0] < 0 ? pos[0] + kRows : pos[0];
    const int col = pos[1] < 0 ? pos[1] + kCols : pos[1];
    if (row < 0 || row >= kRows || col < 0 || col >= kCols) return -1;
    return row * kCols + col;
  }

  void SampleFruit(const Key& key) {
    std::vector<float> p(kCells);
    for (int i = 0; i < kCells; ++i) p[i] = body_state_[i] > 0 ? 0.0F : 1.0F;
    const int index = jax_random::ChoiceWeighted(key, p);
    fruit_ = {index / kCols, index % kCols};
  }

  std::array<bool, 4> ActionMask() const {
    std::array<bool, 4> mask{};
    for (int m = 0; m < 4; ++m) {
      const int row = head_[0] + kMoves[m][0];
      const int col = head_[1] + kMoves[m][1];
      const bool outside = row < 0 || row >= kRows || col < 0 || col >= kCols;
      mask[m] = !outside && body_state_[row * kCols + col] - 1 <= 0;
    }
    return mask;
  }

  // jumanji's State (a chex dataclass: its fields sorted by name): action_mask, body
  // (body_state > 0), body_state, fruit_position and head_position (Position(row, col);
  // the head as moved, off the board after a move out), key, length, step_count, tail
  // (body_state == 1).
  void WriteState(StateLeaves& out) const override {
    std::array<bool, kCells> body{};
    std::array<bool, kCells> tail{};
    for (int i = 0; i < kCells; ++i) {
      body[i] = body_state_[i] > 0;
      tail[i] = body_state_[i] == 1;
    }
    out.Add(mask_, {4}).Add(body, {kRows, kCols}).Add(body_state_, {kRows, kCols});
    out.Scalar(fruit_[0]).Scalar(fruit_[1]).Scalar(head_[0]).Scalar(head_[1]);
    out.KeyLeaf(key_).Scalar(length_).Scalar(step_count_).Add(tail, {kRows, kCols});
  }

  Params params_;
  std::array<std::int32_t, kCells> body_state_{};
  std::array<int, 2> head_{};
  std::array<int, 2> fruit_{};
  std::int32_t length_ = 1;
  std::int32_t step_count_ = 0;
  std::array<bool, 4> mask_{};
  Key key_{};
};

}  // namespace envpool::jumanji
