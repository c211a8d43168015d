package io.mqroute.metrics;

import static io.mqroute.metrics.FioNumbers.fixed;
import static io.mqroute.metrics.FioNumbers.num2str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mqroute.metrics.FioNumbers.Unit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FioNumbersTest {

  /**
   * Ground truth from fio 3.33 itself: {@code fio --name=t --ioengine=null --bs=N} prints the block
   * size with {@code num2str(bs, 4, 1, kb_base == 1024, N2S_BYTE)} in its job line ({@code bs=(R)
   * 64.0KiB-64.0KiB}); run with kb_base 1024 (IEC) and 1000 (SI).
   */
  @ParameterizedTest(name = "{0} bytes, iec={1} -> {2}")
  @CsvSource({
    "1, true, 1B",
    "999, true, 999B",
    "1000, true, 1000B",
    "1023, true, 1023B",
    "1024, true, 1024B",
    "9999, true, 9999B",
    "10000, true, 9.77KiB",
    "10239, true, 10.00KiB",
    "10240, true, 10.0KiB",
    "10241, true, 10.0KiB",
    "65536, true, 64.0KiB",
    "66536, true, 65.0KiB",
    "66000, true, 64.5KiB",
    "99999, true, 97.7KiB",
    "102399, true, 100.0KiB",
    "102400, true, 100KiB",
    "1048575, true, 1024KiB",
    "1048576, true, 1024KiB",
    "1047552, true, 1023KiB",
    "104857600, true, 100MiB",
    "999999, true, 977KiB",
    "123456789, true, 118MiB",
    "5242880, true, 5120KiB",
    "5767168, true, 5632KiB",
    "1073741823, true, 1024MiB",
    "1099511627776, true, 1024GiB",
    "1, false, 1B",
    "9999, false, 9999B",
    "10000, false, 10.0kB",
    "10239, false, 10.2kB",
    "65536, false, 65.5kB",
    "66000, false, 66.0kB",
    "99999, false, 100.0kB",
    "100000, false, 100kB",
    "102399, false, 102kB",
    "1048576, false, 1049kB",
    "104857600, false, 105MB",
    "999999, false, 1000kB",
    "123456789, false, 123MB",
    "1073741823, false, 1074MB",
    "1099511627776, false, 1100GB",
  })
  void num2strMatchesFio333BlockSizeOutput(long bytes, boolean iec, String expected) {
    assertThat(num2str(bytes, iec, Unit.BYTE)).isEqualTo(expected);
  }

  /** Figures from the sample fio output (fio-sample-normal-output.txt) and a null-engine run. */
  @Test
  void numbersFromRealFioOutput() {
    // read: IOPS=30.5k, BW=119MiB/s (125MB/s)(357MiB/3001msec): 91463 x 4 KiB in 3001 ms
    long readBytes = 91463L * 4096;
    long readBw = 1000 * readBytes / 3001;
    assertThat(num2str(1000L * 91463 / 3001, false, Unit.NONE)).isEqualTo("30.5k");
    assertThat(num2str(readBw, true, Unit.BYTE_PER_SEC)).isEqualTo("119MiB/s");
    assertThat(num2str(readBw, false, Unit.BYTE_PER_SEC)).isEqualTo("125MB/s");
    assertThat(num2str(readBytes, true, Unit.BYTE)).isEqualTo("357MiB");
    assertThat(num2str(readBytes, false, Unit.BYTE)).isEqualTo("375MB");
    // write: IOPS=199, BW=12.5MiB/s (13.1MB/s)(37.5MiB/3001msec): 600 x 64 KiB
    long writeBytes = 600L * 65536;
    long writeBw = 1000 * writeBytes / 3001;
    assertThat(num2str(1000L * 600 / 3001, false, Unit.NONE)).isEqualTo("199");
    assertThat(num2str(writeBw, true, Unit.BYTE_PER_SEC)).isEqualTo("12.5MiB/s");
    assertThat(num2str(writeBw, false, Unit.BYTE_PER_SEC)).isEqualTo("13.1MB/s");
    assertThat(num2str(writeBytes, true, Unit.BYTE)).isEqualTo("37.5MiB");
    assertThat(num2str(writeBytes, false, Unit.BYTE)).isEqualTo("39.3MB");
    // null engine run: IOPS=4104k, BW=2000MiB/s (2097MB/s), io=2048KiB (2097kB)
    assertThat(num2str(4_104_000, false, Unit.NONE)).isEqualTo("4104k");
    assertThat(num2str(2_097_152_000L, true, Unit.BYTE_PER_SEC)).isEqualTo("2000MiB/s");
    assertThat(num2str(2_097_152_000L, false, Unit.BYTE_PER_SEC)).isEqualTo("2097MB/s");
    assertThat(num2str(2_097_152, true, Unit.BYTE)).isEqualTo("2048KiB");
    assertThat(num2str(2_097_152, false, Unit.BYTE)).isEqualTo("2097kB");
  }

  /** Latency min/max use six digits: {@code max=6883.3k}, {@code max=117274}, {@code min=1744}. */
  @Test
  void latencyFiguresUseSixDigits() {
    assertThat(num2str(6_883_312, 6, 1, false, Unit.NONE)).isEqualTo("6883.3k");
    assertThat(num2str(117_274, 6, 1, false, Unit.NONE)).isEqualTo("117274");
    assertThat(num2str(1744, 6, 1, false, Unit.NONE)).isEqualTo("1744");
    // five digits leave no room for a decimal, so the carry rounds the integer part
    assertThat(num2str(12_345_678_901L, 6, 1, false, Unit.NONE)).isEqualTo("12346M");
  }

  @Test
  void bitUnitsMultiplyByEightAndBaseShiftsThePrefix() {
    assertThat(num2str(1000, 4, 1, false, Unit.BIT_PER_SEC)).isEqualTo("8000bit/s");
    assertThat(num2str(64, 4, 1024, true, Unit.BYTE)).isEqualTo("64KiB");
  }

  @Test
  void negativeNumbersAreRejected() {
    assertThatThrownBy(() -> num2str(-1, true, Unit.BYTE))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /**
   * C's printf rounds the exact binary value half-to-even; Java's String.format would print 0.13.
   */
  @Test
  void fixedRoundsLikeGlibcPrintf() {
    assertThat(fixed(0.125, 2)).isEqualTo("0.12");
    assertThat(fixed(0.375, 2)).isEqualTo("0.38");
    assertThat(fixed(2.675, 2)).isEqualTo("2.67"); // 2.675 is 2.67499999... in binary
    assertThat(fixed(64449.55, 5, 2)).isEqualTo("64449.55");
    assertThat(fixed(0.0, 5, 2)).isEqualTo(" 0.00");
    assertThat(fixed(100.0, 3, 1)).isEqualTo("100.0");
    assertThat(fixed(0.28, 3, 2)).isEqualTo("0.28");
    assertThat(fixed(10981.233244, 6)).isEqualTo("10981.233244");
    assertThat(fixed(-0.001, 2)).isEqualTo("-0.00");
  }
}
