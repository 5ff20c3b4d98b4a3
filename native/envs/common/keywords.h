// An env's keywords declared once: each one a name, a default and the member of the env's
// Params it fills. Both the env's `static Config Defaults()` and its `Params(const Config&)`
// come from that one list:
//
//   static Keywords<Params> Keys() {
//     Keywords<Params> k;
//     k.Add("ctrl_cost_weight", 0.1, &Params::ctrl_cost_weight);
//     k.Add("frame_skip", 5, &Params::frame_skip, /*is_keyword=*/V == 5).AtLeast(1);
//     return k;
//   }
//   static Config Defaults() { return Keys().Defaults(); }
//   Params(const Config& c) { Keys().Read(c, *this); }
//
// A member whose keyword the env does not take (`is_keyword` false: a keyword of another
// version) is set to the given value, and Defaults() does not list it.
//
// Add returns the keyword's domain (core/config.h's DomainRef): an int keyword fits in an
// int and a number is finite unless the declaration says otherwise (`.AtLeast(1)`,
// `.In(0, 1)`, `.AllowInf()`, `.Ordered()` for a (low, high) range). Defaults() carries the
// domains, which are checked before any env is made.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/config.h"

namespace envpool {

template <class P>
class Keywords {
 public:
  using Range = std::pair<double, double>;

  DomainRef Add(std::string name, bool value, bool P::*member, bool is_keyword = true) {
    return Entry(std::move(name), value, value, member, is_keyword,
                 [](const Config& c, const std::string& key) { return c.GetBool(key); });
  }
  DomainRef Add(std::string name, int value, int P::*member, bool is_keyword = true) {
    return Entry(std::move(name), std::int64_t{value}, value, member, is_keyword,
                 [](const Config& c, const std::string& key) {
                   return static_cast<int>(c.GetInt(key));
                 });
  }
  DomainRef Add(std::string name, double value, double P::*member, bool is_keyword = true) {
    return Entry(std::move(name), value, value, member, is_keyword,
                 [](const Config& c, const std::string& key) { return c.GetDouble(key); });
  }
  // A pair of numbers, such as a (low, high) range (whose domain says `.AllowInf().Ordered()`
  // where the reference takes infinite bounds).
  DomainRef Add(std::string name, Range value, Range P::*member, bool is_keyword = true) {
    return Entry(std::move(name), std::vector<double>{value.first, value.second}, value, member,
                 is_keyword, [](const Config& c, const std::string& key) {
                   const std::vector<double> v = c.GetDoubles(key);
                   if (v.size() != 2) {
                     throw std::invalid_argument("config key '" + key + "' needs two numbers");
                   }
                   return Range{v[0], v[1]};
                 });
  }
  // A list of numbers of any length.
  DomainRef Add(std::string name, std::vector<double> value, std::vector<double> P::*member,
                bool is_keyword = true) {
    return Entry(std::move(name), value, value, member, is_keyword,
                 [](const Config& c, const std::string& key) { return c.GetDoubles(key); });
  }
  DomainRef Add(std::string name, std::string value, std::string P::*member,
                bool is_keyword = true) {
    return Entry(std::move(name), value, value, member, is_keyword,
                 [](const Config& c, const std::string& key) { return c.GetString(key); });
  }
  // A list of strings.
  DomainRef Add(std::string name, std::vector<std::string> value,
                std::vector<std::string> P::*member, bool is_keyword = true) {
    return Entry(std::move(name), value, value, member, is_keyword,
                 [](const Config& c, const std::string& key) { return c.GetStrings(key); });
  }

  // Every keyword with its default.
  Config Defaults() const {
    Config config;
    for (const Item& item : items_) {
      if (!item.is_keyword) continue;
      config.Set(item.name, item.default_value);
      if (item.has_domain) config.SetDomain(item.name, item.domain);
    }
    return config;
  }

  // Fills every member: from `config` where it is a keyword, else its fixed value.
  void Read(const Config& config, P& params) const {
    for (const Item& item : items_) item.read(config, params);
  }

 private:
  struct Item {
    std::string name;
    ConfigValue default_value;
    bool is_keyword;
    bool has_domain;
    KeywordDomain domain;
    std::function<void(const Config&, P&)> read;
  };

  template <class T, class M, class Get>
  DomainRef Entry(std::string name, ConfigValue default_value, T value, M P::*member,
                  bool is_keyword, Get get) {
    std::function<void(const Config&, P&)> read;
    if (is_keyword) {
      read = [name, member, get](const Config& c, P& p) { p.*member = get(c, name); };
    } else {
      read = [value, member](const Config& /*c*/, P& p) { p.*member = value; };
    }
    KeywordDomain domain;
    const bool has_domain = KeywordDomain::For(default_value, domain);
    items_.push_back(Item{name, std::move(default_value), is_keyword, has_domain, domain,
                          std::move(read)});
    return DomainRef(has_domain ? &items_.back().domain : nullptr, std::move(name));
  }

  std::vector<Item> items_;
};

}  // namespace envpool
