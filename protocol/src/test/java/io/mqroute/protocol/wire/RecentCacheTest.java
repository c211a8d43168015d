package io.mqroute.protocol.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RecentCacheTest {
  @Test
  void aHeldKeyIsNotDerivedAgainAndTheCacheNeverHoldsMoreThanItsBound() {
    RecentCache<Integer, String> c = new RecentCache<>(4);
    AtomicInteger derived = new AtomicInteger();
    for (int i = 0; i < 3; i++) {
      assertThat(c.get(7, k -> "v" + k + "/" + derived.incrementAndGet())).isEqualTo("v7/1");
    }
    for (int k = 0; k < 100; k++) {
      assertThat(c.get(k, String::valueOf)).isEqualTo(String.valueOf(k));
      assertThat(c.size()).isLessThanOrEqualTo(4);
    }
  }

  @Test
  void whatDeriveThrowsIsThrownAndNothingIsHeld() {
    RecentCache<String, String> c = new RecentCache<>(4);
    assertThatThrownBy(
            () ->
                c.get(
                    "x",
                    k -> {
                      throw new IllegalArgumentException("bad " + k);
                    }))
        .hasMessage("bad x");
    assertThat(c.size()).isZero();
    assertThat(c.get("x", k -> "ok")).isEqualTo("ok");
  }
}
