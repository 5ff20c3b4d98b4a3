// A headless OpenGL context for MuJoCo's renderer (mjr_*), EGL or OSMesa, chosen
// as MuJoCo's Python package chooses it: by the MUJOCO_GL environment variable
// (egl, the default, or osmesa).
//
// libEGL / libOSMesa are opened with dlopen when the first context is made,
// never linked: envpool imports, and every env that does not render works, on
// a machine without them. They are opened RTLD_GLOBAL because libmujoco finds
// the GL functions itself (mjr_makeContext looks up eglGetProcAddress or
// OSMesaGetProcAddress among the symbols of the process).
//
// EGL is set up as mujoco/egl/__init__.py sets it up (facts, not code): a
// display on the first EGL device that initialises (EGL_EXT_platform_device;
// MUJOCO_EGL_DEVICE_ID picks one), else Mesa's surfaceless platform, a config
// of RGBA8 / depth 24 / stencil 8 for pbuffers and desktop OpenGL, and a
// context made current without a surface (MuJoCo draws into its own
// offscreen framebuffer). Displays are never terminated: a display is one per
// device and process, shared with any other EGL user of the process (MuJoCo's
// Python renderer included).
//
// Threads: a GL context is current on at most one thread at a time. Each
// GlContext::Current scope makes the context current on the calling thread and,
// when the scope ends, puts back whatever context that thread had before (none,
// on a worker thread). An env's Render runs on whichever worker thread takes
// the task, and an env is rendered by one task at a time, so its context is
// never current on two threads.
#pragma once

#include <dlfcn.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace envpool::gl {

// The renderer did not start: the message names what to install.
class GlUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class Backend { kEgl, kOsmesa };

inline std::string InstallHint(Backend backend) {
  if (backend == Backend::kEgl) {
    return "MUJOCO_GL=egl (the default) needs EGL with an OpenGL driver: on Debian/Ubuntu "
           "apt-get install libegl1 libegl-mesa0 libgl1-mesa-dri (software rendering; or a GPU "
           "driver's EGL). Or install libosmesa6 and set MUJOCO_GL=osmesa";
  }
  return "MUJOCO_GL=osmesa needs OSMesa: on Debian/Ubuntu apt-get install libosmesa6. Or install "
         "libegl1 libegl-mesa0 libgl1-mesa-dri and set MUJOCO_GL=egl";
}

// MUJOCO_GL: unset or empty is egl; anything but egl / osmesa is refused
// (envpool draws offscreen: there is no window for glfw).
inline Backend BackendFromEnvironment() {
  const char* value = std::getenv("MUJOCO_GL");
  const std::string name = value == nullptr ? "" : value;
  if (name.empty() || name == "egl") return Backend::kEgl;
  if (name == "osmesa") return Backend::kOsmesa;
  throw GlUnavailable("MUJOCO_GL=" + name +
                      ": envpool renders offscreen, with MUJOCO_GL=egl (default) or osmesa");
}

// A library opened once per process, RTLD_GLOBAL, and kept open (GL drivers do
// not support being unloaded).
inline void* OpenFirst(const std::vector<const char*>& names, std::string& errors) {
  for (const char* name : names) {
    if (void* handle = dlopen(name, RTLD_NOW | RTLD_GLOBAL)) return handle;
    const char* err = dlerror();
    errors += std::string(errors.empty() ? "" : "; ") + (err != nullptr ? err : name);
  }
  return nullptr;
}

template <class F>
F Symbol(void* handle, const char* name, Backend backend) {
  void* sym = dlsym(handle, name);
  if (sym == nullptr) {
    throw GlUnavailable(std::string("the GL library has no ") + name + ". " + InstallHint(backend));
  }
  return reinterpret_cast<F>(sym);
}

