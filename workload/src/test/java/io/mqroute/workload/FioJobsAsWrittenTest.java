package io.mqroute.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigFactory;
import io.mqroute.actors.machine.IoCalls;
import io.mqroute.actors.machine.IoPattern;
import io.mqroute.actors.machine.JobControl;
import io.mqroute.actors.machine.JobPlan;
import io.mqroute.actors.machine.MachineSpec;
import io.mqroute.actors.machine.MachineSpecParser;
import io.mqroute.actors.machine.OffsetDistribution;
import io.mqroute.actors.machine.SteadyState;
import io.mqroute.config.StrictConfig;
import io.mqroute.policies.topology.CpuTopology;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Options fio's own example job files use, as the model reads them. */
class FioJobsAsWrittenTest {

  private static final long TIB = 1L << 40;

  private static JobSpec job(String text) {
    return FioJobParser.parse("t.fio", text, Map.of(), TIB).jobs().get(0);
  }

  private static FioJobFile file(String text) {
    return FioJobParser.parse("t.fio", text, Map.of(), TIB);
  }

  @Test
  void withoutSizeAJobUsesTheWholeDevice() {
    assertThat(job("[j]\nrw=randread\n").size()).isEqualTo(TIB);
    assertThat(job("[j]\noffset=1g\n").size()).isEqualTo(TIB - (1L << 30));
    assertThat(job("[j]\nsize=25%\n").size()).isEqualTo(TIB / 4);
    assertThatThrownBy(() -> FioJobParser.parse("t.fio", "[j]\nrw=read\n"))
        .hasMessage("t.fio:1: job \"j\" needs size= (or filesize=)");
  }

  @Test
  void engineFamilies() {
    assertThat(job("[j]\nioengine=io_uring_cmd\n").ioengine().family())
        .isEqualTo(IoEngine.Family.ASYNC);
    assertThat(job("[j]\nioengine=libpmem\n").ioengine().synchronous()).isTrue();
    assertThat(job("[j]\nioengine=cpp_null\n").ioengine().family()).isEqualTo(IoEngine.Family.NULL);
    assertThatThrownBy(() -> job("[j]\nioengine=cpuio\n"))
        .hasMessage(
            "t.fio:2: ioengine=cpuio is not supported: fio's cpuio engine burns CPU and does no I/O");
    assertThatThrownBy(() -> job("[j]\nioengine=nosuch\n"))
        .hasMessageContaining("bad value \"nosuch\" for ioengine");
  }

  @Test
  void blockSizeSplitsAndRanges() {
    JobSpec split = job("[j]\nrw=randrw\nbssplit=4k/10:64k/50:32k\n");
    assertThat(split.pattern().readSizes().min()).isEqualTo(4096);
    assertThat(split.pattern().readSizes().max()).isEqualTo(65536);
    assertThat(split.blockSizeRead()).isEqualTo(65536);
    JobSpec range = job("[j]\nrw=randwrite\nbsrange=1k-16k\n");
    assertThat(range.pattern().writeSizes().min()).isEqualTo(1024);
    assertThat(range.pattern().writeSizes().max()).isEqualTo(16384);
    JobSpec alias = job("[j]\nblocksize_range=1k:4k,2k-8k\n");
    assertThat(alias.pattern().writeSizes().max()).isEqualTo(8192);
    assertThat(job("[j]\nbs=8k\n").pattern().readSizes()).isNull(); // one size: the plain plan
  }

