// Stand-in for <boost/thread.hpp> when building ViZDoom's controller: the
// controller runs one thread per engine (it launches the engine process and
// waits for it), which std::thread does without the compiled Boost.Thread.
// interrupt() is a no-op: that thread waits in waitpid, not at a Boost
// interruption point, and the controller joins it after the engine exits.
#pragma once

#include <boost/bind/bind.hpp>
#include <thread>
#include <utility>

namespace boost {

class thread {
 public:
  template <class F>
  explicit thread(F&& f) : thread_(std::forward<F>(f)) {}
  bool joinable() const { return thread_.joinable(); }
  void join() { thread_.join(); }
  void interrupt() {}

 private:
  std::thread thread_;
};

}  // namespace boost
