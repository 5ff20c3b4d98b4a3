// The jumanji envs of the native registry (see register.h).
#include "envs/jumanji/register.h"

#include "core/registry.h"
#include "envs/jumanji/cleaner.h"
#include "envs/jumanji/connector.h"
#include "envs/jumanji/connector_v2.h"
#include "envs/jumanji/cvrp.h"
#include "envs/jumanji/flat_pack.h"
#include "envs/jumanji/game2048.h"
#include "envs/jumanji/graph_coloring.h"
#include "envs/jumanji/job_shop.h"
#include "envs/jumanji/knapsack.h"
#include "envs/jumanji/level_based_foraging.h"
#include "envs/jumanji/maze.h"
#include "envs/jumanji/minesweeper.h"
#include "envs/jumanji/mmst.h"
#include "envs/jumanji/multi_cvrp.h"
#include "envs/jumanji/pac_man.h"
#include "envs/jumanji/robot_warehouse.h"
#include "envs/jumanji/rubiks_cube.h"
#include "envs/jumanji/sliding_tile_puzzle.h"
#include "envs/jumanji/snake.h"
#include "envs/jumanji/sokoban.h"
#include "envs/jumanji/sudoku.h"
#include "envs/jumanji/tetris.h"
#include "envs/jumanji/tsp.h"
#include "envs/jumanji/bin_pack.h"
#include "envs/jumanji/search_and_rescue.h"

namespace envpool::jumanji {

void Register(Registry& registry) {
  registry.push_back(MakeEntry<Game2048>("JumanjiGame2048"));
  registry.push_back(MakeEntry<SlidingTilePuzzle>("JumanjiSlidingTilePuzzle"));
  registry.push_back(MakeEntry<Snake>("JumanjiSnake"));
  registry.push_back(MakeEntry<Minesweeper>("JumanjiMinesweeper"));
  registry.push_back(MakeEntry<Knapsack>("JumanjiKnapsack"));
  registry.push_back(MakeEntry<Tsp>("JumanjiTSP"));
  registry.push_back(MakeEntry<Sudoku>("JumanjiSudoku"));
  registry.push_back(MakeEntry<RubiksCube>("JumanjiRubiksCube"));
  registry.push_back(MakeEntry<Maze>("JumanjiMaze"));
  registry.push_back(MakeEntry<Cleaner>("JumanjiCleaner"));
  registry.push_back(MakeEntry<GraphColoring>("JumanjiGraphColoring"));
  registry.push_back(MakeEntry<Cvrp>("JumanjiCVRP"));
  registry.push_back(MakeEntry<Tetris>("JumanjiTetris"));
  registry.push_back(MakeEntry<Connector>("JumanjiConnector"));
  registry.push_back(MakeEntry<ConnectorV2>("JumanjiConnectorV2"));
  registry.push_back(MakeEntry<FlatPack>("JumanjiFlatPack"));
  registry.push_back(MakeEntry<JobShop>("JumanjiJobShop"));
  registry.push_back(MakeEntry<Mmst>("JumanjiMMST"));
  registry.push_back(MakeEntry<MultiCvrp>("JumanjiMultiCVRP"));
  registry.push_back(MakeEntry<LevelBasedForaging>("JumanjiLevelBasedForaging"));
  registry.push_back(MakeEntry<RobotWarehouse>("JumanjiRobotWarehouse"));
  registry.push_back(MakeEntry<PacMan>("JumanjiPacMan"));
  registry.push_back(MakeEntry<BinPack>("JumanjiBinPack"));
  registry.push_back(MakeEntry<SearchAndRescue>("JumanjiSearchAndRescue"));
  registry.push_back(MakeEntry<Sokoban>("JumanjiSokoban"));
}

}  // namespace envpool::jumanji
