#include <ft2build.h>
#include FT_FREETYPE_H
#include <cstdio>
int main(int argc, char** argv) {
  FT_Library lib; FT_Init_FreeType(&lib);
  FT_Face face; FT_New_Face(lib, argv[1], 0, &face);
  FT_Set_Char_Size(face, 0, 42 * 64, 0, 0);
  const char* cs = "-0123456789";
  for (const char* a = cs; *a; ++a) for (const char* b = cs; *b; ++b) {
    FT_Vector u;
    FT_Get_Kerning(face, FT_Get_Char_Index(face, *a), FT_Get_Char_Index(face, *b), FT_KERNING_UNFITTED, &u);
    printf("%c%c %ld\n", *a, *b, u.x);
  }
}