  @Test
  void offsetModifiersAndDistributions() {
    assertThat(job("[j]\nrw=randread:8\n").pattern().iosPerRandomOffset()).isEqualTo(8);
    assertThat(job("[j]\nrw=read:4k\n").pattern().sequentialSkip()).isEqualTo(4096);
    assertThat(job("[j]\nrw=randread\nrandom_distribution=zipf:1.2\n").pattern().distribution())
        .isEqualTo(OffsetDistribution.zipf(1.2));
    assertThat(
            job("[j]\nrw=randread\nrandom_distribution=zoned:60/10:30/20:10/70\n")
                .pattern()
                .distribution()
                .kind())
        .isEqualTo(OffsetDistribution.Kind.ZONED);
    assertThatThrownBy(() -> job("[j]\nrandom_distribution=zoned:60/10:30/20\n"))
        .hasMessageContaining("add up to 100");
    assertThatThrownBy(() -> job("[j]\nrw=randtrim\n"))
        .hasMessageContaining(
            "rw=randtrim is not supported: fio trims a file with ioctl(BLKDISCARD)");
  }

  @Test
  void enginesWhoseIoIsAnotherSystemCallSendItsRequests() {
    JobSpec falloc = job("[j]\nioengine=falloc\nrw=randtrim\nsize=1m\n");
    assertThat(falloc.ioengine().synchronous()).isTrue();
    assertThat(falloc.ioengine().calls()).isEqualTo(IoCalls.FALLOCATE);
    assertThat(falloc.rw().trims()).isTrue();
    assertThat(job("[j]\nioengine=ftruncate\nrw=write\n").ioengine().calls())
        .isEqualTo(IoCalls.FTRUNCATE);
    assertThat(job("[j]\nioengine=psync\n").ioengine().calls()).isEqualTo(IoCalls.DATA);
    Map<String, IoCalls> perFile =
        Map.of(
            "filecreate", IoCalls.FILE_CREATE,
            "filestat", IoCalls.FILE_STAT,
            "filedelete", IoCalls.FILE_DELETE,
            "dircreate", IoCalls.DIR_CREATE,
            "dirstat", IoCalls.DIR_STAT,
            "dirdelete", IoCalls.DIR_DELETE);
    perFile.forEach(
        (engine, calls) -> {
          JobSpec j = job("[j]\nioengine=" + engine + "\nnrfiles=200\nfilesize=4k\n");
          assertThat(j.ioengine().calls()).as(engine).isEqualTo(calls);
          assertThat(j.ioengine().synchronous()).as(engine).isTrue();
          assertThat(j.pattern().files()).isEqualTo(200);
          assertThat(j.pattern().fileBytes()).isEqualTo(4096);
          assertThat(j.size()).as("fio: every file's io_size").isEqualTo(200 * 4096);
        });
    JobPlan plan =
        FioWorkload.parse("[j]\nioengine=falloc\nrw=trim\nsize=1m\n", "t.fio")
            .plans(CpuTopology.uniform(1, 1))
            .get(0);
    assertThat(plan.calls()).isEqualTo(IoCalls.FALLOCATE);
    assertThat(plan.trims()).isTrue();
    assertThat(plan.readFraction()).isZero();
  }

  @Test
  void withoutSizeAJobDoesEveryFile() {
    JobSpec j = job("[j]\nnrfiles=4\nfilesize=16k\n");
    assertThat(j.size()).isEqualTo(4 * 16384);
    assertThat(j.ioRegionBytes()).isEqualTo(4 * 16384);
    assertThat(job("[j]\nnrfiles=4\nfilesize=16k\nsize=32k\n").pattern().ioLimitBytes())
        .as("size= below the files: fio stops after it")
        .isEqualTo(32768);
  }

