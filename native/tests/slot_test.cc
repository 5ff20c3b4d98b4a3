// Tests of the checked Slot accessors (built with ENVPOOL_CHECKED, see
// CMakeLists.txt): a wrong element type or an index past the spec's fields
// throws std::logic_error naming the field, directly and through a pool.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>

#include "core/pool.h"
#include "tests/check.h"

#ifndef ENVPOOL_CHECKED
#error "slot_test checks the ENVPOOL_CHECKED accessors: build it with ENVPOOL_CHECKED defined"
#endif

using namespace envpool;

namespace {

EnvSpec TwoFieldSpec() {
  EnvSpec spec;
  spec.obs = {BoxSpec("position", DType::kFloat32, {2}), BoxSpec("lives", DType::kInt32, {})};
  spec.info = {BoxSpec("score", DType::kFloat64, {})};
  spec.action = DiscreteSpec("action", 2, DType::kInt32);
  return spec;
}

TEST(slot_right_types_pass) {
  const EnvSpec spec = TwoFieldSpec();
  std::array<float, 2> position{};
  std::int32_t lives = 0;
  double score = 0;
  std::array<std::byte*, 2> obs{reinterpret_cast<std::byte*>(position.data()),
                                reinterpret_cast<std::byte*>(&lives)};
  std::array<std::byte*, 1> info{reinterpret_cast<std::byte*>(&score)};
  const Slot slot(obs.data(), info.data(), &spec);
  slot.Obs<float>(0)[1] = 2.5f;
  *slot.Obs<std::int32_t>(1) = 3;
  *slot.Info<double>(0) = 7.0;
  CHECK_EQ(position[1], 2.5f);
  CHECK_EQ(lives, 3);
  CHECK_EQ(score, 7.0);
}

TEST(slot_wrong_type_throws) {
  const EnvSpec spec = TwoFieldSpec();
  std::array<std::byte*, 2> obs{};
  std::array<std::byte*, 1> info{};
  const Slot slot(obs.data(), info.data(), &spec);
  CHECK_THROWS_MSG(slot.Obs<double>(0), std::logic_error,
                   "Slot::Obs<float64>(0): field 'position' is float32");
  CHECK_THROWS_MSG(slot.Obs<std::int64_t>(1), std::logic_error, "field 'lives' is int32");
  CHECK_THROWS_MSG(slot.Info<float>(0), std::logic_error,
                   "Slot::Info<float32>(0): field 'score' is float64");
}

TEST(slot_index_past_spec_throws) {
  const EnvSpec spec = TwoFieldSpec();
  std::array<std::byte*, 2> obs{};
  std::array<std::byte*, 1> info{};
  const Slot slot(obs.data(), info.data(), &spec);
  CHECK_THROWS_MSG(slot.Obs<float>(2), std::logic_error, "Slot::Obs(2): the spec has 2 Obs");
  CHECK_THROWS_MSG(slot.Info<double>(1), std::logic_error, "Slot::Info(1): the spec has 1 Info");
}

// An env whose Write takes its float32 observation as float64.
class WrongTypeEnv final : public Env {
 public:
  struct Params {
    explicit Params(const Config& /*config*/) {}
  };
  explicit WrongTypeEnv(const Params& /*params*/) {}
  static EnvSpec MakeSpec(const Params& /*params*/) { return TwoFieldSpec(); }
  void Reset(Rng& /*rng*/) override {}
  StepOutcome Step(const ActionView& /*action*/, Rng& /*rng*/) override { return {}; }
  void Write(const Slot& slot) const override { *slot.Obs<double>(0) = 1.0; }
};

TEST(pool_reports_a_wrong_type) {
  PoolOptions options;
  options.num_envs = 2;
  options.num_threads = 1;
  Pool pool(std::make_unique<BasicFactory<WrongTypeEnv>>(Config()), options);
  const std::array<std::int64_t, 2> ids{0, 1};
  pool.SendReset(ids.data(), 2, nullptr);
  CHECK_THROWS_MSG(pool.Recv(120.0, nullptr), std::logic_error, "field 'position' is float32");
}

}  // namespace

int main(int argc, char** argv) { return check::RunAll(argc, argv); }
