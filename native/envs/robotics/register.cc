// The Gymnasium-Robotics envs of the native registry (see register.h).
#include "envs/robotics/register.h"

#include "core/registry.h"
#include "envs/common/pixel_observation.h"
#include "envs/robotics/adroit_door.h"
#include "envs/robotics/adroit_hammer.h"
#include "envs/robotics/adroit_pen.h"
#include "envs/robotics/adroit_relocate.h"
#include "envs/robotics/ant_maze.h"
#include "envs/robotics/fetch.h"
#include "envs/robotics/hand_manipulate.h"
#include "envs/robotics/hand_reach.h"
#include "envs/robotics/kitchen.h"
#include "envs/robotics/point_maze.h"

namespace envpool::robotics {

void Register(Registry& registry) {
  // One block per family, each in its own headers of this folder.
  // Adroit (envpool/tasks/robotics_adroit.py).
  registry.push_back(MakeEntry<PixelObservation<AdroitDoor>>("AdroitDoor"));
  registry.push_back(MakeEntry<PixelObservation<AdroitHammer>>("AdroitHammer"));
  registry.push_back(MakeEntry<PixelObservation<AdroitPen>>("AdroitPen"));
  registry.push_back(MakeEntry<PixelObservation<AdroitRelocate>>("AdroitRelocate"));
  // Fetch (fetch.h; envpool/tasks/robotics.py).
  registry.push_back(MakeEntry<PixelObservation<Fetch>>("Fetch"));
  // Franka Kitchen (envs/robotics/kitchen.h, envpool/tasks/robotics_kitchen.py).
  registry.push_back(MakeEntry<PixelObservation<Kitchen>>("Kitchen"));
  // Shadow Dexterous Hand (envpool/tasks/robotics_hand.py).
  registry.push_back(MakeEntry<PixelObservation<HandReach>>("HandReach"));
  registry.push_back(MakeEntry<PixelObservation<HandManipulate>>("HandManipulate"));
  // Point Maze (point_maze.h; envpool/tasks/robotics_maze.py).
  registry.push_back(MakeEntry<PixelObservation<PointMaze>>("PointMaze"));
  registry.push_back(MakeEntry<PixelObservation<AntMaze<3>>>("AntMazeV3"));
  registry.push_back(MakeEntry<PixelObservation<AntMaze<4>>>("AntMazeV4"));
  registry.push_back(MakeEntry<PixelObservation<AntMaze<5>>>("AntMazeV5"));
}

}  // namespace envpool::robotics
