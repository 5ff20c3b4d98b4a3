// AnimalShogi-v1: pgx 2.6.0's animal_shogi (pgx/animal_shogi.py).
//
// The 3 x 4 board (square sq = x * 4 + y, x the column, y the row, row 0 the mover's far
// side) holds -1 (empty), the mover's pieces 0..4 (pawn, bishop, rook, king, gold) and the
// opponent's 5..9, always from the mover's side: after every move the board is flipped
// (pieces + 5 mod 10, squares reversed, hands swapped). Action labels (132): 8 directions x
// 12 squares (a move from sq = a % 12 towards direction a / 12: 5 3 0 / 6 x 1 / 7 4 2, to
// -1 off the board), then 3 drop pieces x 12 squares. A move captures what stands on its
// target (into the hand, unpromoted), promotes a pawn moving from row 1, and is legal
// when the piece may go there, the target is empty or the opponent's, and the mover's king
// is not then attacked (pgx's _is_checked: the first square nearest to a king value). An
// illegal label runs the same array code (jax's index rules: -1 is the last element,
// reads past the end clamp, writes past it are dropped) before pgx's penalty.
// Positions are hashed (pgx's zobrist tables: randint of PRNGKey(23279) and its splits,
// restated with the hashing quirks: a capture XORs the captured piece at the origin
// square); a position seen three times (a hash history row matching either word) is a
// draw. The mover loses when it has no legal move or the opponent's king reached its far
// row (try); the game ends as a tie at step 256.
// History: pgx rolls its (8, 12) board and (8, 6) hand histories by 8 flat elements (not
// a row) before writing the newest in row 0; restated as it is.
// Observation of player p (4, 3, 194) float32: for each of the 8 history rows, 10 piece
// planes, 12 hand planes (piece k held >= 1, >= 2), 2 repetition planes; then p's color
// and step_count / 256; squares laid out as [y][2 - x], seen from p's side.
// Info: board (4, 3) (board[sq % 4][2 - sq / 4], the mover's side), hand (2, 3), turn.
// State: pgx's fields above (turn, board, hand, zobrist hash, the hash, board, hand and
// repetition histories); frames: 180 x 240 (w x h) by default (pgx's picture is 300 x 300).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "envs/pgx/pgx_env.h"

namespace envpool::pgx {

class AnimalShogiEnv final : public PgxEnv {
 public:
  static constexpr int kSteps = 256;
  using Hash = std::array<std::uint32_t, 2>;

  struct Params {
    explicit Params(const Config& /*config*/) {
      // ZOBRIST_SIDE = randint(PRNGKey(23279), (2,)); then key, sub = split(key) before the
      // board table (12, 10, 2) and again before the hand table (2, 3, 3, 2).
      jax_random::Key key = jax_random::PrngKey(23279);
      for (std::uint32_t i = 0; i < 2; ++i) side[i] = jax_random::RandIntSpanAt(key, i, kSpan);
      jax_random::Key sub = jax_random::SplitAt(key, 1);
      key = jax_random::SplitAt(key, 0);
      board.resize(12 * 10 * 2);
      for (std::uint32_t i = 0; i < board.size(); ++i) board[i] = jax_random::RandIntSpanAt(sub, i, kSpan);
      sub = jax_random::SplitAt(key, 1);
      hand.resize(2 * 3 * 3 * 2);
      for (std::uint32_t i = 0; i < hand.size(); ++i) hand[i] = jax_random::RandIntSpanAt(sub, i, kSpan);
    }
    static constexpr std::uint32_t kSpan = 2147483647u;
    Hash side{};
    std::vector<std::uint32_t> board;  // (12, 10, 2)
    std::vector<std::uint32_t> hand;   // (2, 3, 3, 2)
  };

  static Config Defaults() { return PgxDefaults(2); }
  static EnvSpec MakeSpec(const Params& /*params*/) {
    return MakePgxSpec(2, BoxSpec("obs", DType::kFloat32, {4, 3, 194}, {0.0}, {1.0}), 132,
                       {BoxSpec("board", DType::kInt32, {4, 3}, {-1.0}, {9.0}),
                        BoxSpec("hand", DType::kInt32, {2, 3}, {0.0}, {2.0}),
                        BoxSpec("turn", DType::kInt32, {}, {0.0}, {1.0})});
  }
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return PgxFrameSize(width, height, camera_id, 180, 240);
  }
  explicit AnimalShogiEnv(const Params& params) : PgxEnv(2, 132, 4 * 3 * 194), z_(params) {}

 protected:
  struct Pos {
    std::int32_t turn = 0;
    std::array<std::int32_t, 12> board{};
    std::array<std::int32_t, 6> hand{};  // (2, 3): the mover's, then the opponent's
    Hash hash{};
    std::array<std::int32_t, 96> board_history{};  // (8, 12)
    std::array<std::int32_t, 48> hand_history{};   // (8, 6)
  };

