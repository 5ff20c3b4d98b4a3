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
