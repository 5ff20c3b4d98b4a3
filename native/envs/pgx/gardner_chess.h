// GardnerChess-v1: pgx 2.6.0's gardner_chess (pgx/gardner_chess.py), chess on a 5 x 5
// board without castling, en passant or the pawn's double step.
//
// The board (square sq = c * 5 + r, c the file a..e, r the rank counted from the mover's
// side) holds 0 (empty), the mover's pieces 1..6 (pawn, knight, bishop, rook, queen, king)
// and the opponent's -1..-6, always from the mover's side: after every move the board is
// flipped (ranks reversed, signs negated). Action labels (25 x 49): from = a / 49 and
// plane = a % 49; planes 0..8 underpromote (plane / 3: rook, bishop, knight; plane % 3:
// forward, right, left), planes 9..48 are queen and knight moves (pgx's dr / dc lists);
// TO_MAP gives the target, -1 where it leaves the board.
// A move is legal when pgx's _is_pseudo_legal holds (an own piece, the target empty or the
// opponent's, the piece's CAN_MOVE row holds the target, the squares between are empty, a
// pawn captures only diagonally and moves straight only onto an empty square) and the
// mover's king (the first square nearest to -KING after the flip) is then not attacked.
// pgx enumerates the mover's pieces from _possible_piece_positions (a list kept by moves,
// with stale squares of captured pieces), restated as it is.
// Quirks restated: the queen promotion test reads `piece == PAWN & (from % 5 == 3) &
// (underpromotion < 0)`, which Python parses as piece == (1 or 0), so a move from an
// empty square (an illegal one) drops a queen on its target; the zobrist update ignores the
// promotion to a queen. An illegal label runs the same array code with jax's index rules
// (a read at -k counts from the end, then clamps; a write at -1 goes to square 24).
// Termination after each move: no legal move (checkmate: +1 / -1; stalemate: 0), the
// 50-move rule (halfmove count >= 100), insufficient material (OpenSpiel's rule), a
// position seen three times (the hash history of the last 257 positions), and the step
// limit (256, a tie).
// Observation of player p (5, 5, 115) float32: for each of the 8 history boards, 6 own and
// 6 opponent piece planes and 2 repetition planes (seen 1 time, more times); then p's
// color, step_count / 256 and halfmove_count / 100; square (c, r) at row 4 - r, column c
// (numpy's rot90), from p's side.
// Info: board (5, 5) (the same rot90 of the mover's board), turn, halfmove_count,
// fullmove_count.
// State: pgx's fields above (turn, board, counts, zobrist hash, hash and board histories,
// possible piece positions); frames: 200 x 200 by default (pgx's picture is 300 x 300).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "envs/pgx/pgx_env.h"

namespace envpool::pgx {

class GardnerChessEnv final : public PgxEnv {
 public:
  static constexpr int kSteps = 256;
  static constexpr int kLabels = 25 * 49;
  static constexpr int kPlanes = 115;
  using Hash = std::array<std::uint32_t, 2>;
  using Board = std::array<std::int32_t, 25>;

