// envpool's XLA custom calls (envpool/core/xla.py): two handlers of XLA's FFI that
// forward a jitted recv or send to the pool whose EnvpoolXlaTarget address the handle
// holds (core/xla_target.h). Compiled at the first xla() call against the installed
// jaxlib's headers (jax.ffi.include_dir()), so that it always speaks that jaxlib's FFI.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/xla_target.h"
#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

namespace {

// The target whose address `handle` (8 bytes) holds.
ffi::ErrorOr<EnvpoolXlaTarget*> Target(const ffi::AnyBuffer& handle) {
  if (handle.size_bytes() != sizeof(std::uint64_t)) {
    return ffi::Unexpected(ffi::Error::InvalidArgument("an envpool XLA handle has 8 bytes"));
  }
  std::uint64_t address = 0;
  std::memcpy(&address, handle.untyped_data(), sizeof(address));
  auto* target = reinterpret_cast<EnvpoolXlaTarget*>(static_cast<std::uintptr_t>(address));
  if (target == nullptr || target->version != ENVPOOL_XLA_TARGET_VERSION) {
    return ffi::Unexpected(
        ffi::Error::InvalidArgument("not an envpool XLA handle of this envpool version"));
  }
  return target;
}

// recv(handle) -> (handle, the batch's arrays): the handle is passed through (aliased).
ffi::Error Recv(ffi::AnyBuffer handle, ffi::Result<ffi::AnyBuffer> handle_out,
                ffi::RemainingRets outs) {
  const ffi::ErrorOr<EnvpoolXlaTarget*> target = Target(handle);
  if (target.has_error()) return target.error();
  std::vector<void*> buffers;
  for (std::size_t k = 0; k < outs.size(); ++k) {
    ffi::ErrorOr<ffi::Result<ffi::AnyBuffer>> out = outs.get<ffi::AnyBuffer>(k);
    if (out.has_error()) return out.error();
    buffers.push_back((*out)->untyped_data());
  }
  const char* error = (*target)->recv((*target)->self, buffers.data(),
                                      static_cast<int>(buffers.size()));
  if (error != nullptr) return ffi::Error::Internal(error);
  if (handle_out->untyped_data() != handle.untyped_data()) {
    std::memcpy(handle_out->untyped_data(), handle.untyped_data(), sizeof(std::uint64_t));
  }
  return ffi::Error::Success();
}

// send(handle, actions, env_ids) -> handle.
ffi::Error Send(ffi::AnyBuffer handle, ffi::AnyBuffer actions, ffi::AnyBuffer env_ids,
                ffi::Result<ffi::AnyBuffer> handle_out) {
  const ffi::ErrorOr<EnvpoolXlaTarget*> target = Target(handle);
  if (target.has_error()) return target.error();
  if (env_ids.element_type() != ffi::DataType::S32) {
    return ffi::Error::InvalidArgument("env_id must be int32");
  }
  const char* error =
      (*target)->send((*target)->self, actions.untyped_data(),
                      static_cast<const std::int32_t*>(env_ids.untyped_data()),
                      static_cast<int>(env_ids.element_count()));
  if (error != nullptr) return ffi::Error::Internal(error);
  if (handle_out->untyped_data() != handle.untyped_data()) {
    std::memcpy(handle_out->untyped_data(), handle.untyped_data(), sizeof(std::uint64_t));
  }
  return ffi::Error::Success();
}

}  // namespace

XLA_FFI_DEFINE_HANDLER_SYMBOL(EnvpoolXlaRecv, Recv,
                              ffi::Ffi::Bind()
                                  .Arg<ffi::AnyBuffer>()
                                  .Ret<ffi::AnyBuffer>()
                                  .RemainingRets());

XLA_FFI_DEFINE_HANDLER_SYMBOL(EnvpoolXlaSend, Send,
                              ffi::Ffi::Bind()
                                  .Arg<ffi::AnyBuffer>()
                                  .Arg<ffi::AnyBuffer>()
                                  .Arg<ffi::AnyBuffer>()
                                  .Ret<ffi::AnyBuffer>());
