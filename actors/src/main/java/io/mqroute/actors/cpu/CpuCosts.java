package io.mqroute.actors.cpu;

/**
 * CPU work per request, in nanoseconds at full frequency. All may be zero: the model is then pure
 * queueing.
 *
 * @param submitNanos the application's submit path: request allocation, queue selection, enqueue
 *     and the io_uring_enter / syscall entry (fuse_uring_queue_fuse_req + friends; about 1.5 µs)
 * @param serverNanos the FUSE server thread handling one request on its queue's core: the task_work
 *     copy, libfuse dispatch and the reply commit (fuse_uring_send_in_task, COMMIT_AND_FETCH; about
 *     3 µs)
 * @param workerNanos a libfuse worker thread serving /dev/fuse, per request: its read(2) of the
 *     device, libfuse's dispatch and the reply's writev or splice (fuse_dev_do_read,
 *     fuse_dev_do_write; several syscalls where a ring thread has one io_uring_enter); the same as
 *     serverNanos unless given
 * @param completionNanos ending the request in the kernel on the completing core (fuse_request_end
 *     and the copy of the reply; about 1 µs)
 * @param wakeNanos waking the waiter on another core, as the woken core sees it: the IPI (or the
 *     write to the monitored flag of an mwait-idle CPU), ttwu_do_activate on the remote runqueue
 *     and schedule() out of idle (about 3 µs); the C-state exit comes on top (CoreModel), and so
 *     does switchNanos when that core last ran another thread. Nothing is charged when the waiter
 *     continues on the completing core
 * @param reapNanos the application consuming the completion (io_uring CQE reap / syscall return;
 *     about 0.5 µs)
 * @param switchNanos a context switch between the application thread and a FUSE server thread
 *     sharing one core (schedule() and the switch of address space; about 1.5 µs)
 * @param migrateNanos a woken thread running on another CPU than the one it slept on: its
 *     L1/L2-resident working set (kernel stack, task_struct, the syscall path's and fio's per-I/O
 *     state: ~200 cache lines, 12.5 KiB) misses the new core's private caches and comes from the
 *     LLC or the old core's L2 (~20-40 ns a line on Skylake-SP, a few misses overlapped): about 1
 *     µs. Joanne Koong's review point on seed 003 ("loses the cache locality")
 * @param sleepWakeNanos a FUSE server thread's own CPU time for a sleep–wake cycle in which its CPU
 *     slept (a C-state): its first pass after finish_task_switch through a request path whose
 *     caches and TLB the idle CPU lost, charged once per such wake-up on the server thread's core
 *     ({@link SleepWakeCost}); the wake-up's mechanics are wakeNanos. 0 by default: no source gives
 *     it for a bare-metal core, and with 0 every earlier result stands; the 2-vCPU KVM guest of
 *     issue 21 measures tens of µs (a libfuse worker 46-49 µs of CPU per request when every request
 *     wakes one on an idle vCPU, 8 µs when busy: EXPERIMENTS.md, real-fuse-this-vm)
 * @param ipiNanos what a wake-up on another CPU costs the waker: the reschedule IPI that
 *     ttwu_queue_wakelist / smp_send_reschedule sends. On bare metal a write to the APIC (well
 *     under 1 µs, so 0 by default, with every earlier result standing); in a guest without IPI
 *     virtualization an exit to the host that wakes the target vCPU's thread before the waker runs
 *     on: 11.5 µs on the 2-vCPU guest of issue 21 (real-fuse/ipi-probe.c, against 1.7 µs for the
 *     same wake-up on the waker's own CPU). Charged on the waker's core, before the woken thread's
 *     core gets its wake-up
 */
public record CpuCosts(
    long submitNanos,
    long serverNanos,
    long workerNanos,
    long completionNanos,
    long wakeNanos,
    long reapNanos,
    long switchNanos,
    long migrateNanos,
    long sleepWakeNanos,
    long ipiNanos) {

  /** Defaults: orders of magnitude of a 2020s x86 server core, see the parameters. */
  public static final CpuCosts DEFAULT =
      new CpuCosts(1_500, 3_000, 3_000, 1_000, 3_000, 500, 1_500, 1_000, 0, 0);

  /** No CPU cost at all: a node in real time, whose real CPU pays for the work. */
  public static final CpuCosts NONE = new CpuCosts(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

  public CpuCosts {
    check("submit-cost", submitNanos);
    check("server-cost", serverNanos);
    check("worker-cost", workerNanos);
    check("completion-cost", completionNanos);
    check("wake-cost", wakeNanos);
    check("reap-cost", reapNanos);
    check("switch-cost", switchNanos);
    check("migrate-cost", migrateNanos);
    check("sleep-wake-cost", sleepWakeNanos);
    check("ipi-cost", ipiNanos);
  }

  private static void check(String name, long v) {
    if (v < 0) {
      throw new IllegalArgumentException(name + " must be >= 0 ns, was " + v);
    }
  }
}
