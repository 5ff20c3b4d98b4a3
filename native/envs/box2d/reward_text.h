// gymnasium CarRacing's reward text: font.render(f"{reward:04.0f}", True, white, black) in
// pygame's default font (freesansbold.ttf, loaded from the installed pygame at run time) at
// 42 px, blitted with its centre at (60, 750), drawn with FreeType as pygame-ce 2.5 draws it
// through SDL_ttf 2.24 (benchmarks/results/box2d/carracing_text/ checks the recipe against
// pygame for every reward from -300 to 1000):
//   - FT_Set_Char_Size(0, 42 * 64) at 72 dpi; each glyph loaded with the auto-hinter
//     (FT_LOAD_FORCE_AUTOHINT) and rendered FT_RENDER_MODE_NORMAL, its coverage the grey;
//   - the pen in 26.6 units: each glyph's advance plus the unfitted kerning of each pair; a
//     glyph at floor(pen / 64) + its left bearing, its top at the ascender (34 px) minus
//     its bitmap top; the text surface floor(pen / 64) wide, the font's line height (46 px)
//     high, black where no glyph covers it.
// Only "-" and the digits are ever drawn; FreeType is used at construction only (the
// glyphs and the kerning are kept), so an env holds no FreeType object while it steps.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#ifdef ENVPOOL_HAS_FREETYPE
#include <ft2build.h>
#include FT_FREETYPE_H
#endif

#include "envs/common/draw/raster.h"

namespace envpool::box2d {

class RewardText {
 public:
  explicit RewardText(const std::string& font_path) {
#ifdef ENVPOOL_HAS_FREETYPE
    FT_Library lib = nullptr;
    if (FT_Init_FreeType(&lib) != 0) throw std::runtime_error("FreeType failed to start");
    const std::unique_ptr<FT_LibraryRec_, decltype(&FT_Done_FreeType)> lib_owner(lib,
                                                                                 FT_Done_FreeType);
    FT_Face face = nullptr;
    if (FT_New_Face(lib, font_path.c_str(), 0, &face) != 0) {
      throw std::invalid_argument("CarRacing: cannot load the font " + font_path);
    }
    const std::unique_ptr<FT_FaceRec_, decltype(&FT_Done_Face)> face_owner(face, FT_Done_Face);
    if (FT_Set_Char_Size(face, 0, 42 * 64, 0, 0) != 0) {
      throw std::runtime_error("CarRacing: cannot size the font " + font_path);
    }
    ascent_ = static_cast<int>(face->size->metrics.ascender >> 6);
    height_ = static_cast<int>(face->size->metrics.height >> 6);
    for (int i = 0; i < kChars; ++i) {
      const FT_UInt index = FT_Get_Char_Index(face, static_cast<FT_ULong>(kCharset[i]));
      if (FT_Load_Glyph(face, index, FT_LOAD_FORCE_AUTOHINT) != 0 ||
          FT_Render_Glyph(face->glyph, FT_RENDER_MODE_NORMAL) != 0) {
        throw std::runtime_error("CarRacing: cannot draw the font's glyphs");
      }
      const FT_Bitmap& b = face->glyph->bitmap;
      Glyph& g = glyphs_[i];
      g.left = face->glyph->bitmap_left;
      g.top = face->glyph->bitmap_top;
      g.width = static_cast<int>(b.width);
      g.rows = static_cast<int>(b.rows);
      g.advance = face->glyph->advance.x;
      g.coverage.resize(static_cast<std::size_t>(g.width) * g.rows);
      for (int y = 0; y < g.rows; ++y) {
        for (int x = 0; x < g.width; ++x) {
          g.coverage[static_cast<std::size_t>(y) * g.width + x] = b.buffer[y * b.pitch + x];
        }
      }
    }
    for (int a = 0; a < kChars; ++a) {
      for (int b = 0; b < kChars; ++b) {
        FT_Vector k{0, 0};
        FT_Get_Kerning(face, FT_Get_Char_Index(face, static_cast<FT_ULong>(kCharset[a])),
                       FT_Get_Char_Index(face, static_cast<FT_ULong>(kCharset[b])),
                       FT_KERNING_UNFITTED, &k);
        kerning_[a][b] = k.x;
      }
    }
#else
    throw std::invalid_argument("CarRacing's reward text (font " + font_path +
                                ") needs FreeType, which this build has not got");
#endif
  }

  // Blits the text of `reward` (f"{reward:04.0f}") with its centre at (cx, cy). The text's
  // picture is made again only when the text changes.
  void Draw(draw::Canvas& canvas, double reward, int cx, int cy) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%04.0f", reward);
    if (text_ != buffer) Typeset(buffer);
    // Rect.center = (cx, cy), then the blit: the whole surface, black included.
    canvas.BlitGrey(grey_.data(), width_, height_, cx - width_ / 2, cy - height_ / 2);
  }

 private:
  // The text's picture (grey_, width_ x height_): the glyphs' coverage, the larger where
  // two overlap, on black.
  void Typeset(const std::string& text) {
    text_ = text;
    std::vector<int> ids;
    for (const char c : text) ids.push_back(Index(c));
    long pen = 0;
    std::vector<long> xs;
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (i > 0) pen += kerning_[ids[i - 1]][ids[i]];
      xs.push_back(pen);
      pen += glyphs_[ids[i]].advance;
    }
    const int w = static_cast<int>(pen >> 6), h = height_;
    width_ = w;
    grey_.assign(static_cast<std::size_t>(w) * h, 0);
    for (std::size_t i = 0; i < ids.size(); ++i) {
      const Glyph& g = glyphs_[ids[i]];
      const int x0 = static_cast<int>(xs[i] >> 6) + g.left, y0 = ascent_ - g.top;
      for (int y = 0; y < g.rows; ++y) {
        for (int x = 0; x < g.width; ++x) {
          const int px = x0 + x, py = y0 + y;
          if (px < 0 || px >= w || py < 0 || py >= h) continue;
          std::uint8_t& v = grey_[static_cast<std::size_t>(py) * w + px];
          v = std::max(v, g.coverage[static_cast<std::size_t>(y) * g.width + x]);
        }
      }
    }
  }

  static constexpr int kChars = 11;
  static constexpr char kCharset[kChars + 1] = "-0123456789";

  static int Index(char c) {
    if (c == '-') return 0;
    if (c >= '0' && c <= '9') return 1 + (c - '0');
    throw std::logic_error(std::string("CarRacing's reward text has no glyph for ") + c);
  }

  struct Glyph {
    int left = 0, top = 0, width = 0, rows = 0;
    long advance = 0;  // 26.6
    std::vector<std::uint8_t> coverage;
  };
  std::array<Glyph, kChars> glyphs_{};
  std::array<std::array<long, kChars>, kChars> kerning_{};  // 26.6, unfitted
  int ascent_ = 0, height_ = 0;
  std::string text_;               // the text grey_ shows ("": none yet)
  std::vector<std::uint8_t> grey_;  // its picture, width_ x height_
  int width_ = 0;
};

}  // namespace envpool::box2d
