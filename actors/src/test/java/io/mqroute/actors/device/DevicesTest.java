package io.mqroute.actors.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.mqroute.protocol.Op;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DevicesTest {
  private static final Path HERE = Path.of(".");

  @Test
  void parsesEveryKindAndPrintsItsSpecBack() {
    for (String spec :
        new String[] {
          "fixed(40us)",
          "exponential(40us)",
          "lognormal(30us, 0.5)",
          "cpu(20us)",
          "null",
          "dpu(2500ns, 40us, 0.25)"
        }) {
      assertThat(Devices.parse(spec, HERE).spec()).isEqualTo(spec);
    }
    assertThat(Devices.parse("hdd(8500us, 7200, 180MB/s, 1ms)", HERE).spec())
        .isEqualTo("hdd(8500us, 7200, 180000000, 1ms)");
  }

  @Test
  void badSpecsNameWhatIsWrong() {
    assertThatThrownBy(() -> Devices.parse("exponentail(40us)", HERE))
        .hasMessageContaining("unknown device \"exponentail\"")
        .hasMessageContaining("exponential");
    assertThatThrownBy(() -> Devices.parse("fixed(40)", HERE))
        .hasMessageContaining("must be a duration like 40us, 1ms or 2s, got \"40\"");
    assertThatThrownBy(() -> Devices.parse("fixed(1us, 2us)", HERE))
        .hasMessageContaining("takes 1 argument");
    assertThatThrownBy(() -> Devices.parse("lognormal(30us, x)", HERE))
        .hasMessageContaining("bad number");
    assertThatThrownBy(() -> Devices.parse("exponential(0us)", HERE))
        .hasMessageContaining("must be > 0");
  }

  @Test
  void exponentialHasItsMean() {
    Device d = Devices.parse("exponential(40us)", HERE);
    SplittableRandom rnd = new SplittableRandom(1);
    double sum = 0;
    int n = 200_000;
    for (int i = 0; i < n; i++) {
      sum += d.serviceNanos(Op.READ, 0, 0, 4096, 0, rnd);
    }
    // standard error of the mean is 40us / sqrt(n) = 0.09us; 1% is > 4 sigma
    assertThat(sum / n).isCloseTo(40_000, within(400.0));
  }

  @Test
  void lognormalHasItsMedian() {
    Device d = Devices.parse("lognormal(30us, 0.5)", HERE);
    SplittableRandom rnd = new SplittableRandom(2);
    int below = 0;
    int n = 100_000;
    for (int i = 0; i < n; i++) {
      if (d.serviceNanos(Op.READ, 0, 0, 4096, 0, rnd) < 30_000) {
        below++;
      }
    }
    assertThat(below / (double) n).isCloseTo(0.5, within(0.01));
  }

  @Test
  void hddStreamsContiguousRequestsAndSeeksOtherwise() {
    HddDevice d = new HddDevice(8_000_000, 7200, 100_000_000, 1_000_000);
    SplittableRandom rnd = new SplittableRandom(3);
    long transfer4k = 4096L * 1_000_000_000L / 100_000_000; // 40.96 us
    long first = d.serviceNanos(Op.WRITE, 1, 0, 4096, 0, rnd);
    assertThat(first).isEqualTo(8_000_000 + 4_166_666 + transfer4k);
    long next = d.serviceNanos(Op.WRITE, 1, 4096, 4096, first, rnd);
    assertThat(next).isEqualTo(transfer4k);
    // out of order (the LIFO batch): a seek again
    long back = d.serviceNanos(Op.WRITE, 1, 0, 4096, first + next, rnd);
    assertThat(back).isEqualTo(first);
    // contiguous but too late for the merge window: seek
    long late = d.serviceNanos(Op.WRITE, 1, 4096, 4096, first + next + back + 2_000_000, rnd);
    assertThat(late).isEqualTo(first);
  }

  @Test
  void aDiskServesOneRequestAtATime() {
    HddDevice d = new HddDevice(8_000_000, 7200, 100_000_000, 1_000_000);
    assertThat(d.onePerMachine()).isTrue();
    SplittableRandom rnd = new SplittableRandom(1);
    long seekAndHalfTurn = 8_000_000 + 30_000_000_000L / 7200;
    long transfer4k = 4096L * 1_000_000_000L / 100_000_000;
    // two workers start random writes at the same instant: the second waits for the head
    long a = d.serviceNanos(Op.WRITE, 1, 0, 4096, 0, rnd);
    long b = d.serviceNanos(Op.WRITE, 2, 1 << 20, 4096, 0, rnd);
    assertThat(a).isEqualTo(seekAndHalfTurn + transfer4k);
    assertThat(b).isEqualTo(2 * (seekAndHalfTurn + transfer4k));
    // the request after them continues file 2 right as the head frees: it streams
    long c = d.serviceNanos(Op.WRITE, 2, (1 << 20) + 4096, 4096, b, rnd);
    assertThat(c).isEqualTo(transfer4k);
  }

  @Test
  void empiricalReadsNanosecondsAndRejectsGarbageWithTheLine(@TempDir Path dir) throws Exception {
    Path ok = dir.resolve("ok.csv");
    Files.writeString(ok, "# clat ns\n100\n200 # slow\n\n300\n");
    EmpiricalDevice d = (EmpiricalDevice) Devices.parse("empirical(ok.csv)", dir);
    assertThat(d.sampleCount()).isEqualTo(3);
    SplittableRandom rnd = new SplittableRandom(4);
    for (int i = 0; i < 100; i++) {
      assertThat(d.serviceNanos(Op.READ, 0, 0, 1, 0, rnd)).isIn(100L, 200L, 300L);
    }
    Path bad = dir.resolve("bad.csv");
    Files.writeString(bad, "100\n-5\n");
    assertThatThrownBy(() -> Devices.parse("empirical(bad.csv)", dir))
        .hasMessageEndingWith(
            "bad.csv:2: expected a non-negative number of nanoseconds, got \"-5\"");
  }

  @Test
  void empiricalReadsTheLatencyColumnOfAnFioLog(@TempDir Path dir) throws Exception {
    // fio's write_lat_log: time (ms), latency (ns), direction, block size, offset
    Path log = dir.resolve("clat.log");
    Files.writeString(
        log, "1, 40000, 0, 4096, 0\n2, 41000, 0, 4096, 8192\n3, 90000, 0, 4096, 4096\n");
    EmpiricalDevice d = (EmpiricalDevice) Devices.parse("empirical(clat.log)", dir);
    assertThat(d.sampleCount()).isEqualTo(3);
    SplittableRandom rnd = new SplittableRandom(4);
    for (int i = 0; i < 100; i++) {
      assertThat(d.serviceNanos(Op.READ, 0, 0, 1, 0, rnd)).isIn(40000L, 41000L, 90000L);
    }
    Path mixed = dir.resolve("mixed.log");
    Files.writeString(mixed, "1, 40000, 0, 4096\n41000\n");
    assertThatThrownBy(() -> Devices.parse("empirical(mixed.log)", dir))
        .hasMessageContaining("mixed.log:2: expected an fio log line");
  }

  @org.junit.jupiter.api.Test
  @org.junit.jupiter.api.Timeout(20)
  void anEmpiricalSampleFileMustBeARegularFile(@org.junit.jupiter.api.io.TempDir Path dir) {
    Assumptions.assumeTrue(Files.exists(Path.of("/dev/zero")));
    Assertions.assertThatThrownBy(() -> Devices.parse("empirical(/dev/zero)", dir))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("/dev/zero: not a regular file");
  }
}