  @Test
  void whatTheCallEnginesCannotDoIsRefusedWithItsLine() {
    assertThatThrownBy(() -> job("[j]\nioengine=ftruncate\nrw=randread\n"))
        .hasMessage(
            "t.fio:3: job \"j\": ioengine=ftruncate with rw=randread is not supported: fio's"
                + " ftruncate engine truncates on writes and fails every read with EINVAL");
    assertThatThrownBy(() -> job("[j]\nioengine=filestat\nrw=randrw\nnrfiles=2\nfilesize=4k\n"))
        .hasMessageStartingWith("t.fio:3: job \"j\": ioengine=filestat with rw=randrw is not");
    assertThatThrownBy(
            () -> job("[j]\nioengine=filecreate\nbssplit=4k/50:8k/50\nnrfiles=2\nfilesize=8k\n"))
        .hasMessageContaining("with several block sizes is not supported");
    assertThatThrownBy(() -> job("[j]\nioengine=falloc\nrw=write\nsize=1m\nverify=md5\n"))
        .hasMessageContaining("t.fio:5: job \"j\": ioengine=falloc with verify= is not supported");
    assertThatThrownBy(() -> job("[j]\nioengine=falloc\nzonemode=zbd\nsize=1g\n"))
        .hasMessageContaining("with zones is not supported");
    assertThatThrownBy(
            () -> job("[j]\nioengine=filestat\nstat_type=statx\nnrfiles=2\nfilesize=4k\n"))
        .hasMessageStartingWith("t.fio:3: stat_type=statx is not supported: fio first resolves");
    assertThat(job("[j]\nioengine=filestat\nstat_type=lstat\n").ioengine().calls())
        .isEqualTo(IoCalls.FILE_STAT);
    assertThatThrownBy(() -> job("[j]\nioengine=dirstat\nstat_type=fstat\n"))
        .hasMessageContaining("bad value \"fstat\" for stat_type (expected stat, lstat or statx)");
  }

  @Test
  void aDeviceThatModelsDataOnlyRefusesTheCallEngines() {
    MachineSpec hdd =
        MachineSpecParser.parse(
            StrictConfig.of(
                ConfigFactory.parseString("device = \"hdd(8.5ms, 7200, 180MB/s, 1ms)\""),
                "",
                MachineSpecParser.KEYS),
            Path.of("."));
    FioWorkload stat =
        FioWorkload.parse("[j]\nioengine=filestat\nnrfiles=2\nfilesize=4k\n", "t.fio");
    assertThatThrownBy(() -> stat.plans(hdd))
        .hasMessage(
            "t.fio:1: job j: ioengine=filestat sends FUSE GETATTR requests, which device"
                + " hdd(8.5ms, 7200, 180MB/s, 1ms) does not model (it serves reads and writes);"
                + " use a latency device");
    assertThat(FioWorkload.parse("[j]\nrw=randread\nsize=1g\n", "t.fio").plans(hdd)).hasSize(1);
  }

  @Test
  void limitsAndRates() {
    JobSpec j = job("[j]\nsize=1g\nio_size=4g\nnumber_ios=100\nratemin=1m\nratecycle=500\n");
    assertThat(j.pattern().ioLimitBytes()).isEqualTo(4L << 30);
    assertThat(j.pattern().maxIos()).isEqualTo(100);
    assertThat(j.minRateRead()).isEqualTo(1 << 20);
    assertThat(j.rateCycleNs()).isEqualTo(500_000_000L);
    assertThat(job("[j]\nnumjobs=4\noffset_increment=10g\n").offsetIncrement())
        .isEqualTo(10L << 30);
  }

  @Test
  void bufferedIoRunsAsDirectWithANote() {
    FioJobFile f = file("[j]\ndirect=0\n");
    assertThat(f.jobs().get(0).buffered()).isTrue();
    assertThat(f.warnings()).anyMatch(w -> w.contains("FOPEN_DIRECT_IO"));
    assertThat(file("[j]\nbuffered=0\n").jobs().get(0).buffered()).isFalse();
  }

