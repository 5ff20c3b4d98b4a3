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
//     each scanned row by row in 16.16 fixed point, source coordinates clamped to the image);
//   * drawEllipse(QRectF) and drawLine with a solid pen of width 1 or less, aliased: the
//     midpoint ellipse on whole pixels, else the path (Bezier flattening, QRasterizer's
//     scanline fill, QCosmeticStroker's lines with its dropout control).
// Pixels are stored as Qt stores them: 0xAARRGGBB words (ARGB32 premultiplied for the
// sprites, RGB32 with alpha 0xff for the canvas and the backgrounds).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

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
// SourceOver of a premultiplied pixel: s + BYTE_MUL(d, 255 - alpha(s)). A transparent
// pixel (premultiplied: 0) leaves d as it is and an opaque one replaces it, since BYTE_MUL
// by 255 is exact and by 0 is 0 for every channel; those two, most of a sprite's pixels,
// skip the arithmetic.
inline void SourceOver(std::uint32_t* d, std::uint32_t s) {
  const std::uint32_t a = s >> 24;
  if (a == 0xffU) {
    *d = s;
  } else if (s != 0) {
    *d = s + ByteMul(*d, 255U - a);
  }
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

// 0xAARRGGBB words as RGB bytes, interleaved (height x width x 3) or in three planes of
// red, green and blue. Interleaved: four pixels are three 32-bit words (little-endian);
// planes: sixteen pixels at a time in SSE2 registers, each channel shifted down, masked and
// packed to bytes. Both give the bytes of the plain per-pixel loop that ends each.
inline void PixelsToRgb(const std::uint32_t* in, std::size_t n, std::uint8_t* out) {
  std::size_t i = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  for (; i + 4 <= n; i += 4, out += 12) {
    // bytes R, G, B of each pixel in memory order, in the low 24 bits
    const std::uint32_t p0 = __builtin_bswap32(in[i]) >> 8;
    const std::uint32_t p1 = __builtin_bswap32(in[i + 1]) >> 8;
    const std::uint32_t p2 = __builtin_bswap32(in[i + 2]) >> 8;
    const std::uint32_t p3 = __builtin_bswap32(in[i + 3]) >> 8;
    const std::uint32_t w0 = p0 | (p1 << 24), w1 = (p1 >> 8) | (p2 << 16);
    const std::uint32_t w2 = (p2 >> 16) | (p3 << 8);
    std::memcpy(out, &w0, 4);  // three stores (one 12-byte copy of an array would stall)
    std::memcpy(out + 4, &w1, 4);
    std::memcpy(out + 8, &w2, 4);
  }
#endif
  for (; i < n; ++i, out += 3) {
    const std::uint32_t p = in[i];
    out[0] = static_cast<std::uint8_t>(p >> 16);
    out[1] = static_cast<std::uint8_t>(p >> 8);
    out[2] = static_cast<std::uint8_t>(p);
  }
}
// n pixels set to one colour (what std::fill does, sixteen bytes a store where SSE2 is)
inline void FillPixels(std::uint32_t* p, std::size_t n, std::uint32_t colour) {
  std::size_t i = 0;
#ifdef __SSE2__
  const __m128i c = _mm_set1_epi32(static_cast<int>(colour));
  for (; i + 4 <= n; i += 4) _mm_storeu_si128(reinterpret_cast<__m128i*>(p + i), c);
#endif
  for (; i < n; ++i) p[i] = colour;
}
inline void PixelsToPlanarRgb(const std::uint32_t* in, std::size_t n, std::uint8_t* red,
                              std::uint8_t* green, std::uint8_t* blue) {
  std::size_t i = 0;
#ifdef __SSE2__
  const __m128i mask = _mm_set1_epi32(0xff);
  auto pack = [](__m128i a, __m128i b, __m128i c, __m128i d) {
    return _mm_packus_epi16(_mm_packs_epi32(a, b), _mm_packs_epi32(c, d));
  };
  for (; i + 16 <= n; i += 16) {
    const __m128i* src = reinterpret_cast<const __m128i*>(in + i);
    const __m128i a = _mm_loadu_si128(src), b = _mm_loadu_si128(src + 1);
    const __m128i c = _mm_loadu_si128(src + 2), d = _mm_loadu_si128(src + 3);
    auto channel = [&](int shift) {
      const __m128i count = _mm_cvtsi32_si128(shift);
      return pack(_mm_and_si128(_mm_srl_epi32(a, count), mask),
                  _mm_and_si128(_mm_srl_epi32(b, count), mask),
                  _mm_and_si128(_mm_srl_epi32(c, count), mask),
                  _mm_and_si128(_mm_srl_epi32(d, count), mask));
    };
    _mm_storeu_si128(reinterpret_cast<__m128i*>(red + i), channel(16));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(green + i), channel(8));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(blue + i), channel(0));
  }
