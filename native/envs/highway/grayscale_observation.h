// highway-env's envs/common/observation.py GrayscaleObservation, restated: what the
// observation's own viewer draws (graphics.h; the env's viewer config with screen_width and
// screen_height the observation_shape's, and its scaling and centering_position where given),
// each pixel's np.dot of its RGB with the weights (summed as the running numpy's ddot sums
// three numbers, envs/common/numpy_blas.h), clipped to [0, 255] and cut to uint8, transposed
// to observation_shape (W x H); the frames stacked, newest last (np.roll), zeros at reset
// (the package makes its observation type anew at each reset).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "envs/common/numpy_blas.h"
#include "envs/highway/graphics.h"
#include "envs/highway/observation.h"

namespace envpool::highway {

struct GrayscaleConfig {
  ViewerConfig viewer;  // width, height: observation_shape
  int stack_size = 4;
  std::array<double, 3> weights{0.2989, 0.5870, 0.1140};
  NumpyBlas blas;
};

class GrayscaleObservation final : public ObservationType {
 public:
  explicit GrayscaleObservation(const GrayscaleConfig& config)
      : c_(config),
        viewer_(config.viewer),
        rgb_(std::size_t{3} * config.viewer.width * config.viewer.height),
        obs_(static_cast<std::size_t>(config.stack_size) * config.viewer.width *
             config.viewer.height) {}

  void Reset() override { std::fill(obs_.begin(), obs_.end(), 0); }

  void Observe(const Road& road, const Vehicle& observer, NumpyGenerator& /*np_random*/) override {
    const int w = c_.viewer.width, h = c_.viewer.height;
    const std::size_t frame = std::size_t{1} * w * h;
    std::copy(obs_.begin() + static_cast<std::ptrdiff_t>(frame), obs_.end(), obs_.begin());
    viewer_.Draw(road, observer.position, rgb_.data());
    std::uint8_t* out = obs_.data() + obs_.size() - frame;
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        const std::uint8_t* p = rgb_.data() + (std::size_t{1} * y * w + x) * 3;
        const double rgb[3] = {static_cast<double>(p[0]), static_cast<double>(p[1]),
                               static_cast<double>(p[2])};
        const double g = std::min(std::max(c_.blas.Dot(rgb, c_.weights.data(), 3), 0.0), 255.0);
        out[std::size_t{1} * x * h + y] = static_cast<std::uint8_t>(g);
      }
    }
  }

  void Write(const Slot& slot, std::size_t key) const override {
    std::copy(obs_.begin(), obs_.end(), slot.Obs<std::uint8_t>(key));
  }

 private:
  GrayscaleConfig c_;
  Viewer viewer_;
  std::vector<std::uint8_t> rgb_;  // the viewer's picture, H x W x 3
  std::vector<std::uint8_t> obs_;  // stack x W x H
};

}  // namespace envpool::highway