  void Init(const Key& key) override {
    current_player_ = Bernoulli(key) ? 1 : 0;
    s_ = Pos();
    s_.board = {6, -1, -1, 2, 8, 5, 0, 3, 7, -1, -1, 1};
    s_.hash = {233882788u, 593924309u};
    s_.board_history.fill(-1);
    std::copy(s_.board.begin(), s_.board.end(), s_.board_history.begin());
    hash_history_.assign(kSteps + 1, Hash{0u, 0u});
    hash_history_[0] = s_.hash;
    rep_history_.fill(0);
    LegalMask();
  }

  void GameStep(int action, const Key& /*key*/) override {
    const int x = action / 12;
    const int sq = action % 12;
    if (x >= 8) {
      StepDrop(&s_, sq, x - 8);
    } else {
      StepMove(&s_, sq, To(sq, x));
    }
    const bool is_try = s_.board[0] == kKing || s_.board[4] == kKing || s_.board[8] == kKing;
    // board / hand history: jnp.roll by 8 flat elements, then the newest in row 0
    std::rotate(s_.board_history.rbegin(), s_.board_history.rbegin() + 8, s_.board_history.rend());
    std::copy(s_.board.begin(), s_.board.end(), s_.board_history.begin());
    std::rotate(s_.hand_history.rbegin(), s_.hand_history.rbegin() + 8, s_.hand_history.rend());
    std::copy(s_.hand.begin(), s_.hand.end(), s_.hand_history.begin());
    Flip(&s_);
    FlipHash(&s_);
    current_player_ = 1 - current_player_;
    if (step_count_ <= kSteps) hash_history_[static_cast<std::size_t>(step_count_)] = s_.hash;
    int rows = 0;
    for (const Hash& h : hash_history_) rows += h[0] == s_.hash[0] || h[1] == s_.hash[1];
    const std::int32_t rep = rows - 1;
    const bool rep_draw = rep >= 2;
    LegalMask();
    bool any = false;
    for (bool m : mask_) any = any || m;
    terminated_ = !any || is_try || rep_draw;
    if (terminated_ && !rep_draw) {
      rewards_[0] = rewards_[1] = 1.0F;
      rewards_[static_cast<std::size_t>(current_player_)] = -1.0F;
    }
    std::rotate(rep_history_.rbegin(), rep_history_.rbegin() + 1, rep_history_.rend());
    rep_history_[0] = rep;
    if (kSteps <= step_count_) terminated_ = true;  // a tie at the step limit
  }

  void WriteObs(const Slot& slot) const override {
    float* obs = slot.Obs<float>(0);
    for (int p = 0; p < 2; ++p) ObservePlayer(p, obs + p * obs_size_);
  }

  void WriteObservation(StateLeaves& out) const override {
    std::vector<float> obs(static_cast<std::size_t>(obs_size_));
    ObservePlayer(current_player_, obs.data());
    out.Add(obs, {4, 3, 194});
  }

  // State's own fields: _turn, _board, _hand, _zobrist_hash, _hash_history,
  // _board_history, _hand_history, _rep_history.
  void WriteState(StateLeaves& out) const override {
    out.Scalar(s_.turn).Add(s_.board, {12}).Add(s_.hand, {2, 3}).Add(s_.hash, {2});
    out.AddRows(hash_history_, {kSteps + 1, 2}).Add(s_.board_history, {8, 12});
    out.Add(s_.hand_history, {8, 6}).Add(rep_history_, {8});
  }

  void WriteInfo(const Slot& slot, std::size_t first) const override {
    std::int32_t* board = slot.Info<std::int32_t>(first);
    for (int sq = 0; sq < 12; ++sq) board[(sq % 4) * 3 + 2 - sq / 4] = s_.board[static_cast<std::size_t>(sq)];
    std::copy(s_.hand.begin(), s_.hand.end(), slot.Info<std::int32_t>(first + 1));
    *slot.Info<std::int32_t>(first + 2) = s_.turn;
  }

 private:
  static constexpr std::int32_t kEmpty = -1;
  static constexpr std::int32_t kPawn = 0;
  static constexpr std::int32_t kKing = 3;
  static constexpr std::int32_t kGold = 4;

  // jax's read index into n elements: -k counts from the end, then clamped.
  static std::size_t Read(int i, int n) {
    if (i < 0) i += n;
    return static_cast<std::size_t>(std::clamp(i, 0, n - 1));
  }
  // jax's write index: -k counts from the end; -1 when out of bounds (the write is dropped).
  static int Write(int i, int n) {
    if (i < 0) i += n;
    return i >= 0 && i < n ? i : -1;
  }
  static std::int32_t FloorMod(std::int32_t a, std::int32_t m) { return ((a % m) + m) % m; }

