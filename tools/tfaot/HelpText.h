//===- HelpText.h - Man-page style help for each tfaot command --*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// llvm::cl prints one overview for every --help; tfaot gives each command
// its own, laid out like a man page (synopsis, description, exit status,
// examples), and lets cl list the flags after it.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_TOOLS_TFAOT_HELPTEXT_H
#define TFAOT_TOOLS_TFAOT_HELPTEXT_H

#include "llvm/ADT/StringRef.h"

namespace tfaot {

/// The overview for `tfaot <command> --help` ("" for `tfaot --help`).
const char *helpOverview(llvm::StringRef command);

} // namespace tfaot

#endif // TFAOT_TOOLS_TFAOT_HELPTEXT_H
