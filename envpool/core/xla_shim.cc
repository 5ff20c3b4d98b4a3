// envpool's XLA custom calls (envpool/core/xla.py): two handlers of XLA's FFI that
// forward a jitted recv or send to the pool whose EnvpoolXlaTarget address the handle
// holds (core/xla_target.h). Compiled at the first xla() call against the installed
// jaxlib's headers (jax.ffi.include_dir()), so that it always speaks that jaxlib's FFI.
//
// The CUDA handlers (EnvpoolXlaRecvCuda, EnvpoolXlaSendCuda: a jitted function placed on a
// GPU, as sail-sg EnvPool's were) copy the handle and the actions to the host, step the pool
// there, and copy the batch to the GPU on XLA's stream, with the CUDA driver's own
// functions found at run time in libcuda.so.1 (loaded by jax's CUDA plugin), so the shim
// builds without CUDA's headers or toolkit.
#include <dlfcn.h>

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

// The CUDA driver's functions the CUDA handlers use (cuda.h's types, as plain ones).
struct CudaDriver {
  using Stream = void*;
  int (*dtoh)(void* dst, std::uint64_t src, std::size_t bytes, Stream stream) = nullptr;
  int (*htod)(std::uint64_t dst, const void* src, std::size_t bytes, Stream stream) = nullptr;
  int (*sync)(Stream stream) = nullptr;
};

ffi::ErrorOr<const CudaDriver*> Driver() {
  static const CudaDriver driver = [] {
    CudaDriver d;
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (lib == nullptr) lib = dlopen("libcuda.so.1", RTLD_NOW);
    if (lib != nullptr) {
      d.dtoh = reinterpret_cast<decltype(d.dtoh)>(dlsym(lib, "cuMemcpyDtoHAsync_v2"));
      d.htod = reinterpret_cast<decltype(d.htod)>(dlsym(lib, "cuMemcpyHtoDAsync_v2"));
      d.sync = reinterpret_cast<decltype(d.sync)>(dlsym(lib, "cuStreamSynchronize"));
    }
    return d;
  }();
  if (driver.dtoh == nullptr || driver.htod == nullptr || driver.sync == nullptr) {
    return ffi::Unexpected(ffi::Error::Internal("envpool's XLA calls on CUDA: libcuda.so.1 "
                                                "or its cuMemcpy functions not found"));
  }
  return &driver;
}

std::uint64_t DevicePtr(const ffi::AnyBuffer& buffer) {
  return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(buffer.untyped_data()));
}

ffi::Error CudaError(int code, const char* what) {
  return ffi::Error::Internal(std::string("envpool's XLA calls on CUDA: ") + what +
                              " failed with CUDA error " + std::to_string(code));
}

// A buffer's bytes copied to the host (the stream synchronized).
ffi::Error ToHost(const CudaDriver& cuda, void* stream, const ffi::AnyBuffer& buffer,
                  std::vector<char>* host) {
  host->resize(buffer.size_bytes());
  if (host->empty()) return ffi::Error::Success();
  if (int e = cuda.dtoh(host->data(), DevicePtr(buffer), host->size(), stream)) {
    return CudaError(e, "cuMemcpyDtoHAsync");
  }
  if (int e = cuda.sync(stream)) return CudaError(e, "cuStreamSynchronize");
  return ffi::Error::Success();
}

// A CUDA call's start: the driver, and the target whose address the handle's 8 bytes (read
// from the GPU) hold.
struct CudaCall {
  const CudaDriver* cuda = nullptr;
  EnvpoolXlaTarget* target = nullptr;
  std::vector<char> handle;
};

ffi::ErrorOr<CudaCall> StartCuda(void* stream, const ffi::AnyBuffer& handle) {
  CudaCall call;
  const ffi::ErrorOr<const CudaDriver*> cuda = Driver();
  if (cuda.has_error()) return ffi::Unexpected(cuda.error());
  call.cuda = *cuda;
  if (ffi::Error e = ToHost(*call.cuda, stream, handle, &call.handle); e.failure()) {
    return ffi::Unexpected(e);
  }
  if (call.handle.size() != sizeof(std::uint64_t)) {
    return ffi::Unexpected(ffi::Error::InvalidArgument("an envpool XLA handle has 8 bytes"));
  }
  std::uint64_t address = 0;
  std::memcpy(&address, call.handle.data(), sizeof(address));
  call.target = reinterpret_cast<EnvpoolXlaTarget*>(static_cast<std::uintptr_t>(address));
  if (call.target == nullptr || call.target->version != ENVPOOL_XLA_TARGET_VERSION) {
    return ffi::Unexpected(
        ffi::Error::InvalidArgument("not an envpool XLA handle of this envpool version"));
  }
  return call;
}

