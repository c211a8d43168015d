package io.mqroute.nbd;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;

/** A hand-rolled NBD client for tests: blocking socket, every read bounded by a timeout. */
final class RawNbdClient implements AutoCloseable {
  final Socket socket;
  final DataInputStream in;
  final DataOutputStream out;

  RawNbdClient(InetSocketAddress server) throws IOException {
    socket = new Socket();
    socket.connect(server, 5_000);
    socket.setSoTimeout(10_000);
    socket.setTcpNoDelay(true);
    in = new DataInputStream(socket.getInputStream());
    out = new DataOutputStream(socket.getOutputStream());
  }

  /** Reads the greeting and answers with client flags; returns the handshake flags. */
  int greet(int clientFlags) throws IOException {
    long magic = in.readLong();
    long opt = in.readLong();
    int flags = in.readUnsignedShort();
    if (magic != NbdWire.NBDMAGIC || opt != NbdWire.IHAVEOPT) {
      throw new IOException("bad greeting");
    }
    out.writeInt(clientFlags);
    out.flush();
    return flags;
  }

  void option(int option, byte[] data) throws IOException {
    out.writeLong(NbdWire.IHAVEOPT);
    out.writeInt(option);
    out.writeInt(data.length);
    out.write(data);
    out.flush();
  }

  record OptionReply(int option, int type, byte[] data) {}

  OptionReply optionReply() throws IOException {
    long magic = in.readLong();
    if (magic != NbdWire.OPTION_REPLY_MAGIC) {
      throw new IOException("bad option reply magic " + Long.toHexString(magic));
    }
    int option = in.readInt();
    int type = in.readInt();
    byte[] data = new byte[in.readInt()];
    in.readFully(data);
    return new OptionReply(option, type, data);
  }

  static byte[] goData(String name, int... infos) {
    byte[] n = name.getBytes();
    ByteBuffer b = ByteBuffer.allocate(4 + n.length + 2 + 2 * infos.length);
    b.putInt(n.length).put(n).putShort((short) infos.length);
    for (int i : infos) {
      b.putShort((short) i);
    }
    return b.array();
  }

  /** Handshake with NBD_OPT_GO for the default export; returns the export size. */
  long go() throws IOException {
    greet(NbdWire.FLAG_C_FIXED_NEWSTYLE | NbdWire.FLAG_C_NO_ZEROES);
    option(NbdWire.OPT_GO, goData("", NbdWire.INFO_BLOCK_SIZE));
    long size = -1;
    while (true) {
      OptionReply r = optionReply();
      if (r.type() == NbdWire.REP_ACK) {
        return size;
      }
      if (r.type() != NbdWire.REP_INFO) {
        throw new IOException("GO failed: reply type " + Integer.toHexString(r.type()));
      }
      ByteBuffer b = ByteBuffer.wrap(r.data());
      if (b.getShort() == NbdWire.INFO_EXPORT) {
        size = b.getLong();
      }
    }
  }

  void request(int type, long cookie, long offset, int length, byte[] data) throws IOException {
    out.writeInt(NbdWire.REQUEST_MAGIC);
    out.writeShort(0);
    out.writeShort(type);
    out.writeLong(cookie);
    out.writeLong(offset);
    out.writeInt(length);
    if (data != null) {
      out.write(data);
    }
    out.flush();
  }

  record Reply(int error, long cookie) {}

  Reply reply() throws IOException {
    int magic = in.readInt();
    if (magic != NbdWire.SIMPLE_REPLY_MAGIC) {
      throw new IOException("bad reply magic " + Integer.toHexString(magic));
    }
    return new Reply(in.readInt(), in.readLong());
  }

  byte[] readData(int length) throws IOException {
    byte[] b = new byte[length];
    in.readFully(b);
    return b;
  }

  /** True when the server closed the connection (EOF or reset) before the timeout. */
  boolean closedByServer() throws IOException {
    try {
      while (in.read() >= 0) {
        // drain whatever the server still sent
      }
      return true;
    } catch (EOFException e) {
      return true;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return e.getMessage() != null && e.getMessage().contains("reset");
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
