package io.mqroute.nbd;

import static io.mqroute.nbd.NbdWire.*;

import io.mqroute.protocol.Request;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.apache.pekko.util.ByteString;

/**
 * One client connection's NBD protocol, as a decoder with no I/O of its own: bytes go in with
 * {@link #feed}, and {@link #next} turns what has arrived into {@link Action}s (bytes to send, a
 * request for the backend, a close), one at a time, so the caller decides how much it takes on.
 *
 * <p>Handshake: fixed newstyle only (the greeting sets NBD_FLAG_FIXED_NEWSTYLE and
 * NBD_FLAG_NO_ZEROES); unknown client flags end the connection, as the spec requires. Options:
 * EXPORT_NAME, GO, INFO, LIST and ABORT; every other one is answered NBD_REP_ERR_UNSUP (structured
 * replies and TLS included, so replies stay simple). GO and INFO always advertise
 * NBD_INFO_BLOCK_SIZE (1, 4096, {@link Request#MAX_DATA}), so a client that honours it splits
 * larger I/O.
 *
 * <p>Bounds: option data over {@link #MAX_OPTION_DATA} bytes is skipped unread and answered
 * NBD_REP_ERR_TOO_BIG (EXPORT_NAME, which has no error reply, ends the connection); more than
 * {@code maxOptions} options end it. In transmission, a read or write over the maximum payload is
 * answered EINVAL and the connection stays usable: a write's payload up to 2^25 bytes is read and
 * discarded (the spec's threshold for calling it a denial of service), a longer one ends the
 * connection, as does a bad magic. A read or trim past the export's end is EINVAL, a write past it
 * ENOSPC (the spec's errors for each); unknown commands and flags are EINVAL.
 */
public final class NbdConnection {
  /** What the caller does next. */
  public sealed interface Action permits Send, Submit, Close, Disconnect {}

  /** Write these bytes to the client. */
  public record Send(ByteString bytes) implements Action {}

  /** Start this request on the backend and send {@link NbdWire#simpleReply} when it ends. */
  public record Submit(long cookie, NbdBackend.Op op, long offset, int length, byte[] data)
      implements Action {}

  /** Send what is queued, then close the connection (a hard disconnect): no more actions. */
  public record Close(String reason) implements Action {}

  /**
   * The client's soft disconnect (NBD_CMD_DISC or NBD_OPT_ABORT): answer what is in flight, then
   * close. No more actions.
   */
  public record Disconnect(String reason) implements Action {}

  /**
   * The longest option data read: GO and INFO carry a name of up to {@link NbdWire#MAX_STRING}
   * bytes plus information requests.
   */
  public static final int MAX_OPTION_DATA = 4 + MAX_STRING + 2 + 2 * 64;

  /** The transmission flags of an export: flush, trim and several connections are supported. */
  public static final int TRANSMISSION_FLAGS =
      FLAG_HAS_FLAGS | FLAG_SEND_FLUSH | FLAG_SEND_TRIM | FLAG_CAN_MULTI_CONN;

  private enum Phase {
    CLIENT_FLAGS,
    OPTIONS,
    TRANSMISSION,
    ENDED
  }

  private final String exportName;
  private final long size;
  private final int maxOptions;
  private Phase phase = Phase.CLIENT_FLAGS;
  private ByteString buffer = ByteString.emptyByteString();
  private boolean noZeroes;
  private int options;
  // bytes still to discard, and what to answer once they are gone
  private long skip;
  private Action afterSkip;

  /**
   * @param exportName the one export's name; the empty name (the default export) selects it too
   * @param size its size in bytes
   * @param maxOptions the most options one handshake may send
   */
  public NbdConnection(String exportName, long size, int maxOptions) {
    if (exportName.getBytes(StandardCharsets.UTF_8).length > MAX_STRING) {
      throw new IllegalArgumentException("an export name has at most " + MAX_STRING + " bytes");
    }
    if (size <= 0) {
      throw new IllegalArgumentException("export size must be > 0, was " + size);
    }
    this.exportName = exportName;
    this.size = size;
    this.maxOptions = maxOptions;
  }

  /** The server's first bytes. */
  public ByteString greeting() {
    return NbdWire.greeting();
  }

  /** True once option haggling has ended in the transmission phase. */
  public boolean inTransmission() {
    return phase == Phase.TRANSMISSION;
  }

  /** Bytes received and not yet decoded. */
  public int buffered() {
    return buffer.size();
  }

