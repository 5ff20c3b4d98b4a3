// The jumanji envs of the native registry (see register.h).
#include "envs/jumanji/register.h"

#include "core/registry.h"
#include "envs/jumanji/cleaner.h"
#include "envs/jumanji/connector.h"
#include "envs/jumanji/cvrp.h"
#include "envs/jumanji/flat_pack.h"
#include "envs/jumanji/game2048.h"
#include "envs/jumanji/graph_coloring.h"
#include "envs/jumanji/knapsack.h"
#include "envs/jumanji/maze.h"
#include "envs/jumanji/minesweeper.h"
#include "envs/jumanji/rubiks_cube.h"
#include "envs/jumanji/sliding_tile_puzzle.h"
#include "envs/jumanji/snake.h"
#include "envs/jumanji/sudoku.h"
#include "envs/jumanji/tetris.h"
#include "envs/jumanji/tsp.h"

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
  registry.push_back(MakeEntry<FlatPack>("JumanjiFlatPack"));
}

}  // namespace envpool::jumanji
