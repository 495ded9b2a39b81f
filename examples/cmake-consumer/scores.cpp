//===- scores.cpp - a SavedModel compiled by tfaot_library() -------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Runs the dense layer scores = relu(x . W + b) of the SavedModel that
// test/savedmodel's tfaot-write-savedmodel writes (W = [[1,-1],[2,0],
// [0.5,0.5]], b = [0.25,0.5]), compiled from its serving_default signature
// with no FEEDS or FETCHES: the accessors are named by the signature's keys,
// x and scores. For x = [[1,2,3],[0,-1,2]], x . W + b = [[6.75,1],
// [-0.75,1.5]] and relu gives [[6.75,1],[0,1.5]]. The output is compared
// verbatim by the install.cmake_consumer test.
//
//===----------------------------------------------------------------------===//
#include "scores_model.h"

#include <cstdio>

int main() {
  consumer::Scores model;
  const float x[6] = {1, 2, 3, 0, -1, 2};
  if (!model.set_arg_x_data(x, sizeof(x)) || !model.Run()) {
    std::fprintf(stderr, "failed: %s\n", model.error_msg().c_str());
    return 1;
  }
  std::printf("x: float32[%lld,%lld] -> scores: float32[%lld,%lld]\n",
              (long long)model.kArg0Shape[0], (long long)model.kArg0Shape[1],
              (long long)model.kResult0Shape[0],
              (long long)model.kResult0Shape[1]);
  std::printf("scores:");
  for (int i = 0; i < consumer::Scores::kResult0Elements; ++i)
    std::printf(" %g", model.result_scores_data()[i]);
  std::printf("\n");
  return 0;
}
