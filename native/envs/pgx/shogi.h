// Shogi-v1: pgx 2.6.0's shogi (pgx/shogi.py over pgx/_src/games/shogi.py).
//
// The board (square sq = x * 9 + y, x the file from the mover's right, y the rank, y = 0
// the far side) holds -1 (empty), the mover's pieces 0..13 (pawn, lance, knight, silver,
// bishop, rook, gold, king, then the promoted pawn, lance, knight, silver, the horse and
// the dragon) and the opponent's 14..27, always from the mover's side: after every move
// the board is flipped (pieces + 14 mod 28, squares reversed, hands swapped). The hand
// (2, 7) counts pawns, lances, knights, silvers, bishops, rooks and golds, the mover's
// first.
// Action labels (dlshogi's, 27 x 81): direction d = a / 81 and target to = a % 81; d 0..9
// moves towards up, up-left, up-right, left, right, down, down-left, down-right and the two
// knight jumps, d 10..19 the same with promotion, d 20..26 drop a pawn .. gold. The moving
// piece is the first of the mover's pieces on the line from the target against the
// direction (LEGAL_FROM_IDX); with none, the line's first square (or -1).
// Legal moves (pgx's _legal_action_mask): the piece may go there (CAN_MOVE, nothing on the
// squares between for a lance, bishop, rook, horse or dragon), the target is not the
// mover's, and the mover's king is not then attacked. pgx's check test looks at the
// opponent's lances, bishops, rooks, horses and dragons among the first 8 of those squares
// of the position before the move (the cache) and at the opponent's pieces next to the king
// or a knight's jump from it; the king is the first square nearest to KING. A promotion
// needs a piece that promotes and a move from or into the far three ranks; a pawn or lance
// on the far rank and a knight on the far two must promote. A drop needs an empty target,
// the piece in hand, no unpromoted pawn of the mover's on the file (a pawn drop), a square
// the piece can move from, and a position where the king would not be attacked with a pawn
// there. Then the pawn drop in front of (one square behind, y + 1) the opponent's king is
// masked when it mates: neither a capture of the pawn nor a king step around is legal
// (pgx takes the square opp_king + 1 also when the king stands on y = 8: the next file's
// y = 0, or past the last square, label 1701, a lance drop on square 0; such drops are never
// legal, so the test changes nothing there).
// Every index is used as jax uses it: a read at -k counts from the end, then clamps; a
// write at -k goes to n - k, one past the end is dropped (an illegal label runs the same
// array code before pgx's penalty: a move from -1 lifts square 80's piece, a capture of a
// king adds to no hand).
// The mover with no legal move loses (-1, the other +1); the game ends as a tie at step
// 512. Players: init draws player_order ([0, 1] or [1, 0], bernoulli(key)); the player
// of color k is player_order[k].
// Observation of player p (9, 9, 119) bool, from p's side (the board flipped when p is not
// to move): 14 planes of p's pieces, 14 of the squares each piece kind attacks, 3 of the
// squares attacked at least 1, 2, 3 times; the same 31 of the opponent's; p's hand (pawns
// >= 1 .. 8, lances, knights, silvers, golds >= 1 .. 4, bishops, rooks >= 1, 2), the
// opponent's; whether p's king is attacked (pgx's check test); square (x, y) at row y,
// column 8 - x (numpy's rot90 with k=3).
// Info: board (9, 9) (the same rot90 of the mover's board), hand (2, 7), turn (the color to
// move).
// State: pgx's _player_order and _x (step count, color, board, hand, the check cache at
// its defaults, the game's own legal_action_mask); frames: 256 x 256 by default (pgx's
// picture is 550 x 500, its kanji in matplotlib-fontja's font: envpool/tasks/pgx_frames.py).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "envs/pgx/pgx_env.h"

