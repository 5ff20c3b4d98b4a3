#include "core/recv.h"

#include <chrono>

namespace envpool {

spin::Clock::time_point Completion::Deadline(double timeout_seconds) {
  return spin::Clock::now() + std::chrono::duration_cast<spin::Clock::duration>(
                                  std::chrono::duration<double>(timeout_seconds));
}

void Completion::ThrowTimeout(double timeout_seconds) {
  throw TimeoutError("recv() timed out after " + std::to_string(timeout_seconds) + " s");
}

void Completion::RethrowError() {
  try {
    std::rethrow_exception(error_);
  } catch (const std::exception& ex) {
    broken_ = ex.what();
  } catch (...) {
    broken_ = "unknown error";
  }
  std::rethrow_exception(error_);
}

}  // namespace envpool
