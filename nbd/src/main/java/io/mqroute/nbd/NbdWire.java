package io.mqroute.nbd;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.pekko.util.ByteString;

/**
 * The NBD protocol's numbers (doc/proto.md, "Values") and the server's messages as bytes. Every
 * field is big-endian (network byte order).
 */
public final class NbdWire {
  private NbdWire() {}

  /** "NBDMAGIC", the first 8 bytes a newstyle server sends. */
  public static final long NBDMAGIC = 0x4e42444d41474943L;

  /** "IHAVEOPT": the server's second magic and the start of every option the client sends. */
  public static final long IHAVEOPT = 0x49484156454F5054L;

  /** The magic of every option reply. */
  public static final long OPTION_REPLY_MAGIC = 0x3e889045565a9L;

  public static final int REQUEST_MAGIC = 0x25609513;
  public static final int SIMPLE_REPLY_MAGIC = 0x67446698;

  /** A request header: magic, flags, type, cookie, offset, length. */
  public static final int REQUEST_HEADER_BYTES = 28;

  public static final int SIMPLE_REPLY_BYTES = 16;
  public static final int OPTION_HEADER_BYTES = 16;

  // handshake flags (server) and client flags
  public static final int FLAG_FIXED_NEWSTYLE = 1;
  public static final int FLAG_NO_ZEROES = 2;
  public static final int FLAG_C_FIXED_NEWSTYLE = 1;
  public static final int FLAG_C_NO_ZEROES = 2;

  // transmission flags
  public static final int FLAG_HAS_FLAGS = 1;
  public static final int FLAG_READ_ONLY = 1 << 1;
  public static final int FLAG_SEND_FLUSH = 1 << 2;
  public static final int FLAG_SEND_FUA = 1 << 3;
  public static final int FLAG_SEND_TRIM = 1 << 5;
  public static final int FLAG_CAN_MULTI_CONN = 1 << 8;

  // options
  public static final int OPT_EXPORT_NAME = 1;
  public static final int OPT_ABORT = 2;
  public static final int OPT_LIST = 3;
  public static final int OPT_STARTTLS = 5;
  public static final int OPT_INFO = 6;
  public static final int OPT_GO = 7;
  public static final int OPT_STRUCTURED_REPLY = 8;

  // option replies
  public static final int REP_ACK = 1;
  public static final int REP_SERVER = 2;
  public static final int REP_INFO = 3;
  public static final int REP_ERR_UNSUP = 0x80000001;
  public static final int REP_ERR_POLICY = 0x80000002;
  public static final int REP_ERR_INVALID = 0x80000003;
  public static final int REP_ERR_UNKNOWN = 0x80000006;
  public static final int REP_ERR_TOO_BIG = 0x80000009;

  // information types
  public static final int INFO_EXPORT = 0;
  public static final int INFO_NAME = 1;
  public static final int INFO_DESCRIPTION = 2;
  public static final int INFO_BLOCK_SIZE = 3;

  // commands
  public static final int CMD_READ = 0;
  public static final int CMD_WRITE = 1;
  public static final int CMD_DISC = 2;
  public static final int CMD_FLUSH = 3;
  public static final int CMD_TRIM = 4;

  // error values
  public static final int EPERM = 1;
  public static final int EIO = 5;
  public static final int ENOMEM = 12;
  public static final int EINVAL = 22;
  public static final int ENOSPC = 28;
  public static final int EOVERFLOW = 75;
  public static final int ENOTSUP = 95;
  public static final int ESHUTDOWN = 108;

  /**
   * The largest payload the spec says a server should not call a denial of service (2^25): a write
   * up to this long that is over the advertised maximum is read and discarded, and answered with
   * EINVAL; a longer one ends the connection.
   */
  public static final long DOS_PAYLOAD = 1L << 25;

  /** The export names and option strings the spec bounds (4096 bytes). */
  public static final int MAX_STRING = 4096;

  /** What the server sends first: NBDMAGIC, IHAVEOPT, handshake flags. */
  public static ByteString greeting() {
    return ByteString.fromArrayUnsafe(
        ByteBuffer.allocate(18)
            .putLong(NBDMAGIC)
            .putLong(IHAVEOPT)
            .putShort((short) (FLAG_FIXED_NEWSTYLE | FLAG_NO_ZEROES))
            .array());
  }

  /** An option reply: magic, option, reply type, length, data. */
  public static ByteString optionReply(int option, int type, byte[] data) {
    return ByteString.fromArrayUnsafe(
        ByteBuffer.allocate(20 + data.length)
            .putLong(OPTION_REPLY_MAGIC)
            .putInt(option)
            .putInt(type)
            .putInt(data.length)
            .put(data)
            .array());
  }

  /** An error reply with a message for a person (every error reply may carry one). */
  public static ByteString optionError(int option, int type, String message) {
    return optionReply(option, type, message.getBytes(StandardCharsets.UTF_8));
  }

  /** NBD_REP_INFO with NBD_INFO_EXPORT: size and transmission flags. */
  public static ByteString infoExport(int option, long size, int transmissionFlags) {
    return optionReply(
        option,
        REP_INFO,
        ByteBuffer.allocate(12)
            .putShort((short) INFO_EXPORT)
            .putLong(size)
            .putShort((short) transmissionFlags)
            .array());
  }

  /** NBD_REP_INFO with NBD_INFO_BLOCK_SIZE: minimum, preferred, maximum payload. */
  public static ByteString infoBlockSize(int option, int minimum, int preferred, int maximum) {
    return optionReply(
        option,
        REP_INFO,
        ByteBuffer.allocate(14)
            .putShort((short) INFO_BLOCK_SIZE)
            .putInt(minimum)
            .putInt(preferred)
            .putInt(maximum)
            .array());
  }

  /** NBD_REP_INFO with NBD_INFO_NAME. */
  public static ByteString infoName(int option, String name) {
    byte[] n = name.getBytes(StandardCharsets.UTF_8);
    return optionReply(
        option,
        REP_INFO,
        ByteBuffer.allocate(2 + n.length).putShort((short) INFO_NAME).put(n).array());
  }

  /** NBD_REP_SERVER: one export of NBD_OPT_LIST. */
  public static ByteString server(String name) {
    byte[] n = name.getBytes(StandardCharsets.UTF_8);
    return optionReply(
        OPT_LIST, REP_SERVER, ByteBuffer.allocate(4 + n.length).putInt(n.length).put(n).array());
  }

  /** The answer to NBD_OPT_EXPORT_NAME: size, flags and (unless NO_ZEROES) 124 zero bytes. */
  public static ByteString exportNameReply(long size, int transmissionFlags, boolean noZeroes) {
    return ByteString.fromArrayUnsafe(
        ByteBuffer.allocate(10 + (noZeroes ? 0 : 124))
            .putLong(size)
            .putShort((short) transmissionFlags)
            .array());
  }

  /** A simple reply: magic, error, cookie, and a successful read's data. */
  public static ByteString simpleReply(int error, long cookie, byte[] data) {
    ByteString header =
        ByteString.fromArrayUnsafe(
            ByteBuffer.allocate(SIMPLE_REPLY_BYTES)
                .putInt(SIMPLE_REPLY_MAGIC)
                .putInt(error)
                .putLong(cookie)
                .array());
    return data == null || data.length == 0 || error != 0
        ? header
        : header.concat(ByteString.fromArrayUnsafe(data));
  }
}