namespace envpool::pgx {

class ShogiEnv final : public PgxEnv {
 public:
  static constexpr int kSteps = 512;
  static constexpr int kLabels = 27 * 81;
  static constexpr int kPlanes = 119;
  using Board = std::array<std::int32_t, 81>;
  using Hand = std::array<std::int32_t, 14>;  // (2, 7): the mover's, then the opponent's

  // pgx's index tables (pgx/_src/games/shogi.py), rebuilt from their rules.
  struct Params {
    explicit Params(const Config& /*config*/) {
      // LEGAL_FROM_IDX (10, 81, 8): the squares from the target against the direction
      // (the knight jumps: one), -1 past the board.
      static constexpr std::array<int, 10> kDx = {0, -1, 1, -1, 1, 0, -1, 1, -1, 1};
      static constexpr std::array<int, 10> kDy = {1, 1, 1, 0, 0, -1, -1, -1, 2, 2};
      legal_from.fill(-1);
      for (int d = 0; d < 10; ++d) {
        for (int to = 0; to < 81; ++to) {
          int x = to / 9;
          int y = to % 9;
          for (int i = 0; i < 8; ++i) {
            x += kDx[static_cast<std::size_t>(d)];
            y += kDy[static_cast<std::size_t>(d)];
            if (x < 0 || x > 8 || y < 0 || y > 8) break;
            legal_from[static_cast<std::size_t>((d * 81 + to) * 8 + i)] = static_cast<std::int8_t>(x * 9 + y);
            if (d >= 8) break;
          }
        }
      }
      // AROUND_IX (81, 8): the eight squares around, -1 off the board.
      static constexpr std::array<int, 8> kAx = {-1, -1, 0, 1, 1, 1, 0, -1};
      static constexpr std::array<int, 8> kAy = {0, -1, -1, -1, 0, 1, 1, 1};
      for (int c = 0; c < 81; ++c) {
        for (std::size_t i = 0; i < 8; ++i) {
          const int x = c / 9 + kAx[i];
          const int y = c % 9 + kAy[i];
          around[static_cast<std::size_t>(c) * 8 + i] =
              static_cast<std::int8_t>(x < 0 || x > 8 || y < 0 || y > 8 ? -1 : x * 9 + y);
        }
      }
      // NEIGHBOUR_IX (81, 10): the king's steps from the square and the knight jumps onto
      // it, in square order, -1 after.
      neighbour.fill(-1);
      for (int c = 0; c < 81; ++c) {
        std::size_t n = 0;
        for (int s = 0; s < 81 && n < 10; ++s) {
          if (CanMove(kKing, c, s) || CanMove(kKnight, s, c)) {
            neighbour[static_cast<std::size_t>(c) * 10 + n++] = static_cast<std::int8_t>(s);
          }
        }
      }
    }
    std::array<std::int8_t, 10 * 81 * 8> legal_from{};
    std::array<std::int8_t, 81 * 8> around{};
    std::array<std::int8_t, 81 * 10> neighbour{};
  };

  static Config Defaults() { return PgxDefaults(2); }
  static EnvSpec MakeSpec(const Params& /*params*/) {
    return MakePgxSpec(2, BoxSpec("obs", DType::kBool, {9, 9, kPlanes}, {0.0}, {1.0}), kLabels,
                       {BoxSpec("board", DType::kInt32, {9, 9}, {-1.0}, {27.0}),
                        BoxSpec("hand", DType::kInt32, {2, 7}, {0.0}, {18.0}),
                        BoxSpec("turn", DType::kInt32, {}, {0.0}, {1.0})});
  }
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return PgxFrameSize(width, height, camera_id, 256, 256);
  }
  explicit ShogiEnv(const Params& params) : PgxEnv(2, kLabels, 81 * kPlanes), t_(params) {}

