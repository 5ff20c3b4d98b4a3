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

// The frame of a picture drawn `w` x `h` at `fps` and, for a smaller render_width /
// render_height, shrunk to that size as pygame.transform.smoothscale shrinks it (ShrinkRgb,
// the filter gymnasium's own smaller pictures come from: CarRacing's observation); 0 is the
// picture's own size. A larger size, or a camera other than -1 / 0, is
// std::invalid_argument naming `env`.
inline FrameSize ShrinkableFrame(const char* env, int w, int h, double fps, int width,
                                 int height, int camera_id) {
  if (camera_id != -1 && camera_id != 0) {
    throw std::invalid_argument(std::string(env) + " has one view: camera_id must be -1 or 0, got " +
                                std::to_string(camera_id));
  }
  // The filter's 16-bit sums hold a shrink by less than 200 (ShrinkPlan): a side of n
  // pixels shrinks to n / 200 + 1 at the least.
  const int fw = width == 0 ? w : width, fh = height == 0 ? h : height;
  const int min_w = w / 200 + 1, min_h = h / 200 + 1;
  if (fw < min_w || fh < min_h || fw > w || fh > h) {
    const std::string hs = std::to_string(h), ws = std::to_string(w);
    throw std::invalid_argument(std::string(env) + " frames are drawn " + hs + " x " + ws +
                                " (gymnasium's) and shrunk as pygame's smoothscale shrinks "
                                "them: render_height must be " + std::to_string(min_h) +
                                " to " + hs + " and render_width " + std::to_string(min_w) +
                                " to " + ws + " (0: " + hs + " x " + ws + ")");
  }
  return FrameSize{fh, fw, fps};
}

}  // namespace envpool::draw
