// MMST-v0: jumanji 1.1.2's environments/routing/mmst (multi minimum spanning tree: 36
// nodes, 72 edges, max degree 5, 3 agents with 4 nodes each, SplitRandomGenerator,
// DenseRewardFn(10, -1, -1), time limit 70).
//
// Reset: `key, problem_key = split(key)`, then the generator's `graph_key, key =
// split(problem_key)`. The graph (utils.multi_random_walk over graph_key): the nodes split
// into 3 sub-graphs of 12 (0-11, 12-23, 24-35); `graph_key, base_key = split(graph_key)`,
// sub-graph i is random_walk(12 nodes, 12 edges, split(graph_key, 3)[i]) (RandomWalk below);
// then sub-graphs 1 and 2 are merged in (MergeGraphs) up to 36 and 72 edges, both with
// split(base_key, 2)[1] (the loop indexes key i = 2 of two: jax clamps it to the last).
// Then, per agent, `select_key, key = split(key)` and the agent's nodes are the first 4 of
// permutation(select_key) of its sub-graph: typed with the agent's id, the first is its
// position and its first connected node. state.key is the key left after those splits.
//
// Step: `key, step_key = split(state.key)`. Each agent's target is node_edges[agent][its
// position][action] (-1: no edge). In the order permutation(step_key, 3) the agents claim
// targets: a target another agent claimed before makes the action -2 (tie break), a
// valid unclaimed one keeps it; no edge gives -1. A target the agent connected before
// makes it -3 (already traversed; with no edge jax reads index -1 as the last node, 35),
// and a finished agent's action is -1. An agent moves unless its action is -1 or -2 or it
// has no edge: the target is appended to its connected nodes (70 slots, a write past the
// end dropped) and marked connected. An agent standing on a utility node (type -1) then
// removes that node from the other agents' edges for good. Reward (float32 sum over the
// agents not yet finished): 10 for moving onto one of its own nodes with action >= 0, else
// -1, -2 for action -1, 0 for a tie break. The action mask (an edge from the position)
// uses the finished flags of before the step; then an agent is finished when its 4 nodes
// are all connected. The episode ends (termination) when every agent is finished or at
// step 70. Info: the extras num_connections (sum over agents of connected own nodes - 1)
// and ratio_connections (their mean over 3, each divided by 3), float32.
//
// Observation: node_types as the agent-0 view (an agent's own node 2 * id + 1, a node it
// connected 2 * id, a utility node -1), adj_matrix, positions, step_count, action_mask.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "envs/common/keywords.h"
#include "envs/jumanji/jumanji_env.h"

namespace envpool::jumanji {

class Mmst final : public JumanjiEnv {
 public:
  static constexpr int kNodes = 36;
  static constexpr int kEdges = 72;
  static constexpr int kMaxDegree = 5;
  static constexpr int kAgents = 3;
  static constexpr int kNodesPerAgent = 4;
  static constexpr int kTimeLimit = 70;
  static constexpr int kSubNodes = kNodes / kAgents;

  struct Params {
    explicit Params(const Config& /*config*/) {}
  };
  static Config Defaults() { return Config(); }

  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec;
    spec.obs_layout = ObsLayout::kDict;
    spec.obs.push_back(BoxSpec("node_types", DType::kInt32, {kNodes}, {-1}, {2 * kAgents - 1}));
    spec.obs.push_back(BoxSpec("adj_matrix", DType::kInt32, {kNodes, kNodes}, {0}, {1}));
    spec.obs.push_back(BoxSpec("positions", DType::kInt32, {kAgents}, {-1}, {kNodes - 1}));
    spec.obs.push_back(DiscreteSpec("step_count", kTimeLimit + 1, DType::kInt32));
    spec.obs.push_back(BoxSpec("action_mask", DType::kBool, {kAgents, kNodes}));
    spec.info.push_back(BoxSpec("num_connections", DType::kFloat32, {}));
    spec.info.push_back(BoxSpec("ratio_connections", DType::kFloat32, {}));
    spec.action = BoxSpec("action", DType::kInt32, {kAgents}, {0}, {kNodes - 1});
    return spec;
  }

