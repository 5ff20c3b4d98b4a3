// Connector-v2: jumanji 1.1.1's Connector (registered there as Connector-v2; jumanji 1.1.2
// registers its successor Connector-v3, connector.h): 10 x 10 grid, 10 agents, jumanji
// 1.1.1's RandomWalkGenerator(10, 10) (1.1.2 keeps it as LegacyRandomWalkGenerator),
// DenseRewardFn, time_limit 50, and 1.1.1's step. Grid, masks, rewards and extras:
// connector_common.h.
//
// Reset: `key, board_key = split(key)` (key becomes state.key); `key, step_key =
// split(board_key)`. For agent i = 0 .. 9 in turn, `key = split(key)[0]` and, both drawn
// with that one key: the start is choice(key, 100, p=empty cells), written as the agent's
// target value; the first move choice(key, available cells of the start) (below), written
// as its head. Then random walks while some agent has an available cell: `key, step_key =
// split(step_key)`, agent i draws with split(key, 10)[i] one of its available cells (the
// first of the four when it has none: no move) and steps towards it with 1.1.1's step
// (below). The walks' ends become the targets: the episode's grid holds each agent's head
// at its start and its target at the end.
//
// Available cells of a cell (`_available_cells`): of its 4-neighbours (up, down, left,
// right) those in the grid, empty, and touching at most one cell of the wire (path, head or
// target values of the agent whose value the cell holds).
//
// Step (1.1.1's `_step_agents`, also the walk's): each agent, alone on a copy of the grid,
// moves if its action is not a no-op and the new cell is in the grid, empty or its own
// target, and it is not connected (its head written at the new cell, path at the old); the
// grids are joined by keeping each agent's own values and taking the cellwise maximum (on a
// cell two agents entered, the higher id's head); an agent whose head is not on the joined
// grid stays (its old head restored). The episode ends (termination, as 1.1.1's TimeStep
// says, discount 0) when every agent is connected or blocked or when step_count >= 50.
//
// jax's indexing is kept where jumanji's code reaches it: a start with no available cell
// gives the first move -1 (the first entry of the four), written at flat index -1 (the last
// cell) and read back as the position (-1, 9) (floor division); a negative index counts
// from the end (gathers and scatters), a gather past the end is clamped, a scatter there is
// dropped. One start in about 300 has no available cell. The targets' scatter writes in
// agent order (the last write of a cell wins, as XLA's CPU scatter runs its updates).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "envs/jumanji/connector_common.h"

namespace envpool::jumanji {

class ConnectorV2 final : public ConnectorBase {
 public:
  explicit ConnectorV2(const Params& params) : ConnectorBase(params) {}

  void Reset(Rng& /*rng*/) override {
    Start([this](const Key& board_key) { Generate(board_key); });
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const std::int32_t* actions = action.As<std::int32_t>();
    const auto was_connected = ConnectedNow();
    std::array<int, kAgents> moves{};
    for (int i = 0; i < kAgents; ++i) moves[i] = std::clamp(actions[i], 0, 4);
    StepAgents(moves);
    ++step_count_;
    bool done = false;
    const float reward = Settle(was_connected, &done);
    return Outcome(reward, done || step_count_ >= kTimeLimit ? StepType::kTermination
                                                             : StepType::kMid);
  }

 private:
  using Grid = std::array<std::int32_t, kCells>;

