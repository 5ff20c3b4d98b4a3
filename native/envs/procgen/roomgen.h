// procgen's RoomGenerator (src/roomgen.cpp), restated: cellular-automaton caves on a game's
// grid (caveflyer, jumper). It reads and writes the game's grid through references to the
// game's cells, size and out-of-bounds object, so it sees them as they are at each call (the
// games change out_of_bounds_object while they build a level). The rooms are std::sets, as
// in procgen, because the games iterate them in ascending cell order and draw from them.
#pragma once

#include <queue>
#include <set>
#include <vector>

namespace envpool::procgen {

class RoomGenerator {
 public:
  // space and wall: object-ids.h's SPACE and WALL_OBJ
  RoomGenerator(std::vector<int>& cells, const int& width, const int& height,
                const int& out_of_bounds, int space, int wall)
      : cells_(cells), w_(width), h_(height), oob_(out_of_bounds), space_(space), wall_(wall) {}

  // One step of the automaton: a cell becomes a wall when 5 or more of the 9 cells of its
  // 3 x 3 block (itself included, outside the grid counting as out_of_bounds_object) are
  // walls, else space; every cell is decided from the grid before the step.
  void Update() {
    const int size = w_ * h_;
    std::vector<int> next(static_cast<std::size_t>(size));
    for (int i = 0; i < size; i++) {
      next[i] = CountNeighbors(i, wall_) >= 5 ? wall_ : space_;
    }
    for (int i = 0; i < size; i++) cells_[i] = next[i];
  }

  // Breadth-first search over 4-connected space cells from src to dst; the path from src
  // to dst inclusive, or nothing when src is not space. (procgen reads past its search
  // list when dst is unreachable, which its games never ask; here the path is empty.)
  void FindPath(int src, int dst, std::vector<int>& path) const {
    std::set<int> covered;
    std::vector<int> expanded;
    std::vector<int> parents;
    if (GetIdx(src) != space_) return;
    expanded.push_back(src);
    parents.push_back(-1);
    int search_idx = 0;
    while (search_idx < static_cast<int>(expanded.size())) {
      const int curr_idx = expanded[search_idx];
      if (curr_idx == dst) break;
      // (every expanded cell is space: procgen's `continue` for a non-space one never runs)
      const int x = curr_idx % w_;
      const int y = curr_idx / w_;
      for (int i = -1; i <= 1; i++) {
        for (int j = -1; j <= 1; j++) {
          if ((i == 0 || j == 0) && (i + j != 0)) {
            const int next_idx = ToIdx(x + i, y + j);
            if (covered.count(next_idx) == 0 && GetIdx(next_idx) == space_) {
              expanded.push_back(next_idx);
              parents.push_back(search_idx);
              covered.insert(next_idx);
            }
          }
        }
      }
      search_idx++;
    }
    if (search_idx >= static_cast<int>(expanded.size()) || expanded[search_idx] != dst) return;
    std::vector<int> tmp;
    while (search_idx >= 0) {
      tmp.push_back(expanded[search_idx]);
      search_idx = parents[search_idx];
    }
    for (int j = static_cast<int>(tmp.size()) - 1; j >= 0; j--) path.push_back(tmp[j]);
  }

  // The largest 4-connected room of space cells (the first found, scanning cells in order,
  // among rooms of equal size). As in procgen, a room holds the cells reached from a
  // neighbour, so its first cell only when a neighbour reaches back to it.
  void FindBestRoom(std::set<int>& best_room) const {
    std::set<int> all_rooms;
    best_room.clear();
    int best_room_size = -1;
    const int size = w_ * h_;
    for (int i = 0; i < size; i++) {
      if (GetIdx(i) == space_ && all_rooms.count(i) == 0) {
        std::set<int> next_room;
        BuildRoom(i, next_room);
        all_rooms.insert(next_room.begin(), next_room.end());
        if (static_cast<int>(next_room.size()) > best_room_size) {
          best_room_size = static_cast<int>(next_room.size());
          best_room = next_room;
        }
      }
    }
  }

  // Grows `cells` n times by the space cells 8-adjacent to the cells added last (the first
  // time: to all of them).
  void ExpandRoom(std::set<int>& cells, int n) const {
    std::set<int> curr_set(cells.begin(), cells.end());
    for (int loop = 0; loop < n; loop++) {
      std::set<int> next;
      for (const int curr_idx : curr_set) {
        if (GetIdx(curr_idx) != space_) continue;
        const int x = curr_idx % w_;
        const int y = curr_idx / w_;
        for (int i = -1; i <= 1; i++) {
          for (int j = -1; j <= 1; j++) {
            if (i != 0 || j != 0) {
              const int next_idx = ToIdx(x + i, y + j);
              if (cells.count(next_idx) == 0 && GetIdx(next_idx) == space_) {
                cells.insert(next_idx);
                next.insert(next_idx);
              }
            }
          }
        }
      }
      curr_set = next;
    }
  }

 private:
  static constexpr int kInvalidIdx = -2;  // object-ids.h's INVALID_IDX

  bool Contains(int x, int y) const { return 0 <= y && y < h_ && 0 <= x && x < w_; }
  // to_grid_idx: INVALID_IDX outside the grid
  int ToIdx(int x, int y) const { return Contains(x, y) ? y * w_ + x : kInvalidIdx; }
  int GetXY(int x, int y) const { return Contains(x, y) ? cells_[y * w_ + x] : oob_; }
  int GetIdx(int idx) const { return (0 <= idx && idx < w_ * h_) ? cells_[idx] : oob_; }

  int CountNeighbors(int idx, int type) const {
    const int x = idx % w_;
    const int y = idx / w_;
    int neighbors = 0;
    for (int i = -1; i <= 1; i++) {
      for (int j = -1; j <= 1; j++) {
        if (GetXY(x + i, y + j) == type) neighbors++;
      }
    }
    return neighbors;
  }

  // Breadth-first flood of the 4-connected space cells around idx
  void BuildRoom(int idx, std::set<int>& room) const {
    if (GetIdx(idx) != space_) return;
    std::queue<int> curr;
    curr.push(idx);
    while (!curr.empty()) {
      const int curr_idx = curr.front();
      curr.pop();
      if (GetIdx(curr_idx) != space_) continue;
      const int x = curr_idx % w_;
      const int y = curr_idx / w_;
      for (int i = -1; i <= 1; i++) {
        for (int j = -1; j <= 1; j++) {
          if ((i == 0 || j == 0) && (i + j != 0)) {
            const int next_idx = ToIdx(x + i, y + j);
            if (room.count(next_idx) == 0 && GetIdx(next_idx) == space_) {
              curr.push(next_idx);
              room.insert(next_idx);
            }
          }
        }
      }
    }
  }

  std::vector<int>& cells_;
  const int& w_;
  const int& h_;
  const int& oob_;
  int space_;
  int wall_;
};

}  // namespace envpool::procgen
