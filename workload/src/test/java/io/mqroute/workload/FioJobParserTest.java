package io.mqroute.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.mqroute.metrics.Direction;
import io.mqroute.metrics.JobInfo;
import io.mqroute.metrics.PercentileList;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FioJobParserTest {

  private static final long S = 1_000_000_000L;

  static String resource(String name) throws IOException {
    try (InputStream in = FioJobParserTest.class.getResourceAsStream("/fio/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** The job file behind fio-sample-normal-output.txt. */
  @Test
  void theSampleJobFileParsesToWhatFioRan() throws IOException {
    FioJobFile file = FioJobParser.parse("fio-sample-job.fio", resource("fio-sample-job.fio"));
    assertThat(file.jobs()).hasSize(2);
    assertThat(file.totalClones()).isEqualTo(3); // fio: "Starting 3 processes"
    assertThat(file.groupCount()).isEqualTo(2);
    assertThat(file.warnings()) // direct=0 runs as direct I/O, and says so
        .singleElement()
        .asString()
        .startsWith("fio-sample-job.fio:3: note: direct=0: buffered I/O runs as direct I/O");

    JobSpec read = file.jobs().get(0);
    assertThat(read.name()).isEqualTo("randread-4k");
    assertThat(read.groupId()).isZero();
    assertThat(read.stonewall()).isFalse();
    assertThat(read.rw()).isEqualTo(RwMode.RANDREAD);
    assertThat(read.blockSizeRead()).isEqualTo(4096);
    assertThat(read.iodepth()).isEqualTo(1);
    assertThat(read.numjobs()).isEqualTo(2);
    // inherited from [global]
    assertThat(read.ioengine()).isEqualTo(IoEngine.PSYNC);
    assertThat(read.direct()).isFalse();
    assertThat(read.size()).isEqualTo(16L << 20);
    assertThat(read.filename()).isEqualTo("/var/tmp/fiot2");
    assertThat(read.runtimeNs()).isEqualTo(3 * S);
    assertThat(read.timeBased()).isTrue();
    assertThat(read.rampTimeNs()).isEqualTo(1 * S);
    assertThat(read.groupReporting()).isTrue();
    assertThat(read.rateIopsRead()).isZero();
    assertThat(read.line()).isEqualTo(11);

    JobSpec write = file.jobs().get(1);
    assertThat(write.name()).isEqualTo("seqwrite-64k");
    assertThat(write.stonewall()).isTrue();
    assertThat(write.groupId()).isEqualTo(1);
    assertThat(write.rw()).isEqualTo(RwMode.WRITE);
    assertThat(write.blockSizeWrite()).isEqualTo(65536);
    assertThat(write.rateIopsWrite()).isEqualTo(200);
    assertThat(write.rateIopsRead()).isEqualTo(200);
    assertThat(write.rateProcess()).isEqualTo(RateProcess.LINEAR);
    assertThat(write.numjobs()).isEqualTo(1);
    assertThat(write.timeBased()).isTrue();
    assertThat(write.rampTimeNs()).isEqualTo(1 * S);

    // what fio prints as "global options" and "job options": every option, a bare flag as ""
    assertThat(file.globalOptions())
        .containsExactly(
            entry("ioengine", "psync"),
            entry("direct", "0"),
            entry("size", "16M"),
            entry("filename", "/var/tmp/fiot2"),
            entry("runtime", "3"),
            entry("time_based", ""),
            entry("ramp_time", "1"),
            entry("group_reporting", ""));
    assertThat(read.explicitOptions())
        .containsExactly(
            entry("rw", "randread"),
            entry("bs", "4k"),
            entry("iodepth", "1"),
            entry("numjobs", "2"));
    assertThat(write.explicitOptions())
        .containsExactly(
            entry("stonewall", ""),
            entry("rw", "write"),
            entry("bs", "64k"),
            entry("rate_iops", "200"));
  }

  @Test
  void derivedHelpers() {
    FioJobFile file =
        FioJobParser.parse(
            "d.fio",
            ""
                + "[global]\nsize=1m\n"
                + "[sync]\nrw=randread\niodepth=8\n"
                + "[async]\nioengine=io_uring\nrw=randrw\nrwmixread=70\niodepth=32\nbs=4k,64k\n"
                + "[seq]\nioengine=libaio\nrw=write\n");
    JobSpec sync = file.job("sync");
    assertThat(sync.isForeground()).isTrue();
    assertThat(sync.inFlight()).as("fio caps sync engines at 1").isEqualTo(1);
    assertThat(sync.iodepth()).isEqualTo(8);
    assertThat(sync.isRandom()).isTrue();
    assertThat(sync.readFraction()).isEqualTo(1.0);
    JobSpec async = file.job("async");
    assertThat(async.isForeground()).isFalse();
    assertThat(async.inFlight()).isEqualTo(32);
    assertThat(async.readFraction()).isEqualTo(0.7);
    assertThat(async.blockSize(Direction.READ)).isEqualTo(4096);
    assertThat(async.blockSize(Direction.WRITE)).isEqualTo(65536);
    JobSpec seq = file.job("seq");
    assertThat(seq.isRandom()).isFalse();
    assertThat(seq.readFraction()).isZero();
    assertThat(seq.inFlight()).isEqualTo(1);
    assertThat(file.warnings())
        .containsExactly(
            "d.fio:5: note: job \"sync\": iodepth=8 with synchronous ioengine psync: queue depth capped at 1,"
                + " as fio does");

    JobInfo info = async.jobInfo(7);
    assertThat(info.name()).isEqualTo("async");
    assertThat(info.pid()).isEqualTo(7);
    assertThat(info.iodepth()).isEqualTo(32);
    assertThat(info.options()).containsEntry("rwmixread", "70");
  }

  @Test
  void jobOptionsOverrideGlobalsAndLaterGlobalsApplyOnlyBelow() {
    FioJobFile file =
        FioJobParser.parse(
            "g.fio",
            ""
                + "[global]\nsize=1m\nbs=8k\nrw=read\n"
                + "[a]\n"
                + "[b]\nbs=16k\n"
                + "[global]\nrw=randwrite\nioengine=io_uring\n"
                + "[c]\n"
                + "[d]\nrw=read\n");
    assertThat(file.job("a").rw()).isEqualTo(RwMode.READ);
    assertThat(file.job("a").blockSizeRead()).isEqualTo(8192);
    assertThat(file.job("a").ioengine()).isEqualTo(IoEngine.PSYNC);
    assertThat(file.job("b").blockSizeRead()).isEqualTo(16384);
    assertThat(file.job("c").rw()).isEqualTo(RwMode.RANDWRITE);
    assertThat(file.job("c").blockSizeWrite())
        .as("the first [global] still applies")
        .isEqualTo(8192);
    assertThat(file.job("c").ioengine()).isEqualTo(IoEngine.IO_URING);
    assertThat(file.job("d").rw()).isEqualTo(RwMode.READ);
    assertThat(file.globalOptions())
        .containsExactly(
            entry("size", "1m"),
            entry("bs", "8k"),
            entry("rw", "randwrite"),
            entry("ioengine", "io_uring"));
    assertThat(file.job("a").explicitOptions()).isEmpty();
  }

  @Test
  void perDirectionValuesFollowFiosCommaRules() {
    FioJobFile file =
        FioJobParser.parse(
            "p.fio",
            ""
                + "[global]\nsize=1m\nrw=randrw\nbs=8k,32k\nrate_iops=500,100\n"
                + "[inherit]\n"
                + "[writeonly]\nbs=,64k\nrate_iops=,50\n"
                + "[readonly]\nbs=16k,\n"
                + "[three]\nbs=4k,64k,8k\n");
    assertThat(file.job("inherit").blockSizeRead()).isEqualTo(8192);
    assertThat(file.job("inherit").blockSizeWrite()).isEqualTo(32768);
    assertThat(file.job("inherit").rateIops(Direction.READ)).isEqualTo(500);
    assertThat(file.job("inherit").rateIops(Direction.WRITE)).isEqualTo(100);
    // an empty half keeps the value set above it
    assertThat(file.job("writeonly").blockSizeRead()).isEqualTo(8192);
    assertThat(file.job("writeonly").blockSizeWrite()).isEqualTo(65536);
    assertThat(file.job("writeonly").rateIopsRead()).isEqualTo(500);
    assertThat(file.job("writeonly").rateIopsWrite()).isEqualTo(50);
    assertThat(file.job("readonly").blockSizeRead()).isEqualTo(16384);
    assertThat(file.job("readonly").blockSizeWrite()).isEqualTo(32768);
    assertThat(file.job("three").blockSizeWrite()).as("the trim part is ignored").isEqualTo(65536);
  }

  @Test
  void withoutACommaPerDirectionValuesSplitOnColonOrDashLikeFio() {
    FioJobFile file =
        FioJobParser.parse(
            "p.fio",
            ""
                + "[global]\nsize=1m\nrw=randrw\n"
                + "[colon]\nbs=4k:64k\nrate_iops=500:100\nrate=1m:2m\n"
                + "[dash]\nbs=8k-16k\n"
                + "[keep]\nbs=8k,32k\nbs=:128k\n");
    assertThat(file.job("colon").blockSizeRead()).isEqualTo(4096);
    assertThat(file.job("colon").blockSizeWrite()).isEqualTo(65536);
    assertThat(file.job("colon").rateIopsRead()).as("1m/s of 4k reads").isEqualTo(256);
    assertThat(file.job("colon").rateIopsWrite()).as("2m/s of 64k writes").isEqualTo(32);
    assertThat(file.job("dash").blockSizeRead()).isEqualTo(8192);
    assertThat(file.job("dash").blockSizeWrite()).isEqualTo(16384);
    assertThat(file.job("keep").blockSizeRead())
        .as("an empty half keeps the value, as with a comma")
        .isEqualTo(8192);
    assertThat(file.job("keep").blockSizeWrite()).isEqualTo(131072);
    assertThat(
            FioJobParser.parse("p.fio", "[j]\nsize=1m\nrate_iops=500:100\n")
                .jobs()
                .get(0)
                .rateIopsWrite())
        .isEqualTo(100);
  }

  @Test
  void timeoutIsFiosAliasOfRuntime() {
    JobSpec job =
        FioJobParser.parse("t.fio", "[j]\nsize=1m\ntimeout=2m\ntime_based\n").jobs().get(0);
    assertThat(job.runtimeNs()).isEqualTo(120 * S);
    assertThat(job.explicitOptions()).containsEntry("runtime", "2m");
  }

  @Test
  void sectionsNamedGlobalSomethingAreGlobalLikeFio() {
    FioJobFile file =
        FioJobParser.parse(
            "g.fio",
            ""
                + "[global]\nsize=1m\n"
                + "[global-extra]\nbs=8k\ntime_based=1\nruntime=1\n"
                + "[job]\n");
    assertThat(file.jobs()).extracting(JobSpec::name).containsExactly("job");
    assertThat(file.job("job").blockSizeRead()).isEqualTo(8192);
    assertThat(file.job("job").timeBased()).isTrue();
    assertThat(file.globalOptions())
        .containsExactly(
            entry("size", "1m"),
            entry("bs", "8k"),
            entry("time_based", "1"),
            entry("runtime", "1"));
    assertThat(FioJobParser.parseCommandLine("--name=globals", "--size=1m", "--name=j").jobs())
        .extracting(JobSpec::name)
        .containsExactly("j");
  }

  @Test
  void aGlobalNameIsAcceptedButNamesNoJobLikeFio() {
    FioJobFile file =
        FioJobParser.parse(
            "n.fio",
            "" + "[global]\nname=shared\nsize=1m\n" + "[first]\n" + "[second]\nname=own\n");
    assertThat(file.jobs()).extracting(JobSpec::name).containsExactly("first", "own");
    assertThat(file.globalOptions()).containsEntry("name", "shared");
    assertThat(file.job("first").explicitOptions()).doesNotContainKey("name");
  }

  @Test
  void anOverrideWinsOverTheJobsOwnRwmix() {
    String text = "[global]\nsize=1m\nrw=randrw\n[j]\nrwmixwrite=30\n";
    assertThat(FioJobParser.parse("o.fio", text).jobs().get(0).rwmixRead()).isEqualTo(70);
    assertThat(
            FioJobParser.parse("o.fio", text, Map.of("rwmixread", "90")).jobs().get(0).rwmixRead())
        .isEqualTo(90);
    assertThat(
            FioJobParser.parse(
                    "o.fio", "[j]\nsize=1m\nrw=randrw\nrwmixread=90\n", Map.of("rwmixwrite", "40"))
                .jobs()
                .get(0)
                .rwmixRead())
        .isEqualTo(60);
  }

  @Test
  void rateInBytesBecomesIopsPerDirectionAndWinsOverRateIops() {
    FioJobFile file =
        FioJobParser.parse(
            "r.fio",
            ""
                + "[global]\nsize=1m\nrw=randrw\nbs=4k,64k\n"
                + "[both]\nrate=1m\n"
                + "[split]\nrate=1m,256k\n"
                + "[mixed]\nrate_iops=500,100\nrate=,128k\n"
                + "[si]\nkb_base=1000\nbs=4k\nrate=1m\n");
    // fio's __setup_rate: rate_bps = rate, the I/O gap = bs / rate_bps
    assertThat(file.job("both").rateIops(Direction.READ)).isEqualTo(256.0);
    assertThat(file.job("both").rateIops(Direction.WRITE)).isEqualTo(16.0);
    assertThat(file.job("split").rateIops(Direction.WRITE)).isEqualTo(4.0);
    assertThat(file.job("mixed").rateIops(Direction.READ)).isEqualTo(500.0);
    assertThat(file.job("mixed").rateIops(Direction.WRITE)).as("rate= wins").isEqualTo(2.0);
    assertThat(file.job("si").rateIops(Direction.READ)).isEqualTo(250.0);
  }

  @Test
  void stonewallGroupsFollowFio() {
    FioJobFile file =
        FioJobParser.parse(
            "s.fio",
            ""
                + "[global]\nsize=1m\n"
                + "[first]\nstonewall\n" // a stonewall on the first job opens no new group
                + "[second]\n"
                + "[third]\nwait_for_previous\n"
                + "[fourth]\nstonewall=0\n");
    assertThat(file.jobs()).extracting(JobSpec::groupId).containsExactly(0, 0, 1, 1);
    FioJobFile everyJob =
        FioJobParser.parse("s.fio", "[global]\nsize=1m\nstonewall\n[a]\n[b]\n[c]\n");
    assertThat(everyJob.jobs()).extracting(JobSpec::groupId).containsExactly(0, 1, 2);
  }

  @Test
  void commentsWhitespaceAndFlagsAreHandledLikeFio() {
    FioJobFile file =
        FioJobParser.parse(
            "c.fio",
            ""
                + "; leading comment\n"
                + "# another\n"
                + "  [ job ]  ; trailing comment on a header\n"
                + "\tsize = 1m   # trailing comment\n"
                + "bs=16k;no space needed either\n"
                + "description=a#b\n"
                + "filename=/tmp/x;y\n"
                + "time_based=1\n"
                + "runtime = 2s\n"
                + "thread\n"
                + "direct=1\r\n"
                + "\n");
    JobSpec job = file.jobs().get(0);
    assertThat(job.name()).isEqualTo("job");
    assertThat(job.size()).isEqualTo(1 << 20);
    assertThat(job.blockSizeRead()).isEqualTo(16384);
    assertThat(job.description()).isEqualTo("a");
    assertThat(job.filename()).isEqualTo("/tmp/x");
    assertThat(job.timeBased()).isTrue();
    assertThat(job.thread()).isTrue();
    assertThat(job.direct()).isTrue();
    assertThat(job.runtimeNs()).isEqualTo(2 * S);
    assertThat(job.explicitOptions())
        .containsExactly(
            entry("size", "1m"),
            entry("bs", "16k"),
            entry("description", "a"),
            entry("filename", "/tmp/x"),
            entry("time_based", "1"),
            entry("runtime", "2s"),
            entry("thread", ""),
            entry("direct", "1"));
  }

  @Test
  void everySupportedOptionIsResolved() {
    FioJobFile file =
        FioJobParser.parse(
            "all.fio",
            ""
                + "[all]\n"
                + "name=renamed\ndescription=every option\nreadwrite=randrw\nrwmixread=30\nrwmixwrite=60\n"
                + "blocksize=2k\niodepth=16\nnumjobs=4\nsize=8m\nfilesize=16m\noffset=4m\nruntime=500ms\n"
                + "time_based\nramp_time=100ms\nstartdelay=250us\nrate_iops=1000\nrate_process=poisson\n"
                + "cpus_allowed=0-3,8,10-11\ncpus_allowed_policy=split\nioengine=libaio\ndirect=1\n"
                + "group_reporting\nthread\nfilename=/dev/null\ndirectory=/tmp\npercentile_list=50:99:99.95\n"
                + "random_distribution=random\nkb_base=1024\nloops=3\nnrfiles=2\nfsync=32\n");
    JobSpec j = file.jobs().get(0);
    assertThat(j.name()).isEqualTo("renamed");
    assertThat(j.description()).isEqualTo("every option");
    assertThat(j.rw()).isEqualTo(RwMode.RANDRW);
    assertThat(j.rwmixRead()).as("rwmixwrite came last").isEqualTo(40);
    assertThat(j.blockSizeRead()).isEqualTo(2048);
    assertThat(j.iodepth()).isEqualTo(16);
    assertThat(j.numjobs()).isEqualTo(4);
    assertThat(j.size()).isEqualTo(8L << 20);
    assertThat(j.fileSize()).isEqualTo(16L << 20);
    assertThat(j.offset()).isEqualTo(4L << 20);
    // nrfiles=2: two files of filesize - offset = 12m, back to back; size=8m is the total done
    assertThat(j.ioRegionBytes()).isEqualTo(24L << 20);
    assertThat(j.pattern().ioLimitBytes()).isEqualTo(8L << 20);
    assertThat(j.runtimeNs()).isEqualTo(500_000_000L);
    assertThat(j.rampTimeNs()).isEqualTo(100_000_000L);
    assertThat(j.startDelayNs()).isEqualTo(250_000L);
    assertThat(j.rateIopsRead()).isEqualTo(1000);
    assertThat(j.rateIopsWrite()).isEqualTo(1000);
    assertThat(j.rateProcess()).isEqualTo(RateProcess.POISSON);
    assertThat(j.cpusAllowed().cpus()).containsExactly(0, 1, 2, 3, 8, 10, 11);
    assertThat(j.cpusAllowed().cpuForClone(5)).isEqualTo(10);
    assertThat(j.cpusAllowed().cpuForClone(7)).isEqualTo(0);
    assertThat(j.cpusAllowedPolicy()).isEqualTo(CpusAllowedPolicy.SPLIT);
    assertThat(j.ioengine()).isEqualTo(IoEngine.LIBAIO);
    assertThat(j.direct()).isTrue();
    assertThat(j.groupReporting()).isTrue();
    assertThat(j.thread()).isTrue();
    assertThat(j.filename()).isEqualTo("/dev/null");
    assertThat(j.directory()).isEqualTo("/tmp");
    assertThat(j.percentiles()).isEqualTo(new PercentileList(List.of(50.0, 99.0, 99.95), 2));
    assertThat(j.loops()).isEqualTo(3);
    assertThat(j.nrfiles()).isEqualTo(2);
    assertThat(j.fsyncEvery()).isEqualTo(32);
    assertThat(j.explicitOptions())
        .containsKeys("name", "rw", "bs")
        .containsEntry("time_based", "")
        .containsEntry("thread", "")
        .containsEntry("group_reporting", "");
  }

  @Test
  void defaultsAreFios() {
    JobSpec j = FioJobParser.parse("min.fio", "[min]\nsize=4k\n").jobs().get(0);
    assertThat(j.rw()).isEqualTo(RwMode.READ);
    assertThat(j.blockSizeRead()).isEqualTo(4096);
    assertThat(j.blockSizeWrite()).isEqualTo(4096);
    assertThat(j.ioengine()).isEqualTo(IoEngine.PSYNC);
    assertThat(j.iodepth()).isEqualTo(1);
    assertThat(j.numjobs()).isEqualTo(1);
    assertThat(j.rwmixRead()).isEqualTo(50);
    assertThat(j.runtimeNs()).isZero();
    assertThat(j.cpusAllowed()).isEqualTo(CpuList.ALL);
    assertThat(j.cpusAllowed().allows(63)).isTrue();
    assertThat(j.cpusAllowedPolicy()).isEqualTo(CpusAllowedPolicy.SHARED);
    assertThat(j.percentiles()).isEqualTo(PercentileList.FIO_DEFAULT);
    assertThat(j.kbBase()).isEqualTo(1024);
    assertThat(j.loops()).isEqualTo(1);
    assertThat(j.fileSize()).isZero();
    assertThat(j.effectiveFileSize()).isEqualTo(4096);
  }

  @Test
  void filesizeAloneSetsTheSize() {
    JobSpec j = FioJobParser.parse("f.fio", "[f]\nfilesize=1m\noffset=256k\n").jobs().get(0);
    assertThat(j.size()).isEqualTo(768 * 1024);
    assertThat(j.ioRegionBytes()).isEqualTo(768 * 1024);
  }

  @Test
  void parsesAFileFromDisk(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("disk.fio");
    Files.writeString(file, "[d]\nsize=1m\nbs=4q\n");
    Assertions.assertThatThrownBy(() -> FioJobParser.parse(file))
        .isInstanceOf(FioParseException.class)
        .hasMessage(file + ":3: bad value \"4q\" for bs (expected a size like 4k, 64KiB)");
    Files.writeString(file, "[d]\nsize=1m\n");
    assertThat(FioJobParser.parse(file).source()).isEqualTo(file.toString());
  }
}
