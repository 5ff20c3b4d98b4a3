// procgen's RandGen (src/randgen.cpp), restated: every draw of a procgen game comes from a
// std::mt19937 through these functions, so a game draws the same numbers on every platform.
#pragma once

#include <cstdint>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

namespace envpool::procgen {

class RandGen {
 public:
  // seed(int): the generator's seed is the int converted to uint32
  void Seed(int seed) {
    gen_.seed(static_cast<std::uint32_t>(seed));
    seeded_ = true;
  }

  // low + x % (high - low), in uint32 arithmetic
  int RandInt(int low, int high) {
    Check();
    const std::uint32_t x = gen_();
    const std::uint32_t range = static_cast<std::uint32_t>(high) - static_cast<std::uint32_t>(low);
    return static_cast<int>(static_cast<std::uint32_t>(low) + x % range);
  }
  // x % high, with high converted to uint32
  int RandN(int high) {
    Check();
    const std::uint32_t x = gen_();
    return static_cast<int>(x % static_cast<std::uint32_t>(high));
  }
  // float(double(x) / (2^32))
  float Rand01() {
    Check();
    const std::uint32_t x = gen_();
    return static_cast<float>(static_cast<double>(x) /
                              (static_cast<double>(std::mt19937::max()) + 1));
  }
  bool RandBool() { return Rand01() > .5; }
  float RandRange(float low, float high) { return Rand01() * (high - low) + low; }
  // the raw draw as an int
  int RandInt() {
    Check();
    return static_cast<int>(gen_());
  }
  std::vector<int> Partition(int x, int n) {
    std::vector<int> parts(n, 0);
    for (int i = 0; i < x; ++i) parts[RandN(n)] += 1;
    return parts;
  }
  int ChooseOne(const std::vector<int>& elems) {
    if (elems.empty()) throw std::logic_error("procgen: choose_one of nothing");
    return elems[RandN(static_cast<int>(elems.size()))];
  }
  std::vector<int> ChooseN(const std::vector<int>& elems, int n) {
    std::vector<int> rem(elems);
    if (n > static_cast<int>(elems.size())) return rem;
    std::vector<int> chosen;
    while (static_cast<int>(chosen.size()) < n) {
      const int idx = RandN(static_cast<int>(rem.size()));
      chosen.push_back(rem[idx]);
      rem.erase(rem.begin() + idx);
    }
    return chosen;
  }
  std::vector<int> SimpleChoose(int n, int k) {
    std::vector<int> chosen(k, 0);
    std::set<int> seen;
    for (int i = 0; i < k; ++i) {
      int next = RandN(n);
      while (seen.count(next) != 0) next = RandN(n);
      chosen[i] = next;
      seen.insert(next);
    }
    return chosen;
  }

 private:
  void Check() const {
    if (!seeded_) throw std::logic_error("procgen: a RandGen was drawn from before its seed");
  }
  std::mt19937 gen_;
  bool seeded_ = false;
};

}  // namespace envpool::procgen
