// The smoothscale filter (native/envs/common/draw/smoothscale.h): its three paths (one line
// at a time, 16 lines in SSE2, 16 lines in AVX2) give the same bytes as pygame's shrink
// filter written out plainly, line by line, for sizes CarRacing and the renderers use and
// odd ones.
#include "envs/common/draw/smoothscale.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "check.h"

namespace {

using envpool::draw::smoothscale_detail::ShrinkLines;
using envpool::draw::smoothscale_detail::ShrinkPlan;

// pygame's shrink filter on one line, as a stream: a counter of 0x4000 per source sample
// against `space` per output; a sample that ends an output is split between it and the next.
std::vector<std::uint8_t> Plain(const std::uint8_t* src, int n, int m) {
  const int space = 0x4000 * n / m;
  const std::uint32_t recip = 0x40000000u / static_cast<std::uint32_t>(space);
  std::vector<std::uint8_t> out;
  std::uint32_t acc = 0;
  int counter = space;
  for (int i = 0; i < n; ++i) {
    if (counter > 0x4000) {
      acc += src[i];
      counter -= 0x4000;
      continue;
    }
    const int frac = 0x4000 - counter;
    if (static_cast<int>(out.size()) < m) {
      const std::uint32_t d =
          ((acc + ((std::uint32_t{src[i]} * static_cast<std::uint32_t>(counter)) >> 14)) *
           recip) >> 16;
      out.push_back(static_cast<std::uint8_t>(std::min<std::uint32_t>(d, 255)));
    }
    acc = (std::uint32_t{src[i]} * static_cast<std::uint32_t>(frac)) >> 14;
    counter = space - frac;
  }
  return out;
}

// `lines` random lines of n bytes (every byte value, runs of 255 for the clamp) shrunk to m,
// through ShrinkLines with and without AVX2, against Plain.
void Compare(int n, int m, int lines, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint8_t> src(static_cast<std::size_t>(n) * lines);
  for (std::size_t i = 0; i < src.size(); ++i) {
    src[i] = (i / 37) % 5 == 0 ? 255 : static_cast<std::uint8_t>(rng() & 255);
  }
  for (bool avx2 : {false, true}) {
    ShrinkPlan plan(n, m);
    plan.UseAvx2(avx2);
    CHECK_EQ(plan.Outputs(), m);
    // lanes together (lane_step 1: a row pass written column by column) and apart
    for (std::ptrdiff_t lane_step : {std::ptrdiff_t{1}, std::ptrdiff_t{3}}) {
      const std::ptrdiff_t out_step = lane_step == 1 ? lines : std::ptrdiff_t{3} * lines;
      std::vector<std::uint8_t> dst(static_cast<std::size_t>(out_step) * m + 3 * lines, 0);
      std::vector<std::uint8_t> scratch;
      ShrinkLines(plan, src.data(), n, lines, n, dst.data(), out_step, lane_step, m, scratch);
      for (int l = 0; l < lines; ++l) {
        const std::vector<std::uint8_t> want = Plain(src.data() + std::size_t{1} * l * n, n, m);
        for (int k = 0; k < m; ++k) {
          const int got = dst[k * out_step + l * lane_step];
          CHECK_MSG(got == want[k], "n " << n << " m " << m << " line " << l << " output " << k
                                         << " avx2 " << plan.Avx2() << ": " << got << " vs "
                                         << int{want[k]});
        }
      }
    }
  }
}

TEST(carracing_sizes_shrink_as_pygame_does_on_every_path) {
  Compare(1000, 96, 37, 1);  // the state pixels' row pass (800 lines; 37 = 2 x 16 + 5)
  Compare(800, 96, 40, 2);   // and its column pass
  Compare(1000, 600, 33, 3);
  Compare(800, 400, 17, 4);
}

TEST(odd_sizes_shrink_as_pygame_does_on_every_path) {
  const int sizes[][2] = {{9, 8}, {17, 3}, {31, 30}, {64, 1}, {250, 7}, {399, 398}, {210, 84}};
  std::uint32_t seed = 10;
  for (const auto& s : sizes) Compare(s[0], s[1], 35, seed++);
}

}  // namespace

int main(int argc, char** argv) { return check::RunAll(argc, argv); }