 protected:
  void Init(const Key& key) override {
    order_ = Bernoulli(key) ? std::array<int, 2>{1, 0} : std::array<int, 2>{0, 1};
    color_ = 0;
    current_player_ = order_[0];
    // INIT_PIECE_BOARD, file by file (x = 0 .. 8), ranks y = 0 .. 8
    static constexpr std::array<std::int32_t, 9> kLanceFile = {15, -1, 14, -1, -1, -1, 0, -1, 1};
    static constexpr std::array<std::int32_t, 9> kKnightFile = {16, -1, 14, -1, -1, -1, 0, -1, 2};
    static constexpr std::array<std::int32_t, 9> kSilverFile = {17, -1, 14, -1, -1, -1, 0, -1, 3};
    static constexpr std::array<std::int32_t, 9> kGoldFile = {20, -1, 14, -1, -1, -1, 0, -1, 6};
    static constexpr std::array<std::int32_t, 9> kKingFile = {21, -1, 14, -1, -1, -1, 0, -1, 7};
    const std::array<const std::array<std::int32_t, 9>*, 9> files = {
        &kLanceFile, &kKnightFile, &kSilverFile, &kGoldFile, &kKingFile,
        &kGoldFile, &kSilverFile, &kKnightFile, &kLanceFile};
    for (std::size_t x = 0; x < 9; ++x) std::copy(files[x]->begin(), files[x]->end(), board_.begin() + static_cast<std::ptrdiff_t>(x * 9));
    board_[1 * 9 + 1] = 18;  // the opponent's bishop
    board_[1 * 9 + 7] = 5;   // the mover's rook
    board_[7 * 9 + 1] = 19;  // the opponent's rook
    board_[7 * 9 + 7] = 4;   // the mover's bishop
    hand_.fill(0);
    LegalMask();  // (pgx's INIT_LEGAL_ACTION_MASK: the same 30 moves)
  }

  void GameStep(int action, const Key& /*key*/) override {
    const int dir = action / 81;
    const int to = action % 81;
    if (dir >= 20) {  // _step_drop
      const int piece = dir - 20;
      board_[static_cast<std::size_t>(to)] = piece;
      hand_[static_cast<std::size_t>(piece)] -= 1;
    } else {  // _step_move
      const int from = FromSquare(board_, dir % 10, to);
      const std::int32_t piece = board_[Read(from)];
      board_[Write(from)] = kEmpty;
      const std::int32_t captured = board_[static_cast<std::size_t>(to)];
      if (captured != kEmpty) {
        // the opponent's piece turned the mover's ((x + 14) % 28), unpromoted (% 8); a
        // king's index (7) is past the hand, and jax drops the update
        const int k = FloorMod(captured + 14, 28) % 8;
        if (k < 7) hand_[static_cast<std::size_t>(k)] += 1;
      }
      board_[static_cast<std::size_t>(to)] = dir >= 10 ? piece + 8 : piece;
    }
    board_ = Flip(board_);
    for (std::size_t k = 0; k < 7; ++k) std::swap(hand_[k], hand_[7 + k]);
    color_ = 1 - color_;
    LegalMask();
    current_player_ = 1 - current_player_;
    bool any = false;
    for (bool m : mask_) any = any || m;
    terminated_ = !any || kSteps <= step_count_;
    if (!any) {  // Game.rewards: the color to move loses, by player_order
      const std::array<float, 2> by_color = color_ == 0 ? std::array<float, 2>{-1.0F, 1.0F}
                                                        : std::array<float, 2>{1.0F, -1.0F};
      for (std::size_t k = 0; k < 2; ++k) rewards_[k] = by_color[static_cast<std::size_t>(order_[k])];
    }
  }


  void WriteObservation(StateLeaves& out) const override {
    out.Add(BoolObservation(current_player_), {9, 9, kPlanes});
  }

