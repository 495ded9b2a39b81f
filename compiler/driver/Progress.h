//===- Progress.h - What a long compilation is doing ------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// ResNet-50 takes seconds to compile; a silent terminal for that long looks
// like a hang. On a terminal, tfaot compile keeps one status line on stderr
// ("tfaot: [3/6] graph passes") that it erases when done; redirected, it
// prints nothing, so build logs and tests see only real messages.
// --verbose prints every stage with its time instead, and --quiet neither.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_DRIVER_PROGRESS_H
#define TFAOT_COMPILER_DRIVER_PROGRESS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <functional>
#include <mutex>
#include <string>

namespace tfaot {

/// How much tfaot says about what it is doing (--quiet, --verbose).
enum class Verbosity {
  Quiet,   ///< Errors only: no warnings, no progress.
  Normal,  ///< Errors and warnings; a status line when stderr is a terminal.
  Verbose, ///< Also one line per compilation stage with its time.
};

class CompileProgress {
public:
  /// `statusLine`: keep an erasable status line (stderr is a terminal).
  CompileProgress(Verbosity verbosity, bool statusLine, llvm::raw_ostream &os);
  ~CompileProgress() { finish(); }

  /// The stream for every other message (errors, warnings, IR dumps): it
  /// erases the status line before anything it writes, so a message never
  /// lands after "tfaot: [2/7] importing" on the same line.
  llvm::raw_ostream &messages() { return messages_; }

  /// Stages counted in the status line ("[k/total]").
  void setTotalStages(int total) { total_ = total; }
  /// Ends the current stage (printing its time when verbose) and starts
  /// `name`.
  void stage(llvm::StringRef name);
  /// Ends the last stage and erases the status line.
  void finish();

  /// Records the pass now running in the current stage (empty: none).
  void setPass(llvm::StringRef name);
  /// "<stage>" or "<stage> (pass <name>)": what the compilation is doing.
  /// The one member that other threads may call (the watchdog's).
  std::string phase() const;
  /// Whether a status line may be on the terminal.
  bool showsStatusLine() const { return statusLine_; }
  /// Called at the start of every stage (the compile-time limit's check).
  void onStage(std::function<void()> hook) { onStage_ = std::move(hook); }

private:
  /// Forwards to the real stream after erasing the status line.
  class MessageStream : public llvm::raw_ostream {
  public:
    explicit MessageStream(CompileProgress &progress) : progress_(progress) {
      SetUnbuffered();
    }

  private:
    void write_impl(const char *data, size_t size) override;
    uint64_t current_pos() const override { return written_; }
    CompileProgress &progress_;
    uint64_t written_ = 0;
  };

  void eraseStatusLine();

  using Clock = std::chrono::steady_clock;
  Verbosity verbosity_;
  bool statusLine_;
  llvm::raw_ostream &os_;
  int total_ = 0;
  int index_ = 0;
  std::string current_;
  /// What phase() reports, guarded by phaseMutex_ (current_ is cleared
  /// between stages).
  mutable std::mutex phaseMutex_;
  std::string phaseStage_;
  std::string phasePass_;
  std::function<void()> onStage_;
  Clock::time_point started_;
  size_t shownWidth_ = 0;  ///< Characters of the status line on screen.
  MessageStream messages_{*this};
};

} // namespace tfaot

#endif // TFAOT_COMPILER_DRIVER_PROGRESS_H
