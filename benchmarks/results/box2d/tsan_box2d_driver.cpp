// 4 threads, each making its own worlds (a ball falling on a box) and stepping them.
#include <Box2D/Box2D.h>
#include <cstdio>
#include <thread>
#include <vector>
static float Run(int seed) {
  float sum = 0;
  for (int w = 0; w < 20; ++w) {
    b2World world(b2Vec2(0.0f, -10.0f));
    b2BodyDef ground_def;
    b2Body* ground = world.CreateBody(&ground_def);
    b2EdgeShape edge;
    edge.Set(b2Vec2(-10, 0), b2Vec2(10, 0));
    ground->CreateFixture(&edge, 0.0f);
    for (int k = 0; k < 5; ++k) {
      b2BodyDef def;
      def.type = b2_dynamicBody;
      def.position.Set(0.3f * k + 0.01f * seed, 2.0f + k);
      b2Body* body = world.CreateBody(&def);
      b2CircleShape disc;
      disc.m_radius = 0.3f;
      body->CreateFixture(&disc, 1.0f);
      b2PolygonShape box;
      box.SetAsBox(0.2f, 0.2f);
      body->CreateFixture(&box, 1.0f);
    }
    for (int t = 0; t < 200; ++t) world.Step(1.0f / 50, 6, 2);
    for (b2Body* b = world.GetBodyList(); b; b = b->GetNext()) sum += b->GetPosition().y;
  }
  return sum;
}
int main() {
  std::vector<std::thread> threads;
  std::vector<float> out(4);
  for (int i = 0; i < 4; ++i) threads.emplace_back([&out, i] { out[i] = Run(i); });
  for (auto& t : threads) t.join();
  std::printf("%g %g %g %g\n", out[0], out[1], out[2], out[3]);
}