// -- EGL (the few declarations used here; values from the EGL registry) -----
namespace egl {
using Display = void*;
using Config = void*;
using Context = void*;
using Surface = void*;
using Device = void*;
using Boolean = unsigned int;
using Enum = unsigned int;
using Int = std::int32_t;
constexpr Int kNone = 0x3038;
constexpr Int kRedSize = 0x3024, kGreenSize = 0x3023, kBlueSize = 0x3022, kAlphaSize = 0x3021;
constexpr Int kDepthSize = 0x3025, kStencilSize = 0x3026, kColorBufferType = 0x303F;
constexpr Int kRgbBuffer = 0x308E, kSurfaceType = 0x3033, kPbufferBit = 0x0001;
constexpr Int kRenderableType = 0x3040, kOpenglBit = 0x0008;
constexpr Enum kOpenglApi = 0x30A2;
constexpr Enum kPlatformDevice = 0x313F, kPlatformSurfacelessMesa = 0x31DD;
constexpr Int kSuccess = 0x3000, kTrue = 1;
constexpr Int kDrawSurface = 0x3059, kReadSurface = 0x305A;

struct Api {
  using GetProcAddress = void* (*)(const char*);
  GetProcAddress get_proc_address;
  Int (*get_error)();
  Boolean (*initialize)(Display, Int*, Int*);
  Boolean (*choose_config)(Display, const Int*, Config*, Int, Int*);
  Boolean (*bind_api)(Enum);
  Enum (*query_api)();
  Context (*create_context)(Display, Config, Context, const Int*);
  Boolean (*destroy_context)(Display, Context);
  Boolean (*make_current)(Display, Surface, Surface, Context);
  Context (*get_current_context)();
  Display (*get_current_display)();
  Surface (*get_current_surface)(Int);
  Boolean (*query_devices)(Int, Device*, Int*);                     // EXT, may be null
  Display (*get_platform_display)(Enum, void*, const Int*);          // EXT, may be null
};

// libEGL's entry points, loaded on first use; throws GlUnavailable when the
// library or a function is missing.
inline const Api& Load() {
  static const Api api = [] {
    std::string errors;
    void* lib = OpenFirst({"libEGL.so.1", "libEGL.so"}, errors);
    if (lib == nullptr) {
      throw GlUnavailable("cannot load libEGL (" + errors + "). " + InstallHint(Backend::kEgl));
    }
    const Backend b = Backend::kEgl;
    Api a{};
    a.get_proc_address = Symbol<Api::GetProcAddress>(lib, "eglGetProcAddress", b);
    a.get_error = Symbol<decltype(a.get_error)>(lib, "eglGetError", b);
    a.initialize = Symbol<decltype(a.initialize)>(lib, "eglInitialize", b);
    a.choose_config = Symbol<decltype(a.choose_config)>(lib, "eglChooseConfig", b);
    a.bind_api = Symbol<decltype(a.bind_api)>(lib, "eglBindAPI", b);
    a.query_api = Symbol<decltype(a.query_api)>(lib, "eglQueryAPI", b);
    a.create_context = Symbol<decltype(a.create_context)>(lib, "eglCreateContext", b);
    a.destroy_context = Symbol<decltype(a.destroy_context)>(lib, "eglDestroyContext", b);
    a.make_current = Symbol<decltype(a.make_current)>(lib, "eglMakeCurrent", b);
    a.get_current_context = Symbol<decltype(a.get_current_context)>(lib, "eglGetCurrentContext", b);
    a.get_current_display = Symbol<decltype(a.get_current_display)>(lib, "eglGetCurrentDisplay", b);
    a.get_current_surface = Symbol<decltype(a.get_current_surface)>(lib, "eglGetCurrentSurface", b);
    a.query_devices =
        reinterpret_cast<decltype(a.query_devices)>(a.get_proc_address("eglQueryDevicesEXT"));
    a.get_platform_display = reinterpret_cast<decltype(a.get_platform_display)>(
        a.get_proc_address("eglGetPlatformDisplayEXT"));
    return a;
  }();
  return api;
}

// The display of the first device that initialises (or MUJOCO_EGL_DEVICE_ID's),
// else Mesa's surfaceless display; nullptr when there is none.
inline Display OpenDisplay(const Api& api) {
  if (api.get_platform_display == nullptr) return nullptr;
  if (api.query_devices != nullptr) {
    Int n = 0;
    std::vector<Device> devices(32);
    if (api.query_devices(static_cast<Int>(devices.size()), devices.data(), &n) == kTrue) {
      devices.resize(static_cast<std::size_t>(n));
      if (const char* id = std::getenv("MUJOCO_EGL_DEVICE_ID")) {
        char* end = nullptr;
        const long k = std::strtol(id, &end, 10);
        if (end == id || *end != '\0' || k < 0 || k >= n) {
          throw GlUnavailable("MUJOCO_EGL_DEVICE_ID must be an integer in 0 .. " +
                              std::to_string(n - 1) + ", got " + id);
        }
        devices = {devices[static_cast<std::size_t>(k)]};
      }
      for (Device device : devices) {
        Display display = api.get_platform_display(kPlatformDevice, device, nullptr);
        if (display != nullptr && api.get_error() == kSuccess &&
            api.initialize(display, nullptr, nullptr) == kTrue && api.get_error() == kSuccess) {
          return display;
        }
      }
    }
  }
  Display display = api.get_platform_display(kPlatformSurfacelessMesa, nullptr, nullptr);
  if (display != nullptr && api.initialize(display, nullptr, nullptr) == kTrue) return display;
  return nullptr;
}
}  // namespace egl

