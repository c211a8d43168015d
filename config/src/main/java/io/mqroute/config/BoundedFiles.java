package io.mqroute.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Reads a user-named input file with a size limit. The file must be a regular file: {@code
 * /dev/zero}, a FIFO or a directory report a size of 0 (or block) and would get past a {@link
 * Files#size} check. The limit is enforced on the bytes read as well, so a file that grows after
 * the check is still refused. Text must be valid UTF-8: a malformed byte is refused with its offset
 * and line rather than silently replaced.
 */
public final class BoundedFiles {
  private BoundedFiles() {}

  /** Why a file was refused; the message is one line without the file name (callers add it). */
  public static final class Refused extends IOException {
    Refused(String message) {
      super(message);
    }
  }

  private static final ThreadLocal<Map<Path, byte[]>> RECORDING = new ThreadLocal<>();

  /**
   * Runs {@code what} and puts every file it reads through this class (in this thread) into {@code
   * into}, by absolute path: the files an experiment is made of, to ship it to another machine.
   */
  public static <T> T recording(Map<Path, byte[]> into, Supplier<T> what) {
    Map<Path, byte[]> before = RECORDING.get();
    RECORDING.set(into);
    try {
      return what.get();
    } finally {
      RECORDING.set(before);
    }
  }

  /**
   * The file's bytes; {@link Refused} if it is not a regular file or larger than {@code maxBytes}.
   */
  public static byte[] read(Path file, long maxBytes) throws IOException {
    byte[] b = readUnrecorded(file, maxBytes);
    Map<Path, byte[]> r = RECORDING.get();
    if (r != null) {
      r.put(file.toAbsolutePath().normalize(), b);
    }
    return b;
  }

  private static byte[] readUnrecorded(Path file, long maxBytes) throws IOException {
    if (Files.exists(file) && !Files.isRegularFile(file)) {
      throw new Refused("not a regular file");
    }
    // a missing file fails below with the usual NoSuchFileException
    if (Files.size(file) > maxBytes) {
      throw new Refused("larger than " + describe(maxBytes));
    }
    try (InputStream in = Files.newInputStream(file)) {
      byte[] b = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
      if (b.length > maxBytes) {
        throw new Refused("larger than " + describe(maxBytes));
      }
      return b;
    }
  }

  /** {@link #read} as UTF-8 text; {@link Refused} naming the first byte that is not UTF-8. */
  public static String readString(Path file, long maxBytes) throws IOException {
    return decode(read(file, maxBytes));
  }

  /**
   * {@code bytes} as UTF-8 text.
   *
   * @throws Refused "invalid UTF-8 at byte N (line L)" (N counts from 0) for the first malformed or
   *     truncated sequence
   */
  public static String decode(byte[] bytes) throws Refused {
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length); // never more chars than bytes
    CoderResult r = decoder.decode(in, out, true);
    if (!r.isError()) {
      r = decoder.flush(out);
    }
    if (r.isError()) {
      int offset = in.position();
      int line = 1;
      for (int i = 0; i < offset; i++) {
        if (bytes[i] == '\n') {
          line++;
        }
      }
      throw new Refused("invalid UTF-8 at byte " + offset + " (line " + line + ")");
    }
    return out.flip().toString();
  }

  static String describe(long bytes) {
    return bytes % (1 << 20) == 0 ? (bytes >> 20) + " MiB" : bytes + " bytes";
  }
}
