// Go9x9-v1, Go13x13-v1, Go19x19-v1: pgx 2.6.0's Go (pgx/go.py, pgx/_src/games/go.py)
// with pgx's rules ("pgx": Tromp-Taylor-like area scoring, positional superko ends the
// game). Keywords: board_size (9, 13, 19; any 2 .. 19 as pgx's Go(size=...)), komi (7.5),
// history_length (8), max_terminal_steps (0: pgx's None, size * size * 2), rules ("pgx").
//
// The restated rules, in pgx's order (color = step_count % 2, 0 black moves first;
// init: player_order = [[0, 1], [1, 0]][bernoulli(key)], current_player =
// player_order[color]). The board holds each stone's chain id (the smallest cell + 1 of
// the chain), > 0 black, < 0 white.
// step(action): ko = -1; a pass adds one to consecutive_pass_count; a move (action <
// size * size) sets it to 0, removes the opponent's adjacent chains that are in atari
// with their one liberty at the move (pgx's pseudo-liberty test: sum**2 ==
// squared_sum * count over the chain's empty-neighbour indices, in int32 arithmetic that
// wraps as XLA's does), counts the captured stones as pgx does (a chain adjacent twice
// counts twice), sets ko to the captured cell when one stone was captured and the move is
// surrounded by the opponent (or the edge), places the stone and merges the adjacent own
// chains under the smallest id. An illegal move (occupied, suicide, ko) runs the same code
// before pgx's penalty. Then the board history shifts (the newest first: clip(board)),
// the position's zobrist hash (ZOBRIST_BOARD = jax.random.randint(PRNGKey(12345),
// (3, 361, 2), 0, 2**31 - 1, uint32), indexed by clip(board) with -1 -> 2) goes to
// hash_history[step_count], and is_psk = no pass and the hash occurs twice there.
// Legal: the empty cells next to an empty cell, a capturable opponent chain (in atari) or
// an own chain not in atari, not the ko cell; the pass always.
// Terminal: two passes in a row, is_psk, or step_count >= max_terminal_steps. Rewards by
// color: black wins when its area (stones + empty regions that reach no white stone)
// minus komi exceeds white's; on is_psk the player to move wins; mapped to players by
// player_order.
// Observation of player p (size, size, 17) bool: for k in 0..history_length - 1, planes
// 2k and 2k + 1 are p's and the opponent's stones k moves ago; the last plane is p's
// color (1 white). Info: board (sign), ko, is_psk, consecutive_pass_count, black_area and
// white_area (pgx's _count_scores of the current board).
// State: pgx's _player_order and _x (see WriteState); frames: 32 pixels a point, at least
// 160, by default (pgx's SVG: (size + 1) * 25 pixels a side; pgx 2.6.0 draws only 9 x 9 and
// 19 x 19: other sizes with the same code, envpool/tasks/pgx_frames.py).
//
// rules "chinese" (ChineseGo9x9-v1, ChineseGo13x13-v1, ChineseGo19x19-v1: sail-sg EnvPool's
// ids; pgx has no such game): pgx's rules above with two changes. (1) Positional superko
// is a legal-move rule, not an end: a move is illegal when the position it makes (after
// its captures) equals the position after any earlier step of the game (the
// hash_history rows 0 .. step_count - 1); is_psk stays False. (2) Area: each color's
// stones plus the empty regions (connected through empty cells) that touch its stones
// only; a region touching both colors, or none (the empty board), is neutral. Rewards
// keep pgx's rule (black wins when its area minus komi exceeds white's).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/pgx/pgx_env.h"

namespace envpool::pgx {

class GoEnv final : public PgxEnv {
 public:
  struct Params {
    explicit Params(const Config& config)
        : size(static_cast<int>(config.GetInt("board_size"))),
          komi(static_cast<float>(config.GetDouble("komi"))),
          history(static_cast<int>(config.GetInt("history_length"))),
          max_steps(config.GetInt("max_terminal_steps") > 0
                        ? static_cast<int>(config.GetInt("max_terminal_steps"))
                        : size * size * 2) {
      if (config.GetString("rules") != "pgx" && config.GetString("rules") != "chinese") {
        throw std::invalid_argument("Go: rules must be 'pgx' (pgx's own rules) or 'chinese'; got '" +
                                    config.GetString("rules") + "'");
      }
      chinese = config.GetString("rules") == "chinese";
      // pgx's ZOBRIST_BOARD, (3, 361, 2) uint32, row-major.
      const jax_random::Key key = jax_random::PrngKey(12345);
      zobrist.resize(3 * 361 * 2);
      for (std::uint32_t i = 0; i < zobrist.size(); ++i) {
        zobrist[i] = jax_random::RandIntSpanAt(key, i, 2147483647u);
      }
    }
    int size;
    float komi;
    int history;
    int max_steps;
    std::vector<std::uint32_t> zobrist;
    bool chinese = false;  // rules "chinese" (see the header)
  };