  /** Appends received bytes (ignored after the connection ended). */
  public void feed(ByteString bytes) {
    if (phase == Phase.ENDED) {
      return;
    }
    if (skip > 0) {
      int n = (int) Math.min(skip, bytes.size());
      skip -= n;
      bytes = bytes.drop(n);
    }
    buffer = buffer.concat(bytes);
  }

  /** The next action, or null when more bytes are needed. */
  public Action next() {
    if (skip > 0) {
      return null;
    }
    if (afterSkip != null) {
      Action a = afterSkip;
      afterSkip = null;
      return a;
    }
    return switch (phase) {
      case CLIENT_FLAGS -> clientFlags();
      case OPTIONS -> option();
      case TRANSMISSION -> request();
      case ENDED -> null;
    };
  }

  private Action end(Action a) {
    phase = Phase.ENDED;
    buffer = ByteString.emptyByteString();
    return a;
  }

  private Action clientFlags() {
    if (buffer.size() < 4) {
      return null;
    }
    int flags = buffer.asByteBuffer().getInt();
    buffer = buffer.drop(4);
    if ((flags & ~(FLAG_C_FIXED_NEWSTYLE | FLAG_C_NO_ZEROES)) != 0) {
      return end(new Close("unknown client flags 0x" + Integer.toHexString(flags)));
    }
    noZeroes = (flags & FLAG_C_NO_ZEROES) != 0;
    phase = Phase.OPTIONS;
    return next();
  }

  private Action option() {
    if (buffer.size() < OPTION_HEADER_BYTES) {
      return null;
    }
    ByteBuffer h = buffer.take(OPTION_HEADER_BYTES).asByteBuffer();
    long magic = h.getLong();
    int option = h.getInt();
    long length = Integer.toUnsignedLong(h.getInt());
    if (magic != IHAVEOPT) {
      return end(new Close("bad option magic 0x" + Long.toHexString(magic)));
    }
    if (++options > maxOptions) {
      return end(new Close("more than " + maxOptions + " options"));
    }
    if (length > MAX_OPTION_DATA) {
      if (option == OPT_EXPORT_NAME) {
        return end(new Close("an export name of " + length + " bytes"));
      }
      buffer = buffer.drop(OPTION_HEADER_BYTES);
      skipThen(
          length,
          new Send(
              optionError(
                  option, REP_ERR_TOO_BIG, "option data over " + MAX_OPTION_DATA + " bytes")));
      return next();
    }
    if (buffer.size() < OPTION_HEADER_BYTES + length) {
      return null;
    }
    ByteString data = buffer.slice(OPTION_HEADER_BYTES, OPTION_HEADER_BYTES + (int) length);
    buffer = buffer.drop(OPTION_HEADER_BYTES + (int) length);
    return switch (option) {
      case OPT_EXPORT_NAME -> exportName(data);
      case OPT_ABORT ->
          end(new Disconnect("NBD_OPT_ABORT"), optionReply(option, REP_ACK, new byte[0]));
      case OPT_LIST ->
          data.isEmpty()
              ? new Send(server(exportName).concat(optionReply(OPT_LIST, REP_ACK, new byte[0])))
              : new Send(optionError(option, REP_ERR_INVALID, "NBD_OPT_LIST takes no data"));
      case OPT_INFO, OPT_GO -> infoOrGo(option, data);
      default ->
          new Send(optionError(option, REP_ERR_UNSUP, "option " + option + " is not supported"));
    };
  }

  /** Ends with {@code a} after sending {@code last}. */
  private Action end(Disconnect a, ByteString last) {
    afterSkip = end(a);
    return new Send(last);
  }

  private void skipThen(long bytes, Action then) {
    int n = (int) Math.min(bytes, buffer.size());
    buffer = buffer.drop(n);
    skip = bytes - n;
    afterSkip = then;
  }

  private Action exportName(ByteString data) {
    String name = decode(data);
    if (name == null || !selects(name)) {
      return end(new Close("NBD_OPT_EXPORT_NAME for an unknown export"));
    }
    phase = Phase.TRANSMISSION;
    return new Send(exportNameReply(size, TRANSMISSION_FLAGS, noZeroes));
  }

  private boolean selects(String name) {
    return name.isEmpty() || name.equals(exportName);
  }

