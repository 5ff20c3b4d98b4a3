// MiniGrid-WFC-* (minigrid/envs/wfc/): a level drawn by wave function collapse from a
// template bitmap, its largest navigable area kept, the start and the goal on two random
// squares of it.
//
// The pattern set (envpool/tasks/minigrid.py reads the template and cuts it into patterns,
// as the package's wfclogic/patterns.py and adjacency.py do, once per pool) comes in the
// hidden keyword _wfc_patterns; everything drawn from the env's generator happens here, in
// the package's order:
//   - execute_wfc: np_random.random((h, w)) * 0.1, the location heuristic's preferences;
//     then up to 1000 attempts, each from a full wave. An attempt repeats the solver's
//     solve_next: stop once every cell holds one pattern; propagate; the cell of least
//     preference + count among those with more than one pattern (the first such, numpy's
//     argmin; cell 0 when none is left); the pattern by np_random.choice(N, p=weights * wave
//     / sum): one random() against the cumulative sum (numpy's cdf, searchsorted right);
//     propagate. A cell left with no pattern (Contradiction) ends the attempt.
//     Propagation here is arc consistency by a work list: its fixpoint (the largest
//     arc-consistent wave) is the one the package's repeated matrix products reach, and a
//     cell emptied on the way is empty there too.
//   - the layout: a square is a wall when its pattern's corner pixel has red 0 (the
//     package's `pattern == (0, 0, 0)` read on channel 0).
//   - ensure_connected: the largest connected (4-neighbour) navigable area of more than one
//     square, the first of equal ones in networkx's connected_components order (by its
//     smallest square). Its squares are then listed as networkx lists the subgraph's nodes:
//     in row-major order when the area holds at least half the navigable squares, else in
//     the iteration order of the Python sets networkx builds for it (PySetOrder below).
//   - np_random.permutation(n)[:2]: the start and the goal; then _rand_int(0, 4): the
//     agent's direction.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/minigrid/level.h"

namespace envpool::minigrid {

// The iteration order of CPython's (3.8 to 3.13) set of 2-tuples of small non-negative ints
// built by adding `keys` in order: the tuple hash (xxHash lanes), open addressing in a
// table of 8 slots and up, probing 9 linear slots then perturbing, grown to the smallest
// power of two above 4 * used once fill * 5 >= mask * 3.
class PySetOrder {
 public:
  static std::uint64_t TupleHash(std::int64_t a, std::int64_t b) {
    constexpr std::uint64_t kPrime1 = 11400714785074694791ULL;
    constexpr std::uint64_t kPrime2 = 14029467366897019727ULL;
    constexpr std::uint64_t kPrime5 = 2870177450012600261ULL;
    std::uint64_t acc = kPrime5;
    for (const std::int64_t item : {a, b}) {
      acc += static_cast<std::uint64_t>(item) * kPrime2;
      acc = (acc << 31) | (acc >> 33);
      acc *= kPrime1;
    }
    acc += 2ULL ^ (kPrime5 ^ 3527539ULL);
    if (acc == ~0ULL) return 1546275796ULL;
    return acc;
  }

  // The keys (indices into `hashes`, distinct) in the set's iteration order.
  static std::vector<int> Order(const std::vector<int>& keys,
                                const std::vector<std::uint64_t>& hashes) {
    std::vector<int> table(8, -1);
    std::size_t fill = 0;
    for (const int key : keys) {
      Insert(table, key, hashes);
      ++fill;
      const std::size_t mask = table.size() - 1;
      if (fill * 5 >= mask * 3) {
        std::size_t size = 8;
        while (size <= fill * 4) size <<= 1;
        std::vector<int> grown(size, -1);
        for (const int k : table) {
          if (k >= 0) Insert(grown, k, hashes);
        }
        table = std::move(grown);
      }
    }
    std::vector<int> order;
    order.reserve(keys.size());
    for (const int k : table) {
      if (k >= 0) order.push_back(k);
    }
    return order;
  }

