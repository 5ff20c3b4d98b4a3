// The interface every C++ environment implements, and the factory the pool
// uses to build `num_envs` of them from one configuration.
//
// Life of a step (see workers.cc): the worker calls Step() (or Reset()), which
// only updates the env's own state; then it claims a row of the output batch
// and calls Write(), which writes the observation and info arrays straight
// into that row. Rewards, flags and step counters are written by the pool.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <string>
#include <utility>
#include <vector>

#include "core/batch.h"
#include "core/config.h"
#include "core/rng.h"
#include "core/spec.h"
#include "core/stage_clock.h"

namespace envpool {

struct StepOutcome {
  double reward = 0.0;
  bool terminated = false;
  // Set by envs with their own time limit; the pool adds max_episode_steps.
  bool truncated = false;
};

// One row of a batch: where an env writes its observation and info arrays,
// in the order of EnvSpec::obs and EnvSpec::info.
//
// Checked builds (ENVPOOL_CHECKED: CMake defines it for Debug and sanitizer
// builds, and for an SDK module built in Debug) compare every Obs<T>(i) /
// Info<T>(i) with the spec the pool passes: an index past the spec's fields
// or a T that is not the field's dtype throws std::logic_error naming the
// field and both types, instead of writing past a row. Release builds do no
// check (the accessors are a single load).
//
// Multi-player envs (EnvSpec::max_num_players > 0) write each per-player array
// as max_num_players consecutive values of its shape, the first n of them
// filled, and call SetNumPlayers(n) (0 until they do). A container array's
// values are Cells: Container(field, player).Assign<T>(shape).
class Slot {
 public:
  Slot(std::byte* const* obs, std::byte* const* info, const EnvSpec* spec = nullptr,
       std::int32_t* num_players = nullptr)
      : obs_(obs), info_(info), spec_(spec), num_players_(num_players) {}

  // How many players this row holds (multi-player envs only): 0 .. max_num_players.
  void SetNumPlayers(int n) const {
    if (num_players_ == nullptr) {
      throw std::logic_error("Slot::SetNumPlayers: the env's spec has no players");
    }
    if (spec_ != nullptr && (n < 0 || n > spec_->max_num_players)) {
      throw std::logic_error("Slot::SetNumPlayers(" + std::to_string(n) + "): the spec has " +
                             std::to_string(spec_->max_num_players) + " players at most");
    }
    *num_players_ = n;
  }

  // The Cell of observation array `field` (a container array) for `player` (0
  // for an array that is not per player); checked builds check both.
  Cell& Container(std::size_t field, int player = 0) const {
#ifdef ENVPOOL_CHECKED
    if (spec_ != nullptr) {
      if (field >= spec_->obs.size() || !spec_->obs[field].container) {
        throw std::logic_error("Slot::Container(" + std::to_string(field) +
                               "): not a container Obs field");
      }
      const int cells = spec_->obs[field].per_player ? spec_->max_num_players : 1;
      if (player < 0 || player >= cells) {
        throw std::logic_error("Slot::Container: player " + std::to_string(player) +
                               " is out of range");
      }
    }
#endif
    return reinterpret_cast<Cell*>(obs_[field])[player];
  }

  template <class T>
  T* Obs(std::size_t field = 0) const {
#ifdef ENVPOOL_CHECKED
    if (spec_ != nullptr) Check<T>(spec_->obs, field, "Obs");
#endif
    return reinterpret_cast<T*>(obs_[field]);
  }
  template <class T>
  T* Info(std::size_t field) const {
#ifdef ENVPOOL_CHECKED
    if (spec_ != nullptr) Check<T>(spec_->info, field, "Info");
#endif
    return reinterpret_cast<T*>(info_[field]);
  }

  // The raw bytes of observation array `field`, whatever its dtype (checked builds check
  // the index): for a wrapper that copies arrays (envs/common/pixel_observation.h).
  std::byte* ObsBytes(std::size_t field) const {
#ifdef ENVPOOL_CHECKED
    if (spec_ != nullptr && field >= spec_->obs.size()) {
      throw std::logic_error("Slot::ObsBytes(" + std::to_string(field) + "): the spec has " +
                             std::to_string(spec_->obs.size()) + " Obs field(s)");
    }
#endif
    return obs_[field];
  }

