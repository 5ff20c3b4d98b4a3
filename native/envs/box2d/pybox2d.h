// What gymnasium's Box2D envs do through pybox2d, in C++: a Python float handed to Box2D
// (rounded to float32 by pybox2d's typemaps), and a fixture made from pybox2d's
// fixtureDef(shape=..., density=..., ...) with Box2D's defaults for what it leaves out.
#pragma once

#include <Box2D/Box2D.h>

namespace envpool::box2d {

// A Python float handed to Box2D: pybox2d rounds it to float32.
inline float F(double v) { return static_cast<float>(v); }

// fixtureDef's keywords, with b2FixtureDef's defaults (friction 0.2, category 1, mask all);
// written in full where used: {density, friction, restitution, categoryBits, maskBits}.
struct FixtureKeywords {
  float density = 0.0F;
  float friction = 0.2F;
  float restitution = 0.0F;
  uint16 category_bits = 0x0001;
  uint16 mask_bits = 0xFFFF;
};

// body.CreateFixture(fixtureDef(shape=shape, ...)).
inline b2Fixture* AddFixture(b2Body* body, const b2Shape& shape, const FixtureKeywords& k) {
  b2FixtureDef def;
  def.shape = &shape;
  def.density = k.density;
  def.friction = k.friction;
  def.restitution = k.restitution;
  def.filter.categoryBits = k.category_bits;
  def.filter.maskBits = k.mask_bits;
  return body->CreateFixture(&def);
}

// A polygonShape(vertices=...) fixture: pybox2d sets the float32 points and calls Set (which
// takes their convex hull and computes the centroid and normals).
inline b2Fixture* AddPolygon(b2Body* body, const b2Vec2* vertices, int count,
                             const FixtureKeywords& k) {
  b2PolygonShape shape;
  shape.Set(vertices, count);
  return AddFixture(body, shape, k);
}

}  // namespace envpool::box2d
