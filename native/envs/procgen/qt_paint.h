// The part of Qt 5.13.2's raster paint engine (QPainter on a QImage) that procgen 0.10.7's
// 64x64 observations use, restated so that the frames are the same pixel for pixel:
// procgen paints with no antialiasing and no smooth pixmap transform onto a
// QImage::Format_RGB32 canvas, with
//   * fillRect(QRectF, QColor): the rect rounded to whole pixels (qRound of its left, top,
//     right and bottom edges), filled with the colour;
//   * drawImage(QRectF target, QImage): the image scaled to the target by nearest
//     neighbour in 16.16 fixed point (qblendfunctions_p.h qt_scale_image_32bit), or, for a
//     premultiplied ARGB image at full opacity, by the SSE2 variant of the same loop
//     (qdrawhelper_sse2.cpp qt_scale_image_argb32_on_argb32_sse2), which computes its step
//     and its first sample from other roundings; an ARGB image is blended SourceOver,
//     with the painter's opacity when it is below 1;
//   * translate + rotate, then drawImage: the image mapped through the rotation
//     (qblendfunctions_p.h qt_transform_image: the target quad split in three trapezoids,
//     each scanned row by row in 16.16 fixed point, source coordinates clamped to the image).
// Pixels are stored as Qt stores them: 0xAARRGGBB words (ARGB32 premultiplied for the
// sprites, RGB32 with alpha 0xff for the canvas and the backgrounds).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace envpool::procgen {

// A QImage of 32-bit pixels: `opaque` for Format_RGB32, else Format_ARGB32_Premultiplied.
struct Image {
  int width = 0;
  int height = 0;
  bool opaque = false;
  std::vector<std::uint32_t> pixels;
};

// A QRectF: doubles (qreal), as procgen builds them from floats.
struct RectF {
  double x = 0, y = 0, w = 0, h = 0;
};

namespace qt {

// qRound(double) of Qt 5
inline int Round(double d) {
  return d >= 0.0 ? static_cast<int>(d + 0.5)
                  : static_cast<int>(d - static_cast<double>(static_cast<int>(d - 1)) + 0.5) +
                        static_cast<int>(d - 1);
}
inline int Floor(double d) { return static_cast<int>(std::floor(d)); }
inline int Ceil(double d) { return static_cast<int>(std::ceil(d)); }

// BYTE_MUL: each channel times a / 255, rounded as Qt's qt_div_255
inline std::uint32_t ByteMul(std::uint32_t x, std::uint32_t a) {
  std::uint32_t t = (x & 0xff00ffU) * a;
  t = (t + ((t >> 8) & 0xff00ffU) + 0x800080U) >> 8;
  t &= 0xff00ffU;
  x = ((x >> 8) & 0xff00ffU) * a;
  x = x + ((x >> 8) & 0xff00ffU) + 0x800080U;
  x &= 0xff00ff00U;
  return x | t;
}
// INTERPOLATE_PIXEL_255: x * a / 255 + y * b / 255 per channel
inline std::uint32_t Interpolate255(std::uint32_t x, std::uint32_t a, std::uint32_t y,
                                    std::uint32_t b) {
  std::uint32_t t = (x & 0xff00ffU) * a + (y & 0xff00ffU) * b;
  t = (t + ((t >> 8) & 0xff00ffU) + 0x800080U) >> 8;
  t &= 0xff00ffU;
  x = ((x >> 8) & 0xff00ffU) * a + ((y >> 8) & 0xff00ffU) * b;
  x = x + ((x >> 8) & 0xff00ffU) + 0x800080U;
  x &= 0xff00ff00U;
  return x | t;
}
// qPremultiply
inline std::uint32_t Premultiply(std::uint32_t x) {
  const std::uint32_t a = x >> 24;
  std::uint32_t t = (x & 0xff00ffU) * a;
  t = (t + ((t >> 8) & 0xff00ffU) + 0x800080U) >> 8;
  t &= 0xff00ffU;
  x = ((x >> 8) & 0xffU) * a;
  x = x + ((x >> 8) & 0xffU) + 0x80U;
  x &= 0xff00U;
  return x | t | (a << 24);
}

}  // namespace qt

// A QPainter on a Format_RGB32 canvas of width x height, with the state procgen uses:
// an opacity (setOpacity) and no transform.
class Painter {
 public:
  Painter(int width, int height) : width_(width), height_(height), canvas_(width * height) {}

  int width() const { return width_; }
  int height() const { return height_; }
  const std::vector<std::uint32_t>& canvas() const { return canvas_; }

  // setOpacity: clamped to [0, 1]; the raster engine blends with int(opacity * 256) (truncated:
  // coinrun's fading trails show it)
  void SetOpacity(double opacity) { opacity_ = std::min(1.0, std::max(0.0, opacity)); }
  double opacity() const { return opacity_; }