  explicit Mmst(const Params& /*params*/) {}
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return JumanjiFrame(width, height, camera_id);
  }

  void Reset(Rng& /*rng*/) override {
    const Key problem_key = jax_random::SplitAt(ResetKey(), 1);
    Key key = jax_random::SplitAt(problem_key, 1);
    const Graph graph = MultiRandomWalk(jax_random::SplitAt(problem_key, 0));
    for (auto& row : adj_) row.fill(0);
    for (int e = 0; e < graph.edge_index; ++e) {
      adj_[graph.edges[e][0]][graph.edges[e][1]] = 1;
      adj_[graph.edges[e][1]][graph.edges[e][0]] = 1;
    }
    node_types_.fill(-1);
    for (auto& row : connected_) row.fill(-1);
    for (auto& row : connected_index_) row.fill(-1);
    for (int a = 0; a < kAgents; ++a) {
      const Key select_key = jax_random::SplitAt(key, 0);
      key = jax_random::SplitAt(key, 1);
      const std::vector<std::int32_t> order = jax_random::Permutation(select_key, kSubNodes);
      for (int k = 0; k < kNodesPerAgent; ++k) {
        const int node = a * kSubNodes + order[k];
        to_connect_[a][k] = node;
        node_types_[node] = a;
      }
      positions_[a] = to_connect_[a][0];
      connected_[a][0] = positions_[a];
      connected_index_[a][positions_[a]] = positions_[a];
      position_index_[a] = 0;
      for (int i = 0; i < kNodes; ++i) edges_[a][i] = graph.node_edges[i];
    }
    key_ = key;
    finished_.fill(false);
    step_count_ = 0;
    UpdateMask();
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const std::int32_t* act = action.As<std::int32_t>();
    const Key step_key = jax_random::SplitAt(key_, 1);
    key_ = jax_random::SplitAt(key_, 0);
    // _trim_duplicated_invalid_actions.
    std::array<int, kAgents> nodes{};
    for (int a = 0; a < kAgents; ++a) nodes[a] = edges_[a][positions_[a]][act[a]];
    std::array<int, kAgents> claimed{};
    std::array<int, kAgents> actions{};
    claimed.fill(-10);
    actions.fill(-1);
    for (int i : jax_random::Permutation(step_key, kAgents)) {
      if (nodes[i] == -1) continue;
      bool taken = false;
      for (int c : claimed) taken = taken || c == nodes[i];
      actions[i] = taken ? -2 : act[i];
      claimed[i] = taken ? -2 : nodes[i];
    }
    for (int a = 0; a < kAgents; ++a) {
      if (connected_index_[a][nodes[a] == -1 ? kNodes - 1 : nodes[a]] != -1) actions[a] = -3;
      if (finished_[a]) actions[a] = -1;
    }
    // The moves.
    for (int a = 0; a < kAgents; ++a) {
      if (actions[a] == -1 || actions[a] == -2 || nodes[a] == -1) continue;
      ++position_index_[a];
      if (position_index_[a] < kTimeLimit) connected_[a][position_index_[a]] = nodes[a];
      connected_index_[a][nodes[a]] = nodes[a];
      positions_[a] = nodes[a];
    }
    // update_active_edges: an agent on a utility node takes it from the others.
    for (int a = 0; a < kAgents; ++a) {
      const int node = positions_[a];
      if (node_types_[node] != -1) continue;
      for (int b = 0; b < kAgents; ++b) {
        if (b == a) continue;
        for (auto& row : edges_[b]) {
          for (auto& e : row) e = e == node ? -1 : e;
        }
      }
    }
    UpdateMask();
    // DenseRewardFn over the new positions and the old finished flags.
    float reward = 0.0F;
    for (int a = 0; a < kAgents; ++a) {
      if (finished_[a]) continue;
      bool own = false;
      for (int n : to_connect_[a]) own = own || n == positions_[a];
      if (own && actions[a] > -1) {
        reward += 10.0F;
      } else {
        reward += -1.0F + (actions[a] == -1 ? -1.0F : 0.0F) - (actions[a] == -2 ? -1.0F : 0.0F);
      }
    }
    bool all = true;
    for (int a = 0; a < kAgents; ++a) {
      finished_[a] = Connections(a) == kNodesPerAgent;
      all = all && finished_[a];
    }
    ++step_count_;
    return Outcome(reward,
                   all || step_count_ >= kTimeLimit ? StepType::kTermination : StepType::kMid);
  }

  void Write(const Slot& slot) const override {
    std::int32_t* types = slot.Obs<std::int32_t>(0);
    for (int i = 0; i < kNodes; ++i) {
      int t = node_types_[i] == -1 ? -1 : 2 * node_types_[i] + 1;
      for (int a = 0; a < kAgents; ++a) {
        if (connected_index_[a][i] != -1) t = 2 * a;
      }
      types[i] = t;
    }
    std::int32_t* adj = slot.Obs<std::int32_t>(1);
    for (int i = 0; i < kNodes; ++i) {
      for (int j = 0; j < kNodes; ++j) adj[i * kNodes + j] = adj_[i][j];
    }
    std::int32_t* positions = slot.Obs<std::int32_t>(2);
    for (int a = 0; a < kAgents; ++a) positions[a] = positions_[a];
    *slot.Obs<std::int32_t>(3) = step_count_;
    bool* mask = slot.Obs<bool>(4);
    for (int i = 0; i < kAgents * kNodes; ++i) mask[i] = mask_[i];
    // _get_extras: per agent (connected own nodes - 1.0) and that over 3.0, their sum and
    // mean in float32; XLA divides by the constant 3 as a product with its float32
    // reciprocal, both times.
    constexpr float kThird = 1.0F / 3.0F;
    float total = 0.0F;
    float ratio = 0.0F;
    for (int a = 0; a < kAgents; ++a) {
      const float c = static_cast<float>(Connections(a)) - 1.0F;
      total += c;
      ratio += c * kThird;
    }
    *slot.Info<float>(0) = total;
    *slot.Info<float>(1) = ratio * kThird;
  }

 private:
  // utils.Graph: the node labels, the edges added so far (their Cantor codes are a
  // one-to-one function of the ordered pair, so a code match is a pair match), each
  // node's degree and node_edges (row i: j where an edge i-j exists, else -1).
  struct Graph {
    std::vector<int> nodes;
    std::vector<std::array<int, 2>> edges;  // capacity slots
    int edge_index = 0;
    std::vector<int> degree;
    std::vector<std::array<int, kNodes>> node_edges;
  };

  static Graph InitGraph(int offset, int n, int num_edges) {
    Graph g;
    for (int i = 0; i < n; ++i) g.nodes.push_back(offset + i);
    g.edges.assign(static_cast<std::size_t>(num_edges), {-1, -1});
    g.degree.assign(static_cast<std::size_t>(n), 0);
    std::array<int, kNodes> empty{};
    empty.fill(-1);
    g.node_edges.assign(static_cast<std::size_t>(n), empty);
    return g;
  }

  // add_edge: refused when the same (ordered) edge exists or an end's degree is above the
  // maximum; else stored, both node_edges entries set and both degrees raised. Node labels
  // index node_edges and degree relative to the graph's first node.
  static bool AddEdge(Graph& g, int a, int b) {
    for (int e = 0; e < g.edge_index; ++e) {
      if (g.edges[e][0] == a && g.edges[e][1] == b) return false;
    }
    const int base = g.nodes.front();
    if (g.degree[a - base] > kMaxDegree || g.degree[b - base] > kMaxDegree) return false;
    if (g.edge_index < static_cast<int>(g.edges.size())) g.edges[g.edge_index] = {a, b};
    ++g.edge_index;
    g.node_edges[a - base][b - base] = b;
    g.node_edges[b - base][a - base] = a;
    ++g.degree[a - base];
    ++g.degree[b - base];
    return true;
  }

  // add_random_edges: `current_key, base_key = split(base_key)` and the edge of the first
  // two of permutation(current_key) of the nodes, until there are total edges.
  static void AddRandomEdges(Graph& g, int total, Key base_key) {
    while (g.edge_index < total) {
      const Key current = jax_random::SplitAt(base_key, 0);
      base_key = jax_random::SplitAt(base_key, 1);
      const auto order = jax_random::Permutation(current, static_cast<int>(g.nodes.size()));
      AddEdge(g, g.nodes[order[0]], g.nodes[order[1]]);
    }
  }

  // random_walk over nodes 0 .. n-1 (a uniform spanning tree, then random edges):
  // `current_key, base_key = split(key)`, the walk starts at randint(current_key, 0, n-1);
  // each step `current_key, base_key = split(base_key)` picks a neighbour randint(0, n);
  // a neighbour not yet in the tree is joined by the edge (min, max) if add_edge takes
  // it, and the walk moves on to the neighbour either way.
  static Graph RandomWalk(int n, int num_edges, const Key& key) {
    Graph g = InitGraph(0, n, num_edges);
    Key base_key = jax_random::SplitAt(key, 1);
    int current = jax_random::RandIntAt(jax_random::SplitAt(key, 0), 0, 0, n - 1);
    std::vector<bool> in_tree(static_cast<std::size_t>(n), false);
    in_tree[current] = true;
    int left = n - 1;
    while (left > 0) {
      const Key current_key = jax_random::SplitAt(base_key, 0);
      base_key = jax_random::SplitAt(base_key, 1);
      const int neighbour = jax_random::RandIntAt(current_key, 0, 0, n);
      if (!in_tree[neighbour]) {
        const bool added = current < neighbour ? AddEdge(g, current, neighbour)
                                               : AddEdge(g, neighbour, current);
        if (added) {
          in_tree[neighbour] = true;
          --left;
        }
      }
      current = neighbour;
    }
    AddRandomEdges(g, num_edges, base_key);
    return g;
  }

  // merge_graphs: a's and b's slots side by side (b's nodes already offset), one edge
  // between a node of each (choice with split(split(key)[0]) halves), then random edges
  // up to total from split(key)[1].
  static Graph MergeGraphs(const Graph& a, const Graph& b, int total, const Key& key) {
    Graph g = InitGraph(a.nodes.front(), static_cast<int>(a.nodes.size() + b.nodes.size()),
                        total);
    const int na = static_cast<int>(a.nodes.size());
    for (std::size_t e = 0; e < a.edges.size(); ++e) g.edges[e] = a.edges[e];
    for (std::size_t e = 0; e < b.edges.size(); ++e) g.edges[a.edges.size() + e] = b.edges[e];
    g.edge_index = static_cast<int>(a.edges.size() + b.edges.size());
    for (int i = 0; i < na; ++i) {
      g.degree[i] = a.degree[i];
      g.node_edges[i] = a.node_edges[i];
    }
    for (std::size_t i = 0; i < b.nodes.size(); ++i) {
      g.degree[na + i] = b.degree[i];
      g.node_edges[na + i] = b.node_edges[i];
    }
    const Key key1 = jax_random::SplitAt(key, 0);
    const int from = a.nodes[jax_random::RandIntAt(jax_random::SplitAt(key1, 0), 0, 0, na)];
    const int to = b.nodes[jax_random::RandIntAt(jax_random::SplitAt(key1, 1), 0, 0,
                                                 static_cast<int>(b.nodes.size()))];
    AddEdge(g, from, to);
    AddRandomEdges(g, total, jax_random::SplitAt(key, 1));
    return g;
  }

  // correct_graph_offset: a sub-graph of nodes 0 .. 11 relabelled from `offset`, its
  // node_edges moved into the columns of the merged graph.
  static Graph Offset(Graph g, int offset) {
    for (int& n : g.nodes) n += offset;
    for (auto& e : g.edges) e = {e[0] + offset, e[1] + offset};
    for (auto& row : g.node_edges) {
      std::array<int, kNodes> moved{};
      moved.fill(-1);
      for (int j = 0; j + offset < kNodes; ++j) moved[j + offset] = row[j] == -1 ? -1 : row[j] + offset;
      row = moved;
    }
    return g;
  }

  // multi_random_walk with 3 sub-graphs of 12 edges each, merged up to 36 and 72 edges.
  static Graph MultiRandomWalk(const Key& key) {
    const Key graph_key = jax_random::SplitAt(key, 0);
    const Key merge_key = jax_random::SplitAt(jax_random::SplitAt(key, 1), 1);
    const int sub_edges = kEdges / 2 / kAgents;
    Graph graph = RandomWalk(kSubNodes, sub_edges, jax_random::SplitAt(graph_key, 0));
    int total = sub_edges;
    const int merge_edges[2] = {12, 24};  // split(arange(36), cumsum(36 * [1] / 3))
    for (int i = 1; i < kAgents; ++i) {
      total += sub_edges + merge_edges[i - 1];
      const Graph sub = Offset(RandomWalk(kSubNodes, sub_edges, jax_random::SplitAt(graph_key, i)),
                               i * kSubNodes);
      graph = MergeGraphs(graph, sub, total, merge_key);
    }
    return graph;
  }

  int Connections(int agent) const {
    int count = 0;
    for (int n : to_connect_[agent]) {
      bool found = false;
      for (int c : connected_[agent]) found = found || c == n;
      count += found ? 1 : 0;
    }
    return count;
  }

  void UpdateMask() {
    for (int a = 0; a < kAgents; ++a) {
      for (int j = 0; j < kNodes; ++j) {
        mask_[a * kNodes + j] = edges_[a][positions_[a]][j] != -1 && !finished_[a];
      }
    }
  }

  // jumanji's State (a chex dataclass: its fields sorted by name): action_mask,
  // adj_matrix, connected_nodes, connected_nodes_index, finished_agents, key, node_edges
  // (each agent's active edges), node_types (agent ids, -1 utility), nodes_to_connect,
  // position_index, positions, step_count.
  void WriteState(StateLeaves& out) const override {
    out.Add(mask_, {kAgents, kNodes}).AddRows(adj_, {kNodes, kNodes});
    out.AddRows(connected_, {kAgents, kTimeLimit}).AddRows(connected_index_, {kAgents, kNodes});
    out.Add(finished_, {kAgents}).KeyLeaf(key_);
    std::vector<int> edges;
    edges.reserve(static_cast<std::size_t>(kAgents * kNodes * kNodes));
    for (const auto& agent : edges_) {
      for (const auto& row : agent) edges.insert(edges.end(), row.begin(), row.end());
    }
    out.Add(edges, {kAgents, kNodes, kNodes}).Add(node_types_, {kNodes});
    out.AddRows(to_connect_, {kAgents, kNodesPerAgent}).Add(position_index_, {kAgents});
    out.Add(positions_, {kAgents}).Scalar(step_count_);
  }

  std::array<std::array<std::int32_t, kNodes>, kNodes> adj_{};
  std::array<std::int32_t, kNodes> node_types_{};
  std::array<std::array<int, kNodesPerAgent>, kAgents> to_connect_{};
  std::array<std::array<int, kTimeLimit>, kAgents> connected_{};
  std::array<std::array<int, kNodes>, kAgents> connected_index_{};
  std::array<std::array<std::array<int, kNodes>, kNodes>, kAgents> edges_{};
  std::array<int, kAgents> positions_{};
  std::array<int, kAgents> position_index_{};
  std::array<bool, kAgents> finished_{};
  std::array<bool, kAgents * kNodes> mask_{};
  Key key_{};
  std::int32_t step_count_ = 0;
};

}  // namespace envpool::jumanji
