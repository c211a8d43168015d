package io.mqroute.cluster.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mqroute.workload.Verify;
import org.junit.jupiter.api.Test;

class BlockVerifierTest {
  private static final int BS = 4096;

  @Test
  void aBlockPassesItsOwnCheckForEveryKind() {
    for (Verify.Kind k : Verify.Kind.values()) {
      if (k == Verify.Kind.NONE) {
        continue;
      }
      BlockVerifier v = new BlockVerifier(k, 3, 3, BS);
      assertThat(v.check(v.block(8192, 2), 8192, 2)).as(k.name()).isNull();
    }
  }

  @Test
  void zerosAnotherOffsetAnOlderWriteAndAFlippedBitAreEachCaught() {
    BlockVerifier v = new BlockVerifier(Verify.Kind.CRC32C, 3, 3, BS);
    assertThat(v.check(new byte[BS], 0, 1)).startsWith("verify: bad magic header 0, wanted");
    assertThat(v.check(v.block(4096, 1), 0, 1)).contains("bad header offset 4096");
    assertThat(v.check(v.block(0, 1), 0, 2)).contains("stale block: write 1 of it, wanted write 2");
    for (int at : new int[] {5, 100, BS - 1}) {
      byte[] b = v.block(0, 1);
      b[at] ^= 1;
      assertThat(v.check(b, 0, 1)).as("bit flipped at byte " + at).isNotNull();
    }
    byte[] b = v.block(0, 1);
    b[2000] ^= 0x10;
    assertThat(v.check(b, 0, 1))
        .isEqualTo("verify: crc32c checksum mismatch at file 3 offset 0 length 4096");
    assertThat(v.check(new byte[100], 0, 1)).contains("read returned 100 bytes");
  }

  @Test
  void anotherFilesBlockAtTheSameOffsetIsNotThisOne() {
    BlockVerifier mine = new BlockVerifier(Verify.Kind.MD5, 1, 1, BS);
    BlockVerifier theirs = new BlockVerifier(Verify.Kind.MD5, 2, 2, BS);
    assertThat(mine.check(theirs.block(0, 1), 0, 1)).contains("bad header offset 0 (file 2)");
  }

  @Test
  void nullOnlyPretendsToVerifyAsInFio() {
    BlockVerifier v = new BlockVerifier(Verify.Kind.NULL, 1, 1, BS);
    assertThat(v.check(new byte[BS], 0, 1)).isNull();
  }

  @Test
  void aBlockTooSmallForTheHeaderIsRefused() {
    assertThat(BlockVerifier.minBlockBytes(Verify.Kind.SHA512)).isEqualTo(112);
    assertThatThrownBy(() -> new BlockVerifier(Verify.Kind.SHA512, 1, 1, 111))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
