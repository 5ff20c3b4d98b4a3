// PacMan-v1: jumanji 1.1.2's environments/routing/pac_man (AsciiGenerator over its
// DEFAULT_MAZE, time limit 1000). The maze (31 rows x 28 columns) is read from the installed
// jumanji (envpool/tasks/jumanji.py passes its rows as the hidden keyword _pacman_maze).
//
// Coordinates, as jumanji holds them: the player's Position has x = row and y = column;
// ghosts, pellets, power-ups, scatter and start targets are (column, row) pairs. Reset is
// deterministic (the key only becomes state.key): the player on 'P', ghosts on the 'G's,
// every open cell a pellet, 'O' cells power-ups, ghost starts [1, 5, 10, 15], ghost actions
// 1, every ghost edible.
//
// Step (action 0: row - 1, 1: column - 1, 2: row + 1, 3: column + 1, 4: stay; wrapping;
// a wall keeps the player): the ghosts move first from the positions of before, with
// `key, k0, k1, k2, k3 = split(state.key, 5)` (state.key becomes key). A ghost whose start
// count is below 0 chooses: in a straight corridor (the open neighbours exactly left/right
// or up/down) it repeats its last action, else it draws among the open neighbours other
// than where it came from that are nearest its target (norm of the row and column
// differences, float32): choice(split(split(k_i)[1])[1], p=softmax) over the nearest
// (equal weights 1 / count). Ghost actions: 0 column - 1, 1 row - 1, 2 column + 1, 3 row
// + 1, 4 stay; a ghost moves once its start count is <= 0. Targets restate jumanji's
// index use exactly, including where it mixes rows and columns (pink's four-ahead point
// and the scatter targets): red the player, pink the point four moves ahead, blue the sum
// of both offsets, orange the player when farther than 8 else its scatter corner; every
// ghost its scatter corner while frightened. Then a ghost meeting the player (its new or
// old cell on the player's new cell, or its new cell on the player's old cell) is sent home
// for 200 (once per ghost, while frightened) or kills the player. Pellets give 10, power-ups
// 50 and 30 frightened steps (else the count drops by one). Ends (termination): dead, no
// pellet left, or step 1000.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/common/keywords.h"
#include "envs/jumanji/jumanji_env.h"

namespace envpool::jumanji {

class PacMan final : public JumanjiEnv {
 public:
  static constexpr int kRows = 31;  // jumanji's x_size
  static constexpr int kCols = 28;  // jumanji's y_size
  static constexpr int kPellets = 318;
  static constexpr int kGhosts = 4;
  static constexpr int kTimeLimit = 1000;

  struct Params {
    std::string maze;  // the rows joined by '/'
    static Keywords<Params> Keys() {
      Keywords<Params> k;
      k.Add("_pacman_maze", std::string(), &Params::maze);
      return k;
    }
    explicit Params(const Config& c) { Keys().Read(c, *this); }
  };
  static Config Defaults() { return Params::Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec;
    spec.obs_layout = ObsLayout::kDict;
    spec.obs.push_back(BoxSpec("grid", DType::kInt32, {kRows, kCols}, {0}, {1}));
    spec.obs.push_back(DiscreteSpec("player_locations:x", kRows, DType::kInt32));
    spec.obs.push_back(DiscreteSpec("player_locations:y", kCols, DType::kInt32));
    spec.obs.push_back(BoxSpec("ghost_locations", DType::kInt32, {kGhosts, 2}));
    spec.obs.push_back(BoxSpec("power_up_locations", DType::kInt32, {4, 2}));
    spec.obs.push_back(BoxSpec("frightened_state_time", DType::kInt32, {}));
    spec.obs.push_back(BoxSpec("pellet_locations", DType::kInt32, {kPellets, 2}));
    spec.obs.push_back(BoxSpec("action_mask", DType::kBool, {5}));
    spec.obs.push_back(BoxSpec("score", DType::kInt32, {}));
    spec.action = DiscreteSpec("action", 5, DType::kInt32);
    return spec;
  }