  private Action infoOrGo(int option, ByteString data) {
    ByteBuffer b = data.asByteBuffer();
    if (b.remaining() < 6) {
      return new Send(optionError(option, REP_ERR_INVALID, "option data shorter than 6 bytes"));
    }
    long nameLength = Integer.toUnsignedLong(b.getInt());
    if (nameLength > b.remaining() - 2) {
      return new Send(optionError(option, REP_ERR_INVALID, "name length past the option data"));
    }
    String name = decode(data.slice(4, 4 + (int) nameLength));
    b.position(4 + (int) nameLength);
    int requests = Short.toUnsignedInt(b.getShort());
    if (b.remaining() != 2 * requests) {
      return new Send(
          optionError(option, REP_ERR_INVALID, "information requests do not fill the option"));
    }
    boolean wantsName = false;
    for (int i = 0; i < requests; i++) {
      wantsName |= b.getShort() == INFO_NAME;
    }
    if (name == null || !selects(name)) {
      return new Send(optionError(option, REP_ERR_UNKNOWN, "no such export"));
    }
    ByteString reply =
        infoExport(option, size, TRANSMISSION_FLAGS)
            .concat(infoBlockSize(option, 1, 4096, Request.MAX_DATA));
    if (wantsName) {
      reply = reply.concat(infoName(option, exportName));
    }
    reply = reply.concat(optionReply(option, REP_ACK, new byte[0]));
    if (option == OPT_GO) {
      phase = Phase.TRANSMISSION;
    }
    return new Send(reply);
  }

  /** The UTF-8 string, or null when it is not valid UTF-8. */
  private static String decode(ByteString bytes) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(bytes.asByteBuffer())
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  private Action request() {
    if (buffer.size() < REQUEST_HEADER_BYTES) {
      return null;
    }
    ByteBuffer h = buffer.take(REQUEST_HEADER_BYTES).asByteBuffer();
    int magic = h.getInt();
    int flags = Short.toUnsignedInt(h.getShort());
    int type = Short.toUnsignedInt(h.getShort());
    long cookie = h.getLong();
    long offset = h.getLong();
    long length = Integer.toUnsignedLong(h.getInt());
    if (magic != REQUEST_MAGIC) {
      return end(new Close("bad request magic 0x" + Integer.toHexString(magic)));
    }
    if (type == CMD_WRITE && length > Request.MAX_DATA) {
      if (length > DOS_PAYLOAD) {
        return end(new Close("a write of " + length + " bytes"));
      }
      buffer = buffer.drop(REQUEST_HEADER_BYTES);
      skipThen(length, new Send(simpleReply(EINVAL, cookie, null)));
      return next();
    }
    int payload = type == CMD_WRITE ? (int) length : 0;
    if (buffer.size() < REQUEST_HEADER_BYTES + payload) {
      return null;
    }
    byte[] data =
        type == CMD_WRITE
            ? buffer.slice(REQUEST_HEADER_BYTES, REQUEST_HEADER_BYTES + payload).toArray()
            : null;
    buffer = buffer.drop(REQUEST_HEADER_BYTES + payload);
    if (type == CMD_DISC) {
      return end(new Disconnect("NBD_CMD_DISC"));
    }
    if (flags != 0) {
      // none of the command flags is negotiated (no FUA, no structured replies)
      return new Send(simpleReply(EINVAL, cookie, null));
    }
    // unsigned offsets over 2^63 are negative here: past any export
    boolean inside = offset >= 0 && length <= size && offset <= size - length;
    return switch (type) {
      case CMD_READ -> {
        if (length > Request.MAX_DATA || !inside) {
          yield new Send(simpleReply(EINVAL, cookie, null));
        }
        yield length == 0
            ? new Send(simpleReply(0, cookie, null))
            : new Submit(cookie, NbdBackend.Op.READ, offset, (int) length, null);
      }
      case CMD_WRITE -> {
        if (!inside) {
          yield new Send(simpleReply(ENOSPC, cookie, null));
        }
        yield length == 0
            ? new Send(simpleReply(0, cookie, null))
            : new Submit(cookie, NbdBackend.Op.WRITE, offset, (int) length, data);
      }
      case CMD_TRIM -> {
        if (!inside) {
          yield new Send(simpleReply(EINVAL, cookie, null));
        }
        // a trim has no payload: its length may exceed the maximum payload, as the spec allows
        yield length == 0
            ? new Send(simpleReply(0, cookie, null))
            : new Submit(
                cookie,
                NbdBackend.Op.TRIM,
                offset,
                (int) Math.min(length, Integer.MAX_VALUE),
                null);
      }
      case CMD_FLUSH -> new Submit(cookie, NbdBackend.Op.FLUSH, 0, 0, null);
      default -> new Send(simpleReply(EINVAL, cookie, null));
    };
  }
}