  @Test
  void recordedOptionsRunWithANoteAndRefusedOnesSayWhy() {
    FioJobFile f = file("[j]\nnorandommap\ngtod_reduce=1\nclat_percentiles=1\nsqthread_poll=1\n");
    assertThat(f.warnings())
        .anyMatch(w -> w.startsWith("t.fio:2: note: norandommap has no effect in the model"))
        .anyMatch(w -> w.contains("gtod_reduce=1 has no effect"))
        .anyMatch(
            w -> w.contains("sqthread_poll=1 has no effect in the model: it is an option of"));
    assertThatThrownBy(() -> job("[j]\nexitall_on_error\n"))
        .hasMessage(
            "t.fio:2: fio option \"exitall_on_error\" is not supported: ends the other jobs when"
                + " one fails; the model's jobs count errors and run on");
    assertThat(job("[j]\nrw=write\nverify=md5\n").pattern().verify()).isTrue();
    assertThat(job("[j]\nrw=write\nverify=md5\ndo_verify=0\n").pattern().verify()).isFalse();
    assertThat(job("[j]\nrw=write\nverify=md5\nverify_backlog=16\n").pattern().verifyBacklog())
        .isEqualTo(16);
    assertThat(file("[j]\nrw=write\nverify_backlog=16\n").warnings())
        .anyMatch(w -> w.contains("verify_backlog has no effect without verify="));
    assertThatThrownBy(() -> job("[j]\nverify=md5\nverify_only=1\n"))
        .hasMessageContaining("\"verify_only\" is not supported: changes when or what");
    JobSpec zoned = job("[j]\nrw=randwrite\nzonemode=zbd\nzonesize=64m\nsize=8z\noffset=2z\n");
    assertThat(zoned.pattern().zoneBytes()).isEqualTo(64L << 20);
    assertThat(zoned.size()).isEqualTo(8 * (64L << 20));
    assertThat(zoned.offset()).isEqualTo(2 * (64L << 20));
    assertThat(job("[j]\nzonemode=zbd\n").pattern().zoneBytes()).isEqualTo(256L << 20);
    assertThatThrownBy(() -> job("[j]\nzonemode=strided\n"))
        .hasMessage(
            "t.fio:2: zonemode=strided needs zonesize= (fio: \"--zonesize must be specified\")");
    IoPattern.Stride st =
        job("[j]\nzonemode=strided\nzonesize=256m\nzoneskip=2g\n").pattern().stride();
    assertThat(st).isEqualTo(new IoPattern.Stride(256L << 20, 256L << 20, 2L << 30));
    // fio's init.c: zonesize without zonemode is strided, zonerange defaults to zonesize
    assertThat(job("[j]\nzonesize=1m\nzonerange=4m\n").pattern().stride())
        .isEqualTo(new IoPattern.Stride(1L << 20, 4L << 20, 0));
    assertThat(job("[j]\nzonesize=1m\nnrfiles=2\n").pattern().stride()).isNull(); // fio: off
    assertThatThrownBy(() -> job("[j]\nzonemode=zbd\nzoneskip=1z\n"))
        .hasMessageContaining("zoneskip with zonemode=zbd (skipping zones) is not modelled");
    assertThat(file("[j]\nzonerange=1m\n").warnings())
        .anyMatch(w -> w.contains("zonerange has no effect with zonemode=none"));
  }

  @Test
  void everyVerifyMethodOfFioReadsBackAndTheLoadKnowsWhichItComputes() {
    for (String m : List.of("crc64", "meta", "xxhash", "sha3-256", "pattern", "crc7")) {
      JobSpec j = job("[j]\nrw=write\nverify=" + m + "\n");
      assertThat(j.pattern().verify()).as(m).isTrue();
      assertThat(j.verify().method()).isEqualTo(m);
      assertThat(j.verify().loadComputes()).as(m).isFalse();
    }
    JobSpec intel = job("[j]\nrw=write\nverify=crc32c-intel\n");
    assertThat(intel.verify().kind()).isEqualTo(Verify.Kind.CRC32C);
    assertThat(intel.verify().loadComputes()).isTrue();
    assertThat(job("[j]\nrw=write\n").verify().enabled()).isFalse();
    assertThat(job("[j]\nrw=write\nverify=0\n").pattern().verify()).isFalse();
    assertThatThrownBy(() -> job("[j]\nverify=crc99\n"))
        .hasMessageStartingWith(
            "t.fio:2: bad value \"crc99\" for verify (expected one of fio's methods: 0, md5,"
                + " crc64,");
  }