  // pgx's precomputed tables (pgx/_src/gardner_chess_utils.py), rebuilt from their rules.
  struct Params {
    explicit Params(const Config& /*config*/) {
      to_map.fill(-1);
      plane_map.fill(-1);
      for (int from = 0; from < 25; ++from) {
        if (from % 5 == 3) {  // underpromotions from the 4th rank
          for (int plane = 0; plane < 9; ++plane) {
            const int to = from + std::array<int, 3>{1, 6, -4}[static_cast<std::size_t>(plane % 3)];
            if (to >= 0 && to < 25) to_map[static_cast<std::size_t>(from * 49 + plane)] = to;
          }
        }
        static constexpr std::array<int, 40> kDr = {-4, -3, -2, -1, 1, 2, 3, 4, 0, 0, 0, 0, 0, 0,
                                                    0, 0, -4, -3, -2, -1, 1, 2, 3, 4, 4, 3, 2, 1,
                                                    -1, -2, -3, -4, -1, 1, -2, 2, -1, 1, -2, 2};
        static constexpr std::array<int, 40> kDc = {0, 0, 0, 0, 0, 0, 0, 0, -4, -3, -2, -1, 1, 2,
                                                    3, 4, -4, -3, -2, -1, 1, 2, 3, 4, -4, -3, -2, -1,
                                                    1, 2, 3, 4, -2, -2, -1, -1, 2, 2, 1, 1};
        for (int plane = 9; plane < 49; ++plane) {
          const int r = from % 5 + kDr[static_cast<std::size_t>(plane - 9)];
          const int c = from / 5 + kDc[static_cast<std::size_t>(plane - 9)];
          if (r < 0 || r >= 5 || c < 0 || c >= 5) continue;
          to_map[static_cast<std::size_t>(from * 49 + plane)] = c * 5 + r;
          plane_map[static_cast<std::size_t>(from * 25 + c * 5 + r)] = plane;
        }
      }
      // CAN_MOVE[piece, from, :16]: the targets in square order (-1 after them); the queen
      // lists a square once (a line and a diagonal only meet at `from`).
      can_move.fill(-1);
      for (int piece = 1; piece <= 6; ++piece) {
        for (int from = 0; from < 25; ++from) {
          int n = 0;
          for (int to = 0; to < 25; ++to) {
            const int dr = to % 5 - from % 5;
            const int dc = to / 5 - from / 5;
            const int ar = std::abs(dr);
            const int ac = std::abs(dc);
            bool ok = false;
            switch (piece) {
              case 1: ok = dr == 1 && ac <= 1; break;
              case 2: ok = (ar == 1 && ac == 2) || (ar == 2 && ac == 1); break;
              case 3: ok = to != from && ar == ac; break;
              case 4: ok = to != from && (ar == 0 || ac == 0); break;
              case 5: ok = to != from && (ar == 0 || ac == 0 || ar == ac); break;
              default: ok = to != from && ar <= 1 && ac <= 1; break;
            }
            if (ok) can_move[static_cast<std::size_t>((piece * 25 + from) * 16 + n++)] = to;
          }
        }
      }
      // CAN_MOVE_ANY[pos, :24]: the queen's targets, then the knight's.
      can_move_any.fill(-1);
      for (int from = 0; from < 25; ++from) {
        int n = 0;
        for (int piece : {5, 2}) {
          for (int i = 0; i < 16; ++i) {
            const int to = can_move[static_cast<std::size_t>((piece * 25 + from) * 16 + i)];
            if (to >= 0) can_move_any[static_cast<std::size_t>(from * 24 + n++)] = to;
          }
        }
      }
      // BETWEEN[from, to, :3]: the squares strictly between on a line or diagonal.
      between.fill(-1);
      for (int from = 0; from < 25; ++from) {
        for (int to = 0; to < 25; ++to) {
          const int r0 = from % 5;
          const int c0 = from / 5;
          const int r1 = to % 5;
          const int c1 = to / 5;
          if (!(r1 == r0 || c1 == c0 || std::abs(r1 - r0) == std::abs(c1 - c0))) continue;
          const int dr = std::clamp(r1 - r0, -1, 1);
          const int dc = std::clamp(c1 - c0, -1, 1);
          int r = r0 + dr;
          int c = c0 + dc;
          for (int n = 0; (r != r1 || c != c1) && n < 3; ++n, r += dr, c += dc) {
            between[static_cast<std::size_t>((from * 25 + to) * 3 + n)] = c * 5 + r;
          }
        }
      }
      // key = PRNGKey(238942); key, sub = split(key): ZOBRIST_BOARD = randint(sub, (25, 13,
      // 2), 0, 2**31 - 1, uint32); key, sub = split(key): ZOBRIST_SIDE (2,).
      const jax_random::Key key = jax_random::PrngKey(238942);
      const jax_random::Key sub = jax_random::SplitAt(key, 1);
      for (std::uint32_t i = 0; i < zobrist.size(); ++i) zobrist[i] = jax_random::RandIntSpanAt(sub, i, kSpan);
      const jax_random::Key sub2 = jax_random::SplitAt(jax_random::SplitAt(key, 0), 1);
      for (std::uint32_t i = 0; i < 2; ++i) side[i] = jax_random::RandIntSpanAt(sub2, i, kSpan);
    }
    static constexpr std::uint32_t kSpan = 2147483647u;
    std::array<std::int32_t, 25 * 49> to_map{};
    std::array<std::int32_t, 25 * 25> plane_map{};
    std::array<std::int32_t, 7 * 25 * 16> can_move{};
    std::array<std::int32_t, 25 * 24> can_move_any{};
    std::array<std::int32_t, 25 * 25 * 3> between{};
    std::array<std::uint32_t, 25 * 13 * 2> zobrist{};
    Hash side{};
  };

