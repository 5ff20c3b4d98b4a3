// Chess-v1: pgx 2.6.0's chess (pgx/chess.py over pgx/_src/games/chess.py).
//
// The board (square sq = c * 8 + r, c the file a..h, r the rank counted from the mover's
// side: a1 = 0, a2 = 1, ..., h8 = 63) holds 0 (empty), the mover's pieces 1..6 (pawn,
// knight, bishop, rook, queen, king) and the opponent's -1..-6, always from the mover's
// side: after every move the board is flipped (ranks reversed, signs negated), and so are
// the en passant square and the castling rights ([mine, the opponent's] x [queen side,
// king side]).
// Action labels (AlphaZero's, 64 x 73): from = a / 73, plane = a % 73; planes 0..8
// underpromote from the 7th rank (plane / 3: rook, bishop, knight; plane % 3: forward,
// right, left), planes 9..72 are 56 queen moves (7 each down, up, left, right, down-left,
// up-right, up-left reversed, down-right reversed: pgx's dr / dc lists) and 8 knight moves;
// FROM_PLANE gives the target, -1 off the board. Castling is the king's two-square move
// (labels 2364, queen side, and 2367, king side).
// Legal moves (pgx's _legal_action_mask): the pseudo-legal moves of the mover's pieces (in
// square order, at most 200 of them: pgx keeps the first 200), a pawn moving straight onto
// an empty square (two from its 2nd rank past an empty one) or diagonally onto an opponent
// piece or the en passant square, that leave the own king (the first square nearest to
// KING) unattacked; castling when the rights hold, the squares between are empty and the
// king's squares (e1, d1, c1 / e1, f1, g1) are not attacked; underpromotions where the
// forward / capturing pawn move is legal.
// An illegal label runs the same array code with jax's index rules (a read at -k counts
// from the end, then clamps; a write at -k goes to 64 - k) before pgx's penalty.
// Termination after each move: no legal move (checkmate: +1 / -1; stalemate: 0), the
// 50-move rule (halfmove count >= 100), insufficient material (OpenSpiel's rule), a
// position seen three times (zobrist hashes of board, side, castling rights and en passant
// over the last 513 positions), and the step limit (512, a tie).
// Players: init draws player_order ([0, 1] or [1, 0], bernoulli(key)); the player of color
// k is player_order[k], and the rewards follow.
// Observation of player p (8, 8, 119) float32: for each of the 8 history boards, 6 own and
// 6 opponent piece planes and 2 repetition planes (seen once, more times); then p's color,
// step_count / 512, the 4 castling rights (p's queen side, king side, the opponent's) and
// halfmove_count / 100; square (c, r) at row 7 - r, column c (numpy's rot90), from p's side.
// Info: board (8, 8) (the same rot90 of the mover's board), castling_rights (2, 2), en_passant
// (the mover's square, -1 for none), turn (the color to move), halfmove_count,
// fullmove_count.
// State: pgx's _player_order and _x (the GameState above, with its hash and board
// histories and the game's own legal_action_mask); frames: 256 x 256 by default (pgx's
// picture is 450 x 450).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "envs/pgx/pgx_env.h"

namespace envpool::pgx {

class ChessEnv final : public PgxEnv {
 public:
  static constexpr int kSteps = 512;
  static constexpr int kLabels = 64 * 73;
  static constexpr int kPlanes = 119;
  using Hash = std::array<std::uint32_t, 2>;
  using Board = std::array<std::int32_t, 64>;

