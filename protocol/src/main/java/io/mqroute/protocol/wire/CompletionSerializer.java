package io.mqroute.protocol.wire;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.Status;

/**
 * The per-request completion, field by field (see {@link RequestSerializer} for why). Times are
 * sent as the submit time and two deltas, which are small:
 *
 * <pre>
 *   id varlong+ · status varint+ · submitNanos varlong(zigzag) · dispatch − submit varlong(zigzag)
 *   · complete − dispatch varlong(zigzag) · queue varint(zigzag)
 * </pre>
 */
final class CompletionSerializer extends Serializer<Completion> {
  private static final Status[] STATUSES = Status.values();

  CompletionSerializer() {
    super(false, true);
  }

  @Override
  public void write(Kryo kryo, Output out, Completion c) {
    out.writeVarLong(c.id(), true);
    out.writeVarInt(c.status().ordinal(), true);
    out.writeVarLong(c.submitNanos(), false);
    out.writeVarLong(c.dispatchNanos() - c.submitNanos(), false);
    out.writeVarLong(c.completeNanos() - c.dispatchNanos(), false);
    out.writeVarInt(c.queue(), false);
  }

  @Override
  public Completion read(Kryo kryo, Input in, Class<? extends Completion> type) {
    long id = in.readVarLong(true);
    int status = in.readVarInt(true);
    if (status < 0 || status >= STATUSES.length) {
      throw new KryoException("invalid status ordinal " + status);
    }
    long submit = in.readVarLong(false);
    long dispatch = submit + in.readVarLong(false);
    long complete = dispatch + in.readVarLong(false);
    int queue = in.readVarInt(false);
    return new Completion(id, STATUSES[status], submit, dispatch, complete, queue);
  }
}