  // save() / restore() of the opacity and the transform
  void Save() { saved_.push_back({opacity_, m_}); }
  void Restore() {
    if (saved_.empty()) return;
    opacity_ = saved_.back().opacity;
    m_ = saved_.back().m;
    saved_.pop_back();
  }
  // QPainter::translate / rotate (QTransform's, applied before the current transform)
  void Translate(double dx, double dy) {
    if (dx == 0 && dy == 0) return;
    if (m_.rotated) {
      m_.dx += dx * m_.m11 + dy * m_.m21;
      m_.dy += dy * m_.m22 + dx * m_.m12;
    } else {
      m_.dx += dx;
      m_.dy += dy;
    }
  }
  void Rotate(double degrees) {
    if (degrees == 0) return;
    double sina = 0, cosa = 0;
    if (degrees == 90. || degrees == -270.) {
      sina = 1;
    } else if (degrees == 270. || degrees == -90.) {
      sina = -1;
    } else if (degrees == 180.) {
      cosa = -1;
    } else {
      const double b = 0.017453292519943295769 * degrees;  // deg2rad
      sina = std::sin(b);
      cosa = std::cos(b);
    }
    if (!m_.rotated) {
      // a translation-only transform: the rotation replaces its 2 x 2 part
      m_.m11 = cosa;
      m_.m12 = sina;
      m_.m21 = -sina;
      m_.m22 = cosa;
    } else {
      const double tm11 = cosa * m_.m11 + sina * m_.m21;
      const double tm12 = cosa * m_.m12 + sina * m_.m22;
      const double tm21 = -sina * m_.m11 + cosa * m_.m21;
      const double tm22 = -sina * m_.m12 + cosa * m_.m22;
      m_.m11 = tm11;
      m_.m12 = tm12;
      m_.m21 = tm21;
      m_.m22 = tm22;
    }
    m_.rotated = true;
  }

  // fillRect(QRectF, QColor(r, g, b)) of an opaque colour
  void FillRect(const RectF& r, int red, int green, int blue) {
    int x1 = qt::Round(r.x), y1 = qt::Round(r.y);
    int x2 = qt::Round(r.x + r.w), y2 = qt::Round(r.y + r.h);
    if (x2 < x1) std::swap(x1, x2);
    if (y2 < y1) std::swap(y1, y2);
    x1 = std::max(x1, 0);
    y1 = std::max(y1, 0);
    x2 = std::min(x2, width_);
    y2 = std::min(y2, height_);
    const std::uint32_t colour = 0xff000000U | (static_cast<std::uint32_t>(red) << 16) |
                                 (static_cast<std::uint32_t>(green) << 8) |
                                 static_cast<std::uint32_t>(blue);
    const int alpha = IntOpacity();
    if (alpha == 0) return;
    // a colour at opacity o is premultiplied by qRound(o * 256) / 256 and blended SourceOver
    const std::uint32_t src =
        alpha == 256 ? colour : qt::ByteMul(colour, static_cast<std::uint32_t>(alpha * 255) >> 8);
    for (int y = y1; y < y2; ++y) {
      std::uint32_t* row = canvas_.data() + static_cast<std::size_t>(y) * width_;
      for (int x = x1; x < x2; ++x) {
        row[x] = alpha == 256 ? src : src + qt::ByteMul(row[x], (~src) >> 24);
      }
    }
  }

  // drawImage(target, image) with the whole image as the source rect
  void DrawImage(const RectF& target, const Image& image) {
    if (target.w == 0 || target.h == 0) return;  // QRectF::isEmpty: drawn as nothing
    const int alpha = IntOpacity();
    RectF r = target;
    switch (TransformType()) {
      case kTxRotate:
        if (image.opaque) throw std::logic_error("procgen: a rotated opaque image");
        if (alpha == 256) {
          Transform(target, image, [](std::uint32_t* d, std::uint32_t s) {
            *d = s + qt::ByteMul(*d, (~s) >> 24);
          });
        } else {
          const std::uint32_t a = static_cast<std::uint32_t>(alpha * 255) >> 8;
          Transform(target, image, [a](std::uint32_t* d, std::uint32_t s) {
            s = qt::ByteMul(s, a);
            *d = s + qt::ByteMul(*d, (~s) >> 24);
          });
        }
        return;
      case kTxScale:
      case kTxTranslate: {
        // qt_mapRect_non_normalizing: the mapped corners, a flip giving a negative size
        double x1, y1, x2, y2;
        MapScale(target.x, target.y, &x1, &y1);
        MapScale(target.x + target.w, target.y + target.h, &x2, &y2);
        r = RectF{x1, y1, x2 - x1, y2 - y1};
        break;
      }
      case kTxNone:
        break;
    }
    if (!image.opaque && alpha == 256) {
      ScaleSse2(r, image);
      return;
    }
    if (image.opaque && alpha == 256) {
      ScaleGeneric(r, image, [](std::uint32_t* d, std::uint32_t s) { *d = s; });
    } else if (image.opaque) {
      const std::uint32_t a = static_cast<std::uint32_t>(alpha * 255) >> 8;
      ScaleGeneric(r, image, [a](std::uint32_t* d, std::uint32_t s) {
        *d = qt::Interpolate255(s, a, *d, 255 - a);
      });
    } else {
      const std::uint32_t a = static_cast<std::uint32_t>(alpha * 255) >> 8;
      ScaleGeneric(r, image, [a](std::uint32_t* d, std::uint32_t s) {
        s = qt::ByteMul(s, a);
        *d = s + qt::ByteMul(*d, (~s) >> 24);
      });
    }
  }