  static Config Defaults() {
    Config config = PgxDefaults(2);
    config.Set("board_size", std::int64_t{19}).In(2, 19);
    config.Set("komi", 7.5);
    config.Set("history_length", std::int64_t{8}).In(1, 64);
    config.Set("max_terminal_steps", std::int64_t{0}).AtLeast(0);
    config.Set("rules", std::string("pgx"));
    return config;
  }

  static EnvSpec MakeSpec(const Params& params) {
    const std::int64_t n = params.size;
    return MakePgxSpec(
        2, BoxSpec("obs", DType::kBool, {n, n, 2 * params.history + 1}, {0.0}, {1.0}), n * n + 1,
        {BoxSpec("board", DType::kInt32, {n, n}, {-1.0}, {1.0}),
         BoxSpec("ko", DType::kInt32, {}, {-1.0}, {static_cast<double>(n * n - 1)}),
         BoxSpec("is_psk", DType::kBool, {}, {0.0}, {1.0}),
         BoxSpec("consecutive_pass_count", DType::kInt32, {}),
         BoxSpec("black_area", DType::kInt32, {}), BoxSpec("white_area", DType::kInt32, {})});
  }

  // 32 pixels a point, at least 160, by default (pgx's SVG: (size + 1) * 25 a side).
  static FrameSize RenderSize(const Params& params, int width, int height, int camera_id) {
    const int side = std::max(160, 32 * params.size);
    return PgxFrameSize(width, height, camera_id, side, side);
  }
  explicit GoEnv(const Params& params)
      : PgxEnv(2, params.size * params.size + 1,
               static_cast<std::int64_t>(params.size) * params.size * (2 * params.history + 1)),
        p_(params),
        n_(params.size * params.size) {}

 protected:
  void Init(const Key& key) override {
    order_ = Bernoulli(key) ? std::array<int, 2>{1, 0} : std::array<int, 2>{0, 1};
    steps_ = 0;
    board_.assign(static_cast<std::size_t>(n_), 0);
    history_.assign(static_cast<std::size_t>(p_.history * n_), 2);
    hashes_.assign(static_cast<std::size_t>(p_.max_steps), {0u, 0u});
    num_captured_ = {0, 0};
    passes_ = 0;
    ko_ = -1;
    is_psk_ = false;
    current_player_ = order_[0];
    std::fill(mask_.begin(), mask_.end(), true);
    Scores();
  }

  void GameStep(int action, const Key& /*key*/) override {
    ko_ = -1;
    if (action < n_) {
      ApplyAction(action);
    } else {
      ++passes_;
    }
    // board history: roll one board down, the newest first
    std::copy_backward(history_.begin(), history_.end() - n_, history_.end());
    for (int i = 0; i < n_; ++i) history_[static_cast<std::size_t>(i)] = Clip(board_[static_cast<std::size_t>(i)]);
    // positional superko by zobrist hash
    std::array<std::uint32_t, 2> hash{0u, 0u};
    for (int i = 0; i < n_; ++i) {
      const int c = Clip(board_[static_cast<std::size_t>(i)]);
      const std::size_t row = static_cast<std::size_t>(c < 0 ? 2 : c) * 361 + static_cast<std::size_t>(i);
      hash[0] ^= p_.zobrist[row * 2];
      hash[1] ^= p_.zobrist[row * 2 + 1];
    }
    if (steps_ < p_.max_steps) hashes_[static_cast<std::size_t>(steps_)] = hash;
    const auto& curr = hashes_[static_cast<std::size_t>(std::min(steps_, p_.max_steps - 1))];
    int same = 0;
    for (const auto& h : hashes_) same += h == curr;
    is_psk_ = passes_ == 0 && same > 1 && !p_.chinese;
    ++steps_;
    current_player_ = order_[static_cast<std::size_t>(Color())];
    LegalMask();
    Scores();
    terminated_ = passes_ >= 2 || is_psk_ || p_.max_steps <= steps_;
    if (terminated_) {
      // rewards by color (0 black), then rewards[player_order]
      std::array<float, 2> by_color{-1.0F, 1.0F};
      if (static_cast<float>(scores_[0]) - p_.komi > static_cast<float>(scores_[1])) {
        by_color = {1.0F, -1.0F};
      }
      if (is_psk_) {
        by_color = {-1.0F, -1.0F};
        by_color[static_cast<std::size_t>(Color())] = 1.0F;
      }
      for (std::size_t p = 0; p < 2; ++p) rewards_[p] = by_color[static_cast<std::size_t>(order_[p])];
    }
  }