  explicit PacMan(const Params& params) {
    // generate_maze_from_ascii.
    std::vector<std::string> rows;
    std::string row;
    for (char c : params.maze + "/") {
      if (c == '/') {
        rows.push_back(row);
        row.clear();
      } else {
        row.push_back(c);
      }
    }
    if (rows.size() != kRows) {
      throw std::invalid_argument("PacMan needs jumanji's 31-row maze (pip install jumanji==1.1.2)");
    }
    for (int r = 0; r < kRows; ++r) {
      if (rows[r].size() != kCols) throw std::invalid_argument("PacMan maze rows are 28 wide");
      for (int c = 0; c < kCols; ++c) {
        const char ch = rows[r][c];
        grid_[r * kCols + c] = ch == 'X' ? 0 : 1;
        if (ch == 'G') ghost_spawns_.push_back({c, r});
        if (ch == 'P') player_start_ = {r, c};
        if (ch == 'X') continue;
        pellet_spaces_.push_back({c, r});
        if (ch == 'O') power_up_spaces_.push_back({c, r});
        if (ch == 'S') scatter_targets_.push_back({c, r});
        if (ch == 'T') init_targets_.push_back({c, r});
      }
    }
    if (pellet_spaces_.size() != kPellets || ghost_spawns_.size() != kGhosts ||
        power_up_spaces_.size() != 4 || scatter_targets_.size() != kGhosts ||
        init_targets_.size() != kGhosts) {
      throw std::invalid_argument("PacMan: not jumanji's default maze");
    }
  }
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return JumanjiFrame(width, height, camera_id);
  }

  void Reset(Rng& /*rng*/) override {
    key_ = ResetKey();
    pellets_ = pellet_spaces_;
    num_pellets_ = kPellets;
    power_ups_ = {power_up_spaces_[0], power_up_spaces_[1], power_up_spaces_[2],
                  power_up_spaces_[3]};
    player_ = player_start_;
    for (int g = 0; g < kGhosts; ++g) {
      ghosts_[g] = ghost_spawns_[g];
      old_ghosts_[g] = ghost_spawns_[g];
      ghost_actions_[g] = 1;
      ghost_init_steps_[g] = 0;
      ghost_eaten_[g] = true;
    }
    ghost_starts_ = {1, 5, 10, 15};
    frightened_ = 0;
    last_direction_ = 0;
    score_ = 0;
    step_count_ = 0;
    dead_ = false;
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const int a = action.Scalar<std::int32_t>();
    std::array<int, 2> next = PlayerStep(a, 1);
    if (Grid(next[0], next[1]) != 1) next = player_;
    last_direction_ = a;
    // ghost_move, from the state of before (the player not yet moved).
    const Key key = jax_random::SplitAt(key_, 0);
    std::array<std::array<int, 2>, kGhosts> paths{};
    std::array<int, kGhosts> chosen{};
    for (int g = 0; g < kGhosts; ++g) {
      const Key tunnel_key = jax_random::SplitAt(jax_random::SplitAt(key_, 1 + g), 1);
      MoveGhost(g, tunnel_key, &paths[g], &chosen[g]);
    }
    // check_ghost_collisions.
    bool dead = false;
    float ghost_reward = 0.0F;
    for (int g = 0; g < kGhosts; ++g) {
      const bool c1 = paths[g][1] == next[0] && paths[g][0] == next[1];
      const bool c2 = paths[g][1] == player_[0] && paths[g][0] == player_[1];
      const bool c3 = old_ghosts_[g][1] == next[0] && old_ghosts_[g][0] == next[1];
      const bool edible = ghost_eaten_[g];
      std::array<int, 2> path = paths[g];
      float col_reward = 0.0F;
      if (c1 || c2 || c3) {
        if (frightened_ > 0) {
          path = ghost_spawns_[g];
          col_reward = 200.0F;
          ghost_eaten_[g] = false;
        } else {
          dead = true;
        }
      }
      ghost_reward += col_reward * (edible ? 1.0F : 0.0F);
      old_ghosts_[g] = ghosts_[g];
      ghosts_[g] = path;
    }
    player_ = next;
    // check_power_up and check_rewards at the player's (column, row).
    const std::array<int, 2> at = {player_[1], player_[0]};
    int eat = 0;
    for (auto& p : power_ups_) {
      if (p == at) {
        eat = 1;
        p = {0, 0};
      }
    }
    int ate = 0;
    for (auto& p : pellets_) {
      if (p == at) {
        ate = 1;
        p = {0, 0};
      }
    }
    num_pellets_ -= ate;
    for (int& s : ghost_init_steps_) --s;
    key_ = key;
    frightened_ = eat > 0 ? 30 : frightened_ - 1;
    ghost_actions_ = chosen;
    for (int& s : ghost_starts_) --s;
    const float reward = (static_cast<float>(ate) * 10.0F + static_cast<float>(eat) * 50.0F) +
                         ghost_reward;
    score_ = static_cast<std::int32_t>(static_cast<float>(score_) + reward);
    ++step_count_;
    dead_ = dead;
    const bool done = step_count_ >= kTimeLimit || dead || num_pellets_ == 0;
    return Outcome(reward, done ? StepType::kTermination : StepType::kMid);
  }

