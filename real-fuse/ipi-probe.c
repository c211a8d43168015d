// What a wake-up on another CPU costs the waker (issue 21, machine.cpu.ipi-cost): thread A, pinned on CPU 0,
// writes an eventfd that thread B sleeps on, B pinned on CPU 1 (the wake-up sends a reschedule IPI to the other
// vCPU: on a guest without IPI virtualization an exit to the host) or on CPU 0 (the same wake-up, local: B runs
// when A yields). Prints how long A's write(2) takes, per GAP (how long B's CPU has been idle before it).
//   gcc -O2 -o ipi-probe real-fuse/ipi-probe.c -lpthread
//   ./ipi-probe            # the table: B on CPU 1 at gaps 0, 20, 100, 300 us; B on CPU 0
//   ./ipi-probe B_CPU GAP_US N
#include "probe.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

static int efd;
static volatile long acked;
static long n;
static int bcpu;

static void *sleeper(void *arg) {
  (void)arg;
  if (pin_self(bcpu) != 0) {
    fprintf(stderr, "ipi-probe: cannot pin to CPU %d\n", bcpu);
    exit(2);
  }
  uint64_t v;
  for (long i = 0; i < n; i++) {
    if (read(efd, &v, 8) != 8) exit(2);
    acked = i + 1;
  }
  return 0;
}

static double run(int b, double gap_us, long count) {
  bcpu = b;
  n = count;
  acked = 0;
  efd = eventfd(0, 0);
  pthread_t t;
  if (efd < 0 || pthread_create(&t, 0, sleeper, 0) != 0) {
    fprintf(stderr, "ipi-probe: cannot create the eventfd or the thread\n");
    exit(2);
  }
  usleep(10000);
  double sum = 0;
  uint64_t one = 1;
  for (long i = 0; i < count; i++) {
    spin(gap_us);
    double t0 = now_us();
    if (write(efd, &one, 8) != 8) exit(2);
    sum += now_us() - t0;
    while (acked <= i) {
      if (b == 0) sched_yield();
    }
  }
  pthread_join(t, 0);
  close(efd);
  return sum / count;
}

int main(int argc, char **argv) {
  if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
    fprintf(stderr, "ipi-probe: needs two CPUs\n");
    return 2;
  }
  if (pin_self(0) != 0) {
    fprintf(stderr, "ipi-probe: cannot pin to CPU 0\n");
    return 2;
  }
  if (argc == 4) {
    int b = atoi(argv[1]);
    double gap = atof(argv[2]);
    long count = atol(argv[3]);
    if ((b != 0 && b != 1) || gap < 0 || count < 1) {
      fprintf(stderr, "usage: ipi-probe [B_CPU(0|1) GAP_US N]\n");
      return 2;
    }
    printf("%d\t%.0f\t%.2f\n", b, gap, run(b, gap, count));
    return 0;
  }
  if (argc != 1) {
    fprintf(stderr, "usage: ipi-probe [B_CPU(0|1) GAP_US N]\n");
    return 2;
  }
  printf("sleeper_cpu\tgap_us\twaker_write_us\n");
  double gaps[] = {0, 20, 100, 300};
  for (int i = 0; i < 4; i++) printf("1\t%.0f\t%.2f\n", gaps[i], run(1, gaps[i], 20000));
  printf("0\t20\t%.2f\n", run(0, 20, 20000));
  return 0;
}
