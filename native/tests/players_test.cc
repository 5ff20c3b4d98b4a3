// Tests of the pool's multi-player layout through the core's test env
// (envs/testing/dummy.h): per-player rows and their counts, players' actions
// grouped by env in the order sent, container cells, and the refusals.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "core/pool.h"
#include "envs/testing/dummy.h"
#include "tests/check.h"

using namespace envpool;

namespace {

constexpr double kGuard = 30.0;  // seconds: a recv that waits this long has hung

std::unique_ptr<Pool> MakeDummyPool(int num_envs, int max_players, AutoresetMode mode,
                                    std::vector<std::uint64_t> seeds = {}) {
  Config config = testing::Dummy::Defaults();
  config.Set("max_num_players", std::int64_t{max_players});
  PoolOptions o;
  o.num_envs = num_envs;
  o.num_threads = 2;
  o.autoreset = mode;
  o.seeds = std::move(seeds);
  return std::make_unique<Pool>(std::make_unique<BasicFactory<testing::Dummy>>(config), o);
}

// The players each row holds, and raw[row][player][k] (state_num 10).
int Players(Batch& b, int row) { return b.num_players.At<std::int32_t>(row); }
std::int32_t Raw(Batch& b, int row, int player, int k) {
  return reinterpret_cast<std::int32_t*>(b.obs[0].Row(row))[player * 10 + k];
}

void SendAll(Pool& pool, int n, const std::vector<std::int64_t>& player_env,
             const std::vector<std::int32_t>& player_action) {
  std::vector<std::int64_t> ids;
  for (int i = 0; i < n; ++i) ids.push_back(i);
  const std::vector<double> actions(static_cast<std::size_t>(n) * 6, 0.0);
  const std::vector<std::int32_t> player_id(player_env.size(), 0);
  pool.SendPlayers(actions.data(), DType::kFloat64, ids.data(), n, player_env.data(),
                   static_cast<int>(player_env.size()), {player_action.data(), player_id.data()},
                   {DType::kInt32, DType::kInt32});
}

TEST(players_rows_counts_and_containers) {
  auto pool = MakeDummyPool(3, 4, AutoresetMode::kNextStep, {10, 10, 10});
  const std::vector<std::int64_t> ids{0, 1, 2};
  pool->SendReset(ids.data(), 3, nullptr);
  auto batch = pool->Recv(kGuard, nullptr);
  for (int r = 0; r < 3; ++r) CHECK_EQ(Players(*batch, r), 1);  // state 0: one player
  batch.reset();
  for (int step = 1; step <= 4; ++step) {
    SendAll(*pool, 3, {}, {});
    batch = pool->Recv(kGuard, nullptr);
    for (int r = 0; r < 3; ++r) {
      const int env = batch->env_id.At<std::int32_t>(r);
      CHECK_EQ(Players(*batch, r), step % 3 + 1);
      for (int p = 0; p < Players(*batch, r); ++p) {
        CHECK_EQ(Raw(*batch, r, p, 0), step);
        CHECK_EQ(reinterpret_cast<std::int32_t*>(batch->info[2].Row(r))[p], p);  // players.id
        const Cell& cell = batch->obs[1].Cells(r)[p];
        CHECK(cell.set);
        CHECK_EQ(cell.shape.size(), 2u);
        CHECK_EQ(cell.shape[0], env + 1);
        CHECK_EQ(cell.shape[1], 10);
        CHECK_EQ(reinterpret_cast<const std::int32_t*>(cell.data.data())[cell.data.size() / 4 - 1],
                 env);
      }
      for (int p = Players(*batch, r); p < 4; ++p) CHECK(!batch->obs[1].Cells(r)[p].set);
    }
    batch.reset();
  }
}

TEST(players_actions_go_to_their_env_in_order) {
  auto pool = MakeDummyPool(3, 4, AutoresetMode::kNextStep, {10, 10, 10});
  const std::vector<std::int64_t> ids{0, 1, 2};
  pool->SendReset(ids.data(), 3, nullptr);
  pool->Recv(kGuard, nullptr);
  SendAll(*pool, 3, {2, 0, 2, 2}, {7, 8, 9, 6});
  auto batch = pool->Recv(kGuard, nullptr);
  // step 1: two players per env; raw[p][1] the actions received, raw[p][2] the p-th one
  CHECK_EQ(Raw(*batch, 0, 0, 1), 1);
  CHECK_EQ(Raw(*batch, 0, 0, 2), 8);
  CHECK_EQ(Raw(*batch, 0, 1, 2), -1);
  CHECK_EQ(Raw(*batch, 1, 0, 1), 0);
  CHECK_EQ(Raw(*batch, 2, 0, 1), 3);
  CHECK_EQ(Raw(*batch, 2, 0, 2), 7);
  CHECK_EQ(Raw(*batch, 2, 1, 2), 9);
}

TEST(players_bad_sends_queue_nothing) {
  auto pool = MakeDummyPool(2, 2, AutoresetMode::kNextStep, {10, 10});
  const std::vector<std::int64_t> ids{0, 1};
  pool->SendReset(ids.data(), 2, nullptr);
  pool->Recv(kGuard, nullptr);
  CHECK_THROWS_MSG(SendAll(*pool, 2, {0, 3}, {1, 2}), std::invalid_argument,
                   "players.env_id 3 (player action 1) is not one of the env ids sent");
  CHECK_THROWS_MSG(SendAll(*pool, 2, {1, 1, 1}, {1, 2, 3}), std::invalid_argument,
                   "more than max_num_players (2)");
  CHECK_THROWS_MSG(SendAll(*pool, 2, {-1}, {1}), std::invalid_argument, "players.env_id -1");
  SendAll(*pool, 2, {1, 0}, {5, 4});  // the envs were released: this one goes through
  auto batch = pool->Recv(kGuard, nullptr);
  CHECK_EQ(Raw(*batch, 0, 0, 2), 4);
  CHECK_EQ(Raw(*batch, 1, 0, 2), 5);
}

TEST(players_need_next_step_autoreset) {
  CHECK_THROWS_MSG(MakeDummyPool(2, 2, AutoresetMode::kSameStep), std::invalid_argument,
                   "autoreset_mode='next_step'");
  CHECK_THROWS_MSG(MakeDummyPool(2, 2, AutoresetMode::kDisabled), std::invalid_argument,
                   "autoreset_mode='next_step'");
}

// The test envs below: no keywords, two players with an int32 observation each.
struct NoParams {
  explicit NoParams(const Config& /*config*/) {}
};
EnvSpec TwoPlayersSpec() {
  EnvSpec spec;
  spec.max_num_players = 2;
  ArraySpec obs = BoxSpec("obs", DType::kInt32, {});
  obs.per_player = true;
  spec.obs = {obs};
  return spec;
}

// An env that claims more players than its spec allows.
class TooManyPlayers final : public Env {
 public:
  using Params = NoParams;
  explicit TooManyPlayers(const Params& /*params*/) {}
  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec = TwoPlayersSpec();
    spec.action = DiscreteSpec("action", 2, DType::kInt32);
    return spec;
  }
  void Reset(Rng& /*rng*/) override {}
  StepOutcome Step(const ActionView& /*action*/, Rng& /*rng*/) override { return {}; }
  void Write(const Slot& slot) const override { slot.SetNumPlayers(3); }
};

