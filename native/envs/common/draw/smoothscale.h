// pygame.transform.smoothscale for a shrink in both directions, as pygame-ce 2.5 computes it
// on x86-64 (and ARM, where the same source runs through sse2neon): its SSE2 filters, which
// it picks whenever the CPU has SSE2 (every x86-64 CPU has). Their arithmetic is not that
// of pygame's portable C filters (the "GENERIC" backend, 16.16 fixed point): SSE2 works in
// 16-bit lanes with 2.14 fixed-point weights, and the two backends give different pixels
// for the same picture (set_smoothscale_backend shows it), so the SSE2 one is the one
// gymnasium's pictures come from on any machine it runs on. Restated per channel:
//   - X shrink, each row: xspace = 0x4000 * srcw / dstw, xrecip = 0x40000000 / xspace;
//     an accumulator (uint16) takes whole source pixels while the counter exceeds 0x4000;
//     at the pixel that ends a destination pixel, s = src << 2, the output is
//     ((s * counter >> 16) + acc) * xrecip >> 16 (saturated to 255), and the accumulator
//     restarts with s * (0x4000 - counter) >> 16.
//   - Y shrink, the same down each column, on the X shrink's rows.
// Each channel of the RGB rows is filtered alone (pygame's fourth byte does not mix in).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace envpool::draw {

namespace smoothscale_detail {

// One line of `n` source samples (stride `step`) shrunk to `m` samples (stride `out_step`).
inline void ShrinkLine(const std::uint8_t* src, int step, int n, std::uint8_t* dst, int out_step,
                       int m) {
  const int space = 0x4000 * n / m;
  const std::uint32_t recip = static_cast<std::uint16_t>(0x40000000 / space);
  std::uint32_t acc = 0;
  int counter = space;
  int written = 0;
  for (int i = 0; i < n; ++i) {
    const std::uint32_t s = src[static_cast<std::size_t>(i) * step];
    if (counter > 0x4000) {
      acc = (acc + s) & 0xFFFF;
      counter -= 0x4000;
    } else {
      const int frac = 0x4000 - counter;
      const std::uint32_t s4 = (s << 2) & 0xFFFF;
      std::uint32_t d = (((s4 * static_cast<std::uint32_t>(counter)) >> 16) + acc) & 0xFFFF;
      acc = (s4 * static_cast<std::uint32_t>(frac)) >> 16;
      d = (d * recip) >> 16;
      if (written < m) dst[static_cast<std::size_t>(written) * out_step] = static_cast<std::uint8_t>(std::min<std::uint32_t>(d, 255));
      ++written;
      counter = space - frac;
    }
  }
}

}  // namespace smoothscale_detail

// pygame.transform.smoothscale of an RGB picture `sw` x `sh` (rows of sw * 3 bytes) to
// `dw` x `dh` with dw < sw and dh < sh, into `dst` (rows of dw * 3 bytes).
inline void SmoothShrink(const std::uint8_t* src, int sw, int sh, std::uint8_t* dst, int dw,
                         int dh) {
  std::vector<std::uint8_t> temp(static_cast<std::size_t>(dw) * sh * 3);
  for (int y = 0; y < sh; ++y) {
    for (int c = 0; c < 3; ++c) {
      smoothscale_detail::ShrinkLine(src + static_cast<std::size_t>(y) * sw * 3 + c, 3, sw,
                                     temp.data() + static_cast<std::size_t>(y) * dw * 3 + c, 3,
                                     dw);
    }
  }
  for (int x = 0; x < dw; ++x) {
    for (int c = 0; c < 3; ++c) {
      smoothscale_detail::ShrinkLine(temp.data() + x * 3 + c, dw * 3, sh, dst + x * 3 + c,
                                     dw * 3, dh);
    }
  }
}

}  // namespace envpool::draw
