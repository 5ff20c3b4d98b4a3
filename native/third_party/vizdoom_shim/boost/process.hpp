// Stand-in for the Boost.Process 0.5 copy bundled with ViZDoom's controller,
// for the four calls the controller makes (execute with set_args and
// inherit_env, wait_for_exit, terminate, child from a pid), on POSIX.
//
// Beyond a plain vfork and exec, the engine is owned by the process that runs
// the controller:
// - PR_SET_PDEATHSIG: the kernel sends the engine SIGKILL when the thread that
//   launched it ends. That thread waits for the engine for the engine's whole
//   life, so this fires when the owning process dies in any way (kill -9
//   included), never while the controller is alive.
// - its own process group: a Ctrl-C at the terminal interrupts Python only;
//   the engines live until the pool closes them or the process ends.
#pragma once

#include <signal.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/filesystem.hpp>  // the bundled copy brought it in; the controller uses it
#include <cerrno>
#include <string>
#include <system_error>
#include <vector>

namespace boost {
namespace process {

struct child {
  explicit child(pid_t p = -1) : pid(p) {}
  pid_t pid;
};

namespace initializers {

struct set_args_ {
  std::vector<std::string> args;
};
inline set_args_ set_args(const std::vector<std::string>& args) { return {args}; }

struct inherit_env_ {};
inline inherit_env_ inherit_env() { return {}; }

}  // namespace initializers

inline child execute(const initializers::set_args_& a, initializers::inherit_env_ /*env*/) {
  if (a.args.empty()) {
    throw std::system_error(EINVAL, std::generic_category(), "no engine executable");
  }
  // Everything the child touches is prepared before vfork: the child shares
  // this memory and may only make system calls.
  std::vector<char*> argv;
  argv.reserve(a.args.size() + 1);
  for (const std::string& s : a.args) {
    argv.push_back(const_cast<char*>(s.c_str()));
  }
  argv.push_back(nullptr);
  const pid_t parent = getpid();
  // vfork, not fork: fork runs the process's pthread_atfork handlers, and
  // OpenBLAS's (numpy's, scipy's) joins its threads there, which deadlocks
  // when several pool workers start engines at once. The child only makes
  // system calls until execv.
  const pid_t pid = vfork();
  if (pid < 0) {
    throw std::system_error(errno, std::generic_category(), "vfork");
  }
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) {
      _exit(127);  // the owner died between vfork and prctl
    }
    setpgid(0, 0);
    execv(argv[0], argv.data());
    _exit(127);
  }
  return child(pid);
}

inline int wait_for_exit(const child& c) {
  int status = 0;
  while (waitpid(c.pid, &status, 0) < 0) {
    if (errno != EINTR) {
      throw std::system_error(errno, std::generic_category(), "waitpid");
    }
  }
  return status;
}

inline void terminate(const child& c) {
  if (c.pid > 0) {
    kill(c.pid, SIGKILL);
  }
}

}  // namespace process
}  // namespace boost
