//===- Watchdog.h - End a compilation that runs past its limit -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// A valid but hostile graph can keep the compiler busy for hours (a pass
// that is quadratic in some dimension nobody measured, a loop of patterns
// that never settles). --max_compile_seconds bounds one build: when it is
// exceeded, tfaot prints which graph it was compiling and in which stage
// and pass, and exits with kCompileTimeLimitExit, so a build system or a
// service sees a clear failure instead of a process that never returns.
//
// Two checks, the same message: a thread that wakes at the deadline (for a
// compilation stuck inside one pass), and one at every stage change on the
// compiling thread (so a limit shorter than the compilation is reported
// whatever the threads' scheduling: the tests rely on that). The process
// ends with std::_Exit from whichever check comes first: the stuck thread
// cannot be unwound, and no output has been written yet (OutputFiles
// writes everything at the end, OutputFiles.h).
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_DRIVER_WATCHDOG_H
#define TFAOT_COMPILER_DRIVER_WATCHDOG_H

#include "compiler/driver/Progress.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace tfaot {

/// The exit status of a compilation stopped by --max_compile_seconds
/// (1 is any other error, 2 `tfaot ops`' unsupported ops).
inline constexpr int kCompileTimeLimitExit = 3;
/// The largest --max_compile_seconds accepted (about 32 years; larger
/// values would overflow the clock's deadline).
inline constexpr double kMaxCompileSecondsLimit = 1e9;

/// `seconds` as --max_compile_seconds' messages print it: 0.001, 1800.
std::string formatSeconds(double seconds);

class CompileWatchdog {
public:
  /// Watches the build of `graph` whose stages `progress` reports, for at
  /// most `limitSeconds` (0: no limit, and no thread). Errors go to
  /// standard error.
  CompileWatchdog(double limitSeconds, std::string graph,
                  CompileProgress &progress);
  /// Stops the thread: the build finished in time.
  ~CompileWatchdog();
  CompileWatchdog(const CompileWatchdog &) = delete;
  CompileWatchdog &operator=(const CompileWatchdog &) = delete;

  /// Ends the process if the limit has passed (called at stage changes).
  void check();

private:
  using Clock = std::chrono::steady_clock;
  [[noreturn]] void stop();
  void watch();

  double limitSeconds_;
  std::string graph_;
  CompileProgress &progress_;
  Clock::time_point deadline_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool finished_ = false;
  std::thread thread_;
};

} // namespace tfaot

#endif // TFAOT_COMPILER_DRIVER_WATCHDOG_H
