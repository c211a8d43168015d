package io.mqroute.protocol.wire;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import io.mqroute.protocol.HostAlive;

/** {@link HostAlive} as one unsigned varint; a negative count is refused as malformed. */
final class HostAliveSerializer extends Serializer<HostAlive> {
  HostAliveSerializer() {
    super(false, true);
  }

  @Override
  public void write(Kryo kryo, Output out, HostAlive a) {
    out.writeVarInt(a.held(), true);
  }

  @Override
  public HostAlive read(Kryo kryo, Input in, Class<? extends HostAlive> type) {
    int held = in.readVarInt(true);
    if (held < 0) {
      throw new KryoException("invalid held count " + held + " in HostAlive");
    }
    return new HostAlive(held);
  }
}