  std::uint32_t ZBoard(int sq, int piece, int w) const {
    return z_.board[(Read(sq, 12) * 10 + Read(piece, 10)) * 2 + static_cast<std::size_t>(w)];
  }
  std::uint32_t ZHand(int turn, int piece, int n, int w) const {
    return z_.hand[((Read(turn, 2) * 3 + Read(piece, 3)) * 3 + Read(n, 3)) * 2 + static_cast<std::size_t>(w)];
  }
  void XorBoard(Hash* h, int turn, int sq, int piece) const {
    for (int w = 0; w < 2; ++w) (*h)[static_cast<std::size_t>(w)] ^= ZBoard(turn == 0 ? sq : 11 - sq, turn == 0 ? piece : FloorMod(piece + 5, 10), w);
  }
  void XorHand(Hash* h, int turn, int piece, int n) const {
    for (int w = 0; w < 2; ++w) (*h)[static_cast<std::size_t>(w)] ^= ZHand(turn, piece, n, w);
  }

  // _to(from_, dir): -1 off the board.
  static int To(int from, int dir) {
    static constexpr int kDx[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
    static constexpr int kDy[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
    const int nx = from / 4 + kDx[dir];
    const int ny = from % 4 + kDy[dir];
    return nx < 0 || nx >= 3 || ny < 0 || ny >= 4 ? -1 : nx * 4 + ny;
  }

  // CAN_MOVE[piece, from_, to] (jax's read indices).
  static bool CanMove(int piece, int from, int to) {
    piece = static_cast<int>(Read(piece, 5));
    from = static_cast<int>(Read(from, 12));
    to = static_cast<int>(Read(to, 12));
    const int dx = to / 4 - from / 4;
    const int dy = to % 4 - from % 4;
    const bool neighbour = (dx != 0 || dy != 0) && std::abs(dx) <= 1 && std::abs(dy) <= 1;
    switch (piece) {
      case 0: return dx == 0 && dy == -1;
      case 1: return neighbour && (dx == dy || dx == -dy);
      case 2: return neighbour && (dx == 0 || dy == 0);
      case 3: return neighbour;
      default: return neighbour && (dx == 0 || dy != 1);
    }
  }

  void StepMove(Pos* s, int from, int to) const {
    std::int32_t piece = s->board[Read(from, 12)];
    if (const int w = Write(from, 12); w >= 0) s->board[static_cast<std::size_t>(w)] = kEmpty;
    XorBoard(&s->hash, s->turn, from, piece);
    const std::int32_t captured = s->board[Read(to, 12)];
    const int kind = FloorMod(FloorMod(captured, 5), 4);
    // hand.at[0, kind]: kind 3 (a captured king) is past the row: the add is dropped and
    // the read clamps to kind 2
    if (captured != kEmpty) {
      if (kind < 3) s->hand[static_cast<std::size_t>(kind)] += 1;
      XorBoard(&s->hash, s->turn, from, captured);  // (pgx XORs it at the origin square)
    }
    const std::int32_t num = s->hand[static_cast<std::size_t>(std::min(kind, 2))];
    XorHand(&s->hash, s->turn, kind, num - 1);
    XorHand(&s->hash, s->turn, kind, num);
    if (from % 4 == 1 && piece == kPawn) piece = kGold;
    if (const int w = Write(to, 12); w >= 0) s->board[static_cast<std::size_t>(w)] = piece;
    XorBoard(&s->hash, s->turn, to, piece);
  }

  void StepDrop(Pos* s, int to, int piece) const {
    s->board[static_cast<std::size_t>(to)] = piece;
    XorBoard(&s->hash, s->turn, to, piece);
    const std::int32_t num = s->hand[static_cast<std::size_t>(piece)];
    s->hand[static_cast<std::size_t>(piece)] -= 1;
    XorHand(&s->hash, s->turn, piece, num + 1);
    XorHand(&s->hash, s->turn, piece, num);
  }

  static void Flip(Pos* s) {
    std::array<std::int32_t, 12> board{};
    for (std::size_t i = 0; i < 12; ++i) {
      const std::int32_t v = s->board[11 - i];
      board[i] = v == kEmpty ? kEmpty : FloorMod(v + 5, 10);
    }
    s->board = board;
    std::swap_ranges(s->hand.begin(), s->hand.begin() + 3, s->hand.begin() + 3);
    for (std::size_t r = 0; r < 8; ++r) {
      std::array<std::int32_t, 12> row{};
      for (std::size_t i = 0; i < 12; ++i) {
        const std::int32_t v = s->board_history[r * 12 + 11 - i];
        row[i] = v == kEmpty ? kEmpty : FloorMod(v + 5, 10);
      }
      std::copy(row.begin(), row.end(), s->board_history.begin() + static_cast<std::ptrdiff_t>(r * 12));
      // hand history: jnp.roll(.., 3, axis=1) of each row of 6
      auto first = s->hand_history.begin() + static_cast<std::ptrdiff_t>(r * 6);
      std::rotate(first, first + 3, first + 6);
    }
    s->turn = 1 - s->turn;
  }
  void FlipHash(Pos* s) const {
    s->hash[0] ^= z_.side[0];
    s->hash[1] ^= z_.side[1];
  }

  // _is_checked: can an opponent piece reach the king (the first square whose value is
  // nearest to KING)?
  static bool IsChecked(const Pos& s) {
    int king = 0;
    int best = 1 << 30;
    for (int i = 0; i < 12; ++i) {
      const int d = std::abs(s.board[static_cast<std::size_t>(i)] - kKing);
      if (d < best) {
        best = d;
        king = i;
      }
    }
    for (int from = 0; from < 12; ++from) {
      const std::int32_t piece = s.board[static_cast<std::size_t>(from)];
      if (piece >= 5 && CanMove(FloorMod(piece, 5), king, from)) return true;
    }
    return false;
  }

  void LegalMask() {
    for (int label = 0; label < 132; ++label) {
      const int x = label / 12;
      const int sq = label % 12;
      bool ok = false;
      if (x >= 8) {
        const int piece = x - 8;
        ok = s_.board[static_cast<std::size_t>(sq)] == kEmpty && s_.hand[static_cast<std::size_t>(piece)] > 0;
        if (ok) {
          Pos next = s_;
          StepDrop(&next, sq, piece);
          ok = !IsChecked(next);
        }
      } else {
        const int to = To(sq, x);
        const std::int32_t piece = s_.board[static_cast<std::size_t>(sq)];
        ok = piece >= kPawn && piece <= kGold && to != -1;
        ok = ok && (s_.board[static_cast<std::size_t>(to)] == kEmpty || s_.board[static_cast<std::size_t>(to)] > kGold);
        ok = ok && CanMove(piece, sq, to);
        if (ok) {
          Pos next = s_;
          StepMove(&next, sq, to);
          ok = !IsChecked(next);
        }
      }
      mask_[static_cast<std::size_t>(label)] = ok;
    }
  }

  // _observe(state, player): the position from the player's side (flipped for the one not
  // to move), 194 planes over the 12 squares.
  void ObservePlayer(int player, float* out) const {
    const bool mine = player == current_player_;
    const int color = mine ? s_.turn : 1 - s_.turn;
    Pos s = s_;
    if (!mine) Flip(&s);
    std::array<float, 194 * 12> planes{};  // (194, 12)
    for (std::size_t i = 0; i < 8; ++i) {
      float* rows = planes.data() + i * 24 * 12;
      for (int sq = 0; sq < 12; ++sq) {
        const std::int32_t v = s.board_history[i * 12 + static_cast<std::size_t>(sq)];
        for (int p = 0; p < 10; ++p) rows[p * 12 + sq] = v == p ? 1.0F : 0.0F;
        for (int p = 0; p < 6; ++p) {
          for (int n = 1; n <= 2; ++n) {
            rows[(10 + p * 2 + n - 1) * 12 + sq] = s.hand_history[i * 6 + static_cast<std::size_t>(p)] >= n ? 1.0F : 0.0F;
          }
        }
        rows[22 * 12 + sq] = rep_history_[i] == 0 ? 1.0F : 0.0F;
        rows[23 * 12 + sq] = rep_history_[i] == 1 ? 1.0F : 0.0F;
      }
    }
    for (int sq = 0; sq < 12; ++sq) {
      planes[192 * 12 + static_cast<std::size_t>(sq)] = static_cast<float>(color);
      planes[193 * 12 + static_cast<std::size_t>(sq)] = static_cast<float>(step_count_) / static_cast<float>(kSteps);
    }
    // reshape(-1, 3, 4).transpose(2, 1, 0), flipped on axis 1: out[y][2 - x][c]
    for (int c = 0; c < 194; ++c) {
      for (int sq = 0; sq < 12; ++sq) {
        const int x = sq / 4;
        const int y = sq % 4;
        out[(y * 3 + (2 - x)) * 194 + c] = planes[static_cast<std::size_t>(c * 12 + sq)];
      }
    }
  }

  Params z_;
  Pos s_;
  std::vector<Hash> hash_history_;
  std::array<std::int32_t, 8> rep_history_{};
};

}  // namespace envpool::pgx
