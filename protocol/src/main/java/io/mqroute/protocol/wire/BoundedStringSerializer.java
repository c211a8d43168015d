package io.mqroute.protocol.wire;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import java.nio.charset.StandardCharsets;

/**
 * Strings as a varint byte length plus UTF-8. Kryo's own string reader allocates a char array as
 * large as the length the peer claims; this one first checks the length against the bytes actually
 * left, so a forged length cannot make the reader allocate gigabytes.
 */
final class BoundedStringSerializer extends Serializer<String> {
  BoundedStringSerializer() {
    super(true, true);
  }

  @Override
  public void write(Kryo kryo, Output output, String value) {
    writeString(output, value);
  }

  @Override
  public String read(Kryo kryo, Input input, Class<? extends String> type) {
    return readString(input);
  }

  /** Length 0 means null, otherwise length - 1 bytes follow. */
  static void writeString(Output output, String value) {
    if (value == null) {
      output.writeVarInt(0, true);
      return;
    }
    byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
    output.writeVarInt(utf8.length + 1, true);
    output.writeBytes(utf8);
  }

  static String readString(Input input) {
    int n = input.readVarInt(true);
    if (n == 0) {
      return null;
    }
    int len = n - 1;
    int left = input.limit() - input.position();
    if (len < 0 || len > left) {
      throw new KryoException(
          "string length " + len + " exceeds the " + left + " bytes left in the frame");
    }
    return new String(input.readBytes(len), StandardCharsets.UTF_8);
  }
}