  // The same row's info arrays with other observation arrays, described by
  // `spec` (checked builds check both against it): for an env that wraps
  // another and observes something else (envs/common/pixel_observation.h).
  Slot WithObs(std::byte* const* obs, const EnvSpec* spec) const {
    return Slot(obs, info_, spec, num_players_);
  }

 private:
  template <class T>
  static void Check(const std::vector<ArraySpec>& fields, std::size_t field, const char* what) {
    if (field >= fields.size()) {
      throw std::logic_error(std::string("Slot::") + what + "(" + std::to_string(field) +
                             "): the spec has " + std::to_string(fields.size()) + " " + what +
                             " field(s)");
    }
    const ArraySpec& s = fields[field];
    if (DTypeOf<T>() != s.dtype) {
      throw std::logic_error(std::string("Slot::") + what + "<" + DTypeName(DTypeOf<T>()) + ">(" +
                             std::to_string(field) + "): field '" + s.name + "' is " +
                             DTypeName(s.dtype));
    }
  }

  std::byte* const* obs_;
  std::byte* const* info_;
  const EnvSpec* spec_;
  std::int32_t* num_players_;
};

// The action of one env, typed by EnvSpec::action; in a multi-player env also
// the players' actions sent for it: NumPlayers() values of each array of
// EnvSpec::player_actions, Player<T>(k)[p * (elements of one value)] for player p.
class ActionView {
 public:
  explicit ActionView(const std::byte* data, const std::byte* const* players = nullptr,
                      int num_players = 0)
      : data_(data), players_(players), num_players_(num_players) {}
  template <class T>
  const T* As() const {
    return reinterpret_cast<const T*>(data_);
  }
  template <class T>
  T Scalar() const {
    return *As<T>();
  }
  // Multi-player envs: how many players' actions came for this env, in the order sent.
  int NumPlayers() const { return num_players_; }
  template <class T>
  const T* Player(std::size_t k) const {
    return reinterpret_cast<const T*>(players_[k]);
  }

 private:
  const std::byte* data_;
  const std::byte* const* players_;
  int num_players_;
};

// What an env's render() draws for given arguments: an RGB image of height x
// width x 3 bytes, and the frames per second a video of successive steps
// should play at (gymnasium's metadata["render_fps"]).
struct FrameSize {
  int height = 0;
  int width = 0;
  double fps = 30.0;
};

class Env {
 public:
  Env() = default;
  Env(const Env&) = delete;
  Env& operator=(const Env&) = delete;
  virtual ~Env() = default;

  // Gives the env its seed: the pool calls it once at construction with the
  // env's seed, and again before a Reset that carries a new one
  // (reset(seed=...)), each time after seeding the env's Rng with the same
  // seed. Only an env with a generator of its own, outside the Rng (the ALE's,
  // which must be seeded the way ale-py does it), needs it; the default does
  // nothing, so every other env draws from its Rng alone.
  virtual void Seed(std::uint64_t /*seed*/) {}
  // Tells the env its index in the pool, once after it is built (also after a
  // rebuild by EnvFactory::CreateWith). Only envs whose dynamics depend on it
  // (the core's test env, as sail-sg EnvPool's dummy env) need it.
  virtual void SetEnvId(int /*env_id*/) {}
  // Starts a new episode, drawing randomness from rng only.
  virtual void Reset(Rng& rng) = 0;
  // Advances one step with a validated action.
  virtual StepOutcome Step(const ActionView& action, Rng& rng) = 0;
  // Writes the current observation and info arrays.
  virtual void Write(const Slot& slot) const = 0;

  // The env's full internal state as numbers, and setting it back: used to
  // put an env and its reference implementation in the same state. Envs
  // that do not support it keep these defaults.
  virtual std::vector<double> GetState() const {
    throw std::logic_error("this environment does not expose its state");
  }
  virtual void SetState(const std::vector<double>& /*state*/) {
    throw std::logic_error("this environment does not expose its state");
  }

