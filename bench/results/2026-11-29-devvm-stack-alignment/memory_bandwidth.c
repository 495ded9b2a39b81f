/* Single-core read bandwidth: an 8 MiB buffer read cold (after streaming
   256 MiB through the caches) and again at once (from L3). Used for
   2026-11-29-devvm-stack-alignment.md. clang-22 -O2 -mavx512f. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <immintrin.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(){
  size_t big=256<<20, n=8<<20; float *a=aligned_alloc(64,big), *w=aligned_alloc(64,n);
  for(size_t i=0;i<big/4;i++)a[i]=1; for(size_t i=0;i<n/4;i++)w[i]=1;
  for(int r=0;r<5;r++){
    // evict w by streaming a
    __m512 s=_mm512_setzero_ps();
    for(size_t i=0;i<big/4;i+=16) s=_mm512_add_ps(s,_mm512_load_ps(a+i));
    double t0=now(); __m512 q=_mm512_setzero_ps();
    for(size_t i=0;i<n/4;i+=16) q=_mm512_add_ps(q,_mm512_load_ps(w+i));
    double t1=now();
    __m512 q2=_mm512_setzero_ps();
    for(size_t i=0;i<n/4;i+=16) q2=_mm512_add_ps(q2,_mm512_load_ps(w+i));
    double t2=now();
    printf("cold %.1f GB/s  warm(L3) %.1f GB/s  %f\n", n/(t1-t0)/1e9, n/(t2-t1)/1e9, _mm512_reduce_add_ps(q)+_mm512_reduce_add_ps(q2)+_mm512_reduce_add_ps(s));
  }
}
