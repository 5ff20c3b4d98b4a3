// Keyword configuration of an environment: name -> bool / int / float /
// string / list of strings / list of numbers, as passed from Python.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace envpool {

using ConfigValue = std::variant<bool, std::int64_t, double, std::string,
                                 std::vector<std::string>, std::vector<double>>;

class Config {
 public:
  Config() = default;
  explicit Config(std::map<std::string, ConfigValue> values) : values_(std::move(values)) {}

  void Set(const std::string& key, ConfigValue value) { values_[key] = std::move(value); }
  bool Has(const std::string& key) const { return values_.count(key) != 0; }
  const std::map<std::string, ConfigValue>& Values() const { return values_; }

  bool GetBool(const std::string& key) const { return Get<bool>(key, "a bool"); }
  std::int64_t GetInt(const std::string& key) const {
    const ConfigValue& v = At(key);
    if (const auto* b = std::get_if<bool>(&v)) return *b ? 1 : 0;
    if (const auto* i = std::get_if<std::int64_t>(&v)) return *i;
    throw std::invalid_argument("config key '" + key + "' must be an int");
  }
  double GetDouble(const std::string& key) const {
    const ConfigValue& v = At(key);
    if (const auto* d = std::get_if<double>(&v)) return *d;
    if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
    throw std::invalid_argument("config key '" + key + "' must be a number");
  }
  const std::string& GetString(const std::string& key) const {
    return Get<std::string>(key, "a string");
  }
  const std::vector<std::string>& GetStrings(const std::string& key) const {
    return Get<std::vector<std::string>>(key, "a list of strings");
  }
  std::vector<double> GetDoubles(const std::string& key) const {
    const ConfigValue& v = At(key);
    if (const auto* d = std::get_if<std::vector<double>>(&v)) return *d;
    // An empty Python list arrives as the first list type of the variant.
    const auto* s = std::get_if<std::vector<std::string>>(&v);
    if (s != nullptr && s->empty()) return {};
    throw std::invalid_argument("config key '" + key + "' must be a list of numbers");
  }

 private:
  const ConfigValue& At(const std::string& key) const {
    auto it = values_.find(key);
    if (it == values_.end()) throw std::invalid_argument("missing config key '" + key + "'");
    return it->second;
  }
  template <class T>
  const T& Get(const std::string& key, const char* what) const {
    const auto* p = std::get_if<T>(&At(key));
    if (p == nullptr) throw std::invalid_argument("config key '" + key + "' must be " + what);
    return *p;
  }

  std::map<std::string, ConfigValue> values_;
};

}  // namespace envpool
