// wake-probe.c at depth (issue 21): the client keeps D requests in flight to the server pinned on the CPU it is on
// (qid = task_cpu), the server serves each (S us) and posts its completion at once, waking the client if it
// sleeps, then serves the next; the client spends C us per completion and submits again from where it runs.
// Prints the share of the client's waits after which it runs on another CPU. A program of its own, not a
// second table of wake-probe.c: run after wake-probe's table in one process, the depth-1 client moved after
// 47 % of its waits instead of 1.5-3.4 % (the threads' history counts: which of vcpu_pack_room's inputs is not
// known).
//   gcc -O2 -o wake-probe-depth real-fuse/wake-probe-depth.c -lpthread
//   for d in 1 2 4 8; do ./wake-probe-depth 2 1 40000 $d; done
#include "probe.h"
#include <sys/eventfd.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <unistd.h>
static int efs[2], efc; static double s_us;
static void* server(void* a){ long cpu=(long)a; pin_self((int)cpu);
  uint64_t v; for(;;){ if(read(efs[cpu],&v,8)!=8) return 0; for(uint64_t i=0;i<v;i++){ spin(s_us); uint64_t one=1; write(efc,&one,8);} } }
int main(int argc,char**argv){ if(argc!=5||atoi(argv[4])<1||atol(argv[3])<1){ fprintf(stderr,"usage: wake-probe-depth SERVER_US CLIENT_US REQUESTS IN_FLIGHT\n"); return 2; }
  s_us=atof(argv[1]); double c_us=atof(argv[2]); long n=atol(argv[3]); int D=atoi(argv[4]);
  efs[0]=eventfd(0,0); efs[1]=eventfd(0,0); efc=eventfd(0,0); pthread_t t;
  pthread_create(&t,0,server,(void*)0); pthread_create(&t,0,server,(void*)1); usleep(10000);
  long moved=0, sleeps=0, done=0; uint64_t v;
  int q=sched_getcpu(); v=D; write(efs[q],&v,8); double t0=now_us();
  while(done<n){ int before=sched_getcpu(); read(efc,&v,8); int after=sched_getcpu(); sleeps++; if(after!=before) moved++;
    done+=v; spin(c_us*v); q=sched_getcpu(); write(efs[q],&v,8); }
  printf("D=%d S=%.1f C=%.1f: %.2f us/req, wake-ups that moved the client %.3f (%ld sleeps)\n",D,s_us,c_us,(now_us()-t0)/n,(double)moved/sleeps,sleeps);
}
