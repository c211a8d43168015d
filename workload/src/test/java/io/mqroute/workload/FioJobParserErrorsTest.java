package io.mqroute.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Malformed job files fail with one exact, located message each. */
class FioJobParserErrorsTest {

  private static final String JOB = "[job]\nsize=1m\n"; // the offending line below is line 3

  static Stream<Arguments> badFiles() {
    return Stream.of(
        bad(
            JOB + "iodpeth=4\n",
            "bad.fio:3: unknown fio option \"iodpeth\" (did you mean \"iodepth\"?)"),
        bad(JOB + "foo=1\n", "bad.fio:3: unknown fio option \"foo\""),
        bad(JOB + "BS=4k\n", "bad.fio:3: unknown fio option \"BS\" (did you mean \"bs\"?)"),
        bad(
            JOB + "exitall_on_error\n",
            "bad.fio:3: fio option \"exitall_on_error\" is not supported: ends the other jobs"
                + " when one fails; the model's jobs count errors and run on"),
        bad(
            JOB + "fadvise_hint=0\n",
            "bad.fio:3: fio option \"fadvise_hint\" is not supported: the model has no counterpart"
                + " for it (docs/fio-jobs.md lists what it reads)"),
        bad(JOB + "bs=4q\n", "bad.fio:3: bad value \"4q\" for bs (expected a size like 4k, 64KiB)"),
        bad(
            JOB + "bs=1.5k\n",
            "bad.fio:3: bad value \"1.5k\" for bs (expected a size like 4k, 64KiB)"),
        bad(
            JOB + "bs=0\n",
            "bad.fio:3: bad value \"0\" for bs (expected a size like 4k, 64KiB above 0)"),
        bad(
            JOB + "bs=4k,8k,16k,32k\n",
            "bad.fio:3: bad value \"4k,8k,16k,32k\" for bs (expected a size like 4k, 64KiB,"
                + " or read,write sizes like 4k,64k or 4k:64k)"),
        bad(
            JOB + "runtime=30sec\n",
            "bad.fio:3: bad value \"30sec\" for runtime (expected a time like 30,"
                + " 30s, 500ms, 2m, 1h; write 30s, fio would read \"30sec\" as 30 microseconds)"),
        bad(
            JOB + "thinktime=5SEC\n",
            "bad.fio:3: bad value \"5SEC\" for thinktime (expected a time like"
                + " 100 (microseconds), 50us or 2ms; write 5s, fio would read \"5SEC\" as 5 microseconds)"),
        bad(
            JOB + "blocksize=4ki\n",
            "bad.fio:3: bad value \"4ki\" for blocksize (expected a size like 4k, 64KiB;"
                + " \"ki\" is ambiguous (fio and its HOWTO disagree), write k or KiB)"),
        bad(
            "[job]\nsize=${SIZE}\n",
            "bad.fio:2: bad value \"${SIZE}\" for size (expected a size like 4k, 64KiB;"
                + " ${SIZE} is an environment variable that is not set (fio leaves it as written"
                + " too))"),
        bad(
            "[job]\nsize=50%\n",
            "bad.fio:2: bad value \"50%\" for size (expected a size; a percentage needs a device"
                + " size)"),
        bad(
            "[job]\nsize=99999999999999999999\n",
            "bad.fio:2: bad value \"99999999999999999999\" for size"
                + " (expected a size like 4k, 64KiB; the number is too large)"),
        bad(
            "[job]\nsize=16000000p\n",
            "bad.fio:2: bad value \"16000000p\" for size"
                + " (expected a size like 4k, 64KiB; the size is too large)"),
        bad(
            JOB + "rw=randomread\n",
            "bad.fio:3: bad value \"randomread\" for rw"
                + " (expected one of read, write, randread, randwrite, rw, readwrite, randrw,"
                + " with an optional offset modifier like randread:8)"),
        bad(
            JOB + "rw=randread:x\n",
            "bad.fio:3: bad value \"randread:x\" for rw (expected a whole number >= 1)"),
        bad(
            JOB + "rw=randtrim\n",
            "bad.fio:3: rw=randtrim is not supported: fio trims a file with ioctl(BLKDISCARD),"
                + " which FUSE passes to the server as FUSE_IOCTL: libfuse's passthrough_hp"
                + " answers ENOSYS (measured: the first trim fails with ENOTTY, fio's err=25) and"
                + " no modelled server discards; only ioengine=falloc trims a file, with a"
                + " hole-punching fallocate"),
        bad(
            JOB + "rw=trimwrite\n",
            "bad.fio:3: rw=trimwrite is not supported: fio trims a file with ioctl(BLKDISCARD),"
                + " which FUSE passes to the server as FUSE_IOCTL: libfuse's passthrough_hp"
                + " answers ENOSYS (measured: the first trim fails with ENOTTY, fio's err=25) and"
                + " no modelled server discards; only ioengine=falloc trims a file, with a"
                + " hole-punching fallocate (its trim-then-write modes are not modelled with falloc"
                + " either)"),
        bad(
            JOB + "cpus_allowed=0-x\n",
            "bad.fio:3: bad value \"0-x\" for cpus_allowed (expected a CPU list like 0-3,8,10-11)"),
        bad(
            JOB + "cpus_allowed=3-1\n",
            "bad.fio:3: bad value \"3-1\" for cpus_allowed"
                + " (expected a CPU list like 0-3,8,10-11; a range must go upwards)"),
        bad(
            JOB + "cpus_allowed=0,,2\n",
            "bad.fio:3: bad value \"0,,2\" for cpus_allowed (expected a CPU list like 0-3,8,10-11)"),
        bad(
            JOB + "cpus_allowed_policy=spread\n",
            "bad.fio:3: bad value \"spread\" for cpus_allowed_policy (expected shared or split)"),
        bad(JOB + "bs 4k\n", "bad.fio:3: expected option=value or a bare flag, got \"bs 4k\""),
        bad(JOB + "=4k\n", "bad.fio:3: expected option=value or a bare flag, got \"=4k\""),
        bad(
            JOB + "bs\n",
            "bad.fio:3: option \"bs\" needs a value (expected a size like 4k, 64KiB)"),
        bad(
            JOB + "iodepth=\n",
            "bad.fio:3: bad value \"\" for iodepth (expected a whole number 1-65536)"),
        bad("bs=4k\n[job]\nsize=1m\n", "bad.fio:1: option \"bs\" appears before any [section]"),
        bad("", "bad.fio: no jobs defined"),
        bad("; only a comment\n\n   \n", "bad.fio: no jobs defined"),
        bad("[global]\nsize=1m\n", "bad.fio: no jobs defined (only [global] sections)"),
        bad("[job\nsize=1m\n", "bad.fio:1: bad section header \"[job\" (expected [name])"),
        bad("[ ]\nsize=1m\n", "bad.fio:1: empty section name \"[ ]\""),
        bad(
            JOB + "include other.fio\n",
            "bad.fio:3: include directives are not supported (put the included options in this file)"),
        bad(
            JOB + "time_based=yes\n",
            "bad.fio:3: bad value \"yes\" for time_based (expected nothing, 0 or 1)"),
        bad(JOB + "direct=true\n", "bad.fio:3: bad value \"true\" for direct (expected 0 or 1)"),
        bad(
            JOB + "iodepth=0\n",
            "bad.fio:3: bad value \"0\" for iodepth (expected a whole number 1-65536)"),
        bad(
            JOB + "numjobs=-2\n",
            "bad.fio:3: bad value \"-2\" for numjobs (expected a whole number 1-65536)"),
        bad(
            JOB + "rwmixread=120\n",
            "bad.fio:3: bad value \"120\" for rwmixread (expected a percentage 0-100)"),
        bad(
            JOB + "runtime=10x\n",
            "bad.fio:3: bad value \"10x\" for runtime (expected a time like 30, 30s, 500ms, 2m, 1h)"),
        bad(
            JOB + "ramp_time=5ns\n",
            "bad.fio:3: bad value \"5ns\" for ramp_time (expected a time like 30, 30s, 500ms, 2m, 1h)"),
        bad(
            JOB + "rate_iops=fast\n",
            "bad.fio:3: bad value \"fast\" for rate_iops"
                + " (expected IOPS like 500, or read,write IOPS like 500,100 or 500:100)"),
        bad(
            JOB + "rate_process=bursty\n",
            "bad.fio:3: bad value \"bursty\" for rate_process" + " (expected linear or poisson)"),
        bad(
            JOB + "ioengine=splice\n",
            "bad.fio:3: ioengine=splice is not supported: fio's splice engine moves data through a"
                + " pipe, not to a file system's queues"),
        bad(
            JOB + "ioengine=nosuch\n",
            "bad.fio:3: bad value \"nosuch\" for ioengine (expected one of fio's I/O engines,"
                + " such as psync, libaio, io_uring or null)"),
        bad(
            JOB + "random_distribution=zipf:1\n",
            "bad.fio:3: bad value \"zipf:1\" for random_distribution (expected random,"
                + " zipf:THETA, pareto:H, normal:DEV (gauss:DEV), zoned:ACCESS/SIZE:...,"
                + " zoned_abs:ACCESS/BYTES:... or sequence:BLOCK,BLOCK,...; zipf theta must be > 0"
                + " and not 1)"),
        bad(
            JOB + "percentile_list=50:101\n",
            "bad.fio:3: bad value \"50:101\" for percentile_list"
                + " (expected up to 20 percentiles in (0,100] separated by ':', like 50:99:99.9)"),
        bad(
            JOB + "kb_base=512\n",
            "bad.fio:3: bad value \"512\" for kb_base (expected 1000 or 1024)"),
        bad(JOB + "name=\n", "bad.fio:3: bad value \"\" for name (expected a job name)"),
        bad("[job]\nrw=read\n", "bad.fio:1: job \"job\" needs size= (or filesize=)"),
        bad(
            "[job]\nsize=1m\ntime_based\n",
            "bad.fio:3: time_based needs runtime= (job \"job\" would never end)"),
        bad(
            "[job]\nsize=4k\nbs=64k\n",
            "bad.fio:3: block size (65536 bytes) is larger than the 4096 bytes job \"job\" does I/O to"),
        bad(
            "[job]\nfilesize=1m\noffset=1m\n",
            "bad.fio:3: offset (1048576 bytes) is not inside filesize (1048576 bytes) in job \"job\""),
        bad(
            JOB + "output-format=json\n",
            "bad.fio:3: \"output-format\" is an fio command option, not a job option"));
  }

  private static Arguments bad(String text, String message) {
    return Arguments.of(text, message);
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("badFiles")
  void failsWithALocatedMessage(String text, String message) {
    assertThatThrownBy(() -> FioJobParser.parse("bad.fio", text))
        .isInstanceOf(FioParseException.class)
        .hasMessage(message)
        .satisfies(
            e -> {
              FioParseException p = (FioParseException) e;
              assertThat(p.source()).isEqualTo("bad.fio");
              assertThat(message)
                  .isEqualTo(
                      p.line() == 0
                          ? "bad.fio: " + p.detail()
                          : "bad.fio:" + p.line() + ": " + p.detail());
            });
  }
}
