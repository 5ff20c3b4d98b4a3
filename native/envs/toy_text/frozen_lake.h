// FrozenLake-v1 / FrozenLake8x8-v1: gymnasium 1.4's toy_text/frozen_lake.py.
//
// Keywords (gymnasium's constructor, render_mode aside):
//   desc             list of strings over "SFHG", all rows the same length;
//                    empty = use map_name (gymnasium's desc=None)
//   map_name         "4x4" or "8x8" (read only when desc is empty; gymnasium's
//                    random map for map_name=None is not offered: pass
//                    desc=generate_random_map(...) instead)
//   is_slippery      move in the intended direction with probability
//                    success_rate, else in one of the two perpendicular ones
//   success_rate     default 1/3
//   reward_schedule  three numbers (reach goal, hole, frozen/start),
//                    default (1, 0, 0)
//
// Same transition table P[s][a] as gymnasium: from S/F tiles, for b in
// [(a - 1) % 4, a, (a + 1) % 4] (slippery, probabilities fail, success,
// fail with fail = (1 - success_rate) / 2) or [a] (probability 1), move b
// clamped to the grid, reward by the tile entered, terminated on G or H;
// from G/H tiles every action is (1.0, s, 0, true). The start is uniform over
// the S tiles. Observation: row * ncol + col (int64); info "prob" is the
// probability of the transition taken (1 on reset).
// State (GetState/SetState): [s].
//
// render(): gymnasium's picture (_render_gui("rgb_array"), see Render below),
// min(64 * ncol, 512) wide and min(64 * nrow, 512) high; the hidden keyword
// _img_dir is gymnasium's toy_text/img folder (set by envpool.tasks.toy_text).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/env.h"
#include "envs/common/draw/picture.h"
#include "envs/toy_text/picture.h"
#include "envs/toy_text/tabular.h"

namespace envpool::toy_text {

class FrozenLake final : public TabularWalk {
 public:
  struct Model {
    std::vector<std::string> desc;
    std::int64_t nrow = 0, ncol = 0;
    std::vector<double> reward_schedule;  // goal, hole, frozen
    std::vector<std::int64_t> start_states;
    TransitionTable table;
  };

  struct Params {
    explicit Params(const Config& config)
        : model(BuildModel(config)), img_dir(config.GetString("_img_dir")) {}
    std::shared_ptr<const Model> model;
    std::string img_dir;  // gymnasium's toy_text/img folder; "": unknown
  };

  static Config Defaults() {
    Config config;
    config.Set("desc", std::vector<std::string>{});
    config.Set("map_name", std::string("4x4"));
    config.Set("is_slippery", true);
    config.Set("success_rate", 1.0 / 3.0).In(0, 1);
    config.Set("reward_schedule", std::vector<double>{1.0, 0.0, 0.0});
    config.Set("_img_dir", std::string());
    return config;
  }

  static EnvSpec MakeSpec(const Params& params) {
    const Model& m = *params.model;
    EnvSpec spec;
    spec.obs.push_back(DiscreteSpec("obs", m.nrow * m.ncol, DType::kInt64));
    spec.action = DiscreteSpec("action", 4, DType::kInt32);
    spec.info.push_back(BoxSpec("prob", DType::kFloat64, {}));
    spec.reward_low = *std::min_element(m.reward_schedule.begin(), m.reward_schedule.end());
    spec.reward_high = *std::max_element(m.reward_schedule.begin(), m.reward_schedule.end());
    return spec;
  }

  explicit FrozenLake(const Params& params)
      : TabularWalk(std::shared_ptr<const TransitionTable>(params.model, &params.model->table),
                    "FrozenLake"),
        model_(params.model),
        sprites_(params.img_dir, "FrozenLake") {}

  static FrameSize RenderSize(const Params& params, int width, int height, int camera_id) {
    const Model& m = *params.model;
    return draw::FixedFrame("FrozenLake", WindowSize(m.ncol), WindowSize(m.nrow), kToyTextFps,
                            width, height, camera_id);
  }

