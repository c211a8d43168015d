package io.mqroute.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.util.List;
import org.junit.jupiter.api.Test;

class FioCommandLineTest {

  @Test
  void eachNameStartsAJobAndNameGlobalStartsGlobals() {
    FioJobFile file =
        FioJobParser.parseCommandLine(
            "--name=global",
            "--rw=randread",
            "--size=128m",
            "--name=job1",
            "--bs=8k",
            "--name=job2");
    assertThat(file.source()).isEqualTo("command line");
    assertThat(file.jobs()).extracting(JobSpec::name).containsExactly("job1", "job2");
    assertThat(file.jobs())
        .allSatisfy(
            j -> {
              assertThat(j.rw()).isEqualTo(RwMode.RANDREAD);
              assertThat(j.size()).isEqualTo(128L << 20);
            });
    assertThat(file.job("job1").blockSizeRead()).isEqualTo(8192);
    assertThat(file.job("job2").blockSizeRead()).isEqualTo(4096);
    // as fio's JSON shows it: a job's options include its name (checked with fio 3.33)
    assertThat(file.job("job1").explicitOptions())
        .containsExactly(entry("name", "job1"), entry("bs", "8k"));
    assertThat(file.globalOptions())
        .containsExactly(entry("rw", "randread"), entry("size", "128m"));
    assertThat(file.job("job1").line()).isEqualTo(4);
  }

  @Test
  void optionsBeforeTheFirstNameAreGlobal() {
    FioJobFile file =
        FioJobParser.parseCommandLine(
            List.of(
                "--ioengine=io_uring",
                "--size=1m",
                "--time_based",
                "--runtime=2",
                "--name=a",
                "--iodepth=32",
                "--name=b",
                "--stonewall"));
    assertThat(file.job("a").ioengine()).isEqualTo(IoEngine.IO_URING);
    assertThat(file.job("a").inFlight()).isEqualTo(32);
    assertThat(file.job("b").inFlight()).isEqualTo(1);
    assertThat(file.job("b").timeBased()).isTrue();
    assertThat(file.job("b").groupId()).isEqualTo(1);
    assertThat(file.globalOptions())
        .containsExactly(
            entry("ioengine", "io_uring"),
            entry("size", "1m"),
            entry("time_based", ""),
            entry("runtime", "2"));
    assertThat(file.job("b").explicitOptions())
        .containsExactly(entry("name", "b"), entry("stonewall", ""));
  }

  @Test
  void commentCharactersAreNotSpecialOnTheCommandLine() {
    JobSpec job =
        FioJobParser.parseCommandLine("--name=x", "--size=1m", "--filename=/tmp/a#b;c")
            .jobs()
            .get(0);
    assertThat(job.filename()).isEqualTo("/tmp/a#b;c");
  }

  @Test
  void errorsNameTheArgument() {
    assertThatThrownBy(() -> FioJobParser.parseCommandLine("--name=a", "--iodpeth=4"))
        .isInstanceOf(FioParseException.class)
        .hasMessage(
            "command line argument 2: unknown fio option \"iodpeth\" (did you mean \"iodepth\"?)");
    assertThatThrownBy(() -> FioJobParser.parseCommandLine("job.fio"))
        .hasMessage("command line argument 1: expected --option=value, got \"job.fio\"");
    assertThatThrownBy(
            () -> FioJobParser.parseCommandLine("--name=a", "--size=1m", "--output-format=json"))
        .hasMessage(
            "command line argument 3: \"output-format\" is an fio command option, not a job option");
    assertThatThrownBy(() -> FioJobParser.parseCommandLine("--name="))
        .hasMessage("command line argument 1: --name needs a value, like --name=job1");
    assertThatThrownBy(() -> FioJobParser.parseCommandLine("--name=a", "--bs=4q", "--size=1m"))
        .hasMessage(
            "command line argument 2: bad value \"4q\" for bs (expected a size like 4k, 64KiB)");
    assertThatThrownBy(() -> FioJobParser.parseCommandLine("--name=a"))
        .hasMessage("command line argument 1: job \"a\" needs size= (or filesize=)");
    assertThatThrownBy(() -> FioJobParser.parseCommandLine())
        .hasMessage("command line: no jobs defined; start one with --name=");
    assertThatThrownBy(() -> FioJobParser.parseCommandLine("--size=1m"))
        .hasMessage(
            "command line: no jobs defined (only [global] sections); start one with --name=");
  }

  @Test
  void warningsNameTheArgumentToo() {
    FioJobFile file = FioJobParser.parseCommandLine("--name=a", "--size=1m", "--iodepth=4");
    assertThat(file.warnings())
        .containsExactly(
            "command line argument 3: note: job \"a\": iodepth=4 with"
                + " synchronous ioengine psync: queue depth capped at 1, as fio does");
  }
}
