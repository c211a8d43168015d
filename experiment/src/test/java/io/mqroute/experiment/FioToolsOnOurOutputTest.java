package io.mqroute.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * fio's own tools read mqroute's output: fio_jsonplus_clat2csv (Debian's fio package, /usr/bin)
 * writes data rows from mqroute's json+, and a script reading the keys fio users read works.
 * Skipped where fio's tools are not installed.
 */
@Tag("integration")
class FioToolsOnOurOutputTest {
  @TempDir Path dir;

  private static final Path CLAT2CSV = Path.of("/usr/bin/fio_jsonplus_clat2csv");

  private static int run(Path cwd, String... command) throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder(command)
            .directory(cwd.toFile())
            .redirectErrorStream(true)
            .redirectOutput(cwd.resolve("tool.out").toFile())
            .start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return p.exitValue();
  }

  @Test
  void clat2csvWritesDataRowsAndAScriptReadsFiosKeys() throws Exception {
    assumeTrue(Files.isExecutable(CLAT2CSV), "fio's fio_jsonplus_clat2csv is not installed");
    VariantResult r =
        ExperimentText.run(
                dir,
                "tools",
                """
                name = tools
                device = "lognormal(20us, 0.5)"
                workload = \"\"\"
                [j]
                ioengine=libaio
                iodepth=4
                rw=randrw
                size=64m
                runtime=100ms
                \"\"\"
                """)
            .variants()
            .get(0);
    Path json = Files.writeString(dir.resolve("j.json"), FioOutput.render(r, "test", true));
    assertThat(run(dir, CLAT2CSV.toString(), json.toString(), dir.resolve("out.csv").toString()))
        .as(Files.readString(dir.resolve("tool.out")))
        .isZero();
    List<String> rows = Files.readAllLines(dir.resolve("out_job0.csv"), StandardCharsets.UTF_8);
    assertThat(rows.size()).isGreaterThan(10); // a header and one row per latency bin
    assertThat(rows.get(1)).matches("\\d+, .*");

    Path script =
        Files.writeString(
            dir.resolve("read.py"),
            """
            import json, sys
            d = json.load(open(sys.argv[1]))
            j = d['jobs'][0]
            print(j['read']['iops_mean'], j['read']['clat_ns']['percentile']['99.000000'],
                  d['disk_util'][0]['util'], d['fio version'].startswith('fio-3.'))
            """);
    assertThat(run(dir, "python3", script.toString(), json.toString()))
        .as(Files.readString(dir.resolve("tool.out")))
        .isZero();
    assertThat(Files.readString(dir.resolve("tool.out")).strip()).endsWith("True");
  }
}
