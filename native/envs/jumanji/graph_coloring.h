// GraphColoring-v1: jumanji 1.1.2's environments/logic/graph_coloring (20 nodes,
// RandomGenerator with edge_probability 0.8).
//
// Reset: `key, subkey = split(key)`; the generator takes `key, edge_key = split(subkey)`
// and links nodes i > j when uniform(edge_key, (20, 20))[i, j] < 0.8 (float32; the lower
// triangle, mirrored). Node 0 is coloured first, every colour allowed. The action colours
// the current node; the next node (index + 1, modulo 20) may take the colours none of its
// neighbours has. Reward: 0 until every node is coloured, then minus the number of colours
// used; -20 for a colour outside the mask (float32). The episode ends (termination) when
// every node is coloured or after an invalid colour. No time limit of its own (EnvPool's
// is 20 steps).
//
// Keyword (sail-sg EnvPool's): graph_coloring_edges ("" or "i-j,k-l,...": every episode
// has this graph).
#pragma once

#include <array>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/common/keywords.h"
#include "envs/jumanji/jumanji_env.h"

namespace envpool::jumanji {

class GraphColoring final : public JumanjiEnv {
 public:
  static constexpr int kNodes = 20;
  static constexpr float kEdgeProbability = 0.8F;

  struct Params {
    std::string edges_text;
    std::vector<std::array<int, 2>> edges;  // parsed
    static Keywords<Params> Keys() {
      Keywords<Params> k;
      k.Add("graph_coloring_edges", std::string(), &Params::edges_text);
      return k;
    }
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      std::stringstream stream(edges_text);
      std::string item;
      while (std::getline(stream, item, ',')) {
        const std::size_t dash = item.find('-');
        if (dash == std::string::npos) {
          throw std::invalid_argument("graph_coloring_edges: '" + item + "' is not i-j");
        }
        const auto ends = ParseInts("graph_coloring_edges", item.substr(0, dash) + "," +
                                                                item.substr(dash + 1),
                                    2, 0, kNodes - 1);
        edges.push_back({ends[0], ends[1]});
      }
    }
  };
  static Config Defaults() { return Params::Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec;
    spec.obs_layout = ObsLayout::kDict;
    spec.obs.push_back(BoxSpec("adj_matrix", DType::kBool, {kNodes, kNodes}));
    spec.obs.push_back(BoxSpec("action_mask", DType::kBool, {kNodes}));
    spec.obs.push_back(BoxSpec("colors", DType::kInt32, {kNodes}, {-1}, {kNodes - 1}));
    spec.obs.push_back(DiscreteSpec("current_node_index", kNodes, DType::kInt32));
    spec.action = DiscreteSpec("action", kNodes, DType::kInt32);
    spec.reward_low = -kNodes;
    spec.reward_high = 0.0;
    return spec;
  }

  explicit GraphColoring(const Params& params) : params_(params) {}
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return JumanjiFrame(width, height, camera_id);
  }

  void Reset(Rng& /*rng*/) override {
    const Key use = ResetKey();
    const Key subkey = jax_random::SplitAt(use, 1);
    key_ = jax_random::SplitAt(use, 0);
    const Key edge_key = jax_random::SplitAt(subkey, 1);
    adj_.fill(false);
    if (!params_.edges_text.empty()) {
      for (const auto& e : params_.edges) {
        if (e[0] != e[1]) adj_[e[0] * kNodes + e[1]] = adj_[e[1] * kNodes + e[0]] = true;
      }
    } else {
      for (int i = 0; i < kNodes; ++i) {
        for (int j = 0; j < i; ++j) {
          const auto flat = static_cast<std::uint32_t>(i * kNodes + j);
          const bool edge = jax_random::UniformF32(edge_key, flat, 0.0F, 1.0F, false) <
                            kEdgeProbability;
          adj_[i * kNodes + j] = adj_[j * kNodes + i] = edge;
        }
      }
    }
    colors_.fill(-1);
    current_ = 0;
    mask_.fill(true);
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const int a = action.Scalar<std::int32_t>();
    const bool invalid = !mask_[a];
    colors_[current_] = a;
    bool all = true;
    std::array<bool, kNodes> used{};
    for (auto c : colors_) {
      all = all && c >= 0;
      if (c >= 0) used[c] = true;
    }
    int num_used = 0;
    for (bool u : used) num_used += u ? 1 : 0;
    float reward = all ? -static_cast<float>(num_used) : 0.0F;
    if (invalid) reward = -static_cast<float>(kNodes);
    current_ = (current_ + 1) % kNodes;
    mask_.fill(true);
    for (int j = 0; j < kNodes; ++j) {
      if (adj_[current_ * kNodes + j] && colors_[j] >= 0) mask_[colors_[j]] = false;
    }
    return Outcome(reward, all || invalid ? StepType::kTermination : StepType::kMid);
  }

  void Write(const Slot& slot) const override {
    bool* adj = slot.Obs<bool>(0);
    for (int i = 0; i < kNodes * kNodes; ++i) adj[i] = adj_[i];
    bool* mask = slot.Obs<bool>(1);
    std::int32_t* colors = slot.Obs<std::int32_t>(2);
    for (int i = 0; i < kNodes; ++i) {
      mask[i] = mask_[i];
      colors[i] = colors_[i];
    }
    *slot.Obs<std::int32_t>(3) = current_;
  }

 private:
  // jumanji's State (a chex dataclass: its leaves by field name): action_mask, adj_matrix,
  // colors, current_node_index, key.
  void WriteState(StateLeaves& out) const override {
    out.Add(mask_, {kNodes}).Add(adj_, {kNodes, kNodes}).Add(colors_, {kNodes});
    out.Scalar(current_).KeyLeaf(key_);
  }

  Params params_;
  std::array<bool, kNodes * kNodes> adj_{};
  std::array<std::int32_t, kNodes> colors_{};
  std::array<bool, kNodes> mask_{};
  std::int32_t current_ = 0;
  Key key_{};  // reset's state.key (steps draw nothing)
};

}  // namespace envpool::jumanji