  // pgx's precomputed tables (pgx/_src/games/chess.py), rebuilt from their rules.
  struct Params {
    explicit Params(const Config& /*config*/) {
      from_plane.fill(-1);
      to_plane.fill(-1);
      std::array<int, 64> dr{};
      std::array<int, 64> dc{};
      for (int i = 0; i < 7; ++i) {
        const auto k = static_cast<std::size_t>(i);
        const int seq = i + 1;        // 1..7
        const int rseq = i - 7;       // -7..-1
        dr[k] = rseq;                 // down
        dr[7 + k] = seq;              // up
        dc[14 + k] = rseq;            // left
        dc[21 + k] = seq;             // right
        dr[28 + k] = rseq;            // down-left
        dc[28 + k] = rseq;
        dr[35 + k] = seq;             // up-right
        dc[35 + k] = seq;
        dr[42 + k] = 7 - i;           // seq reversed, with rseq: up-left
        dc[42 + k] = rseq;
        dr[49 + k] = -1 - i;          // rseq reversed, with seq: down-right
        dc[49 + k] = seq;
      }
      static constexpr std::array<int, 8> kKnightDr = {-1, 1, -2, 2, -1, 1, -2, 2};
      static constexpr std::array<int, 8> kKnightDc = {-2, -2, -1, -1, 2, 2, 1, 1};
      for (std::size_t k = 0; k < 8; ++k) {
        dr[56 + k] = kKnightDr[k];
        dc[56 + k] = kKnightDc[k];
      }
      for (int from = 0; from < 64; ++from) {
        for (int plane = 0; plane < 73; ++plane) {
          if (plane < 9) {
            if (from % 8 != 6) continue;
            const int to = from + std::array<int, 3>{1, 9, -7}[static_cast<std::size_t>(plane % 3)];
            if (to >= 0 && to < 64) from_plane[static_cast<std::size_t>(from * 73 + plane)] = to;
          } else {
            const int r = from % 8 + dr[static_cast<std::size_t>(plane - 9)];
            const int c = from / 8 + dc[static_cast<std::size_t>(plane - 9)];
            if (r < 0 || r >= 8 || c < 0 || c >= 8) continue;
            from_plane[static_cast<std::size_t>(from * 73 + plane)] = c * 8 + r;
            to_plane[static_cast<std::size_t>(from * 64 + c * 8 + r)] = plane;
          }
        }
      }
      // CAN_MOVE[piece, from, to] and LEGAL_DEST[piece, from]: the targets in square order.
      for (int piece = 1; piece <= 6; ++piece) {
        for (int from = 0; from < 64; ++from) {
          auto& dest = legal_dest[static_cast<std::size_t>(piece * 64 + from)];
          for (int to = 0; to < 64; ++to) {
            if (to == from) continue;
            const int r0 = from % 8;
            const int r1 = to % 8;
            const int ar = std::abs(r1 - r0);
            const int ac = std::abs(to / 8 - from / 8);
            bool ok = false;
            switch (piece) {
              case 1: ok = (r1 - r0 == 1 && ac <= 1) || (r0 == 1 && r1 == 3 && ac == 0); break;
              case 2: ok = (ar == 1 && ac == 2) || (ar == 2 && ac == 1); break;
              case 3: ok = ar == ac; break;
              case 4: ok = ar == 0 || ac == 0; break;
              case 5: ok = ar == 0 || ac == 0 || ar == ac; break;
              default: ok = ar <= 1 && ac <= 1; break;
            }
            if (ok) {
              can_move[static_cast<std::size_t>((piece * 64 + from) * 64 + to)] = true;
              dest.push_back(static_cast<std::int8_t>(to));
            }
          }
        }
      }
      // LEGAL_DEST_NEAR (king and knight targets) and LEGAL_DEST_FAR (the queen's others).
      for (int pos = 0; pos < 64; ++pos) {
        for (int to = 0; to < 64; ++to) {
          const bool king = can_move[static_cast<std::size_t>((6 * 64 + pos) * 64 + to)];
          const bool knight = can_move[static_cast<std::size_t>((2 * 64 + pos) * 64 + to)];
          const bool queen = can_move[static_cast<std::size_t>((5 * 64 + pos) * 64 + to)];
          if (king || knight) near[static_cast<std::size_t>(pos)].push_back(static_cast<std::int8_t>(to));
          if (queen && !king) far[static_cast<std::size_t>(pos)].push_back(static_cast<std::int8_t>(to));
        }
      }
      // BETWEEN[from, to, :6]: the squares strictly between on a line or diagonal.
      between.fill(-1);
      for (int from = 0; from < 64; ++from) {
        for (int to = 0; to < 64; ++to) {
          const int r0 = from % 8;
          const int c0 = from / 8;
          const int r1 = to % 8;
          const int c1 = to / 8;
          if (!(r1 == r0 || c1 == c0 || std::abs(r1 - r0) == std::abs(c1 - c0))) continue;
          const int sr = std::clamp(r1 - r0, -1, 1);
          const int sc = std::clamp(c1 - c0, -1, 1);
          for (int i = 0; i < 6; ++i) {
            const int r = r0 + sr * (i + 1);
            const int c = c0 + sc * (i + 1);
            if (r == r1 && c == c1) break;
            between[static_cast<std::size_t>((from * 64 + to) * 6 + i)] = c * 8 + r;
          }
        }
      }
      // keys = split(PRNGKey(12345), 4): ZOBRIST_BOARD (64, 13, 2), ZOBRIST_SIDE (2,),
      // ZOBRIST_CASTLING (4, 2), ZOBRIST_EN_PASSANT (65, 2), randint(.., 0, 2**31 - 1, uint32).
      const jax_random::Key key = jax_random::PrngKey(12345);
      const jax_random::Key k0 = jax_random::SplitAt(key, 0);
      const jax_random::Key k1 = jax_random::SplitAt(key, 1);
      const jax_random::Key k2 = jax_random::SplitAt(key, 2);
      const jax_random::Key k3 = jax_random::SplitAt(key, 3);
      for (std::uint32_t i = 0; i < zobrist.size(); ++i) zobrist[i] = jax_random::RandIntSpanAt(k0, i, kSpan);
      for (std::uint32_t i = 0; i < 2; ++i) side[i] = jax_random::RandIntSpanAt(k1, i, kSpan);
      for (std::uint32_t i = 0; i < castling.size(); ++i) castling[i] = jax_random::RandIntSpanAt(k2, i, kSpan);
      for (std::uint32_t i = 0; i < en_passant.size(); ++i) en_passant[i] = jax_random::RandIntSpanAt(k3, i, kSpan);
    }
    static constexpr std::uint32_t kSpan = 2147483647u;
    std::array<std::int32_t, 64 * 73> from_plane{};
    std::array<std::int32_t, 64 * 64> to_plane{};
    std::vector<bool> can_move = std::vector<bool>(7 * 64 * 64, false);
    std::array<std::vector<std::int8_t>, 7 * 64> legal_dest{};
    std::array<std::vector<std::int8_t>, 64> near{};
    std::array<std::vector<std::int8_t>, 64> far{};
    std::array<std::int32_t, 64 * 64 * 6> between{};
    std::array<std::uint32_t, 64 * 13 * 2> zobrist{};
    Hash side{};
    std::array<std::uint32_t, 4 * 2> castling{};
    std::array<std::uint32_t, 65 * 2> en_passant{};
  };

