// SPDX-License-Identifier: Apache-2.0
#include <immintrin.h>
#include <stdio.h>
#include <time.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(){
  __m512 a[16]; __m512 x=_mm512_set1_ps(1.0000001f), y=_mm512_set1_ps(0.9999999f);
  for(int i=0;i<16;i++) a[i]=_mm512_set1_ps(i);
  long n=100000000; double best=1e9;
  for(int r=0;r<7;r++){ double t=now();
  for(long k=0;k<n/10;k++){
#pragma unroll
    for(int i=0;i<16;i++) a[i]=_mm512_fmadd_ps(a[i],x,y);
    __asm__ volatile("" : "+v"(a[0]),"+v"(a[1]),"+v"(a[2]),"+v"(a[3]),"+v"(a[4]),"+v"(a[5]),"+v"(a[6]),"+v"(a[7]));
  }
  t=now()-t; if(t<best)best=t;}
  float s=0; for(int i=0;i<16;i++) s+=_mm512_reduce_add_ps(a[i]);
  printf("%.1f GFLOP/s (best of 7) %f\n", (n/10)*16*32.0/best/1e9, s);
}
