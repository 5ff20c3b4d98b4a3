// The SDL functions the gfootball engine calls (33 of SDL 2, SDL_ttf and
// SDL_gfx), defined here as forwarders to the libraries LoadSdl opened
// (sdl_loader.h). Each is declared hidden: the engine's static library binds
// to these inside envpool._gfootball, and no other library of the process sees
// them (pygame or another SDL user keeps its own). The headers give every
// signature, so a forwarder that differed from SDL's declaration would not
// compile.
#include "envs/gfootball/sdl_loader.h"

#include <dlfcn.h>

#include <array>
#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#define DECLSPEC __attribute__((visibility("hidden")))
#pragma GCC visibility push(hidden)
#include <SDL.h>
#include <SDL2_rotozoom.h>
#include <SDL_ttf.h>
#pragma GCC visibility pop

namespace envpool::gfootball {
namespace {

enum Lib : std::size_t { kSdl, kTtf, kGfx, kNumLibs };

// Each library's file names: the SONAME a system package installs, and the plain name
// the pysdl2-dll wheel ships.
constexpr std::array<std::array<const char*, 2>, kNumLibs> kFiles = {{
    {"libSDL2-2.0.so.0", "libSDL2-2.0.so"},
    {"libSDL2_ttf-2.0.so.0", "libSDL2_ttf-2.0.so"},
    {"libSDL2_gfx-1.0.so.0", "libSDL2_gfx-1.0.so"},
}};

// What the engine calls, by library (the forwarders below, one each).
constexpr std::array<std::pair<Lib, const char*>, 33> kFunctions = {{
    {kSdl, "SDL_ConvertSurface"},   {kSdl, "SDL_ConvertSurfaceFormat"},
    {kSdl, "SDL_CreateRGBSurface"}, {kSdl, "SDL_CreateWindow"},
    {kSdl, "SDL_FillRect"},         {kSdl, "SDL_FreeSurface"},
    {kSdl, "SDL_GL_CreateContext"}, {kSdl, "SDL_GL_GetProcAddress"},
    {kSdl, "SDL_GL_MakeCurrent"},   {kSdl, "SDL_GL_SetAttribute"},
    {kSdl, "SDL_GL_SwapWindow"},    {kSdl, "SDL_GetError"},
    {kSdl, "SDL_GetRGB"},           {kSdl, "SDL_GetRGBA"},
    {kSdl, "SDL_Init"},             {kSdl, "SDL_LoadBMP_RW"},
    {kSdl, "SDL_LockSurface"},      {kSdl, "SDL_MapRGB"},
    {kSdl, "SDL_MapRGBA"},          {kSdl, "SDL_Quit"},
    {kSdl, "SDL_RWFromConstMem"},   {kSdl, "SDL_SetError"},
    {kSdl, "SDL_UnlockSurface"},    {kSdl, "SDL_UpperBlit"},
    {kTtf, "TTF_CloseFont"},        {kTtf, "TTF_GetFontOutline"},
    {kTtf, "TTF_Init"},             {kTtf, "TTF_OpenFontIndexRW"},
    {kTtf, "TTF_Quit"},             {kTtf, "TTF_RenderUTF8_Blended"},
    {kTtf, "TTF_SetFontOutline"},   {kTtf, "TTF_SizeUTF8"},
    {kGfx, "zoomSurface"},
}};

constexpr const char* kInstallHint =
    "the gfootball envs need SDL 2, SDL_ttf and SDL_gfx at run time: pip install pysdl2-dll "
    "(envpool's gfootball extra installs it), or from the system (Debian / Ubuntu: apt install "
    "libsdl2-2.0-0 libsdl2-ttf-2.0-0 libsdl2-gfx-1.0-0)";

struct Loaded {
  std::mutex mutex;
  std::array<void*, kNumLibs> handles{};
  std::array<void*, kFunctions.size()> symbols{};
  std::string source;
  bool ok = false;
};

Loaded& State() {
  static Loaded state;
  return state;
}

// Opens the three libraries from `dir` ("" = the system's search), all or none.
bool OpenAll(const std::string& dir, std::array<void*, kNumLibs>& handles, std::string& why) {
  for (std::size_t lib = 0; lib < kNumLibs; ++lib) {
    for (const char* file : kFiles[lib]) {
      const std::string path = dir.empty() ? file : dir + "/" + file;
      handles[lib] = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (handles[lib] != nullptr) break;
      const char* err = dlerror();
      why = err != nullptr ? err : path + ": not found";
    }
    if (handles[lib] == nullptr) {
      for (std::size_t i = 0; i < lib; ++i) dlclose(handles[i]);
      handles = {};
      return false;
    }
  }
  return true;
}

void* Symbol(std::size_t index) {
  Loaded& state = State();
  {
    std::lock_guard<std::mutex> lock(state.mutex);
    if (state.ok) return state.symbols[index];
  }
  LoadSdl({});  // (throws where the libraries are missing)
  return State().symbols[index];
}

constexpr std::size_t IndexOf(const char* name) {
  for (std::size_t i = 0; i < kFunctions.size(); ++i) {
    const char* a = kFunctions[i].second;
    const char* b = name;
    while (*a != '\0' && *a == *b) {
      ++a;
      ++b;
    }
    if (*a == *b) return i;
  }
  return kFunctions.size();
}

}  // namespace

void LoadSdl(const std::vector<std::string>& dirs) {
  Loaded& state = State();
  std::lock_guard<std::mutex> lock(state.mutex);
  if (state.ok) return;
  std::string tried;
  std::vector<std::string> places = dirs;
  places.emplace_back();  // then the system's search
  for (const std::string& dir : places) {
    std::array<void*, kNumLibs> handles{};
    std::string why;
    if (!OpenAll(dir, handles, why)) {
      tried += "\n  " + (dir.empty() ? std::string("the system's libraries") : dir) + ": " + why;
      continue;
    }
    std::array<void*, kFunctions.size()> symbols{};
    std::string absent;
    for (std::size_t i = 0; i < kFunctions.size(); ++i) {
      symbols[i] = dlsym(handles[kFunctions[i].first], kFunctions[i].second);
      if (symbols[i] == nullptr) absent += std::string(absent.empty() ? "" : ", ") + kFunctions[i].second;
    }
    if (!absent.empty()) {
      for (void* h : handles) dlclose(h);
      tried += "\n  " + (dir.empty() ? std::string("the system's libraries") : dir) +
               ": they lack " + absent;
      continue;
    }
    state.handles = handles;
    state.symbols = symbols;
    state.source = dir.empty() ? "the system" : dir;
    state.ok = true;
    return;
  }
  throw std::runtime_error(std::string(kInstallHint) + ". Tried:" + tried);
}

std::string SdlSource() {
  Loaded& state = State();
  std::lock_guard<std::mutex> lock(state.mutex);
  return state.ok ? state.source : std::string();
}

}  // namespace envpool::gfootball

