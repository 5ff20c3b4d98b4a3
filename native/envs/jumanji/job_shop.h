// JobShop-v0: jumanji 1.1.2's environments/packing/job_shop (RandomGenerator with 20
// jobs, 10 machines, up to 8 operations a job, durations up to 6).
//
// Reset: `key, machine_key, duration_key, ops_key = split(key, 4)`; every operation's
// machine is randint(machine_key, (20, 8), 0, 10), its duration randint(duration_key, (20,
// 8), 1, 7), and each job keeps its first randint(ops_key, (20,), 1, 9) operations (the
// others are padding: machine and duration -1, ops_mask False). Every machine starts idle
// (job 20, the no-op, remaining time 0).
//
// Step: the action gives every machine a job or the no-op (20). A job's next operation is
// the first still in ops_mask (argmax: 0 once the job is done). The action mask allows job
// j on machine m when m is idle (remaining time 0), m is the machine of j's next operation,
// no busy machine runs j and j has operations left; the no-op is always allowed. Whatever
// the action, the machines then update: a no-op keeps the machine's job (and its job
// becomes the no-op when the machine was idle) and remaining time; a job sets the machine's
// job and its remaining time to the duration of the job's next operation; then every
// remaining time above 0 drops by one. Every job some machine was given has its next
// operation leave ops_mask. The episode ends (termination) when some machine's action was
// outside the mask, when every machine is idle with the no-op, or when no operation is left
// and every machine's remaining time is 0. Reward (float32): -1 a step, -20 * 8 * 6 = -960
// for an invalid action or an all-idle end. No time limit of its own (EnvPool's: 1000).
//
// Keywords (sail-sg EnvPool's job_shop_* instance keywords): job_shop_ops_machine_ids and
// job_shop_ops_durations ("" or 160 numbers each, -1 padding) with job_shop_ops_mask (""
// or 160 0/1, else the operations whose machine is not -1), and job_shop_machines_job_ids /
// job_shop_machines_remaining_times ("" or 10 numbers): every episode starts from them.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "envs/common/keywords.h"
#include "envs/jumanji/jumanji_env.h"

namespace envpool::jumanji {

class JobShop final : public JumanjiEnv {
 public:
  static constexpr int kJobs = 20;
  static constexpr int kMachines = 10;
  static constexpr int kOps = 8;
  static constexpr int kMaxDuration = 6;
  static constexpr int kNoOp = kJobs;

  struct Params {
    std::string machine_ids_text;
    std::string durations_text;
    std::string ops_mask_text;
    std::string machines_job_ids_text;
    std::string machines_remaining_text;
    std::vector<int> machine_ids;  // parsed
    std::vector<int> durations;
    std::vector<int> ops_mask;
    std::vector<int> machines_job_ids;
    std::vector<int> machines_remaining;
    static Keywords<Params> Keys() {
      Keywords<Params> k;
      k.Add("job_shop_ops_machine_ids", std::string(), &Params::machine_ids_text);
      k.Add("job_shop_ops_durations", std::string(), &Params::durations_text);
      k.Add("job_shop_ops_mask", std::string(), &Params::ops_mask_text);
      k.Add("job_shop_machines_job_ids", std::string(), &Params::machines_job_ids_text);
      k.Add("job_shop_machines_remaining_times", std::string(),
            &Params::machines_remaining_text);
      return k;
    }
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      machine_ids = ParseInts("job_shop_ops_machine_ids", machine_ids_text, kJobs * kOps, -1,
                              kMachines - 1);
      durations = ParseInts("job_shop_ops_durations", durations_text, kJobs * kOps, -1,
                            kMaxDuration);
      ops_mask = ParseInts("job_shop_ops_mask", ops_mask_text, kJobs * kOps, 0, 1);
      machines_job_ids =
          ParseInts("job_shop_machines_job_ids", machines_job_ids_text, kMachines, 0, kJobs);
      machines_remaining = ParseInts("job_shop_machines_remaining_times",
                                     machines_remaining_text, kMachines, 0, kMaxDuration);
      if (machine_ids.empty() != durations.empty()) {
        throw std::invalid_argument(
            "job_shop_ops_machine_ids and job_shop_ops_durations are given together");
      }
    }
  };
  static Config Defaults() { return Params::Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec;
    spec.obs_layout = ObsLayout::kDict;
    spec.obs.push_back(
        BoxSpec("ops_machine_ids", DType::kInt32, {kJobs, kOps}, {-1}, {kMachines - 1}));
    spec.obs.push_back(
        BoxSpec("ops_durations", DType::kInt32, {kJobs, kOps}, {-1}, {kMaxDuration}));
    spec.obs.push_back(BoxSpec("ops_mask", DType::kBool, {kJobs, kOps}));
    spec.obs.push_back(BoxSpec("machines_job_ids", DType::kInt32, {kMachines}, {0}, {kJobs}));
    spec.obs.push_back(
        BoxSpec("machines_remaining_times", DType::kInt32, {kMachines}, {0}, {kMaxDuration}));
    spec.obs.push_back(BoxSpec("action_mask", DType::kBool, {kMachines, kJobs + 1}));
    spec.action = BoxSpec("action", DType::kInt32, {kMachines}, {0}, {kJobs});
    return spec;
  }

