package io.mqroute.cluster;

import io.mqroute.protocol.Op;
import io.mqroute.protocol.Status;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code file(root)} device backend: real positional I/O on files under one root directory, for
 * a device node running in real time (never in virtual time: the calls block on the disk).
 *
 * <p>A file is named by its numeric id only ({@code root/f-<fileId>}), never by a user path, so a
 * request cannot name anything outside the root. Files are created on first use and sized
 * (sparsely) to {@code maxFileBytes}. Ids are capped at {@code maxFiles}: every id a request names
 * may become a file of {@code maxFileBytes}, so the cap is what bounds the disk a remote client can
 * fill, to {@code maxFiles × maxFileBytes}.
 *
 * <p>Rules, all answered with a {@link Status} and never an exception:
 *
 * <ul>
 *   <li>{@link Status#EINVAL}: {@code fileId} outside [0, {@code maxFiles}), {@code offset < 0},
 *       {@code length} outside [0, {@value #MAX_LENGTH}], {@code offset + length > maxFileBytes},
 *       or the file's entry under the root is a symbolic link or has more than one hard link (the
 *       backend only ever creates regular files with one name, so a link is foreign and may escape
 *       the root);
 *   <li>{@link Status#EIO}: any {@link IOException} (including a directory in place of the file, a
 *       read-only root, a link swapped in between the check and the open, or use after {@link
 *       #close()});
 *   <li>{@link Status#OK} otherwise. A read inside the limit always delivers {@code length} bytes:
 *       regions never written read as zeros, also when the file was shortened behind the backend's
 *       back (the file is sized to the limit, so its logical end of file is the limit; reading past
 *       the limit is EINVAL).
 * </ul>
 *
 * <p>Thread-safe: positional {@link FileChannel} I/O needs no lock; the channel cache is guarded by
 * one lock and reference-counted so that evicting a channel never closes it under another thread's
 * I/O.
 */
public final class FileBackend implements AutoCloseable {
  /** Largest transfer of one request (16 MiB), far above FUSE's max_pages limit. */
  public static final int MAX_LENGTH = 16 * 1024 * 1024;

  /**
   * Largest piece of a length-only request done at once (256 KiB): its scratch buffer, one per I/O
   * thread, and the JDK's cached direct buffer behind a heap-buffer read, stay this small instead
   * of growing to {@link #MAX_LENGTH} for good after one large request.
   */
  static final int CHUNK = 256 * 1024;

  /**
   * Open channels kept by default; more files still work, the least recently used channel is
   * closed.
   */
  public static final int DEFAULT_MAX_OPEN = 64;

  /** File ids accepted by default: ids 0..63, so at most 64 files of {@code maxFileBytes} each. */
  public static final int DEFAULT_MAX_FILES = 64;

  private static final String PREFIX = "f-";

  private final Path root;
  private final long maxFileBytes;
  private final int maxOpen;
  private final long maxFiles;
  private final Object lock = new Object();
  // access-ordered: iteration starts at the least recently used channel
  private final LinkedHashMap<Long, Handle> open = new LinkedHashMap<>(16, 0.75f, true);
  private boolean closed;

  // Scratch buffers for the length-only calls (a simulated request carries no payload); per thread
  // so that
  // concurrent pollers need no lock. Heap buffers: the JDK copies through its own cached direct
  // buffer.
  private final ThreadLocal<ByteBuffer> scratch =
      ThreadLocal.withInitial(() -> ByteBuffer.allocate(0));

  /**
   * @param root an existing directory; resolved once with {@link Path#toRealPath} so that later
   *     checks compare real paths
   * @param maxFileBytes the size of every file and the limit of {@code offset + length}, > 0
   */
  public FileBackend(Path root, long maxFileBytes) {
    this(root, maxFileBytes, DEFAULT_MAX_OPEN);
  }

  /**
   * @param maxOpen how many channels to keep open, >= 1
   * @see #FileBackend(Path, long)
   */
  public FileBackend(Path root, long maxFileBytes, int maxOpen) {
    this(root, maxFileBytes, maxOpen, DEFAULT_MAX_FILES);
  }

  /**
   * @param maxFiles file ids accepted: [0, maxFiles), >= 1; the disk budget is {@code maxFiles ×
   *     maxFileBytes}
   * @see #FileBackend(Path, long, int)
   */
  public FileBackend(Path root, long maxFileBytes, int maxOpen, long maxFiles) {
    if (maxFiles < 1) {
      throw new IllegalArgumentException("maxFiles must be >= 1, was " + maxFiles);
    }
    if (maxFileBytes <= 0) {
      throw new IllegalArgumentException("maxFileBytes must be > 0, was " + maxFileBytes);
    }
    if (maxOpen < 1) {
      throw new IllegalArgumentException("maxOpen must be >= 1, was " + maxOpen);
    }
    try {
      this.root = root.toRealPath();
    } catch (IOException e) {
      throw new IllegalArgumentException("file backend root does not exist: " + root, e);
    }
    if (!Files.isDirectory(this.root, LinkOption.NOFOLLOW_LINKS)) {
      throw new IllegalArgumentException("file backend root is not a directory: " + root);
    }
    // Someone else's directory could hold links or files they control, and let them watch or swap
    // ours.
    String user = System.getProperty("user.name");
    try {
      String owner = Files.getOwner(this.root, LinkOption.NOFOLLOW_LINKS).getName();
      if (!owner.equals(user)) {
        throw new IllegalArgumentException(
            "file backend root "
                + root
                + " is owned by "
                + owner
                + ", not by "
                + user
                + " who runs the node");
      }
    } catch (UnsupportedOperationException | IOException e) {
      // no owner on this file system (rare): nothing to compare
    }
    this.maxFileBytes = maxFileBytes;
    this.maxOpen = maxOpen;
    this.maxFiles = maxFiles;
  }

  /** File ids accepted: [0, maxFiles). */
  public long maxFiles() {
    return maxFiles;
  }

  private boolean badId(long fileId) {
    return fileId < 0 || fileId >= maxFiles;
  }

  /** The real path of the root. */
  public Path root() {
    return root;
  }

  public long maxFileBytes() {
    return maxFileBytes;
  }

  /** The path a file id maps to (whether or not the file exists). */
  public Path pathOf(long fileId) {
    if (fileId < 0) {
      throw new IllegalArgumentException("fileId must be >= 0, was " + fileId);
    }
    return root.resolve(PREFIX + fileId);
  }

  /** Reads {@code dst.remaining()} bytes at {@code offset} into {@code dst}. */
  public Status read(long fileId, long offset, ByteBuffer dst) {
    return withRange(fileId, offset, dst.remaining(), ch -> readFully(ch, dst, offset));
  }

  private static void readFully(FileChannel ch, ByteBuffer dst, long offset) throws IOException {
    long pos = offset;
    while (dst.hasRemaining()) {
      int n = ch.read(dst, pos);
      if (n < 0) {
        // shorter than its size: the rest is a hole, which reads as zeros
        while (dst.hasRemaining()) {
          dst.put((byte) 0);
        }
        break;
      }
      pos += n;
    }
  }

  private static void writeFully(FileChannel ch, ByteBuffer src, long offset) throws IOException {
    for (long pos = offset; src.hasRemaining(); ) {
      pos += ch.write(src, pos);
    }
  }

  /** Whether a range of a file is in the page cache now: what a read of it would wait for. */
  public enum Residency {
    /** Every page is in the page cache: a read copies and cannot wait for the disk. */
    CACHED,
    /** At least one page is not: a read of it waits for the disk. */
    NOT_CACHED,
    /** Cannot tell (a bad request, an I/O error, a range across two mapped windows). */
    UNKNOWN
  }

  /** Bytes of a file one read-only mapping covers for {@link #residency}. */
  static final long WINDOW_BYTES = 1L << 30;

  /**
   * Whether {@code [offset, offset + length)} of a file is in the page cache now: {@code
   * mincore(2)} through {@link MappedByteBuffer#isLoaded} on a read-only mapping of the file's
   * {@link #WINDOW_BYTES} around it, made on first use and kept with the channel. The kernel
   * answers for the page cache only to a process that may write the file or owns it (mincore's
   * can_do_mincore), which the node does for the files it creates; elsewhere it answers for the
   * pages this process has mapped, i.e. NOT_CACHED, the cautious answer. About 1 µs.
   */
  public Residency residency(long fileId, long offset, int length) {
    if (check(fileId, offset, length) != null || length == 0) {
      return Residency.UNKNOWN;
    }
    return withHandle(
        fileId,
        h -> {
          int index = (int) (offset / WINDOW_BYTES);
          long inWindow = offset - index * WINDOW_BYTES;
          MappedByteBuffer w = h.window(index);
          if (w == null || inWindow + length > w.capacity()) {
            return Residency.UNKNOWN;
          }
          try {
            return w.slice((int) inWindow, length).isLoaded()
                ? Residency.CACHED
                : Residency.NOT_CACHED;
          } catch (RuntimeException e) {
            return Residency.UNKNOWN; // e.g. the mapping's memory gone with a closed channel
          }
        },
        Residency.UNKNOWN,
        Residency.UNKNOWN);
  }

  /** Writes {@code src.remaining()} bytes from {@code src} at {@code offset}. */
  public Status write(long fileId, long offset, ByteBuffer src) {
    return withRange(fileId, offset, src.remaining(), ch -> writeFully(ch, src, offset));
  }

  /**
   * Reads {@code length} bytes and discards them (a request without a payload buffer), in chunks.
   */
  public Status read(long fileId, long offset, int length) {
    return inChunks(fileId, offset, length, false, FileBackend::readFully);
  }

  /** Writes {@code length} zero bytes (a request without a payload buffer), in chunks. */
  public Status write(long fileId, long offset, int length) {
    return inChunks(fileId, offset, length, true, FileBackend::writeFully);
  }

  /**
   * {@code length} bytes at {@code offset} through this thread's scratch buffer, at most {@link
   * #CHUNK} at a time; {@code zeroed}: the buffer is zeroed first (it may hold bytes read from
   * another file).
   */
  private Status inChunks(long fileId, long offset, int length, boolean zeroed, ChunkIo io) {
    return withRange(
        fileId,
        offset,
        length,
        ch -> {
          ByteBuffer buf = scratch(Math.min(length, CHUNK));
          if (zeroed) {
            Arrays.fill(buf.array(), 0, buf.capacity(), (byte) 0);
          }
          for (long done = 0; done < length; done += buf.limit()) {
            buf.clear().limit((int) Math.min(CHUNK, length - done));
            io.run(ch, buf, offset + done);
          }
        });
  }

  /** Forces the file's data and metadata to the device ({@code fsync(2)}). */
  public Status fsync(long fileId) {
    // FSYNC opens (creates) the file too: the id cap applies to it as to READ and WRITE
    if (badId(fileId)) {
      return Status.EINVAL;
    }
    return withChannel(fileId, ch -> ch.force(true));
  }

  /**
   * Serves one request without a payload: READ, WRITE and FSYNC do the I/O; FLUSH is OK at once
   * (positional I/O buffers nothing in the process); every other op is EINVAL, as this backend has
   * no namespace.
   */
  public Status serve(Op op, long fileId, long offset, int length) {
    return switch (op) {
      case READ -> read(fileId, offset, length);
      case WRITE -> write(fileId, offset, length);
      case FSYNC -> fsync(fileId);
      case FLUSH -> badId(fileId) ? Status.EINVAL : Status.OK;
      default -> Status.EINVAL;
    };
  }

  /** Closes every cached channel; later calls answer EIO. Idempotent. */
  @Override
  public void close() {
    List<Handle> toClose;
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      toClose = new ArrayList<>(open.values());
      open.clear();
      for (Handle h : toClose) {
        h.evicted = true;
      }
    }
    for (Handle h : toClose) {
      h.closeIfUnused();
    }
  }

  /** Channels currently cached (for tests and metrics). */
  public int openChannels() {
    synchronized (lock) {
      return open.size();
    }
  }

  private Status check(long fileId, long offset, int length) {
    if (badId(fileId) || offset < 0 || length < 0 || length > MAX_LENGTH) {
      return Status.EINVAL;
    }
    // offset + length > maxFileBytes, written so that it cannot overflow
    if (offset > maxFileBytes - length) {
      return Status.EINVAL;
    }
    return null;
  }

  /** This thread's scratch buffer, for tests: it never grows above {@link #CHUNK}. */
  int scratchCapacity() {
    return scratch.get().capacity();
  }

  private ByteBuffer scratch(int length) {
    ByteBuffer buf = scratch.get();
    if (buf.capacity() < length) {
      // grow by doubling so that mixed sizes settle quickly; never above CHUNK (callers ask for at
      // most that)
      int cap = Math.min(CHUNK, Math.max(length, buf.capacity() * 2));
      buf = ByteBuffer.allocate(cap);
      scratch.set(buf);
    }
    buf.clear().limit(length);
    return buf;
  }

  @FunctionalInterface
  private interface ChannelIo {
    void run(FileChannel ch) throws IOException;
  }

  @FunctionalInterface
  private interface HandleIo<T> {
    T run(Handle h) throws IOException;
  }

  @FunctionalInterface
  private interface ChunkIo {
    void run(FileChannel ch, ByteBuffer buf, long offset) throws IOException;
  }

  /** {@code io} on the file's channel if the range is valid, else EINVAL. */
  private Status withRange(long fileId, long offset, int length, ChannelIo io) {
    Status invalid = check(fileId, offset, length);
    return invalid != null ? invalid : withChannel(fileId, io);
  }

  private Status withChannel(long fileId, ChannelIo io) {
    return withHandle(
        fileId,
        h -> {
          io.run(h.channel);
          return Status.OK;
        },
        Status.EINVAL,
        Status.EIO);
  }

  /**
   * {@code io} on the file's cached handle; {@code refused} for an entry refused, else on error.
   */
  private <T> T withHandle(long fileId, HandleIo<T> io, T refused, T failed) {
    Handle h;
    try {
      h = acquire(fileId);
    } catch (IOException e) {
      return failed;
    }
    if (h == null) {
      return refused;
    }
    try {
      return io.run(h);
    } catch (IOException e) {
      return failed;
    } finally {
      release(h);
    }
  }

  /** The cached channel with one more user, or null when the file's entry is refused (EINVAL). */
  private Handle acquire(long fileId) throws IOException {
    synchronized (lock) {
      if (closed) {
        throw new IOException("file backend closed");
      }
      Handle h = open.get(fileId);
      if (h == null) {
        // opened under the lock: opens are rare (cached) and this keeps two threads from opening
        // one file twice
        FileChannel ch = openChannel(fileId);
        if (ch == null) {
          return null;
        }
        h = new Handle(ch);
        open.put(fileId, h);
        evictBeyondLimit();
      }
      h.users++;
      return h;
    }
  }

  private void release(Handle h) {
    synchronized (lock) {
      h.users--;
    }
    h.closeIfUnused();
  }

  // called under the lock
  private void evictBeyondLimit() {
    var it = open.entrySet().iterator();
    while (open.size() > maxOpen && it.hasNext()) {
      Map.Entry<Long, Handle> eldest = it.next();
      it.remove();
      eldest.getValue().evicted = true;
      eldest.getValue().closeIfUnusedLocked();
    }
  }

  private FileChannel openChannel(long fileId) throws IOException {
    Path path = root.resolve(PREFIX + fileId).normalize();
    // The name is built from a non-negative number, so it cannot contain a separator or "..": this
    // is a
    // second line of defence should the naming ever change.
    if (!path.startsWith(root) || !path.getParent().equals(root)) {
      return null;
    }
    try {
      BasicFileAttributes attrs =
          Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (attrs.isSymbolicLink()) {
        // The backend never creates links: whatever it points to (possibly outside the root),
        // refuse it.
        return null;
      }
      if (attrs.isOther()) {
        // a device node, FIFO or socket named like a data file (mknod DIR/f-5 c 1 3): regular files
        // only
        return null;
      }
      if (attrs.isRegularFile() && hardLinked(path)) {
        // another name for the same inode, possibly outside the root: writes would land in that
        // file
        return null;
      }
    } catch (NoSuchFileException e) {
      // first use: created below
    }
    // NOFOLLOW_LINKS (O_NOFOLLOW): a link swapped in after the check above fails the open instead
    // of being followed.
    FileChannel ch =
        FileChannel.open(
            path,
            StandardOpenOption.CREATE,
            StandardOpenOption.READ,
            StandardOpenOption.WRITE,
            LinkOption.NOFOLLOW_LINKS);
    try {
      // again once open: a link made between the check and the open (the channel has no fstat; by
      // path)
      if (hardLinked(path)
          || !Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
              .isRegularFile()) {
        ch.close();
        return null;
      }
      if (ch.size() < maxFileBytes) {
        // size it sparsely: one byte at the end, so that every valid offset lies inside the file
        ch.write(ByteBuffer.allocate(1), maxFileBytes - 1);
      }
      return ch;
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
  }

  /**
   * More than one name for the file ({@code unix:nlink > 1}); false where the attribute is not
   * supported.
   */
  private static boolean hardLinked(Path path) throws IOException {
    try {
      Object n = Files.getAttribute(path, "unix:nlink", LinkOption.NOFOLLOW_LINKS);
      return n instanceof Integer i && i > 1;
    } catch (UnsupportedOperationException | IllegalArgumentException e) {
      return false;
    }
  }

  /** One cached channel; {@code users} and {@code evicted} are guarded by the backend's lock. */
  private final class Handle {
    final FileChannel channel;
    int users;
    boolean evicted;
    // read-only mappings for residency(), by window; unmapped when collected after the channel
    private MappedByteBuffer[] windows = new MappedByteBuffer[0];

    Handle(FileChannel channel) {
      this.channel = channel;
    }

    /** The mapping of window {@code index}, made on first use; null past the file's end. */
    synchronized MappedByteBuffer window(int index) throws IOException {
      if (index >= windows.length) {
        windows = Arrays.copyOf(windows, index + 1);
      }
      MappedByteBuffer w = windows[index];
      if (w == null) {
        long base = index * WINDOW_BYTES;
        long size = Math.min(WINDOW_BYTES, channel.size() - base);
        if (size <= 0) {
          return null;
        }
        w = channel.map(FileChannel.MapMode.READ_ONLY, base, size);
        windows[index] = w;
      }
      return w;
    }

    void closeIfUnused() {
      synchronized (lock) {
        closeIfUnusedLocked();
      }
    }

    void closeIfUnusedLocked() {
      if (evicted && users == 0 && channel.isOpen()) {
        try {
          channel.close();
        } catch (IOException e) {
          // nothing to report to: data durability is fsync's job, which reports its own errors
        }
      }
    }
  }
}
