// FrozenLake-v1 / FrozenLake8x8-v1: gymnasium 1.4's toy_text/frozen_lake.py.
//
// Keywords (gymnasium's constructor, render_mode aside):
//   desc             list of strings over "SFHG", all rows the same length;
//                    empty = use map_name (gymnasium's desc=None)
//   map_name         "4x4" or "8x8" (read only when desc is empty; gymnasium's
//                    random map for map_name=None is not offered: pass
//                    desc=generate_random_map(...) instead)
//   is_slippery      move in the intended direction with probability
//                    success_rate, else in one of the two perpendicular ones
//   success_rate     default 1/3
//   reward_schedule  three numbers (reach goal, hole, frozen/start),
//                    default (1, 0, 0)
//
// Same transition table P[s][a] as gymnasium: from S/F tiles, for b in
// [(a - 1) % 4, a, (a + 1) % 4] (slippery, probabilities fail, success,
// fail with fail = (1 - success_rate) / 2) or [a] (probability 1), move b
// clamped to the grid, reward by the tile entered, terminated on G or H;
// from G/H tiles every action is (1.0, s, 0, true). The start is uniform over
// the S tiles. Observation: row * ncol + col (int64); info "prob" is the
// probability of the transition taken (1 on reset).
// State (GetState/SetState): [s].
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/env.h"
#include "envs/toy_text/tabular.h"

namespace envpool::toy_text {

class FrozenLake final : public TabularWalk {
 public:
  struct Model {
    std::vector<std::string> desc;
    std::int64_t nrow = 0, ncol = 0;
    std::vector<double> reward_schedule;  // goal, hole, frozen
    std::vector<std::int64_t> start_states;
    TransitionTable table;
  };

  struct Params {
    explicit Params(const Config& config) : model(BuildModel(config)) {}
    std::shared_ptr<const Model> model;
  };

  static Config Defaults() {
    Config config;
    config.Set("desc", std::vector<std::string>{});
    config.Set("map_name", std::string("4x4"));
    config.Set("is_slippery", true);
    config.Set("success_rate", 1.0 / 3.0);
    config.Set("reward_schedule", std::vector<double>{1.0, 0.0, 0.0});
    return config;
  }

  static EnvSpec MakeSpec(const Params& params) {
    const Model& m = *params.model;
    EnvSpec spec;
    spec.obs.push_back(DiscreteSpec("obs", m.nrow * m.ncol, DType::kInt64));
    spec.action = DiscreteSpec("action", 4, DType::kInt32);
    spec.info.push_back(BoxSpec("prob", DType::kFloat64, {}));
    spec.reward_low = *std::min_element(m.reward_schedule.begin(), m.reward_schedule.end());
    spec.reward_high = *std::max_element(m.reward_schedule.begin(), m.reward_schedule.end());
    return spec;
  }

  explicit FrozenLake(const Params& params)
      : TabularWalk(std::shared_ptr<const TransitionTable>(params.model, &params.model->table),
                    "FrozenLake"),
        model_(params.model) {}

  void Reset(Rng& rng) override {
    const auto& starts = model_->start_states;
    Start(starts.size() == 1
              ? starts[0]
              : starts[static_cast<std::size_t>(
                    rng.Integer(0, static_cast<std::int64_t>(starts.size())))]);
  }

 private:
  static constexpr int kLeft = 0, kDown = 1, kRight = 2, kUp = 3;

  static std::vector<std::string> MapByName(const std::string& name) {
    if (name == "4x4") return {"SFFF", "FHFH", "FFFH", "HFFG"};
    if (name == "8x8") {
      return {"SFFFFFFF", "FFFFFFFF", "FFFHFFFF", "FFFFFHFF",
              "FFFHFFFF", "FHHFFFHF", "FHFFHFHF", "FFFHFFFG"};
    }
    throw std::invalid_argument("FrozenLake: unknown map_name '" + name +
                                "'; valid: '4x4', '8x8' (or pass desc, a list of strings)");
  }

