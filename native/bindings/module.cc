// The Python extension `envpool._native`: envpool's own native envs behind
// the same module surface as every env SDK module (bindings/pool_module.h),
// plus what only envpool needs (ViZDoom's build status, MiniGrid's mission
// vocabulary, test hooks). The Atari
// and gfootball envs are modules of their own (envs/atari/module.cc,
// envs/gfootball/module.cc).
#include <mujoco/mujoco.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstddef>
#include <complex>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "bindings/pool_module.h"
#include "core/registry.h"
#include "core/seed_sequence.h"
#include "envs/box2d/register.h"
#include "envs/classic_control/register.h"
#include "envs/common/numpy_fft.h"
#include "envs/common/numpy_normal.h"
#include "envs/common/numpy_random.h"
#include "envs/common/pink_noise.h"
#include "envs/dm_control/register.h"
#include "envs/highway/register.h"
#include "envs/jumanji/register.h"
#include "envs/procgen/qt_paint.h"
#include "envs/procgen/register.h"
#include "envs/metaworld/register.h"
#include "envs/myosuite/register.h"
#include "envs/pgx/register.h"
#include "envs/minigrid/register.h"
#include "envs/mujoco/register.h"
#include "envs/playground/register.h"
#include "envs/robotics/register.h"
#include "envs/testing/dummy.h"
#include "envs/testing/faulty.h"
#include "envs/toy_text/register.h"
#include "envs/vizdoom/register.h"

namespace py = pybind11;

namespace envpool {
namespace {

Registry BuildRegistry() {
  Registry registry;
  box2d::Register(registry);
  classic_control::Register(registry);
  dm_control::Register(registry);
  highway::Register(registry);
  jumanji::Register(registry);
  procgen::Register(registry);
  metaworld::Register(registry);
  myosuite::Register(registry);
  pgx::Register(registry);
  minigrid::Register(registry);
  mujoco::Register(registry);
  playground::Register(registry);
  robotics::Register(registry);
  toy_text::Register(registry);
  vizdoom_envs::Register(registry);
  // For the test suite; not registered as a task id.
  registry.push_back(MakeEntry<testing::Faulty>("_Faulty"));
  // The core's multi-player test env (sail-sg EnvPool's dummy env); not a task id either.
  registry.push_back(MakeEntry<testing::Dummy>("_Dummy"));
  return registry;
}

}  // namespace
}  // namespace envpool

