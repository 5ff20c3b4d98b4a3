// MuJoCo's own renderer (mjv_updateScene, mjr_render, mjr_readPixels) in a
// headless GL context: what gymnasium's OffScreenViewer and dm_control's
// Camera.render do, in C++, for one env.
//
// A SceneRenderer owns a GL context (gl_context.h), the mjrContext made in it
// (the model's meshes, textures and height fields uploaded to GL, and an
// offscreen framebuffer) and an mjvScene. Every GL call runs inside a
// GlContext::Current scope, on whatever thread draws, and the mjrContext is
// freed with its GL context current.
//
// Envs draw concurrently, each in its own GL context. libmujoco keeps the GL
// function pointers it looks up (through eglGetProcAddress /
// OSMesaGetProcAddress) in its own globals and looks them up again in every
// mjr_makeContext. So a renderer is made (and freed) holding GlPointers()
// exclusively and every draw holds it shared: no env reads those pointers
// while another env's mjr_makeContext rewrites them.
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/common/gl_context.h"

namespace envpool::mjrender {

// The largest frame side drawn (MuJoCo's offscreen buffers are GL renderbuffers).
constexpr int kMaxSide = 8192;

// Checks a requested frame size (0 is the default) and camera id; the size drawn.
inline std::pair<int, int> CheckFrame(const mjModel* m, int width, int height, int camera_id,
                                      int default_width, int default_height,
                                      const char* family) {
  if (width < 0 || height < 0 || width > kMaxSide || height > kMaxSide) {
    throw std::invalid_argument(std::string(family) + " frames: render_width and render_height "
                                "must be in 0 .. " + std::to_string(kMaxSide) +
                                " (0: the default), got " + std::to_string(width) + " x " +
                                std::to_string(height));
  }
  if (camera_id < -1 || camera_id >= m->ncam) {
    throw std::invalid_argument(std::string(family) + " frames: camera_id must be -1 (the "
                                "default view) or one of the model's " +
                                std::to_string(m->ncam) + " cameras (0 .. " +
                                std::to_string(m->ncam - 1) + "), got " +
                                std::to_string(camera_id));
  }
  return {width == 0 ? default_width : width, height == 0 ? default_height : height};
}

// The lock over libmujoco's global GL function pointers (see above): exclusive
// to make or free an mjrContext, shared to draw with one. It stands for state
// that libmujoco keeps once per process, so there is one per process too.
inline std::shared_mutex& GlPointers() {
  static std::shared_mutex mu;
  return mu;
}

class SceneRenderer {
 public:
  // `upload`: the model whose assets go to GL (textures, meshes, height
  // fields); `scene_model`: the model the scene is drawn from (the same model,
  // or a copy with the same elements). The offscreen buffer is at least the
  // model's <visual><global offwidth/offheight>, grown to width x height.
  SceneRenderer(const mjModel* upload, const mjModel* scene_model, int width, int height,
                int max_geom) {
    mjr_defaultContext(&con_);
    mjv_defaultScene(&scn_);
    mjv_defaultOption(&opt_);
    mjv_defaultPerturb(&pert_);
    std::unique_lock<std::shared_mutex> pointers(GlPointers());
    gl::GlContext::Current current(gl_);
    mjr_makeContext(upload, &con_, mjFONTSCALE_150);
    made_ = true;
    if (con_.offFBO == 0) {
      mjr_freeContext(&con_);
      made_ = false;
      throw gl::GlUnavailable("MuJoCo could not make its offscreen framebuffer in the GL "
                              "context. " + gl::InstallHint(gl::BackendFromEnvironment()));
    }
    Grow(width, height);
    mjv_makeScene(scene_model, &scn_, max_geom);
  }
  SceneRenderer(const SceneRenderer&) = delete;
  SceneRenderer& operator=(const SceneRenderer&) = delete;
  ~SceneRenderer() {
    mjv_freeScene(&scn_);
    if (made_) {
      try {
        std::unique_lock<std::shared_mutex> pointers(GlPointers());
        gl::GlContext::Current current(gl_);
        mjr_freeContext(&con_);
      } catch (...) {  // the GL context is gone with gl_ anyway
      }
    }
  }

  // Draws m / d seen by `cam` into `out`, height x width x 3 bytes, top row
  // first (mjr_readPixels' rows flipped, as both references do).
  // `before_render`, if set, runs with the GL context current (height field
  // uploads).
  template <class BeforeRender>
  void Draw(const mjModel* m, mjData* d, mjvCamera* cam, int width, int height,
            std::uint8_t* out, BeforeRender&& before_render) {
    std::shared_lock<std::shared_mutex> pointers(GlPointers());
    gl::GlContext::Current current(gl_);
    before_render(con_);
    Grow(width, height);
    // mjv_updateScene places an infinite plane's grid from the scene's camera of the update
    // before (it adds the geoms before it updates the camera): a fresh scene's first update
    // draws the plane from a camera at the origin, every later one from the real camera. So
    // a fresh scene is updated twice, and a frame depends on the state alone, the first as
    // every other (a pixel env's render() after reset then equals its observation).
    if (!primed_) {
      mjv_updateScene(m, d, &opt_, &pert_, cam, mjCAT_ALL, &scn_);
      primed_ = true;
    }
    mjv_updateScene(m, d, &opt_, &pert_, cam, mjCAT_ALL, &scn_);
    mjr_setBuffer(mjFB_OFFSCREEN, &con_);
    const mjrRect viewport{0, 0, width, height};
    mjr_render(viewport, &scn_, &con_);
    const std::size_t row = static_cast<std::size_t>(width) * 3;
    pixels_.resize(row * static_cast<std::size_t>(height));
    mjr_readPixels(pixels_.data(), nullptr, viewport, &con_);
    for (int y = 0; y < height; ++y) {
      std::memcpy(out + row * static_cast<std::size_t>(y),
                  pixels_.data() + row * static_cast<std::size_t>(height - 1 - y), row);
    }
  }
  void Draw(const mjModel* m, mjData* d, mjvCamera* cam, int width, int height,
            std::uint8_t* out) {
    Draw(m, d, cam, width, height, out, [](const mjrContext&) {});
  }

  // The scene's visualisation options (mjv_defaultOption until changed).
  mjvOption& Options() { return opt_; }

 private:
  void Grow(int width, int height) {
    if (width > con_.offWidth || height > con_.offHeight) {
      mjr_resizeOffscreen(std::max(width, con_.offWidth), std::max(height, con_.offHeight), &con_);
    }
  }

  gl::GlContext gl_;
  mjrContext con_;
  mjvScene scn_;
  mjvOption opt_;
  mjvPerturb pert_;
  bool made_ = false;
  bool primed_ = false;  // the scene has been updated once (Draw)
  std::vector<std::uint8_t> pixels_;
};

}  // namespace envpool::mjrender
