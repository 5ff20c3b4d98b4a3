// BipedalWalker-v3 and BipedalWalkerHardcore-v3 (hardcore=True): gymnasium's
// box2d/bipedal_walker.py statement by statement, on the same Box2D engine as LunarLander
// (box2d-py's sources, native/third_party/build_box2d.py).
//
// The number types are the reference's: Box2D's state is float32 (b2Vec2, angles, joint
// readings), each value read from it is widened to double for gymnasium's float64
// arithmetic (kept in Python's order), and each number handed to Box2D is rounded to
// float32 at the call, as pybox2d does. Two of gymnasium's expressions are numpy float32
// ones (numpy 2's promotion rules): a motor's torque, MOTORS_TORQUE * clip(|a|, 0, 1), and
// the torque cost, whose first subtraction turns the reward itself into a float32; both are
// done here in float32 in the same order.
//
// gymnasium makes one b2World per env and keeps it for the env's life: each reset destroys
// the previous episode's bodies (the terrain's in reverse order of creation, then the hull
// and the four leg parts) and creates new ones in the same world. The world's broad-phase
// tree, whose node reuse follows that history, decides the order of contacts and so the
// solver's arithmetic; the env keeps its world and does the same destruction and creation
// in the same order, so later episodes stay bitwise too.
//
// Randomness is gymnasium's self.np_random (envs/common/numpy_random.h) seeded with the
// env's seed, drawn in gymnasium's order: the terrain (uniform for the grass' slope, integers
// for the lengths of the features and, in hardcore, random() for a stair's direction), the
// ten clouds, and the hull's initial push.
//
// render(): gymnasium's pygame picture, drawn as its pygame calls draw it
// (envs/common/draw/raster.h).
#pragma once

#include <Box2D/Box2D.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/env.h"
#include "envs/box2d/pybox2d.h"
#include "envs/common/draw/picture.h"
#include "envs/common/draw/raster.h"
#include "envs/common/draw/smoothscale.h"
#include "envs/common/keywords.h"
#include "envs/common/numpy_random.h"

namespace envpool::box2d {

class BipedalWalker final : public Env {
 public:
  struct Params {
    explicit Params(const Config& config) { Keys().Read(config, *this); }
    bool hardcore;
  };

