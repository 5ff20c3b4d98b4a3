// MountainCar's picture (gymnasium's MountainCarEnv.render and
// Continuous_MountainCarEnv.render, the same drawing): the track as
// anti-aliased lines through 100 points, the car's body, its two wheels and
// the flag, 600 x 400, upside down at the end.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "envs/common/draw/raster.h"

namespace envpool::classic_control {

inline constexpr int kMountainCarWidth = 600;
inline constexpr int kMountainCarHeight = 400;

// Draws the car at `pos` into `out` (600 x 400 x 3). T is the type gymnasium's
// arithmetic on the position has: double, or float when the state is a
// float32 array (MountainCarContinuous after a step: NumPy then computes
// `(pos - min_position) * scale` and `np.sin(3 * pos)` in float32).
template <class T>
void DrawMountainCar(T pos, double goal_position, std::uint8_t* out) {
  constexpr double kMin = -1.2, kMax = 0.6;
  const double scale = kMountainCarWidth / (kMax - kMin);
  auto height = [](auto x) { return std::sin(3 * x) * decltype(x)(.45) + decltype(x)(.55); };
  draw::Canvas canvas(kMountainCarWidth, kMountainCarHeight, out);
  canvas.Fill({255, 255, 255});

  // xs = np.linspace(min, max, 100): start + i * step, the last one exact.
  std::vector<std::array<float, 2>> track;
  const double step = (kMax - kMin) / 99;
  for (int i = 0; i < 100; ++i) {
    const double x = i == 99 ? kMax : i * step + kMin;
    track.push_back({static_cast<float>((x - kMin) * scale), static_cast<float>(height(x) * scale)});
  }
  canvas.AaLines(track, {0, 0, 0});

  const double clearance = 10, carwidth = 40, carheight = 20;
  const double angle = std::cos(static_cast<double>(T(3) * pos));
  const T along = (pos - static_cast<T>(kMin)) * static_cast<T>(scale);
  const T up = height(pos) * static_cast<T>(scale);
  // c[0] + along, c[1] + clearance + up: a Python float plus a T.
  auto place = [&](double cx, double cy) {
    const auto c = draw::RotateRad(cx, cy, angle);
    return std::array<T, 2>{static_cast<T>(c[0]) + along, static_cast<T>(c[1] + clearance) + up};
  };
  const double l = -carwidth / 2, r = carwidth / 2, t = carheight, b = 0;
  std::vector<std::array<int, 2>> body;
  for (const auto& [cx, cy] : {std::array<double, 2>{l, b}, std::array<double, 2>{l, t},
                               std::array<double, 2>{r, t}, std::array<double, 2>{r, b}}) {
    const auto p = place(cx, cy);
    body.push_back({static_cast<int>(p[0]), static_cast<int>(p[1])});
  }
  canvas.OutlinedPolygon(body, {0, 0, 0});
  for (const double cx : {carwidth / 4, -carwidth / 4}) {
    const auto p = place(cx, 0);
    canvas.OutlinedCircle(static_cast<int>(p[0]), static_cast<int>(p[1]),
                          static_cast<int>(carheight / 2.5), {128, 128, 128});
  }

  const int flagx = static_cast<int>((goal_position - kMin) * scale);
  const int flagy1 = static_cast<int>(height(goal_position) * scale);
  const int flagy2 = flagy1 + 50;
  canvas.VLine(flagx, flagy1, flagy2, {0, 0, 0});
  canvas.OutlinedPolygon({{flagx, flagy2}, {flagx, flagy2 - 10}, {flagx + 25, flagy2 - 5}},
                         {204, 204, 0});
  canvas.FlipRows();
}

}  // namespace envpool::classic_control