 private:
  static void Insert(std::vector<int>& table, int key, const std::vector<std::uint64_t>& hashes) {
    constexpr std::size_t kLinearProbes = 9;
    const std::size_t mask = table.size() - 1;
    const std::uint64_t hash = hashes[static_cast<std::size_t>(key)];
    std::uint64_t perturb = hash;
    std::size_t i = hash & mask;
    while (true) {
      const std::size_t probes = i + kLinearProbes <= mask ? kLinearProbes : 0;
      for (std::size_t j = 0; j <= probes; ++j) {
        if (table[i + j] < 0) {
          table[i + j] = key;
          return;
        }
      }
      perturb >>= 5;
      i = (i * 5 + 1 + perturb) & mask;
    }
  }
};

class WfcLevel final : public Level {
 public:
  // _wfc_patterns: [N, output_periodic, weight x N, wall x N, adjacency x 4 x N x N] (the
  // package's direction order (0, -1), (1, 0), (0, 1), (-1, 0); adjacency[d][p][q]: q may
  // lie at offset d from p).
  WfcLevel(const LevelParams& p, const std::vector<double>& patterns)
      : ensure_connected_(p.ensure_connected) {
    if (patterns.size() < 2) {
      throw std::invalid_argument(
          "MiniGrid WFC: no pattern set: its template was not found. minigrid 3.2.0 ships no "
          "WFC templates: set ENVPOOL_WFC_PATTERNS (or pass pattern_dir=) to a copy of the "
          "package repository's minigrid/envs/wfc/patterns; pip install 'minigrid[wfc]' for "
          "imageio");
    }
    n_ = static_cast<int>(patterns[0]);
    periodic_ = patterns[1] != 0.0;
    const auto n = static_cast<std::size_t>(n_);
    if (n_ < 1 || patterns.size() != 2 + 2 * n + 4 * n * n) {
      throw std::invalid_argument("MiniGrid WFC: malformed _wfc_patterns");
    }
    words_ = (n + 63) / 64;
    weights_.assign(patterns.begin() + 2, patterns.begin() + 2 + static_cast<long>(n));
    wall_.resize(n);
    for (std::size_t i = 0; i < n; ++i) wall_[i] = patterns[2 + n + i] != 0.0;
    adj_.assign(4 * n * words_, 0);
    adj_any_.assign(4 * n, false);
    for (std::size_t d = 0; d < 4; ++d) {
      for (std::size_t a = 0; a < n; ++a) {
        for (std::size_t b = 0; b < n; ++b) {
          if (patterns[2 + 2 * n + (d * n + a) * n + b] != 0.0) {
            adj_[(d * n + a) * words_ + b / 64] |= 1ULL << (b % 64);
            adj_any_[d * n + a] = true;
          }
        }
      }
    }
  }

  void Generate(World& w) override {
    const int width = w.grid.Width();
    const int height = w.grid.Height();
    rows_ = height - 2;  // output_size = (height - 2, width - 2)
    cols_ = width - 2;
    const auto cells = static_cast<std::size_t>(rows_ * cols_);
    preference_.resize(cells);
    for (double& v : preference_) v = w.rng->NextDouble() * 0.1;
    bool solved = false;
    for (int attempt = 0; attempt < kMaxAttempts && !solved; ++attempt) solved = Attempt(*w.rng);
    if (!solved) {
      throw std::runtime_error("Could not generate a valid pattern within 1000 attempts");
    }
    std::vector<bool> navigable(cells);
    for (std::size_t c = 0; c < cells; ++c) navigable[c] = !wall_[Pattern(c)];
    std::vector<int> nodes = ensure_connected_ ? LargestArea(navigable) : Squares(navigable);
    std::vector<bool> open(cells, false);
    for (const int c : nodes) open[static_cast<std::size_t>(c)] = true;
    if (nodes.size() < 2) throw std::runtime_error("MiniGrid WFC: fewer than two open squares");
    std::vector<std::int64_t> perm(nodes.size());
    for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<std::int64_t>(i);
    w.rng->Shuffle(perm);
    const int start = nodes[static_cast<std::size_t>(perm[0])];
    const int goal = nodes[static_cast<std::size_t>(perm[1])];
    for (int x = 0; x < width; ++x) {
      for (int y = 0; y < height; ++y) {
        const bool inside = x > 0 && y > 0 && x < width - 1 && y < height - 1;
        if (!inside || !open[static_cast<std::size_t>((x - 1) * cols_ + (y - 1))]) {
          w.grid.Set(x, y, Cell::Wall());
        }
      }
    }
    w.grid.Set(goal / cols_ + 1, goal % cols_ + 1, Cell::Goal());
    w.agent_dir = w.RandInt(0, 4);
    w.agent_pos = {start / cols_ + 1, start % cols_ + 1};
    w.mission = "traverse the maze to get to the goal";
  }

