package io.mqroute.experiment;

import io.mqroute.actors.machine.FlowProtocol;
import io.mqroute.actors.machine.LittlesLaw;
import io.mqroute.actors.machine.MachineResult;
import io.mqroute.actors.machine.Queueing;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * A variant's per-queue queueing and per-job Little's law over all its replications: the sums of
 * every replication (so each ratio is a ratio of sums, the pooled estimate), with the 95% interval
 * of the replications' own values where there are several.
 */
final class Pooled {
  private Pooled() {}

  /**
   * One queue over the replications.
   *
   * @param pooled the replications' counts summed
   * @param pWait P(wait) of each replication that started a request, mean and 95% half-width
   * @param busy the servers' busy fraction per replication
   * @param waiting Lq per replication
   * @param inQueue L per replication
   */
  record QueueAcross(
      int queue,
      int replications,
      Queueing pooled,
      Aggregate pWait,
      Aggregate busy,
      Aggregate waiting,
      Aggregate inQueue) {}

  /**
   * One job clone over the replications.
   *
   * @param pooled the replications' sums (only those that ended)
   * @param evaluated replications in which the job ended (the law was checked)
   * @param holds whether it held in every one of them (false when it was checked in none)
   */
  record LittleAcross(int job, LittlesLaw pooled, int evaluated, boolean holds) {}

  static List<QueueAcross> queues(List<MachineResult> all) {
    int n = all.stream().mapToInt(r -> r.queues().size()).max().orElse(0);
    List<QueueAcross> out = new ArrayList<>();
    for (int q = 0; q < n; q++) {
      Queueing pooled = Queueing.NONE;
      List<Queueing> each = new ArrayList<>();
      for (MachineResult r : all) {
        if (q < r.queues().size()) {
          FlowProtocol.QueueStats s = r.queues().get(q);
          Queueing x = s.queueing() == null ? Queueing.NONE : s.queueing();
          pooled = pooled.plus(x);
          each.add(x);
        }
      }
      out.add(
          new QueueAcross(
              q,
              each.size(),
              pooled,
              over(each, Queueing::pWait),
              over(each, Queueing::busyFraction),
              over(each, Queueing::meanWaiting),
              over(each, Queueing::meanInQueue)));
    }
    return out;
  }

  static List<LittleAcross> little(List<MachineResult> all) {
    int n = all.stream().mapToInt(r -> r.little().size()).max().orElse(0);
    List<LittleAcross> out = new ArrayList<>();
    for (int j = 0; j < n; j++) {
      LittlesLaw pooled = LittlesLaw.notEvaluated();
      int evaluated = 0;
      boolean holds = true;
      for (MachineResult r : all) {
        LittlesLaw l = j < r.little().size() ? r.little().get(j) : LittlesLaw.notEvaluated();
        if (l.evaluated()) {
          evaluated++;
          holds &= l.holds();
          pooled = pooled.plus(l);
        }
      }
      out.add(new LittleAcross(j, pooled, evaluated, evaluated > 0 && holds));
    }
    return out;
  }

  /** The mean and 95% half-width of a metric over the replications where it is defined. */
  private static Aggregate over(List<Queueing> each, ToDoubleFunction<Queueing> f) {
    List<Queueing> defined =
        each.stream().filter(x -> Double.isFinite(f.applyAsDouble(x))).toList();
    return defined.isEmpty() ? new Aggregate(Double.NaN, Double.NaN) : Aggregate.of(defined, f);
  }
}