  // gymnasium 1.4's picture: each cell (cell_w x cell_h = window // grid) gets its tile
  // (img/tile_hole.png on H, else img/tile_ice.png, with tile_ice_crack_a / _b on the F
  // cells where (3 x + 5 y) % 7 is 0 / 1), all pygame.transform.scale'd to the cell; S
  // gets letter_s.png in its corner, G goal_flag.png planted at its bottom and
  // letter_g.png (the overlays scaled by min(cell) / 64, rounded half to even, at least
  // 1 pixel); then the cell's border in (180, 200, 230); last agent.png centred on the
  // agent's cell, unless it is a hole. Blit positions are truncated to whole pixels, as
  // pygame does; what no cell covers (a window not a multiple of the grid) stays black.
  // Maps of more than 512 rows or columns (cells of 0 pixels) are refused.
  void Render(int /*width*/, int /*height*/, int /*camera_id*/, std::uint8_t* out) override {
    const Model& m = *model_;
    if (m.nrow > 512 || m.ncol > 512) {  // (refused here: every pool's spec asks RenderSize)
      throw std::runtime_error(
          "FrozenLake draws maps of at most 512 rows and 512 columns, got " +
          std::to_string(m.nrow) + " x " + std::to_string(m.ncol) +
          ": gymnasium's cells are then 0 pixels and its picture keeps what earlier frames "
          "drew there");
    }
    const int ncol = static_cast<int>(m.ncol), nrow = static_cast<int>(m.nrow);
    const int width = WindowSize(m.ncol), height = WindowSize(m.nrow);
    const int cw = width / ncol, ch = height / nrow;
    if (!images_) images_ = LoadImages(cw, ch);
    const Images& img = *images_;
    Canvas canvas(width, height, out);
    canvas.Fill({0, 0, 0});  // (a new pygame surface)
    auto overlay = [&](const RgbaImage& image, int col, int row, char anchor) {
      const int cx = col * cw, cy = row * ch;
      if (anchor == 'c') {  // the corner
        const int margin = static_cast<int>(std::nearbyint(cw * 0.06));
        canvas.Blit(image, cx + margin, cy + margin);
      } else if (anchor == 'f') {  // the flag: bottom-centred
        canvas.Blit(image, static_cast<int>(cx + (cw - image.width) / 2.0),
                    cy + ch - image.height - static_cast<int>(std::nearbyint(ch * 0.12)));
      } else {  // centred
        canvas.Blit(image, static_cast<int>(cx + (cw - image.width) / 2.0),
                    static_cast<int>(cy + (ch - image.height) / 2.0));
      }
    };
    for (int y = 0; y < nrow; ++y) {
      for (int x = 0; x < ncol; ++x) {
        const char tile = m.desc[y][x];
        if (tile == 'H') {
          canvas.Blit(img.hole, x * cw, y * ch);
        } else {
          canvas.Blit(img.ice, x * cw, y * ch);
          if (tile == 'F') {
            const int crack = (x * 3 + y * 5) % 7;
            if (crack < 2) canvas.Blit(img.crack[crack], x * cw, y * ch);
          } else if (tile == 'S') {
            overlay(img.letter_s, x, y, 'c');
          } else {  // G
            overlay(img.flag, x, y, 'f');
            overlay(img.letter_g, x, y, 'c');
          }
        }
        RectOutline(canvas, x * cw, y * ch, cw, ch, {180, 200, 230});
      }
    }
    const int row = static_cast<int>(s() / m.ncol), col = static_cast<int>(s() % m.ncol);
    if (m.desc[row][col] != 'H') overlay(img.agent, col, row, 'm');
  }

  void Reset(Rng& rng) override {
    const auto& starts = model_->start_states;
    Start(starts.size() == 1
              ? starts[0]
              : starts[static_cast<std::size_t>(
                    rng.Integer(0, static_cast<std::int64_t>(starts.size())))]);
  }

 private:
  static constexpr int kLeft = 0, kDown = 1, kRight = 2, kUp = 3;

  // The sprites scaled for one cell size.
  struct Images {
    RgbaImage ice, hole, crack[2], agent, flag, letter_s, letter_g;
  };

  // gymnasium's window side for `cells` cells: min(64 * cells, 512).
  static int WindowSize(std::int64_t cells) {
    return static_cast<int>(std::min<std::int64_t>(64 * cells, 512));
  }

  std::unique_ptr<const Images> LoadImages(int cw, int ch) {
    using draw::NearestScale;
    auto img = std::make_unique<Images>();
    img->ice = NearestScale(sprites_.Get("tile_ice.png"), cw, ch);
    img->hole = NearestScale(sprites_.Get("tile_hole.png"), cw, ch);
    img->crack[0] = NearestScale(sprites_.Get("tile_ice_crack_a.png"), cw, ch);
    img->crack[1] = NearestScale(sprites_.Get("tile_ice_crack_b.png"), cw, ch);
    // gymnasium's load_overlay(name, native_size): the art is drawn for a 64-pixel cell
    const double scale = std::min(cw, ch) / 64.0;
    auto overlay = [&](const char* name, int w, int h) {
      return NearestScale(sprites_.Get(name),
                          std::max(1, static_cast<int>(std::nearbyint(w * scale))),
                          std::max(1, static_cast<int>(std::nearbyint(h * scale))));
    };
    img->agent = overlay("agent.png", 40, 36);
    img->flag = overlay("goal_flag.png", 24, 32);
    img->letter_s = overlay("letter_s.png", 12, 20);
    img->letter_g = overlay("letter_g.png", 12, 20);
    return img;
  }