  static Config Defaults() { return PgxDefaults(2); }
  static EnvSpec MakeSpec(const Params& /*params*/) {
    return MakePgxSpec(2, BoxSpec("obs", DType::kFloat32, {8, 8, kPlanes}, {0.0}, {1.0}), kLabels,
                       {BoxSpec("board", DType::kInt32, {8, 8}, {-6.0}, {6.0}),
                        BoxSpec("castling_rights", DType::kBool, {2, 2}, {0.0}, {1.0}),
                        BoxSpec("en_passant", DType::kInt32, {}, {-1.0}, {63.0}),
                        BoxSpec("turn", DType::kInt32, {}, {0.0}, {1.0}),
                        BoxSpec("halfmove_count", DType::kInt32, {}, {0.0}, {100.0}),
                        BoxSpec("fullmove_count", DType::kInt32, {}, {1.0}, {512.0})});
  }
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return PgxFrameSize(width, height, camera_id, 256, 256);
  }
  explicit ChessEnv(const Params& params) : PgxEnv(2, kLabels, 8 * 8 * kPlanes), t_(params) {}

 protected:
  void Init(const Key& key) override {
    order_ = Bernoulli(key) ? std::array<int, 2>{1, 0} : std::array<int, 2>{0, 1};
    color_ = 0;
    current_player_ = order_[0];
    board_ = {4, 1, 0, 0, 0, 0, -1, -4, 2, 1, 0, 0, 0, 0, -1, -2, 3, 1, 0, 0, 0, 0,
              -1, -3, 5, 1, 0, 0, 0, 0, -1, -5, 6, 1, 0, 0, 0, 0, -1, -6, 3, 1, 0, 0,
              0, 0, -1, -3, 2, 1, 0, 0, 0, 0, -1, -2, 4, 1, 0, 0, 0, 0, -1, -4};
    castling_ = {true, true, true, true};
    en_passant_ = -1;
    halfmove_ = 0;
    fullmove_ = 1;
    hash_history_.assign(kSteps + 1, Hash{0u, 0u});
    hash_history_[0] = {1455170221u, 1478960862u};
    board_history_.fill(0);
    std::copy(board_.begin(), board_.end(), board_history_.begin());
    LegalMask();
    Repetitions();
  }