  void Observe(int player, bool* out) const override {
    const int color = player == current_player_ ? Color() : 1 - Color();
    const int my_sign = color == 0 ? 1 : -1;
    const int planes = 2 * p_.history + 1;
    for (int i = 0; i < n_; ++i) {
      bool* cell = out + static_cast<std::size_t>(i) * planes;
      for (int k = 0; k < 2 * p_.history; ++k) {
        const int want = (k % 2 == 0 ? 1 : -1) * my_sign;
        cell[k] = history_[static_cast<std::size_t>((k / 2) * n_ + i)] == want;
      }
      cell[planes - 1] = color != 0;
    }
  }

  void WriteObservation(StateLeaves& out) const override {
    out.Add(BoolObservation(current_player_), {p_.size, p_.size, 2 * p_.history + 1});
  }

  // pgx's _player_order and _x: step_count, board, board_history, num_captured,
  // consecutive_pass_count, ko, is_psk, hash_history.
  void WriteState(StateLeaves& out) const override {
    out.Add(order_, {2}).Scalar(steps_).Add(board_, {n_}).Add(history_, {p_.history, n_});
    out.Add(num_captured_, {2}).Scalar(passes_).Scalar(ko_).Scalar(is_psk_);
    out.AddRows(hashes_, {p_.max_steps, 2});
  }

  void WriteInfo(const Slot& slot, std::size_t first) const override {
    std::int32_t* board = slot.Info<std::int32_t>(first);
    for (int i = 0; i < n_; ++i) board[i] = Clip(board_[static_cast<std::size_t>(i)]);
    *slot.Info<std::int32_t>(first + 1) = ko_;
    *slot.Info<bool>(first + 2) = is_psk_;
    *slot.Info<std::int32_t>(first + 3) = passes_;
    *slot.Info<std::int32_t>(first + 4) = scores_[0];
    *slot.Info<std::int32_t>(first + 5) = scores_[1];
  }

