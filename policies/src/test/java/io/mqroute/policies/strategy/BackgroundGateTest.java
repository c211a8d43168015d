package io.mqroute.policies.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.policies.QueueSelector;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The background admission flow both routers share: blocking, admission order, no-queue answers,
 * moves.
 */
class BackgroundGateTest {

  /** Answers select() from a script and records what the gate asked for. */
  static final class Port implements BackgroundGate.Port<String> {
    final ArrayDeque<Integer> picks = new ArrayDeque<>();
    final List<String> selected = new ArrayList<>();
    final List<Integer> reserved = new ArrayList<>();
    final List<String> dispatched = new ArrayList<>();

    @Override
    public int select(String item) {
      selected.add(item);
      return picks.isEmpty() ? 0 : picks.pollFirst();
    }

    @Override
    public void reserve(int queue) {
      reserved.add(queue);
    }

    @Override
    public void dispatch(int queue, String item) {
      dispatched.add(item + "@" + queue);
    }
  }

  private static BackgroundAdmission admission(BackgroundAdmission.Mode mode, int max, int queues) {
    return BackgroundAdmission.newBuilder().mode(mode).maxBackground(max).queues(queues).build();
  }

  private static List<String> held(BackgroundGate<String> gate) {
    List<String> out = new ArrayList<>();
    gate.forEachHeld(out::add);
    return out;
  }

  @Test
  void globalModeBlocksAtMaxBackgroundAndPicksTheQueueWhenItAdmits() {
    Port port = new Port();
    BackgroundGate<String> gate =
        new BackgroundGate<>(admission(BackgroundAdmission.Mode.GLOBAL, 2, 3), 3, port);
    port.picks.addAll(List.of(2, 1, 0));
    gate.submit("a");
    gate.submit("b");
    gate.submit("c");
    assertThat(port.dispatched).containsExactly("a@2", "b@1");
    assertThat(port.selected)
        .as("c is blocked before any queue is picked")
        .containsExactly("a", "b");
    assertThat(held(gate)).containsExactly("c");
    assertThat(gate.blockedCount()).isEqualTo(1);
    gate.ended(2);
    assertThat(port.dispatched).containsExactly("a@2", "b@1", "c@0");
    assertThat(port.reserved).containsExactly(2, 1, 0);
    assertThat(gate.admission().activeBackground()).isEqualTo(2);
    assertThat(gate.breaches()).isZero();
  }

  @Test
  void noQueueAtAdmissionReleasesItInGlobalModeAndCountsNothingPerQueue() {
    Port global = new Port();
    BackgroundGate<String> g =
        new BackgroundGate<>(admission(BackgroundAdmission.Mode.GLOBAL, 4, 1), 1, global);
    global.picks.add(QueueSelector.NONE);
    g.submit("a");
    assertThat(global.dispatched).isEmpty();
    assertThat(g.admission().numBackground()).isZero();

    Port perQueue = new Port();
    BackgroundGate<String> q =
        new BackgroundGate<>(admission(BackgroundAdmission.Mode.PER_QUEUE, 4, 2), 2, perQueue);
    perQueue.picks.add(QueueSelector.NONE);
    q.submit("a");
    assertThat(perQueue.reserved).isEmpty();
    assertThat(q.admission().numBackground()).isZero();
  }

  @Test
  void aMovedRequestWaitsFirstOnAFullQueueAndWithdrawUncountsIt() {
    Port port = new Port();
    BackgroundGate<String> gate =
        new BackgroundGate<>(admission(BackgroundAdmission.Mode.PER_QUEUE, 2, 2), 2, port);
    port.picks.addAll(List.of(1, 1));
    gate.submit("a");
    gate.submit("b"); // queue 1 holds both admissions
    assertThat(port.dispatched).containsExactly("a@1", "b@1");
    // a request re-routed from queue 0 would need a third admission on queue 1: it waits there
    gate.admission().enqueue(0);
    assertThat(gate.admission().tryAdmit(0)).isTrue(); // one per queue always: queue 0 had none
    gate.moved("c", 0, 1);
    assertThat(port.dispatched).containsExactly("a@1", "b@1");
    assertThat(held(gate)).containsExactly("c");
    assertThat(gate.withdraw(1)).containsExactly("c");
    assertThat(held(gate)).isEmpty();
    assertThat(gate.admission().numBackground()).isEqualTo(2);
    assertThat(gate.admission().withinLimit()).isTrue();
  }
}