  static Config Defaults() { return PgxDefaults(2); }
  static EnvSpec MakeSpec(const Params& /*params*/) {
    return MakePgxSpec(2, BoxSpec("obs", DType::kFloat32, {5, 5, kPlanes}, {0.0}, {1.0}), kLabels,
                       {BoxSpec("board", DType::kInt32, {5, 5}, {-6.0}, {6.0}),
                        BoxSpec("turn", DType::kInt32, {}, {0.0}, {1.0}),
                        BoxSpec("halfmove_count", DType::kInt32, {}, {0.0}, {100.0}),
                        BoxSpec("fullmove_count", DType::kInt32, {}, {1.0}, {256.0})});
  }
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return PgxFrameSize(width, height, camera_id, 200, 200);
  }
  explicit GardnerChessEnv(const Params& params) : PgxEnv(2, kLabels, 5 * 5 * kPlanes), t_(params) {}

 protected:
  void Init(const Key& key) override {
    current_player_ = Bernoulli(key) ? 1 : 0;
    turn_ = 0;
    board_ = {4, 1, 0, -1, -4, 2, 1, 0, -1, -2, 3, 1, 0, -1, -3, 5, 1, 0, -1, -5, 6, 1, 0, -1, -6};
    halfmove_ = 0;
    fullmove_ = 1;
    hash_ = {2025569903u, 1172890342u};
    hash_history_.assign(kSteps + 1, Hash{0u, 0u});
    hash_history_[0] = hash_;
    board_history_.fill(0);
    std::copy(board_.begin(), board_.end(), board_history_.begin());
    ppp_ = {{{0, 1, 5, 6, 10, 11, 15, 16, 20, 21}, {0, 1, 5, 6, 10, 11, 15, 16, 20, 21}}};
    LegalMask();
    Repetitions();
  }