  void GameStep(int action, const Key& /*key*/) override {
    const int from = action / 73;
    const int plane = action % 73;
    const int to = t_.from_plane[static_cast<std::size_t>(action)];
    const int under = plane >= 9 ? -1 : plane / 3;
    ApplyMove(&board_, &castling_, &en_passant_, &halfmove_, from, to, under);
    fullmove_ += color_ == 1 ? 1 : 0;
    // _flip
    board_ = Flip(board_);
    color_ = 1 - color_;
    en_passant_ = FlipPos(en_passant_);
    std::swap(castling_[0], castling_[2]);
    std::swap(castling_[1], castling_[3]);
    for (std::size_t r = 0; r < 8; ++r) {
      Board b{};
      std::copy_n(board_history_.begin() + static_cast<std::ptrdiff_t>(r * 64), 64, b.begin());
      b = Flip(b);
      std::copy(b.begin(), b.end(), board_history_.begin() + static_cast<std::ptrdiff_t>(r * 64));
    }
    // _update_history: both histories shift by one row, the newest in row 0
    std::rotate(board_history_.rbegin(), board_history_.rbegin() + 64, board_history_.rend());
    std::copy(board_.begin(), board_.end(), board_history_.begin());
    std::rotate(hash_history_.rbegin(), hash_history_.rbegin() + 1, hash_history_.rend());
    const Hash hash = ZobristHash();
    hash_history_[0] = hash;
    LegalMask();
    Repetitions();
    current_player_ = order_[static_cast<std::size_t>(color_)];
    // Game.is_terminal and Game.rewards
    bool any = false;
    for (bool m : mask_) any = any || m;
    int seen = 0;
    for (const Hash& h : hash_history_) seen += h == hash;
    terminated_ = !any || halfmove_ >= 100 || InsufficientPieces() || seen - 1 >= 2 || kSteps <= step_count_;
    if (!any && Attacked(board_, KingSquare(board_))) {  // checkmate: the mover loses
      rewards_[0] = rewards_[1] = 1.0F;
      rewards_[static_cast<std::size_t>(current_player_)] = -1.0F;
    }
  }

  void WriteObs(const Slot& slot) const override {
    float* obs = slot.Obs<float>(0);
    for (int p = 0; p < 2; ++p) ObservePlayer(p, obs + p * obs_size_);
  }

  void WriteObservation(StateLeaves& out) const override {
    std::vector<float> obs(static_cast<std::size_t>(obs_size_));
    ObservePlayer(current_player_, obs.data());
    out.Add(obs, {8, 8, kPlanes});
  }

  // State's own fields: _player_order, then _x (GameState): color, board, castling_rights,
  // en_passant, halfmove_count, fullmove_count, hash_history, board_history,
  // legal_action_mask (the game's: the state's is all True once terminated) and step_count
  // (the same as _step_count: a terminal state is never stepped).
  void WriteState(StateLeaves& out) const override {
    out.Add(order_, {2});
    out.Scalar(color_).Add(board_, {64}).Add(castling_, {2, 2}).Scalar(en_passant_);
    out.Scalar(halfmove_).Scalar(fullmove_);
    out.AddRows(hash_history_, {kSteps + 1, 2}).Add(board_history_, {8, 64});
    out.Add(game_mask_, {kLabels}).Scalar(step_count_);
  }

