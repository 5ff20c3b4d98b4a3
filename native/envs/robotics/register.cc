// The Gymnasium-Robotics envs of the native registry (see register.h).
#include "envs/robotics/register.h"

#include "core/registry.h"
#include "envs/common/pixel_observation.h"
#include "envs/robotics/ant_maze.h"
#include "envs/robotics/point_maze.h"

namespace envpool::robotics {

void Register(Registry& registry) {
  // One block per family, each in its own headers of this folder.
  (void)registry;
  // Point Maze (point_maze.h; envpool/tasks/robotics_maze.py).
  registry.push_back(MakeEntry<PixelObservation<PointMaze>>("PointMaze"));
  registry.push_back(MakeEntry<PixelObservation<AntMaze<3>>>("AntMazeV3"));
  registry.push_back(MakeEntry<PixelObservation<AntMaze<4>>>("AntMazeV4"));
  registry.push_back(MakeEntry<PixelObservation<AntMaze<5>>>("AntMazeV5"));
}

}  // namespace envpool::robotics