// A CUDA call's end: the handle passed through where XLA did not alias the output to the
// input, and the stream synchronized (the host buffers of the copies are freed after).
ffi::Error FinishCuda(const CudaCall& call, void* stream, const ffi::AnyBuffer& handle,
                      ffi::Result<ffi::AnyBuffer>& handle_out) {
  if (handle_out->untyped_data() != handle.untyped_data()) {
    if (int e = call.cuda->htod(DevicePtr(*handle_out), call.handle.data(), call.handle.size(),
                                stream)) {
      return CudaError(e, "cuMemcpyHtoDAsync");
    }
  }
  if (int e = call.cuda->sync(stream)) return CudaError(e, "cuStreamSynchronize");
  return ffi::Error::Success();
}

// recv on CUDA: the pool's batch into host buffers, then copied to the GPU outputs.
ffi::Error RecvCuda(void* stream, ffi::AnyBuffer handle, ffi::Result<ffi::AnyBuffer> handle_out,
                    ffi::RemainingRets outs) {
  const ffi::ErrorOr<CudaCall> call = StartCuda(stream, handle);
  if (call.has_error()) return call.error();
  std::vector<ffi::AnyBuffer> devices;
  std::vector<std::vector<char>> hosts(outs.size());
  std::vector<void*> buffers;
  for (std::size_t k = 0; k < outs.size(); ++k) {
    ffi::ErrorOr<ffi::Result<ffi::AnyBuffer>> out = outs.get<ffi::AnyBuffer>(k);
    if (out.has_error()) return out.error();
    devices.push_back(**out);
    hosts[k].resize(devices.back().size_bytes());
    buffers.push_back(hosts[k].data());
  }
  const char* error = call->target->recv(call->target->self, buffers.data(),
                                         static_cast<int>(buffers.size()));
  if (error != nullptr) return ffi::Error::Internal(error);
  for (std::size_t k = 0; k < devices.size(); ++k) {
    if (hosts[k].empty()) continue;
    if (int e = call->cuda->htod(DevicePtr(devices[k]), hosts[k].data(), hosts[k].size(),
                                 stream)) {
      return CudaError(e, "cuMemcpyHtoDAsync");
    }
  }
  return FinishCuda(*call, stream, handle, handle_out);
}

// send on CUDA: the actions and env ids copied to the host, then the pool's send.
ffi::Error SendCuda(void* stream, ffi::AnyBuffer handle, ffi::AnyBuffer actions,
                    ffi::AnyBuffer env_ids, ffi::Result<ffi::AnyBuffer> handle_out) {
  const ffi::ErrorOr<CudaCall> call = StartCuda(stream, handle);
  if (call.has_error()) return call.error();
  if (env_ids.element_type() != ffi::DataType::S32) {
    return ffi::Error::InvalidArgument("env_id must be int32");
  }
  std::vector<char> host_actions;
  std::vector<char> host_ids;
  if (ffi::Error e = ToHost(*call->cuda, stream, actions, &host_actions); e.failure()) return e;
  if (ffi::Error e = ToHost(*call->cuda, stream, env_ids, &host_ids); e.failure()) return e;
  const char* error = call->target->send(call->target->self, host_actions.data(),
                                         reinterpret_cast<const std::int32_t*>(host_ids.data()),
                                         static_cast<int>(env_ids.element_count()));
  if (error != nullptr) return ffi::Error::Internal(error);
  return FinishCuda(*call, stream, handle, handle_out);
}

}  // namespace

XLA_FFI_DEFINE_HANDLER_SYMBOL(EnvpoolXlaRecvCuda, RecvCuda,
                              ffi::Ffi::Bind()
                                  .Ctx<ffi::PlatformStream<void*>>()
                                  .Arg<ffi::AnyBuffer>()
                                  .Ret<ffi::AnyBuffer>()
                                  .RemainingRets());

XLA_FFI_DEFINE_HANDLER_SYMBOL(EnvpoolXlaSendCuda, SendCuda,
                              ffi::Ffi::Bind()
                                  .Ctx<ffi::PlatformStream<void*>>()
                                  .Arg<ffi::AnyBuffer>()
                                  .Arg<ffi::AnyBuffer>()
                                  .Arg<ffi::AnyBuffer>()
                                  .Ret<ffi::AnyBuffer>());

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
