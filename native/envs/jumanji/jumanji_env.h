// The shared base of the jumanji envs (jumanji 1.1.2, `jumanji.make(id)` with its default
// generator and reward): the seed -> jax key -> `env.reset(key)` mapping, jumanji's
// TimeStep -> terminated / truncated rule, and the parsing of the keywords that fix an
// episode's instance.
//
// Seeds. An env of a pool holds a jax key chain seeded with its seed s (the pool's seed +
// its index, Env::Seed): key = PRNGKey(s). Every reset takes `use, key = split(key)` and
// runs jumanji's `env.reset(use)`; the env's own state.key (which the generator derives
// from `use`) then drives the randomness of its steps, as in jumanji. So the k-th episode
// of the env seeded with s is jumanji's reset(split(key_k)[0]) with key_0 = PRNGKey(s) and
// key_{k+1} = split(key_k)[1] (jax_random::KeyChain).
//
// Ends. jumanji's step returns a TimeStep whose step_type is LAST at the end of an
// episode, with discount 0 for a termination (`termination(...)`) and 1 for a truncation
// (`truncation(...)`): terminated = LAST with discount 0, truncated = LAST with discount
// 1. Most jumanji envs end by their own rules only (their time limits are terminations);
// the pool adds the registered max_episode_steps (truncated), EnvPool's limits.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/env.h"
#include "envs/common/jax_random.h"
#include "envs/common/keywords.h"
#include "envs/common/state_leaves.h"

namespace envpool::jumanji {

using jax_random::Key;

// How a jumanji step ends: transition (MID), termination (LAST, discount 0) or truncation
// (LAST, discount 1).
enum class StepType { kMid, kTermination, kTruncation };

// The pool's outcome of jumanji's TimeStep: its float32 reward and the ends above.
inline StepOutcome Outcome(float reward, StepType type) {
  StepOutcome out;
  out.reward = static_cast<double>(reward);
  out.terminated = type == StepType::kTermination;
  out.truncated = type == StepType::kTruncation;
  return out;
}

// jnp.linalg.norm of a float32 2-vector (dx, dy), sqrt(dx * dx + dy * dy) as XLA's CPU
// backend compiles it in a jitted, unbatched step (jax.jit(env.step)): where it may use
// FMA instructions (`fused`: the hidden keyword _xla_fma, decided in
// envpool/tasks/jumanji.py as for the phys2d envs) it computes fma(dx, dx, dy * dy), one
// rounding less; elsewhere the products and the sum round apart. (Under jax.vmap XLA
// vectorises the same sum without the fused operation: a batched jumanji may differ from
// both by an ulp.)
inline float Norm2(float dx, float dy, bool fused) {
  return std::sqrt(fused ? std::fma(dx, dx, dy * dy) : dx * dx + dy * dy);
}

// The Params of an env whose only keyword is the hidden _xla_fma (`fused`: whether XLA's
// CPU backend fuses a product feeding a sum here; decided in envpool/tasks/jumanji.py).
struct XlaFmaParams {
  bool fused = true;
  static Keywords<XlaFmaParams> Keys() {
    Keywords<XlaFmaParams> k;
    k.Add("_xla_fma", true, &XlaFmaParams::fused);
    return k;
  }
  explicit XlaFmaParams(const Config& c) { Keys().Read(c, *this); }
};

// GetState of a jumanji env: jumanji's State as its pytree leaves (envs/common/
// state_leaves.h's StateLeaves). envpool/tasks/jumanji_frames.py rebuilds jumanji's State
// from them and draws it with jumanji's own viewer; tests compare them leaf by leaf with
// the package's State.

// The frame size of every jumanji env: 256 x 256 by default, one view. jumanji's frames are
// drawn in Python by jumanji's own viewer from the State (GetState; envpool/tasks/
// jumanji_frames.py), not by the env: Render keeps Env's refusal.
inline FrameSize JumanjiFrame(int width, int height, int camera_id) {
  if (camera_id != -1 && camera_id != 0) {
    throw std::invalid_argument("jumanji envs have one view: camera_id must be -1 or 0, got " +
                                std::to_string(camera_id));
  }
  if (width < 0 || height < 0 || width > 4096 || height > 4096) {
    throw std::invalid_argument("jumanji frames are 1 .. 4096 pixels a side (0: 256)");
  }
  return FrameSize{height == 0 ? 256 : height, width == 0 ? 256 : width, 30.0};
}

// A jumanji env: the key chain of its resets (see above) and its State (GetState).
class JumanjiEnv : public Env {
 public:
  void Seed(std::uint64_t seed) override { keys_.Seed(seed); }

  // jumanji's State of the current episode (StateLeaves above).
  std::vector<double> GetState() const override {
    StateLeaves leaves;
    WriteState(leaves);
    return leaves.Take();
  }

 protected:
  // The key of this reset: `use, key = split(key)`.
  Key ResetKey() { return keys_.Next(); }
  // jumanji's State: its leaves in tree_leaves order (StateLeaves).
  virtual void WriteState(StateLeaves& out) const = 0;

 private:
  jax_random::KeyChain keys_;
};

// A keyword holding a comma-separated list of numbers ("" = not given): an episode's
// instance given by hand (an initial board, item weights, ...), as sail-sg EnvPool's
// keywords take it. Throws std::invalid_argument naming the keyword when the list is
// not `size` numbers (size < 0: any length).
inline std::vector<double> ParseNumbers(const std::string& name, const std::string& text,
                                        int size) {
  std::vector<double> values;
  if (text.empty()) return values;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) {
    std::size_t used = 0;
    double value = 0.0;
    try {
      value = std::stod(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    while (used < item.size() && item[used] == ' ') ++used;
    if (used == 0 || used != item.size()) {
      throw std::invalid_argument(name + ": '" + item + "' is not a number");
    }
    values.push_back(value);
  }
  if (size >= 0 && static_cast<int>(values.size()) != size) {
    throw std::invalid_argument(name + " needs " + std::to_string(size) + " comma-separated " +
                                "numbers, got " + std::to_string(values.size()));
  }
  return values;
}

// The same list as integers in [low, high].
inline std::vector<int> ParseInts(const std::string& name, const std::string& text, int size,
                                  int low, int high) {
  std::vector<int> out;
  for (double v : ParseNumbers(name, text, size)) {
    if (v != static_cast<double>(static_cast<long long>(v)) || v < low || v > high) {
      throw std::invalid_argument(name + ": " + std::to_string(v) + " is not an integer in [" +
                                  std::to_string(low) + ", " + std::to_string(high) + "]");
    }
    out.push_back(static_cast<int>(v));
  }
  return out;
}

}  // namespace envpool::jumanji