  // State's own fields: _player_order, then _x (GameState): step_count (the same as
  // _step_count: a terminal state is never stepped), color, board, hand, cache_m2b and
  // cache_king (pgx's _legal_action_mask sets its cache on a copy: the State keeps the
  // defaults, eight -1 and 44), legal_action_mask (the game's: the state's is all True
  // once terminated).
  void WriteState(StateLeaves& out) const override {
    out.Add(order_, {2}).Scalar(step_count_).Scalar(color_).Add(board_, {81}).Add(hand_, {2, 7});
    out.Add(std::array<int, 8>{-1, -1, -1, -1, -1, -1, -1, -1}, {8}).Scalar(44);
    out.Add(game_mask_, {kLabels});
  }

  void WriteInfo(const Slot& slot, std::size_t first) const override {
    std::int32_t* board = slot.Info<std::int32_t>(first);
    for (int sq = 0; sq < 81; ++sq) board[RotIndex(sq)] = board_[static_cast<std::size_t>(sq)];
    std::copy(hand_.begin(), hand_.end(), slot.Info<std::int32_t>(first + 1));
    *slot.Info<std::int32_t>(first + 2) = color_;
  }

  void Observe(int player, bool* out) const override {
    // _observe(state, flip=current_player == player): the board of p's side and its flip
    const bool mine = player == current_player_;
    const Board own = mine ? board_ : Flip(board_);
    Hand hand = hand_;
    if (!mine) {
      for (std::size_t k = 0; k < 7; ++k) std::swap(hand[k], hand[7 + k]);
    }
    const Board other = Flip(own);
    std::fill(out, out + 81 * kPlanes, false);
    auto set = [out](int plane, int sq) { out[RotIndex(sq) * kPlanes + plane] = true; };
    // pieces and effects: the opponent's are its flipped board's, squares reversed back
    for (int side = 0; side < 2; ++side) {
      const Board& b = side == 0 ? own : other;
      const int base = side * 31;
      std::array<int, 81> count{};
      for (int from = 0; from < 81; ++from) {
        const std::int32_t piece = b[static_cast<std::size_t>(from)];
        if (piece < 0 || piece >= kOppPawn) continue;
        set(base + piece, side == 0 ? from : 80 - from);
        for (int to = 0; to < 81; ++to) {
          if (!CanMove(piece, from, to) || Blocked(b, MajorIx(piece), from, to)) continue;
          set(base + 14 + piece, side == 0 ? to : 80 - to);
          ++count[static_cast<std::size_t>(to)];
        }
      }
      for (int to = 0; to < 81; ++to) {
        for (int n = 1; n <= 3; ++n) {
          if (count[static_cast<std::size_t>(to)] >= n) set(base + 27 + n, side == 0 ? to : 80 - to);
        }
      }
    }
    // hands: (hand index, planes) pawn 8, lance, knight, silver, gold 4, bishop, rook 2
    static constexpr std::array<std::array<int, 2>, 7> kHandPlanes = {
        {{0, 8}, {1, 4}, {2, 4}, {3, 4}, {6, 4}, {4, 2}, {5, 2}}};
    int plane = 62;
    for (std::size_t side = 0; side < 2; ++side) {
      for (const auto& [kind, planes] : kHandPlanes) {
        const std::int32_t held = hand[side * 7 + static_cast<std::size_t>(kind)];
        for (int n = 1; n <= planes; ++n, ++plane) {
          if (held >= n) {
            for (int sq = 0; sq < 81; ++sq) out[sq * kPlanes + plane] = true;
          }
        }
      }
    }
    if (IsChecked(own, MakeCache(own))) {
      for (int sq = 0; sq < 81; ++sq) out[sq * kPlanes + 118] = true;
    }
  }

 private:
  static constexpr std::int32_t kEmpty = -1;
  static constexpr std::int32_t kPawn = 0;
  static constexpr std::int32_t kLance = 1;
  static constexpr std::int32_t kKnight = 2;
  static constexpr std::int32_t kBishop = 4;
  static constexpr std::int32_t kRook = 5;
  static constexpr std::int32_t kGold = 6;
  static constexpr std::int32_t kKing = 7;
  static constexpr std::int32_t kHorse = 12;
  static constexpr std::int32_t kDragon = 13;
  static constexpr std::int32_t kOppPawn = 14;
  static constexpr std::int32_t kOppKing = 21;

