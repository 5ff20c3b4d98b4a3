// Shared pieces of the tabular toy-text envs (FrozenLake, CliffWalking,
// Taxi): gymnasium's transition table P[s][a] = [(prob, next_state, reward,
// terminated), ...] and its categorical sampling rule.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/env.h"
#include "core/rng.h"

namespace envpool::toy_text {

struct Transition {
  double prob = 1.0;
  std::int64_t next = 0;
  double reward = 0.0;
  bool terminated = false;
};

// gymnasium.envs.toy_text.utils.categorical_sample: the first index whose
// cumulative probability exceeds a uniform draw u in [0, 1). (numpy's argmax
// of an all-false array is 0; here a cumulative sum that rounds below u picks
// the last entry with a positive probability instead.)
template <class ProbOf, class Size>
std::size_t CategoricalIndex(Size count, ProbOf prob_of, Rng& rng) {
  const double u = rng.Uniform01();
  double cumulative = 0.0;
  std::size_t last_positive = 0;
  for (std::size_t i = 0; i < static_cast<std::size_t>(count); ++i) {
    const double p = prob_of(i);
    cumulative += p;
    if (p > 0.0) last_positive = i;
    if (cumulative > u) return i;
  }
  return last_positive;
}

// P[s][a] for every state and action, built once per pool and shared by its
// envs read-only.
class TransitionTable {
 public:
  TransitionTable() = default;
  TransitionTable(std::int64_t num_states, std::int64_t num_actions)
      : num_states_(num_states),
        num_actions_(num_actions),
        table_(static_cast<std::size_t>(num_states * num_actions)) {}

  std::int64_t num_states() const { return num_states_; }
  std::int64_t num_actions() const { return num_actions_; }

  void Add(std::int64_t state, std::int64_t action, const Transition& t) {
    table_[Index(state, action)].push_back(t);
  }
  const std::vector<Transition>& At(std::int64_t state, std::int64_t action) const {
    return table_[Index(state, action)];
  }
  // Draws one of P[state][action] as gymnasium's step() does.
  const Transition& Sample(std::int64_t state, std::int64_t action, Rng& rng) const {
    const std::vector<Transition>& ts = At(state, action);
    if (ts.size() == 1) return ts[0];
    return ts[CategoricalIndex(ts.size(), [&ts](std::size_t i) { return ts[i].prob; }, rng)];
  }

 private:
  std::size_t Index(std::int64_t state, std::int64_t action) const {
    return static_cast<std::size_t>(state * num_actions_ + action);
  }

  std::int64_t num_states_ = 0;
  std::int64_t num_actions_ = 0;
  std::vector<std::vector<Transition>> table_;
};

// Reads a state index from a GetState()/SetState() vector, checking it.
inline std::int64_t StateIndexFrom(double value, std::int64_t num_states, const char* env) {
  const bool in_range = value >= 0.0 && value < static_cast<double>(num_states);
  if (!in_range || static_cast<double>(static_cast<std::int64_t>(value)) != value) {
    throw std::invalid_argument(std::string(env) + " state must be an integer in 0 .. " +
                                std::to_string(num_states - 1) + ", got " +
                                std::to_string(value));
  }
  return static_cast<std::int64_t>(value);
}

// A walk on a transition table (FrozenLake, CliffWalking): the state index is
// the observation and the probability of the last transition the "prob" info.
// Subclasses choose the start state in Reset() through Start().
class TabularWalk : public Env {
 public:
  // The current state index (the observation).
  std::int64_t s() const { return s_; }

  TabularWalk(std::shared_ptr<const TransitionTable> table, const char* name)
      : table_(std::move(table)), name_(name) {}

  StepOutcome Step(const ActionView& action, Rng& rng) override {
    const Transition& t =
        table_->Sample(s_, static_cast<std::int64_t>(action.Scalar<std::int32_t>()), rng);
    s_ = t.next;
    prob_ = t.prob;
    StepOutcome out;
    out.reward = t.reward;
    out.terminated = t.terminated;
    return out;
  }

  void Write(const Slot& slot) const override {
    *slot.Obs<std::int64_t>() = s_;
    *slot.Info<double>(0) = prob_;
  }

  std::vector<double> GetState() const override { return {static_cast<double>(s_)}; }
  void SetState(const std::vector<double>& state) override {
    if (state.size() != 1) throw std::invalid_argument(std::string(name_) + " state is [s]");
    Start(StateIndexFrom(state[0], table_->num_states(), name_));
  }

 protected:
  void Start(std::int64_t s) {
    s_ = s;
    prob_ = 1.0;
  }

 private:
  std::shared_ptr<const TransitionTable> table_;
  const char* name_;
  std::int64_t s_ = 0;
  double prob_ = 1.0;
};

inline void CheckProbability(double p, const char* key) {
  if (!(p >= 0.0 && p <= 1.0)) {
    throw std::invalid_argument(std::string(key) + " must be a probability in [0, 1], got " +
                                std::to_string(p));
  }
}

}  // namespace envpool::toy_text
