// LunarLander-v3 and LunarLanderContinuous-v3: gymnasium's box2d/lunar_lander.py line by
// line, on the same Box2D engine (box2d-py's sources, native/third_party/build_box2d.py).
//
// pybox2d keeps Box2D's state in float32 (b2Vec2, angles) while gymnasium's own arithmetic
// is Python's float64: each value read from a body is widened to double, each number
// handed to Box2D (a tuple, a float) is rounded to float32 at the call, as pybox2d's
// typemaps do, and the float64 expressions keep Python's order. Randomness is gymnasium's
// self.np_random: numpy's default_rng(seed) reproduced (envs/common/numpy_random.h) and
// seeded with the env's seed, so that the env with seed s draws the terrain, the initial
// force, the wind offsets and the engines' dispersion that gymnasium's env draws after
// reset(seed=s), and later episodes continue that stream as gymnasium's reset() without a
// seed does. The pool's Rng is not used.
//
// render(): gymnasium's 600 x 400 pygame picture, drawn as its pygame calls draw it. The
// engines' flames are particles, bodies of the world that gymnasium makes only with a
// render_mode (they collide with the ground alone, so the lander's flight is the same
// either way) and whose lives run down in render() itself; the pool tells the env whether
// it was made with a render_mode (the hidden keyword _render), and the env then makes and
// ages them exactly as gymnasium does.
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
#include <utility>
#include <vector>

#include "core/env.h"
#include "envs/box2d/pybox2d.h"
#include "envs/common/draw/picture.h"
#include "envs/common/draw/raster.h"
#include "envs/common/draw/smoothscale.h"
#include "envs/common/keywords.h"
#include "envs/common/numpy_random.h"

namespace envpool::box2d {

class LunarLander final : public Env {
 public:
  struct Params {
    explicit Params(const Config& config) {
      Keys().Read(config, *this);
      // gymnasium asserts it; wind_power and turbulence_power outside their recommended
      // ranges only draw a warning there, and are accepted here.
      if (!(-12.0 < gravity && gravity < 0.0)) {
        throw std::invalid_argument("gravity (current value: " + std::to_string(gravity) +
                                    ") must be between -12 and 0");
      }
    }
    bool continuous;
    double gravity;
    bool enable_wind;
    double wind_power;
    double turbulence_power;
    bool render;  // made with a render_mode: simulate the flames' particles
  };

