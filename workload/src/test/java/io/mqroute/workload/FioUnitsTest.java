package io.mqroute.workload;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * fio's size and time units (HOWTO "Parameter types"; the sizes were also checked against fio
 * 3.33).
 */
class FioUnitsTest {

  @ParameterizedTest(name = "size={0} with kb_base={1} is {2} bytes")
  @CsvSource({
    "4096, 1024, 4096",
    "4096b, 1024, 4096",
    "4096B, 1024, 4096",
    "0x1000, 1024, 4096",
    "4k, 1024, 4096",
    "4K, 1024, 4096",
    "4kb, 1024, 4096",
    "4kB, 1024, 4096",
    "4KB, 1024, 4096",
    "4KiB, 1024, 4000", // compatibility mode: IEC names are powers of 10 (fio 3.33 agrees)
    "4kib, 1024, 4000",
    "1m, 1024, 1048576",
    "1MiB, 1024, 1000000",
    "1g, 1024, 1073741824",
    "16M, 1024, 16777216",
    "1t, 1024, 1099511627776",
    "1p, 1024, 1125899906842624",
    "4k, 1000, 4000", // kb_base=1000: SI names are powers of 10 ...
    "4KB, 1000, 4000",
    "4KiB, 1000, 4096", // ... and IEC names powers of 2
    "1m, 1000, 1000000",
    "1MiB, 1000, 1048576",
    "1g, 1000, 1000000000",
    "1GiB, 1000, 1073741824",
  })
  void sizes(String text, int kbBase, long bytes) {
    JobSpec job =
        FioJobParser.parse("u.fio", "[u]\nkb_base=" + kbBase + "\nbs=512\nsize=" + text + "\n")
            .jobs()
            .get(0);
    assertThat(job.size()).isEqualTo(bytes);
  }

  @ParameterizedTest(name = "runtime={0} is {1} ns")
  @CsvSource({
    "30, 30000000000",
    "30s, 30000000000",
    "10S, 10000000000",
    "500ms, 500000000",
    "500msec, 500000000",
    "5MS, 5000000",
    "250us, 250000",
    "250usec, 250000",
    "2m, 120000000000",
    "1h, 3600000000000",
    "1d, 86400000000000",
    "0, 0",
  })
  void times(String text, long ns) {
    JobSpec job =
        FioJobParser.parse(
                "t.fio",
                "[t]\nsize=1m\nruntime="
                    + text
                    + "\nramp_time="
                    + text
                    + "\nstartdelay="
                    + text
                    + "\n")
            .jobs()
            .get(0);
    assertThat(job.runtimeNs()).isEqualTo(ns);
    assertThat(job.rampTimeNs()).isEqualTo(ns);
    assertThat(job.startDelayNs()).isEqualTo(ns);
  }

  @ParameterizedTest(name = "percentile_list={0} has precision {1}")
  @CsvSource({
    "50:99:99.9, 1",
    "99.95:50, 2",
    "1:2:3, 0",
    "50.123456, 6",
    "99.90, 2",
  })
  void percentileListsKeepFiosPrecision(String text, int precision) {
    JobSpec job =
        FioJobParser.parse("p.fio", "[p]\nsize=1m\npercentile_list=" + text + "\n").jobs().get(0);
    assertThat(job.percentiles().precision()).isEqualTo(precision);
    assertThat(job.percentiles().values()).isSorted();
  }
}