  static std::shared_ptr<const Model> BuildModel(const Config& config) {
    auto m = std::make_shared<Model>();
    m->desc = config.GetStrings("desc");
    if (m->desc.empty()) m->desc = MapByName(config.GetString("map_name"));
    m->nrow = static_cast<std::int64_t>(m->desc.size());
    m->ncol = static_cast<std::int64_t>(m->desc[0].size());
    if (m->ncol == 0) throw std::invalid_argument("FrozenLake: desc rows must not be empty");
    for (const std::string& row : m->desc) {
      if (static_cast<std::int64_t>(row.size()) != m->ncol) {
        throw std::invalid_argument(
            "FrozenLake: desc rows must all have the same length (a rectangular map), got '" +
            row + "' next to a row of length " + std::to_string(m->ncol));
      }
      for (char c : row) {
        if (c != 'S' && c != 'F' && c != 'H' && c != 'G') {
          throw std::invalid_argument(std::string("FrozenLake: bad tile '") + c +
                                      "' in desc; valid tiles: S (start), F (frozen), "
                                      "H (hole), G (goal)");
        }
      }
    }
    const bool is_slippery = config.GetBool("is_slippery");
    const double success_rate = config.GetDouble("success_rate");
    CheckProbability(success_rate, "FrozenLake: success_rate");
    m->reward_schedule = config.GetDoubles("reward_schedule");
    if (m->reward_schedule.size() != 3) {
      throw std::invalid_argument(
          "FrozenLake: reward_schedule needs 3 numbers (goal, hole, frozen), got " +
          std::to_string(m->reward_schedule.size()));
    }

    const std::int64_t nrow = m->nrow, ncol = m->ncol;
    for (std::int64_t s = 0; s < nrow * ncol; ++s) {
      if (m->desc[s / ncol][s % ncol] == 'S') m->start_states.push_back(s);
    }
    if (m->start_states.empty()) {
      throw std::invalid_argument("FrozenLake: desc needs at least one start tile 'S'");
    }

    const double fail_rate = (1.0 - success_rate) / 2.0;
    m->table = TransitionTable(nrow * ncol, 4);
    auto outcome = [&](std::int64_t row, std::int64_t col, int a, double prob) {
      if (a == kLeft) {
        col = std::max<std::int64_t>(col - 1, 0);
      } else if (a == kDown) {
        row = std::min<std::int64_t>(row + 1, nrow - 1);
      } else if (a == kRight) {
        col = std::min<std::int64_t>(col + 1, ncol - 1);
      } else {
        row = std::max<std::int64_t>(row - 1, 0);
      }
      const char letter = m->desc[row][col];
      Transition t;
      t.prob = prob;
      t.next = row * ncol + col;
      t.terminated = letter == 'G' || letter == 'H';
      t.reward = letter == 'G'   ? m->reward_schedule[0]
                 : letter == 'H' ? m->reward_schedule[1]
                                 : m->reward_schedule[2];
      return t;
    };
    for (std::int64_t row = 0; row < nrow; ++row) {
      for (std::int64_t col = 0; col < ncol; ++col) {
        const std::int64_t s = row * ncol + col;
        const char letter = m->desc[row][col];
        for (int a = 0; a < 4; ++a) {
          if (letter == 'G' || letter == 'H') {
            m->table.Add(s, a, Transition{1.0, s, 0.0, true});
          } else if (is_slippery) {
            for (int b : {(a + 3) % 4, a, (a + 1) % 4}) {
              m->table.Add(s, a, outcome(row, col, b, b == a ? success_rate : fail_rate));
            }
          } else {
            m->table.Add(s, a, outcome(row, col, a, 1.0));
          }
        }
      }
    }
    return m;
  }

  std::shared_ptr<const Model> model_;
};

}  // namespace envpool::toy_text