  @Test
  void aBareLogOptionNamesTheLogAfterTheJob() {
    FioJobFile f =
        file("[global]\nwrite_bw_log\n[zone-a]\nsize=1m\n[b]\nsize=1m\nwrite_lat_log=x\n");
    assertThat(f.jobs().get(0).report().bwLog()).isEqualTo("zone-a");
    assertThat(f.jobs().get(1).report().bwLog()).isEqualTo("b");
    assertThat(f.jobs().get(1).report().latLog()).isEqualTo("x");
    assertThat(f.jobs().get(0).report().latLog()).isNull();
    assertThatThrownBy(() -> job("[j]\nwrite_lat_log=\n"))
        .hasMessageContaining("bad value \"\" for write_lat_log");
  }

  @Test
  void aPriorityIsRecordedBecauseNothingOnTheFusePathReadsIt() {
    FioJobFile f = file("[j]\nsize=1m\nprioclass=3\nprio=7\ncmdprio_percentage=20\n");
    assertThat(f.warnings())
        .anyMatch(
            w -> w.startsWith("t.fio:3: note: prioclass=3 has no effect in the model: it sets"))
        .anyMatch(
            w -> w.contains("cmdprio_percentage=20 has no effect") && w.contains("fuse_in_header"));
  }

  @Test
  void waitForNamesAJobOfTheSameOrAnEarlierGroup() {
    FioJobFile f = file("[a]\nsize=1m\n[b]\nsize=1m\nwait_for=a\n[c]\nsize=1m\nnew_group\n");
    assertThat(f.jobs().get(1).control().waitFor()).isEqualTo("a");
    assertThat(f.jobs().get(2).control().fioGroup()).isEqualTo(1);
    assertThat(f.jobs().get(2).groupId()).isZero(); // new_group opens a report group only
    assertThat(f.jobs().get(2).jobInfo(3).groupId()).isEqualTo(1);
    assertThatThrownBy(() -> file("[a]\nsize=1m\nwait_for=x\n"))
        .hasMessage("t.fio:3: wait_for=x: no job is named \"x\"");
    assertThatThrownBy(() -> file("[a]\nsize=1m\nwait_for=a\n"))
        .hasMessage("t.fio:3: wait_for=a names job \"a\" itself");
    assertThatThrownBy(() -> file("[a]\nsize=1m\nwait_for=b\n[b]\nstonewall\nsize=1m\n"))
        .hasMessageStartingWith("t.fio:3: wait_for=b: job \"b\" runs in a later stonewall group");
    assertThatThrownBy(() -> file("[a]\nsize=1m\nwait_for=b\n[b]\nsize=1m\nwait_for=a\n"))
        .hasMessage("t.fio:3: wait_for=b: the jobs wait for each other in a cycle");
    JobSpec flow =
        job("[j]\nsize=1m\nflow_id=3\nflow=8\nflow_sleep=1000\nexitall\nexit_what=all\n");
    assertThat(flow.control().flowId()).isEqualTo(3);
    assertThat(flow.control().flowWeight()).isEqualTo(8);
    assertThat(flow.control().flowSleepNs()).isEqualTo(1_000_000);
    assertThat(flow.control().exitAll()).isTrue();
    assertThat(flow.control().exitWhat()).isEqualTo(JobControl.ExitWhat.ALL);
    assertThatThrownBy(() -> job("[j]\nflow=1001\n"))
        .hasMessageContaining("bad value \"1001\" for flow");
  }

  @Test
  void aSequenceDistributionNamesBlocksInsideTheRegion() {
    JobSpec j =
        job(
            "[j]\nrw=randread\nsize=48k\nrandom_distribution=sequence:2,0,1\nrandom_sequence_stride=1\n");
    assertThat(j.pattern().distribution())
        .isEqualTo(OffsetDistribution.sequence(new long[] {2, 0, 1}, true));
    assertThatThrownBy(() -> job("[j]\nrw=randread\nsize=8k\nrandom_distribution=sequence:2,0\n"))
        .hasMessageContaining("(expected block numbers inside the job's 2 blocks of 4096 bytes)");
    assertThatThrownBy(() -> job("[j]\nrandom_distribution=sequence:1,-1\n"))
        .hasMessageContaining("bad value \"sequence:1,-1\" for random_distribution");
    assertThat(file("[j]\nsize=1m\nrandom_sequence_stride=1\n").warnings())
        .anyMatch(w -> w.contains("random_sequence_stride has no effect without"));
  }