  void Write(const Slot& slot) const override {
    std::int32_t* grid = slot.Obs<std::int32_t>(0);
    for (int i = 0; i < kRows * kCols; ++i) grid[i] = grid_[i];
    *slot.Obs<std::int32_t>(1) = player_[0];
    *slot.Obs<std::int32_t>(2) = player_[1];
    std::int32_t* ghosts = slot.Obs<std::int32_t>(3);
    std::int32_t* power_ups = slot.Obs<std::int32_t>(4);
    for (int g = 0; g < kGhosts; ++g) {
      ghosts[2 * g] = ghosts_[g][0];
      ghosts[2 * g + 1] = ghosts_[g][1];
      power_ups[2 * g] = power_ups_[g][0];
      power_ups[2 * g + 1] = power_ups_[g][1];
    }
    *slot.Obs<std::int32_t>(5) = frightened_;
    std::int32_t* pellets = slot.Obs<std::int32_t>(6);
    for (int i = 0; i < kPellets; ++i) {
      pellets[2 * i] = pellets_[i][0];
      pellets[2 * i + 1] = pellets_[i][1];
    }
    // _compute_action_mask: grid[x + dx][y + dy] without wrapping (jax's index rules), no-op
    // never.
    bool* mask = slot.Obs<bool>(7);
    static constexpr int kMoves[4][2] = {{-1, 0}, {0, -1}, {1, 0}, {0, 1}};
    for (int m = 0; m < 4; ++m) {
      mask[m] = Grid(player_[0] + kMoves[m][0], player_[1] + kMoves[m][1]) != 0;
    }
    mask[4] = false;
    *slot.Obs<std::int32_t>(8) = score_;
  }

 private:
  // jax's dynamic index: a negative index counts from the end, then clamped into range.
  static int Index(int i, int n) {
    if (i < 0) i += n;
    return i < 0 ? 0 : (i >= n ? n - 1 : i);
  }
  int Grid(int row, int col) const { return grid_[Index(row, kRows) * kCols + Index(col, kCols)]; }

  static int Mod(int a, int n) { return ((a % n) + n) % n; }

  // player_step: `steps` moves of `action` from the player's (row, column), wrapping.
  std::array<int, 2> PlayerStep(int action, int steps) const {
    int row = player_[0];
    int col = player_[1];
    if (action == 0) row -= steps;
    if (action == 1) col -= steps;
    if (action == 2) row += steps;
    if (action == 3) col += steps;
    return {Mod(row, kRows), Mod(col, kCols)};
  }

  // The distance of the candidate (row, col) to a target given as jumanji's Position
  // (ty, tx): the norm of (row - ty, col - tx) in float32 (integers: exact).
  static float Distance(const std::array<int, 2>& cand, int ty, int tx) {
    const float dr = static_cast<float>(cand[0] - ty);
    const float dc = static_cast<float>(cand[1] - tx);
    return std::sqrt(dr * dr + dc * dc);
  }

  // ghost_move's move for ghost g.
  void MoveGhost(int g, const Key& tunnel_key, std::array<int, 2>* path, int* chosen) const {
    const int gc = ghosts_[g][0];
    const int gr = ghosts_[g][1];
    // check_ghost_wall_collisions: candidates (row, col) for actions 0 .. 3.
    const std::array<std::array<int, 2>, 4> cand = {
        {{gr, gc - 1}, {gr - 1, gc}, {gr, gc + 1}, {gr + 1, gc}}};
    const std::array<int, 2> old = {old_ghosts_[g][1], old_ghosts_[g][0]};
    // Targets as jumanji's Position (y, x) pairs for get_directions.
    std::array<float, 4> dist{};
    const int pr = player_[0];
    const int pc = player_[1];
    auto red = [&](int ty, int tx) {
      for (int k = 0; k < 4; ++k) dist[k] = Distance(cand[k], ty, tx);
    };
    const auto& scatter = scatter_targets_[g];
    auto scared = [&]() { red(scatter[0], scatter[1]); };  // Position(x=row, y=col) of (col, row)
    if (ghost_init_steps_[g] > 0) {
      red(-1, -1);  // init targets: never reached (ghost_init_steps only decrease from 0)
    } else if (frightened_ > 0) {
      scared();
    } else if (g == 0) {
      red(pr, pc);
    } else if (g == 1 || g == 2) {
      const auto ahead = PlayerStep(last_direction_, 4);  // Position(x=row, y=col)
      for (int k = 0; k < 4; ++k) {
        // pink: get_directions(pac_pos, c) = (c_row - pac_pos.y, c_col - pac_pos.x).
        const int pink_r = cand[k][0] - ahead[1];
        const int pink_c = cand[k][1] - ahead[0];
        if (g == 1) {
          dist[k] = Distance({pink_r, pink_c}, 0, 0);
        } else {
          dist[k] = Distance({pink_r + cand[k][0] - pr, pink_c + cand[k][1] - pc}, 0, 0);
        }
      }
    } else {
      const float far = Distance({gc - pc, gr - pr}, 0, 0);
      if (far > 8.0F) {
        red(pr, pc);
      } else {
        scared();
      }
    }
    std::array<int, 4> valids{};
    std::array<float, 4> d{};
    float minimum = INFINITY;
    for (int k = 0; k < 4; ++k) {
      valids[k] = Grid(cand[k][0], cand[k][1]);
      const int valid_no_back = valids[k] * (cand[k] != old ? 1 : 0);
      d[k] = static_cast<float>(valid_no_back) * dist[k] + (valid_no_back != 1 ? INFINITY : 0.0F);
      minimum = std::min(minimum, d[k]);
    }
    std::vector<float> p(4, 0.0F);
    int count = 0;
    for (int k = 0; k < 4; ++k) count += d[k] == minimum ? 1 : 0;
    const bool tunnel = valids == std::array<int, 4>{1, 0, 1, 0} ||
                        valids == std::array<int, 4>{0, 1, 0, 1};
    int act = 4;
    if (ghost_starts_[g] < 0) {
      if (tunnel) {
        act = ghost_actions_[g];
      } else {
        // softmax of 1 (nearest) and -1e9 (others): 1 / count and 0.
        for (int k = 0; k < 4; ++k) p[k] = d[k] == minimum ? 1.0F / static_cast<float>(count) : 0.0F;
        const int index = jax_random::ChoiceWeighted(jax_random::SplitAt(tunnel_key, 1), p);
        act = index * (d[index] == minimum ? 1 : 0);
      }
    }
    int row = gr;
    int col = gc;
    if (act == 0) col -= 1;
    if (act == 1) row -= 1;
    if (act == 2) col += 1;
    if (act == 3) row += 1;
    *path = ghost_starts_[g] <= 0 ? std::array<int, 2>{Mod(col, kCols), Mod(row, kRows)}
                                  : ghosts_[g];
    *chosen = act;
  }

