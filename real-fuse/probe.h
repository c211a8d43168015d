// What the real-fuse probes (wake-probe.c, wake-probe-depth.c, ipi-probe.c, switch-probe.c) share: a monotonic
// clock in microseconds, a busy wait and pinning the calling thread. Each probe still builds with one command,
// `gcc -O2 -o NAME real-fuse/NAME.c -lpthread`: the include is found beside the source.
#ifndef MQROUTE_REAL_FUSE_PROBE_H
#define MQROUTE_REAL_FUSE_PROBE_H
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <time.h>

static inline double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/** Keeps the CPU busy for `us` microseconds, as request work does. */
static inline void spin(double us) {
  double end = now_us() + us;
  while (now_us() < end) {
  }
}

/** Pins the calling thread on `cpu`; 0 on success, as pthread_setaffinity_np. */
static inline int pin_self(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}
#endif