 private:
  static constexpr int kMaxAttempts = 1000;
  static constexpr int kDx[4] = {0, 1, 0, -1};
  static constexpr int kDy[4] = {-1, 0, 1, 0};

  bool Has(std::size_t cell, std::size_t p) const {
    return ((wave_[cell * words_ + p / 64] >> (p % 64)) & 1ULL) != 0;
  }
  std::size_t Pattern(std::size_t cell) const {
    for (std::size_t p = 0; p < static_cast<std::size_t>(n_); ++p) {
      if (Has(cell, p)) return p;
    }
    return 0;
  }

  // The cell at offset d from `cell`; -1 off the grid (non-periodic output).
  int Neighbour(int cell, int d) const {
    int x = cell / cols_ + kDx[d];
    int y = cell % cols_ + kDy[d];
    if (periodic_) {
      x = (x + rows_) % rows_;
      y = (y + cols_) % cols_;
    } else if (x < 0 || y < 0 || x >= rows_ || y >= cols_) {
      return -1;
    }
    return x * cols_ + y;
  }

  // One solve from a full wave: false on a contradiction.
  bool Attempt(NumpyGenerator& rng) {
    const auto n = static_cast<std::size_t>(n_);
    const auto cells = static_cast<std::size_t>(rows_ * cols_);
    wave_.assign(cells * words_, 0);
    for (std::size_t c = 0; c < cells; ++c) {
      for (std::size_t p = 0; p < n; ++p) wave_[c * words_ + p / 64] |= 1ULL << (p % 64);
    }
    count_.assign(cells, n_);
    queued_.assign(cells, true);
    queue_.clear();
    for (std::size_t c = 0; c < cells; ++c) queue_.push_back(static_cast<int>(c));
    std::vector<double> cdf(n);
    while (true) {
      bool done = true;
      for (const int k : count_) done = done && k == 1;
      if (done) return true;
      if (!Propagate()) return false;
      std::size_t best = 0;
      double best_value = 0.0;
      bool found = false;
      for (std::size_t c = 0; c < cells; ++c) {
        if (count_[c] <= 1) continue;
        const double v = preference_[c] + static_cast<double>(count_[c]);
        if (!found || v < best_value) {
          best = c;
          best_value = v;
          found = true;
        }
      }
      // np_random.choice(N, p=weights * wave / sum): the cumulative sum, normalised by its
      // last element, searched for one uniform draw (side="right").
      double sum = 0.0;
      for (std::size_t p = 0; p < n; ++p) sum += Has(best, p) ? weights_[p] : 0.0;
      double acc = 0.0;
      for (std::size_t p = 0; p < n; ++p) {
        acc += (Has(best, p) ? weights_[p] : 0.0) / sum;
        cdf[p] = acc;
      }
      const double last = cdf[n - 1];
      for (double& v : cdf) v /= last;
      const double u = rng.NextDouble();
      std::size_t chosen = 0;
      while (chosen < n && cdf[chosen] <= u) ++chosen;
      for (std::size_t k = 0; k < words_; ++k) wave_[best * words_ + k] = 0;
      if (chosen < n) wave_[best * words_ + chosen / 64] |= 1ULL << (chosen % 64);
      count_[best] = chosen < n ? 1 : 0;
      if (count_[best] == 0) return false;
      Enqueue(static_cast<int>(best));
      if (!Propagate()) return false;
    }
  }

  // The cells whose support looks at `cell`.
  void Enqueue(int cell) {
    for (int d = 0; d < 4; ++d) {
      // c + d == cell  <=>  c == cell - d: the neighbour in the opposite direction.
      const int c = Neighbour(cell, (d + 2) % 4);
      if (c >= 0 && !queued_[static_cast<std::size_t>(c)]) {
        queued_[static_cast<std::size_t>(c)] = true;
        queue_.push_back(c);
      }
    }
  }

