// A hand-over between two threads on one CPU (issue 21, machine.cpu.switch-cost): a pipe ping-pong with both
// threads pinned on CPU 0, less the same write(2) + read(2) pair run without blocking; what is left per direction is
// a local wake-up and a context switch, as the model's switch-cost charges it between an application and a server
// thread that share a core.
//   gcc -O2 -o switch-probe real-fuse/switch-probe.c -lpthread && ./switch-probe [ROUND_TRIPS]
#include "probe.h"
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int ab[2], ba[2];
static long n = 200000;

static void *echo(void *arg) {
  (void)arg;
  if (pin_self(0) != 0) exit(2);
  char c;
  for (long i = 0; i < n; i++) {
    if (read(ab[0], &c, 1) != 1 || write(ba[1], &c, 1) != 1) exit(2);
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 2 || (argc == 2 && (n = atol(argv[1])) < 1)) {
    fprintf(stderr, "usage: switch-probe [ROUND_TRIPS]\n");
    return 2;
  }
  if (pin_self(0) != 0) {
    fprintf(stderr, "switch-probe: cannot pin to CPU 0\n");
    return 2;
  }
  int p[2];
  char c = 'x';
  if (pipe(p) || pipe(ab) || pipe(ba)) {
    fprintf(stderr, "switch-probe: pipe failed\n");
    return 2;
  }
  double t0 = now_us();
  for (long i = 0; i < n; i++) {
    if (write(p[1], &c, 1) != 1 || read(p[0], &c, 1) != 1) return 2;
  }
  double self = (now_us() - t0) / n;
  pthread_t t;
  if (pthread_create(&t, 0, echo, 0) != 0) return 2;
  t0 = now_us();
  for (long i = 0; i < n; i++) {
    if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1) return 2;
  }
  double rt = (now_us() - t0) / n;
  pthread_join(t, 0);
  printf("write+read without blocking\t%.3f us\n", self);
  printf("round trip, both threads on CPU 0\t%.3f us\n", rt);
  printf("per hand-over (local wake-up + switch)\t%.3f us\n", (rt - 2 * self) / 2);
  return 0;
}