// -- OSMesa ---------------------------------------------------------------
namespace osmesa {
using Context = void*;
constexpr int kRgba = 0x1908;           // OSMESA_RGBA (GL_RGBA)
constexpr unsigned kUnsignedByte = 0x1401;  // GL_UNSIGNED_BYTE

struct Api {
  Context (*create_context_ext)(int, int, int, int, Context);
  void (*destroy_context)(Context);
  unsigned char (*make_current)(Context, void*, unsigned, int, int);
  Context (*get_current_context)();
  unsigned char (*get_color_buffer)(Context, int*, int*, int*, void**);
};

inline const Api& Load() {
  static const Api api = [] {
    std::string errors;
    void* lib = OpenFirst({"libOSMesa.so.8", "libOSMesa.so.6", "libOSMesa.so"}, errors);
    if (lib == nullptr) {
      throw GlUnavailable("cannot load libOSMesa (" + errors + "). " +
                          InstallHint(Backend::kOsmesa));
    }
    const Backend b = Backend::kOsmesa;
    Api a{};
    a.create_context_ext = Symbol<decltype(a.create_context_ext)>(lib, "OSMesaCreateContextExt", b);
    a.destroy_context = Symbol<decltype(a.destroy_context)>(lib, "OSMesaDestroyContext", b);
    a.make_current = Symbol<decltype(a.make_current)>(lib, "OSMesaMakeCurrent", b);
    a.get_current_context =
        Symbol<decltype(a.get_current_context)>(lib, "OSMesaGetCurrentContext", b);
    a.get_color_buffer = Symbol<decltype(a.get_color_buffer)>(lib, "OSMesaGetColorBuffer", b);
    return a;
  }();
  return api;
}
}  // namespace osmesa

// One OpenGL context (desktop GL, for MuJoCo's fixed-function renderer).
class GlContext {
 public:
  // Throws GlUnavailable, naming the packages to install, when no context
  // can be made.
  GlContext() : backend_(BackendFromEnvironment()) {
    if (backend_ == Backend::kEgl) {
      const egl::Api& api = egl::Load();
      display_ = egl::OpenDisplay(api);
      if (display_ == nullptr) {
        throw GlUnavailable("EGL found no display (no device and no surfaceless platform). " +
                            InstallHint(backend_));
      }
      const egl::Int attributes[] = {
          egl::kRedSize,     8, egl::kGreenSize,       8,
          egl::kBlueSize,    8, egl::kAlphaSize,       8,
          egl::kDepthSize,   24, egl::kStencilSize,    8,
          egl::kColorBufferType, egl::kRgbBuffer, egl::kSurfaceType, egl::kPbufferBit,
          egl::kRenderableType,  egl::kOpenglBit, egl::kNone};
      egl::Config config = nullptr;
      egl::Int n = 0;
      if (api.choose_config(display_, attributes, &config, 1, &n) != egl::kTrue || n < 1) {
        throw GlUnavailable("EGL has no RGBA8 / depth 24 / stencil 8 OpenGL configuration. " +
                            InstallHint(backend_));
      }
      const egl::Enum previous_api = api.query_api();
      api.bind_api(egl::kOpenglApi);
      egl_context_ = api.create_context(display_, config, nullptr, nullptr);
      api.bind_api(previous_api);
      if (egl_context_ == nullptr) {
        throw GlUnavailable("EGL could not create a desktop OpenGL context (error 0x" +
                            Hex(api.get_error()) + "). " + InstallHint(backend_));
      }
    } else {
      const osmesa::Api& api = osmesa::Load();
      osmesa_context_ = api.create_context_ext(osmesa::kRgba, 24, 8, 0, nullptr);
      if (osmesa_context_ == nullptr) {
        throw GlUnavailable("OSMesa could not create a context. " + InstallHint(backend_));
      }
      osmesa_buffer_.resize(4);  // MuJoCo draws offscreen; the default framebuffer is 1 x 1
    }
  }
  GlContext(const GlContext&) = delete;
  GlContext& operator=(const GlContext&) = delete;
  ~GlContext() {
    if (egl_context_ != nullptr) egl::Load().destroy_context(display_, egl_context_);
    if (osmesa_context_ != nullptr) osmesa::Load().destroy_context(osmesa_context_);
  }

