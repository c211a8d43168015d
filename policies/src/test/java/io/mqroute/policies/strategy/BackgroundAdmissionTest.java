package io.mqroute.policies.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mqroute.policies.strategy.BackgroundAdmission.Mode;
import org.junit.jupiter.api.Test;

class BackgroundAdmissionTest {

  @Test
  void defaultsAreTheKernels12And9() {
    BackgroundAdmission a = BackgroundAdmission.newBuilder().build();
    assertThat(a.maxBackground()).isEqualTo(12);
    assertThat(a.congestionThreshold()).isEqualTo(9);
    assertThat(a.mode()).isEqualTo(Mode.GLOBAL);
    assertThat(BackgroundAdmission.newBuilder().maxBackground(65535).build().congestionThreshold())
        .isEqualTo(49151);
  }

  @Test
  void globalModeAdmitsUpToMaxBackgroundThenWaits() {
    BackgroundAdmission a = BackgroundAdmission.newBuilder().queues(4).build();
    int admitted = 0;
    for (int i = 0; i < 20; i++) {
      a.enqueue(i % 4);
      admitted += a.tryAdmit(i % 4) ? 1 : 0;
      assertThat(a.congested()).isEqualTo(i + 1 >= 9);
      assertThat(a.blocked()).isEqualTo(i + 1 >= 12);
    }
    assertThat(admitted).isEqualTo(12);
    assertThat(a.activeBackground()).isEqualTo(12);
    assertThat(a.waiting()).isEqualTo(8);
    assertThat(a.tryAdmit(2)).as("an idle queue gets no exception in global mode").isFalse();
    a.release(0);
    assertThat(a.tryAdmit(3)).isTrue();
    assertThat(a.withinLimit()).isTrue();
  }

  @Test
  void perQueueModeAlwaysLetsAnIdleQueueRunOne() {
    BackgroundAdmission a =
        BackgroundAdmission.newBuilder().mode(Mode.PER_QUEUE).maxBackground(2).queues(4).build();
    for (int i = 0; i < 3; i++) {
      a.enqueue(0);
    }
    assertThat(a.tryAdmit(0)).isTrue();
    assertThat(a.tryAdmit(0)).isTrue();
    assertThat(a.tryAdmit(0)).as("queue 0 already has one and the global limit is hit").isFalse();
    a.enqueue(1);
    a.enqueue(2);
    a.enqueue(2);
    assertThat(a.tryAdmit(1)).as("fuse_uring_flush_bg: q->active_background == 0").isTrue();
    assertThat(a.tryAdmit(2)).isTrue();
    assertThat(a.tryAdmit(2)).isFalse();
    assertThat(a.activeBackground()).isEqualTo(4);
    assertThat(a.activeBackground(2)).isEqualTo(1);
    assertThat(a.withinLimit()).isTrue();
    a.release(0);
    a.release(0);
    assertThat(a.activeBackground()).isEqualTo(2);
    assertThat(a.tryAdmit(0)).as("below the global limit again").isTrue();
  }

  @Test
  void misuseIsAnError() {
    BackgroundAdmission a = BackgroundAdmission.newBuilder().queues(2).build();
    assertThatThrownBy(() -> a.tryAdmit(0))
        .hasMessage("tryAdmit(0) with no waiting background request");
    assertThatThrownBy(() -> a.release(1))
        .hasMessage("release(1) with no active background request");
    assertThatThrownBy(() -> a.enqueue(2)).hasMessage("queue must be in [0, 1], got 2");
    assertThatThrownBy(() -> BackgroundAdmission.newBuilder().maxBackground(0))
        .hasMessage("max-background must be in [1, 65535], got 0");
    assertThatThrownBy(() -> BackgroundAdmission.newBuilder().congestionThreshold(-1))
        .hasMessage("congestion-threshold must be in [0, 65535], got -1");
  }
}