  bool Propagate() {
    const auto n = static_cast<std::size_t>(n_);
    while (!queue_.empty()) {
      const int cell = queue_.back();
      queue_.pop_back();
      const auto c = static_cast<std::size_t>(cell);
      queued_[c] = false;
      int nb[4];
      for (int d = 0; d < 4; ++d) nb[d] = Neighbour(cell, d);
      bool changed = false;
      for (std::size_t p = 0; p < n; ++p) {
        if (!Has(c, p)) continue;
        bool ok = true;
        for (std::size_t d = 0; d < 4 && ok; ++d) {
          if (nb[d] < 0) {
            ok = adj_any_[d * n + p];
            continue;
          }
          const std::uint64_t* a = &adj_[(d * n + p) * words_];
          const std::uint64_t* o = &wave_[static_cast<std::size_t>(nb[d]) * words_];
          bool any = false;
          for (std::size_t k = 0; k < words_ && !any; ++k) any = (a[k] & o[k]) != 0;
          ok = any;
        }
        if (!ok) {
          wave_[c * words_ + p / 64] &= ~(1ULL << (p % 64));
          --count_[c];
          changed = true;
        }
      }
      if (changed) {
        if (count_[c] == 0) return false;
        Enqueue(cell);
      }
    }
    return true;
  }

  // The navigable squares in row-major order (ensure_connected=False).
  std::vector<int> Squares(const std::vector<bool>& navigable) const {
    std::vector<int> out;
    for (std::size_t c = 0; c < navigable.size(); ++c) {
      if (navigable[c]) out.push_back(static_cast<int>(c));
    }
    return out;
  }

  // _get_largest_component's squares, in the order networkx lists them.
  std::vector<int> LargestArea(const std::vector<bool>& navigable) const {
    const std::size_t cells = navigable.size();
    std::vector<bool> seen(cells, false);
    std::vector<int> best;
    std::size_t total = 0;
    for (std::size_t c = 0; c < cells; ++c) total += navigable[c] ? 1 : 0;
    for (std::size_t s = 0; s < cells; ++s) {
      if (!navigable[s] || seen[s]) continue;
      // networkx's _plain_bfs: the squares in the order they enter its `seen` set; each
      // square's neighbours in the graph's adjacency order: up, left, down, right.
      std::vector<int> order{static_cast<int>(s)};
      seen[s] = true;
      for (std::size_t head = 0; head < order.size(); ++head) {
        const int x = order[head] / cols_;
        const int y = order[head] % cols_;
        const int nx[4] = {x - 1, x, x + 1, x};
        const int ny[4] = {y, y - 1, y, y + 1};
        for (int k = 0; k < 4; ++k) {
          if (nx[k] < 0 || ny[k] < 0 || nx[k] >= rows_ || ny[k] >= cols_) continue;
          const auto m = static_cast<std::size_t>(nx[k] * cols_ + ny[k]);
          if (navigable[m] && !seen[m]) {
            seen[m] = true;
            order.push_back(static_cast<int>(m));
          }
        }
      }
      if (order.size() > 1 && order.size() > best.size()) best = std::move(order);
    }
    if (best.empty()) throw std::runtime_error("MiniGrid WFC: no navigable area");
    if (2 * best.size() >= total) {  // FilterAtlas iterates the graph: row-major
      std::vector<bool> in(cells, false);
      for (const int c : best) in[static_cast<std::size_t>(c)] = true;
      return Squares(in);
    }
    // FilterAtlas iterates its node set: set(c) for the component's copy, then
    // set(component) for the subgraph, each built in the previous one's order.
    std::vector<std::uint64_t> hashes(cells);
    for (std::size_t c = 0; c < cells; ++c) {
      hashes[c] = PySetOrder::TupleHash(static_cast<int>(c) / cols_, static_cast<int>(c) % cols_);
    }
    std::vector<int> order = PySetOrder::Order(best, hashes);  // the BFS's set `seen`
    order = PySetOrder::Order(order, hashes);                  // show_nodes(c)
    order = PySetOrder::Order(order, hashes);                  // show_nodes(component)
    return order;
  }

  bool ensure_connected_;
  int n_ = 0;
  bool periodic_ = false;
  std::size_t words_ = 1;
  std::vector<double> weights_;
  std::vector<bool> wall_;
  std::vector<std::uint64_t> adj_;
  std::vector<bool> adj_any_;
  // The current generation's state.
  int rows_ = 0;
  int cols_ = 0;
  std::vector<double> preference_;
  std::vector<std::uint64_t> wave_;
  std::vector<int> count_;
  std::vector<bool> queued_;
  std::vector<int> queue_;
};

}  // namespace envpool::minigrid