  // --- aliased ellipses and cosmetic lines (jumper's compass) ---
  // A QColor(r, g, b, a) as the raster engine's solid span colour: premultiplied through
  // QRgba64 (qPremultiply, then toArgb32), which for 8-bit channels is exact.
  static std::uint32_t SolidColour(int red, int green, int blue, int alpha = 255) {
    auto premul = [alpha](int c) {
      // qt_div_65535(c16 * a16), then qt_div_257
      const std::uint32_t c16 = static_cast<std::uint32_t>(c) * 257U;
      const std::uint32_t a16 = static_cast<std::uint32_t>(alpha) * 257U;
      const std::uint64_t x = static_cast<std::uint64_t>(c16) * a16;
      const std::uint32_t p16 = static_cast<std::uint32_t>((x + (x >> 16) + 0x8000U) >> 16);
      return (p16 - (p16 >> 8) + 0x80U) >> 8;
    };
    return (static_cast<std::uint32_t>(alpha) << 24) | (premul(red) << 16) |
           (premul(green) << 8) | premul(blue);
  }

  // drawEllipse(QRectF) with no antialiasing and no transform, for a rect on whole pixels
  // (QRasterPaintEngine::drawEllipse takes its midpoint path when QRect(int(x), int(y),
  // int_dim(x, w), int_dim(y, h)) equals the rect, as qFuzzyCompare decides):
  // drawEllipse_midpoint_i's spans, each row's interior from the brush, its outline from a
  // solid pen of width 1 or less (none when has_pen is false). Colours are SolidColour's;
  // coverage is full, so a span is SourceOver of the colour (a fill when it is opaque).
  // Returns false, drawing nothing, for a rect the midpoint path does not take (procgen's
  // antialiasing-free path fill of such an ellipse is not restated).
  bool DrawEllipseMidpoint(const RectF& r, bool has_pen, std::uint32_t pen,
                           bool has_brush, std::uint32_t brush) {
    if (r.w <= 0 || r.h <= 0) return false;  // QRectF::isEmpty
    const int bx = static_cast<int>(r.x), by = static_cast<int>(r.y);
    const int bw = static_cast<int>(r.x + r.w) - static_cast<int>(r.x);
    const int bh = static_cast<int>(r.y + r.h) - static_cast<int>(r.y);
    auto fuzzy = [](double p1, double p2) {
      return std::fabs(p1 - p2) * 1000000000000. <= std::min(std::fabs(p1), std::fabs(p2));
    };
    if (!(fuzzy(bx, r.x) && fuzzy(by, r.y) && fuzzy(bw, r.w) && fuzzy(bh, r.h))) return false;
    const double a = static_cast<double>(bw) / 2;
    const double b = static_cast<double>(bh) / 2;
    double d = b * b - (a * a * b) + 0.25 * a * a;
    int x = 0;
    int y = (bh + 1) / 2;
    int startx = x;
    auto points = [&](int px, int py, int length) {
      EllipsePoints(bx, by, bw, bh, px, py, length, has_pen, pen, has_brush, brush);
    };
    // region 1
    while (a * a * (2 * y - 1) > 2 * b * b * (x + 1)) {
      if (d < 0) {  // E
        d += b * b * (2 * x + 3);
        ++x;
      } else {  // SE
        d += b * b * (2 * x + 3) + a * a * (-2 * y + 2);
        points(startx, y, x - startx + 1);
        startx = ++x;
        --y;
      }
    }
    points(startx, y, x - startx + 1);
    // region 2
    d = b * b * (x + 0.5) * (x + 0.5) + a * a * ((y - 1) * (y - 1) - b * b);
    const int miny = bh & 0x1;
    while (y > miny) {
      if (d < 0) {  // SE
        d += b * b * (2 * x + 2) + a * a * (-2 * y + 3);
        ++x;
      } else {  // S
        d += a * a * (-2 * y + 3);
      }
      --y;
      points(x, y, 1);
    }
    return true;
  }

