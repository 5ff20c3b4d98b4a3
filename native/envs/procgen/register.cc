// The procgen envs of the native registry (see register.h): one native env per restated
// game, named as procgen names it.
#include "envs/procgen/register.h"

#include "core/registry.h"
#include "envs/procgen/bigfish.h"
#include "envs/procgen/bossfight.h"
#include "envs/procgen/caveflyer.h"
#include "envs/procgen/chaser.h"
#include "envs/procgen/climber.h"
#include "envs/procgen/coinrun.h"
#include "envs/procgen/dodgeball.h"
#include "envs/procgen/fruitbot.h"
#include "envs/procgen/heist.h"
#include "envs/procgen/jumper.h"
#include "envs/procgen/leaper.h"
#include "envs/procgen/maze.h"
#include "envs/procgen/miner.h"
#include "envs/procgen/ninja.h"
#include "envs/procgen/plunder.h"
#include "envs/procgen/procgen_env.h"
#include "envs/procgen/starpilot.h"

namespace envpool::procgen {

void Register(Registry& registry) {
  registry.push_back(MakeEntry<ProcgenEnv<BigFish>>("ProcgenBigfish"));
  registry.push_back(MakeEntry<ProcgenEnv<StarPilot>>("ProcgenStarpilot"));
  registry.push_back(MakeEntry<ProcgenEnv<CoinRun>>("ProcgenCoinrun"));
  registry.push_back(MakeEntry<ProcgenEnv<Maze>>("ProcgenMaze"));
  registry.push_back(MakeEntry<ProcgenEnv<Heist>>("ProcgenHeist"));
  registry.push_back(MakeEntry<ProcgenEnv<Miner>>("ProcgenMiner"));
  registry.push_back(MakeEntry<ProcgenEnv<FruitBot>>("ProcgenFruitbot"));
  registry.push_back(MakeEntry<ProcgenEnv<Leaper>>("ProcgenLeaper"));
  registry.push_back(MakeEntry<ProcgenEnv<Plunder>>("ProcgenPlunder"));
  registry.push_back(MakeEntry<ProcgenEnv<Climber>>("ProcgenClimber"));
  registry.push_back(MakeEntry<ProcgenEnv<Ninja>>("ProcgenNinja"));
  registry.push_back(MakeEntry<ProcgenEnv<BossFight>>("ProcgenBossfight"));
  registry.push_back(MakeEntry<ProcgenEnv<CaveFlyer>>("ProcgenCaveflyer"));
  registry.push_back(MakeEntry<ProcgenEnv<Jumper>>("ProcgenJumper"));
  registry.push_back(MakeEntry<ProcgenEnv<Chaser>>("ProcgenChaser"));
  registry.push_back(MakeEntry<ProcgenEnv<Dodgeball>>("ProcgenDodgeball"));
}

}  // namespace envpool::procgen
