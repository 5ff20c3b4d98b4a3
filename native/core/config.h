// Keyword configuration of an environment: name -> bool / int / float /
// string / list of strings / list of numbers, as passed from Python. An env's
// default configuration also declares the domain of each numeric keyword (the
// values it accepts), beside its default.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace envpool {

using ConfigValue = std::variant<bool, std::int64_t, double, std::string,
                                 std::vector<std::string>, std::vector<double>>;

// The values a numeric keyword (an int, a number or a list of numbers: each of
// its values) accepts. Declared beside the default, checked before any env is
// made (envpool/core/keyword_domains.py, which reads every module's domains
// through its keyword_domains(name)). By default an int keyword fits in a C++
// int and a number is finite and within float32's range (the pool's outputs are
// float32: a larger weight or noise scale would turn them into inf); NaN is
// never accepted.
struct KeywordDomain {
  double min = -INFINITY;
  double max = INFINITY;
  bool min_open = false;   // min itself is outside (value > min)
  bool max_open = false;   // max itself is outside (value < max)
  bool allow_inf = false;  // numbers: -inf and +inf are accepted (when min / max are)
  bool ordered = false;    // a list: its values do not decrease (a (low, high) range)

  // The default domain of a keyword whose default is `value`; false for a
  // keyword that is no number (a bool, a string, a list of strings).
  static bool For(const ConfigValue& value, KeywordDomain& domain) {
    if (std::holds_alternative<std::int64_t>(value)) {
      domain = KeywordDomain();
      domain.min = std::numeric_limits<int>::min();
      domain.max = std::numeric_limits<int>::max();
      return true;
    }
    if (std::holds_alternative<double>(value) ||
        std::holds_alternative<std::vector<double>>(value)) {
      domain = KeywordDomain();
      domain.min = -std::numeric_limits<float>::max();
      domain.max = std::numeric_limits<float>::max();
      return true;
    }
    return false;
  }
};

// Narrows the domain of the keyword it was returned for: `c.Set("frame_skip",
// std::int64_t{5}).AtLeast(1)`, `k.Add("gravity", -10.0, ...).In(-12, 0)`.
// Each call returns the same handle, for the next one.
class DomainRef {
 public:
  DomainRef(KeywordDomain* domain, std::string key) : domain_(domain), key_(std::move(key)) {}
  DomainRef& AtLeast(double low) { return Min(low, false); }
  DomainRef& Above(double low) { return Min(low, true); }
  DomainRef& AtMost(double high) { return Max(high, false); }
  DomainRef& Below(double high) { return Max(high, true); }
  DomainRef& In(double low, double high) { return AtLeast(low).AtMost(high); }
  // Accepts -inf and +inf, beyond the default float32 bounds (a bound declared
  // after this call still holds).
  DomainRef& AllowInf() {
    KeywordDomain& d = Get();
    if (d.min == -std::numeric_limits<float>::max()) d.min = -INFINITY;
    if (d.max == std::numeric_limits<float>::max()) d.max = INFINITY;
    d.allow_inf = true;
    return *this;
  }
  DomainRef& Ordered() {
    Get().ordered = true;
    return *this;
  }

 private:
  KeywordDomain& Get() {
    if (domain_ == nullptr) {
      throw std::logic_error("keyword '" + key_ + "' is no number: it has no domain");
    }
    return *domain_;
  }
  DomainRef& Min(double low, bool open) {
    Get().min = low;
    Get().min_open = open;
    return *this;
  }
  DomainRef& Max(double high, bool open) {
    Get().max = high;
    Get().max_open = open;
    return *this;
  }

  KeywordDomain* domain_;
  std::string key_;
};

class Config {
 public:
  Config() = default;
  explicit Config(std::map<std::string, ConfigValue> values) : values_(std::move(values)) {}

  // Sets `key`; a numeric keyword set for the first time gets the default
  // domain of its type, which the returned handle narrows (a declaration of
  // defaults: `c.Set("n", std::int64_t{5}).AtLeast(1)`). Setting it again
  // keeps its domain.
  DomainRef Set(const std::string& key, ConfigValue value) {
    auto domain = domains_.find(key);
    if (domain == domains_.end()) {
      KeywordDomain d;
      if (KeywordDomain::For(value, d)) domain = domains_.emplace(key, d).first;
    }
    values_[key] = std::move(value);
    return DomainRef(domain == domains_.end() ? nullptr : &domain->second, key);
  }
  // Replaces the domain of `key` (a numeric keyword already set).
  void SetDomain(const std::string& key, const KeywordDomain& domain) { domains_[key] = domain; }
  bool Has(const std::string& key) const { return values_.count(key) != 0; }
  const std::map<std::string, ConfigValue>& Values() const { return values_; }
  // The domain of each numeric keyword (those of a default configuration).
  const std::map<std::string, KeywordDomain>& Domains() const { return domains_; }

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
  std::map<std::string, KeywordDomain> domains_;
};

}  // namespace envpool