  // Draws the env's current state into `out`, an RGB image of the size that
  // EnvFactory::RenderSize gave for the same arguments (`width`, `height`: 0
  // is the env's own size; `camera_id`: -1 is its default view). The pool
  // calls it on a worker thread while the env is idle (not in flight), and
  // only when RenderSize accepted the arguments. Envs that do not render keep
  // the default.
  virtual void Render(int /*width*/, int /*height*/, int /*camera_id*/, std::uint8_t* /*out*/) {
    throw std::logic_error("this environment does not render");
  }

  // The clock of the thread that runs the env's current task, or null when
  // the pool does not time its stages (PoolOptions::stage_times). The pool
  // sets it before each task; an env marks parts of its step with
  // `StageScope scope(stage_clock(), Stage::kPreprocess)` (stage_clock.h).
  void SetStageClock(StageClock* clock) { stage_clock_ = clock; }
  StageClock* stage_clock() const { return stage_clock_; }

 private:
  StageClock* stage_clock_ = nullptr;
};

// Whether E declares `static FrameSize RenderSize(const Params&, int width,
// int height, int camera_id)`: the envs that render (see Env::Render).
template <class E, class = void>
struct HasRenderSize : std::false_type {};
template <class E>
struct HasRenderSize<E, std::void_t<decltype(E::RenderSize(
                            std::declval<const typename E::Params&>(), 0, 0, 0))>>
    : std::true_type {};

// Built once per pool from the configuration; holds what the envs share
// read-only (a parsed map, a compiled model) and creates the envs.
class EnvFactory {
 public:
  virtual ~EnvFactory() = default;
  virtual const EnvSpec& Spec() const = 0;
  virtual std::unique_ptr<Env> Create() const = 0;
  // An env built from `config` instead of the factory's own configuration:
  // the pool calls it before a Reset when some keywords are drawn anew for
  // each episode (domain randomisation). `config` differs from the factory's
  // only in keywords that leave the spec and the shared data as they are.
  // The new env is not given Env::Seed: only envs that draw from their Rng
  // alone can be rebuilt this way.
  // Factories whose envs cannot be rebuilt this way keep the default.
  virtual std::unique_ptr<Env> CreateWith(const Config& /*config*/) const {
    throw std::logic_error("this environment cannot draw its settings at reset");
  }
  // The frame Env::Render draws for these arguments, or std::nullopt when the
  // envs do not render; throws std::invalid_argument for a size or camera the
  // envs cannot draw ((0, 0, -1), the own size and default view, must be
  // accepted). A pure function of the configuration: called on any thread,
  // with no env involved.
  virtual std::optional<FrameSize> RenderSize(int /*width*/, int /*height*/,
                                              int /*camera_id*/) const {
    return std::nullopt;
  }
};

// The usual factory: E has a nested `Params` built from a Config, a static
// `EnvSpec MakeSpec(const Params&)` and a constructor `E(const Params&)`
// (and, for MakeEntry in registry.h, a static `Config Defaults()`). An E that
// renders also declares `static FrameSize RenderSize(const Params&, int width,
// int height, int camera_id)` and overrides Env::Render.
template <class E>
class BasicFactory final : public EnvFactory {
 public:
  explicit BasicFactory(const Config& config) : params_(config), spec_(E::MakeSpec(params_)) {}
  const EnvSpec& Spec() const override { return spec_; }
  std::unique_ptr<Env> Create() const override { return std::make_unique<E>(params_); }
  std::unique_ptr<Env> CreateWith(const Config& config) const override {
    return std::make_unique<E>(typename E::Params(config));
  }
  std::optional<FrameSize> RenderSize(int width, int height, int camera_id) const override {
    if constexpr (HasRenderSize<E>::value) {
      return E::RenderSize(params_, width, height, camera_id);
    } else {
      return std::nullopt;
    }
  }

 private:
  typename E::Params params_;
  EnvSpec spec_;
};

}  // namespace envpool