  @Test
  void sizeIsSharedByTheFilesUnlessFilesizeSaysOtherwise() {
    JobSpec four = job("[j]\nsize=64k\nnrfiles=4\nopenfiles=2\nfile_service_type=random:8\n");
    assertThat(four.pattern().files()).isEqualTo(4);
    assertThat(four.pattern().fileBytes()).isEqualTo(16384);
    assertThat(four.pattern().openFiles()).isEqualTo(2);
    assertThat(four.pattern().fileService()).isEqualTo(IoPattern.FileService.RANDOM);
    assertThat(four.pattern().fileServiceNr()).isEqualTo(8);
    assertThat(four.ioRegionBytes()).isEqualTo(65536);
    JobSpec big = job("[j]\nsize=64k\nfilesize=1m\nnrfiles=4\n");
    assertThat(big.ioRegionBytes()).isEqualTo(4L << 20);
    assertThat(big.pattern().ioLimitBytes()).isEqualTo(65536); // size= is the total
    assertThat(big.pattern().openFiles()).isEqualTo(4);
    assertThatThrownBy(() -> job("[j]\nsize=8k\nnrfiles=4\n"))
        .hasMessageContaining("each of the 4 files of job \"j\" has 2048 bytes, less than a block");
    assertThatThrownBy(() -> job("[j]\nfile_service_type=zipf:1.2\n"))
        .hasMessageContaining("file_service_type=zipf:1.2 is not supported: a skewed choice");
  }

  @Test
  void steadyStateIsOnWithSsDurAndChecksItsIntervalsAsFio() {
    JobSpec j = job("[j]\nsize=1m\nss=bw_slope:1%\nss_dur=30s\nss_ramp=10s\n");
    SteadyState ss = j.control().steadyState();
    assertThat(ss)
        .isEqualTo(
            new SteadyState(SteadyState.Metric.BW, true, true, 1.0, 30, 10_000_000_000L, 1000));
    // fio's default criterion: iops_slope:0.01%
    assertThat(job("[j]\nsize=1m\nss_dur=10\n").control().steadyState().metric())
        .isEqualTo(SteadyState.Metric.IOPS);
    assertThat(file("[j]\nsize=1m\nss=iops:5%\n").warnings())
        .anyMatch(w -> w.contains("ss=iops:5% has no effect without ss_dur"));
    assertThatThrownBy(() -> job("[j]\nsize=1m\nss_dur=30\nss_interval=500ms\n"))
        .hasMessageContaining("ss_interval must be at least 1s");
    assertThatThrownBy(() -> job("[j]\nsize=1m\nss_dur=5\nss_interval=2\n"))
        .hasMessageContaining("must be a multiple of ss_interval");
    assertThatThrownBy(() -> file("[a]\nsize=1m\nss_dur=4\n[b]\nsize=1m\n"))
        .hasMessageContaining("steadystate options must be the same for every job of a reporting");
    assertThatThrownBy(() -> job("[j]\nss=iops\n")).hasMessageContaining("a threshold");
    assertThatThrownBy(() -> job("[j]\nss=lat:500\n")).hasMessageContaining("with a unit");
  }

  @Test
  void environmentVariablesExpandAsInFio() {
    assertThat(JobFileLexer.expandEnvironment("${A}/x/${B}", Map.of("A", "a")::get))
        .isEqualTo("a/x/${B}");
    assertThatThrownBy(() -> job("[j]\nbs=${MQROUTE_SURELY_UNSET}\n"))
        .hasMessageContaining("${MQROUTE_SURELY_UNSET} is an environment variable that is not set");
  }
}
