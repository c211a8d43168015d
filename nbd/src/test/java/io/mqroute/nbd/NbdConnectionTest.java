package io.mqroute.nbd;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.nbd.NbdConnection.Action;
import io.mqroute.nbd.NbdConnection.Close;
import io.mqroute.nbd.NbdConnection.Disconnect;
import io.mqroute.nbd.NbdConnection.Send;
import io.mqroute.nbd.NbdConnection.Submit;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.util.ByteString;
import org.junit.jupiter.api.Test;

/** The decoder alone: bytes in, actions out, with every bound of the class Javadoc. */
class NbdConnectionTest {
  private static final long SIZE = 1 << 20;

  private static ByteString bytes(ByteBuffer b) {
    return ByteString.fromArray(b.array());
  }

  static ByteString option(int option, byte[] data) {
    return bytes(
        ByteBuffer.allocate(16 + data.length)
            .putLong(NbdWire.IHAVEOPT)
            .putInt(option)
            .putInt(data.length)
            .put(data));
  }

  static ByteString request(int flags, int type, long cookie, long offset, long length) {
    return bytes(
        ByteBuffer.allocate(28)
            .putInt(NbdWire.REQUEST_MAGIC)
            .putShort((short) flags)
            .putShort((short) type)
            .putLong(cookie)
            .putLong(offset)
            .putInt((int) length));
  }

  private static NbdConnection connection() {
    return new NbdConnection("disk", SIZE, 8);
  }

  /** A connection past NBD_OPT_GO. */
  private static NbdConnection transmitting() {
    NbdConnection c = connection();
    c.feed(bytes(ByteBuffer.allocate(4).putInt(NbdWire.FLAG_C_FIXED_NEWSTYLE)));
    c.feed(option(NbdWire.OPT_GO, RawNbdClient.goData("disk")));
    assertThat(c.next()).isInstanceOf(Send.class);
    assertThat(c.inTransmission()).isTrue();
    return c;
  }

  private static List<Action> drain(NbdConnection c) {
    List<Action> out = new ArrayList<>();
    for (Action a = c.next(); a != null; a = c.next()) {
      out.add(a);
    }
    return out;
  }

  /** The option replies in {@code bytes}: {option, type, length} each. */
  private static List<int[]> optionReplies(ByteString bytes) {
    ByteBuffer b = bytes.asByteBuffer();
    List<int[]> out = new ArrayList<>();
    while (b.hasRemaining()) {
      assertThat(b.getLong()).isEqualTo(NbdWire.OPTION_REPLY_MAGIC);
      int[] r = {b.getInt(), b.getInt(), b.getInt()};
      b.position(b.position() + r[2]);
      out.add(r);
    }
    return out;
  }

  private static ByteBuffer simpleReply(Action a) {
    assertThat(a).isInstanceOf(Send.class);
    ByteBuffer b = ((Send) a).bytes().asByteBuffer();
    assertThat(b.getInt()).isEqualTo(NbdWire.SIMPLE_REPLY_MAGIC);
    return b;
  }

  @Test
  void theGreetingIsFixedNewstyleWithNoZeroes() {
    ByteBuffer g = connection().greeting().asByteBuffer();
    assertThat(g.getLong()).isEqualTo(NbdWire.NBDMAGIC);
    assertThat(g.getLong()).isEqualTo(NbdWire.IHAVEOPT);
    assertThat(g.getShort()).isEqualTo((short) 3);
    assertThat(g.hasRemaining()).isFalse();
  }

  @Test
  void goAnswersExportAndBlockSizeThenAckAndEntersTransmission() {
    NbdConnection c = connection();
    c.feed(bytes(ByteBuffer.allocate(4).putInt(1)));
    // split in the middle of the header: nothing until the rest arrives
    ByteString go = option(NbdWire.OPT_GO, RawNbdClient.goData("", NbdWire.INFO_BLOCK_SIZE));
    c.feed(go.take(10));
    assertThat(c.next()).isNull();
    c.feed(go.drop(10));
    Send s = (Send) c.next();
    List<int[]> replies = optionReplies(s.bytes());
    assertThat(replies)
        .extracting(r -> r[1])
        .containsExactly(NbdWire.REP_INFO, NbdWire.REP_INFO, NbdWire.REP_ACK);
    ByteBuffer b = s.bytes().asByteBuffer();
    b.position(20);
    assertThat(b.getShort()).isEqualTo((short) NbdWire.INFO_EXPORT);
    assertThat(b.getLong()).isEqualTo(SIZE);
    assertThat(b.getShort()).isEqualTo((short) NbdConnection.TRANSMISSION_FLAGS);
    b.position(20 + 12 + 20);
    assertThat(b.getShort()).isEqualTo((short) NbdWire.INFO_BLOCK_SIZE);
    assertThat(new int[] {b.getInt(), b.getInt(), b.getInt()}).containsExactly(1, 4096, 32768);
    assertThat(c.inTransmission()).isTrue();
  }

