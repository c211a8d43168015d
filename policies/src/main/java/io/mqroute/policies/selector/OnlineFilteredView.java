package io.mqroute.policies.selector;

import io.mqroute.policies.RoutingView;
import io.mqroute.policies.topology.CpuTopology;
import io.mqroute.policies.topology.QueueMask;

/**
 * A reusable {@link RoutingView} over another one in which every queue whose home CPU is offline is
 * unregistered — what blk-mq does to a hardware queue whose last CPU goes down. Rebinding per
 * decision allocates nothing; node masks are allocated once per node count.
 */
final class OnlineFilteredView implements RoutingView {

  private RoutingView inner;
  private final AndMask registered = new AndMask();
  private AndMask[] byNode = new AndMask[0];

  OnlineFilteredView bind(RoutingView view) {
    inner = view;
    if (byNode.length < view.nodeCount()) {
      byNode = new AndMask[view.nodeCount()];
      for (int i = 0; i < byNode.length; i++) {
        byNode[i] = new AndMask();
      }
    }
    return this;
  }

  @Override
  public CpuTopology topology() {
    return inner.topology();
  }

  @Override
  public int queueCount() {
    return inner.queueCount();
  }

  @Override
  public int cpuCount() {
    return inner.cpuCount();
  }

  @Override
  public int nodeCount() {
    return inner.nodeCount();
  }

  @Override
  public int nrReqs(int q) {
    return inner.nrReqs(q);
  }

  @Override
  public QueueMask onlineQueues() {
    return inner.onlineQueues();
  }

  @Override
  public int cpuToNode(int cpu) {
    return inner.cpuToNode(cpu);
  }

  @Override
  public boolean cpuOnline(int cpu) {
    return inner.cpuOnline(cpu);
  }

  @Override
  public int queueCpu(int q) {
    return inner.queueCpu(q);
  }

  @Override
  public boolean registered(int q) {
    return inner.registered(q) && inner.onlineQueues().contains(q);
  }

  @Override
  public QueueMask registeredQueues() {
    return registered.bind(inner.registeredQueues(), inner.onlineQueues());
  }

  @Override
  public QueueMask registeredQueues(int node) {
    return byNode[node].bind(inner.registeredQueues(node), inner.onlineQueues());
  }
}
