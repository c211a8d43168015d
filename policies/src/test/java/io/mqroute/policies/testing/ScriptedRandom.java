package io.mqroute.policies.testing;

import io.mqroute.policies.random.RandomSource;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link RandomSource} that returns a fixed script of {@code nextInt} draws, so a test can state
 * "the first draw hits index 0, the second index 2" exactly as the kernel pseudo-code would draw.
 * It fails loudly on a draw outside the requested bound, on an unscripted draw, and (via {@link
 * #assertExhausted()}) on a scripted draw the policy never made.
 */
public final class ScriptedRandom implements RandomSource {

  private final int[] draws;
  private final List<Integer> bounds = new ArrayList<>();
  private int next;

  public ScriptedRandom(int... draws) {
    this.draws = draws.clone();
  }

  @Override
  public int nextInt(int bound) {
    if (next >= draws.length) {
      throw new AssertionError(
          "unscripted draw #"
              + (next + 1)
              + " with bound "
              + bound
              + " (script had "
              + draws.length
              + ")");
    }
    int d = draws[next++];
    if (d < 0 || d >= bound) {
      throw new AssertionError("scripted draw " + d + " is not in [0, " + bound + ")");
    }
    bounds.add(bound);
    return d;
  }

  /** The bounds of the draws made so far, in order. */
  public List<Integer> bounds() {
    return bounds;
  }

  public int used() {
    return next;
  }

  public void assertExhausted() {
    if (next != draws.length) {
      throw new AssertionError(
          "only " + next + " of " + draws.length + " scripted draws were used");
    }
  }

  @Override
  public long nextLong() {
    throw new UnsupportedOperationException("scripted source only scripts nextInt");
  }

  @Override
  public double nextDouble() {
    throw new UnsupportedOperationException("scripted source only scripts nextInt");
  }

  @Override
  public RandomSource split(String name) {
    throw new UnsupportedOperationException("scripted source cannot split");
  }
}
