// CarRacing: gymnasium 1.4's box2d/car_racing.py and car_dynamics.py line by line, on the
// same Box2D engine as LunarLander and BipedalWalker (native/third_party/build_box2d.py).
//
// As there, Box2D's state is float32 and gymnasium's own arithmetic Python's float64: a
// value read from a body is widened to double, a number handed to Box2D rounded to float32
// (pybox2d.h), and the float64 expressions keep Python's order. Randomness is gymnasium's
// self.np_random (envs/common/numpy_random.h) seeded with the env's seed: the colours of
// domain_randomize, then the checkpoints of each try at a track, in gymnasium's order.
//
// gymnasium keeps one Box2D world for the env's life and, at each reset, destroys the last
// episode's tiles (in order) and car (hull, then wheels) before it makes the new ones; the
// world here lives as long and does the same, so that Box2D's broad phase reuses its proxies
// as gymnasium's does and the contacts come in gymnasium's order (the order decides which
// tile completes a lap).
//
// The observation is gymnasium's state picture (_render("state_pixels")), drawn after each
// step as gymnasium draws it: the background, grass and road polygons (gfxdraw.aapolygon and
// filled_polygon, their float coordinates cut to int as pygame does), the car (pygame.draw
// polygons: the wheels with their phase stripe, then the hull), the flip, the indicators
// bar, the reward's text (reward_text.h: FreeType and pygame's font, the hidden keyword
// _font, which the task ids fill from the installed pygame; without it no text is drawn),
// then pygame-ce's SSE2 smoothscale to 96 x 96 (envs/common/draw/smoothscale.h).
// render() is gymnasium's _render("rgb_array"): the same drawing with the car's skid marks
// (Car.particles, kept by Car.step whatever the render mode, as gymnasium keeps them: they do
// not touch the physics) under the car, smoothscaled to 600 x 400.
// GetState() exposes the track, the car and the reward bookkeeping in float64 for the
// alignment tests (tests/test_align_car_racing.py).
#pragma once

#include <Box2D/Box2D.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <deque>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/env.h"
#include "envs/box2d/pybox2d.h"
#include "envs/box2d/reward_text.h"
#include "envs/common/draw/raster.h"
#include "envs/common/draw/smoothscale.h"
#include "envs/common/keywords.h"
#include "envs/common/numpy_random.h"

namespace envpool::box2d {

class CarRacing final : public Env {
 public:
  struct Params {
    explicit Params(const Config& config) { Keys().Read(config, *this); }
    bool continuous;
    bool domain_randomize;
    double lap_complete_percent;
    std::string font;  // pygame's freesansbold.ttf; empty: no reward text
  };