  explicit JobShop(const Params& params) : params_(params) {}
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return JumanjiFrame(width, height, camera_id);
  }

  void Reset(Rng& /*rng*/) override {
    const Key use = ResetKey();
    key_ = jax_random::SplitAt(use, 0);
    step_count_ = 0;
    scheduled_times_.fill(-1);
    const Key machine_key = jax_random::SplitAt(use, 1);
    const Key duration_key = jax_random::SplitAt(use, 2);
    const Key ops_key = jax_random::SplitAt(use, 3);
    for (int j = 0; j < kJobs; ++j) {
      const int num_ops = jax_random::RandIntAt(ops_key, j, 1, kOps + 1);
      for (int o = 0; o < kOps; ++o) {
        const int i = j * kOps + o;
        if (!params_.machine_ids.empty()) {
          machine_ids_[i] = params_.machine_ids[i];
          durations_[i] = params_.durations[i];
        } else if (o < num_ops) {
          machine_ids_[i] = jax_random::RandIntAt(machine_key, i, 0, kMachines);
          durations_[i] = jax_random::RandIntAt(duration_key, i, 1, kMaxDuration + 1);
        } else {
          machine_ids_[i] = -1;
          durations_[i] = -1;
        }
        ops_mask_[i] = params_.ops_mask.empty() ? machine_ids_[i] != -1 : params_.ops_mask[i] != 0;
      }
    }
    for (int m = 0; m < kMachines; ++m) {
      machines_job_ids_[m] = params_.machines_job_ids.empty() ? kNoOp : params_.machines_job_ids[m];
      machines_remaining_[m] = params_.machines_remaining.empty() ? 0 : params_.machines_remaining[m];
    }
    UpdateMask();
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const std::int32_t* act = action.As<std::int32_t>();
    bool invalid = false;
    for (int m = 0; m < kMachines; ++m) invalid = invalid || !mask_[m * (kJobs + 1) + act[m]];
    std::array<int, kJobs> next_op{};
    for (int j = 0; j < kJobs; ++j) next_op[j] = NextOp(j);
    // The machines (_update_machines), from the old job ids and remaining times.
    for (int m = 0; m < kMachines; ++m) {
      const int a = act[m];
      int remaining = machines_remaining_[m];
      if (a == kNoOp) {
        if (machines_remaining_[m] == 0) machines_job_ids_[m] = kNoOp;
      } else {
        machines_job_ids_[m] = a;
        remaining = durations_[a * kOps + next_op[a]];
      }
      machines_remaining_[m] = remaining > 0 ? remaining - 1 : 0;
    }
    // The operations (_update_operations): every job some machine was given.
    for (int m = 0; m < kMachines; ++m) {
      if (act[m] == kNoOp) continue;
      ops_mask_[act[m] * kOps + next_op[act[m]]] = false;
      scheduled_times_[act[m] * kOps + next_op[act[m]]] = step_count_;
    }
    ++step_count_;
    UpdateMask();
    bool all_idle = true;
    bool finished = true;
    for (int m = 0; m < kMachines; ++m) {
      all_idle = all_idle && machines_job_ids_[m] == kNoOp && machines_remaining_[m] == 0;
      finished = finished && machines_remaining_[m] == 0;
    }
    for (bool op : ops_mask_) finished = finished && !op;
    const bool done = invalid || all_idle || finished;
    const float reward = invalid || all_idle
                             ? -static_cast<float>(kJobs * kOps * kMaxDuration)
                             : -1.0F;
    return Outcome(reward, done ? StepType::kTermination : StepType::kMid);
  }

  void Write(const Slot& slot) const override {
    std::int32_t* machine_ids = slot.Obs<std::int32_t>(0);
    std::int32_t* durations = slot.Obs<std::int32_t>(1);
    bool* ops_mask = slot.Obs<bool>(2);
    for (int i = 0; i < kJobs * kOps; ++i) {
      machine_ids[i] = machine_ids_[i];
      durations[i] = durations_[i];
      ops_mask[i] = ops_mask_[i];
    }
    std::int32_t* job_ids = slot.Obs<std::int32_t>(3);
    std::int32_t* remaining = slot.Obs<std::int32_t>(4);
    for (int m = 0; m < kMachines; ++m) {
      job_ids[m] = machines_job_ids_[m];
      remaining[m] = machines_remaining_[m];
    }
    bool* mask = slot.Obs<bool>(5);
    for (int i = 0; i < kMachines * (kJobs + 1); ++i) mask[i] = mask_[i];
  }

 private:
  // argmax(ops_mask[j]): the first operation left, 0 when none is.
  int NextOp(int job) const {
    for (int o = 0; o < kOps; ++o) {
      if (ops_mask_[job * kOps + o]) return o;
    }
    return 0;
  }

  // _create_action_mask over the current machines and operations.
  void UpdateMask() {
    for (int m = 0; m < kMachines; ++m) {
      for (int j = 0; j < kJobs; ++j) {
        bool ready = true;
        bool left = false;
        for (int n = 0; n < kMachines; ++n) {
          ready = ready && !(machines_job_ids_[n] == j && machines_remaining_[n] > 0);
        }
        for (int o = 0; o < kOps; ++o) left = left || ops_mask_[j * kOps + o];
        mask_[m * (kJobs + 1) + j] = machines_remaining_[m] == 0 &&
                                      machine_ids_[j * kOps + NextOp(j)] == m && ready && left;
      }
      mask_[m * (kJobs + 1) + kJobs] = true;
    }
  }

  // jumanji's State, its fields in sorted order (chex dataclasses flatten so).
  void WriteState(StateLeaves& out) const override {
    out.Add(mask_, {kMachines, kJobs + 1}).KeyLeaf(key_);
    out.Add(machines_job_ids_, {kMachines}).Add(machines_remaining_, {kMachines});
    out.Add(durations_, {kJobs, kOps}).Add(machine_ids_, {kJobs, kOps});
    out.Add(ops_mask_, {kJobs, kOps}).Add(scheduled_times_, {kJobs, kOps});
    out.Scalar(step_count_);
  }

  Params params_;
  std::array<std::int32_t, kJobs * kOps> machine_ids_{};
  std::array<std::int32_t, kJobs * kOps> durations_{};
  std::array<bool, kJobs * kOps> ops_mask_{};
  std::array<std::int32_t, kMachines> machines_job_ids_{};
  std::array<std::int32_t, kMachines> machines_remaining_{};
  std::array<bool, kMachines * (kJobs + 1)> mask_{};
  // when each operation was scheduled (the step count then; -1 not yet)
  std::array<std::int32_t, kJobs * kOps> scheduled_times_{};
  std::int32_t step_count_ = 0;
  Key key_{};  // the generator's key left over (the env draws nothing with it)
};

}  // namespace envpool::jumanji