  // drawLine(QLine) with a cosmetic (or width-1 untransformed) solid pen and no
  // antialiasing: QCosmeticStroker's aliased drawLine (26.6 fixed point, no legacy
  // rounding) with its square caps (a half pixel added at both ends; a FlatCap pen has none),
  // clipped as its clipLine clips to the canvas widened by a pixel (two on the right and
  // bottom) and then to the canvas; a line of no length is drawPoints' one pixel.
  void DrawCosmeticLine(int px1, int py1, int px2, int py2, std::uint32_t colour,
                        bool square_caps = true) {
    if (px1 == px2 && py1 == py2) {
      PlotPen(px1, py1, colour);
      return;
    }
    double rx1 = px1, ry1 = py1, rx2 = px2, ry2 = py2;
    const double xmin = -1, xmax = width_ + 1, ymin = -1, ymax = height_ + 1;
    // clipLine
    if (rx1 < xmin) {
      if (rx2 <= xmin) return;
      ry1 += (ry2 - ry1) / (rx2 - rx1) * (xmin - rx1);
      rx1 = xmin;
    } else if (rx1 > xmax) {
      if (rx2 >= xmax) return;
      ry1 += (ry2 - ry1) / (rx2 - rx1) * (xmax - rx1);
      rx1 = xmax;
    }
    if (rx2 < xmin) {
      ry2 += (ry2 - ry1) / (rx2 - rx1) * (xmin - rx2);
      rx2 = xmin;
    } else if (rx2 > xmax) {
      ry2 += (ry2 - ry1) / (rx2 - rx1) * (xmax - rx2);
      rx2 = xmax;
    }
    if (ry1 < ymin) {
      if (ry2 <= ymin) return;
      rx1 += (rx2 - rx1) / (ry2 - ry1) * (ymin - ry1);
      ry1 = ymin;
    } else if (ry1 > ymax) {
      if (ry2 >= ymax) return;
      rx1 += (rx2 - rx1) / (ry2 - ry1) * (ymax - ry1);
      ry1 = ymax;
    }
    if (ry2 < ymin) {
      rx2 += (rx2 - rx1) / (ry2 - ry1) * (ymin - ry2);
      ry2 = ymin;
    } else if (ry2 > ymax) {
      rx2 += (rx2 - rx1) / (ry2 - ry1) * (ymax - ry2);
      ry2 = ymax;
    }
    auto f26 = [](double v) { return static_cast<int>(v * 64.); };
    int x1 = f26(rx1), y1 = f26(ry1), x2 = f26(rx2), y2 = f26(ry2);
    const int dx = std::abs(x2 - x1), dy = std::abs(y2 - y1);
    auto div16 = [](int num, int den) {
      if (std::abs(num) > 0x7fff) {
        return static_cast<int>((static_cast<std::int64_t>(num) * 65536) / den);
      }
      return static_cast<int>(static_cast<std::uint32_t>(num) << 16) / den;
    };
    const bool caps = square_caps;
    if (dx < dy) {  // vertical: one pixel a row
      if (y1 > y2) {
        std::swap(y1, y2);
        std::swap(x1, x2);
      }
      const int xinc = div16(x2 - x1, y2 - y1);
      int x = static_cast<int>(static_cast<std::uint32_t>(x1) << 10);
      if (caps) {  // capAdjust
        y1 -= 32;
        x -= xinc >> 1;
        y2 += 32;
      }
      int y = (y1 + 32) >> 6;
      const int ys = (y2 + 32) >> 6;
      const int round = xinc > 0 ? 32 : 0;
      if (y != ys) {
        x += ((((y << 6) + round - y1))) * xinc >> 6;
        do {
          PlotPen(x >> 16, y, colour);
          x += xinc;
        } while (++y < ys);
      }
    } else {  // horizontal: one pixel a column
      if (dx == 0) return;
      if (x1 > x2) {
        std::swap(x1, x2);
        std::swap(y1, y2);
      }
      const int yinc = div16(y2 - y1, x2 - x1);
      int y = static_cast<int>(static_cast<std::uint32_t>(y1) << 10);
      if (caps) {
        x1 -= 32;
        y -= yinc >> 1;
        x2 += 32;
      }
      int x = (x1 + 32) >> 6;
      const int xs = (x2 + 32) >> 6;
      const int round = yinc > 0 ? 32 : 0;
      if (x != xs) {
        y += ((((x << 6) + round - x1))) * yinc >> 6;
        do {
          PlotPen(x, y >> 16, colour);
          y += yinc;
        } while (++x < xs);
      }
    }
  }