  // _set_cache: the first 8 squares of lances, bishops, rooks, horses and dragons (either
  // side's; -1 after) and the king (the first square nearest to KING).
  struct Cache {
    std::array<int, 8> m2b{};
    int king = 0;
  };

  // jax's read index into the 81 squares: -k counts from the end, then clamped.
  static std::size_t Read(int i) {
    if (i < 0) i += 81;
    return static_cast<std::size_t>(std::clamp(i, 0, 80));
  }
  // jax's write index (the targets here are -1 .. 80: -1 is square 80).
  static std::size_t Write(int i) { return static_cast<std::size_t>(i < 0 ? i + 81 : i); }
  static std::int32_t FloorMod(std::int32_t a, std::int32_t m) { return ((a % m) + m) % m; }
  // numpy's rot90(board.reshape(9, 9), k=3): square (x, y) at row y, column 8 - x.
  static int RotIndex(int sq) { return (sq % 9) * 9 + 8 - sq / 9; }

  static Board Flip(const Board& b) {
    Board out{};
    for (std::size_t sq = 0; sq < 81; ++sq) {
      const std::int32_t v = b[80 - sq];
      out[sq] = v == kEmpty ? kEmpty : FloorMod(v + 14, 28);
    }
    return out;
  }

  // can_move_to(piece, from_, to): CAN_MOVE of pieces 0..13 (y decreases going up).
  static bool CanMove(int piece, int from, int to) {
    if (from == to) return false;
    const int dx = to / 9 - from / 9;
    const int dy = to % 9 - from % 9;
    const bool step = std::abs(dx) <= 1 && std::abs(dy) <= 1;
    switch (piece) {
      case 0: return dx == 0 && dy == -1;                                       // pawn
      case 1: return dx == 0 && dy < 0;                                         // lance
      case 2: return std::abs(dx) == 1 && dy == -2;                             // knight
      case 3: return (std::abs(dx) <= 1 && dy == -1) || (std::abs(dx) == 1 && dy == 1);  // silver
      case 4: return dx == dy || dx == -dy;                                     // bishop
      case 5: return dx == 0 || dy == 0;                                        // rook
      case 6: case 8: case 9: case 10: case 11:                                 // gold, promoted
        return (std::abs(dx) <= 1 && (dy == 0 || dy == -1)) || (dx == 0 && dy == 1);
      case 7: return step;                                                      // king
      case 12: return step || dx == dy || dx == -dy;                            // horse
      case 13: return step || dx == 0 || dy == 0;                               // dragon
      default: return false;
    }
  }

  // _major_piece_ix: the BETWEEN table of the mover's lance (0), bishop or horse (1), rook
  // or dragon (2); -1 for every other value.
  static int MajorIx(std::int32_t piece) {
    switch (piece) {
      case kLance: return 0;
      case kBishop: case kHorse: return 1;
      case kRook: case kDragon: return 2;
      default: return -1;
    }
  }
  static bool IsMajor(std::int32_t v) {
    return v == 1 || v == 4 || v == 5 || v == 12 || v == 13 || v == 15 || v == 18 || v == 19 || v == 26 ||
           v == 27;
  }

  // BETWEEN_IX[i, from_, to] holds the squares strictly between when the table's piece
  // (lance, bishop, rook) can move from `from` to `to`; is one of them occupied?
  static bool Blocked(const Board& b, int i, int from, int to) {
    if (i < 0) return false;
    static constexpr std::array<int, 3> kPiece = {kLance, kBishop, kRook};
    if (!CanMove(kPiece[static_cast<std::size_t>(i)], from, to)) return false;
    const int dx = (to / 9 > from / 9) - (to / 9 < from / 9);
    const int dy = (to % 9 > from % 9) - (to % 9 < from % 9);
    for (int sq = from + dx * 9 + dy; sq != to; sq += dx * 9 + dy) {
      if (b[static_cast<std::size_t>(sq)] != kEmpty) return true;
    }
    return false;
  }

