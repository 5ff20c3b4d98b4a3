// The eight EGL functions the gfootball engine calls, loaded from the system's
// libEGL.so.1 when first called, instead of linked: `envpool._gfootball` then
// loads on a machine without EGL (the manylinux wheel cannot carry a GL driver
// stack), and only a game that draws needs it. envpool's gfootball env never
// draws (game_config.render is false, gfootball_env.h); the engine creates its GL
// context only for a rendered game.
//
// The definitions are hidden: the engine's static library binds to them inside
// this module, and no other library of the process sees them (MuJoCo's renderer
// opens libEGL itself, envs/common/gl_context.h). Without libEGL each function
// fails as EGL does (EGL_FALSE, a null handle, EGL_NOT_INITIALIZED), and the
// engine turns that into its own error.
#include <dlfcn.h>

#include <cstdint>

namespace {

using EGLBoolean = unsigned int;
using EGLenum = unsigned int;
using EGLint = std::int32_t;
using EGLDisplay = void*;
using EGLConfig = void*;
using EGLContext = void*;
using EGLSurface = void*;
using EGLProc = void (*)();

constexpr EGLBoolean kFalse = 0;
constexpr EGLint kNotInitialized = 0x3001;  // EGL_NOT_INITIALIZED

// libEGL, opened once (thread-safe: a function-local static); null when missing.
void* Library() {
  static void* const handle = [] {
    void* h = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
    return h != nullptr ? h : dlopen("libEGL.so", RTLD_NOW | RTLD_LOCAL);
  }();
  return handle;
}

template <typename F>
F Symbol(const char* name) {
  void* lib = Library();
  return lib == nullptr ? nullptr : reinterpret_cast<F>(dlsym(lib, name));
}

}  // namespace

#define ENVPOOL_EGL_HIDDEN extern "C" __attribute__((visibility("hidden")))

ENVPOOL_EGL_HIDDEN EGLBoolean eglBindAPI(EGLenum api) {
  static const auto f = Symbol<EGLBoolean (*)(EGLenum)>("eglBindAPI");
  return f == nullptr ? kFalse : f(api);
}

ENVPOOL_EGL_HIDDEN EGLBoolean eglChooseConfig(EGLDisplay dpy, const EGLint* attribs,
                                              EGLConfig* configs, EGLint size, EGLint* num) {
  static const auto f =
      Symbol<EGLBoolean (*)(EGLDisplay, const EGLint*, EGLConfig*, EGLint, EGLint*)>(
          "eglChooseConfig");
  return f == nullptr ? kFalse : f(dpy, attribs, configs, size, num);
}

ENVPOOL_EGL_HIDDEN EGLContext eglCreateContext(EGLDisplay dpy, EGLConfig config,
                                               EGLContext share, const EGLint* attribs) {
  static const auto f =
      Symbol<EGLContext (*)(EGLDisplay, EGLConfig, EGLContext, const EGLint*)>(
          "eglCreateContext");
  return f == nullptr ? nullptr : f(dpy, config, share, attribs);
}

ENVPOOL_EGL_HIDDEN EGLSurface eglCreatePbufferSurface(EGLDisplay dpy, EGLConfig config,
                                                      const EGLint* attribs) {
  static const auto f = Symbol<EGLSurface (*)(EGLDisplay, EGLConfig, const EGLint*)>(
      "eglCreatePbufferSurface");
  return f == nullptr ? nullptr : f(dpy, config, attribs);
}

ENVPOOL_EGL_HIDDEN EGLint eglGetError() {
  static const auto f = Symbol<EGLint (*)()>("eglGetError");
  return f == nullptr ? kNotInitialized : f();
}

ENVPOOL_EGL_HIDDEN EGLProc eglGetProcAddress(const char* name) {
  static const auto f = Symbol<EGLProc (*)(const char*)>("eglGetProcAddress");
  return f == nullptr ? nullptr : f(name);
}

ENVPOOL_EGL_HIDDEN EGLBoolean eglInitialize(EGLDisplay dpy, EGLint* major, EGLint* minor) {
  static const auto f = Symbol<EGLBoolean (*)(EGLDisplay, EGLint*, EGLint*)>("eglInitialize");
  return f == nullptr ? kFalse : f(dpy, major, minor);
}

ENVPOOL_EGL_HIDDEN EGLBoolean eglMakeCurrent(EGLDisplay dpy, EGLSurface draw, EGLSurface read,
                                             EGLContext ctx) {
  static const auto f =
      Symbol<EGLBoolean (*)(EGLDisplay, EGLSurface, EGLSurface, EGLContext)>("eglMakeCurrent");
  return f == nullptr ? kFalse : f(dpy, draw, read, ctx);
}
