// RUN: tfaot-opt %s --tfaot-gpu-kernels -verify-diagnostics -split-input-file

// Tests that a call (to a CPU runtime function, e.g. JPEG decoding) is not
// moved into a kernel but reported: the callee runs on the CPU only.
func.func private @cpu_only(memref<4xf32>)
func.func @host_call(%x: memref<4xf32>) {
  // expected-error @+1 {{cannot run on the GPU: it calls 'cpu_only', which runs on the CPU only}}
  func.call @cpu_only(%x) : (memref<4xf32>) -> ()
  return
}

// -----

// Tests that memory-touching code whose value escapes to later host code is
// reported rather than run on the CPU against device memory.
func.func @escaping_load(%x: memref<4xf32>, %i: memref<index>) -> index {
  // expected-error @+1 {{cannot run on the GPU: 'memref.load' is left in host code, where it would access device memory}}
  %0 = memref.load %i[] : memref<index>
  return %0 : index
}