  @Test
  void infoAnswersButStaysInOptionsAndAnUnknownExportIsErrUnknown() {
    NbdConnection c = connection();
    c.feed(bytes(ByteBuffer.allocate(4).putInt(3)));
    c.feed(option(NbdWire.OPT_INFO, RawNbdClient.goData("disk", NbdWire.INFO_NAME)));
    c.feed(option(NbdWire.OPT_GO, RawNbdClient.goData("other")));
    List<Action> actions = drain(c);
    assertThat(optionReplies(((Send) actions.get(0)).bytes()))
        .extracting(r -> r[1])
        .containsExactly(NbdWire.REP_INFO, NbdWire.REP_INFO, NbdWire.REP_INFO, NbdWire.REP_ACK);
    assertThat(optionReplies(((Send) actions.get(1)).bytes()))
        .extracting(r -> r[1])
        .containsExactly(NbdWire.REP_ERR_UNKNOWN);
    assertThat(c.inTransmission()).isFalse();
  }

  @Test
  void listNamesTheExportAndUnknownOptionsAreUnsupported() {
    NbdConnection c = connection();
    c.feed(bytes(ByteBuffer.allocate(4).putInt(1)));
    c.feed(option(NbdWire.OPT_LIST, new byte[0]));
    c.feed(option(NbdWire.OPT_STRUCTURED_REPLY, new byte[0]));
    c.feed(option(NbdWire.OPT_STARTTLS, new byte[0]));
    c.feed(option(999, new byte[] {1, 2, 3}));
    c.feed(option(NbdWire.OPT_LIST, new byte[] {1}));
    List<Action> a = drain(c);
    assertThat(optionReplies(((Send) a.get(0)).bytes()))
        .extracting(r -> r[1])
        .containsExactly(NbdWire.REP_SERVER, NbdWire.REP_ACK);
    for (int i = 1; i <= 3; i++) {
      assertThat(optionReplies(((Send) a.get(i)).bytes()).get(0)[1])
          .isEqualTo(NbdWire.REP_ERR_UNSUP);
    }
    assertThat(optionReplies(((Send) a.get(4)).bytes()).get(0)[1])
        .isEqualTo(NbdWire.REP_ERR_INVALID);
  }

  @Test
  void exportNameAnswersSizeAndFlagsWithZeroesUnlessNoZeroes() {
    for (int flags : new int[] {1, 3}) {
      NbdConnection c = connection();
      c.feed(bytes(ByteBuffer.allocate(4).putInt(flags)));
      c.feed(option(NbdWire.OPT_EXPORT_NAME, "disk".getBytes()));
      ByteString reply = ((Send) c.next()).bytes();
      assertThat(reply.size()).isEqualTo(flags == 3 ? 10 : 134);
      assertThat(reply.asByteBuffer().getLong()).isEqualTo(SIZE);
      assertThat(c.inTransmission()).isTrue();
    }
    NbdConnection unknown = connection();
    unknown.feed(bytes(ByteBuffer.allocate(4).putInt(1)));
    unknown.feed(option(NbdWire.OPT_EXPORT_NAME, "nope".getBytes()));
    assertThat(unknown.next()).isInstanceOf(Close.class);
  }

  @Test
  void abortIsAckedThenASoftDisconnect() {
    NbdConnection c = connection();
    c.feed(bytes(ByteBuffer.allocate(4).putInt(1)));
    c.feed(option(NbdWire.OPT_ABORT, new byte[0]));
    List<Action> a = drain(c);
    assertThat(optionReplies(((Send) a.get(0)).bytes()).get(0)[1]).isEqualTo(NbdWire.REP_ACK);
    assertThat(a.get(1)).isInstanceOf(Disconnect.class);
    assertThat(a).hasSize(2);
  }