  void WriteInfo(const Slot& slot, std::size_t first) const override {
    std::int32_t* board = slot.Info<std::int32_t>(first);
    for (int sq = 0; sq < 64; ++sq) board[RotIndex(sq)] = board_[static_cast<std::size_t>(sq)];
    std::copy(castling_.begin(), castling_.end(), slot.Info<bool>(first + 1));
    *slot.Info<std::int32_t>(first + 2) = en_passant_;
    *slot.Info<std::int32_t>(first + 3) = color_;
    *slot.Info<std::int32_t>(first + 4) = halfmove_;
    *slot.Info<std::int32_t>(first + 5) = fullmove_;
  }

 private:
  static constexpr std::int32_t kPawn = 1;
  static constexpr std::int32_t kBishop = 3;
  static constexpr std::int32_t kRook = 4;
  static constexpr std::int32_t kQueen = 5;
  static constexpr std::int32_t kKing = 6;
  using Rights = std::array<bool, 4>;  // (2, 2): mine, the opponent's x queen, king side

  // jax's read index into 64 elements: -k counts from the end, then clamped.
  static std::size_t Read(int i) {
    if (i < 0) i += 64;
    return static_cast<std::size_t>(std::clamp(i, 0, 63));
  }
  // jax's write index (the targets here are -2 .. 63: -k is 64 - k).
  static std::size_t Write(int i) { return static_cast<std::size_t>(i < 0 ? i + 64 : i); }
  // numpy's rot90(board.reshape(8, 8)): square (c, r) at row 7 - r, column c.
  static int RotIndex(int sq) { return (7 - sq % 8) * 8 + sq / 8; }
  static int FlipPos(int x) { return x == -1 ? x : (x / 8) * 8 + (7 - x % 8); }
  static Board Flip(const Board& b) {
    Board out{};
    for (int sq = 0; sq < 64; ++sq) out[static_cast<std::size_t>(sq)] = -b[static_cast<std::size_t>(FlipPos(sq))];
    return out;
  }
  static int FloorDiv2(int x) { return x >= 0 ? x / 2 : -((-x + 1) / 2); }

  bool CanMove(int piece, int from, int to) const {
    return t_.can_move[static_cast<std::size_t>((piece * 64 + from) * 64 + to)];
  }
  bool BetweenEmpty(const Board& b, int from, int to) const {
    for (int i = 0; i < 6; ++i) {
      const int sq = t_.between[static_cast<std::size_t>((from * 64 + to) * 6 + i)];
      if (sq >= 0 && b[static_cast<std::size_t>(sq)] != 0) return false;
    }
    return true;
  }

  // _apply_move (the full move count is the caller's): en passant capture, the new en
  // passant square, the half move count, castling's rook, the castling rights, (under)promotion, then the move.
  static void ApplyMove(Board* board, Rights* rights, std::int32_t* en_passant, std::int32_t* halfmove,
                        int from, int to, int under) {
    Board& b = *board;
    std::int32_t piece = b[static_cast<std::size_t>(from)];
    if (*en_passant >= 0 && piece == kPawn && *en_passant == to) b[Write(to - 1)] = 0;
    const bool double_step = piece == kPawn && std::abs(to - from) == 2;
    *en_passant = double_step ? FloorDiv2(to + from) : -1;
    // (pgx reuses the name: the double step counts as a capture here)
    const bool captured = b[Read(to)] < 0 || double_step;
    *halfmove = captured || piece == kPawn ? 0 : *halfmove + 1;
    if (piece == kKing && from == 32 && to == 16) {
      b[0] = 0;
      b[24] = kRook;
    }
    if (piece == kKing && from == 32 && to == 48) {
      b[56] = 0;
      b[40] = kRook;
    }
    Rights& r = *rights;
    r[0] = r[0] && from != 32 && from != 0;
    r[1] = r[1] && from != 32 && from != 56;
    r[2] = r[2] && to != 7;
    r[3] = r[3] && to != 63;
    if (piece == kPawn && from % 8 == 6 && under < 0) piece = kQueen;
    if (under >= 0) piece = std::array<std::int32_t, 3>{kRook, kBishop, 2}[static_cast<std::size_t>(under)];
    b[static_cast<std::size_t>(from)] = 0;
    b[Write(to)] = piece;
  }

