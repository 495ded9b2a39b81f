//===- Watchdog.cpp - End a compilation that runs past its limit ----------===//
// SPDX-License-Identifier: Apache-2.0
#include "compiler/driver/Watchdog.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>

using namespace tfaot;

std::string tfaot::formatSeconds(double seconds) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%g", seconds);
  return text;
}

CompileWatchdog::CompileWatchdog(double limitSeconds, std::string graph,
                                 CompileProgress &progress)
    : limitSeconds_(limitSeconds), graph_(std::move(graph)),
      progress_(progress) {
  if (limitSeconds_ <= 0)
    return;
  deadline_ = Clock::now() +
              std::chrono::duration_cast<Clock::duration>(
                  std::chrono::duration<double>(limitSeconds_));
  thread_ = std::thread([this] { watch(); });
}

CompileWatchdog::~CompileWatchdog() {
  if (!thread_.joinable())
    return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    finished_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void CompileWatchdog::check() {
  if (limitSeconds_ > 0 && Clock::now() >= deadline_)
    stop();
}

void CompileWatchdog::watch() {
  std::unique_lock<std::mutex> lock(mutex_);
  // wait_until returns early on spurious wake-ups: loop until one of the
  // two things we wait for happened.
  while (!finished_)
    if (wake_.wait_until(lock, deadline_) == std::cv_status::timeout &&
        !finished_)
      stop();
}

void CompileWatchdog::stop() {
  // The first check to fire reports and exits; another one (the other
  // thread, at the same moment) waits for that exit.
  static std::atomic<bool> stopping{false};
  if (stopping.exchange(true))
    for (;;)
      std::this_thread::sleep_for(std::chrono::hours(1));
  std::string message;
  llvm::raw_string_ostream os(message);
  // A status line may be on the terminal: start on a line of our own.
  if (progress_.showsStatusLine())
    os << "\n";
  os << graph_ << ": error: compilation stopped: it ran past the limit of "
     << formatSeconds(limitSeconds_)
     << " s (--max_compile_seconds) while " << progress_.phase() << "\n";
  std::fputs(message.c_str(), stderr);
  std::fflush(stderr);
  // Not exit(): the compiling thread is still inside a pass, and static
  // destructors would tear down what it is using.
  std::_Exit(kCompileTimeLimitExit);
}
