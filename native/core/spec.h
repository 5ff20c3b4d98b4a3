// What an environment reads and writes: the shapes, types and bounds of its
// action, observation and info arrays. The Python front builds gymnasium and
// dm_env spaces from these.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/dtype.h"

namespace envpool {

// One array of one environment (the batch adds a leading dimension).
struct ArraySpec {
  std::string name;
  DType dtype = DType::kFloat32;
  std::vector<std::int64_t> shape;  // per-env shape; {} is a scalar
  // Bounds: empty = unbounded, one value = the same for every element,
  // otherwise one per element.
  std::vector<double> low;
  std::vector<double> high;
  // n > 0 marks a discrete quantity taking the values start .. start + n - 1.
  std::int64_t n = 0;
  std::int64_t start = 0;
  // Multi-player envs (EnvSpec::max_num_players > 0): the array holds one value of
  // `shape` per player. A batch row has room for max_num_players of them; the env
  // says how many it wrote with Slot::SetNumPlayers, and the Python side returns
  // the written ones of every row one after the other (sail-sg EnvPool's layout).
  bool per_player = false;
  // An observation array whose every value is itself an array (sail-sg EnvPool's
  // Container): `dtype` is its elements' type and `shape` its shape, -1 for a
  // dimension the env picks when it writes the value (Slot::Container). Python
  // gets a numpy object array of arrays. Such an env has no XLA interface.
  bool container = false;

  // (not for a container array, whose values have shapes of their own)
  std::int64_t NumElements() const {
    std::int64_t count = 1;
    for (std::int64_t d : shape) count *= d;
    return count;
  }
  std::size_t NumBytes() const {
    return static_cast<std::size_t>(NumElements()) * DTypeSize(dtype);
  }
  bool IsDiscrete() const { return n > 0; }
};

inline ArraySpec DiscreteSpec(std::string name, std::int64_t n, DType dtype,
                              std::int64_t start = 0) {
  ArraySpec spec;
  spec.name = std::move(name);
  spec.dtype = dtype;
  spec.n = n;
  spec.start = start;
  spec.low = {static_cast<double>(start)};
  spec.high = {static_cast<double>(start + n - 1)};
  return spec;
}

inline ArraySpec BoxSpec(std::string name, DType dtype, std::vector<std::int64_t> shape,
                         std::vector<double> low = {}, std::vector<double> high = {}) {
  ArraySpec spec;
  spec.name = std::move(name);
  spec.dtype = dtype;
  spec.shape = std::move(shape);
  spec.low = std::move(low);
  spec.high = std::move(high);
  return spec;
}

// How several observation arrays are presented: one array, a tuple or a dict.
enum class ObsLayout : std::uint8_t { kArray, kTuple, kDict };

struct EnvSpec {
  std::vector<ArraySpec> obs;
  ObsLayout obs_layout = ObsLayout::kArray;
  ArraySpec action;
  // Env-specific info arrays (the pool adds env_id, elapsed_step, ...).
  std::vector<ArraySpec> info;
  // Multi-player envs: the most players an env has at a step (0: a single-player
  // env, the usual case), and the action arrays that hold one value per player
  // (the env's Step reads them through ActionView::Player; `action` stays the one
  // array per env). Multi-player pools autoreset on the next step only.
  int max_num_players = 0;
  std::vector<ArraySpec> player_actions;
  // A multi-player env whose `action` has no elements (its players act, sail-sg EnvPool's
  // layout where the action array spec has only players' arrays): the players' actions it
  // takes at every step, checked when they are sent (0: any number up to max_num_players).
  int player_actions_per_env = 0;
  // Used by the Python front for render_mode / metadata; informative only.
  double reward_low = -1e300;
  double reward_high = 1e300;
};

inline bool SameArray(const ArraySpec& a, const ArraySpec& b) {
  return a.name == b.name && a.dtype == b.dtype && a.shape == b.shape && a.low == b.low &&
         a.high == b.high && a.n == b.n && a.start == b.start && a.per_player == b.per_player &&
         a.container == b.container;
}

// Where two specs differ in what a batch holds (the action, observation and
// info arrays, their layout): the name of the first array that differs, or
// "" when the spaces are the same (a pool's envs must agree on them).
inline std::string SpaceDifference(const EnvSpec& a, const EnvSpec& b) {
  if (!SameArray(a.action, b.action)) return "action";
  if (a.max_num_players != b.max_num_players) return "max_num_players";
  if (a.player_actions_per_env != b.player_actions_per_env) return "player_actions_per_env";
  if (a.player_actions.size() != b.player_actions.size()) return "player actions";
  for (std::size_t i = 0; i < a.player_actions.size(); ++i) {
    if (!SameArray(a.player_actions[i], b.player_actions[i])) {
      return "player action '" + a.player_actions[i].name + "'";
    }
  }
  if (a.obs_layout != b.obs_layout || a.obs.size() != b.obs.size()) return "obs";
  for (std::size_t i = 0; i < a.obs.size(); ++i) {
    if (!SameArray(a.obs[i], b.obs[i])) return "obs '" + a.obs[i].name + "'";
  }
  if (a.info.size() != b.info.size()) return "info";
  for (std::size_t i = 0; i < a.info.size(); ++i) {
    if (!SameArray(a.info[i], b.info[i])) return "info '" + a.info[i].name + "'";
  }
  return "";
}

}  // namespace envpool
