#include "core/admission.h"

#include <cmath>
#include <sstream>
#include <string>

namespace envpool {
namespace {

template <class Src, class Dst>
void ConvertDiscrete(const Src* src, Dst* dst, std::int64_t count, const ArraySpec& spec,
                     std::int64_t env_id) {
  for (std::int64_t k = 0; k < count; ++k) {
    const auto v = static_cast<std::int64_t>(src[k]);
    if (v < spec.start || v >= spec.start + spec.n) {
      throw std::invalid_argument("action " + std::to_string(v) + " for env " +
                                  std::to_string(env_id) + " is out of range: valid actions are " +
                                  std::to_string(spec.start) + " .. " +
                                  std::to_string(spec.start + spec.n - 1));
    }
    dst[k] = static_cast<Dst>(v);
  }
}

template <class Src, class Dst>
void ConvertContinuous(const Src* src, Dst* dst, std::int64_t count, std::int64_t env_id) {
  for (std::int64_t k = 0; k < count; ++k) {
    if (!std::isfinite(src[k])) {
      throw std::invalid_argument("action for env " + std::to_string(env_id) +
                                  " is not finite (NaN or inf)");
    }
    dst[k] = static_cast<Dst>(src[k]);
  }
}

// An integer Box action (gymnasium's Box(low, high, shape, int32)): whole numbers within
// the bounds, element by element.
template <class Src, class Dst>
void ConvertIntegerBox(const Src* src, Dst* dst, std::int64_t count, const ArraySpec& spec,
                       std::int64_t env_id) {
  auto bound = [](const std::vector<double>& b, std::int64_t k, double none) {
    return b.empty() ? none : b[b.size() == 1 ? 0 : static_cast<std::size_t>(k)];
  };
  for (std::int64_t k = 0; k < count; ++k) {
    const double v = static_cast<double>(src[k]);
    const double low = bound(spec.low, k, -INFINITY), high = bound(spec.high, k, INFINITY);
    if (!(v >= low && v <= high) || v != std::trunc(v)) {
      std::ostringstream message;
      message << "action " << v << " (element " << k << ") for env " << env_id
              << " is out of range: valid actions are the integers " << low << " .. " << high;
      throw std::invalid_argument(message.str());
    }
    dst[k] = static_cast<Dst>(src[k]);
  }
}

// Checks one action row of type Src and writes it as the spec's type.
template <class Src>
void ConvertRow(const Src* src, std::byte* dst, const ArraySpec& spec, std::int64_t env_id) {
  const std::int64_t count = spec.NumElements();
  if (spec.IsDiscrete()) {
    switch (spec.dtype) {
      case DType::kInt32:
        return ConvertDiscrete(src, reinterpret_cast<std::int32_t*>(dst), count, spec, env_id);
      case DType::kInt64:
        return ConvertDiscrete(src, reinterpret_cast<std::int64_t*>(dst), count, spec, env_id);
      default:
        break;
    }
  } else {
    switch (spec.dtype) {
      case DType::kFloat32:
        return ConvertContinuous(src, reinterpret_cast<float*>(dst), count, env_id);
      case DType::kFloat64:
        return ConvertContinuous(src, reinterpret_cast<double*>(dst), count, env_id);
      case DType::kInt32:
        return ConvertIntegerBox(src, reinterpret_cast<std::int32_t*>(dst), count, spec, env_id);
      case DType::kInt64:
        return ConvertIntegerBox(src, reinterpret_cast<std::int64_t*>(dst), count, spec, env_id);
      default:
        break;
    }
  }
  throw std::logic_error("unsupported action spec type");
}

}  // namespace

void ConvertAction(const void* src, DType dtype, std::int64_t row, std::byte* dst,
                   const ArraySpec& spec, std::int64_t env_id) {
  const std::int64_t count = spec.NumElements();
  switch (dtype) {
    case DType::kInt32:
      return ConvertRow(static_cast<const std::int32_t*>(src) + row * count, dst, spec, env_id);
    case DType::kInt64:
      return ConvertRow(static_cast<const std::int64_t*>(src) + row * count, dst, spec, env_id);
    case DType::kFloat32:
      if (spec.IsDiscrete()) throw std::invalid_argument("discrete actions must be integers");
      return ConvertRow(static_cast<const float*>(src) + row * count, dst, spec, env_id);
    case DType::kFloat64:
      if (spec.IsDiscrete()) throw std::invalid_argument("discrete actions must be integers");
      return ConvertRow(static_cast<const double*>(src) + row * count, dst, spec, env_id);
    default:
      throw std::invalid_argument(std::string("unsupported action type ") + DTypeName(dtype));
  }
}

Admission::Admission(const EnvSpec& spec, int num_envs) : spec_(spec) {
  const auto envs = static_cast<std::size_t>(num_envs);
  action_bytes_ = spec.action.NumBytes();
  actions_.resize(action_bytes_ * envs);
  if (spec.max_num_players > 0) {
    max_players_ = static_cast<std::size_t>(spec.max_num_players);
    for (const ArraySpec& a : spec.player_actions) {
      player_bytes_.push_back(a.NumBytes());
      player_actions_.emplace_back(a.NumBytes() * max_players_ * envs);
    }
    player_counts_.assign(envs, 0);
  }
  busy_.assign(envs, 0);
  done_.assign(envs, 0);
  started_.assign(envs, 0);
}

void Admission::Admit(const std::int64_t* env_ids, int n) {
  const int num = num_envs();
  int marked = 0;
  auto fail = [&](const std::string& message) {
    for (int k = 0; k < marked; ++k) busy_[env_ids[k]] = 0;
    throw std::invalid_argument(message);
  };
  if (n < 1) fail("no env ids given");
  for (; marked < n; ++marked) {
    const std::int64_t id = env_ids[marked];
    if (id < 0 || id >= num) {
      fail("env_id " + std::to_string(id) + " is out of range 0 .. " + std::to_string(num - 1));
    }
    if (busy_[id]) {
      fail("env_id " + std::to_string(id) +
           " is already in flight or listed twice: it can be sent again once recv() has "
           "returned it");
    }
    busy_[id] = 1;
  }
  in_flight_ += n;
}

void Admission::Release(const std::int64_t* env_ids, int n) {
  for (int k = 0; k < n; ++k) busy_[env_ids[k]] = 0;
  in_flight_ -= n;
}

void Admission::AdmitActions(const void* actions, DType dtype, const std::int64_t* env_ids,
                             int n, bool first_step_resets, bool autoreset_disabled) {
  Admit(env_ids, n);
  try {
    for (int k = 0; k < n; ++k) {
      const std::int64_t id = env_ids[k];
      if (!started_[id] && !first_step_resets) {
        throw ResetNeeded("env " + std::to_string(id) +
                          " has not been reset: call reset() before step()");
      }
      if (autoreset_disabled && done_[id]) {
        throw std::invalid_argument("env " + std::to_string(id) +
                                    " ended its episode and autoreset is disabled: reset it "
                                    "first (reset(options={'reset_mask': ...}))");
      }
      std::byte* dst = actions_.data() + action_bytes_ * static_cast<std::size_t>(id);
      ConvertAction(actions, dtype, k, dst, spec_.action, id);
    }
  } catch (...) {
    Release(env_ids, n);
    throw;
  }
}

void Admission::AdmitPlayers(const std::int64_t* env_ids, int n,
                             const std::int64_t* player_env_ids, int num_player_actions,
                             const std::vector<const void*>& player_arrays,
                             const std::vector<DType>& player_dtypes) {
  const EnvSpec& s = spec_;
  try {
    // Only the ids of this send are busy_ and not yet counted: count them from 0.
    std::vector<std::uint8_t> sent(busy_.size(), 0);
    for (int k = 0; k < n; ++k) {
      sent[env_ids[k]] = 1;
      player_counts_[env_ids[k]] = 0;
    }
    for (int p = 0; p < num_player_actions; ++p) {
      const std::int64_t id = player_env_ids[p];
      if (id < 0 || id >= num_envs() || !sent[id]) {
        throw std::invalid_argument("players.env_id " + std::to_string(id) + " (player action " +
                                    std::to_string(p) + ") is not one of the env ids sent");
      }
      const int slot = player_counts_[id]++;
      if (slot >= s.max_num_players) {
        throw std::invalid_argument("env " + std::to_string(id) + " was sent more than " +
                                    "max_num_players (" + std::to_string(s.max_num_players) +
                                    ") players' actions");
      }
      for (std::size_t a = 0; a < s.player_actions.size(); ++a) {
        std::byte* dst = player_actions_[a].data() +
                         player_bytes_[a] * (static_cast<std::size_t>(id) * max_players_ +
                                             static_cast<std::size_t>(slot));
        ConvertAction(player_arrays[a], player_dtypes[a], p, dst, s.player_actions[a], id);
      }
    }
    for (int k = 0; k < n && s.player_actions_per_env > 0; ++k) {
      const int count = player_counts_[env_ids[k]];
      if (count != s.player_actions_per_env) {
        throw std::invalid_argument("env " + std::to_string(env_ids[k]) + " was sent " +
                                    std::to_string(count) + " players' actions: it takes " +
                                    std::to_string(s.player_actions_per_env) +
                                    " at every step (pass players.env_id)");
      }
    }
  } catch (...) {
    Release(env_ids, n);
    throw;
  }
}

void Admission::Deliver(Batch& batch) {
  const int size = batch.size.load();
  for (int r = 0; r < size; ++r) {
    const int id = batch.env_id.At<std::int32_t>(r);
    busy_[id] = 0;
    done_[id] = batch.terminated.At<bool>(r) || batch.truncated.At<bool>(r);
  }
  in_flight_ -= size;
}

}  // namespace envpool