  // The canvas as RGB bytes (procgen's bgr32_to_rgb888)
  void ToRgb(std::uint8_t* out) const {
    for (std::uint32_t p : canvas_) {
      *out++ = static_cast<std::uint8_t>(p >> 16);
      *out++ = static_cast<std::uint8_t>(p >> 8);
      *out++ = static_cast<std::uint8_t>(p);
    }
  }

 private:
  int IntOpacity() const { return static_cast<int>(opacity_ * 256); }

  // A span of full coverage in a solid colour (premultiplied): SourceOver, a fill when
  // the colour is opaque (comp_func_solid_SourceOver), cut to the canvas.
  void SolidSpan(int x, int y, int len, std::uint32_t colour) {
    if (y < 0 || y >= height_ || len <= 0) return;
    int x2 = std::min(x + len, width_);
    x = std::max(x, 0);
    std::uint32_t* row = canvas_.data() + static_cast<std::size_t>(y) * width_;
    for (; x < x2; ++x) {
      row[x] = (colour >> 24) == 0xff ? colour : colour + qt::ByteMul(row[x], (~colour) >> 24);
    }
  }
  // the cosmetic stroker's drawPixelARGB32Opaque: SourceOver, inside the canvas
  void PlotPen(int x, int y, std::uint32_t colour) {
    if (x < 0 || x >= width_ || y < 0 || y >= height_) return;
    std::uint32_t& d = canvas_[static_cast<std::size_t>(y) * width_ + x];
    d = colour + qt::ByteMul(d, (~colour) >> 24);
  }

  // drawEllipsePoints: (x, y) relative to the rect's middle; the outline's spans at the
  // four mirrored places, the brush's spans between them on the top and bottom rows
  void EllipsePoints(int rx, int ry, int rw, int rh, int x, int y, int length, bool has_pen,
                     std::uint32_t pen, bool has_brush, std::uint32_t brush) {
    if (length == 0) return;
    const int midx = rx + (rw + 1) / 2;
    const int midy = ry + (rh + 1) / 2;
    x = x + midx;
    y = midy - y;
    const int o0x = midx + (midx - x) - (length - 1) - (rw & 0x1);
    const int o0len = std::min(length, x - o0x);
    const int o1x = x;
    const int o2y = midy + (midy - y) - (rh & 0x1);
    if (has_brush && o0x + o0len < o1x) {
      const int f0x = o0x + o0len - 1;
      const int f0len = std::max(0, o1x - f0x);
      SolidSpan(f0x, y, f0len, brush);
      if (y < o2y) SolidSpan(f0x, o2y, f0len, brush);  // the middle row once
    }
    if (has_pen) {
      SolidSpan(o0x, y, o0len, pen);
      SolidSpan(o1x, y, length, pen);
      if (y < o2y) {
        SolidSpan(o0x, o2y, o0len, pen);
        SolidSpan(o1x, o2y, length, pen);
      }
    }
  }

  // qt_scale_image_32bit (Qt 5.13.2): the step is int(65536 * source / target), the first
  // sample qCeil((tx1 + 0.5 - left) * (source / target) * 65536) - 1, the destination the
  // target's QRectF::toRect() cut to the canvas.
  template <class Blend>
  void ScaleGeneric(const RectF& t, const Image& image, Blend blend) {
    const double sx = image.width / t.w;
    const double sy = image.height / t.h;
    const int ix = static_cast<int>(0x00010000 * sx);
    const int iy = static_cast<int>(0x00010000 * sy);
    // normalized().toRect(): QPoint(qRound(x), qRound(y)) to QPoint(qRound(x + w) - 1, ...)
    RectF n = t;
    if (n.w < 0) { n.x += n.w; n.w = -n.w; }
    if (n.h < 0) { n.y += n.h; n.h = -n.h; }
    int l = qt::Round(n.x), top = qt::Round(n.y);
    int r = qt::Round(n.x + n.w) - 1, b = qt::Round(n.y + n.h) - 1;
    // intersected with the canvas
    l = std::max(l, 0);
    top = std::max(top, 0);
    r = std::min(r, width_ - 1);
    b = std::min(b, height_ - 1);
    if (l > r || top > b) return;
    const int tx1 = l, ty1 = top;
    int w = r - l + 1, h = b - top + 1;
    std::uint32_t basex, srcy;
    if (sx < 0) {
      const int dstx = qt::Floor((tx1 + 0.5 - (t.x + t.w)) * sx * 65536) + 1;
      basex = static_cast<std::uint32_t>(static_cast<std::int64_t>(image.width * 65536.0)) + dstx;
    } else {
      const int dstx = qt::Ceil((tx1 + 0.5 - t.x) * sx * 65536) - 1;
      basex = static_cast<std::uint32_t>(dstx);  // the source's left is 0
    }
    if (sy < 0) {
      const int dsty = qt::Floor((ty1 + 0.5 - (t.y + t.h)) * sy * 65536) + 1;
      srcy = static_cast<std::uint32_t>(static_cast<std::int64_t>(image.height * 65536.0)) + dsty;
    } else {
      const int dsty = qt::Ceil((ty1 + 0.5 - t.y) * sy * 65536) - 1;
      srcy = static_cast<std::uint32_t>(dsty);  // the source's top is 0
    }
    Loop(image, tx1, ty1, w, h, basex, srcy, ix, iy, blend);
  }