  // gymnasium 1.4's BipedalWalker keyword and default.
  static Keywords<Params> Keys() {
    Keywords<Params> k;
    k.Add("hardcore", false, &Params::hardcore);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& /*params*/) {
    // gymnasium's bounds, as float32 (np.array(...).astype(np.float32)).
    const double pi = static_cast<double>(static_cast<float>(M_PI));
    std::vector<double> low = {-pi, -5.0, -5.0, -5.0, -pi, -5.0, -pi, -5.0, -0.0,
                               -pi, -5.0, -pi, -5.0, -0.0};
    std::vector<double> high = {pi, 5.0, 5.0, 5.0, pi, 5.0, pi, 5.0, 5.0,
                                pi, 5.0, pi, 5.0, 5.0};
    for (int i = 0; i < kLidars; ++i) {
      low.push_back(-1.0);
      high.push_back(1.0);
    }
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("obs", DType::kFloat32, {24}, low, high));
    spec.action = BoxSpec("action", DType::kFloat32, {4}, {-1.0, -1.0, -1.0, -1.0},
                          {1.0, 1.0, 1.0, 1.0});
    return spec;
  }

  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return draw::ShrinkableFrame("BipedalWalker", kViewportW, kViewportH, kFps, width, height,
                            camera_id);
  }

  // render(): Draw at gymnasium's size; a smaller render size shrinks that picture as
  // pygame's smoothscale does (draw::DrawAtSize).
  void Render(int width, int height, int /*camera_id*/, std::uint8_t* out) override {
    draw::DrawAtSize(kViewportW, kViewportH, width, height, out, resized_,
                     [this](std::uint8_t* full) { Draw(full); });
  }

  // gymnasium's render(): a surface as wide as the scroll has gone (600 + scroll * SCALE
  // pixels), drawn in world pixels (sky, clouds, terrain fill, one lidar ray, every body, the
  // flag), flipped, and its last 600 columns kept. Each call moves the drawn ray on.
  void Draw(std::uint8_t* out) {
    using draw::Rgb;
    const auto truncated = [](const std::vector<std::array<double, 2>>& poly) {
      std::vector<std::array<int, 2>> v;
      for (const auto& q : poly) v.push_back({static_cast<int>(q[0]), static_cast<int>(q[1])});
      return v;
    };
    const int surface_w = static_cast<int>(kViewportW + std::max(0.0, scroll_) * kScale);
    std::vector<std::uint8_t> surface(static_cast<std::size_t>(surface_w) * kViewportH * 3, 0);
    draw::Canvas canvas(surface_w, kViewportH, surface.data());
    const double left = scroll_ * kScale;
    canvas.DrawPolygon(truncated({{left, 0}, {left + kViewportW, 0},
                                  {left + kViewportW, kViewportH}, {left, kViewportH}}),
                       {215, 215, 255});
    for (const Cloud& cloud : clouds_) {
      if (cloud.x2 < scroll_ / 2) continue;
      if (cloud.x1 > scroll_ / 2 + kViewportW / kScale) continue;
      std::vector<std::array<double, 2>> poly;
      for (const auto& p : cloud.poly) {
        poly.push_back({p[0] * kScale + scroll_ * kScale / 2, p[1] * kScale});
      }
      canvas.DrawPolygon(truncated(poly), {255, 255, 255});
      canvas.AaPolygon(truncated(poly), {255, 255, 255});
    }
    for (int i = 0; i < kTerrainLength - 1; ++i) {
      if (terrain_x_[i + 1] < scroll_) continue;
      if (terrain_x_[i] > scroll_ + kViewportW / kScale) continue;
      const auto poly = truncated({{terrain_x_[i] * kScale, terrain_y_[i] * kScale},
                                   {terrain_x_[i + 1] * kScale, terrain_y_[i + 1] * kScale},
                                   {terrain_x_[i + 1] * kScale, 0 * kScale},
                                   {terrain_x_[i] * kScale, 0 * kScale}});
      canvas.DrawPolygon(poly, {102, 153, 76});
      canvas.AaPolygon(poly, {102, 153, 76});
    }
    lidar_render_ = (lidar_render_ + 1) % 100;
    if (lidar_render_ < 2 * kLidars) {
      // lidar[i], then (i >= 10) Python's lidar[10 - i - 1]: back from the last.
      const int i = lidar_render_ < kLidars ? lidar_render_ : 2 * kLidars - 1 - lidar_render_;
      const Ray& ray = rays_[i];
      canvas.Line(static_cast<int>(ray.p1[0] * kScale), static_cast<int>(ray.p1[1] * kScale),
                  static_cast<int>(ray.p2[0] * kScale), static_cast<int>(ray.p2[1] * kScale),
                  {255, 0, 0});
    }
    const float scale = F(kScale);
    const auto draw_body = [&](const b2Body* body, const Rgb& color1, const Rgb& color2) {
      const b2Transform& t = body->GetTransform();
      const b2Shape* shape = body->GetFixtureList()->GetShape();
      if (shape->GetType() == b2Shape::e_edge) {
        const auto* edge = static_cast<const b2EdgeShape*>(shape);
        const b2Vec2 a = b2Mul(t, edge->m_vertex1), b = b2Mul(t, edge->m_vertex2);
        canvas.AaLine(a.x * scale, a.y * scale, b.x * scale, b.y * scale, color1);
        return;
      }
      const auto* poly = static_cast<const b2PolygonShape*>(shape);
      std::vector<std::array<int, 2>> path;
      for (int i = 0; i < poly->m_count; ++i) {
        const b2Vec2 v = b2Mul(t, poly->m_vertices[i]);
        path.push_back({static_cast<int>(v.x * scale), static_cast<int>(v.y * scale)});
      }
      canvas.DrawPolygon(path, color1);
      canvas.AaPolygon(path, color1);
      path.push_back(path[0]);
      for (std::size_t i = 1; i < path.size(); ++i) {  // draw.polygon(width=1): closed lines
        canvas.Line(path[i - 1][0], path[i - 1][1], path[i][0], path[i][1], color2);
      }
      canvas.Line(path.back()[0], path.back()[1], path[0][0], path[0][1], color2);
      canvas.AaPolygon(path, color2);
    };
    for (auto it = terrain_.rbegin(); it != terrain_.rend(); ++it) {
      draw_body(it->body, it->color1, it->color2);
    }
    for (int k = 0; k < 4; ++k) {
      const int i = k < 2 ? -1 : +1;
      const auto level = [i](int v) { return static_cast<std::uint8_t>(v - i * 25); };
      draw_body(legs_[k], {level(153), level(76), level(127)}, {level(102), level(51), level(76)});
    }
    draw_body(hull_, {127, 51, 229}, {76, 76, 127});
    const double flagy1 = kTerrainHeight * kScale;
    const double flagy2 = flagy1 + 50;
    const double x = kTerrainStep * 3 * kScale;
    canvas.AaLine(F(x), F(flagy1), F(x), F(flagy2), {0, 0, 0});
    const auto flag = truncated({{x, flagy2}, {x, flagy2 - 10}, {x + 25, flagy2 - 5}});
    canvas.DrawPolygon(flag, {230, 51, 0});
    for (int i = 1; i <= 3; ++i) {  // draw.lines(f + [f[0]], closed=False)
      canvas.Line(flag[i - 1][0], flag[i - 1][1], flag[i % 3][0], flag[i % 3][1], {0, 0, 0});
    }
    canvas.FlipRows();
    for (int row = 0; row < kViewportH; ++row) {
      const std::uint8_t* from =
          surface.data() + (static_cast<std::size_t>(row) * surface_w + surface_w - kViewportW) * 3;
      std::copy(from, from + kViewportW * 3, out + static_cast<std::size_t>(row) * kViewportW * 3);
    }
  }

  explicit BipedalWalker(const Params& params)
      : params_(params), listener_(*this), world_(b2Vec2(0.0F, -10.0F)) {
    world_.SetAllowSleeping(true);
  }

  void Seed(std::uint64_t seed) override { np_random_.Seed(seed); }

  void Reset(Rng& /*rng*/) override {
    Destroy();
    world_.SetContactListener(&listener_);
    game_over_ = false;
    has_prev_shaping_ = false;
    scroll_ = 0.0;
    lidar_render_ = 0;
    GenerateTerrain();
    DrawClouds();

    const double init_x = kTerrainStep * kTerrainStartpad / 2;
    const double init_y = kTerrainHeight + 2 * kLegH;
    b2BodyDef hull_def;
    hull_def.type = b2_dynamicBody;
    hull_def.position.Set(F(init_x), F(init_y));
    hull_ = world_.CreateBody(&hull_def);
    constexpr int kHullPoly[5][2] = {{-30, +9}, {+6, +9}, {+34, +1}, {+34, -8}, {-30, -8}};
    b2Vec2 vertices[5];
    for (int i = 0; i < 5; ++i) {
      vertices[i].Set(F(kHullPoly[i][0] / kScale), F(kHullPoly[i][1] / kScale));
    }
    AddPolygon(hull_, vertices, 5, {5.0F, F(0.1), 0.0F, 0x0020, 0x001});  // HULL_FD
    const double push = np_random_.Uniform(-kInitialRandom, kInitialRandom);
    hull_->ApplyForceToCenter(b2Vec2(F(push), 0.0F), true);

    for (int k = 0; k < 2; ++k) {
      const int i = k == 0 ? -1 : +1;
      b2Body* leg = CreateLegPart(init_x, init_y - kLegH / 2 - kLegDown, i * 0.05, kLegW / 2);
      joints_[2 * k] = CreateMotor(hull_, leg, kLegDown, kLegH / 2, i, -0.8, 1.1);
      b2Body* lower =
          CreateLegPart(init_x, init_y - kLegH * 3 / 2 - kLegDown, i * 0.05, 0.8 * kLegW / 2);
      joints_[2 * k + 1] = CreateMotor(leg, lower, -kLegH / 2, kLegH / 2, 1, -1.6, -0.1);
      legs_[2 * k] = leg;
      legs_[2 * k + 1] = lower;
    }
    ground_contact_ = {};
    // gymnasium's reset returns the observation of a step with np.array([0, 0, 0, 0]).
    Advance({0.0F, 0.0F, 0.0F, 0.0F});
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const float* a = action.As<float>();
    return Advance({a[0], a[1], a[2], a[3]});
  }

  void Write(const Slot& slot) const override {
    float* obs = slot.Obs<float>();
    for (int i = 0; i < 24; ++i) obs[i] = obs_[i];
  }

 private:
  std::vector<std::uint8_t> resized_;  // the full picture of a smaller render size
  static constexpr double kFps = 50;
  static constexpr double kScale = 30.0;
  static constexpr int kMotorsTorque = 80;
  static constexpr int kSpeedHip = 4;
  static constexpr int kSpeedKnee = 6;
  static constexpr double kLidarRange = 160 / kScale;
  static constexpr int kLidars = 10;
  static constexpr double kInitialRandom = 5;
  static constexpr double kLegDown = -8 / kScale;
  static constexpr double kLegW = 8 / kScale;
  static constexpr double kLegH = 34 / kScale;
  static constexpr int kViewportW = 600;
  static constexpr int kViewportH = 400;
  static constexpr double kTerrainStep = 14 / kScale;
  static constexpr int kTerrainLength = 200;  // in steps
  static constexpr double kTerrainHeight = kViewportH / kScale / 4;
  static constexpr int kTerrainGrass = 10;  // low long are grass spots, in steps
  static constexpr int kTerrainStartpad = 20;  // in steps
  static constexpr double kFriction = 2.5;

  static double Sign(double v) { return v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0); }

  // gymnasium's ContactDetector: the hull's touch ends the game; the lower legs' contacts.
  class ContactDetector final : public b2ContactListener {
   public:
    explicit ContactDetector(BipedalWalker& env) : env_(env) {}
    void BeginContact(b2Contact* contact) override {
      const b2Body* a = contact->GetFixtureA()->GetBody();
      const b2Body* b = contact->GetFixtureB()->GetBody();
      if (env_.hull_ == a || env_.hull_ == b) env_.game_over_ = true;
      for (int i : {1, 3}) {
        if (env_.legs_[i] == a || env_.legs_[i] == b) env_.ground_contact_[i] = true;
      }
    }
    void EndContact(b2Contact* contact) override {
      const b2Body* a = contact->GetFixtureA()->GetBody();
      const b2Body* b = contact->GetFixtureB()->GetBody();
      for (int i : {1, 3}) {
        if (env_.legs_[i] == a || env_.legs_[i] == b) env_.ground_contact_[i] = false;
      }
    }

   private:
    BipedalWalker& env_;
  };

  // gymnasium's LidarCallback: fixtures outside category 1 (the walker) are ignored (-1);
  // the ray is clipped at each fixture reported, so the last fraction is the nearest. Its
  // p2 becomes the point hit (the ray render() draws ends there).
  class Lidar final : public b2RayCastCallback {
   public:
    float32 ReportFixture(b2Fixture* fixture, const b2Vec2& point, const b2Vec2& /*normal*/,
                          float32 fraction) override {
      if ((fixture->GetFilterData().categoryBits & 1) == 0) return -1;
      p2 = {point.x, point.y};
      this->fraction = fraction;
      return fraction;
    }
    double fraction = 1.0;
    std::array<double, 2> p2{};
  };

  // gymnasium's _destroy: the contact listener off, the terrain's bodies in reverse order
  // of creation, the hull, the leg parts (their joints go with them). Nothing before the
  // first episode.
  void Destroy() {
    if (terrain_.empty()) return;
    world_.SetContactListener(nullptr);
    for (auto it = terrain_.rbegin(); it != terrain_.rend(); ++it) world_.DestroyBody(it->body);
    terrain_.clear();
    world_.DestroyBody(hull_);
    hull_ = nullptr;
    for (b2Body*& leg : legs_) {
      world_.DestroyBody(leg);
      leg = nullptr;
    }
    joints_ = {};
  }

  // A static body with fd_polygon (friction 2.5, category 1) over four points.
  void CreateBlock(const std::array<std::array<double, 2>, 4>& poly) {
    b2Vec2 vertices[4];
    for (int i = 0; i < 4; ++i) vertices[i].Set(F(poly[i][0]), F(poly[i][1]));
    b2BodyDef def;  // static
    b2Body* body = world_.CreateBody(&def);
    AddPolygon(body, vertices, 4, {0.0F, F(kFriction), 0.0F, 0x0001, 0xFFFF});
    terrain_.push_back({body, {255, 255, 255}, {153, 153, 153}});
  }

  // gymnasium's _generate_terrain.
  void GenerateTerrain() {
    enum State : std::int64_t { kGrass = 0, kStump, kStairs, kPit, kStates };
    std::int64_t state = kGrass;
    double velocity = 0.0;
    double y = kTerrainHeight;
    std::int64_t counter = kTerrainStartpad;
    bool oneshot = false;
    std::array<double, kTerrainLength>& terrain_x = terrain_x_;
    std::array<double, kTerrainLength>& terrain_y = terrain_y_;
    std::int64_t stair_steps = 0, stair_width = 0, stair_height = 0;
    double original_y = 0;
    const double ts = kTerrainStep;
    for (int i = 0; i < kTerrainLength; ++i) {
      const double x = i * ts;
      terrain_x[i] = x;
      if (state == kGrass && !oneshot) {
        velocity = 0.8 * velocity + 0.01 * Sign(kTerrainHeight - y);
        if (i > kTerrainStartpad) velocity += np_random_.Uniform(-1, 1) / kScale;
        y += velocity;
      } else if (state == kPit && oneshot) {
        counter = np_random_.Integers(3, 5);
        const std::array<std::array<double, 2>, 4> poly = {
            {{x, y}, {x + ts, y}, {x + ts, y - 4 * ts}, {x, y - 4 * ts}}};
        CreateBlock(poly);
        std::array<std::array<double, 2>, 4> moved = poly;
        for (auto& p : moved) p[0] = p[0] + ts * static_cast<double>(counter);
        CreateBlock(moved);
        counter += 2;
        original_y = y;
      } else if (state == kPit && !oneshot) {
        y = original_y;
        if (counter > 1) y -= 4 * ts;
      } else if (state == kStump && oneshot) {
        counter = np_random_.Integers(1, 3);
        const double size = static_cast<double>(counter) * ts;
        CreateBlock({{{x, y}, {x + size, y}, {x + size, y + size}, {x, y + size}}});
      } else if (state == kStairs && oneshot) {
        stair_height = np_random_.NextDouble() > 0.5 ? +1 : -1;
        stair_width = np_random_.Integers(4, 5);
        stair_steps = np_random_.Integers(3, 5);
        original_y = y;
        for (std::int64_t s = 0; s < stair_steps; ++s) {
          const double left = x + static_cast<double>(s * stair_width) * ts;
          const double right = x + static_cast<double>((1 + s) * stair_width) * ts;
          const double top = y + static_cast<double>(s * stair_height) * ts;
          const double bottom = y + static_cast<double>(-1 + s * stair_height) * ts;
          CreateBlock({{{left, top}, {right, top}, {right, bottom}, {left, bottom}}});
        }
        counter = stair_steps * stair_width;
      } else if (state == kStairs && !oneshot) {
        const std::int64_t s = stair_steps * stair_width - counter - stair_height;
        const double n = static_cast<double>(s) / static_cast<double>(stair_width);
        y = original_y + (n * static_cast<double>(stair_height)) * ts;
      }
      oneshot = false;
      terrain_y[i] = y;
      counter -= 1;
      if (counter == 0) {
        counter = np_random_.Integers(kTerrainGrass / 2, kTerrainGrass);
        if (state == kGrass && params_.hardcore) {
          state = np_random_.Integers(1, kStates);
        } else {
          state = kGrass;
        }
        oneshot = true;
      }
    }
    for (int i = 0; i < kTerrainLength - 1; ++i) {
      b2EdgeShape edge;  // fd_edge: friction 2.5, category 1
      edge.Set(b2Vec2(F(terrain_x[i]), F(terrain_y[i])),
               b2Vec2(F(terrain_x[i + 1]), F(terrain_y[i + 1])));
      b2BodyDef def;  // static
      b2Body* body = world_.CreateBody(&def);
      AddFixture(body, edge, {0.0F, F(kFriction), 0.0F, 0x0001, 0xFFFF});
      const std::uint8_t green = i % 2 == 0 ? 255 : 204;
      const draw::Rgb color = {76, green, 76};
      terrain_.push_back({body, color, color});
    }
  }

  // gymnasium's _generate_clouds: each cloud's x, then each of its five points' x and y
  // offsets, drawn in that order.
  void DrawClouds() {
    for (Cloud& cloud : clouds_) {
      const double x = np_random_.Uniform(0, kTerrainLength) * kTerrainStep;
      const double y = kViewportH / kScale * 3 / 4;
      for (int a = 0; a < 5; ++a) {
        const double px = x + 15 * kTerrainStep * std::sin(3.14 * 2 * a / 5) +
                          np_random_.Uniform(0, 5 * kTerrainStep);
        const double py = y + 5 * kTerrainStep * std::cos(3.14 * 2 * a / 5) +
                          np_random_.Uniform(0, 5 * kTerrainStep);
        cloud.poly[a] = {px, py};
      }
      cloud.x1 = cloud.x2 = cloud.poly[0][0];
      for (const auto& p : cloud.poly) {
        cloud.x1 = std::min(cloud.x1, p[0]);
        cloud.x2 = std::max(cloud.x2, p[0]);
      }
    }
  }

  // An upper (half width LEG_W / 2) or lower (0.8 * LEG_W / 2) leg part: LEG_FD / LOWER_FD.
  b2Body* CreateLegPart(double x, double y, double angle, double half_width) {
    b2BodyDef def;
    def.type = b2_dynamicBody;
    def.position.Set(F(x), F(y));
    def.angle = F(angle);
    b2Body* body = world_.CreateBody(&def);
    b2PolygonShape box;
    box.SetAsBox(F(half_width), F(kLegH / 2));
    AddFixture(body, box, {1.0F, 0.2F, 0.0F, 0x0020, 0x001});  // LEG_FD, LOWER_FD
    return body;
  }

  // gymnasium's revoluteJointDef between a and b (anchors on the bodies' y axes).
  b2RevoluteJoint* CreateMotor(b2Body* a, b2Body* b, double anchor_a, double anchor_b,
                               int speed, double lower, double upper) {
    b2RevoluteJointDef rjd;
    rjd.bodyA = a;
    rjd.bodyB = b;
    rjd.localAnchorA.Set(0.0F, F(anchor_a));
    rjd.localAnchorB.Set(0.0F, F(anchor_b));
    rjd.enableMotor = true;
    rjd.enableLimit = true;
    rjd.maxMotorTorque = F(kMotorsTorque);
    rjd.motorSpeed = F(speed);
    rjd.lowerAngle = F(lower);
    rjd.upperAngle = F(upper);
    // pybox2d's revoluteJointDef(bodyA=..., bodyB=...): bodyB.angle - bodyA.angle.
    rjd.referenceAngle =
        F(static_cast<double>(b->GetAngle()) - static_cast<double>(a->GetAngle()));
    return static_cast<b2RevoluteJoint*>(world_.CreateJoint(&rjd));
  }

  // gymnasium's step (control_speed False): each joint's motor speed SPEED * sign(a) and
  // torque MOTORS_TORQUE * clip(|a|, 0, 1), the latter a float32 product in numpy.
  StepOutcome Advance(const std::array<float, 4>& action) {
    for (int j = 0; j < 4; ++j) {
      const float a = action[j];
      const float sign = a > 0.0F ? 1.0F : (a < 0.0F ? -1.0F : 0.0F);
      const float magnitude = std::fabs(a);
      const float clipped = magnitude > 1.0F ? 1.0F : magnitude;
      joints_[j]->SetMotorSpeed(static_cast<float>(j % 2 == 0 ? kSpeedHip : kSpeedKnee) * sign);
      joints_[j]->SetMaxMotorTorque(static_cast<float>(kMotorsTorque) * clipped);
    }

    world_.Step(F(1.0 / kFps), 6 * 30, 2 * 30);

    const b2Vec2 pos = hull_->GetPosition();
    const b2Vec2 vel = hull_->GetLinearVelocity();
    const double px = pos.x, py = pos.y;
    std::array<double, kLidars> fractions{};
    for (int i = 0; i < kLidars; ++i) {
      Lidar lidar;
      const double angle = 1.5 * i / 10.0;
      lidar.p2 = {px + std::sin(angle) * kLidarRange, py - std::cos(angle) * kLidarRange};
      world_.RayCast(&lidar, pos, b2Vec2(F(lidar.p2[0]), F(lidar.p2[1])));
      fractions[i] = lidar.fraction;
      rays_[i] = {{px, py}, lidar.p2};
    }
    scroll_ = px - kViewportW / kScale / 5;

    const double hull_angle = hull_->GetAngle();
    const double state[14] = {
        hull_angle,
        2.0 * static_cast<double>(hull_->GetAngularVelocity()) / kFps,
        0.3 * static_cast<double>(vel.x) * (kViewportW / kScale) / kFps,
        0.3 * static_cast<double>(vel.y) * (kViewportH / kScale) / kFps,
        static_cast<double>(joints_[0]->GetJointAngle()),
        static_cast<double>(joints_[0]->GetJointSpeed()) / kSpeedHip,
        static_cast<double>(joints_[1]->GetJointAngle()) + 1.0,
        static_cast<double>(joints_[1]->GetJointSpeed()) / kSpeedKnee,
        ground_contact_[1] ? 1.0 : 0.0,
        static_cast<double>(joints_[2]->GetJointAngle()),
        static_cast<double>(joints_[2]->GetJointSpeed()) / kSpeedHip,
        static_cast<double>(joints_[3]->GetJointAngle()) + 1.0,
        static_cast<double>(joints_[3]->GetJointSpeed()) / kSpeedKnee,
        ground_contact_[3] ? 1.0 : 0.0,
    };
    for (int i = 0; i < 14; ++i) obs_[i] = static_cast<float>(state[i]);
    for (int i = 0; i < kLidars; ++i) obs_[14 + i] = static_cast<float>(fractions[i]);

    double shaping = 130 * px / kScale;
    shaping -= 5.0 * std::fabs(hull_angle);
    double reward = 0;
    if (has_prev_shaping_) reward = shaping - prev_shaping_;
    prev_shaping_ = shaping;
    has_prev_shaping_ = true;
    // reward -= 0.00035 * MOTORS_TORQUE * np.clip(np.abs(a), 0, 1): a float32 term, so the
    // reward becomes float32 at the first subtraction (Python float to float32 first).
    const float cost = F(0.00035 * kMotorsTorque);
    float reward32 = F(reward);
    for (const float a : action) {
      const float magnitude = std::fabs(a);
      reward32 -= cost * (magnitude > 1.0F ? 1.0F : magnitude);
    }
    reward = reward32;

    StepOutcome out;
    if (game_over_ || px < 0) {
      reward = -100;
      out.terminated = true;
    }
    if (px > (kTerrainLength - kTerrainGrass) * kTerrainStep) out.terminated = true;
    out.reward = reward;
    return out;
  }

  Params params_;
  ContactDetector listener_;
  NumpyGenerator np_random_;
  b2World world_;                          // the env's one world, as gymnasium's
  struct TerrainBody {
    b2Body* body;  // owned by world_
    draw::Rgb color1, color2;
  };
  struct Cloud {
    std::array<std::array<double, 2>, 5> poly;
    double x1, x2;  // its leftmost and rightmost x
  };
  struct Ray {  // a lidar ray's ends, as gymnasium keeps them (p1, p2)
    std::array<double, 2> p1, p2;
  };
  std::vector<TerrainBody> terrain_;       // in order of creation
  std::array<double, kTerrainLength> terrain_x_{}, terrain_y_{};
  std::array<Cloud, kTerrainLength / 20> clouds_{};
  std::array<Ray, kLidars> rays_{};
  double scroll_ = 0.0;
  int lidar_render_ = 0;
  b2Body* hull_ = nullptr;                 // owned by world_
  std::array<b2Body*, 4> legs_{};          // upper, lower, upper, lower; owned by world_
  std::array<b2RevoluteJoint*, 4> joints_{};  // hip, knee, hip, knee; owned by world_
  std::array<bool, 4> ground_contact_{};   // legs[i].ground_contact (the lower legs')
  bool game_over_ = false;
  bool has_prev_shaping_ = false;
  double prev_shaping_ = 0.0;
  std::array<float, 24> obs_{};
};

}  // namespace envpool::box2d