PYBIND11_MODULE(_native, m) {
  using namespace envpool;
  m.doc() = "envpool native core: the thread pool and the C++ environments";
  // libmujoco is not linked but loaded by `import envpool` (CMakeLists.txt): its structs
  // change between versions, so only the version compiled against will do.
  if (mj_version() != mjVERSION_HEADER) {
    throw py::import_error("envpool was built against MuJoCo " +
                           std::to_string(mjVERSION_HEADER) + " but the loaded MuJoCo is " +
                           mj_versionString() + ": install the mujoco that envpool-ng pins "
                           "(pip install envpool-ng installs it)");
  }
  bindings::DefinePoolModule(m, BuildRegistry());

  m.attr("vizdoom_missing") = vizdoom_envs::MissingReason();
  // The words of MiniGrid's obs["mission_tokens"], by token id (envpool.tasks.minigrid
  // decodes the tokens with them).
  m.attr("minigrid_vocabulary") = py::tuple(py::cast(minigrid::Vocabulary()));

  // For the tests only (compared with numpy.random.SeedSequence): the words
  // of SeedSequence(seed).generate_state(n_words) that the Atari envs derive
  // their ALE seeds from.
  m.def(
      "_seed_sequence_state",
      [](std::uint64_t seed, std::size_t n_words) {
        return SeedSequence(seed).GenerateState(n_words);
      },
      py::arg("seed"), py::arg("n_words"));

  // For the tests only (compared with numpy.random.default_rng(seed)): the draws of
  // envs/common/numpy_random.h's generator for a list of calls, each (name, a, b):
  // ("integers", low, high), ("uniform", low, high) or ("shuffle", n, 0) (the
  // permutation of range(n) that shuffle makes, n values).
  m.def(
      "_numpy_generator_draws",
      [](std::uint64_t seed, const std::vector<std::tuple<std::string, double, double>>& calls) {
        NumpyGenerator gen(seed);
        std::vector<double> out;
        for (const auto& [name, a, b] : calls) {
          if (name == "integers") {
            out.push_back(static_cast<double>(
                gen.Integers(static_cast<std::int64_t>(a), static_cast<std::int64_t>(b))));
          } else if (name == "uniform") {
            out.push_back(gen.Uniform(a, b));
          } else if (name == "shuffle") {
            std::vector<int> x(static_cast<std::size_t>(a));
            for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int>(i);
            gen.Shuffle(x);
            out.insert(out.end(), x.begin(), x.end());
          } else {
            throw std::invalid_argument("unknown call " + name);
          }
        }
        return out;
      },
      py::arg("seed"), py::arg("calls"));

  // For the tests only (compared with numpy.fft.irfft): envs/common/numpy_fft.h's irfft of
  // the spectrum re + 1j * im to n points.
  m.def(
      "_numpy_irfft",
      [](const std::vector<double>& re, const std::vector<double>& im, std::size_t n) {
        if (re.size() != im.size()) throw std::invalid_argument("re and im differ in length");
        std::vector<std::complex<double>> spectrum(re.size());
        for (std::size_t i = 0; i < re.size(); ++i) spectrum[i] = {re[i], im[i]};
        return NumpyIrfft(n)(spectrum);
      },
      py::arg("re"), py::arg("im"), py::arg("n"));

  // For the tests only (compared with the pink package on numpy.random.default_rng(seed)):
  // envs/common/pink_noise.h's ColoredNoiseProcess(beta, (rows, time_steps), scale,
  // max_period) drawn from NumpyGenerator(seed), then n_samples calls of sample() (rows
  // values each, concatenated); max_period <= 0 is None. ki, wi, fi: numpy's ziggurat tables.
  m.def(
      "_pink_noise_samples",
      [](std::uint64_t seed, double beta, std::size_t rows, std::size_t time_steps, double scale,
         double max_period, std::size_t n_samples, const std::vector<double>& ki,
         const std::vector<double>& wi, const std::vector<double>& fi) {
        NumpyGenerator gen(seed);
        const NumpyZiggurat zig = NumpyZiggurat::From(ki, wi, fi);
        ColoredNoiseProcess noise(beta, rows, time_steps, scale, max_period, gen, zig);
        std::vector<double> out;
        for (std::size_t i = 0; i < n_samples; ++i) {
          const std::vector<double> x = noise.Sample(gen, zig);
          out.insert(out.end(), x.begin(), x.end());
        }
        out.push_back(gen.NextDouble());  // the generator's next uniform draw, after them
        return out;
      },
      py::arg("seed"), py::arg("beta"), py::arg("rows"), py::arg("time_steps"),
      py::arg("scale"), py::arg("max_period"), py::arg("n_samples"), py::arg("ki"),
      py::arg("wi"), py::arg("fi"));
  // For the tests only (compared with Qt 5.13.2's QPainter in procgen's wheel,
  // tests/procgen_oracle.py's QtPainterOracle): envs/procgen/qt_paint.h's aliased
  // drawEllipse of each (x, y, w, h, pen, brush) in turn onto a width x height canvas filled
  // with `background`; pen and brush are 0xAARRGGBB colours or -1 for none. Returns the
  // canvas' 0xAARRGGBB words, row by row.
  m.def(
      "_procgen_draw_ellipses",
      [](int width, int height, std::uint32_t background,
         const std::vector<std::tuple<double, double, double, double, std::int64_t,
                                      std::int64_t>>& ellipses) {
        if (width <= 0 || height <= 0) throw std::invalid_argument("an empty canvas");
        envpool::procgen::Painter painter(width, height);
        painter.FillRect({0, 0, static_cast<double>(width), static_cast<double>(height)},
                         (background >> 16) & 255, (background >> 8) & 255, background & 255);
        auto colour = [](std::int64_t argb) {
          return envpool::procgen::Painter::SolidColour(static_cast<int>((argb >> 16) & 255),
                                               static_cast<int>((argb >> 8) & 255),
                                               static_cast<int>(argb & 255),
                                               static_cast<int>((argb >> 24) & 255));
        };
        for (const auto& [x, y, w, h, pen, brush] : ellipses) {
          painter.DrawEllipse({x, y, w, h}, pen >= 0, pen >= 0 ? colour(pen) : 0, brush >= 0,
                              brush >= 0 ? colour(brush) : 0);
        }
        return painter.canvas();
      },
      py::arg("width"), py::arg("height"), py::arg("background"), py::arg("ellipses"));
  // For the tests only (as above): envs/procgen/qt_paint.h's drawImage of one premultiplied
  // ARGB image (`pixels`, 0xAARRGGBB words row by row, width image_width) for each
  // (x, y, w, h, dx, dy, degrees, opacity) in turn, as procgen draws an entity: save,
  // setOpacity, translate(dx, dy), rotate(degrees), drawImage(QRectF(x, y, w, h)), restore.
  m.def(
      "_procgen_draw_images",
      [](int width, int height, std::uint32_t background,
         const std::vector<std::uint32_t>& pixels, int image_width,
         const std::vector<std::tuple<double, double, double, double, double, double, double,
                                      double>>& draws) {
        if (width <= 0 || height <= 0) throw std::invalid_argument("an empty canvas");
        if (image_width <= 0 || pixels.empty() ||
            pixels.size() % static_cast<std::size_t>(image_width) != 0) {
          throw std::invalid_argument("the image's pixels are not rows of image_width");
        }
        envpool::procgen::Image image;
        image.width = image_width;
        image.height = static_cast<int>(pixels.size() / static_cast<std::size_t>(image_width));
        image.pixels = pixels;
        envpool::procgen::Painter painter(width, height);
        painter.FillRect({0, 0, static_cast<double>(width), static_cast<double>(height)},
                         (background >> 16) & 255, (background >> 8) & 255, background & 255);
        for (const auto& [x, y, w, h, dx, dy, degrees, opacity] : draws) {
          painter.Save();
          painter.SetOpacity(opacity);
          painter.Translate(dx, dy);
          painter.Rotate(degrees);
          painter.DrawImage({x, y, w, h}, image);
          painter.Restore();
        }
        return painter.canvas();
      },
      py::arg("width"), py::arg("height"), py::arg("background"), py::arg("pixels"),
      py::arg("image_width"), py::arg("draws"));
}