  static int FloorDiv(int a, int b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
  static int FloorMod(int a, int b) { return a - FloorDiv(a, b) * b; }
  // jax's grid[row, col]: a negative index counts from the end, then it is clamped.
  static int GatherAt(int row, int col) {
    row = std::clamp(row < 0 ? row + kSize : row, 0, kSize - 1);
    col = std::clamp(col < 0 ? col + kSize : col, 0, kSize - 1);
    return row * kSize + col;
  }
  static int GatherFlat(int cell) { return GatherAt(FloorDiv(cell, kSize), FloorMod(cell, kSize)); }
  // jax's grid.at[row, col].set(v): a negative index counts from the end; -1 past the end.
  static int ScatterAt(const Pos& p) {
    const int row = p[0] < 0 ? p[0] + kSize : p[0];
    const int col = p[1] < 0 ? p[1] + kSize : p[1];
    return row >= 0 && row < kSize && col >= 0 && col < kSize ? row * kSize + col : -1;
  }
  static Pos Unflatten(int cell) { return {FloorDiv(cell, kSize), FloorMod(cell, kSize)}; }

  // RandomWalkGenerator._adjacent_cells: the flat up, down, left, right neighbours of a flat
  // cell, -1 where not in the grid (same row or column as the cell, 0 .. 99).
  static std::array<int, 4> Adjacent(int cell) {
    static constexpr int kOffsets[4] = {-kSize, kSize, -1, 1};
    std::array<int, 4> out{};
    for (int k = 0; k < 4; ++k) {
      const int c = cell + kOffsets[k];
      const bool line = FloorDiv(c, kSize) == FloorDiv(cell, kSize) ||
                        FloorMod(c, kSize) == FloorMod(cell, kSize);
      out[k] = c >= 0 && c < kCells && line ? c : -1;
    }
    return out;
  }

  // RandomWalkGenerator._available_cells (with _is_cell_free and _is_cell_doubling_back).
  static std::array<int, 4> Available(const Grid& grid, int cell) {
    const int wire = FloorDiv(grid[GatherFlat(cell)] - 1, 3);
    std::array<int, 4> out = Adjacent(cell);
    for (int& a : out) {
      if (a == -1) continue;
      int touching = 0;
      for (int b : Adjacent(a)) {
        if (b == -1) continue;
        const std::int32_t v = grid[GatherFlat(b)];
        touching += v == 3 * wire + 2 || v == 3 * wire + 1 || v == 3 * wire + 3 ? 1 : 0;
      }
      if (grid[GatherFlat(a)] != 0 || touching > 1) a = -1;
    }
    return out;
  }

  // choice(key, cells, p=cells != -1): the drawn entry (the first one when none is -1-free).
  static int DrawCell(const Key& key, const std::array<int, 4>& cells) {
    std::vector<float> p(4);
    for (int k = 0; k < 4; ++k) p[k] = cells[k] != -1 ? 1.0F : 0.0F;
    return cells[jax_random::ChoiceWeighted(key, p)];
  }

  // RandomWalkGenerator._action_from_positions: the move from one flat cell to another
  // (1 up, 2 right, 3 down, 4 left; 0 for any other difference).
  static int ActionTowards(int from, int to) {
    const Pos a = Unflatten(from);
    const Pos b = Unflatten(to);
    const int dr = b[0] - a[0];
    const int dc = b[1] - a[1];
    if (dr == -1 && dc == 0) return 1;
    if (dr == 1 && dc == 0) return 3;
    if (dr == 0 && dc == -1) return 4;
    if (dr == 0 && dc == 1) return 2;
    return 0;
  }

  // Connector._step_agents of jumanji 1.1.1 (the generator's walk steps the same way).
  void StepAgents(const std::array<int, kAgents>& actions) {
    Grid joined{};
    std::array<Pos, kAgents> moved = position_;
    for (int i = 0; i < kAgents; ++i) {
      Grid own = grid_;
      const Pos next = Move(position_[i], actions[i]);
      if (actions[i] != 0 && InBounds(next) && !Connected(i)) {
        const std::int32_t v = grid_[Index(next)];
        if (v == 0 || v == TargetOf(i)) {  // utils.move_agent: head first, then the path
          own[Index(next)] = HeadOf(i);
          const int old = ScatterAt(position_[i]);
          if (old >= 0) own[old] = PathOf(i);
          moved[i] = next;
        }
      }
      for (int c = 0; c < kCells; ++c) {  // get_agent_grid, joined by the maximum
        const std::int32_t v = own[c];
        if (v == PathOf(i) || v == HeadOf(i) || v == TargetOf(i)) joined[c] = std::max(joined[c], v);
      }
    }
    Grid out = joined;
    for (int i = 0; i < kAgents; ++i) {  // get_correction_mask
      const bool on_grid = std::find(joined.begin(), joined.end(), HeadOf(i)) != joined.end();
      if (on_grid) {
        position_[i] = moved[i];
        continue;
      }
      for (int c = 0; c < kCells; ++c) out[c] += grid_[c] == HeadOf(i) ? 1 : 0;
    }
    grid_ = out;
  }

  bool AnyAvailable() const {
    for (int i = 0; i < kAgents; ++i) {
      for (int a : Available(grid_, position_[i][0] * kSize + position_[i][1])) {
        if (a != -1) return true;
      }
    }
    return false;
  }

  // RandomWalkGenerator.generate_board of jumanji 1.1.1.
  void Generate(const Key& board_key) {
    Key key = jax_random::SplitAt(board_key, 0);
    Key step_key = jax_random::SplitAt(board_key, 1);
    grid_.fill(0);
    std::array<Pos, kAgents> start{};
    for (int i = 0; i < kAgents; ++i) {  // _initialize_starts_and_first_move
      key = jax_random::SplitAt(key, 0);
      std::vector<float> p(kCells);
      for (int c = 0; c < kCells; ++c) p[c] = grid_[c] == 0 ? 1.0F : 0.0F;
      const int s = jax_random::ChoiceWeighted(key, p);
      grid_[s] = TargetOf(i);
      const int first = DrawCell(key, Available(grid_, s));
      grid_[first < 0 ? first + kCells : first] = HeadOf(i);
      start[i] = Unflatten(s);
      position_[i] = Unflatten(first);
      target_[i] = {-1, -1};
    }
    // Each round moves at least one agent into an empty cell (the highest id among those
    // heading for the same cell): at most kCells rounds.
    for (int round = 0; round < kCells && AnyAvailable(); ++round) {
      const Key key_now = jax_random::SplitAt(step_key, 0);
      step_key = jax_random::SplitAt(step_key, 1);
      std::array<int, kAgents> actions{};
      for (int i = 0; i < kAgents; ++i) {
        const int cell = position_[i][0] * kSize + position_[i][1];
        actions[i] = ActionTowards(cell, DrawCell(jax_random::SplitAt(key_now, i),
                                                  Available(grid_, cell)));
      }
      StepAgents(actions);
    }
    // the walks' ends are the targets; the agents start again at their starts
    grid_.fill(0);
    for (int i = 0; i < kAgents; ++i) {
      target_[i] = position_[i];
      position_[i] = start[i];
      grid_[Index(start[i])] = HeadOf(i);
    }
    for (int i = 0; i < kAgents; ++i) {
      const int t = ScatterAt(target_[i]);
      if (t >= 0) grid_[t] = TargetOf(i);
    }
  }
};

}  // namespace envpool::jumanji
