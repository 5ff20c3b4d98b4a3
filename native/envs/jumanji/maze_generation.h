// jumanji 1.1.2's environments/commons/maze_utils/maze_generation.generate_maze(width,
// height, key), shared by Maze and Cleaner: recursive division, drawn as jax draws it.
//
// A stack of chambers (x, y, width, height) starts with the whole maze; while it is not
// empty the last pushed chamber is popped and, with `key, wall_key, passage_key =
// split(key, 3)`, split by a wall at an odd offset randint(wall_key, (), 0, n // 2) * 2 + 1
// (a vertical wall when width >= height: split_horizontally) with one passage at an even
// offset randint(passage_key, (), 0, (m + 1) // 2) * 2; the two parts are pushed (first the
// one at the lower coordinate) when both their sides exceed 1.
#pragma once

#include <cstdint>
#include <vector>

#include "envs/common/jax_random.h"

namespace envpool::jumanji {

// The maze, height rows of width cells row-major: 1 a wall, 0 empty (int8 in jumanji).
inline std::vector<std::int8_t> GenerateMaze(int width, int height, jax_random::Key key) {
  std::vector<std::int8_t> maze(static_cast<std::size_t>(width * height), 0);
  struct Chamber {
    int x, y, width, height;
  };
  std::vector<Chamber> stack = {{0, 0, width, height}};
  auto push = [&stack](int x, int y, int w, int h) {
    if (w > 1 && h > 1) stack.push_back({x, y, w, h});
  };
  auto cell = [&maze, width](int row, int col) -> std::int8_t& {
    return maze[static_cast<std::size_t>(row * width + col)];
  };
  while (!stack.empty()) {
    const Chamber c = stack.back();
    stack.pop_back();
    const jax_random::Key wall_key = jax_random::SplitAt(key, 1);
    const jax_random::Key passage_key = jax_random::SplitAt(key, 2);
    key = jax_random::SplitAt(key, 0);
    if (c.width >= c.height) {  // split_horizontally: a vertical wall
      const int wall_dx = jax_random::RandIntAt(wall_key, 0, 0, c.width / 2) * 2 + 1;
      const int wall_x = c.x + wall_dx;
      for (int i = c.y; i < c.y + c.height; ++i) cell(i, wall_x) = 1;
      push(c.x, c.y, wall_dx, c.height);
      push(wall_x + 1, c.y, c.width - wall_dx - 1, c.height);
      const int passage_y = jax_random::RandIntAt(passage_key, 0, 0, (c.height + 1) / 2) * 2;
      cell(c.y + passage_y, wall_x) = 0;
    } else {  // split_vertically: a horizontal wall
      const int wall_dy = jax_random::RandIntAt(wall_key, 0, 0, c.height / 2) * 2 + 1;
      const int wall_y = c.y + wall_dy;
      for (int i = c.x; i < c.x + c.width; ++i) cell(wall_y, i) = 1;
      push(c.x, c.y, c.width, wall_dy);
      push(c.x, wall_y + 1, c.width, c.height - wall_dy - 1);
      const int passage_x = jax_random::RandIntAt(passage_key, 0, 0, (c.width + 1) / 2) * 2;
      cell(wall_y, c.x + passage_x) = 0;
    }
  }
  return maze;
}

}  // namespace envpool::jumanji
