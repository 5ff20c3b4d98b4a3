// A tiny test harness (no external framework is available):
//
//   TEST(name) { CHECK(cond); CHECK_EQ(a, b); CHECK_THROWS(stmt, Type); }
//   int main(int argc, char** argv) { return check::RunAll(argc, argv); }
//
// A failed check throws check::Failure, which ends the current test; the
// other tests still run. An exception escaping a test also fails it. Passing
// arguments runs only the tests whose name contains one of them.
#pragma once

#include <cstdint>
#include <cstdio>
#include <exception>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace check {

struct Failure : std::exception {
  explicit Failure(std::string m) : message(std::move(m)) {}
  const char* what() const noexcept override { return message.c_str(); }
  std::string message;
};

struct TestCase {
  const char* name;
  void (*fn)();
};

inline std::vector<TestCase>& Tests() {
  static std::vector<TestCase> tests;
  return tests;
}

struct Registrar {
  Registrar(const char* name, void (*fn)()) { Tests().push_back({name, fn}); }
};

[[noreturn]] inline void Fail(const char* file, int line, const std::string& message) {
  std::ostringstream out;
  out << file << ":" << line << ": " << message;
  throw Failure(out.str());
}

template <class T, class = void>
struct Streamable : std::false_type {};
template <class T>
struct Streamable<T, std::void_t<decltype(std::declval<std::ostream&>() << std::declval<const T&>())>>
    : std::true_type {};

template <class T>
std::string Show(const T& value);

template <class T>
std::string Show(const std::vector<T>& values) {
  std::string s = "[";
  for (std::size_t i = 0; i < values.size(); ++i) s += (i ? ", " : "") + Show(values[i]);
  return s + "]";
}

template <class T>
std::string Show(const T& value) {
  std::ostringstream out;
  if constexpr (std::is_same_v<T, bool>) {
    out << (value ? "true" : "false");
  } else if constexpr (std::is_same_v<T, std::uint8_t> || std::is_same_v<T, std::int8_t> ||
                       std::is_same_v<T, char>) {
    out << static_cast<int>(value);
  } else if constexpr (Streamable<T>::value) {
    out << value;
  } else {
    out << "<value>";
  }
  return out.str();
}

template <class A, class B>
void CheckOp(bool ok, const A& a, const B& b, const char* expr, const char* op, const char* file,
             int line) {
  if (!ok) Fail(file, line, std::string("CHECK failed: ") + expr + "  (" + Show(a) + " " + op +
                                " " + Show(b) + ")");
}

inline bool Selected(const char* name, int argc, char** argv) {
  if (argc < 2) return true;
  for (int i = 1; i < argc; ++i) {
    if (std::string(name).find(argv[i]) != std::string::npos) return true;
  }
  return false;
}

inline int RunAll(int argc, char** argv) {
  int run = 0;
  std::vector<std::string> failed;
  for (const TestCase& t : Tests()) {
    if (!Selected(t.name, argc, argv)) continue;
    ++run;
    std::printf("[ RUN  ] %s\n", t.name);
    std::fflush(stdout);
    std::string error;
    try {
      t.fn();
    } catch (const Failure& f) {
      error = f.message;
    } catch (const std::exception& e) {
      error = std::string("uncaught exception: ") + e.what();
    } catch (...) {
      error = "uncaught non-std exception";
    }
    if (error.empty()) {
      std::printf("[   OK ] %s\n", t.name);
    } else {
      std::printf("[ FAIL ] %s\n  %s\n", t.name, error.c_str());
      failed.push_back(t.name);
    }
    std::fflush(stdout);
  }
  if (run == 0) {
    std::printf("no test matched\n");
    return 1;
  }
  std::printf("%d tests, %zu failed\n", run, failed.size());
  for (const std::string& name : failed) std::printf("  FAILED: %s\n", name.c_str());
  return failed.empty() ? 0 : 1;
}

}  // namespace check

#define TEST(name)                                                      \
  static void name();                                                   \
  static const ::check::Registrar name##_registrar_(#name, &name);      \
  static void name()

#define CHECK(cond)                                                                     \
  do {                                                                                  \
    if (!(cond)) ::check::Fail(__FILE__, __LINE__, std::string("CHECK failed: ") + #cond); \
  } while (0)

#define CHECK_MSG(cond, msg)                                                              \
  do {                                                                                    \
    if (!(cond)) {                                                                        \
      std::ostringstream check_out_;                                                      \
      check_out_ << "CHECK failed: " << #cond << "  (" << msg << ")";                     \
      ::check::Fail(__FILE__, __LINE__, check_out_.str());                                \
    }                                                                                     \
  } while (0)

#define CHECK_OP_(a, b, op)                                                            \
  do {                                                                                 \
    /* copies: `a` may refer into a temporary that dies with this statement */      \
    const auto check_a_ = (a);                                                         \
    const auto check_b_ = (b);                                                         \
    ::check::CheckOp(check_a_ op check_b_, check_a_, check_b_, #a " " #op " " #b, #op, \
                     __FILE__, __LINE__);                                              \
  } while (0)

#define CHECK_EQ(a, b) CHECK_OP_(a, b, ==)
#define CHECK_NE(a, b) CHECK_OP_(a, b, !=)
#define CHECK_LT(a, b) CHECK_OP_(a, b, <)
#define CHECK_LE(a, b) CHECK_OP_(a, b, <=)
#define CHECK_GT(a, b) CHECK_OP_(a, b, >)
#define CHECK_GE(a, b) CHECK_OP_(a, b, >=)

// `stmt` must throw `type` (or a subclass) whose what() contains `substr`.
#define CHECK_THROWS_MSG(stmt, type, substr)                                                \
  do {                                                                                      \
    bool check_thrown_ = false;                                                             \
    try {                                                                                   \
      stmt;                                                                                 \
    } catch (const type& check_e_) {                                                        \
      check_thrown_ = true;                                                                 \
      const std::string check_what_ = check_e_.what();                                      \
      if (check_what_.find(substr) == std::string::npos) {                                  \
        ::check::Fail(__FILE__, __LINE__, std::string(#stmt " threw " #type " with message '") + \
                                              check_what_ + "', expected it to contain '" +  \
                                              (substr) + "'");                              \
      }                                                                                     \
    } catch (const ::check::Failure&) {                                                     \
      throw;                                                                                \
    } catch (const std::exception& check_e_) {                                              \
      ::check::Fail(__FILE__, __LINE__, std::string(#stmt " threw the wrong exception: ") + \
                                            check_e_.what() + " (expected " #type ")");     \
    } catch (...) {                                                                         \
      ::check::Fail(__FILE__, __LINE__, #stmt " threw a non-std exception, expected " #type); \
    }                                                                                       \
    if (!check_thrown_) ::check::Fail(__FILE__, __LINE__, #stmt " did not throw " #type);   \
  } while (0)

#define CHECK_THROWS(stmt, type) CHECK_THROWS_MSG(stmt, type, "")
