/* SPDX-License-Identifier: Apache-2.0
 *
 * Helpers the C API tests share (c_api_static.c, c_api_dlopen.c): reading
 * the uTensor corpus's IDX files (TensorFlow's outputs), reading raw files,
 * and comparing floats with the e2e tests' tolerances. C99, header-only so
 * that each test is one `cc` command. CHECK prints the failed condition and
 * counts it; main() returns failures != 0. */
#ifndef TFAOT_TEST_C_API_CHECK_H
#define TFAOT_TEST_C_API_CHECK_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define CHECK(cond)                                                        \
  do {                                                                     \
    if (!(cond)) {                                                         \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__,     \
              #cond);                                                      \
      ++failures;                                                          \
    }                                                                      \
  } while (0)

/* The whole file at `path` (malloc'ed, *size set), or NULL. */
static unsigned char *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  unsigned char *data;
  long n;
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  data = (unsigned char *)malloc(n > 0 ? (size_t)n : 1);
  if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
    free(data);
    data = NULL;
  }
  fclose(f);
  *size = (size_t)n;
  return data;
}

/* An IDX file of float32 (type 0x0D, big-endian): its values as floats
 * (malloc'ed), its element count in *count; NULL on anything else. */
static float *read_idx_floats(const char *path, size_t *count) {
  size_t size, header, i, n = 1;
  int d, rank;
  float *values;
  unsigned char *bytes = read_file(path, &size);
  if (!bytes || size < 4 || bytes[0] || bytes[1] || bytes[2] != 0x0D) {
    fprintf(stderr, "%s: not a float32 IDX file\n", path);
    free(bytes);
    return NULL;
  }
  rank = bytes[3];
  header = 4 + 4 * (size_t)rank;
  for (d = 0; d < rank; ++d) {
    const unsigned char *p = bytes + 4 + 4 * d;
    n *= ((size_t)p[0] << 24) | ((size_t)p[1] << 16) | ((size_t)p[2] << 8) |
         p[3];
  }
  if (size != header + 4 * n) {
    fprintf(stderr, "%s: %zu bytes, expected %zu\n", path, size,
            header + 4 * n);
    free(bytes);
    return NULL;
  }
  values = (float *)malloc(n * sizeof(float) + 1);
  for (i = 0; i < n; ++i) {
    const unsigned char *p = bytes + header + 4 * i;
    uint32_t bits = ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
                    ((uint32_t)p[2] << 8) | p[3];
    memcpy(&values[i], &bits, 4);
  }
  free(bytes);
  *count = n;
  return values;
}

/* Whether |got - want| <= atol + rtol * |want| everywhere, as the e2e
 * tests' AllClose; prints the first mismatch. */
static int all_close(const char *what, const float *got, const float *want,
                     size_t n, double atol, double rtol) {
  size_t i;
  for (i = 0; i < n; ++i)
    if (!(fabs((double)got[i] - want[i]) <= atol + rtol * fabs(want[i]))) {
      fprintf(stderr, "%s[%zu]: got %.9g, want %.9g\n", what, i, got[i],
              want[i]);
      return 0;
    }
  return 1;
}

/* Joins a directory and a file name (static buffer, one at a time). */
static const char *path_in(const char *dir, const char *name) {
  static char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return path;
}

#endif /* TFAOT_TEST_C_API_CHECK_H */