  // qt_scale_image_argb32_on_argb32_sse2 (Qt 5.13.2): the step is int(65536 / (target /
  // source)), the first sample qCeil((tx1 + 0.5 - left) * step) - 1 with the integer step,
  // the destination columns qRound(left) .. qRound(right) - 1 cut to the canvas.
  void ScaleSse2(const RectF& t, const Image& image) {
    const double sx = t.w / image.width;
    const double sy = t.h / image.height;
    const int ix = static_cast<int>(0x00010000 / sx);
    const int iy = static_cast<int>(0x00010000 / sy);
    int tx1 = qt::Round(t.x), tx2 = qt::Round(t.x + t.w);
    int ty1 = qt::Round(t.y), ty2 = qt::Round(t.y + t.h);
    if (tx2 < tx1) std::swap(tx1, tx2);
    if (ty2 < ty1) std::swap(ty1, ty2);
    tx1 = std::max(tx1, 0);
    tx2 = std::min(tx2, width_);
    if (tx1 >= tx2) return;
    ty1 = std::max(ty1, 0);
    ty2 = std::min(ty2, height_);
    if (ty1 >= ty2) return;
    const int w = tx2 - tx1, h = ty2 - ty1;
    std::uint32_t basex, srcy;
    if (sx < 0) {
      const int dstx = qt::Floor((tx1 + 0.5 - (t.x + t.w)) * ix) + 1;
      basex = static_cast<std::uint32_t>(static_cast<std::int64_t>(image.width * 65536.0)) + dstx;
    } else {
      const int dstx = qt::Ceil((tx1 + 0.5 - t.x) * ix) - 1;
      basex = static_cast<std::uint32_t>(dstx);
    }
    if (sy < 0) {
      const int dsty = qt::Floor((ty1 + 0.5 - (t.y + t.h)) * iy) + 1;
      srcy = static_cast<std::uint32_t>(static_cast<std::int64_t>(image.height * 65536.0)) + dsty;
    } else {
      const int dsty = qt::Ceil((ty1 + 0.5 - t.y) * iy) - 1;
      srcy = static_cast<std::uint32_t>(dsty);
    }
    Loop(image, tx1, ty1, w, h, basex, srcy, ix, iy, [](std::uint32_t* d, std::uint32_t s) {
      *d = s + qt::ByteMul(*d, (~s) >> 24);
    });
  }

  enum TxType { kTxNone, kTxTranslate, kTxScale, kTxRotate };
  // QTransform::type() after a rotate: entries within qFuzzyIsNull (1e-12) of 0 count as 0,
  // so a rotation by -180 degrees (sin(-pi) = -1.2e-16) is a scale by -1, drawn by the
  // scale loops with a flipped rect, not by qt_transform_image
  TxType TransformType() const {
    auto null = [](double d) { return std::fabs(d) <= 0.000000000001; };
    if (!m_.rotated) return (m_.dx != 0 || m_.dy != 0) ? kTxTranslate : kTxNone;
    if (!null(m_.m12) || !null(m_.m21)) return kTxRotate;
    if (!null(m_.m11 - 1) || !null(m_.m22 - 1)) return kTxScale;
    if (!null(m_.dx) || !null(m_.dy)) return kTxTranslate;
    return kTxNone;
  }
  // QTransform::map of a TxScale (or TxTranslate) matrix
  void MapScale(double x, double y, double* tx, double* ty) const {
    *tx = m_.m11 * x + m_.dx;
    *ty = m_.m22 * y + m_.dy;
  }

  struct Vertex {
    double x, y, u, v;  // destination (x, y) and source (u, v)
  };

  // QTransform::map of a TxRotate matrix
  void Map(double x, double y, double* tx, double* ty) const {
    *tx = m_.m11 * x + m_.m21 * y + m_.dx;
    *ty = m_.m12 * x + m_.m22 * y + m_.dy;
  }