  static Cache MakeCache(const Board& b) {
    Cache c;
    c.m2b.fill(-1);
    std::size_t n = 0;
    for (int sq = 0; sq < 81 && n < 8; ++sq) {
      if (IsMajor(b[static_cast<std::size_t>(sq)])) c.m2b[n++] = sq;
    }
    c.king = ArgMinDistance(b, kKing);
    return c;
  }
  // jnp.argmin(jnp.abs(board - value)): the first square nearest to value.
  static int ArgMinDistance(const Board& b, std::int32_t value) {
    int best = 0;
    for (int sq = 1; sq < 81; ++sq) {
      if (std::abs(b[static_cast<std::size_t>(sq)] - value) < std::abs(b[static_cast<std::size_t>(best)] - value)) best = sq;
    }
    return best;
  }

  // _is_pseudo_legal_move_wo_obstacles(from_, to): from_ holds the mover's piece, to does
  // not, and the piece may move there.
  static bool PseudoLegalNoObstacles(const Board& b, int from, int to) {
    if (from < 0) return false;
    const std::int32_t piece = b[Read(from)];
    if (piece < 0 || piece >= kOppPawn) return false;
    const std::int32_t target = b[Read(to)];
    if (target >= 0 && target < kOppPawn) return false;
    return CanMove(piece, static_cast<int>(Read(from)), static_cast<int>(Read(to)));
  }
  // _is_pseudo_legal_move: and nothing between for the long-range pieces.
  static bool PseudoLegal(const Board& b, int from, int to) {
    if (!PseudoLegalNoObstacles(b, from, to)) return false;
    return !Blocked(b, MajorIx(b[Read(from)]), static_cast<int>(Read(from)), static_cast<int>(Read(to)));
  }

  // _is_checked(state): can the opponent take the king (cache.king) on the flipped board,
  // with a long-range piece from the cached squares or a piece next to it (or a knight's
  // jump away)?
  bool IsChecked(const Board& b, const Cache& c) const {
    const int king = 80 - c.king;  // 0 .. 81 (a king moved to -1)
    const Board f = Flip(b);
    for (int m : c.m2b) {
      const int from = 80 - m == 81 ? -1 : 80 - m;
      if (PseudoLegal(f, from, king)) return true;
    }
    for (std::size_t i = 0; i < 10; ++i) {
      const int from = t_.neighbour[Read(king) * 10 + i];
      if (PseudoLegalNoObstacles(f, from, king)) return true;
    }
    return false;
  }

  // _is_legal_move_wo_pro(from_, to): pseudo-legal, and the king not attacked after (the
  // cache's major squares kept, its king moved with a king's move).
  bool LegalMoveNoPromotion(const Board& b, const Cache& c, int from, int to) const {
    if (!PseudoLegal(b, from, to)) return false;
    Board moved = b;
    const std::int32_t piece = b[Read(from)];
    moved[Write(from)] = kEmpty;
    moved[Write(to)] = piece;
    Cache after = c;
    if (piece == kKing) after.king = to;
    return !IsChecked(moved, after);
  }

  // Action._from_dlshogi_action's from_: the first of the mover's pieces on the line.
  int FromSquare(const Board& b, int dir, int to) const {
    const std::size_t row = static_cast<std::size_t>((dir * 81 + to) * 8);
    for (std::size_t i = 0; i < 8; ++i) {
      const int sq = t_.legal_from[row + i];
      if (sq < 0) break;
      const std::int32_t v = b[static_cast<std::size_t>(sq)];
      if (v >= 0 && v < kOppPawn) return sq;
    }
    return t_.legal_from[row];
  }

