// Where does this kernel put a task woken by the only thread on its previous CPU? (issue 21, vCPU packing)
//
// A client thread (unpinned) hands each request to the server thread pinned on the CPU the client is on, as
// fuse-over-io-uring's qid = task_cpu(current) does; the server spins S us, wakes the client with a plain
// (not WF_SYNC) eventfd wake-up, then sleeps. Mainline's select_idle_sibling moves the client to an idle CPU of
// the LLC (its previous CPU is busy with the server); a guest kernel that packs wake-ups onto busy vCPUs keeps
// it there. Prints, per S and C (the client's own work per request), the share of wake-ups that kept the
// client on its CPU.
//   gcc -O2 -o wake-probe real-fuse/wake-probe.c -lpthread && ./wake-probe
#include "probe.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

static int server_fd[2], client_fd;
static double server_us;

static void *server(void *arg) {
  long cpu = (long)arg;
  pin_self((int)cpu);
  uint64_t v;
  while (read(server_fd[cpu], &v, 8) == 8) {
    spin(server_us);
    v = 1;
    if (write(client_fd, &v, 8) != 8) return 0;
  }
  return 0;
}

int main(void) {
  if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
    fprintf(stderr, "wake-probe: needs 2 CPUs\n");
    return 2;
  }
  server_fd[0] = eventfd(0, 0);
  server_fd[1] = eventfd(0, 0);
  client_fd = eventfd(0, 0);
  pthread_t t;
  pthread_create(&t, 0, server, (void *)0);
  pthread_create(&t, 0, server, (void *)1);
  usleep(10000);
  const double work[][2] = {{1, 0.5}, {2, 2}, {8, 8}, {50, 50}};
  printf("server_us\tclient_us\tus_per_request\tstayed_on_cpu\n");
  for (int k = 0; k < 4; k++) {
    server_us = work[k][0];
    long n = work[k][0] >= 50 ? 3000 : 20000, stayed = 0;
    double t0 = now_us();
    for (long i = 0; i < n; i++) {
      spin(work[k][1]);
      int cpu = sched_getcpu() & 1;
      uint64_t v = 1;
      if (write(server_fd[cpu], &v, 8) != 8 || read(client_fd, &v, 8) != 8) return 1;
      stayed += sched_getcpu() == cpu;
    }
    printf("%.1f\t%.1f\t%.2f\t%.3f\n", work[k][0], work[k][1], (now_us() - t0) / n, (double)stayed / n);
  }
  return 0;
}