  // jumanji's State, its fields in sorted order (chex dataclasses flatten so). Positions
  // (Position(x=row, y=column)) are two scalars; ghost_init_targets, the generator's list of
  // the 'T' cells as (column, row) tuples, eight; visited_index is the start Position.
  void WriteState(StateLeaves& out) const override {
    out.Scalar(dead_).Scalar(frightened_).Add(ghost_actions_, {kGhosts});
    out.Add(ghost_eaten_, {kGhosts}).Add(ghost_init_steps_, {kGhosts});
    for (const auto& t : init_targets_) out.Scalar(t[0]).Scalar(t[1]);
    out.AddRows(ghosts_, {kGhosts, 2}).Add(ghost_starts_, {kGhosts});
    out.Add(grid_, {kRows, kCols}).AddRows(ghost_spawns_, {kGhosts, 2});
    out.Scalar(player_start_[0]).Scalar(player_start_[1]).KeyLeaf(key_);
    out.Scalar(last_direction_).AddRows(old_ghosts_, {kGhosts, 2});
    out.AddRows(pellets_, {kPellets, 2}).Scalar(num_pellets_);
    out.Scalar(player_[0]).Scalar(player_[1]).AddRows(power_ups_, {4, 2});
    out.AddRows(scatter_targets_, {kGhosts, 2}).Scalar(score_).Scalar(step_count_);
    out.Scalar(player_start_[0]).Scalar(player_start_[1]);
  }

  // The maze.
  std::array<std::int32_t, kRows * kCols> grid_{};
  std::vector<std::array<int, 2>> pellet_spaces_;
  std::vector<std::array<int, 2>> power_up_spaces_;
  std::vector<std::array<int, 2>> ghost_spawns_;
  std::vector<std::array<int, 2>> scatter_targets_;
  std::vector<std::array<int, 2>> init_targets_;  // the 'T' cells: jumanji's ghost_init_targets
  std::array<int, 2> player_start_{};
  // The state.
  Key key_{};
  std::vector<std::array<int, 2>> pellets_;
  int num_pellets_ = 0;
  std::array<std::array<int, 2>, 4> power_ups_{};
  std::array<int, 2> player_{};  // (row, column): jumanji's Position (x, y)
  std::array<std::array<int, 2>, kGhosts> ghosts_{};
  std::array<std::array<int, 2>, kGhosts> old_ghosts_{};
  std::array<int, kGhosts> ghost_actions_{};
  std::array<int, kGhosts> ghost_init_steps_{};
  std::array<bool, kGhosts> ghost_eaten_{};
  std::array<int, kGhosts> ghost_starts_{};
  std::int32_t frightened_ = 0;
  std::int32_t last_direction_ = 0;
  std::int32_t score_ = 0;
  std::int32_t step_count_ = 0;
  bool dead_ = false;
};

}  // namespace envpool::jumanji
