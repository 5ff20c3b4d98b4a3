// procgen's MazeGen (src/mazegen.cpp), restated as far as maze and heist use it: a maze of
// maze_dim x maze_dim cells carved by randomised Kruskal (walls drawn with randn from the
// ones left, in procgen's order), in a grid with a one-cell wall border (MAZE_OFFSET), and
// objects placed on free cells, or locked doors at forks with their keys placed where the
// agent reaches them in order. Its sets are std::set, so their order is the ints' order.
#pragma once

#include <set>
#include <stdexcept>
#include <vector>

#include "envs/procgen/game.h"
#include "envs/procgen/randgen.h"

namespace envpool::procgen {

class MazeGen {
 public:
  static constexpr int kMazeOffset = 1;

  MazeGen(RandGen* rand_gen, int maze_dim)
      : rand_gen_(rand_gen), maze_dim_(maze_dim), array_dim_(maze_dim + 2) {
    cell_sets_.resize(static_cast<std::size_t>(array_dim_) * array_dim_);
    cell_sets_idxs_.resize(static_cast<std::size_t>(array_dim_) * array_dim_);
    free_cells_.resize(static_cast<std::size_t>(array_dim_) * array_dim_);
    grid_.assign(static_cast<std::size_t>(array_dim_) * array_dim_, 0);
  }

  int Get(int x, int y) const { return grid_.at(static_cast<std::size_t>(y) * array_dim_ + x); }

  void GenerateMaze() {
    for (int i = 0; i < array_dim_; i++) {
      for (int j = 0; j < array_dim_; j++) Set(i, j, kWallObj);
    }
    Set(kMazeOffset, kMazeOffset, 0);
    struct Wall {
      int x1, y1, x2, y2;
    };
    std::vector<Wall> walls;
    num_free_cells_ = 0;
    free_cell_set_.clear();
    for (int i = 0; i < maze_dim_ * maze_dim_; i++) {
      cell_sets_[i].clear();
      cell_sets_[i].insert(i);
      cell_sets_idxs_[i] = i;
    }
    for (int i = 1; i < maze_dim_; i += 2) {
      for (int j = 0; j < maze_dim_; j += 2) {
        if (i > 0 && i < maze_dim_ - 1) walls.push_back({i - 1, j, i + 1, j});
      }
    }
    for (int i = 0; i < maze_dim_; i += 2) {
      for (int j = 1; j < maze_dim_; j += 2) {
        if (j > 0 && j < maze_dim_ - 1) walls.push_back({i, j - 1, i, j + 1});
      }
    }
    while (!walls.empty()) {
      const int n = rand_gen_->RandN(static_cast<int>(walls.size()));
      const Wall wall = walls[n];
      const int s0_idx = Lookup(wall.x1, wall.y1);
      const int s1_idx = Lookup(wall.x2, wall.y2);
      std::set<int>& s0 = cell_sets_[s0_idx];
      std::set<int>& s1 = cell_sets_[s1_idx];
      const int x0 = (wall.x1 + wall.x2) / 2;
      const int y0 = (wall.y1 + wall.y2) / 2;
      const int center = maze_dim_ * y0 + x0;
      const bool can_remove =
          (Get(x0 + kMazeOffset, y0 + kMazeOffset) == kWallObj) && (s0_idx != s1_idx);
      if (can_remove) {
        SetFreeCell(wall.x1, wall.y1);
        SetFreeCell(x0, y0);
        SetFreeCell(wall.x2, wall.y2);
        s1.insert(s0.begin(), s0.end());
        s1.insert(center);
        for (int cell : s1) cell_sets_idxs_[cell] = s1_idx;
      }
      walls.erase(walls.begin() + n);
    }
  }

  // generate_maze_with_doors: num_doors doors at forks (cells with more than two open
  // neighbours), the agent on a free cell next to no door, each door's key (and at last
  // the exit) on a cell reached before that door
  void GenerateMazeWithDoors(int num_doors) {
    GenerateMaze();
    std::vector<int> forks;
    std::vector<int> adj_space;
    std::vector<int> adj_wall;
    for (int i = 0; i < array_dim_ * array_dim_; i++) {
      if (GetObj(i) == kSpace) {
        GetNeighbors(i, kSpace, adj_space);
        GetNeighbors(i, kWallObj, adj_wall);
        if (adj_space.size() > 2) forks.push_back(i);
      }
    }
    const std::vector<int> chosen = rand_gen_->ChooseN(forks, num_doors);
    num_doors = static_cast<int>(chosen.size());
    for (int i : chosen) grid_.at(i) = kDoorObj;
    int agent_cell;
    {
      const std::vector<int> space_cells = FilterCells(kSpace);
      std::vector<int> door_neighbors;
      // not next to a door: there might be no room for the key
      do {
        agent_cell = rand_gen_->ChooseOne(space_cells);
        door_neighbors.clear();
        GetNeighbors(agent_cell, kDoorObj, door_neighbors);
      } while (!door_neighbors.empty());
      grid_.at(agent_cell) = kAgentObj;
    }
    std::set<int> s0;
    s0.insert(agent_cell);
    for (int door_num = 0; door_num < num_doors + 1; door_num++) {
      std::set<int> s1;
      int found_door = -1;
      if (door_num < num_doors) {
        found_door = ExpandToType(s0, s1, kDoorObj);
        grid_.at(found_door) = kDoorObj + door_num + 1;
        s0.insert(s1.begin(), s1.end());
      }
      ExpandToType(s0, s1, -999);
      const std::vector<int> space_cells(s1.begin(), s1.end());
      if (space_cells.empty()) throw std::logic_error("procgen: a maze key has no room");
      const int key_cell = rand_gen_->ChooseOne(space_cells);
      grid_.at(key_cell) = door_num == num_doors ? kExitObj : (kKeyObj + door_num + 1);
      s0.insert(s1.begin(), s1.end());
      if (found_door >= 0) s0.insert(found_door);
    }
  }

