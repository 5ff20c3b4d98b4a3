// The PGX games of the native registry (see register.h).
#include "envs/pgx/register.h"

#include "core/registry.h"
#include "envs/pgx/animal_shogi.h"
#include "envs/pgx/backgammon.h"
#include "envs/pgx/chess.h"
#include "envs/pgx/connect_four.h"
#include "envs/pgx/gardner_chess.h"
#include "envs/pgx/go.h"
#include "envs/pgx/hex.h"
#include "envs/pgx/kuhn_poker.h"
#include "envs/pgx/leduc_holdem.h"
#include "envs/pgx/othello.h"
#include "envs/pgx/play2048.h"
#include "envs/pgx/shogi.h"
#include "envs/pgx/sparrow_mahjong.h"
#include "envs/pgx/tic_tac_toe.h"

namespace envpool::pgx {

void Register(Registry& registry) {
  registry.push_back(MakeEntry<TicTacToeEnv>("PgxTicTacToe"));
  registry.push_back(MakeEntry<ConnectFourEnv>("PgxConnectFour"));
  registry.push_back(MakeEntry<Play2048Env>("PgxPlay2048"));
  registry.push_back(MakeEntry<OthelloEnv>("PgxOthello"));
  registry.push_back(MakeEntry<HexEnv>("PgxHex"));
  registry.push_back(MakeEntry<KuhnPokerEnv>("PgxKuhnPoker"));
  registry.push_back(MakeEntry<LeducHoldemEnv>("PgxLeducHoldem"));
  registry.push_back(MakeEntry<GoEnv>("PgxGo"));
  registry.push_back(MakeEntry<AnimalShogiEnv>("PgxAnimalShogi"));
  registry.push_back(MakeEntry<BackgammonEnv>("PgxBackgammon"));
  registry.push_back(MakeEntry<SparrowMahjongEnv>("PgxSparrowMahjong"));
  registry.push_back(MakeEntry<GardnerChessEnv>("PgxGardnerChess"));
  registry.push_back(MakeEntry<ChessEnv>("PgxChess"));
  registry.push_back(MakeEntry<ShogiEnv>("PgxShogi"));
}

}  // namespace envpool::pgx
