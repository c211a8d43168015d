package io.mqroute.experiment;

import io.mqroute.actors.machine.CoreProtocol;
import io.mqroute.actors.machine.FlowProtocol;
import io.mqroute.actors.machine.LittlesLaw;
import io.mqroute.actors.machine.MachineResult;
import io.mqroute.actors.machine.MachineSpec;
import io.mqroute.actors.machine.Queueing;
import io.mqroute.actors.machine.Work;
import java.util.List;
import java.util.Locale;

/**
 * The machine's own counters as text: what fio cannot see (rings, overflow, cores, Little's law).
 */
public final class MachineReport {
  private MachineReport() {}

  /**
   * A variant's counters: router, rings and cores of its first replication; queueing and Little's
   * law pooled over every replication.
   */
  public static String render(VariantResult v) {
    return render(v.variant().machine(), v.result(), v.all());
  }

  /** One run's counters. */
  public static String render(MachineSpec spec, MachineResult r) {
    return render(spec, r, List.of(r));
  }

  private static String render(MachineSpec spec, MachineResult r, List<MachineResult> all) {
    StringBuilder sb = new StringBuilder();
    long span = Math.max(1, r.endNanos());
    sb.append("mqroute: router routed=")
        .append(r.router().routed())
        .append(" no-queue=")
        .append(r.router().noQueue())
        .append(" blocked=")
        .append(r.router().blocked())
        .append(" max-background=")
        .append(r.router().maxNumBackground())
        .append('/')
        .append(spec.router().maxBackground())
        .append('\n');
    sb.append(
        "  queue  cpu  accepted  max-ring      overflow-waits  overflow-mean  retries  enomem\n");
    for (FlowProtocol.QueueStats q : r.queues()) {
      if (q.accepted() == 0) {
        continue;
      }
      sb.append(
          String.format(
              Locale.ROOT,
              "  %5d  %3d  %8d  %5d/%-5d  %14d  %11.1fus  %7d  %6d%n",
              q.queue(),
              q.homeCpu(),
              q.accepted(),
              q.maxOccupancy(),
              spec.queues().ringSize(),
              q.overflowWaits(),
              q.overflowWaits() == 0 ? 0.0 : q.overflowNanos() / (double) q.overflowWaits() / 1e3,
              q.delayedRetries(),
              q.enomem()));
    }
    sb.append("  cpu   util  items  wakeups  c-state exits\n");
    for (CoreProtocol.CoreStats c : r.cores()) {
      if (c.items() == 0) {
        continue;
      }
      StringBuilder exits = new StringBuilder();
      for (int i = 0; i < c.cstateExits().length; i++) {
        exits
            .append(i == 0 ? "" : " ")
            .append(spec.cstates().get(i).name())
            .append('=')
            .append(c.cstateExits()[i]);
      }
      sb.append(
          String.format(
              Locale.ROOT,
              "  %3d  %5.1f%%  %6d  %7d  %s%n",
              c.cpu(),
              100.0 * c.busyNanos() / span,
              c.items(),
              c.wakeups(),
              exits));
    }
    sb.append(cpuTimePerRequest(r));
    sb.append(queueing(all));
    String over = all.size() > 1 ? " (" + all.size() + " replications pooled)" : "";
    for (Pooled.LittleAcross a : Pooled.little(all)) {
      sb.append("  little's law, job ").append(a.job()).append(over).append(": ");
      LittlesLaw l = a.pooled();
      if (all.size() == 1 || a.evaluated() == 0) {
        sb.append(l);
      } else {
        String s = l.toString();
        sb.append(s, 0, s.lastIndexOf(':'))
            .append(a.holds() ? ": holds in each" : ": BROKEN in one or more");
      }
      sb.append('\n');
    }
    return sb.toString();
  }

  /**
   * Per queue that served anything: P(wait), the servers' busy fraction, Lq and L (time averages
   * over the run) and the mean wait Wq, pooled over the replications.
   */
  static String queueing(List<MachineResult> all) {
    StringBuilder sb = new StringBuilder();
    for (Pooled.QueueAcross a : Pooled.queues(all)) {
      Queueing q = a.pooled();
      if (q.started() == 0) {
        continue;
      }
      if (sb.isEmpty()) {
        sb.append("  queue  servers  P(wait)   busy       Lq        L         Wq")
            .append(all.size() > 1 ? "   (" + all.size() + " replications pooled)" : "")
            .append('\n');
      }
      sb.append(
          String.format(
              Locale.ROOT,
              "  %5d  %7d  %7.3f  %5.3f  %7.3f  %7.3f  %9.1fus%n",
              a.queue(),
              q.servers(),
              q.pWait(),
              q.busyFraction(),
              q.meanWaiting(),
              q.meanInQueue(),
              q.meanWaitNanos() / 1e3));
    }
    return sb.toString();
  }

  /**
   * Where the CPUs' busy time went, per ended request: the work by kind at full speed, context
   * switches, C-state exits and the stretch of running below the maximum frequency (they add up to
   * the cores' busy time). Over the whole run, ramp_time included.
   */
  public static String cpuTimePerRequest(MachineResult r) {
    long requests = r.little().stream().mapToLong(LittlesLaw::requests).sum();
    if (requests == 0 || r.cores().isEmpty()) {
      return "";
    }
    Work[] kinds = Work.values();
    long[] byKind = new long[kinds.length];
    long switches = 0;
    long sleepWake = 0;
    long exits = 0;
    long stretch = 0;
    long busy = 0;
    for (CoreProtocol.CoreStats c : r.cores()) {
      for (int i = 0; i < kinds.length && i < c.nanosByKind().length; i++) {
        byKind[i] += c.nanosByKind()[i];
      }
      switches += c.switchNanos();
      sleepWake += c.sleepWakeNanos();
      exits += c.exitNanos();
      stretch += c.stretchNanos();
      busy += c.busyNanos();
    }
    StringBuilder sb = new StringBuilder("  cpu time per request:");
    for (int i = 0; i < kinds.length; i++) {
      if (byKind[i] > 0) {
        sb.append(
            String.format(
                Locale.ROOT,
                " %s %.2fus,",
                kinds[i].name().toLowerCase(Locale.ROOT),
                byKind[i] / 1e3 / requests));
      }
    }
    if (sleepWake > 0) {
      sb.append(String.format(Locale.ROOT, " sleep-wake %.2fus,", sleepWake / 1e3 / requests));
    }
    sb.append(
        String.format(
            Locale.ROOT,
            " switches %.2fus, c-state exits %.2fus, below max frequency %.2fus"
                + " = %.2fus busy (%d requests)%n",
            switches / 1e3 / requests,
            exits / 1e3 / requests,
            stretch / 1e3 / requests,
            busy / 1e3 / requests,
            requests));
    return sb.toString();
  }
}
