// SPDX-License-Identifier: Apache-2.0
// Runs TopKV2 (k = 100, bench/topk/topk.pbtxt compiled for x:4,N) on
// four rows of N and checks each against a reference: the row's indices sorted
// by value, decreasing, equal values by index (TF's order), with
// std::stable_sort. Prints the first three slots of each row, which the
// test derives by hand.
//   row 0: ascending, x[i] = i            -> N-1 N-2 N-3
//   row 1: x[i] = (37 i) mod 11: the 10s sit where 4i = 10 (mod 11), i.e.
//          i = 8 (mod 11)                  -> indices 8 19 30, all 10
//   row 2: all 1                           -> indices 0 1 2
//   row 3: descending, x[i] = -i           -> indices 0 1 2
#include MODEL_HEADER

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <vector>

int main() {
  MODEL_CLASS model;
  const int rows = 4, k = 100;
  const int n = MODEL_CLASS::kArg0Elements / rows;
  float *x = model.arg0_data();
  for (int i = 0; i < n; ++i) {
    x[0 * n + i] = float(i);
    x[1 * n + i] = float((37 * i) % 11);
    x[2 * n + i] = 1.0f;
    x[3 * n + i] = float(-i);
  }
  if (!model.Run()) {
    std::printf("Run failed: %s\n", model.error_msg().c_str());
    return 1;
  }
  const float *values = model.result0_data();
  const int *indices = model.result1_data();
  int status = 0;
  for (int r = 0; r < rows; ++r) {
    const float *row = x + r * n;
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return row[a] > row[b]; });
    int wrong = 0;
    for (int s = 0; s < k; ++s)
      wrong += indices[r * k + s] != order[s] ||
               values[r * k + s] != row[order[s]];
    std::printf("row %d: %s; first slots", r,
                wrong ? "DIFFERS from the reference" : "matches the reference");
    for (int s = 0; s < 3; ++s)
      std::printf(" x[%d] = %g", indices[r * k + s], values[r * k + s]);
    std::printf("\n");
    status |= wrong != 0;
  }
  return status;
}