  // _is_checked's king: the first square nearest to KING.
  static int KingSquare(const Board& b) {
    int king = 0;
    for (int i = 1; i < 64; ++i) {
      if (std::abs(b[static_cast<std::size_t>(i)] - kKing) < std::abs(b[static_cast<std::size_t>(king)] - kKing)) king = i;
    }
    return king;
  }

  // _is_attacked(board, pos): an opponent piece next to pos or a knight's move away whose
  // pattern reaches it (a pawn only diagonally), or a queen, rook or bishop further away
  // with the squares between empty.
  bool Attacked(const Board& b, int pos) const {
    for (std::int8_t sq : t_.near[static_cast<std::size_t>(pos)]) {
      const std::int32_t v = b[static_cast<std::size_t>(sq)];
      if (v >= 0) continue;
      const int piece = -v;
      if (CanMove(piece, pos, sq) && !(piece == kPawn && sq / 8 == pos / 8)) return true;
    }
    for (std::int8_t sq : t_.far[static_cast<std::size_t>(pos)]) {
      const std::int32_t v = b[static_cast<std::size_t>(sq)];
      if (v >= 0) continue;
      const int piece = -v;
      if ((piece == kQueen || piece == kRook || piece == kBishop) && CanMove(piece, pos, sq) &&
          BetweenEmpty(b, pos, sq)) {
        return true;
      }
    }
    return false;
  }

  // Does the move leave the mover's king attacked (_is_checked(_apply_move(state, a)))?
  bool LeavesCheck(int from, int to) const {
    Board b = board_;
    Rights r = castling_;
    std::int32_t ep = en_passant_;
    std::int32_t half = halfmove_;
    ApplyMove(&b, &r, &ep, &half, from, to, -1);
    return Attacked(b, KingSquare(b));
  }

  void LegalMask() {
    std::fill(mask_.begin(), mask_.end(), false);
    std::vector<int> moves;
    moves.reserve(200);
    for (int from = 0; from < 64; ++from) {
      const std::int32_t piece = board_[static_cast<std::size_t>(from)];
      if (piece <= 0) continue;
      for (std::int8_t dest : t_.legal_dest[static_cast<std::size_t>(piece * 64 + from)]) {
        const int to = dest;
        const std::int32_t target = board_[static_cast<std::size_t>(to)];
        if (target > 0 || !BetweenEmpty(board_, from, to)) continue;
        const bool straight = to / 8 == from / 8;
        if (piece == kPawn && !((straight && target == 0) || (!straight && target < 0))) continue;
        moves.push_back(from * 64 + to);
      }
    }
    // en passant: a pawn diagonally behind the square on either side, the pawn to take
    // just below it
    const int ep = en_passant_;
    for (int from : {ep - 9, ep + 7}) {
      if (ep >= 0 && from >= 0 && from < 64 && board_[static_cast<std::size_t>(from)] == kPawn &&
          board_[Read(ep - 1)] == -kPawn) {
        moves.push_back(from * 64 + ep);
      }
    }
    // pgx keeps the first 200 candidates
    if (moves.size() > 200) moves.resize(200);
    for (int m : moves) {
      const int from = m / 64;
      const int to = m % 64;
      if (!LeavesCheck(from, to)) mask_[static_cast<std::size_t>(from * 73 + t_.to_plane[static_cast<std::size_t>(m)])] = true;
    }
    // castling
    const Board& b = board_;
    const bool queen_side = castling_[0] && b[0] == kRook && b[8] == 0 && b[16] == 0 && b[24] == 0 && b[32] == kKing;
    const bool king_side = castling_[1] && b[32] == kKing && b[40] == 0 && b[48] == 0 && b[56] == kRook;
    if (queen_side && !Attacked(b, 16) && !Attacked(b, 24) && !Attacked(b, 32)) mask_[2364] = true;
    if (king_side && !Attacked(b, 32) && !Attacked(b, 40) && !Attacked(b, 48)) mask_[2367] = true;
    // underpromotions of the pawns on the 7th rank whose move is legal
    for (int from = 6; from < 64; from += 8) {
      if (b[static_cast<std::size_t>(from)] != kPawn) continue;
      for (int plane = 0; plane < 9; ++plane) {
        const int to = t_.from_plane[static_cast<std::size_t>(from * 73 + plane)];
        if (to < 0) continue;
        if (mask_[static_cast<std::size_t>(from * 73 + t_.to_plane[static_cast<std::size_t>(from * 64 + to)])]) {
          mask_[static_cast<std::size_t>(from * 73 + plane)] = true;
        }
      }
    }
    game_mask_ = mask_;
  }

