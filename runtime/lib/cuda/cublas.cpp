//===- cublas.cpp - cuBLAS, loaded at run time ----------------------------===//
// SPDX-License-Identifier: Apache-2.0
#include "cublas.h"
#include "dynamic_library.h"

#include <cstdlib>
#include <vector>

namespace tfaot::cuda {
namespace {

struct LoadResult {
  Cublas cublas{};
  bool ok = false;
  std::string why;
};

template <typename Fn> Fn Lookup(void *library, const char *name) {
  return reinterpret_cast<Fn>(dlsym(library, name));
}

/// Where to look, in order: an explicit choice, or the sonames (the
/// loader's search path), then the usual toolkit directories, which are
/// often not in that path.
std::vector<std::string> Candidates() {
  if (const char *path = std::getenv("TFAOT_LIBCUBLAS"); path && *path)
    return {path};
  const char *sonames[] = {"libcublas.so.13", "libcublas.so.12"};
  std::vector<std::string> dirs;
  if (const char *home = std::getenv("CUDA_HOME"); home && *home)
    dirs.push_back(std::string(home) + "/lib64/");
  dirs.push_back("/usr/local/cuda/lib64/");
  std::vector<std::string> paths(std::begin(sonames), std::end(sonames));
  for (const std::string &dir : dirs)
    for (const char *soname : sonames)
      paths.push_back(dir + soname);
  return paths;
}

LoadResult Load() {
  LoadResult result;
  std::string tried;
  void *library = OpenFirstLibrary(Candidates(), tried);
  if (!library) {
    result.why = "cuBLAS not found: cannot load " + tried +
                 "; install the CUDA toolkit's cuBLAS or set "
                 "TFAOT_LIBCUBLAS, or compile with --gpu_gemm=kernels to "
                 "run without it";
    return result;
  }
  Cublas &c = result.cublas;
  c.cublasCreate = Lookup<decltype(c.cublasCreate)>(library, "cublasCreate_v2");
  c.cublasDestroy =
      Lookup<decltype(c.cublasDestroy)>(library, "cublasDestroy_v2");
  c.cublasSetStream =
      Lookup<decltype(c.cublasSetStream)>(library, "cublasSetStream_v2");
  c.cublasSetMathMode =
      Lookup<decltype(c.cublasSetMathMode)>(library, "cublasSetMathMode");
  c.cublasSgemmStridedBatched = Lookup<decltype(c.cublasSgemmStridedBatched)>(
      library, "cublasSgemmStridedBatched");
  c.cublasGemmStridedBatchedEx = Lookup<decltype(c.cublasGemmStridedBatchedEx)>(
      library, "cublasGemmStridedBatchedEx");
  c.cublasGetStatusName =
      Lookup<decltype(c.cublasGetStatusName)>(library, "cublasGetStatusName");
  if (!c.cublasCreate || !c.cublasDestroy || !c.cublasSetStream ||
      !c.cublasSetMathMode || !c.cublasSgemmStridedBatched) {
    result.why = "cuBLAS too old: the loaded library lacks cublasCreate_v2, "
                 "cublasSetStream_v2, cublasSetMathMode or "
                 "cublasSgemmStridedBatched (cuBLAS 11 or newer is needed)";
    return result;
  }
  result.ok = true;
  return result;
}

} // namespace

const Cublas *LoadCublas(std::string *why) {
  static const LoadResult loaded = Load();
  if (!loaded.ok && why)
    *why = loaded.why;
  return loaded.ok ? &loaded.cublas : nullptr;
}

std::string DescribeCublasStatus(const Cublas &cublas, CublasStatus status) {
  if (cublas.cublasGetStatusName)
    if (const char *name = cublas.cublasGetStatusName(status))
      return name;
  return "cuBLAS status " + std::to_string(status);
}

} // namespace tfaot::cuda
