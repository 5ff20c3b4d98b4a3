// Keywords (native/envs/common/keywords.h): one list gives an env's Defaults() and fills its
// Params; a member whose keyword the env does not take gets its fixed value; each numeric
// keyword's domain travels with the defaults.
#include "envs/common/keywords.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "check.h"

namespace {

using envpool::Config;
using envpool::Keywords;

struct Params {
  bool flag = false;
  int frame_skip = 0;
  double weight = 0.0;
  std::pair<double, double> range{0.0, 0.0};
  std::string xml;
};

Keywords<Params> Keys(int version) {
  Keywords<Params> k;
  k.Add("flag", true, &Params::flag);
  k.Add("frame_skip", 5, &Params::frame_skip, version == 5);
  k.Add("weight", 0.25, &Params::weight);
  k.Add("range", std::pair<double, double>{-INFINITY, 2.0}, &Params::range);
  k.Add("xml_file", std::string("model.xml"), &Params::xml);
  return k;
}

}  // namespace

TEST(defaults_list_the_keywords_with_their_typed_defaults) {
  const Config v5 = Keys(5).Defaults();
  CHECK_EQ(v5.Values().size(), std::size_t{5});
  CHECK(v5.GetBool("flag"));
  CHECK(std::holds_alternative<std::int64_t>(v5.Values().at("frame_skip")));
  CHECK_EQ(v5.GetInt("frame_skip"), std::int64_t{5});
  CHECK_EQ(v5.GetDouble("weight"), 0.25);
  CHECK_EQ(v5.GetDoubles("range").size(), std::size_t{2});
  CHECK(std::isinf(v5.GetDoubles("range")[0]) && v5.GetDoubles("range")[1] == 2.0);
  CHECK_EQ(v5.GetString("xml_file"), std::string("model.xml"));
  const Config v4 = Keys(4).Defaults();  // frame_skip is not a v4 keyword
  CHECK(!v4.Has("frame_skip"));
  CHECK_EQ(v4.Values().size(), std::size_t{4});
}

TEST(read_fills_every_member_from_the_config) {
  Config c = Keys(5).Defaults();
  c.Set("flag", false);
  c.Set("frame_skip", std::int64_t{3});
  c.Set("weight", std::int64_t{2});  // an int where a float is expected: as Python passes it
  c.Set("range", std::vector<double>{0.5, 1.5});
  c.Set("xml_file", std::string("other.xml"));
  Params p;
  Keys(5).Read(c, p);
  CHECK(!p.flag);
  CHECK_EQ(p.frame_skip, 3);
  CHECK_EQ(p.weight, 2.0);
  CHECK(p.range == (std::pair<double, double>{0.5, 1.5}));
  CHECK_EQ(p.xml, std::string("other.xml"));
}

TEST(a_member_without_its_keyword_gets_the_fixed_value) {
  Config c = Keys(4).Defaults();
  c.Set("frame_skip", std::int64_t{9});  // not read: v4 has no such keyword
  Params p;
  Keys(4).Read(c, p);
  CHECK_EQ(p.frame_skip, 5);
}

TEST(bad_values_are_clear_errors) {
  Params p;
  Config c = Keys(5).Defaults();
  c.Set("range", std::vector<double>{1.0, 2.0, 3.0});
  CHECK_THROWS_MSG(Keys(5).Read(c, p), std::invalid_argument, "'range' needs two numbers");
  c = Keys(5).Defaults();
  c.Set("flag", std::string("yes"));
  CHECK_THROWS_MSG(Keys(5).Read(c, p), std::invalid_argument, "'flag' must be a bool");
  CHECK_THROWS_MSG(Keys(5).Read(Config(), p), std::invalid_argument, "missing config key");
}

TEST(defaults_carry_each_numeric_keywords_domain) {
  Keywords<Params> k;
  k.Add("flag", true, &Params::flag);
  k.Add("frame_skip", 5, &Params::frame_skip).AtLeast(1);
  k.Add("weight", 0.25, &Params::weight).In(0, 1);
  k.Add("range", std::pair<double, double>{-INFINITY, 2.0}, &Params::range).AllowInf().Ordered();
  const Config c = k.Defaults();
  const auto& d = c.Domains();
  CHECK_EQ(d.size(), std::size_t{3});  // the bool has none
  CHECK(d.count("flag") == 0);
  CHECK_EQ(d.at("frame_skip").min, 1.0);
  CHECK_EQ(d.at("frame_skip").max, static_cast<double>(std::numeric_limits<int>::max()));
  CHECK(d.at("weight").min == 0.0 && d.at("weight").max == 1.0 && !d.at("weight").allow_inf);
  CHECK(d.at("range").allow_inf && d.at("range").ordered && std::isinf(d.at("range").min));
}

TEST(a_config_declares_domains_beside_its_defaults) {
  Config c;
  c.Set("n", std::int64_t{5}).AtLeast(1);
  c.Set("p", 0.5).Above(0).Below(1);
  c.Set("w", 2.0);
  c.Set("name", std::string("x"));
  c.Set("n", std::int64_t{6});  // setting it again keeps its domain
  CHECK_EQ(c.Domains().at("n").min, 1.0);
  CHECK(c.Domains().at("p").min_open && c.Domains().at("p").max_open);
  // a number's default domain: finite, within float32's range (the pool's outputs are float32)
  CHECK_EQ(c.Domains().at("w").max, static_cast<double>(std::numeric_limits<float>::max()));
  CHECK_EQ(c.Domains().at("w").min, -static_cast<double>(std::numeric_limits<float>::max()));
  CHECK(!c.Domains().at("w").allow_inf);
  CHECK(c.Domains().count("name") == 0);
  CHECK_THROWS_MSG(c.Set("name", std::string("y")).AtLeast(1), std::logic_error, "no number");
}

int main(int argc, char** argv) { return check::RunAll(argc, argv); }
