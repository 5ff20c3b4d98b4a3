// procgen's images (resources.cpp), read from its asset folder at run time: each sprite
// is QImage(path).convertToFormat(Format_ARGB32_Premultiplied), each background
// .convertToFormat(Format_RGB32), and a reflected sprite QImage::mirrored(true, false).
// The pool's envs share one store (the images are read once, on first use, and never
// change after).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include "envs/common/draw/png.h"
#include "envs/procgen/qt_paint.h"

namespace envpool::procgen {

enum class ImageKind { kSprite, kBackground };

class AssetStore {
 public:
  explicit AssetStore(std::string root) : root_(std::move(root)) {
    if (!root_.empty() && root_.back() != '/') root_ += '/';
  }

  const std::string& root() const { return root_; }

  // The image at `relpath` under the asset folder, converted as procgen converts it;
  // `mirrored`: flipped left to right.
  std::shared_ptr<const Image> Get(const std::string& relpath, ImageKind kind,
                                   bool mirrored = false) {
    const std::string key = relpath + (kind == ImageKind::kSprite ? "|s" : "|b") +
                            (mirrored ? "|m" : "");
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = images_.find(key);
    if (found != images_.end()) return found->second;
    std::shared_ptr<const Image> image;
    if (mirrored) {
      image = std::make_shared<const Image>(Mirror(*GetLocked(relpath, kind)));
    } else {
      image = GetLocked(relpath, kind);
    }
    images_[key] = image;
    return image;
  }

 private:
  std::shared_ptr<const Image> GetLocked(const std::string& relpath, ImageKind kind) {
    const std::string key = relpath + (kind == ImageKind::kSprite ? "|s" : "|b");
    auto found = images_.find(key);
    if (found != images_.end()) return found->second;
    if (root_.empty()) {
      throw std::runtime_error("procgen: no asset folder (docs/procgen.md)");
    }
    const draw::RgbaImage rgba = draw::ReadPng(root_ + relpath);
    auto image = std::make_shared<Image>();
    image->width = rgba.width;
    image->height = rgba.height;
    image->opaque = kind == ImageKind::kBackground;
    image->pixels.resize(static_cast<std::size_t>(rgba.width) * rgba.height);
    for (std::size_t i = 0; i < image->pixels.size(); ++i) {
      const std::uint8_t* p = rgba.pixels.data() + 4 * i;
      const std::uint32_t argb = (std::uint32_t{p[3]} << 24) | (std::uint32_t{p[0]} << 16) |
                                 (std::uint32_t{p[1]} << 8) | std::uint32_t{p[2]};
      // RGB32 keeps the colour and sets alpha to 0xff; ARGB32_Premultiplied multiplies
      // the colour by alpha / 255 (qPremultiply)
      image->pixels[i] = kind == ImageKind::kBackground ? (argb | 0xff000000U)
                                                        : qt::Premultiply(argb);
    }
    images_[key] = image;
    return image;
  }

  static Image Mirror(const Image& in) {
    Image out = in;
    for (int y = 0; y < in.height; ++y) {
      for (int x = 0; x < in.width; ++x) {
        out.pixels[static_cast<std::size_t>(y) * in.width + x] =
            in.pixels[static_cast<std::size_t>(y) * in.width + (in.width - 1 - x)];
      }
    }
    return out;
  }

  std::string root_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const Image>> images_;
};

}  // namespace envpool::procgen
