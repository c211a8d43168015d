package io.mqroute.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.mqroute.protocol.Op;
import io.mqroute.protocol.Status;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileBackendTest {
  private static final long MAX = 1 << 20;

  @TempDir Path tmp;

  private Path root() throws IOException {
    return Files.createDirectories(tmp.resolve("root"));
  }

  private static ByteBuffer bytes(String s) {
    return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void residencyTellsWrittenPagesFromAHoleNeverRead() throws IOException {
    try (FileBackend fb = new FileBackend(root(), MAX)) {
      ByteBuffer page = ByteBuffer.allocate(4096);
      Arrays.fill(page.array(), (byte) 9);
      assertThat(fb.write(2, 8192, page)).isEqualTo(Status.OK);
      assertThat(fb.residency(2, 8192, 4096)).isEqualTo(FileBackend.Residency.CACHED);
      assertThat(fb.residency(2, 8192 + 100, 1000)).isEqualTo(FileBackend.Residency.CACHED);
      // the file is sized sparsely to MAX: its last pages are a hole nothing read or wrote
      assertThat(fb.residency(2, MAX - 65536, 4096)).isEqualTo(FileBackend.Residency.NOT_CACHED);
      assertThat(fb.residency(2, 8192, 65536))
          .as("one page of the range not cached")
          .isEqualTo(FileBackend.Residency.NOT_CACHED);
      assertThat(fb.residency(2, MAX - 100, 4096)).isEqualTo(FileBackend.Residency.UNKNOWN);
      assertThat(fb.residency(-1, 0, 4096)).isEqualTo(FileBackend.Residency.UNKNOWN);
    }
  }

  @Test
  void largeLengthOnlyRequestsGoInChunksAndTheScratchBufferStaysSmall() throws IOException {
    long max = 4L * FileBackend.CHUNK + 4096;
    try (FileBackend fb = new FileBackend(root(), max)) {
      ByteBuffer marker = ByteBuffer.allocate(4096);
      Arrays.fill(marker.array(), (byte) 7);
      // a chunked zero-write must cover every byte, the last (partial) chunk included
      assertThat(fb.write(3, max - 4096, marker.duplicate())).isEqualTo(Status.OK);
      assertThat(fb.write(3, 0, marker.duplicate())).isEqualTo(Status.OK);
      assertThat(fb.write(3, 0, (int) max)).isEqualTo(Status.OK);
      ByteBuffer back = ByteBuffer.allocate(4096);
      assertThat(fb.read(3, max - 4096, back)).isEqualTo(Status.OK);
      assertThat(back.array()).containsOnly((byte) 0);
      assertThat(fb.read(3, 1, (int) max - 1)).isEqualTo(Status.OK);
      assertThat(fb.scratchCapacity()).isLessThanOrEqualTo(FileBackend.CHUNK);
    }
  }

  @Test
  void writtenBytesReadBackAndTheFileIsNamedByItsIdAndSizedToTheLimit() throws IOException {
    try (FileBackend fb = new FileBackend(root(), MAX)) {
      assertThat(fb.write(7, 4096, bytes("hello, device"))).isEqualTo(Status.OK);
      ByteBuffer dst = ByteBuffer.allocate(13);
      assertThat(fb.read(7, 4096, dst)).isEqualTo(Status.OK);
      assertThat(new String(dst.array(), StandardCharsets.UTF_8)).isEqualTo("hello, device");
      assertThat(fb.fsync(7)).isEqualTo(Status.OK);

      Path file = fb.root().resolve("f-7");
      assertThat(file).isRegularFile();
      assertThat(Files.size(file)).isEqualTo(MAX);
    }
  }

  @Test
  void unwrittenRegionsReadAsZerosUpToTheLimitAndPastItIsEinval() throws IOException {
    try (FileBackend fb = new FileBackend(root(), MAX)) {
      ByteBuffer dst = ByteBuffer.allocate(4096);
      dst.put(0, (byte) 1);
      assertThat(fb.read(1, MAX - 4096, dst)).isEqualTo(Status.OK);
      assertThat(dst.position()).isEqualTo(4096);
      assertThat(dst.array()).containsOnly(0);

      assertThat(fb.read(1, MAX - 4095, ByteBuffer.allocate(4096))).isEqualTo(Status.EINVAL);
      assertThat(fb.read(1, MAX, 1)).isEqualTo(Status.EINVAL);
      assertThat(fb.read(1, MAX, 0)).isEqualTo(Status.OK); // empty transfer at the limit
    }
  }

  @Test
  void aFileShortenedBehindTheBackendsBackReadsZerosPastItsEnd() throws IOException {
    try (FileBackend fb = new FileBackend(root(), MAX)) {
      assertThat(fb.write(2, 0, bytes("abcdef"))).isEqualTo(Status.OK);
      try (FileChannel other =
          FileChannel.open(fb.root().resolve("f-2"), StandardOpenOption.WRITE)) {
        other.truncate(3);
      }
      ByteBuffer dst = ByteBuffer.allocate(6);
      assertThat(fb.read(2, 0, dst)).isEqualTo(Status.OK);
      assertThat(dst.array()).containsExactly('a', 'b', 'c', 0, 0, 0);
    }
  }

  @Test
  void badArgumentsAreEinvalNeverExceptions() throws IOException {
    try (FileBackend fb = new FileBackend(root(), MAX)) {
      assertThat(fb.read(-1, 0, 1)).isEqualTo(Status.EINVAL);
      assertThat(fb.write(-1, 0, 1)).isEqualTo(Status.EINVAL);
      assertThat(fb.fsync(-1)).isEqualTo(Status.EINVAL);
      assertThat(fb.read(0, -1, 1)).isEqualTo(Status.EINVAL);
      assertThat(fb.write(0, -1, bytes("x"))).isEqualTo(Status.EINVAL);
      assertThat(fb.read(0, 0, -1)).isEqualTo(Status.EINVAL);
      assertThat(fb.read(0, 0, FileBackend.MAX_LENGTH + 1)).isEqualTo(Status.EINVAL);
      assertThat(fb.write(0, MAX - 1, bytes("xy"))).isEqualTo(Status.EINVAL);
      // offset + length would overflow a long
      assertThat(fb.read(0, Long.MAX_VALUE, 16)).isEqualTo(Status.EINVAL);
      assertThat(fb.serve(Op.GETATTR, 0, 0, 0)).isEqualTo(Status.EINVAL);
      // nothing was created by a refused request
      try (Stream<Path> s = Files.list(fb.root())) {
        assertThat(s).isEmpty();
      }
    }
  }

  @Test
  void theLargestTransferIsAcceptedWhenTheLimitAllowsIt() throws IOException {
    try (FileBackend fb = new FileBackend(root(), 2L * FileBackend.MAX_LENGTH)) {
      assertThat(fb.write(0, FileBackend.MAX_LENGTH, FileBackend.MAX_LENGTH)).isEqualTo(Status.OK);
      assertThat(fb.read(0, 0, FileBackend.MAX_LENGTH)).isEqualTo(Status.OK);
    }
  }

  @Test
  void aSymlinkNamedLikeAFileIsRefusedAndItsTargetIsUntouched() throws IOException {
    Path outside = Files.writeString(tmp.resolve("secret"), "do not touch");
    Path root = root();
    Files.createSymbolicLink(root.resolve("f-3"), outside);
    try (FileBackend fb = new FileBackend(root, MAX)) {
      assertThat(fb.write(3, 0, bytes("overwritten"))).isEqualTo(Status.EINVAL);
      assertThat(fb.read(3, 0, 4)).isEqualTo(Status.EINVAL);
      assertThat(fb.fsync(3)).isEqualTo(Status.EINVAL);
    }
    assertThat(Files.readString(outside)).isEqualTo("do not touch");
    assertThat(Files.size(outside)).isEqualTo(12);
  }

  @Test
  void noIdLeavesTheRoot() throws IOException {
    Path root = root();
    // no id cap here: the naming itself must keep even the largest id inside the root
    try (FileBackend fb =
        new FileBackend(root, MAX, FileBackend.DEFAULT_MAX_OPEN, Long.MAX_VALUE)) {
      for (long id : new long[] {0, 1, 10, Long.MAX_VALUE - 1}) {
        assertThat(fb.pathOf(id).getParent()).isEqualTo(fb.root());
        assertThat(fb.write(id, 0, bytes("x"))).isEqualTo(Status.OK);
      }
      assertThatThrownBy(() -> fb.pathOf(-1)).isInstanceOf(IllegalArgumentException.class);
    }
    try (Stream<Path> s = Files.list(root)) {
      assertThat(s.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("f-0", "f-1", "f-10", "f-" + (Long.MAX_VALUE - 1));
    }
    try (Stream<Path> s = Files.list(tmp)) {
      assertThat(s.map(p -> p.getFileName().toString())).containsExactly("root");
    }
  }

  /** Hardening item 7: {@code mknod DIR/f-5 c 1 3} was served as a data file. */
  @Test
  void aDeviceNodeOrFifoNamedLikeAFileIsRefused() throws Exception {
    Path root = root();
    Process fifo = new ProcessBuilder("mkfifo", root.resolve("f-7").toString()).start();
    assertThat(fifo.waitFor()).isZero();
    boolean device =
        new ProcessBuilder("mknod", root.resolve("f-5").toString(), "c", "1", "3").start().waitFor()
            == 0; // root only
    try (FileBackend fb = new FileBackend(root, MAX)) {
      assertThat(fb.write(7, 0, bytes("x"))).isEqualTo(Status.EINVAL);
      assertThat(fb.read(7, 0, 1)).isEqualTo(Status.EINVAL);
      if (device) {
        assertThat(fb.write(5, 0, bytes("x"))).isEqualTo(Status.EINVAL);
        assertThat(fb.read(5, 0, 1)).isEqualTo(Status.EINVAL);
      }
      assertThat(fb.write(6, 0, bytes("x"))).isEqualTo(Status.OK);
    }
    assertThat(Files.isRegularFile(root.resolve("f-7"))).isFalse();
  }

  @Test
  void aDirectoryInPlaceOfTheFileIsEio() throws IOException {
    Path root = root();
    Files.createDirectory(root.resolve("f-5"));
    try (FileBackend fb = new FileBackend(root, MAX)) {
      assertThat(fb.write(5, 0, bytes("x"))).isEqualTo(Status.EIO);
      assertThat(fb.read(5, 0, 1)).isEqualTo(Status.EIO);
      // other files are unaffected
      assertThat(fb.write(6, 0, bytes("x"))).isEqualTo(Status.OK);
    }
  }

  @Test
  void aReadOnlyRootIsEio() throws IOException {
    Path root = root();
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("r-xr-xr-x"));
    try {
      // root (uid 0) ignores the permission bits, as in this CI container: then the directory case
      // covers EIO
      assumeTrue(!Files.isWritable(root), "running with CAP_DAC_OVERRIDE");
      try (FileBackend fb = new FileBackend(root, MAX)) {
        assertThat(fb.write(0, 0, 1)).isEqualTo(Status.EIO);
      }
    } finally {
      Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
  }

  @Test
  void afterCloseEveryCallIsEio() throws IOException {
    FileBackend fb = new FileBackend(root(), MAX);
    assertThat(fb.write(0, 0, 1)).isEqualTo(Status.OK);
    fb.close();
    fb.close(); // idempotent
    assertThat(fb.openChannels()).isZero();
    assertThat(fb.read(0, 0, 1)).isEqualTo(Status.EIO);
    assertThat(fb.write(1, 0, 1)).isEqualTo(Status.EIO);
    assertThat(fb.fsync(0)).isEqualTo(Status.EIO);
  }

  @Test
  void theChannelCacheIsBoundedAndEvictedFilesReopen() throws IOException {
    try (FileBackend fb = new FileBackend(root(), MAX, 2)) {
      for (int id = 0; id < 5; id++) {
        assertThat(fb.write(id, id, bytes("v" + id))).isEqualTo(Status.OK);
        assertThat(fb.openChannels()).isLessThanOrEqualTo(2);
      }
      for (int id = 0; id < 5; id++) {
        ByteBuffer dst = ByteBuffer.allocate(2);
        assertThat(fb.read(id, id, dst)).isEqualTo(Status.OK);
        assertThat(new String(dst.array(), StandardCharsets.UTF_8)).isEqualTo("v" + id);
      }
    }
  }

  @Test
  void concurrentCallersOnFewChannelsNeverSeeAClosedChannel() throws Exception {
    // cache of 1 with 4 threads on 3 files: evictions happen while other threads do I/O on the
    // evicted channel
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try (FileBackend fb = new FileBackend(root(), MAX, 1)) {
      List<Future<List<Status>>> results = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int thread = t;
        results.add(
            pool.submit(
                () -> {
                  List<Status> statuses = new ArrayList<>();
                  for (int i = 0; i < 300; i++) {
                    long file = (thread + i) % 3;
                    ByteBuffer src = ByteBuffer.allocate(8).putLong(0, i);
                    statuses.add(fb.write(file, thread * 4096L + (i % 16) * 8L, src));
                    statuses.add(fb.read(file, thread * 4096L, 64));
                  }
                  return statuses;
                }));
      }
      for (Future<List<Status>> f : results) {
        assertThat(f.get(30, TimeUnit.SECONDS)).containsOnly(Status.OK);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void idsAtOrAboveTheFileCountAreRefusedAndCreateNothing() throws IOException {
    Path root = root();
    try (FileBackend fb = new FileBackend(root, MAX, FileBackend.DEFAULT_MAX_OPEN, 4)) {
      assertThat(fb.write(3, 0, 1)).isEqualTo(Status.OK);
      for (long id : new long[] {4, 5, 1L << 40, Long.MAX_VALUE}) {
        assertThat(fb.write(id, 0, 1)).isEqualTo(Status.EINVAL);
        assertThat(fb.read(id, 0, 1)).isEqualTo(Status.EINVAL);
        assertThat(fb.read(id, 0, ByteBuffer.allocate(1))).isEqualTo(Status.EINVAL);
        assertThat(fb.fsync(id)).isEqualTo(Status.EINVAL);
        assertThat(fb.serve(Op.FSYNC, id, 0, 0)).isEqualTo(Status.EINVAL);
        assertThat(fb.serve(Op.FLUSH, id, 0, 0)).isEqualTo(Status.EINVAL);
      }
    }
    try (Stream<Path> s = Files.list(root)) {
      assertThat(s.map(p -> p.getFileName().toString())).containsExactly("f-3");
    }
    assertThatThrownBy(() -> new FileBackend(root, MAX, 1, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void serveMapsTheDataOps() throws IOException {
    try (FileBackend fb = new FileBackend(root(), MAX)) {
      assertThat(fb.serve(Op.WRITE, 9, 0, 512)).isEqualTo(Status.OK);
      assertThat(fb.serve(Op.READ, 9, 0, 512)).isEqualTo(Status.OK);
      assertThat(fb.serve(Op.FSYNC, 9, 0, 0)).isEqualTo(Status.OK);
      assertThat(fb.serve(Op.FLUSH, 9, 0, 0)).isEqualTo(Status.OK);
      assertThat(fb.serve(Op.READ, 9, MAX, 1)).isEqualTo(Status.EINVAL);
    }
  }

  @Test
  void aMissingRootOrABadLimitIsAConfigurationError() {
    assertThatThrownBy(() -> new FileBackend(tmp.resolve("missing"), MAX))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new FileBackend(tmp, 0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aHardLinkedFileIsRefusedAndLeftAlone() throws IOException {
    Path root = root();
    Path outside = Files.writeString(tmp.resolve("victim"), "keep");
    Files.createLink(root.resolve("f-2"), outside);
    try (FileBackend fb = new FileBackend(root, MAX)) {
      assertThat(fb.write(2, 0, bytes("gone"))).isEqualTo(Status.EINVAL);
      assertThat(fb.read(2, 0, 4)).isEqualTo(Status.EINVAL);
      assertThat(fb.fsync(2)).isEqualTo(Status.EINVAL);
    }
    assertThat(Files.readString(outside)).isEqualTo("keep");
    assertThat(Files.size(outside)).as("not sized to the limit").isEqualTo(4);
  }

  @Test
  void aRootOwnedBySomeoneElseIsRefused() throws IOException {
    Path root = root();
    UserPrincipal other;
    try {
      other = root.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
      Files.setOwner(root, other);
    } catch (IOException | UnsupportedOperationException e) {
      assumeTrue(false, "cannot give the directory to another user here: " + e);
      return;
    }
    assertThatThrownBy(() -> new FileBackend(root, MAX))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is owned by nobody");
  }
}
