// What the classic-control envs share for render(): gymnasium draws each at
// one fixed size from one view, so RenderSize accepts that size (or 0, the
// env's own) and camera -1 / 0 only.
#pragma once

#include <stdexcept>
#include <string>

#include "core/env.h"

namespace envpool::draw {

// The frame of a picture `w` x `h` at `fps`, or std::invalid_argument naming
// `env` for any other size or camera.
inline FrameSize FixedFrame(const char* env, int w, int h, double fps, int width, int height,
                            int camera_id) {
  if (camera_id != -1 && camera_id != 0) {
    throw std::invalid_argument(std::string(env) + " has one view: camera_id must be -1 or 0, got " +
                                std::to_string(camera_id));
  }
  if ((width != 0 && width != w) || (height != 0 && height != h)) {
    const std::string hs = std::to_string(h), ws = std::to_string(w);
    throw std::invalid_argument(std::string(env) + " frames are " + hs + " x " + ws +
                                " (gymnasium's): render_height and render_width must be 0, " +
                                hs + " and " + ws);
  }
  return FrameSize{h, w, fps};
}

}  // namespace envpool::draw