  void GameStep(int action, const Key& /*key*/) override {
    const int from = action / 49;
    const int plane = action % 49;
    const int to = t_.to_map[static_cast<std::size_t>(action)];
    const int under = plane >= 9 ? -1 : plane / 3;
    UpdateHash(from, to, under);
    // _apply_move
    std::int32_t piece = board_[static_cast<std::size_t>(from)];
    const bool captured = board_[Read(to, 25)] < 0;
    halfmove_ = captured || piece == kPawn ? 0 : halfmove_ + 1;
    fullmove_ += turn_ == 1 ? 1 : 0;
    // `piece == PAWN & (from % 5 == 3) & (under < 0)`: piece == (1 or 0), see the top
    if (piece == ((from % 5 == 3 && under < 0) ? 1 : 0)) piece = kQueen;
    if (under >= 0) piece = std::array<std::int32_t, 3>{4, 3, 2}[static_cast<std::size_t>(under)];
    board_[static_cast<std::size_t>(from)] = 0;
    board_[static_cast<std::size_t>(Write(to, 25))] = piece;
    // _possible_piece_positions: the first nearest entry moves to `to`
    std::size_t ix = 0;
    for (std::size_t i = 1; i < 10; ++i) {
      if (std::abs(ppp_[0][i] - from) < std::abs(ppp_[0][ix] - from)) ix = i;
    }
    ppp_[0][ix] = to;
    // _flip
    current_player_ = 1 - current_player_;
    turn_ = 1 - turn_;
    board_ = Flip(board_);
    for (std::size_t r = 0; r < 8; ++r) {
      Board b{};
      std::copy_n(board_history_.begin() + static_cast<std::ptrdiff_t>(r * 25), 25, b.begin());
      b = Flip(b);
      std::copy(b.begin(), b.end(), board_history_.begin() + static_cast<std::ptrdiff_t>(r * 25));
    }
    std::swap(ppp_[0], ppp_[1]);
    // _update_history: both histories shift by one row, the newest in row 0
    std::rotate(board_history_.rbegin(), board_history_.rbegin() + 25, board_history_.rend());
    std::copy(board_.begin(), board_.end(), board_history_.begin());
    std::rotate(hash_history_.rbegin(), hash_history_.rbegin() + 1, hash_history_.rend());
    hash_history_[0] = hash_;
    LegalMask();
    Repetitions();
    // _check_termination
    bool any = false;
    for (bool m : mask_) any = any || m;
    int seen = 0;
    for (const Hash& h : hash_history_) seen += h == hash_;
    terminated_ = !any || halfmove_ >= 100 || InsufficientPieces() || seen - 1 >= 2;
    if (!any && Checking(Flip(board_))) {  // checkmate: the mover loses
      rewards_[0] = rewards_[1] = 1.0F;
      rewards_[static_cast<std::size_t>(current_player_)] = -1.0F;
    }
    if (kSteps <= step_count_) terminated_ = true;  // a tie at the step limit
  }

  void WriteObs(const Slot& slot) const override {
    float* obs = slot.Obs<float>(0);
    for (int p = 0; p < 2; ++p) ObservePlayer(p, obs + p * obs_size_);
  }

  void WriteObservation(StateLeaves& out) const override {
    std::vector<float> obs(static_cast<std::size_t>(obs_size_));
    ObservePlayer(current_player_, obs.data());
    out.Add(obs, {5, 5, kPlanes});
  }

  // State's own fields: _turn, _board, _halfmove_count, _fullmove_count, _zobrist_hash,
  // _hash_history, _board_history, _possible_piece_positions.
  void WriteState(StateLeaves& out) const override {
    out.Scalar(turn_).Add(board_, {25}).Scalar(halfmove_).Scalar(fullmove_).Add(hash_, {2});
    out.AddRows(hash_history_, {kSteps + 1, 2}).Add(board_history_, {8, 25}).AddRows(ppp_, {2, 10});
  }

  void WriteInfo(const Slot& slot, std::size_t first) const override {
    std::int32_t* board = slot.Info<std::int32_t>(first);
    for (int sq = 0; sq < 25; ++sq) board[RotIndex(sq)] = board_[static_cast<std::size_t>(sq)];
    *slot.Info<std::int32_t>(first + 1) = turn_;
    *slot.Info<std::int32_t>(first + 2) = halfmove_;
    *slot.Info<std::int32_t>(first + 3) = fullmove_;
  }

 private:
  static constexpr std::int32_t kPawn = 1;
  static constexpr std::int32_t kQueen = 5;
  static constexpr std::int32_t kKing = 6;

  // jax's read index into n elements: -k counts from the end, then clamped.
  static std::size_t Read(int i, int n) {
    if (i < 0) i += n;
    return static_cast<std::size_t>(std::clamp(i, 0, n - 1));
  }
  // jax's write index (the targets here are -1 .. n - 1: -1 is the last element).
  static int Write(int i, int n) { return i < 0 ? i + n : i; }
  // numpy's rot90(board.reshape(5, 5)): square (c, r) at row 4 - r, column c.
  static int RotIndex(int sq) { return (4 - sq % 5) * 5 + sq / 5; }
  static int FlipPos(int x) { return x == -1 ? x : (x / 5) * 5 + (4 - x % 5); }
  static Board Flip(const Board& b) {
    Board out{};
    for (int sq = 0; sq < 25; ++sq) out[static_cast<std::size_t>(sq)] = -b[static_cast<std::size_t>(FlipPos(sq))];
    return out;
  }