 private:
  static int Clip(std::int32_t v) { return v > 0 ? 1 : (v < 0 ? -1 : 0); }
  // int32 arithmetic that wraps (XLA's): a * b.
  static std::int32_t MulWrap(std::int32_t a, std::int32_t b) {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) * static_cast<std::uint32_t>(b));
  }
  int Color() const { return steps_ % 2; }
  int MySign() const { return Color() == 0 ? 1 : -1; }

  // _adj_ixs: up, down, left, right; -1 off the board.
  std::array<int, 4> Adj(int xy) const {
    const int x = xy / p_.size;
    const int y = xy % p_.size;
    static constexpr int kDx[4] = {-1, 1, 0, 0};
    static constexpr int kDy[4] = {0, 0, -1, 1};
    std::array<int, 4> out{};
    for (int k = 0; k < 4; ++k) {
      const int xs = x + kDx[k];
      const int ys = y + kDy[k];
      out[static_cast<std::size_t>(k)] =
          xs >= 0 && xs < p_.size && ys >= 0 && ys < p_.size ? xs * p_.size + ys : -1;
    }
    return out;
  }
  // x[i] with jax's index rule for -1 (the last element).
  template <class T>
  const T& At(const std::vector<T>& x, int i) const {
    return x[static_cast<std::size_t>(i < 0 ? i + static_cast<int>(x.size()) : i)];
  }

  // _count: per chain id - 1, the count, sum and squared sum of its stones' empty
  // neighbours (indices + 1), with repeats.
  void Count() {
    const auto n = static_cast<std::size_t>(n_);
    cnt_.assign(n, 0);
    sum_.assign(n, 0);
    sq_.assign(n, 0);
    for (int xy = 0; xy < n_; ++xy) {
      const std::int32_t id = std::abs(board_[static_cast<std::size_t>(xy)]);
      if (id == 0) continue;
      std::int32_t c = 0;
      std::int32_t s = 0;
      std::int32_t q = 0;
      for (int a : Adj(xy)) {
        if (a >= 0 && board_[static_cast<std::size_t>(a)] == 0) {
          c += 1;
          s += a + 1;
          q += (a + 1) * (a + 1);
        }
      }
      const auto k = static_cast<std::size_t>(id - 1);
      cnt_[k] += c;
      sum_[k] += s;
      sq_[k] += q;
    }
  }
  // in_atari of chain index k (may be -1: jax reads the last one).
  bool InAtari(int k) const { return MulWrap(At(sum_, k), At(sum_, k)) == MulWrap(At(sq_, k), At(cnt_, k)); }

  void ApplyAction(int action) {
    passes_ = 0;
    const int my = MySign();
    const int opp = -my;
    const std::array<int, 4> adj = Adj(action);
    std::array<std::int32_t, 4> adj_ids{};
    for (std::size_t k = 0; k < 4; ++k) adj_ids[k] = At(board_, adj[k]);
    Count();
    std::array<bool, 4> killed{};
    for (std::size_t k = 0; k < 4; ++k) {
      if (adj[k] == -1 || adj_ids[k] * opp <= 0) continue;
      const int chain = std::abs(adj_ids[k]) - 1;
      if (!InAtari(chain)) continue;
      const std::int32_t s = At(sum_, chain);
      const std::int32_t single = s == 0 ? -1 - 1 : At(sq_, chain) / s - 1;  // (XLA: x / 0 = -1)
      killed[k] = single == action;
    }
    int captured = 0;
    std::vector<bool> removed(static_cast<std::size_t>(n_), false);
    for (std::size_t k = 0; k < 4; ++k) {
      if (!killed[k]) continue;
      for (int i = 0; i < n_; ++i) {
        if (board_[static_cast<std::size_t>(i)] == adj_ids[k]) {
          ++captured;
          removed[static_cast<std::size_t>(i)] = true;
        }
      }
    }
    int ko_k = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      if (killed[k]) {
        ko_k = static_cast<int>(k);
        break;
      }
    }
    bool ko_may_occur = true;
    for (std::size_t k = 0; k < 4; ++k) {
      ko_may_occur = ko_may_occur && (adj[k] == -1 || At(board_, adj[k]) * opp > 0);
    }
    for (int i = 0; i < n_; ++i) {
      if (removed[static_cast<std::size_t>(i)]) board_[static_cast<std::size_t>(i)] = 0;
    }
    num_captured_[static_cast<std::size_t>(Color())] += captured;
    ko_ = ko_may_occur && captured == 1 ? adj[static_cast<std::size_t>(ko_k)] : -1;
    // place the stone, merge the adjacent own chains under the smallest id
    board_[static_cast<std::size_t>(action)] = (action + 1) * my;
    const std::int32_t new_id = board_[static_cast<std::size_t>(action)];
    std::array<bool, 4> merge{};
    std::array<std::int32_t, 4> tgt{};
    std::int32_t smallest = 9999;
    for (std::size_t k = 0; k < 4; ++k) {
      tgt[k] = At(board_, adj[k]);
      merge[k] = adj[k] != -1 && tgt[k] * my > 0;
      if (merge[k]) smallest = std::min(smallest, std::abs(tgt[k]));
    }
    smallest = std::min(std::abs(new_id), smallest) * my;
    for (auto& v : board_) {
      bool hit = v == new_id;
      for (std::size_t k = 0; k < 4; ++k) hit = hit || (merge[k] && v == tgt[k]);
      if (hit) v = smallest;
    }
  }

  void LegalMask() {
    Count();
    const int my = MySign();
    const int opp = -my;
    std::vector<bool> ok(static_cast<std::size_t>(n_));
    for (int i = 0; i < n_; ++i) {
      const std::int32_t b = board_[static_cast<std::size_t>(i)];
      const bool empty = b == 0;
      const bool atari = InAtari(std::abs(b) - 1);
      ok[static_cast<std::size_t>(i)] = empty || (b * opp > 0 && atari) || (b * my > 0 && !atari);
    }
    for (int i = 0; i < n_; ++i) {
      bool adj_ok = false;
      for (int a : Adj(i)) adj_ok = adj_ok || (a != -1 && ok[static_cast<std::size_t>(a)]);
      mask_[static_cast<std::size_t>(i)] = board_[static_cast<std::size_t>(i)] == 0 && adj_ok;
    }
    if (ko_ != -1) mask_[static_cast<std::size_t>(ko_)] = false;
    mask_[static_cast<std::size_t>(n_)] = true;
    if (p_.chinese) MaskSuperko();
  }

  // rules "chinese": a legal move whose position (pgx's zobrist hash of the board after
  // the move and its captures) occurred after an earlier step is illegal.
  void MaskSuperko() {
    const std::vector<std::int32_t> board = board_;
    const std::array<std::int32_t, 2> captured = num_captured_;
    const std::int32_t passes = passes_;
    const std::int32_t ko = ko_;
    const auto seen = static_cast<std::size_t>(std::min(steps_, p_.max_steps));
    for (int i = 0; i < n_; ++i) {
      if (!mask_[static_cast<std::size_t>(i)]) continue;
      ApplyAction(i);
      std::array<std::uint32_t, 2> hash{0u, 0u};
      for (int j = 0; j < n_; ++j) {
        const int c = Clip(board_[static_cast<std::size_t>(j)]);
        const std::size_t row = static_cast<std::size_t>(c < 0 ? 2 : c) * 361 + static_cast<std::size_t>(j);
        hash[0] ^= p_.zobrist[row * 2];
        hash[1] ^= p_.zobrist[row * 2 + 1];
      }
      for (std::size_t k = 0; k < seen; ++k) {
        if (hashes_[k] == hash) {
          mask_[static_cast<std::size_t>(i)] = false;
          break;
        }
      }
      board_ = board;
      num_captured_ = captured;
      passes_ = passes;
      ko_ = ko;
    }
  }

  // _count_scores: per color (black, white), its stones plus the empty cells that no
  // path of empty cells links to an opponent stone (_count_ji's fill).
  void Scores() {
    if (p_.chinese) {
      ChineseScores();
      return;
    }
    for (int c = 0; c < 2; ++c) {
      const int sign = c == 0 ? 1 : -1;
      std::vector<int> b(static_cast<std::size_t>(n_));
      std::vector<int> queue;
      int stones = 0;
      for (int i = 0; i < n_; ++i) {
        b[static_cast<std::size_t>(i)] = Clip(board_[static_cast<std::size_t>(i)] * sign);
        stones += b[static_cast<std::size_t>(i)] > 0;
        if (b[static_cast<std::size_t>(i)] == -1) queue.push_back(i);
      }
      while (!queue.empty()) {
        const int i = queue.back();
        queue.pop_back();
        for (int a : Adj(i)) {
          if (a != -1 && b[static_cast<std::size_t>(a)] == 0) {
            b[static_cast<std::size_t>(a)] = -1;
            queue.push_back(a);
          }
        }
      }
      int ji = 0;
      for (int v : b) ji += v == 0;
      scores_[static_cast<std::size_t>(c)] = ji + stones;
    }
  }

  // rules "chinese": stones plus the empty regions that touch one color only.
  void ChineseScores() {
    scores_ = {0, 0};
    std::vector<bool> seen(static_cast<std::size_t>(n_), false);
    for (int i = 0; i < n_; ++i) {
      const std::int32_t v = board_[static_cast<std::size_t>(i)];
      if (v != 0) {
        scores_[v > 0 ? 0 : 1] += 1;
        continue;
      }
      if (seen[static_cast<std::size_t>(i)]) continue;
      std::vector<int> stack{i};
      seen[static_cast<std::size_t>(i)] = true;
      int region = 0;
      bool black = false;
      bool white = false;
      while (!stack.empty()) {
        const int j = stack.back();
        stack.pop_back();
        ++region;
        for (int a : Adj(j)) {
          if (a == -1) continue;
          const std::int32_t w = board_[static_cast<std::size_t>(a)];
          black = black || w > 0;
          white = white || w < 0;
          if (w == 0 && !seen[static_cast<std::size_t>(a)]) {
            seen[static_cast<std::size_t>(a)] = true;
            stack.push_back(a);
          }
        }
      }
      if (black != white) scores_[black ? 0 : 1] += region;
    }
  }

  Params p_;
  int n_;
  std::array<int, 2> order_{0, 1};
  int steps_ = 0;
  std::vector<std::int32_t> board_;
  std::vector<std::int32_t> history_;
  std::vector<std::array<std::uint32_t, 2>> hashes_;
  std::array<std::int32_t, 2> num_captured_{0, 0};
  std::int32_t passes_ = 0;
  std::int32_t ko_ = -1;
  bool is_psk_ = false;
  std::array<std::int32_t, 2> scores_{0, 0};
  // _count's arrays (scratch)
  std::vector<std::int32_t> cnt_, sum_, sq_;
};

}  // namespace envpool::pgx
