package io.mqroute.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FioTextReportTest {

  private static final long MS = 1_000_000L;

  static JobInfo info(String name, int group, int pid, int depth, boolean groupReporting) {
    return new JobInfo(
        name,
        group,
        pid,
        "",
        Map.of(),
        PercentileList.FIO_DEFAULT,
        depth,
        groupReporting,
        1024,
        null);
  }

  static String resource(String name) throws IOException {
    try (InputStream in = FioTextReportTest.class.getResourceAsStream("/fio/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void aWholeJobBlockMatchesFioLayoutExactly() {
    JobStats s = new JobStats(info("seq", 0, 1, 4, false));
    s.openWindow(0);
    for (int i = 0; i < 1000; i++) {
      s.record(Direction.READ, 4096, 2_000, 100_000, JobStats.OK);
    }
    s.closeWindow(1000 * MS);
    String expected =
        ""
            + "seq: (groupid=0, jobs=1): err= 0: pid=1\n"
            + "  read: IOPS=1000, BW=4000KiB/s (4096kB/s)(4000KiB/1000msec)\n"
            + "    slat (nsec): min=2000, max=2000, avg=2000.00, stdev= 0.00\n"
            + "    clat (nsec): min=100000, max=100000, avg=100000.00, stdev= 0.00\n"
            + "     lat (nsec): min=102000, max=102000, avg=102000.00, stdev= 0.00\n"
            + "    clat percentiles (usec):\n"
            + "     |  1.00th=[  100],  5.00th=[  100], 10.00th=[  100], 20.00th=[  100],\n"
            + "     | 30.00th=[  100], 40.00th=[  100], 50.00th=[  100], 60.00th=[  100],\n"
            + "     | 70.00th=[  100], 80.00th=[  100], 90.00th=[  100], 95.00th=[  100],\n"
            + "     | 99.00th=[  100], 99.50th=[  100], 99.90th=[  100], 99.95th=[  100],\n"
            + "     | 99.99th=[  100]\n"
            + "  lat (usec)   : 250=100.00%\n"
            + "  IO depths    : 1=0.0%, 2=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, >=64=0.0%\n"
            + "     submit    : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%\n"
            + "     complete  : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%\n"
            + "     issued rwts: total=1000,0,0,0 short=0,0,0,0 dropped=0,0,0,0\n"
            + "     latency   : target=0, window=0, percentile=100.00%, depth=4\n"
            + "\n"
            + "Run status group 0 (all jobs):\n"
            + "   READ: bw=4000KiB/s (4096kB/s), 4000KiB/s-4000KiB/s (4096kB/s-4096kB/s), io=4000KiB (4096kB),"
            + " run=1000-1000msec\n";
    assertThat(FioTextReport.render(List.of(s))).isEqualTo(expected);
  }

  @Test
  void percentileGridSwitchesToMsecAndRoundsUp() {
    JobStats s = new JobStats(info("ms", 0, 1, 1, false));
    s.openWindow(0);
    for (int i = 0; i < 1000; i++) {
      s.record(
          Direction.READ, 4096, JobStats.NO_SLAT, i < 990 ? 3_000_000 : 250_000_000, JobStats.OK);
    }
    s.closeWindow(1000 * MS);
    StringBuilder out = new StringBuilder();
    FioTextBlocks.percentileGrid(
        out, "clat", s.direction(Direction.READ).clat(), PercentileList.FIO_DEFAULT);
    assertThat(out.toString())
        .isEqualTo(
            ""
                + "    clat percentiles (msec):\n"
                + "     |  1.00th=[    4],  5.00th=[    4], 10.00th=[    4], 20.00th=[    4],\n"
                + "     | 30.00th=[    4], 40.00th=[    4], 50.00th=[    4], 60.00th=[    4],\n"
                + "     | 70.00th=[    4], 80.00th=[    4], 90.00th=[    4], 95.00th=[    4],\n"
                + "     | 99.00th=[    4], 99.50th=[  250], 99.90th=[  250], 99.95th=[  250],\n"
                + "     | 99.99th=[  250]\n");
  }

  @Test
  void percentileGridWidensForLargeNanosecondValuesAndHonoursPrecision() {
    JobStats s = new JobStats(info("ns", 0, 1, 1, false));
    s.openWindow(0);
    for (int i = 0; i < 1000; i++) {
      s.record(Direction.READ, 4096, JobStats.NO_SLAT, i < 990 ? 1_000 : 500_000, JobStats.OK);
    }
    s.closeWindow(1000 * MS);
    StringBuilder out = new StringBuilder();
    FioTextBlocks.percentileGrid(
        out, "clat", s.direction(Direction.READ).clat(), PercentileList.of(99.9, 50, 99));
    assertThat(out.toString())
        .isEqualTo(
            ""
                + "    clat percentiles (nsec):\n"
                + "     | 50.0th=[  1000], 99.0th=[  1000], 99.9th=[500000]\n");
  }

  /** Layout seen from fio 3.33 with {@code percentile_list=50.123456:60:70:80}: three per line. */
  @Test
  void sixDecimalPercentilesFitThreePerLine() {
    JobStats s = new JobStats(info("p6", 0, 1, 1, false));
    s.openWindow(0);
    for (int i = 0; i < 100; i++) {
      s.record(Direction.READ, 4096, JobStats.NO_SLAT, 40, JobStats.OK);
    }
    s.closeWindow(MS);
    StringBuilder out = new StringBuilder();
    FioTextBlocks.percentileGrid(
        out,
        "clat",
        s.direction(Direction.READ).clat(),
        new PercentileList(List.of(50.123456, 60.0, 70.0, 80.0), 6));
    assertThat(out.toString())
        .isEqualTo(
            ""
                + "    clat percentiles (nsec):\n"
                + "     | 50.123456th=[   40], 60.000000th=[   40], 70.000000th=[   40],\n"
                + "     | 80.000000th=[   40]\n");
  }

  @Test
  void latencyLinesSwitchUnitsOnlyWithSpread() {
    StringBuilder out = new StringBuilder();
    LatencyStat spread = new LatencyStat();
    for (long v : new long[] {8_500, 15_000, 1_562_400}) {
      spread.record(v);
    }
    FioTextBlocks.displayLat(out, "clat", spread);
    LatencyStat flat = new LatencyStat();
    flat.record(5_000_000);
    flat.record(5_000_000);
    FioTextBlocks.displayLat(out, " lat", flat);
    LatencyStat slow = new LatencyStat();
    slow.record(3_000_000);
    slow.record(150_000_000);
    FioTextBlocks.displayLat(out, "clat", slow);
    assertThat(out.toString())
        .isEqualTo(
            ""
                + "    clat (usec): min=8, max=1562, avg=528.63, stdev=895.27\n"
                + "     lat (nsec): min=5000.0k, max=5000.0k, avg=5000000.00, stdev= 0.00\n"
                + "    clat (msec): min=3, max=150, avg=76.50, stdev=103.94\n");
  }

  /**
   * Rebuilds the measurements behind fio-sample-normal-output.txt (the job counts, sizes, runtimes
   * and latency-bucket populations) and checks that every line whose figures are thereby determined
   * is byte-identical to fio's.
   */
  @Test
  void reproducesTheLinesOfTheRealFioSample() throws IOException {
    String sample = resource("fio-sample-normal-output.txt");
    JobStats readA = new JobStats(info("randread-4k", 0, 1, 1, true));
    JobStats readB = new JobStats(info("randread-4k", 0, 2, 1, true));
    JobStats write = new JobStats(info("seqwrite-64k", 1, 3, 1, true));
    for (JobStats s : List.of(readA, readB, write)) {
      s.openWindow(1_000 * MS); // ramp_time=1
    }
    // clat populations per fio latency bucket, 91463 reads in all (fio printed the percentages)
    long[][] readBuckets = {
      {1_744, 1},
      {1_800, 255},
      {3_000, 37_499},
      {5_000, 4_994},
      {15_000, 1_043},
      {30_000, 6_375},
      {80_000, 20_753},
      {150_000, 18_073},
      {300_000, 2_095},
      {600_000, 229},
      {800_000, 55},
      {1_500_000, 55},
      {3_000_000, 27},
      {5_000_000, 8},
      {6_883_312, 1}
    };
    int n = 0;
    for (long[] b : readBuckets) {
      for (int i = 0; i < b[1]; i++) {
        (n++ % 2 == 0 ? readA : readB)
            .record(Direction.READ, 4096, JobStats.NO_SLAT, b[0], JobStats.OK);
      }
    }
    long[][] writeBuckets = {
      {8_500, 4},
      {15_000, 276},
      {30_000, 205},
      {70_000, 47},
      {150_000, 59},
      {300_000, 7},
      {600_000, 1},
      {1_562_400, 1}
    };
    for (long[] b : writeBuckets) {
      for (int i = 0; i < b[1]; i++) {
        write.record(Direction.WRITE, 65_536, JobStats.NO_SLAT, b[0], JobStats.OK);
      }
    }
    for (JobStats s : List.of(readA, readB, write)) {
      s.closeWindow(4_001 * MS);
    }
    String ours = FioTextReport.render(List.of(readA, readB, write));

    List<String> identical =
        List.of(
            "  read: IOPS=30.5k, BW=119MiB/s (125MB/s)(357MiB/3001msec)",
            "  lat (usec)   : 2=0.28%, 4=41.00%, 10=5.46%, 20=1.14%, 50=6.97%",
            "  lat (usec)   : 100=22.69%, 250=19.76%, 500=2.29%, 750=0.25%, 1000=0.06%",
            "  lat (msec)   : 2=0.06%, 4=0.03%, 10=0.01%",
            "  IO depths    : 1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, >=64=0.0%",
            "     submit    : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%",
            "     complete  : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%",
            "     issued rwts: total=91463,0,0,0 short=0,0,0,0 dropped=0,0,0,0",
            "     latency   : target=0, window=0, percentile=100.00%, depth=1",
            "  write: IOPS=199, BW=12.5MiB/s (13.1MB/s)(37.5MiB/3001msec); 0 zone resets",
            "  lat (usec)   : 10=0.67%, 20=46.00%, 50=34.17%, 100=7.83%, 250=9.83%",
            "  lat (usec)   : 500=1.17%, 750=0.17%",
            "  lat (msec)   : 2=0.17%",
            "     issued rwts: total=0,600,0,0 short=0,0,0,0 dropped=0,0,0,0",
            "Run status group 0 (all jobs):",
            "   READ: bw=119MiB/s (125MB/s), 119MiB/s-119MiB/s (125MB/s-125MB/s), io=357MiB (375MB),"
                + " run=3001-3001msec",
            "Run status group 1 (all jobs):",
            "  WRITE: bw=12.5MiB/s (13.1MB/s), 12.5MiB/s-12.5MiB/s (13.1MB/s-13.1MB/s), io=37.5MiB (39.3MB),"
                + " run=3001-3001msec");
    List<String> sampleLines = sample.lines().toList();
    List<String> ourLines = ours.lines().toList();
    assertThat(sampleLines).as("test data: the lines are fio's").containsSubsequence(identical);
    assertThat(ourLines).containsSubsequence(identical);
    assertThat(ourLines)
        .contains(
            "randread-4k: (groupid=0, jobs=2): err= 0: pid=1",
            "seqwrite-64k: (groupid=1, jobs=1): err= 0: pid=3");
    assertThat(ours)
        .contains("    clat (nsec): min=1744, max=6883.3k, avg=")
        .contains("    clat (usec): min=8, max=1562, avg=44.54, stdev=82.18\n");
    assertThat(sample)
        .contains("    clat (nsec): min=1744, max=6883.3k, avg=")
        .contains("    clat (usec): min=8, max=1562, avg=");
  }

  @Test
  void headerCarriesErrorsDescriptionAndTimeLabel() {
    JobInfo info =
        new JobInfo(
            "e", 0, 7, "flaky device", Map.of(), PercentileList.FIO_DEFAULT, 1, false, 1024, null);
    JobStats s = new JobStats(info);
    s.openWindow(0);
    s.record(Direction.READ, 4096, JobStats.NO_SLAT, 1_000, -5);
    s.record(Direction.READ, 4096, JobStats.NO_SLAT, 1_000, JobStats.OK);
    s.closeWindow(10 * MS);
    String text = FioTextReport.render(List.of(s), "virtual 0.010s");
    assertThat(text)
        .startsWith(
            "e: (groupid=0, jobs=1): err= 5 (error=Input/output error): pid=7: virtual 0.010s\n"
                + "  Description  : [flaky device]\n");
    assertThat(text).contains("     errors    : total=1, first_error=5/<Input/output error>\n");
  }

  @Test
  void kbBase1000PrintsSiFirst() {
    JobInfo info =
        new JobInfo("si", 0, 1, "", Map.of(), PercentileList.FIO_DEFAULT, 1, false, 1000, null);
    JobStats s = new JobStats(info);
    s.openWindow(0);
    s.record(Direction.READ, 1_000_000, JobStats.NO_SLAT, 1_000, JobStats.OK);
    s.closeWindow(1000 * MS);
    assertThat(FioTextReport.render(List.of(s)))
        .contains("  read: IOPS=1, BW=1000kB/s (977KiB/s)(1000kB/1000msec)\n")
        .contains(
            "   READ: bw=1000kB/s (977KiB/s), 1000kB/s-1000kB/s (977KiB/s-977KiB/s), io=1000kB (977KiB)");
  }

  @Test
  void theGroupLineUsesTheLastMembersKbBaseLikeFio() {
    JobInfo iec =
        new JobInfo("iec", 0, 1, "", Map.of(), PercentileList.FIO_DEFAULT, 1, false, 1024, null);
    JobStats a = new JobStats(iec);
    JobStats b =
        new JobStats(
            new JobInfo(
                "si", 0, 2, "", Map.of(), PercentileList.FIO_DEFAULT, 1, false, 1000, null));
    for (JobStats s : List.of(a, b)) {
      s.openWindow(0);
      s.record(Direction.READ, 1_000_000, JobStats.NO_SLAT, 1_000, JobStats.OK);
      s.closeWindow(1000 * MS);
    }
    // fio's __show_run_stats assigns rs->kb_base for every member, so the last one's base (1000)
    // wins
    assertThat(GroupRunStats.of(List.of(a, b)).get(0).kbBase).isEqualTo(1000);
    assertThat(FioTextReport.render(List.of(a, b)))
        .contains(
            "   READ: bw=2000kB/s (1953KiB/s), 1000kB/s-1000kB/s (977KiB/s-977KiB/s), io=2000kB (1953KiB)");
  }

  @Test
  void withoutGroupReportingEveryCloneHasItsOwnBlockAndTheGroupLineSpansThem() {
    JobStats a = new JobStats(info("twin", 0, 1, 1, false));
    JobStats b = new JobStats(info("twin", 0, 2, 1, false));
    a.openWindow(0);
    b.openWindow(0);
    for (int i = 0; i < 100; i++) {
      a.record(Direction.READ, 4096, JobStats.NO_SLAT, 1_000, JobStats.OK);
      b.record(Direction.READ, 4096, JobStats.NO_SLAT, 1_000, JobStats.OK);
      b.record(Direction.READ, 4096, JobStats.NO_SLAT, 1_000, JobStats.OK);
    }
    a.closeWindow(1000 * MS);
    b.closeWindow(2000 * MS);
    String text = FioTextReport.render(List.of(a, b));
    assertThat(text)
        .contains(
            "twin: (groupid=0, jobs=1): err= 0: pid=1\n",
            "twin: (groupid=0, jobs=1): err= 0: pid=2\n");
    // per clone: 400 KiB/s and 400 KiB/s; aggregate = 1200 KiB over the longest run (2 s)
    assertThat(text)
        .contains(
            "   READ: bw=600KiB/s (614kB/s), 400KiB/s-400KiB/s (410kB/s-410kB/s),"
                + " io=1200KiB (1229kB), run=1000-2000msec\n");
  }

  @Test
  void aJobThatDidNothingPrintsNoBlockButItsGroupHeaderRemains() {
    JobStats idle = new JobStats(info("idle", 0, 1, 1, false));
    idle.openWindow(0);
    idle.closeWindow(MS);
    assertThat(FioTextReport.render(List.of(idle))).isEqualTo("\nRun status group 0 (all jobs):\n");
  }
}