  // qt_transform_image (Qt 5.13.2) with the whole image as the source and the canvas as
  // the clip
  template <class Blend>
  void Transform(const RectF& t, const Image& image, Blend blend) {
    enum { kTopLeft, kTopRight, kBottomRight, kBottomLeft };
    Vertex v[4];
    const double sl = 0, st = 0, sr = image.width, sb = image.height;
    v[kTopLeft].u = v[kBottomLeft].u = sl;
    v[kTopLeft].v = v[kTopRight].v = st;
    v[kTopRight].u = v[kBottomRight].u = sr;
    v[kBottomLeft].v = v[kBottomRight].v = sb;
    Map(t.x, t.y, &v[kTopLeft].x, &v[kTopLeft].y);
    Map(t.x + t.w, t.y, &v[kTopRight].x, &v[kTopRight].y);
    Map(t.x, t.y + t.h, &v[kBottomLeft].x, &v[kBottomLeft].y);
    Map(t.x + t.w, t.y + t.h, &v[kBottomRight].x, &v[kBottomRight].y);
    // the topmost vertex first, keeping the cyclic order
    int topmost = 0;
    for (int i = 1; i < 4; ++i) {
      if (v[i].y < v[topmost].y) topmost = i;
    }
    switch (topmost) {
      case 1: {
        const Vertex first = v[0];
        for (int i = 0; i < 3; ++i) v[i] = v[i + 1];
        v[3] = first;
        break;
      }
      case 2:
        std::swap(v[0], v[2]);
        std::swap(v[1], v[3]);
        break;
      case 3: {
        const Vertex last = v[3];
        for (int i = 3; i > 0; --i) v[i] = v[i - 1];
        v[0] = last;
        break;
      }
      default: break;
    }
    // vertex 1 to the left of vertex 3
    const double dx1 = v[1].x - v[0].x, dy1 = v[1].y - v[0].y;
    const double dx2 = v[3].x - v[0].x, dy2 = v[3].y - v[0].y;
    if (dx1 * dy2 - dx2 * dy1 > 0) std::swap(v[1], v[3]);
    const Vertex u = {v[1].x - v[0].x, v[1].y - v[0].y, v[1].u - v[0].u, v[1].v - v[0].v};
    const Vertex w = {v[2].x - v[0].x, v[2].y - v[0].y, v[2].u - v[0].u, v[2].v - v[0].v};
    const double det = u.x * w.y - u.y * w.x;
    if (det == 0) return;
    const double inv_det = 1.0 / det;
    const double m11 = (u.u * w.y - u.y * w.u) * inv_det;
    const double m12 = (u.x * w.u - u.u * w.x) * inv_det;
    const double m21 = (u.v * w.y - u.y * w.v) * inv_det;
    const double m22 = (u.x * w.v - u.v * w.x) * inv_det;
    const double mdx = v[0].u - m11 * v[0].x - m12 * v[0].y;
    const double mdy = v[0].v - m21 * v[0].x - m22 * v[0].y;
    const int dudx = static_cast<int>(m11 * 0x10000);
    const int dvdx = static_cast<int>(m21 * 0x10000);
    const int dudy = static_cast<int>(m12 * 0x10000);
    const int dvdy = static_cast<int>(m22 * 0x10000);
    const int u0 = qt::Ceil((0.5 * m11 + 0.5 * m12 + mdx) * 0x10000) - 1;
    const int v0 = qt::Ceil((0.5 * m21 + 0.5 * m22 + mdy) * 0x10000) - 1;
    const Gradients g{dudx, dvdx, dudy, dvdy, u0, v0};
    if (v[1].y < v[3].y) {
      Trapezoid(image, v[0], v[1], v[0], v[3], v[0].y, v[1].y, g, blend);
      Trapezoid(image, v[1], v[2], v[0], v[3], v[1].y, v[3].y, g, blend);
      Trapezoid(image, v[1], v[2], v[3], v[2], v[3].y, v[2].y, g, blend);
    } else {
      Trapezoid(image, v[0], v[1], v[0], v[3], v[0].y, v[3].y, g, blend);
      Trapezoid(image, v[0], v[1], v[3], v[2], v[3].y, v[1].y, g, blend);
      Trapezoid(image, v[1], v[2], v[3], v[2], v[1].y, v[2].y, g, blend);
    }
  }

  struct Gradients {
    int dudx, dvdx, dudy, dvdy, u0, v0;
  };

