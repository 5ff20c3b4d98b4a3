// The XLA interface's view of a pool (envpool/core/xla.py): a plain C struct, so that
// the custom-call shim (envpool/core/xla_shim.cc), compiled against the installed jaxlib's
// XLA FFI headers at the first xla() call, needs nothing else of this package.
//
// A jitted recv or send carries the struct's address in its handle (8 bytes, uint8) and
// calls through it. The pool's Python binding owns the struct (bindings/pool_module.h);
// after close() both calls return an error.
#pragma once

#include <cstdint>

extern "C" {

// Bumped when the struct changes: the shim refuses a target of another version.
#define ENVPOOL_XLA_TARGET_VERSION 1

struct EnvpoolXlaTarget {
  std::uint32_t version;  // ENVPOOL_XLA_TARGET_VERSION
  void* self;             // the owner, passed back to the calls
  // Waits for the next batch and copies its arrays into `outs`, `n` of them: the
  // observation's arrays, the info arrays, then env_id (int32), reward (float32),
  // terminated, truncated (bool) and elapsed_step (int32), `batch_size` rows each.
  // Returns nullptr, or an error message valid until the next call on this target.
  const char* (*recv)(void* self, void* const* outs, int n);
  // Queues one step of the `n` envs `env_ids` with `actions` (`n` rows of the action
  // spec's dtype and shape). Returns nullptr or an error message, as recv.
  const char* (*send)(void* self, const void* actions, const std::int32_t* env_ids, int n);
};

}  // extern "C"