  @Test
  void unknownClientFlagsBadMagicAndTooManyOptionsClose() {
    NbdConnection flags = connection();
    flags.feed(bytes(ByteBuffer.allocate(4).putInt(4)));
    assertThat(flags.next()).isInstanceOf(Close.class);

    NbdConnection garbage = connection();
    garbage.feed(ByteString.fromString("\0\0\0\1GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
    assertThat(garbage.next()).isInstanceOf(Close.class);
    assertThat(garbage.next()).isNull();

    NbdConnection chatty = connection();
    chatty.feed(bytes(ByteBuffer.allocate(4).putInt(1)));
    for (int i = 0; i < 9; i++) {
      chatty.feed(option(NbdWire.OPT_LIST, new byte[0]));
    }
    List<Action> a = drain(chatty);
    assertThat(a).hasSize(9);
    assertThat(a.get(8)).isInstanceOf(Close.class);
  }

  @Test
  void oversizedOptionDataIsSkippedUnreadAndAnsweredTooBig() {
    NbdConnection c = connection();
    c.feed(bytes(ByteBuffer.allocate(4).putInt(1)));
    int huge = NbdConnection.MAX_OPTION_DATA + 1000;
    c.feed(
        bytes(
            ByteBuffer.allocate(16).putLong(NbdWire.IHAVEOPT).putInt(NbdWire.OPT_GO).putInt(huge)));
    assertThat(c.next()).isNull();
    Action answer = null;
    for (int sent = 0; sent < huge; sent += 100) {
      c.feed(ByteString.fromArray(new byte[Math.min(100, huge - sent)]));
      assertThat(c.buffered()).isZero();
      answer = c.next();
      assertThat(answer == null).isEqualTo(sent + 100 < huge);
    }
    assertThat(optionReplies(((Send) answer).bytes()).get(0)[1]).isEqualTo(NbdWire.REP_ERR_TOO_BIG);
    // still usable
    c.feed(option(NbdWire.OPT_GO, RawNbdClient.goData("")));
    assertThat(c.next()).isInstanceOf(Send.class);
    assertThat(c.inTransmission()).isTrue();
    // an oversized export name has no error reply: the connection ends
    NbdConnection n = connection();
    n.feed(bytes(ByteBuffer.allocate(4).putInt(1)));
    n.feed(bytes(ByteBuffer.allocate(16).putLong(NbdWire.IHAVEOPT).putInt(1).putInt(huge)));
    assertThat(n.next()).isInstanceOf(Close.class);
  }

  @Test
  void readsWritesFlushesAndTrimsBecomeSubmitsWithTheirCookies() {
    NbdConnection c = transmitting();
    c.feed(request(0, NbdWire.CMD_READ, 7, 4096, 4096));
    byte[] data = new byte[512];
    data[0] = 42;
    c.feed(request(0, NbdWire.CMD_WRITE, 8, 0, 512).concat(ByteString.fromArray(data)));
    c.feed(request(0, NbdWire.CMD_FLUSH, 9, 0, 0));
    c.feed(request(0, NbdWire.CMD_TRIM, 10, 0, SIZE));
    List<Action> a = drain(c);
    assertThat(a).hasSize(4);
    Submit read = (Submit) a.get(0);
    assertThat(read.cookie()).isEqualTo(7);
    assertThat(read.op()).isEqualTo(NbdBackend.Op.READ);
    assertThat(read.offset()).isEqualTo(4096);
    assertThat(read.length()).isEqualTo(4096);
    Submit write = (Submit) a.get(1);
    assertThat(write.op()).isEqualTo(NbdBackend.Op.WRITE);
    assertThat(write.data()).isEqualTo(data);
    assertThat(((Submit) a.get(2)).op()).isEqualTo(NbdBackend.Op.FLUSH);
    assertThat(((Submit) a.get(3)).op()).isEqualTo(NbdBackend.Op.TRIM);
    assertThat(((Submit) a.get(3)).length()).isEqualTo((int) SIZE);
  }

  @Test
  void aWriteWaitsForItsWholePayload() {
    NbdConnection c = transmitting();
    ByteString w =
        request(0, NbdWire.CMD_WRITE, 1, 0, 4096).concat(ByteString.fromArray(new byte[4096]));
    c.feed(w.take(28 + 4095));
    assertThat(c.next()).isNull();
    c.feed(w.drop(28 + 4095));
    assertThat(c.next()).isInstanceOf(Submit.class);
  }

  @Test
  void pastTheEndIsEinvalForReadAndTrimAndEnospcForWrite() {
    NbdConnection c = transmitting();
    c.feed(request(0, NbdWire.CMD_READ, 1, SIZE - 512, 1024));
    c.feed(request(0, NbdWire.CMD_TRIM, 2, SIZE, 1));
    c.feed(request(0, NbdWire.CMD_WRITE, 3, SIZE - 4, 8).concat(ByteString.fromArray(new byte[8])));
    // 2^64 - 1 as an unsigned offset
    c.feed(request(0, NbdWire.CMD_READ, 4, -1L, 1));
    List<Action> a = drain(c);
    assertThat(a).hasSize(4);
    int[] errors = new int[4];
    for (int i = 0; i < 4; i++) {
      ByteBuffer b = simpleReply(a.get(i));
      errors[i] = b.getInt();
      assertThat(b.getLong()).isEqualTo(i + 1);
    }
    assertThat(errors)
        .containsExactly(NbdWire.EINVAL, NbdWire.EINVAL, NbdWire.ENOSPC, NbdWire.EINVAL);
  }

  @Test
  void overTheMaximumPayloadIsEinvalAndTheConnectionStaysUsable() {
    NbdConnection c = transmitting();
    c.feed(request(0, NbdWire.CMD_READ, 1, 0, 32 * 1024 + 1));
    int big = 1 << 20;
    List<Action> a = new ArrayList<>(drain(c));
    c.feed(request(0, NbdWire.CMD_WRITE, 2, 0, big));
    assertThat(c.next()).isNull();
    // the payload arrives and is discarded, never buffered
    for (int sent = 0; sent < big; sent += 65536) {
      c.feed(ByteString.fromArray(new byte[65536]));
      assertThat(c.buffered()).isZero();
      a.addAll(drain(c));
    }
    c.feed(request(0, NbdWire.CMD_READ, 3, 0, 32 * 1024));
    a.addAll(drain(c));
    assertThat(a).hasSize(3);
    assertThat(simpleReply(a.get(0)).getInt()).isEqualTo(NbdWire.EINVAL);
    ByteBuffer w = simpleReply(a.get(1));
    assertThat(w.getInt()).isEqualTo(NbdWire.EINVAL);
    assertThat(w.getLong()).isEqualTo(2);
    assertThat(a.get(2)).isInstanceOf(Submit.class);
  }

  @Test
  void aHugeWriteLengthOrABadMagicEndsTheConnection() {
    NbdConnection huge = transmitting();
    huge.feed(request(0, NbdWire.CMD_WRITE, 1, 0, 0xffffffffL));
    assertThat(huge.next()).isInstanceOf(Close.class);
    NbdConnection magic = transmitting();
    magic.feed(ByteString.fromArray(new byte[28]));
    assertThat(magic.next()).isInstanceOf(Close.class);
  }

  @Test
  void unknownCommandsAndFlagsAreEinvalAndDiscIsASoftDisconnect() {
    NbdConnection c = transmitting();
    c.feed(request(0, 6, 1, 0, 4096)); // NBD_CMD_WRITE_ZEROES: not advertised
    c.feed(request(1, NbdWire.CMD_READ, 2, 0, 4096)); // FUA: not advertised
    c.feed(request(0, NbdWire.CMD_READ, 3, 0, 0));
    c.feed(request(0, NbdWire.CMD_DISC, 4, 0, 0));
    c.feed(request(0, NbdWire.CMD_READ, 5, 0, 4096)); // after DISC: ignored
    List<Action> a = drain(c);
    assertThat(simpleReply(a.get(0)).getInt()).isEqualTo(NbdWire.EINVAL);
    assertThat(simpleReply(a.get(1)).getInt()).isEqualTo(NbdWire.EINVAL);
    assertThat(simpleReply(a.get(2)).getInt()).isZero();
    assertThat(a.get(3)).isInstanceOf(Disconnect.class);
    assertThat(a).hasSize(4);
  }
}