  std::uint32_t Z(int sq, int piece, int w) const {
    return t_.zobrist[(Read(sq, 25) * 13 + Read(piece, 13)) * 2 + static_cast<std::size_t>(w)];
  }

  // _update_zobrist_hash (before the move): the source square's piece out and an empty
  // square in, the target's piece out and the (under-promoted) source piece in, the side.
  void UpdateHash(int from, int to, int under) {
    const bool white = turn_ == 0;
    int src = board_[static_cast<std::size_t>(from)];
    src = white ? src + 6 : -src + 6;
    int dst = board_[Read(to, 25)];
    dst = white ? dst + 6 : -dst + 6;
    const int f = white ? from : FlipPos(from);
    const int t = white ? to : FlipPos(to);
    int placed = src;
    if (under >= 0) placed = white ? src + 3 - under : src - (3 - under);
    for (int w = 0; w < 2; ++w) {
      hash_[static_cast<std::size_t>(w)] ^= Z(f, src, w) ^ Z(f, 6, w) ^ Z(t, dst, w) ^ Z(t, placed, w) ^
                                            t_.side[static_cast<std::size_t>(w)];
    }
  }

  // _is_pseudo_legal(board, from -> to) for 0 <= from, to < 25 (no underpromotion).
  bool PseudoLegal(const Board& b, int from, int to) const {
    const std::int32_t piece = b[static_cast<std::size_t>(from)];
    const std::int32_t target = b[static_cast<std::size_t>(to)];
    if (piece < 0 || target > 0) return false;
    bool reach = false;
    for (int i = 0; i < 16; ++i) reach = reach || t_.can_move[static_cast<std::size_t>((piece * 25 + from) * 16 + i)] == to;
    if (!reach) return false;
    for (int i = 0; i < 3; ++i) {
      const int sq = t_.between[static_cast<std::size_t>((from * 25 + to) * 3 + i)];
      if (sq >= 0 && b[static_cast<std::size_t>(sq)] != 0) return false;
    }
    if (piece == kPawn && to / 5 == from / 5 && target < 0) return false;
    if (piece == kPawn && to / 5 != from / 5 && target >= 0) return false;
    return true;
  }

  // _is_checking: can a piece >= 0 capture the first square nearest to -KING?
  bool Checking(const Board& b) const {
    int king = 0;
    for (int i = 1; i < 25; ++i) {
      if (std::abs(b[static_cast<std::size_t>(i)] + kKing) < std::abs(b[static_cast<std::size_t>(king)] + kKing)) king = i;
    }
    for (int i = 0; i < 24; ++i) {
      const int from = t_.can_move_any[static_cast<std::size_t>(king * 24 + i)];
      if (from != -1 && PseudoLegal(b, from, king)) return true;
    }
    return false;
  }

