// What the toy-text pictures share (FrozenLake, CliffWalking, Taxi): gymnasium
// 1.4 draws them in `_render_gui("rgb_array")` by blitting the sprite images of
// its toy_text/img folder (8-bit RGBA PNGs) onto a pygame surface. The folder
// is the installed gymnasium's, passed by envpool.tasks.toy_text as the hidden
// keyword `_img_dir`; each env reads an image on the first frame that needs it.
// The drawing calls are the classic-control ones (raster.h, sprite.h, png.h).
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "envs/common/draw/png.h"
#include "envs/common/draw/raster.h"
#include "envs/common/draw/sprite.h"

namespace envpool::toy_text {

using draw::Canvas;
using draw::Rgb;
using draw::RgbaImage;

// gymnasium's metadata["render_fps"] of the toy-text envs.
inline constexpr double kToyTextFps = 4.0;

// The sprite images of one env: `Get("taxi/house.png")` reads `<dir>/taxi/house.png`
// once and keeps it. An unreadable image raises std::runtime_error naming the file.
class Sprites {
 public:
  Sprites(std::string dir, const char* env) : dir_(std::move(dir)), env_(env) {}

  const RgbaImage& Get(const std::string& name) {
    auto it = images_.find(name);
    if (it != images_.end()) return it->second;
    if (dir_.empty()) {
      throw std::runtime_error(env_ + " draws gymnasium's toy_text images, but their folder "
                               "is not known (the hidden keyword _img_dir is empty: is "
                               "gymnasium installed?)");
    }
    return images_.emplace(name, draw::ReadRgbaPng(dir_ + "/" + name)).first->second;
  }

 private:
  std::string dir_;
  std::string env_;
  std::map<std::string, RgbaImage> images_;
};

// pygame.draw.rect(surface, colour, (x, y, w, h), 1): the rectangle's one-pixel border.
inline void RectOutline(Canvas& canvas, int x, int y, int w, int h, const Rgb& c) {
  if (w <= 0 || h <= 0) return;
  canvas.HLine(x, x + w - 1, y, c);
  canvas.HLine(x, x + w - 1, y + h - 1, c);
  canvas.VLine(x, y, y + h - 1, c);
  canvas.VLine(x + w - 1, y, y + h - 1, c);
}

}  // namespace envpool::toy_text
