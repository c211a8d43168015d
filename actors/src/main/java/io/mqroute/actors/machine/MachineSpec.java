package io.mqroute.actors.machine;

import io.mqroute.actors.cpu.CState;
import io.mqroute.actors.cpu.CpuCosts;
import io.mqroute.actors.cpu.Governor;
import io.mqroute.actors.device.Device;
import io.mqroute.policies.strategy.BackgroundAdmission;
import io.mqroute.policies.strategy.DispatchOrder;
import io.mqroute.policies.strategy.EnqueueErrorPolicy;
import io.mqroute.policies.strategy.FullRingStrategy;
import io.mqroute.policies.strategy.WakePolicy;
import io.mqroute.policies.topology.CpuTopology;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Everything a machine run is built from, resolved and validated (see {@link MachineSpecParser} for
 * the HOCON keys and their defaults).
 *
 * @param ioUringPunt how an io_uring read or write of a FUSE file is issued: inline, or by an io-wq
 *     worker ({@code machine.kernel.io-uring-punt})
 * @param vcpuPack the guest kernel keeps a woken task on the vCPU its waker holds alone ({@code
 *     machine.kernel.vcpu-pack}, {@link io.mqroute.actors.cpu.WakeTargets})
 * @param vcpuPackSleepingWaker with vcpuPack: only when the waker sleeps next, as its queue tells
 *     ({@link FlowProtocol.Ended#wakerRunsOn}, {@code machine.kernel.vcpu-pack-sleeping-waker})
 * @param devFuseReadAtRun /dev/fuse workers take their request when they run, and keep their CPU
 *     while they have requests ({@code machine.kernel.dev-fuse-read = at-run}, {@link
 *     DevFuseQueue}); false: the woken worker is handed the request that woke it
 */
public record MachineSpec(
    CpuTopology topology,
    CpuCosts costs,
    List<CState> cstates,
    Governor governor,
    Queues queues,
    Router router,
    WakePolicy wake,
    String deviceSpec,
    Supplier<Device> device,
    long stallLimitNanos,
    IoUringPunt ioUringPunt,
    boolean vcpuPack,
    boolean vcpuPackSleepingWaker,
    boolean devFuseReadAtRun) {

  /** This machine with another router (a chaos profile wraps the selector). */
  public MachineSpec withRouter(Router router) {
    return with(router, deviceSpec, device);
  }

  /** This machine with another device, named {@code deviceSpec} in reports. */
  public MachineSpec withDevice(String deviceSpec, Supplier<Device> device) {
    return with(router, deviceSpec, device);
  }

  private MachineSpec with(Router router, String deviceSpec, Supplier<Device> device) {
    return new MachineSpec(
        topology,
        costs,
        cstates,
        governor,
        queues,
        router,
        wake,
        deviceSpec,
        device,
        stallLimitNanos,
        ioUringPunt,
        vcpuPack,
        vcpuPackSleepingWaker,
        devFuseReadAtRun);
  }

  /**
   * @param registered the queue ids that exist (all of 0..count-1 unless a reduced set is given)
   * @param homeCpu per queue, the CPU its server thread / IRQ is bound to
   * @param pollers device pollers (server threads) per queue
   * @param enomemProbability chance that a ring insertion fails with ENOMEM (fault injection; 0 =
   *     never)
   */
  public record Queues(
      QueueKind kind,
      int count,
      List<Integer> registered,
      int[] homeCpu,
      int ringSize,
      int pollers,
      FullRingStrategy fullRing,
      EnqueueErrorPolicy enqueueError,
      double enomemProbability,
      DispatchOrder dispatch) {}

  /**
   * @param pendingQueueNanos cost of the pre-cleanup {@code fiq->pending} hop per request (seed
   *     000), or -1 for direct dispatch
   */
  public record Router(
      String selector,
      Map<String, String> selectorParams,
      BackgroundAdmission.Mode admission,
      int maxBackground,
      int congestionThreshold,
      long pendingQueueNanos) {}
}