  // Makes the context current on this thread for the scope's life, then puts
  // back the thread's previous context (see the threading note above).
  class Current {
   public:
    explicit Current(const GlContext& ctx) : ctx_(ctx) {
      if (ctx_.backend_ == Backend::kEgl) {
        const egl::Api& api = egl::Load();
        prev_api_ = api.query_api();
        api.bind_api(egl::kOpenglApi);
        prev_display_ = api.get_current_display();
        prev_context_ = api.get_current_context();
        prev_draw_ = api.get_current_surface(egl::kDrawSurface);
        prev_read_ = api.get_current_surface(egl::kReadSurface);
        if (api.make_current(ctx_.display_, nullptr, nullptr, ctx_.egl_context_) != egl::kTrue) {
          const std::string error = Hex(api.get_error());
          api.bind_api(prev_api_);
          throw GlUnavailable("eglMakeCurrent failed (error 0x" + error + ")");
        }
      } else {
        const osmesa::Api& api = osmesa::Load();
        prev_osmesa_ = api.get_current_context();
        if (prev_osmesa_ != nullptr) {
          api.get_color_buffer(prev_osmesa_, &prev_w_, &prev_h_, &prev_format_, &prev_buffer_);
        }
        if (!api.make_current(ctx_.osmesa_context_, ctx_.osmesa_buffer_.data(),
                              osmesa::kUnsignedByte, 1, 1)) {
          throw GlUnavailable("OSMesaMakeCurrent failed");
        }
      }
    }
    Current(const Current&) = delete;
    Current& operator=(const Current&) = delete;
    ~Current() {
      if (ctx_.backend_ == Backend::kEgl) {
        const egl::Api& api = egl::Load();
        if (prev_context_ != nullptr) {
          api.make_current(prev_display_, prev_draw_, prev_read_, prev_context_);
        } else {
          api.make_current(ctx_.display_, nullptr, nullptr, nullptr);
        }
        api.bind_api(prev_api_);
      } else {
        // No previous context: (null, null) releases the current one (Mesa's OSMesaMakeCurrent).
        osmesa::Load().make_current(prev_osmesa_, prev_buffer_, osmesa::kUnsignedByte, prev_w_,
                                    prev_h_);
      }
    }

   private:
    const GlContext& ctx_;
    egl::Enum prev_api_ = 0;
    egl::Display prev_display_ = nullptr;
    egl::Context prev_context_ = nullptr;
    egl::Surface prev_draw_ = nullptr, prev_read_ = nullptr;
    osmesa::Context prev_osmesa_ = nullptr;
    int prev_w_ = 0, prev_h_ = 0, prev_format_ = 0;
    void* prev_buffer_ = nullptr;
  };

 private:
  static std::string Hex(egl::Int value) {
    static const char digits[] = "0123456789abcdef";
    std::string s;
    for (int shift = 12; shift >= 0; shift -= 4) s += digits[(value >> shift) & 0xf];
    return s;
  }

  Backend backend_;
  egl::Display display_ = nullptr;
  egl::Context egl_context_ = nullptr;
  osmesa::Context osmesa_context_ = nullptr;
  mutable std::vector<unsigned char> osmesa_buffer_;  // written by GL while current
};

}  // namespace envpool::gl