  // _is_drop_pawn_mate: a pawn put on opp_king + 1 (dropped past the board), the position
  // flipped: can the opponent take it or step its king around?
  bool DropPawnMate(int opp_king) const {
    const int to = opp_king + 1;
    Board b = board_;
    if (to < 81) b[static_cast<std::size_t>(to)] = kPawn;
    const Board f = Flip(b);
    const Cache c = MakeCache(f);
    const int flipped_to = 80 - to;  // -1 .. 79
    // (CAN_MOVE_ANY[flipped_to] holds every square a piece can move from onto it)
    for (int from = 0; from < 81; ++from) {
      if (LegalMoveNoPromotion(f, c, from, flipped_to)) return false;
    }
    const int king = 80 - opp_king;
    for (std::size_t i = 0; i < 8; ++i) {
      if (LegalMoveNoPromotion(f, c, king, t_.around[static_cast<std::size_t>(king) * 8 + i])) return false;
    }
    return true;
  }

  // _legal_action_mask of the mover.
  void LegalMask() {
    std::fill(mask_.begin(), mask_.end(), false);
    const Cache c = MakeCache(board_);
    for (int i = 0; i < 10 * 81; ++i) {
      const int to = i % 81;
      const int from = FromSquare(board_, i / 81, to);
      if (!LegalMoveNoPromotion(board_, c, from, to)) continue;
      const std::int32_t piece = board_[Read(from)];
      // _is_no_promotion_legal: a pawn or lance on the far rank, a knight on the far two
      // must promote
      mask_[static_cast<std::size_t>(i)] =
          !(((piece == kPawn || piece == kLance) && to % 9 == 0) || (piece == kKnight && to % 9 < 2));
      // _is_promotion_legal: gold, king and the promoted pieces do not; the move starts or
      // ends in the far three ranks
      mask_[static_cast<std::size_t>(810 + i)] =
          !((piece >= kGold && piece <= kDragon) || (from % 9 >= 3 && to % 9 >= 3));
    }
    for (int to = 0; to < 81; ++to) {
      if (board_[static_cast<std::size_t>(to)] != kEmpty) continue;
      bool pawn_on_file = false;
      for (int y = 0; y < 9; ++y) pawn_on_file = pawn_on_file || board_[static_cast<std::size_t>(to / 9 * 9 + y)] == kPawn;
      std::array<bool, 7> ok{};
      bool any = false;
      for (int piece = 0; piece < 7; ++piece) {
        bool legal = hand_[static_cast<std::size_t>(piece)] > 0;
        legal = legal && !(piece == kPawn && pawn_on_file);
        legal = legal && !((piece == kPawn || piece == kLance) && to % 9 == 0);
        legal = legal && !(piece == kKnight && to % 9 < 2);
        ok[static_cast<std::size_t>(piece)] = legal;
        any = any || legal;
      }
      if (!any) continue;
      // _is_legal_drop_wo_piece: the king not attacked with a pawn on the square
      Board dropped = board_;
      dropped[static_cast<std::size_t>(to)] = kPawn;
      if (IsChecked(dropped, c)) continue;
      for (std::size_t piece = 0; piece < 7; ++piece) {
        mask_[(20 + piece) * 81 + static_cast<std::size_t>(to)] = ok[piece];
      }
    }
    // the pawn drop mate
    const int opp_king = ArgMinDistance(board_, kOppKing);
    const auto label = static_cast<std::size_t>(20 * 81 + opp_king + 1);
    if (mask_[label] && DropPawnMate(opp_king)) mask_[label] = false;
    game_mask_ = mask_;
  }

  Params t_;
  std::array<int, 2> order_{0, 1};
  std::int32_t color_ = 0;
  Board board_{};
  Hand hand_{};
  std::vector<bool> game_mask_;  // _x.legal_action_mask
};

}  // namespace envpool::pgx
