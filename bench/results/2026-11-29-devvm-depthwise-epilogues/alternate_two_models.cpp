// SPDX-License-Identifier: Apache-2.0
// Times two builds of one model in one process, Run() of each in turn (A B,
// then B A), and prints each one's median and their ratio, and whether
// their outputs are byte-identical. Both see the same machine state, which
// separate `tfaot bench` processes on this VM do not (2026-11-29-devvm-
// depthwise-epilogues.md). Build:
//   OLD/tfaot compile --graph G --feed input:1,224,224,3 --fetch probs \
//     --target_cpu native --cpp_class m::A --out_header a.h --out_function_object a.o
//   NEW/tfaot compile ... --cpp_class m::B --out_header b.h --out_function_object b.o
//   clang++ -O2 -std=c++17 -I RUNTIME/include alternate_two_models.cpp a.o b.o \
//     build/runtime/libtfaot_runtime.a -lpthread -o ab
//   ./ab THREADS ITERATIONS
#include "a.h"
#include "b.h"
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
template <class F> double timeRun(F& f) {
  auto a = std::chrono::steady_clock::now(); f.Run();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count();
}
int main(int argc, char** argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 1, iters = argc > 2 ? atoi(argv[2]) : 200;
  m::A a; m::B b; a.set_num_threads(threads); b.set_num_threads(threads);
  size_t n = m::A::kArg0Bytes / 4;
  unsigned s = 1;
  for (size_t i = 0; i < n; ++i) { s = s * 1664525u + 1013904223u; a.arg0_data()[i] = b.arg0_data()[i] = (s >> 8) * (2.0f / 16777216.0f) - 1.0f; }
  std::vector<double> ta, tb;
  for (int i = 0; i < 5; ++i) { timeRun(a); timeRun(b); }
  for (int i = 0; i < iters; ++i) { if (i & 1) { tb.push_back(timeRun(b)); ta.push_back(timeRun(a)); } else { ta.push_back(timeRun(a)); tb.push_back(timeRun(b)); } }
  std::sort(ta.begin(), ta.end()); std::sort(tb.begin(), tb.end());
  printf("A median %.3f ms  B median %.3f ms  B/A %.3f   (p10 %.3f / %.3f)  identical=%d\n", ta[iters/2], tb[iters/2], tb[iters/2]/ta[iters/2], ta[iters/10], tb[iters/10],
         memcmp(a.result0_data(), b.result0_data(), m::A::kResult0Bytes) == 0);
}
