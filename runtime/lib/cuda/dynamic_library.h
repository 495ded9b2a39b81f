//===- dynamic_library.h - Opening NVIDIA's libraries at run time ---------===//
// SPDX-License-Identifier: Apache-2.0
//
// The driver, cuBLAS and cuDNN are all opened with dlopen when a model first
// runs, so that programs link nothing CUDA-specific. The three loaders share
// these two steps: finding the first of several candidate paths that loads,
// and resolving each entry point while collecting the names that are absent.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_LIB_CUDA_DYNAMIC_LIBRARY_H
#define TFAOT_RUNTIME_LIB_CUDA_DYNAMIC_LIBRARY_H

#include <dlfcn.h>

#include <string>
#include <vector>

namespace tfaot::cuda {

/// Opens the first of `paths` that dlopen accepts, RTLD_LOCAL so that the
/// library's symbols stay out of the program's namespace. On failure returns
/// null and sets `why` to the paths tried and, in parentheses, the first
/// path's error: the later paths are fallbacks, and the first error names
/// the usual cause.
void *OpenFirstLibrary(const std::vector<std::string> &paths,
                       std::string &why);

/// Points `fn` at `name` in `library`; if it is absent, appends the name to
/// the comma-separated `missing` and returns false.
template <typename Fn>
bool Resolve(void *library, const char *name, Fn &fn, std::string &missing) {
  fn = reinterpret_cast<Fn>(dlsym(library, name));
  if (!fn)
    missing += (missing.empty() ? "" : ", ") + std::string(name);
  return fn != nullptr;
}

} // namespace tfaot::cuda

#endif // TFAOT_RUNTIME_LIB_CUDA_DYNAMIC_LIBRARY_H
