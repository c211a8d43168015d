package io.mqroute.cluster;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;

/**
 * Seeded malformed input for a node's Artery port, one connection's bytes at a time ({@link
 * Script}): Artery's TCP framing (magic, stream id, frame lengths and bodies) and TLS records (a
 * real ClientHello mutated, cut, or followed by garbage). Every script is made from the random
 * stream up front, so a seed gives the same bytes whatever order the connections run in.
 */
final class FuzzFrames {
  private FuzzFrames() {}

  /**
   * One connection's bytes, in writes.
   *
   * @param frames malformed or generated frames (or records) in it, for the count
   * @param malformed true if the node must close it on its own: a framing violation, or bytes that
   *     never complete a handshake (then at the handshake timeout)
   */
  record Script(List<byte[]> writes, int frames, boolean malformed, String kind) {}

  static byte[] intLe(int v) {
    return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array();
  }

  private static byte[] random(SplittableRandom r, int n) {
    byte[] b = new byte[n];
    r.nextBytes(b);
    return b;
  }

  /**
   * Artery TCP: a header (mostly right, sometimes a wrong magic, stream id or protocol), then 1..8
   * frames whose lengths are valid, zero, negative, past the maximum, huge or random, with bodies
   * that are random, envelope-like, cut short or too long.
   */
  static Script arteryTcp(SplittableRandom r, int maxFrame) {
    List<byte[]> w = new ArrayList<>();
    boolean bad = false;
    int frames = 0;
    int h = r.nextInt(10);
    switch (h) {
      case 0 -> {
        w.add(new byte[] {'A', 'K', 'K', (byte) ('A' ^ (1 << r.nextInt(8))), 2});
        bad = true;
      }
      case 1 -> {
        // 0, past the three streams, or the large-message stream a node without
        // large-message-destinations does not take
        int id = r.nextBoolean() ? r.nextInt(4, 256) : r.nextBoolean() ? 0 : 3;
        w.add(new byte[] {'A', 'K', 'K', 'A', (byte) id});
        bad = true;
      }
      case 2 -> {
        w.add("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        return new Script(w, 1, true, "http");
      }
      case 3 -> {
        w.add(random(r, r.nextInt(1, 64)));
        return new Script(w, 1, true, "random header");
      }
      default -> {
        // Akka's magic or Pekko 2's, the control or the ordinary stream
        byte[] magic =
            r.nextBoolean() ? new byte[] {'A', 'K', 'K', 'A'} : new byte[] {'P', 'E', 'K', 'K'};
        w.add(magic);
        w.add(new byte[] {(byte) (r.nextBoolean() ? 2 : 1)});
      }
    }
    int n = r.nextInt(1, 9);
    boolean whole = false; // a whole valid frame went before: a plain-tcp peer is then established
    boolean stop = bad;
    StringBuilder kinds = new StringBuilder();
    for (int f = 0; f < n && !stop; f++, frames++) {
      int k = r.nextInt(12);
      kinds.append(k).append(' ');
      switch (k) {
        case 0 -> {
          w.add(intLe(-r.nextInt(1, Integer.MAX_VALUE)));
          bad = true;
        }
        case 1 -> {
          w.add(intLe(-4)); // the 9-byte repro of issue #15
          bad = true;
        }
        case 2 -> {
          w.add(intLe(0));
          bad = true;
        }
        case 3 -> {
          w.add(intLe(r.nextBoolean() ? Integer.MAX_VALUE : maxFrame + 1 + r.nextInt(1 << 20)));
          w.add(random(r, r.nextInt(0, 4096)));
          bad = true;
        }
        case 4 -> {
          // declared longer than what comes: the connection stalls inside the frame
          int len = r.nextInt(16, 4096);
          w.add(intLe(len));
          w.add(random(r, r.nextInt(0, len)));
          stop = true;
        }
        case 5 -> {
          // a frame of exactly the maximum
          w.add(intLe(maxFrame));
          w.add(random(r, maxFrame));
          whole = true;
        }
        case 6 -> {
          // an envelope-like body: version 0, random flags and compression versions
          int len = r.nextInt(28, 512);
          byte[] body = random(r, len);
          body[0] = 0;
          w.add(intLe(len));
          w.add(body);
          whole = true;
        }
        case 7 -> {
          // half a length field, then nothing
          w.add(new byte[] {(byte) r.nextInt(), (byte) r.nextInt()});
          stop = true;
        }
        default -> {
          int len = r.nextInt(1, 300);
          w.add(intLe(len));
          w.add(random(r, len));
          whole = true;
        }
      }
      stop |= bad;
    }
    // the node must close it when it breaks the framing, or when it never got as far as a whole
    // frame (at the handshake timeout); a stall after a whole frame is a peer that went quiet
    return new Script(
        split(w, r), Math.max(1, frames), bad || !whole, "artery " + h + ": " + kinds);
  }

  /** A client's first flight: a real ClientHello record from the JDK's TLS 1.3 engine. */
  static byte[] clientHello() {
    try {
      SSLContext ctx = SSLContext.getInstance("TLSv1.3");
      ctx.init(null, null, null);
      SSLEngine e = ctx.createSSLEngine("127.0.0.1", 0);
      e.setUseClientMode(true);
      e.setEnabledProtocols(new String[] {"TLSv1.3"});
      ByteBuffer out = ByteBuffer.allocate(e.getSession().getPacketBufferSize());
      e.wrap(ByteBuffer.allocate(0), out);
      out.flip();
      byte[] b = new byte[out.remaining()];
      out.get(b);
      return b;
    } catch (java.security.GeneralSecurityException | SSLException ex) {
      throw new IllegalStateException(ex);
    }
  }

  /**
   * TLS: records with a wrong type, version or length; a real ClientHello with flipped bits, cut
   * short, or followed by records of garbage; garbage that is not TLS at all.
   */
  static Script tls(SplittableRandom r, byte[] hello) {
    List<byte[]> w = new ArrayList<>();
    int records = r.nextInt(1, 6);
    int kind = r.nextInt(10);
    switch (kind) {
      case 0 -> {
        // records of any type and version, lengths in and out of range
        for (int i = 0; i < records; i++) {
          int len = r.nextInt(4) == 0 ? r.nextInt(1 << 16) : r.nextInt(1, 200);
          w.add(
              new byte[] {
                (byte) r.nextInt(18, 26),
                (byte) r.nextInt(2, 5),
                (byte) r.nextInt(5),
                (byte) (len >> 8),
                (byte) len
              });
          w.add(random(r, Math.min(len, r.nextInt(1, 400))));
        }
      }
      case 1 -> {
        byte[] b = hello.clone();
        for (int i = r.nextInt(1, 6); i > 0; i--) {
          b[r.nextInt(b.length)] ^= (byte) (1 << r.nextInt(8));
        }
        w.add(b);
        records = 1;
      }
      case 2 -> {
        // the handshake cut off: part of the ClientHello, then silence
        w.add(java.util.Arrays.copyOf(hello, r.nextInt(1, hello.length)));
        records = 1;
      }
      case 3 -> {
        // a whole ClientHello, then records of garbage where the client's second flight belongs
        w.add(hello);
        for (int i = 1; i < records; i++) {
          int len = r.nextInt(1, 600);
          w.add(new byte[] {23, 3, 3, (byte) (len >> 8), (byte) len});
          w.add(random(r, len));
        }
      }
      case 4 -> {
        // a whole ClientHello and nothing more: the node answers, the client never does
        w.add(hello);
        records = 1;
      }
      case 5 -> {
        // a ClientHello record whose length field lies
        byte[] b = hello.clone();
        int len = r.nextBoolean() ? 0 : r.nextInt(1 << 14, 1 << 16);
        b[3] = (byte) (len >> 8);
        b[4] = (byte) len;
        w.add(b);
        records = 1;
      }
      case 6, 8 -> {
        // plain Artery framing on the TLS port
        w.add(new byte[] {'A', 'K', 'K', 'A', 2});
        w.add(intLe(-4));
        records = 1;
      }
      default -> {
        w.add(random(r, r.nextInt(1, 2048)));
        records = 1;
      }
    }
    return new Script(split(w, r), records, true, "tls " + kind);
  }

  /** Regroups the bytes into writes of random sizes (frames split and joined across writes). */
  private static List<byte[]> split(List<byte[]> parts, SplittableRandom r) {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      all.writeBytes(p);
    }
    byte[] b = all.toByteArray();
    List<byte[]> out = new ArrayList<>();
    int at = 0;
    while (at < b.length) {
      int n = r.nextInt(4) == 0 ? r.nextInt(1, 8) : r.nextInt(1, 16 * 1024);
      n = Math.min(n, b.length - at);
      out.add(java.util.Arrays.copyOfRange(b, at, at + n));
      at += n;
    }
    return out;
  }
}
