//===- Progress.cpp - What a long compilation is doing --------------------===//
// SPDX-License-Identifier: Apache-2.0
#include "compiler/driver/Progress.h"

#include "llvm/Support/Format.h"

using namespace tfaot;

CompileProgress::CompileProgress(Verbosity verbosity, bool statusLine,
                                 llvm::raw_ostream &os)
    : verbosity_(verbosity),
      statusLine_(statusLine && verbosity == Verbosity::Normal), os_(os) {}

void CompileProgress::MessageStream::write_impl(const char *data,
                                                size_t size) {
  progress_.eraseStatusLine();
  progress_.os_.write(data, size);
  written_ += size;
}

void CompileProgress::eraseStatusLine() {
  if (!shownWidth_)
    return;
  os_ << "\r" << std::string(shownWidth_, ' ') << "\r";
  os_.flush();
  shownWidth_ = 0;
}

void CompileProgress::stage(llvm::StringRef name) {
  if (onStage_)
    onStage_();
  finish();
  current_ = name.str();
  {
    std::lock_guard<std::mutex> lock(phaseMutex_);
    phaseStage_ = current_;
    phasePass_.clear();
  }
  started_ = Clock::now();
  ++index_;
  if (!statusLine_)
    return;
  std::string line = "tfaot: ";
  if (total_ > 0)
    line += "[" + std::to_string(std::min(index_, total_)) + "/" +
            std::to_string(total_) + "] ";
  line += current_;
  eraseStatusLine();
  os_ << line;
  os_.flush();
  shownWidth_ = line.size();
}

void CompileProgress::finish() {
  if (current_.empty())
    return;
  if (verbosity_ == Verbosity::Verbose) {
    double seconds =
        std::chrono::duration<double>(Clock::now() - started_).count();
    os_ << "tfaot: " << current_ << ": " << llvm::format("%.2f s", seconds)
        << "\n";
  }
  eraseStatusLine();
  current_.clear();
}

void CompileProgress::setPass(llvm::StringRef name) {
  std::lock_guard<std::mutex> lock(phaseMutex_);
  phasePass_ = name.str();
}

std::string CompileProgress::phase() const {
  std::lock_guard<std::mutex> lock(phaseMutex_);
  std::string phase = phaseStage_.empty() ? "starting" : phaseStage_;
  if (!phasePass_.empty())
    phase += " (pass " + phasePass_ + ")";
  return phase;
}