TEST(players_past_the_spec_fail_the_recv) {
  PoolOptions o;
  o.num_envs = 1;
  Pool pool(std::make_unique<BasicFactory<TooManyPlayers>>(Config()), o);
  const std::vector<std::int64_t> ids{0};
  pool.SendReset(ids.data(), 1, nullptr);
  CHECK_THROWS_MSG(pool.Recv(kGuard, nullptr), std::logic_error,
                   "SetNumPlayers(3): the spec has 2 players at most");
}

// An env whose two players do all the acting (the highway multi-agent intersection's
// layout): an action of no elements, player_actions_per_env 2; its observation echoes the
// players' actions.
class PlayersAct final : public Env {
 public:
  using Params = NoParams;
  explicit PlayersAct(const Params& /*params*/) {}
  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec = TwoPlayersSpec();
    spec.action = BoxSpec("action", DType::kInt32, {0});
    ArraySpec action = DiscreteSpec("players.action", 3, DType::kInt32);
    action.per_player = true;
    spec.player_actions = {action};
    spec.player_actions_per_env = 2;
    return spec;
  }
  void Reset(Rng& /*rng*/) override { actions_[0] = actions_[1] = -1; }
  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    for (int p = 0; p < action.NumPlayers(); ++p) actions_[p] = action.Player<std::int32_t>(0)[p];
    return {};
  }
  void Write(const Slot& slot) const override {
    slot.SetNumPlayers(2);
    std::copy(actions_, actions_ + 2, slot.Obs<std::int32_t>(0));
  }

 private:
  std::int32_t actions_[2] = {-1, -1};
};

TEST(players_act_take_their_count_at_every_step) {
  PoolOptions o;
  o.num_envs = 2;
  Pool pool(std::make_unique<BasicFactory<PlayersAct>>(Config()), o);
  const std::vector<std::int64_t> ids{0, 1};
  pool.SendReset(ids.data(), 2, nullptr);
  pool.Recv(kGuard, nullptr);
  const std::int32_t no_action = 0;  // (the env's own action has no elements)
  auto send = [&](const std::vector<std::int64_t>& player_env,
                  const std::vector<std::int32_t>& player_action) {
    pool.SendPlayers(&no_action, DType::kInt32, ids.data(), 2, player_env.data(),
                     static_cast<int>(player_env.size()), {player_action.data()},
                     {DType::kInt32});
  };
  CHECK_THROWS_MSG(send({0, 1, 1}, {1, 1, 1}), std::invalid_argument,
                   "env 0 was sent 1 players' actions: it takes 2 at every step");
  CHECK_THROWS_MSG(send({0, 0, 1}, {1, 1, 1}), std::invalid_argument,
                   "env 1 was sent 1 players' actions");
  send({1, 0, 0, 1}, {2, 0, 1, 1});  // the envs were released: this one goes through
  auto batch = pool.Recv(kGuard, nullptr);
  for (int r = 0; r < 2; ++r) {
    const auto* obs = reinterpret_cast<const std::int32_t*>(batch->obs[0].Row(r));
    const int env = batch->env_id.At<std::int32_t>(r);
    CHECK_EQ(obs[0], env == 0 ? 0 : 2);
    CHECK_EQ(obs[1], 1);
  }
}

}  // namespace

int main(int argc, char** argv) { return check::RunAll(argc, argv); }
