//===- dynamic_library.cpp - Opening NVIDIA's libraries at run time -------===//
// SPDX-License-Identifier: Apache-2.0
#include "dynamic_library.h"

namespace tfaot::cuda {

void *OpenFirstLibrary(const std::vector<std::string> &paths,
                       std::string &why) {
  std::string tried, firstError;
  for (const std::string &path : paths) {
    if (void *library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL))
      return library;
    tried += (tried.empty() ? "" : ", ") + path;
    if (firstError.empty())
      if (const char *error = dlerror())
        firstError = error;
  }
  why = tried + " (" + (firstError.empty() ? "unknown error" : firstError) +
        ")";
  return nullptr;
}

} // namespace tfaot::cuda
