package io.mqroute.metrics;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Assumptions;

/** Measures the heap bytes the current thread allocates while running a piece of code. */
public final class AllocationProbe {

  private AllocationProbe() {}

  /**
   * Bytes allocated by this thread while {@code work} ran; skips the test where the JVM cannot
   * tell.
   */
  public static long allocatedBy(Runnable work) {
    java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
    Assumptions.assumeTrue(
        bean instanceof com.sun.management.ThreadMXBean,
        "this JVM does not report per-thread allocation");
    com.sun.management.ThreadMXBean sun = (com.sun.management.ThreadMXBean) bean;
    Assumptions.assumeTrue(
        sun.isThreadAllocatedMemorySupported() && sun.isThreadAllocatedMemoryEnabled(),
        "per-thread allocation accounting is off");
    long id = Thread.currentThread().getId();
    long before = sun.getThreadAllocatedBytes(id);
    work.run();
    return sun.getThreadAllocatedBytes(id) - before;
  }
}