  // gymnasium 1.4's LunarLander keywords and defaults.
  static Keywords<Params> Keys() {
    Keywords<Params> k;
    k.Add("continuous", false, &Params::continuous);
    k.Add("gravity", -10.0, &Params::gravity).Above(-12).Below(0);  // gymnasium asserts it
    k.Add("enable_wind", false, &Params::enable_wind);
    k.Add("wind_power", 15.0, &Params::wind_power);
    k.Add("turbulence_power", 1.5, &Params::turbulence_power);
    k.Add("_render", false, &Params::render);  // set by the pool (envpool/core/spec.py)
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& params) {
    const double pi2 = static_cast<double>(static_cast<float>(2 * M_PI));
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("obs", DType::kFloat32, {8},
                               {-2.5, -2.5, -10.0, -10.0, -pi2, -10.0, -0.0, -0.0},
                               {2.5, 2.5, 10.0, 10.0, pi2, 10.0, 1.0, 1.0}));
    spec.action = params.continuous
                      ? BoxSpec("action", DType::kFloat32, {2}, {-1.0, -1.0}, {1.0, 1.0})
                      : DiscreteSpec("action", 4, DType::kInt32);
    // sail-sg EnvPool's test build's info (its wheel has not got it), with which its
    // alignment test rebuilds gymnasium's world: the terrain's sky polygons, the bodies'
    // states (x, y, angle, vx, vy, angular velocity, awake), the legs' contacts, the
    // shaping, gymnasium's game_over, the last step's two dispersion draws (in [-1, 1])
    // and the reset's initial force; float32, as EnvPool writes them.
    for (const auto& [name, shape] : std::vector<std::pair<const char*, std::vector<std::int64_t>>>{
             {"sky_polys", {kChunks - 1, 4, 2}},
             {"lander_state", {7}},
             {"leg_states", {2, 7}},
             {"ground_contact", {2}},
             {"prev_shaping", {}},
             {"game_over", {}},
             {"last_dispersion", {2}},
             {"initial_force", {2}}}) {
      spec.info.push_back(BoxSpec(name, DType::kFloat32, shape));
    }
    return spec;
  }

  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return draw::ShrinkableFrame("LunarLander", kViewportW, kViewportH, kFps, width, height, camera_id);
  }

  // render(): Draw at gymnasium's size; a smaller render size shrinks that picture as
  // pygame's smoothscale does (draw::DrawAtSize).
  void Render(int width, int height, int /*camera_id*/, std::uint8_t* out) override {
    draw::DrawAtSize(kViewportW, kViewportH, width, height, out, resized_,
                     [this](std::uint8_t* full) { Draw(full); });
  }

  // gymnasium's render(): the particles age, then the sky, every body and (after each
  // body, as gymnasium's loop is written) the two flags are drawn, and the picture flipped.
  void Draw(std::uint8_t* out) {
    using draw::Rgb;
    for (Particle& p : particles_) {
      p.ttl -= 0.15;
      const auto level = [](double v) { return static_cast<std::uint8_t>((v > 0.2 ? v : 0.2) * 255); };
      p.color = {level(0.15 + p.ttl), level(0.5 * p.ttl), level(0.5 * p.ttl)};
    }
    CleanParticles(false);
    draw::Canvas canvas(kViewportW, kViewportH, out);
    canvas.Fill({255, 255, 255});
    const auto truncated = [](const std::vector<std::array<double, 2>>& poly) {
      std::vector<std::array<int, 2>> v;
      for (const auto& q : poly) v.push_back({static_cast<int>(q[0]), static_cast<int>(q[1])});
      return v;
    };
    const double h = kViewportH / kScale;
    for (int i = 0; i < kChunks - 1; ++i) {
      const double x1 = chunk_x_[i], y1 = smooth_y_[i], x2 = chunk_x_[i + 1], y2 = smooth_y_[i + 1];
      const auto sky = truncated({{x1 * kScale, y1 * kScale},
                                  {x2 * kScale, y2 * kScale},
                                  {x2 * kScale, h * kScale},
                                  {x1 * kScale, h * kScale}});
      canvas.DrawPolygon(sky, {0, 0, 0});
      canvas.AaPolygon(sky, {0, 0, 0});
    }
    const float scale = F(kScale);
    const auto flags = [&] {
      for (const double helipad_x : {helipad_x1_, helipad_x2_}) {
        const double x = helipad_x * kScale;
        const double flagy1 = helipad_y_ * kScale;
        const double flagy2 = flagy1 + 50;
        canvas.Line(static_cast<int>(x), static_cast<int>(flagy1), static_cast<int>(x),
                    static_cast<int>(flagy2), {255, 255, 255});
        const auto flag = truncated({{x, flagy2}, {x, flagy2 - 10}, {x + 25, flagy2 - 5}});
        canvas.DrawPolygon(flag, {204, 204, 0});
        canvas.AaPolygon(flag, {204, 204, 0});
      }
    };
    for (const Particle& p : particles_) {
      // trans * f.shape.pos * SCALE in float32; the radius a Python float.
      const b2Transform& t = p.body->GetTransform();
      const auto* circle = static_cast<const b2CircleShape*>(p.body->GetFixtureList()->GetShape());
      const b2Vec2 centre = b2Mul(t, circle->m_p);
      const int radius = static_cast<int>(static_cast<double>(circle->m_radius) * kScale);
      for (int k = 0; k < 2; ++k) {  // color1, then color2: the same colour
        canvas.DrawCircle(static_cast<int>(centre.x * scale), static_cast<int>(centre.y * scale),
                          radius, p.color);
      }
      flags();
    }
    const Rgb color1 = {128, 102, 230}, color2 = {77, 77, 128};
    for (const b2Body* body : {lander_, legs_[0], legs_[1]}) {
      const b2Transform& t = body->GetTransform();
      const auto* poly = static_cast<const b2PolygonShape*>(body->GetFixtureList()->GetShape());
      std::vector<std::array<float, 2>> path;
      std::vector<std::array<int, 2>> ipath;
      for (int i = 0; i < poly->m_count; ++i) {
        const b2Vec2 v = b2Mul(t, poly->m_vertices[i]);
        const float x = v.x * scale, y = v.y * scale;
        path.push_back({x, y});
        ipath.push_back({static_cast<int>(x), static_cast<int>(y)});
      }
      canvas.DrawPolygon(ipath, color1);
      canvas.AaPolygon(ipath, color1);
      canvas.AaLines(path, color2, /*closed=*/true);
      flags();
    }
    canvas.FlipRows();
  }

  explicit LunarLander(const Params& params) : params_(params), listener_(*this) {}

  void Seed(std::uint64_t seed) override { np_random_.Seed(seed); }

  void Reset(Rng& /*rng*/) override {
    // A new world each episode, as gymnasium's reset makes one.
    world_ = std::make_unique<b2World>(b2Vec2(0.0F, F(params_.gravity)));
    world_->SetAllowSleeping(true);
    world_->SetContactListener(&listener_);
    particles_.clear();  // their bodies went with the old world
    game_over_ = false;
    has_prev_shaping_ = false;

    const double w = kViewportW / kScale;
    const double h = kViewportH / kScale;
    std::array<double, kChunks + 1> height{};
    for (double& y : height) y = np_random_.Uniform(0, h / 2);
    std::array<double, kChunks>& chunk_x = chunk_x_;
    for (int i = 0; i < kChunks; ++i) chunk_x[i] = w / (kChunks - 1) * i;
    helipad_x1_ = chunk_x[kChunks / 2 - 1];
    helipad_x2_ = chunk_x[kChunks / 2 + 1];
    helipad_y_ = h / 4;
    for (int i = kChunks / 2 - 2; i <= kChunks / 2 + 2; ++i) height[i] = helipad_y_;
    std::array<double, kChunks>& smooth_y = smooth_y_;
    for (int i = 0; i < kChunks; ++i) {
      // height[i - 1] is Python's height[-1], the last one, for i = 0.
      const double before = height[(i + kChunks) % (kChunks + 1)];
      smooth_y[i] = 0.33 * (before + height[i] + height[i + 1]);
    }

    b2BodyDef moon_def;  // static
    b2Body* moon = world_->CreateBody(&moon_def);
    b2EdgeShape floor;
    floor.Set(b2Vec2(0.0F, 0.0F), b2Vec2(F(w), 0.0F));
    AddFixture(moon, floor, {});
    for (int i = 0; i < kChunks - 1; ++i) {
      b2EdgeShape edge;
      edge.Set(b2Vec2(F(chunk_x[i]), F(smooth_y[i])), b2Vec2(F(chunk_x[i + 1]), F(smooth_y[i + 1])));
      AddFixture(moon, edge, {0.0F, F(0.1), 0.0F, 0x0001, 0xFFFF});
    }

    const double initial_y = kViewportH / kScale;
    const double initial_x = kViewportW / kScale / 2;
    b2BodyDef lander_def;
    lander_def.type = b2_dynamicBody;
    lander_def.position.Set(F(initial_x), F(initial_y));
    lander_def.angle = 0.0F;
    lander_ = world_->CreateBody(&lander_def);
    constexpr int kPoly[6][2] = {{-14, 17}, {-17, 0}, {-17, -10}, {17, -10}, {17, 0}, {14, 17}};
    b2Vec2 vertices[6];
    for (int i = 0; i < 6; ++i) vertices[i].Set(F(kPoly[i][0] / kScale), F(kPoly[i][1] / kScale));
    AddPolygon(lander_, vertices, 6, {5.0F, F(0.1), 0.0F, 0x0010, 0x001});  // ground only

    const double force_x = np_random_.Uniform(-kInitialRandom, kInitialRandom);
    const double force_y = np_random_.Uniform(-kInitialRandom, kInitialRandom);
    initial_force_ = {force_x, force_y};
    lander_->ApplyForceToCenter(b2Vec2(F(force_x), F(force_y)), true);
    if (params_.enable_wind) {
      wind_idx_ = np_random_.Integers(-9999, 9999);
      torque_idx_ = np_random_.Integers(-9999, 9999);
    }

    for (int k = 0; k < 2; ++k) {
      const int i = k == 0 ? -1 : +1;
      b2BodyDef leg_def;
      leg_def.type = b2_dynamicBody;
      leg_def.position.Set(F(initial_x - i * kLegAway / kScale), F(initial_y));
      leg_def.angle = F(i * 0.05);
      b2Body* leg = world_->CreateBody(&leg_def);
      b2PolygonShape box;
      box.SetAsBox(F(kLegW / kScale), F(kLegH / kScale));
      AddFixture(leg, box, {1.0F, 0.2F, 0.0F, 0x0020, 0x001});
      legs_[k] = leg;
      ground_contact_[k] = false;

      b2RevoluteJointDef rjd;
      rjd.bodyA = lander_;
      rjd.bodyB = leg;
      rjd.localAnchorA.Set(0.0F, 0.0F);
      rjd.localAnchorB.Set(F(i * kLegAway / kScale), F(kLegDown / kScale));
      rjd.enableMotor = true;
      rjd.enableLimit = true;
      rjd.maxMotorTorque = F(kLegSpringTorque);
      rjd.motorSpeed = F(+0.3 * i);
      // pybox2d's revoluteJointDef(bodyA=..., bodyB=...) sets the reference angle to
      // bodyB.angle - bodyA.angle, in Python floats.
      rjd.referenceAngle =
          F(static_cast<double>(leg->GetAngle()) - static_cast<double>(lander_->GetAngle()));
      if (i == -1) {
        rjd.lowerAngle = F(+0.9 - 0.5);
        rjd.upperAngle = F(+0.9);
      } else {
        rjd.lowerAngle = F(-0.9);
        rjd.upperAngle = F(-0.9 + 0.5);
      }
      world_->CreateJoint(&rjd);
    }
    // gymnasium's reset returns the observation of a step with no engine.
    Advance(0, 0.0, 0.0);
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    if (params_.continuous) {
      // np.clip(action, -1, +1).astype(np.float64): the clip in float32.
      const float* a = action.As<float>();
      const auto clip = [](float v) { return v < -1.0F ? -1.0F : (v > 1.0F ? 1.0F : v); };
      return Advance(-1, static_cast<double>(clip(a[0])), static_cast<double>(clip(a[1])));
    }
    return Advance(action.Scalar<std::int32_t>(), 0.0, 0.0);
  }

  void Write(const Slot& slot) const override {
    float* obs = slot.Obs<float>();
    for (int i = 0; i < 8; ++i) obs[i] = obs_[i];
    float* sky = slot.Info<float>(0);
    const double h = kViewportH / kScale;
    for (int i = 0; i < kChunks - 1; ++i) {
      const double poly[4][2] = {{chunk_x_[i], smooth_y_[i]},
                                 {chunk_x_[i + 1], smooth_y_[i + 1]},
                                 {chunk_x_[i + 1], h},
                                 {chunk_x_[i], h}};
      for (const auto& point : poly) {
        *sky++ = static_cast<float>(point[0]);
        *sky++ = static_cast<float>(point[1]);
      }
    }
    WriteBodyState(lander_, slot.Info<float>(1));
    WriteBodyState(legs_[0], slot.Info<float>(2));
    WriteBodyState(legs_[1], slot.Info<float>(2) + 7);
    for (int i = 0; i < 2; ++i) slot.Info<float>(3)[i] = ground_contact_[i] ? 1.0F : 0.0F;
    *slot.Info<float>(4) = static_cast<float>(prev_shaping_);
    *slot.Info<float>(5) = game_over_ ? 1.0F : 0.0F;
    for (int i = 0; i < 2; ++i) slot.Info<float>(6)[i] = static_cast<float>(last_dispersion_[i]);
    for (int i = 0; i < 2; ++i) slot.Info<float>(7)[i] = static_cast<float>(initial_force_[i]);
  }

 private:
  std::vector<std::uint8_t> resized_;  // the full picture of a smaller render size
  static constexpr double kFps = 50;
  static constexpr double kScale = 30.0;
  static constexpr double kMainEnginePower = 13.0;
  static constexpr double kSideEnginePower = 0.6;
  static constexpr double kInitialRandom = 1000.0;
  static constexpr int kLegAway = 20;
  static constexpr int kLegDown = 18;
  static constexpr int kLegW = 2;
  static constexpr int kLegH = 8;
  static constexpr int kLegSpringTorque = 40;
  static constexpr int kSideEngineHeight = 14;
  static constexpr int kSideEngineAway = 12;
  static constexpr int kMainEngineYLocation = 4;
  static constexpr int kViewportW = 600;
  static constexpr int kViewportH = 400;
  static constexpr int kChunks = 11;

  // gymnasium's ContactDetector.
  class ContactDetector final : public b2ContactListener {
   public:
    explicit ContactDetector(LunarLander& env) : env_(env) {}
    void BeginContact(b2Contact* contact) override {
      const b2Body* a = contact->GetFixtureA()->GetBody();
      const b2Body* b = contact->GetFixtureB()->GetBody();
      if (env_.lander_ == a || env_.lander_ == b) env_.game_over_ = true;
      for (int i = 0; i < 2; ++i) {
        if (env_.legs_[i] == a || env_.legs_[i] == b) env_.ground_contact_[i] = true;
      }
    }
    void EndContact(b2Contact* contact) override {
      const b2Body* a = contact->GetFixtureA()->GetBody();
      const b2Body* b = contact->GetFixtureB()->GetBody();
      for (int i = 0; i < 2; ++i) {
        if (env_.legs_[i] == a || env_.legs_[i] == b) env_.ground_contact_[i] = false;
      }
    }

   private:
    LunarLander& env_;
  };

  // A flame particle (gymnasium's _create_particle): a small disc that collides with the
  // ground only, alive while its ttl, which render() runs down, is not negative.
  struct Particle {
    b2Body* body;  // owned by world_
    double ttl;
    draw::Rgb color;
  };

  b2Body* CreateParticle(double mass, double x, double y, double ttl) {
    b2BodyDef def;
    def.type = b2_dynamicBody;
    def.position.Set(F(x), F(y));
    def.angle = 0.0F;
    b2Body* body = world_->CreateBody(&def);
    b2CircleShape disc;
    disc.m_radius = F(2 / kScale);
    disc.m_p.Set(0.0F, 0.0F);
    AddFixture(body, disc, {F(mass), F(0.1), F(0.3), 0x0100, 0x001});  // ground only
    particles_.push_back({body, ttl, {0, 0, 0}});
    CleanParticles(false);
    return body;
  }

  // gymnasium's _clean_particles: from the oldest, while it has expired (or all).
  void CleanParticles(bool all) {
    while (!particles_.empty() && (all || particles_.front().ttl < 0)) {
      world_->DestroyBody(particles_.front().body);
      particles_.pop_front();
    }
  }

  static void WriteBodyState(const b2Body* body, float* out) {
    const b2Vec2 pos = body->GetPosition();
    const b2Vec2 vel = body->GetLinearVelocity();
    const float state[7] = {pos.x, pos.y, body->GetAngle(), vel.x, vel.y,
                            body->GetAngularVelocity(), body->IsAwake() ? 1.0F : 0.0F};
    std::copy(state, state + 7, out);
  }

  // An engine's push at `at`: with a render_mode, a particle of `mass` pushed along
  // (ox, oy) * engine_power * throttle, its ttl the throttle; the lander pushed the other way.
  void Fire(double mass, const double (&at)[2], double ox, double oy, double engine_power,
            double throttle) {
    const b2Vec2 point(F(at[0]), F(at[1]));
    if (params_.render) {
      b2Body* p = CreateParticle(mass, at[0], at[1], throttle);
      p->ApplyLinearImpulse(b2Vec2(F(ox * engine_power * throttle), F(oy * engine_power * throttle)),
                            point, true);
    }
    lander_->ApplyLinearImpulse(
        b2Vec2(F(-ox * engine_power * throttle), F(-oy * engine_power * throttle)), point, true);
  }

  // gymnasium's step. A discrete action is `discrete` (0 to 3); with -1 the continuous
  // action is (a0, a1), clipped to [-1, 1].
  StepOutcome Advance(int discrete, double a0, double a1) {
    const bool continuous = discrete < 0;
    if (params_.enable_wind && !(ground_contact_[0] || ground_contact_[1])) {
      const double wind_mag = std::tanh(std::sin(0.02 * static_cast<double>(wind_idx_)) +
                                        std::sin(M_PI * 0.01 * static_cast<double>(wind_idx_))) *
                              params_.wind_power;
      wind_idx_ += 1;
      lander_->ApplyForceToCenter(b2Vec2(F(wind_mag), 0.0F), true);
      const double torque_mag =
          std::tanh(std::sin(0.02 * static_cast<double>(torque_idx_)) +
                    std::sin(M_PI * 0.01 * static_cast<double>(torque_idx_))) *
          params_.turbulence_power;
      torque_idx_ += 1;
      lander_->ApplyTorque(F(torque_mag), true);
    }

    const double angle = lander_->GetAngle();
    const double tip[2] = {std::sin(angle), std::cos(angle)};
    const double side[2] = {-tip[1], tip[0]};
    double dispersion[2];
    for (int i = 0; i < 2; ++i) {
      last_dispersion_[i] = np_random_.Uniform(-1.0, +1.0);
      dispersion[i] = last_dispersion_[i] / kScale;
    }

    double m_power = 0.0;
    if ((continuous && a0 > 0.0) || (!continuous && discrete == 2)) {
      if (continuous) {
        m_power = ((a0 < 0.0 ? 0.0 : (a0 > 1.0 ? 1.0 : a0)) + 1.0) * 0.5;  // 0.5..1.0
      } else {
        m_power = 1.0;
      }
      const double reach = kMainEngineYLocation / kScale + 2 * dispersion[0];
      const double ox = tip[0] * reach + side[0] * dispersion[1];
      const double oy = -tip[1] * reach - side[1] * dispersion[1];
      const b2Vec2 pos = lander_->GetPosition();
      const double impulse_pos[2] = {static_cast<double>(pos.x) + ox,
                                     static_cast<double>(pos.y) + oy};
      Fire(3.5, impulse_pos, ox, oy, kMainEnginePower, m_power);
    }

    double s_power = 0.0;
    if ((continuous && std::fabs(a1) > 0.5) ||
        (!continuous && (discrete == 1 || discrete == 3))) {
      double direction;
      if (continuous) {
        direction = a1 > 0.0 ? 1.0 : -1.0;  // np.sign; |a1| > 0.5 here
        const double magnitude = std::fabs(a1);
        s_power = magnitude < 0.5 ? 0.5 : (magnitude > 1.0 ? 1.0 : magnitude);
      } else {
        direction = discrete - 2;
        s_power = 1.0;
      }
      const double lateral = 3 * dispersion[1] + direction * kSideEngineAway / kScale;
      const double ox = tip[0] * dispersion[0] + side[0] * lateral;
      const double oy = -tip[1] * dispersion[0] - side[1] * lateral;
      const b2Vec2 pos = lander_->GetPosition();
      const double impulse_pos[2] = {
          static_cast<double>(pos.x) + ox - tip[0] * 17 / kScale,
          static_cast<double>(pos.y) + oy + tip[1] * kSideEngineHeight / kScale};
      Fire(0.7, impulse_pos, ox, oy, kSideEnginePower, s_power);
    }

    world_->Step(F(1.0 / kFps), 6 * 30, 2 * 30);

    const b2Vec2 pos = lander_->GetPosition();
    const b2Vec2 vel = lander_->GetLinearVelocity();
    const double px = pos.x, py = pos.y, vx = vel.x, vy = vel.y;
    const double state[8] = {
        (px - kViewportW / kScale / 2) / (kViewportW / kScale / 2),
        (py - (helipad_y_ + kLegDown / kScale)) / (kViewportH / kScale / 2),
        vx * (kViewportW / kScale / 2) / kFps,
        vy * (kViewportH / kScale / 2) / kFps,
        static_cast<double>(lander_->GetAngle()),
        20.0 * static_cast<double>(lander_->GetAngularVelocity()) / kFps,
        ground_contact_[0] ? 1.0 : 0.0,
        ground_contact_[1] ? 1.0 : 0.0,
    };
    for (int i = 0; i < 8; ++i) obs_[i] = static_cast<float>(state[i]);

    double reward = 0;
    const double shaping = -100 * std::sqrt(state[0] * state[0] + state[1] * state[1]) -
                           100 * std::sqrt(state[2] * state[2] + state[3] * state[3]) -
                           100 * std::fabs(state[4]) + 10 * state[6] + 10 * state[7];
    if (has_prev_shaping_) reward = shaping - prev_shaping_;
    prev_shaping_ = shaping;
    has_prev_shaping_ = true;
    reward -= m_power * 0.30;  // less fuel spent is better
    reward -= s_power * 0.03;

    StepOutcome out;
    if (game_over_ || std::fabs(state[0]) >= 1.0) {
      out.terminated = true;
      reward = -100;
    }
    if (!lander_->IsAwake()) {
      out.terminated = true;
      reward = +100;
    }
    out.reward = reward;
    return out;
  }

  Params params_;
  ContactDetector listener_;
  NumpyGenerator np_random_;
  std::unique_ptr<b2World> world_;
  b2Body* lander_ = nullptr;              // owned by world_
  std::array<b2Body*, 2> legs_{};         // owned by world_
  std::array<bool, 2> ground_contact_{};  // legs[i].ground_contact
  bool game_over_ = false;
  bool has_prev_shaping_ = false;
  double prev_shaping_ = 0.0;
  double helipad_x1_ = 0.0, helipad_x2_ = 0.0, helipad_y_ = 0.0;
  std::int64_t wind_idx_ = 0, torque_idx_ = 0;
  std::array<float, 8> obs_{};
  std::array<double, 2> last_dispersion_{}, initial_force_{};  // for the info
  std::array<double, kChunks> chunk_x_{}, smooth_y_{};  // the terrain, for render()
  std::deque<Particle> particles_;                      // oldest first
};

}  // namespace envpool::box2d