// The forwarders. `name` must be in kFunctions (checked at compile time).
#define ENVPOOL_SDL_FORWARD(ret, name, params, args)                                    \
  extern "C" ret name params {                                                          \
    constexpr std::size_t kIndex = envpool::gfootball::IndexOf(#name);                  \
    static_assert(kIndex < envpool::gfootball::kFunctions.size(), #name " is not listed"); \
    static const auto f = reinterpret_cast<decltype(&::name)>(                          \
        envpool::gfootball::Symbol(kIndex));                                            \
    return f args;                                                                      \
  }

ENVPOOL_SDL_FORWARD(SDL_Surface*, SDL_ConvertSurface,
                    (SDL_Surface * src, const SDL_PixelFormat* fmt, Uint32 flags),
                    (src, fmt, flags))
ENVPOOL_SDL_FORWARD(SDL_Surface*, SDL_ConvertSurfaceFormat,
                    (SDL_Surface * src, Uint32 pixel_format, Uint32 flags),
                    (src, pixel_format, flags))
ENVPOOL_SDL_FORWARD(SDL_Surface*, SDL_CreateRGBSurface,
                    (Uint32 flags, int width, int height, int depth, Uint32 r, Uint32 g,
                     Uint32 b, Uint32 a),
                    (flags, width, height, depth, r, g, b, a))
ENVPOOL_SDL_FORWARD(SDL_Window*, SDL_CreateWindow,
                    (const char* title, int x, int y, int w, int h, Uint32 flags),
                    (title, x, y, w, h, flags))
ENVPOOL_SDL_FORWARD(int, SDL_FillRect, (SDL_Surface * dst, const SDL_Rect* rect, Uint32 color),
                    (dst, rect, color))
ENVPOOL_SDL_FORWARD(void, SDL_FreeSurface, (SDL_Surface * surface), (surface))
ENVPOOL_SDL_FORWARD(SDL_GLContext, SDL_GL_CreateContext, (SDL_Window * window), (window))
ENVPOOL_SDL_FORWARD(void*, SDL_GL_GetProcAddress, (const char* proc), (proc))
ENVPOOL_SDL_FORWARD(int, SDL_GL_MakeCurrent, (SDL_Window * window, SDL_GLContext context),
                    (window, context))
ENVPOOL_SDL_FORWARD(int, SDL_GL_SetAttribute, (SDL_GLattr attr, int value), (attr, value))
ENVPOOL_SDL_FORWARD(void, SDL_GL_SwapWindow, (SDL_Window * window), (window))
ENVPOOL_SDL_FORWARD(const char*, SDL_GetError, (void), ())
ENVPOOL_SDL_FORWARD(void, SDL_GetRGB,
                    (Uint32 pixel, const SDL_PixelFormat* format, Uint8* r, Uint8* g, Uint8* b),
                    (pixel, format, r, g, b))
ENVPOOL_SDL_FORWARD(void, SDL_GetRGBA,
                    (Uint32 pixel, const SDL_PixelFormat* format, Uint8* r, Uint8* g, Uint8* b,
                     Uint8* a),
                    (pixel, format, r, g, b, a))
ENVPOOL_SDL_FORWARD(int, SDL_Init, (Uint32 flags), (flags))
ENVPOOL_SDL_FORWARD(SDL_Surface*, SDL_LoadBMP_RW, (SDL_RWops * src, int freesrc), (src, freesrc))
ENVPOOL_SDL_FORWARD(int, SDL_LockSurface, (SDL_Surface * surface), (surface))
ENVPOOL_SDL_FORWARD(Uint32, SDL_MapRGB, (const SDL_PixelFormat* format, Uint8 r, Uint8 g, Uint8 b),
                    (format, r, g, b))
ENVPOOL_SDL_FORWARD(Uint32, SDL_MapRGBA,
                    (const SDL_PixelFormat* format, Uint8 r, Uint8 g, Uint8 b, Uint8 a),
                    (format, r, g, b, a))
ENVPOOL_SDL_FORWARD(void, SDL_Quit, (void), ())
ENVPOOL_SDL_FORWARD(SDL_RWops*, SDL_RWFromConstMem, (const void* mem, int size), (mem, size))
ENVPOOL_SDL_FORWARD(void, SDL_UnlockSurface, (SDL_Surface * surface), (surface))
ENVPOOL_SDL_FORWARD(int, SDL_UpperBlit,
                    (SDL_Surface * src, const SDL_Rect* srcrect, SDL_Surface* dst,
                     SDL_Rect* dstrect),
                    (src, srcrect, dst, dstrect))
ENVPOOL_SDL_FORWARD(void, TTF_CloseFont, (TTF_Font * font), (font))
ENVPOOL_SDL_FORWARD(int, TTF_GetFontOutline, (const TTF_Font* font), (font))
ENVPOOL_SDL_FORWARD(int, TTF_Init, (void), ())
ENVPOOL_SDL_FORWARD(TTF_Font*, TTF_OpenFontIndexRW,
                    (SDL_RWops * src, int freesrc, int ptsize, long index),
                    (src, freesrc, ptsize, index))
ENVPOOL_SDL_FORWARD(void, TTF_Quit, (void), ())
ENVPOOL_SDL_FORWARD(SDL_Surface*, TTF_RenderUTF8_Blended,
                    (TTF_Font * font, const char* text, SDL_Color fg), (font, text, fg))
ENVPOOL_SDL_FORWARD(void, TTF_SetFontOutline, (TTF_Font * font, int outline), (font, outline))
ENVPOOL_SDL_FORWARD(int, TTF_SizeUTF8, (TTF_Font * font, const char* text, int* w, int* h),
                    (font, text, w, h))
ENVPOOL_SDL_FORWARD(SDL_Surface*, zoomSurface,
                    (SDL_Surface * src, double zoomx, double zoomy, int smooth),
                    (src, zoomx, zoomy, smooth))

// SDL_SetError is variadic: the message is formatted here and handed on whole.
extern "C" int SDL_SetError(SDL_PRINTF_FORMAT_STRING const char* fmt, ...) {
  constexpr std::size_t index = envpool::gfootball::IndexOf("SDL_SetError");
  static const auto f =
      reinterpret_cast<int (*)(const char*, ...)>(envpool::gfootball::Symbol(index));
  char message[1024];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(message, sizeof(message), fmt, ap);
  va_end(ap);
  return f("%s", message);
}
