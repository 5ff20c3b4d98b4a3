// How a pool is made: its options (PoolOptions) and how each of its envs is
// built (EnvSetup). Read by the pool (pool.h) and its workers (workers.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/config.h"
#include "core/env.h"

namespace envpool {

enum class AutoresetMode : std::uint8_t {
  kNextStep,  // the step after a done one resets (action ignored, reward 0)
  kSameStep,  // the done step returns the reset obs; final obs/info kept aside
  kDisabled,  // the user resets done envs; stepping one raises
};

struct PoolOptions {
  int num_envs = 1;
  int batch_size = 0;            // 0: num_envs
  int num_threads = 0;           // 0: min(batch_size, cores - 1), at least 1
  int max_episode_steps = 0;     // 0: no time limit from the pool
  AutoresetMode autoreset = AutoresetMode::kNextStep;
  std::vector<std::uint64_t> seeds;  // one per env (its Rng and Env::Seed); empty: 0, 1, 2, ...
  int thread_affinity_offset = -1;   // >= 0: pin worker i to core offset + i
  // A step sent to an env that was never reset (nor given a state with
  // SetState): true turns it into the env's first reset, its action ignored,
  // as sail-sg EnvPool does; false refuses it with ResetNeeded (gymnasium's
  // rule). Never a step from an unset state.
  bool first_step_resets = true;
  // Time each stage of every thread (stage_clock.h; Pool::StageReport): a few
  // clock reads per step, off by default.
  bool stage_times = false;
};

// A keyword drawn uniformly from [low, high) out of the env's Rng before each
// of its resets (domain randomisation).
struct ParamRange {
  std::string key;
  double low = 0.0;
  double high = 0.0;
};

// How one env of a pool is built. Envs with equal configurations share one
// factory (and what it holds); every factory must give the same spaces.
struct EnvSetup {
  std::shared_ptr<const EnvFactory> factory;
  // With ranges only: the env's configuration, into which the drawn values
  // go before EnvFactory::CreateWith rebuilds the env for the next episode.
  Config config;
  std::vector<ParamRange> ranges;
};

}  // namespace envpool