  // generate_maze_no_dead_ends (jumper): the maze, then, scanning cells in order, each
  // open cell with a single open neighbour opens one of its walled neighbours (drawn with
  // randn), so that the maze has loops and few dead ends
  void GenerateMazeNoDeadEnds() {
    GenerateMaze();
    std::vector<int> adj_space;
    std::vector<int> adj_wall;
    for (int i = 0; i < array_dim_ * array_dim_; i++) {
      if (GetObj(i) == kSpace) {
        GetNeighbors(i, kSpace, adj_space);
        if (adj_space.size() == 1) {
          GetNeighbors(i, kWallObj, adj_wall);
          if (!adj_wall.empty()) {
            const int n = rand_gen_->RandN(static_cast<int>(adj_wall.size()));
            grid_.at(adj_wall[n]) = kSpace;
          }
        }
      }
    }
  }

  void PlaceObjects(int start_obj, int num_objs) {
    for (int j = 0; j < num_objs; j++) {
      int m = rand_gen_->RandN(num_free_cells_);
      while (free_cells_[m] == -1 || free_cells_[m] == 0) m = rand_gen_->RandN(num_free_cells_);
      const int coin_cell = free_cells_[m];
      free_cells_[m] = -1;
      Set(coin_cell % maze_dim_ + kMazeOffset, coin_cell / maze_dim_ + kMazeOffset, start_obj + j);
    }
  }

 private:
  int GetObj(int idx) const {
    const int x = idx % array_dim_;
    const int y = idx / array_dim_;
    if (x <= 0 || x >= array_dim_ - 1) return kInvalidObj;
    if (y <= 0 || y >= array_dim_ - 1) return kInvalidObj;
    return Get(x, y);
  }
  void GetNeighbors(int idx, int type, std::vector<int>& neighbors) const {
    const int x = idx % array_dim_;
    const int y = idx / array_dim_;
    neighbors.clear();
    for (int dx = -1; dx <= 1; dx++) {
      for (int dy = -1; dy <= 1; dy++) {
        if (dx == 0 && dy == 0) continue;
        if (dx != 0 && dy != 0) continue;
        const int n_idx = (y + dy) * array_dim_ + (x + dx);  // Grid::to_index, unchecked
        if (GetObj(n_idx) == type) neighbors.push_back(n_idx);
      }
    }
  }
  // breadth first from s0 over open cells (collected in s1) to the first cell of `type`
  int ExpandToType(const std::set<int>& s0, std::set<int>& s1, int type) const {
    std::set<int> curr = s0;
    std::vector<int> target_elems;
    std::vector<int> adj_space;
    while (!curr.empty()) {
      std::set<int> next;
      for (int elem : curr) {
        GetNeighbors(elem, type, target_elems);
        GetNeighbors(elem, kSpace, adj_space);
        for (int j : adj_space) {
          if (s0.count(j) == 0 && s1.count(j) == 0) {
            next.insert(j);
            s1.insert(j);
          }
        }
        if (!target_elems.empty()) return target_elems[0];
      }
      curr = next;
    }
    return -1;
  }
  std::vector<int> FilterCells(int type) const {
    std::vector<int> found;
    for (int i = 0; i < array_dim_ * array_dim_; i++) {
      if (GetObj(i) == type) found.push_back(i);
    }
    return found;
  }

  void Set(int x, int y, int v) { grid_.at(static_cast<std::size_t>(y) * array_dim_ + x) = v; }
  int Lookup(int x, int y) const { return cell_sets_idxs_[maze_dim_ * y + x]; }
  void SetFreeCell(int x, int y) {
    Set(x + kMazeOffset, y + kMazeOffset, kSpace);
    const int cell = maze_dim_ * y + x;
    if (free_cell_set_.count(cell) == 0) {
      free_cells_[num_free_cells_] = cell;
      free_cell_set_.insert(cell);
      num_free_cells_ += 1;
    }
  }

  RandGen* rand_gen_;
  int maze_dim_;
  int array_dim_;
  int num_free_cells_ = 0;
  std::vector<std::set<int>> cell_sets_;
  std::vector<int> cell_sets_idxs_;
  std::set<int> free_cell_set_;
  std::vector<int> free_cells_;
  std::vector<int> grid_;
};

}  // namespace envpool::procgen
