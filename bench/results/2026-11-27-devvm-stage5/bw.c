// SPDX-License-Identifier: Apache-2.0
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(int argc,char**argv){
  size_t mb=atol(argv[1]); size_t n=mb*1024*1024/4; float*p=aligned_alloc(64,n*4);
  for(size_t i=0;i<n;i++)p[i]=i;
  double best=1e9; __m512 s0=_mm512_setzero_ps(),s1=s0,s2=s0,s3=s0;
  for(int r=0;r<15;r++){double t=now();
    for(size_t i=0;i<n;i+=64){s0=_mm512_add_ps(s0,_mm512_load_ps(p+i));s1=_mm512_add_ps(s1,_mm512_load_ps(p+i+16));s2=_mm512_add_ps(s2,_mm512_load_ps(p+i+32));s3=_mm512_add_ps(s3,_mm512_load_ps(p+i+48));}
    t=now()-t; if(t<best)best=t;}
  printf("%zu MB: %.1f GB/s (best of 15) %f\n",mb,n*4/best/1e9,_mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(s0,s1),_mm512_add_ps(s2,s3))));
}