  static std::vector<std::string> MapByName(const std::string& name) {
    if (name == "4x4") return {"SFFF", "FHFH", "FFFH", "HFFG"};
    if (name == "8x8") {
      return {"SFFFFFFF", "FFFFFFFF", "FFFHFFFF", "FFFFFHFF",
              "FFFHFFFF", "FHHFFFHF", "FHFFHFHF", "FFFHFFFG"};
    }
    throw std::invalid_argument("FrozenLake: unknown map_name '" + name +
                                "'; valid: '4x4', '8x8' (or pass desc, a list of strings)");
  }

  static std::shared_ptr<const Model> BuildModel(const Config& config) {
    auto m = std::make_shared<Model>();
    m->desc = config.GetStrings("desc");
    if (m->desc.empty()) m->desc = MapByName(config.GetString("map_name"));
    m->nrow = static_cast<std::int64_t>(m->desc.size());
    m->ncol = static_cast<std::int64_t>(m->desc[0].size());
    if (m->ncol == 0) throw std::invalid_argument("FrozenLake: desc rows must not be empty");
    for (const std::string& row : m->desc) {
      if (static_cast<std::int64_t>(row.size()) != m->ncol) {
        throw std::invalid_argument(
            "FrozenLake: desc rows must all have the same length (a rectangular map), got '" +
            row + "' next to a row of length " + std::to_string(m->ncol));
      }
      for (char c : row) {
        if (c != 'S' && c != 'F' && c != 'H' && c != 'G') {
          throw std::invalid_argument(std::string("FrozenLake: bad tile '") + c +
                                      "' in desc; valid tiles: S (start), F (frozen), "
                                      "H (hole), G (goal)");
        }
      }
    }
    const bool is_slippery = config.GetBool("is_slippery");
    const double success_rate = config.GetDouble("success_rate");
    CheckProbability(success_rate, "FrozenLake: success_rate");
    m->reward_schedule = config.GetDoubles("reward_schedule");
    if (m->reward_schedule.size() != 3) {
      throw std::invalid_argument(
          "FrozenLake: reward_schedule needs 3 numbers (goal, hole, frozen), got " +
          std::to_string(m->reward_schedule.size()));
    }

    const std::int64_t nrow = m->nrow, ncol = m->ncol;
    for (std::int64_t s = 0; s < nrow * ncol; ++s) {
      if (m->desc[s / ncol][s % ncol] == 'S') m->start_states.push_back(s);
    }
    if (m->start_states.empty()) {
      throw std::invalid_argument("FrozenLake: desc needs at least one start tile 'S'");
    }

    const double fail_rate = (1.0 - success_rate) / 2.0;
    m->table = TransitionTable(nrow * ncol, 4);
    auto outcome = [&](std::int64_t row, std::int64_t col, int a, double prob) {
      if (a == kLeft) {
        col = std::max<std::int64_t>(col - 1, 0);
      } else if (a == kDown) {
        row = std::min<std::int64_t>(row + 1, nrow - 1);
      } else if (a == kRight) {
        col = std::min<std::int64_t>(col + 1, ncol - 1);
      } else {
        row = std::max<std::int64_t>(row - 1, 0);
      }
      const char letter = m->desc[row][col];
      Transition t;
      t.prob = prob;
      t.next = row * ncol + col;
      t.terminated = letter == 'G' || letter == 'H';
      t.reward = letter == 'G'   ? m->reward_schedule[0]
                 : letter == 'H' ? m->reward_schedule[1]
                                 : m->reward_schedule[2];
      return t;
    };
    for (std::int64_t row = 0; row < nrow; ++row) {
      for (std::int64_t col = 0; col < ncol; ++col) {
        const std::int64_t s = row * ncol + col;
        const char letter = m->desc[row][col];
        for (int a = 0; a < 4; ++a) {
          if (letter == 'G' || letter == 'H') {
            m->table.Add(s, a, Transition{1.0, s, 0.0, true});
          } else if (is_slippery) {
            for (int b : {(a + 3) % 4, a, (a + 1) % 4}) {
              m->table.Add(s, a, outcome(row, col, b, b == a ? success_rate : fail_rate));
            }
          } else {
            m->table.Add(s, a, outcome(row, col, a, 1.0));
          }
        }
      }
    }
    return m;
  }

  std::shared_ptr<const Model> model_;
  Sprites sprites_;                      // gymnasium's images, read once
  std::unique_ptr<const Images> images_;  // scaled for the cell, on the first frame
};

}  // namespace envpool::toy_text