  // _zobrist_hash: the side (white to move), every square's piece, the castling rights and
  // the en passant square (-1: row 64).
  Hash ZobristHash() const {
    Hash h = color_ == 0 ? t_.side : Hash{0u, 0u};
    for (std::size_t w = 0; w < 2; ++w) {
      for (int sq = 0; sq < 64; ++sq) {
        h[w] ^= t_.zobrist[(static_cast<std::size_t>(sq) * 13 + static_cast<std::size_t>(board_[static_cast<std::size_t>(sq)] + 6)) * 2 + w];
      }
      for (std::size_t i = 0; i < 4; ++i) {
        if (castling_[i]) h[w] ^= t_.castling[i * 2 + w];
      }
      h[w] ^= t_.en_passant[static_cast<std::size_t>(en_passant_ < 0 ? en_passant_ + 65 : en_passant_) * 2 + w];
    }
    return h;
  }

  // has_insufficient_pieces (OpenSpiel's rule): king vs king, king and a minor piece vs
  // king, or only kings and bishops all on squares of one colour (a1's colour: c + r even).
  bool InsufficientPieces() const {
    int pieces = 0;
    int heavy = -2;
    int bishops = 0;
    int bishops_black = 0;
    for (int sq = 0; sq < 64; ++sq) {
      const int a = std::abs(board_[static_cast<std::size_t>(sq)]);
      pieces += a != 0;
      heavy += a >= kRook || a == kPawn;
      bishops += a == kBishop;
      bishops_black += a == kBishop && (sq / 8 + sq % 8) % 2 == 0;
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

  // Chess._observe(state, player): Game.observe of the state from the player's side (the
  // board history and castling rights flipped for the one not to move).
  void ObservePlayer(int player, float* out) const {
    const bool mine = player == current_player_;
    const int color = mine ? color_ : 1 - color_;
    const float steps = static_cast<float>(step_count_) / static_cast<float>(kSteps);
    const float halfmove = static_cast<float>(halfmove_) / 100.0F;
    const Rights rights = mine ? castling_ : Rights{castling_[2], castling_[3], castling_[0], castling_[1]};
    for (int sq = 0; sq < 64; ++sq) {
      float* cell = out + RotIndex(sq) * kPlanes;
      for (std::size_t i = 0; i < 8; ++i) {
        std::int32_t v = board_history_[i * 64 + static_cast<std::size_t>(mine ? sq : FlipPos(sq))];
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
      for (std::size_t k = 0; k < 4; ++k) cell[114 + k] = rights[k] ? 1.0F : 0.0F;
      cell[118] = halfmove;
    }
  }

  Params t_;
  std::array<int, 2> order_{0, 1};
  std::int32_t color_ = 0;
  Board board_{};
  Rights castling_{};
  std::int32_t en_passant_ = -1;
  std::int32_t halfmove_ = 0;
  std::int32_t fullmove_ = 1;
  std::vector<Hash> hash_history_;
  std::array<std::int32_t, 8 * 64> board_history_{};
  std::array<int, 8> rep_{};
  std::vector<bool> game_mask_;  // _x.legal_action_mask
};

}  // namespace envpool::pgx
