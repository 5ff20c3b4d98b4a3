// SDL 2, SDL_ttf and SDL_gfx for the gfootball engine, loaded at run time
// (sdl_loader.cc) instead of linked. The engine needs them even when it draws
// nothing (it opens its font with SDL_ttf and builds SDL surfaces when a game
// starts), but linked they would pull a desktop's worth of libraries (audio,
// X11, Wayland) into the wheel. Loaded, they come from the `pysdl2-dll` wheel
// (envpool's gfootball extra) or from the system.
#pragma once

#include <string>
#include <vector>

namespace envpool::gfootball {

// Loads the three libraries once: from the first folder of `dirs` that holds
// all three, else by the system's library search (libSDL2-2.0.so.0, ...), and
// resolves every function the engine calls. Throws std::runtime_error naming
// what is missing and how to install it. Later calls return at once (and
// ignore `dirs`) once the libraries are loaded.
void LoadSdl(const std::vector<std::string>& dirs);

// Where the libraries were loaded from ("" before LoadSdl succeeded).
std::string SdlSource();

}  // namespace envpool::gfootball
