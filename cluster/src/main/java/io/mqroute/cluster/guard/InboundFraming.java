package io.mqroute.cluster.guard;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * What {@link ArteryGuard} checks of the bytes it relays, one connection at a time, incrementally
 * (bytes arrive in any split): the frame structure, never the content. A violation ends the
 * connection before the bytes that carry it reach Artery.
 */
abstract class InboundFraming {
  /** Artery's stream ids (ArteryTransport.ControlStreamId, OrdinaryStreamId, LargeStreamId). */
  static final int CONTROL = 1;

  static final int ORDINARY = 2;
  static final int LARGE = 3;

  /**
   * Looks at {@code length} new bytes of {@code buf} from {@code from} on ({@code buf}'s position
   * and limit are not changed).
   *
   * @param fromClient true for the connecting peer's bytes, false for the node's answers
   * @return null if they are well formed so far, else the reason in a few words (fixed text)
   */
  abstract String inspect(boolean fromClient, ByteBuffer buf, int from, int length);

  /** True once the connection has shown it is a peer that completed its side of the handshake. */
  abstract boolean established();

  /**
   * True between frames: the peer's bytes so far end where a frame (record) ends. A peer that ends
   * its stream elsewhere has its connection to the node reset rather than closed, so that Artery
   * does not take the cut frame for a truncated one of its own (an error with a stack trace).
   */
  abstract boolean atBoundary();

  /** Where the connection got to, in a few words, for the log line that closes it. */
  abstract String progress();

  /**
   * Artery's TCP framing (artery/tcp/TcpFraming, Pekko 1.7.0 has no bound on a frame length): a
   * 4-byte magic, a stream id byte, then frames of a little-endian int32 length and that many
   * bytes. Only the peer's bytes are framed (the node sends nothing back on an inbound connection).
   * Established after the header and one whole frame.
   */
  static final class ArteryTcp extends InboundFraming {
    private final List<byte[]> magics;
    private final int maxFrame;
    private final int maxLargeFrame;
    private final byte[] header = new byte[5];
    private int headerRead;
    private int maxForStream;
    private int lengthRead;
    private int length;
    private long bodyLeft;
    private boolean oneFrame;

    /**
     * @param magics the accepted 4-byte magics ({@code pekko.remote.artery.advanced.tcp-magic})
     * @param maxFrame {@code maximum-frame-size}, for the control and ordinary streams
     * @param maxLargeFrame {@code maximum-large-frame-size}, for the large-message stream; 0
     *     refuses that stream (Artery drops what it carries when no large-message-destinations are
     *     configured)
     */
    ArteryTcp(List<byte[]> magics, int maxFrame, int maxLargeFrame) {
      this.magics = magics;
      this.maxFrame = maxFrame;
      this.maxLargeFrame = maxLargeFrame;
    }

    @Override
    String inspect(boolean fromClient, ByteBuffer buf, int from, int n) {
      if (!fromClient) {
        return null; // the node's side: nothing to frame
      }
      int i = from;
      int end = from + n;
      while (i < end) {
        if (headerRead < 5) {
          header[headerRead++] = buf.get(i++);
          if (headerRead == 4 && !knownMagic()) {
            return "not Artery (magic)";
          }
          if (headerRead == 5) {
            int stream = header[4];
            if (stream != CONTROL
                && stream != ORDINARY
                && (stream != LARGE || maxLargeFrame == 0)) {
              return "unknown stream id";
            }
            maxForStream = stream == LARGE ? maxLargeFrame : maxFrame;
          }
        } else if (bodyLeft > 0) {
          int take = (int) Math.min(bodyLeft, end - i);
          bodyLeft -= take;
          i += take;
          if (bodyLeft == 0) {
            oneFrame = true;
          }
        } else {
          length |= (buf.get(i++) & 0xff) << (8 * lengthRead);
          if (++lengthRead == 4) {
            if (length <= 0 || length > maxForStream) {
              return length <= 0 ? "frame length <= 0" : "frame length over the maximum";
            }
            bodyLeft = length;
            lengthRead = 0;
            length = 0;
          }
        }
      }
      return null;
    }

    private boolean knownMagic() {
      for (byte[] m : magics) {
        if (m[0] == header[0] && m[1] == header[1] && m[2] == header[2] && m[3] == header[3]) {
          return true;
        }
      }
      return false;
    }

    @Override
    boolean established() {
      return oneFrame;
    }

    @Override
    boolean atBoundary() {
      return (headerRead == 0 || headerRead == 5) && bodyLeft == 0 && lengthRead == 0;
    }

    @Override
    String progress() {
      return headerRead < 5 ? "no whole connection header" : "no whole frame";
    }
  }

  /**
   * TLS record framing (RFC 8446 §5.1): content type 20..23, protocol version 3.x, a length of 1 to
   * 2^14 + 2048 (TLS 1.2's ciphertext bound, above 1.3's 2^14 + 256); the peer's first record is a
   * handshake record (its ClientHello). The content is encrypted, so "established" is read from the
   * turns: peer (ClientHello), node (ServerHello .. Finished), peer (its certificate and Finished),
   * node again (the JDK sends NewSessionTicket once it has verified the peer's Finished, and an
   * alert then a close when it refuses the certificate). A peer without the cluster's certificate
   * cannot bring about the fourth turn and stay connected.
   */
  static final class Tls extends InboundFraming {
    static final int MAX_RECORD = (1 << 14) + 2048;
    private final Direction client = new Direction();
    private final Direction server = new Direction();
    private int turns;
    private boolean lastFromClient;

    private static final class Direction {
      private final byte[] header = new byte[5];
      private int headerRead;
      private int bodyLeft;
      private boolean any;
    }

    @Override
    String inspect(boolean fromClient, ByteBuffer buf, int from, int n) {
      Direction d = fromClient ? client : server;
      int i = from;
      int end = from + n;
      while (i < end) {
        if (d.headerRead < 5) {
          d.header[d.headerRead++] = buf.get(i++);
          if (d.headerRead == 1) {
            int type = d.header[0];
            if (type < 20 || type > 23) {
              return "not a TLS record";
            }
            if (fromClient && !d.any && type != 22) {
              return "no TLS ClientHello";
            }
          } else if (d.headerRead == 2 && d.header[1] != 3) {
            return "not a TLS record";
          } else if (d.headerRead == 5) {
            int len = ((d.header[3] & 0xff) << 8) | (d.header[4] & 0xff);
            if (len < 1 || len > MAX_RECORD) {
              return "TLS record length out of range";
            }
            d.bodyLeft = len;
          }
        } else {
          int take = Math.min(d.bodyLeft, end - i);
          d.bodyLeft -= take;
          i += take;
        }
        if (d.headerRead == 5 && d.bodyLeft == 0) {
          record(fromClient);
          d.any = true;
          d.headerRead = 0;
        }
      }
      return null;
    }

    private void record(boolean fromClient) {
      if (turns == 0 || fromClient != lastFromClient) {
        turns++;
        lastFromClient = fromClient;
      }
    }

    @Override
    boolean established() {
      return turns >= 4;
    }

    @Override
    boolean atBoundary() {
      return client.headerRead == 0;
    }

    @Override
    String progress() {
      return "handshake at turn " + turns + " of 4";
    }
  }
}
