//===- cuda_driver.cpp - The CUDA driver API, loaded at run time ----------===//
// SPDX-License-Identifier: Apache-2.0
#include "cuda_driver.h"
#include "dynamic_library.h"

#include <cstdlib>

namespace tfaot::cuda {
namespace {

struct LoadResult {
  Driver driver{};
  bool ok = false;
  std::string why;
};


LoadResult Load() {
  LoadResult result;
  const char *path = std::getenv("TFAOT_LIBCUDA");
  if (!path || !*path)
    path = "libcuda.so.1";
  std::string tried;
  void *library = OpenFirstLibrary({path}, tried);
  if (!library) {
    result.why = "no CUDA driver: cannot load " + tried +
                 "; install the NVIDIA driver to run this model on a GPU";
    return result;
  }
  Driver &d = result.driver;
  std::string missing;
  Resolve(library, "cuInit", d.cuInit, missing);
  Resolve(library, "cuDeviceGetCount", d.cuDeviceGetCount, missing);
  Resolve(library, "cuDeviceGet", d.cuDeviceGet, missing);
  Resolve(library, "cuDeviceGetAttribute", d.cuDeviceGetAttribute, missing);
  Resolve(library, "cuDevicePrimaryCtxRetain", d.cuDevicePrimaryCtxRetain,
          missing);
  Resolve(library, "cuDevicePrimaryCtxRelease_v2", d.cuDevicePrimaryCtxRelease,
          missing);
  Resolve(library, "cuCtxPushCurrent_v2", d.cuCtxPushCurrent, missing);
  Resolve(library, "cuCtxPopCurrent_v2", d.cuCtxPopCurrent, missing);
  Resolve(library, "cuStreamCreate", d.cuStreamCreate, missing);
  Resolve(library, "cuStreamDestroy_v2", d.cuStreamDestroy, missing);
  Resolve(library, "cuStreamSynchronize", d.cuStreamSynchronize, missing);
  Resolve(library, "cuMemAlloc_v2", d.cuMemAlloc, missing);
  Resolve(library, "cuMemFree_v2", d.cuMemFree, missing);
  Resolve(library, "cuMemcpyHtoDAsync_v2", d.cuMemcpyHtoDAsync, missing);
  Resolve(library, "cuMemcpyDtoHAsync_v2", d.cuMemcpyDtoHAsync, missing);
  Resolve(library, "cuMemGetAddressRange_v2", d.cuMemGetAddressRange,
          missing);
  Resolve(library, "cuModuleLoadData", d.cuModuleLoadData, missing);
  Resolve(library, "cuModuleUnload", d.cuModuleUnload, missing);
  Resolve(library, "cuModuleGetFunction", d.cuModuleGetFunction, missing);
  Resolve(library, "cuLaunchKernel", d.cuLaunchKernel, missing);
  Resolve(library, "cuGetErrorName", d.cuGetErrorName, missing);
  Resolve(library, "cuGetErrorString", d.cuGetErrorString, missing);
  std::string noGraphs;
  Resolve(library, "cuStreamBeginCapture_v2", d.cuStreamBeginCapture,
          noGraphs);
  Resolve(library, "cuStreamEndCapture", d.cuStreamEndCapture, noGraphs);
  Resolve(library, "cuGraphInstantiateWithFlags",
          d.cuGraphInstantiateWithFlags, noGraphs);
  Resolve(library, "cuGraphLaunch", d.cuGraphLaunch, noGraphs);
  Resolve(library, "cuGraphExecDestroy", d.cuGraphExecDestroy, noGraphs);
  Resolve(library, "cuGraphDestroy", d.cuGraphDestroy, noGraphs);
  if (!noGraphs.empty())
    d.cuStreamBeginCapture = nullptr;  // The one RunEntry checks.
  if (!missing.empty()) {
    result.why = std::string("no CUDA driver: ") + path +
                 " lacks " + missing + " (a driver for CUDA 11 or newer is "
                 "needed)";
    return result;
  }
  CUresult init = d.cuInit(0);
  if (init == kErrorNoDevice) {
    result.why = "no CUDA device: the CUDA driver found no GPU";
    return result;
  }
  if (init != kSuccess) {
    result.why = "no CUDA driver: cuInit failed with " +
                 DescribeError(d, init) +
                 (init == kErrorStubLibrary
                      ? " (the toolkit's stub libcuda, not a real driver)"
                      : "");
    return result;
  }
  result.ok = true;
  return result;
}

} // namespace

const Driver *LoadDriver(std::string *why) {
  static const LoadResult loaded = Load();
  if (!loaded.ok && why)
    *why = loaded.why;
  return loaded.ok ? &loaded.driver : nullptr;
}

std::string DescribeError(const Driver &driver, CUresult result) {
  const char *name = nullptr;
  const char *text = nullptr;
  if (driver.cuGetErrorName(result, &name) != kSuccess || !name)
    name = nullptr;
  if (driver.cuGetErrorString(result, &text) != kSuccess || !text)
    text = nullptr;
  std::string out = name ? name : "CUDA error " + std::to_string(result);
  if (text)
    out += std::string(" (") + text + ")";
  return out;
}

} // namespace tfaot::cuda