  // gymnasium 1.4's CarRacing keywords and defaults.
  static Keywords<Params> Keys() {
    Keywords<Params> k;
    k.Add("continuous", true, &Params::continuous);
    k.Add("domain_randomize", false, &Params::domain_randomize);
    k.Add("lap_complete_percent", 0.95, &Params::lap_complete_percent);
    k.Add("_font", std::string(), &Params::font);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& params) {
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("obs", DType::kUInt8, {kStateH, kStateW, 3}, {0.0}, {255.0}));
    spec.action = params.continuous
                      ? BoxSpec("action", DType::kFloat32, {3}, {-1.0, 0.0, 0.0}, {1.0, 1.0, 1.0})
                      : DiscreteSpec("action", 5, DType::kInt32);
    spec.info.push_back(BoxSpec("tile_visited_count", DType::kInt32, {}));
    return spec;
  }

  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return draw::ShrinkableFrame("CarRacing", kVideoW, kVideoH, kFps, width, height, camera_id);
  }

  // gymnasium's render(): _render("rgb_array"), drawn afresh (the reward's text shows the
  // reward as it is now, after the step's -0.1), skid marks included, then smoothscaled;
  // a smaller render size shrinks that picture again (draw::DrawAtSize).
  void Render(int width, int height, int /*camera_id*/, std::uint8_t* out) override {
    draw::DrawAtSize(kVideoW, kVideoH, width, height, out, resized_, [this](std::uint8_t* full) {
      DrawSurface(true);
      if (!video_shrink_) {
        video_shrink_ = std::make_unique<draw::PlaneShrink>(kWindowW, kWindowH, kVideoW, kVideoH);
      }
      Shrink(*video_shrink_, full);
    });
  }

  explicit CarRacing(const Params& params)
      : params_(params), listener_(*this), world_(b2Vec2(0.0F, 0.0F)) {
    if (!params_.font.empty()) text_ = std::make_unique<RewardText>(params_.font);
    world_.SetContactListener(&listener_);
    DefaultColors();
  }

  ~CarRacing() override {
    // The world's destructor frees the bodies without a callback; nothing to do but make
    // sure the listener no longer points into a half-destroyed env.
    world_.SetContactListener(nullptr);
  }

  void Seed(std::uint64_t seed) override { np_random_.Seed(seed); }

  void Reset(Rng& /*rng*/) override {
    Destroy();
    reward_ = 0.0;
    prev_reward_ = 0.0;
    tile_visited_count_ = 0;
    t_ = 0.0;
    new_lap_ = false;
    road_poly_.clear();
    if (params_.domain_randomize) RandomColors();
    while (!CreateTrack()) {
    }
    CreateCar(track_[0][1], track_[0][2], track_[0][3]);
    Advance();  // gymnasium's reset returns step(None)'s observation
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    if (params_.continuous) {
      const float* a = action.As<float>();
      Steer(-static_cast<double>(a[0]));
      Gas(static_cast<double>(a[1]));
      Brake(static_cast<double>(a[2]));
    } else {
      const std::int32_t a = action.Scalar<std::int32_t>();
      Steer(-0.6 * (a == 1 ? 1 : 0) + 0.6 * (a == 2 ? 1 : 0));
      Gas(0.2 * (a == 3 ? 1 : 0));
      Brake(0.8 * (a == 4 ? 1 : 0));
    }
    Advance();
    StepOutcome out;
    reward_ -= 0.1;
    fuel_spent_ = 0.0;
    double step_reward = reward_ - prev_reward_;
    prev_reward_ = reward_;
    if (tile_visited_count_ == static_cast<int>(track_.size()) || new_lap_) {
      out.terminated = true;
    }
    const b2Vec2 pos = hull_->GetPosition();
    if (std::fabs(static_cast<double>(pos.x)) > kPlayfield ||
        std::fabs(static_cast<double>(pos.y)) > kPlayfield) {
      out.terminated = true;
      step_reward = -100;
    }
    out.reward = step_reward;
    return out;
  }

  void Write(const Slot& slot) const override {
    std::copy(state_.begin(), state_.end(), slot.Obs<std::uint8_t>());
    *slot.Info<std::int32_t>(0) = tile_visited_count_;
  }

  // The track, the road polygons with their colours, the colours, the car and the reward's
  // bookkeeping, in float64 (the alignment tests rebuild the same list from gymnasium's env):
  //   n, then n x (alpha, beta, x, y) of self.track;
  //   m, then m x (4 x (x, y), r, g, b) of self.road_poly (a tile's colour as it is now);
  //   road_color, bg_color, grass_color (3 each);
  //   the hull (x, y, angle, vx, vy, angular velocity);
  //   each wheel (x, y, angle, vx, vy, angular velocity, omega, phase, gas, brake, steer,
  //   joint angle, number of tiles under it);
  //   reward, prev_reward, tile_visited_count, t, fuel_spent, new_lap.
  std::vector<double> GetState() const override {
    std::vector<double> s;
    s.push_back(static_cast<double>(track_.size()));
    for (const auto& p : track_) s.insert(s.end(), p.begin(), p.end());
    s.push_back(static_cast<double>(road_poly_.size()));
    for (const RoadPoly& p : road_poly_) {
      for (const auto& v : p.vertices) s.insert(s.end(), v.begin(), v.end());
      const std::array<double, 3>& c = p.tile >= 0 ? tiles_[p.tile].color : p.color;
      s.insert(s.end(), c.begin(), c.end());
    }
    for (const auto* c : {&road_color_, &bg_color_, &grass_color_}) s.insert(s.end(), c->begin(), c->end());
    const auto body = [&s](const b2Body* b) {
      const b2Vec2 p = b->GetPosition(), v = b->GetLinearVelocity();
      for (float x : {p.x, p.y, b->GetAngle(), v.x, v.y, b->GetAngularVelocity()}) {
        s.push_back(static_cast<double>(x));
      }
    };
    body(hull_);
    for (const Wheel& w : wheels_) {
      body(w.body);
      for (double x : {w.omega, w.phase, w.gas, w.brake, w.steer,
                       static_cast<double>(w.joint->GetJointAngle()),
                       static_cast<double>(w.tiles)}) {
        s.push_back(x);
      }
    }
    for (double x : {reward_, prev_reward_, static_cast<double>(tile_visited_count_), t_,
                     fuel_spent_, new_lap_ ? 1.0 : 0.0}) {
      s.push_back(x);
    }
    return s;
  }

 private:
  static constexpr int kStateW = 96;
  static constexpr int kStateH = 96;
  static constexpr double kScale = 6.0;
  static constexpr double kTrackRad = 900 / kScale;
  static constexpr double kPlayfield = 2000 / kScale;
  static constexpr double kFps = 50;
  static constexpr double kTrackDetailStep = 21 / kScale;
  static constexpr double kTrackTurnRate = 0.31;
  static constexpr double kTrackWidth = 40 / kScale;
  static constexpr double kBorder = 8 / kScale;
  static constexpr int kBorderMinCount = 4;
  static constexpr int kCheckpoints = 12;
  static constexpr int kVideoW = 600, kVideoH = 400;
  static constexpr int kWindowW = 1000;
  static constexpr int kWindowH = 800;
  static constexpr double kZoom = 2.7;
  static constexpr double kGrassDim = kPlayfield / 20.0;
  static constexpr int kIndicatorRows = 5 * kWindowH / 40;  // the indicators' band, 5 h
  // max(GRASS_DIM, TRACK_WIDTH, TRACK_DETAIL_STEP) * sqrt(2) * ZOOM * SCALE (GRASS_DIM).
  static inline const double kMaxShapeDim = kGrassDim * std::sqrt(2.0) * kZoom * kScale;
  // car_dynamics.py's constants, in Python's order of operations.
  static constexpr double kSize = 0.02;
  static constexpr double kEnginePower = 100000000 * kSize * kSize;
  static constexpr double kWheelMomentOfInertia = 4000 * kSize * kSize;
  static constexpr double kFrictionLimit = 1000000 * kSize * kSize;
  static constexpr double kWheelR = 27;
  static constexpr double kWheelW = 14;

  struct Tile {
    std::array<double, 3> color{};
    bool road_visited = false;
    int idx = 0;
    b2Body* body = nullptr;  // owned by world_
  };
  struct RoadPoly {
    std::array<std::array<double, 2>, 4> vertices;
    int tile;                     // the tile whose colour it is drawn in, or -1
    std::array<double, 3> color;  // a border's colour (tile -1)
  };
  // car_dynamics.Particle: a skid mark, a polyline of wheel positions.
  struct Particle {
    draw::Rgb color;
    std::vector<std::array<double, 2>> poly;
    bool grass;
  };
  static constexpr std::size_t kMaxParticles = 30;  // deque(maxlen=30)

  struct Wheel {
    b2Body* body = nullptr;         // owned by world_
    b2RevoluteJoint* joint = nullptr;  // owned by world_
    double wheel_rad = 0.0;
    double gas = 0.0, brake = 0.0, steer = 0.0, phase = 0.0, omega = 0.0;
    int tiles = 0;  // the tiles it touches (all of road_friction 1.0)
    // Skid trace. gymnasium's skid_start holds w.position, which pybox2d hands out as a
    // reference to the body's live position: when the trace's particle is made, both of its
    // first points are the wheel's position then. So only whether it is held matters.
    bool skid_start = false;
    std::shared_ptr<Particle> skid_particle;  // may outlive its place in particles_
  };

  // gymnasium's FrictionDetector.
  class FrictionDetector final : public b2ContactListener {
   public:
    explicit FrictionDetector(CarRacing& env) : env_(env) {}
    void BeginContact(b2Contact* contact) override { Contact(contact, true); }
    void EndContact(b2Contact* contact) override { Contact(contact, false); }

   private:
    void Contact(b2Contact* contact, bool begin) {
      b2Body* a = contact->GetFixtureA()->GetBody();
      b2Body* b = contact->GetFixtureB()->GetBody();
      Tile* tile = nullptr;
      b2Body* obj = nullptr;
      if (auto* t = static_cast<Tile*>(a->GetUserData())) {
        tile = t;
        obj = b;
      }
      if (auto* t = static_cast<Tile*>(b->GetUserData())) {
        tile = t;
        obj = a;
      }
      if (tile == nullptr) return;
      tile->color = env_.road_color_;  // tile.color[:] = self.env.road_color
      Wheel* wheel = nullptr;
      for (Wheel& w : env_.wheels_) {
        if (w.body == obj) wheel = &w;
      }
      if (wheel == nullptr) return;
      if (begin) {
        ++wheel->tiles;
        if (!tile->road_visited) {
          tile->road_visited = true;
          const double n = static_cast<double>(env_.track_.size());
          env_.reward_ += 1000.0 / n;
          env_.tile_visited_count_ += 1;
          if (tile->idx == 0 &&
              static_cast<double>(env_.tile_visited_count_) / n > env_.params_.lap_complete_percent) {
            env_.new_lap_ = true;
          }
        }
      } else {
        --wheel->tiles;
      }
    }
    CarRacing& env_;
  };

  void DefaultColors() {
    road_color_ = {102, 102, 102};
    bg_color_ = {102, 204, 102};
    grass_color_ = {102, 230, 102};
  }

  // _reinit_colors(randomize=True).
  void RandomColors() {
    for (double& c : road_color_) c = np_random_.Uniform(0, 210);
    for (double& c : bg_color_) c = np_random_.Uniform(0, 210);
    grass_color_ = bg_color_;
    grass_color_[np_random_.Integers(0, 3)] += 20;
  }

  // _destroy: the tiles in order, then the car (hull, then wheels).
  void Destroy() {
    if (tiles_.empty()) return;
    for (Tile& t : tiles_) world_.DestroyBody(t.body);
    // The tiles' EndContact callbacks ran above; the Tile records they touched go now.
    tiles_.clear();
    world_.DestroyBody(hull_);
    hull_ = nullptr;
    for (Wheel& w : wheels_) {
      world_.DestroyBody(w.body);
      w = Wheel{};
    }
  }

  // Python's sequence[i] for i in [-n, n).
  template <class V>
  static auto& At(V& v, int i) {
    return v[i < 0 ? i + static_cast<int>(v.size()) : i];
  }

  static double Sign(double v) { return v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0); }  // np.sign

  // _create_track: false when the try fails (gymnasium then tries again).
  bool CreateTrack() {
    std::array<std::array<double, 3>, kCheckpoints> checkpoints{};
    for (int c = 0; c < kCheckpoints; ++c) {
      const double noise = np_random_.Uniform(0, 2 * M_PI * 1 / kCheckpoints);
      double alpha = 2 * M_PI * c / kCheckpoints + noise;
      double rad = np_random_.Uniform(kTrackRad / 3, kTrackRad);
      if (c == 0) {
        alpha = 0;
        rad = 1.5 * kTrackRad;
      }
      if (c == kCheckpoints - 1) {
        alpha = 2 * M_PI * c / kCheckpoints;
        start_alpha_ = 2 * M_PI * (-0.5) / kCheckpoints;
        rad = 1.5 * kTrackRad;
      }
      checkpoints[c] = {alpha, rad * std::cos(alpha), rad * std::sin(alpha)};
    }

    double x = 1.5 * kTrackRad, y = 0, beta = 0;
    int dest_i = 0;
    int laps = 0;
    std::vector<std::array<double, 4>> track;
    int no_freeze = 2500;
    bool visited_other_side = false;
    while (true) {
      double alpha = std::atan2(y, x);
      if (visited_other_side && alpha > 0) {
        laps += 1;
        visited_other_side = false;
      }
      if (alpha < 0) {
        visited_other_side = true;
        alpha += 2 * M_PI;
      }
      double dest_x = 0, dest_y = 0;
      while (true) {  // find the destination among the checkpoints
        bool failed = true;
        while (true) {
          const auto& cp = checkpoints[dest_i % kCheckpoints];
          dest_x = cp[1];
          dest_y = cp[2];
          if (alpha <= cp[0]) {
            failed = false;
            break;
          }
          dest_i += 1;
          if (dest_i % kCheckpoints == 0) break;
        }
        if (!failed) break;
        alpha -= 2 * M_PI;
      }
      const double r1x = std::cos(beta);
      const double r1y = std::sin(beta);
      const double p1x = -r1y;
      const double p1y = r1x;
      const double dest_dx = dest_x - x;
      const double dest_dy = dest_y - y;
      double proj = r1x * dest_dx + r1y * dest_dy;
      while (beta - alpha > 1.5 * M_PI) beta -= 2 * M_PI;
      while (beta - alpha < -1.5 * M_PI) beta += 2 * M_PI;
      const double prev_beta = beta;
      proj *= kScale;
      if (proj > 0.3) beta -= std::min(kTrackTurnRate, std::fabs(0.001 * proj));
      if (proj < -0.3) beta += std::min(kTrackTurnRate, std::fabs(0.001 * proj));
      x += p1x * kTrackDetailStep;
      y += p1y * kTrackDetailStep;
      track.push_back({alpha, prev_beta * 0.5 + beta * 0.5, x, y});
      if (laps > 4) break;
      no_freeze -= 1;
      if (no_freeze == 0) break;
    }

    // The closed loop i1..i2: the first loop is ignored, the second is the track.
    int i1 = -1, i2 = -1;
    int i = static_cast<int>(track.size());
    while (true) {
      i -= 1;
      if (i == 0) return false;
      const bool pass_through_start = track[i][0] > start_alpha_ && At(track, i - 1)[0] <= start_alpha_;
      if (pass_through_start && i2 == -1) {
        i2 = i;
      } else if (pass_through_start && i1 == -1) {
        i1 = i;
        break;
      }
    }
    // track[i1 : i2 - 1], a Python slice.
    std::vector<std::array<double, 4>> loop;
    for (int k = i1; k < i2 - 1; ++k) loop.push_back(track[k]);
    if (loop.empty()) return false;  // gymnasium would fail on track[0] (IndexError)

    const double first_beta = loop[0][1];
    const double first_perp_x = std::cos(first_beta);
    const double first_perp_y = std::sin(first_beta);
    const double gx = first_perp_x * (loop[0][2] - loop.back()[2]);
    const double gy = first_perp_y * (loop[0][3] - loop.back()[3]);
    const double well_glued_together = std::sqrt(gx * gx + gy * gy);
    if (well_glued_together > kTrackDetailStep) return false;

    // Red-white border on hard turns.
    const int n = static_cast<int>(loop.size());
    std::vector<char> border(n, 0);
    for (int k = 0; k < n; ++k) {
      bool good = true;
      double oneside = 0;
      for (int neg = 0; neg < kBorderMinCount; ++neg) {
        const double beta1 = At(loop, k - neg - 0)[1];
        const double beta2 = At(loop, k - neg - 1)[1];
        good = good && std::fabs(beta1 - beta2) > kTrackTurnRate * 0.2;
        oneside += Sign(beta1 - beta2);
      }
      good = good && std::fabs(oneside) == kBorderMinCount;
      border[k] = good ? 1 : 0;
    }
    for (int k = 0; k < n; ++k) {
      for (int neg = 0; neg < kBorderMinCount; ++neg) At(border, k - neg) |= border[k];
    }

    // The tiles: their records first (the bodies point at them), then the bodies in order.
    tiles_.assign(n, Tile{});
    for (int k = 0; k < n; ++k) {
      const auto& [alpha1, beta1, x1, y1] = loop[k];
      const auto& [alpha2, beta2, x2, y2] = At(loop, k - 1);
      (void)alpha1;
      (void)alpha2;
      const std::array<double, 2> road1_l = {x1 - kTrackWidth * std::cos(beta1),
                                             y1 - kTrackWidth * std::sin(beta1)};
      const std::array<double, 2> road1_r = {x1 + kTrackWidth * std::cos(beta1),
                                             y1 + kTrackWidth * std::sin(beta1)};
      const std::array<double, 2> road2_l = {x2 - kTrackWidth * std::cos(beta2),
                                             y2 - kTrackWidth * std::sin(beta2)};
      const std::array<double, 2> road2_r = {x2 + kTrackWidth * std::cos(beta2),
                                             y2 + kTrackWidth * std::sin(beta2)};
      b2BodyDef def;  // static, at the origin
      b2Body* body = world_.CreateBody(&def);
      const b2Vec2 vertices[4] = {b2Vec2(F(road1_l[0]), F(road1_l[1])),
                                  b2Vec2(F(road1_r[0]), F(road1_r[1])),
                                  b2Vec2(F(road2_r[0]), F(road2_r[1])),
                                  b2Vec2(F(road2_l[0]), F(road2_l[1]))};
      b2Fixture* fixture = AddPolygon(body, vertices, 4, {});
      Tile& t = tiles_[k];
      t.body = body;
      body->SetUserData(&t);
      const double c = 0.01 * (k % 3) * 255;
      for (int j = 0; j < 3; ++j) t.color[j] = road_color_[j] + c;
      t.road_visited = false;
      t.idx = k;
      fixture->SetSensor(true);
      road_poly_.push_back({{road1_l, road1_r, road2_r, road2_l}, k, {}});
      if (border[k]) {
        const double side = Sign(beta2 - beta1);
        const std::array<double, 2> b1_l = {x1 + side * kTrackWidth * std::cos(beta1),
                                            y1 + side * kTrackWidth * std::sin(beta1)};
        const std::array<double, 2> b1_r = {x1 + side * (kTrackWidth + kBorder) * std::cos(beta1),
                                            y1 + side * (kTrackWidth + kBorder) * std::sin(beta1)};
        const std::array<double, 2> b2_l = {x2 + side * kTrackWidth * std::cos(beta2),
                                            y2 + side * kTrackWidth * std::sin(beta2)};
        const std::array<double, 2> b2_r = {x2 + side * (kTrackWidth + kBorder) * std::cos(beta2),
                                            y2 + side * (kTrackWidth + kBorder) * std::sin(beta2)};
        road_poly_.push_back({{b1_l, b1_r, b2_r, b2_l},
                              -1,
                              k % 2 == 0 ? std::array<double, 3>{255, 255, 255}
                                         : std::array<double, 3>{255, 0, 0}});
      }
    }
    track_ = std::move(loop);
    return true;
  }

  // car_dynamics.Car(world, init_angle, init_x, init_y).
  void CreateCar(double init_angle, double init_x, double init_y) {
    particles_.clear();
    b2BodyDef def;
    def.type = b2_dynamicBody;
    def.position.Set(F(init_x), F(init_y));
    def.angle = F(init_angle);
    hull_ = world_.CreateBody(&def);
    static constexpr int kHull1[4][2] = {{-60, +130}, {+60, +130}, {+60, +110}, {-60, +110}};
    static constexpr int kHull2[4][2] = {{-15, +120}, {+15, +120}, {+20, +20}, {-20, 20}};
    static constexpr int kHull3[8][2] = {{+25, +20},  {+50, -10},  {+50, -40}, {+20, -90},
                                         {-20, -90}, {-50, -40}, {-50, -10}, {-25, +20}};
    static constexpr int kHull4[4][2] = {{-50, -120}, {+50, -120}, {+50, -90}, {-50, -90}};
    const auto hull_part = [this](const int (*poly)[2], int count) {
      std::array<b2Vec2, 8> v;
      for (int i = 0; i < count; ++i) v[i].Set(F(poly[i][0] * kSize), F(poly[i][1] * kSize));
      AddPolygon(hull_, v.data(), count, {1.0F, 0.2F, 0.0F, 0x0001, 0xFFFF});
    };
    hull_part(kHull1, 4);
    hull_part(kHull2, 4);
    hull_part(kHull3, 8);
    hull_part(kHull4, 4);

    static constexpr int kWheelPos[4][2] = {{-55, +80}, {+55, +80}, {-55, -82}, {+55, -82}};
    const double wheel_poly[4][2] = {
        {-kWheelW, +kWheelR}, {+kWheelW, +kWheelR}, {+kWheelW, -kWheelR}, {-kWheelW, -kWheelR}};
    for (int k = 0; k < 4; ++k) {
      const double wx = kWheelPos[k][0], wy = kWheelPos[k][1];
      const double front_k = 1.0;
      b2BodyDef wdef;
      wdef.type = b2_dynamicBody;
      wdef.position.Set(F(init_x + wx * kSize), F(init_y + wy * kSize));
      wdef.angle = F(init_angle);
      b2Body* w = world_.CreateBody(&wdef);
      b2Vec2 v[4];
      for (int i = 0; i < 4; ++i) {
        v[i].Set(F(wheel_poly[i][0] * front_k * kSize), F(wheel_poly[i][1] * front_k * kSize));
      }
      AddPolygon(w, v, 4, {F(0.1), 0.2F, 0.0F, 0x0020, 0x001});
      Wheel& wheel = wheels_[k];
      wheel = Wheel{};
      wheel.body = w;
      wheel.wheel_rad = front_k * kWheelR * kSize;
      b2RevoluteJointDef rjd;
      rjd.bodyA = hull_;
      rjd.bodyB = w;
      rjd.localAnchorA.Set(F(wx * kSize), F(wy * kSize));
      rjd.localAnchorB.Set(0.0F, 0.0F);
      rjd.enableMotor = true;
      rjd.enableLimit = true;
      rjd.maxMotorTorque = F(180 * 900 * kSize * kSize);
      rjd.motorSpeed = 0.0F;
      rjd.lowerAngle = F(-0.4);
      rjd.upperAngle = F(+0.4);
      // pybox2d's revoluteJointDef(bodyA=..., bodyB=...): bodyB.angle - bodyA.angle.
      rjd.referenceAngle =
          F(static_cast<double>(w->GetAngle()) - static_cast<double>(hull_->GetAngle()));
      wheel.joint = static_cast<b2RevoluteJoint*>(world_.CreateJoint(&rjd));
    }
    fuel_spent_ = 0.0;
  }

  void Gas(double gas) {
    gas = gas < 0 ? 0 : (gas > 1 ? 1 : gas);  // np.clip(gas, 0, 1)
    for (int k = 2; k < 4; ++k) {
      double diff = gas - wheels_[k].gas;
      if (diff > 0.1) diff = 0.1;  // gradually increase, but stop immediately
      wheels_[k].gas += diff;
    }
  }
  void Brake(double b) {
    for (Wheel& w : wheels_) w.brake = b;
  }
  void Steer(double s) {
    wheels_[0].steer = s;
    wheels_[1].steer = s;
  }

  // Car.step(dt).
  void CarStep(double dt) {
    for (Wheel& w : wheels_) {
      const double joint_angle = w.joint->GetJointAngle();
      const double dir = Sign(w.steer - joint_angle);
      const double val = std::fabs(w.steer - joint_angle);
      w.joint->SetMotorSpeed(F(dir * std::min(50.0 * val, 3.0)));

      const bool grass = w.tiles == 0;
      double friction_limit = kFrictionLimit * 0.6;  // grass friction if no tile
      if (w.tiles > 0) friction_limit = std::max(friction_limit, kFrictionLimit * 1.0);

      const b2Vec2 forw = w.body->GetWorldVector(b2Vec2(0.0F, 1.0F));
      const b2Vec2 side = w.body->GetWorldVector(b2Vec2(1.0F, 0.0F));
      const b2Vec2 v = w.body->GetLinearVelocity();
      const double vf = static_cast<double>(forw.x) * v.x + static_cast<double>(forw.y) * v.y;
      const double vs = static_cast<double>(side.x) * v.x + static_cast<double>(side.y) * v.y;

      w.omega += dt * kEnginePower * w.gas / kWheelMomentOfInertia / (std::fabs(w.omega) + 5.0);
      fuel_spent_ += dt * kEnginePower * w.gas;

      if (w.brake >= 0.9) {
        w.omega = 0;
      } else if (w.brake > 0) {
        const double brake_force = 15;  // radians per second
        const double bdir = -Sign(w.omega);
        double bval = brake_force * w.brake;
        if (std::fabs(bval) > std::fabs(w.omega)) bval = std::fabs(w.omega);
        w.omega += bdir * bval;
      }
      w.phase += w.omega * dt;

      const double vr = w.omega * w.wheel_rad;
      double f_force = -vf + vr;
      double p_force = -vs;
      f_force *= 205000 * kSize * kSize;
      p_force *= 205000 * kSize * kSize;
      double force = std::sqrt(f_force * f_force + p_force * p_force);
      // Skid trace.
      if (std::fabs(force) > 2.0 * friction_limit) {
        const b2Vec2 p = w.body->GetPosition();
        if (w.skid_particle && w.skid_particle->grass == grass &&
            w.skid_particle->poly.size() < 30) {
          w.skid_particle->poly.push_back({p.x, p.y});
        } else if (!w.skid_start) {
          w.skid_start = true;
        } else {
          // _create_particle(w.skid_start, w.position, grass): WHEEL_COLOR or MUD_COLOR.
          auto particle = std::make_shared<Particle>(
              Particle{grass ? draw::Rgb{102, 102, 0} : draw::Rgb{0, 0, 0},
                       {{p.x, p.y}, {p.x, p.y}},
                       grass});
          if (particles_.size() == kMaxParticles) particles_.pop_front();
          particles_.push_back(particle);
          w.skid_particle = std::move(particle);
          w.skid_start = false;
        }
      } else {
        w.skid_start = false;
        w.skid_particle.reset();
      }
      if (std::fabs(force) > friction_limit) {
        f_force /= force;
        p_force /= force;
        force = friction_limit;
        f_force *= force;
        p_force *= force;
      }
      w.omega -= dt * f_force * w.wheel_rad / kWheelMomentOfInertia;
      w.body->ApplyForceToCenter(
          b2Vec2(F(p_force * side.x + f_force * forw.x), F(p_force * side.y + f_force * forw.y)),
          true);
    }
  }

  // What step() does whatever the action: the car, the world, the clock.
  void Advance() {
    CarStep(1.0 / kFps);
    world_.Step(F(1.0 / kFps), 6 * 30, 2 * 30);
    t_ += 1.0 / kFps;
    const StageScope draw(stage_clock(), Stage::kDraw);
    DrawState();
  }

  // pygame.math.Vector2(x, y).rotate_rad(angle): pygame-ce brings the angle into [0, 2 pi)
  // and turns a multiple of 90 degrees (within its epsilon, 1e-6) into an exact swap. What
  // depends on the angle alone is worked out once (a frame turns every point by one angle).
  class Rotation {
   public:
    explicit Rotation(double angle) {
      angle = std::fmod(angle, 2 * M_PI);
      if (angle < 0) angle += 2 * M_PI;
      constexpr double kEpsilon = 1e-6;
      if (std::fmod(angle + kEpsilon, M_PI_2) < 2 * kEpsilon) {
        quarter_ = static_cast<int>((angle + kEpsilon) / M_PI_2);
      } else {
        c_ = std::cos(angle);
        s_ = std::sin(angle);
      }
    }
    std::array<double, 2> operator()(double x, double y) const {
      switch (quarter_) {
        case -1:
          return {c_ * x - s_ * y, s_ * x + c_ * y};
        case 1:
          return {-y, x};
        case 2:
          return {-x, -y};
        case 3:
          return {y, -x};
        default:
          return {x, y};
      }
    }

   private:
    int quarter_ = -1;  // the multiple of 90 degrees, or -1: cos and sin
    double c_ = 0.0, s_ = 0.0;
  };

  // The view of _render: the world point (x, y) on the 1000 x 800 surface.
  struct View {
    Rotation rotate;
    double zoom, tx, ty;
    std::array<double, 2> operator()(double x, double y) const {
      const auto r = rotate(x, y);
      return {r[0] * zoom + tx, r[1] * zoom + ty};
    }
  };

  // A float coordinate as pygame hands it to SDL_gfx (int(), then Sint16) or to
  // pygame.draw (int).
  static int Sint16(double v) { return static_cast<std::int16_t>(static_cast<long>(v)); }

  // _draw_colored_polygon's vertices on the surface (gfxdraw's ints), or none when (clip)
  // no vertex is within MAX_SHAPE_DIM of the surface.
  std::vector<std::array<int, 2>>& PolygonOnSurface(const View& view,
                                                    const std::array<std::array<double, 2>, 4>& poly,
                                                    bool clip) {
    std::array<std::array<double, 2>, 4> p;
    bool inside = !clip;
    for (int i = 0; i < 4; ++i) {
      p[i] = view(poly[i][0], poly[i][1]);
      inside = inside || (-kMaxShapeDim <= p[i][0] && p[i][0] <= kWindowW + kMaxShapeDim &&
                          -kMaxShapeDim <= p[i][1] && p[i][1] <= kWindowH + kMaxShapeDim);
    }
    vertices_.clear();
    if (inside) {
      for (const auto& q : p) vertices_.push_back({Sint16(q[0]), Sint16(q[1])});
    }
    return vertices_;
  }

  // _draw_colored_polygon: gfxdraw.aapolygon then gfxdraw.filled_polygon, unless (clip)
  // no vertex is within MAX_SHAPE_DIM of the surface.
  void ColoredPolygon(draw::Canvas& canvas, const View& view,
                      const std::array<std::array<double, 2>, 4>& poly, const draw::Rgb& color,
                      bool clip) {
    const auto& v = PolygonOnSurface(view, poly, clip);
    if (!v.empty()) canvas.OutlinedPolygon(v, color);
  }

  // A colour gymnasium keeps as floats, as pygame reads it (int()).
  static draw::Rgb Color(const std::array<double, 3>& c) {
    return {static_cast<std::uint8_t>(static_cast<int>(c[0])),
            static_cast<std::uint8_t>(static_cast<int>(c[1])),
            static_cast<std::uint8_t>(static_cast<int>(c[2]))};
  }

  // pygame.draw.polygon on points of the surface (truncated to int).
  static void Polygon(draw::Canvas& canvas, const std::vector<std::array<double, 2>>& points,
                      const draw::Rgb& color) {
    std::vector<std::array<int, 2>> v;
    for (const auto& q : points) v.push_back({static_cast<int>(q[0]), static_cast<int>(q[1])});
    canvas.DrawPolygon(v, color);
  }

  // _render("state_pixels"): the surface without skid marks, smoothscaled to 96 x 96.
  void DrawState() {
    DrawSurface(false);
    Shrink(state_shrink_, state_.data());
  }

  // pygame.transform.smoothscale of the surface (planes_, rows top to bottom).
  void Shrink(draw::PlaneShrink& shrink, std::uint8_t* out) {
    shrink.Run(planes_.data(), std::ptrdiff_t{kWindowW} * kWindowH, kWindowW, out);
  }

  // _render's 1000 x 800 surface: the road, (particles) the skid marks, the car, the flip,
  // the indicators, the reward's text.
  //
  // The surface is three planes (planes_); the road and the car are drawn into them upside
  // down (row y of the drawing at row H - 1 - y), which is the flip, made for nothing.
  void DrawSurface(bool particles) {
    draw::Canvas canvas = draw::Canvas::Planes(kWindowW, kWindowH, planes_.data(), true);
    // The indicators' black band (rows H - 5 h .. H - 1 after the flip, drawing rows
    // 0 .. 5 h - 1) paints over all that the road and the car would put there.
    canvas.KeepRows(kIndicatorRows, kWindowH);
    const double angle = -static_cast<double>(hull_->GetAngle());
    const double zoom =
        0.1 * kScale * std::max(1 - t_, 0.0) + kZoom * kScale * std::min(t_, 1.0);
    const b2Vec2 pos = hull_->GetPosition();
    const double scroll_x = -static_cast<double>(pos.x) * zoom;
    const double scroll_y = -static_cast<double>(pos.y) * zoom;
    const Rotation rotate(angle);
    const auto tr = rotate(scroll_x, scroll_y);
    const View view{rotate, zoom, kWindowW / 2.0 + tr[0], kWindowH / 4.0 + tr[1]};

    // The background's square, on a black surface. Where its fill covers the whole surface
    // (the car well inside the playfield), neither the black nor its outline shows.
    const double b = kPlayfield;
    const draw::Rgb bg = Color(bg_color_);
    const auto& bg_poly = PolygonOnSurface(view, {{{b, b}, {b, -b}, {-b, -b}, {-b, b}}}, false);
    if (canvas.FillCovers(bg_poly)) {
      canvas.Fill(bg);
    } else {
      std::fill(planes_.begin(), planes_.end(), 0);
      canvas.OutlinedPolygon(bg_poly, bg);
    }
    const double g = kGrassDim;
    for (int x = -20; x < 20; x += 2) {
      for (int y = -20; y < 20; y += 2) {
        ColoredPolygon(canvas, view,
                       {{{g * x + g, g * y + 0}, {g * x + 0, g * y + 0}, {g * x + 0, g * y + g},
                         {g * x + g, g * y + g}}},
                       Color(grass_color_), true);
      }
    }
    for (const RoadPoly& p : road_poly_) {
      ColoredPolygon(canvas, view, p.vertices, Color(p.tile >= 0 ? tiles_[p.tile].color : p.color),
                     true);
    }

    // car.draw: the wheels, then the hull; each fixture's polygon, and a wheel's white
    // stripe where its phase shows it.
    const auto draw_body = [&](const b2Body* body, const draw::Rgb& color, const Wheel* wheel) {
      const b2Transform& xf = body->GetTransform();
      for (const b2Fixture* f = body->GetFixtureList(); f != nullptr; f = f->GetNext()) {
        const auto* shape = static_cast<const b2PolygonShape*>(f->GetShape());
        std::vector<std::array<double, 2>> path;
        for (int i = 0; i < shape->m_count; ++i) {
          const b2Vec2 v = b2Mul(xf, shape->m_vertices[i]);
          path.push_back(view(v.x, v.y));
        }
        Polygon(canvas, path, color);
        if (wheel == nullptr) continue;
        const double a1 = wheel->phase, a2 = wheel->phase + 1.2;
        const double s1 = std::sin(a1), s2 = std::sin(a2);
        double c1 = std::cos(a1), c2 = std::cos(a2);
        if (s1 > 0 && s2 > 0) continue;
        if (s1 > 0) c1 = Sign(c1);
        if (s2 > 0) c2 = Sign(c2);
        const double white[4][2] = {{-kWheelW * kSize, +kWheelR * c1 * kSize},
                                    {+kWheelW * kSize, +kWheelR * c1 * kSize},
                                    {+kWheelW * kSize, +kWheelR * c2 * kSize},
                                    {-kWheelW * kSize, +kWheelR * c2 * kSize}};
        std::vector<std::array<double, 2>> stripe;
        for (const auto& q : white) {
          const b2Vec2 v = b2Mul(xf, b2Vec2(F(q[0]), F(q[1])));
          stripe.push_back(view(v.x, v.y));
        }
        Polygon(canvas, stripe, {77, 77, 77});
      }
    };
    // car.draw(draw_particles): pygame.draw.lines(width=2, closed=False) of each particle's
    // points, on the view, cut to int.
    for (const auto& p : particles_) {
      if (!particles) break;
      std::vector<std::array<int, 2>> pts;
      for (const auto& q : p->poly) {
        const auto s = view(q[0], q[1]);
        pts.push_back({static_cast<int>(s[0]), static_cast<int>(s[1])});
      }
      for (std::size_t i = 1; i < pts.size(); ++i) {
        canvas.WideLine(pts[i - 1][0], pts[i - 1][1], pts[i][0], pts[i][1], 2, p->color);
      }
    }
    for (const Wheel& w : wheels_) draw_body(w.body, {0, 0, 0}, &w);
    draw_body(hull_, {204, 0, 0}, nullptr);
    // pygame.transform.flip(self.surf, False, True): the planes as they are, rows top down.
    draw::Canvas flipped = draw::Canvas::Planes(kWindowW, kWindowH, planes_.data(), false);
    DrawIndicators(flipped);
    // text_rect.center = (60, WINDOW_H - WINDOW_H * 2.5 / 40.0): (60, 750).
    if (text_) text_->Draw(flipped, reward_, 60, static_cast<int>(kWindowH - kWindowH * 2.5 / 40.0));
  }

  // _render_indicators(WINDOW_W, WINDOW_H).
  void DrawIndicators(draw::Canvas& canvas) const {
    const double W = kWindowW, H = kWindowH;
    const double s = W / 40.0, h = H / 40.0;
    Polygon(canvas, {{W, H}, {W, H - 5 * h}, {0, H - 5 * h}, {0, H}}, {0, 0, 0});
    const auto vertical_ind = [&](double place, double val) {
      return std::vector<std::array<double, 2>>{{place * s, H - (h + h * val)},
                                                {(place + 1) * s, H - (h + h * val)},
                                                {(place + 1) * s, H - h},
                                                {(place + 0) * s, H - h}};
    };
    const auto horiz_ind = [&](double place, double val) {
      return std::vector<std::array<double, 2>>{{(place + 0) * s, H - 4 * h},
                                                {(place + val) * s, H - 4 * h},
                                                {(place + val) * s, H - 2 * h},
                                                {(place + 0) * s, H - 2 * h}};
    };
    const auto render_if_min = [&](double value, const std::vector<std::array<double, 2>>& points,
                                   const draw::Rgb& color) {
      if (std::fabs(value) > 1e-4) Polygon(canvas, points, color);
    };
    const b2Vec2 v = hull_->GetLinearVelocity();
    const double vx = v.x, vy = v.y;
    const double true_speed = std::sqrt(vx * vx + vy * vy);
    render_if_min(true_speed, vertical_ind(5, 0.02 * true_speed), {255, 255, 255});
    for (int k = 0; k < 4; ++k) {
      const double omega = wheels_[k].omega;
      render_if_min(omega, vertical_ind(7 + k, 0.01 * omega),
                    k < 2 ? draw::Rgb{0, 0, 255} : draw::Rgb{51, 0, 255});
    }
    const double joint = wheels_[0].joint->GetJointAngle();
    render_if_min(joint, horiz_ind(20, -10.0 * joint), {0, 255, 0});
    const double spin = hull_->GetAngularVelocity();
    render_if_min(spin, horiz_ind(30, -0.8 * spin), {255, 0, 0});
  }

  Params params_;
  FrictionDetector listener_;
  b2World world_;
  NumpyGenerator np_random_;
  std::array<double, 3> road_color_{}, bg_color_{}, grass_color_{};
  double start_alpha_ = 0.0;
  std::vector<std::array<double, 4>> track_;  // (alpha, beta, x, y)
  std::vector<Tile> tiles_;                   // the bodies' user data point into it
  std::vector<RoadPoly> road_poly_;
  b2Body* hull_ = nullptr;  // owned by world_
  std::array<Wheel, 4> wheels_{};
  std::deque<std::shared_ptr<Particle>> particles_;  // Car.particles, oldest first
  double reward_ = 0.0, prev_reward_ = 0.0, t_ = 0.0, fuel_spent_ = 0.0;
  int tile_visited_count_ = 0;
  bool new_lap_ = false;
  std::unique_ptr<RewardText> text_;  // null without a font
  // gymnasium's 1000 x 800 surface: its R, G and B planes (draw::Canvas::Planes)
  std::vector<std::uint8_t> planes_ =
      std::vector<std::uint8_t>(std::size_t{3} * kWindowW * kWindowH);
  std::vector<std::array<int, 2>> vertices_;  // PolygonOnSurface's
  draw::PlaneShrink state_shrink_{kWindowW, kWindowH, kStateW, kStateH};
  std::vector<std::uint8_t> resized_;  // the full picture of a smaller render size
  std::unique_ptr<draw::PlaneShrink> video_shrink_;  // render()'s, made at its first call
  std::array<std::uint8_t, kStateH * kStateW * 3> state_{};  // the observation
};

}  // namespace envpool::box2d