#endif
  for (; i < n; ++i) {
    const std::uint32_t p = in[i];
    red[i] = static_cast<std::uint8_t>(p >> 16);
    green[i] = static_cast<std::uint8_t>(p >> 8);
    blue[i] = static_cast<std::uint8_t>(p);
  }
}

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

  // A new QPainter on the same canvas: opacity 1, no transform, nothing saved. The pixels
  // are kept; procgen's frames begin with a fillRect of the whole canvas.
  void Begin() {
    opacity_ = 1.0;
    m_ = Matrix{};
    saved_.clear();
  }

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
    if (x1 >= x2 || y1 >= y2) return;
    if (alpha == 256) {
      // an opaque colour replaces the pixels (rows of the whole width are one run)
      std::uint32_t* first = canvas_.data() + static_cast<std::size_t>(y1) * width_;
      if (x1 == 0 && x2 == width_) {
        FillPixels(first, static_cast<std::size_t>(y2 - y1) * width_, colour);
      } else {
        for (std::uint32_t* row = first; row != first + static_cast<std::size_t>(y2 - y1) * width_;
             row += width_) {
          FillPixels(row + x1, static_cast<std::size_t>(x2 - x1), colour);
        }
      }
      return;
    }
    const std::uint32_t src = qt::ByteMul(colour, static_cast<std::uint32_t>(alpha * 255) >> 8);
    for (int y = y1; y < y2; ++y) {
      std::uint32_t* row = canvas_.data() + static_cast<std::size_t>(y) * width_;
      for (int x = x1; x < x2; ++x) row[x] = src + qt::ByteMul(row[x], (~src) >> 24);
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
          Transform(target, image, SourceOverBlend{});
        } else {
          const std::uint32_t a = static_cast<std::uint32_t>(alpha * 255) >> 8;
          Transform(target, image, [a](std::uint32_t* d, std::uint32_t s) {
            qt::SourceOver(d, qt::ByteMul(s, a));
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
      CopyScaled(r, image);
    } else if (image.opaque) {
      const std::uint32_t a = static_cast<std::uint32_t>(alpha * 255) >> 8;
      ScaleGeneric(r, image, [a](std::uint32_t* d, std::uint32_t s) {
        *d = qt::Interpolate255(s, a, *d, 255 - a);
      });
    } else {
      const std::uint32_t a = static_cast<std::uint32_t>(alpha * 255) >> 8;
      ScaleGeneric(r, image, [a](std::uint32_t* d, std::uint32_t s) {
        qt::SourceOver(d, qt::ByteMul(s, a));
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

  // drawEllipse(QRectF) with no antialiasing and no transform, a solid pen of width 1 or
  // less (none when has_pen is false) and a solid brush, as QRasterPaintEngine::drawEllipse
  // decides: a rect on whole pixels is drawEllipse_midpoint_i's (DrawEllipseMidpoint), any
  // other the path of QPaintEngineEx::drawEllipse (DrawEllipsePath). An empty rect draws
  // nothing (procgen's ellipses with a pen are never empty; an empty one without a pen is
  // nothing in Qt too).
  void DrawEllipse(const RectF& r, bool has_pen, std::uint32_t pen, bool has_brush,
                   std::uint32_t brush) {
    if (r.w <= 0 || r.h <= 0) return;
    if (DrawEllipseMidpoint(r, has_pen, pen, has_brush, brush)) return;
    DrawEllipsePath(r, has_pen, pen, has_brush, brush);
  }

  // QPaintEngineEx::drawEllipse's path of a rect with a positive size: qt_curves_for_arc(r,
  // 0, -360) (four cubics from the right middle, down first, control points at
  // QT_PATH_KAPPA of the half axes), filled with the brush (QOutlineMapper: each cubic
  // flattened by QBezier::addToPolygon at the threshold 0.25, the points rounded to 26.6
  // fixed point with qRound; QRasterizer: the aliased odd-even scanline fill, a pixel
  // filled when its centre is inside), then outlined with the pen (QCosmeticStroker's
  // drawPath: each cubic subdivided by its own flatness test, each piece an aliased line
  // with its dropout control, a closed contour so no caps).
  void DrawEllipsePath(const RectF& r, bool has_pen, std::uint32_t pen, bool has_brush,
                       std::uint32_t brush) {
    const double kappa = 0.5522847498;  // QT_PATH_KAPPA
    const double x = r.x, y = r.y, w = r.w, h = r.h;
    const double w2 = w / 2, w2k = w2 * kappa, h2 = h / 2, h2k = h2 * kappa;
    const PointD pts[13] = {
        {x + w, y + h2},
        {x + w, y + h2 + h2k}, {x + w2 + w2k, y + h}, {x + w2, y + h},
        {x + w2 - w2k, y + h}, {x, y + h2 + h2k},     {x, y + h2},
        {x, y + h2 - h2k},     {x + w2 - w2k, y},     {x + w2, y},
        {x + w2 + w2k, y},     {x + w, y + h2 - h2k}, {x + w, y + h2}};
    if (has_brush) {
      std::vector<PointD> polygon{pts[0]};
      for (int i = 1; i < 13; i += 3) {
        FlattenCubic(polygon.back(), pts[i], pts[i + 1], pts[i + 2], 0.25, &polygon);
      }
      FillPolygonAliased(polygon, brush);
    }
    if (has_pen) {
      Stroke s;
      // closed (the last point is the first): the last segment's end primes the dropout
      // control, here from the last control point, as drawPath does
      CalculateLastPoint(&s, pts[11].x, pts[11].y, pts[12].x, pts[12].y);
      for (int i = 1; i < 13; i += 3) {
        RenderCubic(&s, pts[i - 1], pts[i], pts[i + 1], pts[i + 2], pen);
      }
    }
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
    Stroke s;
    StrokeLine(&s, px1, py1, px2, py2, square_caps ? kCapBegin | kCapEnd : 0, colour);
  }

  // The canvas as RGB bytes, height x width x 3 (procgen's bgr32_to_rgb888)
  void ToRgb(std::uint8_t* out) const { PixelsToRgb(canvas_.data(), canvas_.size(), out); }
  // The same bytes channel first, 3 x height x width: a plane of red, of green, of blue
  void ToPlanarRgb(std::uint8_t* out) const {
    PixelsToPlanarRgb(canvas_.data(), canvas_.size(), out, out + canvas_.size(),
                      out + 2 * canvas_.size());
  }

 private:
  // the pixels a scaled draw covered: columns x .. x + w - 1 of rows y .. y + h - 1
  struct Region {
    int x = 0, y = 0, w = 0, h = 0;
  };
  struct CopyMemo {
    const Image* image = nullptr;
    RectF rect;
    Region region;
    bool kept = false;  // pixels holds the region's pixels
    std::vector<std::uint32_t> pixels;
  };

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

  // --- QPaintEngineEx::drawEllipse's path, aliased ---
  struct PointD {
    double x, y;
  };

  // QBezier::addToPolygon: the cubic split in halves (a stack of at most ten, nine levels)
  // until both control points are within threshold * (manhattan length of the chord) of
  // the chord (measured as the cross products' sum; for a chord of manhattan length 1 or
  // less the control points' manhattan distances from the start, against threshold);
  // each accepted piece's end appended.
  static void FlattenCubic(PointD p1, PointD p2, PointD p3, PointD p4, double threshold,
                           std::vector<PointD>* out) {
    struct Bezier {
      double x1, y1, x2, y2, x3, y3, x4, y4;
    };
    Bezier stack[10];
    int levels[10];
    stack[0] = {p1.x, p1.y, p2.x, p2.y, p3.x, p3.y, p4.x, p4.y};
    levels[0] = 9;
    int top = 0;
    while (top >= 0) {
      const Bezier& b = stack[top];
      const double y4y1 = b.y4 - b.y1;
      const double x4x1 = b.x4 - b.x1;
      double l = std::fabs(x4x1) + std::fabs(y4y1);
      double d;
      if (l > 1.) {
        d = std::fabs(x4x1 * (b.y1 - b.y2) - y4y1 * (b.x1 - b.x2)) +
            std::fabs(x4x1 * (b.y1 - b.y3) - y4y1 * (b.x1 - b.x3));
      } else {
        d = std::fabs(b.x1 - b.x2) + std::fabs(b.y1 - b.y2) + std::fabs(b.x1 - b.x3) +
            std::fabs(b.y1 - b.y3);
        l = 1.;
      }
      if (d < threshold * l || levels[top] == 0) {
        out->push_back({b.x4, b.y4});
        --top;
      } else {
        // the first half goes on top of the stack, the second replaces the curve
        const Bezier o = b;
        Bezier& first = stack[top + 1];
        Bezier& second = stack[top];
        auto halve = [](double a1, double a2, double a3, double a4, double* f2, double* f3,
                        double* mid, double* s2, double* s3) {
          const double c = (a2 + a3) * .5;
          *f2 = (a1 + a2) * .5;
          *s3 = (a3 + a4) * .5;
          *f3 = (*f2 + c) * .5;
          *s2 = (*s3 + c) * .5;
          *mid = (*f3 + *s2) * .5;
        };
        double fx2, fx3, mx, sx2, sx3, fy2, fy3, my, sy2, sy3;
        halve(o.x1, o.x2, o.x3, o.x4, &fx2, &fx3, &mx, &sx2, &sx3);
        halve(o.y1, o.y2, o.y3, o.y4, &fy2, &fy3, &my, &sy2, &sy3);
        first = {o.x1, o.y1, fx2, fy2, fx3, fy3, mx, my};
        second = {mx, my, sx2, sy2, sx3, sy3, o.x4, o.y4};
        levels[top + 1] = --levels[top];
        ++top;
      }
    }
  }

  // QRasterizer::rasterize of QOutlineMapper's outline of one closed polygon, aliased,
  // odd-even, clipped to the canvas, no legacy rounding: the points rounded to 26.6 (qRound
  // of x * 64); each edge's rows those whose centres it spans ((top + 32) >> 6 ..
  // (bottom - 32) >> 6), its x at each row's centre in 16.16 fixed point stepped by the
  // slope; on each row the pixels from one crossing (its 16.16 x truncated) up to the next
  // filled where the winding count is odd.
  void FillPolygonAliased(const std::vector<PointD>& polygon, std::uint32_t colour) {
    if (polygon.size() < 3) return;
    std::vector<Vec26> pts;
    pts.reserve(polygon.size());
    for (const PointD& p : polygon) pts.push_back({qt::Round(p.x * 64), qt::Round(p.y * 64)});
    int min_y = pts[0].y, max_y = pts[0].y;
    for (const Vec26& p : pts) {
      min_y = std::min(min_y, p.y);
      max_y = std::max(max_y, p.y);
    }
    Scan scan;
    scan.top = std::max(0, (min_y + 32) >> 6);
    scan.bottom = std::min(height_ - 1, (max_y - 32) >> 6);
    if (scan.top > scan.bottom) return;
    scan.left_fp = 0;
    scan.right_fp = static_cast<std::int64_t>(width_) << 16;
    for (std::size_t j = 0; j + 1 < pts.size(); ++j) MergeLine(&scan, pts[j], pts[j + 1]);
    if (scan.lines.empty()) return;
    // each row's crossings in x order; spans between them where the winding is odd
    std::vector<std::pair<int, int>> row;
    for (int y = scan.top; y <= scan.bottom; ++y) {
      row.clear();
      for (const ScanLine& l : scan.lines) {
        if (y < l.top || y > l.bottom) continue;
        const std::int64_t fx = l.x + l.delta * (y - l.top);
        row.emplace_back(static_cast<int>(fx >> 16), l.winding);
      }
      std::sort(row.begin(), row.end(),
                [](const std::pair<int, int>& a, const std::pair<int, int>& b) {
                  return a.first < b.first;
                });
      int x = 0, winding = 0;
      for (const auto& [cx, w] : row) {
        if (winding & 1) SolidSpan(x, y, cx - x, colour);
        x = cx;
        winding += w;
      }
    }
  }

  struct Vec26 {
    int x, y;
  };
  struct ScanLine {
    std::int64_t x, delta;
    int top, bottom, winding;
  };
  struct Scan {
    int top = 0, bottom = 0;
    std::int64_t left_fp = 0, right_fp = 0;
    std::vector<ScanLine> lines;
  };

  // QScanConverter::mergeLine
  static void MergeLine(Scan* scan, Vec26 a, Vec26 b) {
    int winding = 1;
    if (a.y > b.y) {
      std::swap(a, b);
      winding = -1;
    }
    int top = std::max(scan->top, (a.y + 32) >> 6);
    int bottom = std::min(scan->bottom, (b.y - 32) >> 6);
    if (top > bottom) return;
    const std::int64_t a_fp = 32768 + static_cast<std::int64_t>(a.x) * 1024;
    if (b.x == a.x) {
      scan->lines.push_back(
          {std::min(std::max(a_fp, scan->left_fp), scan->right_fp), 0, top, bottom, winding});
      return;
    }
    const double slope = (b.x - a.x) / static_cast<double>(b.y - a.y);
    const std::int64_t slope_fp = static_cast<std::int64_t>(slope * 65536.);
    std::int64_t x_fp =
        a_fp + ((slope_fp * ((static_cast<std::int64_t>(top) << 16) + 32768 -
                             static_cast<std::int64_t>(a.y) * 1024)) >> 16);
    if (ClipEdge(scan, &x_fp, &top, &bottom, slope_fp, scan->left_fp, winding)) return;
    if (ClipEdge(scan, &x_fp, &top, &bottom, slope_fp, scan->right_fp, winding)) return;
    scan->lines.push_back({x_fp, slope_fp, top, bottom, winding});
  }

  // QScanConverter::clip: the part of an edge beyond the canvas' left or right side becomes
  // a vertical edge on that side; true when nothing of the edge is left
  static bool ClipEdge(Scan* scan, std::int64_t* x_fp, int* top, int* bottom,
                       std::int64_t slope_fp, std::int64_t edge_fp, int winding) {
    const bool right = edge_fp == scan->right_fp;
    if (*x_fp == edge_fp) {
      if ((slope_fp > 0) ^ right) return false;
      scan->lines.push_back({edge_fp, 0, *top, *bottom, winding});
      return true;
    }
    const std::int64_t last_fp = *x_fp + slope_fp * (*bottom - *top);
    if (last_fp == edge_fp) {
      if ((slope_fp < 0) ^ right) return false;
      scan->lines.push_back({edge_fp, 0, *top, *bottom, winding});
      return true;
    }
    if ((last_fp < edge_fp) ^ (*x_fp < edge_fp)) {  // the edge crosses the side
      const std::int64_t delta_y =
          static_cast<std::int64_t>((edge_fp - *x_fp) / (slope_fp * (1. / 65536.)));
      if ((*x_fp < edge_fp) ^ right) {  // the top part is outside
        const int height = static_cast<int>((delta_y + 1) >> 16);
        const int middle = *top + height;
        scan->lines.push_back({edge_fp, 0, *top, middle, winding});
        if (middle == *bottom) return true;
        *x_fp += slope_fp * (height + 1);
        *top = middle + 1;
      } else {  // the bottom part is outside
        const int height = static_cast<int>(delta_y >> 16);
        const int middle = *top + height;
        if (middle != *bottom) {
          scan->lines.push_back({edge_fp, 0, middle + 1, *bottom, winding});
          *bottom = middle;
        }
      }
      return false;
    }
    if ((*x_fp < edge_fp) ^ right) {  // wholly outside
      scan->lines.push_back({edge_fp, 0, *top, *bottom, winding});
      return true;
    }
    return false;
  }

  // --- QCosmeticStroker, aliased, solid, SourceOver onto the canvas ---
  enum { kCapBegin = 1, kCapEnd = 2 };
  enum { kNoDirection = 0, kTopToBottom = 1, kBottomToTop = 2, kLeftToRight = 4, kRightToLeft = 8,
         kVerticalMask = 3, kHorizontalMask = 0xc };
  // the stroker's dropout state: the last pixel drawn (kNoPixel: none), the direction and
  // steepness of the last line (a new stroker has none)
  static constexpr int kNoPixel = std::numeric_limits<int>::min();
  struct Stroke {
    int last_x = kNoPixel;
    int last_y = kNoPixel;
    int last_dir = kNoDirection;
    bool last_axis_aligned = false;
  };

  // clipLine: to the canvas widened by one pixel (two on the right and bottom), first in x,
  // then in y; a clipped end forgets the last pixel; true when the line is wholly outside
  bool ClipLine(Stroke* s, double* x1, double* y1, double* x2, double* y2) const {
    return ClipAxis(s, x1, y1, x2, y2, -1, width_ + 1) ||
           ClipAxis(s, y1, x1, y2, x2, -1, height_ + 1);
  }
  // one axis of clipLine: a the coordinates along it, c across
  static bool ClipAxis(Stroke* s, double* a1, double* c1, double* a2, double* c2, double lo,
                       double hi) {
    if (*a1 < lo) {
      if (*a2 <= lo) return ClippedAway(s);
      *c1 += (*c2 - *c1) / (*a2 - *a1) * (lo - *a1);
      *a1 = lo;
    } else if (*a1 > hi) {
      if (*a2 >= hi) return ClippedAway(s);
      *c1 += (*c2 - *c1) / (*a2 - *a1) * (hi - *a1);
      *a1 = hi;
    }
    if (*a2 < lo) {
      s->last_x = kNoPixel;
      *c2 += (*c2 - *c1) / (*a2 - *a1) * (lo - *a2);
      *a2 = lo;
    } else if (*a2 > hi) {
      s->last_x = kNoPixel;
      *c2 += (*c2 - *c1) / (*a2 - *a1) * (hi - *a2);
      *a2 = hi;
    }
    return false;
  }
  static bool ClippedAway(Stroke* s) {
    s->last_x = kNoPixel;
    return true;
  }
  static int F26(double v) { return static_cast<int>(v * 64.); }
  // F16Dot16FixedDiv
  static int FixedDiv(int num, int den) {
    return static_cast<int>((static_cast<std::int64_t>(num) * 65536) / den);
  }
  static int SwapCaps(int caps) { return ((caps & kCapBegin) << 1) | ((caps & kCapEnd) >> 1); }

  // calculateLastPoint: the last pixel and direction the line would leave (StrokeLine's
  // stepping without drawing)
  void CalculateLastPoint(Stroke* s, double rx1, double ry1, double rx2, double ry2) const {
    s->last_x = kNoPixel;
    s->last_y = kNoPixel;
    if (ClipLine(s, &rx1, &ry1, &rx2, &ry2)) return;
    const int x1 = F26(rx1), y1 = F26(ry1), x2 = F26(rx2), y2 = F26(ry2);
    const bool steep = std::abs(x2 - x1) < std::abs(y2 - y1);
    if (!steep && x2 == x1) return;
    int u1 = steep ? y1 : x1, u2 = steep ? y2 : x2;
    int v1 = steep ? x1 : y1, v2 = steep ? x2 : y2;
    const bool swapped = u1 > u2;
    if (swapped) {
      std::swap(u1, u2);
      std::swap(v1, v2);
    }
    const int inc = FixedDiv(v2 - v1, u2 - u1);
    int v = v1 * 1024;
    const int u = (u1 + 32) >> 6;
    const int us = (u2 + 32) >> 6;
    const int round = inc > 0 ? 32 : 0;
    if (u == us) return;
    v += static_cast<int>((static_cast<std::int64_t>((u << 6) + round - u1) * inc) >> 6);
    int pu, pv;
    if (swapped) {
      pu = u;
      pv = v >> 16;
      s->last_dir = steep ? kBottomToTop : kRightToLeft;
    } else {
      pu = us - 1;
      pv = (v + (us - u - 1) * inc) >> 16;
      s->last_dir = steep ? kTopToBottom : kLeftToRight;
    }
    s->last_x = steep ? pv : pu;
    s->last_y = steep ? pu : pv;
    s->last_axis_aligned = std::abs(inc) < (1 << 14);
  }

  // the aliased drawLine: one pixel a row (steep) or a column, from pixel centres in 26.6,
  // caps adding half a pixel; against the last line's pixel a repeated first pixel is
  // dropped and, on a change of direction, a gap of a pixel filled
  void StrokeLine(Stroke* s, double rx1, double ry1, double rx2, double ry2, int caps,
                  std::uint32_t colour) {
    if (ClipLine(s, &rx1, &ry1, &rx2, &ry2)) return;
    int x1 = F26(rx1), y1 = F26(ry1), x2 = F26(rx2), y2 = F26(ry2);
    const int dx = std::abs(x2 - x1), dy = std::abs(y2 - y1);
    int last_x = s->last_x, last_y = s->last_y;
    // the steep and the flat case are one loop with the axes named (u: the stepped axis)
    const bool steep = dx < dy;
    if (!steep && dx == 0) return;
    int u1 = steep ? y1 : x1, u2 = steep ? y2 : x2;
    int v1 = steep ? x1 : y1, v2 = steep ? x2 : y2;
    int dir = steep ? kTopToBottom : kLeftToRight;
    const int mask = steep ? kVerticalMask : kHorizontalMask;
    const bool swapped = u1 > u2;
    if (swapped) {
      std::swap(u1, u2);
      std::swap(v1, v2);
      caps = SwapCaps(caps);
      dir = steep ? kBottomToTop : kRightToLeft;
    }
    const int inc = FixedDiv(v2 - v1, u2 - u1);
    int v = v1 * 1024;
    if ((s->last_dir ^ mask) == dir) caps |= swapped ? kCapEnd : kCapBegin;
    if (caps & kCapBegin) {  // capAdjust
      u1 -= 32;
      v -= inc >> 1;
    }
    if (caps & kCapEnd) u2 += 32;
    int u = (u1 + 32) >> 6;
    int us = (u2 + 32) >> 6;
    const int round = inc > 0 ? 32 : 0;
    // a begin cap that rounded the start away from the last line's last pixel is undone
    if ((caps & kCapBegin) && (steep ? s->last_y : s->last_x) == u + 1) ++u;
    if (u != us) {
      v += static_cast<int>((static_cast<std::int64_t>((u << 6) + round - u1) * inc) >> 6);
      // first and last pixel (as x, y) for the dropout control
      int first_u = u, first_v = v >> 16;
      int end_u = us - 1, end_v = (v + (us - u - 1) * inc) >> 16;
      if (swapped) {
        std::swap(first_u, end_u);
        std::swap(first_v, end_v);
      }
      const int fx = steep ? first_v : first_u, fy = steep ? first_u : first_v;
      last_x = steep ? end_v : end_u;
      last_y = steep ? end_u : end_v;
      const bool axis_aligned = std::abs(inc) < (1 << 14);
      if (s->last_x > kNoPixel) {
        if (fx == s->last_x && fy == s->last_y) {  // a repeated pixel
          if (swapped) {
            --us;
          } else {
            ++u;
            v += inc;
          }
        } else if (s->last_dir != dir &&
                   (((axis_aligned && s->last_axis_aligned) && s->last_x != fx &&
                     s->last_y != fy) ||
                    (std::abs(s->last_x - fx) > 1 || std::abs(s->last_y - fy) > 1))) {
          if (swapped) {  // a missing pixel
            ++us;
          } else {
            --u;
            v -= inc;
          }
        } else if (s->last_dir == dir && std::abs(s->last_x - fx) <= 1 &&
                   std::abs(s->last_y - fy) > 1) {
          // the same direction, a jump of more than a row (in x at most one column): the
          // line moved half a step across
          v += inc >> 1;
          const int end = swapped ? v >> 16 : (v + (us - u - 1) * inc) >> 16;
          (steep ? last_x : last_y) = end;
        }
      }
      s->last_dir = dir;
      s->last_axis_aligned = axis_aligned;
      do {
        if (steep) {
          PlotPen(v >> 16, u, colour);
        } else {
          PlotPen(u, v >> 16, colour);
        }
        v += inc;
      } while (++u < us);
    }
    s->last_x = last_x;
    s->last_y = last_y;
  }

  // renderCubic / renderCubicSubdivision: split in halves (six levels at most) while a
  // control point lies a quarter of the chord's manhattan length (as a cross product) or
  // more off the chord; each piece a line without caps
  void RenderCubic(Stroke* s, PointD p1, PointD p2, PointD p3, PointD p4,
                   std::uint32_t colour, int level = 6) {
    if (level) {
      const double dx = p1.x - p4.x;
      const double dy = p1.y - p4.y;
      const double len = .25 * (std::fabs(dx) + std::fabs(dy));
      if (std::fabs(dx * (p4.y - p2.y) - dy * (p4.x - p2.x)) >= len ||
          std::fabs(dx * (p4.y - p3.y) - dy * (p4.x - p3.x)) >= len) {
        const PointD a1{(p4.x + p3.x) * .5, (p4.y + p3.y) * .5};
        const PointD b1{(p1.x + p2.x) * .5, (p1.y + p2.y) * .5};
        const PointD c{(p3.x + p2.x) * .5, (p3.y + p2.y) * .5};
        const PointD a2{(a1.x + c.x) * .5, (a1.y + c.y) * .5};
        const PointD b2{(b1.x + c.x) * .5, (b1.y + c.y) * .5};
        const PointD mid{(a2.x + b2.x) * .5, (a2.y + b2.y) * .5};
        RenderCubic(s, p1, b1, b2, mid, colour, level - 1);
        RenderCubic(s, mid, a2, a1, p4, colour, level - 1);
        return;
      }
    }
    StrokeLine(s, p1.x, p1.y, p4.x, p4.y, 0, colour);
  }

  // qt_scale_image_32bit (Qt 5.13.2): the step is int(65536 * source / target), the first
  // sample qCeil((tx1 + 0.5 - left) * (source / target) * 65536) - 1, the destination the
  // target's QRectF::toRect() cut to the canvas.
  template <class Blend>
  Region ScaleGeneric(const RectF& t, const Image& image, Blend blend) {
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
    if (l > r || top > b) return Region{};
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
    return Loop(image, tx1, ty1, w, h, basex, srcy, ix, iy, blend);
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
    Loop(image, tx1, ty1, w, h, basex, srcy, ix, iy, SourceOverBlend{});
  }

  struct SourceOverBlend {
    void operator()(std::uint32_t* d, std::uint32_t s) const { qt::SourceOver(d, s); }
  };

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
  Region Loop(const Image& image, int tx1, int ty1, int w, int h, std::uint32_t basex,
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
    return Region{tx1, ty1, std::max(w, 0), std::max(h, 0)};
  }

  // An opaque image at full opacity replaces the pixels of its destination whatever they
  // were, so the same image scaled to the same rect gives the same pixels: when a draw
  // repeats the last one's image and rect, its pixels are kept, and from the next repeat on
  // copied back instead of sampled anew from the (large) image: a background that does not
  // move. A moving one (a new rect each frame) is sampled as before, and nothing is kept.
  // An Image is never changed once made (AssetStore's are kept as long as the games that
  // draw them), so its address names it.
  void CopyScaled(const RectF& r, const Image& image) {
    CopyMemo& m = copy_memo_;
    const bool repeat = m.image == &image && m.rect.x == r.x && m.rect.y == r.y &&
                        m.rect.w == r.w && m.rect.h == r.h;
    if (repeat && m.kept) {
      for (int row = 0; row < m.region.h; ++row) {
        std::copy_n(m.pixels.data() + static_cast<std::size_t>(row) * m.region.w, m.region.w,
                    canvas_.data() + static_cast<std::size_t>(m.region.y + row) * width_ +
                        m.region.x);
      }
      return;
    }
    m.image = &image;
    m.rect = r;
    m.region = ScaleGeneric(r, image, [](std::uint32_t* d, std::uint32_t s) { *d = s; });
    m.kept = repeat;
    if (!repeat) return;
    if (m.pixels.empty()) m.pixels.resize(canvas_.size());  // the largest region, once
    for (int row = 0; row < m.region.h; ++row) {
      std::copy_n(canvas_.data() + static_cast<std::size_t>(m.region.y + row) * width_ +
                      m.region.x,
                  m.region.w, m.pixels.data() + static_cast<std::size_t>(row) * m.region.w);
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
  CopyMemo copy_memo_;
};

}  // namespace envpool::procgen
