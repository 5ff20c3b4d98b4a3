"""Does FreeType, driven as below, draw gymnasium CarRacing's reward text as pygame-ce does?

gymnasium draws ``font.render(f"{reward:04.0f}", True, (255, 255, 255), (0, 0, 0))`` with
``pygame.font.Font(pygame.font.get_default_font(), 42)`` (freesansbold.ttf; pygame-ce 2.5.8
bundles SDL_ttf 2.24 and FreeType 2.13). The candidate recipe, on the system's FreeType 2.12.1:
  - FT_Set_Char_Size(face, 0, 42 * 64, 0, 0); each glyph loaded with FT_LOAD_FORCE_AUTOHINT
    and rendered FT_RENDER_MODE_NORMAL (ft3.cc dumps "-0123456789" to glyphs.txt: left, top,
    width, rows, advance in 26.6, then the coverage rows);
  - the pen in 26.6: advance plus FT_Get_Kerning(..., FT_KERNING_UNFITTED) between each pair
    (ft5.cc dumps them to kern.txt); each glyph at x = floor(pen / 64) + left,
    y = 34 (the ascender) - top; the surface floor(pen_end / 64) wide and 46 high, black;
  - a pixel's grey level is the glyph's coverage.
Run from a folder with glyphs.txt and kern.txt (g++ ft3.cc -I/usr/include/freetype2 -lfreetype;
./a.out .../pygame/freesansbold.ttf > glyphs.txt; likewise ft5.cc > kern.txt).
Result (2026-11-26): all 1302 strings of rewards -300 .. 1000 (and -0.1, -0.4) equal pygame's
render bit for bit; rounding the pen instead of flooring it breaks 601 of them.
"""

import numpy as np
import pygame

lines = open("glyphs.txt").read().splitlines()
GLYPHS = {}
i = 1
while i < len(lines):
    p = lines[i].split()
    left, top, w, h, adv = map(int, p[1:])
    rows = [[int(v) for v in line.split()] for line in lines[i + 1 : i + 1 + h]]
    GLYPHS[p[0]] = (left, top, np.array(rows, dtype=np.int64).reshape(h, w), adv)
    i += 1 + h
KERN = {line[:2]: int(line[3:]) for line in open("kern.txt").read().splitlines()}


def ours(s: str) -> np.ndarray:
    pen, xs = 0, []
    for k, c in enumerate(s):
        if k:
            pen += KERN[s[k - 1] + c]
        xs.append(pen)
        pen += GLYPHS[c][3]
    img = np.zeros((46, pen // 64), np.int64)
    for c, x in zip(s, xs, strict=True):
        left, top, bmp, _ = GLYPHS[c]
        x0, y0 = x // 64 + left, 34 - top
        for y in range(bmp.shape[0]):
            for xx in range(bmp.shape[1]):
                if 0 <= x0 + xx < img.shape[1]:
                    img[y0 + y, x0 + xx] = max(img[y0 + y, x0 + xx], bmp[y, xx])
    return img


pygame.font.init()
font = pygame.font.Font(pygame.font.get_default_font(), 42)
strings = sorted({f"{r:04.0f}" for r in [*np.arange(-300, 1001, 1.0), -0.1, -0.4]})
bad = 0
for s in strings:
    theirs = pygame.surfarray.array3d(font.render(s, True, (255, 255, 255), (0, 0, 0)))
    theirs = theirs[:, :, 0].T.astype(np.int64)
    mine = ours(s)
    bad += mine.shape != theirs.shape or not np.array_equal(mine, theirs)
print(f"{len(strings)} strings, {bad} differ")