  // _legal_action_mask: the pieces at _possible_piece_positions[0], each target of their
  // CAN_MOVE row that is pseudo-legal and leaves the own king unattacked; then the
  // underpromotions of the pawns whose forward moves are legal.
  void LegalMask() {
    std::fill(mask_.begin(), mask_.end(), false);
    for (int from : ppp_[0]) {
      if (from < 0) continue;
      const std::int32_t piece = board_[static_cast<std::size_t>(from)];
      if (piece <= 0) continue;
      for (int i = 0; i < 16; ++i) {
        const int to = t_.can_move[static_cast<std::size_t>((piece * 25 + from) * 16 + i)];
        if (to < 0 || !PseudoLegal(board_, from, to)) continue;
        Board next = board_;
        next[static_cast<std::size_t>(from)] = 0;
        next[static_cast<std::size_t>(to)] = piece;  // (a promoted queen blocks as a pawn does)
        if (Checking(Flip(next))) continue;
        mask_[static_cast<std::size_t>(from * 49 + t_.plane_map[static_cast<std::size_t>(from * 25 + to)])] = true;
      }
    }
    for (int from : {3, 8, 13, 18, 23}) {
      if (board_[static_cast<std::size_t>(from)] != kPawn) continue;
      for (int plane = 0; plane < 9; ++plane) {
        const int to = t_.to_map[static_cast<std::size_t>(from * 49 + plane)];
        if (to < 0) continue;
        if (mask_[static_cast<std::size_t>(from * 49 + t_.plane_map[static_cast<std::size_t>(from * 25 + to)])]) {
          mask_[static_cast<std::size_t>(from * 49 + plane)] = true;
        }
      }
    }
  }

  // has_insufficient_pieces (OpenSpiel's rule): king vs king, king and a minor piece vs
  // king, or only kings and bishops all on squares of one colour (even squares "black").
  bool InsufficientPieces() const {
    int pieces = 0;
    int heavy = -2;  // pawns, rooks, queens (and the two kings, taken off)
    int bishops = 0;
    int bishops_black = 0;
    for (int sq = 0; sq < 25; ++sq) {
      const int a = std::abs(board_[static_cast<std::size_t>(sq)]);
      pieces += a != 0;
      heavy += a >= 4 || a == 1;
      bishops += a == 3;
      bishops_black += a == 3 && sq % 2 == 0;
    }
    return pieces <= 2 || (pieces == 3 && heavy == 0) ||
           (pieces == bishops + 2 && (bishops_black == bishops || bishops_black == 0));
  }

  // The repetition count of each of the 8 newest history rows (0 for an empty row).
  void Repetitions() {
    for (std::size_t i = 0; i < 8; ++i) {
      const Hash& h = hash_history_[i];
      int seen = 0;
      for (const Hash& g : hash_history_) seen += g == h;
      rep_[i] = h == Hash{0u, 0u} ? 0 : seen - 1;
    }
  }

  // _observe(state, player): from the player's side (the board history flipped for the
  // one not to move).
  void ObservePlayer(int player, float* out) const {
    const bool mine = player == current_player_;
    const int color = mine ? turn_ : 1 - turn_;
    const float steps = static_cast<float>(step_count_) / static_cast<float>(kSteps);
    const float halfmove = static_cast<float>(halfmove_) / 100.0F;
    for (int sq = 0; sq < 25; ++sq) {
      float* cell = out + RotIndex(sq) * kPlanes;
      for (std::size_t i = 0; i < 8; ++i) {
        std::int32_t v = board_history_[i * 25 + static_cast<std::size_t>(mine ? sq : FlipPos(sq))];
        if (!mine) v = -v;
        float* planes = cell + i * 14;
        for (int p = 0; p < 6; ++p) {
          planes[p] = v == p + 1 ? 1.0F : 0.0F;
          planes[6 + p] = v == -(p + 1) ? 1.0F : 0.0F;
        }
        planes[12] = rep_[i] == 0 ? 1.0F : 0.0F;
        planes[13] = rep_[i] >= 1 ? 1.0F : 0.0F;
      }
      cell[112] = static_cast<float>(color);
      cell[113] = steps;
      cell[114] = halfmove;
    }
  }

  Params t_;
  std::int32_t turn_ = 0;
  Board board_{};
  std::int32_t halfmove_ = 0;
  std::int32_t fullmove_ = 1;
  Hash hash_{};
  std::vector<Hash> hash_history_;
  std::array<std::int32_t, 8 * 25> board_history_{};
  std::array<std::array<int, 10>, 2> ppp_{};
  std::array<int, 8> rep_{};
};

}  // namespace envpool::pgx