  // qt_transform_image_rasterize (Qt 5.13.2: int arithmetic): rows qRound(top_y) ..
  // qRound(bottom_y) - 1 between the left and right edges, each pixel's source the 16.16
  // (u, v) of its centre; pixels whose source falls outside the image at the row's ends
  // take the nearest edge pixel.
  template <class Blend>
  void Trapezoid(const Image& image, const Vertex& top_left, const Vertex& bottom_left,
                 const Vertex& top_right, const Vertex& bottom_right, double top_y,
                 double bottom_y, const Gradients& g, Blend blend) {
    const int from_y = std::max(qt::Round(top_y), 0);
    const int to_y = std::min(qt::Round(bottom_y), height_);
    if (from_y >= to_y) return;
    const double left_slope = (bottom_left.x - top_left.x) / (bottom_left.y - top_left.y);
    const double right_slope = (bottom_right.x - top_right.x) / (bottom_right.y - top_right.y);
    const int dx_l = static_cast<int>(left_slope * 0x10000);
    const int dx_r = static_cast<int>(right_slope * 0x10000);
    int x_l = static_cast<int>(
        (top_left.x + (0.5 + from_y - top_left.y) * left_slope + 0.5) * 0x10000);
    int x_r = static_cast<int>(
        (top_right.x + (0.5 + from_y - top_right.y) * right_slope + 0.5) * 0x10000);
    const int src_w = image.width, src_h = image.height;
    auto inside = [&](int uu, int vv) { return uu >= 0 && uu < src_w && vv >= 0 && vv < src_h; };
    auto pixel = [&](int uu, int vv) {
      return image.pixels[static_cast<std::size_t>(vv) * src_w + uu];
    };
    for (int y = from_y; y < to_y; ++y, x_l += dx_l, x_r += dx_r) {
      std::uint32_t* line = canvas_.data() + static_cast<std::size_t>(y) * width_;
      const int from_x = std::max(x_l >> 16, 0);
      const int to_x = std::min(x_r >> 16, width_);
      if (from_x >= to_x) continue;
      // the first and last pixels of the row whose source is inside the image
      int x1 = from_x;
      int u = x1 * g.dudx + y * g.dudy + g.u0;
      int v = x1 * g.dvdx + y * g.dvdy + g.v0;
      for (; x1 < to_x; ++x1, u += g.dudx, v += g.dvdx) {
        if (inside(u >> 16, v >> 16)) break;
      }
      int x2 = to_x;
      u = (x2 - 1) * g.dudx + y * g.dudy + g.u0;
      v = (x2 - 1) * g.dvdx + y * g.dvdy + g.v0;
      for (; x2 > x1; --x2, u -= g.dudx, v -= g.dvdx) {
        if (inside(u >> 16, v >> 16)) break;
      }
      u = from_x * g.dudx + y * g.dudy + g.u0;
      v = from_x * g.dvdx + y * g.dvdy + g.v0;
      for (int x = from_x; x < to_x; ++x, u += g.dudx, v += g.dvdx) {
        int uu = u >> 16, vv = v >> 16;
        if (x < x1 || x >= x2) {
          uu = std::min(std::max(uu, 0), src_w - 1);
          vv = std::min(std::max(vv, 0), src_h - 1);
        }
        blend(&line[x], pixel(uu, vv));
      }
    }
  }

  // The loop both share, with their bounds checks: floating-point rounding can make the
  // destination one pixel wider or taller than the source allows; that row or column is
  // dropped.
  template <class Blend>
  void Loop(const Image& image, int tx1, int ty1, int w, int h, std::uint32_t basex,
            std::uint32_t srcy, int ix, int iy, Blend blend) {
    const int srch = image.height;
    const int srcw = image.width;
    if (static_cast<int>(srcy >> 16) >= srch && iy < 0) {
      srcy += iy;
      --h;
    }
    if (static_cast<int>(basex >> 16) >= srcw && ix < 0) {
      basex += ix;
      --w;
    }
    const int yend = static_cast<int>((srcy + static_cast<std::uint32_t>(iy * (h - 1))) >> 16);
    if (yend < 0 || yend >= srch) --h;
    const int xend = static_cast<int>((basex + static_cast<std::uint32_t>(ix * (w - 1))) >> 16);
    if (xend < 0 || xend >= srcw) --w;
    for (int row = 0; row < h; ++row, srcy += iy) {
      const std::uint32_t* src = image.pixels.data() + static_cast<std::size_t>(srcy >> 16) * srcw;
      std::uint32_t* dst = canvas_.data() + static_cast<std::size_t>(ty1 + row) * width_ + tx1;
      std::uint32_t srcx = basex;
      for (int x = 0; x < w; ++x, srcx += ix) blend(&dst[x], src[srcx >> 16]);
    }
  }

  int width_;
  int height_;
  std::vector<std::uint32_t> canvas_;
  double opacity_ = 1.0;
  struct Matrix {
    double m11 = 1, m12 = 0, m21 = 0, m22 = 1, dx = 0, dy = 0;
    bool rotated = false;  // QTransform's type above TxTranslate
  };
  struct State {
    double opacity;
    Matrix m;
  };
  Matrix m_;
  std::vector<State> saved_;
};

}  // namespace envpool::procgen
