//===- env_flag.h - Switches read from the environment ---------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Internal to the runtime library: the TFAOT_DISABLE_* variables that turn
// a CPU path off for tests and comparisons.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_ENV_FLAG_H
#define TFAOT_RUNTIME_ENV_FLAG_H

#include <cstdlib>
#include <cstring>

namespace tfaot::internal {

/// Whether the environment variable `name` is set to something other than
/// "" or "0".
inline bool EnvFlagSet(const char *name) {
  const char *value = std::getenv(name);
  return value && *value && std::strcmp(value, "0") != 0;
}

} // namespace tfaot::internal

#endif // TFAOT_RUNTIME_ENV_FLAG_H
