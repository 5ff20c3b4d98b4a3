#include <ft2build.h>
#include FT_FREETYPE_H
#include <cstdio>
int main(int argc, char** argv) {
  FT_Library lib; FT_Init_FreeType(&lib);
  FT_Face face; FT_New_Face(lib, argv[1], 0, &face);
  FT_Set_Char_Size(face, 0, 42 * 64, 0, 0);
  printf("%ld %ld %ld %ld %ld\n", face->size->metrics.ascender, face->size->metrics.descender, face->size->metrics.height, (long)face->ascender, (long)face->descender);
  for (const char* p = "-0123456789"; *p; ++p) {
    FT_Load_Glyph(face, FT_Get_Char_Index(face, *p), FT_LOAD_FORCE_AUTOHINT);
    FT_Render_Glyph(face->glyph, FT_RENDER_MODE_NORMAL);
    FT_Bitmap& b = face->glyph->bitmap;
    printf("%c %d %d %d %d %ld\n", *p, face->glyph->bitmap_left, face->glyph->bitmap_top, b.width, b.rows, face->glyph->advance.x);
    for (unsigned y = 0; y < b.rows; ++y) { for (unsigned x = 0; x < b.width; ++x) printf("%d ", b.buffer[y * b.pitch + x]); printf("\n"); }
  }
}
