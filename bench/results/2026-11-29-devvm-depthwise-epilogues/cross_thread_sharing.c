// SPDX-License-Identifier: Apache-2.0
// Two threads pinned to CPUs 0 and 1 each scale a 4 MiB half of a buffer,
// meeting at a barrier after each pass; with SWAP=1 they trade halves every
// pass, so each reads and writes what the other thread just wrote. Prints
// microseconds per pass every 0.5 s. On the 2-vCPU VM, SWAP=0 stays at
// ~53 us; SWAP=1 runs at ~50 us for seconds, then ~170 us for seconds:
// the host moves the vCPUs between sharing a cache and not.
// Build: cc -O2 -march=native cross_thread_sharing.c -o xshare -lpthread
// Run: ./xshare SECONDS SWAP
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <time.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
#define N (1<<20) /* floats per half: 4 MB */
static float *buf; static _Atomic int bar; static int swap; static volatile int stop;
static void barrier(int *gen){ int g=++*gen; atomic_fetch_add(&bar,1); while(atomic_load(&bar)<2*g); }
static void pin(int c){cpu_set_t s;CPU_ZERO(&s);CPU_SET(c,&s);pthread_setaffinity_np(pthread_self(),sizeof s,&s);}
static void work(int me,int it){ int half = swap ? (me ^ (it&1)) : me; float*b=buf+half*(size_t)N; for(int i=0;i<N;i++) b[i]=b[i]*0.5f+1.0f; }
static void* other(void*p){pin(1);int gen=0;for(int it=0;!stop;it++){work(1,it);barrier(&gen);}return 0;}
int main(int argc,char**argv){
  int secs=atoi(argv[1]); swap=atoi(argv[2]); buf=aligned_alloc(64,2*N*4); for(int i=0;i<2*N;i++)buf[i]=1;
  pthread_t th; pthread_create(&th,0,other,0); pin(0); int gen=0;
  double t0=now(),tl=t0; int n=0;
  for(int it=0;;it++){ work(0,it); barrier(&gen); n++; double t=now();
    if(t-tl>0.5){printf("%.0f ",(t-tl)/n*1e6);fflush(stdout);n=0;tl=t;}
    if(t-t0>secs){stop=1;break;} }
  barrier(&gen); printf("\n");
}
